"""The turn search's kernel: the move engine's search restricted to plays that cover given
squares (lookup/crossword/turn_search.py lays a cluster's next part on one of its zone squares).

`covering_search` is lookup/crossword/engine_kernel.py's `search`, the same code object, run
with this module's globals, where `search_arrays` makes the board's setup with this module's
`setup` (the position's, turned by the tiles laid on it: the search's argument in place of
the cells) followed by a mask: an empty
square stays an anchor across only when `params[PARAMS + square]` is set, and down only when
`params[PARAMS + size * size + square]` is (params is the engine's params array with two
flags per square appended). The GADDAG walk lets a play's left part pass
over squares that are not anchors, and generates each play from the leftmost anchor it covers
(engine_kernel.py), so with the mask it lists exactly the plays that cover a flagged anchor,
each once, with the engine's scores and records. Every square next to a tile is an anchor, so
flagging the squares a part must cover loses no play that covers one of them. `joins_reaching`
runs it on many boards in one call, to tell which of a join's choices of blank letters have a
play at all (ClusterSearch tries thousands, and one in a hundred has); `join_choices` lists
the choices of many groups (one cluster of each member class, those not tried before) and
keeps those that reach, a group of several choices first looked at as a whole
(`_join_may_reach`: its choices differ only in their blanks' letters, and most groups have none
that reaches). `lay_covering` lists
the plays and lays each as the next part of a cluster in the same call: its new tiles, the
cluster's key, score, zone and words (ClusterSearch's `_add` and `_layout` in Python, which the
tests hold it to), so that ClusterSearch makes only the clusters it has not seen.
`join_groups` lists the groups of clusters a part may join, as ClusterSearch._grow walks them
in Python (the reference the tests hold it to).

Written like the engine's kernel: lookup/crossword/engine_numba.py compiled_extension compiles
TURN_KERNEL_FUNCTIONS against the compiled kernel (this module's `setup` and `search_arrays`
replace the kernel's there too, since they are compiled after `board_setup`). ClusterSearch
runs them compiled only (the functions after `covering_search` take numpy arrays and numba's
integers); without numba it lays and joins clusters in Python, the reference the tests hold
these to.
"""

import types

import numpy as np

from lookup.crossword import engine_kernel
from lookup.crossword.board import BLANK, LETTER_MASK, run_bounds
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
    P_START,
    PARAMS,
    R_BLANKS,
    R_DIRECTION,
    R_LENGTH,
    R_LINE,
    R_SCORE,
    R_START,
    RECORD_FIELDS,
    _anchor_order,
    _cross_check,
    _leave_key,
    _precedes,
    _rack_setup,
    _write_record,
    bit_count,
    int_array,
    leave_slot,
    records_precede,
    update_setup,
)
from lookup.crossword.engine_kernel import setup as board_setup
from lookup.crossword.scoring import NO_CROSS_WORD, score_new_tiles
from lookup.formats import ARC_ACCEPTS, ARC_CHILD_SHIFT

# Names covering_search and board_setup read from their globals that only the kernel's own
# module uses; kept here so that the copies of their code find them (ruff would otherwise see
# them unused). (Numba may load a copy compiled from the kernel's module from its cache, but
# not when engine_kernel.py is newer than the cache: then the copy is compiled here.)
_SEARCH_GLOBALS = (_CODES, _F_AFTER, _F_CHILD, _F_CODE, _F_ENDS, _F_GOING, _F_LAST,
                   _F_LEFT_FREE, _F_LETTERS, _F_MASK, _F_NBLANK, _F_NEXT_NBLANK, _F_NEXT_RMASK,
                   _F_NODE, _F_ONWARD, _F_PHASE, _F_RMASK, _F_SQUARE, _F_START, _F_TILE, _FRAME,
                   ALL_PLAYS, BEST_PLAY, P_ALL_LETTERS, P_BINGO, P_MAX_LENGTH, P_MIN_LENGTH,
                   P_RACK_SIZE, P_ROOT, P_START, RECORD_FIELDS, _anchor_order, _cross_check,
                   _leave_key, _precedes, _rack_setup, _write_record, bit_count, int_array,
                   leave_slot,
                   NO_CROSS_WORD, score_new_tiles, ARC_ACCEPTS, ARC_CHILD_SHIFT, BLANK,
                   LETTER_MASK)


def setup(params, arcs, node_mask, values, order, prepared, ocells, checks, cross, anchor):
    """covering_search's board setup: the position's arrays (prepared[0:4]: engine_kernel.setup's
    ocells, checks, cross and anchor of the position, position_setup) copied and turned by the
    tiles laid on it (prepared[4][:count] their squares, prepared[5] their cell codes, count
    prepared[6][0]: engine_kernel.update_setup, the same arrays as a setup of the board with
    them, for a fraction of its work), then an anchor across kept only on a square flagged in
    params[PARAMS + square], and one down only on a square flagged in
    params[PARAMS + size * size + square] (order maps a square of the transposed board, where
    the down plays are searched, to the board's). Returns 0 (no caller reads it).
    """
    base_ocells = prepared[0]
    base_checks = prepared[1]
    base_cross = prepared[2]
    base_anchor = prepared[3]
    tiles = 0
    for i in range(len(ocells)):
        ocells[i] = base_ocells[i]
        checks[i] = base_checks[i]
        cross[i] = base_cross[i]
        anchor[i] = base_anchor[i]
        if base_ocells[i]:
            tiles += 1
    update_setup(params, arcs, node_mask, values, order, prepared[4], prepared[5],
                 prepared[6][0], ocells, checks, cross, anchor)
    size = params[P_SIZE]
    n2 = size * size
    if not tiles and prepared[6][0]:
        # The empty position's one anchor, the start square, stays one only next to a tile
        # (update_setup flags the new tiles' neighbours, and no other square changes).
        for o in range(2):
            base = o * n2
            i = params[P_START] if o == 0 else order[params[P_START]]
            col = i % size
            if not ((i >= size and ocells[base + i - size])
                    or (i + size < n2 and ocells[base + i + size])
                    or (col > 0 and ocells[base + i - 1])
                    or (col < size - 1 and ocells[base + i + 1])):
                anchor[base + i] = 0
    for i in range(n2):
        if not params[PARAMS + i]:
            anchor[i] = 0
        if not params[PARAMS + n2 + order[i]]:
            anchor[n2 + i] = 0
    return 0


# engine_kernel.search_arrays's code with this module's `setup` (its file named here, as
# covering_search's below): covering_search's board setup, made from the position's arrays.
search_arrays = types.FunctionType(
    engine_kernel.search_arrays.__code__.replace(co_filename=__file__), globals(),
    "search_arrays")
search_arrays.__doc__ = """covering_search's board setup: `setup`'s arrays of `prepared` (the
position's arrays copied and turned by the tiles laid, anchors kept on flagged squares)."""


def position_setup(params, arcs, node_mask, values, order, cells):
    """engine_kernel.setup's arrays of the position `cells` as the rows of one array (ocells,
    checks, cross, anchor), which covering_search's boards are turned from (`setup`).
    ClusterSearch makes them once per position, for every lay_batch and join_choices call.
    """
    n2 = params[P_SIZE] * params[P_SIZE]
    position = np.zeros((4, 2 * n2), np.int64)
    board_setup(params, arcs, node_mask, values, order, cells, position[0], position[1],
                position[2], position[3])
    return position


# The copy's code names this file, so that numba's cache of it (kept per source file, checked
# against the file's time stamp) is dropped when `setup` above changes, and not confused with
# the kernel's own `search`.
covering_search = types.FunctionType(
    engine_kernel.search.__code__.replace(co_filename=__file__, co_name="covering_search",
                                          co_qualname="covering_search"),
    globals(), "covering_search")
covering_search.__qualname__ = "covering_search"
covering_search.__doc__ = """engine_kernel.search with this module's `search_arrays`: the plays
that cover a square flagged in params[PARAMS:] (module docstring) of the board `setup` turns
from the position's arrays (the argument in place of the cells: `setup`'s `prepared`); same
records."""

def _first_square(out, at, size):
    """(first square, stride between its squares) of the play recorded at out[at:]."""
    if out[at + R_DIRECTION] == 0:
        return out[at + R_LINE] * size + out[at + R_START], 1
    return out[at + R_START] * size + out[at + R_LINE], size


