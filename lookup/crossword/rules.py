"""The rules of a crossword game: the rules file artifacts/crossword/<id>.json and its checks.

pipeline/build_crossword.py compiles config/crossword/<id>.toml into the rules file with
`rules_from_dict`, the same checks `load_rules` applies when it reads the file back; the format
is in docs/FORMATS.md ("## crossword games"), the rules of each game in docs/GAMES.md.

Rules file (JSON object, UTF-8): "format" = "crossword-rules", "version", "config_sha256"
(the TOML it was compiled from), "id", "name", "lexicon", "alphabet" (tile letters in code
point order), "tiles" ({letter: [count, value]}, "?" the blanks), "rack_size", "bingo",
"exchange_min_bag", "scoreless_turns_end", "min_word_length", "max_word_length",
"placement" ("line" or "multi"), "repeat_words" (bool), "start" ([row, col]), "board" (one
string per row of premium tokens "TW" "DW" "TL" "DL" "."), "provenance" ({fact: source}), and
"file_sha256", the seal over the whole file (lookup/headers.py).
"""

import functools
from dataclasses import dataclass

from lookup.crossword.board import LETTER_MASK, Layout
from lookup.crossword.tiles import TileSet
from lookup.errors import BadInput
from lookup.formats import (
    BLANK_SYMBOL,
    CROSSWORD_RULES_EARLIEST_SUPPORTED_VERSION,
    CROSSWORD_RULES_FIELDS,
    CROSSWORD_RULES_FORMAT,
    CROSSWORD_RULES_VERSION,
    corrupt,
)
from lookup.headers import read_json_header

PROVENANCE_KEYS = ("board", "tiles", "values", "bingo", "rack_size", "exchange",
                   "scoreless_turns", "lexicon", "placement")
# How the tiles of one turn may lie (docs/GAMES.md): "line", one row or column (Scrabble,
# Wordfeud); "multi", several words anywhere, each connected to the board (Erudit).
PLACEMENTS = ("line", "multi")


@dataclass(frozen=True)
class Rules:
    """The rules of one crossword game.

    Attributes:
        id: game id, e.g. "scrabble-en".
        name: display name.
        lexicon: lexicon name (artifacts/lexicons/<lexicon>.gaddag).
        alphabet: tile letters in code point order; code k is alphabet[k - 1].
        counts: tiles of each letter in the set.
        values: value of each letter.
        blanks: blanks in the set (they score 0).
        rack_size: tiles in a full rack; placing all of them earns `bingo`.
        bingo: the bingo bonus.
        exchange_min_bag: an exchange needs at least this many tiles in the bag.
        scoreless_turns_end: that many scoreless turns in a row end the game.
        min_word_length, max_word_length: length limits of every word formed.
        placement: "line" (a turn's tiles lie in one row or column) or "multi" (a turn may
            form several words anywhere, lookup/crossword/turn.py).
        repeat_words: False when a word may not be formed again (Erudit): not a word already
            on the board, nor twice in one turn.
        layout: board size, start square and premiums.
        provenance: where each fact comes from.
    """

    id: str
    name: str
    lexicon: str
    alphabet: str
    counts: dict
    values: dict
    blanks: int
    rack_size: int
    bingo: int
    exchange_min_bag: int
    scoreless_turns_end: int
    min_word_length: int
    max_word_length: int
    placement: str
    repeat_words: bool
    layout: Layout
    provenance: dict

    @property
    def total_tiles(self) -> int:
        """Tiles in the set, blanks included."""
        return sum(self.counts.values()) + self.blanks

    @functools.cached_property
    def tiles(self) -> TileSet:
        """The tile set: codes, counts, values, unseen tiles (lookup/crossword/tiles.py)."""
        return TileSet(self.id, self.alphabet, self.counts, self.values, self.blanks)

    def to_dict(self) -> dict:
        """The rules file's content (without format, version and config_sha256)."""
        size = self.layout.size
        premiums = self.layout.premiums
        return {
            "id": self.id,
            "name": self.name,
            "lexicon": self.lexicon,
            "alphabet": self.alphabet,
            "tiles": {BLANK_SYMBOL: [self.blanks, 0],
                      **{letter: [self.counts[letter], self.values[letter]]
                         for letter in self.alphabet}},
            "rack_size": self.rack_size,
            "bingo": self.bingo,
            "exchange_min_bag": self.exchange_min_bag,
            "scoreless_turns_end": self.scoreless_turns_end,
            "min_word_length": self.min_word_length,
            "max_word_length": self.max_word_length,
            "placement": self.placement,
            "repeat_words": self.repeat_words,
            "start": list(self.layout.start),
            "board": [" ".join(premiums[r * size:(r + 1) * size]) for r in range(size)],
            "provenance": dict(self.provenance),
        }


