"""Web crossword benchmarks: the JavaScript move finder (clients/js/crossword.js) in headless
Chromium on the real artifacts, beside Python's compiled engine in the same run.

- Speed: every move of 20 midgame self-play positions per game (boards of 10 to 80 tiles, full
  racks) with 0, 1 and 2 blanks: game.moves(board, rack) in the page against
  lookup.crossword_game(id).moves(board, rack) (numba), both in wall-clock ms, each position's
  time the median of RUNS; the median and p95 over the positions. The budgets (issue 33): a
  median of 5 / 20 / 60 ms; scrabble-solver's figures (GADDAG in typed arrays, TWL06, one fast
  desktop) are in the notes. Also by equity (scrabble-en) and Erudit's greedy turn.
- Bytes: what the scrabble-en move-finder page loads, gzipped (the .gz data files as they
  are), with and without the leave pack (budgets 1.5 MB and 0.5 MB), against the same page
  with the Python runtime's files (the GADDAG, the int16 leave table); the word graph and the
  leave table in each form measured (docs/FORMATS.md, "The move finder's data").
- Load: the game (rules and DAWG) and the leave pack in the page, and the page opened on a
  position to its first list on screen (budget 1 s; cold cache, local server).
"""

import gzip
import math
import statistics
import sys
import time
from functools import partial
from pathlib import Path
from urllib.parse import quote

import msgpack
import numpy as np

import common

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))

import lookup  # noqa: E402
from browser_support import Site  # noqa: E402
from crossword_support import GAMES, blank_variant, selfplay_positions  # noqa: E402
from lookup.errors import BadInput  # noqa: E402
from lookup.paths import artifacts_dir  # noqa: E402
from pipeline.build_web import PAGE_FILES  # noqa: E402
from pipeline.build_web_leaves import PACK_SUFFIX, pack_values  # noqa: E402

POSITIONS = 20
RUNS = 3
LOADS = 5
BUDGET_MS = {0: 5, 1: 20, 2: 60}
# scrabble-solver (issue 33's anchors): every play of a midgame board, GADDAG, TWL06, ms.
SCRABBLE_SOLVER_MS = {0: 2, 1: 11, 2: 39}
SCRABBLE_SOLVER_PLAYS = {0: 1559, 1: 7546, 2: 25659}
BUDGET_BYTES = 1_500_000
BUDGET_BYTES_WITHOUT_LEAVES = 500_000
FIRST_LIST_BUDGET_MS = 1000
# Quantising the leave values to this many 1/256 steps (1/16 point): measured, not shipped.
QUANTUM = 16

row = partial(common.row, "web-crossword")


def midgame_cases(cw, game: str) -> dict:
    """{blanks: [(board text, rack)]}: POSITIONS midgame positions (boards of 10 to 80 tiles,
    full racks) for each number of blanks. A board whose blanks leave the set too few for the
    rack's has them as real tiles instead, where the set has those (same words, same squares).
    """
    cases = {0: [], 1: [], 2: []}
    for position in selfplay_positions(game):
        board = cw.parse_board(position["board"])
        tiles = sum(1 for code in board.cells if code)
        if not 10 <= tiles <= 80 or len(position["rack"]) < cw.rules.rack_size:
            continue
        for blanks, found in cases.items():
            text = position["board"]
            rack = blank_variant(cw, board, position["rack"], blanks)
            if rack is None:
                try:
                    text = position["board"].lower()
                    lowered = cw.parse_board(text)
                    rack = blank_variant(cw, lowered, position["rack"], blanks)
                    if rack is not None:
                        cw.rack_codes(rack, lowered)
                except BadInput:  # more of a letter than the set has
                    continue
            if rack is not None and len(found) < POSITIONS:
                found.append((text, rack))
    return cases


def p95(values: list) -> float:
    """The nearest-rank 95th percentile."""
    ordered = sorted(values)
    return ordered[math.ceil(0.95 * len(ordered)) - 1]


