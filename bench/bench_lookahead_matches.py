"""Long look-ahead runs (`make bench-matches`, hours) on scrabble-en, compiled engine:

- Over ENDGAME_GAMES self-play endgames (greedy games up to the turn the bag empties), the
  spread the endgame solver gains over greedy play: the side to move finishes the game
  greedily, then again with the solver, the opponent greedy both times (Maven: "over 10
  points per game"). The solver has the sim bot's budget (lookup/play/match.py SIM_BUDGET: at most
  6 plies, no deeper round after a number of positions).
- The simulating bot against the equity bot over SIM_PAIRS mirrored pairs (lookup/play/match.py,
  bots "sim" and "equity"; the sim bot's budget per move is lookup/play/match.py SIM_BUDGET, or
  SIM_SECONDS of simulation per move when set, or SIM_BUDGET's changes to it, a JSON object
  such as {"candidates": 40, "iterations": 1000}). One process; each batch of pairs is
  appended to a checkpoint file (MATCH_CHECKPOINT, by default bench/checkpoints/
  sim-match.jsonl, committed as it grows) and a rerun with the same seed and budget goes on
  from there (more SIM_PAIRS extends the match). MATCH_SHARD=i/n plays only the
  batches whose number is i modulo n, so n processes (one per core) can share one checkpoint
  file; the CPU seconds recorded stay those of one core. Goal: at least 60 % wins (macondo's
  simulating bot: 63.4 % of 2,126 games against its leave bot, +16.3 points per game).
  Then the same match on each of the other games (OTHER_GAMES) over OTHER_PAIRS pairs, with
  the same budget, each with its own checkpoint (MATCH_CHECKPOINT's name with the game's
  after it); a game no pair of which is recorded gets no row. Goal: at least 57 % each.
- Exact endgames (EXACT_ENDGAMES, 2,000): the positions as the bag empties in greedy self-play,
  both racks as dealt (up to 7 tiles each), each solved with EXACT_SECONDS (10 s of CPU) for
  the search (lookup/crossword/endgame.py KernelSearch, compiled): the fraction solved to the
  end of the game, CPU seconds per solve (median, p95, max) and nodes per second; and the
  spread the solver gains over greedy end play (the side to move plays the game out with the
  solver at each of its turns, then greedily, the opponent greedy both times). Goal: 95 %
  solved within 10 s. Each endgame's result is appended to a checkpoint file
  (EXACT_CHECKPOINT, by default bench/checkpoints/exact-endgames.jsonl, one JSON line each)
  and a rerun goes on from there. EXACT_BASELINE names an older solver's checkpoint (its
  commit in the name, as exact-endgames-<commit>.jsonl): the rows then give its figures on the
  same endgames as their baselines.
- The exact endgames' tail: the batch's times stop at EXACT_SECONDS, so its p95 says only
  "10 s or more". Of its first TAIL_ENDGAMES (100), those not solved within EXACT_SECONDS are
  solved again (the first solve only) with TAIL_SECONDS (60 s of CPU), each appended to
  TAIL_CHECKPOINT (bench/checkpoints/exact-tail.jsonl): how many of the first 100 are solved
  within 30 and 60 s, and the time within which 95 of them are (what the goal asks of 10 s).
  Both checkpoints are one solver's: a new solver starts both afresh (the old ones kept with
  their solver's commit in their names, as EXACT_BASELINE reads them, the tail's rows the
  older tail beside it). bench/results.md's rows are ef4e78d's solver (every round ordered by
  tile value: exact-endgames.jsonl, exact-tail.jsonl; its batch played partly beside other
  jobs on the machine, as the earlier ones were, and on two machines: EXACT_MACHINES),
  against de87e5e's (exact-endgames-de87e5e.jsonl, exact-tail-de87e5e.jsonl), which hold its
  line's read-back in their seconds (a whole-window solve per move tried; since 7245a4e one
  null-window test), which took 79.5 s on one endgame of the batch (index 1753, measured
  again: 0.3 s; its row's 82.6 s was the batch's max) and 90 s on one of the tail's (index
  29: 149.9 s, solved in 30.9 s), at most 3.3 s on the 43 others measured; dc39937 orders
  the round to the end by tile value too (endgame_kernel.TILE_VALUE_ORDER), and its batch
  stopped at 446 endgames (exact-endgames-dc39937.jsonl) when every round came to order so.
- Exact endgames on several threads: the batch's first THREADS_ENDGAMES (500) solved with
  THREADS_SECONDS (10 s) of wall time each, on one thread and on THREADS (2: KernelSearch's
  lazy SMP, a helper searching beside the rounds), the two one after the other for each
  endgame so that both meet the same machine, each appended to THREADS_CHECKPOINT
  (bench/checkpoints/exact-threads.jsonl): how many each solves within 10 s, the wall time
  per solve and the nodes per second of all threads. The machine must be idle (the helper
  takes the second core). THREADS_BASELINE (exact-threads-b1a3673.jsonl) is the same run
  with b1a3673's helper, whose root's plays came in the rounds' order (now last first), on
  the first 100.
The deals come from seed MATCH_SEED. SIM_PAIRS=0 skips the scrabble-en match, OTHER_SIM_PAIRS=0
the other games', ENDGAME_GAMES=0 the solver's gain and EXACT_ENDGAMES=0 the exact endgames;
TAIL_ENDGAMES=0 the tail, THREADS_ENDGAMES=0 the threads' part; each part has its own area
(the other games' matches "lookahead-games", the tail "lookahead-tail", the threads'
"lookahead-threads"), so a skipped part keeps its rows in bench/results.md. The long parts
print their standing to stderr as they go.
"""

