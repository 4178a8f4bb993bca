"""Erudit multi-word turns (lookup/crossword/turn.py, lookup/crossword/turn_search.py): the
cluster search against the plain search (every state expanded) and against an independent brute
force over sequences of single-line placements (tests/crossword_oracle.py), with no blank, one
and two; the time budget; the rules of a turn, its score, and bad input."""

import dataclasses
import functools
import gc
import itertools
import math
import random

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from crossword_oracle import brute_force_turns, grid_of
from crossword_support import (
    blank_variant,
    fixture_game,
    fixture_index,
    fixture_tables,
    fixture_words,
    game_with_words,
    rules,
    selfplay_positions,
)
from lookup.crossword.board import run_bounds
from lookup.crossword.game import CrosswordGame
from lookup.crossword.turn import played_set
from lookup.crossword.turn_search import ClusterSearch, covering_step
from lookup.errors import BadInput
from pipeline.selfplay import play_game

GAME = "erudit-ru"
POSITIONS = 200
# Multi-word turns among the legal turns of those positions (the rest are single plays).
MULTI_WORD_TURNS = 391


def small_rack_cases(cw, count: int) -> list:
    """(label, board, rack) over the first `count` self-play positions: the racks cut to 3
    tiles, every 8th to 4, every 25th with a blank for its last tile (a blank multiplies the
    brute force's work by about ten)."""
    found = []
    for number, position in enumerate(selfplay_positions(GAME)[:count]):
        board = cw.parse_board(position["board"])
        rack = position["rack"][:4 if number % 8 == 1 else 3]
        blanks_on_board = sum(1 for tile in board.tiles() if tile[3])
        if number % 25 == 0 and blanks_on_board + rack.count("?") < cw.rules.blanks:
            rack = rack[:-1] + "?"
        found.append((f"position {number} rack {rack!r}", board, rack))
    return found


def cluster_turns(cw, board, rack: str, top: int, compiled: bool | None = None) -> list:
    """The best `top` turns by ClusterSearch itself (what search_turns packs into its answer);
    `compiled` picks the cover (None: as the game's move path)."""
    if compiled is None:
        compiled = cw._uses_engine(None)
    search = cw._turn_search(board, cw.rack_codes(rack, board), None)
    return ClusterSearch(search, covering_step(cw, compiled)).best(top)


def test_full_search_agrees_with_the_brute_force():
    cw = fixture_game(GAME)
    index = fixture_index(cw.rules.lexicon)
    turns = 0
    for number, (label, board, rack) in enumerate(small_rack_cases(cw, POSITIONS)):
        expected = brute_force_turns(cw.rules, grid_of(board), rack, index,
                                     max_parts=len(rack))
        everything = cluster_turns(cw, board, rack, 10 ** 6)
        found = {frozenset(m.placed): m.score for m in everything}
        assert len(found) == len(everything), f"{label}: a turn came out twice"
        assert found == expected, f"{label}: {sorted(set(found) ^ set(expected))[:3]}"
        if number % 4 == 0:
            best = cluster_turns(cw, board, rack, 1)
            assert (best[0].score if best else None) == max(expected.values(), default=None)
        for tiles, score in expected.items():
            assert cw.score(board, sorted(tiles)) == score, label
        for tiles in list(expected)[::7]:
            assert cw.validate(board, sorted(tiles), rack=rack) == [], label
        turns += sum(1 for m in everything if m.kind == "turn")
    assert turns == MULTI_WORD_TURNS


# Racks of 3 tiles, one blank and two, on every 10th (two blanks: 20th) of the first 200
# self-play positions whose board leaves the set that many blanks: (step, cases, legal turns,
# multi-word turns among them).
BLANK_CASES = {1: (10, 13, 1549, 759), 2: (20, 5, 2946, 976)}


@pytest.mark.parametrize("blanks", sorted(BLANK_CASES))
def test_the_search_with_blanks_agrees_with_the_brute_force(blanks):
    cw = fixture_game(GAME)
    index = fixture_index(cw.rules.lexicon)
    boards = [(number, cw.parse_board(position["board"]), position["rack"])
              for number, position in enumerate(selfplay_positions(GAME)[:200])]
    room = [(number, board, rack) for number, board, rack in boards
            if sum(1 for tile in board.tiles() if tile[3]) + blanks <= cw.rules.blanks]
    cases = legal = multi = 0
    step, *counts = BLANK_CASES[blanks]
    for number, board, dealt in room[::step]:
        rack = dealt.replace("?", "")[:3 - blanks] + "?" * blanks
        expected = brute_force_turns(cw.rules, grid_of(board), rack, index, max_parts=3)
        everything = cluster_turns(cw, board, rack, 10 ** 6)
        found = {frozenset(m.placed): m.score for m in everything}
        assert found == expected, f"position {number} rack {rack!r}"
        cases += 1
        legal += len(found)
        multi += sum(1 for m in everything if m.kind == "turn")
    assert [cases, legal, multi] == counts


# Fixture self-play positions, racks cut to 5 tiles, on which the cluster search is checked
# against the plain search (every state expanded, TurnSearch.ranked); the legal turns there.
CLUSTER_POSITIONS = 200
PLAIN_TURNS = 4164


def turn_list(moves) -> list:
    return [(m.score, frozenset(m.placed)) for m in moves]


def test_the_cluster_search_finds_the_turns_of_the_plain_search():
    cw = fixture_game(GAME)
    turns = 0
    for number, position in enumerate(selfplay_positions(GAME)[:CLUSTER_POSITIONS]):
        board = cw.parse_board(position["board"])
        rack = position["rack"][:5]
        plain = turn_list(cw._turn_search(board, cw.rack_codes(rack, board), None).ranked())
        assert sorted(turn_list(cluster_turns(cw, board, rack, 10 ** 6)),
                      key=repr) == sorted(plain, key=repr), f"position {number}"
        for top in (1, 3, 10):
            assert turn_list(cluster_turns(cw, board, rack, top)) == plain[:top], (
                f"position {number} top {top}")
        turns += len(plain)
    assert turns == PLAIN_TURNS


# The first racks of the fixture's self-play games on the empty board, cut to 5 tiles and to 4
# and a blank: the plain search's turns, and the clusters the search made laying first parts
# across only and both ways.
OPENING_CASES = {"адеен": (10, 5, 10), "адее?": (818, 528, 879), "гзипп": (28, 18, 31),
                 "гзип?": (1328, 861, 1384), "аамрф": (136, 91, 146),
                 "аамр?": (3046, 2036, 3277)}


