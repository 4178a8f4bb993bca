"""The move-engine kernel: one position's legal plays, all of them or the best one.

Same rules, scores and move set as lookup/crossword/movegen.py (Gordon's GADDAG algorithm; its
module docstring explains anchors, cross-checks, the pivot, the pruning of letters one step early,
the blank rule and the one-tile rule), written again for speed:

- Written in the subset of Python that numba compiles: ints, flat arrays indexed by ints, no
  objects, no recursion (the walk keeps an explicit stack of frames). CPython runs the same
  source on lists (the pure-Python path); lookup/crossword/engine_numba.py compiles it unchanged.
  The only two primitives that differ between the two are `bit_count` and `int_array`:
  lookup/crossword/engine_numba.py swaps in compiled versions.
- The position's setup (cross-checks, cross sums, anchors of both orientations) runs inside
  the kernel, so a compiled call does everything.
- `search` either writes every play as a record (ALL_PLAYS) or keeps only the best one by equity =
  score + leave value (BEST_PLAY): no list is built. BEST_AVOIDING keeps one best play for each of
  several targets, each among the plays that cover none of the target's squares (one walk serves
  them all; lookup/crossword/sim_kernel.py finds every candidate's reply so, the board before the
  candidates shared). BEST_ABOVE is BEST_PLAY told a floor: only a play of that equity or more need
  be found (lookup/crossword/sim_kernel.py's covering searches, whose play counts only if it beats
  the avoiding search's). ALL_PLAYS visits the anchors in (direction, square) order; the best-play
  modes visit them by decreasing bound of the equity of their plays (_anchor_order: the best of the
  spans of new tiles a play from the anchor can cover, each with its own board tiles, premiums and
  cross words, tiles and letter premiums paired best first, plus the best leave of the tiles kept)
  and stop at the first anchor whose bound cannot reach the best equity (BEST_AVOIDING: any
  target's, all found); along the walk they sum the plain score (score_new_tiles' score, every new
  tile a real one) square by square, and a play whose plain score plus the best leave of as many
  tiles as it keeps cannot reach it is not scored. The best leave per number of tiles kept
  (_kept_bounds) is read from the leave table when it is a rack's own (small), else it is the
  largest leave value. Only a smaller bound prunes: a play of equal equity may come first in the
  engine's order (tests/test_move_engine_bounds.py holds the pruned best plays to every play's best,
  ties included). On the simulation's searches the anchors' bounds prune about 30 % of the walk and
  the plain scores most of the scoring: a best-play search 20-25 % quicker (bench/results.md
  "lookahead"; bounds that pair the multipliers alone, without the squares a rack tile fits and the
  walk's plain scores, once cost more than they saved). A full rack's bound holds the bingo wherever
  a span of seven squares is free, unless the rack's own leave table carries its bingo mask
  (BINGO_WORD; the simulation's searches): then only the spans where the rack can play one count
  (with two board tiles or more, or a word of the rack's tiles alone or with the span's one board
  tile).

Tile codes are the GADDAG's (tile k is its alphabet[k - 1]); bit BLANK marks a blank.

A leave (the tiles a play keeps) has a key: 1, then one base-64 digit per kept tile in
ascending code order, blanks first as digit 0. The empty leave is 1; a rack of up to 9 tiles
fits in an int64. Leave values come from an open-addressing table (`leave_slot`): parallel
arrays of keys (0 = free slot) and values, its length a power of two.

Record of a play (RECORD_FIELDS + board size int64s): score, direction (0 across, 1 down),
line (row across, column down), start (first square of the main word within the line), length,
blank bits (bit i: the new tile at position i of the word is a blank), leave key, then the
main word's tile codes (BLANK bits only on the board's blanks).
"""

from lookup.crossword.board import BLANK, LETTER_MASK
from lookup.crossword.scoring import NO_CROSS_WORD, score_new_tiles
from lookup.crossword.tiles import EMPTY_LEAVE, LEAVE_DIGIT
from lookup.formats import ARC_ACCEPTS, ARC_CHILD_SHIFT, ARC_LAST, ARC_TILE_MASK

ALL_PLAYS = 0
BEST_PLAY = 1
# The best play of each target: params[PARAMS + square] (board squares, row-major) holds the
# bitmask of the targets that may not cover the square, params[PARAMS + size * size] how many
# targets (at most MAX_TARGETS). `search` tests this mode as `mode > BEST_PLAY` and reads no
# global the kernel did not have before it (lookup/crossword/turn_kernel.py runs the same code
# with the globals it imports).
BEST_AVOIDING = 2
MAX_TARGETS = 62
# BEST_PLAY with a floor: best_equity[0] holds it on entry, and plays of lower equity need not be
# found (the search returns 0 when no play reaches it, else BEST_PLAY's best). `search` tests
# this mode as `mode < 0` and runs it as BEST_PLAY (the globals rule of BEST_AVOIDING).
BEST_ABOVE = -1

# params: the game's constants, one int64 array.
P_SIZE = 0  # squares per side
P_START = 1  # start square, row-major
P_RACK_SIZE = 2
P_BINGO = 3
P_MIN_LENGTH = 4
P_MAX_LENGTH = 5
P_ALL_LETTERS = 6  # bitmask of the game's letters as GADDAG tiles
P_ROOT = 7  # the GADDAG root node
PARAMS = 8

# Record fields (then the main word's codes).
R_SCORE = 0
R_DIRECTION = 1
R_LINE = 2
R_START = 3
R_LENGTH = 4
R_BLANKS = 5
R_LEAVE = 6
RECORD_FIELDS = 7

# A packed move (lookup/crossword/endgame_kernel.py, sim_kernel.py): MOVE_FIELDS + rack size
# int64s: its score, the number of tiles it places (0: the pass) and each new tile as
# square << 16 | cell code << 8 | rack code (the rack code 0 for a blank), in the order of
# lookup/crossword/endgame.play_tiles.
M_SCORE = 0
M_PLACED = 1
MOVE_FIELDS = 2

# Frame fields of the walk's stack (one frame per square the walk stands on).
_F_SQUARE = 0
_F_START = 1  # -1 while walking left, else the word's first square
_F_NODE = 2
_F_RMASK = 3  # bit t set while tile t is in the rack
_F_NBLANK = 4
_F_LETTERS = 5  # letters still to try on the square
_F_MASK = 6  # the node's tiles
_F_CODE = 7  # the board's tile on the square, 0 if empty
_F_ENDS = 8  # the word may end on the square
_F_ONWARD = 9
_F_LAST = 10
_F_LEFT_FREE = 11
_F_PHASE = 12  # 0 next letter, 1 after the leftward child, 2 after every child
_F_TILE = 13  # the rack tile taken for the current letter (0: none or a blank)
_F_CHILD = 14
_F_GOING = 15
_F_NEXT_RMASK = 16
_F_NEXT_NBLANK = 17
_F_AFTER = 18  # tiles left in the rack once the square is filled
_FRAME = 19

