"""The endgame kernel: lookup/crossword/endgame.py's negamax, written for the compiled engine.

The same search as EndgameSearch (negamax, alpha-beta, a transposition table keyed by Zobrist
hashes, the table's move first, then the plays that go out, then the rest by score plus
TILE_VALUE_ORDER times the value of the tiles placed, the pass last; the horizon one ply
above the depth cut answered by one best-play search), in the subset of Python numba compiles,
like lookup/crossword/engine_kernel.py: flat int64 arrays, no objects, no recursion.
lookup/crossword/engine_numba.compiled_extension compiles it against the compiled move engine;
CPython runs the same source (tests/test_endgame.py compares both with EndgameSearch and with
plain minimax).

One difference in work, none in the search: with S_FIRST_PLAYS set, a node's list is made only
when needed. After the table's move, the list's first play is found by one best-play search
(_first_play: the score plus a leave table of the node's rack, first_table, is the list's
order), and the list is made only if that play does not reach beta: in a 5-ply search
of self-play endgames 97 % of the nodes that needed a list were cut by that play (a best-play
search costs 45-80 % of a list on endgame boards: 45 % with 3 tiles, 75 % with 7). A search to
the end of the game (no depth cut) leaves it unset: there about a third of the nodes that
search for their first play need their list as well, and a list, kept in the cache, serves
every later visit of its board and rack (on two real endgames, 4 % and 29 % less time).

A node's plays are not searched for on its whole board. Every position of a search follows
from its root: its board is the root's with tiles X laid since, and each rack holds no more
of a tile than the root's did. A play P whose squares are free and that covers no square of
the zone of X (the first empty square from each tile of X in each direction) forms the same
words as on the root board: a word of P holding a tile x of X runs, from x towards P's
nearest tile in it, over filled squares to a square of P, which is the first empty one from x
there, a square of the zone. So it is a play of the root board with its rack, with the same
score and record. A node's plays are therefore the plays that cover a square of the zone,
which the engine's search lists with only the zone's squares left as anchors (_zone_search;
lookup/crossword/turn_kernel.py lists plays covering given squares the same way), and the
root plays whose tiles the rack still holds and whose squares are neither in X nor in the
zone: each side's root list (root_list) holds them by the sub-multiset of the root rack they
use (a bucket), each bucket by score, so that a node reads only the buckets of its rack's
sub-multisets (root_all), and a best-play search only each one's first open play
(root_best). Against searching every anchor at every node, on 12 endgames as the bag
empties: 4- and 6-ply searches in 1.5-1.7x less time (the same trees); solved to the end
within 10 s each, on 40 of them, 1.36x the nodes per second and 26 solved instead of 24
(tests/test_endgame.py holds the lists and first plays to the engine's, with roots of up to
four tiles lifted).

The search keeps its whole state in arrays (`state`, the frames of an explicit stack), so
`run` can stop after a number of nodes and resume where it stopped: the caller reads the clock
between slices (numba cannot), grows a buffer that was too small and calls again.

The board setup of every search (cross-checks, cross sums and anchors: engine_kernel.setup, a
sizeable part of a search on an endgame board) is made once per position and ply: `boards`
holds one set of arrays per ply, keyed by the board's hash, and a child's is its parent's
turned by the move's tiles (engine_kernel.update_setup), not made again from the board.
`prepared_search` is engine_kernel.search, the same code object, with this module's
`search_arrays`, which gives it those arrays to read instead of making them.

A move (in the move lists, the frames and the table) is packed as engine_kernel.record_move
writes it: MOVE_FIELDS + rack size int64s (M_PLACED -1: no move).

Zobrist keys are 63-bit, so CPython's ints and numba's int64 give the same table slots.
"""

import types

from lookup.crossword import engine_kernel
from lookup.crossword.board import LETTER_MASK
from lookup.crossword.engine_kernel import (
    ALL_PLAYS,
    BEST_PLAY,
    M_PLACED,
    M_SCORE,
    MOVE_FIELDS,
    P_RACK_SIZE,
    P_SIZE,
    R_SCORE,
    RECORD_FIELDS,
    fill_leave_table,
    int_array,
    leave_home,
    next_subset,
    record_move,
    records_precede,
    update_setup,
)
from lookup.crossword.engine_kernel import setup as board_setup
from lookup.crossword.tiles import EMPTY_LEAVE, LEAVE_DIGIT

INFINITY = 1 << 30
# Depth of a table entry whose value no depth cut touched: valid for every search.
COMPLETE = 1 << 20
EXACT = 0
LOWER = 1
UPPER = 2

CODES = LETTER_MASK + 1  # rack counts per side
CELL_CODES = 2 * CODES  # cell codes, blanks included (Zobrist rows per square)

# Results of run.
DONE = 0
PAUSED = 1  # the node budget of the slice is spent; call again to go on
NEED_RECORDS = 2  # the records buffer is too small for a position's plays
NEED_ARENA = 3  # the move-list arena is full

# state: the search's scalars.
S_NODES = 0
S_CUTS = 1  # nodes whose value a depth cut touched
S_PLY = 2  # frames on the stack
S_MODE = 3
S_RET = 4  # the value returned to the top frame (MODE_RETURN), the root's at DONE
S_PAUSE_AT = 5  # run pauses before entering a node once S_NODES reaches it
S_LIMIT = 6  # scoreless turns that end the game
S_BOARD_Z = 7
S_RACK_Z = 8  # two: side 0, side 1
S_RACK_VALUE = 10  # two
S_TILES_LEFT = 12  # two
S_ARENA_TOP = 14  # first free move slot of the arena
S_KEEP_LIMIT = 15  # move lists are kept (cached) while the arena top is below this
S_KEPT = 16  # move lists kept in the cache
S_GENERATION = 17  # table entries of other generations are free
S_DEPTH_PER_RACK = 18  # Zobrist rows per tile code (copies 1..n of a tile)
S_E_SIDE = 19  # the node to enter (MODE_ENTER)
S_E_DEPTH = 20
S_E_ALPHA = 21
S_E_BETA = 22
S_E_SCORELESS = 23
S_NEED = 24  # with NEED_RECORDS: the records wanted
S_LIST_GENERATION = 25  # cache entries of other generations are free
S_LISTED = 26  # move lists the engine made (ALL_PLAYS searches)
S_BEST_SEARCHES = 27  # best-play searches of the horizon (BEST_PLAY searches)
S_FIRST_SEARCHES = 28  # best-play searches for a list's first play (_first_play)
S_FIRST_PLAYS = 29  # 1: a list's first play is searched for before the list (module docstring)
S_DEEPEST = 30  # the deepest node entered: its ply (moves from the root) plus one
S_COVERING = 31  # move-engine searches from a node's zone only (the others: none)
S_ROOT_REVERSED = 32  # 1: the root's list is tried last play first (a helper's: solve threads)
STATE = 33

MODE_ENTER = 0
MODE_STEP = 1
MODE_RETURN = 2

