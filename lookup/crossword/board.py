"""Crossword boards: the premium layout, the tiles on the board, and the board text format.

Tile encoding, used by every crossword module (board, cross_check, movegen, scoring):

| code                    | meaning                                             |
|-------------------------|-----------------------------------------------------|
| 0                       | empty square                                        |
| k (1 .. len(alphabet))  | a tile of the letter alphabet[k - 1]                |
| k | BLANK (0x40)        | a blank standing for alphabet[k - 1]; it scores 0   |

Codes index the game's alphabet (its tile letters in code point order). The move generator
translates them to the lexicon's GADDAG codes, which number the same letters the same way when
the alphabets agree (they do for every shipped game).

Board text: `size` lines of `size` squares, `.` an empty square, a lowercase letter a tile, an
UPPERCASE letter a blank standing for that letter. Spaces inside a line are ignored, so
`c a t . .` and `cat..` are the same row. Example (first rows of a Scrabble board)::

    ...............
    .......caT.....

Rows and columns are 0-based everywhere (in moves, errors and the API).
"""

from dataclasses import dataclass

from lookup.errors import BadInput

BLANK = 0x40
LETTER_MASK = 0x3F
EMPTY_SQUARE = "."

# Premium tokens of a rules file, with (letter multiplier, word multiplier).
PREMIUMS = {".": (1, 1), "DL": (2, 1), "TL": (3, 1), "DW": (1, 2), "TW": (1, 3)}


@dataclass(frozen=True)
class Layout:
    """The board's geometry and premium squares.

    Attributes:
        size: squares per side (15).
        start: (row, col) the first move must cover.
        premiums: premium token of every square, row-major: ".", "DL", "TL", "DW" or "TW".
        letter_mult: letter multiplier of every square, row-major (1, 2 or 3).
        word_mult: word multiplier of every square, row-major (1, 2 or 3).
    """

    size: int
    start: tuple[int, int]
    premiums: tuple[str, ...]
    letter_mult: tuple[int, ...]
    word_mult: tuple[int, ...]

    @classmethod
    def from_rows(cls, rows, start, where: str = "board") -> "Layout":
        """Build a layout from grid rows of premium tokens separated by spaces.

        Raises:
            BadInput: a ragged or non-square grid, an unknown token, a start off the board.
        """
        grid = [str(row).split() for row in rows]
        size = len(grid)
        if size < 2:
            raise BadInput(f"{where}: the grid has {size} rows; need at least 2")
        for r, tokens in enumerate(grid):
            if len(tokens) != size:
                raise BadInput(f"{where}: row {r} has {len(tokens)} squares; need {size}")
            for c, token in enumerate(tokens):
                if token not in PREMIUMS:
                    known = " ".join(PREMIUMS)
                    raise BadInput(f"{where}: row {r} col {c}: unknown premium {token!r} "
                                   f"(use one of {known})")
        row, col = start
        if not (0 <= row < size and 0 <= col < size):
            raise BadInput(f"{where}: start square ({row}, {col}) is off the {size}x{size} board")
        premiums = tuple(token for tokens in grid for token in tokens)
        return cls(size, (row, col), premiums,
                   tuple(PREMIUMS[p][0] for p in premiums),
                   tuple(PREMIUMS[p][1] for p in premiums))

    def counts(self) -> dict[str, int]:
        """Number of squares of each premium, plain squares under "."."""
        counts = dict.fromkeys(PREMIUMS, 0)
        for token in self.premiums:
            counts[token] += 1
        return counts

    def is_symmetric(self) -> bool:
        """True when the premiums are symmetric under both mirrors and the transpose."""
        n = self.size
        p = self.premiums
        return all(p[r * n + c] == p[r * n + n - 1 - c] == p[(n - 1 - r) * n + c] == p[c * n + r]
                   for r in range(n) for c in range(n))