def joins_reaching(params, arcs, node_mask, values, letter_mult, word_mult, order, cells,
                   position, tiles, first, last, size_of, rack, member_squares, no_keys,
                   no_values, out, best_equity, reaching):
    """Which of several boards have a covering play that reaches every member of a join:
    choice c (from `first` to `last`) lays the size_of tiles tiles[first_tile + t] ((square,
    code) rows, the choices one after another from tile 0 at choice `first`) on `cells`, and
    reaching[c] becomes 1 when one of the plays covering_search lists there (the squares
    flagged in `params`, the tiles `rack`) puts a tile on a square flagged in every row of
    `member_squares` (flags by square), or when its plays overflow `out` (so unknown).
    ClusterSearch's joins ask it for every choice of blank letters of a group's clusters at
    once, then lay only the choices that reach. `position`: position_setup's arrays of `cells`.
    """
    size = params[P_SIZE]
    width = RECORD_FIELDS + size
    capacity = len(out) // width
    members = member_squares.shape[0]
    every = (1 << members) - 1
    board = cells.copy()
    squares = int_array(size_of)
    codes = int_array(size_of)
    count_of = int_array(1)
    count_of[0] = size_of
    prepared = (position[0], position[1], position[2], position[3], squares, codes, count_of)
    for c in range(first, last):
        at_tile = (c - first) * size_of
        for t in range(size_of):
            board[tiles[at_tile + t, 0]] = tiles[at_tile + t, 1]
            squares[t] = tiles[at_tile + t, 0]
            codes[t] = tiles[at_tile + t, 1]
        count = covering_search(params, arcs, node_mask, values, letter_mult, word_mult, order,
                                prepared, rack, no_keys, no_values, 0.0, ALL_PLAYS, out,
                                best_equity)
        if count > capacity:
            reaching[c] = 1
        for p in range(min(count, capacity)):
            if reaching[c]:
                break
            at = p * width
            square, stride = _first_square(out, at, size)
            covered = 0
            for _ in range(out[at + R_LENGTH]):
                if not board[square]:
                    for m in range(members):
                        if member_squares[m, square]:
                            covered |= 1 << m
                square += stride
            if covered == every:
                reaching[c] = 1
        for t in range(size_of):
            board[tiles[at_tile + t, 0]] = cells[tiles[at_tile + t, 0]]


# The first number of a _lay_request array: one list of squares follows (flagged across and
# down, and the zone before), or three.
REQUEST_ONE_LIST = 1
REQUEST_THREE_LISTS = 0

# lay_covering's row for one play (laid[p], p its record): whether its new tiles cover a square
# of every member's, how many, their squares and codes, the sub-multiset index of the rack they
# use, the cluster's key (its tiles sorted by square, 15 bits each: square << 7 | code, four
# per number), the gain in score; with one rack tile left after the part, the most that tile
# can add (ClusterSearch._gain_bound; else 0); the cluster's shape (its key with each blank's
# letter left out); the zone and the part's own zone, each as ZONE_WORDS numbers of ZONE_BITS
# squares and as a count and a list of squares (ZONE_LIMIT at most: four per tile); and, last
# (a caller that keeps no words reads the row up to L_FORMED), the words the part forms (one
# per tile and the main word) and swallows (one on either side of each tile in each direction
# at most), as word keys in two numbers (the letters' codes in base 64, the last
# WORD_LOW_LETTERS in the second number).
L_KEEP = 0
L_TILES = 1
L_SQUARES = 2
L_CODES = 9
L_USED = 16
L_KEY = 17
L_GAIN = 19
L_ONE_TILE = 20
L_SHAPE = 21
L_ZONE = 23
ZONE_WORDS = 4
ZONE_BITS = 60
ZONE_LIMIT = 28
L_NEW_ZONE = L_ZONE + ZONE_WORDS
L_ZONE_SQUARES = L_NEW_ZONE + ZONE_WORDS
L_NEW_ZONE_SQUARES = L_ZONE_SQUARES + 1 + ZONE_LIMIT
L_FORMED = L_NEW_ZONE_SQUARES + 1 + ZONE_LIMIT
FORMED_LIMIT = 8
L_SWALLOWED = L_FORMED + 1 + 2 * FORMED_LIMIT
SWALLOWED_LIMIT = 28
LAID_FIELDS = L_SWALLOWED + 1 + 2 * SWALLOWED_LIMIT
# A word key is its letters' codes (1-63) in base 64, the last WORD_LOW_LETTERS of them in the
# low number, the others in the high: key = high << (6 * WORD_LOW_LETTERS) | low.
WORD_LOW_LETTERS = 10


# The tables' hash: each key number (non-negative) mixed in by a multiply, kept to 63 bits (the
# same in CPython and numba's wrapping int64), then its high bits folded into its low ones,
# which pick the slot. (A multiply alone leaves a slot to the key's low bits: a join choice's
# key holds its first cluster's index there, and every choice with that cluster probed one
# run of slots.)
HASH_MULTIPLIER = 6364136223846793005
HASH_BITS = (1 << 63) - 1


def _table_slot(table, key, at, words):
    """The slot of the key key[at:at + words] in the open-addressing table `table` (rows, the
    key in the first `words` numbers, a power of two of them, TABLE_EMPTY first in a free
    row): its row, or the free row where it would go.
    """
    mask = table.shape[0] - 1
    h = 0
    for w in range(words):
        h = ((h ^ int(key[at + w])) * HASH_MULTIPLIER) & HASH_BITS
        h ^= h >> 29
    slot = h & mask
    while table[slot, 0] != TABLE_EMPTY:
        same = True
        for w in range(words):
            if table[slot, w] != key[at + w]:
                same = False
                break
        if same:
            return slot
        slot = (slot + 1) & mask
    return slot


def table_grow(table, larger, words):
    """Move the rows of the open-addressing table `table` (keys of `words` numbers) into the
    empty table `larger`.
    """
    for row in range(table.shape[0]):
        if table[row, 0] != TABLE_EMPTY:
            slot = _table_slot(larger, table[row], 0, words)
            for f in range(table.shape[1]):
                larger[slot, f] = table[row, f]


def _line_word_exists(arcs, node_mask, root, all_letters, code, wild, check, first, last,
                      counts, node_at, candidates, taken):
    """Whether some word fills the squares first..last of a line (code[k]: the letter there, 0
    empty; wild[k]: when not 0, the letters that will do there instead of code[k]'s; check[k]:
    the letters an empty square may take), its empty squares with tiles of `counts` (by code,
    counts[0] blanks: any letter), read on the GADDAG from its first letter (that letter, the
    separator, then the rest). counts is as it was on return; node_at, candidates, taken are
    room (last - first + 2 entries).
    """
    length = last - first + 1
    rack_mask = 0
    for letter in range(1, len(counts)):
        if counts[letter]:
            rack_mask |= 1 << letter
    d = 0
    node_at[0] = root
    taken[0] = -1
    candidates[0] = -1
    while d >= 0:
        k = first + d
        node = node_at[d]
        mask = node_mask[node]
        if candidates[d] < 0:
            if code[k]:
                if wild[k]:
                    candidates[d] = mask & wild[k]
                else:
                    candidates[d] = mask & (1 << (code[k] & LETTER_MASK))
            else:
                available = all_letters if counts[0] else rack_mask
                candidates[d] = mask & check[k] & available
        if taken[d] >= 0:
            counts[taken[d]] += 1
            taken[d] = -1
        if not candidates[d]:
            candidates[d] = -1
            d -= 1
            continue
        bit = candidates[d] & -candidates[d]
        candidates[d] ^= bit
        arc = arcs[node + bit_count(mask & (bit - 1))]
        child = arc >> ARC_CHILD_SHIFT
        if not code[k]:
            # A tile of its letter when there is one (a blank left can do all it can); none
            # left (taken on an earlier square) and no blank: not this letter.
            letter = bit_count(bit - 1)
            if counts[letter]:
                taken[d] = letter
            elif counts[0]:
                taken[d] = 0
            else:
                continue
            counts[taken[d]] -= 1
        if d == length - 1:
            if arc & ARC_ACCEPTS:
                for e in range(length):
                    if taken[e] >= 0:
                        counts[taken[e]] += 1
                return True
            continue
        if d == 0:
            child = _past_separator(arcs, node_mask, child)
        if not child:
            continue
        d += 1
        node_at[d] = child
        candidates[d] = -1
        taken[d] = -1
    return False


def _past_separator(arcs, node_mask, node):
    """The GADDAG node past the separator (tile 0, a node's first arc) from `node`, after a
    line's first letter (_line_word_exists and _line_word_letters read a line so), else 0.
    """
    if not node or not node_mask[node] & 1:
        return 0
    return arcs[node] >> ARC_CHILD_SHIFT


def _line_word_letters(arcs, node_mask, root, code, wild, length, at, available, node_at,
                       candidates, chosen):
    """The letters of `available` that the one empty square `at` of a line of `length`
    squares can take so that a word fills the line: code[k] the letter on square k (0 at
    `at` only), wild[k], when not 0, the letters square k's tile may be instead (a blank whose
    letter varies). One walk of the GADDAG from the line's first letter (that letter, the
    separator, then the rest) for all of them: once a word gives `at` a letter, the walk
    returns to `at` for its next one, and a letter found is not tried again. node_at,
    candidates, chosen are room (`length` entries).
    """
    found = 0
    d = 0
    node_at[0] = root
    candidates[0] = -1
    while d >= 0:
        node = node_at[d]
        mask = node_mask[node]
        if candidates[d] < 0:
            if d == at:
                candidates[d] = mask & available & ~found
            elif wild[d]:
                candidates[d] = mask & wild[d]
            else:
                candidates[d] = mask & (1 << (code[d] & LETTER_MASK))
        if not candidates[d]:
            d -= 1
            continue
        bit = candidates[d] & -candidates[d]
        candidates[d] ^= bit
        chosen[d] = bit
        arc = arcs[node + bit_count(mask & (bit - 1))]
        if d == length - 1:
            if arc & ARC_ACCEPTS:
                found |= chosen[at]
                # (The other ways on from `at` would give it the same letter.)
                d = at
            continue
        child = arc >> ARC_CHILD_SHIFT
        if d == 0:
            child = _past_separator(arcs, node_mask, child)
        if not child:
            continue
        d += 1
        node_at[d] = child
        candidates[d] = -1
    return found


