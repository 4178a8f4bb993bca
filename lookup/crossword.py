"""Crossword games (Scrabble, Wordfeud, Erudit): rules, legal moves, scores, validation.

    cw = crossword_game("wordfeud-nl")
    board = cw.parse_board(text)              # 15 lines: '.' empty, lowercase tile, UPPER blank
    cw.moves(board, rack="abc?def", top=20)   # scored legal moves, best first
    cw.score(board, move); cw.validate(board, placement); cw.render(board, move)

The rules of a game come from artifacts/crossword/<id>.json, compiled from
config/crossword/<id>.toml by pipeline/build_crossword.py (the writer of this format). Its
lexicon is the GADDAG artifacts/lexicons/<lexicon>.gaddag, loaded on first use.

Rules file (JSON object, UTF-8): "format" = "crossword-rules", "version", "config_sha256"
(the TOML it was compiled from), "id", "name", "lexicon", "alphabet" (tile letters in code
point order), "tiles" ({letter: [count, value]}, "?" the blanks), "rack_size", "bingo",
"exchange_min_bag", "scoreless_turns_end", "min_word_length", "max_word_length", "start"
([row, col]), "board" (one string per row of premium tokens "TW" "DW" "TL" "DL" "."), and
"provenance" ({fact: source}).
"""

import functools
import itertools
import json
from dataclasses import dataclass
from pathlib import Path

from lookup.board import (
    BLANK,
    LETTER_MASK,
    Board,
    Layout,
    empty_board,
    parse_board,
)
from lookup.cross_check import arc_for
from lookup.errors import BadInput, UnknownName
from lookup.formats import ARC_ACCEPTS, ARC_CHILD_SHIFT, check_version, corrupt, require_file
from lookup.movegen import (
    ACROSS,
    GaddagTables,
    gaddag_tables,
    generate,
    orientations,
    transposed,
)
from lookup.paths import artifacts_dir
from lookup.scoring import score_sheet, score_word, tile_values

RULES_FORMAT = "crossword-rules"
RULES_VERSION = 1
RULES_EARLIEST_SUPPORTED_VERSION = 1
# The games shipped in config/crossword/. Others are found by their artifact alone.
BUILTIN_GAMES = ("scrabble-en", "wordfeud-en", "wordfeud-nl", "erudit-ru")
BLANK_SYMBOL = "?"
PROVENANCE_KEYS = ("board", "tiles", "values", "bingo", "rack_size", "exchange",
                   "scoreless_turns", "lexicon")
_DIRECTIONS = ("H", "V")
_KIND_ORDER = {"play": 0, "exchange": 1, "pass": 2}
# Render symbols of empty premium squares (as in Quackle's text board).
_RENDER_PREMIUM = {".": ".", "DL": "'", "TL": '"', "DW": "-", "TW": "="}


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
    layout: Layout
    provenance: dict

    @property
    def total_tiles(self) -> int:
        """Tiles in the set, blanks included."""
        return sum(self.counts.values()) + self.blanks

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
    provenance = field("provenance", dict)
    for key in PROVENANCE_KEYS:
        if not isinstance(provenance.get(key), str) or not provenance[key].strip():
            raise BadInput(f"{where}: provenance.{key} must say where that fact comes from")
    return Rules(field("id", str), field("name", str), field("lexicon", str), alphabet, counts,
                 values, blanks, rack_size, numbers["bingo"], numbers["exchange_min_bag"],
                 numbers["scoreless_turns_end"], min_length, max_length, layout,
                 dict(provenance))


