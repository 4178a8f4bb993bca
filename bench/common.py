"""Helpers every bench module shares: the result row bench/run.py prints, the timers, and the
static site in a headless browser.

bench/run.py puts bench/ on sys.path, so a module imports them as
`from common import row, timed, median_seconds`. A module that writes one area binds it once:
`row = functools.partial(common.row, "crossword")`.
"""

import contextlib
import statistics
import tempfile
import time
from pathlib import Path


def row(area, what, value, unit, baseline="", baseline_value=None, note="", *,
        higher_is_better=False) -> dict:
    """A result row of bench/run.py's table.

    Args:
        area: the row's area (bench/run.py replaces an area's rows as a whole).
        what: what was measured.
        value: the measurement; None where nothing could be measured.
        unit: the unit of `value` (and of `baseline_value`).
        baseline: what the baseline is, "" without one.
        baseline_value: the baseline's measurement in the same run, None without one.
        note: anything the reader needs to weigh the row.
        higher_is_better: `value` is a rate or a score, so the ratio is value / baseline_value;
            else it is a time or a size, and the ratio baseline_value / value.

    Returns:
        The row: area, what, value, unit, baseline, baseline_value, ratio (how many times better
        `value` does than the baseline; None unless both are nonzero) and note.
    """
    ratio = None
    if baseline_value and value:
        ratio = value / baseline_value if higher_is_better else baseline_value / value
    return {"area": area, "what": what, "value": value, "unit": unit, "baseline": baseline,
            "baseline_value": baseline_value, "ratio": ratio, "note": note}


def timed(function, *args, **kwargs) -> tuple:
    """Time one call in CPU seconds of this process (time.process_time): the machine is
    shared with other jobs, whose turns wall time would count too, and nothing timed this way
    waits on I/O.

    Args:
        function: what to call.
        *args: its positional arguments.
        **kwargs: its keyword arguments.

    Returns:
        (seconds, what the call returned).
    """
    started = time.process_time()
    result = function(*args, **kwargs)
    return time.process_time() - started, result


def _wall_seconds(fn, *args) -> float:
    """The wall-clock seconds (time.perf_counter) of one call fn(*args)."""
    started = time.perf_counter()
    fn(*args)
    return time.perf_counter() - started


def median_seconds(fn, repeat) -> float:
    """The median wall-clock seconds (time.perf_counter) of `repeat` calls fn().

    Args:
        fn: what to call, with no arguments.
        repeat: how many calls; 1 times a single call (a first call, or one too slow to repeat).

    Returns:
        The median of the calls' seconds.
    """
    return statistics.median(_wall_seconds(fn) for _ in range(repeat))


def median_seconds_each(fn, items) -> float:
    """The median wall-clock seconds (time.perf_counter) of fn(item) over items.

    Args:
        fn: what to call, with one argument.
        items: the arguments, one call each.

    Returns:
        The median of the calls' seconds.
    """
    return statistics.median(_wall_seconds(fn, item) for item in items)


def median_ms(seconds) -> float:
    """The median of times measured in seconds, in milliseconds.

    Args:
        seconds: the times, in seconds (as `timed` gives them).

    Returns:
        Their median times 1000.
    """
    return statistics.median(seconds) * 1000


@contextlib.contextmanager
def web_site_and_browser():
    """Yield (site, browser): the static site built from the artifacts into a temporary folder
    (pipeline/build_web.py, as `make web` does), and a headless Chromium (the system one).
    """
    from playwright.sync_api import sync_playwright

    from browser_support import chromium_path
    from lookup.paths import artifacts_dir
    from pipeline.build_web import build_web

    with tempfile.TemporaryDirectory() as scratch:
        site = Path(scratch) / "web"
        build_web(artifacts_dir(), site)
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium_path(),
                                                 args=["--no-sandbox"])
            try:
                yield site, browser
            finally:
                browser.close()
