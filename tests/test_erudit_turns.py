"""Erudit multi-word turns (lookup/crossword/turn.py, lookup/crossword/turn_search.py): the full
search against an independent brute force over sequences of single-line placements
(tests/crossword_oracle.py), the rules of a turn, its score, and bad input."""

import functools
import random

import pytest

from crossword_oracle import brute_force_turns, grid_of
from crossword_support import (
    fixture_game,
    fixture_index,
    game_with_words,
    rules,
    selfplay_positions,
)
from lookup.crossword.game import CrosswordGame
from lookup.errors import BadInput
from pipeline.selfplay import play_game

GAME = "erudit-ru"
POSITIONS = 200
# Multi-word turns among the legal turns of those positions (the rest are single plays).
MULTI_WORD_TURNS = 2348


def small_rack_cases(cw, count: int) -> list:
    """(label, board, rack) over the first `count` self-play positions: the racks cut to 3
    tiles, every 8th to 4, every 25th with a blank for its last tile (a blank multiplies the
    brute force's work by about ten)."""
    found = []
    for number, position in enumerate(selfplay_positions(GAME)[:count]):
        board = cw.parse_board(position["board"])
        rack = position["rack"][:4 if number % 8 == 1 else 3]
        blanks_on_board = sum(1 for tile in board.tiles() if tile[3])
        if number % 25 == 0 and blanks_on_board + rack.count("?") < cw.rules.blanks:
            rack = rack[:-1] + "?"
        found.append((f"position {number} rack {rack!r}", board, rack))
    return found


def test_full_search_agrees_with_the_brute_force():
    cw = fixture_game(GAME)
    index = fixture_index(cw.rules.lexicon)
    turns = 0
    for number, (label, board, rack) in enumerate(small_rack_cases(cw, POSITIONS)):
        expected = brute_force_turns(cw.rules, grid_of(board), rack, index,
                                     max_parts=len(rack))
        everything = [m for m in cw.moves(board, rack, top=10 ** 6)
                      if m.kind in ("play", "turn")]
        found = {frozenset(m.placed): m.score for m in everything}
        assert len(found) == len(everything), f"{label}: a turn came out twice"
        assert found == expected, f"{label}: {sorted(set(found) ^ set(expected))[:3]}"
        if number % 4 == 0:
            best = cw.best_turn(board, rack, method="full")
            assert (best.score if best else None) == max(expected.values(), default=None)
        for tiles, score in expected.items():
            assert cw.score(board, sorted(tiles)) == score, label
        for tiles in list(expected)[::7]:
            assert cw.validate(board, sorted(tiles), rack=rack) == [], label
        turns += sum(1 for m in everything if m.kind == "turn")
    assert turns == MULTI_WORD_TURNS


# Fixture self-play positions, racks cut to 5 tiles, on which the top-N search's bound is
# checked against the search without it; states the bound kept from being expanded there.
BOUND_POSITIONS = 200
PRUNED_STATES = {1: 721, 3: 448}


def turn_list(moves) -> list:
    return [(m.notation(), m.score) for m in moves]


def test_the_score_bound_changes_no_top_turn():
    cw = fixture_game(GAME)
    pruned = dict.fromkeys(PRUNED_STATES, 0)
    for number, position in enumerate(selfplay_positions(GAME)[:BOUND_POSITIONS]):
        board = cw.parse_board(position["board"])
        rack = cw.rack_codes(position["rack"][:5], board)
        search = cw._turn_search(board, rack, None)
        everything = turn_list(search.ranked())
        for top in PRUNED_STATES:
            assert turn_list(search.ranked(top)) == everything[:top], f"position {number}"
            pruned[top] += search.pruned
    assert pruned == PRUNED_STATES


def test_the_compiled_step_and_the_move_generator_find_the_same_turns():
    pytest.importorskip("numba")
    cw = fixture_game(GAME)
    for number, position in enumerate(selfplay_positions(GAME)[:40]):
        board = cw.parse_board(position["board"])
        rack = cw.rack_codes(position["rack"][:4], board)
        compiled, plain = (cw._turn_search(board, rack, None, compiled=flag)
                           for flag in (True, False))
        assert turn_list(compiled.ranked()) == turn_list(plain.ranked()), f"position {number}"
        assert turn_list([compiled.greedy()]) == turn_list([plain.greedy()])


