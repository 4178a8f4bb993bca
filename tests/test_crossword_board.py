"""Boards, racks, validation, rendering and the move objects of lookup.crossword.game."""

import pytest

from crossword_support import fixture_game, game_with_words
from lookup.errors import BadInput

EMPTY = ["." * 15] * 15


def text(rows: dict[int, str] | None = None, lines=None) -> str:
    lines = list(lines or EMPTY)
    for r, row in (rows or {}).items():
        lines[r] = row
    return "\n".join(lines) + "\n"


CAT = text({7: ".....cat......."})


def test_parse_board_round_trip():
    cw = fixture_game("scrabble-en")
    board = cw.parse_board(text({7: ".....caT.......", 8: "......x........"}))
    assert board.text() == text({7: ".....caT.......", 8: "......x........"})
    assert list(board.tiles()) == [(7, 5, "c", False), (7, 6, "a", False), (7, 7, "t", True),
                                   (8, 6, "x", False)]
    assert cw.parse_board("\n\n" + " ".join(CAT) + "\n\n").text() == CAT


def test_parse_board_cyrillic():
    cw = fixture_game("erudit-ru")
    board = cw.parse_board(text({7: ".....кОт......."}))
    assert (board.letter(7, 6), board.is_blank(7, 6), board.letter(7, 5)) == ("о", True, "к")


@pytest.mark.parametrize("game, board, message", [
    ("scrabble-en", "\n".join(EMPTY[:14]), "board has 14 lines; scrabble-en needs 15 lines"),
    ("scrabble-en", text({3: "." * 14}), "board row 3 has 14 squares; scrabble-en needs 15"),
    ("scrabble-en", text({7: "......#........"}), "board row 7 col 6: unknown symbol '#'"),
    ("wordfeud-nl", text({7: "......ä........"}), "board row 7 col 6: 'ä' is not a letter of "
                                                   "wordfeud-nl"),
    ("erudit-ru", CAT, "board row 7 col 5: 'c' is not a letter of erudit-ru"),
    ("scrabble-en", text({7: "......qq......."}), "board has 2 tiles 'q'; the scrabble-en set "
                                                   "has only 1"),
    ("scrabble-en", text({7: "....ABC........"}), "board has 3 blanks"),
    ("scrabble-en", text({3: ".....cat......."}), "start square row 7 col 7 is empty"),
    ("scrabble-en", text({7: ".....cat.......", 2: "x.............."}),
     "tile 'x' at row 2 col 0 touches no other tile"),
    ("scrabble-en", text({7: ".....cat.......", 2: "xy............."}),
     "tile 'x' at row 2 col 0 is not connected"),
    ("scrabble-en", text({7: ".......a......."}), "tile 'a' at row 7 col 7 touches no other"),
])
def test_bad_boards(game, board, message):
    with pytest.raises(BadInput) as error:
        fixture_game(game).parse_board(board)
    assert message in str(error.value)
    assert "\n" not in str(error.value)


@pytest.mark.parametrize("board, rack, message", [
    (EMPTY, "abcdefgh", "rack 'abcdefgh' has 8 tiles; a scrabble-en rack holds 7"),
    (EMPTY, "ab1", "rack letter '1' is not a letter of scrabble-en"),
    (EMPTY, "qq", "rack and board hold 2 tiles 'q'; the scrabble-en set has 1"),
    (text({7: "......qi......."}), "q", "rack and board hold 2 tiles 'q'"),
    (EMPTY, "???", "rack and board hold 3 blanks; the scrabble-en set has 2"),
    (text({7: "......qI......."}), "a??", "rack and board hold 3 blanks"),
])
def test_bad_racks(board, rack, message):
    cw = fixture_game("scrabble-en")
    position = cw.parse_board(board if isinstance(board, str) else text(lines=board))
    with pytest.raises(BadInput) as error:
        cw.moves(position, rack)
    assert message in str(error.value)
    assert "\n" not in str(error.value)


def test_top_must_be_positive():
    cw = fixture_game("scrabble-en")
    with pytest.raises(BadInput, match="top must be at least 1"):
        cw.moves(cw.empty_board(), "abc", top=0)


def test_rack_is_case_insensitive():
    cw = fixture_game("scrabble-en")
    board = cw.parse_board(CAT)
    assert [m.key() for m in cw.moves(board, "EARS")] == [m.key() for m in cw.moves(board, "ears")]


