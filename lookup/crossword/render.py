"""The board drawn as text for people: premiums on empty squares, a move's new tiles marked."""

from lookup.crossword.board import Board, Layout, tile_text
from lookup.crossword.move import Move

# Symbols of empty premium squares (as in Quackle's text board).
PREMIUM_SYMBOLS = {".": ".", "DL": "'", "TL": '"', "DW": "-", "TW": "="}
LEGEND = "[x] new tile, X blank; = TW  - DW  \" TL  ' DL"


def render(layout: Layout, board: Board, move: Move | None = None) -> str:
    """The board as text, with a play's new tiles in brackets.

    Tiles are lowercase (a blank uppercase); empty squares show their premium: = triple word,
    - double word, " triple letter, ' double letter. Rows and columns are numbered from 0.
    """
    n = board.size
    placed = move.placed if move is not None else []
    new = {(row, col) for row, col, _l, _b in placed}
    shown = board.with_tiles(placed)
    lines = ["    " + "".join(f"{c:>3}" for c in range(n))]
    for row in range(n):
        squares = []
        for col in range(n):
            code = shown.cells[row * n + col]
            if not code:
                squares.append(f" {PREMIUM_SYMBOLS[layout.premiums[row * n + col]]} ")
                continue
            text = tile_text(board.alphabet, code)
            squares.append(f"[{text}]" if (row, col) in new else f" {text} ")
        lines.append(f"{row:>3} " + "".join(squares))
    lines.append(LEGEND)
    return "\n".join(lines) + "\n"
