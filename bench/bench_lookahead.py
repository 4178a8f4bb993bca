"""Look-ahead (lookup/crossword/simulate.py, lookup/crossword/endgame.py, lookup/play/players.py) on
scrabble-en, compiled engine:

- Simulation: iterations per second (one iteration: every candidate played out over the
  same dealing), 10 candidates, 2 plies, on the midgame positions of bench_crossword.py, with
  the lines played by the compiled kernel (lookup/crossword/sim_kernel.py) sharing their
  replies' searches against the same kernel searching each reply alone (the baseline, same
  run, same rows; each the median of SIM_ROUNDS rounds), and the Python lines around the
  compiled best-play search.
  macondo: one 2-ply iteration over 10 candidates in 1.44 ms (Go). The same with every line
  played to the end of the game (plies=None, what the sim bot does once at most 14 tiles are
  unseen) from greedy self-play positions with 7 tiles in the bag, shared and alone.
- Simulation on SIM_THREADS threads against one: iterations per second of wall time
  (SIM_THREAD_ITERATIONS per position, the stopping rule on).
- Endgames from greedy self-play (the turn the bag empties): nodes per second and median
  solve time of 4-, 6- and 8-ply searches on the compiled kernel (lookup/crossword/endgame.py
  KernelSearch, its rounds by null windows), against EndgameSearch (Python negamax around the
  compiled move engine, whole windows: the kernel's tree with null_windows false) at 4 and 6
  plies (macondo: an 8-ply endgame in 1.19 s).
- The one-tile pre-endgame (lookup/crossword/simulate.py pre_endgame) from greedy self-play
  (the turn one tile is left in the bag): median time per position, each line solved 4 plies
  deep.
The long runs (the solver's gain over 2,000 endgames, the simulating bot's match) are in
bench_lookahead_matches.py (`make bench-matches`).
Times are CPU seconds of the process (time.process_time), but on threads: wall time.
"""

import os
import statistics
import time
from functools import partial

import common
from bench_crossword import midgame_cases
from common import timed

GAME = "scrabble-en"
SIM_POSITIONS = 10
SIM_ITERATIONS = 20
SIM_ROUNDS = 9
SIM_THREADS = 2
SIM_THREAD_ITERATIONS = 100
SIM_THREAD_ROUNDS = 3
TO_END_POSITIONS = 10
TO_END_BAG = 7
DEPTHS = (4, 6, 8)
DEPTH_POSITIONS = 5
PRE_ENDGAME_POSITIONS = 5
PRE_ENDGAME_PLIES = 4

row = partial(common.row, "lookahead")