@pytest.mark.parametrize("compiled", [True, False])
def test_on_the_empty_board_the_search_lays_first_parts_across_and_adds_the_transposes(
        compiled):
    cw = fixture_game(GAME)
    board = cw.empty_board()
    for rack, (count, clusters, both_ways) in OPENING_CASES.items():
        codes = cw.rack_codes(rack, board)
        ranked = cw._turn_search(board, codes, None).ranked()
        plain = turn_list(ranked)
        search = ClusterSearch(cw._turn_search(board, codes, None), covering_step(cw, compiled))
        assert search.transposes
        everything = search.best(10 ** 6)
        assert turn_list(everything) == plain, rack
        assert (len(plain), len(search.seen)) == (count, clusters), rack
        assert {k.plays[0][1] for k in search.seen.values() if len(k.plays) == 1} == {0}
        for top in (1, 3, 10):
            assert turn_list(cluster_turns(cw, board, rack, top, compiled)) == plain[:top]
        # Each turn with the fewest parts, each part legal when laid.
        assert [len(m.parts) if m.kind == "turn" else 1 for m in everything] == [
            len(m.parts) if m.kind == "turn" else 1 for m in ranked], rack
        for move in everything[::17]:
            assert cw.validate(board, move, rack=rack) == [], (rack, move)
        both = ClusterSearch(cw._turn_search(board, codes, None), covering_step(cw, compiled))
        both.transposes = False
        assert turn_list(both.best(10 ** 6)) == plain
        assert len(both.seen) == both_ways, rack


def test_a_board_not_mirrored_by_its_diagonal_is_searched_both_ways():
    real = rules(GAME)
    moved = dataclasses.replace(real, layout=dataclasses.replace(real.layout, start=(7, 6)))
    cw = CrosswordGame(moved, fixture_tables(real.lexicon))
    board = cw.empty_board()
    codes = cw.rack_codes("адее?", board)
    search = ClusterSearch(cw._turn_search(board, codes, None), covering_step(cw, True))
    assert not search.transposes
    assert turn_list(search.best(10 ** 6)) == turn_list(
        cw._turn_search(board, codes, None).ranked())
    cw = fixture_game(GAME)
    board = board_with(cw, "кот")
    assert not ClusterSearch(cw._turn_search(board, cw.rack_codes("оо", board), None),
                             covering_step(cw, True)).transposes


def test_the_compiled_cover_and_the_move_generator_find_the_same_turns():
    pytest.importorskip("numba")
    cw = fixture_game(GAME)
    for number, position in enumerate(selfplay_positions(GAME)[:40]):
        board = cw.parse_board(position["board"])
        rack = position["rack"][:5]
        compiled, plain = (turn_list(cluster_turns(cw, board, rack, 10 ** 6, compiled=flag))
                           for flag in (True, False))
        assert compiled == plain, f"position {number}"


def drawn_position(number: int, size: int, blanks: int) -> tuple:
    """(fixture game, board, rack) of self-play position `number`: the first `size` tiles of
    its rack with `blanks` of them blanks (hypothesis rejects a rack that cannot have them)."""
    cw = fixture_game(GAME)
    position = selfplay_positions(GAME)[number]
    board = cw.parse_board(position["board"])
    rack = blank_variant(cw, board, position["rack"][:size], blanks)
    assume(rack is not None)
    return cw, board, rack


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(number=st.integers(0, 199), size=st.integers(2, 6), blanks=st.integers(0, 2),
       repeats=st.booleans(), top=st.sampled_from([1, 10, 10 ** 6]))
def test_the_compiled_layout_lays_the_clusters_the_python_one_does(number, size, blanks,
                                                                    repeats, top):
    # The compiled cover lays and scores each part in the kernel (turn_kernel.lay_batch),
    # lists the join groups and their choices there and leaves out the clusters that cannot
    # reach the best `top` (turn_kernel._below, _two_left_bound); the other does it all in Python
    # (ClusterSearch._add, _grow): the same turns, parts and scores, with the board's words
    # forbidden (word keys in both) or not.
    pytest.importorskip("numba")
    cw, board, rack = drawn_position(number, size, blanks)
    played = played_set(board, None) if repeats else None
    found = []
    for compiled in (True, False):
        search = cw._turn_search(board, cw.rack_codes(rack, board), played)
        found.append([(move.notation(), move.score) for move in
                      ClusterSearch(search, covering_step(cw, compiled)).best(top)])
    assert found[0] == found[1]


def every_cluster(number: int, size: int, blanks: int) -> tuple:
    """(the game, a ClusterSearch that made every cluster: the Python cover, no threshold) of
    drawn_position's position."""
    cw, board, rack = drawn_position(number, size, blanks)
    search = ClusterSearch(cw._turn_search(board, cw.rack_codes(rack, board), None),
                           covering_step(cw, False))
    search.best(10 ** 6)
    return cw, search


def new_tiles_score(cells: list, new: dict, size: int, values, letter_mult, word_mult) -> int:
    """The score of the tiles `new` ({square: code}) laid on `cells`, validity aside: every run
    of two tiles or more through one of them, the premiums of their squares counted."""
    board = list(cells)
    for square, code in new.items():
        board[square] = code
    total = 0
    for step in (1, size):
        firsts = set()
        for square in new:
            first, last = run_bounds(board, size, square, step)
            if first == last or first in firsts:
                continue
            firsts.add(first)
            word, multiplier = 0, 1
            for index in range(first, last + 1, step):
                if index in new:
                    word += values[board[index]] * letter_mult[index]
                    multiplier *= word_mult[index]
                else:
                    word += values[board[index]]
            total += word * multiplier
    return total