import json
import math
import os
import statistics
import sys
import time
from pathlib import Path

from common import row

LONG = True
GAME = "scrabble-en"
ENDGAME_GAMES = int(os.environ.get("ENDGAME_GAMES", "2000"))
SIM_PAIRS = int(os.environ.get("SIM_PAIRS", "1000"))
SEED = int(os.environ.get("MATCH_SEED", "1"))
SIM_SECONDS = float(os.environ.get("SIM_SECONDS", "0"))
SIM_BUDGET = json.loads(os.environ.get("SIM_BUDGET", "{}"))
SHARD, SHARDS = (int(part) for part in os.environ.get("MATCH_SHARD", "0/1").split("/"))
OTHER_GAMES = ("wordfeud-en", "wordfeud-nl", "erudit-ru")
OTHER_PAIRS = int(os.environ.get("OTHER_SIM_PAIRS", "300"))
# The checkpoints are committed as they grow (bench/checkpoints/): a match of many CPU hours
# outlives the machine that started it.
CHECKPOINTS = Path(__file__).parent / "checkpoints"
MATCH_CHECKPOINT = Path(os.environ.get("MATCH_CHECKPOINT", CHECKPOINTS / "sim-match.jsonl"))
EXACT_ENDGAMES = int(os.environ.get("EXACT_ENDGAMES", "2000"))
# RECORDED_ONLY=1: the rows of what the checkpoints hold, playing and solving nothing more
# (a long part stopped early, to go on later).
RECORDED_ONLY = os.environ.get("RECORDED_ONLY") == "1"
# Where the recorded batch (EXACT_CHECKPOINT) was solved, for its rows: it outlived the
# session, and the machine, that began it (a new batch says its own, or nothing).
EXACT_MACHINES = ("endgames 0-1,509 solved on one machine, often beside other jobs (275,387 "
                  "nodes/s, 69.9 % solved; de87e5e 65.8 % of them), 1,510-1,999 on another "
                  "(502,461 nodes/s, 78.0 %; de87e5e 70.0 % of them, on the first); idle, the "
                  "two search 4- to 8-ply endgames within 10 % of each other's nodes/s")
TAIL_MACHINES = ("solved again on the machine of endgames 1,510-1,999, de87e5e's tail on "
                 "another")
EXACT_SECONDS = 10.0
EXACT_CHECKPOINT = Path(os.environ.get("EXACT_CHECKPOINT", CHECKPOINTS / "exact-endgames.jsonl"))
EXACT_BASELINE = os.environ.get("EXACT_BASELINE")
TAIL_ENDGAMES = int(os.environ.get("TAIL_ENDGAMES", "100"))
TAIL_SECONDS = 60.0
TAIL_CHECKPOINT = Path(os.environ.get("TAIL_CHECKPOINT", CHECKPOINTS / "exact-tail.jsonl"))
THREADS_ENDGAMES = int(os.environ.get("THREADS_ENDGAMES", "500"))
THREADS = 2
THREADS_SECONDS = 10.0
THREADS_CHECKPOINT = Path(os.environ.get("THREADS_CHECKPOINT",
                                         CHECKPOINTS / "exact-threads.jsonl"))
