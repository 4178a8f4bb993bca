"""The move engine (lookup/crossword/engine.py, compiled by numba) against CrosswordGame.moves.

For each game, on the midgame self-play positions of bench/bench_crossword.py (the rack with
0, 1 and 2 blanks): median time of the engine's full play list (raw records, and as sorted
Move objects like moves()) and of its best play, against moves() and moves(top=1) measured in
this run (moves() with 2 blanks only on the first BASELINE_TWO_BLANKS positions: it takes
a fraction of a second each). Then greedy self-play: whole games with the game engine
(lookup/play/game.py, greedy_player) against pipeline/selfplay.py's games on moves(top=1).
Times are CPU seconds of the process (time.process_time); the first call, which compiles the
kernel or loads it from numba's cache, is not timed.
"""

import random
import time
from functools import partial

import common
from bench_crossword import GAMES, midgame_cases
from common import median_ms, timed

GREEDY_GAMES = 60
BASELINE_GAMES = 2
BASELINE_TWO_BLANKS = 4

row = partial(common.row, "engine")


def position_rows(cw, engine, game) -> list[dict]:
    rows = []
    for blanks, cases in midgame_cases(cw, game).items():
        raw, listed, best, full, top = [], [], [], [], []
        for number, (board, rack) in enumerate(cases):
            cells = engine.cells(board)
            counts = engine.rack_counts(rack, board)
            raw.append(timed(engine.search_cells, cells, counts)[0])
            best.append(timed(engine.search_cells, cells, counts, best=True)[0])
            listed.append(timed(engine.plays, board, rack)[0])
            if blanks < 2 or number < BASELINE_TWO_BLANKS:
                full.append(timed(cw.moves, board, rack)[0])
                top.append(timed(cw.moves, board, rack, top=1)[0])
        label = f"{game}, {blanks} blank{'s' if blanks != 1 else ''}"
        note = f"{len(cases)} midgame positions"
        best_note = ""
        if cw.rules.placement == "multi":
            best_note = ("not comparable: moves(top=1) searches multi-word turns "
                         "(lookup/crossword/turn_search.py), the engine single-line plays")
        if len(full) < len(cases):
            note += f"; moves() on the first {len(full)}"
        rows.append(row(f"{label}: all plays (records), median", median_ms(raw), "ms",
                        "moves()", median_ms(full), note))
        rows.append(row(f"{label}: all plays as sorted Moves, median", median_ms(listed), "ms",
                        "moves()", median_ms(full)))
        rows.append(row(f"{label}: best play, median", median_ms(best), "ms",
                        "moves(top=1)", median_ms(top), best_note))
        rows.append(row(f"{label}: positions per second, best play", len(best) / sum(best),
                        "positions/s", "moves(top=1)", len(top) / sum(top), best_note,
                        higher_is_better=True))
    return rows


def games_rows(cw, engine, game) -> list[dict]:
    from lookup.play.game import play_game
    from lookup.play.players import greedy_player
    from pipeline.selfplay import play_game as moves_game

    seconds, results = timed(lambda: [play_game(engine, [greedy_player, greedy_player], seed)
                                      for seed in range(GREEDY_GAMES)])
    baseline, _ = timed(lambda: [moves_game(cw, random.Random(seed), seed)
                                 for seed in range(BASELINE_GAMES)])
    turns = sum(r.turns for r in results) / len(results)
    return [row(f"{game}: greedy self-play", GREEDY_GAMES / seconds, "games/s",
                "pipeline/selfplay.py (moves(top=1))", BASELINE_GAMES / baseline,
                f"{GREEDY_GAMES} games, {turns:.1f} turns per game, one core",
                higher_is_better=True)]


def run() -> list[dict]:
    from lookup.crossword.engine import move_engine, numba_available
    from lookup.crossword.game import crossword_game

    if not numba_available():
        return [row("compiled engine", None, "", note="numba is not installed: "
                                                       "pip install wordpack[fast]")]
    rows = []
    for game in GAMES:
        cw = crossword_game(game)
        started = time.process_time()
        engine = move_engine(cw, compiled=True)
        board, rack = midgame_cases(cw, game)[0][0]
        engine.search_cells(engine.cells(board), engine.rack_counts(rack, board))
        rows.append(row(f"{game}: engine set-up (+ compile or numba cache)",
                        time.process_time() - started, "s"))
        rows += position_rows(cw, engine, game)
        rows += games_rows(cw, engine, game)
    return rows
