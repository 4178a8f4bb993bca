"""The fast move engine: a crossword game's plays, all of them or the best by equity.

    engine = move_engine(cw)                 # compiled when numba is installed
    engine.plays(board, "retains")           # == [m for m in cw.moves(board, rack) if play]
    engine.best(board, "retains")            # == cw.moves(board, rack, top=1)[0] if a play
    engine.best(board, rack, leaves)         # the best by score + leave value

The work is done by lookup/crossword/engine_kernel.py, one source that CPython runs as it is
and numba compiles (lookup/crossword/engine_numba.py, used when numba can be imported: `pip
install wordpack[fast]`). With numba it is the game's move path (CrosswordGame.line_plays);
without, moves() runs lookup/crossword/movegen.py (movegen.py says why), and the engine, still
used by self-play and look-ahead, runs uncompiled, only slower. The engine lists the same plays
with the same scores as movegen.py (tests/test_engine.py checks it on every committed self-play
position of every game, with 0, 1 and 2 blanks).

For callers that play many positions (lookup/play/game.py), `search_cells` takes the board
as tile codes of the lexicon (`cells`, row-major) and the rack as counts (`rack_counts`), and
returns raw records (lookup/crossword/engine_kernel.py), avoiding Board and Move objects.
"""

import functools
import importlib.util

import numpy as np

from lookup.crossword.board import LETTER_MASK, Board
from lookup.crossword.engine_kernel import (
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
    R_LEAVE,
    R_LENGTH,
    R_LINE,
    R_SCORE,
    R_START,
    RECORD_FIELDS,
    fill_leave_table,
    leave_slot,
    search,
    sub_leave_keys,
)
from lookup.crossword.move import Move
from lookup.crossword.movegen import transposed
from lookup.crossword.tiles import key_of_codes
from lookup.errors import BadInput

_DIRECTIONS = ("H", "V")
# Leave keys are base-64 numbers in an int64 (lookup/crossword/engine_kernel.py).
MAX_LEAVE_TILES = 9
# rank_by_equity (lookup/crossword/equity.py) rounds equities to 4 decimals: play_tuples keeps
# every play within this of its cutoff, so that rounding never turns a dropped play into a tie.
EQUITY_MARGIN = 1e-3
# Records an engine first makes room for; a position with more is searched again with room
# for all, which the engine keeps for the next ones.
_FIRST_CAPACITY = 4096


def numba_available() -> bool:
    """Whether numba is installed (the compiled path)."""
    return importlib.util.find_spec("numba") is not None


def record_play(rows: list, at: int = 0) -> tuple:
    """The play recorded at rows[at:] (engine_kernel's record, as a list) as line_plays lists
    plays: (-score, direction, line, start, main word codes, blank bits).
    """
    return (-rows[at + R_SCORE], rows[at + R_DIRECTION], rows[at + R_LINE], rows[at + R_START],
            tuple(rows[at + RECORD_FIELDS:at + RECORD_FIELDS + rows[at + R_LENGTH]]),
            rows[at + R_BLANKS])


def _gaddag_table(values) -> np.ndarray:
    """The GADDAG's arcs or node masks for the compiled kernel: int32 when every entry fits (29
    bits on the games' lexicons), else int64. Half the bytes the walk reads at random: a
    simulation line's searches ran 15-20 % quicker, with the same plays.
    """
    table = np.asarray(values, dtype=np.int64)
    if len(table) and (table.min() < 0 or table.max() > np.iinfo(np.int32).max):
        return table
    return table.astype(np.int32)


class LeaveTable:
    """Leave values for the engine's search: an open-addressing table by leave key.

    Attributes:
        keys, values: the table (lookup/crossword/engine_kernel.leave_slot), length a power of two.
        max_value: the largest value (0.0 when every value is negative or the table empty):
            what the search adds to a score bound before pruning.
    """

    def __init__(self, keys, values, max_value: float):
        self.keys = keys
        self.values = values
        self.max_value = max_value


