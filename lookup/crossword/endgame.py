"""Endgames: the bag empty, both racks known, best play by both sides to the end of the game.

    result = cw.endgame(board, rack, opponent_rack)   # solve_endgame(move_engine(cw), ...)
    result.value      # spread from now: the mover's points to the end minus the opponent's
    result.line       # principal variation: Moves (plays and passes), sides alternating
    result.exact      # the search reached the end of every line (no `plies` or time cut)

The search is negamax with alpha-beta pruning and iterative deepening: one ply deeper per
round until no line is cut by the depth, and after ROUNDS_BEFORE_THE_END rounds one round to
the end of the game (unless `plies` bounds the depth; the short rounds order its moves and
fill the table for it). A transposition table, keyed by Zobrist hashes of
the board, both racks, the side to move and the scoreless-turn count, holds each position's
value or bound, its best move (searched first next time) and, for exact values, the line.
Moves are tried best first: the table's move, then the plays that empty the rack, then the
other plays, each by score plus twice the value of the tiles they place (a tile kept is worth
its value to the other side, twice once it goes out; ties in the engine's best-play order:
play_order), the pass last. Plays come from the fast engine (lookup/crossword/engine.py),
each board and rack's once per search; one ply above the depth cut a single best-play search
gives the node's value (EndgameSearch). Positions change in place and are restored after each move.

Two implementations of that one search, which give the same values (tests/test_endgame.py):
EndgameSearch, Python around the move engine, and KernelSearch, the whole search compiled
(lookup/crossword/endgame_kernel.py: an explicit stack, a fixed-size table, move lists kept in
an arena, a node's plays read from lists of the root's plays and searched for only next to the
tiles laid since the root; 4-6x the nodes per second). KernelSearch finds each round's value
by null-window searches (MTD(f)); searching whole windows instead (null_windows=False) it
visits the same nodes as EndgameSearch in the same order, which the tests check. endgame_search
picks KernelSearch on the compiled engine when the game allows repeated words (the kernel does
not know the board's words), else EndgameSearch; solve_endgame and the pre-endgame use it.

End rules (lookup/play/game.py): a play that empties the rack ends the game and earns twice
the value of the opponent's rack (the player gains it, the opponent loses it); a pass or a
play scoring 0 is scoreless, and `scoreless_turns_end` of them in a row end the game with
each rack's value taken from its owner. With the bag empty no exchange is allowed. A line cut
by the depth is worth 0 from the cut on; `exact` says no line was cut.
"""

import functools
import math
import numbers
import random
import threading
import time
from dataclasses import dataclass, field

import numpy as np

from lookup.crossword import endgame_kernel
from lookup.crossword.board import BLANK, Board
from lookup.crossword.engine_kernel import (
    M_PLACED,
    MOVE_FIELDS,
    P_RACK_SIZE,
    R_BLANKS,
    R_DIRECTION,
    R_LEAVE,
    R_LENGTH,
    R_LINE,
    R_SCORE,
    R_START,
    RECORD_FIELDS,
)
from lookup.crossword.move import Move
from lookup.crossword.tiles import EMPTY_LEAVE
from lookup.errors import BadInput

PASS = ()  # the pass in a search line (plays are record tuples)
PASS_ENTRY = (PASS, (), 0, 0, None, None, None)  # the pass as a move entry (EndgameSearch._entry)
_INFINITY = 1 << 30
# Depth of a table entry whose value no depth cut touched: valid for every search.
_COMPLETE = 1 << 20
_EXACT, _LOWER, _UPPER = 0, 1, 2
# The clock is read once every this many nodes.
_CLOCK_NODES = 256
_NO_NODE_LIMIT = 1 << 62
_ZOBRIST_SEED = 0x5EED
# Move lists a search keeps (EndgameSearch.ordered_moves); past this many it starts afresh.
_MOVE_LISTS = 200_000


def play_order(play, placed_value: int) -> tuple:
    """The sort key of a play (a record tuple) in the search's move order: the plays that go
    out first, then by score plus endgame_kernel.TILE_VALUE_ORDER times `placed_value`, the
    value of the tiles it places; ties in the order the engine's best-play search breaks them
    (direction, line, start, the main word's codes, blank bits: engine_kernel._precedes), so
    that a best-play search finds the first play of a list (the compiled search tries it before
    listing the rest, lookup/crossword/endgame_kernel.py).
    """
    return (play[R_LEAVE] != EMPTY_LEAVE,
            -play[R_SCORE] - endgame_kernel.TILE_VALUE_ORDER * placed_value, play[R_DIRECTION],
            play[R_LINE], play[R_START], play[RECORD_FIELDS:], play[R_BLANKS])


def sorted_plays(plays, values, cells, size: int) -> list:
    """Plays (record tuples) on `cells` in the search's move order (play_order); `values`: the
    tiles' values by rack code.
    """
    return sorted(plays, key=lambda play: play_order(play, sum(
        values[tile] for _square, _code, tile in play_tiles(play, cells, size))))


def play_tiles(play, cells, size: int) -> list:
    """New tiles of a play (an engine record) on `cells`: (square, cell code, rack code),
    the rack code 0 for a blank.
    """
    line, start = play[R_LINE], play[R_START]
    if play[R_DIRECTION] == 0:
        square, step = line * size + start, 1
    else:
        square, step = start * size + line, size
    bits = play[R_BLANKS]
    placed = []
    for q in range(play[R_LENGTH]):
        if not cells[square]:
            code = play[RECORD_FIELDS + q]
            placed.append((square, code | BLANK, 0) if bits >> q & 1 else (square, code, code))
        square += step
    return placed


class _OutOfBudget(Exception):
    """The time or node budget ran out inside a round of iterative deepening."""


@dataclass
class EndgameResult:
    """A solved endgame.

    Attributes:
        value: the side to move's points from now to the end minus the opponent's, end
            adjustments included, under best play by both (the deepest finished round).
        line: the principal variation, Moves with sides alternating, starting with the move.
        exact: True when no line was cut by depth or time (value is the game's true value).
        plies: depth of the deepest finished round; for the round to the end of the game,
            the ply of the deepest position it searched plus one (moves from the root).
        nodes: positions searched over all rounds.
        seconds: wall time of the search.
    """

    value: int
    line: list = field(default_factory=list)
    exact: bool = False
    plies: int = 0
    nodes: int = 0
    seconds: float = 0.0


