"""The endgame solver (lookup/crossword/endgame.py): hand-checked positions pin exact values and
lines; on endgames from self-play it equals plain minimax (tests/endgame_oracle.py), its line is
worth its value, and a depth-limited search agrees once deep enough; bad input is one line.

The fast suite runs the pure-Python engine on fixture lexicons, over the committed self-play
positions whose bag is empty, racks cut to 1 or 2 tiles (plain minimax grows fast). The full
suite plays greedy self-play on the real lexicons (compiled engine) and checks at least
FULL_ENDGAMES endgames per game with racks of up to 3 tiles each and at most FULL_TILES
together (plain minimax took 250 s on one 3 + 3 endgame, AIT against LRS).
"""

import random

import pytest

from crossword_support import GAMES, fixture_game, game_with_words, selfplay_positions
from endgame_oracle import line_value, minimax
from lookup.crossword.endgame import EndgameSearch, KernelSearch, line_moves, solve_endgame
from lookup.crossword.engine import MoveEngine, move_engine, numba_available
from lookup.errors import BadInput

FULL_ENDGAMES = 300
FULL_TILES = 5


def cut(rng, tiles: str, most: int) -> str:
    return "".join(sorted(rng.sample(tiles, min(len(tiles), rng.randint(1, most)))))


def agrees_with_minimax(engine, board, rack, other, scoreless=0):
    result = solve_endgame(engine, board, rack, other, scoreless=scoreless, checked=False)
    label = f"{engine.cw.id} racks {rack!r} {other!r}"
    assert result.exact, label
    assert result.value == minimax(engine, board, (rack, other), scoreless, memo={}), label
    assert line_value(engine.cw, result.line, (rack, other), scoreless) == result.value, label
    return result


# A board with CAT across the centre row, columns 6-8 (Scrabble: (7, 9) and (8, 7) are plain).
CAT_WORDS = ["cat", "cats", "as", "at"]


def cat_board(cw):
    return cw.parse_board("\n".join("......cat......" if row == 7 else "." * 15
                                    for row in range(15)))


def test_going_out_earns_twice_the_other_rack():
    cw = game_with_words("scrabble-en", CAT_WORDS, "endgame-out")
    engine = MoveEngine(cw, compiled=False)
    result = solve_endgame(engine, cat_board(cw), "s", "q", checked=False)
    # CATS: c3 + a1 + t1 + s1 = 6, then q's 10 twice (AS down scores 2: worse).
    assert (result.value, result.exact) == (26, True)
    assert [m.notation() for m in result.line] == ["H 7,6 cats 6"]


def test_a_stuck_rack_passes_and_the_other_goes_out():
    cw = game_with_words("scrabble-en", CAT_WORDS, "endgame-stuck")
    engine = MoveEngine(cw, compiled=False)
    result = solve_endgame(engine, cat_board(cw), "q", "s", checked=False)
    assert result.value == -26
    assert [m.notation() for m in result.line] == ["pass", "H 7,6 cats 6"]


@pytest.mark.parametrize("game, turns", [("scrabble-en", 6), ("wordfeud-en", 3)])
def test_both_stuck_pass_to_the_scoreless_end(game, turns):
    cw = game_with_words(game, CAT_WORDS, f"endgame-{game}")
    engine = MoveEngine(cw, compiled=False)
    result = solve_endgame(engine, cat_board(cw), "q", "x", checked=False)
    # Each rack counts against its owner: -10 + 8.
    assert (result.value, result.exact) == (-2, True)
    assert [m.notation() for m in result.line] == ["pass"] * turns


def test_scoreless_turns_already_played_count():
    cw = game_with_words("scrabble-en", CAT_WORDS, "endgame-count")
    engine = MoveEngine(cw, compiled=False)
    result = solve_endgame(engine, cat_board(cw), "q", "x", scoreless=5, checked=False)
    assert [m.notation() for m in result.line] == ["pass"]
    assert result.value == -2


