"""Leave tables and equity (lookup/crossword/leaves.py, lookup/crossword/equity.py) on the built
artifacts.

For each game with a leave table: its bytes and load time, one lookup (cw.leave, and a batch
of 128 keys: one rack's sub-leaves), moves(by="equity") against moves() on midgame positions,
and equity self-play games per second against greedy ones (the compiled engine, one core); for
Erudit also the turn-equity bot's (multi-word turns).
Times are CPU seconds of the process (time.process_time).
"""

import statistics
from functools import partial

import common
from bench_crossword import GAMES, midgame_cases
from common import timed

SELFPLAY_GAMES = 200  # enough games that one slow game does not move the rate
LOOKUPS = 20000

row = partial(common.row, "equity")


def table_rows(cw, game) -> list[dict]:
    from lookup.crossword.leaves import leaves_path, read_leaves

    path = leaves_path(game)
    seconds, table = timed(read_leaves, path, cw.rules)
    cw._leaves = table
    leaves = [table.keys[k] for k in range(0, len(table), len(table) // 128)][:128]
    # A blank and the game's five most plentiful letters (?eirst-like in every language).
    sample = "?" + "".join(sorted(cw.rules.counts, key=lambda ch: -cw.rules.counts[ch])[:5])
    lookup_seconds, _ = timed(lambda: [cw.leave(sample) for _ in range(LOOKUPS)])
    batch_seconds, _ = timed(lambda: [table.lookup(leaves) for _ in range(LOOKUPS // 10)])
    recipe = table.header["recipe"]
    return [
        row(f"{game}: leave table", path.stat().st_size, "bytes",
            note=f"{len(table):,} leaves, int16; trained on {recipe['games_per_iteration']:,} "
                 f"games x {recipe['iterations']} iterations"),
        row(f"{game}: load the leave table", seconds, "s", note="keys enumerated from the rules"),
        row(f"{game}: cw.leave('{sample}')", lookup_seconds / LOOKUPS * 1e6, "us"),
        row(f"{game}: 128 leaves in one lookup", batch_seconds / (LOOKUPS // 10) * 1e6, "us",
            note="one rack's sub-leaves, as the equity bot asks"),
    ]


def moves_rows(cw, game) -> list[dict]:
    by_equity, by_score = [], []
    for board, rack in midgame_cases(cw, game)[1]:
        by_score.append(timed(cw.moves, board, rack)[0])
        by_equity.append(timed(cw.moves, board, rack, by="equity")[0])
    return [row(f"{game}: moves(by='equity'), 1 blank, median",
                statistics.median(by_equity) * 1000, "ms", "moves()",
                statistics.median(by_score) * 1000, f"{len(by_equity)} midgame positions")]


def games_rows(cw, game) -> list[dict]:
    from lookup.crossword.engine import move_engine
    from lookup.play.game import play_game
    from lookup.play.players import EquityPlayer, TurnEquityPlayer, greedy_player

    engine = move_engine(cw, True)
    player = EquityPlayer(cw.leaves())
    play_game(engine, [player, player], 0)  # compile or load the kernel
    seconds, _ = timed(lambda: [play_game(engine, [player, player], s)
                                for s in range(SELFPLAY_GAMES)])
    greedy, _ = timed(lambda: [play_game(engine, [greedy_player, greedy_player], s)
                               for s in range(SELFPLAY_GAMES)])
    rows = [row(f"{game}: equity self-play", SELFPLAY_GAMES / seconds, "games/s",
                "greedy self-play", SELFPLAY_GAMES / greedy,
                f"{SELFPLAY_GAMES} games, compiled engine, one core", higher_is_better=True)]
    if cw.rules.placement == "multi":  # Erudit: the bot of multi-word turns (issue 34: >= 10)
        turns = TurnEquityPlayer(cw.leaves())
        turn_seconds, _ = timed(lambda: [play_game(engine, [turns, turns], s)
                                         for s in range(SELFPLAY_GAMES)])
        rows.append(row(f"{game}: turn-equity self-play", SELFPLAY_GAMES / turn_seconds,
                        "games/s", "equity self-play", SELFPLAY_GAMES / seconds,
                        f"{SELFPLAY_GAMES} games, compiled engine, one core",
                        higher_is_better=True))
    return rows


def run() -> list[dict]:
    from lookup.crossword.engine import numba_available
    from lookup.crossword.game import crossword_game
    from lookup.crossword.leaves import leaves_path

    rows = []
    for game in GAMES:
        cw = crossword_game(game)
        if not leaves_path(game).is_file():
            rows.append(row(f"{game}: leave table", None, "", note="not built: make leaves"))
            continue
        rows += table_rows(cw, game)
        rows += moves_rows(cw, game)
        if numba_available():
            rows += games_rows(cw, game)
    return rows