def zone_of(cells: list, new: dict, size: int) -> set:
    """The first empty square from each tile of `new` (laid on `cells`) in each direction."""
    board = list(cells)
    for square, code in new.items():
        board[square] = code
    zone = set()
    for square in new:
        for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0)):
            r, c = square // size + dr, square % size + dc
            while 0 <= r < size and 0 <= c < size and board[r * size + c]:
                r, c = r + dr, c + dc
            if 0 <= r < size and 0 <= c < size:
                zone.add(r * size + c)
    return zone


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(number=st.integers(0, 199), size=st.integers(3, 5), blanks=st.integers(0, 2))
def test_the_two_tiles_bound_is_the_best_pair_of_squares_of_the_zones(number, size, blanks):
    # turn_kernel._two_left_bound leaves out a cluster with two tiles left when even what
    # they can add cannot bring a turn that holds it to the best `top`; when both join the
    # cluster, that is _two_tiles_gain: the best, validity aside, over one tile on a square of
    # the cluster's zone and the other on a square of the zone then. Here against every such
    # pair scored afresh, on clusters of real positions.
    from lookup.crossword import turn_kernel
    from lookup.crossword.board import BLANK

    _cw, search = every_cluster(number, size, blanks)
    s = search.search
    n = s.size
    scored = functools.partial(new_tiles_score, s.cells, size=n, values=s.values,
                               letter_mult=s.letter_mult, word_mult=s.word_mult)
    two_left = [k for k in search.seen.values() if search.tile_count[search.full - k.used] == 2]
    assume(two_left)
    for k in random.Random(number).sample(two_left, min(3, len(two_left))):
        tiles = dict(k.tiles)
        assert scored(tiles) == k.score
        codes = [code or BLANK | 1 for code in search.kept(search.full - k.used)]
        best = -(1 << 40)
        for first in zone_of(s.cells, tiles, n):
            for t in range(2):
                laid = {**tiles, first: codes[t]}
                for second in zone_of(s.cells, laid, n):
                    if second != first:
                        best = max(best, scored({**laid, second: codes[1 - t]}) - k.score)
        cells = np.array(s.cells, dtype=np.int64)
        fresh = np.zeros(len(cells), dtype=np.int64)
        for square, code in k.tiles:
            cells[square] = code
            fresh[square] = 1
        placed = np.zeros(len(cells), dtype=np.int64)
        squares = np.array(k.zone_squares, dtype=np.int64)
        no_checks = np.zeros(0, dtype=np.int64)
        gains = np.array([[turn_kernel._square_gain(cells, fresh, placed, q, n, s.values,
                                                    s.letter_mult, s.word_mult, s.values[code])
                           for q in squares] for code in codes], dtype=np.int64)
        assert turn_kernel._two_tiles_gain(
            cells, fresh, placed, squares, 0, len(squares), n, s.values, s.letter_mult,
            s.word_mult, np.array(codes, dtype=np.int64), gains, math.inf, no_checks,
            no_checks) == best
        assert set(squares.tolist()) == zone_of(s.cells, tiles, n)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(number=st.integers(0, 199), size=st.integers(3, 6), blanks=st.integers(0, 2))
def test_no_cluster_holding_one_with_two_tiles_left_is_worth_more_than_its_bound(number, size,
                                                                                 blanks):
    # turn_kernel._two_left_bound with the cross-checks of the board with the cluster (the
    # bound lay_batch leaves clusters out by): every cluster the search finds (all of them:
    # the Python cover, no threshold) that holds one with two tiles left and one or two
    # tiles more scores at most that bound.
    pytest.importorskip("numba")
    from lookup.crossword import engine_kernel, turn_kernel
    from lookup.crossword.engine import move_engine

    cw, search = every_cluster(number, size, blanks)
    s = search.search
    n = s.size
    params, arcs, node_mask, values, _letter_mult, _word_mult, order = (
        move_engine(cw, compiled=True).kernel_constants)
    best_single = np.zeros(search.subsets, dtype=np.int64)
    for k in search.seen.values():
        if len(k.plays) == 1:
            best_single[k.used] = max(best_single[k.used], k.score)
    by_tiles = {frozenset(k.tiles): k for k in search.seen.values()}
    bounds = {}
    for j in search.seen.values():
        for extra in (1, 2):
            for gone in itertools.combinations(j.tiles, extra):
                k = by_tiles.get(frozenset(j.tiles) - frozenset(gone))
                if k is None or search.tile_count[search.full - k.used] != 2:
                    continue
                key = frozenset(k.tiles)
                if key not in bounds:
                    cells = np.array(s.cells, dtype=np.int64)
                    fresh = np.zeros(n * n, dtype=np.int64)
                    for square, code in k.tiles:
                        cells[square] = code
                        fresh[square] = 1
                    arrays = [np.zeros(2 * n * n, dtype=np.int64) for _ in range(4)]
                    engine_kernel.setup(params, arcs, node_mask, values, order, cells, *arrays)
                    squares = np.array(k.zone_squares, dtype=np.int64)
                    exact = np.zeros(1, dtype=np.int64)
                    bounds[key] = turn_kernel._two_left_bound(
                        k.score, k.used, search.full, math.inf, search.bingo,
                        np.zeros(search.subsets), best_single, search.stride_codes,
                        np.array(search.left_of[k.used], dtype=np.int64), cells, fresh,
                        np.zeros(n * n, dtype=np.int64), squares, 0, len(squares), n, s.values,
                        s.letter_mult, s.word_mult, np.zeros(2, dtype=np.int64),
                        np.zeros((2, turn_kernel.ZONE_LIMIT), dtype=np.int64), exact,
                        arrays[1], order, False)
                    assert exact[0] == 1
                bingo = 0 if any(j.counts) else search.bingo
                assert j.score + bingo <= bounds[key], (k.tiles, j.tiles)
    event(f"clusters bounded: {'some' if bounds else 'none'}")


def join_rows(cw, board, rack: str, top: int, look_first: bool) -> tuple:
    """(the rows of every join choice that reaches, the best `top` turns) of the compiled
    search, its join groups looked at as a whole first or not (turn_kernel.join_choices)."""
    cover = covering_step(cw, True, look_first=look_first)
    rows = []
    one_by_one = cover.join_choices

    def recorded(*arguments):
        found = one_by_one(*arguments)
        rows.extend(found)
        return found

    cover.join_choices = recorded
    search = ClusterSearch(cw._turn_search(board, cw.rack_codes(rack, board), set()), cover)
    return rows, [(move.notation(), move.score) for move in search.best(top)]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(number=st.integers(0, 199), size=st.integers(4, 7), blanks=st.integers(1, 2),
       top=st.sampled_from([1, 10]))
def test_one_look_at_a_join_group_rules_out_only_choices_that_reach_nothing(number, size,
                                                                           blanks, top):
    # turn_kernel._join_may_reach looks at all of a group's choices at once (each blank's
    # square taking any letter a choice gives it) and skips the group when no run of its lines
    # can be a word: the choices that reach, one by one, and the turns are the same.
    pytest.importorskip("numba")
    cw, board, rack = drawn_position(number, size, blanks)
    assert join_rows(cw, board, rack, top, True) == join_rows(cw, board, rack, top, False)


def compiled_turn_kernel():
    """(the fixture game's compiled MoveEngine, the turn kernel's functions compiled against it);
    the test is skipped without numba.
    """
    pytest.importorskip("numba")
    from lookup.crossword import turn_kernel
    from lookup.crossword.engine import MoveEngine
    from lookup.crossword.engine_numba import compiled_extension

    engine = MoveEngine(fixture_game(GAME), compiled=True)
    return engine, compiled_extension(turn_kernel, turn_kernel.TURN_KERNEL_FUNCTIONS)