def test_without_numba_moves_and_turns_come_from_the_move_generator(monkeypatch):
    import lookup.crossword.game

    cw = fixture_game(GAME)
    board = cw.parse_board(selfplay_positions(GAME)[5]["board"])
    expected = [repr(m) for m in cw.moves(board, "корова", top=5)]
    monkeypatch.setattr(lookup.crossword.game, "numba_available", lambda: False)

    def no_engine(*args, **kwargs):
        raise AssertionError("the move engine was asked for without numba")

    monkeypatch.setattr(lookup.crossword.game, "move_engine", no_engine)
    assert [repr(m) for m in cw.moves(board, "корова", top=5)] == expected


def kot_game(*words):
    return game_with_words(GAME, words, "erudit-" + "-".join(words))


def board_with(cw, row7: str):
    """An Erudit board whose row 7 holds `row7` from column 6."""
    rows = ["." * 15] * 15
    rows[7] = "." * 6 + row7 + "." * (9 - len(row7))
    return cw.parse_board("\n".join(rows))


def test_two_words_in_one_row_that_no_single_play_makes():
    cw = kot_game("кот", "ко", "то")
    board = board_with(cw, "кот")
    turn = [(8, 6, "о", False), (8, 8, "о", False)]
    assert cw.validate(board, turn, rack="оо") == []
    # ко and то down, each with the DL under its new о: (2 + 1 * 2) + (2 + 1 * 2).
    assert cw.score(board, turn) == 8
    best = cw.best_turn(board, "оо", method="full")
    assert (best.kind, best.score, best.words, best.placed) == ("turn", 8, ["ко", "то"], turn)
    assert [part.notation() for part in best.parts] == ["V 7,6 ко 4", "V 7,8 то 4"]
    assert best.notation() == "V 7,6 ко + V 7,8 то 8"
    assert cw.best_turn(board, "оо", method="greedy").key() == best.key()
    assert cw.play(board, best).text() == board.with_tiles(turn).text()


def test_the_article_opening_with_four_words():
    cw = kot_game("облом", "бел", "лом", "боб")
    board = cw.empty_board()
    greedy = cw.best_turn(board, "облмеоб", method="greedy")
    # облом across from the centre (м on DL): 1 + 3 + 2 + 1 + 2 * 2 = 11; бел down to its л
    # (б on TL): 9 + 1 + 2 = 12; seven tiles: + 15.
    assert greedy.notation() == "H 7,7 облом + V 5,9 бел 38"
    full = cw.best_turn(board, "облмеоб", method="full")
    # лом 5, бел with б on TL 12, боб through the same new б (its TL counts again) 13, + 15.
    assert (full.score, sorted(full.words), len(full.placed)) == (45, ["бел", "боб", "лом"], 7)
    assert cw.score(board, full) == 45 and cw.validate(board, full, rack="облмеоб") == []


def test_top_ranks_turns_with_plays_and_without_top_lists_plays():
    cw = kot_game("кот", "ко", "то", "кто")
    board = board_with(cw, "кот")
    top = cw.moves(board, "оо", top=3)
    assert [m.notation() for m in top] == ["V 7,6 ко + V 7,8 то 8", "V 7,6 ко 4", "V 7,8 то 4"]
    assert {m.kind for m in cw.moves(board, "оо")} == {"play", "exchange", "pass"}


def test_a_word_on_the_board_or_played_before_is_not_formed_again():
    cw = kot_game("кок", "ко", "кот", "от")
    board = board_with(cw, "кок")
    twice = [(8, 6, "о", False), (8, 8, "о", False)]
    assert cw.validate(board, twice) == [
        "word КО is formed twice in this turn; erudit-ru forms each word once"]
    assert cw.best_turn(board, "оо", method="full").words == ["ко"]
    assert cw.validate(board, [(8, 6, "о", False)], played_words=["ко"]) == [
        "word КО is already played; erudit-ru forms each word once"]
    assert cw.best_turn(board, "о", method="full", played_words=["КО"]) is None
    # кот down from the board's к repeats the board's кот across.
    assert cw.validate(board_with(cw, "кот"), [(8, 6, "о", False), (9, 6, "т", False)]) == [
        "word КОТ is already played; erudit-ru forms each word once"]


@pytest.mark.parametrize("turn, rack, reason", [
    ([(8, 6, "о", False), (8, 6, "о", False)], None, "two tiles on row 8 col 6"),
    ([(7, 7, "о", False)], None, "square row 7 col 7 already holds 'о'"),
    ([(8, 6, "о", False), (2, 2, "к", False), (2, 3, "о", False)], None,
     "not connected: the tiles on row 2 col 2, row 2 col 3 join no tile of the board, "
     "directly or through the other new tiles"),
    ([(8, 6, "о", False)], "кк", "rack 'кк' has 0 'о', the placement uses 1"),
    ([(8, 7, "к", False)], None, "word ОК is not a word"),
])
def test_bad_turns_are_one_line_reasons(turn, rack, reason):
    cw = kot_game("кот", "ко")
    board = board_with(cw, "кот")
    assert reason in cw.validate(board, turn, rack=rack)