_CODES = LETTER_MASK + 1  # tile codes without the blank bit
_LEAVE_HASH = 0x9E3779B1
# A full rack's bingo mask, which a rack's own leave table may hold under the rack's bingo key
# (bingo_key: no leave's key, so no leave table holds it otherwise;
# lookup/crossword/sim_kernel.py writes it for racks without a blank): bit 0 (BINGO_WORD) set
# when the rack's tiles alone make a word, bit t (t >= 1) when they and tile t do.
# _anchor_order counts the bingo in a window's bound only where one may be played.
BINGO_WORD = 1
# Leave tables of at most this many slots (a rack's own: 256 for a rack of 7 tiles) are read
# whole by the best-play searches for their largest value per number of tiles kept.
SMALL_TABLE = 1024


def bit_count(x):
    """Set bits of a non-negative int (compiled: the CPU's popcount)."""
    return x.bit_count()


def int_array(n, zeroed=True):
    """N ints, the kernel's working storage (compiled: a numpy int64 array): zeros, or with
    zeroed=False an array whose values the caller writes before it reads them (compiled: not
    cleared, as the allocator gives it; a best-play search's fixed cost is mostly such arrays).
    """
    return [0] * n


def arc_for(arcs, node_mask, node, tile):
    """The arc of `node` labelled `tile`, or 0 (lookup/crossword/cross_check.arc_for)."""
    mask = node_mask[node]
    bit = 1 << tile
    if not mask & bit:
        return 0
    return arcs[node + bit_count(mask & (bit - 1))]


def leave_home(key, mask):
    """The first slot `key` hashes to in a table of mask + 1 slots (a power of two). The low
    bits of the product do not depend on int64 wrap-around, so CPython and numba agree.
    """
    return ((key ^ (key >> 29)) * _LEAVE_HASH) & mask


def leave_slot(keys, key):
    """The slot of `key` in an open-addressing table of `keys` (or the free slot it would
    take), probing on from leave_home.
    """
    mask = len(keys) - 1
    slot = leave_home(key, mask)
    while keys[slot] != 0 and keys[slot] != key:
        slot = (slot + 1) & mask
    return slot


def fill_leave_table(keys, values, slots, table):
    """Put each of `keys` (distinct leave keys) with its value from `values` into the
    open-addressing table `slots` / `table` (free slots 0; its length a power of two, at least
    twice len(keys)).
    """
    for i in range(len(keys)):
        slot = leave_slot(slots, keys[i])
        slots[slot] = keys[i]
        table[slot] = values[i]


def next_subset(kinds, counts, taken):
    """Step a sub-multiset to the next one: taken[i] copies of the i-th of `kinds` distinct
    tiles, each at most counts[i], the last kind varying fastest; False (and all zero) after
    the whole multiset.
    """
    i = kinds - 1
    while i >= 0 and taken[i] == counts[i]:
        taken[i] = 0
        i -= 1
    if i < 0:
        return False
    taken[i] += 1
    return True


def sub_leave_keys(rack, to_lex, game_keys, lex_keys, sizes):
    """Every distinct multiset of tiles a rack can keep, the empty one and the whole rack
    included, in the order of lookup/crossword/equity.sub_leaves: its leave key in the rack's codes
    (`game_keys`), its key in the codes `to_lex` maps them to (`lex_keys`) and its tile count
    (`sizes`). `rack`: tile codes, ascending (0 a blank, which to_lex keeps 0); the outputs
    hold at least 2 ** len(rack) entries. Returns how many multisets were written.
    """
    n = len(rack)
    distinct = int_array(n + 1)
    counts = int_array(n + 1)
    k = 0
    for i in range(n):
        if k > 0 and distinct[k - 1] == rack[i]:
            counts[k - 1] += 1
        else:
            distinct[k] = rack[i]
            counts[k] = 1
            k += 1
    # by_lex: the distinct codes' indexes, ascending by mapped code (insertion sort).
    by_lex = int_array(k + 1)
    for i in range(k):
        j = i
        while j > 0 and to_lex[distinct[by_lex[j - 1]]] > to_lex[distinct[i]]:
            by_lex[j] = by_lex[j - 1]
            j -= 1
        by_lex[j] = i
    taken = int_array(k + 1)  # copies kept of each distinct code; the last one varies fastest
    total = 0
    while True:
        game_key = EMPTY_LEAVE
        lex_key = EMPTY_LEAVE
        size = 0
        for i in range(k):
            for _ in range(taken[i]):
                game_key = game_key * LEAVE_DIGIT + distinct[i]
            d = by_lex[i]
            for _ in range(taken[d]):
                lex_key = lex_key * LEAVE_DIGIT + to_lex[distinct[d]]
            size += taken[i]
        game_keys[total] = game_key
        lex_keys[total] = lex_key
        sizes[total] = size
        total += 1
        if not next_subset(k, counts, taken):
            return total


def _walk_down(arcs, node_mask, node, cells, base, index, size, n2):
    """Follow the tiles from square `index` downward from `node`; the last arc, or 0."""
    arc = 0
    while index < n2 and cells[base + index]:
        if not node:
            return 0
        arc = arc_for(arcs, node_mask, node, cells[base + index] & LETTER_MASK)
        if not arc:
            return 0
        node = arc >> ARC_CHILD_SHIFT
        index += size
    return arc


def _cross_check(arcs, node_mask, root, cells, base, index, size, n2):
    """Letters L such that the tiles above square `index`, L and the tiles below it form a
    word (lookup/crossword/cross_check.cross_check).
    """
    allowed = 0
    up = index - size
    below = index + size
    if up >= 0 and cells[base + up]:
        # reverse(above), separator, then L + below: one walk serves every L.
        node = root
        while up >= 0 and cells[base + up]:
            arc = arc_for(arcs, node_mask, node, cells[base + up] & LETTER_MASK) if node else 0
            if not arc:
                return 0
            node = arc >> ARC_CHILD_SHIFT
            up -= size
        arc = arc_for(arcs, node_mask, node, 0) if node else 0
        node = arc >> ARC_CHILD_SHIFT
        if not node:
            return 0
        at = node
        while True:
            letter_arc = arcs[at]
            last = letter_arc
            if below < n2 and cells[base + below]:
                last = _walk_down(arcs, node_mask, letter_arc >> ARC_CHILD_SHIFT, cells, base,
                                  below, size, n2)
            if last & ARC_ACCEPTS:
                allowed |= 1 << (letter_arc & ARC_TILE_MASK)
            if letter_arc & ARC_LAST:
                return allowed
            at += 1
    # Nothing above: L then the tiles below. The GADDAG holds every word reversed without a
    # separator (the path of a word that ends at the walk's first square), so one walk from
    # the lowest tile up to the square's neighbour reaches the node whose accepting letter
    # arcs are the letters L (instead of one walk down per letter).
    lowest = below
    while lowest + size < n2 and cells[base + lowest + size]:
        lowest += size
    node = root
    while lowest >= below:
        arc = arc_for(arcs, node_mask, node, cells[base + lowest] & LETTER_MASK) if node else 0
        if not arc:
            return 0
        node = arc >> ARC_CHILD_SHIFT
        lowest -= size
    at = node
    while node:
        letter_arc = arcs[at]
        tile = letter_arc & ARC_TILE_MASK
        if tile and letter_arc & ARC_ACCEPTS:
            allowed |= 1 << tile
        if letter_arc & ARC_LAST:
            break
        at += 1
    return allowed


