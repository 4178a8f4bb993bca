"""The simulation kernel: one dealing of lookup/crossword/simulate.py played out for every
candidate, written for the compiled engine.

The same lines as simulate._simulate_line (the candidate, the mover's draw, then each side's best
play by equity, score + leave while the bag holds tiles and the end-of-bag formula once it is
empty, the game's end rules), in the subset of Python numba compiles, like
lookup/crossword/engine_kernel.py: flat arrays, no objects. lookup/crossword/engine_numba
.compiled_extension compiles it against the compiled move engine; CPython runs the same source
(tests/test_simulate.py compares both with simulate's Python lines on seeded dealings).

The lines of one dealing are played side by side, turn by turn, and lines whose side to move
holds the same rack share its search (shared_replies): every candidate's line faces the same
dealt opponent rack on its first reply, and candidates with the same leave draw the same tiles.
A line's board is the board the candidates start from, B, plus the tiles laid since (the
candidate's, the replies'): its changed squares. The zone of those tiles is, from each of
them in each of the four directions, the first empty square past the tiles in a row. A play of
B that covers no changed square and no zone square is a play of the line's board too, with the
same words, score and leave: none of its words can reach a changed tile (a run from a new tile
to a changed one would cover that tile's zone square on the way), and its tiles touch no
changed one. Every other play of the line's board covers a zone square. So a line's best
reply is the better (equity, then the engine's tie order) of B's best play that avoids its
changed and zone squares, found for every line of the group by one BEST_AVOIDING search of B
(lookup/crossword/engine_kernel.py), and its own best play that covers its zone (the search
of its board with anchors on its zone squares only, as lookup/crossword/turn_kernel.py
covering_search flags them): the same play as a full search of the line's board
(tests/test_simulate.py holds it to the full search's best, ties included). The covering
searches are not small: the zone is where the new words are, so each costs about half a full
search (bench/results.md "lookahead").

No search sets up its board (cross-checks, cross sums, anchors: engine_kernel.setup, about a
tenth of a best-play search): the base board is set up once per dealing, each line's setup is
turned from it by the tiles laid (engine_kernel.update_setup) and searched as it is
(lookup/crossword/endgame_kernel.py prepared_search, which the endgame searches with too).

Leaves come from one open-addressing table of every leave of the game's leave table, keyed in
the lexicon's codes (engine_kernel.leave_slot); each search reads a small table of the leaves
its rack can keep, made from it (fill_rack_table, through a small cache of it kept between
dealings), as simulate._Leaves makes one per rack. Moves are packed by engine_kernel.record_move.
"""

from lookup.crossword.board import LETTER_MASK
from lookup.crossword.endgame_kernel import prepared_search
from lookup.crossword.engine_kernel import (
    BEST_ABOVE,
    BEST_AVOIDING,
    BEST_PLAY,
    BINGO_WORD,
    M_PLACED,
    M_SCORE,
    MAX_TARGETS,
    MOVE_FIELDS,
    P_SIZE,
    PARAMS,
    R_LEAVE,
    RECORD_FIELDS,
    bingo_key,
    int_array,
    leave_home,
    leave_slot,
    next_subset,
    record_move,
    records_precede,
    setup,
    update_setup,
)
from lookup.crossword.equity import END_KEEP_PENALTY
from lookup.crossword.tiles import EMPTY_LEAVE, LEAVE_DIGIT
from lookup.formats import ARC_ACCEPTS, ARC_CHILD_SHIFT, ARC_LAST, ARC_TILE_MASK

CODES = LETTER_MASK + 1  # rack counts per side
# Lines whose side to move holds the same rack share its reply's search when at least this many:
# a shared search costs about one full search plus half of one per line (the covering
# searches), so two lines would pay about what they save.
SHARE_MIN_LINES = 3


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


def _put_bingo_mask(rack, kinds, distinct, counts, slots, values, bingo_slots, bingo_masks):
    """Put a rack's bingo mask in its table (slots, values) under its bingo key when it has no
    blank and bingo_slots is not empty (fill_rack_table).
    """
    if len(bingo_slots) and not rack[0]:
        key = _subset_key(kinds, distinct, counts)
        slot = leave_slot(bingo_slots, key)
        into = leave_slot(slots, bingo_key(key))
        slots[into] = bingo_key(key)
        values[into] = float(bingo_masks[slot]) if bingo_slots[slot] == key else 0.0