def test_scoring_a_turn_that_touches_nothing_is_one_line_error():
    cw = kot_game("кот", "ко")
    with pytest.raises(BadInput, match=r"^cannot score this turn: not connected: the tiles on "
                                       r"row 2 col 2 join no tile"):
        cw.score(board_with(cw, "кот"), [(2, 2, "к", False)])


def test_unknown_method_is_one_line_error():
    cw = kot_game("кот", "ко")
    with pytest.raises(BadInput, match=r"^unknown method 'deep': use one of greedy, full$"):
        cw.best_turn(cw.empty_board(), "кот", method="deep")


def test_line_games_keep_the_single_line_rule():
    cw = fixture_game("scrabble-en")
    board = cw.parse_board("\n".join(["." * 15] * 7 + [".....cat......."] + ["." * 15] * 7))
    assert cw.validate(board, [(8, 5, "a", False), (8, 7, "a", False)]) == [
        "tiles not contiguous: row 8 col 6 is empty"]
    assert cw.best_turn(board, "as", method="full").key() == cw.moves(board, "as", top=1)[0].key()


@functools.lru_cache(maxsize=None)
def real_game():
    from lookup.crossword.lexicon import lexicon_tables
    from lookup.paths import artifacts_dir

    path = artifacts_dir() / "lexicons" / "opencorpora-nouns.gaddag"
    if not path.is_file():
        pytest.fail(f"{path} is missing: run `make` before `make test-full`")
    return CrosswordGame(rules(GAME), lexicon_tables(str(path)))


@pytest.mark.full
def test_the_article_opening_on_the_real_lexicon():
    cw = real_game()
    board = cw.empty_board()
    greedy = cw.best_turn(board, "облмеоб", method="greedy")
    assert greedy.notation() == "H 7,7 облом + V 5,9 бел 38"
    full = cw.best_turn(board, "облмеоб", method="full")
    assert full.notation() == "V 5,7 лом + H 5,5 бел + V 3,5 боб 45"
    assert cw.validate(board, full, rack="облмеоб") == []


@pytest.mark.full
def test_the_score_bound_changes_no_best_turn_on_real_positions():
    cw = real_game()
    checked = pruned = 0
    for position in selfplay_positions(GAME)[10::3][:60]:
        board = cw.parse_board(position["board"])
        rack = cw.rack_codes(position["rack"][:6], board)
        search = cw._turn_search(board, rack, None)
        everything = turn_list(search.ranked())
        for top in (1, 5):
            assert turn_list(search.ranked(top)) == everything[:top]
            pruned += search.pruned
        checked += 1
    assert (checked, pruned) == (60, 3978)


@pytest.mark.full
def test_real_midgame_positions():
    cw = real_game()
    checked = 0
    for position in selfplay_positions(GAME)[20::6]:
        board = cw.parse_board(position["board"])
        rack = position["rack"].replace("?", "")[:5]
        line = [move for move in cw.moves(board, rack) if move.kind == "play"]
        greedy = cw.best_turn(board, rack, method="greedy")
        full = cw.best_turn(board, rack, method="full")
        if full is None:
            assert greedy is None and not line
            continue
        assert full.score >= greedy.score >= line[0].score
        assert cw.validate(board, full, rack=rack) == []
        assert cw.score(board, full) == full.score
        assert all(cw.is_word(word) for word in full.words)
        checked += 1
        if checked == 12:
            break
    assert checked == 12


def test_self_play_lays_greedy_turns_and_never_repeats_a_word():
    cw = fixture_game(GAME)
    positions, result = play_game(cw, random.Random(1), 0)
    turns = [p for p in positions if " + " in p["move"]]
    assert (result["plays"], len(turns), result["points"]) == (21, 17, 908)
    assert sum(p["score"] for p in positions) == result["points"]
    formed = []
    for position in positions:
        board = cw.parse_board(position["board"])
        move = cw.best_turn(board, position["rack"], method="greedy", played_words=formed)
        if move is not None:
            assert move.notation() == position["move"]
            formed += move.words
    assert len(formed) == len(set(formed))
