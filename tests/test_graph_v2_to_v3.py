"""Word graphs v3 against the v2 files they replace: the same graphs, the same answers.

Run once per migration, on a build of v2 word graphs (WORDPACK_V2_ARTIFACTS, e.g. the
artifacts/ of a checkout before format v3) and one of v3 (WORDPACK_ARTIFACTS):

    WORDPACK_V2_ARTIFACTS=old/artifacts WORDPACK_ARTIFACTS=new/artifacts pytest -m full \\
        tests/test_graph_v2_to_v3.py

For every lexicon and graph kind: v3's packed graph and its index hold as many nodes and arcs
as v2 and spell the same strings (both walked in order, the GADDAG's separator included); and
on every word of every lexicon, v2's membership and index (computed here from the v2 layout of
docs/FORMATS.md's history) equal the v3 Lexicon's, which answers membership through the
double array.
"""

import os
from pathlib import Path

import numpy as np
import pytest

from conftest import full_artifact
from lookup.formats import DAWG_MAGIC, GADDAG_MAGIC, TRIE_MAGIC
from lookup.graph import read_graph, unpack_graph
from lookup.lexicon import lexicon
from lookup.word_list import read_word_list

V2 = os.environ.get("WORDPACK_V2_ARTIFACTS")
pytestmark = [pytest.mark.full,
              pytest.mark.skipif(not V2, reason="WORDPACK_V2_ARTIFACTS names no v2 build")]

LEXICONS = ("enable", "opentaal", "igerman98", "opencorpora-nouns")
KINDS = {"dawg": DAWG_MAGIC, "trie": TRIE_MAGIC, "gaddag": GADDAG_MAGIC}
# v2: a 128-byte header (u16 version at 8, u32 header_size at 12, u32 node_count at 84, u32
# arc_count at 88, u32 word_bytes at 96), then a zero word and `arc_count` words.
_V2_FIELDS = {"header_size": 12, "node_count": 84, "arc_count": 88, "word_bytes": 96}


def v2_graph(name: str, kind: str) -> tuple[list, int]:
    """The `arcs` array of a v2 file (root pointer, masks, arcs) and its node count."""
    data = (Path(V2) / "lexicons" / f"{name}.{kind}").read_bytes()
    assert data[8:10] == b"\x02\x00", "not a v2 file"
    field = {key: int.from_bytes(data[at:at + 4], "little") for key, at in _V2_FIELDS.items()}
    start = field["header_size"] + field["word_bytes"]  # past the zero word
    words = np.frombuffer(data[start:start + field["word_bytes"] * field["arc_count"]],
                          dtype=f"<u{field['word_bytes']}")
    return (words & 0xFFFFFFFF).astype(np.int64).tolist(), field["node_count"]


def spelled(arcs: list, root: int, alphabet: str):
    """Every string a graph in the words layout spells, in order ('^' for the separator)."""
    letters = "^" + alphabet
    stack = [(root, "")] if root else []
    while stack:
        p, prefix = stack.pop()
        arc = arcs[p]
        word = prefix + letters[arc & 0x3F]
        if not arc & 0x80:
            stack.append((p + 1, prefix))
        if arc >> 8:
            stack.append((arc >> 8, word))
        if arc & 0x40:
            yield word


@pytest.mark.parametrize("kind", sorted(KINDS))
@pytest.mark.parametrize("name", LEXICONS)
def test_same_graph(name, kind):
    path = full_artifact(f"lexicons/{name}.{kind}")
    graph = read_graph(path, KINDS[kind])
    packed = unpack_graph(path.read_bytes(), path, KINDS[kind])
    old, old_nodes = v2_graph(name, kind)
    assert graph.node_count == len(packed.nodes) == old_nodes
    assert len(graph.arcs) == len(old)
    new = spelled(list(graph.arcs), graph.root, graph.alphabet)
    for before, after in zip(spelled(old, old[0] >> 8, graph.alphabet), new, strict=True):
        assert before == after


def v2_index(arcs: list, alphabet: str, counts: list, word: str) -> int | None:
    """v2's index of `word` (None when it is not a word): scan siblings, sum the counts."""
    code = {letter: k for k, letter in enumerate(alphabet, start=1)}
    p = arcs[0] >> 8
    index = 0
    for depth, letter in enumerate(word):
        if not p:
            return None
        q = p
        while arcs[q] & 0x3F != code[letter]:
            if arcs[q] & 0x80:
                return None
            q += 1
        index += counts[p] - counts[q]
        if depth == len(word) - 1:
            return index if arcs[q] & 0x40 else None
        index += 1 if arcs[q] & 0x40 else 0
        p = arcs[q] >> 8
    return None


def v2_counts(name: str) -> list:
    """The counts section of a v2 DAWG (indexed like its arcs)."""
    data = (Path(V2) / "lexicons" / f"{name}.dawg").read_bytes()
    field = {key: int.from_bytes(data[at:at + 4], "little") for key, at in _V2_FIELDS.items()}
    start = field["header_size"] + field["word_bytes"] * (field["arc_count"] + 1)
    return np.frombuffer(data[start:start + 4 * field["arc_count"]], dtype="<u4").tolist()


@pytest.mark.parametrize("name", LEXICONS)
def test_same_answers_on_every_word(name):
    words = read_word_list(full_artifact(f"lexicons/{name}.txt"))
    lex = lexicon(full_artifact(f"lexicons/{name}.dawg"))
    arcs, _nodes = v2_graph(name, "dawg")
    counts = v2_counts(name)
    for i, word in enumerate(words):
        assert v2_index(arcs, lex.alphabet, counts, word) == i == lex.index(word)
        assert word in lex and lex.word(i) == word
        for other in (word[:-1], word + lex.alphabet[i % len(lex.alphabet)]):
            assert (other in lex) == (v2_index(arcs, lex.alphabet, counts, other) is not None)
