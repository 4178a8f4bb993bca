"""Crossword games for the tests: real rules from config/, lexicons from small word lists.

The fast suite plays on fixture lexicons (a few thousand words each); @pytest.mark.full tests
use the real artifacts. Positions come from the committed self-play files
tests/fixtures/crossword/selfplay-<game>.json (`make crossword-positions` rewrites them).
"""

import functools
import tempfile
import tomllib
from pathlib import Path

from crossword_oracle import WordIndex
from lookup.crossword.game import CrosswordGame
from lookup.crossword.movegen import gaddag_tables
from lookup.formats import INDEX_SUFFIX
from lookup.gaddag import load_gaddag
from pipeline.build_crossword import read_rules
from pipeline.build_dawg import write_graph_files
from pipeline.build_gaddag import gaddag_bytes
from pipeline.selfplay import read_selfplay

REPO = Path(__file__).resolve().parents[1]
FIXTURES = REPO / "tests" / "fixtures"
GAMES = ("scrabble-en", "wordfeud-en", "wordfeud-nl", "erudit-ru")
# The games with a committed leave table (sources/leaves/): `make` builds a table for these only.
TRAINED_GAMES = tuple(sorted(p.stem for p in (REPO / "sources" / "leaves").glob("*.leaves")))
FIXTURE_WORDS = {
    "enable": FIXTURES / "sources" / "enable.txt",
    "opentaal": FIXTURES / "crossword" / "opentaal-sample.txt",
    "opencorpora-nouns": FIXTURES / "crossword" / "opencorpora-nouns-sample.txt",
}
_TEMP = tempfile.TemporaryDirectory(prefix="wordpack-crossword-")


def lexicon_alphabet(lexicon: str) -> str:
    with open(REPO / "config" / "lexicons.toml", "rb") as handle:
        return tomllib.load(handle)[lexicon]["alphabet"]


@functools.lru_cache(maxsize=None)
def fixture_words(lexicon: str) -> tuple:
    return tuple(FIXTURE_WORDS[lexicon].read_text(encoding="utf-8").split())


def gaddag_file(words, alphabet: str, name: str) -> Path:
    """Write the GADDAG of `words` into a temporary file and return its path."""
    path = Path(_TEMP.name) / f"{name}.gaddag"
    write_graph_files(path, gaddag_bytes(sorted(set(words)), alphabet))
    return path


def copy_graph_files(source: Path, target: Path) -> None:
    """Copy a packed word graph and its runtime index (`source` + ".idx") to `target`."""
    for suffix in ("", INDEX_SUFFIX):
        Path(f"{target}{suffix}").write_bytes(Path(f"{source}{suffix}").read_bytes())


def tables_of(words, alphabet: str, name: str):
    return gaddag_tables(load_gaddag(gaddag_file(words, alphabet, name)))


@functools.lru_cache(maxsize=None)
def fixture_tables(lexicon: str):
    return tables_of(fixture_words(lexicon), lexicon_alphabet(lexicon), f"fixture-{lexicon}")


@functools.lru_cache(maxsize=None)
def rules(game: str):
    return read_rules(REPO / "config" / "crossword" / f"{game}.toml")


@functools.lru_cache(maxsize=None)
def fixture_game(game: str, compiled: bool | None = None) -> CrosswordGame:
    """The game with its real rules and the fixture lexicon of its language; `compiled` picks
    its move path (CrosswordGame's argument).
    """
    return CrosswordGame(rules(game), fixture_tables(rules(game).lexicon), compiled)


def generator_twin(cw: CrosswordGame) -> CrosswordGame:
    """The same game on the pure-Python move generator (lookup/crossword/movegen.py)."""
    return CrosswordGame(cw.rules, cw.tables(), compiled=False)


def game_with_words(game: str, words, name: str) -> CrosswordGame:
    """The game with its real rules and a lexicon of exactly `words`."""
    lexicon = rules(game).lexicon
    return CrosswordGame(rules(game), tables_of(words, lexicon_alphabet(lexicon), name))


@functools.lru_cache(maxsize=None)
def fixture_index(lexicon: str) -> WordIndex:
    return WordIndex(fixture_words(lexicon), lexicon_alphabet(lexicon))


@functools.lru_cache(maxsize=None)
def selfplay_positions(game: str) -> list:
    return read_selfplay(FIXTURES / "crossword" / f"selfplay-{game}.json")["positions"]


def blank_variant(cw: CrosswordGame, board, rack: str, blanks: int) -> str | None:
    """The rack with exactly `blanks` blanks (letters dropped from its end to make room), or
    None when the set has not that many blanks left beside the board's."""
    on_board = sum(1 for _r, _c, _l, is_blank in board.tiles() if is_blank)
    if on_board + blanks > cw.rules.blanks:
        return None
    letters = [tile for tile in rack if tile != "?"]
    keep = max(0, min(len(letters), len(rack) - blanks))
    return "".join(letters[:keep]) + "?" * blanks


def cases(cw: CrosswordGame, game: str, count: int, step: int = 1) -> list:
    """(position number, board, rack) for every `step`-th self-play position, the rack given
    0, 1 and 2 blanks in turn, until `count` cases; the empty board comes first."""
    found = []
    positions = selfplay_positions(game)
    for k, position in enumerate(positions[::step]):
        board = cw.parse_board(position["board"])
        rack = blank_variant(cw, board, position["rack"], k % 3)
        if rack is None:
            rack = blank_variant(cw, board, position["rack"], 0)
        found.append((k * step, board, rack))
        if len(found) >= count:
            break
    return found
