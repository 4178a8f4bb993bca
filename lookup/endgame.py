"""Endgames: the bag empty, both racks known, best play by both sides to the end of the game.

    result = cw.endgame(board, rack, opponent_rack)   # solve_endgame(move_engine(cw), ...)
    result.value      # spread from now: the mover's points to the end minus the opponent's
    result.line       # principal variation: Moves (plays and passes), sides alternating
    result.exact      # the search reached the end of every line (no `plies` or time cut)

The search is negamax with alpha-beta pruning and iterative deepening (one ply deeper per
round until no line is cut by the depth). A transposition table, keyed by Zobrist hashes of
the board, both racks, the side to move and the scoreless-turn count, holds each position's
value or bound, its best move (searched first next time) and, for exact values, the line.
Moves are tried best first: the table's move, then plays by score (a play that empties the
rack counted with what going out earns), the pass last. Plays come from the fast engine
(lookup/engine.py); positions change in place and are restored after each move.

End rules (lookup/game_engine.py): a play that empties the rack ends the game and earns twice
the value of the opponent's rack (the player gains it, the opponent loses it); a pass or a
play scoring 0 is scoreless, and `scoreless_turns_end` of them in a row end the game with
each rack's value taken from its owner. With the bag empty no exchange is allowed. A line cut
by the depth is worth 0 from the cut on; `exact` says no line was cut.
"""

import random
import time
from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from lookup.board import BLANK, Board
from lookup.crossword import BLANK_SYMBOL, Move
from lookup.engine_kernel import (
    R_BLANKS,
    R_DIRECTION,
    R_LEAVE,
    R_LENGTH,
    R_LINE,
    R_SCORE,
    R_START,
    RECORD_FIELDS,
)
from lookup.errors import BadInput

PASS = ()  # the pass in a search line (plays are record tuples)
_EMPTY_LEAVE = 1  # the leave key of a play that empties the rack (lookup/engine_kernel.py)
_INFINITY = 1 << 30
# Depth of a table entry whose value no depth cut touched: valid for every search.
_COMPLETE = 1 << 20
_EXACT, _LOWER, _UPPER = 0, 1, 2
# The clock is read once every this many nodes.
_CLOCK_NODES = 256
_ZOBRIST_SEED = 0x5EED


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


def held_tiles(cw, board: Board, racks: dict, pool: str = "") -> Counter:
    """Tiles ("?" the blanks) on the board, on the named racks ({name: tiles}) and in a
    pool of any size (named "unseen tiles").

    Raises:
        BadInput: a rack the game does not allow, a pool tile that is not the game's, or
            more tiles of a kind than the set has.
    """
    rules = cw.rules
    held = Counter()
    for _name, tiles in racks.items():
        letters, blanks = cw.parse_rack(tiles, board)
        held.update(letters)
        held[BLANK_SYMBOL] += blanks
    for tile in pool:
        if tile != BLANK_SYMBOL and tile not in rules.counts:
            raise BadInput(f"unseen tile {tile!r} is not a letter of {rules.id} (letters: "
                           f"{cw.alphabet}, '?' for a blank)")
        held[tile] += 1
    names = " and ".join([*racks, *(["unseen tiles"] if pool else [])])
    for _row, _col, letter, is_blank in board.tiles():
        held[BLANK_SYMBOL if is_blank else letter] += 1
    for tile, n in sorted(held.items()):
        in_set = rules.blanks if tile == BLANK_SYMBOL else rules.counts[tile]
        if n > in_set:
            raise BadInput(f"board and {names} hold {n} tiles {tile!r}; the "
                           f"{rules.id} set has {in_set}")
    return held


class _OutOfTime(Exception):
    """The time budget ran out inside a round of iterative deepening."""


