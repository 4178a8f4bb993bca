"""Run every bench/bench_*.py, print one table and write it to bench/results.md.

Each module exposes run() -> list of rows with keys: area, what, value, unit, baseline,
baseline_value, ratio, note. Baselines are measured in the same run, on the same machine.
Usage: .venv/bin/python bench/run.py [AREA ...]
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


def main(areas: list[str]) -> None:
    modules = sorted(p.stem for p in HERE.glob("bench_*.py"))
    if areas:
        modules = [m for m in modules if m.removeprefix("bench_") in areas]
    lines = [
        "# wordpack benchmarks",
        "",
        f"Machine: {platform.machine()}, Python {platform.python_version()}, "
        f"{time.strftime('%Y-%m-%d')}. Written by `make bench` (bench/run.py); every baseline was "
        "measured in the same run.",
        "",
        "| area | measurement | value | unit | baseline | baseline value | ratio | note |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for name in modules:
        started = time.perf_counter()
        rows = importlib.import_module(name).run()
        for row in rows:
            line = "| " + " | ".join(fmt(row.get(k)) for k in (
                "area", "what", "value", "unit", "baseline", "baseline_value", "ratio", "note"))
            lines.append(line + " |")
            print(line, flush=True)
        print(f"# {name}: {time.perf_counter() - started:.0f} s", file=sys.stderr)
    (HERE / "results.md").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main(sys.argv[1:])