class EndgameSearch:
    """Negamax over one endgame position, held as the engine's cells and rack counts.

    State: the cells (changed in place during a search and restored after), each side's
    rack as a list of counts, and 64-bit Zobrist hashes of the board (`board_z`) and of each
    rack (`rack_z`, one table for both sides: a rack's hash is its tiles', whoever holds it).
    The transposition table's key is (board hash ^ side ^ scoreless count, rack hash of side 0,
    rack hash of side 1).

    Two shortcuts, each leaving every value unchanged (tests/test_endgame.py solves with and
    without them):
    - Move lists: the plays of a board and a rack depend on nothing else, so each (board hash,
      rack hash) is listed by the engine once per search, kept in the search's order
      (play_order) with each play's tiles and hashes worked out when first tried.
    - The horizon: a node one ply above the depth cut (and not at the scoreless-turn limit)
      is worth its best play's score, or score plus twice the opponent's rack for a play that
      goes out, or 0 (a pass or a play scoring 0: cut); the engine's best play by equity,
      the empty leave worth that bonus, gives it in one search without trying every play.

    Args:
        engine: the game's MoveEngine.
        cells: the board as lexicon codes (engine.cells); changed during a search and
            restored after.
        racks: rack counts (engine.rack_counts) of the side to move, then of the opponent.
        scoreless: scoreless turns in a row before the position.
        shortcuts: False lists every node's plays with the engine and tries each one (the
            slow obvious path the tests compare with).
    """

    def __init__(self, engine, cells, racks, scoreless: int = 0, shortcuts: bool = True):
        self.engine = engine
        self.cells = cells
        self.racks = [[int(n) for n in rack] for rack in racks]
        self.scoreless = scoreless
        self.shortcuts = shortcuts
        self.size = engine.size
        self.limit = engine.cw.rules.scoreless_turns_end
        self.values = engine.values
        self.rack_value = [self._rack_total(rack) for rack in self.racks]
        self.tiles_left = [sum(rack) for rack in self.racks]
        self.table: dict = {}
        self.move_lists: dict = {}
        self.out_tables: dict = {}
        self.nodes = 0
        self.cuts = 0
        self.round_depth = 0  # the depth of the round being searched
        self.deepest = 0  # the deepest node of the round: its ply plus one
        self.deadline = None
        self.node_limit = _NO_NODE_LIMIT
        rng = random.Random(_ZOBRIST_SEED)
        codes = 2 * BLANK
        self.codes = codes
        self.depth_per_rack = max(engine.cw.rules.rack_size, *self.tiles_left) + 1
        self.z_cell = [rng.getrandbits(64) for _ in range(self.size * self.size * codes)]
        self.z_tile = [rng.getrandbits(64) for _ in range(codes * self.depth_per_rack)]
        self.z_side = (0, rng.getrandbits(64))
        self.z_scoreless = [rng.getrandbits(64) for _ in range(self.limit + 1)]
        self.board_z = 0
        for square, code in enumerate(cells):
            if code:
                self.board_z ^= self.z_cell[square * codes + int(code)]
        self.rack_z = [self._rack_hash(rack) for rack in self.racks]

    def _rack_total(self, rack) -> int:
        return sum(self.values[code] * n for code, n in enumerate(rack) if code and n)

    def _rack_hash(self, rack) -> int:
        key = 0
        for code, n in enumerate(rack):
            for copy in range(1, n + 1):
                key ^= self.z_tile[code * self.depth_per_rack + copy]
        return key

    def _kernel_rack(self, side: int):
        rack = self.racks[side]
        return np.asarray(rack, dtype=np.int64) if self.engine.compiled else list(rack)

    # --- moves -----------------------------------------------------------------------------
    def _entry(self, side: int, play) -> tuple:
        """What playing `play` (a record tuple, or PASS) from the position changes:
        (play, new tiles (square, cell code, rack code), score, board hash change, the side's
        rack hash, rack value and tile count after).
        """
        if play == PASS:
            return PASS_ENTRY
        placed = tuple(play_tiles(play, self.cells, self.size))
        rack = self.racks[side]
        board_change = 0
        rack_z = self.rack_z[side]
        value = self.rack_value[side]
        for square, code, tile in placed:
            board_change ^= self.z_cell[square * self.codes + code]
            rack_z ^= self.z_tile[tile * self.depth_per_rack + rack[tile]]
            rack[tile] -= 1  # for the next copy's hash; given back below
            value -= self.values[tile]
        for _square, _code, tile in placed:
            rack[tile] += 1
        return (play, placed, play[R_SCORE], board_change, rack_z, value,
                self.tiles_left[side] - len(placed))

    def _plays(self, side: int) -> list:
        """The side's plays (record tuples) in the search's order (play_order)."""
        out, count = self.engine.search_cells(self.cells, self._kernel_rack(side))
        width = self.engine.width
        rows = out[:count * width]
        if self.engine.compiled:
            rows = rows.tolist()
        plays = [tuple(rows[at:at + RECORD_FIELDS + rows[at + R_LENGTH]])
                 for at in range(0, count * width, width)]
        return sorted_plays(plays, self.values, self.cells, self.size)

    def ordered_moves(self, side: int, first):
        """The side's move entries (_entry): `first` (the table's) first, then the plays
        (_plays), then the pass.
        """
        if first is not None:
            yield first
        if not self.shortcuts:
            plays = self._plays(side)
            entries = [None] * len(plays)
        else:
            key = (self.board_z, self.rack_z[side])
            listed = self.move_lists.get(key)
            if listed is None:
                if len(self.move_lists) >= _MOVE_LISTS:
                    self.move_lists.clear()
                plays = self._plays(side)
                listed = self.move_lists[key] = (plays, [None] * len(plays))
            plays, entries = listed
        first_play = None if first is None else first[0]
        for at, play in enumerate(plays):
            if play == first_play:
                continue
            entry = entries[at]
            if entry is None:
                entry = entries[at] = self._entry(side, play)
            yield entry
        if first_play != PASS:
            yield PASS_ENTRY

    # --- search ----------------------------------------------------------------------------
    def negamax(self, side: int, depth: int, alpha: int, beta: int, scoreless: int):
        """(value, line) of the position for `side` to move; line a tuple of plays and PASS.

        The value is exact inside (alpha, beta), else a bound on the side beyond it.
        """
        self.nodes += 1
        if self.nodes > self.node_limit or (self.deadline is not None
                                            and self.nodes % _CLOCK_NODES == 0
                                            and time.perf_counter() > self.deadline):
            raise _OutOfBudget
        reach = self.round_depth - depth + 1
        if reach > self.deepest:
            self.deepest = reach
        key = (self.board_z ^ self.z_side[side] ^ self.z_scoreless[scoreless],
               self.rack_z[0], self.rack_z[1])
        entry = self.table.get(key)
        first = None
        if entry is not None:
            entry_depth, flag, value, first, line = entry
            if entry_depth >= depth and (flag == _EXACT or (flag == _LOWER and value >= beta)
                                         or (flag == _UPPER and value <= alpha)):
                if entry_depth < _COMPLETE:
                    self.cuts += 1  # the stored value rests on a depth cut
                return value, line
        if depth == 0:
            self.cuts += 1
            return 0, ()
        if depth == 1 and self.shortcuts and scoreless + 1 < self.limit:
            return self._horizon(side, key, beta, first)
        other = 1 - side
        cuts_before = self.cuts
        window_low = alpha
        best, best_entry, best_line = -_INFINITY, None, ()
        for move in self.ordered_moves(side, first):
            value, line = self._child(side, other, move, depth, alpha, beta, scoreless)
            if value > best:
                best, best_entry, best_line = value, move, (move[0],) + line
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
        flag = _UPPER if best <= window_low else _LOWER if best >= beta else _EXACT
        stored_depth = _COMPLETE if self.cuts == cuts_before else depth
        self.table[key] = (stored_depth, flag, best, best_entry,
                           best_line if flag == _EXACT else ())
        return best, best_line

    def _horizon(self, side: int, key, beta: int, first):
        """(value, line) of a node one ply above the cut (class docstring), stored as exact
        at depth 1; or, when the table's move `first` or the pass already reaches `beta`
        (alpha-beta needs no more), that lower bound without a search.
        """
        bonus = 2 * self.rack_value[1 - side]
        low, move = 0, PASS_ENTRY
        if first is not None and first[1]:
            low, move = (first[2] + bonus, first) if not first[6] else (first[2], first)
            if low >= beta and not first[6]:
                # Going out ends the game: a bound that no depth cut touched.
                self.table[key] = (_COMPLETE, _LOWER, low, move, ())
                return low, (move[0],)
            if low < 0:
                low, move = 0, PASS_ENTRY
        if low >= beta:
            self.cuts += 1  # the pass, or a play that keeps tiles: cut by the depth
            # The pass is no move to try first in a deeper search: keep the table's move.
            self.table[key] = (1, _LOWER, low, first, ())
            return low, (move[0],)
        leaves = self.out_tables.get(bonus)
        if leaves is None:
            leaves = self.out_tables[bonus] = self.engine.keyed_leave_table([EMPTY_LEAVE],
                                                                            [float(bonus)])
        record, equity = self.engine.search_cells(self.cells, self._kernel_rack(side),
                                                  best=True, leaves=leaves)
        if record is None or equity < 0:
            best, move = 0, PASS_ENTRY  # the pass: ties go to a play, as in negamax
        else:
            best = int(equity)
            move = self._entry(side, tuple(int(v) for v in
                                           record[:RECORD_FIELDS + int(record[R_LENGTH])]))
        line = (move[0],)
        if move[1] and not move[6] and best >= beta:
            # A play that goes out reaches beta: a bound no depth cut touched.
            self.table[key] = (_COMPLETE, _LOWER, best, move, ())
            return best, line
        self.cuts += 1  # the pass is cut, and so is every play that keeps tiles
        self.table[key] = (1, _EXACT, best, move, line)
        return best, line

    def _child(self, side, other, move, depth, alpha, beta, scoreless):
        """(value for `side`, line after the move) of one move entry (_entry)."""
        play, placed, score, board_change, rack_z, rack_value, tiles_left = move
        if placed and not tiles_left:
            return score + 2 * self.rack_value[other], ()
        after = 0 if score else scoreless + 1
        if after >= self.limit:
            kept = rack_value if placed else self.rack_value[side]
            return score - kept + self.rack_value[other], ()
        if not placed:
            value, line = self.negamax(other, depth - 1, -beta, -alpha, after)
            return -value, line
        cells, rack = self.cells, self.racks[side]
        for square, code, tile in placed:
            cells[square] = code
            rack[tile] -= 1
        saved = (self.board_z, self.rack_z[side], self.rack_value[side], self.tiles_left[side])
        self.board_z ^= board_change
        self.rack_z[side], self.rack_value[side], self.tiles_left[side] = \
            rack_z, rack_value, tiles_left
        try:
            value, line = self.negamax(other, depth - 1, score - beta, score - alpha, after)
        finally:
            for square, _code, tile in placed:
                cells[square] = 0
                rack[tile] += 1
            self.board_z, self.rack_z[side], self.rack_value[side], self.tiles_left[side] = \
                saved
        return score - value, line

    def solve(self, plies: int | None = None, seconds: float | None = None,
              nodes: int | None = None):
        """Iterative deepening (_deepen): (value, line, exact, depth) of the deepest finished
        round.
        """
        def one_round(depth: int):
            cuts_before = self.cuts
            self.round_depth, self.deepest = depth, 0
            try:
                value, line = self.negamax(0, depth, -_INFINITY, _INFINITY, self.scoreless)
            except _OutOfBudget:
                return None
            return (value, line), self.cuts == cuts_before

        (value, line), exact, depth = _deepen(self, one_round, plies, seconds, nodes,
                                             time.perf_counter)
        return value, line, exact, depth


