"""Simulation (lookup/crossword/simulate.py), the pre-endgame and the simulating player
(lookup/play/players.py): exact values on a hand-checked position, the same rows for a seed,
pruning by the bounds, the pre-endgame against the endgame solver, the player's choices, and
bad input as one line. Fast suite: fixture lexicons, the pure-Python engine."""

import functools
import math
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crossword_support import fixture_game, game_with_words, selfplay_positions
from lookup.crossword.endgame import solve_endgame
from lookup.crossword.engine import MoveEngine, numba_available
from lookup.crossword.engine_kernel import (
    R_BLANKS,
    R_DIRECTION,
    R_LEAVE,
    R_LENGTH,
    R_LINE,
    R_SCORE,
    R_START,
    RECORD_FIELDS,
    leave_slot,
)
from lookup.crossword.leaves import LeaveValues, leave_keys
from lookup.crossword.simulate import (
    MAX_ITERATIONS,
    MIN_ITERATIONS,
    StoppingRule,
    _candidates,
    _leaves_for,
    _simulate_line,
    bingo_table,
    pre_endgame,
    simulate,
)
from lookup.crossword.tiles import key_of_codes
from lookup.errors import BadInput
from lookup.play.game import Game
from lookup.play.players import EquityPlayer, SimPlayer, greedy_player
from test_endgame import CAT_WORDS, cat_board
from test_equity import quarter_table, with_table


def cat_engine(name):
    return MoveEngine(game_with_words("scrabble-en", CAT_WORDS, name), compiled=False)


def test_hand_checked_values_with_the_bag_empty():
    engine = cat_engine("sim-hand")
    board = cat_board(engine.cw)
    rows = simulate(engine, board, "ss", unseen="qz", plies=2, iterations=3,
                    leave=lambda tiles: 5.0 * len(tiles))
    # CATS (6) then, the opponent's q and z stuck, AS down (2) goes out: 6 + 2 + 2 * 20; or
    # AS first (2), then CATS (6) goes out. The leave counts only while the bag has tiles;
    # equity (score + leave of the s kept) orders the candidates.
    assert [(r.move.notation(), r.mean, r.stderr, r.iterations, r.pruned, r.equity)
            for r in rows] == [("H 7,6 cats 6", 48.0, 0.0, 3, False, 11.0),
                               ("V 7,7 as 2", 48.0, 0.0, 3, False, 7.0)]


def test_one_ply_stops_after_the_opponent():
    engine = cat_engine("sim-ply")
    rows = simulate(engine, cat_board(engine.cw), "s", unseen="qz", plies=1, iterations=2)
    assert [(r.move.notation(), r.mean) for r in rows] == [("H 7,6 cats 6", 46.0),
                                                            ("V 7,7 as 2", 42.0)]


def test_a_line_to_the_end_counts_the_scoreless_end():
    engine = cat_engine("sim-end")
    board = cat_board(engine.cw)
    # The q stays on the rack and the opponent's x has no word: after the play six scoreless
    # turns end the game, each side losing its own rack (q 10, x 8). Two plies stop before.
    to_end = simulate(engine, board, "sq", unseen="x", plies=None, iterations=2)
    two = simulate(engine, board, "sq", unseen="x", plies=2, iterations=2)
    assert [(r.move.notation(), r.mean) for r in to_end] == [("H 7,6 cats 6", 6 - 10 + 8),
                                                             ("V 7,7 as 2", 2 - 10 + 8)]
    assert [(r.move.notation(), r.mean) for r in two] == [("H 7,6 cats 6", 6.0),
                                                          ("V 7,7 as 2", 2.0)]


class _ThenEquity:
    """A player that makes one given move, then plays as the equity bot."""

    def __init__(self, move, equity):
        self.move, self.equity = move, equity

    def __call__(self, position):
        move, self.move = self.move, None
        return move or self.equity(position)


def shuffled_position(cw, number: int, shuffle: int) -> tuple:
    """Self-play position `number` of scrabble-en: its board, its rack, and the tiles unseen
    from it in the order of seed `shuffle` (the racks and bag a test deals from).
    """
    import random

    positions = selfplay_positions("scrabble-en")
    position = positions[number % len(positions)]
    board = cw.parse_board(position["board"])
    rack = position["rack"]
    tiles = list(cw.tiles.text(cw.tiles.unseen(board, cw.rack_codes(rack))))
    random.Random(shuffle).shuffle(tiles)
    return board, rack, tiles