TIMES = """
async (arg) => {
  const cw = await import('./js/crossword.js');
  let started = performance.now();
  const game = await cw.loadCrosswordGame('data/', arg.game, {leaves: false});
  const load = performance.now() - started;
  started = performance.now();
  await game.loadLeaves();
  const leaves = performance.now() - started;
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const time = (f) => {
    const runs = [];
    let count = 0;
    for (let k = 0; k < arg.runs; k++) {
      const t = performance.now();
      count = f();
      runs.push(performance.now() - t);
    }
    return [median(runs), count];
  };
  const out = {load, leaves, score: {}, equity: {}, greedy: {}};
  for (const [blanks, cases] of Object.entries(arg.cases)) {
    const positions = cases.map(([board, rack]) => [game.parseBoard(board), rack]);
    for (const [board, rack] of positions) game.moves(board, rack);  // the JIT warmed up
    out.score[blanks] = positions.map(([board, rack]) =>
      time(() => game.moves(board, rack).length));
    if (arg.equity) {
      out.equity[blanks] = positions.map(([board, rack]) =>
        time(() => game.moves(board, rack, {by: 'equity'}).length));
    }
    if (arg.greedy) {
      out.greedy[blanks] = positions.map(([board, rack]) =>
        time(() => { game.bestTurn(board, rack, {method: 'greedy'}); return 1; }));
    }
  }
  return out;
}
"""


def python_times(function, cases) -> list[float]:
    """Per case, the median of RUNS wall-clock ms of function(board, rack)."""
    times = []
    for board, rack in cases:
        runs = []
        for _ in range(RUNS):
            started = time.perf_counter()
            function(board, rack)
            runs.append((time.perf_counter() - started) * 1e3)
        times.append(statistics.median(runs))
    return times


def speed_rows(browser, site: Path) -> list[dict]:
    rows = []
    opened = Site(browser, site)
    opened.open("index.html")
    for game in GAMES:
        cw = lookup.crossword_game(game)
        cases = midgame_cases(cw, game)
        erudit = cw.rules.placement == "multi"
        got = opened.page.evaluate(TIMES, {"game": game, "runs": RUNS, "cases": cases,
                                           "equity": game == "scrabble-en", "greedy": erudit})
        parsed = {blanks: [(cw.parse_board(b), r) for b, r in found]
                  for blanks, found in cases.items()}
        for board, rack in parsed[2][:3]:
            cw.moves(board, rack)  # numba compiled before the clock runs
        rows.append(row(f"{game}: load the game in the page (rules, DAWG)", round(got["load"], 1),
                        "ms", note="loadCrosswordGame: fetch, inflate, decode the DAWG, "
                        "transition table; leave pack fetched and decoded after it in "
                        f"{got['leaves']:,.0f} ms"))
        for blanks in (0, 1, 2):
            rack = f"{blanks} blank" + ("" if blanks == 1 else "s")
            js = [ms for ms, _count in got["score"][str(blanks)]]
            counts = [count for _ms, count in got["score"][str(blanks)]]
            py = python_times(cw.moves, parsed[blanks])
            note = (f"p95 {p95(js):.1f} ms (Python {p95(py):.1f}); {len(js)} positions, median "
                    f"{statistics.median(counts):,.0f} moves (max {max(counts):,}); budget "
                    f"{BUDGET_MS[blanks]} ms")
            if game == "scrabble-en":
                note += (f"; scrabble-solver {SCRABBLE_SOLVER_MS[blanks]} ms for "
                         f"{SCRABBLE_SOLVER_PLAYS[blanks]:,} plays (GADDAG, TWL06, fast desktop)")
            rows.append(row(f"{game}: every move, {rack}, median", round(
                statistics.median(js), 2), "ms", "Python compiled engine (cw.moves)",
                round(statistics.median(py), 2), note))
            if got["equity"]:
                js = [ms for ms, _count in got["equity"][str(blanks)]]
                py = python_times(partial(cw.moves, by="equity"), parsed[blanks])
                rows.append(row(f"{game}: every move by equity, {rack}, median",
                                round(statistics.median(js), 2), "ms",
                                "Python cw.moves(by='equity')", round(statistics.median(py), 2),
                                f"p95 {p95(js):.1f} ms (Python {p95(py):.1f})"))
            if got["greedy"]:
                js = [ms for ms, _count in got["greedy"][str(blanks)]]
                py = python_times(partial(cw.best_turn, method="greedy"), parsed[blanks])
                rows.append(row(f"{game}: greedy turn, {rack}, median",
                                round(statistics.median(js), 2), "ms",
                                "Python cw.best_turn(method='greedy')",
                                round(statistics.median(py), 2),
                                f"p95 {p95(js):.1f} ms (Python {p95(py):.1f})"))
    opened.close()
    return rows


