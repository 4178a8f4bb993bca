"""Cross-checks (Appel & Jacobson 1988): which letters may go on each empty square.

A tile placed while playing across also forms a vertical word with the tiles directly above
and below it. The cross-check set of a square is the set of letters for which that vertical
word is in the lexicon; squares with no vertical neighbour allow every letter. Sets are
bitmasks over GADDAG tile codes (bit k = tile k), so the move generator intersects them with
the letters a GADDAG node offers and with the rack in one `&` each. The down orientation uses
the transposed board, so one function serves both.
"""

from lookup.crossword.board import LETTER_MASK, run_bounds
from lookup.formats import ARC_ACCEPTS, ARC_CHILD_SHIFT, ARC_LAST, ARC_TILE_MASK, SEPARATOR_TILE


def arc_for(arcs, node_mask, node: int, tile: int) -> int:
    """The arc of `node` labelled `tile`, or 0 when the node has none.

    A node's arcs are contiguous and sorted by tile, so the arc of tile t sits after as many
    arcs as the node has tiles below t: popcount(mask & (2**t - 1)).
    """
    mask = node_mask[node]
    bit = 1 << tile
    if not mask & bit:
        return 0
    return arcs[node + (mask & (bit - 1)).bit_count()]


def _walk(arcs, node_mask, node: int, tiles) -> int:
    """Follow `tiles` from `node`; the last arc taken, or 0 if the path leaves the graph."""
    arc = 0
    for tile in tiles:
        if not node:
            return 0
        arc = arc_for(arcs, node_mask, node, tile)
        if not arc:
            return 0
        node = arc >> ARC_CHILD_SHIFT
    return arc


def cross_check(arcs, node_mask, root: int, above, below) -> int:
    """Bitmask of tiles L such that above + L + below is a word (above or below non-empty).

    Uses the GADDAG string of that word split after `above` (reverse(above + L) would need one
    walk per letter): reverse(above), separator, then L + below for each L the node offers.
    With nothing above, the split after L is used: L, separator, below.

    Args:
        arcs: the GADDAG's arcs.
        node_mask: tile bitmask of the node starting at each arc index (see movegen).
        root: index of the root node.
        above: tile codes of the tiles above the square, top to bottom.
        below: tile codes of the tiles below the square, top to bottom.
    """
    allowed = 0
    if above:
        arc = _walk(arcs, node_mask, root, reversed(above))
        node = arc >> ARC_CHILD_SHIFT
        arc = arc_for(arcs, node_mask, node, SEPARATOR_TILE) if node else 0
        node = arc >> ARC_CHILD_SHIFT
        if not node:
            return 0
        index = node
        while True:
            letter_arc = arcs[index]
            tile = letter_arc & ARC_TILE_MASK
            if below:
                last = _walk(arcs, node_mask, letter_arc >> ARC_CHILD_SHIFT, below)
            else:
                last = letter_arc
            if last & ARC_ACCEPTS:
                allowed |= 1 << tile
            if letter_arc & ARC_LAST:
                return allowed
            index += 1
    index = root
    while root:
        letter_arc = arcs[index]
        tile = letter_arc & ARC_TILE_MASK
        if tile != SEPARATOR_TILE:
            node = letter_arc >> ARC_CHILD_SHIFT
            sep = arc_for(arcs, node_mask, node, SEPARATOR_TILE) if node else 0
            if sep and _walk(arcs, node_mask, sep >> ARC_CHILD_SHIFT, below) & ARC_ACCEPTS:
                allowed |= 1 << tile
        if letter_arc & ARC_LAST:
            break
        index += 1
    return allowed


def cross_checks(cells, size: int, arcs, node_mask, root: int, all_letters: int,
                 max_length: int) -> list[int]:
    """Cross-check bitmask of every square of `cells` read across (0 for occupied squares).

    Args:
        cells: GADDAG tile codes, row-major (0 empty; the blank bit may be set).
        size: squares per side.
        arcs: the GADDAG's arcs.
        node_mask: tile bitmask of the node starting at each arc index.
        root: index of the root node.
        all_letters: bitmask of the tiles the game has; a square without vertical neighbours
            allows all of them, and no square allows a letter outside it.
        max_length: the longest word the game allows; a longer cross word allows nothing.
    """
    checks = [0] * (size * size)
    for index, code in enumerate(cells):
        if code:
            continue
        first, last = run_bounds(cells, size, index, size)
        if first == last:
            checks[index] = all_letters
            continue
        above = [cells[j] & LETTER_MASK for j in range(first, index, size)]
        below = [cells[j] & LETTER_MASK for j in range(index + size, last + 1, size)]
        if (last - first) // size + 1 > max_length:
            checks[index] = 0
        else:
            checks[index] = cross_check(arcs, node_mask, root, above, below) & all_letters
    return checks
