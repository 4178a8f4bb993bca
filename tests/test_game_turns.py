"""Erudit turns played through a whole game (lookup/play/game.py): a turn of several parts
leaves the board and score that CrosswordGame.validate and score give that turn, the rack
draws once after the whole turn, a turn that empties the rack with the bag empty ends the
game, and games between the turn bots (lookup/play/match.py "turn-equity", "turn-greedy")
run to the end with every tile of the set accounted for at every turn."""

import copy
from collections import Counter

import numpy as np
import pytest

from crossword_support import fixture_game, rules, selfplay_positions
from lookup.crossword.board import BLANK
from lookup.crossword.engine import MoveEngine
from lookup.crossword.leaves import LeaveValues, leave_keys
from lookup.crossword.move import Move
from lookup.errors import BadInput
from lookup.play.game import Game, Position
from lookup.play.match import make_player
from lookup.play.players import TurnEquityPlayer, turn_greedy_player
from test_crossword_cli import artifacts as cli_artifacts  # noqa: F401 (a fixture)
from test_crossword_cli import wordpack

GAME = "erudit-ru"
POSITIONS = 30
BAG = "оаеинтрс"
# Of those positions, the ones whose greedy turn has two parts or more.
TURN_CASES = 21
# Two games of turn-equity (a random leave table) against turn-greedy on the fixture lexicon:
# its few words block the board, so the games end scoreless.
SEEDS = (1, 2)
MULTI_PART_TURNS = 35
RESULTS = [([244, 366], "scoreless", 50), ([169, 296], "scoreless", 41)]


def random_table(seed: int = 7) -> LeaveValues:
    r = rules(GAME)
    count = len(leave_keys(r.tiles.counts, r.rack_size - 1))
    return LeaveValues(r, np.random.default_rng(seed).integers(-120, 120, count) / 4)


def turn_cases(cw):
    """(number, board, rack, turn) of the fixture positions whose greedy turn has two parts
    or more."""
    found = []
    for number, position in enumerate(selfplay_positions(GAME)[:POSITIONS]):
        board = cw.parse_board(position["board"])
        turn = cw.best_turn(board, position["rack"], method="greedy")
        if turn is not None and turn.kind == "turn":
            found.append((number, board, position["rack"], turn))
    return found


def tiles_on(game: Game) -> Counter:
    """Every tile of the game (board, racks, bag) as counts of tile codes, 0 for a blank."""
    tiles = Counter(0 if code & BLANK else code for code in game.codes if code)
    for rack in game.racks:
        tiles.update(rack)
    tiles.update(game.bag)
    return tiles


def set_tiles(game: Game) -> Counter:
    r = game.rules
    tiles = Counter({code: r.counts[letter] for code, letter in enumerate(r.alphabet, start=1)})
    tiles[0] = r.blanks
    return +tiles


@pytest.mark.parametrize("check", [False, True])
def test_a_turn_through_the_game_leaves_the_board_and_score_of_validate_and_score(check):
    cw = fixture_game(GAME)
    engine = MoveEngine(cw, compiled=False)
    cases = turn_cases(cw)
    assert len(cases) == TURN_CASES
    for number, board, rack, turn in cases:
        label = f"position {number} rack {rack!r} {turn.notation()}"
        assert cw.validate(board, turn, rack=rack) == [], label
        game = Game(engine, [lambda _position, move=turn: move, turn_greedy_player], bag=BAG,
                    racks=[rack, ""], board=board, check=check, record=True)
        assert game.step(), label
        assert game.board() == board.with_tiles(turn.placed), label
        assert game.scores == [cw.score(board, turn), 0] == [turn.score, 0], label
        kept = list(game.tiles_of(rack))
        for part in turn.parts:
            for tile in part.used_tiles():
                kept.remove(tile)
        drawn = game.tiles_of(BAG)[:cw.rules.rack_size - len(kept)]
        assert sorted(game.racks[0]) == sorted(kept + drawn), label
        assert game.bag == game.tiles_of(BAG)[len(drawn):], label
        assert game.moves == [(0, turn.notation(), turn.score)], label
        assert (game.turn, game.scoreless) == (1, 0), label


def test_a_turn_that_empties_the_rack_with_the_bag_empty_goes_out():
    cw = fixture_game(GAME)
    engine = MoveEngine(cw, compiled=False)
    number, board, _rack, turn = turn_cases(cw)[0]
    used = cw.rules.tiles.text([tile for part in turn.parts for tile in part.used_tiles()])
    game = Game(engine, [lambda _position: turn, turn_greedy_player], bag="", racks=[used, "оо"],
                board=board, check=True)
    assert not game.step(), number
    value = cw.rules.tiles.value(game.tiles_of("оо"))
    assert (game.result.ended, game.result.adjustments) == ("out", [value, -value])
    assert game.result.scores == [turn.score + value, -value]


def test_a_line_game_refuses_a_turn_and_the_turn_bots_in_one_line():
    cw = fixture_game("scrabble-en")
    engine = MoveEngine(cw, compiled=False)
    part = cw.moves(cw.empty_board(), "cat")[0]
    turn = Move("turn", score=part.score, parts=(part,))
    game = Game(engine, [lambda _position: turn, turn_greedy_player], bag="", racks=["act", ""])
    with pytest.raises(BadInput, match="lays one line a turn"):
        game.step()
    for name in ("turn-equity", "turn-greedy"):
        with pytest.raises(BadInput, match=f"^the bot '{name}' lays multi-word turns; "
                                           "scrabble-en lays one line a turn: use greedy, "
                                           "equity, tile, sim$"):
            make_player(name, cw)


def test_bots_refuses_a_turn_bot_for_a_line_game_in_one_line(cli_artifacts):  # noqa: F811
    result = wordpack(cli_artifacts, "bots", "scrabble-en", "--a", "turn-greedy", "--pairs", "1")
    assert result.returncode == 1
    assert result.stderr == ("error: the bot 'turn-greedy' lays multi-word turns; scrabble-en "
                             "lays one line a turn: use greedy, equity, tile, sim\n")


def test_turn_bots_play_whole_games_with_every_tile_accounted_for():
    cw = copy.copy(fixture_game(GAME))
    table = random_table()
    cw._leaves = table
    engine = MoveEngine(cw, compiled=False)
    checks = []

    def counted(player):
        def play(position: Position) -> Move:
            checks.append(tiles_on(position.game) == set_tiles(position.game))
            return player(position)
        return play

    results = [Game(engine, [counted(TurnEquityPlayer(table)), counted(turn_greedy_player)],
                    seed, check=True, record=True).run() for seed in SEEDS]
    assert all(checks) and len(checks) == sum(result.turns for result in results)
    turns = [notation for result in results for _seat, notation, _score in result.moves
             if " + " in notation]
    assert len(turns) == MULTI_PART_TURNS
    assert [(result.scores, result.ended, result.turns) for result in results] == RESULTS