@dataclass
class EndgameResult:
    """A solved endgame.

    Attributes:
        value: the side to move's points from now to the end minus the opponent's, end
            adjustments included, under best play by both (the deepest finished round).
        line: the principal variation, Moves with sides alternating, starting with the move.
        exact: True when no line was cut by depth or time (value is the game's true value).
        plies: depth of the deepest finished round.
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

    Args:
        engine: the game's MoveEngine.
        cells: the board as lexicon codes (engine.cells); changed during a search and
            restored after.
        racks: rack counts (engine.rack_counts) of the side to move, then of the opponent.
        scoreless: scoreless turns in a row before the position.
    """

    def __init__(self, engine, cells, racks, scoreless: int = 0):
        self.engine = engine
        self.cells = cells
        self.racks = racks
        self.scoreless = scoreless
        self.size = engine.size
        self.limit = engine.cw.rules.scoreless_turns_end
        self.values = engine.values
        self.rack_value = [self._rack_total(rack) for rack in racks]
        self.tiles_left = [int(sum(rack)) for rack in racks]
        self.table: dict = {}
        self.nodes = 0
        self.cuts = 0
        self.deadline = None
        rng = random.Random(_ZOBRIST_SEED)
        codes = 2 * BLANK
        self.codes = codes
        self.depth_per_rack = engine.cw.rules.rack_size + 1
        self.z_cell = [rng.getrandbits(64) for _ in range(self.size * self.size * codes)]
        self.z_rack = [[rng.getrandbits(64) for _ in range(codes * self.depth_per_rack)]
                       for _side in range(2)]
        self.z_side = rng.getrandbits(64)
        self.z_scoreless = [rng.getrandbits(64) for _ in range(self.limit + 1)]

    def _rack_total(self, rack) -> int:
        return sum(self.values[code] * int(n) for code, n in enumerate(rack) if code and n)

    def root_key(self) -> int:
        """The Zobrist key of the position, side 0 to move."""
        key = self.z_scoreless[self.scoreless]
        for square, code in enumerate(self.cells):
            if code:
                key ^= self.z_cell[square * self.codes + int(code)]
        for side, rack in enumerate(self.racks):
            for code, n in enumerate(rack):
                for copy in range(1, int(n) + 1):
                    key ^= self.z_rack[side][code * self.depth_per_rack + copy]
        return key

    # --- moves -----------------------------------------------------------------------------
    def ordered_moves(self, side: int, first):
        """The side's moves: `first` (the table's move) first, then plays (record tuples) by
        score, going out counted at what it earns, then the pass.
        """
        if first is not None:
            yield first
        out, count = self.engine.search_cells(self.cells, self.racks[side])
        if count:
            width = self.engine.width
            rows = np.asarray(out[:count * width]).reshape(count, width)
            goes_out = rows[:, R_LEAVE] == _EMPTY_LEAVE
            worth = rows[:, R_SCORE] + goes_out * (2 * self.rack_value[1 - side])
            for at in np.argsort(-worth, kind="stable"):
                row = rows[at].tolist()
                play = tuple(row[:RECORD_FIELDS + row[R_LENGTH]])
                if play != first:
                    yield play
        if first != PASS:
            yield PASS

    def _move_tiles(self, side: int, placed, key: int, put: bool) -> int:
        """Put a play's tiles on the board from the rack (put) or take them back; the key
        after.
        """
        rack = self.racks[side]
        z_rack = self.z_rack[side]
        sign = -1 if put else 1
        for square, code, tile in placed:
            key ^= self.z_cell[square * self.codes + code]
            self.cells[square] = code if put else 0
            if put:
                key ^= z_rack[tile * self.depth_per_rack + int(rack[tile])]
            rack[tile] += sign
            if not put:
                key ^= z_rack[tile * self.depth_per_rack + int(rack[tile])]
            self.rack_value[side] += sign * self.values[tile]
        self.tiles_left[side] += sign * len(placed)
        return key

    # --- search ----------------------------------------------------------------------------
    def negamax(self, side: int, depth: int, alpha: int, beta: int, scoreless: int,
                key: int):
        """(value, line) of the position for `side` to move; line a tuple of plays and PASS.

        The value is exact inside (alpha, beta), else a bound on the side beyond it.
        """
        self.nodes += 1
        if self.deadline is not None and self.nodes % _CLOCK_NODES == 0 \
                and time.perf_counter() > self.deadline:
            raise _OutOfTime
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
        other = 1 - side
        cuts_before = self.cuts
        window_low = alpha
        best, best_move, best_line = -_INFINITY, None, ()
        for move in self.ordered_moves(side, first):
            value, line = self._child(side, other, move, depth, alpha, beta, scoreless, key)
            if value > best:
                best, best_move, best_line = value, move, (move,) + line
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
        flag = _UPPER if best <= window_low else _LOWER if best >= beta else _EXACT
        stored_depth = _COMPLETE if self.cuts == cuts_before else depth
        self.table[key] = (stored_depth, flag, best, best_move,
                           best_line if flag == _EXACT else ())
        return best, best_line

    def _child(self, side, other, move, depth, alpha, beta, scoreless, key):
        """(value for `side`, line after the move) of one move."""
        if move == PASS:
            score, placed = 0, ()
        else:
            score, placed = move[R_SCORE], play_tiles(move, self.cells, self.size)
            key = self._move_tiles(side, placed, key, put=True)
        try:
            if placed and not self.tiles_left[side]:
                return score + 2 * self.rack_value[other], ()
            after = 0 if score else scoreless + 1
            if after >= self.limit:
                return score - self.rack_value[side] + self.rack_value[other], ()
            child_key = key ^ self.z_side ^ self.z_scoreless[scoreless] ^ \
                self.z_scoreless[after]
            value, line = self.negamax(other, depth - 1, score - beta, score - alpha, after,
                                       child_key)
            return score - value, line
        finally:
            if placed:
                self._move_tiles(side, placed, key, put=False)

    def solve(self, plies: int | None = None, seconds: float | None = None):
        """Iterative deepening: (value, line, exact, depth) of the deepest finished round.

        The first round always finishes; later ones stop at `seconds` or after `plies`.
        """
        key = self.root_key()
        found = None
        depth = 1
        started = time.perf_counter()
        while True:
            self.deadline = None if seconds is None or found is None else started + seconds
            cuts_before = self.cuts
            try:
                value, line = self.negamax(0, depth, -_INFINITY, _INFINITY, self.scoreless, key)
            except _OutOfTime:
                break
            exact = self.cuts == cuts_before
            found = (value, line, exact, depth)
            if exact or (plies is not None and depth >= plies):
                break
            depth += 1
        return found


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
    held = held_tiles(cw, board, racks)
    in_bag = rules.total_tiles - sum(held.values())
    if in_bag:
        raise BadInput(f"{in_bag} tiles are still in the bag (the board and both racks hold "
                       f"{sum(held.values())} of {rules.total_tiles}): an endgame needs the "
                       "bag empty; use simulate while it is not")