def setup(params, arcs, node_mask, values, order, cells, ocells, checks, cross, anchor):
    """Fill, for both orientations (across at offset 0, down at size*size: the transposed
    board), the cells, cross-check bitmasks, cross sums and anchor flags of the position.

    Returns the number of tiles on the board.
    """
    size = params[P_SIZE]
    n2 = size * size
    all_letters = params[P_ALL_LETTERS]
    max_length = params[P_MAX_LENGTH]
    root = params[P_ROOT]
    start = params[P_START]
    tiles = 0
    for i in range(n2):
        ocells[i] = cells[i]
        ocells[n2 + i] = cells[order[i]]
        if cells[i]:
            tiles += 1
    for o in range(2):
        base = o * n2
        if o == 1:
            start = order[start]
        for i in range(n2):
            checks[base + i] = 0
            cross[base + i] = NO_CROSS_WORD
            if ocells[base + i]:
                anchor[base + i] = 0
                continue
            col = i % size
            if tiles:
                anchor[base + i] = 1 if (
                    (i >= size and ocells[base + i - size])
                    or (i + size < n2 and ocells[base + i + size])
                    or (col > 0 and ocells[base + i - 1])
                    or (col < size - 1 and ocells[base + i + 1])) else 0
            else:
                anchor[base + i] = 1 if i == start else 0
            total = 0
            joined = 0
            up = i - size
            while up >= 0 and ocells[base + up]:
                total += values[ocells[base + up]]
                joined += 1
                up -= size
            down = i + size
            while down < n2 and ocells[base + down]:
                total += values[ocells[base + down]]
                joined += 1
                down += size
            if not joined:
                checks[base + i] = all_letters
                continue
            cross[base + i] = total
            if joined < max_length:
                checks[base + i] = _cross_check(arcs, node_mask, root, ocells, base, i, size,
                                                n2) & all_letters
    return tiles


def square_setup(params, arcs, node_mask, values, ocells, checks, cross, base, i):
    """Cross-check bitmask and cross sum of the empty square `i` of one orientation (`base`:
    0 across, size * size down), as `setup` computes them (tests/test_endgame.py holds the
    two equal).
    """
    size = params[P_SIZE]
    n2 = size * size
    checks[base + i] = 0
    cross[base + i] = NO_CROSS_WORD
    total = 0
    joined = 0
    up = i - size
    while up >= 0 and ocells[base + up]:
        total += values[ocells[base + up]]
        joined += 1
        up -= size
    down = i + size
    while down < n2 and ocells[base + down]:
        total += values[ocells[base + down]]
        joined += 1
        down += size
    if not joined:
        checks[base + i] = params[P_ALL_LETTERS]
        return
    cross[base + i] = total
    if joined < params[P_MAX_LENGTH]:
        checks[base + i] = _cross_check(arcs, node_mask, params[P_ROOT], ocells, base, i, size,
                                        n2) & params[P_ALL_LETTERS]


def update_setup(params, arcs, node_mask, values, order, squares, codes, count, ocells,
                 checks, cross, anchor):
    """Turn `setup`'s arrays of a board into those of the board with tiles put on `count`
    more squares (squares[0:count], cell codes codes[0:count]): the new tiles' own
    squares, the empty square at each end of every line they join (their cross-checks and
    cross sums) and their empty neighbours (anchors) change; nothing else does. The same
    arrays as `setup` on the new board (tests/test_endgame.py), for a fraction of its work:
    the endgame kernel (lookup/crossword/endgame_kernel.py) keeps each ply's arrays so.
    """
    size = params[P_SIZE]
    n2 = size * size
    for k in range(count):
        square = squares[k]
        for o in range(2):
            # The transposed board's square of a board square is order[square] (a square
            # board's transposition is its own inverse).
            i = square if o == 0 else order[square]
            base = o * n2
            ocells[base + i] = codes[k]
            checks[base + i] = 0
            cross[base + i] = NO_CROSS_WORD
            anchor[base + i] = 0
    for k in range(count):
        square = squares[k]
        for o in range(2):
            i = square if o == 0 else order[square]
            base = o * n2
            up = i - size
            while up >= 0 and ocells[base + up]:
                up -= size
            if up >= 0:
                square_setup(params, arcs, node_mask, values, ocells, checks, cross, base, up)
            down = i + size
            while down < n2 and ocells[base + down]:
                down += size
            if down < n2:
                square_setup(params, arcs, node_mask, values, ocells, checks, cross, base,
                             down)
            col = i % size
            if i >= size and not ocells[base + i - size]:
                anchor[base + i - size] = 1
            if i + size < n2 and not ocells[base + i + size]:
                anchor[base + i + size] = 1
            if col > 0 and not ocells[base + i - 1]:
                anchor[base + i - 1] = 1
            if col < size - 1 and not ocells[base + i + 1]:
                anchor[base + i + 1] = 1


def records_precede(a, a_at, b, b_at):
    """Whether the play recorded at a[a_at:] comes before the one at b[b_at:] in the engine's
    order of plays of equal equity: direction, line, start, the main word's codes, blank bits
    (_precedes, which compares a play being found with a record; the endgame's sort and the
    simulation's shared replies break ties by it).
    """
    for field in (R_DIRECTION, R_LINE, R_START):
        if a[a_at + field] != b[b_at + field]:
            return a[a_at + field] < b[b_at + field]
    length = a[a_at + R_LENGTH]
    other = b[b_at + R_LENGTH]
    for k in range(min(length, other)):
        if a[a_at + RECORD_FIELDS + k] != b[b_at + RECORD_FIELDS + k]:
            return a[a_at + RECORD_FIELDS + k] < b[b_at + RECORD_FIELDS + k]
    if length != other:
        return length < other
    return a[a_at + R_BLANKS] < b[b_at + R_BLANKS]


def _precedes(out, direction, line, start, length, bits, ocells, word, first):
    """Whether the play (direction, line, start, word codes from square `first`, blank bits)
    sorts before the play recorded in out[0:] when both have the same equity: the order of
    lookup/crossword/movegen.generate (direction, line, start, codes as a tuple, blank bits).
    """
    if direction != out[R_DIRECTION]:
        return direction < out[R_DIRECTION]
    if line != out[R_LINE]:
        return line < out[R_LINE]
    if start != out[R_START]:
        return start < out[R_START]
    other = out[R_LENGTH]
    for k in range(min(length, other)):
        code = word[first + k]
        if not ocells[first + k]:
            code &= LETTER_MASK
        if code != out[RECORD_FIELDS + k]:
            return code < out[RECORD_FIELDS + k]
    if length != other:
        return length < other
    return bits < out[R_BLANKS]