@functools.lru_cache(maxsize=None)
def load_rules(path) -> Rules:
    """Read a compiled rules file.

    Raises:
        ArtifactMissing: the file does not exist.
        CorruptArtifact: not JSON, not a rules file, or invalid content.
        UnsupportedFormat: a newer format version.
    """
    path = Path(path)
    require_file(path, f"artifacts/crossword/{path.stem}.json")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise corrupt(path, f"not a JSON rules file ({error})") from None
    if not isinstance(data, dict) or data.get("format") != RULES_FORMAT:
        raise corrupt(path, f"not a {RULES_FORMAT} file")
    version = data.get("version")
    if not isinstance(version, int):
        raise corrupt(path, "format version missing")
    check_version(path, version, RULES_EARLIEST_SUPPORTED_VERSION, RULES_VERSION)
    try:
        return rules_from_dict(data, str(path))
    except BadInput as error:
        raise corrupt(path, str(error)) from None


class Move:
    """One move: a placement of tiles ("play"), an exchange, or a pass.

    Attributes:
        kind: "play", "exchange" or "pass".
        row, col: 0-based square of the main word's first letter (None unless a play).
        direction: "H" (across) or "V" (down) (None unless a play).
        score: points the move scores.
        exchanged: the tiles an exchange returns to the bag ("?" for a blank), else "".
    Computed on first use (a position can have tens of thousands of moves):
        word: the main word, lowercase ("" unless a play).
        placed: the new tiles, [(row, col, letter, is_blank)], in reading order.
        words: every word formed: the main word first, then each cross word of two letters
            or more in the order of the tiles that form them.
    """

    __slots__ = ("kind", "row", "col", "direction", "score", "exchanged", "_plain", "_blanks",
                 "_board", "_cache")

    def __init__(self, kind: str, row=None, col=None, direction=None, score: int = 0,
                 exchanged: str = "", codes: tuple = (), board: Board | None = None,
                 blanks: int = 0):
        self.kind = kind
        self.row = row
        self.col = col
        self.direction = direction
        self.score = score
        self.exchanged = exchanged
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
            self._cache = _play_details(self._board, self.row, self.col, self.direction,
                                        self._codes) if self.kind == "play" else ("", [], [])
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
        """Identity of the move: kind, square, direction, tile codes, exchanged tiles."""
        return (self.kind, self.row, self.col, self.direction, self._codes, self.exchanged)

    def __eq__(self, other):
        """Equal kind, squares, tiles and score."""
        return isinstance(other, Move) and self.key() == other.key() and self.score == other.score

    def __hash__(self):
        """Hash of key()."""
        return hash(self.key())

    def notation(self) -> str:
        """Short text: "H 7,3 caT 10" (blanks uppercase), "exchange abc", "pass"."""
        if self.kind == "exchange":
            return f"exchange {self.exchanged}"
        if self.kind == "pass":
            return "pass"
        letters = "".join(_tile_text(self._board.alphabet, code) for code in self._codes)
        return f"{self.direction} {self.row},{self.col} {letters} {self.score}"

    def __repr__(self):
        """Move('H 7,3 Zebra 12')."""
        return f"Move({self.notation()!r})"

    def to_dict(self) -> dict:
        """A JSON-ready dict of every attribute."""
        return {"kind": self.kind, "row": self.row, "col": self.col,
                "direction": self.direction, "word": self.word,
                "placed": [list(tile) for tile in self.placed], "words": self.words,
                "score": self.score, "exchanged": self.exchanged}


def _tile_text(alphabet: str, code: int) -> str:
    letter = alphabet[(code & LETTER_MASK) - 1]
    return letter.upper() if code & BLANK else letter


def _play_details(board: Board, row: int, col: int, direction: str, codes: tuple):
    n = board.size
    dr, dc = (0, 1) if direction == "H" else (1, 0)
    alphabet = board.alphabet
    word = "".join(alphabet[(code & LETTER_MASK) - 1] for code in codes)
    placed = []
    for k, code in enumerate(codes):
        r, c = row + k * dr, col + k * dc
        if not board.cells[r * n + c]:
            placed.append((r, c, alphabet[(code & LETTER_MASK) - 1], bool(code & BLANK)))
    after = board.with_tiles(placed)
    words = [word]
    for r, c, _letter, _blank in placed:
        cross = _line_word(after, r, c, dc, dr)
        if len(cross) >= 2:
            words.append(cross)
    return word, placed, words


