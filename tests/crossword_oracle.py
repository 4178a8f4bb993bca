"""Slow, obviously correct references for the crossword games, over a plain set of words.

`brute_force_moves` tries every line, every start, every length and every word of that length
that fits the line, checks all cross words against the word set and scores each placement with
`reference_score`, which is written from the rules in docs/GAMES.md and shares no code with
lookup/crossword/scoring.py. Boards are plain lists of rows of (letter, is_blank) or None.
"""

from collections import Counter
from dataclasses import replace
from itertools import combinations


def grid_of(board) -> list[list]:
    """A lookup Board as rows of (letter, is_blank) or None."""
    n = board.size
    return [[(board.letter(r, c), board.is_blank(r, c)) if board.letter(r, c) else None
             for c in range(n)] for r in range(n)]


def _run(tile_at, n, r, c, dr, dc):
    """Squares of the maximal run of tiles through (r, c) along (dr, dc), in reading order."""
    while 0 <= r - dr < n and 0 <= c - dc < n and tile_at(r - dr, c - dc):
        r, c = r - dr, c - dc
    squares = []
    while 0 <= r < n and 0 <= c < n and tile_at(r, c):
        squares.append((r, c))
        r, c = r + dr, c + dc
    return squares


def _overlay(grid, new):
    """The board after placing `new`, as a function (row, col) -> tile or None."""
    return lambda r, c: new.get((r, c)) or grid[r][c]


def reference_score(rules, grid, new: dict) -> int:
    """Score of placing `new` {(r, c): (letter, is_blank)} on `grid` (the board before it).

    docs/GAMES.md "### Scoring": letter premiums on the letter, then word premiums on the word
    (several multiply), premiums only under new tiles, each cross word formed by a new tile
    scored in full with that tile's premiums, a blank worth 0 (its word premium still counts),
    plus the bingo when the whole rack (rules.rack_size tiles) is placed.
    """
    n = len(grid)
    after = _overlay(grid, new)

    def word_score(squares):
        return _word_score(rules, after, new, squares)

    rows = {r for r, _c in new}
    if len(rows) == 1:
        r, c = next(iter(new))
        across = _run(after, n, r, c, 0, 1)
        main_dir = (0, 1) if len(new) > 1 or len(across) > 1 else (1, 0)
    else:
        main_dir = (1, 0)
    r0, c0 = min(new)
    total = word_score(_run(after, n, r0, c0, *main_dir))
    cross_dir = (main_dir[1], main_dir[0])
    for r, c in new:
        cross = _run(after, n, r, c, *cross_dir)
        if len(cross) > 1:
            total += word_score(cross)
    if len(new) == rules.rack_size:
        total += rules.bingo
    return total


def _word_score(rules, after, new: dict, squares) -> int:
    """One word on `squares` of the board `after`: letter premiums on the letter, then word
    premiums (several multiply), premiums only under the `new` tiles, a blank worth 0."""
    n = rules.layout.size
    letter_premium = {"DL": 2, "TL": 3}
    word_premium = {"DW": 2, "TW": 3}
    total = 0
    factor = 1
    for r, c in squares:
        letter, is_blank = after(r, c)
        value = 0 if is_blank else rules.values[letter]
        if (r, c) in new:
            premium = rules.layout.premiums[r * n + c]
            value *= letter_premium.get(premium, 1)
            factor *= word_premium.get(premium, 1)
        total += value
    return total * factor


class WordIndex:
    """A plain word set with two lookup tables that only narrow down which words to try.

    `at[(length, i, letter)]` is the set of words of that length with that letter at i;
    `by_length[length]` every word of that length. Membership stays `word in words`.
    """

    def __init__(self, words, alphabet: str):
        self.words = set(words)
        self.bit = {letter: 1 << k for k, letter in enumerate(alphabet)}
        self.by_length: dict[int, list] = {}
        self.at: dict[tuple, set] = {}
        self.mask: dict[str, int] = {}
        for w in sorted(self.words):
            self.by_length.setdefault(len(w), []).append(w)
            for i, letter in enumerate(w):
                self.at.setdefault((len(w), i, letter), set()).add(w)
            m = 0
            for letter in w:
                m |= self.bit.get(letter, 0)
            self.mask[w] = m


