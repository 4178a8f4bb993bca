"""Golden moves: the best moves of a few fixed positions per crossword game, on the real artifacts.

tests/golden/crossword-moves.txt holds, for each game, the top GOLDEN_TOP moves (notation,
score and every word formed) of: the empty board with the first self-play rack, with no blank
and with two; and three midgame positions of tests/fixtures/crossword/selfplay-<game>.json
with 0, 1 and 2 blanks in the rack (tests/crossword_support.py `blank_variant`). Under
placement = "multi" (Erudit) the file holds the single-line plays (moves without `top`): the
ranking with multi-word turns is a full search, minutes per position with two blanks, and
tests/test_erudit_turns.py checks it.
tests/test_crossword_golden.py compares the generator with the file exactly; after a
deliberate change (generator, scoring, rules, lexicon, self-play positions) `make
approve-moves` rewrites the file and prints which positions changed, for review in the diff.

Usage: WORDPACK_ARTIFACTS=artifacts python tests/golden_moves.py
"""

from pathlib import Path

from crossword_support import GAMES, blank_variant, selfplay_positions
from lookup.crossword.game import crossword_game

GOLDEN = Path(__file__).resolve().parent / "golden" / "crossword-moves.txt"
GOLDEN_TOP = 20
# (first candidate index into the game's self-play positions, blanks in the rack). Index 0
# is the first game's empty board; a midgame position is the first from its index, after the
# midgame positions already taken, with MIDGAME_TILES tiles or more on the board and enough
# blanks left in the set for the rack.
GOLDEN_POSITIONS = ((0, 0), (0, 2), (10, 0), (20, 1), (30, 2))
MIDGAME_TILES = 20


def position_header(game: str, number: int, rack: str) -> str:
    """The line that opens a position's block in the golden file."""
    return f"## {game} position {number} rack {rack}"


def game_text(game: str) -> str:
    """The golden block of one game: for each position a header, then one line per move."""
    cw = crossword_game(game)
    positions = selfplay_positions(game)
    lines = []
    taken = 0
    for first, blanks in GOLDEN_POSITIONS:
        for number in range(max(first, taken + 1) if first else 0, len(positions)):
            board = cw.parse_board(positions[number]["board"])
            rack = blank_variant(cw, board, positions[number]["rack"], blanks)
            if rack is not None and (not first or sum(map(bool, board.cells)) >= MIDGAME_TILES):
                break
        taken = max(taken, number)
        lines.append(position_header(game, number, rack))
        if cw.rules.placement == "multi":
            best = cw.moves(board, rack)[:GOLDEN_TOP]
        else:
            best = cw.moves(board, rack, top=GOLDEN_TOP)
        for rank, move in enumerate(best, start=1):
            formed = " ".join(word.upper() for word in move.words)
            lines.append(f"{rank:>3} {move.notation()}  {formed}".rstrip())
    return "\n".join(lines) + "\n"


def blocks(text: str, by_game: bool) -> dict[str, str]:
    """Split golden text into blocks keyed by game id (by_game) or by position header."""
    found: dict[str, list] = {}
    key = None
    for line in text.splitlines(keepends=True):
        if line.startswith("## "):
            key = line.split()[1] if by_game else line.rstrip("\n")
        found.setdefault(key, []).append(line)
    return {key: "".join(lines) for key, lines in found.items()}


def approve() -> None:
    """Rewrite the golden file from the built artifacts and print which positions changed."""
    old = blocks(GOLDEN.read_text(encoding="utf-8"), False) if GOLDEN.is_file() else {}
    text = "".join(game_text(game) for game in GAMES)
    new = blocks(text, False)
    changed = [header for header, block in new.items() if old.get(header) != block]
    gone = [header for header in old if header not in new]
    GOLDEN.parent.mkdir(parents=True, exist_ok=True)
    GOLDEN.write_text(text, encoding="utf-8")
    print(f"{GOLDEN}: {len(new)} positions, {len(changed)} new or changed, {len(gone)} gone")
    for header in changed:
        print(f"  changed: {header[3:]}")
    for header in gone:
        print(f"  gone: {header[3:]}")


if __name__ == "__main__":
    approve()