THREADS_BASELINE = CHECKPOINTS / "exact-threads-b1a3673.jsonl"


def _records(path: Path) -> list[dict]:
    """The records of a checkpoint file (one JSON object a line), none when it is absent."""
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line]


class _Solver:
    """A player that solves each of its turns (EXACT_SECONDS) and keeps its first solve."""

    def __init__(self):
        self.first = None

    def __call__(self, position):
        from lookup.crossword.endgame import endgame_search, line_moves

        engine, board = position.game.engine, position.board
        started = time.process_time()
        search = endgame_search(engine, engine.cells(board),
                                [engine.rack_counts(position.rack, board),
                                 engine.rack_counts(position.unseen, board)],
                                position.scoreless)
        search.clock = time.process_time  # CPU seconds: the machine is shared
        value, line, exact, plies = search.solve(seconds=EXACT_SECONDS)
        if self.first is None:
            self.first = {"exact": exact, "value": value, "plies": plies, "nodes": search.nodes,
                          "seconds": time.process_time() - started}
        return line_moves(engine, board, line[:1])[0]


def _warm_up(engine, board, rack, other) -> None:
    """Solve one endgame a ply deep, untimed: the process's first solve compiles the kernel
    (or loads it from numba's cache) and writes its workspace's pages, a minute of CPU at
    worst, which no timed solve may count.
    """
    from lookup.crossword.endgame import endgame_search

    endgame_search(engine, engine.cells(board), [engine.rack_counts(rack, board),
                                                 engine.rack_counts(other, board)]).solve(plies=1)


def exact_endgame(engine, board, rack, other) -> dict:
    """One endgame of the batch: the first solve's figures and both spreads."""
    from lookup.play.game import Game
    from lookup.play.players import greedy_player

    solver = _Solver()
    spreads = [Game(engine, [player, greedy_player], bag="", racks=[rack, other],
                    board=board).run().spread(0) for player in (greedy_player, solver)]
    return {**solver.first, "rack": rack, "other": other, "greedy": spreads[0],
            "solver": spreads[1]}


def exact_endgame_rows(engine) -> list[dict]:
    from bench_lookahead import bag_empty_positions

    if not EXACT_ENDGAMES:
        return []
    done = _records(EXACT_CHECKPOINT)
    positions = [] if RECORDED_ONLY else bag_empty_positions(engine, EXACT_ENDGAMES)
    EXACT_CHECKPOINT.parent.mkdir(parents=True, exist_ok=True)
    if len(done) < len(positions):
        _warm_up(engine, *positions[len(done)])
    with EXACT_CHECKPOINT.open("a") as checkpoint:
        for index in range(len(done), len(positions)):
            board, rack, other = positions[index]
            result = {"index": index, **exact_endgame(engine, board, rack, other)}
            checkpoint.write(json.dumps(result) + "\n")
            checkpoint.flush()
            done.append(result)
            if index % 50 == 49:
                print(f"exact endgames: {index + 1}/{len(positions)}", file=sys.stderr,
                      flush=True)
    baseline = None
    if EXACT_BASELINE:
        path = Path(EXACT_BASELINE)
        baseline = (path.stem.rsplit("-", 1)[-1], _records(path))
    return exact_rows(done, baseline)


