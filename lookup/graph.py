"""Reader of word-graph files (.trie, .dawg, .gaddag): header checks and the decoded arcs.

The writer is pipeline/build_dawg.py; the layout is in docs/FORMATS.md.
"""

import array
import hashlib
import mmap
import sys
from dataclasses import dataclass
from pathlib import Path

from lookup.formats import (
    ARC_CHILD_SHIFT,
    GRAPH_EARLIEST_SUPPORTED_VERSION,
    GRAPH_HEADER,
    GRAPH_VERSION,
    ROOT_POINTER_INDEX,
    check_version,
    corrupt,
)


@dataclass(frozen=True)
class GraphFile:
    """A validated word-graph file.

    Attributes:
        path: where it was read from.
        magic: the format's magic bytes.
        version: format version found in the header.
        input_sha256: hex sha256 of the normalized word list it was built from.
        alphabet: letters in tile order; tile k is alphabet[k - 1], tile 0 the GADDAG separator.
        word_count: number of words of the lexicon.
        node_count: number of nodes (arc lists).
        arcs: every arc as a Python int (u32), arc 0 being the root pointer. A list rather than
            the memory map because indexing a list is several times faster in the hot loops.
        root: index of the root node's first arc (0 when the lexicon is empty).
        size: file size in bytes.
    """

    path: Path
    magic: bytes
    version: int
    input_sha256: str
    alphabet: str
    word_count: int
    node_count: int
    arcs: list
    root: int
    size: int


def read_graph(path, magic: bytes, verify: bool = True) -> GraphFile:
    """Read and validate a word-graph file.

    Args:
        path: the file.
        magic: the magic bytes the caller expects (TRIE_MAGIC, DAWG_MAGIC or GADDAG_MAGIC).
        verify: check the payload sha256 (a few milliseconds for ENABLE's DAWG).

    Raises:
        CorruptArtifact: wrong magic, truncated, inconsistent header or checksum mismatch.
        UnsupportedFormat: a format version this reader cannot read.
    """
    path = Path(path)
    with open(path, "rb") as handle:
        size = handle.seek(0, 2)
        if size < GRAPH_HEADER.size:
            raise corrupt(path, f"truncated: {size} bytes is shorter than the header")
        buffer = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
    (found_magic, version, _flags, header_size, input_sha, payload_sha, word_count, node_count,
     arc_count, alphabet_len) = GRAPH_HEADER.unpack_from(buffer, 0)
    if found_magic != magic:
        raise corrupt(path, f"not a {magic.rstrip(bytes(1)).decode()} file (magic {found_magic!r})")
    check_version(path, version, GRAPH_EARLIEST_SUPPORTED_VERSION, GRAPH_VERSION)
    expected = header_size + 4 * arc_count
    if size != expected or header_size < GRAPH_HEADER.size + alphabet_len or arc_count < 1:
        raise corrupt(path, f"truncated or padded: {size} bytes, header says {expected}")
    if verify and hashlib.sha256(buffer[GRAPH_HEADER.size:]).digest() != payload_sha:
        raise corrupt(path, "checksum mismatch")
    try:
        alphabet = bytes(buffer[GRAPH_HEADER.size:GRAPH_HEADER.size + alphabet_len]).decode()
    except UnicodeDecodeError:
        raise corrupt(path, "alphabet is not UTF-8") from None
    # array rather than numpy: loading a lexicon then needs no numpy import (faster start-up).
    words = array.array("I")
    assert words.itemsize == 4
    words.frombytes(buffer[header_size:])
    if sys.byteorder == "big":
        words.byteswap()
    arcs = words.tolist()
    return GraphFile(path, found_magic, version, input_sha.hex(), alphabet, word_count, node_count,
                     arcs, arcs[ROOT_POINTER_INDEX] >> ARC_CHILD_SHIFT, size)
