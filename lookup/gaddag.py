"""Loading GADDAG files (written by pipeline/build_gaddag.py) for move generation.

The file is a word graph (lookup/graph.py, docs/FORMATS.md) whose strings are Gordon's
reverse(prefix) ^ suffix forms; tile 0 is the separator `^`. Loading checks the packed
.gaddag's header and maps its runtime index (.gaddag.idx); the move generator walks the
index's `arcs` and `node_mask` directly.
"""

import functools
from pathlib import Path

from lookup.formats import GADDAG_MAGIC, require_file
from lookup.graph import GraphFile, read_graph


@functools.lru_cache(maxsize=None)
def load_gaddag(path) -> GraphFile:
    """Map and check a .gaddag file (cached per path).

    Raises:
        ArtifactMissing: no such file (the message names the make target).
        CorruptArtifact, UnsupportedFormat: the file cannot be trusted.
    """
    path = Path(path)
    require_file(path, f"artifacts/lexicons/{path.name}")
    return read_graph(path, GADDAG_MAGIC)
