"""The JavaScript move finder (clients/js/crossword.js, clients/js/leaves.js) against the Python
runtime, which is the oracle: every move of a position in the same order with the same score,
words, tiles, leave and equity as cw.moves(...), by score and by equity; Erudit's greedy turns
as cw.best_turn(method="greedy"); score and validate on legal and illegal placements; the same
one-line messages for bad input; damaged or foreign data files refused.

The fast suite runs the module under Node (tests/crossword_driver.mjs) on the fixture lexicons
(the DAWGs of tests/crossword_support.py's word lists) with the committed leave tables
(sources/leaves/); @pytest.mark.full runs it in headless Chromium on the real artifacts, loaded
by loadCrosswordGame from the site `make web` writes.
"""

import copy
import functools
import gzip
import json
import random
import shutil
import subprocess
import tempfile
from pathlib import Path

import msgpack
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from browser_support import Site
from conftest import REPO, full_artifact
from crossword_support import (
    GAMES,
    blank_variant,
    fixture_game,
    fixture_words,
    lexicon_alphabet,
    rules,
    selfplay_positions,
)
from lookup.crossword.leaves import read_leaves
from lookup.crossword.move import Move
from lookup.errors import BadInput
from lookup.headers import SEAL_FIELD, SEAL_ZEROS, sealed
from pipeline.build_crossword import rules_json
from pipeline.build_dawg import dawg_bytes
from pipeline.build_web_leaves import pack_leaves, unpack_leaves

DRIVER = REPO / "tests" / "crossword_driver.mjs"
LEAVE_SOURCES = REPO / "sources" / "leaves"
# Positions per game, each with 0, 1 and 2 blanks on the rack where the set has them left.
POSITIONS = 20
_TEMP = tempfile.TemporaryDirectory(prefix="wordpack-crossword-js-")