@settings(max_examples=40, deadline=None, derandomize=True)
@given(number=st.integers(20, 60), shuffle=st.integers(0, 10**6), bag=st.integers(0, 6),
       pick=st.integers(0, 2))
def test_a_line_to_the_end_is_the_equity_bots_game(number, shuffle, bag, pick):
    # Oracle: the game engine (lookup/play/game.py) plays the candidate, then both seats
    # as the equity bot, from the same racks and bag order, to its end. With fewer than
    # exchange_min_bag tiles in the bag the bot cannot exchange, and the line simulates the
    # same turns: the spreads must be equal.
    cw = with_table("scrabble-en", quarter_table("scrabble-en"))
    engine = MoveEngine(cw, compiled=False)
    board, rack, tiles = shuffled_position(cw, number, shuffle)
    rack_size = cw.rules.rack_size
    if len(tiles) < rack_size + bag:
        return
    tiles = tiles[:rack_size + bag]
    leaves = _leaves_for(engine, None)
    candidates = _candidates(engine, board, rack, leaves, 3)
    if not candidates:
        return
    record = candidates[pick % len(candidates)][1]
    move = engine.move(record, board)
    value = _simulate_line(engine, leaves, engine.cells(board), engine.rack_counts(rack, board),
                           record, [engine.to_lex[c] for c in cw.tiles.codes("".join(tiles))],
                           None)
    equity = EquityPlayer(cw.leaves())
    game = Game(engine, [_ThenEquity(move, equity), equity], bag="".join(tiles[rack_size:]),
                racks=[rack, "".join(tiles[:rack_size])], board=board)
    assert value == game.run().spread(0)


def midgame(game="scrabble-en", number=10):
    cw = fixture_game(game)
    position = selfplay_positions(game)[number]
    return MoveEngine(cw, compiled=False), cw.parse_board(position["board"]), position


def test_a_seed_fixes_the_rows():
    engine, board, position = midgame()
    first = simulate(engine, board, position["rack"], candidates=3, plies=1, iterations=8,
                     seed=4)
    again = simulate(engine, board, position["rack"], candidates=3, plies=1, iterations=8,
                     seed=4)
    assert [(r.move, r.mean, r.stderr) for r in first] == \
        [(r.move, r.mean, r.stderr) for r in again]
    assert [r.iterations for r in first] == [8, 8, 8]
    assert sorted(r.equity for r in first) == sorted(
        m.score for m in engine.plays(board, position["rack"])[:3])


def test_the_leave_table_per_rack_gives_the_leave_functions_rows():
    # The default path looks a rack's leaves up in the table at once (simulate._Leaves); the
    # slow path calls the leave function cw.leave once per leave.
    cw = with_table("scrabble-en", quarter_table("scrabble-en"))
    engine = MoveEngine(cw, compiled=False)
    for number in (10, 25, 40):
        position = selfplay_positions("scrabble-en")[number]
        board = cw.parse_board(position["board"])
        options = {"candidates": 4, "plies": 2, "iterations": 4, "seed": number}
        by_table = simulate(engine, board, position["rack"], **options)
        by_function = simulate(engine, board, position["rack"], leave=cw.leave, **options)
        assert [(r.move, r.mean, r.stderr, r.equity) for r in by_table] == \
            [(r.move, r.mean, r.stderr, r.equity) for r in by_function]
        assert any(r.equity != r.move.score for r in by_table)


def row_figures(rows):
    return [(r.move.notation(), r.mean, r.stderr, r.iterations, r.pruned, r.equity, r.rank,
             r.gain, r.gain_stderr) for r in rows]


ENGINES = [False, pytest.param(True, marks=pytest.mark.skipif(not numba_available(),
                                                              reason="numba is not installed"))]


@pytest.mark.parametrize("compiled", ENGINES)
@settings(max_examples=12, deadline=None, derandomize=True)
@given(number=st.integers(0, 60), shuffle=st.integers(0, 10**6), bag=st.integers(0, 12),
       plies=st.sampled_from([1, 2, None]), table=st.booleans())