def _line_word(board: Board, row: int, col: int, dr: int, dc: int) -> str:
    """The word through (row, col) along (dr, dc) (may be one letter)."""
    n = board.size
    while 0 <= row - dr < n and 0 <= col - dc < n and board.cells[(row - dr) * n + col - dc]:
        row, col = row - dr, col - dc
    letters = []
    while 0 <= row < n and 0 <= col < n and board.cells[row * n + col]:
        letters.append(board.letter(row, col))
        row, col = row + dr, col + dc
    return "".join(letters)


class CrosswordGame:
    """One crossword game: its rules plus its lexicon's GADDAG (loaded on first use).

    Args:
        rules: the game's rules.
        tables: the lexicon's GADDAG prepared by lookup.movegen.gaddag_tables, or None to load
            artifacts/lexicons/<rules.lexicon>.gaddag when first needed.
    """

    def __init__(self, rules: Rules, tables: GaddagTables | None = None):
        self.rules = rules
        self.id = rules.id
        self.alphabet = rules.alphabet
        self._tables = tables
        self._prepared = None

    # --- the lexicon ---------------------------------------------------------------------
    def tables(self) -> GaddagTables:
        """The lexicon's GADDAG (loads it on first call).

        Raises:
            ArtifactMissing: the GADDAG has not been built.
            CorruptArtifact: it lacks a letter of the game's alphabet.
        """
        return self._lexicon()[0]

    def _lexicon(self):
        """The lexicon and code tables, computed once.

        Returns (tables, game code -> GADDAG code, GADDAG code -> game code, values by GADDAG
        code, bitmask of the game's letters as GADDAG tiles).
        """
        if self._prepared is None:
            tables = self._tables
            if tables is None:
                tables = _lexicon_tables(str(artifacts_dir() / "lexicons"
                                             / f"{self.rules.lexicon}.gaddag"))
            missing = "".join(ch for ch in self.alphabet if ch not in tables.alphabet)
            if missing:
                raise corrupt(f"lexicon {self.rules.lexicon}",
                              f"its alphabet lacks {missing!r} of {self.id}")
            to_lex = [0] + [tables.alphabet.index(ch) + 1 for ch in self.alphabet]
            to_game = [0] * (2 * BLANK)
            lex_values = [0] * (LETTER_MASK + 1)
            all_letters = 0
            for code, letter in enumerate(self.alphabet, start=1):
                to_game[to_lex[code]] = code
                to_game[to_lex[code] | BLANK] = code | BLANK
                lex_values[to_lex[code]] = self.rules.values[letter]
                all_letters |= 1 << to_lex[code]
            self._prepared = (tables, to_lex, to_game, tile_values(lex_values), all_letters)
        return self._prepared

    def is_word(self, word: str) -> bool:
        """True when `word` (lowercase letters) is in the game's lexicon."""
        tables = self.tables()
        node = tables.root
        arc = 0
        for letter in reversed(word):
            tile = tables.alphabet.find(letter) + 1
            arc = arc_for(tables.arcs, tables.node_mask, node, tile) if node and tile else 0
            if not arc:
                return False
            node = arc >> ARC_CHILD_SHIFT
        return bool(arc & ARC_ACCEPTS)

    # --- boards and racks ----------------------------------------------------------------
    def empty_board(self) -> Board:
        """A board with no tiles."""
        return empty_board(self.rules.layout.size, self.alphabet)

    def parse_board(self, text: str) -> Board:
        """Parse a board (lookup/board.py describes the text format).

        Raises:
            BadInput: wrong size, unknown symbols, letters outside the alphabet, more tiles
                than the set has, or tiles that are not connected through the start square.
        """
        r = self.rules
        return parse_board(text, layout=r.layout, alphabet=r.alphabet, counts=r.counts,
                           blanks=r.blanks, game=r.id)

    def parse_rack(self, rack: str, board: Board | None = None) -> tuple[dict, int]:
        """Letters ({letter: count}) and blanks of a rack such as "abc?def".

        Args:
            rack: letters of the game (either case) and "?" for a blank.
            board: when given, the rack and the board together may not hold more tiles of a
                letter (or blanks) than the set has.

        Raises:
            BadInput: too many tiles, a letter outside the alphabet, or tiles the set lacks.
        """
        r = self.rules
        rack = "".join(rack.split())
        if len(rack) > r.rack_size:
            raise BadInput(f"rack {rack!r} has {len(rack)} tiles; a {r.id} rack holds "
                           f"{r.rack_size}")
        letters: dict[str, int] = {}
        blanks = 0
        for ch in rack:
            if ch == BLANK_SYMBOL:
                blanks += 1
            elif ch.lower() in r.counts:
                letters[ch.lower()] = letters.get(ch.lower(), 0) + 1
            else:
                raise BadInput(f"rack letter {ch!r} is not a letter of {r.id} (letters: "
                               f"{r.alphabet}, '?' for a blank)")
        on_board: dict[str, int] = {}
        board_blanks = 0
        for _row, _col, letter, is_blank in (board.tiles() if board is not None else ()):
            if is_blank:
                board_blanks += 1
            else:
                on_board[letter] = on_board.get(letter, 0) + 1
        for letter, n in sorted(letters.items()):
            if n + on_board.get(letter, 0) > r.counts[letter]:
                raise BadInput(f"rack and board hold {n + on_board.get(letter, 0)} tiles "
                               f"{letter!r}; the {r.id} set has {r.counts[letter]}")
        if blanks + board_blanks > r.blanks:
            raise BadInput(f"rack and board hold {blanks + board_blanks} blanks; the {r.id} "
                           f"set has {r.blanks}")
        return letters, blanks

    def play(self, board: Board, move: Move) -> Board:
        """The board after a move (exchanges and passes leave it unchanged)."""
        return board.with_tiles(move.placed) if move.kind == "play" else board

    def tile_score(self, word: str) -> int:
        """Sum of the tile values of a word; uppercase letters and "?" are blanks (0).

        Raises:
            BadInput: a character that is not a letter of the game.
        """
        total = 0
        for ch in word:
            if ch == BLANK_SYMBOL or (ch != ch.lower() and ch.lower() in self.rules.values):
                continue
            if ch not in self.rules.values:
                raise BadInput(f"{ch!r} is not a letter of {self.id} (letters: {self.alphabet})")
            total += self.rules.values[ch]
        return total

    def rack_score(self, word: str, rack: str) -> int:
        """Tile score of `word` spelled from `rack` ("?" = blank): letters the rack lacks are
        blanks and score 0, as on word-finder sites.

        Raises:
            BadInput: a character that is not a letter of the game.
        """
        left = {}
        for ch in rack.lower():
            left[ch] = left.get(ch, 0) + 1
        spelled = []
        for ch in word:
            if left.get(ch, 0):
                left[ch] -= 1
                spelled.append(ch)
            else:
                spelled.append(BLANK_SYMBOL)
        return self.tile_score("".join(spelled))

    # --- moves ---------------------------------------------------------------------------
    def moves(self, board: Board, rack: str, top: int | None = None,
              bag: int | None = None) -> list[Move]:
        """Every legal move with its score, best first.

        Plays come first among equal scores, then exchanges, then the pass; ties among plays
        are ordered by direction, row, column and tiles, so the order is deterministic.

        Args:
            board: the position.
            rack: the tiles to play, "?" for a blank.
            top: return only the best `top` moves (the search prunes by a score bound).
            bag: tiles in the bag, deciding whether exchanges are allowed; by default the
                unseen tiles minus one full opponent rack.

        Raises:
            BadInput: a rack the game or the board does not allow, or top < 1.
        """
        if top is not None and top < 1:
            raise BadInput(f"top must be at least 1, not {top}")
        r = self.rules
        letters, blanks = self.parse_rack(rack, board)
        tables, to_lex, to_game, values, all_letters = self._lexicon()
        layout = r.layout
        cells = [to_lex[c & LETTER_MASK] | (c & BLANK) for c in board.cells]
        across, down = orientations(
            tables, cells, layout.size, layout.start[0] * layout.size + layout.start[1],
            layout.letter_mult, layout.word_mult, values, r.rack_size, r.bingo, all_letters,
            r.max_word_length)
        counts = [0] * (LETTER_MASK + 1)
        for letter, n in letters.items():
            counts[to_lex[self.alphabet.index(letter) + 1]] = n
        raw = generate(tables, across, down, counts, blanks, all_letters, r.min_word_length,
                       r.max_word_length, top)
        moves = []
        same_codes = to_lex == list(range(len(to_lex)))
        for negative, direction, line, start, codes, blank_bits in raw:
            row, col = (line, start) if direction == ACROSS else (start, line)
            if not same_codes:
                codes = tuple(to_game[c] for c in codes)
            moves.append(Move("play", row, col, _DIRECTIONS[direction], -negative, "", codes,
                              board, blank_bits))
        in_rack = sum(letters.values()) + blanks
        if bag is None:
            on_board = sum(1 for code in board.cells if code)
            bag = max(0, r.total_tiles - on_board - in_rack - r.rack_size)
        if bag >= r.exchange_min_bag and in_rack:
            tiles = "".join(letter * letters[letter] for letter in sorted(letters))
            tiles += BLANK_SYMBOL * blanks
            subsets = sorted({"".join(c) for k in range(1, len(tiles) + 1)
                              for c in itertools.combinations(tiles, k)})
            moves.extend(Move("exchange", exchanged=s) for s in subsets)
        moves.append(Move("pass"))
        # Plays are sorted best first and score >= 0; exchanges and the pass (score 0) follow
        # them, which is their place in the order (plays first among equal scores).
        return moves[:top] if top is not None else moves

    # --- one placement -------------------------------------------------------------------
    def _placement(self, placement) -> list:
        if isinstance(placement, Move):
            return list(placement.placed)
        try:
            return [(int(r), int(c), str(letter), bool(blank))
                    for r, c, letter, blank in placement]
        except (TypeError, ValueError):
            raise BadInput("a placement is a list of (row, col, letter, is_blank)") from None

    def _geometry(self, board: Board, placed: list) -> tuple[list, str | None]:
        """Reasons a placement is not a legal shape (ignoring the lexicon), and its direction."""
        r = self.rules
        n = r.layout.size
        reasons = []
        if not placed:
            return ["no tiles placed"], None
        if len(placed) > r.rack_size:
            reasons.append(f"{len(placed)} tiles placed; a rack holds {r.rack_size}")
        seen = set()
        for row, col, letter, _blank in placed:
            if not (0 <= row < n and 0 <= col < n):
                reasons.append(f"square row {row} col {col} is off the board")
            elif board.cells[row * n + col]:
                reasons.append(f"square row {row} col {col} already holds "
                               f"{board.letter(row, col)!r}")
            elif (row, col) in seen:
                reasons.append(f"two tiles on row {row} col {col}")
            if letter not in r.counts:
                reasons.append(f"{letter!r} is not a letter of {r.id}")
            seen.add((row, col))
        if reasons:
            return reasons, None
        rows = {row for row, _c, _l, _b in placed}
        cols = {col for _r, col, _l, _b in placed}
        if len(rows) > 1 and len(cols) > 1:
            return ["tiles not in one line"], None
        after = board.with_tiles(placed)
        if len(rows) == 1 and (len(cols) > 1 or len(_line_word(after, *placed[0][:2], 0, 1)) > 1):
            direction = "H"
        else:
            direction = "V"
        dr, dc = (0, 1) if direction == "H" else (1, 0)
        first = min(placed)[:2]
        last = max(placed)[:2]
        row, col = first
        while (row, col) != last:
            row, col = row + dr, col + dc
            if not after.cells[row * n + col]:
                return [f"tiles not contiguous: row {row} col {col} is empty"], None
        start = r.layout.start
        if board.is_empty():
            if start not in {(row, col) for row, col, _l, _b in placed}:
                reasons.append(f"first move must cover the start square row {start[0]} col "
                               f"{start[1]}")
        elif not any(board.cells[j] for row, col, _l, _b in placed
                     for j in _neighbours(row, col, n)):
            reasons.append("not connected: no new tile touches a tile on the board")
        main = _line_word(after, first[0], first[1], dr, dc)
        if len(main) < r.min_word_length:
            reasons.append(f"main word {main.upper()} is shorter than {r.min_word_length} "
                           "letters")
        return reasons, direction

    def validate(self, board: Board, placement, rack: str | None = None) -> list[str]:
        """Why a placement is illegal; an empty list when it is legal.

        Args:
            board: the position.
            placement: a Move, or a list of (row, col, letter, is_blank) new tiles.
            rack: when given, the placement must use tiles of this rack.

        Returns:
            One reason per problem, e.g. "tiles not in one line", "not connected: ...",
            "cross word QX is not a word", "main word ZZZQ is not a word".
        """
        placed = self._placement(placement)
        reasons, direction = self._geometry(board, placed)
        if rack is not None and not reasons:
            letters, blanks = self.parse_rack(rack)
            need_blanks = sum(1 for p in placed if p[3])
            for letter in sorted({p[2] for p in placed if not p[3]}):
                need = sum(1 for p in placed if not p[3] and p[2] == letter)
                if need > letters.get(letter, 0):
                    reasons.append(f"rack {rack!r} has {letters.get(letter, 0)} {letter!r}, "
                                   f"the placement uses {need}")
            if need_blanks > blanks:
                reasons.append(f"rack {rack!r} has {blanks} blanks, the placement uses "
                               f"{need_blanks}")
        if reasons:
            return reasons
        r = self.rules
        move = Move("play", *self._word_start(board, placed, direction), direction,
                    codes=self._word_codes(board, placed, direction), board=board)
        for k, word in enumerate(move.words):
            what = "main word" if k == 0 else "cross word"
            if len(word) > r.max_word_length:
                reasons.append(f"{what} {word.upper()} is longer than {r.max_word_length} "
                               "letters")
            elif not self.is_word(word):
                reasons.append(f"{what} {word.upper()} is not a word")
        return reasons

    def _word_start(self, board: Board, placed: list, direction: str) -> tuple[int, int]:
        n = board.size
        dr, dc = (0, 1) if direction == "H" else (1, 0)
        row, col = min(placed)[:2]
        after = board.with_tiles(placed)
        while 0 <= row - dr < n and 0 <= col - dc < n and after.cells[(row - dr) * n + col - dc]:
            row, col = row - dr, col - dc
        return row, col

    def _word_codes(self, board: Board, placed: list, direction: str) -> tuple:
        n = board.size
        dr, dc = (0, 1) if direction == "H" else (1, 0)
        after = board.with_tiles(placed)
        row, col = self._word_start(board, placed, direction)
        codes = []
        while 0 <= row < n and 0 <= col < n and after.cells[row * n + col]:
            codes.append(after.cells[row * n + col])
            row, col = row + dr, col + dc
        return tuple(codes)

    def score(self, board: Board, move) -> int:
        """Score a placement by the game's rules (lookup/scoring.py), whatever the lexicon says.

        Args:
            board: the position before the move.
            move: a Move (exchanges and passes score 0) or a list of (row, col, letter,
                is_blank) new tiles.

        Raises:
            BadInput: the tiles do not form one legal shape (see validate).
        """
        if isinstance(move, Move) and move.kind != "play":
            return 0
        placed = self._placement(move)
        reasons, direction = self._geometry(board, placed)
        if reasons:
            raise BadInput(f"cannot score this placement: {reasons[0]}")
        r = self.rules
        n = r.layout.size
        values = tile_values([0] + [r.values[ch] for ch in self.alphabet])
        cells = list(board.cells)
        letter_mult, word_mult = r.layout.letter_mult, r.layout.word_mult
        row, col = self._word_start(board, placed, direction)
        length = len(self._word_codes(board, placed, direction))
        word = list(cells)
        for prow, pcol, letter, blank in placed:
            word[prow * n + pcol] = (self.alphabet.index(letter) + 1) | (BLANK if blank else 0)
        if direction == "V":
            # Scoring reads lines across: score a down move on the transposed board.
            cells, word, letter_mult, word_mult = (transposed(x, n) for x in (
                cells, word, letter_mult, word_mult))
            row, col = col, row
        sheet = score_sheet(cells, n, letter_mult, word_mult, values, r.rack_size, r.bingo)
        return score_word(sheet, cells, word, row * n + col, row * n + col + length - 1)

    def render(self, board: Board, move: Move | None = None) -> str:
        """The board as text, with a move's new tiles in brackets.

        Tiles are lowercase (a blank uppercase); empty squares show their premium: = triple
        word, - double word, " triple letter, ' double letter.
        """
        n = board.size
        new = {(row, col) for row, col, _l, _b in (move.placed if move is not None else [])}
        shown = self.play(board, move) if move is not None else board
        premiums = self.rules.layout.premiums
        lines = ["    " + "".join(f"{c:>3}" for c in range(n))]
        for row in range(n):
            squares = []
            for col in range(n):
                code = shown.cells[row * n + col]
                if not code:
                    squares.append(f" {_RENDER_PREMIUM[premiums[row * n + col]]} ")
                    continue
                text = _tile_text(self.alphabet, code)
                squares.append(f"[{text}]" if (row, col) in new else f" {text} ")
            lines.append(f"{row:>3} " + "".join(squares))
        lines.append("[x] new tile, X blank; = TW  - DW  \" TL  ' DL")
        return "\n".join(lines) + "\n"