@pytest.mark.parametrize("placement, reasons", [
    ([(6, 5, "a", False), (7, 8, "s", False)], ["tiles not in one line"]),
    ([(7, 8, "s", False), (7, 10, "s", False)], ["tiles not contiguous: row 7 col 9 is empty"]),
    ([(2, 2, "a", False), (2, 3, "t", False)], ["not connected: no new tile touches a tile on "
                                                "the board"]),
    ([(7, 6, "s", False)], ["square row 7 col 6 already holds 'a'"]),
    ([(7, 15, "s", False)], ["square row 7 col 15 is off the board"]),
    ([(7, 8, "é", False)], ["'é' is not a letter of scrabble-en"]),
    ([(7, 8, "s", False), (7, 8, "s", False)], ["two tiles on row 7 col 8"]),
    ([(7, 8 + k, "s", False) for k in range(7)] + [(8, 5, "a", False)],
     ["8 tiles placed; a rack holds 7"]),
    ([], ["no tiles placed"]),
    ([(6, 5, "q", False), (6, 6, "x", False)],
     ["main word QX is not a word", "cross word QC is not a word"]),
    ([(8, 7, "x", False)], ["main word TX is not a word"]),
    ([(6, 6, "q", False)], ["main word QA is not a word"]),
    ([(6, 6, "x", False)], []),
    ([(7, 8, "s", False)], []),
])
def test_validate(placement, reasons):
    cw = game_with_words("scrabble-en", ["cat", "cats", "ax", "xa", "ta", "as"], "validate")
    assert cw.validate(cw.parse_board(CAT), placement) == reasons


def test_validate_first_move_and_rack():
    cw = game_with_words("scrabble-en", ["cat", "at"], "first")
    empty = cw.empty_board()
    assert cw.validate(empty, [(3, 3, "a", False), (3, 4, "t", False)]) == [
        "first move must cover the start square row 7 col 7"]
    assert cw.validate(empty, [(7, 7, "a", False)]) == ["main word A is shorter than 2 letters"]
    at = [(7, 7, "a", False), (7, 8, "t", True)]
    assert cw.validate(empty, at) == []
    assert cw.validate(empty, at, rack="a?") == []
    assert cw.validate(empty, at, rack="at") == ["rack 'at' has 0 blanks, the placement uses 1"]
    assert cw.validate(empty, at, rack="t?") == ["rack 't?' has 0 'a', the placement uses 1"]


def test_score_refuses_illegal_shapes():
    cw = fixture_game("scrabble-en")
    with pytest.raises(BadInput, match="cannot score this placement: tiles not in one line"):
        cw.score(cw.parse_board(CAT), [(6, 5, "a", False), (7, 8, "s", False)])


def test_moves_are_complete_objects():
    cw = game_with_words("scrabble-en", ["cat", "cats", "scat"], "objects")
    board = cw.parse_board(CAT)
    moves = cw.moves(board, "s?", bag=20)
    plays = [m for m in moves if m.kind == "play"]
    assert [m.notation() for m in plays] == ["H 7,4 scat 6", "H 7,5 cats 6", "H 7,4 Scat 5",
                                             "H 7,5 catS 5"]
    best = plays[0]
    assert (best.kind, best.row, best.col, best.direction, best.word, best.score) == (
        "play", 7, 4, "H", "scat", 6)
    assert best.placed == [(7, 4, "s", False)]
    assert best.words == ["scat"]
    assert best.to_dict() == {"kind": "play", "row": 7, "col": 4, "direction": "H",
                              "word": "scat", "placed": [[7, 4, "s", False]],
                              "words": ["scat"], "score": 6, "exchanged": "", "parts": []}
    rest = moves[len(plays):]
    assert [(m.kind, m.exchanged, m.score) for m in rest] == [
        ("exchange", "?", 0), ("exchange", "s", 0), ("exchange", "s?", 0), ("pass", "", 0)]
    assert all(m.row is None and m.direction is None and m.placed == [] for m in rest)


def test_exchanges_need_the_bag():
    cw = fixture_game("wordfeud-en")  # exchanges while 7 or more tiles are in the bag
    board = cw.parse_board(CAT)

    def kinds(moves):
        return {m.kind for m in moves}

    assert "exchange" in kinds(cw.moves(board, "qvv", bag=7))
    assert "exchange" not in kinds(cw.moves(board, "qvv", bag=6))
    # By default the bag is the unseen tiles (104 - 3 - 3) less a full opponent rack.
    assert "exchange" in kinds(cw.moves(board, "qvv"))
    assert [m.kind for m in cw.moves(board, "", bag=50)] == ["pass"]


def test_render_marks_the_move():
    cw = game_with_words("scrabble-en", ["cat", "cats"], "render")
    board = cw.parse_board(CAT)
    move = cw.moves(board, "s", top=1)[0]
    lines = cw.render(board, move).splitlines()
    assert lines[0] == "    " + "".join(f"{c:>3}" for c in range(15))
    assert lines[1 + 7] == "  7  =  .  .  '  .  c  a  t [s] .  .  '  .  .  = "
    assert lines[1 + 0].startswith("  0  =  .  .  '")
    assert lines[-1].startswith("[x] new tile")
    assert "[" not in "".join(cw.render(board).splitlines()[1:-1])
