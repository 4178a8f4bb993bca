"""The turn search's kernel: the move engine's search restricted to plays that cover given
squares (lookup/crossword/turn_search.py lays a cluster's next part on one of its zone squares).

`covering_search` is lookup/crossword/engine_kernel.py's `search`, the same code object, run
with this module's globals, where `setup` is the board setup followed by a mask: an empty
square stays an anchor across only when `params[PARAMS + square]` is set, and down only when
`params[PARAMS + size * size + square]` is (params is the engine's params array with two
flags per square appended). The GADDAG walk lets a play's left part pass
over squares that are not anchors, and generates each play from the leftmost anchor it covers
(engine_kernel.py), so with the mask it lists exactly the plays that cover a flagged anchor,
each once, with the engine's scores and records. Every square next to a tile is an anchor, so
flagging the squares a part must cover loses no play that covers one of them. `joins_reaching`
runs it on many boards in one call, to tell which of a join's choices of blank letters have a
play at all (ClusterSearch tries thousands, and one in a thousand has).

One source for CPython and numba, like the engine's kernel: lookup/crossword/engine_numba.py
compiled_extension compiles TURN_KERNEL_FUNCTIONS against the compiled kernel (this module's
`setup` replaces the kernel's there too, since it is compiled after `board_setup`).
"""

import types

from lookup.crossword import engine_kernel
from lookup.crossword.board import BLANK, LETTER_MASK
from lookup.crossword.engine_kernel import (
    _CODES,
    _F_AFTER,
    _F_CHILD,
    _F_CODE,
    _F_ENDS,
    _F_GOING,
    _F_LAST,
    _F_LEFT_FREE,
    _F_LETTERS,
    _F_MASK,
    _F_NBLANK,
    _F_NEXT_NBLANK,
    _F_NEXT_RMASK,
    _F_NODE,
    _F_ONWARD,
    _F_PHASE,
    _F_RMASK,
    _F_SQUARE,
    _F_START,
    _F_TILE,
    _FRAME,
    ALL_PLAYS,
    BEST_PLAY,
    P_ALL_LETTERS,
    P_BINGO,
    P_MAX_LENGTH,
    P_MIN_LENGTH,
    P_RACK_SIZE,
    P_ROOT,
    P_SIZE,
    PARAMS,
    R_DIRECTION,
    R_LENGTH,
    R_LINE,
    R_START,
    RECORD_FIELDS,
    _anchor_order,
    _leave_key,
    _precedes,
    _rack_setup,
    _write_record,
    bit_count,
    int_array,
    leave_slot,
)
from lookup.crossword.engine_kernel import setup as board_setup
from lookup.crossword.scoring import NO_CROSS_WORD, score_new_tiles
from lookup.formats import ARC_ACCEPTS, ARC_CHILD_SHIFT

# Names covering_search reads from its globals that only the kernel's own module uses; kept
# here so that the copy of its code finds them (ruff would otherwise see them unused).
_SEARCH_GLOBALS = (_CODES, _F_AFTER, _F_CHILD, _F_CODE, _F_ENDS, _F_GOING, _F_LAST,
                   _F_LEFT_FREE, _F_LETTERS, _F_MASK, _F_NBLANK, _F_NEXT_NBLANK, _F_NEXT_RMASK,
                   _F_NODE, _F_ONWARD, _F_PHASE, _F_RMASK, _F_SQUARE, _F_START, _F_TILE, _FRAME,
                   ALL_PLAYS, BEST_PLAY, P_ALL_LETTERS, P_BINGO, P_MAX_LENGTH, P_MIN_LENGTH,
                   P_RACK_SIZE, P_ROOT, RECORD_FIELDS, _anchor_order, _leave_key, _precedes,
                   _rack_setup, _write_record, bit_count, int_array, leave_slot,
                   NO_CROSS_WORD, score_new_tiles, ARC_ACCEPTS, ARC_CHILD_SHIFT, BLANK,
                   LETTER_MASK)


def setup(params, arcs, node_mask, values, order, cells, ocells, checks, cross, anchor):
    """engine_kernel.setup, then an anchor across kept only on a square flagged in
    params[PARAMS + square], and one down only on a square flagged in
    params[PARAMS + size * size + square] (order maps a square of the transposed board, where
    the down plays are searched, to the board's).
    """
    tiles = board_setup(params, arcs, node_mask, values, order, cells, ocells, checks, cross,
                        anchor)
    size = params[P_SIZE]
    n2 = size * size
    for i in range(n2):
        if not params[PARAMS + i]:
            anchor[i] = 0
        if not params[PARAMS + n2 + order[i]]:
            anchor[n2 + i] = 0
    return tiles


# The copy's code names this file, so that numba's cache of it (kept per source file, checked
# against the file's time stamp) is dropped when `setup` above changes, and not confused with
# the kernel's own `search`.
covering_search = types.FunctionType(
    engine_kernel.search.__code__.replace(co_filename=__file__, co_name="covering_search",
                                          co_qualname="covering_search"),
    globals(), "covering_search")
covering_search.__qualname__ = "covering_search"
covering_search.__doc__ = """engine_kernel.search with this module's `setup`: the plays that
cover a square flagged in params[PARAMS:] (module docstring); same arguments and records."""

def joins_reaching(params, arcs, node_mask, values, letter_mult, word_mult, order, cells,
                   squares, codes, tile_counts, rack, member_squares, no_keys, no_values,
                   out, best_equity, reaching):
    """Which of several boards have a covering play that reaches every member of a join:
    choice c lays tiles squares[c, :tile_counts[c]] (codes[c, ...]) on `cells`, and
    reaching[c] becomes 1 when one of the plays covering_search lists there (the squares
    flagged in `params`, the tiles `rack`) puts a tile on a square flagged in every row of
    `member_squares` (flags by square), or when its plays overflow `out` (so unknown).
    ClusterSearch's joins call it for every choice of blank letters of a group's clusters at
    once, then lay only the choices that reach.
    """
    size = params[P_SIZE]
    width = RECORD_FIELDS + size
    capacity = len(out) // width
    members = member_squares.shape[0]
    every = (1 << members) - 1
    board = cells.copy()
    for c in range(len(tile_counts)):
        for t in range(tile_counts[c]):
            board[squares[c, t]] = codes[c, t]
        count = covering_search(params, arcs, node_mask, values, letter_mult, word_mult, order,
                                board, rack, no_keys, no_values, 0.0, ALL_PLAYS, out,
                                best_equity)
        if count > capacity:
            reaching[c] = 1
        for p in range(min(count, capacity)):
            if reaching[c]:
                break
            at = p * width
            if out[at + R_DIRECTION] == 0:
                square = out[at + R_LINE] * size + out[at + R_START]
                stride = 1
            else:
                square = out[at + R_START] * size + out[at + R_LINE]
                stride = size
            covered = 0
            for _ in range(out[at + R_LENGTH]):
                if not board[square]:
                    for m in range(members):
                        if member_squares[m, square]:
                            covered |= 1 << m
                square += stride
            if covered == every:
                reaching[c] = 1
        for t in range(tile_counts[c]):
            board[squares[c, t]] = cells[squares[c, t]]


# Compiled by engine_numba.compiled_extension, callees first.
TURN_KERNEL_FUNCTIONS = ("board_setup", "setup", "covering_search", "joins_reaching")