def _rack_setup(rack, full, left, rack_tiles):
    """Copy the rack's letter counts into `full` and `left` and list its distinct letters in
    `rack_tiles`, ascending; returns (distinct letters, bitmask of them, tiles in the rack).
    """
    kinds = 0
    rack_mask = 0
    in_rack = rack[0]
    for t in range(1, _CODES):
        full[t] = rack[t]
        left[t] = rack[t]
        if rack[t]:
            rack_mask |= 1 << t
            in_rack += rack[t]
            rack_tiles[kinds] = t
            kinds += 1
    return kinds, rack_mask, in_rack


def _keep_largest(top, at, n, k, value):
    """Insert `value` into top[at:at + n], largest first, keeping at most k; return the new n."""
    if n == k:
        if value <= top[at + k - 1]:
            return n
        n -= 1
    j = at + n
    while j > at and top[j - 1] < value:
        top[j] = top[j - 1]
        j -= 1
    top[j] = value
    return n + 1


def bingo_key(rack_key):
    """The key of a rack's bingo mask (BINGO_WORD) in its leave table: the rack's leave key
    with a blank's digit last, which no leave's key has (its blanks' digits come first).
    """
    return rack_key * LEAVE_DIGIT


def _kept_bounds(leave_keys, leave_values, leave_max, in_rack, flag, kept):
    """kept[s] (s = 0 .. in_rack - 1): at least the value of any leave of s tiles, and at most
    leave_max. A leave missing from the table is worth 0.0, so a small table (a rack's own, at
    most SMALL_TABLE slots) gives each size its largest value or 0.0; a larger one is not read
    (every size leave_max).

    Returns the rack's bingo mask (BINGO_WORD) when a small table holds one under `flag`, the
    rack's bingo_key, else -1: every bingo may be possible.
    """
    for s in range(in_rack + 1):
        kept[s] = leave_max
    if not len(leave_keys) or len(leave_keys) > SMALL_TABLE:
        return -1
    bingos = -1
    for s in range(in_rack + 1):
        kept[s] = 0.0
    for slot in range(len(leave_keys)):
        key = leave_keys[slot]
        if not key:
            continue
        if key == flag:
            bingos = int(leave_values[slot])
            continue
        if leave_values[slot] <= 0.0:
            # (Changes no size's bound, 0.0 or more. The endgame's leave tables of a rack's
            # every sub-multiset, none positive but the empty leave, are read in 0.21 us, not
            # 0.40.)
            continue
        tiles = 0  # the key's digits past its leading 1 (EMPTY_LEAVE)
        while key > EMPTY_LEAVE:
            key //= LEAVE_DIGIT
            tiles += 1
        if tiles < in_rack and leave_values[slot] > kept[tiles]:
            kept[tiles] = leave_values[slot]
    for s in range(in_rack + 1):
        if kept[s] > leave_max:
            kept[s] = leave_max
    return bingos


