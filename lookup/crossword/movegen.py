"""Move generation for the crossword games: Gordon's GADDAG algorithm (Gordon 1994).

Scope: given a board, a rack (letters and `?` blanks) and the game's rules, `generate` lists
every legal tile placement exactly once with its score: 1 to rack-size tiles in one row or
column, contiguous with the tiles already there, touching at least one of them (covering the
start square on an empty board), with every word formed (the main word and each cross word of
two letters or more) in the lexicon and within the game's length limits; a blank may stand for
any letter of the game. Exchanges and the pass are listed by lookup/crossword/game.py. Out of
scope: challenges and phony words, end-of-game rack penalties, equity (leave) evaluation, tile
tracking.

Method (S. A. Gordon, "A faster Scrabble move generation algorithm", Software: Practice and
Experience 24(2), 1994). Moves down are moves across on the transposed board, so one routine
serves both orientations. Per orientation:
- `anchors`: empty squares next to a tile (the start square on an empty board). Every move
  places a tile on at least one anchor; it is generated from the leftmost anchor it covers,
  so walking left from an anchor never places a tile on another anchor. With the GADDAG
  holding one path per (word, split point), every placement comes out exactly once.
- cross-checks (lookup/crossword/cross_check.py): per empty square, the bitmask of letters whose
  perpendicular word is in the lexicon.
- `gen` (Gordon's Gen, with GoOn inlined): from the pivot (the anchor, or the last of the
  tiles right after it, so those fixed letters are matched first) walk left placing rack
  tiles and passing over board tiles along the GADDAG; once the anchor has its tile, record
  a word where it may end, or take the separator arc and continue rightward after the pivot.
  The letters a square may take are one bitmask intersection: the node's tiles & the square's
  cross-check & the rack. A letter is tried only if its arc can end the word there or its
  child offers a letter the rest of the rack can put on the next square (an accepting one
  when that square would take the last tile), which cuts most dead ends one step early.
- Blanks: the walk uses a blank only for a letter the rack lacks (a blank kept is worth at
  least the tile it replaces, so no word is missed), and `record` lists every other choice of
  which new tiles are blanks, scored by lookup/crossword/scoring.py's blank_savings.
- Scores come from lookup/crossword/scoring.py (score_word, blank_savings, both on
  score_new_tiles, the scorer the compiled engine runs too) on the orientation's ScoreSheet.
- A one-tile placement forms a word in both orientations; it is listed once: across when its
  across word has two letters or more, else down.
- With `top`, anchors are visited best bound first (`anchor_bound`, an upper bound of every
  move generated from the anchor) and the search stops once no remaining anchor can beat the
  top-th best score found.

Codes inside are GADDAG tile codes (bit BLANK marks a blank), see lookup/crossword/board.py.

Why two move generators. This one is the pure-Python path: CrosswordGame.line_plays runs it
when numba is not installed (numba is optional in lookup), because CPython runs it about twice
as fast as the compiled engine's kernel source (lookup/crossword/engine_kernel.py), whose flat,
object-free style is what numba needs. With numba the engine is the path. Both list the same
plays in the same order, and both are checked against the brute force of the tests
(tests/test_crossword_movegen.py, tests/test_engine.py).
"""

import functools
import heapq
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations, product

from lookup.crossword.board import BLANK, LETTER_MASK, neighbours, run_bounds
from lookup.crossword.cross_check import cross_checks
from lookup.crossword.scoring import (
    NO_CROSS_WORD,
    ScoreSheet,
    blank_savings,
    score_sheet,
    score_word,
)
from lookup.formats import ARC_ACCEPTS, ARC_CHILD_SHIFT
from lookup.graph import GraphFile

ACROSS = 0
DOWN = 1


@dataclass(frozen=True)
class GaddagTables:
    """A GADDAG ready for move generation: views of its runtime index, nothing computed at load.

    Attributes:
        alphabet: the lexicon's letters; tile k is alphabet[k - 1], tile 0 the separator.
        arcs: the arcs (Python ints on indexing, layout in docs/FORMATS.md).
        root: index of the root node's first arc (0 for an empty lexicon).
        node_mask: indexed by the arc index p where a node starts, the bitmask of the node's
            tiles (bit k = tile k); node_mask[0] is 0. With it, the arc of tile t of a node is
            found without scanning (lookup/crossword/cross_check.arc_for). Other indexes hold other
            words: node_mask is the index's words and arcs the same words one position on
            (arcs[p] is node_mask[p + 1]; lookup/graph.py), which the compiled engine keeps as
            one array.
    """

    alphabet: str
    arcs: Sequence[int]
    root: int
    node_mask: Sequence[int]


