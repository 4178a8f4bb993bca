"""Choosing a multi-word turn (Erudit): greedy, and the exact search over tile sets.

A turn is searched as parts, single-line plays laid one after another, each legal on the board
the parts before it leave (the step: every single-line play of a board and the tiles left in
the rack). What a turn is worth and whether it is legal depend only on its set of new tiles
(lookup/crossword/turn.py), not on the order of its parts, so a search keeps one state per set.

- greedy (the Erudit article's first method): lay the best-scoring play, then the best one
  the new board and the tiles left allow, until none fits; a play that would leave the turn
  illegal (a repeated word) is skipped.
- full (ClusterSearch): a turn's tiles fall into clusters that score and are judged each on its
  own, so the search lists clusters (parts that extend one cluster, or join two) and packs
  the best sets of separate clusters, bounded by the best cluster of each sub-multiset of
  the rack; ClusterSearch's docstring proves that it finds every turn the plain search does.
- the plain search (TurnSearch.ranked): every state reachable by parts, each expanded once,
  breadth first by number of parts so a state keeps its shortest decomposition (a set in one
  line is a play). A state whose tiles repeat a word is expanded all the same: a later part
  may extend the word. It is the reference the tests hold ClusterSearch to.

The step is the game's one move path, CrosswordGame.line_plays (the compiled move engine when
numba is installed, else the move generator); ClusterSearch also lists the plays that cover
given squares (covering_step: lookup/crossword/turn_kernel.py on the compiled engine). Plays
are tuples in lexicon codes, so the searches work on flat lists of lexicon codes and make Board
and Move objects only for the turns they return.

A set of new tiles whose words are all valid but that no order of single-line parts reaches,
every part legal when laid (two new words that complete each other's cross words), is not a
turn: validate refuses it too (lookup/crossword/turn.py layable; docs/GAMES.md "## Erudit").
"""

import contextlib
import gc
import heapq
import itertools
import math
import time
from collections.abc import Callable
from typing import NamedTuple

import numpy as np

from lookup.crossword.board import BLANK, LETTER_MASK, Board, run_bounds, runs_through
from lookup.crossword.engine import record_play
from lookup.crossword.move import Move
from lookup.crossword.scoring import score_runs
from lookup.crossword.turn_kernel import (
    G_COUNT,
    G_LINES,
    G_MEMBERS,
    GROUP_FIELDS,
    L_CODES,
    L_FORMED,
    L_KEY,
    L_NEW_ZONE,
    L_NEW_ZONE_SQUARES,
    L_SHAPE,
    L_SQUARES,
    L_SWALLOWED,
    L_TILES,
    L_ZONE,
    L_ZONE_SQUARES,
    REQUEST_ONE_LIST,
    REQUEST_THREE_LISTS,
    WORD_LOW_LETTERS,
    ZONE_BITS,
)
from lookup.errors import BadInput

METHODS = ("greedy", "full")
# Clusters whose parts one turn-kernel call lays (ClusterSearch._extend): the threshold it
# prunes with is the one before the call.
LAY_BATCH = 64
# The single plays of a sub-multiset _with_one_apart tries at most (best first).
APART_TRIES = 8
# Join groups whose choices one turn-kernel call lists and screens
# (ClusterSearch._join_groups_compiled).
REACHING_BATCH = 256
_DIRECTIONS = ("H", "V")

# The step: every single-line play of (cells, rack counts), cells the board in lexicon codes
# (row-major, BLANK bit on blanks), counts indexed by lexicon code with the blanks at index 0.
# A play is (-score, direction, line, start, main word codes, blank bits) as
# lookup/crossword/movegen.generate lists it, and the list is sorted (best first, its tie order).
Step = Callable[[list, list], list]


class TurnAnswer(NamedTuple):
    """The answer of a turn search: the best `moves`, whether they are `proven` the best (the
    search finished within its time budget), and the `seconds` it took.
    """

    moves: list
    proven: bool
    seconds: float


def check_budget(seconds) -> None:
    """Raise BadInput unless `seconds` is None or a positive finite number."""
    if seconds is None:
        return
    if (isinstance(seconds, bool) or not isinstance(seconds, int | float)
            or not 0 < seconds < math.inf):
        raise BadInput(f"seconds must be a positive number, not {seconds!r}")


class _State:
    """A set of new tiles: `tiles` ((square, code) in the order laid), the rack `counts` left,
    the `play` that reached it from `parent` first (the parts follow the parents), its
    `score` without the bingo whether or not it is legal, and `legal`.
    """

    __slots__ = ("tiles", "counts", "parent", "play", "score", "legal")

    def __init__(self, tiles, counts, parent, play, score, legal):
        self.tiles = tiles
        self.counts = counts
        self.parent = parent
        self.play = play
        self.score = score
        self.legal = legal


class TurnSearch:
    """The turn search of one position.

    Args:
        cw: the game (lookup/crossword/game.py CrosswordGame).
        board: the position.
        rack: the rack's tile codes (CrosswordGame.rack_codes).
        played: the words the turn may not form (lookup/crossword/turn.played_set); ignored when the
            game's repeat_words is true.
        step: the single-line plays (CrosswordGame.line_plays).

    Attributes:
        expanded, pruned: states whose plays the last search listed, and states it did not
            expand because of the score bound.
    """

    def __init__(self, cw, board: Board, rack: list[int], played: set[str], step: Step):
        rules = cw.rules
        lex = cw.lexicon()
        layout = rules.layout
        self.board = board
        self.size = layout.size
        self.start = layout.start
        self.cells = lex.cells(board)
        self.letter_mult = layout.letter_mult
        self.word_mult = layout.word_mult
        self.values = lex.values
        self.letters = lex.tables.alphabet
        self.to_game = lex.to_game
        self.rack = tuple(lex.rack_counts(rack))
        self.rack_size = rules.rack_size
        self.bingo = rules.bingo
        self.min_length = max(2, rules.min_word_length)
        self.max_length = rules.max_word_length
        self.played = None if rules.repeat_words else played
        self.step = step
        self.expanded = 0
        self.pruned = 0

    # --- states ----------------------------------------------------------------------------
    def _placed_cells(self, state: _State) -> list:
        cells = list(self.cells)
        for square, code in state.tiles:
            cells[square] = code
        return cells

    def _new_tiles(self, cells: list, play: tuple) -> list:
        """The (square, code) of the tiles a play puts on `cells`."""
        _negative, direction, line, start, word, blank_bits = play
        n = self.size
        first, stride = (line * n + start, 1) if direction == 0 else (start * n + line, n)
        new = []
        for i, code in enumerate(word):
            square = first + i * stride
            if not cells[square]:
                new.append((square, code | BLANK if blank_bits >> i & 1 else code))
        return new

    def _left(self, counts: tuple, new: list) -> tuple:
        left = list(counts)
        for _square, code in new:
            left[0 if code & BLANK else code] -= 1
        return tuple(left)

    def _judge(self, cells: list, tiles) -> tuple[int, bool]:
        """(score without the bingo, legal) of the tiles `tiles` ((square, code)), already on
        `cells`: the sum of the runs of two tiles or more through them, each with the premiums
        of the new squares (lookup/crossword/scoring.py score_runs); illegal when a run repeats a
        word (repeat_words = false: on the board, played before, or twice in the turn). Only
        repeats are judged: the parts have checked everything else as they were laid.
        """
        new = {square for square, _code in tiles}
        runs = runs_through(cells, self.size, new)
        total = score_runs(cells, new, runs, self.letter_mult, self.word_mult, self.values,
                           self.rack_size, 0)
        words = None
        if self.played is not None:
            words = ["".join(self.letters[(cells[square] & LETTER_MASK) - 1]
                             for square in range(first, last + 1, step))
                     for first, last, step in runs]
        legal = words is None or (len(set(words)) == len(words)
                                  and not any(word in self.played for word in words))
        return total, legal

    def _turn_score(self, state: _State) -> int:
        return state.score + (self.bingo if len(state.tiles) == self.rack_size else 0)

    def _children(self, state: _State):
        """Yield (play, new tiles, cells with them) for every play from `state` (the cells
        list is shared: the caller reads it before the next child).
        """
        cells = self._placed_cells(state)
        for play in self.step(cells, list(state.counts)):
            new = self._new_tiles(cells, play)
            for square, code in new:
                cells[square] = code
            yield play, new, cells
            for square, _code in new:
                cells[square] = 0

    # --- methods ---------------------------------------------------------------------------
    def greedy(self) -> Move | None:
        """The greedy turn (module docstring), or None when no play fits."""
        state = _State((), self.rack, None, None, 0, True)
        while any(state.counts):
            for play, new, cells in self._children(state):
                tiles = state.tiles + tuple(new)
                score, legal = self._judge(cells, tiles)
                if legal:
                    state = _State(tiles, self._left(state.counts, new), state, play, score,
                                   True)
                    break
            else:
                break
        return self._move(state) if state.tiles else None

    def _search(self) -> list[_State]:
        """Every legal state reachable by parts (module docstring), breadth first."""
        root = _State((), self.rack, None, None, 0, True)
        seen = {frozenset()}
        level = [root]
        found = []
        while level:
            following = []
            for state in level:
                if not any(state.counts):
                    continue
                for play, new, cells in self._children(state):
                    tiles = state.tiles + tuple(new)
                    key = frozenset(tiles)
                    if key in seen:
                        continue
                    seen.add(key)
                    score, legal = self._judge(cells, tiles)
                    child = _State(tiles, self._left(state.counts, new), state, play, score,
                                   legal)
                    following.append(child)
                    if legal:
                        found.append(child)
            level = following
        return found

    def ranked(self) -> list[Move]:
        """Every legal turn, best first, ties: fewer parts, then the new tiles (the plain
        search, every state expanded: the reference ClusterSearch is checked against).
        """
        return [self._move(state) for state in sorted(self._search(), key=self._rank_key)]

    def count_multi_word(self) -> int:
        """How many legal turns of two parts or more the unpruned search finds."""
        return sum(1 for state in self._search() if state.parent.play is not None)

    def _rank_key(self, state: _State) -> tuple:
        n = self.size
        parts = 0
        walk = state
        while walk.play is not None:
            parts += 1
            walk = walk.parent
        tiles = sorted((square // n, square % n, self.letters[(code & LETTER_MASK) - 1],
                        bool(code & BLANK)) for square, code in state.tiles)
        return (-self._turn_score(state), parts, tiles)

    def _move(self, state: _State) -> Move:
        """The Move of a state: its play when it has one part, else a turn of its parts."""
        plays = []
        walk = state
        while walk.play is not None:
            plays.append(walk.play)
            walk = walk.parent
        return self._move_of(plays[::-1], self._turn_score(state))

    def _move_of(self, plays: list, score: int) -> Move:
        """The Move of parts laid in this order, the turn scoring `score`."""
        parts = []
        board = self.board
        for negative, direction, line, start, word, blank_bits in plays:
            row, col = (line, start) if direction == 0 else (start, line)
            move = Move("play", row, col, _DIRECTIONS[direction], -negative, "",
                        tuple(self.to_game[code] for code in word), board, blank_bits)
            parts.append(move)
            board = board.with_tiles(move.placed)
        if len(parts) == 1:
            return parts[0]
        return Move("turn", score=score, parts=tuple(parts))