def exact_tail_rows(engine) -> list[dict]:
    """The tail's rows (module docstring): the first TAIL_ENDGAMES of the exact batch, those
    it did not solve within EXACT_SECONDS solved again with TAIL_SECONDS.
    """
    from bench_lookahead import bag_empty_positions
    from lookup.crossword.endgame import endgame_search

    if not TAIL_ENDGAMES or not EXACT_CHECKPOINT.exists():
        return []
    batch = _records(EXACT_CHECKPOINT)[:TAIL_ENDGAMES]
    if len(batch) < TAIL_ENDGAMES:
        return []
    unsolved = [r["index"] for r in batch if not (r["exact"] and r["seconds"] <= EXACT_SECONDS)]
    done = {r["index"]: r for r in _records(TAIL_CHECKPOINT)}
    if not RECORDED_ONLY and any(index not in done for index in unsolved):
        positions = bag_empty_positions(engine, TAIL_ENDGAMES)
        _warm_up(engine, *positions[0])
        with TAIL_CHECKPOINT.open("a") as checkpoint:
            for index in unsolved:
                if index in done:
                    continue
                board, rack, other = positions[index]
                search = endgame_search(engine, engine.cells(board),
                                        [engine.rack_counts(rack, board),
                                         engine.rack_counts(other, board)])
                search.clock = time.process_time  # CPU seconds: the machine is shared
                started = time.process_time()
                value, _line, exact, plies = search.solve(seconds=TAIL_SECONDS)
                done[index] = {"index": index, "exact": exact, "value": value, "plies": plies,
                               "nodes": search.nodes,
                               "seconds": time.process_time() - started}
                checkpoint.write(json.dumps(done[index]) + "\n")
                checkpoint.flush()
                print(f"exact tail: {len(done)}/{len(unsolved)}", file=sys.stderr, flush=True)
    if any(index not in done for index in unsolved):
        return []
    times, within = _tail_times(batch, done)
    p95 = _p95(times)
    where = (f"the first {TAIL_ENDGAMES} endgames of the exact batch, the {len(unsolved)} it did "
             f"not solve within {EXACT_SECONDS:g} s solved again with {TAIL_SECONDS:g} s of CPU: "
             + ", ".join(f"{n} solved within {limit:g} s" for limit, n in within.items()))
    name = old = None
    # The older solver's tail beside its batch (exact-tail-<commit>.jsonl), when recorded.
    if EXACT_BASELINE:
        baseline = Path(EXACT_BASELINE)
        tail = baseline.with_name(baseline.name.replace("exact-endgames-", "exact-tail-"))
        if tail.exists():
            _old_times, old_within = _tail_times(
                _records(baseline)[:TAIL_ENDGAMES], {r["index"]: r for r in _records(tail)})
            name = f"the solver of {baseline.stem.split('-')[-1]}, the same {TAIL_ENDGAMES}"
            old = 100 * old_within[TAIL_SECONDS] / TAIL_ENDGAMES
            where += "; before: " + ", ".join(f"{n} within {limit:g} s"
                                              for limit, n in old_within.items())
            where += f"; {TAIL_MACHINES}"
    return [
        row("lookahead-tail", f"exact endgames: solved to the end within {TAIL_SECONDS:g} s",
            100 * within[TAIL_SECONDS] / len(times), "%", name, old, note=where,
            higher_is_better=True),
        row("lookahead-tail", "exact endgames: CPU within which 95 % are solved",
            None if math.isinf(p95) else p95, "s",
            note=(f"more than {TAIL_SECONDS:g} s: {len(times) - within[TAIL_SECONDS]} of "
                  f"{len(times)} are not solved within it" if math.isinf(p95) else
                  f"the first {TAIL_ENDGAMES} endgames") + "; goal 10 s"),
    ]