def brute_force_moves(rules, grid, rack: str, index: WordIndex) -> set:
    """Every legal placement as (direction, row, col, letters, score).

    Tries every line, start and length; for each, every word of that length that has the
    board's letters where the line has tiles and whose other letters the rack can supply
    (blanks standing for anything); every cross word is looked up in the plain word set and
    every placement scored by reference_score. `letters` spells the main word with blanks
    uppercase; `direction` is "H" or "V". A one-tile placement is listed once: "H" when it has
    a horizontal neighbour, else "V".
    """
    n = len(grid)
    words = index.words
    have = Counter(ch for ch in rack if ch != "?")
    blanks = rack.count("?")
    tiles = len(rack)
    rack_bits = 0
    for letter in have:
        rack_bits |= index.bit[letter]
    empty_board = not any(any(row) for row in grid)
    on_board = grid_words(grid)
    start = rules.layout.start
    # Words the rack alone can spell, by length: the candidates of lines without tiles.
    spellable: dict[int, list] = {}
    for length in range(rules.min_word_length, tiles + 1):
        for word in index.by_length.get(length, ()):
            if (index.mask[word] & ~rack_bits).bit_count() <= blanks and sum(
                    max(0, k - have[ch]) for ch, k in Counter(word).items()) <= blanks:
                spellable.setdefault(length, []).append(word)
    found = set()
    for direction, (dr, dc) in (("H", (0, 1)), ("V", (1, 0))):
        for line in range(n):
            for first in range(n):
                for last in range(first + rules.min_word_length - 1,
                                  min(n, first + rules.max_word_length)):
                    squares = [(line, k) if direction == "H" else (k, line)
                               for k in range(first, last + 1)]
                    before = (squares[0][0] - dr, squares[0][1] - dc)
                    after = (squares[-1][0] + dr, squares[-1][1] + dc)
                    if any(0 <= r < n and 0 <= c < n and grid[r][c] for r, c in (before, after)):
                        continue
                    holes = [i for i, (r, c) in enumerate(squares) if not grid[r][c]]
                    if not holes or len(holes) > tiles:
                        continue
                    if empty_board:
                        if start not in squares:
                            continue
                    elif not any(grid[r][c] for r, c in squares) and not any(
                            0 <= r + a < n and 0 <= c + b < n and grid[r + a][c + b]
                            for r, c in squares for a, b in ((1, 0), (-1, 0), (0, 1), (0, -1))):
                        continue
                    if direction == "V" and len(holes) == 1:
                        r, c = squares[holes[0]]
                        if (c > 0 and grid[r][c - 1]) or (c < n - 1 and grid[r][c + 1]):
                            continue  # listed as "H"
                    fixed = [(i, grid[r][c][0]) for i, (r, c) in enumerate(squares) if grid[r][c]]
                    length = len(squares)
                    if fixed:
                        sets = sorted((index.at.get((length, i, letter), set())
                                       for i, letter in fixed), key=len)
                        candidates = set.intersection(*sets) if sets[0] else set()
                    else:
                        candidates = spellable.get(length, ())
                    allowed = rack_bits
                    for _i, letter in fixed:
                        allowed |= index.bit.get(letter, 0)
                    for word in candidates:
                        if (index.mask[word] & ~allowed).bit_count() > blanks:
                            continue  # more letters neither on the rack nor on the line
                            # than blanks to stand for them
                        if any(word[i] != letter for i, letter in fixed):
                            continue
                        needed = Counter(word[i] for i in holes)
                        if sum(max(0, k - have[ch]) for ch, k in needed.items()) > blanks:
                            continue
                        if not _cross_words_ok(grid, {squares[i]: (word[i], False)
                                                      for i in holes}, direction, words):
                            continue
                        for wild in range(blanks + 1):
                            for blank_holes in combinations(holes, wild):
                                real = Counter(word[i] for i in holes if i not in blank_holes)
                                if any(k > have[ch] for ch, k in real.items()):
                                    continue
                                new = {squares[i]: (word[i], i in blank_holes) for i in holes}
                                letters = "".join(word[i].upper() if i in blank_holes else
                                                  word[i] if i in holes else
                                                  (grid[r][c][0].upper() if grid[r][c][1]
                                                   else grid[r][c][0])
                                                  for i, (r, c) in enumerate(squares))
                                if not rules.repeat_words and repeats(
                                        reference_words(grid, new), on_board):
                                    continue
                                row, col = squares[0]
                                found.add((direction, row, col, letters,
                                           reference_score(rules, grid, new)))
    return found