class _Cluster:
    """A set of new tiles whose words link them all: a component of a turn (ClusterSearch).

    Attributes:
        tiles: (square, code) in the order laid.
        occupied, zone: bitmasks of its squares and of its zone, the first empty square from
            each of its tiles in the four directions (a tile there forms a word with it);
            zone_squares lists the zone.
        joins, join_squares: the squares a part joining it with others must cover one of:
            the zone of its last part when that part extended a cluster, else its zone
            (join_squares listed only when it leaves two rack tiles or more: else it joins
            nothing).
        used: its tiles as a sub-multiset index of the rack (ClusterSearch).
        score: the sum of its words, each with the premiums of its new squares.
        words: its words (tuples of lexicon codes) when the game forbids repeats (else empty);
            legal: none repeated.
        plays: its parts in an order they can be laid; counts: the rack left.
        shape: its tiles with each blank's letter left out (clusters that differ only there
            share it): a frozenset, or from the turn kernel a number (its key's kind).
        one_tile: with one rack tile left, _gain_bound over its zone when the turn kernel
            laid it (else None: _last_tiles works it out).
    """

    __slots__ = ("tiles", "occupied", "zone", "zone_squares", "joins", "join_squares", "used",
                 "score", "words", "legal", "plays", "counts", "shape", "one_tile")


