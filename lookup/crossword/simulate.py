"""Monte Carlo simulation of candidate plays, and the pre-endgame with one tile in the bag.

    rows = cw.simulate(board, rack, candidates=10, plies=2, iterations=200, seed=0)
    rows[0].move, rows[0].mean, rows[0].stderr, rows[0].iterations, rows[0].pruned

Candidates are the best plays by static equity (score + leave). One iteration deals the
unseen tiles in a random order, the same order for every candidate (common random numbers:
the candidates' differences do not carry the draws' noise): the opponent's rack is its first
rack_size tiles, the bag the rest, drawn from the front. Each candidate is played, the mover
draws, then `plies` more turns follow (plies=None: turns until the game ends), the opponent
first, each side playing its best play by equity (lookup/crossword/equity.py: score + leave while
the bag holds tiles, the end-of-bag formula once it is empty; the pass when it has none; exchanges
are not simulated). A candidate's value is the spread over those turns (its own score included)
plus the leave of the mover's last play while the bag held tiles. The game's end rules end a
line early: a player who goes out with the bag empty gains twice the other rack's value, and
after the game's limit of scoreless turns in a row each side loses its own rack's value; a line
played to the end has no leave term. Every turn places a tile or is scoreless, so a line to the
end always ends.

The stopping rule (StoppingRule): from MIN_ITERATIONS on, every PRUNE_EVERY iterations, a
candidate stops (is pruned) when the leader (the best mean) beats it over the dealings both
were simulated with by more than z standard errors of their paired difference: its upper
bound falls below the leader's lower bound, measured where common random numbers make the
bound tight. z = sqrt(2 ln(K / STOP_DELTA)) for K candidates (a union bound over them, as
macondo's Stop99 rule), so more candidates need a clearer gap. The simulation stops once one
candidate is left (it is clearly the best) or the budget is spent. Deterministic for a seed
when bounded by iterations (a time budget stops after a whole iteration, whose count depends
on the clock).

The lines run in Python around the compiled best-play search (_simulate_line), or whole, one
dealing for every candidate per call, in lookup/crossword/sim_kernel.py (_KernelLines; the
default on the compiled engine when no leave function is given and words may repeat): the same
values to the last bit (tests/test_simulate.py). The kernel's lines share the search of a reply
when they face it with the same rack (every line's first reply: the dealt opponent rack; the
module docstring of sim_kernel.py says why the shared search finds each line's own best play).

Leaves come from a function of the kept tiles ("?" a blank) in points when one is given,
else from the game's leave table when it is built (lookup/crossword/leaves.py, looked up many at
once), else every leave is 0.0 and equity is the score. The empty leave is worth 0.0. Each rack's
leave values and the engine's table of them are computed once per simulation (_Leaves).

The pre-endgame (`pre_endgame`, one tile in the bag) is exhaustive over the tile the bag can
hold: each candidate is played, the mover draws that tile, and the endgame solver
(lookup/crossword/endgame.py) finishes the line with the opponent to move.
"""

import concurrent.futures
import functools
import itertools
import math
import random
import time
import types
from collections import Counter
from dataclasses import dataclass

import numpy as np

from lookup.crossword import sim_kernel
from lookup.crossword.board import Board
from lookup.crossword.endgame import (
    check_budget,
    check_threads,
    endgame_search,
    play_tiles,
)
from lookup.crossword.engine_kernel import (
    MAX_TARGETS,
    MOVE_FIELDS,
    P_ROOT,
    R_LEAVE,
    R_LENGTH,
    R_SCORE,
    RECORD_FIELDS,
    record_move,
)
from lookup.crossword.equity import end_of_bag_values
from lookup.crossword.move import Move
from lookup.crossword.tiles import EMPTY_LEAVE, codes_of_key
from lookup.errors import ArtifactMissing, BadInput

DEFAULT_ITERATIONS = 100
# With a time budget and no iteration count (macondo's cap).
MAX_ITERATIONS = 3250
MIN_ITERATIONS = 30
PRUNE_EVERY = 10
# Bits a float64 holds exactly: a lexicon of fewer letters has its bingo masks (bingo_table) in
# the leave tables' values.
MANTISSA_BITS = 53
# Slots of the simulation kernel's cache of the game's leave table (sim_kernel.fill_rack_table;
# 128 KB: it stays in the CPU's cache).
LEAVE_MEMO = 1 << 13
STOP_DELTA = 0.01


