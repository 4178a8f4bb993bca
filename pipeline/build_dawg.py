"""DAWG stage: compile a normalized word list into a minimal DAWG file (.dawg).

Builds the minimal acyclic automaton of the word list by the incremental construction for
sorted input of Daciuk, Mihov, Watson & Watson (2000), then writes it in the word-graph format
of docs/FORMATS.md (read by lookup/dawg.py). The same builder serves the packed trie
(pipeline/build_trie.py, minimization off) and the GADDAG (pipeline/build_gaddag.py, other
input strings).

Usage: wordpack-build dawg artifacts/lexicons/NAME.txt --lexicon NAME
           -o artifacts/lexicons/NAME.dawg
"""

import hashlib
from pathlib import Path

from tqdm import tqdm

from lookup.errors import BadInput
from lookup.formats import (
    ARC_ACCEPTS,
    ARC_CHILD_SHIFT,
    ARC_LAST,
    ARC_MAX_INDEX,
    COUNT_BYTES,
    DAWG_MAGIC,
    GRAPH_ALIGNMENT,
    GRAPH_HAS_COUNTS,
    GRAPH_HEADER,
    GRAPH_VERSION,
    MAX_ALPHABET,
    ROOT_POINTER_INDEX,
    graph_word_bytes,
)
from pipeline.atomic import atomic_output
from pipeline.provenance import record

# Inputs shorter than this build in well under a second: no progress bar.
_PROGRESS_FROM = 200_000
# A frozen node is a tuple of arcs (tile, accepts, child_id); child_id NO_CHILD means a leaf arc.
NO_CHILD = -1


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


def encode_graph(nodes: list[tuple], root: int) -> list[int]:
    """Lay nodes out as words: arc 0 points at the root, then each node as its tile mask
    followed by its arcs, from the root down.

    Nodes are written in decreasing id order, so every child lies after its parent: the word
    counts come out of one backward pass (`word_counts`).
    """
    start = {}
    position = 1
    for node_id in range(len(nodes) - 1, -1, -1):
        start[node_id] = position + 1
        position += 1 + len(nodes[node_id])
    if position - 1 > ARC_MAX_INDEX:
        raise BadInput(f"graph has {position} words; the format holds at most {ARC_MAX_INDEX}")
    words = [ARC_LAST | ((start[root] if root != NO_CHILD else 0) << ARC_CHILD_SHIFT)]
    for node_id in range(len(nodes) - 1, -1, -1):
        node = nodes[node_id]
        words.append(sum(1 << tile for tile, _accepts, _child in node))
        for k, (tile, accepts, child) in enumerate(node):
            arc = tile
            if accepts:
                arc |= ARC_ACCEPTS
            if k == len(node) - 1:
                arc |= ARC_LAST
            if child != NO_CHILD:
                arc |= start[child] << ARC_CHILD_SHIFT
            words.append(arc)
    return words


def word_counts(words: list[int]) -> list[int]:
    """The perfect-hash counts: at each arc p, the words whose path takes arc p or a later arc
    of its node (0 at the root pointer and at mask words). One backward pass: children lie
    after their parents.
    """
    counts = [0] * len(words)
    is_arc = [False] * len(words)
    p = words[ROOT_POINTER_INDEX] >> ARC_CHILD_SHIFT
    # Mask words are the ones right before a node's first arc: walk node by node.
    while p and p < len(words):
        while True:
            is_arc[p] = True
            if words[p] & ARC_LAST:
                break
            p += 1
        p += 2
    for p in range(len(words) - 1, 0, -1):
        if not is_arc[p]:
            continue
        arc = words[p]
        count = counts[arc >> ARC_CHILD_SHIFT] + (1 if arc & ARC_ACCEPTS else 0)
        if not arc & ARC_LAST:
            count += counts[p + 1]
        counts[p] = count
    return counts


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


def graph_bytes(magic: bytes, alphabet: str, input_sha256: str, word_count: int,
                nodes: list[tuple], root: int, with_counts: bool = True) -> bytes:
    """A complete word-graph file: header, padded alphabet, words, and the counts unless
    `with_counts` is off (the GADDAG has no use for a perfect hash).
    """
    words = encode_graph(nodes, root)
    word_bytes = graph_word_bytes(len(alphabet))
    alphabet_bytes = alphabet.encode("utf-8")
    padded = alphabet_bytes + b"\x00" * (-len(alphabet_bytes) % GRAPH_ALIGNMENT)
    sections = [b"\x00" * word_bytes,
                b"".join(word.to_bytes(word_bytes, "little") for word in words)]
    if with_counts:
        sections.append(b"".join(count.to_bytes(COUNT_BYTES, "little")
                                 for count in word_counts(words)))
    payload = padded + b"".join(sections)
    header = GRAPH_HEADER.pack(
        magic,
        GRAPH_VERSION,
        GRAPH_HAS_COUNTS if with_counts else 0,
        GRAPH_HEADER.size + len(padded),
        bytes.fromhex(input_sha256),
        hashlib.sha256(payload).digest(),
        word_count,
        len(nodes),
        len(words),
        len(alphabet_bytes),
        word_bytes,
    )
    return header + payload


def dawg_bytes(words: list[str], alphabet: str, input_sha256: str | None = None) -> bytes:
    """The .dawg file of sorted, distinct words (input_sha256 defaults to that of the list)."""
    if input_sha256 is None:
        input_sha256 = hashlib.sha256("".join(w + "\n" for w in words).encode()).hexdigest()
    nodes, root = build_automaton(tile_strings(words, alphabet), share=True, desc="dawg")
    return graph_bytes(DAWG_MAGIC, alphabet, input_sha256, len(words), nodes, root)


def write_graph(to_bytes, fmt: str, word_list, alphabet: str, output) -> None:
    """Compile the normalized word list at `word_list` with `to_bytes(words, alphabet,
    input_sha256)` and write the result to `output` atomically, with its provenance.
    """
    data = Path(word_list).read_bytes()
    words = data.decode("utf-8").split("\n")[:-1]
    graph = to_bytes(words, alphabet, hashlib.sha256(data).hexdigest())
    with atomic_output(output) as handle:
        handle.write(graph)
    record(output, format=fmt, version=GRAPH_VERSION, inputs=[word_list])


def build_dawg(word_list, alphabet: str, output) -> None:
    """Compile the normalized word list at `word_list` into a .dawg file at `output`."""
    write_graph(dawg_bytes, "dawg", word_list, alphabet, output)
