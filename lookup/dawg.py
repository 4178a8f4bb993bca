"""Queries on a lexicon's word graph: membership, perfect hash, anagrams, unscramble, match.

Reads the runtime index that pipeline/build_dawg.py writes beside a .dawg (and beside the packed
trie of pipeline/build_trie.py, which has the same layout), in place: the arcs, node masks,
counts and the membership double array are views of the memory map.
Results of anagrams/unscramble/match come longest first, then in alphabetical (code point)
order.

Perfect hash: words are numbered 0..n-1 in sorted order. The file stores, for each arc p, the
number of words whose path uses arc p or a later arc of the same node (counts[p]). The index
of a word is the sum, over its letters, of the words under the earlier sibling arcs
(counts[first] - counts[taken]) plus one for every proper prefix that is itself a word.
"""

import unicodedata

from lookup.errors import BadInput
from lookup.formats import (
    ARC_ACCEPTS,
    ARC_CHILD_SHIFT,
    ARC_LAST,
    ARC_TILE_MASK,
    BLANK_SYMBOL,
    GRAPH_MAKE_TARGET,
    MEMBER_ACCEPTS,
    MEMBER_CHILD_SHIFT,
    MEMBER_TILE_MASK,
    corrupt,
)
from lookup.graph import GraphFile

ANY_RUN = "*"
MAX_QUERY_LETTERS = 20  # racks are 7 tiles; 20 covers board letters plus rack in a word finder
MAX_PATTERN_LENGTH = 64
# Membership turns a word into its tile codes with two C calls: encode in a one-byte codec
# that covers the alphabet (ASCII letters for ENABLE, cp1251 for Russian), then a 256-byte
# translation table (letters outside the alphabet become tile 0, which no DAWG node has).
_SINGLE_BYTE_CODECS = ("latin-1", "cp1251", "iso8859_7", "cp1250")
# The hot loops (__contains__, _makeable) inline the layouts for speed: module globals cost a
# dict probe each. This pins the layouts they assume.
assert (ARC_TILE_MASK, ARC_ACCEPTS, ARC_LAST, ARC_CHILD_SHIFT) == (0x3F, 0x40, 0x80, 8)
assert (MEMBER_TILE_MASK, MEMBER_ACCEPTS, MEMBER_CHILD_SHIFT) == (0x3F, 0x40, 7)


def _single_byte_codec(alphabet: str) -> str | None:
    """A codec that writes every letter of the alphabet as one distinct byte, if there is one."""
    for codec in _SINGLE_BYTE_CODECS:
        try:
            encoded = alphabet.encode(codec)
        except UnicodeEncodeError:
            continue
        if len(set(encoded)) == len(alphabet):
            return codec
    return None