def gaddag_tables(graph: GraphFile) -> GaddagTables:
    """The move generator's view of a GADDAG file (lookup/gaddag.load_gaddag)."""
    return GaddagTables(graph.alphabet, graph.arcs, graph.root, graph.node_mask)


@functools.lru_cache(maxsize=8)
def _transpose_order(size: int) -> tuple:
    """Square i of the transposed board is square order[i] of the board (an involution)."""
    return tuple(c * size + r for r in range(size) for c in range(size))


def transposed(values, size: int) -> list:
    """Row-major `values` of the transposed board (square (r, c) takes (c, r))."""
    order = _transpose_order(size)
    return [values[i] for i in order]


def anchors(cells, size: int, start_index: int) -> list[bool]:
    """Anchor flag of every square: empty and next to a tile, or the start on an empty board."""
    flags = [False] * (size * size)
    if not any(cells):
        flags[start_index] = True
        return flags
    for index, code in enumerate(cells):
        if not code and any(cells[j] for j in neighbours(index, size)):
            flags[index] = True
    return flags


@dataclass(frozen=True)
class Orientation:
    """Everything the generator reads about one orientation of the position.

    Attributes:
        direction: ACROSS or DOWN (DOWN: all lists are of the transposed board).
        cells: GADDAG tile codes per square (0 empty).
        anchor: anchor flag per square.
        checks: cross-check bitmask per square.
        sheet: the score sheet (lookup/crossword/scoring.py).
    """

    direction: int
    cells: list
    anchor: list
    checks: list
    sheet: ScoreSheet


@dataclass(frozen=True)
class MoveGenContext:
    """What the move generator needs of a game, beside the position: built once per game.

    Attributes:
        tables: the GADDAG.
        size: squares per side; start_index: the start square, row-major.
        letter_mult, word_mult: multipliers of every square, row-major.
        values: tile values by GADDAG code (lookup/crossword/scoring.board_tile_values).
        rack_size, bingo: a full rack, and what placing all of it earns.
        all_letters: bitmask of the game's letters as GADDAG codes (what a blank may be).
        min_length, max_length: the length limits of every main word.
    """

    tables: GaddagTables
    size: int
    start_index: int
    letter_mult: list
    word_mult: list
    values: list
    rack_size: int
    bingo: int
    all_letters: int
    min_length: int
    max_length: int


def orientations(context: MoveGenContext, cells) -> tuple[Orientation, Orientation]:
    """The across and down orientations of a position (cells in GADDAG codes, row-major)."""
    tables, size, start_index = context.tables, context.size, context.start_index
    letter_mult, word_mult = context.letter_mult, context.word_mult
    result = []
    for direction in (ACROSS, DOWN):
        if direction == DOWN:
            cells = transposed(cells, size)
            letter_mult = transposed(letter_mult, size)
            word_mult = transposed(word_mult, size)
            start_index = _transpose_order(size)[start_index]
        checks = cross_checks(cells, size, tables.arcs, tables.node_mask, tables.root,
                              context.all_letters, context.max_length)
        sheet = score_sheet(cells, size, letter_mult, word_mult, context.values,
                            context.rack_size, context.bingo)
        result.append(Orientation(direction, list(cells), anchors(cells, size, start_index),
                                  checks, sheet))
    return result[0], result[1]


