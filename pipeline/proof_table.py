"""The opener-proof table (`<game>.proof.parquet`, docs/FORMATS.md "Opener proof").

pipeline/prove_openers.py writes it; the tree build reads it to take the proven opener; the
Makefile's reprove targets compare two of them. Its recipe (how it was made) is
`<game>.proof.json` beside it.
"""

import json
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc

from lookup.errors import BadInput
from lookup.formats import (
    PROOF_EARLIEST_SUPPORTED_VERSION,
    PROOF_FORMAT,
    PROOF_VERSION,
    check_version,
    corrupt,
)
from pipeline.sealed_parquet import read_sealed_parquet

SCHEMA = pa.schema([
    ("opener", pa.string()), ("mode", pa.string()), ("status", pa.string()),
    ("total", pa.int32()), ("max_depth", pa.int8()), ("seconds", pa.float64()),
])


def recipe_path(table_path) -> Path:
    """`<id>.proof.json` beside `<id>.proof.parquet`."""
    table_path = Path(table_path)
    return table_path.with_name(table_path.name.removesuffix(".parquet") + ".json")


def prove_target(path) -> str:
    """The make target that proves the table `<game>.proof.parquet` again: `prove-<game>`."""
    return f"prove-{Path(path).name.removesuffix('.proof.parquet')}"


def read_proof(path, answers_sha256: str, guesses_sha256: str,
               make_target: str = "") -> tuple[pa.Table, dict]:
    """A proof table and its per-mode settings, checked against the game's word lists.

    Args:
        path: the table.
        answers_sha256, guesses_sha256: the game's word lists.
        make_target: what rebuilds it (named in messages); default prove_target(path).

    Raises:
        CorruptArtifact: damaged (its seal does not match), or not an opener-proof table.
        UnsupportedFormat: a version this reader does not read.
        BadInput: a table built from other word lists.
    """
    path = Path(path)
    make_target = make_target or prove_target(path)
    table, meta = read_sealed_parquet(path, make_target)
    if meta.get("format") != PROOF_FORMAT or not meta.get("version", "").isdigit():
        raise corrupt(path, f"not an {PROOF_FORMAT} table (see docs/FORMATS.md)", make_target)
    check_version(path, int(meta["version"]), PROOF_EARLIEST_SUPPORTED_VERSION, PROOF_VERSION,
                  make_target)
    if not table.schema.equals(SCHEMA) or not {"answers_sha256", "guesses_sha256",
                                               "modes"} <= meta.keys():
        raise corrupt(path, f"not an {PROOF_FORMAT} table (see docs/FORMATS.md)", make_target)
    if (meta["answers_sha256"], meta["guesses_sha256"]) != (answers_sha256, guesses_sha256):
        raise BadInput(f"{path}: proved over other word lists than the game's; prove it again "
                       f"(`make {make_target}`) or delete the table")
    return table, json.loads(meta["modes"])


def proven_opener(table: pa.Table, mode: str, guesses: list[str]) -> str | None:
    """The best opener of `mode` when the table covers every allowed guess, else None.

    Best: least exact total, then least max depth, then guess-list order. Every bound row is
    above it by construction; it is checked anyway, as is that no guess lacks a row.
    """
    rows = table.filter(pc.equal(table.column("mode"), mode)).to_pylist()
    if len(rows) != len(guesses) or {row["opener"] for row in rows} != set(guesses):
        return None
    index = {word: i for i, word in enumerate(guesses)}
    best = min((row for row in rows if row["status"] == "exact"),
               key=lambda row: (row["total"], row["max_depth"], index[row["opener"]]),
               default=None)
    if best is None or any(row["status"] == "bound" and row["total"] <= best["total"]
                           for row in rows):
        return None
    return best["opener"]


def compare_proofs(expected, found) -> list[str]:
    """Differences between two proof tables, ignoring the timing column; [] when the same."""
    columns = [name for name in SCHEMA.names if name != "seconds"]
    a, b = (read_sealed_parquet(path, prove_target(path))[0].select(columns).to_pylist()
            for path in (expected, found))
    differences = [f"row {i}: {x} != {y}" for i, (x, y) in enumerate(zip(a, b)) if x != y]
    if len(a) != len(b):
        differences.append(f"{len(a)} rows != {len(b)} rows")
    return differences


def settings_of(path) -> dict:
    """The modes and margin a committed table was proved with (to rerun it the same way)."""
    modes = json.loads(read_sealed_parquet(path, prove_target(path))[1].get("modes", "{}"))
    if not modes:
        raise BadInput(f"{path}: not an {PROOF_FORMAT} table (see docs/FORMATS.md)")
    return {"modes": list(modes), "margin": next(iter(modes.values()))["margin"]}