def test_kernel_lines_give_the_python_rows(compiled, number, shuffle, bag, plies, table):
    # The kernel (lookup/crossword/sim_kernel.py, on CPython or compiled; its lines sharing
    # their replies' searches or not) against simulate's Python lines on the same seeded
    # dealings: equal rows, to the last bit of every mean,
    # with the leave table or none, bags from empty to twelve tiles, lines cut or to the end.
    cw = with_table("scrabble-en", quarter_table("scrabble-en")) if table else \
        fixture_game("scrabble-en")
    engine = MoveEngine(cw, compiled=compiled)
    board, rack, tiles = shuffled_position(cw, number, shuffle)
    unseen = "".join(tiles[:cw.rules.rack_size + bag])
    options = {"unseen": unseen, "candidates": 4, "plies": plies, "iterations": 4,
               "seed": shuffle}
    expected = row_figures(simulate(engine, board, rack, kernel=False, **options))
    assert row_figures(simulate(engine, board, rack, kernel=True, **options)) == expected
    assert row_figures(simulate(engine, board, rack, kernel=True, share=False,
                                **options)) == expected


@pytest.mark.parametrize("compiled", ENGINES)
@pytest.mark.parametrize("threads", [2, 3])
def test_dealings_on_several_threads_give_one_threads_rows(compiled, threads):
    # The dealings before each look of the stopping rule are shared among the threads and
    # counted in order: the same rows, pruning included (it looks at 30, 40, ... dealings),
    # whether the batch divides among the threads or not; one candidate stops after one
    # dealing either way.
    cw = with_table("scrabble-en", quarter_table("scrabble-en"))
    engine = MoveEngine(cw, compiled=compiled)
    pruned = 0
    for number, plies, iterations, candidates in ((12, 2, 57, 6), (33, 1, 45, 6),
                                                  (48, None, 8, 6), (20, 2, 40, 1)):
        board, rack, tiles = shuffled_position(cw, number, number)
        options = {"unseen": "".join(tiles[:cw.rules.rack_size + 9]),
                   "candidates": candidates, "plies": plies, "iterations": iterations,
                   "seed": number}
        alone = row_figures(simulate(engine, board, rack, **options))
        assert row_figures(simulate(engine, board, rack, threads=threads, **options)) == alone
        pruned += sum(row[4] for row in alone)
    assert pruned


@pytest.mark.skipif(not numba_available(), reason="numba is not installed")
def test_more_lines_than_one_shared_search_serves_give_the_same_rows():
    # One BEST_AVOIDING search serves at most MAX_TARGETS lines: 80 candidates share their
    # first replies in two groups, and the rows are those of every line searching alone.
    from lookup.crossword.engine_kernel import MAX_TARGETS

    cw = with_table("scrabble-en", quarter_table("scrabble-en"))
    engine = MoveEngine(cw, compiled=True)
    for number in (15, 30):
        board, rack, tiles = shuffled_position(cw, number, number)
        options = {"unseen": "".join(tiles[:20]), "candidates": 80, "plies": 2,
                   "iterations": 3, "seed": number}
        shared = row_figures(simulate(engine, board, rack, **options))
        assert len(shared) > MAX_TARGETS
        assert shared == row_figures(simulate(engine, board, rack, share=False, **options))


@pytest.mark.parametrize("compiled", ENGINES)
@pytest.mark.parametrize("game", ["scrabble-en", "erudit-ru"])
def test_the_bingo_table_holds_every_full_racks_words(compiled, game):
    # simulate.bingo_table against the fixture lexicon's word list: each multiset of a full
    # rack's letters with BINGO_WORD when it is a word, bit t when it and letter t make one.
    from crossword_support import fixture_words, rules
    from lookup.crossword.engine_kernel import BINGO_WORD

    engine = MoveEngine(fixture_game(game), compiled=compiled)
    alphabet = engine.lexicon.tables.alphabet
    size = engine.cw.rules.rack_size

    expected = {}
    for word in fixture_words(rules(game).lexicon):
        codes = [alphabet.index(letter) + 1 for letter in word]
        if len(codes) == size:
            expected[key_of_codes(codes)] = expected.get(key_of_codes(codes), 0) | BINGO_WORD
        elif len(codes) == size + 1:
            for t in set(codes):
                rest = list(codes)
                rest.remove(t)
                expected[key_of_codes(rest)] = expected.get(key_of_codes(rest), 0) | 1 << t
    slots, masks = bingo_table(engine)
    got = {int(k): int(m) for k, m in zip(slots, masks, strict=True) if k}
    assert expected and got == expected


@pytest.mark.parametrize("compiled", ENGINES)
@settings(max_examples=60, deadline=None, derandomize=True)
@given(game=st.sampled_from(["scrabble-en", "erudit-ru"]), seed=st.integers(0, 10**6),
       tiles=st.integers(1, 9), word_based=st.booleans())