class ClusterSearch:
    """The exact turn search by clusters: the best turns of a position, fast.

    A turn's new tiles fall into clusters: tiles are linked when a word of the turn holds
    both, and a cluster is a class of linked tiles. A cluster's words hold no tile of another,
    so a turn scores the sum of its clusters scored alone on the board (+ the bingo), and is
    legal when each cluster is and no word repeats. Two clusters are separate exactly when
    neither covers a square of the other's zone (a tile on such a square extends a word of the
    other; a word holding tiles of both has, next to the first cluster's tiles, a square its
    zone holds). And the parts of a turn that fall in one cluster, laid in their order, lay
    that cluster alone (each is legal on the smaller board: the words it forms there are the
    same). So the turns TurnSearch reaches are exactly the sets of separate clusters, each
    reached by parts, with rack tiles enough.

    A cluster's last part links the clusters its other parts form (one or more), so clusters
    are found by (1) extensions: a part that covers a square of one cluster's zone (the kernel
    lists only those, lookup/crossword/turn_kernel.py), from the single plays on, breadth
    first; and (2) joins: a part on the board with a group of separate clusters that covers
    a square of each one's zone (`_joins`: groups whose zones lie on one line within reach of
    the tiles left; then the joined cluster's extensions). A join needs to cover, of a
    member that extends a cluster by a last part, only that part's zone: a join that misses
    it is the join of the smaller cluster, then that part as an extension (`_Cluster.joins`).
    Then the best turns are the best packings of separate clusters (`_packings`: depth first,
    each cluster's score bounded by the best cluster of each sub-multiset of the rack, summed
    over a partition of the tiles left); joins run until none adds a cluster, each round
    grouping only groups with a cluster the round before added.

    A cluster or a group that leaves one rack tile is not extended or joined by it when even
    the best one tile could add (`_gain_bound`: its runs across and down at the best value,
    validity aside) leaves the turn, which then uses the whole rack, below the top-th best
    value packed so far (`threshold`; ties kept): so those clusters wait until a packing has
    set it (`_last_tiles`). Every turn those skip scores below `top` turns already found.
    On the turn kernel (the compiled cover) a cluster that is a turn alone, or one with a
    single play apart, raises the threshold as soon as it is found (`_alone`,
    `_with_one_apart`), and a cluster that leaves at most two tiles is not made at all when
    no turn that holds it can reach the threshold (turn_kernel._below, _two_left_bound: what
    its tiles left can add on its zone, validity aside but for its board's cross-checks, or
    in single plays apart).

    On an empty board that its main diagonal mirrors (mirrored_by_diagonal: Erudit's first
    turn), a turn's transpose (rows and columns swapped) is a turn too: its across words are
    the turn's down words, letter for letter, on squares with the same premiums, so it scores
    the same and keeps the same tiles, and its parts are the turn's transposed, each legal
    when laid. Every turn there is one cluster whose first part covers the start square, so
    one of each turn and its transpose has an across first part: the search lays only those
    (about half the clusters) and `best` ranks the transposes of the turns it finds with them.
    The threshold counts a turn found once, as if its transpose were not a turn: lower than
    it might be, so nothing is lost.

    Args:
        search: the TurnSearch of the position (board, rack, rules, step).
        cover: the Cover of covering_step: the plays that cover one of the squares listed
            for their direction, and which of a join's choices of blank letters have a play
            at all (the move generator's, or the turn kernel's, which also lays the plays
            and lists the join groups).
        deadline: time.perf_counter() value at which to stop; the answer is then the best of
            the clusters found so far, and `proven` false.
        leave: rank by equity: leave(tiles kept, lexicon codes with 0 a blank) is their worth
            in points, added to the score (packings bounded with it too).
    """

    def __init__(self, search: TurnSearch, cover: Callable, deadline: float | None = None,
                 leave: Callable | None = None):
        self.search = search
        self.cover = cover
        self.deadline = deadline
        self.size = search.size
        rack = search.rack
        # Sub-multisets of the rack as mixed-radix indexes: digit k counts kinds[k].
        self.kinds = [code for code in range(len(rack)) if rack[code]]
        self.strides = {}
        stride = 1
        for code in self.kinds:
            self.strides[code] = stride
            stride *= rack[code] + 1
        # (The same by tile code, 0 for a code not in the rack: for Cover.lay.)
        self.stride_codes = np.array([self.strides.get(code, 0) for code in range(len(rack))],
                                     dtype=np.int64)
        self.subsets = stride
        self.full = stride - 1
        digits = [tuple(index // self.strides[code] % (rack[code] + 1) for code in self.kinds)
                  for index in range(stride)]
        self.tile_count = [sum(d) for d in digits]
        # The rack left after each sub-multiset.
        self.left_of = []
        for index in range(stride):
            left = list(rack)
            for code, digit in zip(self.kinds, digits[index]):
                left[code] -= digit
            self.left_of.append(tuple(left))
        # The sub-multisets of each, in increasing index order: digit by digit, the least
        # significant first (comparing every pair of sub-multisets took up to 10 ms with two
        # blanks).
        self.within = []
        for m in range(stride):
            inside = [0]
            for code, digit in zip(self.kinds, digits[m]):
                step = self.strides[code]
                inside = [x + j * step for j in range(digit + 1) for x in inside]
            self.within.append(inside)
        # What the tiles kept are worth, by sub-multiset index (ranking by equity).
        self.equity = leave is not None
        self.leave = ([0.0] * stride if leave is None
                      else [float(leave(self.kept(m))) for m in range(stride)])
        # A cluster's words are word keys (word_key), and so are the words it may not form.
        codes = {letter: number + 1 for number, letter in enumerate(search.letters)}
        self.played = (None if search.played is None else
                       {word_key(codes[letter] for letter in word) for word in search.played
                        if all(letter in codes for letter in word)})
        self.seen: dict = {}
        # The choices of a join's clusters tried (_choices; on the turn kernel, the table of
        # Cover.tried_table).
        self.tried = set()
        # _add's layouts by (shape, the last part's squares, extends).
        self.layouts: dict = {}
        self.proven = True
        self.expanded = 0
        # The top-th best value of the packings found so far (-inf before there are `top`):
        # a cluster or join that cannot reach it is not made (_gain_bound).
        self.threshold = float("-inf")
        # Clusters with one rack tile left, expanded once a threshold is known (_last_tiles);
        # the index in `seen` from which the last round of joins has not grouped clusters.
        self.deferred: list = []
        self.grouped = 0
        # self.within as lists for the turn kernel (made when first needed).
        self._within_lists = None
        # The turn kernel's table of the clusters seen (Cover.seen_table), and what its
        # turn_kernel._below and _two_left_bound read (_laid_compiled).
        self.seen_table = None
        self._bounds = None
        # self.left_of as an array, for the turn kernel (made when first needed).
        self._left_of = None
        # The tiles of the clusters that may be members, for the turn kernel's joins:
        # [tile starts, (square, code) rows as an array] by index in _joins's `every`.
        self._every_tiles = None
        # The compiled path: the best values of clusters that are a turn alone (each a
        # packing), which raise the threshold as they are found; and the best single play of
        # each sub-multiset (by index), known once the single plays are laid.
        self.top = 1
        self.alone: list = []
        self.best_single = None
        # The compiled path: the legal single plays of each sub-multiset, best first; the best
        # of those of the sub-multisets of each; the most a leave is worth (_with_one_apart).
        self.singles = None
        self.apart_best = None
        self.leave_most = 0.0
        self.bingo = search.bingo if sum(rack) == search.rack_size else 0
        self.transposes = mirrored_by_diagonal(search)

    @property
    def choices_tried(self) -> int:
        """How many choices of one cluster per class of a group the joins have tried."""
        if isinstance(self.tried, set):
            return len(self.tried)
        return int(self.tried[1][0])

    def kept(self, m: int) -> list[int]:
        """The tiles of sub-multiset `m` as lexicon codes (0 a blank)."""
        tiles = []
        for code in self.kinds:
            tiles += [code] * (m // self.strides[code] % (self.search.rack[code] + 1))
        return tiles

    # --- clusters ----------------------------------------------------------------------
    def _late(self) -> bool:
        if self.deadline is not None and time.perf_counter() > self.deadline:
            self.proven = False
            return True
        return False

    def _zone(self, cells: list, tiles) -> int:
        n = self.size
        zone = 0
        for square, _code in tiles:
            row, col = divmod(square, n)
            for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0)):
                r, c = row + dr, col + dc
                while 0 <= r < n and 0 <= c < n and cells[r * n + c]:
                    r, c = r + dr, c + dc
                if 0 <= r < n and 0 <= c < n:
                    zone |= 1 << (r * n + c)
        return zone

    def _add(self, cells: list, tiles: tuple, new: list, before: tuple, plays: tuple,
             counts: tuple, extends: bool):
        """The cluster of `tiles` (on `cells`), or None when it was found before. `new`: the
        tiles of its last part; `before`: the tiles before it (the cluster it extends, or the
        clusters it joins) as _before gives them. `extends`: the last part extends one
        cluster (then a join needs a part covering the last part's zone, `joins`; see
        _joins), else a join needs one covering its whole zone.
        """
        key = frozenset(tiles)
        known = self.seen.get(key)
        if known is not None:
            # A cluster that uses the whole rack may be found again from a parent whose
            # expansion was deferred (_last_tiles): keep its fewest parts, as breadth first
            # order would have (it has no extensions, so nothing else depends on them).
            if not any(counts) and len(plays) < len(known.plays):
                known.plays = plays
            return None
        s = self.search
        k = _Cluster()
        k.tiles = tiles
        k.one_tile = None
        k.shape = frozenset((square, BLANK if code & BLANK else code) for square, code in tiles)
        # What follows depends only on the squares, the tiles but a blank's letter and the
        # part's squares (the cluster before is the shape less them): worked out once for
        # the clusters that differ only in their blanks' letters, which share it.
        layout_key = (k.shape, tuple(square for square, _code in new), extends)
        layout = self.layouts.get(layout_key)
        if layout is None:
            layout = self.layouts[layout_key] = self._layout(cells, tiles, new, before[0],
                                                             counts, extends)
        (k.occupied, k.used, k.zone, k.zone_squares, k.joins, k.join_squares, gain, formed,
         swallowed) = layout
        _zone, score_before, words_before, _occupied, _used = before
        k.score = score_before + gain
        k.words = ()
        k.legal = True
        if s.played is not None:
            # The words before, less those the part's words swallow, and the part's words.
            words = list(words_before)
            for run in swallowed:
                words.remove(self._word(cells, run))
            k.words = tuple(words) + tuple(self._word(cells, run) for run in formed)
            k.legal = (len(set(k.words)) == len(k.words)
                       and not any(word in self.played for word in k.words))
        k.plays = plays
        k.counts = counts
        self.seen[key] = k
        return k

    def _layout(self, cells: list, tiles: tuple, new: list, zone_before: int, counts: tuple,
                extends: bool) -> tuple:
        """(occupied, used, zone, zone squares, joins, join squares, score gain, runs formed,
        runs swallowed) of the cluster of `tiles` whose last part is `new` (_add).
        """
        occupied = used = 0
        for square, code in tiles:
            occupied |= 1 << square
            used += self.strides[0 if code & BLANK else code]
        # A cluster that uses the rack's last tile has no extension and no other cluster
        # beside it, so no zone; one that leaves a tile joins no group (a group's other
        # clusters and its part need two), so its `joins` are not needed.
        # The zone of the tiles before the last part loses the squares the part covers and
        # gains the part's zone: a square it covers was the first empty square from a tile
        # before, and the first empty square past it is in the part's zone.
        left = sum(counts)
        if left:
            new_zone = self._zone(cells, new)
            zone = zone_before & ~occupied | new_zone
        else:
            new_zone = zone = 0
        joins = new_zone if extends and left >= 2 else zone
        gain, formed, swallowed = self._part_words(cells, occupied, new)
        return (occupied, used, zone, _mask_squares(zone), joins,
                _mask_squares(joins) if left >= 2 else [], gain, formed, swallowed)

    def _part_words(self, cells: list, occupied: int, new: list) -> tuple:
        """(score gain, runs formed, runs swallowed) of the part `new` ((square, code), on
        `cells`) of the cluster of new tiles `occupied` (a bitmask): the runs of two tiles or
        more through the part's tiles, each with the premiums of the squares in `occupied`,
        less the words of the cluster before the part that they hold (runs of two tiles or
        more between the part's squares with a tile of the cluster). The other words of the
        cluster before are the cluster's still: a part's tile next to one along its line would
        put it in such a run. Runs are (first, last, step).
        """
        s = self.search
        n = self.size
        values = s.values
        letter_mult = s.letter_mult
        word_mult = s.word_mult
        placed = {square for square, _code in new}
        gain = 0
        formed = []
        swallowed = []
        for step in (1, n):
            firsts = set()
            for square in placed:
                first, last = run_bounds(cells, n, square, step)
                if first == last or first in firsts:
                    continue
                firsts.add(first)
                formed.append((first, last, step))
                word = 0
                multiplier = 1
                part = part_length = 0
                part_multiplier = 1
                part_fresh = False
                part_first = first
                for index in range(first, last + 1, step):
                    value = values[cells[index]]
                    fresh = occupied >> index & 1
                    if fresh:
                        word += value * letter_mult[index]
                        multiplier *= word_mult[index]
                    else:
                        word += value
                    if index in placed:
                        if part_length >= 2 and part_fresh:
                            gain -= part * part_multiplier
                            swallowed.append((part_first, index - step, step))
                        part = part_length = 0
                        part_multiplier = 1
                        part_fresh = False
                        part_first = index + step
                    else:
                        if fresh:
                            part += value * letter_mult[index]
                            part_multiplier *= word_mult[index]
                            part_fresh = True
                        else:
                            part += value
                        part_length += 1
                if part_length >= 2 and part_fresh:
                    gain -= part * part_multiplier
                    swallowed.append((part_first, last, step))
                gain += word * multiplier
        return gain, formed, swallowed

    def _word(self, cells: list, run: tuple) -> int:
        """The word key of `run` on `cells`."""
        first, last, step = run
        return word_key(cells[first:last + 1:step])

    def _before(self, group) -> tuple:
        """The tiles of the clusters `group` together as _add takes them: (zone, score,
        words, occupied, used).
        """
        zone = score = occupied = used = 0
        words = ()
        for k in group:
            zone |= k.zone
            score += k.score
            words += k.words
            occupied |= k.occupied
            used += k.used
        return zone, score, words, occupied, used

    def _parts(self, group: list, counts: tuple, across: list, down: list,
               extends: bool) -> list:
        """The new clusters of the plays of `counts` on the board with the clusters `group`
        laid that put a tile across on one of the squares `across` or down on one of `down`
        (with no group, each lists every square or none: every play in the directions
        listed); `extends`: they extend group's one cluster, else each covers a square of
        every member's `joins` (a join).
        """
        if self.cover.lay is not None:
            return self._laid_compiled([(group, counts, across, down, extends)])
        s = self.search
        base = tuple(tile for k in group for tile in k.tiles)
        plays_before = tuple(play for k in group for play in k.plays)
        members = [] if extends else group
        if not group:
            plays = [play for play in s.step(list(s.cells), list(counts))
                     if (across if play[1] == 0 else down)]
        else:
            cells = list(s.cells)
            for square, code in base:
                cells[square] = code
            plays = self.cover(cells, counts, across, down)
        return self._laid(base, self._before(group), plays, [k.joins for k in members], counts,
                          plays_before, extends)

    def _laid_compiled(self, requests: list) -> list:
        """_parts of each request (group, counts, across, down, extends) on the turn kernel
        (Cover.lay): the plays listed, laid and scored, and the clusters seen before or that
        cannot count (turn_kernel._below, _two_left_bound) left out, in one call, so that only
        the new clusters are made here.
        """
        s = self.search
        parents = []
        flat = []
        starts = [0]
        before_used = []
        before_score = []
        # (The rack left is the kernel's left_of row of before_used: counts is that row.)
        for group, _counts, across, down, extends in requests:
            if len(group) == 1:
                # (Most requests: one cluster, its tiles, plays and _before's tuple its own.)
                k = group[0]
                base = k.tiles
                before = (k.zone, k.score, k.words, k.occupied, k.used)
                plays = k.plays
                zone = k.zone_squares
            else:
                base = tuple(tile for k in group for tile in k.tiles)
                before = self._before(group)
                plays = tuple(play for k in group for play in k.plays)
                zone = _mask_squares(before[0])
            if across is zone and down is zone:
                flat += [REQUEST_ONE_LIST, len(zone), *zone]
            else:
                flat += [REQUEST_THREE_LISTS, len(across), *across, len(down), *down, len(zone),
                         *zone]
            if extends:
                flat.append(0)
            else:
                flat.append(len(group))
                for k in group:
                    flat += [len(k.join_squares), *k.join_squares]
            flat.append(len(base))
            flat += itertools.chain.from_iterable(base)
            starts.append(len(flat))
            before_used.append(before[4])
            before_score.append(before[1])
            parents.append((base, before, plays, extends))
        if self._bounds is None:
            self._bounds = [self.full, np.array(self.tile_count, dtype=np.int64), 0.0,
                            float(self.bingo), np.array(self.leave, dtype=np.float64),
                            np.array(self.best_single or [], dtype=np.int64)]
        self._bounds[2] = float(self.threshold)
        if self._left_of is None:
            self._left_of = np.array(self.left_of, dtype=np.int64)
        made, rows, records = self.cover.lay(s.cells, flat, starts, before_used, before_score,
                                             self.stride_codes, self._left_of, self.seen_table,
                                             self._bounds)
        found = []
        # (Words are read only when the game forbids repeats: the rows' last fields.)
        row_fields = L_FORMED if self.played is None else rows.shape[1]
        # (Read 64 at a time, the budget looked at between: thousands with two blanks.)
        for first in range(0, len(made), 64):
            if first and self._late():
                break
            found += self._made(parents, made[first:first + 64].tolist(),
                                rows[first:first + 64, :row_fields].tolist(),
                                records[first:first + 64].tolist())
        return found

    def _made(self, parents: list, made: list, rows: list, records: list) -> list:
        """The clusters of turn_kernel.lay_batch's rows (_laid_compiled: `parents` are its
        requests' (tiles before, _before's tuple, plays before, extends)).
        """
        found = []
        for (request, again, used, gain, one_tile), row, record in zip(made, rows, records):
            base, before, plays_before, extends = parents[request]
            zone_before, score_before, words_before, occupied_before, _used = before
            key = row[L_KEY] << 60 | row[L_KEY + 1]
            play = record_play(record)
            if again:
                # (As in _add.)
                known = self.seen[key]
                if len(plays_before) + 1 < len(known.plays):
                    known.plays = plays_before + (play,)
                continue
            left = self.tile_count[self.full - used]
            tiles = row[L_TILES]
            new = tuple(zip(row[L_SQUARES:L_SQUARES + tiles], row[L_CODES:L_CODES + tiles]))
            k = _Cluster()
            k.tiles = base + new
            k.shape = row[L_SHAPE] << 60 | row[L_SHAPE + 1]
            occupied = occupied_before
            for square, _code in new:
                occupied |= 1 << square
            k.occupied = occupied
            k.used = used
            if left:
                zone = (row[L_ZONE] | row[L_ZONE + 1] << ZONE_BITS
                        | row[L_ZONE + 2] << 2 * ZONE_BITS | row[L_ZONE + 3] << 3 * ZONE_BITS)
                zone_squares = row[L_ZONE_SQUARES + 1:L_ZONE_SQUARES + 1 + row[L_ZONE_SQUARES]]
            else:
                zone, zone_squares = 0, []
            k.zone = zone
            k.zone_squares = zone_squares
            k.joins, k.join_squares = zone, zone_squares
            if left < 2:
                k.join_squares = []
            elif extends:
                k.joins = (row[L_NEW_ZONE] | row[L_NEW_ZONE + 1] << ZONE_BITS
                           | row[L_NEW_ZONE + 2] << 2 * ZONE_BITS
                           | row[L_NEW_ZONE + 3] << 3 * ZONE_BITS)
                k.join_squares = row[L_NEW_ZONE_SQUARES + 1:
                                     L_NEW_ZONE_SQUARES + 1 + row[L_NEW_ZONE_SQUARES]]
            k.score = score_before + gain
            k.words = ()
            k.legal = True
            if self.played is not None:
                words = list(words_before)
                at = L_SWALLOWED + 1
                for _ in range(row[L_SWALLOWED]):
                    words.remove(row[at] << 6 * WORD_LOW_LETTERS | row[at + 1])
                    at += 2
                at = L_FORMED + 1
                for _ in range(row[L_FORMED]):
                    words.append(row[at] << 6 * WORD_LOW_LETTERS | row[at + 1])
                    at += 2
                k.words = tuple(words)
                k.legal = len(set(words)) == len(words) and self.played.isdisjoint(words)
            k.plays = plays_before + (play,)
            k.counts = self.left_of[used]
            k.one_tile = one_tile
            self.seen[key] = k
            found.append(k)
            if k.legal:
                value = k.score + (0 if left else self.bingo) + self.leave[self.full - used]
                # (A value at or below the threshold leaves it where it is: most clusters.)
                if value > self.threshold or len(self.alone) < self.top:
                    self._alone(value)
                if (left and self.singles is not None
                        and k.score + self.apart_best[self.full - used] + self.bingo
                        + self.leave_most > self.threshold):
                    self._with_one_apart(k)
        return found

    def _with_one_apart(self, k: _Cluster) -> None:
        """Count the best turns of legal cluster `k` (of two parts or more) with one single
        play apart (_alone): for each sub-multiset of its tiles left, the best such play
        separate from it whose words are not its words. (A turn found early raises the
        threshold sooner: most clusters that _two_left_bound rules out are made before the
        packings find their turns.)
        """
        kept = self.full - k.used
        for x in self.within[kept]:
            if not x:
                continue
            for tried, j in enumerate(self.singles[x]):
                value = (k.score + j.score + (self.bingo if x == kept else 0)
                         + self.leave[kept - x])
                if tried == APART_TRIES or (value <= self.threshold
                                            and len(self.alone) == self.top):
                    break
                if j.occupied & (k.occupied | k.zone) or j.zone & k.occupied:
                    continue
                if self.played is not None and not set(j.words).isdisjoint(k.words):
                    continue
                self._alone(value)
                break

    def _alone(self, value: float) -> None:
        """Count a cluster that is a turn alone, worth `value`: the threshold rises to the
        top-th best such value (each is a packing).
        """
        if len(self.alone) < self.top:
            heapq.heappush(self.alone, value)
        elif value > self.alone[0]:
            heapq.heapreplace(self.alone, value)
        if len(self.alone) == self.top:
            self.threshold = max(self.threshold, self.alone[0])

    def _laid(self, base: tuple, before: tuple, plays: list, required: list, counts: tuple,
              plays_before: tuple, extends: bool) -> list:
        """The new clusters of the plays on the board with `base` laid (`before`: its
        clusters' as _before gives them) whose tiles cover a square of every bitmask of
        `required`; `extends`: the plays extend one cluster.
        """
        s = self.search
        cells = list(s.cells)
        for square, code in base:
            cells[square] = code
        found = []
        for count, play in enumerate(plays):
            # (Thousands of plays with two blanks: the budget is checked among them too;
            # they come best first.)
            if count & 63 == 63 and self._late():
                break
            new = s._new_tiles(cells, play)
            mask = 0
            for square, _code in new:
                mask |= 1 << square
            if not all(mask & zone for zone in required):
                continue
            for square, code in new:
                cells[square] = code
            k = self._add(cells, base + tuple(new), new, before, plays_before + (play,),
                          s._left(counts, new), extends)
            for square, _code in new:
                cells[square] = 0
            if k is not None:
                found.append(k)
        return found

    def _extend(self, work: list) -> None:
        """Add every cluster reached from those of `work` by parts that cover a square of the
        zone, breadth first by parts (so each keeps its fewest parts).
        """
        level = work
        while level:
            following = []
            # (The turn kernel lays the parts of LAY_BATCH clusters in one call.)
            batch = []
            for k in level:
                if not any(k.counts):
                    continue
                if sum(k.counts) == 1:
                    self.deferred.append(k)
                    continue
                if self._late():
                    return
                self.expanded += 1
                if self.cover.lay is None:
                    following += self._parts([k], k.counts, k.zone_squares, k.zone_squares,
                                             True)
                    continue
                batch.append(([k], k.counts, k.zone_squares, k.zone_squares, True))
                if len(batch) == LAY_BATCH:
                    following += self._laid_compiled(batch)
                    batch = []
            if batch:
                if self._late():
                    return
                following += self._laid_compiled(batch)
            level = following

    def _last_tiles(self) -> None:
        """Expand the deferred clusters (one rack tile left) whose one-tile extensions can
        reach the threshold: such an extension uses the whole rack, so it is the whole turn.
        """
        s = self.search
        deferred, self.deferred = self.deferred, []
        # The bound sees tile values, squares and the tile left, not a blank's letter: one
        # per shape (the clusters that differ only in their blanks' letters share it).
        gains = {}
        for k in deferred:
            if self._late():
                return
            gain = k.one_tile
            if gain is None:
                gain = gains.get(k.shape)
            if gain is None:
                cells = list(s.cells)
                for square, code in k.tiles:
                    cells[square] = code
                gain = gains[k.shape] = self._gain_bound(cells, k.occupied, k.zone_squares,
                                                         k.counts)
            if k.score + gain + self.bingo + self.leave[0] < self.threshold:
                continue
            self.expanded += 1
            self._parts([k], k.counts, k.zone_squares, k.zone_squares, True)

    def _gain_bound(self, cells: list, occupied: int, squares, counts: tuple) -> int:
        """The most one more tile on one of `squares` can add to the score of the new tiles
        `occupied` (a bitmask; on `cells`): the runs across and down through it, each with
        the premiums of its new squares and the tile at the best value among `counts` (a
        blank 0), less the words of the new tiles those runs swallow. Every such extension
        scores at most its tiles' score plus this, whatever letter it is and whether its
        words are words.
        """
        s = self.search
        n = self.size
        values = s.values
        letter_mult = s.letter_mult
        word_mult = s.word_mult
        best_value = max((s.values[code] for code in range(1, len(counts)) if counts[code]),
                         default=0)
        best = 0
        for q in squares:
            row, col = divmod(q, n)
            gain = 0
            for step, low, high in ((1, row * n, row * n + n - 1),
                                    (n, col, col + (n - 1) * n)):
                first = q
                while first - step >= low and cells[first - step]:
                    first -= step
                last = q
                while last + step <= high and cells[last + step]:
                    last += step
                if first == last:
                    continue
                # The run with the tile, and the parts on either side that were words of
                # the new tiles (two tiles or more, one of them new).
                word = best_value * letter_mult[q]
                multiplier = word_mult[q]
                for part_first, part_last in ((first, q - step), (q + step, last)):
                    part = 0
                    part_multiplier = 1
                    fresh = False
                    for index in range(part_first, part_last + 1, step):
                        if occupied >> index & 1:
                            part += values[cells[index]] * letter_mult[index]
                            part_multiplier *= word_mult[index]
                            fresh = True
                        else:
                            part += values[cells[index]]
                    word += part
                    multiplier *= part_multiplier
                    if fresh and part_last > part_first:
                        gain -= part * part_multiplier
                gain += word * multiplier
            best = max(best, gain)
        return best

    def _single_plays(self) -> list:
        every = list(range(self.size * self.size))
        found = self._parts([], self.search.rack, every, [] if self.transposes else every,
                            False)
        if self.cover.lay is not None:  # (for turn_kernel._below and _two_left_bound)
            self.best_single = [0] * self.subsets
            for k in found:
                self.best_single[k.used] = max(self.best_single[k.used], k.score)
            self._bounds = None  # (made again with best_single)
            self.singles = [[] for _ in range(self.subsets)]
            for k in sorted(found, key=lambda k: -k.score):
                if k.legal:
                    self.singles[k.used].append(k)
            self.apart_best = [max((self.singles[x][0].score for x in self.within[m]
                                    if x and self.singles[x]), default=float("-inf"))
                               for m in range(self.subsets)]
            self.leave_most = max(self.leave)
        return found

    def _joins(self) -> int:
        """Add the clusters a part makes by joining separate clusters (then their
        extensions); how many. Only groups not tried before, with tiles left for a part
        that covers every zone: on one line, at most that many empty squares apart.
        """
        # Only clusters that leave two tiles or more can be members.
        every = [k for k in self.seen.values() if self.tile_count[self.full - k.used] > 1]
        # Groups are formed of classes of clusters that differ only in their blanks' letters
        # (the same squares, zone, joins and tiles used: all a group's conditions look at),
        # the classes holding a cluster the last round added last; then each choice of one
        # cluster per class is tried.
        by_shape: dict = {}
        for index, k in enumerate(every):
            by_shape.setdefault((k.shape, k.joins), []).append(index)
        old = [ids for ids in by_shape.values() if ids[-1] < self.grouped]
        variants = old + [ids for ids in by_shape.values() if ids[-1] >= self.grouped]
        clusters = [every[ids[0]] for ids in variants]
        self._clusters = clusters
        self._every = every
        self._variants = variants
        # Groups of classes grouped in an earlier round were tried then: a group now needs
        # a member from `fresh` on (a class with a cluster added since).
        self._fresh = len(old) if self.grouped else 0
        self.grouped = len(every)
        before = len(self.seen)
        if self.cover.groups is not None:
            self._join_groups_compiled()
        else:
            self._join_groups()
        return len(self.seen) - before

    def _join_groups_compiled(self) -> None:
        """_join_groups with the groups listed by the turn kernel (turn_kernel.join_groups,
        the same groups in the same order), each tried here.
        """
        s = self.search
        n = self.size
        clusters = self._clusters
        occupied, joins, zone = [], [], []
        occupied_start, join_start, zone_start = [0], [0], [0]
        for k in clusters:
            occupied += [square for square, _code in k.tiles]
            joins += k.join_squares
            zone += k.zone_squares
            occupied_start.append(len(occupied))
            join_start.append(len(joins))
            zone_start.append(len(zone))
        if self._within_lists is None:
            starts, listed = [0], []
            for m in range(self.subsets):
                listed += self.within[m]
                starts.append(len(listed))
            self._within_lists = (np.array(starts, dtype=np.int64),
                                  np.array(listed, dtype=np.int64))
        arrays = [np.array(values, dtype=np.int64) for values in (
            [k.used for k in clusters], occupied_start, occupied, join_start, joins, zone_start,
            zone)]
        groups = self.cover.groups(s.cells, sum(s.rack), self.full,
                                   np.array(self.tile_count, dtype=np.int64),
                                   *self._within_lists, *arrays, self._fresh)
        # The tiles of every cluster that may be a member, by index in `every` (a prefix of
        # it is the last round's).
        # (Kept between rounds as an array, only the clusters added since converted.)
        every = self._every
        if self._every_tiles is None:
            self._every_tiles = [[0], np.zeros((0, 2), dtype=np.int64)]
        tile_start, tiles = self._every_tiles
        added = [tile for k in every[len(tile_start) - 1:] for tile in k.tiles]
        for k in every[len(tile_start) - 1:]:
            tile_start.append(tile_start[-1] + len(k.tiles))
        tiles = self._every_tiles[1] = np.concatenate((tiles, np.fromiter(
            itertools.chain.from_iterable(added), dtype=np.int64,
            count=2 * len(added)).reshape(-1, 2)))
        variant_start = np.zeros(len(self._variants) + 1, dtype=np.int64)
        np.cumsum([len(ids) for ids in self._variants], out=variant_start[1:])
        variants = np.fromiter(itertools.chain.from_iterable(self._variants), dtype=np.int64,
                               count=variant_start[-1])
        request = (arrays[0], arrays[3], arrays[4], variant_start, variants,
                   np.array(tile_start, dtype=np.int64), tiles,
                   np.array([k.score for k in clusters], dtype=np.int64),
                   np.array(self.tile_count, dtype=np.int64), self.full,
                   np.array(self.left_of, dtype=np.int64))
        # The choices that reach are joined in the order _grow would join them; the kernel
        # lists them in batches of groups, so that a time budget is looked at between them
        # (and the one-tile groups see the threshold the joins before raised).
        for first in range(0, len(groups), REACHING_BATCH):
            if self._late():
                return
            found = self.cover.join_choices(s.cells, groups, first,
                                            min(first + REACHING_BATCH, len(groups)), request,
                                            self.threshold, self.bingo + self.leave[0],
                                            self.tried)
            for row in found:
                if self._late():
                    return
                group = groups[row[0]]
                joined = [every[index] for index in row[1:1 + group[G_COUNT]]]
                self._join(joined, [line for line in range(2 * n) if group[G_LINES] >> line & 1])

    def _join_groups(self) -> None:
        """Try every group of separate classes a part may join (_grow), in Python."""
        s = self.search
        n = self.size
        clusters = self._clusters
        # Bitsets of class indexes: by square occupied, by zone square of a line within
        # reach of a position, by sub-multiset used.
        # (Gathered as index lists, then made bitsets at once: a bit set at a time would
        # copy a bitset of all the classes each time.)
        rack_tiles = sum(s.rack)
        occupied_by = [[] for _ in range(n * n)]
        zone_at = [[[] for _ in range(n)] for _ in range(2 * n)]
        by_used = [[] for _ in range(self.subsets)]
        by_size = [[] for _ in range(rack_tiles + 1)]
        for index, k in enumerate(clusters):
            for square in _mask_squares(k.occupied):
                occupied_by[square].append(index)
            for square in k.join_squares:
                row, col = divmod(square, n)
                zone_at[row][col].append(index)
                zone_at[n + col][row].append(index)
            by_used[k.used].append(index)
            by_size[self.tile_count[k.used]].append(index)
        count = len(clusters)
        occupied_by = [_bitset(indexes, count) for indexes in occupied_by]
        zone_at = [[_bitset(indexes, count) for indexes in line] for line in zone_at]
        by_used = [_bitset(indexes, count) for indexes in by_used]
        by_size = [_bitset(indexes, count) for indexes in by_size]
        # reach[b][line][pos]: clusters with a zone square on the line at most b empty
        # squares from pos (both ends counted), for a part of at most b tiles.
        reach = [None]
        for budget in range(1, rack_tiles):
            by_line = []
            for line in range(2 * n):
                squares = ([line * n + c for c in range(n)] if line < n
                           else [r * n + line - n for r in range(n)])
                empty = [0 if s.cells[square] else 1 for square in squares]
                near = []
                for pos in range(n):
                    bits = 0
                    for direction in (1, -1):
                        count = 0
                        other = pos
                        while 0 <= other < n:
                            count += empty[other]
                            if count > budget:
                                break
                            bits |= zone_at[line][other]
                            other += direction
                    near.append(bits)
                by_line.append(near)
            reach.append(by_line)
        self._occupied_by = occupied_by
        self._by_used = by_used
        self._by_size = by_size
        self._reach = reach
        self._fits = {}
        self._near_cache = {}
        self._blocking_cache = {}
        # A member of such a group has a join square on a line near one of a fresh cluster
        # (within the reach of the rack's tiles but one, from either side).
        near_fresh = -1
        if self._fresh:
            near_fresh = 0
        if self._fresh and rack_tiles > 2:  # (a group and its part need three tiles)
            for index in range(self._fresh, len(clusters)):
                if self.tile_count[self.full - clusters[index].used] >= 1:
                    for bits in self._near_lines(index, max(1, rack_tiles - 2)).values():
                        near_fresh |= bits
        for a, k1 in enumerate(clusters):
            left = self.tile_count[self.full - k1.used]
            if left < 2 or not near_fresh >> a & 1:
                continue
            # (The clusters `blocked` are masked out of the candidates, not of the lines.)
            lines = [None] + [self._near_lines(a, budget) for budget in range(1, left)]
            if not self._grow((a,), lines, k1.used, self._blocking(a)):
                break

    def _blocking(self, index: int) -> int:
        """The clusters that are not separate from cluster `index` (they cover a square of
        it or of its zone, or its zone covers one of theirs: the same thing).
        """
        blocked = self._blocking_cache.get(index)
        if blocked is None:
            k = self._clusters[index]
            blocked = 0
            for square in k.zone_squares:
                blocked |= self._occupied_by[square]
            for square, _code in k.tiles:
                blocked |= self._occupied_by[square]
            self._blocking_cache[index] = blocked
        return blocked

    def _near_lines(self, index: int, budget: int) -> dict:
        """Per line (rows, then columns as size + col), the clusters with a zone square on it
        at most `budget` empty squares from one of cluster `index`'s join squares.
        """
        lines = self._near_cache.get((index, budget))
        if lines is None:
            n = self.size
            reach = self._reach[budget]
            lines = {}
            for square in self._clusters[index].join_squares:
                row, col = divmod(square, n)
                lines[row] = lines.get(row, 0) | reach[row][col]
                lines[n + col] = lines.get(n + col, 0) | reach[n + col][row]
            self._near_cache[(index, budget)] = lines
        return lines

    def _near_on(self, index: int, budget: int, lines: list) -> dict:
        """_near_lines on `lines` only (not kept: groups ask for few lines each)."""
        n = self.size
        reach = self._reach[budget]
        wanted = set(lines)
        near = {}
        for square in self._clusters[index].join_squares:
            row, col = divmod(square, n)
            if row in wanted:
                near[row] = near.get(row, 0) | reach[row][col]
            if n + col in wanted:
                near[n + col] = near.get(n + col, 0) | reach[n + col][row]
        return near

    def _grow(self, group: tuple, lines: list, used: int, blocked: int) -> bool:
        """Join `group` with every further cluster (later in the list, separate from the
        group, its tiles fitting with one to spare, its zone near each member's on a line
        where they all are), then grow the larger groups; False when time ran out.

        lines[budget]: per line, the clusters with a join square on it at most `budget` empty
        squares from one of every member's: a part of the tiles left after a cluster of t
        tiles joins covers at most (tiles left - t) empty squares, from one member's square
        to another's.
        """
        fits = self._fits.get(used)
        if fits is None:
            fits = 0
            spare = self.full - used
            for x in self.within[spare]:
                if x != spare:
                    fits |= self._by_used[x]
            self._fits[used] = fits
        left = self.tile_count[self.full - used]
        candidates = 0
        for size in range(1, left):
            near = 0
            for bits in lines[left - size].values():
                near |= bits
            candidates |= near & self._by_size[size]
        last = group[-1]
        candidates = (candidates & fits & ~blocked) >> (last + 1)
        # Later members come from these candidates (the lines only narrow): a group of
        # clusters all grouped before, and no fresh one among them, was tried in full.
        if last < self._fresh and not candidates >> (self._fresh - last - 1):
            return True
        b = last
        while candidates:
            low = candidates & -candidates
            step = low.bit_length()
            b += step
            candidates >>= step
            if self._late():
                return False
            bit = 1 << b
            kb = self._clusters[b]
            after = self.tile_count[self.full - used - kb.used]
            common = [line for line, bits in lines[after].items() if bits & bit]
            members = group + (b,)
            if not self._try_group(members, common, after):
                return False
            if after < 2:
                continue
            narrower = [None]
            for budget in range(1, after):
                near = self._near_on(b, budget, common)
                at_budget = lines[budget]
                narrower.append({line: bits for line, bits in
                                 ((line, at_budget.get(line, 0) & near[line])
                                  for line in near) if bits})
            if any(narrower[1:]) and not self._grow(members, narrower, used + kb.used,
                                                    blocked | self._blocking(b)):
                return False
        return True

    def _choices(self, members: tuple, after: int) -> list:
        """The choices of one cluster of every class of `members` not tried before (marked
        tried now), `after` tiles left once they are laid; none when the part would be one
        tile that cannot reach the threshold.
        """
        if after < 2 and not self._one_tile_join_reaches([self._clusters[m] for m in members]):
            return []
        choices = []
        for choice in itertools.product(*(self._variants[m] for m in members)):
            tried = tuple(sorted(choice))
            if tried not in self.tried:
                self.tried.add(tried)
                choices.append([self._every[index] for index in choice])
        return choices

    def _try_group(self, members: tuple, common: list, after: int) -> bool:
        """Join each choice of _choices by a part along the lines `common`; False when time
        ran out.
        """
        choices = self._choices(members, after)
        if choices and self._late():
            return False
        for joined in self._reaching(choices, common) if choices else ():
            if self._late():
                return False
            self._join(joined, common)
        return True

    def _one_tile_join_reaches(self, group: list) -> bool:
        """Whether a join of `group` by its one tile left (on a square every member's
        `joins` holds) can reach the threshold: the turn is then the joined cluster alone.
        """
        common = -1
        occupied = 0
        score = 0
        for k in group:
            common &= k.joins
            occupied |= k.occupied
            score += k.score
        if not common:
            return False
        s = self.search
        cells = list(s.cells)
        counts = s.rack
        for k in group:
            for square, code in k.tiles:
                cells[square] = code
            counts = s._left(counts, k.tiles)
        return (score + self._gain_bound(cells, occupied, _mask_squares(common), counts)
                + self.bingo + self.leave[0] >= self.threshold)

    def _reaching(self, groups: list, lines: list) -> list:
        """The groups (choices of one cluster of each of the same classes) that a part along
        `lines` can join: one of the plays _join would lay covers a zone square of each
        member (Cover.reaching, every choice at once; most choices have none).
        """
        counts, across, down, members = self._reach_request(groups, lines)
        tiles = [[tile for k in group for tile in k.tiles] for group in groups]
        reaches = self.cover.reaching(self.search.cells, tiles, counts, across, down,
                                      [sum(1 << square for square in squares)
                                       for squares in members])
        return [group for group, reach in zip(groups, reaches) if reach]

    def _reach_request(self, groups: list, lines: list) -> tuple:
        """What Cover.reaching asks of choices `groups` along `lines` besides their tiles:
        (the rack left, the squares flagged across and down, each member's join squares).
        """
        n = self.size
        # A class's clusters share their squares, tiles used and `joins` (_joins).
        first = groups[0]
        across = [square for square in first[0].join_squares if square // n in lines]
        down = [square for square in first[0].join_squares if n + square % n in lines]
        counts = self.left_of[sum(k.used for k in first)]
        return counts, across, down, [k.join_squares for k in first]

    def _join(self, group: list, lines: list) -> None:
        """Add the clusters of parts along `lines` that cover a zone square of every cluster
        of `group` on the board with them all (and their extensions).
        """
        n = self.size
        counts = self.left_of[sum(k.used for k in group)]
        first = group[0]
        across = [square for square in first.join_squares if square // n in lines]
        down = [square for square in first.join_squares if n + square % n in lines]
        self._extend(self._parts(group, counts, across, down, False))

    # --- packings ------------------------------------------------------------------------
    def _packings(self, top: int) -> list:
        """The packings of separate legal clusters worth at least the top-th best value (all
        of those, ties included), as (value, score, tiles kept, clusters); a packing's value
        is its score plus what the tiles it keeps are worth (`leave`; 0 by score).
        """
        s = self.search
        groups = [[] for _ in range(self.subsets)]
        for k in self.seen.values():
            if k.legal:
                groups[k.used].append(k)
        for group in groups:
            group.sort(key=lambda k: -k.score)
        best_of = [group[0].score if group else None for group in groups]
        bingo = s.bingo if sum(s.rack) == s.rack_size else 0
        # most[m]: the best sum of clusters' best scores over sub-multisets packed in m;
        # exact[m]: the same using all of m; bound[m]: what the tiles m can still add.
        minus = float("-inf")
        most = [0] * self.subsets
        exact = [minus] * self.subsets
        exact[0] = 0
        for m in sorted(range(self.subsets), key=lambda index: self.tile_count[index]):
            for x in self.within[m]:
                if x and best_of[x] is not None:
                    most[m] = max(most[m], best_of[x] + most[m - x])
                    exact[m] = max(exact[m], best_of[x] + exact[m - x])
        # bound[m]: the most the tiles m can still add, kept tiles' worth included.
        leave = self.leave
        bound = [max(exact[m - kept] + (bingo if kept == 0 else 0) + leave[kept]
                     for kept in self.within[m]) for m in range(self.subsets)]
        heap: list[int] = []
        found = []
        # (It starts from the threshold known: no round's packings are fewer or worse.)
        threshold = [self.threshold]
        check_words = s.played is not None
        within = self.within

        def pack(m, score, first, first_at, occupied, near, words, chosen):
            if chosen:
                total = score + (bingo if m == 0 else 0)
                value = total + leave[m]
                if value >= threshold[0]:
                    found.append((value, total, m, tuple(chosen)))
                    if len(heap) < top:
                        heapq.heappush(heap, value)
                    elif value > heap[0]:
                        heapq.heapreplace(heap, value)
                    if len(heap) == top:
                        threshold[0] = max(threshold[0], heap[0])
            for x in within[m]:
                if x < first or not x or not groups[x]:
                    continue
                group = groups[x]
                limit = bound[m - x]
                for at in range(first_at if x == first else 0, len(group)):
                    k = group[at]
                    if score + k.score + limit < threshold[0]:
                        break
                    if k.occupied & near or k.zone & occupied:
                        continue
                    if check_words and not words.isdisjoint(k.words):
                        continue
                    chosen.append(k)
                    pack(m - x, score + k.score, x, at + 1, occupied | k.occupied,
                         near | k.occupied | k.zone,
                         words.union(k.words) if check_words else words, chosen)
                    chosen.pop()

        pack(self.full, 0, 0, 0, 0, 0, frozenset(), [])
        self.threshold = threshold[0]
        return [packing for packing in found if packing[0] >= threshold[0]]

    def best(self, top: int) -> list:
        """The best `top` turns as Moves, ranked as TurnSearch.ranked ranks them; with a
        `leave`, by equity (score + leave; Moves get `leave` and `equity`), ties in that
        order.
        """
        with _without_cycle_collection():
            return self._best(top)

    def _best(self, top: int) -> list:
        self.seen = {}
        self.tried = set() if self.cover.join_choices is None else self.cover.tried_table()
        self.seen_table = None if self.cover.lay is None else self.cover.seen_table()
        self._every_tiles = None
        self.top = top
        single = self._single_plays()
        # Packings of the single plays alone set a first threshold (of separate words, often
        # close to the best turn's), which the extensions' bounds then prune with.
        self._packings(top)
        self._extend(single)
        while True:
            packed = self._packings(top)
            if self.deferred and not self._late():
                self._last_tiles()
                continue
            if self._late() or not self._joins():
                break
        s = self.search
        n = s.size
        # (packing, tiles, parts): parts cluster by cluster (any order of separate clusters
        # can be laid), the clusters in the order of their first parts in the step's order
        # (best first).
        turns = [(packing, [tile for k in packing[3] for tile in k.tiles],
                  [play for k in sorted(packing[3], key=lambda k: k.plays[0])
                   for play in k.plays]) for packing in packed]
        if self.transposes:
            # Each turn's transpose; a turn found both ways keeps the fewer parts (a fewest
            # parts' first part covers the start square across in the turn or in its
            # transpose), then the parts first in the step's order.
            fewest = {}
            for packing, tiles, plays in turns:
                mirrored = [(transposed(square, n), code) for square, code in tiles]
                flipped = [(negative, 1 - direction, line, start, word, bits)
                           for negative, direction, line, start, word, bits in plays]
                for version in ((packing, tiles, plays), (packing, mirrored, flipped)):
                    key = frozenset(version[1])
                    if key not in fewest or (len(version[2]), version[2]) < (
                            len(fewest[key][2]), fewest[key][2]):
                        fewest[key] = version
            turns = list(fewest.values())
        keyed = []
        for (value, total, kept, _chosen), tiles, plays in turns:
            ordered = sorted((square // n, square % n, s.letters[(code & LETTER_MASK) - 1],
                              bool(code & BLANK)) for square, code in tiles)
            keyed.append(((-value, -total, len(plays), ordered), kept, plays))
        keyed.sort(key=lambda item: item[0])
        moves = []
        for order, kept, plays in keyed[:top]:
            move = s._move_of(plays, -order[1])
            if self.equity:
                move.leave = round(self.leave[kept], 4)
                move.equity = round(move.score + self.leave[kept], 4)
            moves.append(move)
        return moves


def mirrored_by_diagonal(search: TurnSearch) -> bool:
    """Whether the position of `search` is an empty board that its main diagonal mirrors
    (each square's premiums those of its transpose, the start square on the diagonal).
    """
    n = search.size
    row, col = search.start
    return (row == col and not any(search.cells)
            and all(search.letter_mult[square] == search.letter_mult[transposed(square, n)]
                    and search.word_mult[square] == search.word_mult[transposed(square, n)]
                    for square in range(n * n)))


def transposed(square: int, size: int) -> int:
    """The square across the main diagonal from `square` (row and column swapped)."""
    return square % size * size + square // size


@contextlib.contextmanager
def _without_cycle_collection():
    """Python's cyclic garbage collector off for the block (back on after it if it was on).

    A search with two blanks makes some 10^5 clusters, tuples and lists, none in a reference
    cycle (reference counting frees them all the same), and each of the collector's passes
    over the oldest generation walks every one still alive: 15-22 % of such a search's time.
    A caller that keeps the ClusterSearch alive afterwards leaves its clusters to the
    collector's next passes (search_turns drops it when it has its answer).
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def word_key(codes) -> int:
    """A word as one number: its letters' lexicon codes (a blank's without its bit) in base 64,
    as turn_kernel.lay_covering writes them.
    """
    key = 0
    for code in codes:
        key = key << 6 | code & LETTER_MASK
    return key


def _bitset(indexes: list, count: int) -> int:
    """The int whose bits `indexes` (each below `count`) are set."""
    if not indexes:
        return 0
    flags = np.zeros(count, dtype=np.uint8)
    flags[indexes] = 1
    return int.from_bytes(np.packbits(flags, bitorder="little").tobytes(), "little")


class Cover:
    """ClusterSearch's cover (covering_step), in one of two forms.

    The move generator's (Python; the reference), with `lay` None:
    - cover(cells, counts, across, down): the single-line plays of (cells, counts) across that
      put a tile on one of the squares `across`, and down that put one on one of `down`, as
      Step lists plays (sorted);
    - cover.reaching(cells, tiles, counts, across, down, masks): for each list of (square,
      code) in `tiles`, laid on `cells`, whether one of those plays puts a tile on a square of
      every bitmask of `masks`.

    The turn kernel's (compiled), with `plays` and `reaching` None:
    - cover.lay(cells, requests, starts, before_used, before_score, strides, left_of, seen,
      bounds): turn_kernel.lay_batch's clusters of the requests (_lay_request's arrays one
      after another in the list `requests`, request r from starts[r]; `strides`:
      ClusterSearch.stride_codes; `left_of`: ClusterSearch.left_of as an array, the rack left
      after each sub-multiset; `seen`: the tables of cover.seen_table() (the clusters seen,
      the bounds of shapes), grown here when they fill; bounds: lay_batch's arguments from
      `full` to `best_single`), as arrays of made rows, laid rows and records (valid until
      the next call);
    - cover.groups(cells, rack tiles, full, tile_count, within lists, the classes' lists,
      fresh): turn_kernel.join_groups's rows on the position `cells`;
    - cover.join_choices(cells, groups, first, last, request, threshold, extra, tried): the
      choices of groups[first:last] that reach (turn_kernel.join_choices's `found` rows, as
      lists; request: its arrays from `used` to `left_of`), with `tried` the table of
      cover.tried_table(), grown here when it fills.
    """

    def __init__(self, plays: Callable | None, reaching: Callable | None,
                 lay: Callable | None = None, groups: Callable | None = None,
                 join_choices: Callable | None = None, tried_table: Callable | None = None,
                 seen_table: Callable | None = None):
        self.plays = plays
        self.reaching = reaching
        self.lay = lay
        self.groups = groups
        self.join_choices = join_choices
        self.tried_table = tried_table
        self.seen_table = seen_table

    def __call__(self, cells, counts, across, down) -> list:
        """The plays (class docstring; the move generator's form)."""
        return self.plays(cells, counts, across, down)


def covering_step(cw, compiled: bool, look_first: bool = True) -> Cover:
    """The Cover of ClusterSearch. With `compiled`, the turn kernel on the compiled engine
    (lookup/crossword/turn_kernel.py: the engine's search from those squares only, each play
    laid as a part, the join groups and which of their choices reach; `look_first`: a join
    group's choices looked at as a whole before one by one, turn_kernel.join_choices, which
    the tests turn off to hold it to the choices one by one); else the game's move generator,
    filtered.
    """
    n = cw.rules.layout.size
    if not compiled:
        def cover(cells, counts, across, down):
            found = []
            for play in cw.line_plays(cells, counts, compiled=False):
                _negative, direction, line, start, word, _bits = play
                wanted = set(across if direction == 0 else down)
                first, stride = (line * n + start, 1) if direction == 0 else (start * n + line, n)
                if any(not cells[first + i * stride] and first + i * stride in wanted
                       for i in range(len(word))):
                    found.append(play)
            return found

        def reaching(cells, tiles, counts, across, down, masks):
            found = []
            for laid in tiles:
                board = list(cells)
                for square, code in laid:
                    board[square] = code
                found.append(any(all(_placed_mask(board, play, n) & mask for mask in masks)
                                 for play in cover(board, counts, across, down)))
            return found

        return Cover(cover, reaching)

    from lookup.crossword import turn_kernel
    from lookup.crossword.engine import move_engine
    from lookup.crossword.engine_numba import compiled_extension

    engine = move_engine(cw, compiled=True)
    kernel = compiled_extension(turn_kernel, turn_kernel.TURN_KERNEL_FUNCTIONS)
    params, *constants = engine.kernel_constants
    base = np.concatenate((params, np.zeros(2 * n * n, dtype=np.int64)))
    width = engine.width
    no_keys = np.zeros(0, dtype=np.int64)
    no_values = np.zeros(0, dtype=np.float64)
    equity = np.zeros(1, dtype=np.float64)
    room = [np.zeros(512 * width, dtype=np.int64)]

    # The flags of the squares a call covers are set and cleared by the kernel.
    with_flags = base.copy()
    # Room for the plays of one choice of reaching (more: the choice counts as reaching, and
    # _join lists them all).
    reaching_room = np.zeros(4096 * width, dtype=np.int64)

    lay_kernel = kernel["lay_batch"]
    laid_room = [np.zeros((512, turn_kernel.LAID_FIELDS), dtype=np.int64)]
    ranked_room = [np.zeros(512, dtype=np.int64)]
    made_room = [np.zeros((1024, turn_kernel.BATCH_FIELDS), dtype=np.int64),
                 np.zeros((1024, turn_kernel.LAID_FIELDS), dtype=np.int64),
                 np.zeros((1024, width), dtype=np.int64)]
    table_grow = kernel["table_grow"]
    # The position's cells as an array and its setup (turn_kernel.position_setup), made again
    # only for another position's list.
    position = [None, None, None]
    position_setup = kernel["position_setup"]
    arcs, node_mask, values, _letter_mult, _word_mult, order = constants

    def set_position(cells):
        if position[0] is not cells:
            array = np.array(cells, dtype=np.int64)
            position[:] = cells, array, position_setup(with_flags, arcs, node_mask, values,
                                                       order, array)

    def empty_table(rows, fields):
        # (A free row needs TABLE_EMPTY first only.)
        table = np.empty((rows, fields), dtype=np.int64)
        table[:, 0] = turn_kernel.TABLE_EMPTY
        return table

    def grown(table, rows, words):
        # An open-addressing table with room for `rows` rows at most a quarter full.
        larger = empty_table(2 ** (4 * rows).bit_length(), table.shape[1])
        table_grow(table, larger, words)
        return larger

    def seen_table():
        # [the table, the count of its rows used, the same of the table of shapes]
        return [empty_table(1 << 14, turn_kernel.SEEN_FIELDS), np.zeros(1, dtype=np.int64),
                empty_table(1 << 12, turn_kernel.SHAPE_FIELDS), np.zeros(1, dtype=np.int64)]

    def lay(cells, requests, starts, before_used, before_score, strides, left_of, seen, bounds):
        set_position(cells)
        requests = np.array(requests, dtype=np.int64)
        starts = np.array(starts, dtype=np.int64)
        before_used = np.array(before_used, dtype=np.int64)
        before_score = np.array(before_score, dtype=np.int64)
        pieces = []
        made_count = np.zeros(1, dtype=np.int64)
        needed = np.zeros(1, dtype=np.int64)
        first, last = 0, len(starts) - 1
        while first < last:
            made_count[0] = 0
            first = lay_kernel(with_flags, *constants, position[1], position[2], requests,
                               starts, first, last, before_used, before_score, strides, left_of,
                               no_keys, no_values, room[0], equity, laid_room[0],
                               ranked_room[0], *seen, *bounds, *made_room, made_count, needed)
            done = made_count[0]
            pieces.append([table[:done] for table in made_room])
            if first < last:
                # Room for request `first`'s plays, then on from it.
                count = int(needed[0])
                if count * width > len(room[0]):
                    room[0] = np.zeros(count * width, dtype=np.int64)
                if count > len(laid_room[0]):
                    laid_room[0] = np.zeros((count, turn_kernel.LAID_FIELDS), dtype=np.int64)
                    ranked_room[0] = np.zeros(count, dtype=np.int64)
                # (The rows so far are kept: the kernel writes the next call's over them.)
                pieces[-1] = [table.copy() for table in pieces[-1]]
                if count > len(made_room[0]):
                    made_room[:] = [np.zeros((count, fields), dtype=np.int64) for fields in (
                        turn_kernel.BATCH_FIELDS, turn_kernel.LAID_FIELDS, width)]
                if 2 * (seen[1][0] + count) > len(seen[0]):
                    seen[0] = grown(seen[0], int(seen[1][0]) + count, 2)
                if 2 * (seen[3][0] + count) > len(seen[2]):
                    seen[2] = grown(seen[2], int(seen[3][0]) + count, 2)
        if len(pieces) == 1:
            return pieces[0]
        return [np.concatenate(tables) for tables in zip(*pieces)]

    join_choices_kernel = kernel["join_choices"]
    found_room = [np.zeros((1024, turn_kernel.FOUND_FIELDS), dtype=np.int64)]

    def tried_table():
        # [the table, the count of its rows used]
        return [empty_table(1 << 14, turn_kernel.TRIED_WORDS), np.zeros(1, dtype=np.int64)]

    def join_choices(cells, groups, first, last, request, threshold, extra, tried):
        set_position(cells)
        _used, _join_start, _joins, variant_start, *_rest = request
        found_count = np.zeros(1, dtype=np.int64)
        rows = []
        while first < last:
            found_count[0] = 0
            first = join_choices_kernel(with_flags, *constants, position[1], position[2],
                                        groups, first, last, *request, float(threshold),
                                        float(extra), *tried, int(look_first), no_keys,
                                        no_values, reaching_room, equity, found_room[0],
                                        found_count)
            rows += found_room[0][:found_count[0]].tolist()
            if first < last:
                # Room for group `first`'s choices, then on from it.
                group = groups[first]
                total = math.prod(int(variant_start[c + 1] - variant_start[c])
                                  for c in group[G_MEMBERS:G_MEMBERS + group[G_COUNT]])
                table, count = tried
                if 2 * (count[0] + total) > len(table):
                    tried[0] = grown(table, int(count[0]) + total, turn_kernel.TRIED_WORDS)
                if total > len(found_room[0]):
                    found_room[0] = np.zeros((2 * total, turn_kernel.FOUND_FIELDS),
                                             dtype=np.int64)
        return rows

    groups_kernel = kernel["join_groups"]
    groups_room = [np.zeros((1024, GROUP_FIELDS), dtype=np.int64)]

    def groups(cells, *lists):
        set_position(cells)
        while True:
            rows = groups_room[0]
            count = groups_kernel(n, position[1], *lists, rows)
            if count <= len(rows):
                return rows[:count].copy()
            groups_room[0] = np.zeros((count, GROUP_FIELDS), dtype=np.int64)

    return Cover(None, None, lay, groups, join_choices, tried_table, seen_table)


def _placed_mask(cells: list, play: tuple, size: int) -> int:
    """The bitmask of the squares where `play` puts a tile on `cells`."""
    _negative, direction, line, start, word, _bits = play
    first, stride = (line * size + start, 1) if direction == 0 else (start * size + line, size)
    mask = 0
    for i in range(len(word)):
        if not cells[first + i * stride]:
            mask |= 1 << (first + i * stride)
    return mask


def _mask_squares(mask: int) -> list:
    """The squares of a bitmask, lowest first."""
    found = []
    while mask:
        low = mask & -mask
        found.append(low.bit_length() - 1)
        mask ^= low
    return found
