"""DAWG stage: compile a normalized word list into a minimal DAWG file (.dawg).

Builds the minimal acyclic automaton of the word list by the incremental construction for
sorted input of Daciuk, Mihov, Watson & Watson (2000), then writes it in the word-graph format
of docs/FORMATS.md: the packed graph (variable width, shipped) and, beside it, the runtime
index that lookup/graph.py maps (decoded from the packed graph, laid out in fixed-width words,
with the perfect-hash counts and the membership double array). The same builder serves the
packed trie (pipeline/build_trie.py, minimization off) and the GADDAG (pipeline/build_gaddag.py,
other input strings).

Usage: wordpack-build dawg artifacts/lexicons/NAME.txt --lexicon NAME
           -o artifacts/lexicons/NAME.dawg   (also writes NAME.dawg.idx)
"""

import hashlib
from pathlib import Path

import numba
import numpy as np
from tqdm import tqdm

from lookup.errors import BadInput
from lookup.formats import (
    ARC_ACCEPTS,
    ARC_CHILD_SHIFT,
    ARC_LAST,
    ARC_MAX_INDEX,
    COUNT_BYTES,
    DAWG_MAGIC,
    GADDAG_MAGIC,
    GRAPH_ALIGNMENT,
    GRAPH_HAS_COUNTS,
    GRAPH_HAS_MEMBERSHIP,
    GRAPH_SHA256_AT,
    GRAPH_SHA256_BYTES,
    GRAPH_VERSION,
    INDEX_HEADER,
    INDEX_MAGIC,
    INDEX_SUFFIX,
    MAX_ALPHABET,
    MEMBER_ACCEPTS,
    MEMBER_CHILD_SHIFT,
    MEMBER_MAX_BASE,
    MEMBER_SLOT_BYTES,
    PACKED_ACCEPTS,
    PACKED_HEADER,
    PACKED_LAST,
    PACKED_REF,
    PACKED_TILE_ESCAPE,
    REF_NEW_SHARED,
    REF_NO_CHILD,
    REF_SHARED_BASE,
    graph_file_sha256,
    graph_word_bytes,
)
from lookup.graph import NO_CHILD, PackedGraph, unpack_graph
from pipeline.atomic import atomic_output
from pipeline.provenance import record

# Inputs shorter than this build in well under a second: no progress bar.
_PROGRESS_FROM = 200_000
# A frozen node is a tuple of arcs (tile, accepts, child_id); child_id NO_CHILD means a leaf arc.


class _NodeRegistry:
    """Frozen nodes by content. With `share` off every node is new (a plain trie)."""

    def __init__(self, share: bool):
        self.share = share
        self.ids: dict[tuple, int] = {}
        self.nodes: list[tuple] = []

    def freeze(self, arcs: list[list]) -> int:
        key = tuple((tile, accepts, child) for tile, accepts, child in arcs)
        if self.share:
            found = self.ids.get(key)
            if found is not None:
                return found
            self.ids[key] = len(self.nodes)
        self.nodes.append(key)
        return len(self.nodes) - 1


def build_automaton(strings, share: bool = True, desc: str = "") -> tuple[list[tuple], int]:
    """Build the automaton of sorted, distinct tile strings (each a str of chr(tile) codes).

    Returns (nodes, root_id). Nodes are frozen before their parents, so every child id is
    smaller than its parent's id, and the root is the last node (NO_CHILD if there are no
    strings). With `share`, equal nodes are merged: two nodes have equal arcs exactly when they
    have the same right language, so the result is minimal.
    """
    registry = _NodeRegistry(share)
    # path[d] holds the arcs of the unfrozen node at depth d; the last arc of path[d] leads to
    # path[d + 1] until that node is frozen.
    path: list[list[list]] = [[]]
    previous = ""
    if len(strings) >= _PROGRESS_FROM:  # tqdm's own settings (TQDM_DISABLE=1) still apply
        strings = tqdm(strings, desc=desc or "automaton", unit="str", mininterval=1.0, leave=False)
    for string in strings:
        if string <= previous and previous:
            raise BadInput(f"input is not sorted and distinct at {string!r}")
        if not string:
            raise BadInput("input contains an empty word")
        common = 0
        limit = min(len(string), len(previous))
        while common < limit and string[common] == previous[common]:
            common += 1
        _freeze_below(path, registry, common)
        for depth in range(common, len(string)):
            path[depth].append([ord(string[depth]), False, NO_CHILD])
            path.append([])
        path[len(string) - 1][-1][1] = True
        previous = string
    _freeze_below(path, registry, 0)
    root = registry.freeze(path[0]) if path[0] else NO_CHILD
    return registry.nodes, root