def _cross_letters(arcs, node_mask, root, board, wild, square, step, size, exact, available,
                   code, run_wild, node_at, candidates, chosen):
    """The letters an empty `square` may take for its cross word along `step` (1: the row,
    size: the column): `exact`, its cross check on `board`, unless a tile of that word is a
    blank whose letter varies (wild[t]: the letters it may be, 0 for a fixed tile); then each
    letter of `available` that makes a word with some letter of each such blank
    (_line_word_letters). code .. chosen are room (`size` entries).
    """
    first, last = run_bounds(board, size, square, step)
    varies = False
    length = 0
    at = 0
    other = first
    while other <= last:
        code[length] = board[other]
        run_wild[length] = wild[other]
        if wild[other]:
            varies = True
        if other == square:
            at = length
        length += 1
        other += step
    if not varies:
        return exact
    return _line_word_letters(arcs, node_mask, root, code, run_wild, length, at, available,
                              node_at, candidates, chosen)


def _join_may_reach(params, arcs, node_mask, values, order, cells, position, laid, choices,
                    size_of, flags, members, lines, rack, board, ocells, checks, cross, anchor):
    """Whether a join group may have a choice that reaches (join_choices), looked at once for
    all its choices: the tiles of `choices` choices (`laid`, size_of (square, code) rows each,
    on the same squares: they differ only in their blanks' letters) laid on `cells`, a blank's
    square taking any letter a choice gives it there. True when some run of squares on one of
    the group's `lines` (bit r: row r across, bit size + c: column c down), bounded by empty
    squares or the edge, holds 1 to sum(rack) empty squares that cover a square flagged in
    every row of `flags[:members]`, and can be filled with the rack's tiles into a word whose
    tiles' cross words are words (through such a blank, with some letter of it:
    _cross_letters). Every play a choice's joins_reaching would find is such a run, so False
    means no choice reaches. `position`: position_setup's arrays of `cells`; `board` ..
    `anchor` are room.
    """
    size = params[P_SIZE]
    n2 = size * size
    all_letters = params[P_ALL_LETTERS]
    for i in range(n2):
        board[i] = cells[i]
    # wild[square]: the letters the choices' blanks take there (0: no blank).
    wild = int_array(n2)
    for t in range(size_of):
        board[laid[t, 0]] = laid[t, 1]
    for t in range(choices * size_of):
        if laid[t, 1] & BLANK:
            wild[laid[t, 0]] |= 1 << (laid[t, 1] & LETTER_MASK)
    # The setup of the board with the first choice's tiles: the position's turned by them.
    for i in range(len(ocells)):
        ocells[i] = position[0][i]
        checks[i] = position[1][i]
        cross[i] = position[2][i]
        anchor[i] = position[3][i]
    update_setup(params, arcs, node_mask, values, order, laid[:size_of, 0], laid[:size_of, 1],
                 size_of, ocells, checks, cross, anchor)
    tiles_left = 0
    counts = int_array(len(rack))
    for code in range(len(rack)):
        counts[code] = rack[code]
        tiles_left += rack[code]
    every = (1 << members) - 1
    code = int_array(size)
    line_wild = int_array(size)
    check = int_array(size)
    joined = int_array(size)
    node_at = int_array(size + 2)
    candidates = int_array(size + 2)
    taken = int_array(size + 2)
    run_code = int_array(size)
    run_wild = int_array(size)
    available = all_letters if counts[0] else 0
    for letter in range(1, len(counts)):
        if counts[letter]:
            available |= 1 << letter
    for line in range(2 * size):
        if not lines >> line & 1:
            continue
        # Square k of the line, and the step across it (its cross words run that way).
        if line < size:
            first_square, step, cross_step = line * size, 1, size
        else:
            first_square, step, cross_step = line - size, size, 1
        low = size
        high = -1
        for k in range(size):
            square = first_square + k * step
            code[k] = board[square]
            line_wild[k] = wild[square]
            joined[k] = 0
            for m in range(members):
                if flags[m, square]:
                    joined[k] |= 1 << m
            if joined[k]:
                low = min(low, k)
                high = max(high, k)
            if line < size:
                check[k] = checks[square]
            else:
                check[k] = checks[n2 + (line - size) * size + k]
        if high < 0:
            continue
        # A run the loop below accepts holds a joined square (empty) and at most tiles_left
        # empty squares: it lies within as many empty squares of the first and the last
        # joined square, so only there do the cross words through varying blanks matter.
        empties = 1
        while low > 0 and (code[low - 1] or empties < tiles_left):
            low -= 1
            if not code[low]:
                empties += 1
        empties = 1
        while high < size - 1 and (code[high + 1] or empties < tiles_left):
            high += 1
            if not code[high]:
                empties += 1
        for k in range(low, high + 1):
            if not code[k]:
                check[k] = _cross_letters(arcs, node_mask, params[P_ROOT], board, wild,
                                          first_square + k * step, cross_step, size, check[k],
                                          available, run_code, run_wild, node_at, candidates,
                                          taken)
        for first in range(size):
            if first and code[first - 1]:
                continue
            empties = 0
            covered = 0
            for last in range(first, size):
                if not code[last]:
                    empties += 1
                    covered |= joined[last]
                    if empties > tiles_left:
                        break
                if last < size - 1 and code[last + 1]:
                    continue
                if covered != every:
                    continue
                if first == last:
                    if check[first] & available:
                        return True
                elif _line_word_exists(arcs, node_mask, params[P_ROOT], all_letters, code,
                                       line_wild, check, first, last, counts, node_at,
                                       candidates, taken):
                    return True
    return False