def test_a_racks_tables_hold_its_bingo_mask(compiled, game, seed, tiles, word_based):
    # sim_kernel.fill_rack_table and fill_end_table write a full rack's bingo mask (one without
    # a blank) under its bingo key: against the fixture word list, bit 0 when its tiles make a
    # word, bit t when they and letter t do. Racks drawn from the letters, or from a word's (so
    # that the masks are not all empty).
    import random

    from crossword_support import fixture_words, rules
    from lookup.crossword import sim_kernel
    from lookup.crossword.engine_kernel import BINGO_WORD, bingo_key, leave_slot
    from lookup.crossword.simulate import _kernel

    engine = MoveEngine(fixture_game(game), compiled=compiled)
    alphabet = engine.lexicon.tables.alphabet
    tiles = min(tiles, engine.cw.rules.rack_size)
    rng = random.Random(seed)
    words = {"".join(sorted(word)) for word in fixture_words(rules(game).lexicon)}
    long_words = sorted(w for w in words if len(w) >= tiles)
    letters = rng.choice(long_words) if word_based and long_words else "".join(
        rng.choice(alphabet) for _ in range(tiles))
    rack_codes = sorted(alphabet.index(letter) + 1 for letter in rng.sample(letters, tiles))

    def mask(codes):
        found = BINGO_WORD if "".join(sorted(alphabet[c - 1] for c in codes)) in words else 0
        for t, letter in enumerate(alphabet, start=1):
            if "".join(sorted(letter + "".join(alphabet[c - 1] for c in codes))) in words:
                found |= 1 << t
        return found

    wanted = bingo_key(key_of_codes(rack_codes))

    def ints(values):
        return np.asarray(values, dtype=np.int64) if compiled else [int(v) for v in values]

    def floats(n):
        return np.zeros(n, dtype=np.float64) if compiled else [0.0] * n

    codes = sim_kernel.CODES
    rack = [0] * codes
    for code in rack_codes:
        rack[code] += 1
    kernel = _kernel(compiled)
    for fill in ("fill_rack_table", "fill_end_table"):
        slots, values = ints([0] * 256), floats(256)
        work = (ints([0] * codes), ints([0] * codes), ints([0] * codes))
        if fill == "fill_rack_table":
            kernel[fill](ints([0] * 8), floats(8), ints(rack), slots, values, *work,
                         ints([0] * 64), floats(64), *bingo_table(engine))
        else:
            kernel[fill](ints(rack), engine.kernel_constants[3], 5, slots, values, *work,
                         *bingo_table(engine))
        slot = leave_slot(slots, wanted)
        assert slots[slot] == wanted, fill
        # The table holds a full rack's multisets only.
        if tiles == engine.cw.rules.rack_size:
            assert int(values[slot]) == mask(rack_codes), fill


@functools.cache
def _engine_with_its_leave_table(compiled):
    """The scrabble-en fixture engine with a leave table: fill_rack_table's arguments of the
    game's table (simulate.full_leave_table: keys, values) and bingo table
    (simulate.bingo_table), and the leave values by key."""
    from lookup.crossword.simulate import full_leave_table

    engine = MoveEngine(with_table("scrabble-en", quarter_table("scrabble-en")),
                        compiled=compiled)
    full = full_leave_table(engine, _leaves_for(engine, None).model)
    keys = np.asarray(full.keys, dtype=np.int64) if compiled else [int(k) for k in full.keys]
    return ((keys, full.values, *bingo_table(engine)),
            dict(zip((int(k) for k in full.keys), (float(v) for v in full.values))))


@pytest.mark.parametrize("compiled", ENGINES)
@settings(max_examples=40, deadline=None, derandomize=True)
@given(racks=st.lists(st.lists(st.integers(0, 26), min_size=1, max_size=7), min_size=1,
                      max_size=4))
