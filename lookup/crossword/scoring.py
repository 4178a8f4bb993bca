"""Scoring of crossword moves: the one place that knows how a placement scores.

Rules (docs/GAMES.md, "## Crossword games"): a letter premium (DL x2, TL x3) multiplies the
letter under it, then word premiums (DW x2, TW x3, multiplied together when there are several)
multiply the word; premiums count only under newly placed tiles; each cross word formed by a
new tile scores in full, with that tile's letter and word premium; a blank scores 0 even on
DL/TL, but its DW/TW still counts; placing all `rack_size` tiles adds the bingo bonus.

A ScoreSheet holds, for one board and one orientation, what those rules need per square: the
letter and word multipliers and the value of the perpendicular tiles a new tile would join
(its cross word without itself). `score_word` applies the rules to one placement: the move
generator (lookup/crossword/movegen.py) and CrosswordGame.score both call it. `blank_savings` gives,
for the moves that differ only in which new tiles are blanks, the score with no blank and what a
blank costs on each square (the score is linear in those choices); the tests check every
generated score against an independent brute-force scorer.

A multi-word turn (Erudit, lookup/crossword/turn.py) is scored by `score_runs`: every run of two
tiles or more that holds a new tile is a word scored on its own by the same rules (letter and word
premiums under the tiles new this turn), plus the bingo once. For a single-line placement
the runs are its main word and its cross words, so both functions give the same score.

Worked example (Scrabble, empty board, "cat" across row 7 from col 5): c=3, a=1, t=1; the
centre (7, 7) is DW and under the new t, no letter premium, so (3 + 1 + 1) * 2 = 10.
"""

from dataclasses import dataclass, field

from lookup.crossword.board import BLANK, LETTER_MASK, run_bounds

NO_CROSS_WORD = -1


@dataclass(frozen=True)
class ScoreSheet:
    """Per-square scoring terms of one board seen in one orientation.

    In the "across" orientation a line is a board row and the cross words are vertical; the
    "down" orientation is the transposed board, so the same code serves both.

    Attributes:
        size: squares per side.
        letter_mult: letter multiplier of each square (read only under new tiles).
        word_mult: word multiplier of each square.
        cross_sum: for an empty square, the summed value of the perpendicular tiles a tile
            placed there would join into a cross word; NO_CROSS_WORD (-1) when it joins none.
        values: value of each tile code; codes with the BLANK bit are worth 0.
        rack_size: tiles a full rack holds; placing that many earns `bingo`.
        bingo: the bingo bonus.
        scratch: four lists of `size` ints that score_new_tiles fills for score_word and
            blank_savings (a sheet serves one move generation, so one set suffices).
    """

    size: int
    letter_mult: list
    word_mult: list
    cross_sum: list
    values: list
    rack_size: int
    bingo: int
    scratch: tuple = field(default=(), compare=False)


def board_tile_values(values_by_code: list[int]) -> list[int]:
    """Values indexed by tile code, blank codes (BLANK bit set) worth 0: length 2 * BLANK."""
    table = [0] * (2 * BLANK)
    for code, value in enumerate(values_by_code):
        table[code] = value
    return table


def score_sheet(cells, size: int, letter_mult, word_mult, values: list[int], rack_size: int,
                bingo: int) -> ScoreSheet:
    """The score sheet of `cells` (row-major codes) read across; pass transposed data for down.

    Args:
        cells: tile codes, row-major (0 empty).
        size: squares per side.
        letter_mult: letter multiplier per square, same layout as `cells`.
        word_mult: word multiplier per square, same layout as `cells`.
        values: tile values by code (see board_tile_values).
        rack_size: tiles of a full rack.
        bingo: bonus for placing a full rack.
    """
    cross_sum = [NO_CROSS_WORD] * (size * size)
    for index, code in enumerate(cells):
        if code:
            continue
        first, last = run_bounds(cells, size, index, size)
        if first != last:
            cross_sum[index] = sum(values[cells[j]] for j in range(first, last + 1, size)
                                   if j != index)
    return ScoreSheet(size, list(letter_mult), list(word_mult), cross_sum, values, rack_size,
                      bingo, tuple([0] * size for _ in range(4)))