# Frame fields (one frame per node being searched).
F_SIDE = 0
F_DEPTH = 1
F_ALPHA = 2
F_BETA = 3
F_SCORELESS = 4
F_KEY0 = 5
F_KEY1 = 6
F_KEY2 = 7
F_WINDOW_LOW = 8
F_BEST = 9
F_CUTS_BEFORE = 10
F_STEP = 11  # -1: the table's move next; 0..count-1: the list; count: the pass; count+1: done
F_LIST = 12  # arena slot of the move list, -1 before it is listed
F_COUNT = 13
F_TEMPORARY = 14  # the list is not cached: the arena top goes back to F_LIST on exit
F_SAVED_BOARD_Z = 15
F_SAVED_RACK_Z = 16
F_SAVED_RACK_VALUE = 17
F_SAVED_TILES_LEFT = 18
F_APPLIED = 19  # the current move's tiles are on the board (undone on return)
F_STAGED = 20  # the list's first play was tried before the list was made (_first_play)
F_BOARD_Z = 21  # the board's hash at the node
FRAME = 22

# Step values of a frame before its list (F_STEP): the table's move, then the list's first play.
STEP_TABLE = -1
STEP_FIRST = -2
# What going out adds to a play's equity in _first_play's search: more than any score, so the
# plays that go out come first, as in the lists.
OUT_FIRST = INFINITY
# A list's plays that keep tiles are ordered by their score plus this many times the value of
# the tiles they place: a tile kept is worth its value to the other side, twice once it goes
# out. With 3,000,000 nodes each (a budget in work, the same on any machine), on the exact
# batch's first 70 endgames: by score alone, 46 solved; so in the round to the end of the game
# only (dc39937), 49; so in every round, the lists' first plays too (first_table), 53 (none
# lost), the 49 in 38 % fewer nodes; 4 times the value, 54 (the 53 in 1.2 % fewer nodes).
TILE_VALUE_ORDER = 2


# The root lists (module docstring). A play's squares as a bitmask in MASK_WORDS int64s of
# MASK_BITS squares each (boards up to MASK_WORDS * MASK_BITS squares).
MASK_WORDS = 4
MASK_BITS = 60
# root_state, per side (ROOT_STATE int64s from side * ROOT_STATE): the first play's index in
# root_records and root_masks, the first bucket's in root_buckets, the count of distinct
# tiles of the root rack, their codes, and the stride of each tile code (0 for a code
# not in the rack) in the sub-multiset index: a sub-multiset taking c_k copies of the k-th
# distinct tile is the bucket sum of c_k * stride_k (mixed radix, the rack's counts + 1).
RS_AT = 0
RS_BUCKET_AT = 1
RS_KINDS = 2
RS_CODES = 3
RS_STRIDE = RS_CODES + CODES
ROOT_STATE = RS_STRIDE + CODES
# Sort key of a root play: its bucket, then its score (the highest first).
ROOT_BUCKET_SHIFT = 32
# The root arrays, as one tuple `roots` (int64 arrays, but for RT_FIRST_VALUES): root_state;
# the root plays' records, masks and the buckets (root_list); the root's cells; a node's
# blocked squares (MASK_WORDS), its zone (count, then squares) and the anchors of its zone
# (node_zone); working storage of root_best and root_all (CODES each) and root_best's equity
# (1).
RT_STATE = 0
RT_RECORDS = 1
RT_MASKS = 2
RT_BUCKETS = 3
RT_CELLS = 4
RT_BLOCKED = 5
RT_ZONE = 6
RT_ZONE_ANCHOR = 7
RT_TAKEN = 8
RT_COUNTS = 9
RT_EQUITY = 10
# And _first_play's leave tables (first_table), one per bucket of either side in the order of
# root_buckets, each of the same power of two slots: their keys (int64) and values (float64),
# and whether each is made (int64, 1 made; all 0 when the root lists are made).
RT_FIRST_KEYS = 11
RT_FIRST_VALUES = 12
RT_FIRST_MADE = 13


# Table entry fields (`info`), beside three key words per slot. T_CHECK, written last, is
# _entry_check of the slot's key, fields and move: searches that share the table on several
# threads (lookup/crossword/endgame.py KernelSearch.solve's `threads`) write entries while
# others read them, and an entry read while it is written (its words from two entries) fails
# the check and counts as a miss (table_entry), never as a wrong value or move.
T_GENERATION = 0
T_DEPTH = 1
T_FLAG = 2
T_VALUE = 3
T_CHECK = 4
TABLE_INFO = 5
TABLE_PROBES = 4
# _entry_check's multiplier (the 64-bit LCG's) and its 63 bits, so that CPython's ints and
# numba's int64 give the same checks.
CHECK_MULTIPLIER = 6364136223846793005
CHECK_BITS = (1 << 63) - 1


def search_arrays(params, arcs, node_mask, values, order, prepared):
    """prepared_search's board setup: the arrays prepare_board made (prepared[0:4]: ocells,
    checks, cross, anchor of engine_kernel.setup), as they are (the search only reads them).
    """
    return prepared[0], prepared[1], prepared[2], prepared[3]


# The copies of engine_kernel's code compiled in this module's namespace (prepared_search,
# board_setup: lookup/crossword/engine_numba.compiled_extension) read the names the kernel's
# search and setup read from it: the kernel's, except `search_arrays` (this module's).
globals().update({name: getattr(engine_kernel, name)
                  for name in (*engine_kernel.search.__code__.co_names,
                               *engine_kernel.setup.__code__.co_names)
                  if name not in globals() and hasattr(engine_kernel, name)})
# The copy keeps the kernel's file name, so that numba's cache of it (kept per source file,
# checked against the file's time stamp) is dropped when the kernel's search changes; its
# machine code holds this module's `search_arrays` as compiled then (a change to it wants
# the kernel's file touched, or numba's cache cleared).
prepared_search = types.FunctionType(
    engine_kernel.search.__code__.replace(co_name="prepared_search",
                                          co_qualname="prepared_search"),
    globals(), "prepared_search")
prepared_search.__qualname__ = "prepared_search"
prepared_search.__doc__ = """engine_kernel.search with this module's `search_arrays`: the
board's setup arrays come ready in place of the cells (prepare_board's `boards[ply]`), read
where they are; same arguments otherwise, same plays and records."""


def prepare_board(params, arcs, node_mask, values, order, cells, boards, board_keys, squares,
                  codes, frames, current, width, ply, board_z):
    """Make boards[ply] the setup arrays of the board `cells` (hash board_z) at a node `ply`
    moves from the root (module docstring): kept if they are already its, else turned from the
    nearest ancestor's that are still that ancestor's board's, by the moves since; else made
    by engine_kernel.setup. board_keys holds each ply's (board hash, 1 when set).
    """
    if board_keys[2 * ply + 1] == 1 and board_keys[2 * ply] == board_z:
        return
    q = ply - 1
    while q >= 0:
        if board_keys[2 * q + 1] == 1 and board_keys[2 * q] == frames[q * FRAME + F_BOARD_Z]:
            break
        q -= 1
    if q < 0:
        row = boards[ply]
        board_setup(params, arcs, node_mask, values, order, cells, row[0], row[1], row[2],
                    row[3])
    else:
        for r in range(q + 1, ply + 1):
            source = boards[r - 1]
            row = boards[r]
            for k in range(4):
                source_k = source[k]
                row_k = row[k]
                for i in range(len(row_k)):
                    row_k[i] = source_k[i]
            f = (r - 1) * FRAME
            if frames[f + F_APPLIED]:
                m = (r - 1) * width
                placed = current[m + M_PLACED]
                for k in range(placed):
                    packed = current[m + MOVE_FIELDS + k]
                    squares[k] = packed >> 16
                    codes[k] = (packed >> 8) & 255
                update_setup(params, arcs, node_mask, values, order, squares, codes, placed,
                             row[0], row[1], row[2], row[3])
            if r < ply:
                board_keys[2 * r] = frames[r * FRAME + F_BOARD_Z]
                board_keys[2 * r + 1] = 1
    board_keys[2 * ply] = board_z
    board_keys[2 * ply + 1] = 1


