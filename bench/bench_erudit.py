"""Erudit multi-word turns on the real lexicon: points per turn and time per turn by method.

Positions: the committed erudit-ru self-play positions (tests/fixtures/crossword/
selfplay-erudit-ru.json, played by single-line greedy bots) with 15 to 75 tiles on the board
and a full rack, the first POSITIONS of them, each rack given 0, 1 and 2 blanks in turn
(tests/crossword_support.py blank_variant: letters dropped from its end). Per position: the
best single-line play (the bots' choice; their games averaged 18.9 points per play), the greedy
turn and the full search's turn of cw.best_turn (branch and bound by the score bound,
lookup/crossword/turn_search.py), the share of states the bound kept from being expanded, and with
no blank how many legal multi-word turns the unpruned search finds. The Erudit article reports
about 30 points per turn for greedy and about 60 for the other methods over some 1,500
positions (its own tile values and lexicon). Rows also give the article's opening (empty
board, rack облмеоб) by both methods. Times are CPU seconds of the process
(time.process_time).
"""

import statistics
import sys
from functools import partial
from pathlib import Path

import common
from common import timed

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))

GAME = "erudit-ru"
POSITIONS = 20
MIDGAME = (15, 75)
BLANKS = (0, 1, 2)
OPENING = "облмеоб"

row = partial(common.row, "erudit")


def p95(values):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def midgame_positions(cw) -> list:
    """(board, rack) of the first POSITIONS midgame positions with a full rack."""
    from crossword_support import selfplay_positions

    found = []
    for position in selfplay_positions(GAME):
        board = cw.parse_board(position["board"])
        if (MIDGAME[0] <= sum(1 for _ in board.tiles()) <= MIDGAME[1]
                and len(position["rack"]) == cw.rules.rack_size):
            found.append((board, position["rack"]))
        if len(found) == POSITIONS:
            break
    return found


def run() -> list[dict]:
    from crossword_support import blank_variant
    from lookup.crossword.game import crossword_game

    cw = crossword_game(GAME)
    cw.lexicon()
    board = cw.empty_board()
    cw.best_turn(board, OPENING, method="full")  # the compiled engine's first call compiles
    rows = []
    for blanks in BLANKS:
        points = {"line": [], "greedy": [], "full": []}
        seconds = {"line": [], "greedy": [], "full": []}
        multi = []
        expanded = []
        for board, dealt in midgame_positions(cw):
            rack = blank_variant(cw, board, dealt, blanks)
            if rack is None:
                continue
            codes = cw.rack_codes(rack, board)
            spent, plays = timed(cw._plays, board, codes, 1)
            seconds["line"].append(spent)
            points["line"].append(plays[0].score if plays else 0)
            spent, move = timed(cw.best_turn, board, rack, method="greedy")
            seconds["greedy"].append(spent)
            points["greedy"].append(move.score if move else 0)
            # best_turn(method="full") is these two calls; the search also counts states.
            spent, search = timed(cw._turn_search, board, codes, None)
            extra, best = timed(search.ranked, top=1)
            seconds["full"].append(spent + extra)
            points["full"].append(best[0].score if best else 0)
            expanded.append((search.expanded, search.pruned))
            if blanks == 0:
                multi.append(search.count_multi_word())
        n = len(points["line"])
        line = statistics.mean(points["line"])
        label = f"{blanks} blank{'s' if blanks != 1 else ''}"
        rows.append(row(f"{label}: single-line greedy (best play), points per turn", line,
                        "points", note=f"{n} midgame self-play positions, the rack given "
                        f"{label}; the self-play games: 18.9"))
        for method, name in (("greedy", "multi-word greedy"), ("full", "full search")):
            rows.append(row(f"{label}: {name}, points per turn", statistics.mean(points[method]),
                            "points", "single-line greedy", line,
                            note="the article: greedy ~30, full ~60", higher_is_better=True))
        for method, name in (("line", "single-line greedy"), ("greedy", "multi-word greedy"),
                             ("full", "full search")):
            rows.append(row(f"{label}: {name}, time per turn, median",
                            statistics.median(seconds[method]) * 1000, "ms"))
            rows.append(row(f"{label}: {name}, time per turn, p95",
                            p95(seconds[method]) * 1000, "ms",
                            note=f"max {max(seconds[method]) * 1000:,.0f} ms"))
        kept = sum(e for e, _p in expanded)
        cut = sum(p for _e, p in expanded)
        rows.append(row(f"{label}: full search, states the bound cut", 100 * cut / (kept + cut),
                        "%", note=f"{cut:,} of {kept + cut:,} states with tiles left"))
        if multi:
            rows.append(row(f"{label}: legal multi-word turns per position, median",
                            statistics.median(multi), "turns",
                            note=f"p95 {p95(multi)}, max {max(multi)}"))
    board = cw.empty_board()
    for method in ("greedy", "full"):
        spent, move = timed(cw.best_turn, board, OPENING, method=method)
        rows.append(row(f"opening {OPENING}, {method}", move.score, "points",
                        note=f"{move.notation()} ({spent:.2f} s)"))
    return rows