@dataclass
class SimRow:
    """One simulated candidate.

    Attributes:
        move: the play.
        mean: its mean value in points (module docstring).
        stderr: the standard error of the mean.
        iterations: iterations it was simulated.
        pruned: it stopped early, clearly worse than the leader.
        equity: its static equity (score + leave), the candidates' order.
        rank: its place in that order (0: the best by equity).
        gain, gain_stderr: the mean of its value minus rank 0's over the dealings both were
            simulated with, and that mean's standard error (common random numbers make it
            far smaller than either row's stderr); 0.0 for rank 0 itself, and in the
            pre-endgame.
    """

    move: Move
    mean: float
    stderr: float
    iterations: int
    pruned: bool
    equity: float
    rank: int
    gain: float = 0.0
    gain_stderr: float = 0.0


def default_leave(cw):
    """The game's leave function (its `leave` method) when its leave table is built, else None:
    every leave 0.0.
    """
    try:
        cw.leaves()
    except ArtifactMissing:
        return None
    return cw.leave


class _Leaves:
    """Leave values of racks, each rack's computed once per simulation: {leave key: value} of
    every leave it can keep and the engine's LeaveTable of them.

    With a leave model (`model.lookup(game leave keys)`, lookup/crossword/leaves.py LeaveValues) a
    rack's values come from one vectorised lookup; with a leave function (tiles -> points) from one
    call per distinct leave; with neither every leave is 0.0 and there is no table. Either way
    a rack's values are the leave function's (tests/test_simulate.py checks the model path
    against the function cw.leave).

    Args:
        engine: the game's MoveEngine (leave keys in its lexicon codes).
        leave: the leave function, or None.
        model: the leave model, used instead of `leave` when given.
    """

    def __init__(self, engine, leave=None, model=None):
        self.engine = engine
        self.leave = leave
        self.model = model
        self.racks: dict = {}
        self.end_tables: dict = {}
        self.tile_set = engine.cw.tiles
        self.tile_value = self.tile_set.values

    def _game_codes(self, rack) -> list:
        """The game tile codes (0 a blank) of a rack of lexicon-code counts."""
        to_game = self.engine.to_game
        return [to_game[code] for code, n in enumerate(rack) for _ in range(n)]

    def tiles(self, codes) -> str:
        """The tiles of lexicon codes as text (TileSet.text)."""
        return self.tile_set.text([self.engine.to_game[code] for code in codes])

    def of_rack(self, rack_counts):
        """({leave key: value} of every leave the rack can keep after a play, the empty one
        0.0, the LeaveTable of them or None without values), computed once per rack.
        """
        rack = _rack_key(rack_counts)
        found = self.racks.get(rack)
        if found is None:
            codes = self._game_codes(rack)
            game_keys, lex_keys, sizes = self.engine.sub_leave_keys(codes)
            # A play places at least one tile: a leave never holds the whole rack.
            kept = (sizes > 0) & (sizes < len(codes))
            keys = lex_keys[kept].tolist()
            if self.model is not None:
                values = self.model.lookup(game_keys[kept]).tolist()
            elif self.leave is not None:
                values = [float(self.leave(self.tiles(codes_of_key(k)))) for k in keys]
            else:
                found = self.racks[rack] = ({}, None)
                return found
            by_key = dict(zip(keys, values))
            by_key[EMPTY_LEAVE] = 0.0
            found = self.racks[rack] = (by_key, self.engine.keyed_leave_table(keys, values))
        return found

    def value(self, rack_counts, key: int) -> float:
        """The value of leave `key` kept from the rack (0.0 without values)."""
        return self.of_rack(rack_counts)[0].get(key, 0.0)

    def table(self, rack_counts):
        """The engine's LeaveTable of every leave of a rack (None without values)."""
        return self.of_rack(rack_counts)[1]

    def end_table(self, rack_counts, opponent_value: int):
        """The engine's LeaveTable of the end-of-bag formula (lookup/crossword/equity.py) for a rack
        facing an opponent rack worth `opponent_value`: what the equity bot plays by once the
        bag is empty. Computed once per rack and opponent value.
        """
        rack = _rack_key(rack_counts)
        found = self.end_tables.get((rack, opponent_value))
        if found is None:
            codes = self._game_codes(rack)
            game_keys, lex_keys, sizes = self.engine.sub_leave_keys(codes)
            values = end_of_bag_values([codes_of_key(int(k)) for k in game_keys],
                                       self.tile_value, opponent_value)
            playable = (sizes < len(codes)).tolist()
            keys = [int(k) for k, ok in zip(lex_keys.tolist(), playable) if ok]
            kept = [v for v, ok in zip(values, playable) if ok]
            found = self.end_tables[(rack, opponent_value)] = \
                self.engine.keyed_leave_table(keys, kept)
        return found


