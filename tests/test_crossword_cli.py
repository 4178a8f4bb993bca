"""`wordpack-build crossword`, `wordpack moves`, `wordpack bots` and `wordpack-build selfplay`
on fixture artifacts, and the Makefile rule that builds the rules artifacts."""

import json
import subprocess
import sys

import pytest

from crossword_support import FIXTURE_WORDS, REPO, copy_graph_files, gaddag_file, lexicon_alphabet
from pipeline.selfplay import read_selfplay, summary

BOARD = "\n".join(["." * 15] * 7 + [".....cat......."] + ["." * 15] * 7) + "\n"


@pytest.fixture(scope="module")
def artifacts(tmp_path_factory):
    """An artifacts directory with the scrabble-en rules and the fixture ENABLE GADDAG."""
    built = tmp_path_factory.mktemp("artifacts")
    words = FIXTURE_WORDS["enable"].read_text().split()
    result = build_game(built, "scrabble-en", "enable", words, "cli-enable")
    assert result.returncode == 0, result.stderr
    assert "scrabble-en, 100 tiles, lexicon enable" in result.stdout
    return built


def run(module, built, *args, stdin=None):
    return subprocess.run([sys.executable, "-m", module, *args], capture_output=True,
                          text=True, cwd=REPO, input=stdin,
                          env={"WORDPACK_ARTIFACTS": str(built), "PATH": "/usr/bin:/bin",
                               "TQDM_DISABLE": "1"})


def wordpack(built, *args, stdin=None):
    return run("lookup", built, *args, stdin=stdin)


def wordpack_build(built, *args):
    return run("pipeline", built, *args)


def build_game(built, game: str, lexicon: str, words, name: str):
    """Put into the artifacts directory `built` the GADDAG of `words` as lexicon `lexicon` and
    the rules of crossword game `game` (`name` tells the GADDAG's temporary file); the rules
    build's result."""
    (built / "lexicons").mkdir(exist_ok=True)
    source = gaddag_file(words, lexicon_alphabet(lexicon), name)
    copy_graph_files(source, built / "lexicons" / f"{lexicon}.gaddag")
    return wordpack_build(built, "crossword", f"config/crossword/{game}.toml", "-o",
                          str(built / "crossword" / f"{game}.json"))


def test_moves_table_and_board(artifacts, tmp_path):
    (tmp_path / "board.txt").write_text(BOARD)
    result = wordpack(artifacts, "moves", "scrabble-en", "--board", str(tmp_path / "board.txt"),
                      "--rack", "s?", "--top", "3")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].split() == ["#", "score", "move", "word", "words", "formed"]
    # A blank A above the s that makes "cats": AS scores 0 + 1, CATS 3 + 1 + 1 + 1.
    assert lines[1].split() == ["1", "7", "V", "6,8", "As", "AS", "CATS"]
    assert lines[4].startswith("(3 shown, ")
    assert lines[6].split() == [str(c) for c in range(15)]
    assert lines[7 + 6].split()[:1] == ["6"] and "[A]" in lines[7 + 6]
    assert "[s]" in lines[7 + 7]


def test_moves_json_from_stdin(artifacts):
    result = wordpack(artifacts, "moves", "scrabble-en", "--board", "-", "--rack", "s",
                      "--top", "2", "--json", stdin=BOARD)
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["rack"] == "s" and len(data["moves"]) == 2
    assert set(data["moves"][0]) == {"kind", "row", "col", "direction", "word", "placed",
                                     "words", "score", "exchanged", "parts"}


@pytest.mark.parametrize("args, message", [
    (["--board", "-", "--rack", "abcdefgh"], "error: rack 'abcdefgh' has 8 tiles"),
    (["--board", "nowhere.txt", "--rack", "a"], "error: board file nowhere.txt does not exist"),
])
def test_moves_errors_are_one_line(artifacts, args, message):
    result = wordpack(artifacts, "moves", "scrabble-en", *args, stdin=BOARD)
    assert result.returncode == 1
    assert result.stderr.startswith(message) and result.stderr.count("\n") == 1


def test_bad_board_is_one_line(artifacts):
    result = wordpack(artifacts, "moves", "scrabble-en", "--board", "-", "--rack", "a",
                      stdin=BOARD.replace("cat", "c#t"))
    assert result.returncode == 1
    assert result.stderr == "error: board row 7 col 6: unknown symbol '#' (use '.', a lowercase " \
                            "letter for a tile, an uppercase letter for a blank)\n"