def _anchor_order(params, values, letter_mult, word_mult, ocells, checks, cross, anchor, mode,
                  full, rack_tiles, kinds, rack_mask, blanks, in_rack, visit, bounds, leave_keys,
                  leave_values, leave_max, kept, none_used):
    """List the anchors to walk in `visit` (base + square); return how many.

    ALL_PLAYS: every anchor, in (direction, square) order. BEST_PLAY and BEST_AVOIDING: by
    decreasing equity bound (in `bounds`, rounded up), anchors where no rack tile fits left
    out, so that `search` stops once the bound cannot reach the best equity; kept[s] is set to
    the bound of the leave of s tiles (_kept_bounds), which the search reads too. none_used:
    zeros by tile code (_leave_key's `used`, for the whole rack's key).

    The bound of anchor `a` holds every play the walk generates from it: the walk covers `a`,
    leftward only board tiles and empty squares not flagged as anchors (a search whose
    anchors are flagged on a zone only may pass a tile and go on), rightward any square; a
    play's new tiles lie on squares a rack tile fits. So a play of k new tiles covers a span:
    `a`, the first L of the empty squares left of it (none past an anchor) and the first
    R = k - 1 - L of those right of it, none past a square no rack tile fits, and its main word
    is those squares and the board's tiles between them and next to either end (the span's
    board tiles, exactly). Its score is at most (those tiles + the k new tiles' letter scores) x the
    product of the span's word multipliers + the span's cross words (each the cross sum plus
    the best rack tile that fits, times the multipliers) + the bingo when k is a full rack,
    where the letter scores sum to at most both the rack's k best values on the span's k
    letter multipliers paired best first and the sum over the span's squares of the best
    rack tile that fits there times its letter multiplier (a blank is worth 0). The bound is
    the largest over the spans whose main word is of a length the rules allow (and not a
    lone tile down with a cross word: the one-tile rule lists it across) of that score plus
    kept[tiles in the rack - k]. With the rack's bingo mask (BINGO_WORD) a full rack's span
    counts only when it holds two board tiles or more, or the mask allows the rack's tiles
    alone or with the span's one board tile (the bingo's main word is those letters).
    """
    size = params[P_SIZE]
    n2 = size * size
    nvisit = 0
    if mode == ALL_PLAYS:
        for i in range(2 * n2):
            if anchor[i]:
                visit[nvisit] = i
                nvisit += 1
        return nvisit
    whole = _leave_key(blanks, rack_tiles, kinds, full, none_used)
    bingos = _kept_bounds(leave_keys, leave_values, leave_max, in_rack, bingo_key(whole), kept)
    rack_size = params[P_RACK_SIZE]
    min_length = params[P_MIN_LENGTH]
    max_length = params[P_MAX_LENGTH]
    available = params[P_ALL_LETTERS] if blanks else rack_mask
    # The rack's tile values, largest first (blanks 0 at the end), and their running sums:
    # prefix[q] the q largest.
    rack_values = int_array(in_rack + 1)
    n = 0
    for q in range(kinds):
        t = rack_tiles[q]
        for _ in range(full[t]):
            n = _keep_largest(rack_values, 0, n, in_rack, values[t])
    prefix = int_array(in_rack + 1)
    for q in range(in_rack):
        prefix[q + 1] = prefix[q] + rack_values[q]
    largest = rack_values[0] if kinds else 0  # the best value of a rack tile (not a blank)
    # most_letter: the largest letter multiplier (over[] and left_over[] count a span's squares
    # of each multiplier from 4 on).
    most_letter = 1
    for j in range(2 * n2):
        if letter_mult[j] > most_letter:
            most_letter = letter_mult[j]
    # Of each empty square of the line being bounded (by column): gain, -1 when no rack tile
    # fits, else the most its cross word can score (0 without one); fit, the best value of a
    # rack tile (not a blank) that fits times the letter multiplier. Only the lines that hold
    # an anchor are computed (a covering search's few, nearly every one of a full search's): a
    # span lies on its anchor's line.
    gain = int_array(size, False)
    fit = int_array(size, False)
    # One anchor's span sides: the empty squares left (lefts) and right (rights) of it, by
    # column; for L = 0 .. lefts used, the value and count of the board tiles between the
    # anchor and the first empty square past the L-th (left_board, left_count; left_letter the
    # first such tile's letter), the same rightward (right_board, right_count, right_letter);
    # over[m]: how many of the span's squares have a letter multiplier of m or more (m >= 4),
    # the left side's at left_over[L * (most_letter + 1) + m]. Each is written before it is
    # read.
    lefts = int_array(in_rack, False)
    rights = int_array(in_rack, False)
    left_board = int_array(in_rack + 1, False)
    left_count = int_array(in_rack + 1, False)
    right_board = int_array(in_rack + 1, False)
    right_count = int_array(in_rack + 1, False)
    left_over = int_array(in_rack * (most_letter + 1), False)
    over = int_array(most_letter + 1, False)
    best_score = int_array(in_rack + 1, False)  # of each number of new tiles, -1: no span
    for k in range(in_rack + 1):
        best_score[k] = -1
    c = size - 1  # the column of square i (counted, not i % size: a division per square)
    for i in range(2 * n2):
        c += 1
        if c == size:
            c = 0
            # A new line: its gain and fit when it holds an anchor.
            line_anchors = 0
            for q in range(size):
                line_anchors |= anchor[i + q]
            if line_anchors:
                for q in range(size):
                    j = i + q
                    gain[q] = 0
                    if ocells[j]:
                        continue
                    allowed = checks[j] & available
                    if not allowed:
                        gain[q] = -1
                        continue
                    fits = allowed & rack_mask
                    best_value = largest
                    if fits != rack_mask:
                        best_value = 0
                        while fits:
                            low = fits & -fits
                            fits ^= low
                            if values[bit_count(low - 1)] > best_value:
                                best_value = values[bit_count(low - 1)]
                    fit[q] = best_value * letter_mult[j]
                    if cross[j] != NO_CROSS_WORD:
                        gain[q] = (cross[j] + fit[q]) * word_mult[j]
        if not anchor[i] or gain[c] < 0:
            continue
        base = 0 if i < n2 else n2
        a = i - base
        line_start = a - c
        line_end = line_start + size - 1
        single_ok = base == 0 or cross[i] == NO_CROSS_WORD
        # Leftward: the anchors' own searches meet no tile past an empty square (a square next
        # to a tile is an anchor), searches with anchors flagged on a zone only may.
        n_left = 0
        on_left = 0
        count_left = 0
        left_letter = 0
        s = a - 1
        while True:
            while s >= line_start and ocells[base + s]:
                if not count_left:
                    left_letter = ocells[base + s] & LETTER_MASK
                on_left += values[ocells[base + s]]
                count_left += 1
                s -= 1
            left_board[n_left] = on_left
            left_count[n_left] = count_left
            if (s < line_start or n_left >= in_rack - 1 or anchor[base + s]
                    or gain[s - line_start] < 0):
                break
            lefts[n_left] = s - line_start
            n_left += 1
            s -= 1
        n_right = 0
        on_right = 0
        count_right = 0
        right_letter = 0
        s = a + 1
        while True:
            while s <= line_end and ocells[base + s]:
                if not count_right:
                    right_letter = ocells[base + s] & LETTER_MASK
                on_right += values[ocells[base + s]]
                count_right += 1
                s += 1
            right_board[n_right] = on_right
            right_count[n_right] = count_right
            if s > line_end or n_right >= in_rack - 1 or gain[s - line_start] < 0:
                break
            rights[n_right] = s - line_start
            n_right += 1
            s += 1
        # Left sides of L squares (the anchor's own counted here), each with every right side;
        # the squares of letter multiplier 2 or more and 3 or more counted apart (over[] from
        # 4 on: the games have none).
        l_fit = fit[c]
        l_product = word_mult[i]
        l_cross = gain[c]
        l_two = 1 if letter_mult[i] >= 2 else 0
        l_three = 1 if letter_mult[i] >= 3 else 0
        for m in range(4, most_letter + 1):
            left_over[m] = 1 if letter_mult[i] >= m else 0
        for left in range(n_left + 1):
            if left:
                q = lefts[left - 1]
                j = base + line_start + q
                l_fit += fit[q]
                l_product *= word_mult[j]
                l_cross += gain[q]
                if letter_mult[j] >= 2:
                    l_two += 1
                    if letter_mult[j] >= 3:
                        l_three += 1
                at = left * (most_letter + 1)
                for m in range(4, most_letter + 1):
                    left_over[at + m] = left_over[at - most_letter - 1 + m] + (
                        1 if letter_mult[j] >= m else 0)
            at = left * (most_letter + 1)
            for m in range(4, most_letter + 1):
                over[m] = left_over[at + m]
            span_fit = l_fit
            product = l_product
            crossing = l_cross
            two = l_two
            three = l_three
            for right in range(n_right + 1):
                k = left + right + 1
                if k > in_rack:
                    break
                if right:
                    q = rights[right - 1]
                    j = base + line_start + q
                    span_fit += fit[q]
                    product *= word_mult[j]
                    crossing += gain[q]
                    if letter_mult[j] >= 2:
                        two += 1
                        if letter_mult[j] >= 3:
                            three += 1
                            for m in range(4, most_letter + 1):
                                if letter_mult[j] >= m:
                                    over[m] += 1
                on_board = left_board[left] + right_board[right]
                board_count = left_count[left] + right_count[right]
                length = k + board_count
                if length < min_length or length > max_length or (k == 1 and not single_ok):
                    continue
                # A full rack's word is its tiles and the span's board tiles: with the rack's
                # bingo mask, none of one board tile or less unless the mask allows it.
                if k == rack_size and bingos >= 0 and (
                        (board_count == 0 and not bingos & BINGO_WORD)
                        or (board_count == 1 and not (bingos >> (
                            left_letter if left_count[left] else right_letter)) & 1)):
                    continue
                letters = prefix[k] + prefix[two] + prefix[three]
                for m in range(4, most_letter + 1):
                    letters += prefix[over[m]]
                if span_fit < letters:
                    letters = span_fit
                score = (on_board + letters) * product + crossing
                if score > best_score[k]:
                    best_score[k] = score
        # The best score of each number of tiles plus the best leave of the tiles kept.
        best_bound = 0.0
        spans = 0
        for k in range(1, in_rack + 1):
            if best_score[k] < 0:
                continue
            with_leave = best_score[k] + kept[in_rack - k]
            if k == rack_size:
                with_leave += params[P_BINGO]
            if not spans or with_leave > best_bound:
                best_bound = with_leave
            spans += 1
            best_score[k] = -1
        if not spans:
            # No span makes a main word the rules allow: the walk finds no play here.
            continue
        bound = int(best_bound)
        if bound < best_bound:
            bound += 1
        j = nvisit
        while j > 0 and bounds[j - 1] < bound:
            bounds[j] = bounds[j - 1]
            visit[j] = visit[j - 1]
            j -= 1
        bounds[j] = bound
        visit[j] = i
        nvisit += 1
    return nvisit


