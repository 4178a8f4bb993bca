"""Erudit multi-word turns on the real lexicon: points per turn and time per turn by method.

Positions: the erudit-ru self-play positions of tests/fixtures/crossword/
erudit-ru-single-line-games.json (POSITIONS_FILE: played by single-line greedy bots before the
repeated-word rule; kept for this benchmark when `make crossword-positions` replayed
selfplay-erudit-ru.json under the current rules, so that its figures stay comparable with the
earlier ones below and in bench/results.md) with 15 to 75 tiles on the board
and a full rack, for each blank count the first POSITIONS whose board leaves the set that many
blanks, the rack given 0, 1 and 2 blanks (tests/crossword_support.py blank_variant: letters
dropped from its end); the first 20, 14 and 6 are the positions of the rows before. Per
position: the best single-line play, the greedy turn and the exact turn of
cw.best_turn(method="full") (ClusterSearch, lookup/crossword/turn_search.py), with the clusters
it lists and the groups of clusters it tries to join; the best TOP turns, as moves(top=TOP)
ranks them with the plays; the search with a BUDGET: how often that answer is proven, and how
often its best score is the exact one; with no blank, how many legal multi-word turns the
plain search finds. The Erudit article reports about 30 points per turn for greedy and about
60 for the other methods over some 1,500 positions (its own tile values and lexicon). Rows
also give the article's opening (empty board, rack облмеоб) by both methods, and the exact
turn's time on the empty board with 0, 1 and 2 blanks (openings_rows: every game's first
turn, where the search is slowest). Times are CPU seconds of the process
(time.process_time). The branch and bound that ClusterSearch replaced measured median
59 ms / 2.25 s / 97 s and p95 0.98 s / 16.7 s / 267 s with 0 / 1 / 2 blanks on the first
20 / 14 / 6 of these positions; ClusterSearch's first version (commit 564f3c6,
before the one-tile bound, the tighter join reach and the join groups of blank classes)
median 13 ms / 157 ms / 2.4 s and p95 75 ms / 2.8 s / 45 s on these 40; at commit 416ed08 (the
one-tile bound, the tighter join reach and the join groups of blank classes, measured under a
load average of 3-5) median 13.7 ms / 150 ms / 1.47 s and p95 58 ms / 1.51 s / 11.7 s; at
commit c2cd00a (clusters laid and joins listed in Python, the covering search compiled)
median 15.3 ms / 119 ms / 1.30 s and p95 57 ms / 1.29 s / 8.5 s (the rows' `before` until
commit ac1036f), all on other machines. Since,
the turn kernel lays the parts, lists the join groups and screens their choices, and the
search makes no cluster that leaves at most one tile (two since commit ad38621) and cannot
reach the best turns found (turn_kernel._below, _two_left_bound): "clusters listed" counts
the clusters made. The rows' `before` is commit b3ec2f7 (before lay_covering skipped the
plays of clusters seen before) on the machine of the rows, one run of this benchmark on the
same day with a warm compile cache; on an earlier machine, about twice as slow on these rows,
commit eb5e8ef (before the two-tile bounds) measured median 8.51 / 63.59 / 489 ms and p95
31.19 / 572 / 3,217 ms for the full search, 10.49 / 64.45 / 508 and 38.83 / 470 / 2,472 ms for
moves(top=10), and the two-tile bounds brought them to 8.80 / 57.36 / 427 and 27.92 / 415 /
1,993 ms, 9.94 / 71.96 / 445 and 31.91 / 499 / 1,993 ms there.
"""

import os
import statistics
import sys
import time
from functools import partial
from pathlib import Path

import common
from common import timed

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))

GAME = "erudit-ru"
POSITIONS_FILE = REPO / "tests" / "fixtures" / "crossword" / "erudit-ru-single-line-games.json"
POSITIONS = 40
MIDGAME = (15, 75)
BLANKS = (0, 1, 2)
BUDGET = 0.1  # seconds
TOP = 10
OPENING = "облмеоб"
# The rows at commit b3ec2f7: (median, p95) in ms by blank count, of the full search and of
# moves(top=TOP).
BEFORE_COMMIT = "b3ec2f7"
BEFORE = {0: (3.42, 14.49), 1: (24.36, 228), 2: (202, 968)}
BEFORE_TOP = {0: (3.98, 15.77), 1: (30.68, 237), 2: (217, 1032)}
# The openings' rows at commit d61e7de, before the search laid first parts across only there:
# (median, max) in ms by blank count.
BEFORE_OPENINGS_COMMIT = "d61e7de"
BEFORE_OPENINGS = {0: (5.54, 133), 1: (187, 977), 2: (2000, 6370)}