def line_word_case(data, name: str) -> tuple:
    """The compiled turn kernel's GADDAG (params, arcs, node_mask), its function `name`, the
    fixture lexicon's alphabet, its words of 2 to 7 letters, the letter codes, and a drawn
    model word that the line to test takes its shape from, and whether the line fits it."""
    engine, kernel = compiled_turn_kernel()
    alphabet = engine.lexicon.tables.alphabet
    words = [w for w in fixture_words(rules(GAME).lexicon) if 2 <= len(w) <= 7]
    return (*engine.kernel_constants[:3], kernel[name], alphabet, words,
            range(1, len(alphabet) + 1), data.draw(st.sampled_from(words)),
            data.draw(st.booleans()))


@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_a_line_word_exists_when_a_word_of_the_list_fits_it(data):
    # turn_kernel._line_word_exists on the GADDAG against the word list itself: a word of the
    # line's length with the fixed letters, a wild square's letter among its letters, and
    # each empty square's letter among its check and taken from the rack (a blank: any).
    import numpy as np

    from lookup.crossword.engine_kernel import P_ALL_LETTERS, P_ROOT

    (params, arcs, node_mask, exists, alphabet, words, letters, model,
     fitted) = line_word_case(data, "_line_word_exists")
    length = len(model)
    # A line shaped after the model: each square fixed, wild or empty, its letters holding
    # the model's (`fitted`: the model fits) or drawn at random.
    code, wild, check = (np.zeros(length, np.int64) for _ in range(3))
    counts = np.zeros(len(alphabet) + 1, np.int64)
    counts[0] = data.draw(st.integers(0, 1))
    for k, letter in enumerate(model):
        own = alphabet.index(letter) + 1
        drawn = (lambda: own) if fitted else (lambda: data.draw(st.sampled_from(letters)))
        kind = data.draw(st.sampled_from(["fixed", "wild", "empty"]))
        if kind == "fixed":
            code[k] = drawn()
        elif kind == "wild":
            code[k] = own
            chosen = data.draw(st.sets(st.sampled_from(letters), max_size=4)) | {drawn()}
            wild[k] = sum(1 << c for c in chosen)
        else:
            chosen = data.draw(st.sets(st.sampled_from(letters), max_size=6)) | {drawn()}
            check[k] = sum(1 << c for c in chosen)
            counts[drawn()] += 1
    assume(not all(code))

    def fits(word: str) -> bool:
        left = counts.copy()
        for k, letter in enumerate(word):
            c = alphabet.index(letter) + 1
            if code[k] and not wild[k]:
                if c != code[k]:
                    return False
            elif wild[k]:
                if not wild[k] >> c & 1:
                    return False
            else:
                if not check[k] >> c & 1:
                    return False
                if left[c]:
                    left[c] -= 1
                elif left[0]:
                    left[0] -= 1
                else:
                    return False
        return True

    room = [np.zeros(length + 2, np.int64) for _ in range(3)]
    before = counts.copy()
    found = exists(arcs, node_mask, params[P_ROOT], params[P_ALL_LETTERS], code, wild, check,
                   0, length - 1, counts, *room)
    expected = any(fits(w) for w in words if len(w) == length)
    event(f"a word fits: {expected}")
    assert found == expected
    assert np.array_equal(counts, before)


@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_the_letters_of_a_line_s_one_empty_square_are_those_a_word_of_the_list_gives_it(data):
    # turn_kernel._line_word_letters on the GADDAG against the word list itself: the letters
    # of `available` a word of the line's length gives the empty square, its fixed letters
    # kept and each wild square's letter among its letters.
    import numpy as np

    from lookup.crossword.engine_kernel import P_ROOT

    (params, arcs, node_mask, letters_of, alphabet, words, letters, model,
     fitted) = line_word_case(data, "_line_word_letters")
    length = len(model)
    at = data.draw(st.integers(0, length - 1))
    code, wild = np.zeros(length, np.int64), np.zeros(length, np.int64)
    for k, letter in enumerate(model):
        if k == at:
            continue
        own = alphabet.index(letter) + 1
        drawn = own if fitted else data.draw(st.sampled_from(letters))
        code[k] = drawn
        if data.draw(st.booleans()):
            chosen = data.draw(st.sets(st.sampled_from(letters), max_size=5)) | {drawn}
            wild[k] = sum(1 << c for c in chosen)
    offered = data.draw(st.sets(st.sampled_from(letters), min_size=1))
    if fitted:
        offered.add(alphabet.index(model[at]) + 1)
    available = sum(1 << c for c in offered)

    def fits(word: str) -> bool:
        for k, letter in enumerate(word):
            c = alphabet.index(letter) + 1
            if k != at and not (wild[k] >> c & 1 if wild[k] else c == code[k]):
                return False
        return True

    expected = 0
    for word in words:
        if len(word) == length and fits(word):
            expected |= (1 << alphabet.index(word[at]) + 1) & available
    room = [np.zeros(length, np.int64) for _ in range(3)]
    found = letters_of(arcs, node_mask, params[P_ROOT], code, wild, length, at, available,
                       *room)
    event(f"letters found: {min(bin(expected).count('1'), 3)}")
    assert found == expected


@settings(max_examples=200, deadline=None)
@given(data=st.data())
def test_the_covering_search_turns_the_positions_setup_into_the_boards(data):
    # turn_kernel.setup turns the position's setup arrays by the tiles laid (a cluster's, on
    # any squares, blanks too) instead of setting up the board with them: the same cells,
    # cross-checks, cross sums and anchors as engine_kernel.setup of that board.
    engine, kernel = compiled_turn_kernel()
    import numpy as np

    from lookup.crossword.board import BLANK

    cw = engine.cw
    params, arcs, node_mask, values, _letter_mult, _word_mult, order = engine.kernel_constants
    n2 = cw.rules.layout.size ** 2
    flagged = np.concatenate((params, np.ones(2 * n2, dtype=np.int64)))
    position = data.draw(st.sampled_from(selfplay_positions(GAME)))
    cells = np.array(engine.lexicon.cells(cw.parse_board(position["board"])), dtype=np.int64)
    empty = [square for square in range(n2) if not cells[square]]
    squares = data.draw(st.lists(st.sampled_from(empty), min_size=1, max_size=7, unique=True))
    letters = len(engine.lexicon.tables.alphabet)
    codes = [data.draw(st.integers(1, letters)) | (BLANK if data.draw(st.booleans()) else 0)
             for _ in squares]
    board = cells.copy()
    board[squares] = codes
    expected = [np.zeros(2 * n2, dtype=np.int64) for _ in range(4)]
    kernel["board_setup"](flagged, arcs, node_mask, values, order, board, *expected)
    base = kernel["position_setup"](flagged, arcs, node_mask, values, order, cells)
    prepared = (*base, np.array(squares, dtype=np.int64), np.array(codes, dtype=np.int64),
                np.array([len(squares)], dtype=np.int64))
    turned = [np.zeros(2 * n2, dtype=np.int64) for _ in range(4)]
    kernel["setup"](flagged, arcs, node_mask, values, order, prepared, *turned)
    for name, made, want in zip(("cells", "checks", "cross", "anchor"), turned, expected):
        assert np.array_equal(made, want), (name, np.flatnonzero(made != want))