def test_a_racks_table_holds_the_game_tables_value_of_every_leave(compiled, racks):
    # sim_kernel.fill_rack_table against every sub-multiset of the rack: the table holds each
    # leave of 1 to (tiles - 1) tiles (blanks included, repeats once) with its value in the
    # game's table (0.0 when absent), nothing else but a blankless full rack's bingo mask, and
    # returns the largest value (at least 0.0). Several racks share the small cache of the
    # game's table, as a simulation's do.
    from itertools import combinations

    from lookup.crossword import sim_kernel
    from lookup.crossword.engine_kernel import bingo_key
    from lookup.crossword.simulate import _kernel

    (keys, table, *bingos), game_values = _engine_with_its_leave_table(compiled)

    def ints(values):
        return np.asarray(values, dtype=np.int64) if compiled else [int(v) for v in values]

    def floats(n):
        return np.zeros(n, dtype=np.float64) if compiled else [0.0] * n

    codes = sim_kernel.CODES
    memo_keys, memo_values = ints([0] * 16), floats(16)
    kernel = _kernel(compiled)
    for rack_codes in racks:
        rack = [0] * codes
        for code in rack_codes:
            rack[code] += 1
        expected = {}
        for size in range(1, len(rack_codes)):
            for kept in combinations(sorted(rack_codes), size):
                expected[key_of_codes(kept)] = game_values.get(key_of_codes(kept), 0.0)
        slots, values = ints([0] * 256), floats(256)
        bound = kernel["fill_rack_table"](keys, table, ints(rack), slots, values,
                                          ints([0] * codes), ints([0] * codes),
                                          ints([0] * codes), memo_keys, memo_values, *bingos)
        got = {int(k): float(v) for k, v in zip(slots, values) if k}
        got.pop(bingo_key(key_of_codes(rack_codes)), None)
        assert got == expected
        assert bound == max([0.0, *expected.values()])


def plain_best_reply(engine, cells, rack, table):
    """The oracle of the best play by equity: every play listed (ALL_PLAYS), each valued score
    + its leave's value in `table` (a LeaveTable or None), the best taken by equity, then in
    the order of lookup/crossword/movegen.generate (direction, line, start, word codes, blank
    bits). (record tuple, equity), or (None, None) without a play.
    """
    # (search_cells takes the cells as MoveEngine.cells gives them: an array when compiled.)
    records, count = engine.search_cells(
        np.asarray(cells, dtype=np.int64) if engine.compiled else cells, rack)
    rows = records.tolist() if engine.compiled else list(records)
    keys = [int(k) for k in table.keys] if table is not None else []
    best = None
    for at in range(0, count * engine.width, engine.width):
        play = tuple(int(v) for v in rows[at:at + RECORD_FIELDS + rows[at + R_LENGTH]])
        equity = float(play[R_SCORE])
        if keys:
            slot = leave_slot(keys, play[R_LEAVE])
            if keys[slot] == play[R_LEAVE]:
                equity += float(table.values[slot])
        order = (play[R_DIRECTION], play[R_LINE], play[R_START], play[RECORD_FIELDS:],
                 play[R_BLANKS])
        if best is None or (-equity, order) < best[0]:
            best = ((-equity, order), play, equity)
    return (None, None) if best is None else (best[1], best[2])


@pytest.mark.parametrize("compiled", ENGINES)
@settings(max_examples=25, deadline=None, derandomize=True)
@given(number=st.integers(0, 60), shuffle=st.integers(0, 10**6), lines=st.integers(2, 5),
       second=st.booleans(), table=st.booleans())