row = partial(common.row, "erudit")


def p95(values):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def midgame_positions(cw, blanks: int) -> list:
    """(board, rack) of the first POSITIONS midgame positions with a full rack whose board
    leaves `blanks` blanks, the rack given that many blanks."""
    from crossword_support import blank_variant
    from pipeline.selfplay import read_selfplay

    found = []
    for position in read_selfplay(POSITIONS_FILE)["positions"]:
        board = cw.parse_board(position["board"])
        if not (MIDGAME[0] <= sum(1 for _ in board.tiles()) <= MIDGAME[1]
                and len(position["rack"]) == cw.rules.rack_size):
            continue
        rack = blank_variant(cw, board, position["rack"], blanks)
        if rack is not None:
            found.append((board, rack))
        if len(found) == POSITIONS:
            break
    return found


def run() -> list[dict]:
    from lookup.crossword.engine import numba_available
    from lookup.crossword.game import crossword_game
    from lookup.crossword.turn_search import ClusterSearch, covering_step

    cw = crossword_game(GAME)
    cw.lexicon()
    cover = covering_step(cw, numba_available())
    board = cw.empty_board()
    # The compiled engine's and the turn kernel's first calls compile.
    cw.best_turn(board, OPENING, method="full")
    ClusterSearch(cw._turn_search(board, cw.rack_codes(OPENING), None), cover).best(1)
    rows = []
    for blanks in BLANKS:
        points = {"line": [], "greedy": [], "full": []}
        seconds = {"line": [], "greedy": [], "full": [], "top": []}
        clusters, groups, multi, walls = [], [], [], []
        proven = exact = 0
        positions = midgame_positions(cw, blanks)
        load = os.getloadavg()[0]
        for board, rack in positions:
            codes = cw.rack_codes(rack, board)
            spent, plays = timed(cw._plays, board, codes, 1)
            seconds["line"].append(spent)
            points["line"].append(plays[0].score if plays else 0)
            spent, move = timed(cw.best_turn, board, rack, method="greedy")
            seconds["greedy"].append(spent)
            points["greedy"].append(move.score if move else 0)
            # best_turn(method="full") and moves(top) are this search, in search_turns
            # (which also refuses a board with a word twice: half the committed boards,
            # played before the rule).
            started = time.process_time()
            search = ClusterSearch(cw._turn_search(board, codes, None), cover)
            found = search.best(1)
            seconds["full"].append(time.process_time() - started)
            best = found[0].score if found else 0
            points["full"].append(best)
            clusters.append(len(search.seen))
            groups.append(search.choices_tried)
            # (Dropped now, as search_turns drops its own: a search kept alive leaves its
            # clusters to the cyclic collector, which it turns off while it searches, and the
            # next rows would pay for their first collection.)
            del search
            started = time.process_time()
            ClusterSearch(cw._turn_search(board, codes, None), cover).best(TOP)
            seconds["top"].append(time.process_time() - started)
            started = time.perf_counter()
            hurried = ClusterSearch(cw._turn_search(board, codes, None), cover,
                                    started + BUDGET)
            found = hurried.best(1)
            walls.append(time.perf_counter() - started)
            proven += hurried.proven
            exact += (found[0].score if found else 0) == best
            del hurried
            if blanks == 0:
                multi.append(cw._turn_search(board, codes, None).count_multi_word())
        n = len(positions)
        line = statistics.mean(points["line"])
        label = f"{blanks} blank{'s' if blanks != 1 else ''}"
        rows.append(row(f"{label}: single-line greedy (best play), points per turn", line,
                        "points", note=f"{n} midgame self-play positions, the rack given "
                        f"{label}"))
        for method, name in (("greedy", "multi-word greedy"), ("full", "full search")):
            rows.append(row(f"{label}: {name}, points per turn", statistics.mean(points[method]),
                            "points", "single-line greedy", line,
                            note="the article: greedy ~30, full ~60", higher_is_better=True))
        for method, name in (("line", "single-line greedy"), ("greedy", "multi-word greedy"),
                             ("full", "full search (exact)"),
                             ("top", f"moves(top={TOP}) with turns, "
                                     f"{len(seconds['top'])} positions")):
            before = {"full": BEFORE, "top": BEFORE_TOP}.get(method)
            note = ""
            if before:
                note = (f"before: {before[blanks][0]:,} ms (commit {BEFORE_COMMIT}, the same "
                        f"machine on 2026-12-07); load average {load:.1f} at the start (other "
                        "jobs on the machine)")
            rows.append(row(f"{label}: {name}, time per turn, median",
                            statistics.median(seconds[method]) * 1000, "ms", note=note))
            if before:
                note = f"before: {before[blanks][1]:,} ms; "
            rows.append(row(f"{label}: {name}, time per turn, p95",
                            p95(seconds[method]) * 1000, "ms",
                            note=f"{note}max {max(seconds[method]) * 1000:,.0f} ms"))
        rows.append(row(f"{label}: full search, clusters listed, median",
                        statistics.median(clusters), "clusters",
                        note=f"p95 {p95(clusters):,}; choices tried for joins: median "
                        f"{statistics.median(groups):,}, p95 {p95(groups):,}"))
        rows.append(row(f"{label}: search_turns(seconds={BUDGET}), best score exact",
                        100 * exact / n, "%", higher_is_better=True,
                        note=f"proven best in {proven} of {n}; wall time p95 "
                        f"{p95(walls) * 1000:,.0f} ms, max {max(walls) * 1000:,.0f} ms"))
        if multi:
            rows.append(row(f"{label}: legal multi-word turns per position, median",
                            statistics.median(multi), "turns",
                            note=f"p95 {p95(multi)}, max {max(multi)}"))
    board = cw.empty_board()
    for method in ("greedy", "full"):
        spent, move = timed(cw.best_turn, board, OPENING, method=method)
        rows.append(row(f"opening {OPENING}, {method}", move.score, "points",
                        note=f"{move.notation()} ({spent:.2f} s)"))
    return rows + openings_rows(cw, cover)


