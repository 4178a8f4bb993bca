"""Checking and scoring one placement of new tiles, whatever the move generator would list.

A placement is a list of new tiles (row, col, letter, is_blank), or a Move. `shape_problems`
checks the shape (one line, contiguous, touching the tiles on the board or covering the start
square, within the rack size) without the lexicon, and finds the direction; `word_problems`
checks every word formed against the lexicon and the length limits; `placement_score` scores
it with lookup/crossword/scoring.py, the rule the move generator uses too.
"""

from collections.abc import Callable

from lookup.crossword.board import BLANK, Board, neighbours, run_bounds
from lookup.crossword.move import STEPS, Move, line_word
from lookup.crossword.movegen import transposed
from lookup.crossword.rules import Rules
from lookup.crossword.scoring import board_tile_values, score_sheet, score_word
from lookup.errors import BadInput


def placed_tiles(placement) -> list:
    """The new tiles of a placement as [(row, col, letter, is_blank)].

    Raises:
        BadInput: neither a Move nor a list of 4-tuples.
    """
    if isinstance(placement, Move):
        return list(placement.placed)
    try:
        return [(int(r), int(c), str(letter), bool(blank)) for r, c, letter, blank in placement]
    except (TypeError, ValueError):
        raise BadInput("a placement is a list of (row, col, letter, is_blank)") from None


def shape_problems(rules: Rules, board: Board, placed: list) -> tuple[list[str], str | None]:
    """Reasons the placement is not a legal shape (ignoring the lexicon), and its direction.

    Returns:
        (reasons, "H" or "V"); the direction is None when the tiles are not in one line.
    """
    n = rules.layout.size
    reasons = square_problems(rules, board, placed)
    if reasons:
        return reasons, None
    rows = {row for row, _c, _l, _b in placed}
    cols = {col for _r, col, _l, _b in placed}
    if len(rows) > 1 and len(cols) > 1:
        return ["tiles not in one line"], None
    after = board.with_tiles(placed)
    first_row, first_col = min(placed)[:2]
    if len(rows) == 1 and (len(cols) > 1 or len(line_word(after, first_row * n + first_col, 1))
                           > 1):
        direction = "H"
    else:
        direction = "V"
    dr, dc = STEPS[direction]
    last = max(placed)[:2]
    row, col = first_row, first_col
    while (row, col) != last:
        row, col = row + dr, col + dc
        if not after.cells[row * n + col]:
            return [f"tiles not contiguous: row {row} col {col} is empty"], None
    start = rules.layout.start
    if board.is_empty():
        if start not in {(row, col) for row, col, _l, _b in placed}:
            reasons.append(f"first move must cover the start square row {start[0]} col "
                           f"{start[1]}")
    elif not any(board.cells[j] for row, col, _l, _b in placed
                 for j in neighbours(row * n + col, n)):
        reasons.append("not connected: no new tile touches a tile on the board")
    main = line_word(after, first_row * n + first_col, 1 if direction == "H" else n)
    if len(main) < rules.min_word_length:
        reasons.append(f"main word {main.upper()} is shorter than {rules.min_word_length} "
                       "letters")
    return reasons, direction


def square_problems(rules: Rules, board: Board, placed: list) -> list[str]:
    """Reasons the new tiles cannot go where they are: none, more than a rack, a square off the
    board, taken or used twice, a letter the game lacks.
    """
    n = rules.layout.size
    if not placed:
        return ["no tiles placed"]
    reasons = []
    if len(placed) > rules.rack_size:
        reasons.append(f"{len(placed)} tiles placed; a rack holds {rules.rack_size}")
    seen = set()
    for row, col, letter, _blank in placed:
        if not (0 <= row < n and 0 <= col < n):
            reasons.append(f"square row {row} col {col} is off the board")
        elif board.cells[row * n + col]:
            reasons.append(f"square row {row} col {col} already holds "
                           f"{board.letter(row, col)!r}")
        elif (row, col) in seen:
            reasons.append(f"two tiles on row {row} col {col}")
        if letter not in rules.counts:
            reasons.append(f"{letter!r} is not a letter of {rules.id}")
        seen.add((row, col))
    return reasons


def rack_problems(placed: list, rack: str, letters: dict, blanks: int) -> list[str]:
    """Reasons the rack `rack` (parsed: {letter: count} and blanks) cannot supply the tiles."""
    reasons = []
    for letter in sorted({p[2] for p in placed if not p[3]}):
        need = sum(1 for p in placed if not p[3] and p[2] == letter)
        if need > letters.get(letter, 0):
            reasons.append(f"rack {rack!r} has {letters.get(letter, 0)} {letter!r}, "
                           f"the placement uses {need}")
    need_blanks = sum(1 for p in placed if p[3])
    if need_blanks > blanks:
        reasons.append(f"rack {rack!r} has {blanks} blanks, the placement uses {need_blanks}")
    return reasons


def main_word_span(board: Board, placed: list, direction: str) -> tuple[int, int]:
    """First and last square index of the main word of a legal shape in `direction`."""
    n = board.size
    after = board.with_tiles(placed)
    row, col = min(placed)[:2]
    return run_bounds(after.cells, n, row * n + col, 1 if direction == "H" else n)


def word_problems(rules: Rules, board: Board, placed: list, direction: str,
                  is_word: Callable[[str], bool]) -> list[str]:
    """Reasons a placement of legal shape forms a word the game does not allow."""
    n = board.size
    first, last = main_word_span(board, placed, direction)
    after = board.with_tiles(placed)
    step = 1 if direction == "H" else n
    move = Move("play", first // n, first % n, direction,
                codes=tuple(after.cells[first:last + 1:step]), board=board)
    reasons = []
    for k, word in enumerate(move.words):
        what = "main word" if k == 0 else "cross word"
        if len(word) > rules.max_word_length:
            reasons.append(f"{what} {word.upper()} is longer than {rules.max_word_length} "
                           "letters")
        elif not is_word(word):
            reasons.append(f"{what} {word.upper()} is not a word")
    return reasons


def placement_score(rules: Rules, board: Board, placed: list, direction: str) -> int:
    """The score of a placement of legal shape (lookup/crossword/scoring.py's rule)."""
    n = rules.layout.size
    values = board_tile_values(rules.tiles.values)
    cells = list(board.cells)
    letter_mult, word_mult = rules.layout.letter_mult, rules.layout.word_mult
    first, last = main_word_span(board, placed, direction)
    word = list(cells)
    for row, col, letter, blank in placed:
        word[row * n + col] = rules.tiles.code(letter) | (BLANK if blank else 0)
    if direction == "V":
        # Scoring reads lines across: score a down move on the transposed board, where the
        # transpose maps square (r, c) to (c, r).
        cells, word, letter_mult, word_mult = (transposed(x, n) for x in (
            cells, word, letter_mult, word_mult))
        first, last = (first % n) * n + first // n, (last % n) * n + last // n
    sheet = score_sheet(cells, n, letter_mult, word_mult, values, rules.rack_size, rules.bingo)
    return score_word(sheet, cells, word, first, last)