def _leave_key(blanks_kept, rack_tiles, kinds, full, used):
    """The leave key (lookup/crossword/tiles.py) of the rack minus the `used` tiles, keeping
    `blanks_kept` blanks.
    """
    key = EMPTY_LEAVE
    for _ in range(blanks_kept):
        key *= LEAVE_DIGIT
    for j in range(kinds):
        t = rack_tiles[j]
        for _ in range(full[t] - used[t]):
            key = key * LEAVE_DIGIT + t
    return key


def _write_record(out, at, score, direction, line, start, length, bits, key, word, ocells,
                  first):
    """Write a play's record (module docstring) at out[at:]; its main word is
    word[first:first + length] (oriented squares), board tiles keeping their blank bit.
    """
    out[at + R_SCORE] = score
    out[at + R_DIRECTION] = direction
    out[at + R_LINE] = line
    out[at + R_START] = start
    out[at + R_LENGTH] = length
    out[at + R_BLANKS] = bits
    out[at + R_LEAVE] = key
    for q in range(length):
        c = word[first + q]
        if not ocells[first + q]:
            c &= LETTER_MASK
        out[at + RECORD_FIELDS + q] = c


def search_arrays(params, arcs, node_mask, values, order, cells):
    """The board setup `search` reads (only reads): `setup`'s ocells, checks, cross and
    anchor of the board `cells`. The copies of search's code in other kernels take theirs
    from their own search_arrays (lookup/crossword/endgame_kernel.py: arrays made before).
    """
    n2 = params[P_SIZE] * params[P_SIZE]
    # (Written before they are read: not cleared, int_array.)
    ocells = int_array(2 * n2, False)
    checks = int_array(2 * n2, False)
    cross = int_array(2 * n2, False)
    anchor = int_array(2 * n2, False)
    setup(params, arcs, node_mask, values, order, cells, ocells, checks, cross, anchor)
    return ocells, checks, cross, anchor


