"""Web benchmarks: the site of `make web` in headless Chromium (the system browser, Playwright).

Bytes each page loads (raw, gzip, brotli), page load to the first answer, and the JavaScript
readers' membership and word-finder times beside the Python runtime's on the same queries.
Screenshots of both pages go to bench/web-words.png and bench/web-guess.png.
"""

import gzip
import json
import random
import statistics
import sys
import time
from functools import partial
from pathlib import Path

import brotli

import common

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))

import lookup  # noqa: E402
from bench_lexicon import per_call  # noqa: E402
from browser_support import Site  # noqa: E402

RUNS = 5
PAGES = {"words": "index.html?letters=retinas%3F&minLength=6", "guess": "index.html?game=wordle-en"}
FIRST_ANSWER = {"words": "#found", "guess": "#next-guess"}


row = partial(common.row, "web")


def size_rows(site: Path, manifest: dict) -> list[dict]:
    rows = []
    for page, loads in manifest["pages"].items():
        contents = [(site / name).read_bytes() for name in loads["files"]]
        raw = sum(map(len, contents))
        gz = sum(len(gzip.compress(c, 9)) for c in contents)
        br = sum(len(brotli.compress(c, quality=11)) for c in contents)
        rows.append(row(f"{page} page: bytes loaded ({len(contents)} files)", raw, "bytes",
                        "with HTTP gzip", gz, f"brotli {br:,}; budget of the words page 600,000"))
    dawg = (site / "data/enable.dawg").read_bytes()
    rows.append(row("enable.dawg.gz (what the word finder fetches)",
                    len((site / "data/enable.dawg.gz").read_bytes()), "bytes", "enable.dawg",
                    len(dawg), f"brotli of the .dawg {len(brotli.compress(dawg, quality=11)):,}"))
    return rows


def load_rows(browser, site: Path) -> list[dict]:
    rows = []
    for page, path in PAGES.items():
        times = []
        fetched = 0
        for run_number in range(RUNS):
            context = browser.new_context()  # a cold cache every run
            opened = Site(context, site)
            started = time.perf_counter()
            opened.open(path)
            opened.wait_text(FIRST_ANSWER[page])
            times.append(time.perf_counter() - started)
            fetched = opened.bytes_fetched()
            if run_number == RUNS - 1:
                if page == "guess":  # salet, its a yellow: "01000"
                    opened.page.fill("#guess-input", "salet")
                    opened.page.press("#guess-input", "Enter")
                    opened.page.locator("#rows .tile").nth(1).click()
                    opened.wait_text("#answers-left", "102 answers left")
                opened.page.screenshot(path=str(HERE / f"web-{page}.png"))
            opened.close()
            context.close()
        rows.append(row(f"{page} page: load to first answer", round(statistics.median(times)
                        * 1e3, 1), "ms", note=f"median of {RUNS}, cold cache, local server"))
        rows.append(row(f"{page} page: bytes fetched, measured in the page", fetched, "bytes",
                        note="Resource Timing decodedBodySize, document included"))
    return rows


QUERY_TIMES = """
  const e = await lex.loadLexicon("data/enable.dawg.gz");
  const time = (f, items, repeat) => {
    let best = Infinity;
    for (let r = 0; r < repeat; r++) {
      const t = performance.now();
      for (const item of items) f(item);
      best = Math.min(best, (performance.now() - t) / items.length);
    }
    return best;
  };
  return {has: time((w) => e.has(w), arg.probes, 5),
          unscramble: time((r) => e.unscramble(r, {minLength: 2}), arg.racks, 3)};
"""


def query_rows(browser, site: Path) -> list[dict]:
    lex = lookup.lexicon("enable")
    rng = random.Random(5)
    words = list(lex)
    probes = rng.sample(words, 5000) + ["".join(rng.sample("abcdefghij", 6)) for _ in range(5000)]
    racks = ["".join(rng.sample(w, min(7, len(w)))) + "?" for w in rng.sample(words, 200)]
    opened = Site(browser, site)
    opened.open("index.html")
    got = opened.run(QUERY_TIMES, {"probes": probes, "racks": racks})
    opened.close()
    py_has = per_call(lambda w: w in lex, probes, 5)
    py_unscramble = per_call(lambda r: lex.unscramble(r, min_len=2), racks, 3)
    return [
        row("JS lex.has (ENABLE, 10,000 probes)", round(got["has"] * 1e3, 3), "us/call",
            "Python `in`", round(py_has * 1e6, 3)),
        row("JS lex.unscramble (ENABLE, 7 letters + ?)", round(got["unscramble"], 2), "ms/call",
            "Python unscramble", round(py_unscramble * 1e3, 2), "200 racks"),
    ]


def run() -> list[dict]:
    with common.web_site_and_browser() as (site, browser):
        manifest = json.loads((site / "web-manifest.json").read_text())
        return size_rows(site, manifest) + load_rows(browser, site) + query_rows(browser, site)


if __name__ == "__main__":
    for r in run():
        print(r)