def _rack_key(rack_counts) -> tuple:
    """A rack of counts (list or array) as a tuple, the key of the per-rack caches."""
    return tuple(rack_counts.tolist() if hasattr(rack_counts, "tolist") else rack_counts)


def _leaves_for(engine, leave) -> _Leaves:
    """The simulation's leaves: the given function, else the game's leave table as a model
    when built, else none (every leave 0.0).
    """
    if leave is not None:
        return _Leaves(engine, leave)
    try:
        return _Leaves(engine, model=engine.cw.leaves())
    except ArtifactMissing:
        return _Leaves(engine)


def _candidates(engine, board: Board, rack: str, leaves: _Leaves, count: int):
    """The `count` best plays by static equity: (equity, record tuple), best first."""
    cells = engine.cells(board)
    counts = engine.rack_counts(rack, board)
    out, found = engine.search_cells(cells, counts)
    width = engine.width
    rows = out[:found * width]
    leave_values = leaves.of_rack(counts)[0]
    scores, keys = rows[R_SCORE::width], rows[R_LEAVE::width]
    if engine.compiled:
        scores, keys = scores.tolist(), keys.tolist()
    equities = [score + leave_values.get(key, 0.0) for score, key in zip(scores, keys,
                                                                        strict=True)]
    # Only the plays up to the count-th equity, ties included, can be among the best `count`.
    cutoff = sorted(equities, reverse=True)[count - 1] if len(equities) > count else None
    ranked = []
    for index, equity in enumerate(equities):
        if cutoff is not None and equity < cutoff:
            continue
        at = index * width
        length = int(rows[at + R_LENGTH])
        play = tuple(int(v) for v in rows[at:at + RECORD_FIELDS + length])
        ranked.append((-equity, play))
    ranked.sort()
    return [(-negative, play) for negative, play in ranked[:count]]


class _Line:
    """One simulated line: a board, two racks and the bag, changed by each turn."""

    def __init__(self, engine, cells, racks, bag: list):
        self.engine = engine
        self.cells = cells
        self.racks = racks
        self.bag = bag

    def play(self, side: int, play) -> int:
        """Put a play's tiles down and draw; the number of tiles placed."""
        placed = play_tiles(play, self.cells, self.engine.size)
        rack = self.racks[side]
        for square, code, tile in placed:
            self.cells[square] = code
            rack[tile] -= 1
        for tile in self.bag[:len(placed)]:
            rack[tile] += 1
        del self.bag[:len(placed)]
        return len(placed)

    def rack_value(self, side: int) -> int:
        values = self.engine.values
        return sum(values[code] * int(n) for code, n in enumerate(self.racks[side]) if n)


