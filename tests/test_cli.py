"""Both commands on bad invocations (usage errors exit 2, wordpack errors exit 1, never a
traceback), `wordpack --help` listing the commands by area, and `wordpack play` going on to the
depth of the stored tree."""

import subprocess
import sys

import pytest

from conftest import FIXTURES, REPO
from lookup.paths import artifacts_dir

GAMES = FIXTURES / "guessing"


@pytest.fixture(scope="module")
def artifacts(tmp_path_factory):
    """tiny-en with a guess limit of 2 (its tree needs 3), and the scrabble-en rules."""
    built = tmp_path_factory.mktemp("artifacts")
    fixture_table = (GAMES / "guessing.toml").read_text().split("[tiny-de]")[0]
    config = built / "guessing.toml"
    config.write_text(fixture_table.replace("max_guesses = 6", "max_guesses = 2"))
    subprocess.run(["make", "-C", str(REPO), f"ARTIFACTS={built}", f"SOURCES={GAMES}",
                    f"GUESSING_CONFIG={config}", "guessing", f"{built}/crossword/scrabble-en.json"],
                   capture_output=True, text=True, check=True)
    return built


def run(module, artifacts, *args, stdin=""):
    return subprocess.run([sys.executable, "-m", module, *args], capture_output=True, text=True,
                          cwd=REPO, input=stdin,
                          env={"WORDPACK_ARTIFACTS": str(artifacts), "PATH": "/usr/bin:/bin"})


QUERY_USAGE_ERRORS = [
    ([], "the following arguments are required: COMMAND"),
    (["nope"], "invalid choice: 'nope'"),
    (["--nope"], "the following arguments are required: COMMAND"),
    (["check", "enable"], "the following arguments are required: words"),
    (["anagram", "enable", "a", "b", "c"], "unrecognized arguments: b c"),
    (["match", "enable"], "the following arguments are required: pattern"),
    (["match", "scrabble-en"], "required: pattern (scrabble-en is a crossword game: for a bot "
                               "match use `wordpack bots scrabble-en --a BOT --b BOT ...`)"),
    (["bots"], "the following arguments are required: game"),
    (["bots", "nope"], "unknown crossword game 'nope'"),
    (["bots", "scrabble-en", "--pairs", "0"], "--pairs: must be at least 1, not 0"),
    (["bots", "scrabble-en", "--seed", "-1"], "--seed: must be at least 0, not -1"),
    (["unscramble", "enable", "abc", "--min-len", "0"], "--min-len: must be at least 1, not 0"),
    (["unscramble", "enable", "abc", "--min-len", "two"], "'two' is not a whole number"),
    (["unscramble", "enable", "abc", "--game", "monopoly"], "unknown crossword game 'monopoly'"),
    (["info", "extra"], "unrecognized arguments: extra"),
    (["solve", "tiny-en", "-g", "bell"], "'bell': write it as WORD=FEEDBACK"),
    (["solve", "tiny-en", "-g", "=0222"], "'=0222': write it as WORD=FEEDBACK"),
    (["solve", "tiny-en", "--top", "0"], "--top: must be at least 1, not 0"),
    (["solve", "nope"], "unknown guessing game 'nope'"),
    (["tree", "nope"], "unknown guessing game 'nope'"),
    (["tree", "tiny-en", "--hard=yes"], "ignored explicit argument 'yes'"),
    (["play"], "the following arguments are required: game"),
    (["opener", "tiny-en"], "the following arguments are required: word"),
    (["moves", "scrabble-en", "--rack", "abc"], "the following arguments are required: --board"),
    (["moves", "nope", "--board", "-", "--rack", "a"], "unknown crossword game 'nope'"),
    (["moves", "scrabble-en", "--board", "-", "--rack", "a", "--bag", "-1"],
     "--bag: must be at least 0, not -1"),
]

