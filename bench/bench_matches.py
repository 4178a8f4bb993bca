"""Long matches (`make bench-matches`, hours): the equity bot against greedy on every game
with a leave table, and the learned table against the per-tile model on scrabble-en, in
mirrored pairs (lookup/play/match.py). Goals on scrabble-en: at least 65 % and +35 points per game
against greedy over 10,000 pairs (macondo's leave bot: 64.5 %, +34.9), and at least 53 %
against the per-tile model. On erudit-ru also the turn bots (multi-word turns, issue 34): at least
65 % for turn-equity against the single-line equity bot and 58 % against turn-greedy.

Pairs per match: MATCH_PAIRS (scrabble-en) and MATCH_PAIRS_OTHER (the other games), processes:
MATCH_WORKERS; the deals come from seed MATCH_SEED. MATCH_GAMES (space-separated ids) plays
only those games' matches; each game's rows are their own area ("matches <game>"), so a run
replaces only the rows of the games it played.
"""

import os
import time

from bench_crossword import GAMES

LONG = True
PAIRS = int(os.environ.get("MATCH_PAIRS", "10000"))
PAIRS_OTHER = int(os.environ.get("MATCH_PAIRS_OTHER", "2000"))
WORKERS = int(os.environ.get("MATCH_WORKERS", "2"))
SEED = int(os.environ.get("MATCH_SEED", "1"))
MATCH_GAMES = os.environ.get("MATCH_GAMES", " ".join(GAMES)).split()


def match_row(game, a, b, pairs) -> dict:
    from lookup.play.match import play_match

    started = time.perf_counter()
    result = play_match(game, a, b, pairs, SEED, WORKERS)
    low, high = result.interval()
    note = (f"{pairs:,} mirrored pairs, seed {SEED}: W/D/L {result.wins}/{result.draws}/"
            f"{result.losses}, 95 % interval {100 * low:.1f}-{100 * high:.1f} %, "
            f"mean spread {result.mean_spread():+.1f}, points per move "
            f"{result.points_per_move(0):.2f} vs {result.points_per_move(1):.2f}; "
            f"{time.perf_counter() - started:.0f} s wall, {WORKERS} "
            f"process{'es' if WORKERS != 1 else ''}")
    return {"area": f"matches {game}", "what": f"{game}: {a} vs {b}, win rate",
            "value": 100 * result.win_rate(), "unit": "%", "baseline": "", "baseline_value":
            None, "ratio": None, "note": note}


def run() -> list[dict]:
    from lookup.crossword.leaves import leaves_path

    rows = []
    unknown = sorted(set(MATCH_GAMES) - set(GAMES))
    if unknown:
        raise SystemExit(f"MATCH_GAMES: unknown games {', '.join(unknown)}; the games are "
                         f"{', '.join(GAMES)}")
    for game in [g for g in GAMES if g in MATCH_GAMES]:
        if not leaves_path(game).is_file():
            rows.append({"area": f"matches {game}", "what": f"{game}: equity vs greedy",
                         "value": None, "unit": "", "note": "no leave table: make leaves"})
            continue
        pairs = PAIRS if game == "scrabble-en" else PAIRS_OTHER
        rows.append(match_row(game, "equity", "greedy", pairs))
        if game == "scrabble-en":
            rows.append(match_row(game, "equity", "tile", pairs))
        if game == "erudit-ru":
            rows.append(match_row(game, "turn-equity", "equity", pairs))
            rows.append(match_row(game, "turn-equity", "turn-greedy", pairs))
    return rows