def test_shared_replies_are_the_full_searchs_best_replies(compiled, number, shuffle, lines,
                                                         second, table):
    # sim_kernel.shared_replies (one BEST_AVOIDING search of the base board for every line,
    # then a covering search of each line's zone) against the oracle on each line's own
    # board: the same play, ties of equity included (with no leave table equity is the score,
    # and equal scores are common), on self-play boards with the mover's best candidates laid
    # (and, with `second`, the opponent's best reply after each: two plays' tiles changed).
    from lookup.crossword import sim_kernel
    from lookup.crossword.endgame import play_tiles
    from lookup.crossword.engine_kernel import MAX_TARGETS, PARAMS, setup
    from lookup.crossword.simulate import _kernel, full_leave_table

    cw = with_table("scrabble-en", quarter_table("scrabble-en")) if table else \
        fixture_game("scrabble-en")
    engine = MoveEngine(cw, compiled=compiled)
    board, rack, tiles = shuffled_position(cw, number, shuffle)
    rack_size = cw.rules.rack_size
    if len(tiles) < 2 * rack_size:
        return
    leaves = _leaves_for(engine, None)
    plays = [play for _equity, play in _candidates(engine, board, rack, leaves, lines)]
    if len(plays) < 2:
        return
    size, n2 = engine.size, engine.size * engine.size
    base = [int(c) for c in engine.cells(board)]
    opponent = engine.rack_counts("".join(tiles[:rack_size]), board)
    other = engine.rack_counts("".join(tiles[rack_size:2 * rack_size]), board)
    full = full_leave_table(engine, leaves.model) if table else None
    line_cells, changed, changed_count = [], [0] * (len(plays) * n2), [0] * len(plays)
    for i, play in enumerate(plays):
        cells = list(base)
        laid = [play]
        if second:
            reply, _equity = plain_best_reply(engine, after(engine, cells, play), opponent,
                                              full)
            if reply is not None:
                laid.append(reply)
        for move in laid:
            for square, code, _tile in play_tiles(move, cells, size):
                cells[square] = code
                changed[i * n2 + changed_count[i]] = square
                changed_count[i] += 1
        line_cells += cells
    rack_to_play = other if second else opponent
    kernel = _kernel(compiled)
    if compiled:
        def ints(values):
            return np.asarray(values, dtype=np.int64)

        def floats(n):
            return np.zeros(n, dtype=np.float64)
    else:
        def ints(values):
            return [int(v) for v in values]

        def floats(n):
            return [0.0] * n
    codes = sim_kernel.CODES
    rack = ints(rack_to_play)
    slots, values = ints([0] * 256), floats(256)
    keys, table_values, bound = ints([]), floats(0), 0.0
    if table:
        # With the racks' bingo masks (simulate.bingo_table), as the simulation searches.
        bound = kernel["fill_rack_table"](ints(full.keys), full.values, rack, slots, values,
                                          ints([0] * codes), ints([0] * codes),
                                          ints([0] * codes), ints([0] * 64), floats(64),
                                          *bingo_table(engine))
        keys, table_values = slots, values
    constants = engine.kernel_constants
    params = [int(v) for v in constants[0][:PARAMS]]
    width = engine.width
    replies, found = ints([0] * (MAX_TARGETS * width)), ints([0] * MAX_TARGETS)
    # Each line's board set up, and the base board's after them (engine_kernel.setup).
    board_setup = setup
    if compiled:
        from lookup.crossword.engine_numba import compiled_kernel

        board_setup = compiled_kernel()["setup"]
    setups = []
    for cells in [line_cells[i * n2:(i + 1) * n2] for i in range(len(plays))] + [base]:
        arrays = [ints([0] * (2 * n2)) for _ in range(4)]
        board_setup(constants[0], constants[1], constants[2], constants[3], constants[6],
                    ints(cells), *arrays)
        setups.append(arrays)
    if compiled:
        setups = np.asarray(setups, dtype=np.int64)
    kernel["shared_replies"](*constants, setups, len(plays), rack, keys, table_values, bound,
                             ints(range(len(plays))), len(plays), ints(line_cells),
                             ints(changed), ints(changed_count), ints(params + [0] * (n2 + 1)),
                             replies, found, ints([0] * ((MAX_TARGETS + 1) * width)),
                             floats(MAX_TARGETS), ints([0] * width), floats(2),
                             ints([0] * (4 * n2)), ints([0] * (2 * n2)))
    # The lines' anchors are as they were (shared_replies flags each line's zone in its
    # anchors for its covering search, then restores them).
    for i, cells in enumerate([line_cells[i * n2:(i + 1) * n2] for i in range(len(plays))]):
        arrays = [ints([0] * (2 * n2)) for _ in range(4)]
        board_setup(constants[0], constants[1], constants[2], constants[3], constants[6],
                    ints(cells), *arrays)
        assert [list(map(int, row)) for row in setups[i]] == [list(map(int, row))
                                                              for row in arrays]
    for m in range(len(plays)):
        cells = line_cells[m * n2:(m + 1) * n2]
        expected, _equity = plain_best_reply(engine, cells, rack_to_play, full)
        if expected is None:
            assert not found[m]
            continue
        got = [int(v) for v in replies[m * width:m * width + len(expected)]]
        if not table:
            # With no table a best-play search does not work out the leave's key.
            got[R_LEAVE] = expected[R_LEAVE]
        assert found[m] and tuple(got) == expected, m


def after(engine, cells, play) -> list:
    """The board `cells` with a play's tiles laid (a copy)."""
    from lookup.crossword.endgame import play_tiles

    cells = list(cells)
    for square, code, _tile in play_tiles(play, cells, engine.size):
        cells[square] = code
    return cells


def test_gains_are_paired_differences_from_the_first_candidate():
    engine, board, position = midgame()
    rows = simulate(engine, board, position["rack"], candidates=4, plies=1, iterations=8,
                    seed=3)
    first = next(row for row in rows if row.rank == 0)
    assert sorted(row.rank for row in rows) == [0, 1, 2, 3]
    assert first.equity == max(row.equity for row in rows)
    assert (first.gain, first.gain_stderr) == (0.0, 0.0) and not first.pruned
    for row in rows:
        assert row.gain == pytest.approx(row.mean - first.mean), row.move.notation()
    assert any(0 < row.gain_stderr < row.stderr for row in rows)


