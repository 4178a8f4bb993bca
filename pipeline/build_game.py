"""Build a guessing game's word lists and descriptor from config/guessing.toml.

Reads the game's table in the config, the source lists it names (sources/... or artifacts/...),
and writes next to the output `<game>.game.json`:
  - `<game>.answers.txt`: the answers, one per line, in source order (Wordle: game order);
  - `<game>.guesses.txt`: every allowed guess; the answers come first in the same order, so
    guesses[i] == answers[i] for i < len(answers), then the other allowed words in source order;
  - `<game>.game.json`: id, name, alphabet, length, the two files with counts and sha256, the
    default root and the filter that selected the words.
It also writes the Makefile fragment that lists the games and each game's inputs
(`wordpack-build guessing-make`), so a new game is a config table plus its sources, no code.

Usage: wordpack-build game config/guessing.toml wordle-en --sources sources
       --artifacts artifacts -o artifacts/guessing/wordle-en.game.json
"""

import json
import tomllib
from dataclasses import dataclass
from pathlib import Path

from lookup.errors import BadInput, UnknownName
from lookup.formats import (
    EQUATIONS_FORMAT,
    GAME_FORMAT,
    GAME_LIST_FORMAT,
    GAME_LIST_VERSION,
    GAME_VERSION,
    GAMES_INDEX_FORMAT,
    GAMES_INDEX_VERSION,
    corrupt,
    require_file,
    sha256_file,
)
from lookup.guessing.equations import read_equation_list
from lookup.headers import SEAL_TAGS, sealed_json
from lookup.word_list import read_word_list
from pipeline.atomic import atomic_output
from pipeline.provenance import record

# Config paths start with one of these roots; the build maps them to --sources / --artifacts so
# the same config works on fixtures (tests) and on the real tree.
ROOTS = ("sources", "artifacts")
# Values of the optional `guess_rules` key: rules the runtime checks a typed guess against, to
# say why a word outside the allowed list is refused (lookup.guessing.game.GuessingGame._word).
GUESS_RULES = ("nerdle-equations",)


@dataclass(frozen=True)
class GameConfig:
    """One table of config/guessing.toml."""

    id: str
    name: str
    alphabet: str
    length: int
    answers: tuple[str, ...]  # config paths, read in order, union
    guesses: tuple[str, ...]  # config paths of further allowed guesses
    root: str | None  # default opener; None = the best the search finds
    hard_candidates: tuple[str, ...]  # openers the hard-mode screening tries first
    filter: str  # what selects the words, in prose (copied into the descriptor)
    expect_answers: int | None
    expect_guesses: int | None
    opener_candidates: int  # openers the tree build screens exactly (best by lower bound)
    max_guesses: int  # the game's guess limit (Wordle, Nerdle: 6)
    search_width: int  # 0: exact tree search; k > 0: only the k best-bounded guesses per node
    guess_rules: str | None  # None, or a key of GUESS_RULES: what a typed guess must obey
    proof_only: bool  # built only to prove its openers: not shipped, not in games.json


def load_config(path) -> dict[str, GameConfig]:
    """Parse config/guessing.toml (or a one-game `_<id>.config.json`) into {id: GameConfig}.

    Raises:
        BadInput: a table misses a key or has one of the wrong type.
    """
    with open(path, "rb") as handle:
        tables = json.load(handle) if Path(path).suffix == ".json" else tomllib.load(handle)
    games = {}
    for game_id, table in tables.items():
        try:
            config = GameConfig(
                id=game_id,
                name=str(table.get("name", game_id)),
                alphabet=str(table["alphabet"]),
                length=int(table["length"]),
                answers=tuple(table["answers"]),
                guesses=tuple(table.get("guesses", ())),
                root=table.get("root"),
                hard_candidates=tuple(table.get("hard_candidates", ())),
                filter=str(table.get("filter", f"words of length {table['length']} over the "
                                                 "alphabet")),
                expect_answers=table.get("expect_answers"),
                expect_guesses=table.get("expect_guesses"),
                opener_candidates=int(table.get("opener_candidates", 16)),
                max_guesses=int(table.get("max_guesses", 6)),
                search_width=int(table.get("search_width", 0)),
                guess_rules=table.get("guess_rules"),
                proof_only=table.get("proof_only", False),
            )
        except (KeyError, TypeError, ValueError) as error:
            raise BadInput(f"{path}: game [{game_id}] has a missing or malformed key ({error})")
        if not isinstance(config.proof_only, bool):
            raise BadInput(f"{path}: game [{game_id}]: proof_only must be true or false")
        if config.guess_rules is not None and config.guess_rules not in GUESS_RULES:
            raise BadInput(f"{path}: game [{game_id}]: guess_rules {config.guess_rules!r} is "
                           f"unknown; use one of {', '.join(GUESS_RULES)}")
        if len(set(config.alphabet)) != len(config.alphabet):
            raise BadInput(f"{path}: game [{game_id}] repeats a character in its alphabet")
        for config_path in config.answers + config.guesses:
            if config_path.split("/", 1)[0] not in ROOTS:
                raise BadInput(f"{path}: game [{game_id}]: {config_path!r} must start with "
                               "sources/ or artifacts/")
        games[game_id] = config
    return games