# Rounds of iterative deepening (depths 1, 2, ...) before the round to the end of the game.
# On real 7-tile endgames the rounds grow so fast that the round to the end, its moves
# ordered by these, costs less than the deeper rounds: 11 endgames of the exact batch
# (bench/bench_lookahead_matches.py), 8 of them unsolved by 10 s of rounds one ply deeper
# each, took 67 s of CPU in all after 6 rounds, 84 s after 4 and 83 s after 8 (after 4, one
# whose rounds stay cheap took 17 s instead of 2).
ROUNDS_BEFORE_THE_END = 6
# Threads a solve may search on (KernelSearch), and the first guesses of its helpers' MTD(f)
# searches, helper k the k-th (helpers searching from one guess would search alike).
MAX_THREADS = 16
HELPER_GUESSES = (0, 12, -12, 24, -24, 36, -36, 48, -48, 60, -60, 72, -72, 84, -84)
# The depth of the round to the end of the game: more plies than any line has (at most
# (tiles + 1) x scoreless_turns_end: 90 with 7 + 7 tiles and 6 scoreless turns), and the
# deepest round either search runs (the kernel's frames).
TO_THE_END = 250


def _deepen(search, one_round, plies: int | None, seconds: float | None, nodes: int | None,
           clock) -> tuple:
    """The iterative deepening of both searches: rounds one ply deeper each until a round is
    exact (no line cut by the depth), `plies` or TO_THE_END is reached, or the budget runs out;
    without `plies`, after ROUNDS_BEFORE_THE_END rounds the next is to the end (TO_THE_END
    plies), and its depth is given as the search's `deepest` (the ply of its deepest node
    plus one).

    The first round always finishes; later ones stop at `seconds` (read from `clock`) or once
    the search has visited `nodes` positions in all (a budget in work: the same result on any
    machine). The budget is given to the search as its `deadline` and `node_limit`, which
    `one_round` heeds.

    Args:
        search: EndgameSearch or KernelSearch (its deadline and node_limit are set, its
            `deepest` read).
        one_round: depth -> (result, exact), or None when the budget ran out.

    Returns:
        (result, exact, depth) of the deepest finished round.
    """
    found = None
    depth = 1
    started = clock()
    while True:
        search.deadline = None if seconds is None or found is None else started + seconds
        search.node_limit = _NO_NODE_LIMIT if nodes is None or found is None else nodes
        finished = one_round(depth)
        if finished is None:
            break
        found = (*finished, depth if depth < TO_THE_END else search.deepest)
        if finished[1] or (plies is not None and depth >= plies) or depth >= TO_THE_END:
            break
        depth += 1
        if plies is None and depth > ROUNDS_BEFORE_THE_END:
            depth = TO_THE_END
    search.deadline, search.node_limit = None, _NO_NODE_LIMIT
    return found