def fill_rack_table(keys, table, rack, slots, values, distinct, counts, taken, memo_keys,
                    memo_values, bingo_slots, bingo_masks):
    """Fill a small table (slots, values; cleared first) with the value in the game's table
    (keys, table) of every leave a play can keep from `rack` (one tile or more, not the whole
    rack): the rack's own table, as simulate._Leaves makes it, which a search reads far
    quicker than the game's (it stays in the cache). Returns its pruning bound: the largest
    value, at least 0.0 (lookup/crossword/engine.py LeaveTable.max_value).

    memo_keys, memo_values (length a power of two, kept between calls; free slots 0): a
    direct-mapped cache of the game's table, a slot per key's hash holding the last key looked
    up there and its value. The game's table is too large for the CPU's caches and the racks of
    a simulation share most of their leaves (a candidate's leave with each dealing's draws):
    the cache answers most lookups.

    bingo_slots, bingo_masks (fill_bingo_table; empty: none): a rack without a blank also gets
    its bingo mask under its bingo key (engine_kernel.BINGO_WORD, bingo_key), so that the
    search counts a bingo in an anchor's bound only where one may be played.
    """
    for s in range(len(slots)):
        slots[s] = 0
    kinds, tiles = _rack_kinds(rack, distinct, counts, taken)
    best = 0.0
    # The sub-multisets in next_subset's order, each one's key and size kept as it steps:
    # through[j] and through_size[j] the key and size of its tiles of the first j kinds (the
    # kinds past the one that steps hold none, so theirs are the stepped kind's).
    through = int_array(kinds + 1, False)
    through_size = int_array(kinds + 1, False)
    for j in range(kinds + 1):
        through[j] = EMPTY_LEAVE
        through_size[j] = 0
    while True:
        i = kinds - 1
        while i >= 0 and taken[i] == counts[i]:
            taken[i] = 0
            i -= 1
        if i < 0:
            break
        taken[i] += 1
        through[i + 1] = through[i + 1] * LEAVE_DIGIT + distinct[i]
        through_size[i + 1] += 1
        for j in range(i + 2, kinds + 1):
            through[j] = through[i + 1]
            through_size[j] = through_size[i + 1]
        if through_size[kinds] == tiles:
            continue
        key = through[kinds]
        line = leave_home(key, len(memo_keys) - 1)
        if memo_keys[line] == key:
            value = memo_values[line]
        else:
            slot = leave_slot(keys, key)
            value = table[slot] if keys[slot] == key else 0.0
            memo_keys[line] = key
            memo_values[line] = value
        into = leave_slot(slots, key)
        slots[into] = key
        values[into] = value
        if value > best:
            best = value
    _put_bingo_mask(rack, kinds, distinct, counts, slots, values, bingo_slots, bingo_masks)
    return best


def bingo_words(arcs, node_mask, root, rack_size, keys, masks):
    """Every multiset of rack_size letters that makes a word alone (engine_kernel.BINGO_WORD)
    or with one letter t more (bit t): (its key as a leave key, that bit) at keys[n], masks[n],
    a multiset as often as it has such words. The GADDAG's paths from the root that take no
    separator spell every word reversed (a letter multiset's key does not depend on the
    order). Returns how many pairs; when more than len(keys), only that many were written (the
    caller runs again with room for all).
    """
    if not root:
        return 0
    letters = int_array(rack_size + 1)
    ordered = int_array(rack_size + 1)
    position = int_array(rack_size + 2)  # the arc tried at each depth, -1 once none is left
    position[0] = root
    depth = 0
    n = 0
    while depth >= 0:
        at = position[depth]
        if at < 0:
            depth -= 1
            continue
        arc = arcs[at]
        position[depth] = -1 if arc & ARC_LAST else at + 1
        tile = arc & ARC_TILE_MASK
        if not tile:
            continue
        letters[depth] = tile
        length = depth + 1
        if arc & ARC_ACCEPTS and length >= rack_size:
            # A word of rack_size letters: all of them (out = -1); of one more: all but each
            # distinct one in turn.
            whole = length == rack_size
            for out in range(-1 if whole else 0, 0 if whole else length):
                if out >= 0 and _repeats_before(letters, out):
                    continue
                size = 0
                for q in range(length):
                    if q == out:
                        continue
                    j = size
                    while j > 0 and ordered[j - 1] > letters[q]:
                        ordered[j] = ordered[j - 1]
                        j -= 1
                    ordered[j] = letters[q]
                    size += 1
                if n < len(keys):
                    key = EMPTY_LEAVE
                    for q in range(size):
                        key = key * LEAVE_DIGIT + ordered[q]
                    keys[n] = key
                    masks[n] = BINGO_WORD if out < 0 else 1 << letters[out]
                n += 1
        child = arc >> ARC_CHILD_SHIFT
        if child and length <= rack_size:
            depth += 1
            position[depth] = child
    return n