def test_the_tables_spread_keys_that_differ_only_in_their_high_bits():
    # A join choice's key holds its first cluster's index in the low bits of its first number
    # and the second's 31 bits up (turn_kernel.TRIED_SHIFT): the choices of one cluster with
    # 1,000 others spread over a 4,096-row table as random keys would (4,096 (1 - e^(-1000 /
    # 4096)) ~ 885 slots), not into one run of probes (one slot before: every probe walked it).
    import numpy as np

    from lookup.crossword import turn_kernel

    table = np.empty((1 << 12, turn_kernel.TRIED_WORDS), dtype=np.int64)
    table[:, 0] = turn_kernel.TABLE_EMPTY
    slots = set()
    for other in range(1, 1001):
        key = np.array([7 | other << turn_kernel.TRIED_SHIFT, 0, 0, 0], dtype=np.int64)
        slots.add(turn_kernel._table_slot(table, key, 0, turn_kernel.TRIED_WORDS))
    assert len(slots) == 885


def test_a_line_word_takes_a_rack_tile_once():
    # A word that needs a letter twice, on empty squares, from a rack that holds it once and
    # no blank: it fits only if some other word of the list does (the rack's tiles are used up).
    engine, kernel = compiled_turn_kernel()
    import numpy as np

    from lookup.crossword.engine_kernel import P_ALL_LETTERS, P_ROOT

    params, arcs, node_mask = engine.kernel_constants[:3]
    exists = kernel["_line_word_exists"]
    alphabet = engine.lexicon.tables.alphabet
    words = [w for w in fixture_words(rules(GAME).lexicon) if 2 <= len(w) <= 7]
    repeated = [w for w in words if len(set(w)) < len(w)][:100]
    fitting = 0
    for word in repeated:
        length = len(word)
        counts = np.zeros(len(alphabet) + 1, np.int64)
        for letter in set(word):
            counts[alphabet.index(letter) + 1] = 1
        room = [np.zeros(length + 2, np.int64) for _ in range(3)]
        found = exists(arcs, node_mask, params[P_ROOT], params[P_ALL_LETTERS],
                       np.zeros(length, np.int64), np.zeros(length, np.int64),
                       np.full(length, params[P_ALL_LETTERS], np.int64), 0, length - 1, counts,
                       *room)
        expected = any(len(other) == length and all(
            other.count(letter) <= counts[alphabet.index(letter) + 1] for letter in other)
            for other in words)
        assert found == expected, word
        fitting += expected
    assert (len(repeated), fitting) == (100, 0)


@pytest.mark.full
def test_one_look_at_a_join_group_on_real_two_blank_positions():
    cw = real_game()
    checked = rows = 0
    for position in selfplay_positions(GAME)[30::5]:
        board = cw.parse_board(position["board"])
        rack = blank_variant(cw, board, position["rack"], 2)
        if rack is None or len(rack) < cw.rules.rack_size:
            continue
        looked = join_rows(cw, board, rack, 1, True)
        assert looked == join_rows(cw, board, rack, 1, False), rack
        checked += 1
        rows += len(looked[0])
        if checked == 8:
            break
    assert (checked, rows) == (8, 666)


def test_the_compiled_step_and_the_move_generator_find_the_same_greedy_turns():
    pytest.importorskip("numba")
    cw = fixture_game(GAME)
    for number, position in enumerate(selfplay_positions(GAME)[:40]):
        board = cw.parse_board(position["board"])
        rack = cw.rack_codes(position["rack"][:4], board)
        compiled, plain = (cw._turn_search(board, rack, None, compiled=flag).greedy()
                           for flag in (True, False))
        assert turn_list([compiled] if compiled else []) == \
            turn_list([plain] if plain else []), f"position {number}"


HURRIED_SCORES = [48, 47, 45]


def test_a_time_budget_answers_the_best_found_and_says_it_is_not_proven():
    cw = fixture_game(GAME)
    position = selfplay_positions(GAME)[3]
    board = cw.parse_board(position["board"])
    exact = cw.search_turns(board, position["rack"], top=3)
    assert exact.proven
    assert [m.score for m in exact.moves] == [67, 62, 62]
    assert turn_list(exact.moves) == turn_list(cluster_turns(cw, board, position["rack"], 3))
    # A budget that runs out before the first cluster is extended: packings of single plays.
    hurried = cw.search_turns(board, position["rack"], top=3, seconds=1e-9)
    assert not hurried.proven
    assert [m.score for m in hurried.moves] == HURRIED_SCORES
    assert all(cw.validate(board, m, rack=position["rack"]) == [] for m in hurried.moves)


def test_the_search_leaves_the_cycle_collector_as_it_found_it():
    # ClusterSearch.best turns Python's cyclic garbage collector off while it searches and
    # back on only when it was on (a caller that turned it off keeps it off), also on error.
    cw = fixture_game(GAME)
    position = selfplay_positions(GAME)[3]
    board = cw.parse_board(position["board"])
    assert gc.isenabled()
    assert [m.score for m in cluster_turns(cw, board, position["rack"], 3)] == [67, 62, 62]
    assert gc.isenabled()
    gc.disable()
    try:
        assert [m.score for m in cluster_turns(cw, board, position["rack"], 1)] == [67]
        assert not gc.isenabled()
    finally:
        gc.enable()
    search = ClusterSearch(cw._turn_search(board, cw.rack_codes(position["rack"], board), None),
                           covering_step(cw, False))
    search._single_plays = None  # the search fails at its first step
    with pytest.raises(TypeError):
        search.best(1)
    assert gc.isenabled()


@pytest.mark.parametrize("seconds", [0, -1, math.nan, math.inf, "1", True])
def test_a_budget_that_is_not_a_positive_number_is_one_line_error(seconds):
    cw = fixture_game(GAME)
    board = cw.parse_board(selfplay_positions(GAME)[3]["board"])
    message = rf"^seconds must be a positive number, not {seconds!r}$".replace("(", r"\(")
    for call in (lambda: cw.search_turns(board, "оо", seconds=seconds),
                 lambda: cw.best_turn(board, "оо", method="full", seconds=seconds),
                 lambda: cw.moves(board, "оо", top=3, seconds=seconds)):
        with pytest.raises(BadInput, match=message):
            call()