def test_the_player_leaves_the_best_by_equity_only_on_a_significant_gain():
    from lookup.crossword.game import Move
    from lookup.crossword.simulate import SimRow

    def rows(gain, gain_stderr, static_pruned=False):
        static = SimRow(Move("pass"), 10.0, 4.0, 30, static_pruned, 30.0, 0)
        other = SimRow(Move("exchange", exchanged="q"), 10.0 + gain, 4.0, 30, False, 20.0, 1,
                       gain, gain_stderr)
        return [other, static] if gain > 0 else [static, other]

    assert SimPlayer.choose(rows(3.0, 1.0)).move.kind == "exchange"
    assert SimPlayer.choose(rows(3.0, 2.0)).move.kind == "pass"  # 3 < 1.645 x 2
    assert SimPlayer.choose(rows(0.5, 0.1, static_pruned=True)).move.kind == "exchange"
    assert SimPlayer.choose(rows(-2.0, 1.0)).move.kind == "pass"


def run_rule(means, shared, own, seed, iterations=MAX_ITERATIONS):
    """A StoppingRule fed synthetic values: candidate i's value in an iteration is means[i]
    plus noise every candidate shares (sd `shared`: the dealing, common random numbers) plus
    its own (sd `own`); (the rule, iterations run)."""
    rng = np.random.default_rng(seed)
    rule = StoppingRule(len(means), iterations)
    for done in range(1, iterations + 1):
        common = rng.normal(0.0, shared)
        for index, mean in enumerate(means):
            if not rule.pruned[index]:
                rule.add(index, mean + common + rng.normal(0.0, own))
        if rule.iteration_done():
            return rule, done
    return rule, iterations


def test_the_paired_bound_prunes_what_the_rows_bounds_cannot():
    # A gap of 3 points under a dealing noise of 40: the rows' own bounds overlap for
    # thousands of iterations; the paired difference (noise 5) settles it within a few hundred.
    rule, done = run_rule([3.0, 0.0], shared=40.0, own=5.0, seed=1)
    assert rule.pruned == [False, True] and done < 400
    assert rule.z == pytest.approx(math.sqrt(2 * math.log(2 / 0.01)))


def test_nothing_is_pruned_before_the_minimum_or_between_checks():
    rule, done = run_rule([100.0, 0.0, 0.0], shared=1.0, own=1.0, seed=2)
    assert done == MIN_ITERATIONS and rule.pruned == [False, True, True]


def test_the_stopping_rule_never_prunes_the_true_best_of_a_large_gap_case():
    # 200 seeded simulations of 10 candidates: the best leads the next by 4 points, the others
    # trail further, under dealing noise 40 and own noise 12 (a 2-ply simulation's order of
    # magnitude). The true best is never pruned, and the rule finds it in most runs well
    # before the budget.
    means = [4.0, 0.0, -1.0, -2.0, -3.0, -5.0, -8.0, -10.0, -15.0, -20.0]
    settled = 0
    for seed in range(200):
        rule, done = run_rule(means, shared=40.0, own=12.0, seed=seed)
        assert not rule.pruned[0], seed
        settled += done < MAX_ITERATIONS
    assert settled >= 190


def test_pre_endgame_finishes_each_bag_tile_with_the_endgame_solver():
    engine = cat_engine("pre-endgame")
    cw = engine.cw
    board = cat_board(cw)
    unseen = "qzxjkvwy"  # one more than a rack; no word of the lexicon uses them
    rows = pre_endgame(engine, board, "s", unseen=unseen, candidates=2)
    # Whatever tile the bag holds, the mover draws it after its play and is stuck with it,
    # and so is the opponent: scoreless end, each rack against its owner.
    expected = {}
    for tile in sorted(set(unseen)):
        others = unseen.replace(tile, "", 1)
        for play in engine.plays(board, "s"):
            after = cw.play(board, play)
            value = solve_endgame(engine, after, others, tile, checked=False).value
            expected.setdefault(play.notation(), []).append(play.score - value)
    assert [(r.move.notation(), r.mean, r.iterations) for r in rows] == sorted(
        ((notation, sum(values) / len(values), len(values))
         for notation, values in expected.items()), key=lambda row: -row[1])


