"""Run every bench/bench_*.py, print one table and write it to bench/results.md.

Each module exposes run() -> list of rows with keys: area, what, value, unit, baseline,
baseline_value, ratio, note. Baselines are measured in the same run, on the same machine.
A module with LONG = True (hours: bench_matches.py) runs only when named.
Usage: .venv/bin/python bench/run.py [AREA ...]

The rows of areas this run did not measure stay in bench/results.md as they were; an area
measured again replaces its rows in place.
"""

import importlib
import os
import platform
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
os.environ.setdefault("TQDM_DISABLE", "1")  # progress bars would interleave with the table
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))


def fmt(value) -> str:
    if value is None or value == "":
        return ""
    if isinstance(value, float):
        if value >= 100:
            return f"{value:,.0f}"
        if value >= 1:
            return f"{value:.2f}"
        return f"{value:.3g}"
    if isinstance(value, int):
        return f"{value:,}"
    return str(value)


def kept_rows(path: Path, measured: dict) -> list[str]:
    """The table rows of `path`, each measured area's rows replaced by `measured[area]`."""
    rows, placed = [], set()
    old = path.read_text().splitlines() if path.is_file() else []
    for line in old:
        cells = line.split(" | ")
        if not line.startswith("| ") or line.startswith(("| area ", "|---")) or len(cells) < 2:
            continue
        area = cells[0].removeprefix("| ")
        if area not in measured:
            rows.append(line)
        elif area not in placed:
            rows += measured[area]
            placed.add(area)
    for area, lines in measured.items():
        if area not in placed:
            rows += lines
    return rows


def main(areas: list[str]) -> None:
    modules = sorted(p.stem for p in HERE.glob("bench_*.py"))
    if areas:
        modules = [m for m in modules if m.removeprefix("bench_") in areas]
    measured: dict = {}
    lines = [
        "# wordpack benchmarks",
        "",
        f"Machine: {platform.machine()}, Python {platform.python_version()}, "
        f"last written {time.strftime('%Y-%m-%d')}. Written by `make bench` and `make "
        "bench-matches` (bench/run.py); an area's rows come from one run, and each baseline "
        "was measured in the same run as its row.",
        "",
        "| area | measurement | value | unit | baseline | baseline value | ratio | note |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for name in modules:
        module = importlib.import_module(name)
        if getattr(module, "LONG", False) and name.removeprefix("bench_") not in areas:
            continue
        started = time.perf_counter()
        for row in module.run():
            line = "| " + " | ".join(fmt(row.get(k)) for k in (
                "area", "what", "value", "unit", "baseline", "baseline_value", "ratio", "note"))
            measured.setdefault(row["area"], []).append(line + " |")
            print(line, flush=True)
        print(f"# {name}: {time.perf_counter() - started:.0f} s", file=sys.stderr)
    lines += kept_rows(HERE / "results.md", measured)
    (HERE / "results.md").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main(sys.argv[1:])