def fixture_endgames(game, count):
    """(board, rack, opponent rack) from the committed self-play positions with the bag
    empty, racks cut to 1 or 2 tiles without blanks (a blank multiplies the plays that plain
    minimax walks), `count` of them (positions repeat with other cuts)."""
    cw = fixture_game(game)
    rng = random.Random(game)
    positions = [p for p in selfplay_positions(game) if not p["bag"]]
    found = []
    while len(found) < count:
        position = positions[len(found) % len(positions)]
        board = cw.parse_board(position["board"])
        rack = position["rack"].replace("?", "")
        other = cw.tiles.text(cw.tiles.unseen(board, cw.rack_codes(position["rack"])))
        other = other.replace("?", "")
        if rack and other:
            found.append((board, cut(rng, rack, 2), cut(rng, other, 2)))
    return found


@pytest.mark.parametrize("game", GAMES)
def test_solver_equals_plain_minimax_on_self_play_endgames(game):
    engine = MoveEngine(fixture_game(game), compiled=False)
    for board, rack, other in fixture_endgames(game, 3):
        agrees_with_minimax(engine, board, rack, other)


@pytest.mark.parametrize("game", GAMES)
def test_move_lists_and_the_horizon_change_no_value(game):
    # EndgameSearch's shortcuts (kept move lists, one best-play search one ply above the cut)
    # against the slow path that lists every node's plays and tries each one, solved to
    # the end both ways (fixture_endgames: racks of 1 or 2 tiles).
    engine = MoveEngine(fixture_game(game), compiled=False)
    for board, *racks in fixture_endgames(game, 6):
        solved = []
        for shortcuts in (True, False):
            search = EndgameSearch(engine, engine.cells(board),
                                   [engine.rack_counts(r, board) for r in racks],
                                   shortcuts=shortcuts)
            value, _line, exact, _depth = search.solve()
            solved.append((value, exact))
        assert solved[0] == solved[1] and solved[0][1], (game, racks)


@pytest.mark.parametrize("game", GAMES)
def test_depth_limited_rounds_reach_the_same_value(game):
    engine = MoveEngine(fixture_game(game), compiled=False)
    board, rack, other = fixture_endgames(game, 1)[0]
    full = solve_endgame(engine, board, rack, other, checked=False)
    assert full.exact
    again = solve_endgame(engine, board, rack, other, plies=full.plies, checked=False)
    assert (again.value, again.exact) == (full.value, True)
    if full.plies > 1:
        shallow = solve_endgame(engine, board, rack, other, plies=full.plies - 1,
                                checked=False)
        assert not shallow.exact and shallow.plies == full.plies - 1


COMPILED = [False, pytest.param(True, marks=pytest.mark.skipif(not numba_available(),
                                                               reason="numba is not installed"))]


@pytest.mark.parametrize("compiled", COMPILED)
@pytest.mark.parametrize("game", GAMES)
def test_a_node_budget_stops_after_the_last_round_it_covers(game, compiled):
    # compiled: solve_endgame runs the kernel's search (KernelSearch) where words may repeat.
    engine = MoveEngine(fixture_game(game), compiled=compiled)
    board, rack, other = next((b, r, o) for b, r, o in fixture_endgames(game, 4)
                              if solve_endgame(engine, b, r, o, checked=False).plies > 2)
    full = solve_endgame(engine, board, rack, other, checked=False)
    for plies in range(1, full.plies):
        rounds = solve_endgame(engine, board, rack, other, plies=plies, checked=False)
        budget = solve_endgame(engine, board, rack, other, nodes=rounds.nodes, checked=False)
        assert (budget.plies, budget.value, budget.exact) == (plies, rounds.value, False)
        assert [m.notation() for m in budget.line] == [m.notation() for m in rounds.line]
    first = solve_endgame(engine, board, rack, other, nodes=1, checked=False)
    assert first.plies == 1  # the first round always finishes
    assert solve_endgame(engine, board, rack, other, nodes=full.nodes, checked=False).exact