def game_config(path, game_id: str) -> GameConfig:
    """The table of one game; UnknownName if the config has none."""
    games = load_config(path)
    if game_id not in games:
        raise UnknownName(f"{path} has no game {game_id!r}; known: {', '.join(games)}")
    return games[game_id]


def resolve(config_path: str, sources, artifacts) -> Path:
    """Map a config path (sources/x or artifacts/x) to the directories of this build."""
    root, rest = config_path.split("/", 1)
    return Path(sources if root == "sources" else artifacts) / rest


def _fits(word: str, config: GameConfig) -> bool:
    return len(word) == config.length and all(ch in config.alphabet for ch in word)


def read_source_list(path) -> list[str]:
    """The words of a list a game names, read strictly.

    An equation list (first line `# nerdle-equations ...`) is read by
    lookup.guessing.equations.read_equation_list, which checks its header, seal and count; any
    other list by lookup.word_list.read_word_list. A first line that names the format or holds
    the seal's tag is an equation list's: two marks, so that one damaged byte cannot turn an
    equation list into a word list read unchecked.
    """
    path = require_file(path, str(path))
    with open(path, "rb") as handle:
        first_line = handle.readline()
    if not first_line:
        raise corrupt(path, "is empty", str(path))
    is_equation_list = (EQUATIONS_FORMAT.encode() in first_line
                        or SEAL_TAGS["text"] in first_line)
    return read_equation_list(path)[1] if is_equation_list else read_word_list(path)


def _collect(paths, config: GameConfig, seen: set[str]) -> list[str]:
    """Words of `paths` in order that fit the game and are not in `seen` (which is updated)."""
    words = []
    for path in paths:
        for word in read_source_list(path):
            word = word.lower()
            if word not in seen and _fits(word, config):
                seen.add(word)
                words.append(word)
    return words


def game_words(config: GameConfig, sources, artifacts) -> tuple[list[str], list[str]]:
    """The answer list and the guess list (answers first) of a game.

    Raises:
        BadInput: no answers, or a count differs from expect_answers / expect_guesses.
    """
    seen: set[str] = set()
    answers = _collect([resolve(p, sources, artifacts) for p in config.answers], config, seen)
    others = _collect([resolve(p, sources, artifacts) for p in config.guesses], config, seen)
    guesses = answers + others
    if not answers:
        raise BadInput(f"game {config.id}: no answer fits length {config.length} and the alphabet")
    for what, words, expected in (("answers", answers, config.expect_answers),
                                  ("guesses", guesses, config.expect_guesses)):
        if expected is not None and len(words) != expected:
            raise BadInput(f"game {config.id}: {len(words)} {what}, the config expects "
                           f"{expected}; check the sources")
    if config.root is not None and config.root not in guesses:
        raise BadInput(f"game {config.id}: root {config.root!r} is not an allowed guess")
    for word in config.hard_candidates:
        if word not in guesses:
            raise BadInput(f"game {config.id}: hard_candidates word {word!r} is not an allowed "
                           "guess")
    return answers, guesses


def _write_text(path: Path, text: str) -> None:
    with atomic_output(path, "wb") as handle:  # bytes: UTF-8 whatever the locale says
        handle.write(text.encode("utf-8"))