# The compiled search's functions (lookup/crossword/endgame_kernel.py) that call each other.
KERNEL_FUNCTIONS = ("board_setup", "search_arrays", "prepared_search", "prepare_board",
                    "move_width", "copy_move", "same_move", "placed_value",
                    "apply_move", "take_back", "table_home", "table_find", "_entry_check",
                    "table_entry", "table_store",
                    "_sort_plays", "node_zone", "clear_zone", "root_list", "_root_open",
                    "_rack_kinds", "_bucket", "root_best", "root_all", "_zone_search",
                    "_winning_root_play", "list_moves", "first_table", "_first_play",
                    "_horizon",
                    "_cache_find", "run")
# Nodes between two readings of the clock (each a return from the compiled search).
_SLICE_NODES = 2048


def _kernel(compiled: bool) -> dict:
    """The kernel's functions: compiled against the compiled engine, or the CPython source."""
    if compiled:
        from lookup.crossword.engine_numba import compiled_extension

        return compiled_extension(endgame_kernel, KERNEL_FUNCTIONS)
    return {name: getattr(endgame_kernel, name) for name in KERNEL_FUNCTIONS}


class _Workspace:
    """The kernel search's storage for one engine, reused by every search (a new generation
    frees the table and the move-list cache): Zobrist keys, the transposition table, the
    move-list cache and arena, the frames and the working buffers.

    Sizes (compiled / CPython): table 2^20 / 2^12 slots, cache 2^21 / 2^10 lists, arena
    2^23 / 2^14 moves (~130, 80 and 600 MB compiled, pages taken as they are first written:
    the process's first search of some thousand nodes takes ~1 s more, the table's and the
    cache's pages written at random; only long searches fill the cache and the arena);
    a records buffer or arena that proves too small grows. A search to the end of the game
    lists nearly every node's plays, and a list kept serves every later visit of its board and
    rack: the cache and arena of 2^17 lists and 2^20 moves took 2.1x the lists and 1.9x the
    time on one real endgame (index 5 of the exact batch) and the same on another; on the 26
    of the exact batch's first 60 endgames that 5 s of CPU did not solve, 10 s each searched
    81.4 M nodes in all with 2^19 lists and 2^22 moves, and the same tree 17-23 % faster with
    2^21 and 2^23 (94.9 and 100.1 M nodes in two runs; 2^21 lists alone 89.2 M, 2^24 moves
    alone 82.4 M, 2^21 and 2^24 99.9 M for twice the arena's memory; a table of 2^22 slots was
    slower; keeping lists up to 15/16 of the arena instead of 3/4 changed nothing; CPU
    seconds, two runs at a time on 2 cores); 7 of them solved before, 7 and 8 now (one at
    9.9 s), the slowest of the 7 in 7.5 s instead of 11.4 (its line read back included).
    """

    BITS = (20, 21, 23)  # compiled: log2 of the table's slots, the cache's, the arena's moves

    def __init__(self, engine, table: bool = True):
        """`table`: make a transposition table (a helper's workspace takes its search's:
        share_table).
        """
        self.engine = engine
        self.compiled = engine.compiled
        self.kernel = _kernel(engine.compiled)
        params = engine.kernel_constants[0]
        self.width = int(params[P_RACK_SIZE]) + MOVE_FIELDS
        table_bits, cache_bits, arena_bits = self.BITS if self.compiled else (12, 10, 14)
        rng = random.Random(_ZOBRIST_SEED)
        size = engine.size
        self.per_rack = max(engine.cw.rules.rack_size, 16) + 1
        limit = engine.cw.rules.scoreless_turns_end
        cell_codes = endgame_kernel.CELL_CODES
        self.z_cell = self.ints([rng.getrandbits(63) for _ in range(size * size * cell_codes)])
        self.z_tile = self.ints([rng.getrandbits(63) for _ in range(cell_codes * self.per_rack)])
        self.z_side = self.ints([0, rng.getrandbits(63)])
        self.z_scoreless = self.ints([rng.getrandbits(63) for _ in range(limit + 1)])
        slots = 1 << table_bits
        self.keys = self.info = self.table_moves = None
        if table:
            self.keys = self.zeros(3 * slots)
            self.info = self.zeros(endgame_kernel.TABLE_INFO * slots)
            self.table_moves = self.zeros(self.width * slots)
        self.list_keys = self.zeros(2 * (1 << cache_bits))
        self.list_info = self.zeros(3 * (1 << cache_bits))
        self.arena = self.zeros(self.width << arena_bits)
        self.frames = self.zeros(endgame_kernel.FRAME * (TO_THE_END + 2))
        self.current, self.best_moves, self.first_moves, self.staged_moves = (
            self.zeros(self.width * (TO_THE_END + 2)) for _ in range(4))
        # Each ply's board setup (endgame_kernel.prepare_board) and its key.
        squares = 2 * size * size
        self.boards = (np.zeros((TO_THE_END + 2, 4, squares), dtype=np.int64) if self.compiled
                       else [[[0] * squares for _ in range(4)] for _ in range(TO_THE_END + 2)])
        self.board_keys = self.zeros(2 * (TO_THE_END + 2))
        self.squares, self.codes = self.zeros(size), self.zeros(size)
        self.grow_records(256)
        self.no_keys, self.no_values = self.zeros(0), self.floats(0)
        self.out_keys, self.out_values = self.zeros(8), self.floats(8)
        # Generations start at 1: a zeroed slot (generation 0) is free.
        self.generation = 0  # each search adds one before its first use
        self.list_generation = 1
        # The root lists (endgame_kernel.root_list) and the racks they were made for (None:
        # none made yet), grown as needed; a node's storage for them; a board setup's room.
        n2 = size * size
        k = endgame_kernel
        if n2 > k.MASK_WORDS * k.MASK_BITS:
            raise ValueError(f"a board of {n2} squares: the endgame kernel's masks hold "
                             f"{k.MASK_WORDS * k.MASK_BITS}")
        self.root_racks = None
        self.root_state = self.zeros(2 * k.ROOT_STATE)
        self.root_cells = self.zeros(n2)
        self.grow_roots(1024)
        self.root_prepared = (np.zeros((4, 2 * n2), dtype=np.int64) if self.compiled
                              else [[0] * (2 * n2) for _ in range(4)])
        self.root_move = self.zeros(self.width)
        self.blocked = self.zeros(k.MASK_WORDS)
        self.zone = self.zeros(1 + n2)
        self.zone_anchor = self.zeros(2 * n2)
        self.taken, self.counts = self.zeros(k.CODES), self.zeros(k.CODES)
        self.root_equity = self.zeros(1)
        self.first_keys, self.first_values, self.first_made = (self.zeros(0), self.floats(0),
                                                               self.zeros(0))

    def ints(self, values):
        return np.asarray(values, dtype=np.int64) if self.compiled else [int(v) for v in values]

    def share_table(self, other: "_Workspace") -> None:
        """Search with the transposition table of workspace `other` (a helper's workspace:
        its searches and other's read and write the same entries).
        """
        self.keys, self.info, self.table_moves = other.keys, other.info, other.table_moves

    def zeros(self, n: int):
        return np.zeros(n, dtype=np.int64) if self.compiled else [0] * n

    def floats(self, n: int):
        return np.zeros(n, dtype=np.float64) if self.compiled else [0.0] * n

    def grow_records(self, count: int) -> None:
        """Room for the plays of a position with `count` of them."""
        self.records = self.zeros(count * self.engine.width)
        self.equity = self.floats(2)
        self.scratch = self.zeros(count * self.width)
        self.sort_keys, self.sort_order, self.sort_spare = (self.zeros(count) for _ in range(3))

    def grow_roots(self, count: int) -> None:
        """Room for root lists of `count` plays and buckets in all (their content is lost)."""
        self.root_records = self.zeros(count * self.engine.width)
        self.root_masks = self.zeros(count * endgame_kernel.MASK_WORDS)
        self.root_buckets = self.zeros(count)
        self.root_racks = None

    @property
    def roots(self) -> tuple:
        """The root arrays as the kernel takes them (endgame_kernel.RT_*)."""
        return (self.root_state, self.root_records, self.root_masks, self.root_buckets,
                self.root_cells, self.blocked, self.zone, self.zone_anchor, self.taken,
                self.counts, self.root_equity, self.first_keys, self.first_values,
                self.first_made)

    def roots_for(self, cells, racks) -> tuple:
        """The root arrays for a search from the position `cells`, `racks` (the kernel's
        arrays): the root lists kept when the position follows from theirs (its board holds
        their board's tiles, its racks no more of a tile than theirs), else made from it.
        """
        k = endgame_kernel
        if self.root_racks is not None and all(
                n <= kept for n, kept in zip(racks, self.root_racks)) and all(
                cell == root for cell, root in zip(cells, self.root_cells) if root):
            return self.roots
        self.root_cells[:] = cells
        need = self.zeros(1)
        side = at = bucket_at = 0
        while side < 2:
            base = side * k.ROOT_STATE
            self.root_state[base + k.RS_AT] = at
            self.root_state[base + k.RS_BUCKET_AT] = bucket_at
            count = self.kernel["root_list"](
                *self.engine.kernel_constants, cells, racks, side, self.root_prepared,
                self.records, self.equity, self.sort_keys, self.sort_order, self.sort_spare,
                self.no_keys, self.no_values, self.root_move, self.root_state,
                self.root_records, self.root_masks, self.root_buckets, need)
            if count == -1:
                self.grow_records(2 * int(need[0]))
            elif count == -2:  # (both sides' lists made again in the larger room)
                self.grow_roots(2 * int(need[0]))
                side = at = bucket_at = 0
            else:
                at += count
                bucket_at += 1 + math.prod(int(n) + 1
                                           for n in racks[side * k.CODES:(side + 1) * k.CODES])
                side += 1
        self.root_racks = [int(n) for n in racks]
        # One first_table per bucket (endgame_kernel.RT_FIRST_KEYS): room for every multiset
        # the larger root rack can keep, at most half the slots full.
        largest = max(math.prod(int(n) + 1 for n in racks[side * k.CODES:(side + 1) * k.CODES])
                      for side in (0, 1))
        slots = 1 << (2 * largest - 1).bit_length()
        self.first_keys, self.first_values = self.zeros(bucket_at * slots), self.floats(
            bucket_at * slots)
        self.first_made = self.zeros(bucket_at)
        return self.roots

    def grow_arena(self) -> None:
        bigger = self.zeros(2 * len(self.arena))
        bigger[:len(self.arena)] = self.arena
        self.arena = bigger


