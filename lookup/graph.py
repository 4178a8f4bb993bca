"""Reader of word graphs (.trie, .dawg, .gaddag) and their runtime indexes (.idx).

The writer is pipeline/build_dawg.py; the layouts are in docs/FORMATS.md. A graph is two
files: the packed graph (small, shipped, variable width) and the runtime index beside it.
Loading checks both headers and both files' sha256 (file_sha256: the whole file, header
included, so no damaged byte goes unnoticed) and maps the index: the arcs, the node masks, the
perfect-hash counts and the membership double array are memoryviews of the memory map, so a
load costs the two digests (about 1 ms per 2 MB) and the pages a query touches.
`unpack_graph` decodes a packed graph in full (the pipeline builds the index from it; the
JavaScript reader does the same).
"""

import array
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
    GRAPH_HAS_MEMBERSHIP,
    GRAPH_MAKE_TARGET,
    GRAPH_VERSION,
    INDEX_HEADER,
    INDEX_MAGIC,
    INDEX_SUFFIX,
    MAX_ALPHABET,
    MAX_VARINT_BYTES,
    MEMBER_SLOT_BYTES,
    PACKED_ACCEPTS,
    PACKED_HEADER,
    PACKED_LAST,
    PACKED_REF,
    PACKED_TILE_ESCAPE,
    PACKED_TILE_MASK,
    REF_NEW_SHARED,
    REF_NO_CHILD,
    REF_SHARED_BASE,
    ROOT_POINTER_INDEX,
    check_version,
    corrupt,
    graph_file_sha256,
    graph_word_bytes,
    require_file,
)

_VERSION_FIELD = 8  # offset of the u16 version in every version of both headers
_DAMAGED = "damaged: its sha256 (file_sha256) does not match its bytes"
_ITEM_FORMAT = {4: "I", 8: "Q"}
NO_CHILD = -1


# Named tuples rather than dataclasses: importing dataclasses (and inspect) would be half of
# the time from `import lookup` to a first answer.
class GraphFile(namedtuple("GraphFile", "path magic version input_sha256 alphabet word_count "
                                        "node_count arcs node_mask counts member member_root "
                                        "root size index_size")):
    """A validated word graph: its packed file's header and its runtime index, mapped.

    Attributes:
        path: the packed graph file (the index is this path + ".idx").
        magic: the packed graph's magic bytes.
        version: format version found in the headers.
        input_sha256: hex sha256 of the normalized word list it was built from.
        alphabet: letters in tile order; tile k is alphabet[k - 1], tile 0 the GADDAG separator.
        word_count: number of words of the lexicon.
        node_count: number of nodes (arc lists).
        arcs: the words of the index (Python ints on indexing): arcs[0] is the root pointer,
            a node starting at arc index p has its arcs at p, p + 1, ... (the last with
            ARC_LAST) and its tile mask at p - 1.
        node_mask: the same words one position later: node_mask[p] is the tile mask of the node
            starting at p (bit k set when it has an arc of tile k); node_mask[0] is 0 (no node).
        counts: the perfect-hash counts by arc index (docs/FORMATS.md), None in a GADDAG.
        member: the membership double array (docs/FORMATS.md), None in a GADDAG.
        member_root: the root's base in `member` (0 for no words).
        root: index of the root node's first arc (0 when the lexicon is empty).
        size: size in bytes of the packed graph file.
        index_size: size in bytes of the index file.
    """

    __slots__ = ()