def move_width(params):
    """Int64s per move: MOVE_FIELDS + the rack size."""
    return MOVE_FIELDS + params[P_RACK_SIZE]


def copy_move(source, s, target, t, width):
    """Copy the move at source[s:] to target[t:]."""
    for k in range(width):
        target[t + k] = source[s + k]


def same_move(a, i, b, j):
    """Whether two moves are the same (score, tiles and squares)."""
    placed = a[i + M_PLACED]
    if placed != b[j + M_PLACED] or a[i + M_SCORE] != b[j + M_SCORE]:
        return False
    for k in range(MOVE_FIELDS, MOVE_FIELDS + placed):
        if a[i + k] != b[j + k]:
            return False
    return True


def placed_value(values, moves, m):
    """The value of the rack tiles a move places."""
    total = 0
    for k in range(moves[m + M_PLACED]):
        total += values[moves[m + MOVE_FIELDS + k] & 255]
    return total


def apply_move(state, cells, racks, z_cell, z_tile, values, side, moves, m):
    """Put a move's tiles down from `side`'s rack, updating the hashes, value and count."""
    per_rack = state[S_DEPTH_PER_RACK]
    board_z = state[S_BOARD_Z]
    rack_z = state[S_RACK_Z + side]
    placed = moves[m + M_PLACED]
    for k in range(placed):
        packed = moves[m + MOVE_FIELDS + k]
        square = packed >> 16
        code = (packed >> 8) & 255
        tile = packed & 255
        cells[square] = code
        board_z ^= z_cell[square * CELL_CODES + code]
        count = racks[side * CODES + tile]
        rack_z ^= z_tile[tile * per_rack + count]
        racks[side * CODES + tile] = count - 1
        state[S_RACK_VALUE + side] -= values[tile]
    state[S_BOARD_Z] = board_z
    state[S_RACK_Z + side] = rack_z
    state[S_TILES_LEFT + side] -= placed


def take_back(cells, racks, side, moves, m):
    """Lift a move's tiles back onto `side`'s rack (the caller restores hashes and counts)."""
    for k in range(moves[m + M_PLACED]):
        packed = moves[m + MOVE_FIELDS + k]
        cells[packed >> 16] = 0
        racks[side * CODES + (packed & 255)] += 1


def table_home(k0, k1, k2, mask):
    """The first slot a key probes."""
    return (k0 ^ (k1 >> 5) ^ (k2 >> 11) ^ (k2 << 3)) & mask


def table_find(keys, info, generation, k0, k1, k2):
    """The slot holding key (k0, k1, k2), or -1."""
    mask = len(info) // TABLE_INFO - 1
    home = table_home(k0, k1, k2, mask)
    for probe in range(TABLE_PROBES):
        s = (home + probe) & mask
        if info[s * TABLE_INFO + T_GENERATION] != generation:
            return -1
        if keys[3 * s] == k0 and keys[3 * s + 1] == k1 and keys[3 * s + 2] == k2:
            return s
    return -1


def _entry_check(generation, k0, k1, k2, depth, flag, value, moves, m, width):
    """T_CHECK of an entry: a hash of its key, fields and move (moves[m:m + width]), in four
    lanes that the processor multiplies side by side (the check costs a search about 2 % of
    its nodes per second on one thread; one chain of multiplies cost 3 %).
    """
    a = ((generation ^ k0) * CHECK_MULTIPLIER) & CHECK_BITS
    b = ((k1 ^ depth) * CHECK_MULTIPLIER) & CHECK_BITS
    c = ((k2 ^ flag) * CHECK_MULTIPLIER) & CHECK_BITS
    d = ((value ^ width) * CHECK_MULTIPLIER) & CHECK_BITS
    k = 0
    while k + 3 < width:
        a = ((a ^ moves[m + k]) * CHECK_MULTIPLIER) & CHECK_BITS
        b = ((b ^ moves[m + k + 1]) * CHECK_MULTIPLIER) & CHECK_BITS
        c = ((c ^ moves[m + k + 2]) * CHECK_MULTIPLIER) & CHECK_BITS
        d = ((d ^ moves[m + k + 3]) * CHECK_MULTIPLIER) & CHECK_BITS
        k += 4
    while k < width:
        a = ((a ^ moves[m + k]) * CHECK_MULTIPLIER) & CHECK_BITS
        k += 1
    a = ((a ^ b) * CHECK_MULTIPLIER) & CHECK_BITS
    c = ((c ^ d) * CHECK_MULTIPLIER) & CHECK_BITS
    return ((a ^ c) * CHECK_MULTIPLIER) & CHECK_BITS


def table_entry(keys, info, table_moves, width, generation, k0, k1, k2, move, at):
    """The entry of key (k0, k1, k2): (slot, depth, flag, value) with its move copied to
    move[at:], or (-1, 0, 0, 0) and move[at + M_PLACED] = -1 when the table does not hold
    it, or holds it half written by another thread (its T_CHECK does not match).
    """
    slot = table_find(keys, info, generation, k0, k1, k2)
    if slot >= 0:
        depth = info[slot * TABLE_INFO + T_DEPTH]
        flag = info[slot * TABLE_INFO + T_FLAG]
        value = info[slot * TABLE_INFO + T_VALUE]
        copy_move(table_moves, slot * width, move, at, width)
        if info[slot * TABLE_INFO + T_CHECK] == _entry_check(generation, k0, k1, k2, depth,
                                                             flag, value, move, at, width):
            return slot, depth, flag, value
    move[at + M_PLACED] = -1
    return -1, 0, 0, 0


def table_store(keys, info, table_moves, width, generation, k0, k1, k2, depth, flag, value,
                moves, m):
    """Store an entry (the move at moves[m:]) in the key's slot, else a free slot near its
    home, else over the home slot's entry; its check last (T_CHECK).
    """
    mask = len(info) // TABLE_INFO - 1
    home = table_home(k0, k1, k2, mask)
    slot = home
    for probe in range(TABLE_PROBES):
        s = (home + probe) & mask
        if info[s * TABLE_INFO + T_GENERATION] != generation or (
                keys[3 * s] == k0 and keys[3 * s + 1] == k1 and keys[3 * s + 2] == k2):
            slot = s
            break
    keys[3 * slot] = k0
    keys[3 * slot + 1] = k1
    keys[3 * slot + 2] = k2
    info[slot * TABLE_INFO + T_GENERATION] = generation
    info[slot * TABLE_INFO + T_DEPTH] = depth
    info[slot * TABLE_INFO + T_FLAG] = flag
    info[slot * TABLE_INFO + T_VALUE] = value
    copy_move(moves, m, table_moves, slot * width, width)
    info[slot * TABLE_INFO + T_CHECK] = _entry_check(generation, k0, k1, k2, depth, flag, value,
                                                     moves, m, width)