def anchor_bound(o: Orientation, anchor_index: int, rack_values: list[int], existing: int) -> int:
    """An upper bound of the score of every move generated from an anchor.

    The move's new tiles (at most len(rack_values)) lie on empty squares of the anchor's line;
    its main word holds at most all the line's tiles (`existing`, their summed value). So the
    main word scores at most (existing + best pairing of rack values with letter multipliers)
    times the product of the largest word multipliers, each cross word at most
    (cross_sum + best value * letter mult) * word mult, plus the bingo when the rack is full.
    Rack values are sorted in decreasing order; blanks count as 0.
    """
    sheet = o.sheet
    size = sheet.size
    base = anchor_index - anchor_index % size
    n = len(rack_values)
    letter_mults = []
    word_mults = []
    crosses = []
    best = rack_values[0] if rack_values else 0
    for index in range(base, base + size):
        if o.cells[index]:
            continue
        lm = sheet.letter_mult[index]
        wm = sheet.word_mult[index]
        letter_mults.append(lm)
        word_mults.append(wm)
        if sheet.cross_sum[index] != NO_CROSS_WORD:
            crosses.append((sheet.cross_sum[index] + best * lm) * wm)
    letter_mults.sort(reverse=True)
    word_mults.sort(reverse=True)
    crosses.sort(reverse=True)
    main = existing + sum(v * m for v, m in zip(rack_values, letter_mults))
    product = 1
    for wm in word_mults[:n]:
        product *= wm
    bonus = sheet.bingo if n == sheet.rack_size else 0
    return main * product + sum(crosses[:n]) + bonus