def kernel_agrees(engine, board, rack, other, scoreless=0, plies=None):
    """The kernel's search (KernelSearch) against EndgameSearch: searching whole windows, the
    same value, exactness, depth and nodes (the same tree: same order, same table, same
    horizon), and an exact line worth the value; to the end, also against plain minimax.
    By null windows (MTD(f), the default), the same value and line worth; an MTD(f) round
    may find no depth cut where the whole window meets one, and stop early, exact (then its
    value is the value to the end).
    """
    label = f"{engine.cw.id} racks {rack!r} {other!r} compiled {engine.compiled}"
    racks = [engine.rack_counts(r, board) for r in (rack, other)]
    python = EndgameSearch(engine, engine.cells(board), racks, scoreless)
    kernel = KernelSearch(engine, engine.cells(board), racks, scoreless, null_windows=False)
    expected = python.solve(plies=plies)
    value, line, exact, depth = kernel.solve(plies=plies)
    assert (value, exact, depth, kernel.nodes) == (expected[0], expected[2], expected[3],
                                                    python.nodes), label
    if exact:
        moves = line_moves(engine, board, line)
        assert line_value(engine.cw, moves, (rack, other), scoreless) == value, label
    if plies is None:
        assert value == minimax(engine, board, (rack, other), scoreless, memo={}), label
    windows = KernelSearch(engine, engine.cells(board), racks, scoreless)
    value, line, exact, depth = windows.solve(plies=plies)
    if plies is None or (exact, depth) == (expected[2], expected[3]):
        assert (value, exact) == (expected[0], expected[2]), label
    else:
        assert exact and depth < plies, label
        assert value == EndgameSearch(engine, engine.cells(board), racks,
                                      scoreless).solve()[0], label
    if exact:
        moves = line_moves(engine, board, line)
        assert line_value(engine.cw, moves, (rack, other), scoreless) == value, label


KERNEL_GAMES = [game for game in GAMES if game != "erudit-ru"]  # repeat_words: the kernel's


@pytest.mark.parametrize("game", KERNEL_GAMES)
def test_kernel_search_on_cpython_equals_the_python_search_and_minimax(game):
    engine = MoveEngine(fixture_game(game), compiled=False)
    for board, rack, other in fixture_endgames(game, 6):
        kernel_agrees(engine, board, rack, other)


@pytest.mark.skipif(not numba_available(), reason="numba is not installed")
@pytest.mark.parametrize("game", KERNEL_GAMES)
def test_compiled_kernel_search_equals_the_python_search_and_minimax(game):
    engine = MoveEngine(fixture_game(game), compiled=True)
    for board, rack, other in fixture_endgames(game, 6):
        kernel_agrees(engine, board, rack, other)
        kernel_agrees(engine, board, rack, other, scoreless=engine.cw.rules.
                      scoreless_turns_end - 2)


@pytest.mark.parametrize("compiled", COMPILED)
@pytest.mark.parametrize("game", KERNEL_GAMES)
def test_the_round_to_the_end_gives_the_same_value(game, compiled, monkeypatch):
    # One round of iterative deepening, then one to the end of the game (the kernel lists
    # every node's plays there, no first-play search): the same value, depth (the deepest
    # node's ply plus one) and nodes in both searches, and plain minimax's value; none of
    # these endgames is solved by its first round, so the round to the end solves each.
    from lookup.crossword import endgame

    monkeypatch.setattr(endgame, "ROUNDS_BEFORE_THE_END", 1)
    engine = MoveEngine(fixture_game(game), compiled=compiled)
    for board, rack, other in fixture_endgames(game, 8):
        kernel_agrees(engine, board, rack, other)
        result = solve_endgame(engine, board, rack, other, checked=False)
        assert result.exact and result.plies > 1