def rules_from_dict(data: dict, where: str) -> Rules:
    """Validate the content of a rules file (TOML config or JSON artifact) and build Rules.

    `tiles` maps each letter, and "?" for the blank, to [count, value]; `alphabet`, when
    present, must equal the letters in code point order.

    Raises:
        BadInput: a missing or ill-typed field, a bad tile entry, an inconsistent limit or a
            missing provenance entry; the message names `where` and the field.
    """

    def field(name, kind):
        if name not in data:
            raise BadInput(f"{where}: missing field {name!r}")
        value = data[name]
        if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
            raise BadInput(f"{where}: {name} must be an integer, not {value!r}")
        if not isinstance(value, kind):
            raise BadInput(f"{where}: {name} must be a {kind.__name__}, not {value!r}")
        return value

    tiles = field("tiles", dict)
    counts, values = {}, {}
    blanks = 0
    for letter, entry in tiles.items():
        if (not isinstance(entry, list) or len(entry) != 2
                or not all(isinstance(x, int) and not isinstance(x, bool) for x in entry)):
            raise BadInput(f"{where}: tiles.{letter} must be [count, value], not {entry!r}")
        count, value = entry
        if count < 1 or value < 0:
            raise BadInput(f"{where}: tiles.{letter} needs count >= 1 and value >= 0")
        if letter == BLANK_SYMBOL:
            if value != 0:
                raise BadInput(f"{where}: the blank scores 0, not {value}")
            blanks = count
        elif len(letter) == 1 and letter.isalpha() and letter == letter.lower() != letter.upper():
            counts[letter], values[letter] = count, value
        else:
            raise BadInput(f"{where}: tile {letter!r} is not one lowercase letter or '?'")
    alphabet = "".join(sorted(counts))
    if not alphabet or len(alphabet) > LETTER_MASK:
        raise BadInput(f"{where}: the set has {len(alphabet)} letters; need 1..{LETTER_MASK}")
    if data.get("alphabet", alphabet) != alphabet:
        raise BadInput(f"{where}: alphabet {data['alphabet']!r} is not the tile letters "
                       f"{alphabet!r}")
    start = field("start", list)
    if len(start) != 2 or not all(isinstance(x, int) for x in start):
        raise BadInput(f"{where}: start must be [row, col], not {start!r}")
    layout = Layout.from_rows(field("board", list), tuple(start), where=f"{where}: board")
    rack_size = field("rack_size", int)
    min_length = field("min_word_length", int)
    max_length = field("max_word_length", int)
    if not 2 <= min_length <= max_length <= layout.size:
        raise BadInput(f"{where}: need 2 <= min_word_length <= max_word_length <= "
                       f"{layout.size}, got {min_length} and {max_length}")
    if not 1 <= rack_size <= layout.size:
        raise BadInput(f"{where}: rack_size {rack_size} is not in 1..{layout.size}")
    total = sum(counts.values()) + blanks
    if total < 2 * rack_size:
        raise BadInput(f"{where}: {total} tiles cannot fill two racks of {rack_size}")
    numbers = {name: field(name, int)
               for name in ("bingo", "exchange_min_bag", "scoreless_turns_end")}
    if min(numbers.values()) < 0 or numbers["scoreless_turns_end"] < 1:
        raise BadInput(f"{where}: bingo and exchange_min_bag must be >= 0, "
                       "scoreless_turns_end >= 1")
    placement = field("placement", str)
    if placement not in PLACEMENTS:
        raise BadInput(f"{where}: placement must be one of {', '.join(PLACEMENTS)}, not "
                       f"{placement!r}")
    repeat_words = field("repeat_words", bool)
    provenance = field("provenance", dict)
    for key in PROVENANCE_KEYS:
        if not isinstance(provenance.get(key), str) or not provenance[key].strip():
            raise BadInput(f"{where}: provenance.{key} must say where that fact comes from")
    return Rules(field("id", str), field("name", str), field("lexicon", str), alphabet, counts,
                 values, blanks, rack_size, numbers["bingo"], numbers["exchange_min_bag"],
                 numbers["scoreless_turns_end"], min_length, max_length, placement,
                 repeat_words, layout, dict(provenance))


@functools.lru_cache(maxsize=None)
def load_rules(path) -> Rules:
    """Read a compiled rules file.

    Raises:
        ArtifactMissing: the file does not exist.
        CorruptArtifact: not JSON, not a rules file, damaged (its seal does not match), or
            invalid content.
        UnsupportedFormat: a format version this reader does not read.
    """
    data = read_json_header(path, make_target="crossword", sealed=True,
                            format=CROSSWORD_RULES_FORMAT,
                            versions=(CROSSWORD_RULES_EARLIEST_SUPPORTED_VERSION,
                                      CROSSWORD_RULES_VERSION),
                            fields=CROSSWORD_RULES_FIELDS)
    try:
        return rules_from_dict(data, str(path))
    except BadInput as error:
        raise corrupt(path, str(error), "crossword") from None
