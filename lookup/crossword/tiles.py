"""A crossword game's tile set: letters and their codes, how many of each the set holds, what
they are worth, the tiles still unseen, and leave keys. Every module that counts tiles asks it.

    tiles = rules.tiles                      # or cw.tiles
    tiles.codes("ab?")                       # [1, 2, 0]: code k is alphabet[k - 1], 0 a blank
    tiles.text([2, 0, 1])                    # "ab?": letters in alphabet order, then blanks
    tiles.unseen(board, tiles.codes(rack))   # the rest of the set, as codes
    key_of_codes([1, 0])                     # the leave key of tiles, whatever their order

Codes here are tile codes off the board: a blank is 0 whatever letter it may stand for (on the
board a blank is its letter's code with the BLANK bit, lookup/crossword/board.py). A lexicon
may number its letters differently: lookup/crossword/lexicon.py maps these codes onto its own.

Leave keys: the tiles' codes ascending, as the digits of a base-64 number after a leading 1
(EMPTY_LEAVE, the empty leave), so the same tiles in any order give the same key and keys of n
tiles lie in [64^n, 2 * 64^n). The leave tables (lookup/crossword/leaves.py) and the move
engine (lookup/crossword/engine_kernel.py, in the lexicon's codes) use the same scheme.
"""

from lookup.crossword.board import BLANK
from lookup.errors import BadInput
from lookup.formats import BLANK_SYMBOL

BLANK_CODE = 0
LEAVE_DIGIT = 64
EMPTY_LEAVE = 1


def key_of_codes(codes) -> int:
    """The leave key of tile codes (0 a blank), in any order."""
    key = EMPTY_LEAVE
    for code in sorted(codes):
        key = key * LEAVE_DIGIT + code
    return key


def codes_of_key(key: int) -> list[int]:
    """The tile codes of a leave key, ascending."""
    codes = []
    while key > EMPTY_LEAVE:
        key, code = divmod(key, LEAVE_DIGIT)
        codes.append(code)
    return codes[::-1]


class TileSet:
    """The tiles of one game.

    Args:
        game_id: the game's id, for messages.
        alphabet: the letters in code order: code k is alphabet[k - 1].
        counts: tiles of each letter in the set ({letter: count}).
        values: value of each letter ({letter: value}); a blank is worth 0.
        blanks: blanks in the set.

    Attributes:
        counts: tiles of each code in the set, index 0 the blanks.
        values: value of each code, index 0 the blank (0).
        total: tiles in the set, blanks included.
    """

    def __init__(self, game_id: str, alphabet: str, counts: dict, values: dict, blanks: int):
        self.game_id = game_id
        self.alphabet = alphabet
        self.counts = [blanks] + [counts[letter] for letter in alphabet]
        self.values = [0] + [values[letter] for letter in alphabet]
        self.total = sum(self.counts)
        self._code = {letter: code for code, letter in enumerate(alphabet, start=1)}

    def code(self, tile: str, what: str = "tile") -> int:
        """The code of one tile: a letter of the game in either case, or "?" for a blank.

        Raises:
            BadInput: a character that is not a tile of the game.
        """
        if tile == BLANK_SYMBOL:
            return BLANK_CODE
        code = self._code.get(tile.lower())
        if code is None:
            raise BadInput(f"{what} {tile!r} is not a letter of {self.game_id} (letters: "
                           f"{self.alphabet}, '?' for a blank)")
        return code

    def codes(self, text: str, what: str = "tiles") -> list[int]:
        """The codes of tiles written as text ("?" a blank, either case, spaces ignored).

        Args:
            text: the tiles.
            what: what they are, for messages ("rack", "leave", "unseen").

        Raises:
            BadInput: a character outside the game, or more of a tile than the set has.
        """
        text = "".join(text.split())
        codes = [self.code(ch, f"{what} tile") for ch in text]
        self.check_counts(codes, f"{what} {text!r}")
        return codes

    def check_counts(self, codes, what: str) -> None:
        """Refuse tiles that hold more of a kind than the set has; `what` names them
        ("rack and board").

        Raises:
            BadInput: the first tile in code order with too many, e.g. "rack and board hold
                3 tiles 'q'; the scrabble-en set has 1".
        """
        held = [0] * len(self.counts)
        for code in codes:
            held[code] += 1
        for code, n in enumerate(held):
            if n > self.counts[code]:
                name = "blanks" if code == BLANK_CODE else f"tiles {self.alphabet[code - 1]!r}"
                verb = "hold" if " and " in what else "holds"
                raise BadInput(f"{what} {verb} {n} {name}; the {self.game_id} set has "
                               f"{self.counts[code]}")

    def letter(self, code: int) -> str:
        """The text of one tile code: its letter, or "?" for a blank."""
        return BLANK_SYMBOL if code == BLANK_CODE else self.alphabet[code - 1]

    def text(self, codes) -> str:
        """Tile codes as text: letters in alphabet order, then "?" for each blank."""
        letters = sorted(code for code in codes if code != BLANK_CODE)
        return "".join(self.alphabet[code - 1] for code in letters) + \
            BLANK_SYMBOL * (len(codes) - len(letters))

    def value(self, codes) -> int:
        """Summed value of tile codes (blanks 0)."""
        return sum(self.values[code] for code in codes)

    def on_board(self, board) -> list[int]:
        """The codes of the tiles on a board, a blank as 0, row-major."""
        return [BLANK_CODE if code & BLANK else code for code in board.cells if code]

    def unseen(self, board, rack, unseen: str | None = None) -> list[int]:
        """The tiles neither on the board nor on the rack (the bag and the opponent's rack),
        as codes in the order of `text` (letters in alphabet order, then the blanks): `unseen`
        gives them as text, else they are the rest of the set.

        Args:
            board: the position.
            rack: the rack's codes.
            unseen: the unseen tiles as text, checked against the set, the board and the rack.

        Raises:
            BadInput: an unseen tile outside the game, or more of a tile than the set has once
                the board and the rack are taken away.
        """
        held = [*self.on_board(board), *rack]
        if unseen is not None:
            codes = [self.code(ch, "unseen tile") for ch in "".join(unseen.split())]
            self.check_counts([*held, *codes], "board and rack and unseen tiles")
            return sorted(codes, key=_text_order)
        left = list(self.counts)
        for code in held:
            left[code] -= 1
        return sorted((code for code, n in enumerate(left) for _ in range(n)), key=_text_order)


def _text_order(code: int) -> tuple:
    """Letters in alphabet order, then the blanks (TileSet.text)."""
    return code == BLANK_CODE, code