def _simulate_line(engine, leaves, base_cells, mover_rack, candidate, order: list,
                   plies: int | None):
    """The value of one candidate over one dealing order (module docstring)."""
    rules = engine.cw.rules
    cells = base_cells.copy()
    opponent = engine.empty_rack()
    for tile in order[:rules.rack_size]:
        opponent[tile] += 1
    line = _Line(engine, cells, [mover_rack.copy(), opponent], list(order[rules.rack_size:]))
    spread = 0
    last_leave = 0.0
    scoreless = 0
    turns = itertools.count() if plies is None else range(plies + 1)
    for turn in turns:
        side = turn % 2
        sign = -1 if side else 1
        bag_before = len(line.bag)
        if turn == 0:
            play = candidate
            leave_value = leaves.value(mover_rack, play[R_LEAVE]) if bag_before else 0.0
        else:
            play, leave_value = _best_play(engine, leaves, line, side, bag_before)
        if play is None:
            scoreless += 1
        else:
            line.play(side, play)
            spread += sign * play[R_SCORE]
            scoreless = scoreless + 1 if play[R_SCORE] == 0 else 0
            if side == 0:
                last_leave = leave_value
            if not bag_before and not any(line.racks[side]):
                return spread + sign * 2 * line.rack_value(1 - side)
        if scoreless >= rules.scoreless_turns_end:
            return spread - line.rack_value(0) + line.rack_value(1)
    return spread + last_leave


def _best_play(engine, leaves, line: _Line, side: int, bag_before: int):
    """(record tuple, its leave value) of the side's best play by equity, (None, 0.0) when it
    has none; the leave value is 0.0 with the bag empty.
    """
    rack = line.racks[side]
    if bag_before:
        rack_leaves, table = leaves.of_rack(rack)
    else:
        rack_leaves, table = {}, leaves.end_table(rack, line.rack_value(1 - side))
    record, _equity = engine.search_cells(line.cells, rack, best=True, leaves=table)
    if record is None:
        return None, 0.0
    play = tuple(int(v) for v in record[:RECORD_FIELDS + int(record[R_LENGTH])])
    return play, rack_leaves.get(play[R_LEAVE], 0.0)


# The kernel's functions (lookup/crossword/sim_kernel.py) that call each other.
KERNEL_FUNCTIONS = ("_rack_kinds", "_subset_key", "_subset_size", "_put_bingo_mask",
                    "fill_rack_table", "_repeats_before", "bingo_words", "fill_bingo_table",
                    "fill_end_table", "_rack_value", "zone", "shared_replies",
                    "simulate_dealing")


@functools.cache
def _kernel(compiled: bool) -> dict:
    if compiled:
        from lookup.crossword.engine_numba import compiled_extension

        return compiled_extension(_compiled_sources(), KERNEL_FUNCTIONS)
    return {name: getattr(sim_kernel, name) for name in KERNEL_FUNCTIONS}


@functools.cache
def _compiled_sources():
    """sim_kernel's namespace with endgame_kernel's prepared_search compiled (compiled_extension
    swaps in the compiled engine kernel's functions only): what the compiled kernel is built
    from, one object so that compiled_extension's cache keeps it.
    """
    from lookup.crossword import endgame, endgame_kernel
    from lookup.crossword.engine_numba import compiled_extension

    sources = types.ModuleType(sim_kernel.__name__, sim_kernel.__doc__)
    sources.__dict__.update(vars(sim_kernel))
    sources.prepared_search = compiled_extension(
        endgame_kernel, endgame.KERNEL_FUNCTIONS)["prepared_search"]
    return sources


@functools.lru_cache(maxsize=4)
def bingo_table(engine) -> tuple:
    """(slots, masks): every multiset of a full rack's letters that makes a word alone or with
    one letter more, and which (sim_kernel.bingo_words, fill_bingo_table), in the engine's
    arrays; the simulation kernel's searches count a bingo in an anchor's bound only where the
    rack can play one. Made once per engine. Empty when the lexicon has more letters than a
    float's mantissa holds as bits (the masks travel in the leave tables' values).
    """
    compiled = engine.compiled

    def ints(n):
        return np.zeros(n, dtype=np.int64) if compiled else [0] * n

    if len(engine.lexicon.tables.alphabet) >= MANTISSA_BITS:
        return ints(0), ints(0)
    kernel = _kernel(compiled)
    params, arcs, node_mask = engine.kernel_constants[:3]
    rack_size = engine.cw.rules.rack_size
    room = 1 << 16
    while True:
        keys, masks = ints(room), ints(room)
        pairs = kernel["bingo_words"](arcs, node_mask, int(params[P_ROOT]), rack_size, keys,
                                      masks)
        if pairs <= room:
            break
        room = pairs
    capacity = 8
    while capacity < 2 * pairs:
        capacity *= 2
    slots, table = ints(capacity), ints(capacity)
    kernel["fill_bingo_table"](keys, masks, pairs, slots, table)
    return slots, table