@functools.lru_cache(maxsize=2)
def _helper_pool(engine) -> list:
    """The engine's helper workspaces (without tables of their own), made as solves on more
    threads first need them.
    """
    return []


def _helper_workspaces(engine, count: int) -> list:
    """`count` helper workspaces of the engine (KernelSearch's threads)."""
    pool = _helper_pool(engine)
    while len(pool) < count:
        pool.append(_Workspace(engine, table=False))
    return pool[:count]


@functools.lru_cache(maxsize=2)
def _workspace(engine) -> _Workspace:
    """The engine's workspace (the last two engines' are kept: up to ~810 MB each, compiled)."""
    return _Workspace(engine)


class KernelSearch:
    """EndgameSearch run by the compiled kernel (lookup/crossword/endgame_kernel.py): the same
    search, values and `solve`, its nodes in one compiled loop; each round finds its value by
    null-window searches (MTD(f), `_converge`) rather than one search of the whole window
    (the same values; with `null_windows` false, the same tree).

    The game must allow words again (repeat_words): the kernel lists plays without asking
    which words the board holds. The line is read back after the search: from each position
    of an exact search, the first move (the table's first, then the search's order) that
    gives the position's value, each tested by one null-window search to the end of the
    position it leads to (the table makes these quick); after a search cut by depth or time,
    the table's moves.

    On several threads (solve's `threads`; lazy SMP, as macondo's endgame solver runs), the
    rounds run on one and a helper search on each other, every one with its own workspace but
    the table, which they share (_Workspace.share_table): a helper searches the last round
    straight away (to the end of the game, or `plies` deep) by MTD(f) from a guess of its
    own (HELPER_GUESSES), its root's plays tried last first (endgame_kernel.S_ROOT_REVERSED),
    so that the rounds find the table full of positions' values when they get there.
    Whichever finishes the last round first ends the solve; its value is the round's either
    way, as every entry is a bound of its position whoever wrote it (an entry read while
    another thread writes it counts as a miss: endgame_kernel.table_entry). Helpers that
    searched alike gained little. On 10 endgames of the exact batch's first 100 that one
    thread solves in 5-25 s: a helper searching the rounds as they are took about as long
    on five of them (41.8 s against 41.5 s); one searching to the end from guess 0,
    the root in order, 1.55x less in all; with the root reversed, the three of them that
    took 7.5-8.6 s on one thread took 3.5-4.9 s (bench/results.md "lookahead-threads": on
    the batch's first 500, 10 s of wall time each, 391 solved on two threads, 364 on one).

    Args:
        engine, cells, racks, scoreless: as EndgameSearch (cells and racks are copied).
        fresh: start with an empty table (the same result whatever was searched before);
            False keeps the entries of the engine's previous search, which are positions'
            values as much as this search's (the pre-endgame's solves share them).
        null_windows: find each round's value by MTD(f) (the default); False searches the
            whole window, the same tree as EndgameSearch (the tests hold the two equal, node
            for node).
        space: the workspace (a helper's; default the engine's, _workspace).

    Attributes:
        clock: what `solve`'s seconds are read from: time.perf_counter, or time.process_time
            for CPU seconds on a shared machine.
    """

    def __init__(self, engine, cells, racks, scoreless: int = 0, fresh: bool = True,
                 null_windows: bool = True, space=None):
        if not engine.cw.rules.repeat_words:
            raise ValueError(f"{engine.cw.id} forbids repeated words: use EndgameSearch")
        self.engine = engine
        self.space = space = _workspace(engine) if space is None else space
        if fresh:
            space.generation += 1
        self.generation = space.generation
        self.cells = [int(c) for c in cells]
        self.racks = [[int(n) for n in rack] for rack in racks]
        if max(max(rack) for rack in self.racks) >= space.per_rack:
            raise BadInput("a rack holds more copies of one tile than the solver handles")
        self.scoreless = scoreless
        self.null_windows = null_windows
        self.limit = engine.cw.rules.scoreless_turns_end
        self.values = engine.values
        self.state = space.zeros(endgame_kernel.STATE)
        self.nodes = 0
        self.deepest = 0  # the last finished round's deepest node: its ply plus one
        self.deadline = None
        self.node_limit = _NO_NODE_LIMIT
        self.root_move = None  # the last finished round's move, packed
        self.clock = time.perf_counter  # what `seconds` is measured by
        # Set when another thread of the solve has finished its last round: stop (solve).
        self.halt = None
        self._work_cells = space.zeros(len(self.cells))
        self._work_racks = space.zeros(2 * endgame_kernel.CODES)
        self._table_read = space.zeros(space.width)  # _table_move's copy of an entry's move

    def _rack_total(self, rack) -> int:
        return sum(self.values[code] * n for code, n in enumerate(rack) if code and n)

    def _set_position(self, cells, racks) -> None:
        """Load a position into the kernel's working arrays and state."""
        space, state, codes = self.space, self.state, endgame_kernel.CODES
        self._work_cells[:] = cells
        board_z = 0
        for square, code in enumerate(cells):
            if code:
                board_z ^= int(space.z_cell[square * endgame_kernel.CELL_CODES + code])
        state[endgame_kernel.S_BOARD_Z] = board_z
        for side, rack in enumerate(racks):
            self._work_racks[side * codes:(side + 1) * codes] = rack
            rack_z = 0
            for code, n in enumerate(rack):
                for copy in range(1, n + 1):
                    rack_z ^= int(space.z_tile[code * space.per_rack + copy])
            state[endgame_kernel.S_RACK_Z + side] = rack_z
            state[endgame_kernel.S_RACK_VALUE + side] = self._rack_total(rack)
            state[endgame_kernel.S_TILES_LEFT + side] = sum(rack)

    def _root(self, cells, racks, side: int, depth: int, alpha: int, beta: int,
              scoreless: int, first_plays: bool = True):
        """(value, cuts) of a search of `side` to move from a position, or None when the
        node or time budget ran out first; `first_plays`: a list's first play is searched for
        before the list (endgame_kernel's module docstring: quicker in rounds cut by depth,
        slower to the end of the game).
        """
        space, state, k = self.space, self.state, endgame_kernel
        if depth > TO_THE_END:
            raise BadInput(f"an endgame search deeper than {TO_THE_END} plies")
        if space.list_generation != state[k.S_LIST_GENERATION] or \
                state[k.S_ARENA_TOP] > state[k.S_KEEP_LIMIT]:
            # A full cache starts afresh between searches (no frame holds a list then).
            space.list_generation += 1
            state[k.S_ARENA_TOP] = 0
        self._set_position(cells, racks)
        state[k.S_LIMIT] = self.limit
        state[k.S_GENERATION] = self.generation
        state[k.S_LIST_GENERATION] = space.list_generation
        state[k.S_DEPTH_PER_RACK] = space.per_rack
        state[k.S_KEEP_LIMIT] = 3 * len(space.arena) // 4
        state[k.S_FIRST_PLAYS] = first_plays
        state[k.S_DEEPEST] = 0
        state[k.S_PLY] = 0
        state[k.S_MODE] = k.MODE_ENTER
        state[k.S_E_SIDE], state[k.S_E_DEPTH] = side, depth
        state[k.S_E_ALPHA], state[k.S_E_BETA] = alpha, beta
        state[k.S_E_SCORELESS] = scoreless
        cuts_before = int(state[k.S_CUTS])
        roots = space.roots_for(self._work_cells, self._work_racks)
        run = space.kernel["run"]
        constants = self.engine.kernel_constants
        while True:
            state[k.S_NODES] = self.nodes
            state[k.S_PAUSE_AT] = min(self.nodes + _SLICE_NODES, self.node_limit)
            status = run(*constants, self._work_cells, self._work_racks, space.z_cell,
                         space.z_tile, space.z_side, space.z_scoreless, space.keys, space.info,
                         space.table_moves, space.list_keys, space.list_info, space.arena,
                         space.frames, space.current, space.best_moves, space.first_moves,
                         space.staged_moves, space.boards, space.board_keys, space.squares,
                         space.codes, space.records, space.equity, space.scratch,
                         space.sort_keys, space.sort_order, space.sort_spare, space.no_keys,
                         space.no_values, space.out_keys, space.out_values, state, roots)
            self.nodes = int(state[k.S_NODES])
            if status == k.DONE:
                return int(state[k.S_RET]), int(state[k.S_CUTS]) - cuts_before
            if status == k.NEED_RECORDS:
                space.grow_records(2 * int(state[k.S_NEED]))
            elif status == k.NEED_ARENA:
                space.grow_arena()
                state[k.S_KEEP_LIMIT] = 3 * len(space.arena) // 4
            elif self.nodes >= self.node_limit or (self.deadline is not None
                                                   and self.clock() > self.deadline) or (
                    self.halt is not None and self.halt.is_set()):
                return None

    def solve(self, plies: int | None = None, seconds: float | None = None,
              nodes: int | None = None, threads: int = 1):
        """EndgameSearch.solve: (value, line, exact, depth) of the deepest finished round
        (_deepen, `seconds` read from `clock`); with `threads` > 1, threads - 1 helpers search
        beside the rounds (class docstring) and `nodes` counts theirs too.

        Raises:
            BadInput: threads not a whole number from 1 to MAX_THREADS, or above 1 with a
                node budget (whose answer must not depend on the threads' timing).
        """
        check_threads(threads, nodes)
        guess = [0]

        def one_round(depth: int):
            searched = self._converge(depth, guess[0])
            if searched is None:
                return None
            value, cuts = searched
            guess[0] = value
            return value, not cuts

        if threads == 1:
            value, exact, depth = _deepen(self, one_round, plies, seconds, nodes, self.clock)
            helped = 0
        else:
            (value, exact, depth), helped = self._with_helpers(one_round, plies, seconds,
                                                                threads - 1)
        searched = self.nodes
        line = self._line(value, exact, depth)
        self.nodes = searched + helped  # the search's nodes, not the line's
        return value, line, exact, depth

    def _with_helpers(self, one_round, plies: int | None, seconds: float | None,
                      count: int) -> tuple:
        """((value, exact, depth), the helpers' nodes) of `solve` with `count` helper
        searches on threads of their own (class docstring): the deepest finished round of
        this search's, unless a helper finished the last round first.
        """
        last = TO_THE_END if plies is None else min(plies, TO_THE_END)
        halt = threading.Event()
        deadline = None if seconds is None else self.clock() + seconds
        helpers = []
        for space in _helper_workspaces(self.engine, count):
            space.share_table(self.space)
            helper = KernelSearch(self.engine, self.cells, self.racks, self.scoreless,
                                  fresh=False, space=space)
            helper.generation = self.generation
            helper.clock, helper.deadline, helper.halt = self.clock, deadline, halt
            helper.state[endgame_kernel.S_ROOT_REVERSED] = 1
            helpers.append(helper)
        finished = [None] * count
        failed = []

        def help_with(number: int) -> None:
            helper = helpers[number]
            try:
                searched = helper._converge(last, HELPER_GUESSES[number % len(HELPER_GUESSES)])
            except BaseException as error:  # raised again on the solve's thread
                failed.append(error)
                halt.set()
                return
            if searched is not None:
                finished[number] = searched
                halt.set()

        threads = [threading.Thread(target=help_with, args=(number,), daemon=True)
                   for number in range(count)]
        self.halt = halt
        for thread in threads:
            thread.start()
        try:
            found = _deepen(self, one_round, plies, seconds, None, self.clock)
        finally:
            halt.set()
            for thread in threads:
                thread.join()
            self.halt = None
        if failed:
            raise failed[0]
        helped = sum(helper.nodes for helper in helpers)
        if found is not None and found[1]:
            return found, helped
        for helper, searched in zip(helpers, finished, strict=True):
            if searched is not None:
                value, cuts = searched
                self.deepest, self.root_move = helper.deepest, helper.root_move
                return (value, not cuts, last if last < TO_THE_END else helper.deepest), helped
        return found, helped

    def _converge(self, depth: int, guess: int):
        """(value, cuts) of the root searched `depth` plies, or None when the budget ran out:
        MTD(f), null-window searches from `guess` (the round before's value), each a bound
        that narrows [lower, upper] until they meet; the table keeps what each learnt, so a
        good guess costs two searches that cut far more than one of the whole window (on 24
        of the exact batch's endgames, 13 solved within 10 s of CPU instead of 11, 13 % less
        time in all). Sets root_move from the last search that reached its beta (a move
        worth at least the value; one that fell short leaves any move in the table), and
        `deepest`.
        """
        state = self.state
        first_plays = depth < TO_THE_END
        if not self.null_windows:
            searched = self._root(self.cells, self.racks, 0, depth, -_INFINITY, _INFINITY,
                                  self.scoreless, first_plays)
            if searched is not None:
                self.deepest = int(state[endgame_kernel.S_DEEPEST])
                self.root_move = self._table_move(self.cells, self.racks, 0, self.scoreless)
            return searched
        lower, upper, value, cuts, deepest = -_INFINITY, _INFINITY, guess, 0, 0
        while lower < upper:
            beta = max(value, lower + 1)
            searched = self._root(self.cells, self.racks, 0, depth, beta - 1, beta,
                                  self.scoreless, first_plays)
            if searched is None:
                return None
            value, round_cuts = searched
            cuts += round_cuts
            deepest = max(deepest, int(state[endgame_kernel.S_DEEPEST]))
            if value < beta:
                upper = value
            else:
                lower = value
                self.root_move = self._table_move(self.cells, self.racks, 0, self.scoreless)
        self.deepest = deepest
        return value, cuts

    # --- the line, read back -------------------------------------------------------------
    def _at_most(self, cells, racks, side: int, scoreless: int, bound: int) -> bool:
        """Whether the value of a position for `side` to move, solved to the end, is at most
        `bound`: one null-window search (the bound is all the line needs, and the table
        already holds the MTD(f) rounds' bounds near it; whole windows cost one of the exact
        batch's endgames 79.5 s of read-back after a 9 s search, this 0.3 s).
        """
        value, _cuts = self._root(cells, racks, side, TO_THE_END, bound, bound + 1,
                                  scoreless, first_plays=False)
        return value <= bound

    def _table_move(self, cells, racks, side: int, scoreless: int):
        """The new tiles (packed as in the kernel) of the table's move of a position, or None."""
        space, k = self.space, endgame_kernel
        self._set_position(cells, racks)
        state = self.state
        k0 = int(state[k.S_BOARD_Z]) ^ int(space.z_side[side]) ^ int(space.z_scoreless[scoreless])
        move = self._table_read
        slot, _depth, _flag, _value = space.kernel["table_entry"](
            space.keys, space.info, space.table_moves, space.width, self.generation, k0,
            int(state[k.S_RACK_Z]), int(state[k.S_RACK_Z + 1]), move, 0)
        if slot < 0:
            return None
        placed = int(move[M_PLACED])
        return tuple(int(v) for v in move[MOVE_FIELDS:MOVE_FIELDS + max(placed, 0)])

    def _moves(self, cells, rack, side: int, scoreless: int, racks, first=None):
        """The side's plays and the pass as (record tuple or PASS, new tiles), the table's move
        (or `first`, new tiles packed) first, then the plays going out, then by score.
        """
        engine = self.engine
        kernel_cells = np.asarray(cells, dtype=np.int64) if engine.compiled else list(cells)
        kernel_rack = np.asarray(rack, dtype=np.int64) if engine.compiled else list(rack)
        out, count = engine.search_cells(kernel_cells, kernel_rack)
        width = engine.width
        rows = out[:count * width]
        if engine.compiled:
            rows = rows.tolist()
        plays = [tuple(rows[at:at + RECORD_FIELDS + rows[at + R_LENGTH]])
                 for at in range(0, count * width, width)]
        moves = [(play, play_tiles(play, cells, self.size))
                 for play in sorted_plays(plays, self.values, cells, self.size)] + [(PASS, [])]
        if first is None:
            first = self._table_move(cells, racks, side, scoreless)
        if first is not None:
            for at, (_play, placed) in enumerate(moves):
                if _packed(placed) == first:
                    moves.insert(0, moves.pop(at))
                    break
        return moves

    @property
    def size(self) -> int:
        """Squares per side of the board."""
        return self.engine.size

    def _table_line(self, depth: int) -> tuple:
        """The table's moves from the root, at most `depth` of them, up to the first position
        the table does not hold or whose move ends the game: the line of a search cut by
        depth or time (which no re-solve could confirm within its budget).
        """
        cells = list(self.cells)
        racks = [list(rack) for rack in self.racks]
        side, scoreless = 0, self.scoreless
        line = []
        while len(line) < depth:
            first = self.root_move if not line else self._table_move(cells, racks, side,
                                                                      scoreless)
            if first is None:
                break
            moves = self._moves(cells, racks[side], side, scoreless, racks, first)
            play, placed = moves[0]
            if _packed(placed) != first:
                break
            line.append(play)
            score = play[R_SCORE] if placed else 0
            if placed and len(placed) == sum(racks[side]):
                break
            scoreless = 0 if score else scoreless + 1
            if scoreless >= self.limit:
                break
            for square, code, tile in placed:
                cells[square] = code
                racks[side][tile] -= 1
            side = 1 - side
        return tuple(line)

    def _line(self, value: int, exact: bool, depth: int) -> tuple:
        """The principal variation (class docstring) as record tuples and PASS."""
        if not exact:
            return self._table_line(depth)
        cells = list(self.cells)
        racks = [list(rack) for rack in self.racks]
        side, scoreless = 0, self.scoreless
        line = []
        while True:
            other = 1 - side
            rack_values = [self._rack_total(rack) for rack in racks]
            for play, placed in self._moves(cells, racks[side], side, scoreless, racks):
                score = play[R_SCORE] if placed else 0
                after = 0 if score else scoreless + 1
                child = None
                if placed and len(placed) == sum(racks[side]):
                    gives = score + 2 * rack_values[other] == value
                elif after >= self.limit:
                    kept = rack_values[side] - sum(self.values[tile] for _s, _c, tile in placed)
                    gives = score - kept + rack_values[other] == value
                else:
                    child = [list(cells), [list(rack) for rack in racks]]
                    for square, code, tile in placed:
                        child[0][square] = code
                        child[1][side][tile] -= 1
                    # No move is worth more than the value: this one gives it when what its
                    # child is worth to the other side is at most score - value.
                    gives = self._at_most(*child, other, after, score - value)
                if gives:
                    break
            else:  # pragma: no cover - the value is the best move's: one of them gives it
                raise AssertionError(f"no move gives the endgame's value {value}")
            line.append(play)
            if child is None:
                return tuple(line)
            cells, racks = child
            value, side, scoreless = score - value, other, after