BUILD_USAGE_ERRORS = [
    ([], "Missing command."),
    (["nope"], "No such command 'nope'."),
    (["dawg"], "Missing argument"),
    (["dawg", "words.txt", "--lexicon", "enable"], "Missing option '-o'"),
    (["tree", "a.npy", "b.npy", "-o", "tree.msgpack"], "unexpected extra argument(s) (b.npy)"),
    (["equations", "--length", "x", "--kind", "answers", "-o", "x.txt"],
     "Invalid value for '--length'"),
    (["lexicon", "klingon", "-o", "x.txt"], "no lexicon 'klingon'"),
    (["game", "config/guessing.toml", "nope", "-o", "x.json"], "has no game 'nope'"),
    (["selfplay", "scrabble-en", "--games", "0", "--seed", "1", "-o", "x.json"],
     "Invalid value for '--games'"),
    (["selfplay", "nope", "--games", "1", "--seed", "1", "-o", "x.json"],
     "unknown crossword game 'nope'"),
]


@pytest.mark.parametrize("args, message", QUERY_USAGE_ERRORS)
def test_query_usage_errors(artifacts, args, message):
    result = run("lookup", artifacts, *args)
    assert result.returncode == 2, result.stderr
    usage, error = result.stderr.splitlines()[0], result.stderr.splitlines()[-1]
    assert usage.startswith("usage: wordpack") and error.startswith("wordpack")
    assert ": error: " in error and message in error, result.stderr
    assert result.stdout == "" and "Traceback" not in result.stderr


# The headings of `wordpack --help`, in order, each with its commands in order.
HELP_GROUPS = {
    "lexicon queries": ["check", "anagram", "unscramble", "match"],
    "guessing games": ["solve", "play", "opener", "tree"],
    "crossword games": ["moves", "leave", "sim", "endgame", "bots"],
    "site and files": ["info", "serve"],
}


def test_help_lists_every_command_once_under_its_heading(tmp_path):
    from lookup.cli import build_parser

    result = run("lookup", tmp_path, "--help")
    assert result.returncode == 0 and result.stderr == "", result.stderr
    assert result.stdout.startswith("usage: wordpack [-h] COMMAND ...\n")
    listed, heading = {}, None  # heading -> the names under it
    for line in result.stdout.splitlines():
        if line and not line.startswith(" "):  # a heading, or the usage and description
            heading = line.removesuffix(":") if line.endswith(":") else None
            if heading is not None:
                listed[heading] = []
        elif heading is not None and line.startswith("  ") and not line.startswith("   "):
            listed[heading].append(line.split()[0])  # a name, not a wrapped help line
    assert list(listed) == ["options", *HELP_GROUPS]
    assert {title: listed[title] for title in HELP_GROUPS} == HELP_GROUPS
    # Every command the parser knows, each once; nothing else under a group heading.
    commands = [name for title in HELP_GROUPS for name in listed[title]]
    assert sorted(commands) == sorted(set(commands)) == sorted(build_parser().commands)
    match_line = next(line for line in result.stdout.splitlines() if line.startswith("  match "))
    assert match_line.split(None, 1)[1] == "Words matching a pattern"  # no bot match any more


@pytest.mark.parametrize("args", [["match"], ["bots"], ["moves"]])
def test_command_help_is_its_own(tmp_path, args):
    result = run("lookup", tmp_path, *args, "--help")
    assert result.returncode == 0 and result.stderr == ""
    assert result.stdout.startswith(f"usage: wordpack {args[0]} [-h]")
    assert "lexicon queries:" not in result.stdout


def test_match_without_a_pattern_names_the_bots_command(artifacts):
    """`wordpack match GAME` was the bot match: one usage line, then one line naming `bots`."""
    result = run("lookup", artifacts, "match", "scrabble-en")
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.splitlines() == [
        "usage: wordpack match [-h] [--json] lexicon pattern",
        "wordpack match: error: the following arguments are required: pattern (scrabble-en is a "
        "crossword game: for a bot match use `wordpack bots scrabble-en --a BOT --b BOT ...`)"]
    # A lexicon, or a name that is no built game, gets argparse's usual line.
    for name in ("enable", "nope"):
        result = run("lookup", artifacts, "match", name)
        assert result.returncode == 2
        assert result.stderr.splitlines()[-1] == \
            "wordpack match: error: the following arguments are required: pattern"


