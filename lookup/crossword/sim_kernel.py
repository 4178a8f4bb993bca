"""The simulation kernel: one dealing of lookup/crossword/simulate.py played out for every
candidate, written for the compiled engine.

The same lines as simulate._simulate_line (the candidate, the mover's draw, then each side's best
play by equity, score + leave while the bag holds tiles and the end-of-bag formula once it is
empty, the game's end rules), in the subset of Python numba compiles, like
lookup/crossword/engine_kernel.py: flat arrays, no objects. lookup/crossword/engine_numba
.compiled_extension compiles it against the compiled move engine; CPython runs the same source
(tests/test_simulate.py compares both with simulate's Python lines on seeded dealings).

Leaves come from one open-addressing table of every leave of the game's leave table, keyed in
the lexicon's codes (engine_kernel.leave_slot); each search reads a small table of the leaves
its rack can keep, made from it (fill_rack_table), as simulate._Leaves makes one per
rack. Moves are packed by engine_kernel.record_move.
"""

from lookup.crossword.board import LETTER_MASK
from lookup.crossword.engine_kernel import (
    BEST_PLAY,
    M_PLACED,
    M_SCORE,
    MOVE_FIELDS,
    P_SIZE,
    R_LEAVE,
    leave_slot,
    next_subset,
    record_move,
    search,
)
from lookup.crossword.equity import END_KEEP_PENALTY
from lookup.crossword.tiles import EMPTY_LEAVE, LEAVE_DIGIT

CODES = LETTER_MASK + 1  # rack counts per side


def _rack_kinds(rack, distinct, counts, taken):
    """List the rack's codes (ascending, the blank 0 first) and counts; (kinds, tiles)."""
    kinds = 0
    tiles = 0
    for code in range(CODES):
        if rack[code]:
            distinct[kinds] = code
            counts[kinds] = rack[code]
            taken[kinds] = 0
            kinds += 1
            tiles += rack[code]
    return kinds, tiles


def _subset_key(kinds, distinct, taken):
    key = EMPTY_LEAVE
    for j in range(kinds):
        for _ in range(taken[j]):
            key = key * LEAVE_DIGIT + distinct[j]
    return key


def _subset_size(kinds, taken):
    size = 0
    for j in range(kinds):
        size += taken[j]
    return size


def fill_rack_table(keys, table, rack, slots, values, distinct, counts, taken):
    """Fill a small table (slots, values; cleared first) with the value in the game's table
    (keys, table) of every leave a play can keep from `rack` (one tile or more, not the whole
    rack): the rack's own table, as simulate._Leaves makes it, which a search reads far
    quicker than the game's (it stays in the cache). Returns its pruning bound: the largest
    value, at least 0.0 (lookup/crossword/engine.py LeaveTable.max_value).
    """
    for s in range(len(slots)):
        slots[s] = 0
    kinds, tiles = _rack_kinds(rack, distinct, counts, taken)
    best = 0.0
    while next_subset(kinds, counts, taken):
        if _subset_size(kinds, taken) == tiles:
            continue
        key = _subset_key(kinds, distinct, taken)
        slot = leave_slot(keys, key)
        value = table[slot] if keys[slot] == key else 0.0
        into = leave_slot(slots, key)
        slots[into] = key
        values[into] = value
        if value > best:
            best = value
    return best


def fill_end_table(rack, values, opponent_value, slots, table, distinct, counts, taken):
    """Fill the table (slots, table; cleared first) of the end-of-bag formula for `rack`
    facing a rack worth `opponent_value` (lookup/crossword/equity.end_of_bag_values): every leave
    a play can keep, the empty one included. Returns its pruning bound (largest value, at
    least 0.0).
    """
    for s in range(len(slots)):
        slots[s] = 0
    kinds, tiles = _rack_kinds(rack, distinct, counts, taken)
    best = 0.0
    more = True
    while more:
        size = _subset_size(kinds, taken)
        if size < tiles:
            kept = 0
            for j in range(kinds):
                kept += taken[j] * values[distinct[j]]
            value = 2.0 * opponent_value if size == 0 else -(2.0 * kept + END_KEEP_PENALTY)
            key = _subset_key(kinds, distinct, taken)
            slot = leave_slot(slots, key)
            slots[slot] = key
            table[slot] = value
            if value > best:
                best = value
        more = next_subset(kinds, counts, taken)
    return best


def _rack_value(values, racks, side):
    total = 0
    for code in range(1, CODES):
        total += values[code] * racks[side * CODES + code]
    return total


