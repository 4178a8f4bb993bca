"""Choosing a multi-word turn (Erudit): greedy, and the exact search over tile sets.

A turn is searched as parts, single-line plays laid one after another, each legal on the board
the parts before it leave (the step: every single-line play of a board and the tiles left in
the rack). What a turn is worth and whether it is legal depend only on its set of new tiles
(lookup/crossword/turn.py), not on the order of its parts, so the search keeps one state per set;
the tiles left follow from the set, so (tiles placed, rack left) is one key.

- greedy (the Erudit article's first method): lay the best-scoring play, then the best one
  the new board and the tiles left allow, until none fits; a play that would leave the turn
  illegal (a repeated word) is skipped.
- full: every state reachable by parts, each expanded once, breadth first by number of parts
  so a state keeps its shortest decomposition (a set in one line is a play). A state whose
  tiles repeat a word is expanded all the same: a later part may extend the word.
- full with `top`: the same search, branch and bound. A state is not expanded when its score
  bound (`ScoreBound`) is below the top-th best legal score found so far (with top = 1, the
  greedy turn's score from the start). Every state on a path of parts to a turn scoring at
  least the final top-th score has a bound at least that score, so it is never cut: such a
  turn is found at the same level through the same first parent as without the bound, with
  the same parts, and the top turns come out exactly as the unpruned search ranks them.

The step is the game's one move path, CrosswordGame.line_plays (the compiled move engine when
numba is installed, else the move generator). It lists plays as tuples in lexicon codes, so the
search works on flat lists of lexicon codes and makes Board and Move objects only for the turns
it returns.

A legal set of new tiles that no order of single-line parts reaches with every part legal when
laid (two new words that complete each other's cross words) is accepted by validate and score,
but not found here; docs/GAMES.md ("## Erudit") says why that is rare.
"""

import bisect
import heapq
from collections.abc import Callable

from lookup.crossword.board import BLANK, LETTER_MASK, Board, runs_through
from lookup.crossword.move import Move
from lookup.crossword.scoring import score_runs

METHODS = ("greedy", "full")
_DIRECTIONS = ("H", "V")

# The step: every single-line play of (cells, rack counts), cells the board in lexicon codes
# (row-major, BLANK bit on blanks), counts indexed by lexicon code with the blanks at index 0.
# A play is (-score, direction, line, start, main word codes, blank bits) as
# lookup/crossword/movegen.generate lists it, and the list is sorted (best first, its tie order).
Step = Callable[[list, list], list]


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

    def _search(self, top: int | None, floor: int | None = None) -> list[_State]:
        """Every legal state the search finds (module docstring), breadth first; with `top`,
        branch and bound against the top-th best score found (or `floor`, the score of a
        legal turn, when higher).
        """
        root = _State((), self.rack, None, None, 0, True)
        bound = ScoreBound(self) if top is not None else None
        best: list[int] = []  # with top: a min-heap of the top best legal scores found
        threshold = floor
        seen = {frozenset()}
        level = [root]
        found = []
        self.expanded = self.pruned = 0
        while level:
            following = []
            for state in level:
                if not any(state.counts):
                    continue
                if (threshold is not None and state is not root
                        and bound.below(state, threshold)):
                    self.pruned += 1
                    continue
                self.expanded += 1
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
                    if not legal:
                        continue
                    found.append(child)
                    if top is not None:
                        total = self._turn_score(child)
                        if len(best) < top:
                            heapq.heappush(best, total)
                        elif total > best[0]:
                            heapq.heapreplace(best, total)
                        if len(best) == top and (threshold is None or best[0] > threshold):
                            threshold = best[0]
            level = following
        return found

    def ranked(self, top: int | None = None) -> list[Move]:
        """The legal turns, best first, ties: fewer parts, then the new tiles; with `top` the
        first `top` of them, by branch and bound (module docstring).
        """
        floor = None
        if top == 1:
            greedy = self.greedy()
            floor = greedy.score if greedy else None
        found = self._search(top, floor)
        scores = sorted((self._turn_score(state) for state in found), reverse=True)
        if top is not None and len(scores) > top:
            # Only turns scoring at least the top-th score can be among the first `top`.
            cut = scores[top - 1]
            found = [state for state in found if self._turn_score(state) >= cut]
        order = sorted(found, key=self._rank_key)
        return [self._move(state) for state in order[:top]]

    def count_multi_word(self) -> int:
        """How many legal turns of two parts or more the unpruned search finds."""
        return sum(1 for state in self._search(None) if state.parent.play is not None)

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
        parts = []
        board = self.board
        for negative, direction, line, start, word, blank_bits in reversed(plays):
            row, col = (line, start) if direction == 0 else (start, line)
            move = Move("play", row, col, _DIRECTIONS[direction], -negative, "",
                        tuple(self.to_game[code] for code in word), board, blank_bits)
            parts.append(move)
            board = board.with_tiles(move.placed)
        if len(parts) == 1:
            return parts[0]
        return Move("turn", score=self._turn_score(state), parts=tuple(parts))