def openings_rows(cw, cover) -> list[dict]:
    """The exact turn on the empty board (ClusterSearch.best(1), CPU time): the article's
    opening rack and the first racks of POSITIONS_FILE's games, given 0, 1 and 2 blanks as the
    midgame positions are.
    """
    from crossword_support import blank_variant
    from lookup.crossword.turn_search import ClusterSearch
    from pipeline.selfplay import read_selfplay

    board = cw.empty_board()
    racks = [OPENING] + [position["rack"]
                         for position in read_selfplay(POSITIONS_FILE)["positions"]
                         if not any(cw.parse_board(position["board"]).cells)]
    rows = []
    for blanks in BLANKS:
        seconds, clusters = [], []
        for rack in racks:
            codes = cw.rack_codes(blank_variant(cw, board, rack, blanks), board)
            started = time.process_time()
            search = ClusterSearch(cw._turn_search(board, codes, None), cover)
            search.best(1)
            seconds.append(time.process_time() - started)
            clusters.append(len(search.seen))
            del search
        label = f"{blanks} blank{'s' if blanks != 1 else ''}"
        rows.append(row(f"openings, {label}: full search (exact), time per turn, median",
                        statistics.median(seconds) * 1000, "ms",
                        note=f"the empty board, {len(racks)} racks (the article's and the "
                        f"first racks of the positions' games, given {label}); max "
                        f"{max(seconds) * 1000:,.0f} ms; clusters listed: median "
                        f"{statistics.median(clusters):,}, max {max(clusters):,}; before "
                        f"(commit {BEFORE_OPENINGS_COMMIT}, both directions of first part): "
                        f"median {BEFORE_OPENINGS[blanks][0]:,} ms, max "
                        f"{BEFORE_OPENINGS[blanks][1]:,} ms"))
    return rows