def _json_text(data) -> str:
    return json.dumps(data, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def build_game(config_path, game_id: str, sources, artifacts, output) -> dict:
    """Write `<game>.answers.txt`, `<game>.guesses.txt` and the descriptor `output`."""
    config = game_config(config_path, game_id)
    answers, guesses = game_words(config, sources, artifacts)
    output = Path(output)
    stem = output.name.removesuffix(".game.json")
    inputs = [resolve(p, sources, artifacts) for p in config.answers + config.guesses]
    files = {}
    for role, words in (("answers", answers), ("guesses", guesses)):
        path = output.with_name(f"{stem}.{role}.txt")
        _write_text(path, "".join(w + "\n" for w in words))
        record(path, format=GAME_LIST_FORMAT, version=GAME_LIST_VERSION, inputs=inputs)
        files[role] = {"file": path.name, "count": len(words), "sha256": sha256_file(path)}
    descriptor = {
        "format": GAME_FORMAT,
        "version": GAME_VERSION,
        "id": config.id,
        "name": config.name,
        "alphabet": config.alphabet,
        "length": config.length,
        "answers": files["answers"],
        "guesses": files["guesses"],
        "root": config.root,
        "opener_candidates": config.opener_candidates,
        "max_guesses": config.max_guesses,
        "search_width": config.search_width,
        "guess_rules": config.guess_rules,
        "filter": config.filter,
        "sources": {"answers": list(config.answers), "guesses": list(config.guesses)},
        # Optional (absent: none), so that games without it keep their descriptor bytes.
        **({"hard_candidates": list(config.hard_candidates)} if config.hard_candidates else {}),
    }
    with atomic_output(output, "wb") as handle:
        handle.write(sealed_json(descriptor))
    record(output, format=GAME_FORMAT, version=GAME_VERSION, inputs=inputs + [Path(config_path)])
    return descriptor


def config_fragment_path(directory, game_id: str) -> Path:
    """Where make_rules puts one game's table: `<directory>/_<id>.config.json`."""
    return Path(directory) / f"_{game_id}.config.json"


def make_rules(config_path, output, fragments) -> None:
    """Write the Makefile fragment and one `_<id>.config.json` per game into `fragments`.

    The Makefile fragment sets GUESSING_GAMES (the shipped games), PROOF_ONLY_GAMES (built in
    $(PROOF_ONLY) for their opener proofs only) and each game's source prerequisites, with
    $(SOURCES) / $(ARTIFACTS) unexpanded so overrides keep working. A game's descriptor depends
    on its own config file, which is rewritten only when that game's table changes: editing or
    adding one game does not rebuild the others.
    """
    games = load_config(config_path)
    with open(config_path, "rb") as handle:
        tables = tomllib.load(handle)
    for game_id, table in tables.items():
        text = _json_text({game_id: table})
        path = config_fragment_path(fragments, game_id)
        if not path.is_file() or path.read_text(encoding="utf-8") != text:
            _write_text(path, text)
    lines = [f"# Generated from {config_path} by `wordpack-build guessing-make`; do not edit.",
             "GUESSING_GAMES := " + " ".join(g for g, c in games.items() if not c.proof_only),
             "PROOF_ONLY_GAMES := " + " ".join(g for g, c in games.items() if c.proof_only)]
    for config in games.values():
        deps = []
        for source in dict.fromkeys(config.answers + config.guesses):
            root, rest = source.split("/", 1)
            deps.append(f"$({root.upper()})/{rest}")
        directory = "$(PROOF_ONLY)" if config.proof_only else "$(GUESSING)"
        lines.append(f"{directory}/{config.id}.game.json: {' '.join(deps)}")
    with atomic_output(output, "w") as handle:
        handle.write("\n".join(lines) + "\n")


def build_index(config_path, output) -> dict:
    """Write `games.json`: the shipped games' ids and names (the runtime has no config/)."""
    games = load_config(config_path)
    index = {"format": GAMES_INDEX_FORMAT, "version": GAMES_INDEX_VERSION,
             "games": {game_id: config.name for game_id, config in games.items()
                       if not config.proof_only}}
    with atomic_output(output, "wb") as handle:
        handle.write(sealed_json(index))
    record(output, format=GAMES_INDEX_FORMAT, version=GAMES_INDEX_VERSION,
           inputs=[Path(config_path)])
    return index
