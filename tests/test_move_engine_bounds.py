"""The move engine's pruned searches (lookup/crossword/engine_kernel.py) against an unpruned
oracle. BEST_PLAY and BEST_AVOIDING visit the anchors by decreasing equity bound (the score's
plus the best leave of the tiles kept) and stop once a bound cannot reach the best equity
(every target's, for BEST_AVOIDING), and leave a play unscored once its plain score summed
along the walk plus its leave's bound cannot: the best play of each must be the oracle's, ties
of equity included. BEST_ABOVE, BEST_PLAY with a floor, must find the same play when it
reaches the floor (a tie included) and none when it does not. The oracle lists every
play (ALL_PLAYS, which prunes nothing), values each by score + its leave's value and takes the
best by equity, then in the engine's order (direction, line, start, word codes, blank bits).

Random self-play boards, racks of 1 tile to a full one with 0-2 blanks or the letters of a
word as long as a full rack (so that bingos are played), and leave tables
whose values are all zero (equity is the score: equal scores are common) or quarter points
in a narrow or a wide range (ties again, and leaves that outweigh scores), half of them with
the rack's bingo mask (the bingo counted in an anchor's bound only where the rack can play
one, as in the simulation's searches). The fast suite runs
the pure-Python kernel on the fixture lexicons (and the compiled one when numba is there);
@pytest.mark.full the compiled kernel on the real lexicons.
"""

import random
from collections import Counter

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from crossword_support import (
    GAMES,
    blank_variant,
    fixture_game,
    fixture_words,
    rules,
    selfplay_positions,
)
from lookup.crossword import engine_kernel
from lookup.crossword.engine import MoveEngine, numba_available
from lookup.crossword.engine_kernel import (
    ALL_PLAYS,
    BEST_ABOVE,
    BEST_AVOIDING,
    BEST_PLAY,
    MAX_TARGETS,
    PARAMS,
    R_BLANKS,
    R_DIRECTION,
    R_LEAVE,
    R_LENGTH,
    R_LINE,
    R_SCORE,
    R_START,
    RECORD_FIELDS,
)
from lookup.crossword.tiles import EMPTY_LEAVE, LEAVE_DIGIT

# Leaves of this many tiles are kept by no rack (the games' racks hold at most 9 tiles).
MAX_RACK = 9
ENGINES = [False, pytest.param(True, marks=pytest.mark.skipif(not numba_available(),
                                                              reason="numba is not installed"))]


def kernel_search(engine):
    if engine.compiled:
        from lookup.crossword.engine_numba import compiled_kernel

        return compiled_kernel()["search"]
    return engine_kernel.search


def dealt_position(cw, game: str, number: int, shuffle: int, tiles: int, blanks: int,
                   through: int | None = None):
    """A self-play board and a rack of `tiles` tiles (at most a full rack) dealt from the tiles
    unseen from it in the order of seed `shuffle`, given `blanks` blanks when the set has them
    left; or, with `through`, a full rack of the letters of a word `through` letters longer,
    less `through` of the board's letters, when the unseen tiles hold them (a rack that can
    play a bingo, alone or through board tiles). None when the unseen tiles are too few.
    """
    positions = selfplay_positions(game)
    board = cw.parse_board(positions[number % len(positions)]["board"])
    unseen = [t for t in cw.tiles.text(cw.tiles.unseen(board, [])) if t != "?"]
    if through is not None:
        on_board = Counter(letter for _r, _c, letter, _blank in board.tiles())
        word = bingo_rack(game, shuffle, through, on_board)
        if word is not None and not Counter(word) - Counter(unseen):
            return board, word
    random.Random(shuffle).shuffle(unseen)
    tiles = min(tiles, cw.rules.rack_size)
    if len(unseen) < tiles:
        return None
    rack = blank_variant(cw, board, "".join(unseen[:tiles]), blanks)
    if rack is None:
        rack = "".join(unseen[:tiles])
    return board, rack


def bingo_rack(game: str, seed: int, through: int, on_board: Counter) -> str | None:
    """The letters of a word of the fixture lexicon `through` letters longer than a full rack,
    less `through` letters that `on_board` holds, shuffled by `seed` (None without one)."""
    size = rules(game).rack_size
    rng = random.Random(seed)
    words = [w for w in fixture_words(rules(game).lexicon) if len(w) == size + through]
    rng.shuffle(words)
    for word in words:
        # The word's letters the board holds too (as many of each as both have).
        shared = list((Counter(word) & on_board).elements())
        if len(shared) < through:
            continue
        rng.shuffle(shared)
        rack = list((Counter(word) - Counter(shared[:through])).elements())
        rng.shuffle(rack)
        return "".join(rack)
    return None