@pytest.mark.skipif(not numba_available(), reason="numba is not installed")
def test_compiled_kernel_equals_the_python_search_on_full_racks_by_depth():
    # Full racks as dealt (the fixture self-play positions with the bag empty), each depth
    # searched both ways: cut rounds too give the same values, nodes and exactness.
    game = "scrabble-en"
    engine = MoveEngine(fixture_game(game), compiled=True)
    cw = engine.cw
    positions = [p for p in selfplay_positions(game) if not p["bag"]][:3]
    for position in positions:
        board = cw.parse_board(position["board"])
        other = cw.tiles.text(cw.tiles.unseen(board, cw.rack_codes(position["rack"])))
        for plies in (1, 2, 3):
            kernel_agrees(engine, board, position["rack"], other, plies=plies)


def test_the_kernel_grows_its_buffers_and_gives_the_same_search():
    # Records for one play and an arena of 16 moves: the search stops at each full buffer,
    # grows it and resumes where it stopped (endgame_kernel.run's NEED_RECORDS, NEED_ARENA),
    # and every figure equals EndgameSearch's. (The records are made small after the root
    # lists, whose making grows them to room for every root play.)
    from lookup.crossword.endgame import _Workspace

    engine = MoveEngine(fixture_game("scrabble-en"), compiled=False)
    grown = []
    for board, rack, other in fixture_endgames("scrabble-en", 4):
        racks = [engine.rack_counts(r, board) for r in (rack, other)]
        kernel = KernelSearch(engine, engine.cells(board), racks, null_windows=False)
        small = _Workspace(engine)
        kernel.space = small
        kernel._set_position(kernel.cells, kernel.racks)
        small.roots_for(kernel._work_cells, kernel._work_racks)
        small.grow_records(1)
        small.arena = small.zeros(16 * small.width)
        python = EndgameSearch(engine, engine.cells(board), racks)
        expected = python.solve()
        value, _line, exact, depth = kernel.solve()
        assert (value, exact, depth, kernel.nodes) == (expected[0], expected[2], expected[3],
                                                        python.nodes)
        grown.append((len(small.arena) // small.width, len(small.records) // engine.width))
    # Both buffers grew (the arena in two of the four, from 16 moves to 32: the lists' first
    # plays are found without the lists, which are made less often).
    assert grown == [(32, 18), (32, 48), (16, 8), (16, 24)]


def test_a_nodes_list_and_first_play_are_those_of_the_whole_search():
    # The kernel finds a node's plays as the plays that cover the zone of the tiles laid since
    # the root, searched, and the root plays that do not (endgame_kernel.list_moves, root_all,
    # root_best: module docstring); it tries a list's first play before making the list
    # (_first_play, with the leave table of the node's rack: first_table). Here on real
    # boards, each with a root of up to four of its tiles lifted (none: the root itself), full
    # racks at the root, blanks kept, and at the node the full rack or a cut of it: the list
    # is the engine's every play in the search's order (play_order), move for move, and the
    # first play its first, ties included.
    from lookup.crossword import endgame_kernel
    from lookup.crossword.endgame import (
        _kernel,
        _packed,
        _Workspace,
        play_order,
        play_tiles,
        sorted_plays,
    )
    from lookup.crossword.engine_kernel import R_LENGTH, R_SCORE, RECORD_FIELDS

    game = "scrabble-en"
    engine = MoveEngine(fixture_game(game), compiled=False)
    cw, space, kernel = engine.cw, _Workspace(engine), _kernel(False)
    rng = random.Random(35)
    compared = tied = lifted = by_tile_value = 0
    for position in [p for p in selfplay_positions(game) if not p["bag"]]:
        board = cw.parse_board(position["board"])
        cells = engine.cells(board)
        other = cw.tiles.text(cw.tiles.unseen(board, cw.rack_codes(position["rack"])))
        for full in (position["rack"], other):
            root = list(cells)
            for square in rng.sample([q for q, c in enumerate(cells) if c], rng.randint(0, 4)):
                root[square] = 0
                lifted += 1
            roots = space.roots_for(root, list(engine.rack_counts(full, board))
                                    + [0] * endgame_kernel.CODES)
            for tiles in (full, cut(rng, full, 3)):
                rack = engine.rack_counts(tiles, board)
                out, count = engine.search_cells(cells, rack)
                plays = [tuple(out[at:at + RECORD_FIELDS + out[at + R_LENGTH]])
                         for at in range(0, count * engine.width, engine.width)]
                ordered = sorted_plays(plays, engine.values, cells, engine.size)
                by_score = sorted(ordered, key=lambda play: -play[R_SCORE])
                by_tile_value += [p[R_SCORE] for p in ordered] != [p[R_SCORE] for p in by_score]
                racks = list(rack) + [0] * endgame_kernel.CODES
                setup = board_setup(engine, cells)
                staged = [0] * space.width
                state = [0] * endgame_kernel.STATE
                state[endgame_kernel.S_TILES_LEFT] = sum(rack)
                found = kernel["_first_play"](*engine.kernel_constants, cells, setup, racks, 0,
                                              space.records, space.equity, staged, 0, state,
                                              roots)
                arena = [0] * (len(plays) * space.width)
                space.grow_records(len(plays))
                listed = kernel["list_moves"](*engine.kernel_constants, cells, setup, racks, 0,
                                              space.no_keys, space.no_values, space.records,
                                              space.equity, space.scratch, space.sort_keys,
                                              space.sort_order, space.sort_spare, arena, 0,
                                              space.width, state, roots)
                moves = listed_moves(arena, listed, space.width)
                assert moves == [(play[R_SCORE], _packed(play_tiles(play, cells, engine.size)))
                                 for play in ordered], tiles
                assert found == (count > 0), tiles
                if not count:
                    continue
                placed = staged[endgame_kernel.M_PLACED]
                assert (staged[endgame_kernel.M_SCORE], tuple(staged[2:2 + placed])) \
                    == moves[0], tiles
                compared += 1
                first_two = [play_order(play, sum(engine.values[tile] for _s, _c, tile in
                                                  play_tiles(play, cells, engine.size)))[:2]
                             for play in ordered[:2]]
                tied += len(first_two) == 2 and first_two[0] == first_two[1]
    # 137 racks, 25 of them with the first place tied (blanks, one-tile plays); 168 tiles
    # lifted in all; the order differs from the order by score on 71 of them.
    assert (compared, tied, lifted, by_tile_value) == (137, 25, 168, 71)


def listed_moves(arena, count: int, width: int) -> list:
    """(score, packed new tiles) of each of a kernel list's moves (endgame_kernel.list_moves)."""
    from lookup.crossword import endgame_kernel

    return [(arena[at + endgame_kernel.M_SCORE],
             tuple(arena[at + 2:at + 2 + arena[at + endgame_kernel.M_PLACED]]))
            for at in range(0, count * width, width)]


def board_setup(engine, cells) -> list:
    """engine_kernel.setup's arrays of a board (CPython): ocells, checks, cross, anchor."""
    from lookup.crossword.engine_kernel import setup

    arrays = [[0] * (2 * engine.size * engine.size) for _ in range(4)]
    params, arcs, node_mask, values, _letter_mult, _word_mult, order = engine.kernel_constants
    setup(params, arcs, node_mask, values, order, cells, *arrays)
    return arrays


@pytest.mark.parametrize("game", GAMES)
def test_a_setup_turned_by_a_play_equals_the_setup_of_the_board_after(game):
    # engine_kernel.update_setup (what the endgame kernel does between a node and its child)
    # against engine_kernel.setup of the board with the play on it: every play of both racks
    # of the committed self-play positions (blanks kept), on each board.
    from lookup.crossword.endgame import play_tiles
    from lookup.crossword.engine_kernel import R_LENGTH, RECORD_FIELDS, update_setup

    engine = MoveEngine(fixture_game(game), compiled=False)
    cw = engine.cw
    params, arcs, node_mask, values, _letter_mult, _word_mult, order = engine.kernel_constants
    turned = 0
    for position in selfplay_positions(game)[:12]:
        board = cw.parse_board(position["board"])
        cells = engine.cells(board)
        before = board_setup(engine, cells)
        other = cw.tiles.text(cw.tiles.unseen(board, cw.rack_codes(position["rack"])))[:7]
        for tiles in (position["rack"], other):
            out, count = engine.search_cells(cells, engine.rack_counts(tiles, board))
            for at in range(0, count * engine.width, engine.width):
                play = tuple(out[at:at + RECORD_FIELDS + out[at + R_LENGTH]])
                placed = play_tiles(play, cells, engine.size)
                after = list(cells)
                for square, code, _tile in placed:
                    after[square] = code
                arrays = [list(array) for array in before]
                update_setup(params, arcs, node_mask, values, order,
                             [square for square, _c, _t in placed],
                             [code for _s, code, _t in placed], len(placed), *arrays)
                assert arrays == board_setup(engine, after), (game, tiles, play)
                turned += 1
    assert turned > 100


@pytest.mark.parametrize("compiled", COMPILED)
@pytest.mark.parametrize("game", KERNEL_GAMES)
def test_a_solve_on_two_threads_gives_plain_minimax_value(game, compiled):
    # Lazy SMP: a helper searches to the end beside the rounds, sharing the table; whoever
    # finishes, the value is exact and plain minimax's, and the line is worth it. A solve on
    # one thread after it, on the same engine, still finds its own value.
    engine = MoveEngine(fixture_game(game), compiled=compiled)
    for board, rack, other in fixture_endgames(game, 6):
        label = f"{game} racks {rack!r} {other!r}"
        expected = minimax(engine, board, (rack, other), 0, memo={})
        racks = [engine.rack_counts(rack, board), engine.rack_counts(other, board)]
        value, line, exact, _depth = KernelSearch(engine, engine.cells(board),
                                                  racks).solve(threads=2)
        assert (value, exact) == (expected, True), label
        moves = line_moves(engine, board, line)
        assert line_value(engine.cw, moves, (rack, other), 0) == expected, label
        assert KernelSearch(engine, engine.cells(board), racks).solve()[0] == expected, label


@pytest.mark.parametrize("compiled", COMPILED)
def test_a_helper_that_finishes_first_gives_the_solve_its_value(compiled, monkeypatch):
    # The rounds (stubbed here) wait until the helper has searched to the end and then give
    # up with a shallow inexact value: the solve answers with the helper's, exact, its line
    # read back from the shared table.
    from lookup.crossword import endgame

    engine = MoveEngine(fixture_game("scrabble-en"), compiled=compiled)
    board, rack, other = fixture_endgames("scrabble-en", 1)[0]
    expected = minimax(engine, board, (rack, other), 0, memo={})

    def rounds_given_up(search, one_round, plies, seconds, nodes, clock):
        search.halt.wait()
        return -999, False, 1

    monkeypatch.setattr(endgame, "_deepen", rounds_given_up)
    search = KernelSearch(engine, engine.cells(board), [engine.rack_counts(rack, board),
                                                        engine.rack_counts(other, board)])
    value, line, exact, _depth = search.solve(threads=2)
    assert (value, exact) == (expected, True)
    assert line_value(engine.cw, line_moves(engine, board, line), (rack, other), 0) == expected


def test_a_table_entry_read_half_written_is_a_miss():
    # Threads share the table: an entry whose words come from two writes (any one word
    # changed since its check was written) reads as no entry, its move as none.
    from lookup.crossword import endgame_kernel as kernel

    width = 10
    slots = 8
    keys, info = [0] * (3 * slots), [0] * (kernel.TABLE_INFO * slots)
    table_moves = [0] * (width * slots)
    move = [3, 17, 2] + list(range(width - 3))
    kernel.table_store(keys, info, table_moves, width, 5, 11, 22, 33, 4, kernel.LOWER, -7,
                       move, 0)
    read = [0] * width
    slot, depth, flag, value = kernel.table_entry(keys, info, table_moves, width, 5, 11, 22, 33,
                                                  read, 0)
    assert (depth, flag, value, read) == (4, kernel.LOWER, -7, move)
    fields = [(info, slot * kernel.TABLE_INFO + field) for field in (
        kernel.T_DEPTH, kernel.T_FLAG, kernel.T_VALUE, kernel.T_CHECK)]
    for table, at in [*fields, (table_moves, slot * width), (table_moves, slot * width + 9)]:
        saved = table[at]
        table[at] += 1
        read = [0] * width
        assert kernel.table_entry(keys, info, table_moves, width, 5, 11, 22, 33, read, 0) == \
            (-1, 0, 0, 0)
        assert read[kernel.M_PLACED] == -1
        table[at] = saved
    assert kernel.table_entry(keys, info, table_moves, width, 6, 11, 22, 33, read, 0)[0] == -1


def test_the_kernel_refuses_a_game_without_repeated_words():
    engine = MoveEngine(fixture_game("erudit-ru"), compiled=False)
    board = engine.cw.parse_board("\n".join("." * 15 for _ in range(15)))
    with pytest.raises(ValueError, match="forbids repeated words"):
        KernelSearch(engine, engine.cells(board), [engine.empty_rack(), engine.empty_rack()])


def test_bad_input_is_one_line():
    cw = fixture_game("scrabble-en")
    engine = MoveEngine(cw, compiled=False)
    board = cat_board(cw)
    with pytest.raises(BadInput, match="tiles are still in the bag"):
        solve_endgame(engine, board, "s", "q")
    with pytest.raises(BadInput, match="the opponent rack is empty"):
        solve_endgame(engine, board, "s", "")
    with pytest.raises(BadInput, match="board and rack and opponent rack hold 2 tiles 'q'; "
                                       "the scrabble-en set has 1"):
        solve_endgame(engine, board, "q", "q")
    with pytest.raises(BadInput, match="rack letter '1' is not a letter"):
        solve_endgame(engine, board, "1", "q")
    with pytest.raises(BadInput, match="seconds must be positive, not 0"):
        solve_endgame(engine, board, "s", "q", seconds=0)
    with pytest.raises(BadInput, match="plies must be positive, not -1"):
        solve_endgame(engine, board, "s", "q", plies=-1)
    with pytest.raises(BadInput, match="nodes must be positive, not 0"):
        solve_endgame(engine, board, "s", "q", nodes=0)
    for threads in (0, 17, 1.5, True, "2"):
        with pytest.raises(BadInput, match=f"threads must be a whole number from 1 to 16, "
                                           f"not {threads!r}"):
            solve_endgame(engine, board, "s", "q", threads=threads)
    with pytest.raises(BadInput, match="a node budget gives the same answer on any machine "
                                       "only on one thread"):
        solve_endgame(engine, board, "s", "q", nodes=5, threads=2)


def greedy_endgames(engine, count: int, most: int = 3, total: int = FULL_TILES):
    """Endgames of greedy self-play (seeds 0, 1, ...): every turn with the bag empty where
    both racks hold at most `most` tiles and `total` together, with its scoreless-turn
    count."""
    from lookup.play.game import Game
    from lookup.play.players import greedy_player

    found = []
    seed = 0
    while len(found) < count:
        game = Game(engine, [greedy_player, greedy_player], seed)
        going = True
        while going:
            seat = game.turn % 2
            racks = game.racks
            mine, theirs = len(racks[seat]), len(racks[1 - seat])
            if not game.bag and 0 < mine <= most and 0 < theirs <= most and \
                    mine + theirs <= total:
                found.append((game.board(), game.rack_text(seat), game.rack_text(1 - seat),
                              game.scoreless))
            going = game.step()
        seed += 1
    return found[:count]


@pytest.mark.full
@pytest.mark.parametrize("game", GAMES)
def test_solver_equals_plain_minimax_on_real_self_play_endgames(game):
    from lookup.crossword.game import crossword_game

    engine = move_engine(crossword_game(game))
    for board, rack, other, scoreless in greedy_endgames(engine, FULL_ENDGAMES):
        agrees_with_minimax(engine, board, rack, other, scoreless)