def test_missing_lexicon_names_the_make_target(tmp_path):
    built = tmp_path / "artifacts"
    wordpack_build(built, "crossword", "config/crossword/wordfeud-nl.toml", "-o",
             str(built / "crossword" / "wordfeud-nl.json"))
    result = wordpack(built, "moves", "wordfeud-nl", "--board", "-", "--rack", "a", stdin=BOARD)
    assert result.returncode == 1
    assert "make artifacts/lexicons/opentaal.gaddag" in result.stderr


def test_bots_play_a_match(artifacts):
    """Greedy against greedy: the two games of a mirrored pair are one game with the seats
    swapped, so A wins exactly as often as it loses and the spread is 0."""
    args = ["bots", "scrabble-en", "--a", "greedy", "--b", "greedy", "--pairs", "2", "--seed",
            "1"]
    result = wordpack(artifacts, *args)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "scrabble-en: greedy (A) against greedy (B), 2 mirrored pairs, seed 1"
    assert lines[1].startswith("A wins ") and "win rate 50.0 %" in lines[1]
    assert lines[2].startswith("mean spread +0.0 points per game; points per move: A ")
    assert result.stderr.splitlines()[-1] == "2/2 pairs: greedy wins 50.0 %, spread +0.0"
    result = wordpack(artifacts, *args, "--json")
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout)
    assert {key: summary[key] for key in ("game", "a", "b", "pairs", "seed")} == \
        {"game": "scrabble-en", "a": "greedy", "b": "greedy", "pairs": 2, "seed": 1}
    assert summary["wins"] == summary["losses"] and \
        summary["wins"] + summary["draws"] + summary["losses"] == 4
    assert (summary["win_rate"], summary["mean_spread"]) == (0.5, 0.0)
    assert summary["points_per_move"][0] == summary["points_per_move"][1] > 0


def test_bots_unknown_bot_is_one_line(artifacts):
    result = wordpack(artifacts, "bots", "scrabble-en", "--a", "smart", "--pairs", "1")
    assert result.returncode == 1
    assert result.stderr == ("error: unknown bot 'smart'; the bots are greedy, equity, tile, "
                             "sim, turn-equity, turn-greedy\n")


def test_selfplay_is_deterministic(artifacts, tmp_path):
    outputs = []
    for name in ("a.json", "b.json"):
        result = wordpack_build(artifacts, "selfplay", "scrabble-en", "--games", "2", "--seed", "7",
                          "-o", str(tmp_path / name))
        assert result.returncode == 0, result.stderr
        assert "positions from 2 games" in result.stdout
        outputs.append((tmp_path / name).read_bytes())
    assert outputs[0] == outputs[1]
    data = read_selfplay(tmp_path / "a.json")
    assert (data["game"], data["seed"], data["games"]) == ("scrabble-en", 7, 2)
    first = data["positions"][0]
    assert first["board"] == "\n".join(["." * 15] * 15) + "\n" and len(first["rack"]) == 7
    assert len(first["bag"]) == 100 - 14
    stats = summary(data)
    assert stats["points"] == sum(p["score"] for p in data["positions"])
    assert stats["plays"] == sum(1 for p in data["positions"] if p["move"][0] in "HV")