def check_budget(seconds=None, plies=None, iterations=None) -> None:
    """Refuse a search budget that is not positive.

    Raises:
        BadInput: seconds, plies or iterations given and not above 0.
    """
    for name, value in (("seconds", seconds), ("plies", plies), ("iterations", iterations)):
        if value is not None and not value > 0:
            raise BadInput(f"{name} must be positive, not {value}")


def solve_endgame(engine, board: Board, rack: str, opponent_rack: str,
                  seconds: float | None = None, plies: int | None = None, scoreless: int = 0,
                  checked: bool = True) -> EndgameResult:
    """Solve an endgame (module docstring): CrosswordGame.endgame.

    Args:
        engine: the game's MoveEngine (lookup/engine.py move_engine).
        board: the position.
        rack, opponent_rack: the side to move's tiles and the opponent's ("?" a blank).
        seconds: stop deepening after this much time (the first round always finishes).
        plies: search at most this deep.
        scoreless: scoreless turns in a row before the position.
        checked: refuse positions whose bag is not empty (check_endgame); False solves any
            two racks, as if the tiles the board and racks lack were out of the game.

    Raises:
        BadInput: see check_endgame and check_budget.
    """
    check_budget(seconds=seconds, plies=plies)
    if checked:
        check_endgame(engine.cw, board, rack, opponent_rack)
    search = EndgameSearch(engine, engine.cells(board),
                           [engine.rack_counts(rack, board), engine.rack_counts(opponent_rack,
                                                                                board)],
                           scoreless)
    started = time.perf_counter()
    value, line, exact, depth = search.solve(plies=plies, seconds=seconds)
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
