"""Word graphs v2 against the v1 files they replace: the same graphs, the same answers.

Run once per migration, on a build of v1 word graphs (WORDPACK_V1_ARTIFACTS, e.g. the
artifacts/ of a checkout before format v2) and one of v2 (WORDPACK_ARTIFACTS):

    WORDPACK_V1_ARTIFACTS=old/artifacts WORDPACK_ARTIFACTS=new/artifacts pytest -m full \\
        tests/test_graph_v1_to_v2.py

For every lexicon and graph kind: v2 holds the v1 arcs in the same order (children renumbered
past the mask words), each stored mask is its node's tiles, each stored count is v1's derived
one; and on every word of every lexicon, v1's membership and index (computed here from the
v1 layout of docs/FORMATS.md's history) equal the v2 Lexicon's.
"""

import os
from pathlib import Path

import numpy as np
import pytest

from conftest import full_artifact
from lookup.formats import DAWG_MAGIC, GADDAG_MAGIC, TRIE_MAGIC
from lookup.graph import read_graph
from lookup.lexicon import lexicon
from lookup.word_list import read_word_list

V1 = os.environ.get("WORDPACK_V1_ARTIFACTS")
pytestmark = [pytest.mark.full,
              pytest.mark.skipif(not V1, reason="WORDPACK_V1_ARTIFACTS names no v1 build")]

LEXICONS = ("enable", "opentaal", "igerman98", "opencorpora-nouns")
KINDS = {"dawg": DAWG_MAGIC, "trie": TRIE_MAGIC, "gaddag": GADDAG_MAGIC}
_V1_HEADER_SIZE_AT = 12  # v1: u32 header_size at offset 12, then u32 arcs to the end


def v1_arcs(name: str, kind: str) -> np.ndarray:
    data = (Path(V1) / "lexicons" / f"{name}.{kind}").read_bytes()
    assert data[8:10] == b"\x01\x00", "not a v1 file"
    start = int.from_bytes(data[_V1_HEADER_SIZE_AT:_V1_HEADER_SIZE_AT + 4], "little")
    return np.frombuffer(data[start:], dtype="<u4").astype(np.int64)


def v1_counts(arcs: np.ndarray) -> list:
    """v1's perfect-hash counts, derived as its reader did (one backward pass)."""
    values = arcs.tolist()
    below = [0] * (len(values) + 1)
    for p in range(len(values) - 1, 0, -1):
        arc = values[p]
        count = below[arc >> 8] + (1 if arc & 0x40 else 0)
        if not arc & 0x80:
            count += below[p + 1]
        below[p] = count
    return below


def mask_positions(arcs) -> np.ndarray:
    """Positions of the mask words of a v2 arcs array (each right before a node's arcs)."""
    flags = np.zeros(len(arcs), dtype=bool)
    p = 1
    while p < len(arcs):
        flags[p] = True
        p += 1
        while not arcs[p] & 0x80:
            p += 1
        p += 1
    return flags


@pytest.mark.parametrize("kind", sorted(KINDS))
@pytest.mark.parametrize("name", LEXICONS)
def test_same_graph_masks_and_counts(name, kind):
    old = v1_arcs(name, kind)
    graph = read_graph(full_artifact(f"lexicons/{name}.{kind}"), KINDS[kind], verify=True)
    new = np.asarray(graph.arcs, dtype=np.int64)
    is_mask = mask_positions(graph.arcs)
    assert is_mask.sum() == graph.node_count
    # v1 index of each v2 position: the position less the mask words up to it.
    v1_index = np.arange(len(new)) - np.cumsum(is_mask)
    arcs = new[~is_mask]
    assert len(arcs) == len(old)
    assert np.array_equal(arcs & 0xFF, old & 0xFF)
    children = arcs >> 8
    assert np.array_equal(np.where(children > 0, v1_index[children], 0), old >> 8)
    body = old[1:]  # the nodes' arcs, back to back, in v1 order
    if len(body):
        firsts = np.concatenate(([0], np.flatnonzero(body & 0x80)[:-1] + 1))
        tiles = np.bitwise_or.reduceat(np.left_shift(np.int64(1), body & 0x3F), firsts)
        assert np.array_equal(new[is_mask], tiles)
    if kind != "gaddag":
        stored = np.asarray(graph.counts, dtype=np.int64)[~is_mask]
        assert stored.tolist() == v1_counts(old)[:len(old)]


def v1_index(arcs: list, below: list, alphabet: str, word: str) -> int | None:
    """v1's index of `word` (None when it is not a word): scan siblings, sum the counts."""
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
        index += below[p] - below[q]
        if depth == len(word) - 1:
            return index if arcs[q] & 0x40 else None
        index += 1 if arcs[q] & 0x40 else 0
        p = arcs[q] >> 8
    return None


@pytest.mark.parametrize("name", LEXICONS)
def test_same_answers_on_every_word(name):
    words = read_word_list(full_artifact(f"lexicons/{name}.txt"))
    lex = lexicon(full_artifact(f"lexicons/{name}.dawg"))
    old = v1_arcs(name, "dawg")
    arcs = old.tolist()
    below = v1_counts(old)
    for i, word in enumerate(words):
        assert v1_index(arcs, below, lex.alphabet, word) == i == lex.index(word)
        assert word in lex and lex.word(i) == word
        shorter = word[:-1]
        assert (shorter in lex) == (v1_index(arcs, below, lex.alphabet, shorter) is not None)