def _repeats_before(letters, at):
    """Whether letters[at] is among letters[0:at]."""
    for q in range(at):
        if letters[q] == letters[at]:
            return True
    return False


def fill_bingo_table(keys, masks, n, slots, table):
    """The open-addressing table (slots, table; free slots 0, its length a power of two, at
    least 2n) of bingo_words' n pairs, a multiset's bits joined.
    """
    for i in range(n):
        slot = leave_slot(slots, keys[i])
        slots[slot] = keys[i]
        table[slot] |= masks[i]


def fill_end_table(rack, values, opponent_value, slots, table, distinct, counts, taken,
                   bingo_slots, bingo_masks):
    """Fill the table (slots, table; cleared first) of the end-of-bag formula for `rack`
    facing a rack worth `opponent_value` (lookup/crossword/equity.end_of_bag_values): every leave
    a play can keep, the empty one included, and a rack's bingo mask as fill_rack_table puts
    it. Returns its pruning bound (largest value, at least 0.0).
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
    _put_bingo_mask(rack, kinds, distinct, counts, slots, table, bingo_slots, bingo_masks)
    return best


def _rack_value(values, racks, at):
    total = 0
    for code in range(1, CODES):
        total += values[code] * racks[at + code]
    return total


def zone(cells, at, size, changed, c_at, n_changed, squares):
    """The zone of the tiles on squares changed[c_at:c_at + n_changed] of the board
    cells[at:at + size * size]: from each, in each of the four directions, the first empty
    square past the tiles in a row (module docstring), listed in `squares` (repeats
    possible); returns how many.
    """
    n = 0
    for j in range(n_changed):
        square = changed[c_at + j]
        row = square // size
        col = square % size
        for d in range(4):
            dr = 1 if d == 0 else (-1 if d == 1 else 0)
            dc = 1 if d == 2 else (-1 if d == 3 else 0)
            r = row + dr
            c = col + dc
            while 0 <= r < size and 0 <= c < size and cells[at + r * size + c]:
                r += dr
                c += dc
            if 0 <= r < size and 0 <= c < size:
                squares[n] = r * size + c
                n += 1
    return n


def shared_replies(params, arcs, node_mask, values, letter_mult, word_mult, order, setups,
                   base, rack, leave_keys, leave_values, leave_max, members, n_members,
                   line_cells, changed, changed_count, avoid_params, replies, found, avoid_out,
                   avoid_equity, out, equity, squares, kept):
    """The best play of `rack` (BEST_PLAY's, ties included) on each member line's board,
    from one search of the board they all started from (module docstring).

    Line i (i = members[m], m < n_members <= MAX_TARGETS) has the board
    line_cells[i * n2:] = the base board plus the tiles on the squares changed[i * n2:] (the
    first changed_count[i]). A play of the base board that covers none of those squares and
    none of their zone is the same play on line i, with the same score and leave, and every
    other play of line i covers its zone: so its best play is the better of the base board's
    best that avoids those squares (one BEST_AVOIDING search for every member) and its own best
    that covers the zone: the search of its board with anchors only on zone squares (the walk
    generates each play from the leftmost anchor it covers, passing over squares that are not
    anchors: lookup/crossword/turn_kernel.py covering_search), its anchors restored after. When
    the avoiding search found the line a play, the covering search is BEST_ABOVE that play's
    equity: a covering play below it would not be chosen.

    Args:
        params .. order: the move engine's constants.
        setups, base: the boards' setup arrays (engine_kernel.setup's ocells, checks, cross,
            anchor): line i's at setups[i], the base board's at setups[base].
        rack: the rack to play.
        leave_keys, leave_values, leave_max: the leave table, as `search` takes it.
        members, n_members: the lines.
        line_cells, changed, changed_count: the lines' boards and changed squares.
        avoid_params: params with room for BEST_AVOIDING's targets, zero past PARAMS (left so).
        replies, found: member m's best play is written at replies[m * width:] (a record),
            found[m] says whether it has one.
        avoid_out, avoid_equity, out, equity, squares, kept: working storage.
    """
    size = params[P_SIZE]
    n2 = size * size
    width = RECORD_FIELDS + size
    for m in range(n_members):
        i = members[m]
        bit = 1 << m
        for j in range(changed_count[i]):
            avoid_params[PARAMS + changed[i * n2 + j]] |= bit
        n = zone(line_cells, i * n2, size, changed, i * n2, changed_count[i], squares)
        for j in range(n):
            avoid_params[PARAMS + squares[j]] |= bit
    avoid_params[PARAMS + n2] = n_members
    avoided = prepared_search(avoid_params, arcs, node_mask, values, letter_mult, word_mult,
                              order, setups[base], rack, leave_keys, leave_values, leave_max,
                              BEST_AVOIDING, avoid_out, avoid_equity)
    for k in range(n2 + 1):
        avoid_params[PARAMS + k] = 0
    for m in range(n_members):
        i = members[m]
        n = zone(line_cells, i * n2, size, changed, i * n2, changed_count[i], squares)
        anchor = setups[i][3]
        for k in range(2 * n2):
            kept[k] = anchor[k]
            anchor[k] = 0
        for j in range(n):
            # Across on the zone square, down on its square of the transposed board.
            anchor[squares[j]] = kept[squares[j]]
            anchor[n2 + order[squares[j]]] = kept[n2 + order[squares[j]]]
        # With the avoiding search's play found, a covering play counts only from its equity
        # on (a tie may precede it): the covering search need not find any lower.
        mode = BEST_PLAY
        if (avoided >> m) & 1:
            mode = BEST_ABOVE
            equity[0] = avoid_equity[m]
        covered = prepared_search(params, arcs, node_mask, values, letter_mult, word_mult,
                                  order, setups[i], rack, leave_keys, leave_values, leave_max,
                                  mode, out, equity)
        for k in range(2 * n2):
            anchor[k] = kept[k]
        source = out
        at = 0
        if (avoided >> m) & 1 and (not covered or avoid_equity[m] > equity[0] or (
                avoid_equity[m] == equity[0] and records_precede(avoid_out, (m + 1) * width,
                                                                 out, 0))):
            source = avoid_out
            at = (m + 1) * width
        found[m] = 1 if covered or (avoided >> m) & 1 else 0
        for k in range(width):
            replies[m * width + k] = source[at + k]


def simulate_dealing(params, arcs, node_mask, values, letter_mult, word_mult, order,
                     leave_keys, leave_values, base_cells, mover_rack, candidates,
                     candidate_leaves, active, dealing, unseen, rack_size, plies, limit, share,
                     results, last_leave, leave_now, avoid_equity, equity, rack_slots,
                     rack_values, distinct, counts, taken, setups, memo_keys, memo_values,
                     bingo_slots, bingo_masks):
    """The value of every active candidate (active[i] != 0) over one dealing
    (lookup/crossword/simulate.py _simulate_line), to results[i]. The lines are played turn by
    turn side by side; with `share`, lines whose side to move holds the same rack while the
    bag has tiles (SHARE_MIN_LINES of them or more) share one search of their reply
    (shared_replies), else each searches alone: the same plays either way.

    Args:
        params .. order: the move engine's constants.
        leave_keys, leave_values: every leave's value (module docstring); empty: all 0.0.
        base_cells, mover_rack: the position (lexicon codes; the rack as CODES counts).
        candidates, candidate_leaves: the candidates (packed moves, MOVE_FIELDS + rack_size
            each) and the values of their leaves.
        active: per candidate, whether to play its line.
        dealing, unseen: the unseen tiles in dealing order, and how many: the opponent's
            rack first, then the bag, drawn from the front.
        rack_size, plies, limit: the rack size; turns after the candidate (-1: to the end);
            the scoreless turns that end the game.
        share: whether lines may share their replies' searches.
        results: each candidate's value.
        last_leave, leave_now, avoid_equity, equity: float working storage (a candidate each,
            a candidate each, MAX_TARGETS, 2).
        rack_slots, rack_values, distinct, counts, taken: working storage of the leave tables.
        memo_keys, memo_values: fill_rack_table's cache of the game's table, kept between
            dealings.
        bingo_slots, bingo_masks: the multisets of a full rack that make a word alone or with
            one more letter (fill_bingo_table; empty: none), whence each rack's table, while
            the bag holds tiles and once it is empty, gets the rack's bingo mask.
        setups: room for the setup arrays (engine_kernel.setup's ocells, checks, cross, anchor)
            of every line's board and the base board's (lines + 1 rows of 4 x 2 * size * size):
            the base board's made once, each line's turned from it by the tiles laid
            (engine_kernel.update_setup), so that no search sets up its board.
    """
    size = params[P_SIZE]
    n2 = size * size
    width = MOVE_FIELDS + rack_size
    record_width = RECORD_FIELDS + size
    lines = len(active)
    # Arrays that are written before they are read are not cleared (int_array): the boards
    # (an inactive line's never read), changed squares, replies and the searches' storage.
    cells = int_array(lines * n2, False)
    racks = int_array(lines * 2 * CODES)
    changed = int_array(lines * n2, False)
    changed_count = int_array(lines)
    bag_at = int_array(lines)
    spread = int_array(lines)
    scoreless = int_array(lines)
    running = int_array(lines)
    have = int_array(lines)
    moves = int_array(lines * width)
    members = int_array(lines)
    grouped = int_array(lines)
    replies = int_array(MAX_TARGETS * record_width, False)
    found = int_array(MAX_TARGETS)
    avoid_out = int_array((MAX_TARGETS + 1) * record_width, False)
    out = int_array(record_width, False)
    squares = int_array(4 * n2, False)
    avoid_params = int_array(PARAMS + n2 + 1)
    for k in range(PARAMS):
        avoid_params[k] = params[k]
    kept = int_array(2 * n2, False)
    laid_squares = int_array(rack_size)
    laid_codes = int_array(rack_size)
    base = setups[lines]
    setup(params, arcs, node_mask, values, order, base_cells, base[0], base[1], base[2], base[3])
    with_leaves = len(leave_keys) > 0
    dealt = min(rack_size, unseen)
    for i in range(lines):
        if not active[i]:
            continue
        running[i] = 1
        for k in range(n2):
            cells[i * n2 + k] = base_cells[k]
        for c in range(CODES):
            racks[i * 2 * CODES + c] = mover_rack[c]
        for k in range(dealt):
            racks[i * 2 * CODES + CODES + dealing[k]] += 1
        bag_at[i] = dealt
        last_leave[i] = 0.0
        line = setups[i]
        for k in range(4):
            row = line[k]
            base_row = base[k]
            for q in range(2 * n2):
                row[q] = base_row[q]
    turn = 0
    left = 1
    while left and (plies < 0 or turn <= plies):
        side = turn % 2
        sign = 1 - 2 * side
        for i in range(lines):
            grouped[i] = 0
            leave_now[i] = 0.0
            have[i] = 1
        for i in range(lines):
            if not running[i]:
                continue
            bag_before = unseen - bag_at[i]
            if turn == 0:
                for k in range(width):
                    moves[i * width + k] = candidates[i * width + k]
                if bag_before:
                    leave_now[i] = candidate_leaves[i]
                continue
            if grouped[i]:
                continue
            rack_at = (i * 2 + side) * CODES
            rack = racks[rack_at:rack_at + CODES]
            n_members = 0
            if share and bag_before:
                # The lines after this one whose side holds the same rack, the bag not empty.
                for j in range(i, lines):
                    if n_members == MAX_TARGETS:
                        break
                    if not running[j] or grouped[j] or unseen == bag_at[j]:
                        continue
                    same = 1
                    other = (j * 2 + side) * CODES
                    for c in range(CODES):
                        if racks[other + c] != racks[rack_at + c]:
                            same = 0
                            break
                    if same:
                        members[n_members] = j
                        n_members += 1
            if bag_before and not with_leaves:
                bound = 0.0
                keys = leave_keys
                table = leave_values
            elif bag_before:
                bound = fill_rack_table(leave_keys, leave_values, rack, rack_slots, rack_values,
                                        distinct, counts, taken, memo_keys, memo_values,
                                        bingo_slots, bingo_masks)
                keys = rack_slots
                table = rack_values
            else:
                bound = fill_end_table(rack, values, _rack_value(values, racks,
                                                                 (i * 2 + 1 - side) * CODES),
                                       rack_slots, rack_values, distinct, counts, taken,
                                       bingo_slots, bingo_masks)
                keys = rack_slots
                table = rack_values
            if n_members >= SHARE_MIN_LINES:
                shared_replies(params, arcs, node_mask, values, letter_mult, word_mult, order,
                               setups, lines, rack, keys, table, bound, members, n_members,
                               cells, changed, changed_count, avoid_params, replies, found,
                               avoid_out, avoid_equity, out, equity, squares, kept)
            else:
                members[0] = i
                n_members = 1
                found[0] = prepared_search(params, arcs, node_mask, values, letter_mult,
                                           word_mult, order, setups[i], rack, keys, table,
                                           bound, BEST_PLAY, replies, equity)
            for m in range(n_members):
                j = members[m]
                grouped[j] = 1
                if not found[m]:
                    have[j] = 0
                    continue
                record_move(replies, m * record_width, cells[j * n2:(j + 1) * n2], size, moves,
                            j * width)
                if bag_before and with_leaves:
                    key = replies[m * record_width + R_LEAVE]
                    slot = leave_slot(rack_slots, key)
                    if rack_slots[slot] == key:
                        leave_now[j] = rack_values[slot]
        left = 0
        for i in range(lines):
            if not running[i]:
                continue
            bag_before = unseen - bag_at[i]
            at = i * 2 * CODES + side * CODES
            ended = 0
            if not have[i]:
                scoreless[i] += 1
            else:
                placed = moves[i * width + M_PLACED]
                for k in range(placed):
                    packed = moves[i * width + MOVE_FIELDS + k]
                    square = packed >> 16
                    cells[i * n2 + square] = (packed >> 8) & 255
                    racks[at + (packed & 255)] -= 1
                    changed[i * n2 + changed_count[i]] = square
                    changed_count[i] += 1
                    laid_squares[k] = square
                    laid_codes[k] = (packed >> 8) & 255
                if plies < 0 or turn < plies:  # a search of the line's board follows
                    line = setups[i]
                    update_setup(params, arcs, node_mask, values, order, laid_squares,
                                 laid_codes, placed, line[0], line[1], line[2], line[3])
                for _ in range(min(placed, unseen - bag_at[i])):
                    racks[at + dealing[bag_at[i]]] += 1
                    bag_at[i] += 1
                score = moves[i * width + M_SCORE]
                spread[i] += sign * score
                scoreless[i] = scoreless[i] + 1 if score == 0 else 0
                if side == 0:
                    last_leave[i] = leave_now[i]
                if not bag_before:
                    empty = 1
                    for c in range(CODES):
                        if racks[at + c]:
                            empty = 0
                            break
                    if empty:
                        other = i * 2 * CODES + (1 - side) * CODES
                        results[i] = float(spread[i] + sign * 2 * _rack_value(values, racks,
                                                                             other))
                        ended = 1
            if not ended and scoreless[i] >= limit:
                results[i] = float(spread[i] - _rack_value(values, racks, i * 2 * CODES)
                                   + _rack_value(values, racks, i * 2 * CODES + CODES))
                ended = 1
            if ended:
                running[i] = 0
            else:
                left = 1
        turn += 1
    for i in range(lines):
        if running[i]:
            results[i] = spread[i] + last_leave[i]