def join_choices(params, arcs, node_mask, values, letter_mult, word_mult, order, cells,
                 position, groups, first_group, last_group, used, join_start, joins,
                 variant_start, variants, tile_start, tiles, scores, tile_count, full, left_of,
                 threshold, extra, tried, tried_count, look_first, no_keys, no_values, out,
                 best_equity, found, found_count):
    """ClusterSearch's choices of the groups first_group..last_group-1 of `groups` (join_groups
    rows) on the position `cells` (`position`: its position_setup) that a part can join, as
    rows of `found` (FOUND_FIELDS): for each group in order, each choice of one cluster of
    every member class (the last member's varying fastest) not in the table `tried` (added
    now), kept when one of the plays a join would lay covers a join square of every member
    (joins_reaching). With `look_first`, a group of several choices not tried is first looked
    at as a whole (_join_may_reach): most have no choice that reaches, and one look rules all
    of theirs out (the same rows).

    Class c uses sub-multiset used[c], has the join squares joins[join_start[c]:join_start[c +
    1]] and the clusters variants[variant_start[c]:variant_start[c + 1]] (indexes of the
    clusters that may be members), the first scoring scores[c]; cluster i's tiles are the
    (square, code) rows tiles[tile_start[i]:tile_start[i + 1]]; left_of[m] the rack left
    after sub-multiset m. A group that leaves one tile is skipped when even the best one tile
    on a square of every member's joins (_one_tile_gain) cannot bring its score + `extra`
    (the bingo and the worth of an empty leave) to `threshold`
    (ClusterSearch._one_tile_join_reaches).

    Returns the index of the first group not done: last_group, or earlier when the next
    group's choices could fill `tried` past half or overflow `found` (the caller makes room
    and goes on from there). tried_count[0] and found_count[0] count the rows used.
    """
    size = params[P_SIZE]
    n2 = size * size
    board = cells.copy()
    fresh = int_array(n2)
    common = int_array(n2)
    squares = int_array(n2)
    flags = np.zeros((MAX_MEMBERS, n2), np.int64)
    scratch = int_array(n2)
    ocells = int_array(2 * n2)
    checks = int_array(2 * n2)
    cross = int_array(2 * n2)
    anchor = int_array(2 * n2)
    index = int_array(MAX_MEMBERS)
    chosen = int_array(MAX_MEMBERS)
    key = int_array(TRIED_WORDS)
    for g in range(first_group, last_group):
        members = groups[g, G_COUNT]
        total = 1
        group_used = 0
        size_of = 0
        for j in range(members):
            c = groups[g, G_MEMBERS + j]
            total *= variant_start[c + 1] - variant_start[c]
            group_used += used[c]
            first = variants[variant_start[c]]
            size_of += tile_start[first + 1] - tile_start[first]
        if (2 * (tried_count[0] + total) > tried.shape[0]
                or found_count[0] + total > found.shape[0]):
            return g
        rack = left_of[group_used]
        if groups[g, G_AFTER] < 2:
            # The members' first clusters laid (a blank's letter changes no value).
            score = 0
            for j in range(members):
                c = groups[g, G_MEMBERS + j]
                score += scores[c]
                for i in range(join_start[c], join_start[c + 1]):
                    common[joins[i]] += 1
                first = variants[variant_start[c]]
                for t in range(tile_start[first], tile_start[first + 1]):
                    board[tiles[t, 0]] = tiles[t, 1]
                    fresh[tiles[t, 0]] = 1
            count = 0
            for i in range(n2):
                if common[i] == members:
                    squares[count] = i
                    count += 1
                common[i] = 0
            best_value = 0
            for code in range(1, len(rack)):
                if rack[code] and values[code] > best_value:
                    best_value = values[code]
            reaches = count > 0 and score + _one_tile_gain(
                board, fresh, fresh, squares, 0, count, size, values, letter_mult, word_mult,
                best_value) + extra >= threshold
            for i in range(n2):
                board[i] = cells[i]
                fresh[i] = 0
            if not reaches:
                continue
        # The choices not tried, their tiles one after another.
        laid = np.zeros((total * size_of, 2), np.int64)
        ids = np.zeros((total, MAX_MEMBERS), np.int64)
        new = 0
        for j in range(members):
            index[j] = 0
        for _ in range(total):
            for j in range(members):
                c = groups[g, G_MEMBERS + j]
                chosen[j] = variants[variant_start[c] + index[j]]
            for w in range(TRIED_WORDS):
                key[w] = 0
            for j in range(members):
                # Sorted into key: each index at its rank among the members' (distinct).
                value = chosen[j]
                rank = 0
                for other in range(members):
                    if chosen[other] < value:
                        rank += 1
                key[rank // 2] |= value << (TRIED_SHIFT * (rank % 2))
            slot = _table_slot(tried, key, 0, TRIED_WORDS)
            if tried[slot, 0] == TABLE_EMPTY:
                for w in range(TRIED_WORDS):
                    tried[slot, w] = key[w]
                tried_count[0] += 1
                at = new * size_of
                for j in range(members):
                    ids[new, j] = chosen[j]
                    for t in range(tile_start[chosen[j]], tile_start[chosen[j] + 1]):
                        laid[at, 0] = tiles[t, 0]
                        laid[at, 1] = tiles[t, 1]
                        at += 1
                new += 1
            j = members - 1
            while j >= 0:
                c = groups[g, G_MEMBERS + j]
                index[j] += 1
                if index[j] < variant_start[c + 1] - variant_start[c]:
                    break
                index[j] = 0
                j -= 1
        if not new:
            continue
        lines = groups[g, G_LINES]
        for j in range(members):
            c = groups[g, G_MEMBERS + j]
            for i in range(join_start[c], join_start[c + 1]):
                flags[j, joins[i]] = 1
        # Most groups have no choice that reaches: with several choices, one look at them all
        # (_join_may_reach) first.
        if look_first and new > 1 and not _join_may_reach(
                params, arcs, node_mask, values, order, cells, position, laid, new, size_of,
                flags, members, lines, rack, scratch, ocells, checks, cross, anchor):
            for j in range(members):
                for i in range(n2):
                    flags[j, i] = 0
            continue
        # The part's squares: the first member's join squares on the group's lines.
        c = groups[g, G_MEMBERS]
        for i in range(join_start[c], join_start[c + 1]):
            square = joins[i]
            if lines >> (square // size) & 1:
                params[PARAMS + square] = 1
            if lines >> (size + square % size) & 1:
                params[PARAMS + n2 + square] = 1
        reaching = int_array(new)
        joins_reaching(params, arcs, node_mask, values, letter_mult, word_mult, order, cells,
                       position, laid, 0, new, size_of, rack, flags[:members], no_keys,
                       no_values, out, best_equity, reaching)
        for i in range(PARAMS, PARAMS + 2 * n2):
            params[i] = 0
        for j in range(members):
            for i in range(n2):
                flags[j, i] = 0
        for choice in range(new):
            if reaching[choice]:
                row = found_count[0]
                found[row, 0] = g
                for j in range(members):
                    found[row, 1 + j] = ids[choice, j]
                found_count[0] += 1
    return last_group


def _first_empty(board, size, square, direction):
    """The first empty square from `square` going right, left, down or up (direction 0-3),
    past the tiles on the way; -1 past the board's edge.
    """
    dr = 0
    dc = 0
    if direction == 0:
        dc = 1
    elif direction == 1:
        dc = -1
    elif direction == 2:
        dr = 1
    else:
        dr = -1
    r = square // size + dr
    c = square % size + dc
    while 0 <= r < size and 0 <= c < size and board[r * size + c]:
        r += dr
        c += dc
    if 0 <= r < size and 0 <= c < size:
        return r * size + c
    return -1


def _word_into(laid, p, at, board, first, last, step):
    """Write the word of the run first..last (step) on `board` as a key at laid[p, at:]."""
    length = (last - first) // step + 1
    high = 0
    low = 0
    q = 0
    for index in range(first, last + 1, step):
        code = board[index] & LETTER_MASK
        if length - q > WORD_LOW_LETTERS:
            high = high * 64 + code
        else:
            low = low * 64 + code
        q += 1
    laid[p, at] = high
    laid[p, at + 1] = low


def _sort_into(squares, count, row, at):
    """Write count, then squares[:count] in increasing order, at row[at:]."""
    row[at] = count
    for i in range(count):
        value = squares[i]
        j = at + i
        while j > at and row[j] > value:
            row[j + 1] = row[j]
            j -= 1
        row[j + 1] = value


def lay_covering(params, arcs, node_mask, values, letter_mult, word_mult, order, cells,
                 prepared, rack, no_keys, no_values, out, best_equity, fresh, zone_before,
                 members, strides, base_tiles, laid, ranked, seen, made_again):
    """covering_search's plays of (cells, rack), each laid as ClusterSearch lays a part of a
    cluster (lookup/crossword/turn_search.py `_add` and `_layout`): laid[p] (L_* fields) for
    record p of `out`, and ranked[:count] the records in the order of the play tuples sorted
    (score down, then the engine's tie order, records_precede). `prepared`: the board `cells`
    as covering_search takes it (`setup`).

    `fresh` flags the squares of the tiles before the part (new in the turn: their premiums
    count), `zone_before` lists their zone's squares (each once); a part is kept when it
    covers a square flagged in every row of `members`; `strides` gives each tile code's digit
    in the rack's sub-multiset index (0: a blank); base_tiles[i] the tiles before the part as
    square << 7 | code, for the key.

    A play whose cluster is in the table `seen` (lay_batch's) is not laid past its key and
    used tiles (L_KEEP 0: a third of the plays with two blanks) unless it was made and the
    part's tiles make the sub-multiset `made_again` (the whole rack: lay_batch lists it).

    Returns the number of plays: when more than the room of `out` or `laid`, nothing is laid
    and the caller runs again with room for all.
    """
    size = params[P_SIZE]
    n2 = size * size
    width = RECORD_FIELDS + size
    count = covering_search(params, arcs, node_mask, values, letter_mult, word_mult, order,
                            prepared, rack, no_keys, no_values, 0.0, ALL_PLAYS, out, best_equity)
    if count > len(out) // width or count > laid.shape[0]:
        return count
    board = cells.copy()
    placed = int_array(n2)
    zone = int_array(n2)
    keys = int_array(16)
    # A play's zone squares, and its part's own (at most four per tile).
    listed = int_array(len(zone_before) + 4 * params[P_RACK_SIZE])
    new_listed = int_array(4 * params[P_RACK_SIZE])
    for p in range(count):
        at = p * width
        laid[p, L_KEEP] = 0
        laid[p, L_ONE_TILE] = 0
        for f in range(2):
            laid[p, L_KEY + f] = 0
            laid[p, L_SHAPE + f] = 0
        for f in range(ZONE_WORDS):
            laid[p, L_ZONE + f] = 0
            laid[p, L_NEW_ZONE + f] = 0
        square, stride = _first_square(out, at, size)
        tiles = 0
        used = 0
        blanks = out[at + R_BLANKS]
        for q in range(out[at + R_LENGTH]):
            if not cells[square]:
                code = out[at + RECORD_FIELDS + q]
                if blanks >> q & 1:
                    code |= BLANK
                laid[p, L_SQUARES + tiles] = square
                laid[p, L_CODES + tiles] = code
                used += strides[0 if code & BLANK else code]
                tiles += 1
            square += stride
        covered = 0
        for m in range(members.shape[0]):
            for t in range(tiles):
                if members[m, laid[p, L_SQUARES + t]]:
                    covered += 1
                    break
        if covered < members.shape[0]:
            continue
        laid[p, L_TILES] = tiles
        laid[p, L_USED] = used
        # The key: every tile of the cluster, by square.
        n_keys = len(base_tiles)
        for i in range(n_keys):
            keys[i] = base_tiles[i]
        for t in range(tiles):
            keys[n_keys] = laid[p, L_SQUARES + t] * 128 + laid[p, L_CODES + t]
            n_keys += 1
        for i in range(1, n_keys):
            value = keys[i]
            j = i - 1
            while j >= 0 and keys[j] > value:
                keys[j + 1] = keys[j]
                j -= 1
            keys[j + 1] = value
        for i in range(n_keys):
            number = i // 4
            laid[p, L_KEY + number] = laid[p, L_KEY + number] * 32768 + keys[i]
            shape = keys[i]
            if shape & BLANK:
                shape = shape - shape % 128 + BLANK
            laid[p, L_SHAPE + number] = laid[p, L_SHAPE + number] * 32768 + shape
        slot = _table_slot(seen, laid[p], L_KEY, 2)
        if seen[slot, 0] != TABLE_EMPTY and not (seen[slot, 2] and used == made_again):
            continue
        laid[p, L_KEEP] = 1
        for t in range(tiles):
            board[laid[p, L_SQUARES + t]] = laid[p, L_CODES + t]
            placed[laid[p, L_SQUARES + t]] = 1
        # The zone: the zone before less the part's squares, and the part's zone (the first
        # empty square from each of its tiles in each direction), each listed in increasing
        # order (`zone` flags the squares listed).
        zone_listed = 0
        for i in range(len(zone_before)):
            if not placed[zone_before[i]]:
                listed[zone_listed] = zone_before[i]
                zone[zone_before[i]] = 1
                zone_listed += 1
        new_count = 0
        for t in range(tiles):
            square = laid[p, L_SQUARES + t]
            for direction in range(4):
                other = _first_empty(board, size, square, direction)
                if other >= 0 and not laid[p, L_NEW_ZONE + other // ZONE_BITS] >> (
                        other % ZONE_BITS) & 1:
                    laid[p, L_NEW_ZONE + other // ZONE_BITS] |= 1 << (other % ZONE_BITS)
                    new_listed[new_count] = other
                    new_count += 1
                    if not zone[other]:
                        zone[other] = 1
                        listed[zone_listed] = other
                        zone_listed += 1
        _sort_into(listed, zone_listed, laid[p], L_ZONE_SQUARES)
        _sort_into(new_listed, new_count, laid[p], L_NEW_ZONE_SQUARES)
        for i in range(zone_listed):
            laid[p, L_ZONE + listed[i] // ZONE_BITS] |= 1 << (listed[i] % ZONE_BITS)
            zone[listed[i]] = 0
        # The words: each run of two tiles or more through the part's tiles, with the premiums
        # of the squares new in the turn, less the words of the tiles before that it holds
        # (runs of two or more between the part's squares, one of them new in the turn).
        gain = 0
        formed = 0
        swallowed = 0
        for orientation in range(2):
            step = 1 if orientation == 0 else size
            for t in range(tiles):
                square = laid[p, L_SQUARES + t]
                first, last = run_bounds(board, size, square, step)
                if first == last:
                    continue
                # Each run once: from the first of the part's tiles on it.
                earlier = False
                for u in range(t):
                    other = laid[p, L_SQUARES + u]
                    if first <= other <= last and (other - first) % step == 0 and (
                            step == size or other // size == first // size):
                        earlier = True
                        break
                if earlier:
                    continue
                _word_into(laid, p, L_FORMED + 1 + 2 * formed, board, first, last, step)
                formed += 1
                word = 0
                multiplier = 1
                part = 0
                part_length = 0
                part_multiplier = 1
                part_fresh = False
                part_first = first
                for index in range(first, last + 1, step):
                    value = values[board[index]]
                    new_here = fresh[index] or placed[index]
                    if new_here:
                        word += value * letter_mult[index]
                        multiplier *= word_mult[index]
                    else:
                        word += value
                    if placed[index]:
                        if part_length >= 2 and part_fresh:
                            gain -= part * part_multiplier
                            _word_into(laid, p, L_SWALLOWED + 1 + 2 * swallowed, board,
                                       part_first, index - step, step)
                            swallowed += 1
                        part = 0
                        part_length = 0
                        part_multiplier = 1
                        part_fresh = False
                        part_first = index + step
                    else:
                        if new_here:
                            part += value * letter_mult[index]
                            part_multiplier *= word_mult[index]
                            part_fresh = True
                        else:
                            part += value
                        part_length += 1
                if part_length >= 2 and part_fresh:
                    gain -= part * part_multiplier
                    _word_into(laid, p, L_SWALLOWED + 1 + 2 * swallowed, board, part_first,
                               last, step)
                    swallowed += 1
                gain += word * multiplier
        laid[p, L_GAIN] = gain
        laid[p, L_FORMED] = formed
        laid[p, L_SWALLOWED] = swallowed
        left = 0
        best_value = 0
        for code in range(len(rack)):
            remaining = rack[code]
            for t in range(tiles):
                tile = laid[p, L_CODES + t]
                if (0 if tile & BLANK else tile) == code:
                    remaining -= 1
            left += remaining
            if remaining and code and values[code] > best_value:
                best_value = values[code]
        if left == 1:
            first = L_ZONE_SQUARES + 1
            laid[p, L_ONE_TILE] = _one_tile_gain(board, fresh, placed, laid[p], first,
                                                 first + laid[p, L_ZONE_SQUARES], size, values,
                                                 letter_mult, word_mult, best_value)
        for t in range(tiles):
            board[laid[p, L_SQUARES + t]] = cells[laid[p, L_SQUARES + t]]
            placed[laid[p, L_SQUARES + t]] = 0
    _rank_records(out, width, count, ranked)
    return count


def _lay_request(params, arcs, node_mask, values, letter_mult, word_mult, order, cells,
                 position, request, rack, strides, no_keys, no_values, out, best_equity, laid,
                 ranked, board, fresh, seen, made_again):
    """lay_covering on the position `cells` (position_setup's arrays: `position`) with the
    tiles `rack` (counts by code) and what ClusterSearch asks in one array (`request`, each list
    after its length): whether one list of squares follows (REQUEST_ONE_LIST: flagged across
    and down, and the zone before: a cluster's extensions) or three (REQUEST_THREE_LISTS:
    those flagged across, those flagged down, the zone before), the members (each its
    squares), and the tiles before the part as (square, code) pairs.

    `board` and `fresh` (room, n2 each) are left holding the board with the tiles before the
    part and their flags; `seen` and `made_again` as lay_covering takes them. Returns
    lay_covering's count (the flags set here are cleared before it returns).
    """
    size = params[P_SIZE]
    n2 = size * size
    at = 1
    across_at = at
    if request[0] == REQUEST_ONE_LIST:
        down_at = zone_at = at
        at += 1 + request[at]
    else:
        at += 1 + request[at]
        down_at = at
        at += 1 + request[at]
        zone_at = at
        at += 1 + request[at]
    member_count = request[at]
    at += 1
    members = np.zeros((member_count, n2), np.int64)
    for m in range(member_count):
        for i in range(request[at]):
            members[m, request[at + 1 + i]] = 1
        at += 1 + request[at]
    tiles = request[at]
    board[:] = cells
    fresh[:] = 0
    base_tiles = np.zeros(tiles, np.int64)
    squares = int_array(tiles)
    codes = int_array(tiles)
    count_of = int_array(1)
    count_of[0] = tiles
    for t in range(tiles):
        square = request[at + 1 + 2 * t]
        board[square] = request[at + 2 + 2 * t]
        fresh[square] = 1
        base_tiles[t] = square * 128 + request[at + 2 + 2 * t]
        squares[t] = square
        codes[t] = request[at + 2 + 2 * t]
    for i in range(request[across_at]):
        params[PARAMS + request[across_at + 1 + i]] = 1
    for i in range(request[down_at]):
        params[PARAMS + n2 + request[down_at + 1 + i]] = 1
    prepared = (position[0], position[1], position[2], position[3], squares, codes, count_of)
    count = lay_covering(params, arcs, node_mask, values, letter_mult, word_mult, order, board,
                         prepared, rack, no_keys, no_values, out, best_equity, fresh,
                         request[zone_at + 1:zone_at + 1 + request[zone_at]], members, strides,
                         base_tiles, laid, ranked, seen, made_again)
    for i in range(request[across_at]):
        params[PARAMS + request[across_at + 1 + i]] = 0
    for i in range(request[down_at]):
        params[PARAMS + n2 + request[down_at + 1 + i]] = 0
    return count


def _below(score, used, left, one_tile, full, threshold, bingo, leave, best_single):
    """Whether every turn that holds a cluster of `score` using sub-multiset `used`, with
    `left` (0 or 1) tiles left, is worth less than `threshold`: the cluster is then the whole
    turn, or it with its tile kept, or that tile on one more square (at most `one_tile` more,
    ClusterSearch._gain_bound) or as a one-tile play apart (its words hold none of the
    cluster's: at most best_single[the tile's sub-multiset], the best single play of it).
    leave[m]: what keeping sub-multiset m is worth; `bingo` the bonus for using the whole rack.
    """
    if not left:
        return score + bingo + leave[0] < threshold
    kept = full - used
    apart = best_single[kept]
    return (score + leave[kept] < threshold
            and score + max(one_tile, apart) + bingo + leave[0] < threshold)


def _two_left_bound(score, used, full, threshold, bingo, leave, best_single, strides,
                    rack_left, board, fresh, placed, squares, start, stop, size, values,
                    letter_mult, word_mult, codes, gains, exact, checks, order, known):
    """The most a turn that holds a cluster of `score` using sub-multiset `used` can be worth,
    with two tiles left (rack_left: counts by code), its new tiles flagged in `fresh` or
    `placed` on `board`, its zone squares[start:stop]; with exact[0] = 0 instead, a value
    at least `threshold`, as soon as one is known (else exact[0] = 1).

    Such a turn adds at most the two tiles, each kept, on a square of the zone where it fits
    (_square_gain, validity aside but for the cross-checks `checks` of the board with the
    cluster, engine_kernel.setup's, if given: _fits) or in a single play apart (best_single
    of its sub-multiset; both apart: one single play of the two or one of each), or both on
    the zone one after the other (_two_tiles_gain). A tile's gain counts its value, not its
    letter (a blank's any letter, worth 0), so without `checks` the clusters that differ only
    in their blanks' letters share the bound.
    leave[m]: what keeping sub-multiset m is worth; `bingo` the bonus for using the whole rack.
    `codes` (2) and `gains` (2 x ZONE_LIMIT): room; with `known`, gains[t, z] already holds
    _square_gain of tile t on the zone's square z (a call on the same cluster that reached
    them left them there: they do not depend on the cross-checks).
    """
    exact[0] = 0
    kept = full - used
    most = score + leave[kept]
    if most >= threshold:
        return most
    tiles = 0
    for code in range(len(rack_left)):
        for _ in range(rack_left[code]):
            codes[tiles] = code
            tiles += 1
    a = strides[codes[0]]
    b = strides[codes[1]]
    for t in range(2):
        if not codes[t]:
            codes[t] = BLANK | 1
    end = score + bingo + leave[0]
    most = max(most, end + max(best_single[kept], best_single[a] + best_single[b]))
    if most >= threshold:
        return most
    most_a = 0
    most_b = 0
    same = values[codes[0]] == values[codes[1]]
    n2 = size * size
    for z in range(stop - start):
        q = squares[start + z]
        if not known:
            gains[0, z] = _square_gain(board, fresh, placed, q, size, values, letter_mult,
                                       word_mult, values[codes[0]])
            gains[1, z] = gains[0, z] if same else _square_gain(
                board, fresh, placed, q, size, values, letter_mult, word_mult, values[codes[1]])
        if _fits(checks, order, n2, q, codes[0], True, True):
            most_a = max(most_a, gains[0, z])
        if _fits(checks, order, n2, q, codes[1], True, True):
            most_b = max(most_b, gains[1, z])
    most = max(most, score + max(most_a, best_single[a]) + leave[b],
               score + max(most_b, best_single[b]) + leave[a],
               end + max(most_a + best_single[b], most_b + best_single[a]))
    if most >= threshold:
        return most
    most = max(most, end + _two_tiles_gain(board, fresh, placed, squares, start, stop, size,
                                           values, letter_mult, word_mult, codes, gains,
                                           threshold - end, checks, order))
    if most < threshold:
        exact[0] = 1
    return most


def lay_batch(params, arcs, node_mask, values, letter_mult, word_mult, order, cells, position,
              requests, request_start, first, last, before_used, before_score, strides, left_of,
              no_keys, no_values, out, best_equity, laid, ranked, seen, seen_count, shapes,
              shapes_count, full, tile_count, threshold, bingo, leave, best_single, made,
              made_laid, made_records, made_count, needed):
    """The clusters ClusterSearch makes on the position `cells` (`position`: its
    position_setup) of the parts of requests first..last-1: request r is
    requests[request_start[r]:request_start[r + 1]] (_lay_request's array), its tiles before
    the part use sub-multiset before_used[r] and score before_score[r], and the part the
    tiles left_of[before_used[r]] (the rack left after each sub-multiset, counts by code).

    Each play kept (lay_covering's L_KEEP), in rank order, whose cluster (its key) is not in
    the table `seen` (rows: key high, key low, 1 when made; open addressing, TABLE_EMPTY free)
    is added to it, and made unless it leaves at most two tiles and _below or _two_left_bound
    (with `threshold`, `bingo`, the leave[] table and best_single[], the best single play of
    each sub-multiset; not when best_single is empty) says no turn holding it can count:
    then made[row] (B_* fields), made_laid[row] (its laid row) and
    made_records[row] (its play's record). A play whose cluster was made before and uses the
    whole rack is listed too (B_AGAIN: the caller keeps its fewest parts).

    The table `shapes` (SHAPE_FIELDS rows, like `seen`) keeps _two_left_bound's answer by
    the cluster's shape, which the clusters that differ only in their blanks' letters share.

    Returns the first request not done: `last`, or earlier when a request's plays (needed[0]
    of them) could overflow `out`, `laid`, `made` or fill `seen` or `shapes` past half (the
    caller makes room and goes on from there).
    """
    size = params[P_SIZE]
    width = RECORD_FIELDS + size
    n2 = size * size
    # The board with a request's tiles before the part, and those flagged (_lay_request), and
    # a part's tiles flagged: for _two_left_bound.
    board = int_array(n2)
    fresh = np.zeros(n2, np.int64)
    placed = np.zeros(n2, np.int64)
    codes = int_array(2)
    gains = np.zeros((2, ZONE_LIMIT), np.int64)
    exact = int_array(1)
    scaled_threshold = threshold * BOUND_SCALE
    # A cluster's tiles and its board's setup (`setup`: engine_kernel.setup's arrays, the
    # anchors aside), for its cross-checks.
    cluster_squares = int_array(n2)
    cluster_codes = int_array(n2)
    count_of = int_array(1)
    ocells = int_array(2 * n2)
    checks = int_array(2 * n2)
    cross = int_array(2 * n2)
    anchor = int_array(2 * n2)
    for r in range(first, last):
        request = requests[request_start[r]:request_start[r + 1]]
        count = _lay_request(params, arcs, node_mask, values, letter_mult, word_mult, order,
                             cells, position, request, left_of[before_used[r]], strides,
                             no_keys, no_values, out, best_equity, laid, ranked, board, fresh,
                             seen, full - before_used[r])
        if (count * width > len(out) or count > laid.shape[0]
                or made_count[0] + count > made.shape[0]
                or 2 * (seen_count[0] + count) > seen.shape[0]
                or 2 * (shapes_count[0] + count) > shapes.shape[0]):
            needed[0] = count
            return r
        for i in range(count):
            p = ranked[i]
            if not laid[p, L_KEEP]:
                continue
            used = before_used[r] + laid[p, L_USED]
            slot = _table_slot(seen, laid[p], L_KEY, 2)
            if seen[slot, 0] != TABLE_EMPTY:
                if not (seen[slot, 2] and used == full):
                    continue
                again = 1
            else:
                again = 0
                seen[slot, 0] = laid[p, L_KEY]
                seen[slot, 1] = laid[p, L_KEY + 1]
                seen[slot, 2] = 0
                seen_count[0] += 1
                left = tile_count[full - used]
                score = before_score[r] + laid[p, L_GAIN]
                if left < 2 and len(best_single) and _below(
                        score, used, left, laid[p, L_ONE_TILE], full, threshold, bingo, leave,
                        best_single):
                    continue
                if left == 2 and len(best_single):
                    shape = _table_slot(shapes, laid[p], L_SHAPE, 2)
                    if shapes[shape, 0] == TABLE_EMPTY:
                        shapes[shape, 0] = laid[p, L_SHAPE]
                        shapes[shape, 1] = laid[p, L_SHAPE + 1]
                        shapes[shape, 2] = -(1 << 62)
                        shapes[shape, 3] = 0
                        shapes_count[0] += 1
                    if shapes[shape, 3]:
                        # (Below the threshold then; it only rises.)
                        continue
                    for t in range(laid[p, L_TILES]):
                        board[laid[p, L_SQUARES + t]] = laid[p, L_CODES + t]
                        placed[laid[p, L_SQUARES + t]] = 1
                    zone_first = L_ZONE_SQUARES + 1
                    zone_end = zone_first + laid[p, L_ZONE_SQUARES]
                    below = False
                    # (Whether gains[] holds this cluster's gains: _two_left_bound's `known`.)
                    known = False
                    if shapes[shape, 2] < scaled_threshold:
                        most = _two_left_bound(
                            score, used, full, threshold, bingo, leave, best_single, strides,
                            left_of[used], board, fresh, placed, laid[p], zone_first, zone_end,
                            size, values, letter_mult, word_mult, codes, gains, exact, no_keys,
                            order, False)
                        known = True
                        # (Kept at least as large when exact, at most when not: rounding
                        # never rules out a cluster that can count.)
                        shapes[shape, 3] = exact[0]
                        shapes[shape, 2] = int(np.ceil(most * BOUND_SCALE) if exact[0]
                                               else np.floor(most * BOUND_SCALE))
                        below = exact[0] == 1
                    if not below and score + leave[full - used] < threshold:
                        # The cluster's own bound, its tiles' cross-checks counted (not
                        # when the cluster with its tiles kept reaches the threshold).
                        tiles = 0
                        for i in range(n2):
                            if fresh[i] or placed[i]:
                                cluster_squares[tiles] = i
                                cluster_codes[tiles] = board[i]
                                tiles += 1
                        count_of[0] = tiles
                        setup(params, arcs, node_mask, values, order,
                              (position[0], position[1], position[2], position[3],
                               cluster_squares, cluster_codes, count_of),
                              ocells, checks, cross, anchor)
                        _two_left_bound(
                            score, used, full, threshold, bingo, leave, best_single, strides,
                            left_of[used], board, fresh, placed, laid[p], zone_first, zone_end,
                            size, values, letter_mult, word_mult, codes, gains, exact, checks,
                            order, known)
                        below = exact[0] == 1
                    for t in range(laid[p, L_TILES]):
                        board[laid[p, L_SQUARES + t]] = 0
                        placed[laid[p, L_SQUARES + t]] = 0
                    if below:
                        continue
                seen[slot, 2] = 1
            row = made_count[0]
            made[row, B_REQUEST] = r
            made[row, B_AGAIN] = again
            made[row, B_USED] = used
            made[row, B_GAIN] = laid[p, L_GAIN]
            made[row, B_ONE_TILE] = laid[p, L_ONE_TILE]
            for f in range(LAID_FIELDS):
                made_laid[row, f] = laid[p, f]
            for f in range(width):
                made_records[row, f] = out[p * width + f]
            made_count[0] += 1
    return last


def _square_gain(board, fresh, placed, q, size, values, letter_mult, word_mult, value):
    """What one more tile of `value` on the empty square `q` adds to the score of the new tiles
    flagged in `fresh` or `placed` (on `board`), its words' validity aside: the runs across
    and down through it, each with the premiums of its new squares, less the words of the new
    tiles those runs swallow (ClusterSearch._gain_bound at one square).
    """
    gain = 0
    for orientation in range(2):
        step = 1 if orientation == 0 else size
        first, last = run_bounds(board, size, q, step)
        if first == last:
            continue
        word = value * letter_mult[q]
        multiplier = word_mult[q]
        for side in range(2):
            part_first = first if side == 0 else q + step
            part_last = q - step if side == 0 else last
            part = 0
            part_multiplier = 1
            new_here = False
            index = part_first
            while index <= part_last:
                if fresh[index] or placed[index]:
                    part += values[board[index]] * letter_mult[index]
                    part_multiplier *= word_mult[index]
                    new_here = True
                else:
                    part += values[board[index]]
                index += step
            word += part
            multiplier *= part_multiplier
            if new_here and part_last > part_first:
                gain -= part * part_multiplier
        gain += word * multiplier
    return gain


def _one_tile_gain(board, fresh, placed, squares, start, stop, size, values, letter_mult,
                   word_mult, best_value):
    """ClusterSearch._gain_bound of the new tiles flagged in `fresh` or `placed` (on `board`)
    over squares[start:stop], one tile of `best_value` left.
    """
    best = 0
    for z in range(start, stop):
        gain = _square_gain(board, fresh, placed, squares[z], size, values, letter_mult,
                            word_mult, best_value)
        if gain > best:
            best = gain
    return best


def _fits(checks, order, n2, q, code, down, across):
    """Whether a tile `code` (a cell code; a blank: some letter) on the empty square q forms a
    word, or none, down when `down` and across when `across`, by the cross-checks `checks`
    (engine_kernel.setup's: the run down at q, the run across at n2 + order[q]); always when
    `checks` is empty.
    """
    if len(checks) == 0:
        return True
    letters = -1
    if down:
        letters &= checks[q]
    if across:
        letters &= checks[n2 + order[q]]
    if code & BLANK:
        return letters != 0
    return letters >> code & 1 == 1


def _two_tiles_gain(board, fresh, placed, squares, start, stop, size, values, letter_mult,
                    word_mult, codes, gains, needed, checks, order):
    """The most the two tiles `codes` (cell codes) can add to the score of the new tiles
    flagged in `fresh` or `placed` (on `board`; their zone squares[start:stop]) when both join
    their cluster; or, as soon as it is known to be at least `needed`, a value at least
    `needed`. gains[t, z - start]: _square_gain of tile t on squares[z].

    One of the two covers a zone square q (the word that links the other, or the cluster,
    to the cluster holds no empty square between them), and the other a square of the zone
    with it laid: the zone less q, and the first empty square from q in each direction. The
    gain is the sum of the two tiles' gains laid one after the other; the second's is its
    gain without the first wherever no line through q holds it. Validity aside, but for the
    cross-checks `checks` of the board (none: validity aside altogether): a tile's run across
    a line that holds the other tile is a word of the turn, and so are both runs of each
    when no line holds both (_fits).
    """
    best = -(1 << 40)
    zones = stop - start
    n2 = size * size
    for t in range(2):
        if t == 1 and (codes[0] == codes[1]
                       or len(checks) == 0 and values[codes[0]] == values[codes[1]]):
            break
        other = 1 - t
        for z in range(zones):
            q = squares[start + z]
            # A line holding both is q's row (then q's run down must be a word) or column.
            in_row = _fits(checks, order, n2, q, codes[t], True, False)
            in_column = _fits(checks, order, n2, q, codes[t], False, True)
            if not in_row and not in_column:
                continue
            row = q // size
            col = q % size
            second = -(1 << 40)
            if in_row and in_column:
                for y in range(zones):
                    q2 = squares[start + y]
                    if (q2 // size != row and q2 % size != col and gains[other, y] > second
                            and _fits(checks, order, n2, q2, codes[other], True, True)):
                        second = gains[other, y]
            board[q] = codes[t]
            placed[q] = 1
            for y in range(zones):
                q2 = squares[start + y]
                if q2 == q:
                    continue
                if (q2 // size == row and in_row
                        and _fits(checks, order, n2, q2, codes[other], True, False)) or (
                        q2 % size == col and in_column
                        and _fits(checks, order, n2, q2, codes[other], False, True)):
                    gain = _square_gain(board, fresh, placed, q2, size, values, letter_mult,
                                        word_mult, values[codes[other]])
                    if gain > second:
                        second = gain
            for direction in range(4):
                beyond = _first_empty(board, size, q, direction)
                along_row = direction < 2
                if beyond >= 0 and (in_row if along_row else in_column) and _fits(
                        checks, order, n2, beyond, codes[other], along_row, not along_row):
                    gain = _square_gain(board, fresh, placed, beyond, size, values, letter_mult,
                                        word_mult, values[codes[other]])
                    if gain > second:
                        second = gain
            board[q] = 0
            placed[q] = 0
            total = gains[t, z] + second
            if total > best:
                best = total
                if best >= needed:
                    return best
    return best


def _rank_records(out, width, count, ranked):
    """ranked[:count]: the records 0..count-1 of `out`, score down, then records_precede
    (a merge sort: thousands of records on an open board with two blanks).
    """
    for i in range(count):
        ranked[i] = i
    spare = int_array(count)
    run = 1
    while run < count:
        for start in range(0, count, 2 * run):
            middle = min(start + run, count)
            end = min(start + 2 * run, count)
            i = start
            j = middle
            k = start
            while i < middle or j < end:
                take_left = j >= end
                if i < middle and j < end:
                    a = ranked[i] * width
                    b = ranked[j] * width
                    if out[a + R_SCORE] != out[b + R_SCORE]:
                        take_left = out[a + R_SCORE] > out[b + R_SCORE]
                    else:
                        take_left = not records_precede(out, b, out, a)
                if take_left:
                    spare[k] = ranked[i]
                    i += 1
                else:
                    spare[k] = ranked[j]
                    j += 1
                k += 1
        for i in range(count):
            ranked[i] = spare[i]
        run *= 2


# join_groups's bitsets of classes: JOIN_BITS classes per number (non-negative numbers, so that
# CPython and numba agree); a group's row: its number of members, the members (MAX_MEMBERS at
# most: each uses a tile, and the part one more), the tiles left after them, and the bitmask of
# the lines (rows, then columns as size + col) where the part may join them all.
JOIN_BITS = 62
MAX_MEMBERS = 7
G_COUNT = 0
G_MEMBERS = 1
G_AFTER = G_MEMBERS + MAX_MEMBERS
G_LINES = G_AFTER + 1
GROUP_FIELDS = G_LINES + 1
# The open-addressing tables (_table_slot): TABLE_EMPTY first in a free row. join_choices's of
# the choices tried (across rounds): a choice's cluster indexes sorted, two per number
# (TRIED_SHIFT bits each); a row of its `found`: the group's index, then the choice's cluster
# indexes. lay_batch's of the clusters seen: their key (two numbers), then 1 when made.
TABLE_EMPTY = -1
TRIED_WORDS = 4
TRIED_SHIFT = 31
FOUND_FIELDS = 1 + MAX_MEMBERS
SEEN_FIELDS = 3
# lay_batch's table of shapes: the shape (two numbers), _two_left_bound's value times
# BOUND_SCALE, 1 when that is the bound (else a value at least the threshold it was worked
# out for).
SHAPE_FIELDS = 4
BOUND_SCALE = 1 << 16
# A row of lay_batch's `made`: the request, 1 when the cluster was made before (it uses the
# whole rack and is found again), the sub-multiset its tiles use, the part's gain, the one-tile
# bound (L_ONE_TILE).
B_REQUEST = 0
B_AGAIN = 1
B_USED = 2
B_GAIN = 3
B_ONE_TILE = 4
BATCH_FIELDS = 5


def _set_bit(bits, index):
    bits[index // JOIN_BITS] |= 1 << (index % JOIN_BITS)


def _has_bit(bits, index):
    return bits[index // JOIN_BITS] >> (index % JOIN_BITS) & 1


def _near_into(lines, depth, budget, line_mask, reach, size, squares, start, end, only):
    """lines[depth, budget, line] for each line of `only` (a bitmask of lines: rows, then
    columns as size + col) where one of squares[start:end] is: the classes with a join square
    on the line within `budget` empty squares of one of them, and line_mask[depth, budget]
    the lines it set (others are not read).
    """
    mask = 0
    for i in range(start, end):
        row = squares[i] // size
        col = squares[i] % size
        for line, pos in ((row, col), (size + col, row)):
            if only >> line & 1:
                if not mask >> line & 1:
                    mask |= 1 << line
                    for w in range(lines.shape[3]):
                        lines[depth, budget, line, w] = 0
                for w in range(lines.shape[3]):
                    lines[depth, budget, line, w] |= reach[budget, line, pos, w]
    line_mask[depth, budget] = mask


def join_groups(size, cells, rack_tiles, full, tile_count, within_start, within, used,
                occupied_start, occupied, join_start, joins, zone_start, zone, fresh, groups):
    """ClusterSearch._joins's groups of classes (turn_search.py: _joins, _grow and their
    bitsets), in the order _grow visits them, as rows of `groups` (G_* fields).

    Class c uses sub-multiset used[c] of the rack (tile_count[m] tiles in sub-multiset m, full
    the whole rack, within[within_start[m]:within_start[m + 1]] the sub-multisets within m),
    covers occupied[occupied_start[c]:occupied_start[c + 1]], and has the join squares and
    zone squares listed likewise; classes from `fresh` on hold a cluster the last round added
    (0: the first round).

    Returns the number of groups: when more than the rows of `groups`, only those were
    written, and the caller runs again with room for all.
    """
    n2 = size * size
    lines_count = 2 * size
    every_line = (1 << lines_count) - 1
    classes = len(used)
    words = classes // JOIN_BITS + 1
    subsets = len(tile_count)
    budgets = max(rack_tiles, 1)
    zone_at = np.zeros((lines_count, size, words), np.int64)
    by_used = np.zeros((subsets, words), np.int64)
    by_size = np.zeros((rack_tiles + 1, words), np.int64)
    for c in range(classes):
        for i in range(join_start[c], join_start[c + 1]):
            row = joins[i] // size
            col = joins[i] % size
            _set_bit(zone_at[row, col], c)
            _set_bit(zone_at[size + col, row], c)
        _set_bit(by_used[used[c]], c)
        _set_bit(by_size[tile_count[used[c]]], c)
    # reach[b, line, pos]: classes with a join square on the line at most b empty squares
    # from pos (both ends counted).
    reach = np.zeros((budgets, lines_count, size, words), np.int64)
    for budget in range(1, rack_tiles):
        for line in range(lines_count):
            for pos in range(size):
                for direction in range(2):
                    step = 1 if direction == 0 else -1
                    empties = 0
                    other = pos
                    while 0 <= other < size:
                        square = line * size + other if line < size else other * size + line - size
                        if not cells[square]:
                            empties += 1
                        if empties > budget:
                            break
                        for w in range(words):
                            reach[budget, line, pos, w] |= zone_at[line, other, w]
                        other += step
    # The walk of _grow, one level per member: member[d], used_at[d], taken[d] (the squares
    # of the members' tiles and zones: a class on one is not separate from them),
    # lines[d, budget, line] (only the lines of line_mask[d, budget]) and the candidates
    # left at[d].
    member = np.zeros(MAX_MEMBERS, np.int64)
    used_at = np.zeros(MAX_MEMBERS, np.int64)
    taken = np.zeros((MAX_MEMBERS, n2), np.int64)
    lines = np.zeros((MAX_MEMBERS, budgets, lines_count, words), np.int64)
    line_mask = np.zeros((MAX_MEMBERS, budgets), np.int64)
    candidates = np.zeros((MAX_MEMBERS, words), np.int64)
    near_fresh = np.zeros(words, np.int64)
    if not fresh:
        near_fresh[:] = (1 << JOIN_BITS) - 1
    elif rack_tiles > 2:
        budget = max(1, rack_tiles - 2)
        for c in range(fresh, classes):
            if tile_count[full - used[c]] >= 1:
                _near_into(lines, 0, budget, line_mask, reach, size, joins, join_start[c],
                           join_start[c + 1], every_line)
                for line in range(lines_count):
                    if line_mask[0, budget] >> line & 1:
                        for w in range(words):
                            near_fresh[w] |= lines[0, budget, line, w]
    # fits[m]: the classes whose tiles fit in the rack left after sub-multiset m with one to
    # spare (made when first asked for).
    fits = np.zeros((subsets, words), np.int64)
    fits_made = np.zeros(subsets, np.int64)
    count = 0
    for a in range(classes):
        left = tile_count[full - used[a]]
        if left < 2 or not _has_bit(near_fresh, a):
            continue
        member[0] = a
        used_at[0] = used[a]
        for i in range(n2):
            taken[0, i] = 0
        _take(taken[0], a, occupied_start, occupied, zone_start, zone)
        for budget in range(1, left):
            _near_into(lines, 0, budget, line_mask, reach, size, joins, join_start[a],
                       join_start[a + 1], every_line)
        depth = 0
        _candidates(depth, member, used_at, taken, lines, line_mask, candidates, fits,
                    fits_made, by_used, by_size, tile_count, within_start, within, full, fresh,
                    lines_count, words, occupied_start, occupied)
        while depth >= 0:
            b = -1
            for w in range(words):
                while candidates[depth, w]:
                    low = candidates[depth, w] & -candidates[depth, w]
                    candidates[depth, w] ^= low
                    c = w * JOIN_BITS + bit_count(low - 1)
                    if _separate(taken[depth], c, occupied_start, occupied):
                        b = c
                        break
                if b >= 0:
                    break
            if b < 0:
                depth -= 1
                continue
            after = tile_count[full - used_at[depth] - used[b]]
            common = 0
            for line in range(lines_count):
                if line_mask[depth, after] >> line & 1 and _has_bit(lines[depth, after, line], b):
                    common |= 1 << line
            if count < groups.shape[0]:
                groups[count, G_COUNT] = depth + 2
                for i in range(depth + 1):
                    groups[count, G_MEMBERS + i] = member[i]
                groups[count, G_MEMBERS + depth + 1] = b
                groups[count, G_AFTER] = after
                groups[count, G_LINES] = common
            count += 1
            if after < 2:
                continue
            # The lines where b and the group are near one another, for the next member.
            deeper = False
            for budget in range(1, after):
                _near_into(lines, depth + 1, budget, line_mask, reach, size, joins,
                           join_start[b], join_start[b + 1], common & line_mask[depth, budget])
                mask = line_mask[depth + 1, budget]
                for line in range(lines_count):
                    if mask >> line & 1:
                        nonzero = False
                        for w in range(words):
                            lines[depth + 1, budget, line, w] &= lines[depth, budget, line, w]
                            if lines[depth + 1, budget, line, w]:
                                nonzero = True
                        if nonzero:
                            deeper = True
                        else:
                            mask &= ~(1 << line)
                line_mask[depth + 1, budget] = mask
            if not deeper:
                continue
            member[depth + 1] = b
            used_at[depth + 1] = used_at[depth] + used[b]
            for i in range(n2):
                taken[depth + 1, i] = taken[depth, i]
            _take(taken[depth + 1], b, occupied_start, occupied, zone_start, zone)
            depth += 1
            _candidates(depth, member, used_at, taken, lines, line_mask, candidates, fits,
                        fits_made, by_used, by_size, tile_count, within_start, within, full,
                        fresh, lines_count, words, occupied_start, occupied)
    return count


def _take(taken, c, occupied_start, occupied, zone_start, zone):
    """Flag the squares of class c's tiles and zone in `taken`."""
    for i in range(occupied_start[c], occupied_start[c + 1]):
        taken[occupied[i]] = 1
    for i in range(zone_start[c], zone_start[c + 1]):
        taken[zone[i]] = 1


def _separate(taken, c, occupied_start, occupied):
    """Whether class c covers no square flagged in `taken` (then it is separate from the
    classes whose tiles and zones those are: _blocking).
    """
    for i in range(occupied_start[c], occupied_start[c + 1]):
        if taken[occupied[i]]:
            return False
    return True


def _candidates(depth, member, used_at, taken, lines, line_mask, candidates, fits, fits_made,
                by_used, by_size, tile_count, within_start, within, full, fresh, lines_count,
                words, occupied_start, occupied):
    """candidates[depth]: the classes after the last member that may join the group at
    `depth` (_grow: near it on a line within the tiles left, fitting; whether each is
    separate from the group is asked as it is taken, _separate).
    """
    used = used_at[depth]
    if not fits_made[used]:
        spare = full - used
        for i in range(within_start[spare], within_start[spare + 1]):
            x = within[i]
            if x != spare:
                for w in range(words):
                    fits[used, w] |= by_used[x, w]
        fits_made[used] = 1
    left = tile_count[full - used]
    for w in range(words):
        candidates[depth, w] = 0
    for size in range(1, left):
        mask = line_mask[depth, left - size]
        for line in range(lines_count):
            if mask >> line & 1:
                for w in range(words):
                    candidates[depth, w] |= lines[depth, left - size, line, w] & by_size[size, w]
    last = member[depth]
    for w in range(words):
        candidates[depth, w] &= fits[used, w]
        if w < last // JOIN_BITS:
            candidates[depth, w] = 0
        elif w == last // JOIN_BITS:
            candidates[depth, w] &= ~((2 << (last % JOIN_BITS)) - 1)
    if last >= fresh:
        return
    # Groups of classes all grouped before, and no fresh one among them, were tried then:
    # the group goes on only with a separate fresh candidate.
    for w in range(fresh // JOIN_BITS, words):
        bits = candidates[depth, w]
        if w == fresh // JOIN_BITS:
            bits &= ~((1 << (fresh % JOIN_BITS)) - 1)
        while bits:
            low = bits & -bits
            bits ^= low
            if _separate(taken[depth], w * JOIN_BITS + bit_count(low - 1), occupied_start,
                         occupied):
                return
    for w in range(words):
        candidates[depth, w] = 0


# Compiled by engine_numba.compiled_extension, callees first.
TURN_KERNEL_FUNCTIONS = ("board_setup", "setup", "search_arrays", "position_setup",
                         "covering_search",
                         "run_bounds",
                         "_first_square", "joins_reaching", "_first_empty", "_word_into",
                         "_square_gain", "_one_tile_gain", "_fits", "_two_tiles_gain",
                         "_table_slot", "table_grow", "_past_separator",
                         "_line_word_exists", "_line_word_letters", "_cross_letters",
                         "_join_may_reach", "join_choices", "_rank_records",
                         "_sort_into", "lay_covering", "_lay_request", "_below", "_two_left_bound",
                         "lay_batch", "_set_bit",
                         "_has_bit", "_near_into", "_take", "_separate", "_candidates",
                         "join_groups")
