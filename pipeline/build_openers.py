"""Build a game's opener table: how every allowed first guess splits the answers.

Reads `<game>.feedback.npy` (with its header and word lists); writes `<game>.openers.parquet`,
one row per allowed guess in guess-list order:

| column | type | meaning |
|---|---|---|
| guess | string | the word |
| groups | int32 | distinct feedback codes over all answers (the all-green group counts) |
| largest | int32 | answers in the largest group |
| expected_remaining | float64 | sum of size**2 / N: answers left on average after the guess |
| entropy | float64 | bits: -sum p log2 p with p = size / N |
| is_answer | bool | the guess is itself an answer |
| lower_bound | int32 | 3N - k - 2[is_answer], k = non-green groups: no tree with it costs less |

The runtime does not read this file (lookup computes the same figures from matrix rows); it is
for analysts (`wordpack opener` prints one row from the matrix).

Usage: wordpack-build openers artifacts/guessing/wordle-en.feedback.npy
       -o artifacts/guessing/wordle-en.openers.parquet
"""

from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from lookup.feedback import all_green, code_count, load_feedback
from lookup.formats import OPENERS_FORMAT, OPENERS_VERSION
from pipeline.atomic import atomic_output
from pipeline.provenance import record

# Guesses per bincount block: block * max(codes, answers) stays around 4 million.
COUNTER_BUDGET = 1 << 22


def group_sizes(codes: np.ndarray, ncodes: int) -> np.ndarray:
    """Group sizes per guess: int64[rows, ncodes] from codes [rows, answers] (blocked bincount)."""
    rows, answers = codes.shape
    out = np.empty((rows, ncodes), dtype=np.int64)
    block = max(1, COUNTER_BUDGET // max(ncodes, answers))
    for start in range(0, rows, block):
        part = np.asarray(codes[start:start + block], dtype=np.int64)
        offsets = np.arange(part.shape[0], dtype=np.int64)[:, None] * ncodes
        counts = np.bincount((part + offsets).ravel(), minlength=part.shape[0] * ncodes)
        out[start:start + part.shape[0]] = counts.reshape(part.shape[0], ncodes)
    return out


def split_stats(sizes: np.ndarray, total: int) -> dict[str, np.ndarray]:
    """groups, largest, expected_remaining and entropy from group sizes [rows, ncodes]."""
    p = sizes / total
    with np.errstate(divide="ignore", invalid="ignore"):
        entropy = -np.where(sizes > 0, p * np.log2(np.where(sizes > 0, p, 1.0)), 0.0).sum(axis=1)
    return {
        "groups": (sizes > 0).sum(axis=1).astype(np.int32),
        "largest": sizes.max(axis=1).astype(np.int32),
        "expected_remaining": (sizes * sizes).sum(axis=1) / total,
        "entropy": entropy + 0.0,  # + 0.0 turns -0.0 into 0.0
    }


def opener_table(npy_path) -> pa.Table:
    """The opener table of a built matrix (see the module docstring)."""
    matrix = load_feedback(npy_path)
    n_answers = len(matrix.answers)
    sizes = group_sizes(matrix.codes, code_count(matrix.length))
    stats = split_stats(sizes, n_answers)
    is_answer = np.arange(len(matrix.guesses)) < n_answers  # answers lead the guess list
    green_groups = (sizes[:, all_green(matrix.length)] > 0).astype(np.int32)
    lower_bound = 3 * n_answers - (stats["groups"] - green_groups) - 2 * is_answer
    return pa.table({
        "guess": pa.array(matrix.guesses, pa.string()),
        "groups": stats["groups"],
        "largest": stats["largest"],
        "expected_remaining": stats["expected_remaining"],
        "entropy": stats["entropy"],
        "is_answer": is_answer,
        "lower_bound": lower_bound.astype(np.int32),
    })


def build_openers(npy_path, output) -> pa.Table:
    """Write the opener table of `npy_path` to `output` (Parquet, deterministic bytes)."""
    table = opener_table(npy_path)
    output = Path(output)
    with atomic_output(output, "wb") as handle:
        pq.write_table(table, handle, compression="zstd")
    record(output, format=OPENERS_FORMAT, version=OPENERS_VERSION, inputs=[Path(npy_path)])
    return table