# --- the two sides ----------------------------------------------------------------------------
class NodeEngine:
    """One Node process running tests/crossword_driver.mjs: jobs in, answers out, a line each."""

    def __init__(self):
        self.process = subprocess.Popen(["node", str(DRIVER)], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True, encoding="utf-8")

    def run(self, files: dict, calls: list) -> list:
        """Each call's answer: ("ok", value) or ("error", [name, message])."""
        self.process.stdin.write(json.dumps({**files, "calls": calls}) + "\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        assert line, "the Node driver stopped (its error is above)"
        return [("ok", a["ok"]) if "ok" in a else ("error", a["error"]) for a in json.loads(line)]

    def close(self):
        self.process.stdin.close()
        self.process.wait()


@pytest.fixture(scope="module")
def node():
    if shutil.which("node") is None:
        pytest.skip("node is not installed (Node 20+ runs the JavaScript readers)")
    engine = NodeEngine()
    yield engine
    engine.close()


@functools.lru_cache(maxsize=None)
def fixture_files(game: str) -> dict:
    """The game's rules file, its fixture lexicon's DAWG and its leave pack, written once."""
    folder = Path(_TEMP.name) / game
    folder.mkdir()
    r = rules(game)
    (folder / "rules.json").write_bytes(rules_json(r, "0" * 64))
    (folder / "lexicon.dawg").write_bytes(
        dawg_bytes(sorted(set(fixture_words(r.lexicon))), lexicon_alphabet(r.lexicon)))
    (folder / "leaves.pack.gz").write_bytes(pack_leaves(LEAVE_SOURCES / f"{game}.leaves"))
    return {"rules": str(folder / "rules.json"), "dawg": str(folder / "lexicon.dawg"),
            "leaves": str(folder / "leaves.pack.gz")}


@functools.lru_cache(maxsize=None)
def python_game(game: str):
    """The fixture game of crossword_support with the committed leave table."""
    cw = copy.copy(fixture_game(game))
    cw._leaves = read_leaves(LEAVE_SOURCES / f"{game}.leaves", cw.rules)
    return cw


def move_dict(move: Move | None) -> dict | None:
    """What the JS move's toJSON() holds, from a Python Move."""
    if move is None:
        return None
    return {"kind": move.kind, "text": move.notation(), "direction": move.direction,
            "row": move.row, "col": move.col, "word": move.word, "score": move.score,
            "words": move.words, "placed": [list(tile) for tile in move.placed],
            "exchanged": move.exchanged, "parts": [move_dict(part) for part in move.parts],
            "leave": move.leave, "equity": move.equity}


def python_answer(function, *args, **kwargs):
    """("ok", value) or ("error", ["BadInput", message]), as the driver answers."""
    try:
        value = function(*args, **kwargs)
    except BadInput as error:
        return ("error", ["BadInput", str(error)])
    if isinstance(value, list) and value and isinstance(value[0], Move):
        return ("ok", [move_dict(move) for move in value])
    if isinstance(value, Move) or value is None:
        return ("ok", move_dict(value))
    return ("ok", value)


SAMPLE_HEAD, SAMPLE_STEP = 50, 7  # as tests/crossword_driver.mjs samples


def python_sample(function, *args, **kwargs):
    """python_answer of a move list as the driver's "sample" call answers it: every move's
    text, and the first SAMPLE_HEAD and every SAMPLE_STEP-th in full."""
    try:
        moves = function(*args, **kwargs)
    except BadInput as error:
        return ("error", ["BadInput", str(error)])
    return ("ok", {"texts": [move.notation() for move in moves],
                   "sample": [move_dict(move) for i, move in enumerate(moves)
                              if i < SAMPLE_HEAD or i % SAMPLE_STEP == 0]})


def position_cases(game: str, cw, count: int = POSITIONS) -> list:
    """(board text, rack) of `count` self-play positions spread over the file for each number
    of blanks 0, 1 and 2 (positions whose board holds blanks already may lack the 2-blank one,
    so the walk goes on until each count has `count`); the empty board first.
    """
    found = {0: [], 1: [], 2: []}
    positions = selfplay_positions(game)
    step = max(1, len(positions) // (count + 8))
    for k in list(range(0, len(positions), step)) + list(range(len(positions))):
        board = cw.parse_board(positions[k]["board"])
        for blanks, racks in found.items():
            case = (positions[k]["board"], blank_variant(cw, board, positions[k]["rack"], blanks))
            if case[1] is not None and len(racks) < count and case not in racks:
                racks.append(case)
        if all(len(racks) == count for racks in found.values()):
            break
    return [case for blanks in (0, 1, 2) for case in found[blanks]]


# --- moves ------------------------------------------------------------------------------------
@pytest.mark.parametrize("game", GAMES)
def test_moves_by_score_equal_python(node, game):
    cw = python_game(game)
    cases = position_cases(game, cw)
    assert len(cases) == 3 * POSITIONS
    got = node.run(fixture_files(game), [["sample", board, rack] for board, rack in cases])
    total = 0
    for (board, rack), answer in zip(cases, got):
        expected = python_sample(cw.moves, cw.parse_board(board), rack)
        assert answer == expected, f"{game} rack {rack!r} on\n{board}"
        total += len(expected[1]["texts"])
    assert total > 3 * POSITIONS * 20


def test_three_blanks_equal_python(node):
    """Erudit's set has three blanks: every choice of which new tiles they are."""
    cw = python_game("erudit-ru")
    cases = []
    for position in selfplay_positions("erudit-ru")[::2]:
        rack = blank_variant(cw, cw.parse_board(position["board"]), position["rack"], 3)
        if rack is not None:
            cases.append((position["board"], rack))
    cases = cases[:12]
    got = node.run(fixture_files("erudit-ru"), [["sample", board, rack] for board, rack in cases])
    for (board, rack), answer in zip(cases, got):
        assert answer == python_sample(cw.moves, cw.parse_board(board), rack), rack
    assert len(cases) == 12


@pytest.mark.parametrize("game", GAMES)
def test_moves_by_equity_equal_python(node, game):
    """By equity with the default bag, with a bag of 3 and its unseen tiles, and with the bag
    empty (the end-of-game formula); top as Python slices it."""
    cw = python_game(game)
    cases = position_cases(game, cw, 8)
    calls, expected = [], []
    positions = {p["board"]: p for p in selfplay_positions(game)}
    for k, (board, rack) in enumerate(cases):
        bag = positions[board]["bag"]
        variants = [{}, {"bag": 3, "unseen": bag[:10]}, {"bag": 0, "unseen": bag[:7]}]
        # Erudit's top ranks multi-word turns in Python (search_turns); the JS finder lists
        # single-line plays only, by score as by equity.
        if cw.rules.placement == "line":
            variants.append({"top": 5 + k})
        for options in variants:
            calls.append(["sample", board, rack, {"by": "equity", **options}])
            expected.append(python_sample(cw.moves, cw.parse_board(board), rack, by="equity",
                                          **options))
    got = node.run(fixture_files(game), calls)
    for call, answer, want in zip(calls, got, expected):
        assert answer == want, f"{game}: {call[2:]}"
    assert sum(kind == "ok" for kind, _ in expected) > len(expected) // 2


@pytest.mark.parametrize("game", GAMES)
def test_greedy_turns_equal_python(node, game):
    """Erudit's several words in one turn, and the best play of the one-line games."""
    cw = python_game(game)
    cases = position_cases(game, cw, 10)
    calls = [["bestTurn", board, rack, {"method": "greedy"}] for board, rack in cases]
    got = node.run(fixture_files(game), calls)
    turns = 0
    for (board, rack), answer in zip(cases, got):
        expected = python_answer(cw.best_turn, cw.parse_board(board), rack, method="greedy")
        assert answer == expected, f"{game} rack {rack!r} on\n{board}"
        turns += expected[1] is not None and expected[1]["kind"] == "turn"
    if game == "erudit-ru":
        assert turns >= 5


def placements(cw, board, rack, rng) -> list:
    """Legal placements (from the position's moves and, under "multi", its greedy turn) and
    illegal ones made from them: a letter changed, moved a square, one tile off the line, a
    square taken or off the board, a letter outside the game, none, too many, bad blanks."""
    moves = [m for m in cw.moves(board, rack) if m.kind == "play"]
    legal = [list(map(list, m.placed)) for m in rng.sample(moves, min(6, len(moves)))]
    if cw.rules.placement == "multi":
        turn = cw.best_turn(board, rack, method="greedy")
        if turn is not None:
            legal.append([list(tile) for tile in turn.placed])
    letters = cw.alphabet
    found = list(legal)
    for placed in legal:
        changed = copy.deepcopy(placed)
        changed[rng.randrange(len(changed))][2] = rng.choice(letters)
        shifted = [[r, c + 1, letter, blank] for r, c, letter, blank in placed]
        bent = copy.deepcopy(placed)
        bent[-1][0] += 1
        bent[-1][1] += 1
        blanked = [[r, c, letter, True] for r, c, letter, _blank in placed]
        found += [changed, shifted, bent, blanked]
    size = cw.rules.layout.size
    taken = next(((r, c) for r, c, _l, _b in board.tiles()), (7, 7))
    found += [[], [[taken[0], taken[1], letters[0], False]], [[size, 0, letters[0], False]],
              [[7, 7, "1", False], [7, 8, letters[1].upper(), False]],
              [[7, c, letters[c % 5], False] for c in range(8)],
              [[7, 6, letters[0], False], [7, 6, letters[1], False]],
              [[6, 6, letters[0], False], [8, 8, letters[1], False]]]
    return found


@pytest.mark.parametrize("game", GAMES)
def test_score_and_validate_equal_python(node, game):
    cw = python_game(game)
    rng = random.Random(5)
    calls, expected = [], []
    for board_text, rack in position_cases(game, cw, 6):
        board = cw.parse_board(board_text)
        for placed in placements(cw, board, rack, rng):
            calls += [["score", board_text, placed], ["validate", board_text, placed],
                      ["validate", board_text, placed, rack]]
            expected += [python_answer(cw.score, board, placed),
                         python_answer(cw.validate, board, placed),
                         python_answer(cw.validate, board, placed, rack)]
    got = node.run(fixture_files(game), calls)
    for call, answer, want in zip(calls, got, expected):
        assert answer == want, f"{game}: {call}"
    validations = [value for kind, value in expected[1::3] if kind == "ok"]
    assert sum(not reasons for reasons in validations) >= 6  # legal ones
    assert sum(bool(reasons) for reasons in validations) >= 30  # illegal ones


@pytest.mark.parametrize("game", GAMES)
def test_leaves_equal_python(node, game):
    """leave() of every kept set of some racks, and the pack round trip in Python."""
    cw = python_game(game)
    rng = random.Random(11)
    pool = [tile for code, n in enumerate(cw.tiles.counts) for tile in cw.tiles.letter(code) * n]
    racks = ["".join(rng.sample(pool, rng.randrange(1, 7))) for _ in range(300)]
    got = node.run(fixture_files(game), [["leave", rack] for rack in racks])
    assert got == [python_answer(cw.leave, rack) for rack in racks]
    header, values = unpack_leaves(pack_leaves(LEAVE_SOURCES / f"{game}.leaves"))
    assert values.tobytes() == msgpack.unpackb((LEAVE_SOURCES / f"{game}.leaves").read_bytes())[1]
    assert header["leaves"] == len(cw.leaves())


# Racks drawn from the game's commoner letters and blanks (erudit-ru has three blanks).
RACK_LETTERS = {"scrabble-en": "abcdeilmnorstu?", "wordfeud-nl": "adeijklnorstz?",
                "erudit-ru": "аеиклмнопрст??"}


@pytest.mark.parametrize("game", sorted(RACK_LETTERS))
@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(position=st.integers(0, 10**6), data=st.data())
def test_random_racks_equal_python(node, game, position, data):
    rack = data.draw(st.text(alphabet=RACK_LETTERS[game], min_size=1, max_size=7), label="rack")
    cw = python_game(game)
    positions = selfplay_positions(game)
    board_text = positions[position % len(positions)]["board"]
    board = cw.parse_board(board_text)
    [answer] = node.run(fixture_files(game), [["moves", board_text, rack]])
    expected = python_answer(cw.moves, board, rack)
    if expected[0] == "ok":
        assert [m["text"] for m in answer[1]] == [m["text"] for m in expected[1]]
    assert answer == expected


# --- bad input and bad files ------------------------------------------------------------------
EMPTY = ("." * 15 + "\n") * 15


def board_with(*rows) -> str:
    lines = ["." * 15] * 15
    for row, text in rows:
        lines[row] = text
    return "\n".join(lines) + "\n"


BAD_BOARDS = [
    "\n".join(["." * 15] * 14),
    board_with((7, "." * 16)),
    board_with((7, "......#........")),
    board_with((7, "......äb.......")),
    board_with((7, "....zzz........")),
    board_with((7, "....ABC........")),
    board_with((3, "......cat......")),
    board_with((7, ".....cat......."), (2, "x..............")),
    board_with((7, ".....cat......."), (9, "......at.......")),
]
BAD_CALLS = [
    ["moves", EMPTY, "abcdefgh"], ["moves", EMPTY, "ab1"], ["moves", EMPTY, "abä"],
    ["moves", EMPTY, "zz"], ["moves", EMPTY, "???"], ["moves", EMPTY, "abc", {"top": 0}],
    ["moves", EMPTY, "abc", {"by": "luck"}],
    ["moves", EMPTY, "abc", {"by": "equity", "bag": 200}],
    ["moves", EMPTY, "abc", {"by": "equity", "unseen": "ab1"}],
    ["moves", EMPTY, "abc", {"by": "equity", "unseen": "zz"}],
    ["moves", board_with((7, ".....zoa.......")), "z"],
    ["leave", "abcdefg"], ["leave", "a1"], ["leave", "zz"], ["leave", "???"],
    ["bestTurn", EMPTY, "abc", {"method": "best"}],
    ["validate", EMPTY, [[7, 7]]], ["score", EMPTY, [[7, 7, "a"]]],
    ["score", EMPTY, [[7, 7, "a", False], [8, 8, "b", False]]],
]


def python_call(cw, op, *args):
    if op == "parseBoard":
        return python_answer(lambda text: cw.parse_board(text).text(), *args)
    board = cw.parse_board(args[0])
    if op == "moves":
        return python_answer(cw.moves, board, args[1], **(args[2] if len(args) > 2 else {}))
    if op == "bestTurn":
        return python_answer(cw.best_turn, board, args[1], **args[2])
    if op == "score":
        return python_answer(cw.score, board, args[1])
    return python_answer(cw.validate, board, args[1])


def test_bad_input_messages_are_python_s(node):
    cw = python_game("scrabble-en")
    calls = [["parseBoard", text] for text in BAD_BOARDS] + BAD_CALLS
    got = node.run(fixture_files("scrabble-en"), calls)
    for call, answer in zip(calls, got):
        if call[0] == "leave":
            expected = python_answer(cw.leave, call[1])
        else:
            expected = python_call(cw, *call)
        assert answer == expected, call
        assert answer[0] == "error", call


def test_bad_input_in_russian_is_python_s(node):
    cw = python_game("erudit-ru")
    calls = [["parseBoard", board_with((7, "......Кот......"))],
             ["parseBoard", board_with((7, "......кот......"))],
             ["moves", EMPTY, "кот!"], ["moves", EMPTY, "ёж"], ["leave", "ъъ"]]
    got = node.run(fixture_files("erudit-ru"), calls)
    for call, answer in zip(calls, got):
        expected = python_answer(cw.leave, call[1]) if call[0] == "leave" else \
            python_call(cw, *call)
        assert answer == expected, call


def damaged_packs(game: str) -> dict:
    """Leave packs a reader must refuse, by what is wrong with them."""
    good = gzip.decompress(pack_leaves(LEAVE_SOURCES / f"{game}.leaves"))
    flipped = bytearray(good)
    flipped[len(good) // 2] ^= 0x01
    header, residuals, escapes = msgpack.unpackb(good, raw=False)

    def repacked(**changes):
        fresh = {**header, **changes, SEAL_FIELD: SEAL_ZEROS.decode()}
        return sealed(msgpack.packb([fresh, residuals, escapes], use_bin_type=True), "msgpack")

    return {"flipped": bytes(flipped), "truncated": good[:-100],
            "version": repacked(version=2), "rules": repacked(counts=[9] * len(header["counts"])),
            "short": sealed(msgpack.packb([{**header, SEAL_FIELD: SEAL_ZEROS.decode()},
                                           residuals[:-1], escapes], use_bin_type=True),
                            "msgpack"),
            "escape": repacked(escapes=header["escapes"] + 1)}


DAMAGE_MESSAGES = {
    "flipped": "damaged: its sha256 (file_sha256) does not match its bytes",
    "truncated": "not a leave pack (truncated",
    "version": "leave-pack version 2, these readers read version 1",
    "rules": "made for other scrabble-en rules (alphabet, tile counts or rack size differ)",
    "short": "where scrabble-en has 914624 leaves: damaged",
    "escape": "its escapes section does not match): damaged",
}


def test_damaged_or_foreign_files_are_refused(node, tmp_path):
    files = fixture_files("scrabble-en")
    for name, data in damaged_packs("scrabble-en").items():
        path = tmp_path / f"{name}.leaves.pack.gz"
        path.write_bytes(gzip.compress(data))
        [(kind, (error, message))] = node.run({**files, "leaves": str(path)}, [["leave", "a"]])
        assert (kind, error) == ("error", "BadArtifact"), name
        assert message.startswith(str(path)) and DAMAGE_MESSAGES[name] in message, message
    old = json.loads(Path(files["rules"]).read_text())
    old["version"] = 1
    (tmp_path / "old.json").write_text(json.dumps(old))
    [(kind, (error, message))] = node.run({**files, "rules": str(tmp_path / "old.json")},
                                          [["leave", "a"]])
    assert error == "BadArtifact" and "crossword-rules version 1, these readers read version 3" \
        in message
    other = fixture_files("erudit-ru")
    [(kind, (error, message))] = node.run({**files, "dawg": other["dawg"]}, [["leave", "a"]])
    assert error == "BadArtifact" and "its alphabet lacks 'abcdefghijklmnopqrstuvwxyz'" in message


# --- Chromium, real artifacts -------------------------------------------------------------------
@pytest.fixture(scope="module")
def real_site(tmp_path_factory):
    from pipeline.build_web import build_web

    for game in GAMES:
        full_artifact(f"leaves/{game}.leaves")
    site = tmp_path_factory.mktemp("real-site") / "web"
    build_web(full_artifact("lexicons/enable.dawg").parents[1], site)
    return site


@pytest.fixture(scope="module")
def real_page(browser, real_site):  # noqa: F811 (the fixture)
    opened = Site(browser, real_site)
    opened.open("index.html")
    yield opened
    assert opened.errors == []
    opened.close()


CHROMIUM_CALLS = """
async (arg) => {
  const cw = await import('./js/crossword.js');
  const game = await cw.loadCrosswordGame('data/', arg.game);
  await game.loadLeaves();
  return arg.calls.map(([op, board, ...args]) => {
    try {
      const position = game.parseBoard(board);
      let value;
      if (op === 'texts') value = game.moves(position, ...args).map((m) => m.text);
      else if (op === 'moves') value = game.moves(position, ...args);
      else if (op === 'bestTurn') value = game.bestTurn(position, ...args);
      else if (op === 'score') value = game.score(position, ...args);
      else value = game.validate(position, ...args);
      return ['ok', JSON.parse(JSON.stringify(value) ?? 'null')];
    } catch (error) {
      return ['error', [error.name, error.message]];
    }
  });
}
"""


@pytest.mark.full
@pytest.mark.parametrize("game", GAMES)
def test_real_moves_equal_python_in_chromium(real_page, game):
    """Every move of 20 positions with 0, 1 and 2 blanks (texts: hundreds of thousands of
    moves), the first 40 in full, by score and by equity; greedy turns; score and validate."""
    import lookup

    cw = lookup.crossword_game(game)
    cases = position_cases(game, cw)
    calls, expected = [], []
    rng = random.Random(3)
    for k, (board_text, rack) in enumerate(cases):
        board = cw.parse_board(board_text)
        moves = cw.moves(board, rack)
        calls.append(["texts", board_text, rack, {}])
        expected.append(["ok", [m.notation() for m in moves]])
        calls.append(["moves", board_text, rack, {"top": 40}])
        expected.append(list(python_answer(lambda: moves[:40])))
        if k % 3 == 0:
            # Erudit's top ranks multi-word turns in Python; the JS finder lists single-line
            # plays, so its first 40 by equity are the head of Python's full list.
            calls.append(["moves", board_text, rack, {"by": "equity", "top": 40}])
            expected.append(list(
                python_answer(lambda: cw.moves(board, rack, by="equity")[:40])
                if cw.rules.placement == "multi"
                else python_answer(cw.moves, board, rack, by="equity", top=40)))
        calls.append(["bestTurn", board_text, rack, {"method": "greedy"}])
        expected.append(list(python_answer(cw.best_turn, board, rack, method="greedy")))
        if k % 4 == 0:
            for placed in placements(cw, board, rack, rng):
                calls += [["score", board_text, placed], ["validate", board_text, placed, rack]]
                expected += [list(python_answer(cw.score, board, placed)),
                             list(python_answer(cw.validate, board, placed, rack))]
    got = real_page.page.evaluate(CHROMIUM_CALLS, {"game": game, "calls": calls})
    for call, answer, want in zip(calls, got, expected):
        assert answer == want, f"{game}: {call[0]} {call[2:]}"
    assert len(got) == len(calls)