def run_search(engine, params, cells, counts, table, mode, records: int, floor: float = 0.0):
    """engine_kernel.search (compiled with the engine): (result, out, best_equity); `floor`
    is BEST_ABOVE's."""
    width = engine.width
    if engine.compiled:
        params = np.asarray(params, dtype=np.int64)
        out, best_equity = np.zeros(records * width, dtype=np.int64), np.zeros(MAX_TARGETS)
    else:
        out, best_equity = [0] * (records * width), [0.0] * MAX_TARGETS
    best_equity[0] = floor
    result = kernel_search(engine)(params, *engine.kernel_constants[1:], cells, counts,
                                   table.keys, table.values, table.max_value, mode, out,
                                   best_equity)
    rows = out.tolist() if engine.compiled else out
    return result, rows, best_equity


def record_at(rows, at: int) -> tuple:
    return tuple(int(v) for v in rows[at:at + RECORD_FIELDS + rows[at + R_LENGTH]])


def every_play(engine, cells, counts) -> list:
    """Every play's record (tuple, up to its main word): ALL_PLAYS, which prunes nothing (and
    keeps the plays that repeat a word, as the kernel's best-play searches do)."""
    params = [int(v) for v in engine.kernel_constants[0]]
    records = 1024
    while True:
        count, rows, _ = run_search(engine, params, cells, counts, engine.empty_leaves,
                                    ALL_PLAYS, records)
        if count <= records:
            return [record_at(rows, at) for at in range(0, count * engine.width, engine.width)]
        records = count


def rack_key(counts) -> int:
    """The leave key of a whole rack (counts by lexicon code, blanks at 0)."""
    key = EMPTY_LEAVE
    for code, count in enumerate(counts):
        for _ in range(int(count)):
            key = key * LEAVE_DIGIT + code
    return key


def bingo_entry(engine, counts):
    """The rack's bingo key and mask (simulate.bingo_table, whose own test holds it to the
    word list), as the simulation kernel puts them in a rack's leave table; None when the rack
    holds a blank.
    """
    from lookup.crossword.simulate import bingo_table

    if counts[0]:
        return None
    key = rack_key(counts)
    slots, masks = bingo_table(engine)
    slot = engine_kernel.leave_slot(slots, key)
    return engine_kernel.bingo_key(key), (int(masks[slot]) if slots[slot] == key else 0)


def quarter_leaves(engine, plays: list, spread: int, seed: int, bingo=None, whole=None):
    """A leave table valuing most of the plays' leaves at quarter points in [-spread,
    spread] / 4 (some left out: worth 0.0), and the value of each key. One in four is padded
    with leaves of more tiles than a rack keeps to more than engine_kernel.SMALL_TABLE slots
    (the searches then bound every leave by the largest value instead of reading the table).
    `bingo` (bingo_entry's), when given, goes in as the simulation kernel puts it; `whole`,
    the whole rack's key, in one table of four with a value (a leave no play keeps, which the
    searches must not take for a bingo mask).
    """
    rng = random.Random(seed)
    keys = sorted({play[R_LEAVE] for play in plays})
    values = {key: rng.randint(-spread, spread) / 4 for key in keys if rng.random() < 0.8}
    table_values = dict(values)
    if bingo is not None:
        table_values[bingo[0]] = float(bingo[1])
    if whole is not None and rng.random() < 0.25:
        table_values[whole] = rng.choice([0.0, -1.0, 2.0, rng.randint(-spread, spread) / 4])
    if rng.random() < 0.25:
        while len(table_values) <= engine_kernel.SMALL_TABLE // 2:
            key = EMPTY_LEAVE
            for code in sorted(rng.randint(1, 30) for _ in range(MAX_RACK)):
                key = key * LEAVE_DIGIT + code
            table_values[key] = rng.randint(-spread, spread) / 4
    table = engine.keyed_leave_table(list(table_values), list(table_values.values()))
    return table, values


def best_of(plays: list, values: dict, allowed=lambda play: True):
    """The oracle: (record, equity) of the best allowed play, or (None, None)."""
    best = None
    for play in plays:
        if not allowed(play):
            continue
        equity = float(play[R_SCORE]) + values.get(play[R_LEAVE], 0.0)
        order = (play[R_DIRECTION], play[R_LINE], play[R_START], play[RECORD_FIELDS:],
                 play[R_BLANKS])
        if best is None or (-equity, order) < best[0]:
            best = ((-equity, order), play, equity)
    return (None, None) if best is None else (best[1], best[2])