class ScoreBound:
    """An upper bound of the score of every legal turn that contains a state's tiles.

    Take a state S (new tiles on the board C, their squares N) and a legal turn S u X with
    the m tiles X left in the rack or fewer, X on squares empty in C. Its words
    (lookup/crossword/turn.py) are the maximal runs of two tiles or more through N u X on C u X,
    scored with the premiums of N u X. Split them:
    (a) runs with no tile of X: such a run's ends are empty on C u X, so it is a maximal run of
        C through N, a word of S with the same premiums: together they score at most S's
        score (S's runs, `state.score`, whether or not S is legal). So the score is monotone:
        adding tiles never loses points.
    (b) runs with a tile of X. Take one, along a line. Its squares empty on C are tiles of X
        and are consecutive among the empty squares of the line (no empty square in between;
        a "block" e_1..e_L, L >= 1). Being maximal, the run is exactly the block's interval:
        from the first square of the tiles of C that end at e_1 to the last square of those
        that start after e_L. So its score is (the values of C's tiles in the interval, a
        letter premium on those of N + the X tiles' values times the block's letter premiums)
        x the word premiums of the N squares in the interval x those of the block. The X
        tiles are L tiles of the rack left, so by the rearrangement inequality their part is
        at most the L largest values left matched with the block's letter premiums, largest
        with largest (`_block_values`); a run shorter than two tiles, or the game's shortest
        word, or longer than its longest is no word of a legal turn, so no block makes it.
        Two runs along one direction share no square, so their blocks are distinct and hold
        at most m tiles together: along one direction, the runs score at most the best sum
        over lengths L_1 + ... + L_j <= m of the largest block values of each length, taken
        without repetition (`_direction_bound`, a knapsack over lengths). Across and down
        are bounded apart and added (a tile of X is in one run each way).
        With one tile left (m = 1) both runs go through its square, so (b) is at most the
        largest, over empty squares, of the square's block value across plus down.
    Plus the bingo when S and the tiles left fill a rack. So the bound is S's score + (b)'s
    bound (+ the bingo). Lines without a tile of N read the same as on the board before the
    turn, so their block values are computed once per rack left.
    """

    def __init__(self, search: TurnSearch):
        self.search = search
        n = search.size
        self.lines = ([[row * n + col for col in range(n)] for row in range(n)],
                      [[row * n + col for row in range(n)] for col in range(n)])
        self._before = {}  # rack left -> _board_blocks
        self._blocks = {}  # (direction, line, rack left, its new tiles) -> _block_values

    def below(self, state: _State, threshold: int) -> bool:
        """Whether the bound of a state with tiles left (class docstring) is below
        `threshold`.
        """
        search = self.search
        counts = state.counts
        values = tuple(sorted([search.values[code] for code in range(1, len(counts))
                               if counts[code] for _ in range(counts[code])], reverse=True)
                       + [0] * counts[0])
        n = search.size
        new = {square for square, _code in state.tiles}
        touched = ({square // n for square in new}, {square % n for square in new})
        base = state.score
        if len(state.tiles) + len(values) == search.rack_size:
            base += search.bingo
        if base >= threshold:
            return False
        before = self._before.get(values)
        if before is None:
            before = self._before[values] = self._board_blocks(values)
        cells = search._placed_cells(state)
        if len(values) == 1:
            return base + self._one_tile(before, touched, cells, new, values) < threshold
        # The best block of one tile each way, on lines without new tiles, is part of the
        # bound: when it reaches the threshold, the rest need not be computed.
        quick = base
        for direction in (0, 1):
            for value, line in before[direction][1]:
                if line not in touched[direction]:
                    quick += value
                    break
        if quick >= threshold:
            return False
        return base + sum(self._direction_bound(direction, before[direction],
                                                touched[direction], cells, new, values)
                          for direction in (0, 1)) < threshold

    def _one_tile(self, before, touched: tuple, cells: list, new: set, values: tuple) -> int:
        """The largest block value across plus down of one square (class docstring, m = 1)."""
        rows, cols = touched
        best = 0
        for value, row, col in before[2]:
            if row not in rows and col not in cols:
                best = value
                break
        across, down = list(before[3][0]), list(before[3][1])
        for row in rows:
            across[row] = self._line(0, row, cells, new, values)[1]
        for col in cols:
            down[col] = self._line(1, col, cells, new, values)[1]
        n = self.search.size
        for row in rows:
            line = across[row]
            for col in range(n):
                if line[col] + down[col][row] > best:
                    best = line[col] + down[col][row]
        for col in cols:
            line = down[col]
            for row in range(n):
                if across[row][col] + line[row] > best:
                    best = across[row][col] + line[row]
        return best

    def _direction_bound(self, direction: int, before: list, touched: set, cells: list,
                         new: set, values: tuple) -> int:
        m = len(values)
        lines = [self._line(direction, line, cells, new, values)[0] for line in touched]
        best = [0] * (m + 1)  # best[t]: the most blocks of t tiles or fewer score
        for length in range(1, m + 1):
            most = m // length
            picked = []
            for value, line in before[length]:
                if len(picked) == most:
                    break
                if line not in touched:
                    picked.append(value)
            for blocks in lines:
                picked += blocks[length]
            picked.sort(reverse=True)
            prefix = [0]
            for value in picked[:most]:
                prefix.append(prefix[-1] + value)
            following = list(best)
            for t in range(length, m + 1):
                for count in range(1, min(len(prefix) - 1, t // length) + 1):
                    candidate = best[t - count * length] + prefix[count]
                    if candidate > following[t]:
                        following[t] = candidate
            best = following
        return best[m]

    def _board_blocks(self, values: tuple) -> tuple:
        """The board before the turn, for a rack left: per direction, per block length,
        (value, line) of every line's largest values, largest first; (value, row, col) of
        every square's block value across plus down, largest first; and per direction, per
        line, its squares' one-tile block values.
        """
        out = []
        singles = []
        for direction in (0, 1):
            by_length = [[] for _ in range(len(values) + 1)]
            line_singles = []
            for line in range(self.search.size):
                blocks, one = self._line(direction, line, self.search.cells, set(), values)
                for length, found in enumerate(blocks):
                    by_length[length] += [(value, line) for value in found]
                line_singles.append(one)
            for found in by_length:
                found.sort(reverse=True)
            out.append(by_length)
            singles.append(line_singles)
        n = self.search.size
        out.append(sorted(((singles[0][row][col] + singles[1][col][row], row, col)
                           for row in range(n) for col in range(n)), reverse=True))
        out.append(singles)
        return tuple(out)

    def _line(self, direction: int, line: int, cells: list, new: set, values: tuple):
        n = self.search.size
        # A line reads as on the board before the turn but for the new tiles in it.
        key = (direction, line, values,
               frozenset((s, cells[s]) for s in new if (s % n if direction else s // n) == line))
        blocks = self._blocks.get(key)
        if blocks is None:
            blocks = self._blocks[key] = _block_values(self.search, self.lines[direction][line],
                                                       cells, new, values)
        return blocks


def _block_values(search: TurnSearch, squares: list, cells: list, new: set,
                  values: tuple) -> tuple[list, list]:
    """One line's block values (ScoreBound's docstring): per block length L (index L, up to
    len(values)) its largest len(values) // L values, largest first; and per square of the
    line, the value of the block of that square alone (0 when none). `values`: the rack
    left's tile values, largest first.
    """
    m = len(values)
    letter_mult, word_mult, code_values = search.letter_mult, search.word_mult, search.values
    count = len(squares)
    occupied = [bool(cells[s]) for s in squares]
    empties = [k for k in range(count) if not occupied[k]]
    # Prefix sums of the tiles' values and products of their word premiums (N's premiums on).
    old = [0] * (count + 1)
    old_mult = [1] * (count + 1)
    for k, square in enumerate(squares):
        value, mult = 0, 1
        if occupied[k]:
            value = code_values[cells[square]]
            if square in new:
                value *= letter_mult[square]
                mult = word_mult[square]
        old[k + 1] = old[k] + value
        old_mult[k + 1] = old_mult[k] * mult
    found = [[] for _ in range(m + 1)]
    singles = [0] * count
    for i, first_empty in enumerate(empties):
        low = first_empty
        while low > 0 and occupied[low - 1]:
            low -= 1
        premiums = []  # the block's letter premiums, negated so ascending is largest first
        block_mult = 1
        for length in range(1, m + 1):
            if i + length > len(empties):
                break
            last_empty = empties[i + length - 1]
            bisect.insort(premiums, -letter_mult[squares[last_empty]])
            block_mult *= word_mult[squares[last_empty]]
            high = last_empty
            while high < count - 1 and occupied[high + 1]:
                high += 1
            span = high - low + 1
            if span > search.max_length:
                break
            if span < search.min_length:
                continue
            letters = sum(-p * v for p, v in zip(premiums, values))
            value = ((old[high + 1] - old[low] + letters)
                     * (old_mult[high + 1] // old_mult[low]) * block_mult)
            found[length].append(value)
            if length == 1:
                singles[first_empty] = value
    for length in range(1, m + 1):
        found[length] = sorted(found[length], reverse=True)[:m // length]
    return found, singles