@pytest.mark.parametrize("args, message", BUILD_USAGE_ERRORS)
def test_build_usage_errors(artifacts, args, message):
    result = run("pipeline", artifacts, *args)
    assert result.returncode == 2, result.stderr
    lines = result.stderr.splitlines()
    assert lines[0].startswith("Usage: wordpack-build") and lines[-1].startswith("Error: ")
    assert message in lines[-1], result.stderr
    assert result.stdout == "" and "Traceback" not in result.stderr


@pytest.mark.parametrize("module, args, message", [
    ("lookup", ["anagram", "enable", "abc"], "none is built yet; run `make lexicons`"),
    ("lookup", ["moves", "scrabble-en", "--board", "nowhere.txt", "--rack", "a"],
     "board file nowhere.txt does not exist"),
    ("lookup", ["info"], "manifest.json does not exist: run `make artifacts` to build it"),
    ("lookup", ["solve", "tiny-en", "-g", "belq=0000"], "not in the allowed list"),
    ("pipeline", ["equations", "--length", "6", "--kind", "hints", "-o", "x.txt"],
     "unknown equation kind 'hints'"),
])
def test_wordpack_errors_are_one_line(artifacts, module, args, message):
    result = run(module, artifacts, *args)
    assert result.returncode == 1
    assert result.stderr.startswith("error: ") and result.stderr.count("\n") == 1
    assert message in result.stderr, result.stderr


def test_play_goes_on_to_the_depth_of_the_tree(artifacts, monkeypatch):
    import lookup

    monkeypatch.setenv("WORDPACK_ARTIFACTS", str(artifacts))
    game = lookup.guessing_game("tiny-en")
    assert game.max_guesses == 2 and game.tree_stats()["max"] == 3
    answer = next(a for a in game.answers if _guesses_to(game, a) == 3)
    lines, history = [], []
    while not history or history[-1][1] != "2222":
        guess = game.next_guess(history)
        history.append((guess, game.feedback(guess, answer)))
        lines += ["", history[-1][1]]
    result = run("lookup", artifacts, "play", "tiny-en", stdin="\n".join(lines) + "\n")
    assert result.returncode == 0, result.stderr
    assert result.stdout.endswith("solved in 3\n")
    # Guesses that are not the answer: the game stops after the tree's depth, not before.
    misses = [g for g in game.guesses if g != answer][:4]
    stdin = "".join(f"{g}\n{game.feedback(g, answer)}\n" for g in misses)
    result = run("lookup", artifacts, "play", "tiny-en", stdin=stdin)
    assert result.stdout.endswith("out of guesses\n") and result.stdout.count("colours for") == 3


def _guesses_to(game, answer):
    history = []
    while not history or history[-1][1] != "2222":
        guess = game.next_guess(history)
        history.append((guess, game.feedback(guess, answer)))
    return len(history)


@pytest.mark.full
@pytest.mark.parametrize("game_id, depth", [("wordle-de", 7), ("wordle-nl", 7)])
def test_play_follows_a_real_hard_tree_to_its_depth(game_id, depth, monkeypatch):
    import lookup
    from lookup.guessing.feedback import all_green
    from lookup.guessing.tree import load_tree

    monkeypatch.setenv("WORDPACK_ARTIFACTS", str(artifacts_dir()))
    game = lookup.guessing_game(game_id)
    assert game.tree_stats(hard=True)["max"] == depth > game.max_guesses
    tree = load_tree(artifacts_dir() / "guessing" / f"{game_id}.hard.tree.msgpack",
                     game.descriptor["answers"]["sha256"], game.descriptor["guesses"]["sha256"])
    green = all_green(game.length)
    for answer in range(len(game.answers)):
        node, played = tree.root, []
        while True:
            played.append(game.guesses[node[0]])
            code = int(game.codes[node[0], answer])
            if code == green:
                break
            node = tree.child(node, code)
        if len(played) == depth:
            break
    colours = [game.feedback(guess, game.answers[answer]) for guess in played]
    stdin = "".join(f"\n{digits}\n" for digits in colours)
    result = run("lookup", artifacts_dir(), "play", game_id, "--hard", stdin=stdin)
    assert result.returncode == 0, result.stderr
    assert result.stdout.endswith(f"solved in {depth}\n")