def squares_of(play, size: int) -> list:
    """The squares of a play's main word, row-major."""
    line, start = play[R_LINE], play[R_START]
    if play[R_DIRECTION] == 0:
        return [line * size + start + k for k in range(play[R_LENGTH])]
    return [(start + k) * size + line for k in range(play[R_LENGTH])]


def same_best(engine, board, rack, spread: int, seed: int, targets: int) -> None:
    """BEST_PLAY's and BEST_AVOIDING's plays equal the oracle's on one position."""
    cells = engine.cells(board)
    counts = engine.rack_counts(rack, board)
    if engine.compiled:
        counts = np.asarray(counts, dtype=np.int64)
    plays = every_play(engine, cells, counts)
    # Half of the blank-free racks' tables carry the rack's bingo mask.
    bingo = bingo_entry(engine, counts) if seed % 2 else None
    table, values = quarter_leaves(engine, plays, spread, seed, bingo, rack_key(counts))
    label = f"rack {rack!r}, spread {spread}, seed {seed}"

    params = [int(v) for v in engine.kernel_constants[0][:PARAMS]]
    found, rows, equity = run_search(engine, params, cells, counts, table, BEST_PLAY, 1)
    expected, expected_equity = best_of(plays, values)
    if expected is None:
        assert not found, label
    else:
        assert found and (record_at(rows, 0), float(equity[0])) == (
            expected, expected_equity), label

    # BEST_ABOVE: the same play when it reaches the floor (a tie included), else none.
    rng = random.Random(seed)
    best_equity = 0.0 if expected is None else expected_equity
    for floor in (best_equity, best_equity - 0.25, best_equity + 0.25,
                  best_equity + rng.uniform(-40, 40)):
        found, rows, equity = run_search(engine, params, cells, counts, table, BEST_ABOVE, 1,
                                         floor)
        if expected is None or expected_equity < floor:
            assert not found, f"{label}, floor {floor}"
        else:
            assert found and (record_at(rows, 0), float(equity[0])) == (
                expected, expected_equity), f"{label}, floor {floor}"

    # BEST_AVOIDING: each target avoids a few squares, drawn among those of the best scoring
    # plays and anywhere.
    size = engine.size
    n2 = size * size
    rng = random.Random(seed)
    best_scores = sorted(plays, key=lambda play: -play[R_SCORE])[:30]
    near = sorted({s for play in best_scores for s in squares_of(play, size)})
    avoided = [set(rng.sample(near, min(len(near), rng.randint(0, 6))))
               | {rng.randrange(n2) for _ in range(rng.randint(0, 3))} for _ in range(targets)]
    params += [0] * (n2 + 1)
    for k, squares in enumerate(avoided):
        for square in squares:
            params[PARAMS + square] |= 1 << k
    params[PARAMS + n2] = targets
    found, rows, best_equity = run_search(engine, params, cells, counts, table, BEST_AVOIDING,
                                          MAX_TARGETS + 1)
    width = engine.width
    for k, squares in enumerate(avoided):
        expected, expected_equity = best_of(
            plays, values, lambda play, squares=squares: not squares & set(
                squares_of(play, size)))
        if expected is None:
            assert not (found >> k) & 1, f"{label}, target {k}"
            continue
        assert (found >> k) & 1 and (record_at(rows, (k + 1) * width), float(best_equity[k])) == (
            expected, expected_equity), f"{label}, target {k}"


def prepared_search(engine):
    """lookup/crossword/endgame_kernel.prepared_search (compiled with the engine): the search of
    a board whose setup arrays come ready, as the simulation's covering searches run it."""
    from lookup.crossword.endgame import _kernel

    return _kernel(engine.compiled)["prepared_search"]