def test_more_blanks_than_the_set_has_is_one_line_error():
    cw = fixture_game(GAME)
    message = r"^rack and board hold 4 blanks; the erudit-ru set has 3$"
    with pytest.raises(BadInput, match=message):
        cw.search_turns(cw.empty_board(), "????")


def test_a_board_with_a_word_twice_is_one_line_error():
    cw = kot_game("кот", "ко")
    rows = ["." * 15] * 15
    rows[7] = "." * 6 + "кот" + "." * 6
    rows[9] = "." * 6 + "кот" + "." * 6
    rows[8] = "." * 6 + "о" + "." * 8
    board = cw.parse_board("\n".join(rows))
    message = r"^the board holds КОТ twice; erudit-ru forms each word once: correct the board$"
    for call in (lambda: cw.search_turns(board, "оо"),
                 lambda: cw.best_turn(board, "оо", method="full"),
                 lambda: cw.moves(board, "оо", top=3)):
        with pytest.raises(BadInput, match=message):
            call()


def test_without_numba_moves_and_turns_come_from_the_move_generator(monkeypatch):
    import lookup.crossword.game

    cw = fixture_game(GAME)
    board = cw.parse_board(selfplay_positions(GAME)[5]["board"])
    expected = [repr(m) for m in cw.moves(board, "корова", top=5)]
    monkeypatch.setattr(lookup.crossword.game, "numba_available", lambda: False)

    def no_engine(*args, **kwargs):
        raise AssertionError("the move engine was asked for without numba")

    monkeypatch.setattr(lookup.crossword.game, "move_engine", no_engine)
    assert [repr(m) for m in cw.moves(board, "корова", top=5)] == expected


def kot_game(*words):
    return game_with_words(GAME, words, "erudit-" + "-".join(words))


def board_with(cw, row7: str):
    """An Erudit board whose row 7 holds `row7` from column 6."""
    rows = ["." * 15] * 15
    rows[7] = "." * 6 + row7 + "." * (9 - len(row7))
    return cw.parse_board("\n".join(rows))


def test_two_words_in_one_row_that_no_single_play_makes():
    cw = kot_game("кот", "ко", "то")
    board = board_with(cw, "кот")
    turn = [(8, 6, "о", False), (8, 8, "о", False)]
    assert cw.validate(board, turn, rack="оо") == []
    # ко and то down, each with the DL under its new о: (2 + 1 * 2) + (2 + 1 * 2).
    assert cw.score(board, turn) == 8
    best = cw.best_turn(board, "оо", method="full")
    assert (best.kind, best.score, best.words, best.placed) == ("turn", 8, ["ко", "то"], turn)
    assert [part.notation() for part in best.parts] == ["V 7,6 ко 4", "V 7,8 то 4"]
    assert best.notation() == "V 7,6 ко + V 7,8 то 8"
    assert cw.best_turn(board, "оо", method="greedy").key() == best.key()
    assert cw.play(board, best).text() == board.with_tiles(turn).text()


def test_the_article_opening_with_four_words():
    cw = kot_game("облом", "бел", "лом", "боб")
    board = cw.empty_board()
    greedy = cw.best_turn(board, "облмеоб", method="greedy")
    # облом across from the centre (м on DL): 1 + 3 + 2 + 1 + 2 * 2 = 11; бел down to its л
    # (б on TL): 9 + 1 + 2 = 12; seven tiles: + 15.
    assert greedy.notation() == "H 7,7 облом + V 5,9 бел 38"
    full = cw.best_turn(board, "облмеоб", method="full")
    # лом 5, бел with б on TL 12, боб through the same new б (its TL counts again) 13, + 15.
    assert (full.score, sorted(full.words), len(full.placed)) == (45, ["бел", "боб", "лом"], 7)
    assert cw.score(board, full) == 45 and cw.validate(board, full, rack="облмеоб") == []


def test_top_ranks_turns_with_plays_and_without_top_lists_plays():
    cw = kot_game("кот", "ко", "то", "кто")
    board = board_with(cw, "кот")
    top = cw.moves(board, "оо", top=3)
    assert [m.notation() for m in top] == ["V 7,6 ко + V 7,8 то 8", "V 7,6 ко 4", "V 7,8 то 4"]
    assert {m.kind for m in cw.moves(board, "оо")} == {"play", "exchange", "pass"}


def test_a_word_on_the_board_or_played_before_is_not_formed_again():
    cw = kot_game("кок", "ко", "кот", "от")
    board = board_with(cw, "кок")
    twice = [(8, 6, "о", False), (8, 8, "о", False)]
    assert cw.validate(board, twice) == [
        "word КО is formed twice in this turn; erudit-ru forms each word once"]
    assert cw.best_turn(board, "оо", method="full").words == ["ко"]
    assert cw.validate(board, [(8, 6, "о", False)], played_words=["ко"]) == [
        "word КО is already played; erudit-ru forms each word once"]
    assert cw.best_turn(board, "о", method="full", played_words=["КО"]) is None
    # кот down from the board's к repeats the board's кот across.
    assert cw.validate(board_with(cw, "кот"), [(8, 6, "о", False), (9, 6, "т", False)]) == [
        "word КОТ is already played; erudit-ru forms each word once"]


@pytest.mark.parametrize("turn, rack, reason", [
    ([(8, 6, "о", False), (8, 6, "о", False)], None, "two tiles on row 8 col 6"),
    ([(7, 7, "о", False)], None, "square row 7 col 7 already holds 'о'"),
    ([(8, 6, "о", False), (2, 2, "к", False), (2, 3, "о", False)], None,
     "not connected: the tiles on row 2 col 2, row 2 col 3 join no tile of the board, "
     "directly or through the other new tiles"),
    ([(8, 6, "о", False)], "кк", "rack 'кк' has 0 'о', the placement uses 1"),
    ([(8, 7, "к", False)], None, "word ОК is not a word"),
])
def test_bad_turns_are_one_line_reasons(turn, rack, reason):
    cw = kot_game("кот", "ко")
    board = board_with(cw, "кот")
    assert reason in cw.validate(board, turn, rack=rack)


def test_scoring_a_turn_that_touches_nothing_is_one_line_error():
    cw = kot_game("кот", "ко")
    with pytest.raises(BadInput, match=r"^cannot score this turn: not connected: the tiles on "
                                       r"row 2 col 2 join no tile"):
        cw.score(board_with(cw, "кот"), [(2, 2, "к", False)])