def sim_rows(cw, engine) -> list[dict]:
    from lookup.crossword.simulate import simulate

    cases = midgame_cases(cw, GAME)[0][:SIM_POSITIONS]
    ways = {"shared": {"share": True}, "alone": {"share": False}, "python": {"kernel": False}}
    for options in ways.values():
        simulate(engine, *cases[0], iterations=1, **options)  # compiles the kernel
    # The kernel's ways are timed SIM_ROUNDS times (a round takes a fraction of a second, so
    # one is at the mercy of the machine's other jobs) and each rate is the median round's;
    # the Python lines once.
    rounds = {way: [] for way in ways}
    load = os.getloadavg()[0]
    for round_number in range(SIM_ROUNDS):
        seconds = dict.fromkeys(ways, 0.0)
        for board, rack in cases:
            for way, options in ways.items():
                if way == "python" and round_number:
                    continue
                spent, _rows = timed(simulate, engine, board, rack, candidates=10, plies=2,
                                     iterations=SIM_ITERATIONS, **options)
                seconds[way] += spent
        for way, spent in seconds.items():
            if spent:
                rounds[way].append(SIM_ITERATIONS * len(cases) / spent)
    rate = {way: statistics.median(rates) for way, rates in rounds.items()}
    rows = [row("simulation, 10 candidates, 2 plies", rate["shared"],
                "iterations/s", "kernel lines searching alone", rate["alone"],
                note=f"{len(cases)} midgame positions x {SIM_ITERATIONS} iterations (no pruning "
                f"before 30), one core, the median of {SIM_ROUNDS} rounds (shared "
                + "/".join(f"{r:.0f}" for r in rounds["shared"]) + ", alone "
                + "/".join(f"{r:.0f}" for r in rounds["alone"])
                + f"; load average {load:.1f} at the start, other jobs on the machine "
                "included); the kernel's lines share their replies' searches "
                "(sim_kernel.shared_replies: one search of the board before the candidates "
                "for every line, then a covering search of each line's zone, ~half a full "
                "search); searching alone, each reply is a full best-play search, 20 per "
                f"iteration, {1e6 / (20 * rate['alone']):.0f} us per reply all told "
                "(no search sets up its board: each line's setup is turned by the tiles laid; "
                "the best-play searches prune anchors and plays by equity bound, an anchor's "
                "the best of the spans of new tiles its plays can cover, the leave's the best "
                "of as many tiles kept, a full rack's span only where its bingo mask allows a "
                "word with the span's board tiles; a covering search only from the avoiding "
                "search's best on; the GADDAG one array as the index lays it out, a node's "
                "mask beside its arcs; the game's leave table through a cache kept between "
                "dealings); Python lines "
                f"{rate['python']:.0f}/s; macondo 1.44 ms per iteration",
                higher_is_better=True)]
    # On two threads (simulate's `threads`: the dealings up to each look of the stopping rule
    # shared among them): wall time, as both cores work; rounds alternate with one thread.
    walls = {1: [], SIM_THREADS: []}
    for _round in range(SIM_THREAD_ROUNDS):
        for threads, rates in walls.items():
            started = time.perf_counter()
            for board, rack in cases:
                simulate(engine, board, rack, candidates=10, plies=2,
                         iterations=SIM_THREAD_ITERATIONS, threads=threads)
            rates.append(SIM_THREAD_ITERATIONS * len(cases) / (time.perf_counter() - started))
    rows.append(row(f"simulation, 10 candidates, 2 plies, {SIM_THREADS} threads",
                    statistics.median(walls[SIM_THREADS]), "iterations/s", "one thread",
                    statistics.median(walls[1]),
                    note=f"per second of wall time, {len(cases)} midgame positions x "
                    f"{SIM_THREAD_ITERATIONS} iterations (the stopping rule pruning from 30), "
                    f"the median of {SIM_THREAD_ROUNDS} rounds (one thread "
                    + "/".join(f"{r:.0f}" for r in walls[1]) + f", {SIM_THREADS} "
                    + "/".join(f"{r:.0f}" for r in walls[SIM_THREADS])
                    + "); the same rows on any number of threads", higher_is_better=True))
    ends = greedy_positions(engine, TO_END_POSITIONS, TO_END_BAG)
    seconds = {True: 0.0, False: 0.0}
    for board, rack, other, bag in ends:
        for share in seconds:
            spent, _rows = timed(simulate, engine, board, rack, unseen=other + bag,
                                 candidates=10, plies=None, iterations=SIM_ITERATIONS,
                                 share=share)
            seconds[share] += spent
    iterations = SIM_ITERATIONS * len(ends)
    rows.append(row("simulation to the end of the game, 10 candidates", iterations / seconds[True],
                    "iterations/s", "kernel lines searching alone", iterations / seconds[False],
                    note=f"{len(ends)} greedy self-play positions with "
                    f"{TO_END_BAG} tiles in the bag x {SIM_ITERATIONS} iterations",
                    higher_is_better=True))
    return rows


def greedy_positions(engine, count: int, bag: int) -> list:
    """(board, rack to move, other rack, bag tiles) at the first turn with `bag` tiles left in
    the bag in greedy games, seeds 0, 1... (games whose bag never holds exactly `bag` tiles, or
    with a rack empty then, are skipped).
    """
    from lookup.play.game import Game
    from lookup.play.players import greedy_player

    found = []
    seed = 0
    while len(found) < count:
        game = Game(engine, [greedy_player, greedy_player], seed)
        while len(game.bag) > bag and game.step():
            pass
        if len(game.bag) == bag and game.racks[0] and game.racks[1]:
            seat = game.turn % 2
            found.append((game.board(), game.rack_text(seat), game.rack_text(1 - seat),
                          game.tiles_text(game.bag)))
        seed += 1
    return found


def bag_empty_positions(engine, count: int) -> list:
    """(board, rack to move, other rack) when the bag empties in greedy games, seeds 0, 1..."""
    return [(board, rack, other) for board, rack, other, _ in greedy_positions(engine, count, 0)]


BASELINE_DEPTHS = (4, 6)