def same_best_on_flagged_anchors(engine, board, rack, spread: int, seed: int,
                                 share: float) -> None:
    """BEST_PLAY's and BEST_ABOVE's plays equal the oracle's on a board whose anchors are
    flagged on some squares only (each kept with probability `share`), as the simulation's
    covering searches flag those of a zone: the walk then passes leftward over squares next to
    tiles, and over tiles past them. Then a few anchors flagged alone, each searched by
    BEST_ABOVE from its own best play's equity, which its bound must reach. The oracle: every
    play ALL_PLAYS finds from the same anchors."""
    size = engine.size
    n2 = size * size
    cells = engine.cells(board)
    counts = engine.rack_counts(rack, board)
    constants = engine.kernel_constants
    if engine.compiled:
        counts = np.asarray(counts, dtype=np.int64)
        prepared = np.zeros((4, 2 * n2), dtype=np.int64)
        from lookup.crossword.engine_numba import compiled_kernel

        compiled_kernel()["setup"](*constants[:4], constants[6], cells, *prepared)
    else:
        prepared = [[0] * (2 * n2) for _ in range(4)]
        engine_kernel.setup(*constants[:4], constants[6], cells, *prepared)
    anchors = [i for i in range(2 * n2) if prepared[3][i]]
    rng = random.Random(seed)
    kept = [i for i in anchors if rng.random() < share]
    search = prepared_search(engine)
    params = constants[0]
    width = engine.width

    def run(table, mode, records, floor=0.0):
        if engine.compiled:
            out, best_equity = np.zeros(records * width, dtype=np.int64), np.zeros(1)
        else:
            out, best_equity = [0] * (records * width), [0.0]
        best_equity[0] = floor
        result = search(params, *constants[1:], prepared, counts, table.keys, table.values,
                        table.max_value, mode, out, best_equity)
        return result, (out.tolist() if engine.compiled else out), best_equity

    def flag(squares):
        for i in anchors:
            prepared[3][i] = 0
        for i in squares:
            prepared[3][i] = 1

    def every(flagged):
        flag(flagged)
        records = 1024
        while True:
            count, rows, _ = run(engine.empty_leaves, ALL_PLAYS, records)
            if count <= records:
                return [record_at(rows, at) for at in range(0, count * width, width)]
            records = count

    bingo = bingo_entry(engine, counts) if seed % 2 else None
    table, values = quarter_leaves(engine, every(anchors), spread, seed, bingo,
                                   rack_key(counts))
    # The zone's anchors together (BEST_PLAY, BEST_ABOVE around the best), then anchors one at
    # a time (BEST_ABOVE from the anchor's own best: its bound must reach it).
    singles = rng.sample(anchors, min(len(anchors), 8))
    for flagged, floors in [(kept, (0.0, -0.25, 0.25))] + [([i], (0.0,)) for i in singles]:
        plays = every(flagged)
        label = f"rack {rack!r}, spread {spread}, seed {seed}, anchors {flagged}"
        expected, expected_equity = best_of(plays, values)
        if len(floors) > 1:
            found, rows, equity = run(table, BEST_PLAY, 1)
            if expected is None:
                assert not found, label
            else:
                assert found and (record_at(rows, 0), float(equity[0])) == (
                    expected, expected_equity), label
        best_equity = 0.0 if expected is None else expected_equity
        for shift in floors:
            floor = best_equity + shift
            found, rows, equity = run(table, BEST_ABOVE, 1, floor)
            if expected is None or expected_equity < floor:
                assert not found, f"{label}, floor {floor}"
            else:
                assert found and (record_at(rows, 0), float(equity[0])) == (
                    expected, expected_equity), f"{label}, floor {floor}"


@pytest.mark.parametrize("compiled", ENGINES)
@pytest.mark.parametrize("game", ["scrabble-en", "wordfeud-en"])
def test_a_bingo_through_two_board_tiles_stays_in_the_bound(compiled, game):
    # A bingo through two board tiles (a word of the fixture lexicon two letters longer than a
    # full rack, two of its letters a word on the board's row): the rack's bingo mask knows
    # only words of its tiles alone or with one letter more, so the search must keep the bingo
    # in the bound of a window with two board tiles; the pruned best play is the oracle's.
    # (The Dutch and Russian fixture lexicons hold no such word.)
    cw = fixture_game(game)
    engine = MoveEngine(cw, compiled=compiled)
    rack_size = cw.rules.rack_size
    words = set(fixture_words(rules(game).lexicon))
    for word in sorted(w for w in words if len(w) == rack_size + 2):
        at = next((p for p in range(len(word) - 1) if word[p:p + 2] in words), None)
        if at is not None:
            break
    else:
        raise AssertionError(f"no word of {rack_size + 2} letters through a two-letter word")
    side = engine.size
    row, column = divmod(cw.rules.layout.start[0] * side + cw.rules.layout.start[1], side)
    column = min(max(column, at), side - len(word) + at)
    grid = [["."] * side for _ in range(side)]
    grid[row][column:column + 2] = list(word[at:at + 2])
    board = cw.parse_board("".join("".join(line) + "\n" for line in grid))
    rack = word[:at] + word[at + 2:]
    counts = engine.rack_counts(rack, board)
    if engine.compiled:
        counts = np.asarray(counts, dtype=np.int64)
    cells = engine.cells(board)
    plays = every_play(engine, cells, counts)
    key, mask = bingo_entry(engine, counts)
    table = engine.keyed_leave_table([key], [float(mask)])
    expected, expected_equity = best_of(plays, {})
    assert expected[R_SCORE] > cw.rules.bingo  # the bingo through the two tiles
    params = [int(v) for v in engine.kernel_constants[0][:PARAMS]]
    found, rows, equity = run_search(engine, params, cells, counts, table, BEST_PLAY, 1)
    assert found and (record_at(rows, 0), float(equity[0])) == (expected, expected_equity)