def test_unknown_method_is_one_line_error():
    cw = kot_game("кот", "ко")
    with pytest.raises(BadInput, match=r"^unknown method 'deep': use one of greedy, full$"):
        cw.best_turn(cw.empty_board(), "кот", method="deep")


def test_line_games_keep_the_single_line_rule():
    cw = fixture_game("scrabble-en")
    board = cw.parse_board("\n".join(["." * 15] * 7 + [".....cat......."] + ["." * 15] * 7))
    assert cw.validate(board, [(8, 5, "a", False), (8, 7, "a", False)]) == [
        "tiles not contiguous: row 8 col 6 is empty"]
    assert cw.best_turn(board, "as", method="full").key() == cw.moves(board, "as", top=1)[0].key()


@functools.lru_cache(maxsize=None)
def real_game():
    from lookup.crossword.lexicon import lexicon_tables
    from lookup.paths import artifacts_dir

    path = artifacts_dir() / "lexicons" / "opencorpora-nouns.gaddag"
    if not path.is_file():
        pytest.fail(f"{path} is missing: run `make` before `make test-full`")
    return CrosswordGame(rules(GAME), lexicon_tables(str(path)))


@pytest.mark.full
def test_the_article_opening_on_the_real_lexicon():
    cw = real_game()
    board = cw.empty_board()
    greedy = cw.best_turn(board, "облмеоб", method="greedy")
    assert greedy.notation() == "H 7,7 облом + V 5,9 бел 38"
    full = cw.best_turn(board, "облмеоб", method="full")
    assert full.notation() == "V 5,7 лом + H 5,5 бел + V 3,5 боб 45"
    assert cw.validate(board, full, rack="облмеоб") == []


@pytest.mark.full
def test_the_cluster_search_finds_the_turns_of_the_plain_search_on_real_positions():
    cw = real_game()
    checked = turns = 0
    for position in selfplay_positions(GAME)[10::3][:60]:
        board = cw.parse_board(position["board"])
        rack = position["rack"][:6]
        plain = turn_list(cw._turn_search(board, cw.rack_codes(rack, board), None).ranked())
        for top in (1, 5):
            assert turn_list(cluster_turns(cw, board, rack, top)) == plain[:top]
        checked += 1
        turns += len(plain)
    assert (checked, turns) == (60, 3205)


@pytest.mark.full
def test_real_midgame_positions():
    cw = real_game()
    checked = 0
    for position in selfplay_positions(GAME)[20::6]:
        board = cw.parse_board(position["board"])
        rack = position["rack"].replace("?", "")[:5]
        line = [move for move in cw.moves(board, rack) if move.kind == "play"]
        greedy = cw.best_turn(board, rack, method="greedy")
        full = (cluster_turns(cw, board, rack, 1) or [None])[0]
        if full is None:
            assert greedy is None and not line
            continue
        assert full.score >= greedy.score >= line[0].score
        assert cw.validate(board, full, rack=rack) == []
        assert cw.score(board, full) == full.score
        assert all(cw.is_word(word) for word in full.words)
        checked += 1
        if checked == 12:
            break
    assert checked == 12


def test_self_play_lays_greedy_turns_and_never_repeats_a_word():
    cw = fixture_game(GAME)
    positions, result = play_game(cw, random.Random(1), 0)
    turns = [p for p in positions if " + " in p["move"]]
    assert (result["plays"], len(turns), result["points"]) == (21, 17, 908)
    assert sum(p["score"] for p in positions) == result["points"]
    formed = []
    for position in positions:
        board = cw.parse_board(position["board"])
        move = cw.best_turn(board, position["rack"], method="greedy", played_words=formed)
        if move is not None:
            assert move.notation() == position["move"]
            formed += move.words
    assert len(formed) == len(set(formed))


def test_two_words_that_complete_each_other_are_not_a_turn():
    # ДОМ down and КОТ across share the new О; the board's Д above it and К left of it make
    # ДО and КО, which are not words, so neither word can be laid first (docs/GAMES.md).
    cw = kot_game("кот", "дом")
    rows = ["." * 15] * 15
    rows[6] = "." * 7 + "ад" + "." * 6
    rows[7] = "." * 7 + "к" + "." * 7
    board = cw.parse_board("\n".join(rows))
    both = [(7, 8, "о", False), (7, 9, "т", False), (8, 8, "м", False)]
    assert cw.validate(board, both) == [
        "no order of single-line plays lays these tiles with every play legal when laid: lay "
        "the words one after another, each forming words"]
    # Scored as any placement is, whatever the lexicon says (КОТ plus ДОМ).
    assert cw.score(board, both) == 12
    assert cw.best_turn(board, "отм", method="full") is None
    assert cw.search_turns(board, "отм").moves == []


def test_wordpack_moves_with_a_budget_says_whether_the_turn_is_proven(tmp_path):
    import subprocess
    import sys

    from crossword_support import REPO, copy_graph_files, gaddag_file, lexicon_alphabet

    def run(module, *args, stdin=None):
        return subprocess.run([sys.executable, "-m", module, *args], capture_output=True,
                              text=True, cwd=REPO, input=stdin,
                              env={"WORDPACK_ARTIFACTS": str(tmp_path), "PATH": "/usr/bin:/bin",
                                   "TQDM_DISABLE": "1"})

    (tmp_path / "lexicons").mkdir()
    source = gaddag_file(["кот", "ко", "то", "кто"], lexicon_alphabet("opencorpora-nouns"),
                         "cli-erudit-budget")
    copy_graph_files(source, tmp_path / "lexicons" / "opencorpora-nouns.gaddag")
    built = run("pipeline", "crossword", "config/crossword/erudit-ru.toml", "-o",
                str(tmp_path / "crossword" / "erudit-ru.json"))
    assert built.returncode == 0, built.stderr
    rows = ["." * 15] * 15
    rows[7] = "." * 6 + "кот" + "." * 6
    board = "\n".join(rows) + "\n"
    result = run("lookup", "moves", "erudit-ru", "--board", "-", "--rack", "оо", "--top", "2",
                 "--seconds", "60", stdin=board)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[1].split()[:2] == ["1", "8"] and lines[4] == "proven best"
    result = run("lookup", "moves", "erudit-ru", "--board", "-", "--rack", "оо", "--seconds",
                 "0", stdin=board)
    assert result.returncode != 0 and "--seconds" in result.stderr
    result = run("lookup", "moves", "erudit-ru", "--board", "-", "--rack", "оо", "--top", "2",
                 "--seconds", "60", stdin="\n".join(rows[:7] + [rows[7]] * 3 + rows[10:]))
    assert result.returncode != 0
    assert result.stderr.strip().splitlines()[-1].endswith(
        "the board holds КОТ twice; erudit-ru forms each word once: correct the board")