def _packed(placed) -> tuple:
    """New tiles (play_tiles) packed as lookup/crossword/endgame_kernel.py packs them."""
    return tuple((square << 16) | (code << 8) | tile for square, code, tile in placed)


def check_endgame(cw, board: Board, rack: str, opponent_rack: str) -> None:
    """Refuse an endgame the game cannot reach: bad or empty racks, racks that together with
    the board hold more tiles than the set, or a bag that is not empty (the board and both
    racks must hold the whole set).

    Raises:
        BadInput: one line naming the problem.
    """
    rules = cw.rules
    racks = {"rack": rack, "opponent rack": opponent_rack}
    for name, tiles in racks.items():
        if not "".join(tiles.split()):
            raise BadInput(f"the {name} is empty: the game is over")
    held = cw.tiles.on_board(board)
    for tiles in racks.values():
        held += cw.rack_codes(tiles, board)
    cw.tiles.check_counts(held, f"board and {' and '.join(racks)}")
    in_bag = rules.total_tiles - len(held)
    if in_bag:
        raise BadInput(f"{in_bag} tiles are still in the bag (the board and both racks hold "
                       f"{len(held)} of {rules.total_tiles}): an endgame needs the "
                       "bag empty; use simulate while it is not")


def check_threads(threads, nodes=None) -> None:
    """Refuse a thread count that an endgame solve or a simulation cannot use.

    Raises:
        BadInput: threads not a whole number from 1 to MAX_THREADS, or above 1 with a node
            budget (its answer would depend on the threads' timing).
    """
    if isinstance(threads, bool) or not isinstance(threads, numbers.Integral) \
            or not 1 <= threads <= MAX_THREADS:
        raise BadInput(f"threads must be a whole number from 1 to {MAX_THREADS}, "
                       f"not {threads!r}")
    if threads > 1 and nodes is not None:
        raise BadInput("a node budget gives the same answer on any machine only on one "
                       "thread: give threads 1, or a time budget")