@pytest.mark.parametrize("compiled", ENGINES)
@settings(max_examples=150, deadline=None, derandomize=True,
          suppress_health_check=list(HealthCheck))
@given(game=st.sampled_from(GAMES), number=st.integers(0, 10**4),
       shuffle=st.integers(0, 10**6), tiles=st.integers(1, 9), blanks=st.integers(0, 2),
       spread=st.sampled_from([0, 4, 200]), targets=st.integers(1, 5),
       through=st.sampled_from([None, 0, 1, 2]))
def test_pruned_best_plays_are_the_best_of_all_plays(compiled, game, number, shuffle, tiles,
                                                     blanks, spread, targets, through):
    cw = fixture_game(game)
    engine = MoveEngine(cw, compiled=compiled)
    dealt = dealt_position(cw, game, number, shuffle, tiles, blanks, through)
    if dealt is None:
        return
    same_best(engine, *dealt, spread, shuffle, targets)


@pytest.mark.full
@settings(max_examples=150, deadline=None, derandomize=True,
          suppress_health_check=list(HealthCheck))
@given(game=st.sampled_from(GAMES), number=st.integers(0, 10**4),
       shuffle=st.integers(0, 10**6), tiles=st.integers(1, 9), blanks=st.integers(0, 2),
       spread=st.sampled_from([0, 4, 200]), targets=st.integers(1, 8),
       through=st.sampled_from([None, 0, 1, 2]))
def test_pruned_best_plays_are_the_best_of_all_plays_on_the_real_lexicons(
        game, number, shuffle, tiles, blanks, spread, targets, through):
    pytest.importorskip("numba")
    from lookup.crossword.engine import move_engine
    from lookup.crossword.game import crossword_game

    cw = crossword_game(game)
    engine = move_engine(cw, compiled=True)
    dealt = dealt_position(cw, game, number, shuffle, tiles, blanks, through)
    if dealt is None:
        return
    same_best(engine, *dealt, spread, shuffle, targets)


@pytest.mark.parametrize("compiled", ENGINES)
@settings(max_examples=100, deadline=None, derandomize=True,
          suppress_health_check=list(HealthCheck))
@given(game=st.sampled_from(GAMES), number=st.integers(0, 10**4),
       shuffle=st.integers(0, 10**6), tiles=st.integers(1, 9), blanks=st.integers(0, 2),
       spread=st.sampled_from([0, 4, 200]), through=st.sampled_from([None, 0, 1, 2]),
       share=st.sampled_from([0.1, 0.3, 0.6]))
def test_pruned_best_plays_with_anchors_on_a_zone_only(compiled, game, number, shuffle, tiles,
                                                       blanks, spread, through, share):
    cw = fixture_game(game)
    engine = MoveEngine(cw, compiled=compiled)
    dealt = dealt_position(cw, game, number, shuffle, tiles, blanks, through)
    if dealt is None:
        return
    same_best_on_flagged_anchors(engine, *dealt, spread, shuffle, share)


@pytest.mark.full
@settings(max_examples=100, deadline=None, derandomize=True,
          suppress_health_check=list(HealthCheck))
@given(game=st.sampled_from(GAMES), number=st.integers(0, 10**4),
       shuffle=st.integers(0, 10**6), tiles=st.integers(1, 9), blanks=st.integers(0, 2),
       spread=st.sampled_from([0, 4, 200]), through=st.sampled_from([None, 0, 1, 2]),
       share=st.sampled_from([0.1, 0.3, 0.6]))
def test_pruned_best_plays_with_anchors_on_a_zone_only_on_the_real_lexicons(
        game, number, shuffle, tiles, blanks, spread, through, share):
    pytest.importorskip("numba")
    from lookup.crossword.engine import move_engine
    from lookup.crossword.game import crossword_game

    cw = crossword_game(game)
    engine = move_engine(cw, compiled=True)
    dealt = dealt_position(cw, game, number, shuffle, tiles, blanks, through)
    if dealt is None:
        return
    same_best_on_flagged_anchors(engine, *dealt, spread, shuffle, share)