def threads_rows(engine) -> list[dict]:
    """The threads' rows (module docstring): the batch's first THREADS_ENDGAMES endgames
    solved on one thread and on THREADS, THREADS_SECONDS of wall time each.
    """
    from bench_lookahead import bag_empty_positions
    from lookup.crossword.endgame import endgame_search

    if not THREADS_ENDGAMES:
        return []
    done = {(r["index"], r["threads"]): r for r in _records(THREADS_CHECKPOINT)}
    wanted = [(index, threads) for index in range(THREADS_ENDGAMES) for threads in (1, THREADS)]
    if not RECORDED_ONLY and any(key not in done for key in wanted):
        positions = bag_empty_positions(engine, THREADS_ENDGAMES)
        _warm_up(engine, *positions[0])
        with THREADS_CHECKPOINT.open("a") as checkpoint:
            for index, threads in wanted:
                if (index, threads) in done:
                    continue
                board, rack, other = positions[index]
                search = endgame_search(engine, engine.cells(board),
                                        [engine.rack_counts(rack, board),
                                         engine.rack_counts(other, board)])
                started, cpu = time.perf_counter(), time.process_time()
                value, _line, exact, plies = search.solve(seconds=THREADS_SECONDS,
                                                          threads=threads)
                done[index, threads] = {
                    "index": index, "threads": threads, "exact": exact, "value": value,
                    "plies": plies, "nodes": search.nodes,
                    "seconds": time.perf_counter() - started, "cpu": time.process_time() - cpu}
                checkpoint.write(json.dumps(done[index, threads]) + "\n")
                checkpoint.flush()
                if threads == THREADS and index % 10 == 9:
                    print(f"exact endgames on threads: {index + 1}/{THREADS_ENDGAMES}",
                          file=sys.stderr, flush=True)
    if any(key not in done for key in wanted):
        return []
    one = [done[index, 1] for index in range(THREADS_ENDGAMES)]
    many = [done[index, THREADS] for index in range(THREADS_ENDGAMES)]

    def solved(records):
        return sum(r["exact"] and r["seconds"] <= THREADS_SECONDS for r in records)

    both = [(a, b) for a, b in zip(one, many, strict=True) if a["exact"] and b["exact"]]
    equal = sum(a["value"] == b["value"] for a, b in both)
    where = (f"the first {THREADS_ENDGAMES} endgames of the exact batch, {THREADS_SECONDS:g} s "
             f"of wall time per solve, the line read back included, on an idle machine of "
             f"2 cores; solved by one thread {solved(one)}, by {THREADS} {solved(many)}; both "
             f"solved {len(both)}, values equal on {equal}")
    older = {(r["index"], r["threads"]): r for r in _records(THREADS_BASELINE)}
    # The baseline holds the batch's first endgames (100), maybe fewer than this run.
    old = []
    while len(old) < THREADS_ENDGAMES and (len(old), THREADS) in older:
        old.append(older[len(old), THREADS])
    if old:
        first = many[:len(old)]
        where += (f"; on the first {len(old)}, b1a3673's helper (the root's plays in order) "
                  f"solved {solved(old)} against {solved(first)}, median "
                  f"{statistics.median(r['seconds'] for r in old):.3g} s against "
                  f"{statistics.median(r['seconds'] for r in first):.3g} s, "
                  f"{sum(r['seconds'] for r in old):.0f} s in all against "
                  f"{sum(r['seconds'] for r in first):.0f} s")
    name = "one thread"
    return [
        row("lookahead-threads", f"exact endgames on {THREADS} threads: solved to the end "
            f"within {THREADS_SECONDS:g} s of wall time", 100 * solved(many) / len(many), "%",
            name, 100 * solved(one) / len(one), note=where + "; goal 95 %",
            higher_is_better=True),
        row("lookahead-threads", f"exact endgames on {THREADS} threads: wall time per solve, "
            "median", statistics.median(r["seconds"] for r in many), "s", name,
            statistics.median(r["seconds"] for r in one),
            note=f"all {THREADS_ENDGAMES}: {sum(r['seconds'] for r in many):.0f} s against "
            f"{sum(r['seconds'] for r in one):.0f} s; CPU "
            f"{sum(r['cpu'] for r in many):.0f} s against {sum(r['cpu'] for r in one):.0f} s"),
        row("lookahead-threads", f"exact endgames on {THREADS} threads: nodes per second, all "
            "threads", sum(r["nodes"] for r in many) / sum(r["seconds"] for r in many),
            "nodes/s", name, sum(r["nodes"] for r in one) / sum(r["seconds"] for r in one),
            note="per second of wall time, the line's read-back counted (one thread then)",
            higher_is_better=True),
    ]


def _tail_times(batch: list, done: dict) -> tuple[list, dict]:
    """Each endgame's solve time, sorted, its record in `done` (the tail's, by index) taking
    the place of the batch's (math.inf when neither solved it), and how many are solved within
    EXACT_SECONDS, 30 s and TAIL_SECONDS.
    """
    times = sorted(r["seconds"] if r["exact"] else math.inf
                   for r in [done.get(r["index"], r) for r in batch])
    return times, {limit: sum(t <= limit for t in times)
                   for limit in (EXACT_SECONDS, 30, TAIL_SECONDS)}


def _p95(ordered: list) -> float:
    return ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]


def _exact_figures(done: list) -> dict:
    """Solved share, CPU seconds (sorted), nodes per second and gains of checkpoint records."""
    seconds = sorted(r["seconds"] for r in done)
    return {"share": sum(r["exact"] and r["seconds"] <= EXACT_SECONDS for r in done) / len(done),
            "seconds": seconds, "median": statistics.median(seconds),
            "rate": sum(r["nodes"] for r in done) / sum(seconds),
            "gains": [r["solver"] - r["greedy"] for r in done]}


