"""Look-ahead (lookup/simulate.py, lookup/endgame.py, lookup/sim_player.py) on scrabble-en,
compiled engine:

- Simulation: iterations per second (one iteration: every candidate played out over the
  same dealing), 10 candidates, 2 plies, on the midgame positions of bench_crossword.py.
  macondo: one 2-ply iteration over 10 candidates in 1.44 ms (Go).
- Endgames from greedy self-play (the turn the bag empties): nodes per second and median
  solve time of 4-, 6- and 8-ply searches (macondo: an 8-ply endgame in 1.19 s).
- Over ENDGAME_GAMES self-play endgames, the spread the solver gains over greedy play: the
  side to move finishes the game greedily, then again with the solver (ENDGAME_SECONDS per
  move), the opponent greedy both times (Maven: over 10 points per game).
- The simulating bot (MATCH_ITERATIONS iterations per move, the solver at the end) against
  the greedy bot over MATCH_PAIRS mirrored pairs (lookup/game_engine.mirrored_pair): win
  rate and mean spread. The equity bot is the goal's opponent (macondo: 63.4 % of 2,126
  games against its leave bot); the greedy bot stands in until `wordpack match` and leave
  tables are merged.
Times are CPU seconds of the process (time.process_time), except the solver's own budget.
"""

import statistics
import time

from bench_crossword import midgame_cases, timed

GAME = "scrabble-en"
SIM_POSITIONS = 10
SIM_ITERATIONS = 20
DEPTHS = (4, 6, 8)
DEPTH_POSITIONS = 5
ENDGAME_GAMES = 2000
ENDGAME_SECONDS = 2.0
MATCH_PAIRS = 1000
MATCH_ITERATIONS = 30


def row(what, value, unit, note=""):
    return {"area": "lookahead", "what": what, "value": value, "unit": unit, "baseline": "",
            "baseline_value": None, "ratio": None, "note": note}


def sim_rows(cw, engine) -> list[dict]:
    from lookup.simulate import simulate

    cases = midgame_cases(cw, GAME)[0][:SIM_POSITIONS]
    seconds = 0.0
    for board, rack in cases:
        spent, _rows = timed(simulate, engine, board, rack, candidates=10, plies=2,
                             iterations=SIM_ITERATIONS)
        seconds += spent
    iterations = SIM_ITERATIONS * len(cases)
    return [row("simulation, 10 candidates, 2 plies", iterations / seconds, "iterations/s",
                f"{len(cases)} midgame positions x {SIM_ITERATIONS} iterations (no pruning "
                "before 30); macondo 1.44 ms per iteration")]


def bag_empty_positions(engine, count: int) -> list:
    """(board, rack to move, other rack) when the bag empties in greedy games, seeds 0, 1..."""
    from lookup.game_engine import Game, greedy_player

    found = []
    seed = 0
    while len(found) < count:
        game = Game(engine, [greedy_player, greedy_player], seed)
        while game.bag and game.step():
            pass
        if not game.bag and game.racks[0] and game.racks[1]:
            seat = game.turn % 2
            found.append((game.board(), game.rack_text(seat), game.rack_text(1 - seat)))
        seed += 1
    return found


def depth_rows(engine) -> list[dict]:
    from lookup.endgame import solve_endgame

    rows = []
    positions = bag_empty_positions(engine, DEPTH_POSITIONS)
    for depth in DEPTHS:
        times, nodes, exact = [], 0, 0
        for board, rack, other in positions:
            started = time.process_time()
            result = solve_endgame(engine, board, rack, other, plies=depth)
            times.append(time.process_time() - started)
            nodes += result.nodes
            exact += result.exact
        rows.append(row(f"endgame {depth} plies, median solve", statistics.median(times), "s",
                        f"{len(positions)} endgames as the bag empties; {exact} solved to the "
                        "end within the depth; macondo 8 plies 1.19 s"))
        rows.append(row(f"endgame {depth} plies, nodes per second", nodes / sum(times),
                        "nodes/s"))
    return rows


def endgame_gain_rows(engine) -> list[dict]:
    from lookup.game_engine import Game, greedy_player
    from lookup.sim_player import SimPlayer

    solver = SimPlayer(endgame_seconds=ENDGAME_SECONDS)
    gains = []
    for board, rack, other in bag_empty_positions(engine, ENDGAME_GAMES):
        spreads = []
        for player in (greedy_player, solver):
            result = Game(engine, [player, greedy_player], bag="", racks=[rack, other],
                          board=board).run()
            spreads.append(result.spread(0))
        gains.append(spreads[1] - spreads[0])
    return [row("endgame solver over greedy play, mean spread gained",
                statistics.mean(gains), "points",
                f"{len(gains)} self-play endgames from the empty bag; solver better in "
                f"{sum(g > 0 for g in gains)}, worse in {sum(g < 0 for g in gains)} "
                f"({ENDGAME_SECONDS} s per move); Maven: over 10")]


def match_rows(engine) -> list[dict]:
    from lookup.game_engine import greedy_player, mirrored_pair
    from lookup.sim_player import SimPlayer

    bot = SimPlayer(iterations=MATCH_ITERATIONS, endgame_seconds=ENDGAME_SECONDS)
    spreads = []
    started = time.process_time()
    for seed in range(MATCH_PAIRS):
        first, second = mirrored_pair(engine, bot, greedy_player, seed)
        spreads += [first.spread(0), second.spread(1)]
    seconds = time.process_time() - started
    wins = sum(s > 0 for s in spreads) + 0.5 * sum(s == 0 for s in spreads)
    note = (f"{MATCH_PAIRS} mirrored pairs; 10 candidates, 2 plies, {MATCH_ITERATIONS} "
            f"iterations per move, endgames solved ({ENDGAME_SECONDS} s per move); "
            f"{seconds / len(spreads):.1f} s per game; opponent: greedy (module docstring)")
    return [row("simulating bot vs greedy bot, wins", 100 * wins / len(spreads), "%", note),
            row("simulating bot vs greedy bot, mean spread", statistics.mean(spreads),
                "points")]


def run() -> list[dict]:
    from lookup.crossword import crossword_game
    from lookup.engine import move_engine, numba_available

    if not numba_available():
        return [row("look-ahead", None, "", "numba is not installed: pip install wordpack[fast]")]
    cw = crossword_game(GAME)
    engine = move_engine(cw, compiled=True)
    return sim_rows(cw, engine) + depth_rows(engine) + endgame_gain_rows(engine) + \
        match_rows(engine)
