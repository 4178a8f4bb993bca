"""Reader of word-graph files (.trie, .dawg, .gaddag): a header check and views of the mapping.

The writer is pipeline/build_dawg.py; the layout is in docs/FORMATS.md. Loading decodes
nothing: the arcs, the node masks and the perfect-hash counts are memoryviews of the memory
map, so a load costs a header check and the pages a query touches.
"""

import array
import hashlib
import mmap
import sys
from collections import namedtuple
from pathlib import Path

from lookup.formats import (
    ARC_CHILD_SHIFT,
    COUNT_BYTES,
    GRAPH_ALIGNMENT,
    GRAPH_EARLIEST_SUPPORTED_VERSION,
    GRAPH_HAS_COUNTS,
    GRAPH_HEADER,
    GRAPH_MAKE_TARGET,
    GRAPH_VERSION,
    ROOT_POINTER_INDEX,
    check_version,
    corrupt,
    graph_word_bytes,
)

_VERSION_FIELD = 8  # offset of the u16 version in every version of the header
_ITEM_FORMAT = {4: "I", 8: "Q"}


# A named tuple rather than a dataclass: importing dataclasses (and inspect) would be half of
# the time from `import lookup` to a first answer.
class GraphFile(namedtuple("GraphFile", "path magic version input_sha256 alphabet word_count "
                                        "node_count arcs node_mask counts root size")):
    """A validated word-graph file.

    Attributes:
        path: where it was read from.
        magic: the format's magic bytes.
        version: format version found in the header.
        input_sha256: hex sha256 of the normalized word list it was built from.
        alphabet: letters in tile order; tile k is alphabet[k - 1], tile 0 the GADDAG separator.
        word_count: number of words of the lexicon.
        node_count: number of nodes (arc lists).
        arcs: the words of the graph (Python ints on indexing): arcs[0] is the root pointer,
            a node starting at arc index p has its arcs at p, p + 1, ... (the last with
            ARC_LAST) and its tile mask at p - 1.
        node_mask: the same words one position later: node_mask[p] is the tile mask of the node
            starting at p (bit k set when it has an arc of tile k); node_mask[0] is 0 (no node).
        counts: the perfect-hash counts by arc index (docs/FORMATS.md), None in a GADDAG.
        root: index of the root node's first arc (0 when the lexicon is empty).
        size: file size in bytes.
    """

    __slots__ = ()


def _view(buffer, start: int, count: int, item_bytes: int):
    """`count` little-endian unsigned items of `item_bytes` at `start`, without copying."""
    raw = memoryview(buffer)[start:start + count * item_bytes]
    if sys.byteorder == "little":
        return raw.cast(_ITEM_FORMAT[item_bytes])
    swapped = array.array(_ITEM_FORMAT[item_bytes], bytes(raw))  # big-endian hosts: a copy
    swapped.byteswap()
    return memoryview(swapped)


def read_graph(path, magic: bytes, verify: bool = False) -> GraphFile:
    """Map and validate a word-graph file.

    Args:
        path: the file.
        magic: the magic bytes the caller expects (TRIE_MAGIC, DAWG_MAGIC or GADDAG_MAGIC).
        verify: also check the payload sha256 (reads the whole file; `wordpack info --verify`
            checks every artifact this way).

    Raises:
        CorruptArtifact: wrong magic, truncated, inconsistent header or checksum mismatch.
        UnsupportedFormat: a format version this reader cannot read (the message names the make
            target that rebuilds it).
    """
    path = Path(path)
    with open(path, "rb") as handle:
        size = handle.seek(0, 2)
        if size < _VERSION_FIELD + 2:
            raise corrupt(path, f"truncated: {size} bytes is shorter than the header",
                          GRAPH_MAKE_TARGET)
        buffer = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
    found_magic = bytes(buffer[:len(magic)])
    if found_magic != magic:
        raise corrupt(path, f"not a {magic.rstrip(bytes(1)).decode()} file (magic {found_magic!r})",
                      GRAPH_MAKE_TARGET)
    version = int.from_bytes(buffer[_VERSION_FIELD:_VERSION_FIELD + 2], "little")
    check_version(path, version, GRAPH_EARLIEST_SUPPORTED_VERSION, GRAPH_VERSION,
                  GRAPH_MAKE_TARGET)
    if size < GRAPH_HEADER.size:
        raise corrupt(path, f"truncated: {size} bytes is shorter than the header",
                      GRAPH_MAKE_TARGET)
    (_magic, _version, flags, header_size, input_sha, payload_sha, word_count, node_count,
     arc_count, alphabet_len, word_bytes) = GRAPH_HEADER.unpack_from(buffer, 0)
    has_counts = bool(flags & GRAPH_HAS_COUNTS)
    expected = (header_size + word_bytes * (arc_count + 1)
                + (COUNT_BYTES * arc_count if has_counts else 0))
    if size != expected:
        raise corrupt(path, f"truncated or padded: {size} bytes, header says {expected}",
                      GRAPH_MAKE_TARGET)
    if (header_size < GRAPH_HEADER.size + alphabet_len or header_size % GRAPH_ALIGNMENT
            or arc_count < 1):
        raise corrupt(path, "inconsistent header", GRAPH_MAKE_TARGET)
    if verify and hashlib.sha256(buffer[GRAPH_HEADER.size:]).digest() != payload_sha:
        raise corrupt(path, "checksum mismatch", GRAPH_MAKE_TARGET)
    try:
        alphabet = bytes(buffer[GRAPH_HEADER.size:GRAPH_HEADER.size + alphabet_len]).decode()
    except UnicodeDecodeError:
        raise corrupt(path, "alphabet is not UTF-8", GRAPH_MAKE_TARGET) from None
    if word_bytes != graph_word_bytes(len(alphabet)):
        raise corrupt(path, f"{word_bytes}-byte words for {len(alphabet)} letters",
                      GRAPH_MAKE_TARGET)
    words = _view(buffer, header_size, arc_count + 1, word_bytes)
    counts = (_view(buffer, header_size + word_bytes * (arc_count + 1), arc_count, COUNT_BYTES)
              if has_counts else None)
    arcs = words[1:]
    return GraphFile(path, found_magic, version, input_sha.hex(), alphabet, word_count,
                     node_count, arcs, words, counts,
                     arcs[ROOT_POINTER_INDEX] >> ARC_CHILD_SHIFT, size)