class PackedGraph(namedtuple("PackedGraph", "alphabet word_count nodes counts")):
    """A packed graph decoded in full (`unpack_graph`).

    Attributes:
        alphabet: letters in tile order.
        word_count: number of words.
        nodes: node k (in the file's pre-order; node 0 is the root) as a list of arcs
            (tile, accepts, child), child NO_CHILD (-1) for none.
        counts: words below each node, or None when the file has no counts section.
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


def _check_start(path, buffer, size: int, magic: bytes, header_size: int, what: str) -> None:
    """Magic and version of either header, and a size that holds the header."""
    if size < _VERSION_FIELD + 2:
        raise corrupt(path, f"truncated: {size} bytes is shorter than the header",
                      GRAPH_MAKE_TARGET)
    found_magic = bytes(buffer[:len(magic)])
    if found_magic != magic:
        raise corrupt(path, f"not a {what} file (magic {found_magic!r})", GRAPH_MAKE_TARGET)
    version = int.from_bytes(buffer[_VERSION_FIELD:_VERSION_FIELD + 2], "little")
    check_version(path, version, GRAPH_EARLIEST_SUPPORTED_VERSION, GRAPH_VERSION,
                  GRAPH_MAKE_TARGET)
    if size < header_size:
        raise corrupt(path, f"truncated: {size} bytes is shorter than the header",
                      GRAPH_MAKE_TARGET)


def _alphabet(path, data, start: int, length: int) -> str:
    try:
        alphabet = bytes(data[start:start + length]).decode()
    except UnicodeDecodeError:
        raise corrupt(path, "alphabet is not UTF-8", GRAPH_MAKE_TARGET) from None
    if len(alphabet) > MAX_ALPHABET:
        raise corrupt(path, f"alphabet of {len(alphabet)} letters", GRAPH_MAKE_TARGET)
    return alphabet


def read_packed_header(path, head: bytes, size: int, magic: bytes) -> tuple:
    """Check a packed graph's header (`head`: the file's first bytes) against the file's
    `size`, and its file_sha256 when `head` is the whole file; return the header's fields
    (PACKED_HEADER order).

    Raises:
        CorruptArtifact, UnsupportedFormat: as read_graph.
    """
    _check_start(path, head, size, magic, PACKED_HEADER.size, magic.rstrip(bytes(1)).decode())
    fields = PACKED_HEADER.unpack_from(head, 0)
    (_magic, _version, flags, header_size, _input, _payload, _words, _nodes, _arcs,
     alphabet_len, arcs_bytes, counts_bytes) = fields
    if size != header_size + arcs_bytes + counts_bytes:
        raise corrupt(path, f"truncated or padded: {size} bytes, header says "
                      f"{header_size + arcs_bytes + counts_bytes}", GRAPH_MAKE_TARGET)
    if (header_size < PACKED_HEADER.size + alphabet_len or header_size % GRAPH_ALIGNMENT
            or bool(counts_bytes) != bool(flags & GRAPH_HAS_COUNTS and arcs_bytes)):
        raise corrupt(path, "inconsistent header", GRAPH_MAKE_TARGET)
    if len(head) == size and graph_file_sha256(head) != fields[5]:
        raise corrupt(path, _DAMAGED, GRAPH_MAKE_TARGET)
    return fields


def unpack_graph(data: bytes, path, magic: bytes) -> PackedGraph:
    """Decode a whole packed graph file (docs/FORMATS.md "Packed graph").

    Raises:
        CorruptArtifact: a header or section that does not decode to what the header says.
        UnsupportedFormat: another format version.
    """
    (_magic, _version, flags, header_size, _input, _payload, word_count, node_count,
     arc_count, alphabet_len, arcs_bytes, _counts_bytes) = read_packed_header(
        path, data, len(data), magic)
    alphabet = _alphabet(path, data, PACKED_HEADER.size, alphabet_len)
    end = header_size + arcs_bytes
    nodes: list = []
    shared: list[int] = []
    position = header_size

    def varint() -> int:
        nonlocal position
        value = shift = 0
        while True:
            byte = data[position]
            position += 1
            value |= (byte & 0x7F) << shift
            shift += 7
            if byte < 0x80:
                return value
            if shift >= MAX_VARINT_BYTES * 7:
                raise IndexError  # a u32 takes at most 5 bytes

    def node() -> int:
        # Recursion depth is the longest string (at most 64 letters and the separator).
        nonlocal position
        number = len(nodes)
        arcs = []
        nodes.append(arcs)
        while True:
            head = data[position]
            position += 1
            tile = head & PACKED_TILE_MASK
            if tile == PACKED_TILE_ESCAPE:
                tile = data[position]
                position += 1
                if tile < PACKED_TILE_ESCAPE:
                    raise IndexError  # smaller tiles fit the head byte: never escaped
            if head & PACKED_REF:
                reference = varint()
                if reference == REF_NO_CHILD:
                    child = NO_CHILD
                elif reference == REF_NEW_SHARED:
                    shared.append(len(nodes))
                    child = node()
                else:
                    child = shared[reference - REF_SHARED_BASE]
            else:
                child = node()
            arcs.append((tile, bool(head & PACKED_ACCEPTS), child))
            if head & PACKED_LAST:
                return number

    try:
        if arcs_bytes:
            node()
        if position != end:
            raise IndexError
        counts = None
        if flags & GRAPH_HAS_COUNTS:
            counts = [varint() for _ in nodes]
            if position != len(data):
                raise IndexError
    except (IndexError, RecursionError):  # a section that ends early, or nests without end
        raise corrupt(path, "arcs or counts section does not decode", GRAPH_MAKE_TARGET) from None
    if (len(nodes) != node_count or sum(map(len, nodes)) != arc_count
            or any(tile > len(alphabet) for arcs in nodes for tile, _a, _c in arcs)):
        raise corrupt(path, "arcs section disagrees with the header", GRAPH_MAKE_TARGET)
    return PackedGraph(alphabet, word_count, nodes, counts)


def index_path(path) -> Path:
    """Where the runtime index of the packed graph at `path` lives."""
    return Path(f"{path}{INDEX_SUFFIX}")


def read_graph(path, magic: bytes) -> GraphFile:
    """Check a packed graph and its runtime index (headers and sha256) and map the index.

    Args:
        path: the packed graph file (.trie, .dawg or .gaddag); its index is path + ".idx".
        magic: the magic bytes the caller expects (TRIE_MAGIC, DAWG_MAGIC or GADDAG_MAGIC).

    Raises:
        ArtifactMissing: the index is missing (the message names the make target).
        CorruptArtifact: wrong magic, truncated, inconsistent header, an index built from
            another graph, or a checksum mismatch.
        UnsupportedFormat: a format version this reader cannot read (the message names the make
            target that rebuilds it).
    """
    path = Path(path)
    data = path.read_bytes()
    (_magic, version, flags, _header_size, input_sha, file_sha, word_count, node_count,
     arc_count, _alphabet_len, _arcs_bytes, _counts_bytes) = read_packed_header(
        path, data, len(data), magic)
    size = len(data)
    idx = index_path(path)
    require_file(idx, GRAPH_MAKE_TARGET)
    with open(idx, "rb") as handle:
        index_size = handle.seek(0, 2)
        if index_size < _VERSION_FIELD + 2:
            raise corrupt(idx, f"truncated: {index_size} bytes is shorter than the header",
                          GRAPH_MAKE_TARGET)
        buffer = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
    index_magic = INDEX_MAGIC[magic]
    _check_start(idx, buffer, index_size, index_magic, INDEX_HEADER.size, index_magic.decode())
    (_magic, _version, index_flags, header_size, graph_sha, index_file_sha, index_words,
     index_nodes, words, alphabet_len, word_bytes, member_slots,
     member_root) = INDEX_HEADER.unpack_from(buffer, 0)
    has_counts = bool(index_flags & GRAPH_HAS_COUNTS)
    has_member = bool(index_flags & GRAPH_HAS_MEMBERSHIP)
    counts_start = header_size + word_bytes * (words + 1)
    member_start = counts_start + (COUNT_BYTES * words if has_counts else 0)
    expected = member_start + (MEMBER_SLOT_BYTES * member_slots if has_member else 0)
    if index_size != expected:
        raise corrupt(idx, f"truncated or padded: {index_size} bytes, header says {expected}",
                      GRAPH_MAKE_TARGET)
    if (header_size < INDEX_HEADER.size + alphabet_len or header_size % GRAPH_ALIGNMENT
            or words < 1 or word_bytes not in _ITEM_FORMAT):
        raise corrupt(idx, "inconsistent header", GRAPH_MAKE_TARGET)
    if graph_file_sha256(buffer) != index_file_sha:
        raise corrupt(idx, _DAMAGED, GRAPH_MAKE_TARGET)
    if (graph_sha != file_sha or (index_words, index_nodes) != (word_count, node_count)
            or words != 1 + node_count + arc_count
            or has_counts != bool(flags & GRAPH_HAS_COUNTS)):
        raise corrupt(idx, f"was not built from {path.name}", GRAPH_MAKE_TARGET)
    alphabet = _alphabet(idx, buffer, INDEX_HEADER.size, alphabet_len)
    if word_bytes != graph_word_bytes(len(alphabet)):
        raise corrupt(idx, f"{word_bytes}-byte words for {len(alphabet)} letters",
                      GRAPH_MAKE_TARGET)
    all_words = _view(buffer, header_size, words + 1, word_bytes)
    counts = _view(buffer, counts_start, words, COUNT_BYTES) if has_counts else None
    member = (_view(buffer, member_start, member_slots, MEMBER_SLOT_BYTES)
              if has_member else None)
    arcs = all_words[1:]
    return GraphFile(path, magic, version, input_sha.hex(), alphabet, word_count,
                     node_count, arcs, all_words, counts, member, member_root,
                     arcs[ROOT_POINTER_INDEX] >> ARC_CHILD_SHIFT, size, index_size)