class Lexicon:
    """A lexicon: the word graph of a .dawg or .trie file and the queries it answers.

    Build one with lookup.lexicon().
    """

    def __init__(self, graph: GraphFile, name: str):
        if graph.counts is None or graph.member is None:
            raise corrupt(graph.path, "has no perfect-hash counts or membership section",
                          GRAPH_MAKE_TARGET)
        self.name = name
        self.graph = graph
        self.alphabet = graph.alphabet
        self._arcs = graph.arcs
        self._masks = graph.node_mask
        self._counts = graph.counts
        self._member = graph.member
        self._member_root = graph.member_root
        self._code = {letter: code for code, letter in enumerate(self.alphabet, start=1)}
        self._codec = _single_byte_codec(self.alphabet)
        tiles = bytearray(256)
        if self._codec:
            for letter, code in self._code.items():
                tiles[letter.encode(self._codec)[0]] = code
        self._tile_table = bytes(tiles)
        self._rows_by_length = None  # {length: numpy rows}, built by prepare_match

    def __repr__(self):
        """<Lexicon 'enable': 172820 words from artifacts/lexicons/enable.dawg>."""
        return f"<Lexicon {self.name!r}: {len(self)} words from {self.graph.path}>"

    def __len__(self):
        """Number of words."""
        return self.graph.word_count

    def __contains__(self, word) -> bool:
        """Whether `word` (a str, exactly as stored: lowercase, normalized) is a word."""
        if type(word) is not str or not word:
            return False
        if self._codec is None:
            tiles = [self._code.get(letter, 0) for letter in word]
        else:
            try:
                tiles = word.encode(self._codec).translate(self._tile_table)
            except UnicodeEncodeError:
                return False
        # The double array (docs/FORMATS.md "Membership section"): the arc of tile t of the
        # node of base p is slot p + t when that slot's tile is t. Tile 0 (a letter outside
        # the alphabet) never matches an arc of a DAWG or trie.
        member = self._member
        p = self._member_root
        if not p:
            return False
        slot = 0
        for tile in tiles:
            slot = member[p + tile]
            if slot & 0x3F != tile:
                return False
            p = slot >> 7
        return slot & 0x40 != 0

    def __iter__(self):
        """Every word, in sorted order."""
        arcs = self._arcs
        alphabet = self.alphabet
        prefix = []
        stack = [self.graph.root] if self.graph.root else []
        # stack[d] is the arc being explored at depth d; prefix[d] its letter.
        while stack:
            p = stack[-1]
            arc = arcs[p]
            del prefix[len(stack) - 1:]
            prefix.append(alphabet[(arc & ARC_TILE_MASK) - 1])
            if arc & ARC_ACCEPTS:
                yield "".join(prefix)
            child = arc >> ARC_CHILD_SHIFT
            if child:
                stack.append(child)
                continue
            while stack and arcs[stack[-1]] & ARC_LAST:
                stack.pop()
            if stack:
                stack[-1] += 1

    def index(self, word: str) -> int:
        """Position of `word` in the sorted lexicon (a minimal perfect hash).

        Raises:
            KeyError: the word is not in the lexicon.
        """
        counts = self._counts
        arcs = self._arcs
        index = 0
        p = self.graph.root
        last = len(word) - 1
        for depth, letter in enumerate(word):
            tile = self._code.get(letter)
            if not p or tile is None:
                break
            q = p
            arc = arcs[q]
            while arc & ARC_TILE_MASK != tile and not arc & ARC_LAST:
                q += 1
                arc = arcs[q]
            if arc & ARC_TILE_MASK != tile:
                break
            index += counts[p] - counts[q]
            if depth == last:
                if arc & ARC_ACCEPTS:
                    return index
                break
            if arc & ARC_ACCEPTS:
                index += 1
            p = arc >> ARC_CHILD_SHIFT
        raise KeyError(f"{word!r} is not in the {self.name} lexicon")

    def word(self, index: int) -> str:
        """The word at position `index` of the sorted lexicon (inverse of index()).

        Raises:
            IndexError: index outside 0..len(self)-1.
        """
        if not 0 <= index < len(self):
            raise IndexError(f"word index {index} out of range 0..{len(self) - 1}")
        counts = self._counts
        arcs = self._arcs
        letters = []
        p = self.graph.root
        while True:
            arc = arcs[p]
            under = counts[p] - (0 if arc & ARC_LAST else counts[p + 1])
            if index >= under:
                index -= under
                p += 1
                continue
            letters.append(self.alphabet[(arc & ARC_TILE_MASK) - 1])
            if arc & ARC_ACCEPTS:
                if index == 0:
                    return "".join(letters)
                index -= 1
            p = arc >> ARC_CHILD_SHIFT

    # ---- queries with blanks ---------------------------------------------------------------

    def _clean(self, text: str, what: str, extra: str = "") -> str:
        if not isinstance(text, str):
            raise BadInput(f"{what} must be a string, not {type(text).__name__}")
        text = unicodedata.normalize("NFC", text.strip()).lower()
        for ch in text:
            if ch not in self._code and ch not in extra:
                allowed = f"{self.alphabet}{extra}"
                raise BadInput(f"{ch!r} in {what} {text!r} is not in the {self.name} alphabet "
                               f"(use {allowed})")
        return text

    def _rack(self, letters: str, what: str) -> tuple[list, int]:
        letters = self._clean(letters, what, BLANK_SYMBOL)
        if not letters:
            raise BadInput(f"{what} is empty: give at least one letter")
        if len(letters) > MAX_QUERY_LETTERS:
            raise BadInput(f"{what} has {len(letters)} letters; at most {MAX_QUERY_LETTERS}")
        rack = [0] * (len(self.alphabet) + 1)
        for letter in letters:
            if letter != BLANK_SYMBOL:
                rack[self._code[letter]] += 1
        return rack, letters.count(BLANK_SYMBOL)

    def _makeable(self, rack: list, blanks: int, min_len: int, max_len: int, starts: str) -> list:
        """Words of min_len..max_len letters spelled from the rack (blanks any letter), starting
        with `starts`. A real tile is used before a blank: swapping a blank for an equal tile
        never changes which words are makeable, so each prefix is visited at most once.
        """
        arcs = self._arcs
        masks = self._masks
        letter_of = " " + self.alphabet
        found = []

        def rack_walk(p: int, prefix: str, depth: int, rmask: int) -> None:
            # No blank left: only the arcs of the rack's tiles (rmask: bit t set while the
            # rack has tile t), found through the node's mask. A child is entered only when it
            # has one of the tiles left.
            mask = masks[p]
            bits = mask & rmask
            ends = depth >= min_len
            more = depth < max_len
            while bits:
                bit = bits & -bits
                bits ^= bit
                arc = arcs[p + (mask & (bit - 1)).bit_count()]
                tile = arc & 0x3F
                if arc & 0x40 and ends:
                    found.append(prefix + letter_of[tile])
                child = arc >> 8
                if child and more:
                    left = rack[tile] - 1
                    after = rmask if left else rmask ^ bit
                    if masks[child] & after:
                        rack[tile] = left
                        rack_walk(child, prefix + letter_of[tile], depth + 1, after)
                        rack[tile] = left + 1

        def blank_walk(p: int, prefix: str, depth: int, rmask: int, blanks: int) -> None:
            # A blank is left, so every arc may take a tile: scan them in order.
            ends = depth >= min_len
            more = depth < max_len
            while True:
                arc = arcs[p]
                tile = arc & 0x3F
                if arc & 0x40 and ends:
                    found.append(prefix + letter_of[tile])
                child = arc >> 8
                if child and more:
                    # The word is spelled only for a child the walk enters.
                    if rack[tile]:
                        left = rack[tile] - 1
                        rack[tile] = left
                        blank_walk(child, prefix + letter_of[tile], depth + 1,
                                   rmask if left else rmask & ~(1 << tile), blanks)
                        rack[tile] = left + 1
                    elif blanks > 1:
                        blank_walk(child, prefix + letter_of[tile], depth + 1, rmask, blanks - 1)
                    elif masks[child] & rmask:
                        rack_walk(child, prefix + letter_of[tile], depth + 1, rmask)
                if arc & 0x80:
                    return
                p += 1

        # The forced start, a rack tile where the rack has one, else a blank.
        p = self.graph.root
        arc = 0
        for letter in starts:
            tile = self._code[letter]
            if not p or not masks[p] >> tile & 1:
                return []
            if rack[tile]:
                rack[tile] -= 1
            elif blanks:
                blanks -= 1
            else:
                return []
            arc = arcs[p + (masks[p] & ((1 << tile) - 1)).bit_count()]
            p = arc >> 8
        if starts and arc & 0x40 and min_len <= len(starts) <= max_len:
            found.append(starts)
        depth = len(starts) + 1
        rmask = sum(1 << tile for tile, n in enumerate(rack) if n)
        if p and depth <= max_len:
            if blanks:
                blank_walk(p, starts, depth, rmask, blanks)
            elif masks[p] & rmask:
                rack_walk(p, starts, depth, rmask)
        # The walk is depth first with arcs in tile order, so `found` is in code point order.
        found.sort(key=len, reverse=True)  # stable: alphabetical within a length
        return found

    def anagrams(self, letters: str) -> list[str]:
        """Words that use exactly these letters; '?' is a blank (any letter).

        Returns:
            The words, longest first then alphabetical (all have the same length here).

        Raises:
            BadInput: empty, too long, or a letter outside the alphabet.
        """
        rack, blanks = self._rack(letters, "letters")
        total = sum(rack) + blanks
        return self._makeable(rack, blanks, total, total, "")

    def unscramble(self, letters: str, min_len: int = 2, starts: str = "", ends: str = "",
                   contains: str = "") -> list[str]:
        """Every word that can be spelled from some of these letters ('?' = blank).

        The filters constrain the result; their letters still have to come from `letters`.
        A word finder that shows tile scores adds them from the game:
        `crossword_game(id).rack_score(word, letters)` (letters the rack lacks are blanks).

        Args:
            letters: the rack, e.g. "retinas?".
            min_len: shortest word to report.
            starts: the word must start with this.
            ends: the word must end with this.
            contains: the word must contain this.

        Returns:
            Matching words, longest first, then alphabetical.

        Raises:
            BadInput: empty or too long letters, a letter outside the alphabet, or bad min_len.
        """
        rack, blanks = self._rack(letters, "letters")
        if not isinstance(min_len, int) or min_len < 1:
            raise BadInput(f"min_len must be a positive integer, not {min_len!r}")
        starts = self._clean(starts, "starts")
        ends = self._clean(ends, "ends")
        contains = self._clean(contains, "contains")
        words = self._makeable(rack, blanks, min_len, sum(rack) + blanks, starts)
        if ends or contains:
            words = [w for w in words if w.endswith(ends) and contains in w]
        return words

    def prepare_match(self) -> None:
        """Index the words by length so that `match` answers patterns with at most one '*' by
        comparing columns instead of walking the graph. The walk visits every prefix that the
        pattern's leading '?'s allow (20 to 90 ms for '?????f' on the real lexicons, 0.2 ms
        indexed) and, after a '*', every path (0.1 to 0.3 s for '*ing').

        Costs one pass over the words (0.1 to 0.4 s on the real lexicons) and one byte per
        letter of memory, so it is for long-lived processes (the JSON service); a single query
        is faster without it. Answers are the same either way. A no-op for an alphabet that
        has no one-byte codec, and when already prepared.
        """
        if self._codec is None or self._rows_by_length is not None:
            return
        import numpy as np  # here, not at the top: a word lookup starts without numpy

        by_length: dict[int, list[bytes]] = {}
        for word in self:
            by_length.setdefault(len(word), []).append(word.encode(self._codec))
        # rows[i] is the i-th word of its length in sorted (code point) order, one byte a letter.
        self._rows_by_length = {
            length: np.frombuffer(b"".join(words), np.uint8).reshape(len(words), length)
            for length, words in by_length.items()}

    def match(self, pattern: str) -> list[str]:
        """Words matching a pattern: '?' is one letter, '*' any run (even empty), letters fixed.

        Returns:
            Matching words, longest first, then alphabetical.

        Raises:
            BadInput: empty or over-long pattern, or a symbol that is neither a letter of the
                alphabet nor '?' or '*'.
        """
        pattern = self._clean(pattern, "pattern", BLANK_SYMBOL + ANY_RUN)
        if not pattern:
            raise BadInput("pattern is empty: use letters, '?' and '*'")
        if len(pattern) > MAX_PATTERN_LENGTH:
            raise BadInput(f"pattern has {len(pattern)} symbols; at most {MAX_PATTERN_LENGTH}")
        if self._rows_by_length is not None and pattern.count(ANY_RUN) <= 1:
            return self._match_by_columns(pattern)
        return self._match_by_walk(pattern)

    def _match_by_columns(self, pattern: str) -> list[str]:
        """`match` for a pattern with at most one '*', on the index of `prepare_match`: the
        letters before the '*' are fixed columns from the start of a word, those after it from
        the end, in every length the pattern allows.
        """
        import numpy as np

        head, star, tail = pattern.partition(ANY_RUN)
        shortest = len(head) + len(tail)
        lengths = sorted((n for n in self._rows_by_length if n >= shortest), reverse=True) \
            if star else [shortest] if shortest in self._rows_by_length else []
        codec = self._codec
        # (column, byte) of each fixed letter: the tail's columns count from the word's end
        # (negative), so one list serves every length.
        fixed = [(column, letter.encode(codec)[0])
                 for column, letter in [*enumerate(head),
                                        *enumerate(tail, start=-len(tail))]
                 if letter != BLANK_SYMBOL]
        found = []
        for length in lengths:  # longest first; rows are in code point order within a length
            rows = self._rows_by_length[length]
            hits = None
            for column, byte in fixed:
                if hits is None:
                    hits = np.flatnonzero(rows[:, column] == byte)
                else:
                    hits = hits[rows[hits, column] == byte]
            chosen = rows if hits is None else rows[hits]
            found += [word.decode(codec) for word in
                      np.ascontiguousarray(chosen).view(f"S{length}").ravel().tolist()]
        return found

    def _match_by_walk(self, pattern: str) -> list[str]:
        """`match` by walking the graph: a depth-first walk of the pattern's automaton against
        the DAWG that enters only live branches (from which some word completes the pattern).
        """
        # The automaton's states are pattern positions; a set of them is a bit mask, bit
        # len(pattern) meaning "matched". Reading tile t moves each state s whose token is t or
        # '?' to s + 1 (advance[t]) and keeps each '*' state (stay); the closure adds s + 1 for
        # every '*' state s, as '*' may match an empty run.
        end = len(pattern)
        matched = 1 << end
        stay = 0
        advance = [0] * (len(self.alphabet) + 1)
        for position, symbol in enumerate(pattern):
            if symbol == ANY_RUN:
                stay |= 1 << position
            elif symbol == BLANK_SYMBOL:
                for tile in range(1, len(advance)):
                    advance[tile] |= 1 << position
            else:
                advance[self._code[symbol]] |= 1 << position

        def closure(states: int) -> int:
            while True:
                grown = states | ((states & stay) << 1)
                if grown == states:
                    return states
                states = grown

        arcs = self._arcs
        # live[(node, states)]: whether some path from the node completes the pattern. The DAWG
        # shares suffixes, so many prefixes reach one (node, states) and the answer is reused.
        live: dict[tuple[int, int], bool] = {}

        def alive(p: int, states: int) -> bool:
            key = (p, states)
            known = live.get(key)
            if known is not None:
                return known
            result = False
            while True:
                arc = arcs[p]
                after = ((states & advance[arc & ARC_TILE_MASK]) << 1) | (states & stay)
                if after:
                    after = closure(after)
                    child = arc >> ARC_CHILD_SHIFT
                    if (arc & ARC_ACCEPTS and after & matched) or (child and alive(child, after)):
                        result = True
                        break
                if arc & ARC_LAST:
                    break
                p += 1
            live[key] = result
            return result

        alphabet = self.alphabet
        found = []
        prefix = []

        def walk(p: int, states: int) -> None:
            while True:
                arc = arcs[p]
                tile = arc & ARC_TILE_MASK
                after = ((states & advance[tile]) << 1) | (states & stay)
                if after:
                    after = closure(after)
                    child = arc >> ARC_CHILD_SHIFT
                    accepts = arc & ARC_ACCEPTS and after & matched
                    deeper = child and alive(child, after)
                    if accepts or deeper:
                        prefix.append(alphabet[tile - 1])
                        if accepts:
                            found.append("".join(prefix))
                        if deeper:
                            walk(child, after)
                        prefix.pop()
                if arc & ARC_LAST:
                    return
                p += 1

        if self.graph.root:
            walk(self.graph.root, closure(1))
        # The walk is depth first with arcs in tile order, so `found` is in code point order.
        found.sort(key=len, reverse=True)  # stable: alphabetical within a length
        return found