def _freeze_below(path, registry, depth: int) -> None:
    """Freeze path nodes deeper than `depth`, linking each to its parent's last arc."""
    while len(path) > depth + 1:
        arcs = path.pop()
        child = registry.freeze(arcs) if arcs else NO_CHILD
        path[-1][-1][2] = child


def node_word_counts(nodes: list[tuple]) -> list[int]:
    """Words below each node (paths from it ending on an accepting arc), by node id: children
    have smaller ids than their parents, so one pass in id order.
    """
    counts = [0] * len(nodes)
    for node_id, node in enumerate(nodes):
        counts[node_id] = sum((1 if accepts else 0) + (counts[child] if child != NO_CHILD else 0)
                              for _tile, accepts, child in node)
    return counts


def _varint(value: int) -> bytes:
    """LEB128: seven bits a byte, low bits first, bit 7 set on every byte but the last."""
    out = bytearray()
    while value >= 0x80:
        out.append(value & 0x7F | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def pack_graph(nodes: list[tuple], root: int) -> tuple[bytes, list[int]]:
    """The arcs section of a packed graph, and the node ids in the order they are written.

    Pre-order from the root: each arc's child is written right after the arc (its head byte
    without PACKED_REF) when the arc is the only one reaching it, else at its first arc
    (REF_NEW_SHARED) and referred to by its shared number afterwards.
    """
    parents = [0] * len(nodes)
    for node in nodes:
        for _tile, _accepts, child in node:
            if child != NO_CHILD:
                parents[child] += 1
    shared_number: dict[int, int] = {}
    order: list[int] = []
    out = bytearray()

    def write(node_id: int) -> None:
        # Recursion depth is the longest string (at most 64 letters and the separator).
        order.append(node_id)
        node = nodes[node_id]
        for k, (tile, accepts, child) in enumerate(node):
            head = min(tile, PACKED_TILE_ESCAPE)
            if accepts:
                head |= PACKED_ACCEPTS
            if k == len(node) - 1:
                head |= PACKED_LAST
            tail = bytes([tile]) if tile >= PACKED_TILE_ESCAPE else b""
            if child != NO_CHILD and parents[child] == 1:
                out.append(head)
                out.extend(tail)
                write(child)
                continue
            out.append(head | PACKED_REF)
            out.extend(tail)
            if child == NO_CHILD:
                out.extend(_varint(REF_NO_CHILD))
            elif child in shared_number:
                out.extend(_varint(REF_SHARED_BASE + shared_number[child]))
            else:
                shared_number[child] = len(shared_number)
                out.extend(_varint(REF_NEW_SHARED))
                write(child)

    if root != NO_CHILD:
        write(root)
    return bytes(out), order


def tile_strings(words, alphabet: str) -> list[str]:
    """Words as strings of tile codes chr(1..len(alphabet)), in the same (sorted) order."""
    if len(alphabet) > MAX_ALPHABET:
        raise BadInput(f"alphabet has {len(alphabet)} letters; the format holds {MAX_ALPHABET}")
    table = {ord(letter): chr(code) for code, letter in enumerate(alphabet, start=1)}
    strings = []
    for word in words:
        string = word.translate(table)
        if any(ord(ch) > len(alphabet) for ch in string):
            bad = next(ch for ch in word if ch not in alphabet)
            raise BadInput(f"word {word!r} has {bad!r}, which is not in the alphabet {alphabet!r}")
        strings.append(string)
    return strings


def _padded_alphabet(alphabet: str) -> tuple[bytes, int]:
    """The alphabet's UTF-8 bytes zero-padded to GRAPH_ALIGNMENT, and the unpadded length."""
    encoded = alphabet.encode("utf-8")
    return encoded + b"\x00" * (-len(encoded) % GRAPH_ALIGNMENT), len(encoded)


def sealed_graph(data: bytes) -> bytes:
    """A graph file with its file_sha256 field (zero until now) filled in."""
    end = GRAPH_SHA256_AT + GRAPH_SHA256_BYTES
    return data[:GRAPH_SHA256_AT] + graph_file_sha256(data) + data[end:]


def graph_bytes(magic: bytes, alphabet: str, input_sha256: str, word_count: int,
                nodes: list[tuple], root: int, with_counts: bool = True) -> bytes:
    """A complete packed graph file: header, padded alphabet, arcs, and the per-node word
    counts unless `with_counts` is off (the GADDAG has no use for a perfect hash).
    """
    arcs, order = pack_graph(nodes, root)
    counts = b""
    if with_counts:
        below = node_word_counts(nodes)
        counts = b"".join(_varint(below[node_id]) for node_id in order)
    padded, alphabet_len = _padded_alphabet(alphabet)
    payload = padded + arcs + counts
    header = PACKED_HEADER.pack(
        magic,
        GRAPH_VERSION,
        GRAPH_HAS_COUNTS if with_counts else 0,
        PACKED_HEADER.size + len(padded),
        bytes.fromhex(input_sha256),
        bytes(GRAPH_SHA256_BYTES),  # file_sha256, filled in by sealed_graph
        word_count,
        len(nodes),
        sum(len(node) for node in nodes),
        alphabet_len,
        len(arcs),
        len(counts),
    )
    return sealed_graph(header + payload)


def index_words(graph: PackedGraph) -> tuple[list[int], list[int]]:
    """The words section of the index (root pointer, then per node its mask and arcs, nodes in
    the packed graph's order) and, for a graph with counts, the per-arc counts (at arc p: the
    words whose path takes arc p or a later arc of its node; 0 at the root pointer and masks).
    """
    start = []
    position = 1
    for node in graph.nodes:
        start.append(position + 1)
        position += 1 + len(node)
    if position - 1 > ARC_MAX_INDEX:
        raise BadInput(f"graph has {position} words; the index holds at most {ARC_MAX_INDEX}")
    words = [ARC_LAST | ((start[0] if graph.nodes else 0) << ARC_CHILD_SHIFT)]
    arc_counts = [0]
    for node in graph.nodes:
        words.append(sum(1 << tile for tile, _accepts, _child in node))
        arc_counts.append(0)
        for k, (tile, accepts, child) in enumerate(node):
            arc = tile
            if accepts:
                arc |= ARC_ACCEPTS
            if k == len(node) - 1:
                arc |= ARC_LAST
            if child != NO_CHILD:
                arc |= start[child] << ARC_CHILD_SHIFT
            words.append(arc)
        if graph.counts is not None:
            # Suffix sums over the node's arcs, last arc first.
            below = 0
            tail = []
            for _tile, accepts, child in reversed(node):
                below += (1 if accepts else 0) + (graph.counts[child] if child != NO_CHILD else 0)
                tail.append(below)
            arc_counts.extend(reversed(tail))
    return words, arc_counts


@numba.njit(cache=True)
def _next_free(after, s):
    """The least free slot >= s: `after` links each taken slot to a slot further on, and the
    walk's links are shortened to its end (union-find path compression).
    """
    end = s
    while after[end] != end:
        end = after[end]
    while after[s] != end:
        link = after[s]
        after[s] = end
        s = link
    return end


@numba.njit(cache=True)
def _first_fit_bases(tiles, starts):
    """The double array's bases, first fit: node i (tiles[starts[i]:starts[i + 1]], ascending)
    gets the least base b >= 1, unused so far, whose slots b + tile are all free, found by
    trying b = max(1, s - first tile) for the free slots s from the first free one up.

    Slots that no later node can fill (slot 1 when the first node lacks tile 0) stay free for
    good, and every node tries them all: in Python, stepping between free slots with
    bytearray.find, the opentaal trie's index (about 900,000 nodes) took more than 20 minutes;
    here free slots are found through `after` links (_next_free).
    """
    n = starts.shape[0] - 1
    size = 1 << 16
    after = np.arange(size)  # after[s] == s: slot s is free
    base_used = np.zeros(size, np.uint8)
    base = np.zeros(n, np.int64)
    first_free = 1
    for node in range(n):
        lo, hi = starts[node], starts[node + 1]
        slot = first_free
        while True:
            b = max(1, slot - tiles[lo])
            while b + tiles[hi - 1] + 1 >= size:  # keep a free slot at the end
                after = np.concatenate((after, np.arange(size, 2 * size)))
                base_used = np.concatenate((base_used, np.zeros(size, np.uint8)))
                size *= 2
            fits = base_used[b] == 0
            for k in range(lo, hi):
                if after[b + tiles[k]] != b + tiles[k]:
                    fits = False
                    break
            if fits:
                break
            slot = _next_free(after, slot + 1)
        base[node] = b
        base_used[b] = 1
        for k in range(lo, hi):
            after[b + tiles[k]] = b + tiles[k] + 1
        first_free = _next_free(after, first_free)
    return base


def membership_slots(graph: PackedGraph) -> tuple[list[int], int]:
    """The membership section (docs/FORMATS.md): a double array of the graph, and the root's
    base. Bases are given first fit, nodes in order, each distinct and at least 1
    (_first_fit_bases).
    """
    if not graph.nodes:
        return [], 0
    tiles = np.array([tile for node in graph.nodes for tile, _accepts, _child in node],
                     np.int64)
    starts = np.zeros(len(graph.nodes) + 1, np.int64)
    np.cumsum([len(node) for node in graph.nodes], out=starts[1:])
    base = _first_fit_bases(tiles, starts).tolist()
    # Room for every tile after the last base: a query of a tile the node lacks reads a
    # slot of the array, never past it.
    size = max(base) + len(graph.alphabet) + 1
    if max(base) > MEMBER_MAX_BASE:
        raise BadInput(f"membership bases reach {max(base)}; the index holds {MEMBER_MAX_BASE}")
    slots = [0] * size
    for node_id, node in enumerate(graph.nodes):
        b = base[node_id]
        for tile, accepts, child in node:
            slots[b + tile] = (tile | (MEMBER_ACCEPTS if accepts else 0)
                               | (base[child] if child != NO_CHILD else 0) << MEMBER_CHILD_SHIFT)
    return slots, base[0]


def index_bytes(magic: bytes, packed: bytes, with_membership: bool) -> bytes:
    """The runtime index of a packed graph file (docs/FORMATS.md): its graph unpacked into the
    words layout, with the per-arc counts when the graph has counts and, `with_membership`,
    the double array of the membership test.
    """
    graph = unpack_graph(packed, "<packed graph>", magic)
    words, arc_counts = index_words(graph)
    word_bytes = graph_word_bytes(len(graph.alphabet))
    padded, alphabet_len = _padded_alphabet(graph.alphabet)
    flags = 0
    sections = [padded, b"\x00" * word_bytes,
                b"".join(word.to_bytes(word_bytes, "little") for word in words)]
    if graph.counts is not None:
        flags |= GRAPH_HAS_COUNTS
        sections.append(b"".join(count.to_bytes(COUNT_BYTES, "little") for count in arc_counts))
    slots, member_root = [], 0
    if with_membership:
        flags |= GRAPH_HAS_MEMBERSHIP
        slots, member_root = membership_slots(graph)
        sections.append(b"".join(slot.to_bytes(MEMBER_SLOT_BYTES, "little") for slot in slots))
    payload = b"".join(sections)
    header = INDEX_HEADER.pack(
        INDEX_MAGIC[magic],
        GRAPH_VERSION,
        flags,
        INDEX_HEADER.size + len(padded),
        PACKED_HEADER.unpack_from(packed)[5],
        bytes(GRAPH_SHA256_BYTES),  # file_sha256, filled in by sealed_graph
        graph.word_count,
        len(graph.nodes),
        len(words),
        alphabet_len,
        word_bytes,
        len(slots),
        member_root,
    )
    return sealed_graph(header + payload)


def dawg_bytes(words: list[str], alphabet: str, input_sha256: str | None = None) -> bytes:
    """The .dawg file of sorted, distinct words (input_sha256 defaults to that of the list)."""
    if input_sha256 is None:
        input_sha256 = hashlib.sha256("".join(w + "\n" for w in words).encode()).hexdigest()
    nodes, root = build_automaton(tile_strings(words, alphabet), share=True, desc="dawg")
    return graph_bytes(DAWG_MAGIC, alphabet, input_sha256, len(words), nodes, root)


def index_for(packed: bytes) -> bytes:
    """The runtime index of a packed graph file: a DAWG's or trie's with the membership
    section, a GADDAG's without (the move generator walks arcs).
    """
    magic = packed[:len(DAWG_MAGIC)]
    return index_bytes(magic, packed, with_membership=magic != GADDAG_MAGIC)


def write_graph_files(path, packed: bytes) -> Path:
    """Write a packed graph to `path` and its runtime index beside it, each atomically; return
    the index's path.
    """
    index = index_for(packed)
    index_path = Path(f"{path}{INDEX_SUFFIX}")
    with atomic_output(path) as handle:
        handle.write(packed)
    with atomic_output(index_path) as handle:
        handle.write(index)
    return index_path


def write_graph(to_bytes, fmt: str, word_list, alphabet: str, output) -> None:
    """Compile the normalized word list at `word_list` with `to_bytes(words, alphabet,
    input_sha256)` and write the packed graph to `output` and its runtime index beside it
    (`output` + INDEX_SUFFIX), with their provenance.
    """
    data = Path(word_list).read_bytes()
    words = data.decode("utf-8").split("\n")[:-1]
    index_path = write_graph_files(output, to_bytes(words, alphabet,
                                                    hashlib.sha256(data).hexdigest()))
    record(output, format=fmt, version=GRAPH_VERSION, inputs=[word_list])
    record(index_path, format=f"{fmt}-index", version=GRAPH_VERSION, inputs=[output])


def build_dawg(word_list, alphabet: str, output) -> None:
    """Compile the normalized word list at `word_list` into a .dawg file at `output`."""
    write_graph(dawg_bytes, "dawg", word_list, alphabet, output)