def test_makefile_builds_the_rules(tmp_path):
    result = subprocess.run(["make", f"ARTIFACTS={tmp_path}", "crossword"], cwd=REPO,
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    built = sorted(p.name for p in (tmp_path / "crossword").glob("[!_]*.json"))
    assert built == ["erudit-ru.json", "scrabble-en.json", "wordfeud-en.json", "wordfeud-nl.json"]
    again = subprocess.run(["make", "-q", f"ARTIFACTS={tmp_path}", "crossword"], cwd=REPO)
    assert again.returncode == 0


@pytest.mark.parametrize("game", ["scrabble-en", "wordfeud-en", "wordfeud-nl", "erudit-ru"])
def test_committed_positions_are_real_positions(game):
    from collections import Counter

    from crossword_support import fixture_game, selfplay_positions
    from pipeline.selfplay import full_bag

    cw = fixture_game(game)
    full = Counter(full_bag(cw))
    positions = selfplay_positions(game)
    assert len(positions) >= 200
    for position in positions:
        board = cw.parse_board(position["board"])
        seen = Counter("?" if blank else letter for _r, _c, letter, blank in board.tiles())
        seen += Counter(position["rack"]) + Counter(position["bag"])
        # What is not seen is on the opponent's rack: at most a full rack.
        assert not seen - full and sum((full - seen).values()) <= cw.rules.rack_size


def test_moves_lists_erudit_turns(tmp_path):
    """A turn row names its parts in order; the board marks the new tiles of every part."""
    result = build_game(tmp_path, "erudit-ru", "opencorpora-nouns", ["кот", "ко", "то", "кто"],
                        "cli-erudit")
    assert result.returncode == 0, result.stderr
    rows = ["." * 15] * 15
    rows[7] = "." * 6 + "кот" + "." * 6
    result = wordpack(tmp_path, "moves", "erudit-ru", "--board", "-", "--rack", "оо", "--top",
                      "3", stdin="\n".join(rows) + "\n")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[1].split() == ["1", "8", "turn", "V", "7,6", "ко", "+", "V", "7,8", "то",
                                "КО", "ТО"]
    assert lines[2].split() == ["2", "4", "V", "7,6", "ко", "КО"]
    assert lines[7 + 8].count("[о]") == 2  # row 8: the о of each part
def test_sim_table(artifacts, tmp_path):
    (tmp_path / "board.txt").write_text(BOARD)
    result = wordpack(artifacts, "sim", "scrabble-en", "--board", str(tmp_path / "board.txt"),
                      "--rack", "ss", "--unseen", "qz", "--iterations", "2")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].split() == ["#", "move", "word", "score", "equity", "mean", "stderr",
                                "gain", "iters"]
    # The opponent's q and z stay stuck: one dealing, no spread between iterations.
    assert lines[1].split()[:5] + lines[1].split()[7:] == ["1", "H", "7,5", "cats", "6",
                                                            "0.00", "baseline", "2"]
    assert lines[-1] == "(no leave values for this game: equity is the score)"


@pytest.mark.parametrize("threads", ["1", "2"])
def test_sim_to_the_end(artifacts, tmp_path, threads):
    (tmp_path / "board.txt").write_text(BOARD)
    result = wordpack(artifacts, "sim", "scrabble-en", "--board", str(tmp_path / "board.txt"),
                      "--rack", "ss", "--unseen", "qz", "--iterations", "2", "--plies", "end",
                      "--threads", threads, "--json")
    assert result.returncode == 0, result.stderr
    rows = json.loads(result.stdout)
    # CATS (6), the opponent's q and z stuck, then AS down goes out (3: the s on a double
    # letter): 6 + 3 + 2 x 20; AS first, then CATS, the same. ASS down goes out at once:
    # 4 + 2 x 20. The same on two threads.
    assert [(row["move"]["word"], row["mean"], row["iterations"]) for row in rows] == \
        [("cats", 49.0, 2), ("as", 49.0, 2), ("ass", 44.0, 2)]


@pytest.mark.parametrize("args, message", [
    (["sim", "--rack", "ss", "--seconds", "0"], "argument --seconds: must be positive, not 0"),
    (["sim", "--rack", "ss", "--plies", "0"], "argument --plies: must be at least 1"),
    (["sim", "--rack", "ss", "--iterations", "0"], "argument --iterations: must be at least 1"),
    (["sim", "--rack", "ss", "--threads", "17"],
     "error: threads must be a whole number from 1 to 16, not 17"),
    (["endgame", "--rack", "s", "--opponent", "q"], "error: 95 tiles are still in the bag"),
    (["endgame", "--rack", "s", "--opponent", "q", "--threads", "0"],
     "argument --threads: must be at least 1"),
    (["endgame", "--rack", "s", "--opponent", "q", "--threads", "17"],
     "error: threads must be a whole number from 1 to 16, not 17"),
    (["endgame", "--rack", "s", "--opponent", "q", "--threads", "2", "--nodes", "9"],
     "error: a node budget gives the same answer on any machine only on one thread"),
    (["sim", "--rack", "s", "--unseen", "qq"], "error: board and rack and unseen tiles hold 2 "
                                               "tiles 'q'"),
])
def test_sim_and_endgame_bad_input_is_one_line(artifacts, tmp_path, args, message):
    (tmp_path / "board.txt").write_text(BOARD)
    result = wordpack(artifacts, args[0], "scrabble-en", "--board", str(tmp_path / "board.txt"),
                      *args[1:])
    assert result.returncode in (1, 2)
    assert message in result.stderr.splitlines()[-1]
    assert "Traceback" not in result.stderr
