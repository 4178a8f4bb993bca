"""GADDAG stage: compile a normalized word list into a minimal GADDAG file (.gaddag).

For every word c1..cn and every split 1 <= i <= n, the GADDAG of Gordon (1994) holds the string
reverse(c1..ci), followed by the separator and c(i+1)..cn when i < n. Those strings are sorted
and compiled by the same minimizing builder as the DAWG, into the same word-graph layout
(docs/FORMATS.md); tile 0 is the separator. lookup/gaddag.py reads it for move generation.

Usage: wordpack-build gaddag artifacts/lexicons/NAME.txt --lexicon NAME
           -o artifacts/lexicons/NAME.gaddag
"""

import hashlib

from lookup.formats import GADDAG_MAGIC, SEPARATOR_TILE
from pipeline.build_dawg import build_automaton, graph_bytes, tile_strings, write_graph

_SEPARATOR = chr(SEPARATOR_TILE)


def gaddag_strings(tile_words: list[str]) -> list[str]:
    """All GADDAG strings of words given as tile strings, sorted."""
    strings = []
    for word in tile_words:
        reverse = word[::-1]
        n = len(word)
        strings.append(reverse)
        for i in range(1, n):
            strings.append(reverse[n - i:] + _SEPARATOR + word[i:])
    strings.sort()
    return strings


def gaddag_bytes(words: list[str], alphabet: str, input_sha256: str | None = None) -> bytes:
    """The .gaddag file of sorted, distinct words (input_sha256 defaults to that of the list)."""
    if input_sha256 is None:
        input_sha256 = hashlib.sha256("".join(w + "\n" for w in words).encode()).hexdigest()
    nodes, root = build_automaton(gaddag_strings(tile_strings(words, alphabet)), share=True,
                                  desc="gaddag")
    return graph_bytes(GADDAG_MAGIC, alphabet, input_sha256, len(words), nodes, root,
                       with_counts=False)



def build_gaddag(word_list, alphabet: str, output) -> None:
    """Compile the normalized word list at `word_list` into a .gaddag file at `output`."""
    write_graph(gaddag_bytes, "gaddag", word_list, alphabet, output)