def shipped_bytes(path: Path) -> int:
    """What fetching a file costs: a .gz file as it is, any other gzipped (level 9)."""
    content = path.read_bytes()
    return len(content) if path.name.endswith(".gz") else len(gzip.compress(content, 9, mtime=0))


def size_rows(site: Path) -> list[dict]:
    artifacts = artifacts_dir()
    files = PAGE_FILES["moves"]
    pack = f"data/crossword/scrabble-en{PACK_SUFFIX}"
    sizes = {name: shipped_bytes(site / name) for name in files}
    gaddag = len(gzip.compress((artifacts / "lexicons/enable.gaddag").read_bytes(), 9, mtime=0))
    table = (artifacts / "leaves/scrabble-en.leaves").read_bytes()
    table_gz = len(gzip.compress(table, 9, mtime=0))
    total = sum(sizes.values())
    without = total - sizes[pack]
    python_files = without - sizes["data/enable.dawg.gz"] + gaddag
    rows = [
        row(f"moves page (scrabble-en), with the leave pack: {len(files)} files", total,
            "bytes gzipped", "the same with the Python runtime's GADDAG and int16 leave table",
            python_files + table_gz, f"budget {BUDGET_BYTES:,}; Woogles' analyser about "
            "6.5 MB gzipped (issue 33)"),
        row("moves page (scrabble-en), without the leave pack", without, "bytes gzipped",
            "the same with the GADDAG", python_files,
            f"budget {BUDGET_BYTES_WITHOUT_LEAVES:,}; ranking by score needs no more"),
        row("word graph: enable.dawg.gz (shipped)", sizes["data/enable.dawg.gz"], "bytes",
            "enable.gaddag gzipped", gaddag,
            f"raw {(artifacts / 'lexicons/enable.dawg').stat().st_size:,} and "
            f"{(artifacts / 'lexicons/enable.gaddag').stat().st_size:,}"),
    ]
    for game in GAMES:
        source = artifacts / f"leaves/{game}.leaves"
        header, data = msgpack.unpackb(source.read_bytes(), raw=False)
        values = np.frombuffer(data, dtype="<i2")
        quantised = np.round(values.astype(np.int64) / QUANTUM).astype(np.int64) * QUANTUM
        rows.append(row(
            f"{game}: leave pack (shipped, exact)",
            (site / f"data/crossword/{game}{PACK_SUFFIX}").stat().st_size, "bytes",
            "the int16 leave table gzipped", len(gzip.compress(data, 9, mtime=0)),
            f"{header['leaves']:,} leaves, raw {len(data):,}; values rounded to 1/16 point "
            f"would pack to {len(pack_values(header, quantised)):,} (not shipped: equities "
            "would differ from Python's)"))
    return rows


def first_list_rows(browser, site: Path) -> list[dict]:
    """The page opened on a scrabble-en midgame position until its first move is listed."""
    cw = lookup.crossword_game("scrabble-en")
    board_text, rack = midgame_cases(cw, "scrabble-en")[1][0]
    board = "/".join(board_text.splitlines())
    path = f"index.html#moves?game=scrabble-en&board={quote(board)}&rack={quote(rack)}&by=score"
    times = []
    for _ in range(LOADS):
        context = browser.new_context()  # a cold cache every run
        opened = Site(context, site)
        started = time.perf_counter()
        opened.open(path)
        opened.page.wait_for_function(
            "() => document.querySelectorAll('#move-list tr').length > 0")
        times.append((time.perf_counter() - started) * 1e3)
        opened.close()
        context.close()
    return [row("moves page: opened on a position to its first list on screen",
                round(statistics.median(times), 1), "ms",
                note=f"median of {LOADS}, cold cache, local server; budget "
                     f"{FIRST_LIST_BUDGET_MS:,} ms")]


def run() -> list[dict]:
    with common.web_site_and_browser() as (site, browser):
        return size_rows(site) + first_list_rows(browser, site) + speed_rows(browser, site)


if __name__ == "__main__":
    for r in run():
        print(r)
