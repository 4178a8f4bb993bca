"""A crossword move: a placement of tiles in one line ("play"), a multi-word turn ("turn",
Erudit), an exchange, or a pass.

The move generator lists tens of thousands of moves per position, so a Move holds only what
it was generated with (square, direction, the main word's tile codes, which new tiles are
blanks, the board) and works out its words and new tiles on first use. A turn is the plays it
is laid as (`parts`), each on the board the parts before it leave.
"""

from lookup.crossword.board import BLANK, Board, run_bounds, runs_through, tile_letter, tile_text

# Board squares from one letter of a word to the next, by direction.
STEPS = {"H": (0, 1), "V": (1, 0)}


class Move:
    """One move: a placement of tiles in one line ("play"), a multi-word turn ("turn"), an
    exchange, or a pass.

    Attributes:
        kind: "play", "turn", "exchange" or "pass".
        row, col: 0-based square of the main word's first letter (None unless a play).
        direction: "H" (across) or "V" (down) (None unless a play).
        score: points the move scores.
        exchanged: the tiles an exchange returns to the bag ("?" for a blank), else "".
        parts: a turn's plays in an order in which they can be laid, each a Move of kind
            "play" on the board the parts before it leave (its own score is its score there);
            () unless a turn.
        leave, equity: with moves(by="equity"), the value of the tiles the move keeps and
            the move's equity (lookup/crossword/equity.py); None otherwise.
    Computed on first use (a position can have tens of thousands of moves):
        word: the main word, lowercase ("" unless a play).
        placed: the new tiles, [(row, col, letter, is_blank)], in reading order.
        words: every word formed. A play: the main word first, then each cross word of two
            letters or more in the order of the tiles that form them. A turn: every run of
            two tiles or more holding a new tile, the runs across first, then down.
    """

    __slots__ = ("kind", "row", "col", "direction", "score", "exchanged", "parts", "leave",
                 "equity", "_plain", "_blanks", "_board", "_cache")

    def __init__(self, kind: str, row=None, col=None, direction=None, score: int = 0,
                 exchanged: str = "", codes: tuple = (), board: Board | None = None,
                 blanks: int = 0, parts: tuple = ()):
        self.kind = kind
        self.row = row
        self.col = col
        self.direction = direction
        self.score = score
        self.exchanged = exchanged
        self.parts = tuple(parts)
        self.leave = None
        self.equity = None
        # The main word's tile codes, plus bit i of `blanks` for a blank at position i (the
        # generator lists many moves; the codes with blank bits are made on first use).
        self._plain = codes
        self._blanks = blanks
        self._board = board
        self._cache = None

    @property
    def _codes(self) -> tuple:
        if not self._blanks:
            return self._plain
        return tuple(code | BLANK if self._blanks >> i & 1 else code
                     for i, code in enumerate(self._plain))

    def _details(self):
        if self._cache is None:
            if self.kind == "play":
                self._cache = _play_details(self._board, self.row, self.col, self.direction,
                                            self._codes)
            elif self.kind == "turn":
                self._cache = _turn_details(self.parts)
            else:
                self._cache = ("", [], [])
        return self._cache

    @property
    def word(self) -> str:
        """The main word, lowercase."""
        return self._details()[0]

    @property
    def placed(self) -> list:
        """New tiles: [(row, col, letter, is_blank)]."""
        return self._details()[1]

    @property
    def words(self) -> list:
        """Every word formed, main word first."""
        return self._details()[2]

    def key(self) -> tuple:
        """Identity of the move: kind, square, direction, tile codes, exchanged tiles; a turn:
        its new tiles.
        """
        if self.kind == "turn":
            return (self.kind, tuple(self.placed))
        return (self.kind, self.row, self.col, self.direction, self._codes, self.exchanged)

    def __eq__(self, other):
        """Equal kind, squares, tiles and score."""
        return isinstance(other, Move) and self.key() == other.key() and self.score == other.score

    def __hash__(self):
        """Hash of key()."""
        return hash(self.key())

    def used_tiles(self) -> list[int]:
        """The rack tiles a play uses: each new tile's code, 0 for a blank ([] unless a play)."""
        if self.kind != "play":
            return []
        n = self._board.size
        dr, dc = STEPS[self.direction]
        cells = self._board.cells
        return [0 if self._blanks >> k & 1 else code for k, code in enumerate(self._plain)
                if not cells[(self.row + k * dr) * n + self.col + k * dc]]

    def notation(self) -> str:
        """Short text: "H 7,3 caT 10" (blanks uppercase), a turn "H 7,3 cat + V 8,5 tOn 31"
        (its parts, then its score), "exchange abc", "pass".
        """
        if self.kind == "exchange":
            return f"exchange {self.exchanged}"
        if self.kind == "pass":
            return "pass"
        if self.kind == "turn":
            return " + ".join(part._line() for part in self.parts) + f" {self.score}"
        return f"{self._line()} {self.score}"

    def _line(self) -> str:
        """A play's notation without its score: "H 7,3 caT"."""
        letters = "".join(tile_text(self._board.alphabet, code) for code in self._codes)
        return f"{self.direction} {self.row},{self.col} {letters}"

    def __repr__(self):
        """Move('H 7,3 Zebra 12')."""
        return f"Move({self.notation()!r})"

    def to_dict(self) -> dict:
        """A JSON-ready dict of every attribute (leave and equity only when set)."""
        data = {"kind": self.kind, "row": self.row, "col": self.col,
                "direction": self.direction, "word": self.word,
                "placed": [list(tile) for tile in self.placed], "words": self.words,
                "score": self.score, "exchanged": self.exchanged,
                "parts": [part.to_dict() for part in self.parts]}
        if self.equity is not None:
            data.update(leave=self.leave, equity=self.equity)
        return data


def _play_details(board: Board, row: int, col: int, direction: str, codes: tuple):
    """(main word, new tiles, every word formed) of a play; see Move."""
    n = board.size
    dr, dc = STEPS[direction]
    alphabet = board.alphabet
    word = "".join(tile_letter(alphabet, code) for code in codes)
    placed = []
    for k, code in enumerate(codes):
        r, c = row + k * dr, col + k * dc
        if not board.cells[r * n + c]:
            placed.append((r, c, tile_letter(alphabet, code), bool(code & BLANK)))
    after = board.with_tiles(placed)
    words = [word]
    cross_step = n if direction == "H" else 1
    for r, c, _letter, _blank in placed:
        cross = line_word(after, r * n + c, cross_step)
        if len(cross) >= 2:
            words.append(cross)
    return word, placed, words


def _turn_details(parts: tuple):
    """("", new tiles, every word formed) of a turn laid as `parts`; see Move."""
    board = parts[0]._board
    placed = sorted(tile for part in parts for tile in part.placed)
    after = board.with_tiles(placed)
    n = board.size
    runs = runs_through(after.cells, n, [row * n + col for row, col, _l, _b in placed])
    words = ["".join(tile_letter(board.alphabet, after.cells[j])
                     for j in range(first, last + 1, step)) for first, last, step in runs]
    return "", placed, words


def line_word(board: Board, index: int, step: int) -> str:
    """The letters of the run of tiles through square `index` along a row (step 1) or a column
    (step board.size); one letter when the tile has no neighbour on that line.
    """
    first, last = run_bounds(board.cells, board.size, index, step)
    return "".join(tile_letter(board.alphabet, board.cells[j])
                   for j in range(first, last + 1, step))
