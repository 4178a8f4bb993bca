"""Hand-checked scores from the rules of docs/GAMES.md, each checked three ways: lookup's
scoring, the tests' reference scorer, and the move generator on a lexicon holding exactly the
words."""

import pytest

from crossword_oracle import grid_of, reference_score
from crossword_support import game_with_words

EMPTY = "...............\n" * 15


def board_with(game, rows: dict[int, str]):
    lines = ["." * 15] * 15
    for r, text in rows.items():
        lines[r] = text
    return game.parse_board("\n".join(lines))


def check(game, board, placement, expected, rack):
    assert game.score(board, placement) == expected
    new = {(r, c): (letter, blank) for r, c, letter, blank in placement}
    assert reference_score(game.rules, grid_of(board), new) == expected
    found = [m for m in game.moves(board, rack) if m.kind == "play"
             and sorted(m.placed) == sorted(placement)]
    assert len(found) == 1 and found[0].score == expected
    assert game.validate(board, placement) == []
    return found[0]


def test_letter_premium_before_word_premium():
    # z on DL (7,3) counts 20, then the centre DW doubles the word: (20 + 1 + 3 + 1 + 1) * 2.
    cw = game_with_words("scrabble-en", ["zebra"], "zebra")
    board = cw.parse_board(EMPTY)
    placed = [(7, 3 + k, letter, False) for k, letter in enumerate("zebra")]
    move = check(cw, board, placed, 52, "zebrast")
    assert (move.row, move.col, move.direction, move.word, move.words) == (7, 3, "H", "zebra",
                                                                           ["zebra"])


def test_two_word_premiums_multiply():
    # Row 4 has DW at columns 4 and 10; the t at (4, 7) is already on the board:
    # (3 + 1 + 1 + 1 + 1 + 1 + 1) * 2 * 2.
    cw = game_with_words("scrabble-en", ["bottles", "team"], "bottles")
    board = board_with(cw, {4: ".......t.......", 5: ".......e.......", 6: ".......a.......",
                            7: ".......m......."})
    placed = [(4, c, letter, False) for c, letter in zip((4, 5, 6, 8, 9, 10), "botles")]
    check(cw, board, placed, 36, "botlesq")


def test_premiums_count_only_under_new_tiles():
    # The t of "cat" covers the centre DW; adding s scores 3 + 1 + 1 + 1, undoubled.
    cw = game_with_words("scrabble-en", ["cat", "cats"], "cats")
    board = board_with(cw, {7: ".....cat......."})
    check(cw, board, [(7, 8, "s", False)], 6, "s")


def test_cross_words_take_the_new_tiles_premium():
    # "ox" on row 6 with x on DL (6, 6): main 1 + 16 = 17; cross "oc" 1 + 3 = 4; cross "xa"
    # 16 + 1 = 17.
    cw = game_with_words("scrabble-en", ["cat", "ox", "oc", "xa"], "ox")
    board = board_with(cw, {7: ".....cat......."})
    move = check(cw, board, [(6, 5, "o", False), (6, 6, "x", False)], 38, "ox")
    assert move.words == ["ox", "oc", "xa"]


def test_blank_scores_zero_on_a_letter_premium():
    # A blank z on DL (7, 3): (0 + 1 + 3 + 1 + 1) * 2.
    cw = game_with_words("scrabble-en", ["zebra"], "zebra")
    board = cw.parse_board(EMPTY)
    placed = [(7, 3, "z", True)] + [(7, 4 + k, letter, False) for k, letter in enumerate("ebra")]
    move = check(cw, board, placed, 12, "?ebra")
    assert move.notation() == "H 7,3 Zebra 12"


def test_blank_keeps_its_word_premium():
    # A blank a on the centre DW still doubles the word: (20 + 1 + 3 + 1 + 0) * 2.
    cw = game_with_words("scrabble-en", ["zebra"], "zebra")
    board = cw.parse_board(EMPTY)
    placed = [(7, 3 + k, letter, False) for k, letter in enumerate("zebr")] + [(7, 7, "a", True)]
    check(cw, board, placed, 50, "zebr?")


@pytest.mark.parametrize("game, word, expected", [
    # retains from (7, 1): t on DL (7, 3), s on the centre DW: (1+1+2+1+1+1+1) * 2 + 50.
    ("scrabble-en", "retains", 66),
    # Wordfeud: (7, 3) is DW, the centre plain: 7 * 2 + 40.
    ("wordfeud-en", "retains", 54),
    # Dutch values r2 e1 t2 a1 i2 n1 s2: 11 * 2 + 40.
    ("wordfeud-nl", "retains", 62),
    # Erudit: м2 о1 л2 о1 т2 о1 к2, л on DL (7, 3), plain centre: 13 + 15.
    ("erudit-ru", "молоток", 28),
])
def test_bingo(game, word, expected):
    cw = game_with_words(game, [word], f"bingo-{game}")
    board = cw.parse_board(EMPTY)
    placed = [(7, 1 + k, letter, False) for k, letter in enumerate(word)]
    check(cw, board, placed, expected, word)


def test_six_tiles_is_no_bingo():
    cw = game_with_words("scrabble-en", ["retain"], "retain")
    board = cw.parse_board(EMPTY)
    # r e t(DL) a i n(DW): (1 + 1 + 2 + 1 + 1 + 1) * 2.
    check(cw, board, [(7, 2 + k, letter, False) for k, letter in enumerate("retain")], 14,
          "retains")


def test_one_tile_forming_two_words_scores_both():
    # x on DL (8, 6) makes "xa" across (16 + 1) and "ax" down (1 + 16); it is listed once,
    # across, with both words.
    cw = game_with_words("scrabble-en", ["cat", "ta", "xa", "ax"], "xa")
    board = board_with(cw, {7: ".....cat.......", 8: ".......a......."})
    move = check(cw, board, [(8, 6, "x", False)], 34, "x")
    assert (move.direction, move.row, move.col, move.words) == ("H", 8, 6, ["xa", "ax"])


def test_tile_score():
    scrabble = game_with_words("scrabble-en", ["quiz"], "quiz")
    assert scrabble.tile_score("quiz") == 22
    assert scrabble.tile_score("Quiz") == scrabble.tile_score("?uiz") == 12
    erudit = game_with_words("erudit-ru", ["щука"], "щука")
    assert erudit.tile_score("щука") == 10 + 3 + 2 + 1


def test_rack_score_plays_missing_letters_with_blanks():
    scrabble = game_with_words("scrabble-en", ["acta"], "acta")
    # A word finder's score: c 3 + a 1 + t 1 from the rack, the second a is the blank.
    assert scrabble.rack_score("acta", "cat?") == 5
    assert scrabble.rack_score("acta", "aact") == 6