class MoveEngine:
    """The move engine of one crossword game.

    Args:
        cw: the game (lookup/crossword/game.py CrosswordGame); its lexicon is loaded now.
        compiled: True for numba, False for pure Python, None for numba when available.
    """

    def __init__(self, cw, compiled: bool | None = None):
        if compiled is None:
            compiled = numba_available()
        self.cw = cw
        self.compiled = compiled
        rules = cw.rules
        lexicon = cw.lexicon()
        tables = lexicon.tables
        layout = rules.layout
        size = layout.size
        self.size = size
        self.lexicon = lexicon
        # Game code k (alphabet[k - 1]) is lexicon code to_lex[k]; the blank bit is kept.
        self.to_lex = lexicon.to_lexicon
        self.to_game = lexicon.to_game
        if rules.rack_size > MAX_LEAVE_TILES + 1:
            raise BadInput(f"{rules.id}: racks of {rules.rack_size} tiles; the engine handles "
                           f"at most {MAX_LEAVE_TILES + 1}")
        if len(tables.alphabet) >= 63:
            raise BadInput(f"lexicon {rules.lexicon} has {len(tables.alphabet)} letters; the "
                           "engine handles at most 62")
        params = [0] * PARAMS
        params[P_SIZE] = size
        params[P_START] = layout.start[0] * size + layout.start[1]
        params[P_RACK_SIZE] = rules.rack_size
        params[P_BINGO] = rules.bingo
        params[P_MIN_LENGTH] = rules.min_word_length
        params[P_MAX_LENGTH] = rules.max_word_length
        params[P_ALL_LETTERS] = lexicon.all_letters
        params[P_ROOT] = tables.root
        self.values = lexicon.values
        order = transposed(list(range(size * size)), size)
        letter_mult = list(layout.letter_mult) + transposed(layout.letter_mult, size)
        word_mult = list(layout.word_mult) + transposed(layout.word_mult, size)
        constants = (params, tables.arcs, tables.node_mask, self.values, letter_mult, word_mult,
                     order)
        if compiled:
            from lookup.crossword.engine_numba import compiled_kernel

            kernel = compiled_kernel()
            self._search = kernel["search"]
            self._fill_leave_table = kernel["fill_leave_table"]
            self._sub_leave_keys = kernel["sub_leave_keys"]
            # One array for both, as the index lays them out (GaddagTables: arcs are the node
            # masks' words one position on), so that a node's tile mask and its first arcs
            # share a cache line; two copies kept them a table apart (searches 2-18 % slower,
            # bench/results.md "lookahead") and twice the memory.
            words = _gaddag_table(tables.node_mask)
            self._constants = (np.asarray(params, dtype=np.int64), words[1:], words,
                               *(np.asarray(c, dtype=np.int64) for c in constants[3:]))
        else:
            self._search = search
            self._fill_leave_table = fill_leave_table
            self._sub_leave_keys = sub_leave_keys
            self._constants = tuple(list(c) for c in constants)
        self._to_lex_array = np.asarray(self.to_lex, dtype=np.int64)
        self._empty_leaves = LeaveTable(self._ints(0), self._floats(0), 0.0)
        self.width = RECORD_FIELDS + size
        self._buffer = self._ints(_FIRST_CAPACITY * self.width)

    @property
    def kernel_constants(self) -> tuple:
        """The game's constants as the kernel's functions take them, in order: params, arcs,
        node_mask, values, letter_mult, word_mult, order (engine_kernel.search's first seven
        arguments; numpy arrays when compiled, the GADDAG's int32 when it fits, else lists).
        Kernels built on the engine (lookup/crossword/endgame_kernel.py, sim_kernel.py) take
        them too.
        """
        return self._constants

    @property
    def empty_leaves(self) -> LeaveTable:
        """The LeaveTable with no leaves (every leave worth 0.0)."""
        return self._empty_leaves

    def lexicon_codes(self, game_codes):
        """The lexicon codes of game tile codes (an int array; the blank stays 0)."""
        return self._to_lex_array[np.asarray(game_codes, dtype=np.int64)]

    def _ints(self, n: int):
        return np.zeros(n, dtype=np.int64) if self.compiled else [0] * n

    def _floats(self, n: int):
        return np.zeros(n, dtype=np.float64) if self.compiled else [0.0] * n

    # --- codes -----------------------------------------------------------------------------
    def cells(self, board: Board):
        """The board's tiles as lexicon codes, row-major (what search_cells takes)."""
        cells = self.lexicon.cells(board)
        return np.asarray(cells, dtype=np.int64) if self.compiled else cells

    def empty_rack(self):
        """Zero counts of every lexicon code (rack_counts' layout)."""
        return self._ints(LETTER_MASK + 1)

    def rack_counts(self, rack: str, board: Board | None = None):
        """Count of each lexicon code in a rack, index 0 the blanks (what search_cells takes).

        Raises:
            BadInput: see CrosswordGame.parse_rack.
        """
        counts = self.lexicon.rack_counts(self.cw.rack_codes(rack, board))
        return np.asarray(counts, dtype=np.int64) if self.compiled else counts

    def leave_key(self, tiles: str) -> int:
        """The key of a leave ("?" a blank), whatever the order of its tiles."""
        if len(tiles) > MAX_LEAVE_TILES:
            raise BadInput(f"a leave of {len(tiles)} tiles is too long; at most "
                           f"{MAX_LEAVE_TILES}")
        return key_of_codes([self.to_lex[code] for code in self.cw.tiles.codes(tiles, "leave")])

    def leave_table(self, values: dict) -> LeaveTable:
        """A LeaveTable from {leave tiles ("?" a blank): value in points}."""
        return self.keyed_leave_table([self.leave_key(tiles) for tiles in values],
                                      [float(value) for value in values.values()])

    def keyed_leave_table(self, keys, values) -> LeaveTable:
        """A LeaveTable from distinct leave keys (leave_key) and their values in points."""
        capacity = 8
        while capacity < 2 * len(keys):
            capacity *= 2
        slots, table = self._ints(capacity), self._floats(capacity)
        if self.compiled:
            keys = np.asarray(keys, dtype=np.int64)
            values = np.asarray(values, dtype=np.float64)
        else:  # Python ints: the hash's product must not wrap (engine_kernel.leave_slot)
            keys, values = [int(k) for k in keys], [float(v) for v in values]
        self._fill_leave_table(keys, values, slots, table)
        largest = float(np.max(values)) if len(values) else 0.0
        return LeaveTable(slots, table, max(0.0, largest))

    def sub_leave_keys(self, rack) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Every distinct multiset of tiles a rack can keep (lookup/crossword/equity.sub_leaves
        order): its leave key in game codes (lookup/crossword/leaves.py), its key in lexicon codes
        (what a LeaveTable holds) and its tile count.

        Args:
            rack: game tile codes (0 a blank), in any order.
        """
        room = 1 << len(rack)
        if self.compiled:
            game_keys, lex_keys, sizes = (np.zeros(room, dtype=np.int64) for _ in range(3))
            count = self._sub_leave_keys(np.sort(np.asarray(rack, dtype=np.int64)),
                                         self._to_lex_array, game_keys, lex_keys, sizes)
            return game_keys[:count], lex_keys[:count], sizes[:count]
        game_keys, lex_keys, sizes = [0] * room, [0] * room, [0] * room
        count = self._sub_leave_keys(sorted(rack), self.to_lex, game_keys, lex_keys, sizes)
        return (np.array(game_keys[:count], dtype=np.int64),
                np.array(lex_keys[:count], dtype=np.int64), np.array(sizes[:count]))

    # --- search ----------------------------------------------------------------------------
    def search_cells(self, cells, rack_counts, best: bool = False,
                     leaves: LeaveTable | None = None, played: set | None = None):
        """Raw records of a position (lookup/crossword/engine_kernel.py).

        Under repeat_words = false the plays that form a word on the board, or one of
        `played` (words as strings, e.g. those on the board when a turn of several parts
        began: a part may have extended one), or one word twice, are left out.

        Returns:
            best=False: (records, count): every play, records of `width` int64s.
            best=True: (record, equity) of the best play by equity, or (None, None).
        """
        leaves = leaves or self._empty_leaves
        if not best:
            if not self.cw.rules.repeat_words:
                return self._search_without_repeats(cells, rack_counts, best, leaves, played)
            return self._all_plays(cells, rack_counts, leaves)
        out = self._ints(self.width)
        equity = self._floats(1)
        found = self._search(*self._constants, cells, rack_counts, leaves.keys,
                             leaves.values, leaves.max_value, BEST_PLAY, out, equity)
        if not found:
            return None, None
        # The best play is also the best unrepeated one unless it repeats a word (rare): only
        # then are all plays listed and filtered.
        if not self.cw.rules.repeat_words:
            as_list = out.tolist() if self.compiled else out
            board = [int(c) for c in cells]
            if self._repeats(as_list, 0, board, self._board_words(board) | (played or set())):
                return self._search_without_repeats(cells, rack_counts, best, leaves, played)
        return out, equity[0]

    def _all_plays(self, cells, rack_counts, leaves: LeaveTable):
        """(records, count) of every play, the records a copy the caller owns."""
        # One buffer reused (a fresh one of this size costs more than a search to zero).
        while True:
            out = self._buffer
            count = self._search(*self._constants, cells, rack_counts, leaves.keys,
                                 leaves.values, leaves.max_value, ALL_PLAYS, out,
                                 self._floats(1))
            if count * self.width <= len(out):
                used = out[:count * self.width]  # a list slice is a copy already
                return (used.copy() if self.compiled else used), count
            self._buffer = self._ints(count * self.width)

    def _search_without_repeats(self, cells, rack_counts, best: bool, leaves: LeaveTable,
                                played: set | None):
        """search_cells under repeat_words = false (Erudit): the kernel knows nothing of the
        words on the board, so its plays are filtered here, and the best taken among the rest
        by equity, ties in the order of CrosswordGame.moves.
        """
        rows, count = self._all_plays(cells, rack_counts, leaves)
        rows = rows.tolist() if self.compiled else rows
        cells = [int(c) for c in cells]
        played = self._board_words(cells) | (played or set())
        width = self.width
        kept = [at for at in range(0, count * width, width)
                if not self._repeats(rows, at, cells, played)]
        if not best:
            filtered = self._ints(len(kept) * width)
            for k, at in enumerate(kept):
                filtered[k * width:(k + 1) * width] = rows[at:at + width]
            return filtered, len(kept)
        if not kept:
            return None, None

        def order(at):
            equity = float(rows[at + R_SCORE])
            if len(leaves.keys):
                slot = leave_slot(leaves.keys, rows[at + R_LEAVE])
                if leaves.keys[slot] == rows[at + R_LEAVE]:
                    equity += float(leaves.values[slot])
            length = rows[at + R_LENGTH]
            return (-equity, -rows[at + R_SCORE], rows[at + R_DIRECTION], rows[at + R_LINE],
                    rows[at + R_START], tuple(rows[at + RECORD_FIELDS:at + RECORD_FIELDS + length]),
                    rows[at + R_BLANKS]), equity

        (_key, equity), at = min((order(at), at) for at in kept)
        record = self._ints(width)
        record[:] = rows[at:at + width]
        return record, equity

    def _letter(self, code: int) -> str:
        return self.cw.alphabet[self.to_game[code & LETTER_MASK] - 1]

    def _board_words(self, cells: list) -> set:
        """Every run of two tiles or more on the board, across and down, as words."""
        n = self.size
        words = set()
        for line in range(n):
            for step, square in ((1, lambda k: line * n + k), (n, lambda k: k * n + line)):
                run = ""
                for k in range(n + 1):
                    code = cells[square(k)] if k < n else 0
                    if code:
                        run += self._letter(code)
                        continue
                    if len(run) >= 2:
                        words.add(run)
                    run = ""
        return words

    def _repeats(self, rows: list, at: int, cells: list, played: set) -> bool:
        """Whether the play at rows[at:] forms a word already on the board, or one word twice."""
        n = self.size
        across = rows[at + R_DIRECTION] == 0
        line, start, length = rows[at + R_LINE], rows[at + R_START], rows[at + R_LENGTH]
        codes = rows[at + RECORD_FIELDS:at + RECORD_FIELDS + length]
        words = ["".join(self._letter(c) for c in codes)]
        for q in range(length):
            row, col = (line, start + q) if across else (start + q, line)
            if cells[row * n + col]:
                continue
            # The cross word through the new tile runs down for a play across, and across
            # for a play down.
            dr, dc = (1, 0) if across else (0, 1)
            r, c = row, col
            while 0 <= r - dr and 0 <= c - dc and cells[(r - dr) * n + c - dc]:
                r, c = r - dr, c - dc
            letters = []
            while r < n and c < n and (cells[r * n + c] or (r, c) == (row, col)):
                letters.append(self._letter(codes[q]) if (r, c) == (row, col)
                               else self._letter(cells[r * n + c]))
                r, c = r + dr, c + dc
            if len(letters) >= 2:
                words.append("".join(letters))
        return any(word in played for word in words) or len(set(words)) < len(words)

    def play_tuples(self, cells, rack_counts, top: int | None = None,
                    leave_values: dict | None = None) -> list:
        """Every single-line play of a position whatever the game's repeat_words (the turn
        search judges repeats on the whole turn), as lookup/crossword/movegen.generate lists them:
        (-score, direction, line, start, main word codes, blank bits), sorted, so best first
        with its ties' order. `cells` and `rack_counts` as search_cells takes them (lists
        are converted).

        With `top`, only the plays that can be among the best `top` are kept, which spares
        building and sorting thousands of tuples when a caller wants ten: without
        `leave_values`, those scoring at least the top-th best score (all of that score, so
        ties keep their order: the list starts with the same `top` plays); with
        `leave_values` ({leave key in lexicon codes: value}, every key the rack can keep, as
        sub_leave_keys lists them), those whose score + leave value is within EQUITY_MARGIN of
        the top-th best such sum, still in score order, for the caller to rank by equity.
        """
        if self.compiled:
            cells = np.asarray(cells, dtype=np.int64)
            rack_counts = np.asarray(rack_counts, dtype=np.int64)
        rows, count = self._all_plays(cells, rack_counts, self._empty_leaves)
        width = self.width
        starts = range(0, count * width, width)
        if self.compiled:
            if top is not None and count > top:
                worth = rows[R_SCORE:count * width:width].astype(np.float64)
                cutoff_margin = 0.0
                if leave_values is not None:
                    keys, inverse = np.unique(rows[R_LEAVE:count * width:width],
                                              return_inverse=True)
                    worth += np.array([leave_values[k] for k in keys.tolist()])[inverse]
                    cutoff_margin = EQUITY_MARGIN
                cutoff = np.partition(worth, count - top)[count - top] - cutoff_margin
                starts = (np.flatnonzero(worth >= cutoff) * width).tolist()
            rows = rows.tolist()
        plays = [record_play(rows, at) for at in starts]
        plays.sort()
        return plays

    def move(self, record, board: Board, at: int = 0):
        """The lookup Move of the record at out[at:]."""
        line = int(record[at + R_LINE])
        start = int(record[at + R_START])
        row, col = (line, start) if record[at + R_DIRECTION] == 0 else (start, line)
        to_game = self.to_game
        codes = tuple(to_game[int(c)] for c in
                      record[at + RECORD_FIELDS:at + RECORD_FIELDS + int(record[at + R_LENGTH])])
        return Move("play", row, col, _DIRECTIONS[int(record[at + R_DIRECTION])],
                    int(record[at + R_SCORE]), "", codes, board, int(record[at + R_BLANKS]))

    def plays(self, board: Board, rack: str) -> list:
        """Every play of the position, in the order of CrosswordGame.moves.

        Raises:
            BadInput: a rack the game or the board does not allow.
        """
        out, count = self.search_cells(self.cells(board), self.rack_counts(rack, board))
        rows = out[:count * self.width]
        if self.compiled:
            rows = rows.tolist()
        width = self.width
        keyed = [(*record_play(rows, at), at) for at in range(0, count * width, width)]
        keyed.sort()
        return [self.move(rows, board, item[-1]) for item in keyed]

    def best(self, board: Board, rack: str, leaves: LeaveTable | None = None):
        """The best play by score (+ leave value with `leaves`), ties broken as in
        CrosswordGame.moves; None when there is no play.

        Raises:
            BadInput: a rack the game or the board does not allow.
        """
        record, _equity = self.search_cells(self.cells(board), self.rack_counts(rack, board),
                                            best=True, leaves=leaves)
        return None if record is None else self.move(record, board)


@functools.lru_cache(maxsize=8)
def move_engine(cw, compiled: bool | None = None) -> MoveEngine:
    """The (cached) engine of a game; compiled when numba is available unless told."""
    return MoveEngine(cw, compiled)