def reference_turns_by_equity(cw, board, rack: str, model, bag: int, unseen: str) -> list:
    """Every turn of the plain search with its equity by equity.py's formula, best first,
    ties in the plain search's order: (equity, score, new tiles)."""
    from lookup.crossword.equity import end_of_bag_values
    from lookup.crossword.tiles import key_of_codes

    codes = cw.rack_codes(rack, board)
    worth = cw.rules.tiles.values
    rows = []
    for move in cw._turn_search(board, codes, None).ranked():
        kept = list(codes)
        for _row, _col, letter, blank in move.placed:
            kept.remove(0 if blank else cw.tiles.code(letter))
        if bag:
            value = float(model.lookup([key_of_codes(kept)])[0])
        else:
            value = end_of_bag_values([kept], worth, sum(worth[cw.tiles.code(ch)]
                                                         for ch in unseen))[0]
        rows.append((round(move.score + value, 4), move.score, frozenset(move.placed)))
    return sorted(rows, key=lambda row: -row[0])


# Fixture boards, racks cut to 5 tiles; the bag: the default (the unseen
# tiles but a rack), and empty with two tiles on the opponent's rack.
EQUITY_CASES = 24


def test_turns_by_equity_equal_a_plain_reference():
    from lookup.crossword.equity import TileModel

    cw = fixture_game(GAME)
    model = TileModel([7.0] + [(code % 7) - 3.5 for code in range(1, len(cw.alphabet) + 1)])
    compared = 0
    for number, position in enumerate(selfplay_positions(GAME)[:EQUITY_CASES]):
        board = cw.parse_board(position["board"])
        rack = position["rack"][:5]
        for bag, unseen in ((None, None), (0, "оо")):
            try:
                answer = cw.search_turns(board, rack, top=5, by="equity", bag=bag,
                                         unseen=unseen, leaves=model)
            except BadInput:
                continue  # the unseen tiles are on the board already
            expected = reference_turns_by_equity(cw, board, rack, model, bag is None,
                                                 unseen or "")
            got = [(m.equity, m.score, frozenset(m.placed)) for m in answer.moves]
            assert got == expected[:5], f"position {number} bag {bag}"
            assert all(m.equity == round(m.score + m.leave, 4) for m in answer.moves)
            compared += 1
    assert compared == 2 * EQUITY_CASES


def test_moves_by_equity_rank_turns_with_the_exchanges_and_the_pass():
    """moves(top=N, by="equity") under "multi": the turns of the plain search, the exchanges
    and the pass, each worth its score plus the tiles kept (by the model while the bag holds
    tiles, by equity.py's end-of-game terms when it is empty), best first; turns first among
    equal equities, then exchanges in text order, then the pass."""
    import copy
    import itertools

    from lookup.crossword.equity import TileModel, end_of_bag_values
    from lookup.crossword.tiles import key_of_codes

    cw = copy.copy(fixture_game(GAME))
    model = TileModel([7.0] + [(code % 7) - 3.5 for code in range(1, len(cw.alphabet) + 1)])
    cw._leaves = model
    worth = cw.rules.tiles.values
    compared = exchanges_ranked = 0
    for number, position in enumerate(selfplay_positions(GAME)[:12]):
        board = cw.parse_board(position["board"])
        rack = position["rack"][:4]
        codes = cw.rack_codes(rack, board)
        for bag, unseen in ((None, None), (0, "оо")):
            try:
                got = cw.moves(board, rack, top=8, by="equity", bag=bag, unseen=unseen)
            except BadInput:
                continue  # the unseen tiles are on the board already
            in_bag = bag is None

            def kept_value(kept, in_bag=in_bag, unseen=unseen):
                if in_bag:
                    return float(model.lookup([key_of_codes(kept)])[0])
                return end_of_bag_values([kept], worth,
                                         sum(worth[cw.tiles.code(ch)] for ch in unseen))[0]

            rows = [("turn", equity, score, placed) for equity, score, placed in
                    reference_turns_by_equity(cw, board, rack, model, in_bag, unseen or "")]
            if in_bag:
                letters = cw.rules.tiles.text(codes)
                for text in sorted({"".join(c) for k in range(1, len(letters) + 1)
                                    for c in itertools.combinations(letters, k)}):
                    kept = list(codes)
                    for code in cw.rules.tiles.codes(text):
                        kept.remove(code)
                    rows.append(("exchange", round(kept_value(kept), 4), 0, text))
            rows.append(("pass", round(kept_value(list(codes)), 4), 0, None))
            rows.sort(key=lambda row: -row[1])
            assert [(m.kind if m.kind in ("exchange", "pass") else "turn", m.equity, m.score,
                     frozenset(m.placed) if m.kind in ("play", "turn")
                     else m.exchanged if m.kind == "exchange" else None)
                    for m in got] == rows[:8], f"position {number} bag {bag}"
            exchanges_ranked += sum(1 for m in got if m.kind == "exchange")
            compared += 1
    assert compared == 24 and exchanges_ranked > 0


# Fixture positions whose racks, cut to 5 tiles, are given 1 or 2 blanks (tests/crossword_support
# blank_variant): the search with its bounds at work (the best 1, 3 and 10) finds the plain
# search's best turns, ties included; the legal turns of those positions. The positions: every
# 9th of the first 200 whose board leaves the set room for the blanks (2 blanks: every other
# one of those).
PRUNED_BLANK_CASES = {1: [9, 45, 54, 63, 72, 81, 90, 108, 117, 144, 153, 180, 189],
                      2: [45, 63, 81, 144, 180]}
PRUNED_BLANK_TURNS = {1: 4396, 2: 30854}


@pytest.mark.parametrize("blanks", sorted(PRUNED_BLANK_CASES))
def test_the_bounded_search_with_blanks_finds_the_plain_search_s_best_turns(blanks):
    cw = fixture_game(GAME)
    positions = selfplay_positions(GAME)
    turns = 0
    for number in PRUNED_BLANK_CASES[blanks]:
        board = cw.parse_board(positions[number]["board"])
        rack = blank_variant(cw, board, positions[number]["rack"][:5], blanks)
        plain = turn_list(cw._turn_search(board, cw.rack_codes(rack, board), None).ranked())
        for top in (1, 3, 10):
            assert turn_list(cluster_turns(cw, board, rack, top)) == plain[:top], (
                f"position {number} rack {rack!r} top {top}")
        turns += len(plain)
    assert turns == PRUNED_BLANK_TURNS[blanks]