@dataclass(frozen=True)
class Board:
    """Tiles on a board (immutable). `cells` holds one code per square, row-major.

    Attributes:
        size: squares per side.
        alphabet: the game's letters; code k is alphabet[k - 1].
        cells: size * size tile codes (0 empty, k a letter, k | BLANK a blank).
    """

    size: int
    alphabet: str
    cells: tuple[int, ...]

    def letter(self, row: int, col: int) -> str:
        """The letter at (row, col), lowercase even for a blank; "" when empty."""
        code = self.cells[row * self.size + col]
        return tile_letter(self.alphabet, code) if code else ""

    def is_blank(self, row: int, col: int) -> bool:
        """True when (row, col) holds a blank."""
        return bool(self.cells[row * self.size + col] & BLANK)

    def is_empty(self) -> bool:
        """True when no tile is on the board."""
        return not any(self.cells)

    def tiles(self):
        """Yield (row, col, letter, is_blank) for every tile, row by row."""
        n = self.size
        for index, code in enumerate(self.cells):
            if code:
                yield index // n, index % n, tile_letter(self.alphabet, code), bool(code & BLANK)

    def text(self) -> str:
        """The board in the text format parse_board reads (one line per row, newline-ended)."""
        n = self.size
        squares = [tile_text(self.alphabet, code) for code in self.cells]
        return "".join("".join(squares[r * n:(r + 1) * n]) + "\n" for r in range(n))

    def with_tiles(self, placed) -> "Board":
        """A new board with tiles added: `placed` is (row, col, letter, is_blank) tuples.

        Raises:
            BadInput: a square off the board or already taken, or a letter not in the alphabet.
        """
        cells = list(self.cells)
        for row, col, letter, is_blank in placed:
            if not (0 <= row < self.size and 0 <= col < self.size):
                raise BadInput(f"square row {row} col {col} is off the board")
            if cells[row * self.size + col]:
                raise BadInput(f"square row {row} col {col} is already taken")
            code = self.alphabet.find(letter) + 1
            if not code or len(letter) != 1:
                raise BadInput(f"{letter!r} is not a letter of this game ({self.alphabet})")
            cells[row * self.size + col] = code | (BLANK if is_blank else 0)
        return Board(self.size, self.alphabet, tuple(cells))


def tile_letter(alphabet: str, code: int) -> str:
    """The letter of a tile code (non-zero), lowercase even for a blank."""
    return alphabet[(code & LETTER_MASK) - 1]


def tile_text(alphabet: str, code: int) -> str:
    """A square in the board text format: "." empty, a lowercase tile, an UPPERCASE blank."""
    if not code:
        return EMPTY_SQUARE
    letter = tile_letter(alphabet, code)
    return letter.upper() if code & BLANK else letter


def empty_board(size: int, alphabet: str) -> Board:
    """A board with no tiles."""
    return Board(size, alphabet, (0,) * (size * size))


def parse_board(text: str, *, layout: Layout, alphabet: str, counts: dict[str, int],
                blanks: int, game: str) -> Board:
    """Parse the board text format (module docstring) and check that the position can occur.

    Args:
        text: `layout.size` lines; blank lines before and after are ignored.
        layout: the game's layout (size, start square).
        alphabet: the game's letters.
        counts: tiles of each letter in the game's set.
        blanks: blanks in the game's set.
        game: game id, for messages.

    Returns:
        The board.

    Raises:
        BadInput: wrong size, an unknown symbol, a letter outside the alphabet, more tiles of a
            letter (or blanks) than the set has, tiles off the start square on an otherwise empty
            board, or tiles that touch nothing / are not connected to the rest.
    """
    n = layout.size
    lines = [line for line in text.splitlines()]
    while lines and not lines[-1].strip():
        lines.pop()
    while lines and not lines[0].strip():
        lines.pop(0)
    if len(lines) != n:
        raise BadInput(f"board has {len(lines)} lines; {game} needs {n} lines of {n} squares")
    cells = []
    for r, line in enumerate(lines):
        squares = "".join(line.split())
        if len(squares) != n:
            raise BadInput(f"board row {r} has {len(squares)} squares; {game} needs {n}")
        for c, ch in enumerate(squares):
            cells.append(_parse_square(ch, r, c, alphabet, game))
    board = Board(n, alphabet, tuple(cells))
    _check_counts(board, counts, blanks, game)
    _check_connected(board, layout.start)
    return board


