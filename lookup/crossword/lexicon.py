"""A crossword game's lexicon: its GADDAG ready for move generation, and the code maps.

Board codes number the game's alphabet, GADDAG codes the lexicon's (lookup/crossword/board.py); the
two agree when the alphabets do (every shipped game), but a game may use a lexicon with more
letters. GameLexicon holds the maps both ways, the tile values by GADDAG code and the bitmask
of the game's letters, built once per game.
"""

import functools
from dataclasses import dataclass

from lookup.crossword.board import BLANK, LETTER_MASK
from lookup.crossword.cross_check import arc_for
from lookup.crossword.movegen import GaddagTables, gaddag_tables
from lookup.crossword.rules import Rules
from lookup.crossword.scoring import board_tile_values
from lookup.formats import ARC_ACCEPTS, ARC_CHILD_SHIFT, corrupt
from lookup.gaddag import load_gaddag


@dataclass(frozen=True)
class GameLexicon:
    """A game's GADDAG with the maps between the game's and the lexicon's tile codes.

    Attributes:
        tables: the GADDAG (lookup.crossword.movegen.gaddag_tables).
        to_lexicon: GADDAG code of each game code (index 0: the empty square, 0).
        to_game: game code of each GADDAG code, the BLANK bit kept (length 2 * BLANK).
        values: tile values by GADDAG code, blanks 0 (lookup.crossword.scoring.board_tile_values).
        all_letters: bitmask of the game's letters as GADDAG tiles.
    """

    tables: GaddagTables
    to_lexicon: list
    to_game: list
    values: list
    all_letters: int

    @property
    def same_codes(self) -> bool:
        """True when game and GADDAG codes are the same numbers (no translation needed)."""
        return self.to_lexicon == list(range(len(self.to_lexicon)))

    def cells(self, board) -> list[int]:
        """The board's tiles as GADDAG codes, row-major, the BLANK bit kept (0 empty)."""
        to_lexicon = self.to_lexicon
        return [to_lexicon[c & LETTER_MASK] | (c & BLANK) for c in board.cells]

    def rack_counts(self, rack) -> list[int]:
        """Counts of a rack's tiles by GADDAG code, the blanks at index 0.

        Args:
            rack: the rack's game tile codes (lookup/crossword/tiles.py: 0 a blank).
        """
        counts = [0] * (LETTER_MASK + 1)
        for code in rack:
            counts[self.to_lexicon[code]] += 1
        return counts

    def is_word(self, word: str) -> bool:
        """True when `word` (lowercase letters) is in the lexicon."""
        tables = self.tables
        node = tables.root
        arc = 0
        # A word's GADDAG path split before its first letter: the reversed word.
        for letter in reversed(word):
            tile = tables.alphabet.find(letter) + 1
            arc = arc_for(tables.arcs, tables.node_mask, node, tile) if node and tile else 0
            if not arc:
                return False
            node = arc >> ARC_CHILD_SHIFT
        return bool(arc & ARC_ACCEPTS)


def game_lexicon(rules: Rules, tables: GaddagTables) -> GameLexicon:
    """Map the game's letters onto the GADDAG's.

    Raises:
        CorruptArtifact: the GADDAG lacks a letter of the game's alphabet.
    """
    missing = "".join(ch for ch in rules.alphabet if ch not in tables.alphabet)
    if missing:
        raise corrupt(f"lexicon {rules.lexicon}", f"its alphabet lacks {missing!r} of {rules.id}")
    # The blank (game code 0) is 0 in both.
    to_lexicon = [0] + [tables.alphabet.index(ch) + 1 for ch in rules.alphabet]
    to_game = [0] * (2 * BLANK)
    values = [0] * (LETTER_MASK + 1)
    all_letters = 0
    for code, letter in enumerate(rules.alphabet, start=1):
        to_game[to_lexicon[code]] = code
        to_game[to_lexicon[code] | BLANK] = code | BLANK
        values[to_lexicon[code]] = rules.values[letter]
        all_letters |= 1 << to_lexicon[code]
    return GameLexicon(tables, to_lexicon, to_game, board_tile_values(values), all_letters)


# Cached: two games share one lexicon (scrabble-en and wordfeud-en read ENABLE); the tables
# are views of the file's memory map, so holding them costs only the pages queries touched.
@functools.lru_cache(maxsize=None)
def lexicon_tables(path: str) -> GaddagTables:
    """The GADDAG file `path` ready for move generation (cached per path).

    Raises:
        ArtifactMissing: the file has not been built (the message names the make target).
        CorruptArtifact, UnsupportedFormat: the file cannot be trusted.
    """
    return gaddag_tables(load_gaddag(path))
