"""Atomic file output: an interrupted build never leaves a file that looks complete."""

import contextlib
import os
from pathlib import Path


@contextlib.contextmanager
def atomic_output(path, mode="wb"):
    """Open `path.tmp` for writing and rename it to `path` only once the block succeeds."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    try:
        with open(tmp, mode) as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    finally:
        if tmp.exists():
            tmp.unlink()