def search(params, arcs, node_mask, values, letter_mult, word_mult, order, cells, rack,
           leave_keys, leave_values, leave_max, mode, out, best_equity):
    """The plays of one position: every one (ALL_PLAYS) or the best by equity (BEST_PLAY).

    Args:
        params: the game's constants (P_* indexes).
        arcs, node_mask: the GADDAG (lookup/crossword/movegen.GaddagTables, as int64).
        values: value of each tile code (length 2 * BLANK, blank codes 0).
        letter_mult, word_mult: multipliers of every square, across then down (transposed).
        order: square i of the transposed board is square order[i] of the board.
        cells: the board's tile codes, row-major (0 empty).
        rack: count of each tile code in the rack, rack[0] the blanks.
        leave_keys, leave_values: the leave table (see leave_slot), or empty arrays.
        leave_max: the largest leave value, at least 0.0 (0.0 with no table): the bound of a
            leave's value when the table is not a rack's own (_kept_bounds); BEST_PLAY stops
            scoring a play whose score plus its leave's bound cannot reach the best equity
            (BEST_AVOIDING: the lowest best equity of the targets the play may serve).
        mode: ALL_PLAYS, BEST_PLAY, BEST_ABOVE (best_equity[0] the floor) or BEST_AVOIDING
            (params then extended, see BEST_AVOIDING).
        out: records (module docstring), capacity len(out) // (RECORD_FIELDS + size);
            BEST_AVOIDING: target k's best play at (k + 1) * (RECORD_FIELDS + size) (the
            first record's room is working storage).
        best_equity: best_equity[0] receives the best play's equity (BEST_PLAY);
            BEST_AVOIDING: best_equity[k] target k's.

    Returns:
        ALL_PLAYS: the number of plays; when larger than the capacity only that many were
        written, and the caller runs again with room for all. BEST_PLAY: 1 when a play was
        found (out[0:] holds it), else 0; BEST_ABOVE the same when a play reaches the floor,
        else 0. BEST_AVOIDING: the bitmask of the targets with a
        play. Ties of equity go to the play first in the order of _precedes in every mode.
    """
    size = params[P_SIZE]
    n2 = size * size
    rack_size = params[P_RACK_SIZE]
    bingo = params[P_BINGO]
    min_length = params[P_MIN_LENGTH]
    max_length = params[P_MAX_LENGTH]
    all_letters = params[P_ALL_LETTERS]
    root = params[P_ROOT]
    width = RECORD_FIELDS + size
    capacity = len(out) // width
    ocells, checks, cross, anchor = search_arrays(params, arcs, node_mask, values, order, cells)

    blanks = rack[0]
    full = int_array(_CODES)
    left = int_array(_CODES)
    used = int_array(_CODES)
    rack_tiles = int_array(_CODES)
    kinds, rack_mask, in_rack = _rack_setup(rack, full, left, rack_tiles)
    if not root or not in_rack:
        return 0
    with_table = len(leave_keys) > 0
    want_leave = with_table or mode == ALL_PLAYS

    visit = int_array(2 * n2, False)
    bounds = int_array(2 * n2, False)
    kept = [0.0] * (in_rack + 1)
    # (`used` holds no tile before the walk.)
    nvisit = _anchor_order(params, values, letter_mult, word_mult, ocells, checks, cross, anchor,
                           mode, full, rack_tiles, kinds, rack_mask, blanks, in_rack, visit,
                           bounds, leave_keys, leave_values, leave_max, kept, used)

    word = int_array(2 * n2, False)
    for i in range(2 * n2):
        word[i] = ocells[i]
    stack = int_array((size + 2) * _FRAME, False)
    new_tile = int_array(size, False)
    new_letter = int_array(size, False)
    new_cross = int_array(size, False)
    new_position = int_array(size, False)
    count = 0
    found = 0
    best = 0.0
    # BEST_PLAY: whether `best` bars the plays worth finding (once one is found; BEST_ABOVE,
    # given as a negative mode, from the start: best_equity[0] on entry).
    barred = 0
    if mode < 0:
        mode = BEST_PLAY
        best = best_equity[0]
        barred = 1
    targets = params[PARAMS + n2] if mode > BEST_PLAY else 0
    # BEST_PLAY and BEST_AVOIDING: the score of the squares the walk stands on (new tiles all
    # counted as real tiles: score_new_tiles' plain score, summed a square at a time), after
    # the letter of stack frame d: main word's tiles, word multiplier, cross words at
    # partial[3d:3d + 3]; a play whose score so bounded cannot reach the best is not scored.
    partial = int_array(3 * (size + 2), False)
    # BEST_AVOIDING: the lowest of the targets' best equities once all are found (kept as
    # each target's best changes).
    floor = 0.0

    for vi in range(nvisit):
        # Anchors by decreasing bound (_anchor_order, leaves included): once a bound cannot
        # reach the best equity (BEST_AVOIDING: the lowest of every target's, all
        # found), no play of this anchor or a later one can: a play of equal equity could
        # still come first in _precedes' order, so only a smaller bound stops.
        if mode == BEST_PLAY:
            if barred and bounds[vi] < best:
                break
        elif mode > BEST_PLAY and targets and found == (1 << targets) - 1:
            if bounds[vi] < floor:
                break
        o = visit[vi] // n2
        base = o * n2
        a = visit[vi] - base
        line = a // size
        line_start = line * size
        line_end = line_start + size - 1
        pivot = a
        while pivot < line_end and ocells[base + pivot + 1]:
            pivot += 1
        single_ok = o == 0 or cross[base + a] == NO_CROSS_WORD
        depth = 0
        pending = 1
        p_square = pivot
        p_start = -1
        p_node = root
        p_in_rack = in_rack
        p_rmask = rack_mask
        p_nblank = blanks
        while True:
            if pending:
                # Enter a square: which letters may go on it, and what the next square
                # must offer (lookup/crossword/movegen.py's gen).
                pending = 0
                square = p_square
                mask = node_mask[p_node]
                code = ocells[base + square]
                if code:
                    letters = mask & (1 << (code & LETTER_MASK))
                    after = p_in_rack
                else:
                    letters = mask & checks[base + square]
                    if not p_nblank:
                        letters &= p_rmask
                    after = p_in_rack - 1
                if letters:
                    available = all_letters if p_nblank else p_rmask
                    onward = 0
                    last = 0
                    left_free = 0
                    ends = 0
                    if p_start < 0:
                        if square == line_start or not ocells[base + square - 1]:
                            left_free = 1
                        if left_free and square <= a:
                            ends = 1
                        if not left_free:
                            onward = 1 << (ocells[base + square - 1] & LETTER_MASK)
                        elif after and square > line_start and (
                                square - 1 == a
                                or (square <= a and not anchor[base + square - 1])):
                            if after == 1 and (square - 1 == line_start
                                               or not ocells[base + square - 2]):
                                last = checks[base + square - 1] & available
                            else:
                                onward = checks[base + square - 1] & available
                        if ends and after and pivot < line_end:
                            onward |= 1
                    else:
                        if square == line_end or not ocells[base + square + 1]:
                            ends = 1
                        if not ends:
                            onward = 1 << (ocells[base + square + 1] & LETTER_MASK)
                        elif square < line_end and after:
                            if after == 1 and (square + 1 == line_end
                                               or not ocells[base + square + 2]):
                                last = checks[base + square + 1] & available
                            else:
                                onward = checks[base + square + 1] & available
                    f = depth * _FRAME
                    depth += 1
                    stack[f + _F_SQUARE] = square
                    stack[f + _F_START] = p_start
                    stack[f + _F_NODE] = p_node
                    stack[f + _F_RMASK] = p_rmask
                    stack[f + _F_NBLANK] = p_nblank
                    stack[f + _F_LETTERS] = letters
                    stack[f + _F_MASK] = mask
                    stack[f + _F_CODE] = code
                    stack[f + _F_ENDS] = ends
                    stack[f + _F_ONWARD] = onward
                    stack[f + _F_LAST] = last
                    stack[f + _F_LEFT_FREE] = left_free
                    stack[f + _F_PHASE] = 0
                    stack[f + _F_TILE] = 0
                    stack[f + _F_AFTER] = after
            if not depth:
                break
            f = (depth - 1) * _FRAME
            square = stack[f + _F_SQUARE]
            start = stack[f + _F_START]
            phase = stack[f + _F_PHASE]
            if phase == 1:
                # After the leftward child: turn right across the separator.
                stack[f + _F_PHASE] = 2
                if stack[f + _F_GOING] & 1:
                    nb = stack[f + _F_NEXT_NBLANK]
                    rest = all_letters if nb else stack[f + _F_NEXT_RMASK]
                    # The separator is tile 0: the node's first arc.
                    turned = arcs[stack[f + _F_CHILD]] >> ARC_CHILD_SHIFT
                    if node_mask[turned] & checks[base + pivot + 1] & rest:
                        pending = 1
                        p_square = pivot + 1
                        p_start = square
                        p_node = turned
                        p_in_rack = stack[f + _F_AFTER]
                        p_rmask = stack[f + _F_NEXT_RMASK]
                        p_nblank = nb
                        continue
                phase = 2
            if phase == 2:
                tile = stack[f + _F_TILE]
                if tile:
                    left[tile] += 1
                stack[f + _F_PHASE] = 0
            # Next letter on this square.
            letters = stack[f + _F_LETTERS]
            mask = stack[f + _F_MASK]
            ends = stack[f + _F_ENDS]
            onward = stack[f + _F_ONWARD]
            last = stack[f + _F_LAST]
            node = stack[f + _F_NODE]
            bit = 0
            arc = 0
            child = 0
            going = 0
            accepted = 0
            while letters:
                bit = letters & -letters
                letters ^= bit
                arc = arcs[node + bit_count(mask & (bit - 1))]
                child = arc >> ARC_CHILD_SHIFT
                accepted = 1 if ends and arc & ARC_ACCEPTS else 0
                going = node_mask[child] & onward
                if last:
                    # Does the child accept a letter the next square could take?
                    offered = node_mask[child]
                    candidates = offered & last
                    while candidates:
                        low = candidates & -candidates
                        candidates ^= low
                        if arcs[child + bit_count(offered & (low - 1))] & ARC_ACCEPTS:
                            going |= low
                            break
                if accepted or going:
                    break
                bit = 0
            stack[f + _F_LETTERS] = letters
            code = stack[f + _F_CODE]
            if not bit:
                if not code:
                    word[base + square] = 0
                depth -= 1
                continue
            rmask = stack[f + _F_RMASK]
            nblank = stack[f + _F_NBLANK]
            after = stack[f + _F_AFTER]
            tile = 0
            next_rmask = rmask
            next_nblank = nblank
            if not code:
                # A rack tile when there is one, else a blank (lookup/crossword/movegen.py: the
                # other choices of blanks are listed when the play is recorded).
                t = bit_count(bit - 1)
                if bit & rmask:
                    left[t] -= 1
                    word[base + square] = t
                    tile = t
                    if not left[t]:
                        next_rmask = rmask ^ bit
                else:
                    word[base + square] = t | BLANK
                    next_nblank = nblank - 1
            stack[f + _F_TILE] = tile
            stack[f + _F_CHILD] = child
            plain_bound = 0
            if mode != ALL_PLAYS:
                d = 3 * (depth - 1)
                main_sum = partial[d - 3] if d else 0
                product = partial[d - 2] if d else 1
                crossing = partial[d - 1] if d else 0
                if code:
                    main_sum += values[code]
                else:
                    letter_value = values[bit_count(bit - 1)] * letter_mult[base + square]
                    main_sum += letter_value
                    product *= word_mult[base + square]
                    if cross[base + square] != NO_CROSS_WORD:
                        crossing += (cross[base + square] + letter_value) * word_mult[
                            base + square]
                partial[d] = main_sum
                partial[d + 1] = product
                partial[d + 2] = crossing
                plain_bound = main_sum * product + crossing
            stack[f + _F_GOING] = going
            stack[f + _F_NEXT_RMASK] = next_rmask
            stack[f + _F_NEXT_NBLANK] = next_nblank
            rest = all_letters if next_nblank else next_rmask

            if accepted:
                first = square if start < 0 else start
                final = pivot if start < 0 else square
                length = final - first + 1
                placed = in_rack - after
                if placed == rack_size:
                    plain_bound += bingo
                # placed = -1: the play cannot reach the best equity (BEST_AVOIDING: the lowest
                # of the targets', all found), so it is not scored.
                if mode == BEST_PLAY and barred and plain_bound + kept[after] < best:
                    placed = -1
                if mode > BEST_PLAY and found == (1 << targets) - 1 and \
                        plain_bound + kept[after] < floor:
                    placed = -1
                if (placed >= 0 and min_length <= length <= max_length
                        and (placed != 1 or single_ok)):
                    # Score with every new tile a real tile, and what a blank costs on
                    # each new square (lookup/crossword/scoring.py score_new_tiles).
                    plain_score, multiplier, fresh = score_new_tiles(
                        values, letter_mult, word_mult, cross, ocells, word, base + first,
                        base + final, new_tile, new_letter, new_position, new_cross)
                    if fresh == rack_size:
                        plain_score += bingo
                    # Every choice of at most `blanks` new squares for the blanks, by size
                    # (Gosper's next subset of the same size); none when even no blank
                    # cannot reach the best equity.
                    limit = 1 << fresh
                    most = blanks if blanks < fresh else fresh
                    chosen = -1
                    nb = 0
                    if mode == BEST_PLAY and barred and plain_score + kept[after] < best:
                        chosen = 0
                        most = -1
                    allowed = 0
                    if mode > BEST_PLAY:
                        # BEST_AVOIDING: the targets the play may serve, and whether it can
                        # beat the lowest of their best equities.
                        conflict = 0
                        for q in range(first, final + 1):
                            conflict |= params[PARAMS + (q if o == 0 else order[q])]
                        allowed = ((1 << targets) - 1) & ~conflict
                        lowest = 0.0
                        complete = 1
                        unset = 1
                        for k in range(targets):
                            if (allowed >> k) & 1:
                                if not (found >> k) & 1:
                                    complete = 0
                                    break
                                if unset or best_equity[k] < lowest:
                                    lowest = best_equity[k]
                                    unset = 0
                        if not allowed or (complete and plain_score + kept[after] < lowest):
                            chosen = 0
                            most = -1
                    while True:
                        if chosen < 0:
                            chosen = 0
                        else:
                            following = limit
                            if chosen:
                                low = chosen & -chosen
                                higher = chosen + low
                                following = higher + (((higher ^ chosen) // low) >> 2)
                            if following >= limit:
                                nb += 1
                                if nb > most:
                                    break
                                following = (1 << nb) - 1
                            chosen = following
                        valid = 1
                        if blanks or want_leave:
                            for q in range(fresh):
                                if not (chosen >> q) & 1:
                                    used[new_tile[q]] += 1
                            for q in range(fresh):
                                if used[new_tile[q]] > full[new_tile[q]]:
                                    valid = 0
                        score = plain_score
                        bits = 0
                        for q in range(fresh):
                            if (chosen >> q) & 1:
                                score -= new_letter[q] * (multiplier + new_cross[q])
                                bits |= 1 << new_position[q]
                        key = 0
                        if valid and want_leave:
                            key = _leave_key(blanks - nb, rack_tiles, kinds, full, used)
                        if blanks or want_leave:
                            for q in range(fresh):
                                used[new_tile[q]] = 0
                        if not valid:
                            continue
                        equity = float(score)
                        if with_table:
                            slot = leave_slot(leave_keys, key)
                            if leave_keys[slot] == key:
                                equity += leave_values[slot]
                        if mode > BEST_PLAY:
                            for k in range(targets):
                                if not (allowed >> k) & 1:
                                    continue
                                at = (k + 1) * width
                                if (found >> k) & 1:
                                    if equity < best_equity[k]:
                                        continue
                                    if equity == best_equity[k]:
                                        # _precedes reads the record at out[0:].
                                        for q in range(width):
                                            out[q] = out[at + q]
                                        if not _precedes(out, o, line, first - line_start,
                                                         length, bits, ocells, word,
                                                         base + first):
                                            continue
                                found |= 1 << k
                                best_equity[k] = equity
                                if found == (1 << targets) - 1:
                                    floor = best_equity[0]
                                    for q in range(1, targets):
                                        if best_equity[q] < floor:
                                            floor = best_equity[q]
                                _write_record(out, at, score, o, line, first - line_start,
                                              length, bits, key, word, ocells, base + first)
                            continue
                        if mode == BEST_PLAY:
                            if barred and (equity < best or (equity == best and found and
                                                             not _precedes(
                                    out, o, line, first - line_start, length, bits,
                                    ocells, word, base + first))):
                                continue
                            found = 1
                            barred = 1
                            best = equity
                            at = 0
                        else:
                            at = count * width
                            count += 1
                            if count > capacity:
                                continue
                        _write_record(out, at, score, o, line, first - line_start, length,
                                      bits, key, word, ocells, base + first)

            if start < 0:
                stack[f + _F_PHASE] = 1
                if going & ~1 and (not stack[f + _F_LEFT_FREE]
                                   or node_mask[child] & checks[base + square - 1] & rest):
                    pending = 1
                    p_square = square - 1
                    p_start = -1
                    p_node = child
                    p_in_rack = after
                    p_rmask = next_rmask
                    p_nblank = next_nblank
            else:
                stack[f + _F_PHASE] = 2
                if going and (not ends or node_mask[child] & checks[base + square + 1]
                              & rest):
                    pending = 1
                    p_square = square + 1
                    p_start = start
                    p_node = child
                    p_in_rack = after
                    p_rmask = next_rmask
                    p_nblank = next_nblank
    if mode == BEST_PLAY:
        best_equity[0] = best
        return found
    if mode > BEST_PLAY:
        return found
    return count


def record_move(record, at, cells, size, moves, m):
    """Write the play of the record at record[at:] at moves[m:] as a packed move (M_SCORE,
    M_PLACED, MOVE_FIELDS); `cells` is the board before the play (row-major).
    """
    line = record[at + R_LINE]
    start = record[at + R_START]
    if record[at + R_DIRECTION] == 0:
        square = line * size + start
        step = 1
    else:
        square = start * size + line
        step = size
    bits = record[at + R_BLANKS]
    placed = 0
    for q in range(record[at + R_LENGTH]):
        if not cells[square]:
            code = record[at + RECORD_FIELDS + q]
            if (bits >> q) & 1:
                packed = (square << 16) | ((code | BLANK) << 8)
            else:
                packed = (square << 16) | (code << 8) | code
            moves[m + MOVE_FIELDS + placed] = packed
            placed += 1
        square += step
    moves[m + M_SCORE] = record[at + R_SCORE]
    moves[m + M_PLACED] = placed