def check_budget(seconds=None, plies=None, iterations=None, nodes=None) -> None:
    """Refuse a search budget that is not positive.

    Raises:
        BadInput: seconds, plies, iterations or nodes given and not above 0.
    """
    for name, value in (("seconds", seconds), ("plies", plies), ("iterations", iterations),
                        ("nodes", nodes)):
        if value is not None and not value > 0:
            raise BadInput(f"{name} must be positive, not {value}")


def endgame_search(engine, cells, racks, scoreless: int = 0, fresh: bool = True):
    """The search for a position: the compiled kernel's (KernelSearch, `fresh` its argument)
    on the compiled engine when the game allows repeated words, else EndgameSearch.
    """
    if engine.compiled and engine.cw.rules.repeat_words:
        return KernelSearch(engine, cells, racks, scoreless, fresh)
    return EndgameSearch(engine, cells, racks, scoreless)


def solve_endgame(engine, board: Board, rack: str, opponent_rack: str,
                  seconds: float | None = None, plies: int | None = None, scoreless: int = 0,
                  checked: bool = True, nodes: int | None = None,
                  threads: int = 1) -> EndgameResult:
    """Solve an endgame (module docstring): CrosswordGame.endgame.

    Args:
        engine: the game's MoveEngine (lookup/crossword/engine.py move_engine).
        board: the position.
        rack, opponent_rack: the side to move's tiles and the opponent's ("?" a blank).
        seconds: stop deepening after this much time (the first round always finishes).
        plies: search at most this deep.
        scoreless: scoreless turns in a row before the position.
        nodes: stop deepening once this many positions are searched (the first round always
            finishes); a budget that, unlike seconds, gives the same move on any machine.
        checked: refuse positions whose bag is not empty (check_endgame); False solves any
            two racks, as if the tiles the board and racks lack were out of the game.
        threads: search on this many threads (KernelSearch's lazy SMP: the same value,
            sooner on as many cores; each thread past the first keeps a workspace of its own,
            up to ~680 MB, its pages taken as the search writes them); the search that is not
            the compiled kernel's (EndgameSearch) runs on one.

    Raises:
        BadInput: see check_endgame and check_budget.
    """
    check_budget(seconds=seconds, plies=plies, nodes=nodes)
    check_threads(threads, nodes)
    if checked:
        check_endgame(engine.cw, board, rack, opponent_rack)
    search = endgame_search(engine, engine.cells(board),
                            [engine.rack_counts(rack, board),
                             engine.rack_counts(opponent_rack, board)], scoreless)
    started = time.perf_counter()
    more = {"threads": threads} if isinstance(search, KernelSearch) else {}
    value, line, exact, depth = search.solve(plies=plies, seconds=seconds, nodes=nodes, **more)
    return EndgameResult(int(value), line_moves(engine, board, line), exact, depth,
                         search.nodes, time.perf_counter() - started)


def line_moves(engine, board: Board, line) -> list:
    """Moves of a search line, played one after another from `board`."""
    moves = []
    for play in line:
        if play == PASS:
            moves.append(Move("pass"))
            continue
        move = engine.move(play, board)
        moves.append(move)
        board = engine.cw.play(board, move)
    return moves