def _parse_square(ch: str, r: int, c: int, alphabet: str, game: str) -> int:
    if ch == EMPTY_SQUARE:
        return 0
    lower = ch.lower()
    code = alphabet.find(lower) + 1 if len(lower) == 1 else 0
    if code and ch == lower:
        return code
    if code and ch == ch.upper() and ch != lower:
        return code | BLANK
    if ch.isalpha():
        raise BadInput(f"board row {r} col {c}: {ch!r} is not a letter of {game} "
                       f"(letters: {alphabet})")
    raise BadInput(f"board row {r} col {c}: unknown symbol {ch!r} (use '.', a lowercase "
                   "letter for a tile, an uppercase letter for a blank)")


def _check_counts(board: Board, counts: dict[str, int], blanks: int, game: str) -> None:
    used: dict[str, int] = {}
    used_blanks = 0
    for _r, _c, letter, is_blank in board.tiles():
        if is_blank:
            used_blanks += 1
        else:
            used[letter] = used.get(letter, 0) + 1
    for letter, n in sorted(used.items()):
        if n > counts.get(letter, 0):
            raise BadInput(f"board has {n} tiles {letter!r}; the {game} set has only "
                           f"{counts.get(letter, 0)}")
    if used_blanks > blanks:
        raise BadInput(f"board has {used_blanks} blanks (uppercase letters); the {game} set has "
                       f"only {blanks}")


def _check_connected(board: Board, start: tuple[int, int]) -> None:
    """Every tile must be reachable from the start square through adjacent tiles."""
    n = board.size
    cells = board.cells
    tiles = [i for i, code in enumerate(cells) if code]
    if not tiles:
        return
    start_index = start[0] * n + start[1]
    if not cells[start_index]:
        r, c = divmod(tiles[0], n)
        raise BadInput(f"board has tiles (first at row {r} col {c}) but the start square "
                       f"row {start[0]} col {start[1]} is empty: the first move covers it")
    for index in tiles:
        if not any(cells[j] for j in neighbours(index, n)):
            r, c = divmod(index, n)
            raise BadInput(f"tile {board.letter(r, c)!r} at row {r} col {c} touches no other tile")
    seen = {start_index}
    frontier = [start_index]
    while frontier:
        index = frontier.pop()
        for j in neighbours(index, n):
            if cells[j] and j not in seen:
                seen.add(j)
                frontier.append(j)
    for index in tiles:
        if index not in seen:
            r, c = divmod(index, n)
            raise BadInput(f"tile {board.letter(r, c)!r} at row {r} col {c} is not connected to "
                           "the tiles on the start square")


def neighbours(index: int, size: int) -> list[int]:
    """Indexes of the squares above, below, left of and right of square `index`."""
    r, c = divmod(index, size)
    out = []
    if r > 0:
        out.append(index - size)
    if r < size - 1:
        out.append(index + size)
    if c > 0:
        out.append(index - 1)
    if c < size - 1:
        out.append(index + 1)
    return out


def run_bounds(cells, size: int, index: int, step: int) -> tuple[int, int]:
    """First and last square of the run of tiles through square `index` along one line.

    `index` itself counts as a tile (it may be empty: the square of a tile about to be
    placed). `step` is 1 to walk a row, `size` to walk a column; the run never leaves that
    row or column.

    Returns:
        (first, last) square indexes, first <= index <= last, both on the line of `index`.
    """
    line_first = index % size if step == size else index - index % size
    line_last = line_first + step * (size - 1)
    first = index
    while first != line_first and cells[first - step]:
        first -= step
    last = index
    while last != line_last and cells[last + step]:
        last += step
    return first, last


def runs_through(cells, size: int, squares) -> list[tuple[int, int, int]]:
    """The maximal runs of two or more tiles that hold one of `squares`, each once.

    Args:
        cells: tile codes, row-major (the board with the tiles of `squares` on it).
        size: squares per side.
        squares: square indexes (tiles of `cells`).

    Returns:
        (first, last, step) per run: across runs (step 1) first, then down runs (step
        `size`), each group ordered by first square.
    """
    found = []
    for step in (1, size):
        runs = set()
        for index in squares:
            first, last = run_bounds(cells, size, index, step)
            if first != last:
                runs.add((first, last, step))
        found.extend(sorted(runs))
    return found