def score_new_tiles(values, letter_mult, word_mult, cross_sum, cells, word, first, last,
                    new_tile, new_letter, new_position, new_cross):
    """The scorer of a placement whose main word lies on squares first..last of one line, every
    new tile counted as a real tile: the one scoring rule of the move generator, the move
    engine (lookup/crossword/engine_kernel.py compiles this very function) and
    CrosswordGame.score. Written in the subset of Python numba compiles: flat arrays, no
    objects.

    Args:
        values: tile values by code (board_tile_values); new tiles are valued without their
            BLANK bit, the board's blanks at 0.
        letter_mult, word_mult, cross_sum: the score sheet's, in the placement's orientation.
        cells: the board's tile codes in that orientation, before the move (0 where a new tile
            goes).
        word: tile codes after the move, at least on squares first..last.
        first, last: the main word's first and last square.
        new_tile, new_letter, new_position, new_cross: filled for each new tile in order: its
            code, its letter score (value x letter multiplier), its position in the word, and
            the word multiplier of its cross word (0 when it forms none).

    Returns:
        (score of the main word and every cross word, without the bingo; the main word's word
        multiplier; the number of new tiles). A blank instead of new tile q costs
        new_letter[q] * (multiplier + new_cross[q]): v * l out of the main word, whose
        multiplier does not change (a blank's word premium still counts), and v * l * w out of
        its cross word.
    """
    main = 0
    multiplier = 1
    crossing = 0
    fresh = 0
    for index in range(first, last + 1):
        code = cells[index]
        if code:
            main += values[code]
            continue
        tile = word[index] & LETTER_MASK
        letter = values[tile] * letter_mult[index]
        main += letter
        multiplier *= word_mult[index]
        new_tile[fresh] = tile
        new_letter[fresh] = letter
        new_position[fresh] = index - first
        new_cross[fresh] = 0
        if cross_sum[index] != NO_CROSS_WORD:
            crossing += (cross_sum[index] + letter) * word_mult[index]
            new_cross[fresh] = word_mult[index]
        fresh += 1
    return main * multiplier + crossing, multiplier, fresh


def _score_on_sheet(sheet: ScoreSheet, cells, word, first: int, last: int) -> tuple:
    """score_new_tiles on a sheet, into its scratch lists, the bingo included: (score with
    every new tile a real tile, the main word's multiplier, the number of new tiles).
    """
    new_tile, new_letter, new_position, new_cross = sheet.scratch
    score, multiplier, fresh = score_new_tiles(
        sheet.values, sheet.letter_mult, sheet.word_mult, sheet.cross_sum, cells, word, first,
        last, new_tile, new_letter, new_position, new_cross)
    return score + (sheet.bingo if fresh == sheet.rack_size else 0), multiplier, fresh


def blank_savings(sheet: ScoreSheet, cells, word, first: int, last: int) -> tuple[int, list,
                                                                                 list]:
    """Score a placement with every new tile a real tile, and what a blank there would cost
    (score_new_tiles): the score with blanks on a set S of new squares is
    score - sum(cost[q] for q in S).

    Args:
        sheet: the score sheet of the board in the placement's orientation.
        cells: the board's tile codes in that orientation, before the move.
        word: tile codes after the move; BLANK bits on new squares are ignored.
        first: the main word's first square.
        last: its last square.

    Returns:
        (score with no blank among the new tiles, bingo included; the new squares in order;
        the cost of a blank on each of them).
    """
    score, multiplier, fresh = _score_on_sheet(sheet, cells, word, first, last)
    _new_tile, new_letter, new_position, new_cross = sheet.scratch
    squares = [first + new_position[q] for q in range(fresh)]
    costs = [new_letter[q] * (multiplier + new_cross[q]) for q in range(fresh)]
    return score, squares, costs


def score_word(sheet: ScoreSheet, cells, word, first: int, last: int) -> int:
    """The score of a placement whose main word lies on squares first..last of one line: main
    word, every cross word of a new tile, and the bingo; a new tile with the BLANK bit in
    `word` is a blank (its cost, as blank_savings gives it, taken off).
    """
    score, multiplier, fresh = _score_on_sheet(sheet, cells, word, first, last)
    _new_tile, new_letter, new_position, new_cross = sheet.scratch
    for q in range(fresh):
        if word[first + new_position[q]] & BLANK:
            score -= new_letter[q] * (multiplier + new_cross[q])
    return score


def score_runs(cells, new, runs, letter_mult, word_mult, values, rack_size: int,
               bingo: int) -> int:
    """Score a turn as the sum of its words, each with the premiums of the new tiles in it.

    Args:
        cells: tile codes after the turn, row-major.
        new: the squares of the tiles placed this turn (a set of indexes).
        runs: (first, last, step) of every word the turn forms
        (lookup.crossword.board.runs_through). letter_mult: letter multiplier per square.
        word_mult: word multiplier per square.
        values: tile values by code (see board_tile_values).
        rack_size: tiles of a full rack; placing that many earns `bingo`, once.
        bingo: the bingo bonus.
    """
    total = 0
    for first, last, step in runs:
        word = 0
        multiplier = 1
        for index in range(first, last + 1, step):
            if index in new:
                word += values[cells[index]] * letter_mult[index]
                multiplier *= word_mult[index]
            else:
                word += values[cells[index]]
        total += word * multiplier
    return total + (bingo if len(new) == rack_size else 0)