@functools.lru_cache(maxsize=4)
def full_leave_table(engine, model):
    """The engine's LeaveTable of every leave of a leave model (LeaveValues: `keys` in game
    codes, `values`), keyed in the lexicon's codes: what the simulation kernel looks leaves up
    in. Made once per engine and model.
    """
    keys = np.asarray(model.keys, dtype=np.int64)
    absent = 1 << 20  # sorts after every code
    digits = []
    rest = keys.copy()
    while (rest > 1).any():
        present = rest > 1
        digits.append(np.where(present, engine.lexicon_codes(rest % 64), absent))
        rest = np.where(present, rest // 64, rest)
    lex_keys = np.ones(len(keys), dtype=np.int64)
    if digits:
        for column in np.sort(np.stack(digits, axis=1), axis=1).T:
            lex_keys = np.where(column != absent, lex_keys * 64 + column, lex_keys)
    return engine.keyed_leave_table(lex_keys, np.asarray(model.values, dtype=np.float64))


class _KernelLines:
    """Every candidate's line over one dealing, played by lookup/crossword/sim_kernel.py: the same
    values as _simulate_line (tests/test_simulate.py), one call per dealing.

    Args:
        engine: the game's MoveEngine; compiled, the kernel is too.
        leaves: the simulation's _Leaves (a leave model or none, not a leave function).
        base_cells, mover_rack: the position (engine.cells, engine.rack_counts).
        plays: the candidates (record tuples).
        plies: turns after each candidate, None to the end.
        share: lines share their replies' searches (sim_kernel.shared_replies).
    """

    def __init__(self, engine, leaves, base_cells, mover_rack, plays: list, plies: int | None,
                 share: bool = True):
        self.engine = engine
        compiled = engine.compiled
        self.simulate_dealing = _kernel(compiled)["simulate_dealing"]
        rules = engine.cw.rules
        self.rack_size = rules.rack_size
        self.limit = rules.scoreless_turns_end
        self.plies = -1 if plies is None else plies
        self.share = share
        width = MOVE_FIELDS + rules.rack_size
        cells = [int(c) for c in base_cells]
        packed = [0] * (width * len(plays))
        for i, play in enumerate(plays):
            record_move(play, 0, cells, engine.size, packed, i * width)
        leave_values = [float(leaves.value(mover_rack, play[R_LEAVE])) for play in plays]
        table = engine.empty_leaves if leaves.model is None else \
            full_leave_table(engine, leaves.model)
        self.leave_keys, self.leave_values = table.keys, table.values
        if compiled:
            def ints(n):
                return np.zeros(n, dtype=np.int64)

            def floats(n):
                return np.zeros(n, dtype=np.float64)

            self.base_cells = np.asarray(base_cells, dtype=np.int64)
            self.mover_rack = np.asarray(mover_rack, dtype=np.int64)
            self.candidates = np.asarray(packed, dtype=np.int64)
            self.candidate_leaves = np.asarray(leave_values, dtype=np.float64)
        else:
            def ints(n):
                return [0] * n

            def floats(n):
                return [0.0] * n

            self.base_cells, self.mover_rack = cells, [int(n) for n in mover_rack]
            self.candidates, self.candidate_leaves = packed, leave_values
            self.leave_keys = [int(k) for k in self.leave_keys]
        self.active = ints(len(plays))
        self.results = floats(len(plays))
        codes = sim_kernel.CODES
        squares = 2 * engine.size * engine.size
        setups = np.zeros((len(plays) + 1, 4, squares), dtype=np.int64) if compiled else \
            [[[0] * squares for _ in range(4)] for _ in range(len(plays) + 1)]
        self.work = (floats(len(plays)), floats(len(plays)), floats(MAX_TARGETS), floats(2),
                     ints(256), floats(256), ints(codes), ints(codes), ints(codes), setups,
                     ints(LEAVE_MEMO), floats(LEAVE_MEMO), *bingo_table(engine))

    def values(self, order: list, pruned: list) -> list:
        """The value of every candidate not pruned over the dealing `order` (lexicon codes)."""
        for i, stopped in enumerate(pruned):
            self.active[i] = 0 if stopped else 1
        dealing = np.asarray(order, dtype=np.int64) if self.engine.compiled else order
        self.simulate_dealing(*self.engine.kernel_constants, self.leave_keys, self.leave_values,
                              self.base_cells, self.mover_rack, self.candidates,
                              self.candidate_leaves, self.active, dealing, len(order),
                              self.rack_size, self.plies, self.limit, self.share, self.results,
                              *self.work)
        return [float(v) for v in self.results]


def _unseen(engine, board: Board, rack: str, unseen: str | None) -> list[int]:
    """The tiles the mover cannot see, as game codes (TileSet.unseen: letters in alphabet
    order, then the blanks): given as text, else the set minus the board and the rack.

    Raises:
        BadInput: a bad rack, or unseen tiles that with the board and rack exceed the set.
    """
    cw = engine.cw
    return cw.tiles.unseen(board, cw.rack_codes(rack, board), unseen)


def simulate(engine, board: Board, rack: str, unseen: str | None = None, candidates: int = 10,
             plies: int | None = 2, iterations: int | None = None,
             seconds: float | None = None, seed: int = 0, leave=None, progress=None,
             kernel: bool | None = None, share: bool = True, threads: int = 1) -> list:
    """Simulate the best candidates (module docstring): CrosswordGame.simulate.

    Args:
        engine: the game's MoveEngine.
        board, rack: the position; "?" a blank.
        unseen: the tiles the mover cannot see; by default the set minus board and rack.
        candidates: how many plays, the best by static equity.
        plies: turns simulated after each candidate, the opponent's first; None plays every
            line to the end of the game.
        iterations: dealings simulated (DEFAULT_ITERATIONS without `seconds`, else at most
            MAX_ITERATIONS).
        seconds: stop after the iteration that passes this time.
        seed: seeds the dealings.
        leave: the leave function (tiles -> points); None: the game's leave table when
            built (_leaves_for), else every leave 0.0.
        progress: called as progress(iterations done, iterations planned) after each one.
        kernel: play the lines in lookup/crossword/sim_kernel.py (True; compiled with the
            engine) or in Python (False); None: the kernel when the game allows repeated words
            and no leave function is given (the kernel knows neither the board's words nor the
            function), and the engine is compiled.
        share: the kernel's lines share their replies' searches (sim_kernel.shared_replies);
            False: each line searches alone (the same rows; a baseline to measure against).
        threads: play the kernel's dealings on this many threads at once: the dealings up to
            the stopping rule's next look (_next_look) are dealt in order, shared among the
            threads and counted in order, so the rows are the same as on one; a time budget
            stops after such a batch. The Python lines play on one.

    Returns:
        SimRow per candidate: the ones still running by mean, best first, then the pruned
        ones by mean; [] when the rack has no play.

    Raises:
        BadInput: a bad rack or unseen tiles, or candidates, plies, iterations or seconds not
            positive, or threads not a whole number from 1 to 16.
    """
    check_budget(seconds=seconds, iterations=iterations, plies=plies)
    check_threads(threads)
    if candidates < 1:
        raise BadInput(f"candidates must be positive, not {candidates}")
    pool = _unseen(engine, board, rack, unseen)
    leaves = _leaves_for(engine, leave)
    plays = _candidates(engine, board, rack, leaves, candidates)
    if not plays:
        return []
    if iterations is None:
        iterations = DEFAULT_ITERATIONS if seconds is None else MAX_ITERATIONS
    base_cells = engine.cells(board)
    mover_rack = engine.rack_counts(rack, board)
    codes = [engine.to_lex[code] for code in pool]
    if kernel is None:
        kernel = engine.compiled
    lines = []
    if kernel and engine.cw.rules.repeat_words and leaves.leave is None:
        # One set of the kernel's working arrays per thread.
        lines = [_KernelLines(engine, leaves, base_cells, mover_rack,
                              [play for _equity, play in plays], plies, share)
                 for _ in range(threads)]
    rng = random.Random(seed)
    totals = [[0.0, 0.0, 0] for _ in plays]  # sum, sum of squares, count
    gains = [[0.0, 0.0, 0] for _ in plays]  # the same, of value minus the first candidate's
    rule = StoppingRule(len(plays), iterations)
    pruned = rule.pruned
    started = time.perf_counter()
    done = 0
    with concurrent.futures.ThreadPoolExecutor(max(len(lines) - 1, 1)) as executor:
        while done < iterations:
            # One dealing at a time on one thread; on several, every dealing before the
            # stopping rule's next look (`pruned` changes only there).
            batch = min(iterations, _next_look(done)) - done if len(lines) > 1 else 1
            orders = []
            for _ in range(batch):
                order = list(codes)
                rng.shuffle(order)
                orders.append(order)
            dealt = _dealt_values(executor, lines, orders, pruned)
            ended = False
            for order, values in zip(orders, dealt, strict=True):
                done += 1
                first = None
                for index, (_equity, play) in enumerate(plays):
                    if pruned[index]:
                        continue
                    value = values[index] if values is not None else _simulate_line(
                        engine, leaves, base_cells, mover_rack, play, order, plies)
                    rule.add(index, value)
                    total = totals[index]
                    total[0] += value
                    total[1] += value * value
                    total[2] += 1
                    if index == 0:
                        first = value
                    elif first is not None:
                        gain = gains[index]
                        gain[0] += value - first
                        gain[1] += (value - first) ** 2
                        gain[2] += 1
                if progress is not None:
                    progress(done, iterations)
                # (One candidate left: at a look, the batch's last dealing, or from the
                # first when there is one candidate; the dealings after it are not counted.)
                ended = rule.iteration_done()
                if ended:
                    break
            if ended or (seconds is not None and time.perf_counter() - started >= seconds):
                break
    rows = []
    for rank, ((equity, play), total, gain, stopped) in enumerate(zip(plays, totals, gains,
                                                                       pruned, strict=True)):
        mean, stderr = _mean_stderr(total)
        gain_mean, gain_stderr = _mean_stderr(gain) if gain[2] else (0.0, 0.0)
        rows.append(SimRow(engine.move(play, board), mean, stderr, total[2], stopped, equity,
                           rank, gain_mean, gain_stderr))
    rows.sort(key=lambda row: (row.pruned, -row.mean))
    return rows


def _next_look(done: int) -> int:
    """The iteration count after `done` at which the stopping rule next looks (prunes): from
    MIN_ITERATIONS on, every PRUNE_EVERY (StoppingRule.iteration_done reads it too).
    """
    look = max(MIN_ITERATIONS, done + 1)
    return look + (-look) % PRUNE_EVERY


def _dealt_values(executor, lines: list, orders: list, pruned: list) -> list:
    """Each dealing's candidate values (_KernelLines.values) in order, the dealings shared
    among the threads (lines[t], one per thread: dealings t, t + threads, ...; the caller's
    thread plays the first share, the executor's the others); None per dealing without
    kernel lines.
    """
    if not lines:
        return [None] * len(orders)
    count = len(lines)

    def share(t: int) -> list:
        return [lines[t].values(order, pruned) for order in orders[t::count]]

    later = [executor.submit(share, t) for t in range(1, min(count, len(orders)))]
    values = [None] * len(orders)
    values[0::count] = share(0)
    for t, future in enumerate(later, start=1):
        values[t::count] = future.result()
    return values


def _mean_stderr(total) -> tuple[float, float]:
    sum_, squares, n = total
    mean = sum_ / n
    variance = max(0.0, squares / n - mean * mean) * n / (n - 1) if n > 1 else 0.0
    return mean, math.sqrt(variance / n)


class StoppingRule:
    """The simulation's stopping rule (module docstring): which candidates are still
    simulated, and whether the simulation is done.

        rule = StoppingRule(candidates, iterations)
        rule.add(index, value)      # each candidate not pruned, every iteration
        if rule.iteration_done():   # after each iteration: prunes; True once one is left
            ...

    Args:
        candidates: how many candidates (K).
        iterations: the most iterations the simulation runs.

    Attributes:
        pruned: per candidate, whether it stopped.
        z: standard errors of the paired difference a candidate must trail the leader by.
    """

    def __init__(self, candidates: int, iterations: int):
        self.values = np.zeros((candidates, iterations))
        self.pruned = [False] * candidates
        self.done = 0
        self.z = math.sqrt(2 * math.log(max(candidates, 2) / STOP_DELTA))

    def add(self, index: int, value: float) -> None:
        """Record a candidate's value in the current iteration."""
        self.values[index, self.done] = value

    def iteration_done(self) -> bool:
        """Close the iteration: prune when due; True when one candidate is left."""
        self.done += 1
        if self.done == _next_look(self.done - 1):
            self.prune()
        return self.pruned.count(False) == 1

    def prune(self) -> None:
        """Stop every candidate the leader beats by more than z paired standard errors (the
        candidates still running were all simulated over the same `done` dealings).
        """
        live = [i for i, stopped in enumerate(self.pruned) if not stopped]
        values = self.values[live, :self.done]
        leader = int(np.argmax(values.mean(axis=1)))
        gaps = values[leader] - values
        n = self.done
        means = gaps.mean(axis=1)
        stderrs = gaps.std(axis=1, ddof=1) / math.sqrt(n) if n > 1 else np.zeros(len(live))
        for k, index in enumerate(live):
            if k != leader and means[k] - self.z * stderrs[k] > 0:
                self.pruned[index] = True


def pre_endgame(engine, board: Board, rack: str, unseen: str | None = None,
                candidates: int = 10, plies: int | None = None,
                seconds: float | None = None, leave=None, nodes: int | None = None) -> list:
    """With one tile in the bag: each candidate's mean value over the tile the bag holds
    (weighted by how many of the unseen tiles are that tile), each line finished by the
    endgame solver with the opponent to move (module docstring).

    Args:
        engine, board, rack, unseen, candidates, leave: as simulate.
        plies, seconds, nodes: each endgame solve's limits (EndgameSearch.solve; the search
            is lookup/crossword/endgame.py endgame_search's: the compiled kernel's on the
            compiled engine).

    Returns:
        SimRow per candidate, best first (iterations: the distinct bag tiles; stderr 0.0,
        pruned False; the mean exact when every solve was).

    Raises:
        BadInput: as simulate, or unseen tiles that are not one more than a full rack.
    """
    check_budget(seconds=seconds, plies=plies, nodes=nodes)
    cw = engine.cw
    pool = _unseen(engine, board, rack, unseen)
    if len(pool) != cw.rules.rack_size + 1:
        raise BadInput(f"{len(pool)} unseen tiles; the pre-endgame needs one in the bag, "
                       f"{cw.rules.rack_size + 1} unseen")
    leaves = _leaves_for(engine, leave)
    base_cells = engine.cells(board)
    mover_rack = engine.rack_counts(rack, board)
    codes = [engine.to_lex[code] for code in pool]
    rows = []
    solves = 0
    for rank, (equity, play) in enumerate(_candidates(engine, board, rack, leaves, candidates)):
        total = 0.0
        for bag_tile, copies in sorted(Counter(codes).items()):
            order = list(codes)
            order.remove(bag_tile)
            line = _Line(engine, base_cells.copy(), [mover_rack.copy(), engine.empty_rack()],
                         [bag_tile])
            for tile in order:
                line.racks[1][tile] += 1
            line.play(0, play)
            # One table for every solve: positions recur across candidates and bag tiles.
            search = endgame_search(engine, line.cells, [line.racks[1], line.racks[0]],
                                    fresh=not solves)
            solves += 1
            value, _line, _exact, _depth = search.solve(plies=plies, seconds=seconds,
                                                        nodes=nodes)
            total += copies * (play[R_SCORE] - value)
        rows.append(SimRow(engine.move(play, board), total / len(codes), 0.0,
                           len(set(codes)), False, equity, rank))
    rows.sort(key=lambda row: -row.mean)
    return rows
