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

The figures come from lookup/guessing/splits.py, as the runtime's ranking does from matrix rows; the
runtime does not read this file, which is for analysts (`wordpack opener` prints one row from
the matrix).

Usage: wordpack-build openers artifacts/guessing/wordle-en.feedback.npy
       -o artifacts/guessing/wordle-en.openers.parquet
"""

from pathlib import Path

import numpy as np
import pyarrow as pa

from lookup.formats import OPENERS_FORMAT, OPENERS_VERSION
from lookup.guessing.feedback import code_count, load_feedback
from lookup.guessing.splits import opener_lower_bounds, split_figures
from pipeline.atomic import atomic_output
from pipeline.provenance import record
from pipeline.sealed_parquet import sealed_parquet


def opener_table(npy_path) -> pa.Table:
    """The opener table of a built matrix (see the module docstring)."""
    matrix = load_feedback(npy_path)
    figures = split_figures(matrix.codes, code_count(matrix.length))
    is_answer = np.arange(len(matrix.guesses)) < len(matrix.answers)  # answers lead the list
    lower_bound = opener_lower_bounds(figures["non_green_groups"], len(matrix.answers))
    return pa.table({
        "guess": pa.array(matrix.guesses, pa.string()),
        "groups": figures["groups"].astype(np.int32),
        "largest": figures["largest"].astype(np.int32),
        "expected_remaining": figures["expected_remaining"],
        "entropy": figures["entropy"],
        "is_answer": is_answer,
        "lower_bound": lower_bound.astype(np.int32),
    })


def build_openers(npy_path, output) -> pa.Table:
    """Write the opener table of `npy_path` to `output` (Parquet, deterministic bytes)."""
    table = opener_table(npy_path)
    output = Path(output)
    table = table.replace_schema_metadata({"format": OPENERS_FORMAT,
                                           "version": str(OPENERS_VERSION)})
    with atomic_output(output, "wb") as handle:
        handle.write(sealed_parquet(table))
    record(output, format=OPENERS_FORMAT, version=OPENERS_VERSION, inputs=[Path(npy_path)])
    return table