def _sort_plays(order, keys, spare, n, records, record_width):
    """Sort order[0:n] by keys[order[i]], ties by records_precede of their records (bottom-up
    merge sort through `spare`).
    """
    run = 1
    while run < n:
        lo = 0
        while lo < n:
            mid = min(lo + run, n)
            hi = min(lo + 2 * run, n)
            i = lo
            j = mid
            k = lo
            while i < mid and j < hi:
                left = order[i]
                right = order[j]
                if keys[right] < keys[left] or (keys[right] == keys[left] and records_precede(
                        records, right * record_width, records, left * record_width)):
                    spare[k] = right
                    j += 1
                else:
                    spare[k] = left
                    i += 1
                k += 1
            while i < mid:
                spare[k] = order[i]
                i += 1
                k += 1
            while j < hi:
                spare[k] = order[j]
                j += 1
                k += 1
            lo = hi
        for k in range(n):
            order[k] = spare[k]
        run *= 2


def node_zone(size, order, cells, root_cells, anchor, zone_anchor, blocked, zone):
    """The tiles laid since the root (on `cells`, not on `root_cells`) and their zone, the
    first empty square from each in each direction: a play covering a square of the zone forms
    a word with such a tile (module docstring). Sets `blocked` (MASK_WORDS) to the bits of
    both, lists the zone in zone[1:] (zone[0] the count) and copies its squares' anchors from
    `anchor` (a board setup's: across by square, then down by square of the transposed board,
    square order[i] of the board, and board square z is square order[z] of the transposed
    one: a transposition undoes itself) to `zone_anchor`, which is zero elsewhere: the search
    with it lists exactly the plays that cover a square of the zone
    (lookup/crossword/turn_kernel.py). clear_zone makes zone_anchor zero again. Returns the
    count.
    """
    n2 = size * size
    for w in range(MASK_WORDS):
        blocked[w] = 0
    count = 0
    for q in range(n2):
        if cells[q] == 0 or root_cells[q] != 0:
            continue
        blocked[q // MASK_BITS] |= 1 << (q % MASK_BITS)
        row = q // size
        col = q % size
        for d in range(4):
            dr = 0 if d < 2 else 5 - 2 * d
            dc = 1 - 2 * d if d < 2 else 0
            r = row + dr
            c = col + dc
            while 0 <= r < size and 0 <= c < size and cells[r * size + c] != 0:
                r += dr
                c += dc
            if 0 <= r < size and 0 <= c < size:
                z = r * size + c
                if not (blocked[z // MASK_BITS] >> (z % MASK_BITS)) & 1:
                    blocked[z // MASK_BITS] |= 1 << (z % MASK_BITS)
                    zone_anchor[z] = anchor[z]
                    zone_anchor[n2 + order[z]] = anchor[n2 + order[z]]
                    zone[1 + count] = z
                    count += 1
    zone[0] = count
    return count


def clear_zone(size, order, zone_anchor, zone):
    """Make zone_anchor zero again after node_zone."""
    n2 = size * size
    for k in range(zone[0]):
        z = zone[1 + k]
        zone_anchor[z] = 0
        zone_anchor[n2 + order[z]] = 0


def root_list(params, arcs, node_mask, values, letter_mult, word_mult, order, cells, racks,
              side, prepared, records, equity, sort_keys, sort_order, sort_spare, no_keys,
              no_values, move, root_state, root_records, root_masks, root_buckets, need):
    """Make `side`'s root list (module docstring): its plays on the board `cells` with its
    whole rack (racks: CODES counts per side), from root_state's RS_AT (plays) and
    RS_BUCKET_AT (buckets), which the caller sets. Writes RS_KINDS, RS_CODES and RS_STRIDE;
    the plays' records (root_records) and squares (root_masks) by bucket, each bucket's by
    score (the highest first), ties by records_precede; root_buckets[b]: the index (from
    RS_AT) of bucket b's first play, root_buckets[b + 1] after its last. `prepared` (room for
    a board setup) and `move` (room for one packed move) are working storage.

    Returns the count of plays, or -1 when `records` or the sort's room is too small and -2
    when the root arrays are (need[0] then says how many plays, or buckets, are wanted).
    """
    size = params[P_SIZE]
    record_width = RECORD_FIELDS + size
    base = side * ROOT_STATE
    rack = racks[side * CODES:(side + 1) * CODES]
    kinds = 0
    stride = 1
    for code in range(CODES):
        root_state[base + RS_STRIDE + code] = 0
        if rack[code]:
            root_state[base + RS_CODES + kinds] = code
            root_state[base + RS_STRIDE + code] = stride
            stride *= rack[code] + 1
            kinds += 1
    root_state[base + RS_KINDS] = kinds
    subsets = stride
    board_setup(params, arcs, node_mask, values, order, cells, prepared[0], prepared[1],
                prepared[2], prepared[3])
    count = prepared_search(params, arcs, node_mask, values, letter_mult, word_mult, order,
                            prepared, rack, no_keys, no_values, 0.0, ALL_PLAYS, records, equity)
    if count * record_width > len(records) or count > len(sort_keys):
        need[0] = count
        return -1
    at = root_state[base + RS_AT]
    bucket_at = root_state[base + RS_BUCKET_AT]
    if (at + count) * record_width > len(root_records) \
            or (at + count) * MASK_WORDS > len(root_masks):
        need[0] = at + count
        return -2
    if bucket_at + subsets + 1 > len(root_buckets):
        need[0] = bucket_at + subsets + 1
        return -2
    for i in range(count):
        record_move(records, i * record_width, cells, size, move, 0)
        used = 0
        for k in range(move[M_PLACED]):
            used += root_state[base + RS_STRIDE + (move[MOVE_FIELDS + k] & 255)]
        sort_keys[i] = (used << ROOT_BUCKET_SHIFT) - records[i * record_width + R_SCORE]
        sort_order[i] = i
    _sort_plays(sort_order, sort_keys, sort_spare, count, records, record_width)
    for b in range(subsets + 1):
        root_buckets[bucket_at + b] = 0
    for j in range(count):
        i = sort_order[j]
        p = at + j
        for f in range(record_width):
            root_records[p * record_width + f] = records[i * record_width + f]
        for w in range(MASK_WORDS):
            root_masks[p * MASK_WORDS + w] = 0
        record_move(records, i * record_width, cells, size, move, 0)
        for k in range(move[M_PLACED]):
            q = move[MOVE_FIELDS + k] >> 16
            root_masks[p * MASK_WORDS + q // MASK_BITS] |= 1 << (q % MASK_BITS)
        bucket = (sort_keys[i] + records[i * record_width + R_SCORE]) >> ROOT_BUCKET_SHIFT
        root_buckets[bucket_at + bucket + 1] += 1
    for b in range(subsets):
        root_buckets[bucket_at + b + 1] += root_buckets[bucket_at + b]
    return count


def _root_open(root_masks, p, blocked):
    """Whether root play p covers no square of `blocked` (node_zone)."""
    for w in range(MASK_WORDS):
        if root_masks[p * MASK_WORDS + w] & blocked[w]:
            return False
    return True


def _rack_kinds(root_state, base, racks, side, taken, counts):
    """Set counts[k] to the copies `side`'s rack holds now of the k-th distinct tile of its
    root rack (root_state from `base`), taken[k] to 0; returns how many kinds (next_subset
    then steps through the sub-multisets of the rack now, the empty one last).
    """
    kinds = root_state[base + RS_KINDS]
    for k in range(kinds):
        counts[k] = racks[side * CODES + root_state[base + RS_CODES + k]]
        taken[k] = 0
    return kinds


def _bucket(root_state, base, kinds, taken):
    """The bucket of the sub-multiset `taken` (copies of each of the root rack's distinct
    tiles, root_state from `base`).
    """
    index = 0
    for k in range(kinds):
        index += taken[k] * root_state[base + RS_STRIDE + root_state[base + RS_CODES + k]]
    return index


def root_best(root_state, root_records, root_masks, root_buckets, racks, side, blocked,
              out_value, tiles_left, values, weight, record_width, taken, counts, root_equity):
    """The best of the root plays `side` can make at the node (its rack now, none covering
    a square of `blocked`): by equity, its score plus `out_value` when it goes out (places
    tiles_left tiles) minus `weight` times the value of the tiles it keeps (`values` by tile
    code), ties by records_precede. Returns its index in root_records (-1: none), its equity
    in root_equity[0]. `taken`, `counts` (CODES each): working storage.
    """
    base = side * ROOT_STATE
    at = root_state[base + RS_AT]
    bucket_at = root_state[base + RS_BUCKET_AT]
    kinds = _rack_kinds(root_state, base, racks, side, taken, counts)
    rack_value = 0
    for k in range(kinds):
        rack_value += counts[k] * values[root_state[base + RS_CODES + k]]
    found = -1
    best = 0
    while next_subset(kinds, counts, taken):
        index = _bucket(root_state, base, kinds, taken)
        tiles = 0
        kept_value = rack_value
        for k in range(kinds):
            tiles += taken[k]
            kept_value -= taken[k] * values[root_state[base + RS_CODES + k]]
        bonus = (out_value if tiles == tiles_left else 0) - weight * kept_value
        for p in range(at + root_buckets[bucket_at + index],
                       at + root_buckets[bucket_at + index + 1]):
            equity = root_records[p * record_width + R_SCORE] + bonus
            # (A bucket is sorted: once a play does not beat the best, no later one does.)
            if found >= 0 and (equity < best or (equity == best and not records_precede(
                    root_records, p * record_width, root_records, found * record_width))):
                break
            if _root_open(root_masks, p, blocked):
                found = p
                best = equity
                break
    root_equity[0] = best
    return found


def root_all(root_state, root_records, root_masks, root_buckets, racks, side, blocked,
             record_width, taken, counts, records, count):
    """Append the root plays `side` can make at the node (root_best's) to `records` from play
    `count` on, as many as it has room for; returns `count` plus all of them.
    """
    base = side * ROOT_STATE
    at = root_state[base + RS_AT]
    bucket_at = root_state[base + RS_BUCKET_AT]
    kinds = _rack_kinds(root_state, base, racks, side, taken, counts)
    while next_subset(kinds, counts, taken):
        index = _bucket(root_state, base, kinds, taken)
        for p in range(at + root_buckets[bucket_at + index],
                       at + root_buckets[bucket_at + index + 1]):
            if _root_open(root_masks, p, blocked):
                if (count + 1) * record_width <= len(records):
                    for f in range(record_width):
                        records[count * record_width + f] = root_records[p * record_width + f]
                count += 1
    return count


def _zone_search(params, arcs, node_mask, values, letter_mult, word_mult, order, cells,
                 prepared, rack, leave_keys, leave_values, leave_max, mode, records, equity,
                 roots, state):
    """engine_kernel.search (`mode`, the leave table and bound given) of the plays of `rack`
    on the board `cells` (its setup `prepared`: prepare_board) that cover a square of the
    zone of the tiles laid since the root (node_zone, which also sets the roots' `blocked`):
    its count or whether it found one; 0 without a search when the zone is empty (no tile
    laid since the root, or none with an empty square next to it).
    """
    size = params[P_SIZE]
    zone_anchor = roots[RT_ZONE_ANCHOR]
    zone = roots[RT_ZONE]
    if not node_zone(size, order, cells, roots[RT_CELLS], prepared[3], zone_anchor,
                     roots[RT_BLOCKED], zone):
        return 0
    state[S_COVERING] += 1
    found = prepared_search(params, arcs, node_mask, values, letter_mult, word_mult, order,
                            (prepared[0], prepared[1], prepared[2], zone_anchor), rack,
                            leave_keys, leave_values, leave_max, mode, records, equity)
    clear_zone(size, order, zone_anchor, zone)
    return found


def _winning_root_play(roots, racks, side, out_value, tiles_left, values, weight, record_width,
                       found, records, equity):
    """The index in the root records of the best root play `side` can make at the node
    (root_best, `out_value`, `values` and `weight` as it takes them, after _zone_search) when
    it beats the zone search's best (`found`: whether it has one, at records[0:], of
    equity[0]), by equity, ties by records_precede; else -1.
    """
    p = root_best(roots[RT_STATE], roots[RT_RECORDS], roots[RT_MASKS], roots[RT_BUCKETS], racks,
                  side, roots[RT_BLOCKED], out_value, tiles_left, values, weight, record_width,
                  roots[RT_TAKEN], roots[RT_COUNTS], roots[RT_EQUITY])
    if p < 0 or not found:
        return p
    best = roots[RT_EQUITY][0]
    if best > equity[0] or (best == equity[0] and records_precede(
            roots[RT_RECORDS], p * record_width, records, 0)):
        return p
    return -1


def list_moves(params, arcs, node_mask, values, letter_mult, word_mult, order, cells, prepared,
               racks, side, no_keys, no_values, records, equity, scratch, sort_keys, sort_order,
               sort_spare, arena, at, width, state, roots):
    """List `side`'s plays (the board `cells`, its setup `prepared`: prepare_board) at
    arena[at:], going out first, then by score plus TILE_VALUE_ORDER times the tiles'
    value, ties by records_precede
    (lookup/crossword/endgame.play_order): those that cover the zone of the tiles laid since
    the root (_zone_search) and the root plays that do not (root_all). Returns how many, or
    -1 when `records` is too small (state[S_NEED] then says how many records the position
    has) and -2 when the arena is.
    """
    size = params[P_SIZE]
    record_width = RECORD_FIELDS + size
    rack = racks[side * CODES:(side + 1) * CODES]
    state[S_LISTED] += 1
    count = _zone_search(params, arcs, node_mask, values, letter_mult, word_mult, order, cells,
                         prepared, rack, no_keys, no_values, 0.0, ALL_PLAYS, records, equity,
                         roots, state)
    if count * record_width <= len(records):
        count = root_all(roots[RT_STATE], roots[RT_RECORDS], roots[RT_MASKS], roots[RT_BUCKETS],
                         racks, side, roots[RT_BLOCKED], record_width, roots[RT_TAKEN],
                         roots[RT_COUNTS], records, count)
    if count * record_width > len(records) or count > len(sort_keys):
        state[S_NEED] = count
        return -1
    if at + count * width > len(arena) or count * width > len(scratch):
        return -2
    tiles_left = state[S_TILES_LEFT + side]
    for i in range(count):
        record_move(records, i * record_width, cells, size, scratch, i * width)
        # (A play goes out when it places every tile left: the root plays' records keep the
        # root rack's leave.)
        out = 0 if scratch[i * width + M_PLACED] == tiles_left else 1
        sort_keys[i] = out * INFINITY - records[i * record_width + R_SCORE] \
            - TILE_VALUE_ORDER * placed_value(values, scratch, i * width)
        sort_order[i] = i
    _sort_plays(sort_order, sort_keys, sort_spare, count, records, record_width)
    for i in range(count):
        copy_move(scratch, sort_order[i] * width, arena, at + i * width, width)
    return count


def first_table(root_state, racks, side, values, first_keys, first_values, first_made, taken,
                counts):
    """The offset in first_keys and first_values of the leave table of `side`'s rack now
    (a sub-multiset of its root rack), made the first time it is asked for: each multiset
    the rack can keep, keyed as the move engine keys leaves (lookup/crossword/tiles.py),
    worth OUT_FIRST when empty, else minus TILE_VALUE_ORDER times its value. A play's score
    plus the value of its leave is then its place in the list (list_moves: going out first,
    then by score plus TILE_VALUE_ORDER times the value of the tiles placed) less a constant
    of the rack. `taken`, `counts` (CODES each): working storage.
    """
    base = side * ROOT_STATE
    kinds = _rack_kinds(root_state, base, racks, side, taken, counts)
    table = root_state[base + RS_BUCKET_AT] + _bucket(root_state, base, kinds, counts)
    slots = len(first_keys) // len(first_made)
    at = table * slots
    if first_made[table]:
        return at
    for slot in range(at, at + slots):
        first_keys[slot] = 0
    while True:  # from the empty multiset (all of `taken` 0) to the whole rack
        key = EMPTY_LEAVE
        kept_value = 0
        for k in range(kinds):
            code = root_state[base + RS_CODES + k]  # (ascending, as keys hold them)
            for _ in range(taken[k]):
                key = key * LEAVE_DIGIT + code
            kept_value += taken[k] * values[code]
        slot = leave_home(key, slots - 1)  # (engine_kernel.leave_slot, within the table)
        while first_keys[at + slot] != 0:
            slot = (slot + 1) & (slots - 1)
        first_keys[at + slot] = key
        first_values[at + slot] = (float(OUT_FIRST) if key == EMPTY_LEAVE
                                   else float(-TILE_VALUE_ORDER * kept_value))
        if not next_subset(kinds, counts, taken):
            break
    first_made[table] = 1
    return at


def _first_play(params, arcs, node_mask, values, letter_mult, word_mult, order, cells, prepared,
                racks, side, records, equity, staged, s_at, state, roots):
    """The first play of `side`'s list (list_moves's order), packed at staged[s_at:], found
    without the list: the best of one best-play search of the zone (_zone_search) with the
    rack's first_table as its leave table, and of the root plays (root_best, by the same
    equity): a fraction of listing every play, and in most nodes of a search the first move
    tried after the table's already reaches beta. Returns 0 when the side has no play.
    """
    size = params[P_SIZE]
    record_width = RECORD_FIELDS + size
    rack = racks[side * CODES:(side + 1) * CODES]
    state[S_FIRST_SEARCHES] += 1
    first_keys = roots[RT_FIRST_KEYS]
    first_values = roots[RT_FIRST_VALUES]
    slots = len(first_keys) // len(roots[RT_FIRST_MADE])
    at = first_table(roots[RT_STATE], racks, side, values, first_keys, first_values,
                     roots[RT_FIRST_MADE], roots[RT_TAKEN], roots[RT_COUNTS])
    found = _zone_search(params, arcs, node_mask, values, letter_mult, word_mult, order, cells,
                         prepared, rack, first_keys[at:at + slots],
                         first_values[at:at + slots], float(OUT_FIRST), BEST_PLAY, records,
                         equity, roots, state)
    p = _winning_root_play(roots, racks, side, OUT_FIRST, state[S_TILES_LEFT + side], values,
                           TILE_VALUE_ORDER, record_width, found, records, equity)
    if p >= 0:
        record_move(roots[RT_RECORDS], p * record_width, cells, size, staged, s_at)
        return 1
    if found:
        record_move(records, 0, cells, size, staged, s_at)
    return found


def _horizon(params, arcs, node_mask, values, letter_mult, word_mult, order, cells, prepared,
             racks, state, side, beta, k0, k1, k2, first, f_at, records, equity, out_keys,
             out_values, keys, info, table_moves, width, best_move, b_at, roots):
    """The value of a node one ply above the depth cut (EndgameSearch._horizon): the side's
    best play's score, plus twice the other rack for a play that goes out, or 0; or, when the
    table's move `first` (at first[f_at:]) already reaches `beta`, that lower bound.
    """
    generation = state[S_GENERATION]
    bonus = 2 * state[S_RACK_VALUE + 1 - side]
    low = 0
    placed = first[f_at + M_PLACED]
    if placed > 0:
        goes_out = placed == state[S_TILES_LEFT + side]
        low = first[f_at + M_SCORE] + bonus if goes_out else first[f_at + M_SCORE]
        if low >= beta and goes_out:
            table_store(keys, info, table_moves, width, generation, k0, k1, k2, COMPLETE, LOWER,
                        low, first, f_at)
            return low
    if low >= beta:
        state[S_CUTS] += 1
        table_store(keys, info, table_moves, width, generation, k0, k1, k2, 1, LOWER, low,
                    first, f_at)
        return low
    out_keys[0] = 0
    out_keys[1] = 0
    out_keys[2] = 0
    out_keys[3] = 0
    out_keys[4] = 0
    out_keys[5] = 0
    out_keys[6] = 0
    out_keys[7] = 0
    source_keys = int_array(1)
    source_keys[0] = EMPTY_LEAVE
    source_values = equity[1:2]
    source_values[0] = float(bonus)
    fill_leave_table(source_keys, source_values, out_keys, out_values)
    rack = racks[side * CODES:(side + 1) * CODES]
    state[S_BEST_SEARCHES] += 1
    size = params[P_SIZE]
    record_width = RECORD_FIELDS + size
    found = _zone_search(params, arcs, node_mask, values, letter_mult, word_mult, order, cells,
                         prepared, rack, out_keys, out_values, float(max(bonus, 0)), BEST_PLAY,
                         records, equity, roots, state)
    p = _winning_root_play(roots, racks, side, bonus, state[S_TILES_LEFT + side], values, 0,
                           record_width, found, records, equity)
    best = 0
    best_move[b_at + M_SCORE] = 0
    best_move[b_at + M_PLACED] = 0
    if p >= 0:
        if roots[RT_EQUITY][0] >= 0:
            best = roots[RT_EQUITY][0]
            record_move(roots[RT_RECORDS], p * record_width, cells, size, best_move, b_at)
    elif found and equity[0] >= 0:
        best = int(equity[0])
        record_move(records, 0, cells, size, best_move, b_at)
    placed = best_move[b_at + M_PLACED]
    if placed > 0 and placed == state[S_TILES_LEFT + side] and best >= beta:
        table_store(keys, info, table_moves, width, generation, k0, k1, k2, COMPLETE, LOWER,
                    best, best_move, b_at)
        return best
    state[S_CUTS] += 1
    table_store(keys, info, table_moves, width, generation, k0, k1, k2, 1, EXACT, best,
                best_move, b_at)
    return best


def _cache_find(list_keys, list_info, generation, k0, k1):
    """The cache slot of the move list of board hash k0 and rack hash k1, or the free slot it
    would take (list_info[slot * 3] != generation), or -1 when neither is near its home.
    """
    mask = len(list_keys) // 2 - 1
    home = (k0 ^ (k1 >> 7) ^ (k1 << 2)) & mask
    for probe in range(8):
        s = (home + probe) & mask
        if list_info[3 * s] != generation:
            return s
        if list_keys[2 * s] == k0 and list_keys[2 * s + 1] == k1:
            return s
    return -1


def run(params, arcs, node_mask, values, letter_mult, word_mult, order, cells, racks,
        z_cell, z_tile, z_side, z_scoreless, keys, info, table_moves, list_keys, list_info,
        arena, frames, current, best_moves, first_moves, staged_moves, boards, board_keys,
        squares, codes, records, equity, scratch, sort_keys, sort_order, sort_spare, no_keys,
        no_values, out_keys, out_values, state, roots):
    """Run the search from its state (module docstring) until the root's value is known (DONE,
    in state[S_RET]), the slice's nodes are spent (PAUSED) or a buffer is too small
    (NEED_RECORDS, NEED_ARENA: nothing changed since the last node; grow it and call again).

    Args:
        params .. order: the move engine's constants (lookup/crossword/engine.py).
        cells, racks: the position (lexicon codes; CODES rack counts per side), changed while
            moves are searched and restored after.
        z_cell, z_tile, z_side, z_scoreless: Zobrist keys by square and cell code, by tile
            code and copy, by side, by scoreless-turn count.
        keys, info, table_moves: the transposition table (3 key words, TABLE_INFO fields and
            one move per slot; a power of two slots).
        list_keys, list_info, arena: the move-list cache (board and rack hash; generation,
            arena slot, count per slot) and the arena holding the lists.
        frames, current, best_moves, first_moves, staged_moves: per frame, its fields
            (FRAME), the move being searched, the best so far, the table's move and the list's
            first play when it was tried before the list (_first_play).
        boards, board_keys, squares, codes: the board setup of each ply and its key
            (prepare_board), room for a move's squares and codes.
        records, equity, scratch, sort_keys, sort_order, sort_spare: working storage of a
            move list (engine records, equities, unsorted moves, the sort).
        no_keys, no_values: an empty leave table; out_keys, out_values: an 8-slot one.
        state: the scalars (S_*).
        roots: the root lists of the position the search started from, or of one it came
            from (RT_*: root_list), and a node's working storage.
    """
    width = move_width(params)
    limit = state[S_LIMIT]
    generation = state[S_GENERATION]
    while True:
        mode = state[S_MODE]
        ply = state[S_PLY]
        if mode == MODE_ENTER:
            if state[S_NODES] >= state[S_PAUSE_AT]:
                return PAUSED
            state[S_NODES] += 1
            if ply >= state[S_DEEPEST]:
                state[S_DEEPEST] = ply + 1
            side = state[S_E_SIDE]
            depth = state[S_E_DEPTH]
            alpha = state[S_E_ALPHA]
            beta = state[S_E_BETA]
            scoreless = state[S_E_SCORELESS]
            k0 = state[S_BOARD_Z] ^ z_side[side] ^ z_scoreless[scoreless]
            k1 = state[S_RACK_Z]
            k2 = state[S_RACK_Z + 1]
            fm = ply * width
            slot, entry_depth, flag, value = table_entry(keys, info, table_moves, width,
                                                         generation, k0, k1, k2, first_moves, fm)
            if slot >= 0:
                if entry_depth >= depth and (flag == EXACT or (flag == LOWER and value >= beta)
                                             or (flag == UPPER and value <= alpha)):
                    if entry_depth < COMPLETE:
                        state[S_CUTS] += 1
                    state[S_RET] = value
                    state[S_MODE] = MODE_RETURN
                    continue
            if depth == 0:
                state[S_CUTS] += 1
                state[S_RET] = 0
                state[S_MODE] = MODE_RETURN
                continue
            if depth == 1 and scoreless + 1 < limit:
                prepare_board(params, arcs, node_mask, values, order, cells, boards, board_keys,
                              squares, codes, frames, current, width, ply, state[S_BOARD_Z])
                state[S_RET] = _horizon(params, arcs, node_mask, values, letter_mult, word_mult,
                                        order, cells, boards[ply], racks, state, side, beta,
                                        k0, k1, k2,
                                        first_moves, fm, records, equity, out_keys, out_values,
                                        keys, info, table_moves, width, best_moves, fm, roots)
                state[S_MODE] = MODE_RETURN
                continue
            f = ply * FRAME
            frames[f + F_SIDE] = side
            frames[f + F_DEPTH] = depth
            frames[f + F_ALPHA] = alpha
            frames[f + F_BETA] = beta
            frames[f + F_SCORELESS] = scoreless
            frames[f + F_KEY0] = k0
            frames[f + F_KEY1] = k1
            frames[f + F_KEY2] = k2
            frames[f + F_WINDOW_LOW] = alpha
            frames[f + F_BEST] = -INFINITY
            frames[f + F_CUTS_BEFORE] = state[S_CUTS]
            frames[f + F_STEP] = STEP_TABLE
            frames[f + F_LIST] = -1
            frames[f + F_COUNT] = 0
            frames[f + F_TEMPORARY] = 0
            frames[f + F_APPLIED] = 0
            frames[f + F_STAGED] = 0
            frames[f + F_BOARD_Z] = state[S_BOARD_Z]
            state[S_PLY] = ply + 1
            state[S_MODE] = MODE_STEP
            continue

        f = (ply - 1) * FRAME if ply else 0
        if mode == MODE_RETURN:
            if ply == 0:
                return DONE
            side = frames[f + F_SIDE]
            cm = (ply - 1) * width
            if frames[f + F_APPLIED]:
                take_back(cells, racks, side, current, cm)
                state[S_BOARD_Z] = frames[f + F_SAVED_BOARD_Z]
                state[S_RACK_Z + side] = frames[f + F_SAVED_RACK_Z]
                state[S_RACK_VALUE + side] = frames[f + F_SAVED_RACK_VALUE]
                state[S_TILES_LEFT + side] = frames[f + F_SAVED_TILES_LEFT]
                frames[f + F_APPLIED] = 0
            value = current[cm + M_SCORE] - state[S_RET]
        else:
            # MODE_STEP: the frame's next move; a move that ends the game has its value now.
            side = frames[f + F_SIDE]
            other = 1 - side
            fm = (ply - 1) * width
            cm = fm
            step = frames[f + F_STEP]
            chosen = 0
            cut = step >= INFINITY  # a move reached beta
            if step == STEP_TABLE:
                frames[f + F_STEP] = STEP_FIRST
                step = STEP_FIRST
                if first_moves[fm + M_PLACED] >= 0:
                    copy_move(first_moves, fm, current, cm, width)
                    chosen = 1
            first_placed = first_moves[fm + M_PLACED]
            if not chosen and not cut and frames[f + F_LIST] < 0:
                k1 = state[S_RACK_Z + side]
                lists = state[S_LIST_GENERATION]
                slot = _cache_find(list_keys, list_info, lists, state[S_BOARD_Z], k1)
                if slot >= 0 and list_info[3 * slot] == lists:
                    frames[f + F_LIST] = list_info[3 * slot + 1]
                    frames[f + F_COUNT] = list_info[3 * slot + 2]
                elif step == STEP_FIRST and state[S_FIRST_PLAYS]:
                    # The list's first play, found without the list: the list is made only
                    # when that play does not reach beta.
                    frames[f + F_STEP] = 0
                    step = 0
                    prepare_board(params, arcs, node_mask, values, order, cells, boards,
                                  board_keys, squares, codes, frames, current, width, ply - 1,
                                  state[S_BOARD_Z])
                    if _first_play(params, arcs, node_mask, values, letter_mult, word_mult,
                                   order, cells, boards[ply - 1], racks, side, records,
                                   equity, staged_moves, fm, state, roots):
                        if not (first_placed > 0 and same_move(staged_moves, fm, first_moves,
                                                               fm)):
                            copy_move(staged_moves, fm, current, cm, width)
                            frames[f + F_STAGED] = 1
                            chosen = 1
                    else:  # no play: the list is empty
                        frames[f + F_LIST] = state[S_ARENA_TOP]
                        frames[f + F_COUNT] = 0
                if not chosen and frames[f + F_LIST] < 0:
                    at = state[S_ARENA_TOP]
                    prepare_board(params, arcs, node_mask, values, order, cells, boards,
                                  board_keys, squares, codes, frames, current, width, ply - 1,
                                  state[S_BOARD_Z])
                    count = list_moves(params, arcs, node_mask, values, letter_mult, word_mult,
                                       order, cells, boards[ply - 1], racks, side, no_keys,
                                       no_values, records, equity, scratch, sort_keys,
                                       sort_order, sort_spare, arena, at, width, state, roots)
                    if count == -1:
                        return NEED_RECORDS
                    if count == -2:
                        return NEED_ARENA
                    frames[f + F_LIST] = at
                    frames[f + F_COUNT] = count
                    state[S_ARENA_TOP] = at + count * width
                    if state[S_ARENA_TOP] > state[S_KEEP_LIMIT]:
                        # Above the kept lists' room: freed when the frame returns (no list
                        # above it is kept either, so none is overwritten while cached).
                        frames[f + F_TEMPORARY] = 1
                    elif slot >= 0:
                        list_keys[2 * slot] = state[S_BOARD_Z]
                        list_keys[2 * slot + 1] = k1
                        list_info[3 * slot] = lists
                        list_info[3 * slot + 1] = at
                        list_info[3 * slot + 2] = count
                        state[S_KEPT] += 1
            if not chosen and not cut:
                if step == STEP_FIRST:  # the list was kept or made: its first play is in it
                    step = 0
                count = frames[f + F_COUNT]
                start = frames[f + F_LIST]
                staged = frames[f + F_STAGED]
                reversed_here = ply == 1 and state[S_ROOT_REVERSED]
                while step < count:
                    at = start + (count - 1 - step if reversed_here else step) * width
                    if not ((first_placed > 0 and same_move(arena, at, first_moves, fm))
                            or (staged and same_move(arena, at, staged_moves, fm))):
                        break
                    step += 1
                if step < count:
                    at = start + (count - 1 - step if reversed_here else step) * width
                    copy_move(arena, at, current, cm, width)
                    frames[f + F_STEP] = step + 1
                    chosen = 1
                elif step == count and first_placed != 0:
                    current[cm + M_SCORE] = 0
                    current[cm + M_PLACED] = 0
                    frames[f + F_STEP] = count + 1
                    chosen = 1
            if not chosen:
                # Every move tried: store the node and return its value.
                best = frames[f + F_BEST]
                beta = frames[f + F_BETA]
                if best <= frames[f + F_WINDOW_LOW]:
                    flag = UPPER
                elif best >= beta:
                    flag = LOWER
                else:
                    flag = EXACT
                stored = COMPLETE if state[S_CUTS] == frames[f + F_CUTS_BEFORE] else \
                    frames[f + F_DEPTH]
                table_store(keys, info, table_moves, width, generation, frames[f + F_KEY0],
                            frames[f + F_KEY1], frames[f + F_KEY2], stored, flag, best,
                            best_moves, fm)
                if frames[f + F_TEMPORARY]:
                    state[S_ARENA_TOP] = frames[f + F_LIST]
                state[S_PLY] = ply - 1
                state[S_RET] = best
                state[S_MODE] = MODE_RETURN
                continue
            score = current[cm + M_SCORE]
            placed = current[cm + M_PLACED]
            if placed > 0 and placed == state[S_TILES_LEFT + side]:
                value = score + 2 * state[S_RACK_VALUE + other]
            else:
                after = 0 if score else frames[f + F_SCORELESS] + 1
                if after >= limit:
                    kept = state[S_RACK_VALUE + side]
                    if placed > 0:
                        kept -= placed_value(values, current, cm)
                    value = score - kept + state[S_RACK_VALUE + other]
                else:
                    alpha = frames[f + F_ALPHA]
                    beta = frames[f + F_BETA]
                    if placed > 0:
                        frames[f + F_SAVED_BOARD_Z] = state[S_BOARD_Z]
                        frames[f + F_SAVED_RACK_Z] = state[S_RACK_Z + side]
                        frames[f + F_SAVED_RACK_VALUE] = state[S_RACK_VALUE + side]
                        frames[f + F_SAVED_TILES_LEFT] = state[S_TILES_LEFT + side]
                        apply_move(state, cells, racks, z_cell, z_tile, values, side, current,
                                   cm)
                        frames[f + F_APPLIED] = 1
                    state[S_E_SIDE] = other
                    state[S_E_DEPTH] = frames[f + F_DEPTH] - 1
                    state[S_E_ALPHA] = score - beta
                    state[S_E_BETA] = score - alpha
                    state[S_E_SCORELESS] = after
                    state[S_MODE] = MODE_ENTER
                    continue

        # A move's value for the frame's side: keep the best, cut at beta.
        cm = (ply - 1) * width
        if value > frames[f + F_BEST]:
            frames[f + F_BEST] = value
            copy_move(current, cm, best_moves, cm, width)
            if value > frames[f + F_ALPHA]:
                frames[f + F_ALPHA] = value
                if value >= frames[f + F_BETA]:
                    frames[f + F_STEP] = INFINITY  # no more moves
        state[S_MODE] = MODE_STEP