def simulate_line(params, arcs, node_mask, values, letter_mult, word_mult, order, leave_keys,
                  leave_values, base_cells, mover_rack, candidates, c_at, candidate_leave,
                  dealing, unseen, rack_size, plies, limit, cells, racks, out, equity, move,
                  rack_slots, rack_values, distinct, counts, taken):
    """The value of the candidate at candidates[c_at:] (a packed move) over one dealing
    (lookup/crossword/simulate.py _simulate_line).

    Args:
        params .. order: the move engine's constants.
        leave_keys, leave_values: every leave's value (module docstring); empty: all 0.0.
        base_cells, mover_rack: the position (lexicon codes; the rack as CODES counts).
        candidates, c_at, candidate_leave: the candidate and the value of its leave.
        dealing, unseen: the unseen tiles in dealing order, and how many: the opponent's
            rack first, then the bag, drawn from the front.
        rack_size, plies, limit: the rack size; turns after the candidate (-1: to the end);
            the scoreless turns that end the game.
        cells, racks, out, equity, move, rack_slots, rack_values, distinct, counts, taken:
            working storage.
    """
    size = params[P_SIZE]
    for i in range(size * size):
        cells[i] = base_cells[i]
    for c in range(CODES):
        racks[c] = mover_rack[c]
        racks[CODES + c] = 0
    dealt = min(rack_size, unseen)
    for i in range(dealt):
        racks[CODES + dealing[i]] += 1
    bag_at = dealt
    with_leaves = len(leave_keys) > 0
    spread = 0
    last_leave = 0.0
    scoreless = 0
    turn = 0
    width = MOVE_FIELDS + rack_size
    while plies < 0 or turn <= plies:
        side = turn % 2
        sign = 1 - 2 * side
        bag_before = unseen - bag_at
        have = 1
        leave_value = 0.0
        if turn == 0:
            for k in range(width):
                move[k] = candidates[c_at + k]
            if bag_before:
                leave_value = candidate_leave
        else:
            rack = racks[side * CODES:(side + 1) * CODES]
            if bag_before and not with_leaves:
                found = search(params, arcs, node_mask, values, letter_mult, word_mult, order,
                               cells, rack, leave_keys, leave_values, 0.0, BEST_PLAY, out,
                               equity)
            elif bag_before:
                bound = fill_rack_table(leave_keys, leave_values, rack, rack_slots, rack_values,
                                        distinct, counts, taken)
                found = search(params, arcs, node_mask, values, letter_mult, word_mult, order,
                               cells, rack, rack_slots, rack_values, bound, BEST_PLAY, out,
                               equity)
                if found:
                    key = out[R_LEAVE]
                    slot = leave_slot(rack_slots, key)
                    if rack_slots[slot] == key:
                        leave_value = rack_values[slot]
            else:
                bound = fill_end_table(rack, values, _rack_value(values, racks, 1 - side),
                                       rack_slots, rack_values, distinct, counts, taken)
                found = search(params, arcs, node_mask, values, letter_mult, word_mult, order,
                               cells, rack, rack_slots, rack_values, bound, BEST_PLAY, out,
                               equity)
            if found:
                record_move(out, 0, cells, size, move, 0)
            else:
                have = 0
        if not have:
            scoreless += 1
        else:
            placed = move[M_PLACED]
            for k in range(placed):
                packed = move[MOVE_FIELDS + k]
                cells[packed >> 16] = (packed >> 8) & 255
                racks[side * CODES + (packed & 255)] -= 1
            for _ in range(min(placed, unseen - bag_at)):
                racks[side * CODES + dealing[bag_at]] += 1
                bag_at += 1
            score = move[M_SCORE]
            spread += sign * score
            scoreless = scoreless + 1 if score == 0 else 0
            if side == 0:
                last_leave = leave_value
            if not bag_before:
                empty = 1
                for c in range(CODES):
                    if racks[side * CODES + c]:
                        empty = 0
                        break
                if empty:
                    return float(spread + sign * 2 * _rack_value(values, racks, 1 - side))
        if scoreless >= limit:
            return float(spread - _rack_value(values, racks, 0) + _rack_value(values, racks, 1))
        turn += 1
    return spread + last_leave


def simulate_dealing(params, arcs, node_mask, values, letter_mult, word_mult, order,
                     leave_keys, leave_values, base_cells, mover_rack, candidates,
                     candidate_leaves, active, dealing, unseen, rack_size, plies, limit, results,
                     cells, racks, out, equity, move, rack_slots, rack_values, distinct, counts,
                     taken):
    """simulate_line for every active candidate (active[i] != 0) over one dealing; the values
    go to results[i].
    """
    width = MOVE_FIELDS + rack_size
    for i in range(len(active)):
        if active[i]:
            results[i] = simulate_line(params, arcs, node_mask, values, letter_mult, word_mult,
                                       order, leave_keys, leave_values, base_cells, mover_rack,
                                       candidates, i * width, candidate_leaves[i], dealing,
                                       unseen, rack_size, plies, limit, cells, racks, out,
                                       equity, move, rack_slots, rack_values, distinct, counts,
                                       taken)
