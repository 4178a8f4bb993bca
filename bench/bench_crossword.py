"""Crossword move generation on the real lexicons, over fixed self-play midgame positions.

For each game: the committed self-play positions (tests/fixtures/crossword/selfplay-<game>.json)
with 15 to 75 tiles on the board, the first POSITIONS of them, each with its rack given 0, 1
and 2 blanks (letters dropped to make room; Erudit keeps its racks' own count of tiles).
Rows: median and 95th percentile time of `moves(board, rack)` (every legal move, scored and
sorted) on the compiled engine, against the pure-Python move generator that moves() runs
without numba (and ran in every case before the engine became its one path, the house issue),
moves per second, the same with top=10 (against all moves), and the GADDAG load (a memory map
and a header check: the move generator's node masks are stored in the file).
Baseline, measured in this run on the first BRUTE positions of each blank count: the
brute-force finder of the tests (tests/crossword_oracle.py: every line, start, length and word
that fits, cross words against a Python set, independent scoring). Times are CPU seconds of
the process (time.process_time).
"""

import statistics
import sys
from functools import partial
from pathlib import Path

import common
from common import timed

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))

GAMES = ("scrabble-en", "wordfeud-en", "wordfeud-nl", "erudit-ru")
POSITIONS = 20
BRUTE = 3
MIDGAME = (15, 75)

row = partial(common.row, "crossword")


def midgame_cases(cw, game: str) -> dict[int, list]:
    """{blanks: [(board, rack)]} over the first POSITIONS midgame positions."""
    from crossword_support import blank_variant, selfplay_positions

    found: dict[int, list] = {0: [], 1: [], 2: []}
    for position in selfplay_positions(game):
        board = cw.parse_board(position["board"])
        tiles = sum(1 for _ in board.tiles())
        if not MIDGAME[0] <= tiles <= MIDGAME[1] or len(position["rack"]) < cw.rules.rack_size:
            continue
        for blanks in found:
            rack = blank_variant(cw, board, position["rack"], blanks)
            if rack is not None and len(found[blanks]) < POSITIONS:
                found[blanks].append((board, rack))
        if all(len(cases) >= POSITIONS for cases in found.values()):
            break
    return found


def p95(values):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def run() -> list[dict]:
    from crossword_oracle import WordIndex, brute_force_moves, grid_of
    from crossword_support import lexicon_alphabet
    from lookup.crossword.game import CrosswordGame, crossword_game
    from lookup.crossword.lexicon import lexicon_tables
    from lookup.gaddag import load_gaddag
    from lookup.paths import artifacts_dir

    rows = []
    loaded = set()
    for game in GAMES:
        cw = crossword_game(game)
        lexicon = cw.rules.lexicon
        path = artifacts_dir() / "lexicons" / f"{lexicon}.gaddag"
        if lexicon not in loaded:
            loaded.add(lexicon)
            load_seconds, _graph = timed(load_gaddag, path)
            tables_seconds, _tables = timed(lexicon_tables, str(path))
            rows.append(row(f"load {lexicon}.gaddag for move generation",
                            (load_seconds + tables_seconds) * 1000, "ms"))
        words = None
        plain = CrosswordGame(cw.rules, cw.tables(), compiled=False)
        for blanks, cases in midgame_cases(cw, game).items():
            times, counts, top_times, plain_times = [], [], [], []
            cw.moves(*cases[0])  # numba loads (or compiles) the engine on its first use
            for board, rack in cases:
                seconds, moves = timed(cw.moves, board, rack)
                times.append(seconds)
                counts.append(len(moves))
                top_times.append(timed(cw.moves, board, rack, top=10)[0])
                plain_times.append(timed(plain.moves, board, rack)[0])
            if words is None:
                text = (artifacts_dir() / "lexicons" / f"{lexicon}.txt").read_text("utf-8")
                words = WordIndex(text.split(), lexicon_alphabet(lexicon))
            brute_times = [timed(brute_force_moves, cw.rules, grid_of(board), rack, words)[0]
                           for board, rack in cases[:BRUTE]]
            median = statistics.median(times) * 1000
            label = f"{game}: all moves, {blanks} blank{'s' if blanks != 1 else ''}"
            rows.append(row(f"{label}, median", median, "ms",
                            "pure Python (no numba; every case before)",
                            statistics.median(plain_times) * 1000,
                            note=f"{len(cases)} midgame positions, median "
                                 f"{statistics.median(counts):.0f} moves"))
            rows.append(row(f"{label}, p95", p95(times) * 1000, "ms"))
            rows.append(row(f"{label}, moves per second", sum(counts) / sum(times), "moves/s"))
            rows.append(row(f"{label}, first {len(brute_times)} positions", sum(times[:BRUTE])
                            * 1000, "ms", "brute force (tests)", sum(brute_times) * 1000))
            rows.append(row(f"{label}, top 10, median", statistics.median(top_times) * 1000, "ms",
                            "all moves", median))
    return rows
