"""The turn-equity player (lookup/play/players.py TurnEquityPlayer) on Erudit fixture positions,
against a plain reference: at each part, every single-line play of the board the parts before it
leave (CrosswordGame.moves, the repeated-word rule applied) valued by its score plus the leave of
the tiles it keeps (the bingo on the part that empties a full rack); the player's part is one of
the best, it stops exactly when no play raises the turn's equity, and its turn is legal and
scored as CrosswordGame.score scores it."""

import copy

import numpy as np
import pytest

from crossword_support import fixture_game, rules, selfplay_positions
from lookup.crossword.board import BLANK
from lookup.crossword.engine import MoveEngine
from lookup.crossword.leaves import LeaveValues, leave_keys
from lookup.crossword.tiles import key_of_codes
from lookup.crossword.turn import board_words
from lookup.play.game import Game, Position
from lookup.play.players import EquityPlayer, TurnEquityPlayer

GAME = "erudit-ru"
POSITIONS = 30
# Of those positions, the ones checked (where the player lays tiles) and how many of its turns
# have two parts or more.
CHECKED = 28
MULTI_PART_TURNS = 10


def random_table(seed: int = 7) -> LeaveValues:
    r = rules(GAME)
    count = len(leave_keys(r.tiles.counts, r.rack_size - 1))
    return LeaveValues(r, np.random.default_rng(seed).integers(-120, 120, count) / 4)


def kept_codes(rack: list, move) -> list:
    kept = list(rack)
    for code in move.used_tiles():
        kept.remove(code)
    return kept


def reference_values(cw, table, board, rack: list, full: bool, laid: int, start) -> list:
    """(equity, play) of every single-line play of `rack` on `board`: score + the leave kept,
    + the bingo when the play empties a full rack after `laid` earlier parts; no play forms a
    word of the board `start` the turn began on (an earlier part may have extended it)."""
    text = cw.rules.tiles.text(rack)
    rows = []
    for move in cw.moves(board, text, played_words=board_words(start)):
        if move.kind != "play":
            continue
        kept = kept_codes(rack, move)
        value = float(table.lookup([key_of_codes(kept)])[0])
        if laid and full and not kept:
            value += cw.rules.bingo
        rows.append((move.score + value, move))
    return rows


def turn_equity(cw, table, board, placed: list, kept: list) -> float:
    """The equity of the tiles `placed` on `board` as one turn, keeping `kept`."""
    return cw.score(board, placed) + float(table.lookup([key_of_codes(kept)])[0])


@pytest.mark.parametrize("compiled", [False, True])
def test_the_turn_player_lays_the_best_part_by_equity_until_none_raises_it(compiled):
    if compiled:
        pytest.importorskip("numba")
    cw = copy.copy(fixture_game(GAME))
    table = random_table()
    cw._leaves = table
    engine = MoveEngine(cw, compiled=compiled)
    player = TurnEquityPlayer(table)
    single = EquityPlayer(table)
    checked = multi = 0
    for number, position in enumerate(selfplay_positions(GAME)[:POSITIONS]):
        board = cw.parse_board(position["board"])
        rack_text = position["rack"]
        game = Game(engine, [player, player], bag="оооо", racks=[rack_text, ""], board=board)
        move = player(Position(game, 0))
        label = f"position {number} rack {rack_text!r}"
        if move.kind in ("exchange", "pass"):
            assert move.kind == single(Position(game, 0)).kind, label
            continue
        parts = move.parts if move.kind == "turn" else (move,)
        rack = list(game.racks[0])
        full = len(rack) == cw.rules.rack_size
        now = board
        placed = []
        equity = None
        for laid, part in enumerate(parts):
            rows = reference_values(cw, table, now, rack, full, laid, board)
            best = max(value for value, _play in rows)
            chosen = next(value for value, play in rows if play.key() == part.key())
            assert chosen == best, f"{label} part {laid}"
            rack = kept_codes(rack, part)
            placed += part.placed
            now = now.with_tiles(part.placed)
            raised = turn_equity(cw, table, board, placed, rack)
            assert equity is None or raised > equity, f"{label} part {laid} lowers the equity"
            equity = raised
        rows = reference_values(cw, table, now, rack, full, len(parts), board) if rack else []
        if rows:
            best = max(value for value, _play in rows)
            assert any(turn_equity(cw, table, board, placed + play.placed,
                                   kept_codes(rack, play)) <= equity
                       for value, play in rows if value == best), f"{label}: a part was left"
        assert cw.validate(board, move, rack=rack_text) == [], label
        assert cw.score(board, move) == move.score, label
        assert move.score + float(table.lookup([key_of_codes(rack)])[0]) == equity, label
        checked += 1
        multi += len(parts) > 1
    assert (checked, multi) == (CHECKED, MULTI_PART_TURNS)


def test_the_turn_player_keeps_blanks_and_their_letters_apart():
    # A rack of blanks only: every part lays blanks, each standing for its letter.
    cw = copy.copy(fixture_game(GAME))
    table = random_table(3)
    cw._leaves = table
    engine = MoveEngine(cw, compiled=False)
    player = TurnEquityPlayer(table)
    board = cw.parse_board(selfplay_positions(GAME)[3]["board"])
    game = Game(engine, [player, player], bag="оооо", racks=["??", ""], board=board)
    move = player(Position(game, 0))
    assert move.kind in ("play", "turn")
    assert all(blank for _r, _c, _l, blank in move.placed)
    assert cw.validate(board, move, rack="??") == []
    assert all(code & BLANK for part in (move.parts if move.kind == "turn" else (move,))
               for code in part.key()[4] if code & BLANK)


def test_no_part_forms_a_word_the_board_held_when_the_turn_began():
    # With this table, game seed 1 reaches a turn whose first part extends ОР into СОР; a later
    # part forming ОР elsewhere repeats a word (the board held it when the turn began), which
    # the engine, judging each part on the board the parts before it leave, did not see.
    # check=True validates every turn as CrosswordGame.validate does.
    cw = copy.copy(fixture_game(GAME))
    table = random_table(5)
    cw._leaves = table
    player = TurnEquityPlayer(table)
    result = Game(MoveEngine(cw, compiled=False), [player, player], 1, check=True).run()
    assert (result.turns, result.scores) == (45, [388, 254])