def exact_rows(done: list, baseline: tuple | None = None) -> list[dict]:
    """The batch's rows from its checkpoint records; `baseline` (an older solver's name and
    records) gives each row the older solver's figure on the endgames it solved too, with
    this solver's on those same endgames in the note when the batch has gone further.
    """
    figures = _exact_figures(done)
    seconds, gains, share = figures["seconds"], figures["gains"], figures["share"]
    p95 = _p95(seconds)
    where = (f"{len(done):,} of {EXACT_ENDGAMES:,} endgames as the bag empties in greedy "
             f"self-play (seeds 0, 1, ...), both racks as dealt; {EXACT_SECONDS:g} s of CPU per "
             "solve")
    half = 1.96 * (share * (1 - share) / len(done)) ** 0.5
    name, old = "", dict.fromkeys(("share", "median", "rate", "gains"))
    if baseline is not None:
        label, records = baseline
        by_index = {r["index"]: r for r in records}
        common = [r for r in done if r["index"] in by_index]
        older = [by_index[r["index"]] for r in common]
        old = _exact_figures(older)
        old["gains"] = statistics.mean(old["gains"])
        old["share"] *= 100
        both = [(a, b) for a, b in zip(older, common, strict=True) if a["exact"] and b["exact"]]
        name = f"the solver of {label} on the first {len(common):,} endgames"
        if len(common) < len(done):
            now = _exact_figures(common)
            where += (f"; on those {len(common):,}: {100 * now['share']:.1f} % solved, median "
                      f"{now['median']:.3g} s, {now['rate']:,.0f} nodes/s, gain "
                      f"{statistics.mean(now['gains']):.2f}")
        where += (f"; both solvers solved {len(both)}, in {sum(a['seconds'] for a, _ in both):.0f}"
                  f" s of CPU before, {sum(b['seconds'] for _, b in both):.0f} s now; values "
                  f"equal on {sum(a['value'] == b['value'] for a, b in both)}")
    return [
        row("lookahead-exact", "exact endgames: solved to the end within 10 s",
            100 * share, "%", name, old["share"],
            note=f"{where}; 95 % interval {100 * max(0, share - half):.1f}-"
            f"{100 * min(1, share + half):.1f} %; {EXACT_MACHINES}; goal 95 %",
            higher_is_better=True),
        row("lookahead-exact", "exact endgames: CPU per solve, median",
            statistics.median(seconds), "s", name, old["median"],
            note=f"p95 {p95:.3g} s, max {seconds[-1]:.3g} s (with the line read back)"
            + (f"; before: p95 {_p95(old['seconds']):.3g} s" if baseline is not None else "")),
        row("lookahead-exact", "exact endgames: nodes per second",
            figures["rate"], "nodes/s", name, old["rate"],
            note="compiled kernel, one core, the line's read-back time counted",
            higher_is_better=True),
        row("lookahead-exact", "exact endgames: spread gained over greedy end play",
            statistics.mean(gains), "points", name, old["gains"],
            note=f"solver better in {sum(g > 0 for g in gains)}, worse in "
            f"{sum(g < 0 for g in gains)} of {len(gains)} (it assumes a best-playing "
            "opponent; the opponent plays greedily)", higher_is_better=True),
    ]


def endgame_gain_rows(engine) -> list[dict]:
    from bench_lookahead import bag_empty_positions
    from lookup.play.game import Game
    from lookup.play.match import SIM_BUDGET
    from lookup.play.players import SimPlayer, greedy_player

    if not ENDGAME_GAMES:
        return []
    solver = SimPlayer(**SIM_BUDGET)
    gains, solved_seconds = [], 0.0
    for board, rack, other in bag_empty_positions(engine, ENDGAME_GAMES):
        spreads = []
        for player in (greedy_player, solver):
            started = time.process_time()
            result = Game(engine, [player, greedy_player], bag="", racks=[rack, other],
                          board=board).run()
            if player is solver:
                solved_seconds += time.process_time() - started
            spreads.append(result.spread(0))
        gains.append(spreads[1] - spreads[0])
    budget = (f"at most {SIM_BUDGET['endgame_plies']} plies, {SIM_BUDGET['endgame_nodes']:,} "
              "positions")
    return [row("lookahead-endgames", "endgame solver over greedy play, mean spread gained",
                statistics.mean(gains), "points",
                note=f"{len(gains)} self-play endgames from the empty bag, solver budget {budget}; "
                f"solver better in {sum(g > 0 for g in gains)}, worse in "
                f"{sum(g < 0 for g in gains)} (the solver assumes a best-playing opponent); "
                f"{solved_seconds / len(gains):.2f} s CPU per endgame; Maven: over 10")]