def _solve_all(engine, positions, depth, search_class):
    """(CPU seconds of each solve, nodes, solved exactly, the move engine's searches: move
    lists, lists' first plays and horizon best plays, and how many of those searched a zone,
    counted by KernelSearch only) over the positions.
    """
    from lookup.crossword import endgame_kernel

    times, nodes, exact, searches, zones = [], 0, 0, 0, 0
    for board, rack, other in positions:
        racks = [engine.rack_counts(rack, board), engine.rack_counts(other, board)]
        started = time.process_time()
        search = search_class(engine, engine.cells(board), racks)
        _value, _line, solved, _plies = search.solve(plies=depth)
        times.append(time.process_time() - started)
        nodes += search.nodes
        exact += solved
        state = getattr(search, "state", None)
        if state is not None:
            searches += int(state[endgame_kernel.S_LISTED] + state[endgame_kernel.S_BEST_SEARCHES]
                            + state[endgame_kernel.S_FIRST_SEARCHES])
            zones += int(state[endgame_kernel.S_COVERING])
    return times, nodes, exact, searches, zones


def depth_rows(engine) -> list[dict]:
    from lookup.crossword.endgame import EndgameSearch, KernelSearch

    rows = []
    positions = bag_empty_positions(engine, DEPTH_POSITIONS)
    # Compiles the kernel and writes the pages of its workspace (lookup/crossword/endgame.py
    # _Workspace: ~1 s the first time, once per process), as the later searches find them.
    _solve_all(engine, positions[:1], DEPTHS[0], KernelSearch)
    for depth in DEPTHS:
        times, nodes, exact, searches, zones = _solve_all(engine, positions, depth,
                                                          KernelSearch)
        base_times, base_nodes, baseline = None, None, ""
        if depth in BASELINE_DEPTHS:
            baseline = "EndgameSearch (Python)"
            base_times, base_nodes, _exact, _searches, _zones = _solve_all(
                engine, positions, depth, EndgameSearch)
        rows.append(row(f"endgame {depth} plies, median solve", statistics.median(times), "s",
                        baseline,
                        base_times and statistics.median(base_times),
                        note=f"{len(positions)} endgames as the bag empties; {exact} solved to the "
                        f"end within the depth; slowest {max(times):.3g} s; compiled kernel; "
                        "macondo 8 plies 1.19 s"))
        rows.append(row(f"endgame {depth} plies, nodes per second", nodes / sum(times),
                        "nodes/s", baseline,
                        base_nodes and base_nodes / sum(base_times),
                        note=f"{nodes / max(searches, 1):.1f} nodes per node's play search "
                        f"(a list, a list's first play or a horizon's best play), "
                        f"{searches / sum(times):,.0f} such searches/s: the root lists' plays "
                        "the node's rack holds, clear of the tiles laid since the root and of "
                        "their zone, and a move-engine search of the zone's squares only "
                        f"({100 * zones / max(searches, 1):.1f} % of them; the others' nodes "
                        "have no tile laid since the root; endgame_kernel.py); 1,000,000 "
                        f"nodes/s needs one every {nodes / max(searches, 1):.1f} us (they "
                        f"take {1e6 * sum(times) / max(searches, 1):.1f} us); MAGPIE's endgame "
                        "(C) reckons with about 100,000 nodes/s per thread (its "
                        "src/impl/endgame.c)",
                        higher_is_better=True))
    return rows


def pre_endgame_rows(engine) -> list[dict]:
    from lookup.crossword.simulate import pre_endgame

    times = []
    for board, rack, other, bag in greedy_positions(engine, PRE_ENDGAME_POSITIONS, 1):
        started = time.process_time()
        pre_endgame(engine, board, rack, other + bag, candidates=10, plies=PRE_ENDGAME_PLIES)
        times.append(time.process_time() - started)
    return [row(f"pre-endgame, 10 candidates, {PRE_ENDGAME_PLIES}-ply solves, median",
                statistics.median(times), "s",
                note=f"{len(times)} positions with one tile in the bag (greedy self-play); slowest "
                f"{max(times):.3g} s; each candidate x each tile the bag may hold is one "
                "endgame solve on the compiled kernel, one table shared by the solves")]


def run() -> list[dict]:
    from lookup.crossword.engine import move_engine, numba_available
    from lookup.crossword.game import crossword_game

    if not numba_available():
        return [row("look-ahead", None, "",
                    note="numba is not installed: pip install wordpack[fast]")]
    cw = crossword_game(GAME)
    engine = move_engine(cw, compiled=True)
    return sim_rows(cw, engine) + depth_rows(engine) + pre_endgame_rows(engine)
