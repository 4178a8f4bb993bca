"""Whole games (lookup/play/game.py): the end of the game and its rack adjustments, checked
by hand for each game; exchanges only when the bag allows; seeded, mirrored games. The
fast suite plays on the fixture lexicons with the pure-Python engine; @pytest.mark.full
replays the first committed self-play game of every game move for move."""

import pytest

from crossword_support import GAMES, fixture_game, selfplay_positions
from lookup.crossword.engine import MoveEngine, move_engine
from lookup.crossword.game import Move
from lookup.errors import BadInput
from lookup.play.game import Game, Position, mirrored_pair, play_game
from lookup.play.players import greedy_player


def engine_of(game):
    return MoveEngine(fixture_game(game), compiled=False)


def passing(position):
    return Move("pass")


# Seat 0 goes out on the empty board with its only tiles; seat 1 holds the rest.
# (rack 0, its play's score, rack 1, rack 1's value). Start squares and values by hand:
# Scrabble: a=1 x=8 on (7, 6)-(7, 7) or (7, 7)-(7, 8), centre DW: (1 + 8) * 2 = 18; q=z=10.
# Wordfeud English: the centre and its neighbours are plain: 1 + 8 = 9; q=z=10.
# Wordfeud Dutch: a=1 b=4 plain: 5; q=10 z=5.
# Erudit: а=1 з=5 у=3, columns 5 to 9 of row 7 are plain: 9; ф=щ=10.
GOING_OUT = {
    "scrabble-en": ("ax", 18, "qz", 20),
    "wordfeud-en": ("ax", 9, "qz", 20),
    "wordfeud-nl": ("ab", 5, "qz", 15),
    "erudit-ru": ("азу", 9, "фщ", 20),
}


@pytest.mark.parametrize("game", GAMES)
def test_going_out_wins_the_other_rack(game):
    rack, score, other, value = GOING_OUT[game]
    result = Game(engine_of(game), [greedy_player, passing], bag="", racks=[rack, other],
                  scores=[100, 90], record=True).run()
    assert result.ended == "out"
    assert result.turns == 1
    assert result.moves[0][2] == score
    assert result.adjustments == [value, -value]
    assert result.scores == [100 + score + value, 90 - value]


# (rack of seat 0, its value, rack of seat 1, its value, scoreless turns that end the game)
SCORELESS = {
    "scrabble-en": ("qz", 20, "ax", 9, 6),
    "wordfeud-en": ("qz", 20, "ax", 9, 3),
    "wordfeud-nl": ("qz", 15, "ab", 5, 3),
    "erudit-ru": ("фщ", 20, "азу", 9, 4),
}


@pytest.mark.parametrize("game", GAMES)
def test_scoreless_turns_end_the_game_and_every_rack_counts_against_its_owner(game):
    rack, value, other, other_value, turns = SCORELESS[game]
    result = Game(engine_of(game), [passing, passing], bag="", racks=[rack, other],
                  scores=[100, 90]).run()
    assert (result.ended, result.turns) == ("scoreless", turns)
    assert result.adjustments == [-value, -other_value]
    assert result.scores == [100 - value, 90 - other_value]


def test_exchange_needs_enough_tiles_in_the_bag():
    engine = engine_of("scrabble-en")

    def exchange(position):
        return Move("exchange", exchanged="q")

    with pytest.raises(BadInput, match="needs 7 tiles in the bag; it holds 6"):
        Game(engine, [exchange, passing], bag="eeeeee", racks=["qz", "ax"]).step()
    game = Game(engine, [exchange, passing], bag="eeeeeee", racks=["qz", "ax"])
    assert game.step()
    assert game.rack_text(0) == "ez"
    assert sorted(game.tiles_text(game.bag)) == sorted("eeeeeeq")
    assert game.scoreless == 1


def test_a_play_must_use_the_rack():
    engine = engine_of("scrabble-en")
    board = fixture_game("scrabble-en").empty_board()
    play = engine.best(board, "ax")

    def cheat(position):
        return play

    with pytest.raises(BadInput, match="the rack 'qz' lacks 'a'"):
        Game(engine, [cheat, passing], bag="", racks=["qz", "ax"]).step()


@pytest.mark.parametrize("game", GAMES)
def test_a_seed_fixes_the_game(game):
    engine = engine_of(game)
    first = play_game(engine, [greedy_player, greedy_player], seed=3, record=True)
    again = play_game(engine, [greedy_player, greedy_player], seed=3, record=True)
    assert first == again
    assert first.ended in ("out", "scoreless")
    assert sum(first.scores) == sum(m[2] for m in first.moves) + sum(first.adjustments)


def test_mirrored_pair_deals_the_same_tiles_to_the_other_seat():
    engine = engine_of("scrabble-en")
    seen = []

    def watching(position):
        seen.append((position.seat, position.rack))
        return greedy_player(position)

    first, second = mirrored_pair(engine, watching, greedy_player, seed=11)
    # The watching player sits first in game one and second in game two; its first racks are
    # the first two racks dealt from one bag.
    assert seen[0][0] == 0 and first.turns > 2
    game = Game(engine, [passing, passing], seed=11)
    assert seen[0][1] == game.rack_text(0)
    game_two_first = next(rack for seat, rack in seen[1:] if seat == 1)
    assert game_two_first == game.rack_text(1)


def history_turn_greedy_player():
    """pipeline/selfplay.py's Erudit bot, for both seats: the greedy turn that forms no word
    formed before in the game (`played_words`, its moves' words; the Game and
    turn_greedy_player look at the words on the board only, which forget a word once it is
    extended); with none, the whole rack exchanged when the bag allows, else a pass.
    """
    played: set[str] = set()

    def play(position: Position) -> Move:
        move = position.game.cw.best_turn(position.board, position.rack, method="greedy",
                                          played_words=played)
        if move is None:
            if position.bag >= position.game.rules.exchange_min_bag:
                return Move("exchange", exchanged=position.rack)
            return Move("pass")
        played.update(move.words)
        return move

    return play


# pipeline/selfplay.py's bots: greedy plays; under placement = "multi" (Erudit), greedy turns
# that repeat no word of the game.
@pytest.mark.full
@pytest.mark.parametrize("game", GAMES)
def test_greedy_games_replay_the_committed_self_play(game):
    pytest.importorskip("numba")
    from lookup.crossword.game import crossword_game

    cw = crossword_game(game)
    engine = move_engine(cw, compiled=True)
    bot = history_turn_greedy_player() if cw.rules.placement == "multi" else greedy_player
    result = Game(engine, [bot, bot], seed=2024, record=True, check=True).run()
    expected = [p["move"] for p in selfplay_positions(game) if p["game"] == 0]
    assert [notation for _seat, notation, _score in result.moves] == expected