def reference_words(grid, new: dict) -> list[str]:
    """Every word placing `new` forms: each maximal run of 2+ tiles, across or down, through a
    new tile, once per run."""
    n = len(grid)
    after = _overlay(grid, new)
    runs = []
    for dr, dc in ((0, 1), (1, 0)):
        for r, c in sorted(new):
            run = _run(after, n, r, c, dr, dc)
            if len(run) > 1 and run not in runs:
                runs.append(run)
    return ["".join(after(a, b)[0] for a, b in run) for run in runs]


def grid_words(grid) -> set[str]:
    """Every run of 2+ tiles on the board, across and down."""
    n = len(grid)
    tiles = {(r, c): grid[r][c] for r in range(n) for c in range(n) if grid[r][c]}
    empty = [[None] * n for _ in range(n)]
    return set(reference_words(empty, tiles))


def repeats(words: list[str], played: set[str]) -> bool:
    """True when a word is already played or formed twice (repeat_words = false)."""
    return len(set(words)) < len(words) or any(word in played for word in words)


def _cross_words_ok(grid, new, direction, words) -> bool:
    n = len(grid)
    after = _overlay(grid, new)
    dr, dc = (1, 0) if direction == "H" else (0, 1)
    for r, c in new:
        cross = _run(after, n, r, c, dr, dc)
        if len(cross) > 1 and "".join(after(a, b)[0] for a, b in cross) not in words:
            return False
    return True


def generated(moves) -> set:
    """The plays of lookup moves in brute_force_moves' form."""
    out = set()
    for m in moves:
        if m.kind == "play":
            letters = m.notation().split()[2]
            out.add((m.direction, m.row, m.col, letters, m.score))
    return out


def reference_turn_score(rules, grid, new: dict) -> int:
    """Score of a multi-word turn (docs/GAMES.md "## Erudit"): every run of 2+ tiles through a
    new tile scored on its own, letter premiums on the letter and word premiums on the word
    under the new tiles only, a blank worth 0, plus the bingo once for a full rack."""
    n = len(grid)
    after = _overlay(grid, new)
    total = 0
    seen = []
    for dr, dc in ((0, 1), (1, 0)):
        for r, c in new:
            run = _run(after, n, r, c, dr, dc)
            if len(run) > 1 and run not in seen:
                seen.append(run)
                total += _word_score(rules, after, new, run)
    return total + (rules.bingo if len(new) == rules.rack_size else 0)


def brute_force_turns(rules, grid, rack: str, index: WordIndex, max_parts: int = 3) -> dict:
    """Every legal turn of up to `max_parts` single-line placements, {frozenset of new tiles
    (row, col, letter, is_blank): score}.

    Each placement comes from brute_force_moves on the board the ones before it leave, with
    the tiles left; the final board is then checked from scratch (every word in the word set,
    no word repeated when the rules forbid it) and scored by reference_turn_score.
    """
    step_rules = replace(rules, repeat_words=True)
    on_board = grid_words(grid)
    found = {}

    def extend(new: dict, left: str, parts: int) -> None:
        if parts == max_parts or not left:
            return
        current = [[new.get((r, c)) or grid[r][c] for c in range(len(grid))]
                   for r in range(len(grid))]
        for direction, row, col, letters, _score in brute_force_moves(step_rules, current,
                                                                      left, index):
            dr, dc = (0, 1) if direction == "H" else (1, 0)
            added = {}
            for k, ch in enumerate(letters):
                square = (row + k * dr, col + k * dc)
                if not current[square[0]][square[1]]:
                    added[square] = (ch.lower(), ch != ch.lower())
            tiles = {**new, **added}
            key = frozenset((r, c, letter, blank) for (r, c), (letter, blank) in tiles.items())
            # A set reached again with no fewer parts can add nothing.
            if visited.get(key, max_parts + 1) <= parts + 1:
                continue
            visited[key] = parts + 1
            words = reference_words(grid, tiles)
            if all(word in index.words for word in words) and not (
                    not rules.repeat_words and repeats(words, on_board)):
                found[key] = reference_turn_score(rules, grid, tiles)
            rest = list(left)
            for letter, blank in added.values():
                rest.remove("?" if blank else letter)
            extend(tiles, "".join(rest), parts + 1)

    visited: dict = {}
    extend({}, rack, 0)
    return found