def test_player_solves_the_endgame_and_simulates_before():
    engine = cat_engine("player")
    board = cat_board(engine.cw)
    game = Game(engine, [SimPlayer(iterations=2), greedy_player], bag="", racks=["s", "q"],
                board=board, record=True)
    assert game.run().moves[0][1] == "H 7,6 cats 6"
    game = Game(engine, [SimPlayer(iterations=2, candidates=2), greedy_player],
                bag="qzxjkvwyh", racks=["ss", "bdfg"], board=board, record=True)
    game.step()
    assert game.moves[0][1] == "H 7,6 cats 6"


def test_player_exchanges_when_the_equity_bot_would():
    cw = game_with_words("scrabble-en", CAT_WORDS, "player-exchange")
    rules = cw.rules
    keys = leave_keys(rules.tiles.counts, rules.rack_size - 1)
    values = np.zeros(len(keys))
    code = {letter: rules.alphabet.index(letter) + 1 for letter in "qsxz"}
    # CATS (6) keeps QXZ (-50); exchanging QXZ keeps S (+40): the equity bot exchanges.
    values[np.searchsorted(keys, key_of_codes([code["q"], code["x"], code["z"]]))] = -50.0
    values[np.searchsorted(keys, key_of_codes([code["s"]]))] = 40.0
    cw._leaves = LeaveValues(rules, values)
    engine = MoveEngine(cw, compiled=False)
    bag = "bdfghkmnprtuvwy"
    for player, expected in ((EquityPlayer(cw.leaves()), "exchange qxz"),
                             (SimPlayer(iterations=2, candidates=2), "exchange qxz"),
                             (SimPlayer(iterations=2, candidates=2, leave=lambda tiles: 0.0),
                              "H 7,6 cats 6")):
        game = Game(engine, [player, greedy_player], bag=bag, racks=["sqxz", "aeio"],
                    board=cat_board(cw), record=True)
        game.step()
        assert game.moves[0][1] == expected


def test_unseen_tiles_default_to_the_rest_of_the_set():
    cw = fixture_game("scrabble-en")
    board = cat_board(cw)
    left = Counter(cw.tiles.text(cw.tiles.unseen(board, cw.rack_codes("ss?"))))
    assert (len("".join(left.elements())), left["c"], left["s"], left["?"]) == (94, 1, 2, 1)


def test_bad_input_is_one_line():
    engine, board, position = midgame()
    rack = position["rack"]
    for options, message in [({"candidates": 0}, "candidates must be positive, not 0"),
                             ({"iterations": 0}, "iterations must be positive, not 0"),
                             ({"seconds": -1.0}, "seconds must be positive, not -1.0"),
                             ({"plies": 0}, "plies must be positive, not 0"),
                             ({"unseen": "qq"}, "hold 2 tiles 'q'; the scrabble-en set has 1"),
                             ({"unseen": "a1"}, "unseen tile '1' is not a letter"),
                             ({"threads": 0}, "threads must be a whole number from 1 to 16, "
                                              "not 0")]:
        with pytest.raises(BadInput, match=message):
            simulate(engine, board, rack, **options)
    with pytest.raises(BadInput, match="rack 'abcdefgh' has 8 tiles"):
        simulate(engine, board, "abcdefgh")
    with pytest.raises(BadInput, match="the pre-endgame needs one in the bag, 8 unseen"):
        pre_endgame(engine, board, rack)


def test_the_sim_bots_budget_is_the_users_to_set():
    from lookup.play.match import SIM_BUDGET, make_player, sim_options

    cw = with_table("scrabble-en", quarter_table("scrabble-en"))
    player = make_player("sim", cw, {"seconds": 0.5, "iterations": None})
    assert (player.seconds, player.iterations, player.candidates) == (
        0.5, None, SIM_BUDGET["candidates"])
    assert sim_options() == SIM_BUDGET
    with pytest.raises(BadInput, match="the sim bot has no budget option 'speed'"):
        sim_options({"speed": 2})


def test_the_player_uses_the_pre_endgame_with_one_tile_in_the_bag():
    # One tile in the bag: the player asks the pre-endgame (each candidate x each bag tile
    # solved as an endgame), whose best row is CATS (tests above: every line ends stuck).
    engine = cat_engine("player-pre-endgame")
    board = cat_board(engine.cw)
    player = SimPlayer(candidates=2, pre_endgame_candidates=2, pre_endgame_plies=4)
    game = Game(engine, [player, greedy_player], bag="q", racks=["s", "zxjkvwy"], board=board,
                record=True)
    game.step()
    expected = pre_endgame(engine, board, "s", unseen="qzxjkvwy", candidates=2, plies=4)
    assert game.moves[0][1] == expected[0].move.notation()
