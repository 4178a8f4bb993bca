"""Trie stage: compile a normalized word list into a packed trie file (.trie).

The packed trie is the reference format: the same word-graph layout as the DAWG
(docs/FORMATS.md), built without merging equal subtrees, so every node has one parent. It is
here for size comparison and for the simplest clients; lookup/dawg.py reads it too.

Usage: wordpack-build trie artifacts/lexicons/NAME.txt --lexicon NAME
           -o artifacts/lexicons/NAME.trie
"""

from lookup.formats import TRIE_MAGIC
from pipeline.build_dawg import build_automaton, graph_bytes, tile_strings, write_graph


def trie_bytes(words: list[str], alphabet: str, input_sha256: str) -> bytes:
    """The .trie file of sorted, distinct words."""
    nodes, root = build_automaton(tile_strings(words, alphabet), share=False, desc="trie")
    return graph_bytes(TRIE_MAGIC, alphabet, input_sha256, len(words), nodes, root)


def build_trie(word_list, alphabet: str, output) -> None:
    """Compile the normalized word list at `word_list` into a .trie file at `output`."""
    write_graph(trie_bytes, "trie", word_list, alphabet, output)