def _neighbours(row: int, col: int, n: int) -> list[int]:
    out = []
    if row > 0:
        out.append((row - 1) * n + col)
    if row < n - 1:
        out.append((row + 1) * n + col)
    if col > 0:
        out.append(row * n + col - 1)
    if col < n - 1:
        out.append(row * n + col + 1)
    return out


# A bounded cache: each lexicon's tables hold a list entry per GADDAG arc (tens of MB), and
# two games share one lexicon (scrabble-en and wordfeud-en read ENABLE).
@functools.lru_cache(maxsize=4)
def _lexicon_tables(path: str) -> GaddagTables:
    from lookup.gaddag import load_gaddag

    require_file(path, f"artifacts/lexicons/{Path(path).name}")
    graph = load_gaddag(path)
    return gaddag_tables(graph.alphabet, graph.arcs, graph.root)


@functools.lru_cache(maxsize=None)
def crossword_game(game_id: str) -> CrosswordGame:
    """The crossword game `game_id` (rules loaded now, lexicon on first use).

    Raises:
        UnknownName: no such game.
        ArtifactMissing: the game's rules have not been built (names the make target).
    """
    path = artifacts_dir() / "crossword" / f"{game_id}.json"
    if not path.is_file() and game_id not in BUILTIN_GAMES:
        built = sorted(p.stem for p in path.parent.glob("*.json")) if path.parent.is_dir() else []
        known = ", ".join(sorted(set(BUILTIN_GAMES) | set(built)))
        raise UnknownName(f"unknown crossword game {game_id!r}; known games: {known}")
    return CrosswordGame(load_rules(path))