def generate(context: MoveGenContext, across: Orientation, down: Orientation,
             rack: list[int], blanks: int, top: int | None = None) -> list:
    """Every legal placement of the position, as sortable tuples, best first.

    Args:
        context: the game's constants.
        across: the position read across (see `orientations`).
        down: the position read down.
        rack: count of each tile code in the rack (list indexed by GADDAG tile code).
        blanks: blanks in the rack.
        top: keep only the best `top` placements (None for all).

    Returns:
        Tuples (-score, direction, line, start, word, blank_bits): `line` is the row (across)
        or column (down), `start` the column (across) or row (down) of the first letter, `word`
        the tile codes of the main word (BLANK bit on the board's blanks), bit i of
        `blank_bits` set when the new tile at position i of the word is a blank. Sorted
        ascending: best score first, ties in (direction, line, start, word, blank_bits) order.
    """
    if not context.tables.root:
        return []
    rack = list(rack)
    rack_mask = 0
    for tile, count in enumerate(rack):
        if count:
            rack_mask |= 1 << tile
    tiles_in_rack = sum(rack) + blanks
    rack_values = sorted((across.sheet.values[t] for t, k in enumerate(rack) for _ in range(k)),
                         reverse=True) + [0] * blanks
    found: list = []
    # Heap of the best `top` scores found so far (smallest on top), and the score a move
    # needs to matter: the top-th best once `top` moves are known (ties still matter).
    best: list = []
    floor = [-1]

    work = []
    for o in (across, down):
        size = o.sheet.size
        existing_by_line = [sum(o.sheet.values[c] for c in o.cells[b:b + size])
                            for b in range(0, size * size, size)]
        for index, flag in enumerate(o.anchor):
            if flag:
                bound = (anchor_bound(o, index, rack_values, existing_by_line[index // size])
                         if top is not None else 0)
                work.append((-bound, o.direction, index, o))
    work.sort(key=lambda item: item[:3])

    for negative_bound, _direction, anchor, o in work:
        if top is not None and len(best) >= top and -negative_bound < best[0]:
            break
        moves = _anchor_moves(context, o, anchor, rack, rack_mask, blanks, tiles_in_rack,
                              floor)
        if top is None:
            found.extend(moves)
            continue
        for move in moves:
            score = -move[0]
            if len(best) < top:
                heapq.heappush(best, score)
                found.append(move)
            elif score >= best[0]:
                if score > best[0]:
                    heapq.heapreplace(best, score)
                found.append(move)
        if len(best) >= top:
            floor[0] = best[0]
    if top is None:
        found.sort()
        return found
    return heapq.nsmallest(top, found)


def _anchor_moves(context: MoveGenContext, o: Orientation, anchor: int, rack: list[int],
                  rack_mask: int, blanks: int, tiles_in_rack: int, floor: list) -> list:
    """All placements generated from one anchor (module docstring) scoring floor[0] or more:
    `rack` the counts of its tiles by code (changed during the walk and restored),
    `rack_mask` the codes it holds, `tiles_in_rack` its tiles, blanks included.
    """
    arcs, node_mask, root = context.tables.arcs, context.tables.node_mask, context.tables.root
    all_letters = context.all_letters
    min_length, max_length = context.min_length, context.max_length
    sheet = o.sheet
    size = sheet.size
    cells = o.cells
    is_anchor = o.anchor
    checks = o.checks
    direction = o.direction
    line_start = anchor - anchor % size
    line_end = line_start + size - 1
    line = anchor // size
    # The walk starts at `pivot`: the anchor, or the last of the tiles right after it, so
    # that those tiles, which every word through the anchor contains, are checked first.
    # Gordon's strings split a word anywhere; splitting it at the pivot rather than at the
    # anchor changes which path spells a placement, not how many do.
    pivot = run_bounds(cells, size, anchor, 1)[1]
    # Letters placed so far are written into `word` (a copy of the board's line squares).
    word = list(cells)
    # One-tile placements down are listed across when they form an across word.
    single_ok = direction == ACROSS or sheet.cross_sum[anchor] == NO_CROSS_WORD
    # The rack as it was before the walk (rack[] holds the tiles left).
    full_rack = list(rack)
    moves = []

    def record(first: int, last: int, in_rack: int, nblank: int) -> None:
        """Add the placement of word[first..last] (`in_rack` tiles and `nblank` blanks left)."""
        length = last - first + 1
        if length < min_length or length > max_length:
            return
        if tiles_in_rack - in_rack == 1 and not single_ok:
            return
        if not blanks:
            score = score_word(sheet, cells, word, first, last)
            if score >= floor[0]:
                moves.append((-score, direction, line, first - line_start,
                              tuple(word[first:last + 1]), 0))
            return
        # The walk used a blank only for letters the rack lacked; every other choice of which
        # new tiles are blanks is a move too (see `gen`). Blanks only lower the score.
        score, new, costs = blank_savings(sheet, cells, word, first, last)
        if score < floor[0]:
            return
        plain = word[first:last + 1]
        # Blanks are chosen by position k in `new` (square new[k], cost costs[k]).
        bits = [1 << (index - first) for index in new]
        if nblank == blanks:
            forced_choices = [()]
            free = range(len(new))
        elif not any(full_rack[word[index] & LETTER_MASK] for index in new
                     if word[index] & BLANK):
            # The usual case: every blank of the walk stands for a letter the rack has none
            # of, so those squares must be blanks, and the other blanks go anywhere else.
            forced = tuple(k for k, index in enumerate(new) if word[index] & BLANK)
            for k in forced:
                plain[new[k] - first] &= LETTER_MASK
            forced_choices = [forced]
            free = [k for k, index in enumerate(new) if not word[index] & BLANK]
        else:
            # Tile t placed k times with only r in the rack needs k - r blanks among its
            # squares; the other blanks may go on any new square.
            by_tile: dict = {}
            for k, index in enumerate(new):
                plain[index - first] &= LETTER_MASK
                by_tile.setdefault(plain[index - first], []).append(k)
            choices = []
            free = []
            for tile, positions in by_tile.items():
                short = len(positions) - full_rack[tile]
                if short > 0:
                    choices.append([wild for count in range(short, min(len(positions), blanks) + 1)
                                    for wild in combinations(positions, count)])
                else:
                    free.extend(positions)
            forced_choices = [sum(groups, ()) for groups in product(*choices)]
        plain = tuple(plain)
        start = first - line_start
        for forced in forced_choices:
            for count in range(blanks - len(forced) + 1):
                for extra in combinations(free, count):
                    mask = 0
                    cost = 0
                    for k in forced + extra:
                        mask |= bits[k]
                        cost += costs[k]
                    if score - cost >= floor[0]:
                        moves.append((cost - score, direction, line, start, plain, mask))

    def gen(square: int, start: int, node: int, in_rack: int, rmask: int, nblank: int) -> None:
        """Gen of Gordon (1994), with GoOn inlined.

        For each letter that may go on `square` (the board's tile, a rack tile, or a blank),
        GoOn: record the word if it may end there, and extend it through the letter's arc
        (leftward, or across the separator to the right of the pivot).

        `start` is -1 while moving left from the pivot (the word then begins at `square`),
        else the word's first square. `in_rack` counts the tiles left in the rack, `rmask` has
        bit t set while tile t is in it, `nblank` counts its blanks.
        """
        mask = node_mask[node]
        code = cells[square]
        if code:
            letters = mask & 1 << (code & LETTER_MASK)
            after = in_rack
        else:
            letters = mask & checks[square]
            if not nblank:
                letters &= rmask
            after = in_rack - 1
        if not letters:
            return
        # Skip letters that can neither end the word here nor go on one more square. `ends`:
        # a word may end on this square. `onward`: tiles the letter's child must offer to go
        # on (bit 0: the separator). `last`: when the next square is empty and would take
        # the last rack tile with the word ending there, the tiles that must be accepting
        # arcs of the child instead.
        available = all_letters if nblank else rmask
        onward = 0
        last = 0
        if start < 0:
            # Moving left the word may end, or turn right, once the anchor has its tile; it
            # may not put a tile on another anchor (that anchor generates those moves).
            left_free = square == line_start or not cells[square - 1]
            ends = left_free and square <= anchor
            if not left_free:
                onward = 1 << (cells[square - 1] & LETTER_MASK)
            elif after and square > line_start and (square - 1 == anchor or (
                    square <= anchor and not is_anchor[square - 1])):
                if after == 1 and (square - 1 == line_start or not cells[square - 2]):
                    last = checks[square - 1] & available
                else:
                    onward = checks[square - 1] & available
            if ends and after and pivot < line_end:
                onward |= 1
        else:
            ends = square == line_end or not cells[square + 1]
            if not ends:
                onward = 1 << (cells[square + 1] & LETTER_MASK)
            elif square < line_end and after:
                if after == 1 and (square + 1 == line_end or not cells[square + 2]):
                    last = checks[square + 1] & available
                else:
                    onward = checks[square + 1] & available
        while letters:
            bit = letters & -letters
            letters ^= bit
            arc = arcs[node + (mask & (bit - 1)).bit_count()]
            child = arc >> ARC_CHILD_SHIFT
            accepted = ends and arc & ARC_ACCEPTS
            going = node_mask[child] & onward
            if last:
                # Does the child accept one of the letters the next square could take?
                offered = node_mask[child]
                candidates = offered & last
                while candidates:
                    low = candidates & -candidates
                    candidates ^= low
                    if arcs[child + (offered & (low - 1)).bit_count()] & ARC_ACCEPTS:
                        going |= low
                        break
            if not (accepted or going):
                continue
            tile = 0
            next_rmask = rmask
            next_nblank = nblank
            if not code:
                # A rack tile when there is one, else a blank: with a blank for a letter the
                # rack has, the rest of the walk could only find fewer words (the blank left
                # over can stand for anything the tile could). `record` lists the other
                # choices of blanks.
                tile = bit.bit_length() - 1
                if bit & rmask:
                    left = rack[tile] - 1
                    rack[tile] = left
                    word[square] = tile
                    if not left:
                        next_rmask = rmask ^ bit
                else:
                    word[square] = tile | BLANK
                    next_nblank = nblank - 1
                    tile = 0
            # GoOn. An empty next square needs a letter the rack still has (or a blank) in
            # its cross-check and in the next node: checked here, before the call.
            rest = all_letters if next_nblank else next_rmask
            if start < 0:
                # Moving left: the word spans square .. pivot.
                if accepted:
                    record(square, pivot, after, next_nblank)
                if going & ~1 and (not left_free or node_mask[child] & checks[square - 1] & rest):
                    gen(square - 1, -1, child, after, next_rmask, next_nblank)
                if going & 1:
                    # The separator is tile 0, so it is the node's first arc; the square after
                    # the pivot is empty.
                    after_separator = arcs[child] >> ARC_CHILD_SHIFT
                    if node_mask[after_separator] & checks[pivot + 1] & rest:
                        gen(pivot + 1, square, after_separator, after, next_rmask, next_nblank)
            else:
                # Moving right: the word spans start .. square.
                if accepted:
                    record(start, square, after, next_nblank)
                if going and (not ends or node_mask[child] & checks[square + 1] & rest):
                    gen(square + 1, start, child, after, next_rmask, next_nblank)
            if tile:
                rack[tile] += 1
        if not code:
            word[square] = 0

    if tiles_in_rack:
        gen(pivot, -1, root, tiles_in_rack, rack_mask, blanks)
    return moves