def checkpointed_match(game: str, pairs: int, seed: int, sim_budget: dict, path: Path,
                       batch: int = 10):
    """sim against equity over `pairs` mirrored pairs in this process (one core), batch by
    batch, each batch's MatchResult appended to `path` as one JSON line: a rerun with the same
    arguments reads the batches done and plays the rest. Returns (MatchResult, CPU seconds).
    """
    import dataclasses

    from lookup.play.match import PAIR_STRIDE, MatchResult, play_pairs

    key = {"game": game, "seed": seed, "sim_budget": sim_budget, "batch": batch}
    done = {}
    # Entries written before MATCH_SHARD have no "start": they are batches 0, 1, ... in order.
    mine = [entry for entry in _records(path) if entry["key"] == key]
    for number, entry in enumerate(mine):
        done[entry.get("start", number * batch)] = entry
    total, seconds = MatchResult(), 0.0
    for _start, entry in sorted(done.items()):
        total.merge(MatchResult(**entry["result"]))
        seconds += entry["seconds"]
    first = seed * PAIR_STRIDE
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a") as checkpoint:
        for start in range(0, 0 if RECORDED_ONLY else pairs, batch):
            if start in done or start // batch % SHARDS != SHARD:
                continue
            started = time.process_time()
            part = play_pairs(game, "sim", "equity",
                              range(first + start, first + min(start + batch, pairs)),
                              sim_budget=sim_budget)
            spent = time.process_time() - started
            # One write of one line: shards appending to the same file do not interleave.
            checkpoint.write(json.dumps({"key": key, "start": start,
                                        "result": dataclasses.asdict(part),
                                        "seconds": spent}) + "\n")
            checkpoint.flush()
            total.merge(part)
            seconds += spent
            print(f"sim vs equity ({game}): {len(total.pair_shares)}/{pairs} pairs, "
                  f"{100 * total.win_rate():.1f} % wins, {seconds:.0f} s CPU",
                  file=sys.stderr, flush=True)
    return total, seconds


def match_row(game: str, result, seconds: float, pairs: int, seed: int, budget: dict,
              area: str = "lookahead-matches") -> dict:
    """The row of a sim-vs-equity match, finished or not, with its budget and interval."""
    low, high = result.interval()
    played = len(result.pair_shares)
    return row(area, f"{game}: sim vs equity, win rate",
               100 * result.win_rate(), "%",
               note=f"{played:,} of {pairs:,} mirrored pairs, seed {seed}: W/D/L {result.wins}/"
               f"{result.draws}/{result.losses}, 95 % interval {100 * low:.1f}-"
               f"{100 * high:.1f} %, mean spread {result.mean_spread():+.1f}; budget per move: "
               + ", ".join(f"{k} {v}" for k, v in budget.items())
               + f"; {seconds / max(result.turns[0], 1):.2f} s CPU per sim-bot move (the "
               "equity bot's moves included; each batch's CPU on the core that played it)")


def sim_match_rows() -> list[dict]:
    from lookup.play.match import sim_options

    budget = {"seconds": SIM_SECONDS, "iterations": None} if SIM_SECONDS else {}
    budget.update(SIM_BUDGET)
    rows = []
    if SIM_PAIRS:
        result, seconds = checkpointed_match(GAME, SIM_PAIRS, SEED, budget, MATCH_CHECKPOINT)
        rows.append(match_row(GAME, result, seconds, SIM_PAIRS, SEED, sim_options(budget)))
    for game in OTHER_GAMES if OTHER_PAIRS else ():
        path = MATCH_CHECKPOINT.with_name(f"{MATCH_CHECKPOINT.stem}-{game}.jsonl")
        result, seconds = checkpointed_match(game, OTHER_PAIRS, SEED, budget, path)
        if result.pair_shares:
            rows.append(match_row(game, result, seconds, OTHER_PAIRS, SEED,
                                  sim_options(budget), "lookahead-games"))
    return rows


def run() -> list[dict]:
    from lookup.crossword.engine import move_engine, numba_available
    from lookup.crossword.game import crossword_game

    if not numba_available():
        return [row("lookahead-matches", "look-ahead matches", None, "",
                    note="numba is not installed: pip install wordpack[fast]")]
    engine = move_engine(crossword_game(GAME), compiled=True)
    return (endgame_gain_rows(engine) + exact_endgame_rows(engine) + exact_tail_rows(engine)
            + threads_rows(engine) + sim_match_rows())
