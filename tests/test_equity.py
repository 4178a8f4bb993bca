"""Equity (lookup/crossword/equity.py): moves(by="equity") against the equity bot's own choice on
the self-play positions, the end-of-bag formula by hand, bad unseen pools, the per-tile model,
match arithmetic (lookup/play/match.py) and the CLI commands on fixture artifacts.
@pytest.mark.full plays a short match on the real artifacts."""

import copy
import math

import numpy as np
import pytest

from crossword_support import GAMES, TRAINED_GAMES, cases, fixture_game, rules
from lookup.crossword.engine import MoveEngine
from lookup.crossword.equity import TileModel, sub_leaves
from lookup.crossword.leaves import LeaveValues, leave_keys
from lookup.crossword.tiles import key_of_codes
from lookup.errors import BadInput
from lookup.play.game import Game, Position
from lookup.play.match import MatchResult
from lookup.play.players import EquityPlayer
from pipeline.train_leaves import write_leaves
from test_crossword_cli import BOARD, wordpack
from test_crossword_cli import artifacts as cli_artifacts  # noqa: F401 (a fixture)


def quarter_table(game, seed=7):
    r = rules(game)
    rng = np.random.default_rng(seed)
    count = len(leave_keys(r.tiles.counts, r.rack_size - 1))
    return LeaveValues(r, rng.integers(-120, 120, count) / 4)


def with_table(game, table):
    """A copy of the fixture game with this leave table (the cached game stays without one)."""
    cw = copy.copy(fixture_game(game))
    cw._leaves = table
    return cw


def test_sub_leaves_are_distinct_multisets():
    assert sub_leaves([2, 1, 2]) == [(), (2,), (2, 2), (1,), (1, 2), (1, 2, 2)]


@pytest.mark.parametrize("game", GAMES)
def test_the_bot_makes_the_best_move_by_equity(game):
    table = quarter_table(game)
    cw = with_table(game, table)
    engine = MoveEngine(cw, compiled=False)
    player = EquityPlayer(table)
    checked = 0
    for number, board, rack in cases(cw, game, count=8, step=17):
        for bag in ("", "abcdefgh"[:cw.rules.exchange_min_bag + 1]):
            bag = "".join(ch for ch in bag if ch in cw.rules.counts)
            try:
                game_now = Game(engine, [player, player], bag=bag, racks=[rack, ""],
                                board=board)
                ranked = cw.moves(board, rack, by="equity", unseen=bag, bag=len(bag))
            except BadInput:
                continue  # the bag's letters are on the board already
            move = player(Position(game_now, 0))
            checked += 1
            best = ranked[0]
            label = f"{game} position {number} rack {rack!r} bag {len(bag)}"
            if move.kind == "pass":
                assert best.equity <= 0.0 and not any(m.kind != "pass" and m.equity > 0
                                                      for m in ranked), label
                continue
            chosen = next(m for m in ranked if m.key() == move.key())
            assert chosen.equity == best.equity, label
    assert checked >= 8


def test_end_of_bag_equity_by_hand():
    cw = with_table("scrabble-en", quarter_table("scrabble-en"))
    board = cw.parse_board(BOARD)
    # The opponent holds q and z (20 points): going out earns 40; keeping tiles costs
    # 2 x their value + 10.
    ranked = cw.moves(board, "ax", by="equity", unseen="qz", bag=0)
    out = [m for m in ranked if m.kind == "play" and len(m.placed) == 2]
    keep = [m for m in ranked if m.kind == "play" and len(m.placed) == 1]
    assert out and all(m.leave == 40.0 and m.equity == m.score + 40.0 for m in out)
    for move in keep:
        kept = 8 if move.placed[0][2] == "a" else 1
        assert move.leave == -(2 * kept + 10)
    assert ranked[-1].kind == "pass" and ranked[-1].equity == -(2 * 9 + 10)


def test_equity_is_score_plus_the_kept_tiles_value():
    table = quarter_table("wordfeud-nl")
    cw = with_table("wordfeud-nl", table)
    board = cw.empty_board()
    ranked = cw.moves(board, "aenrst?", by="equity")
    assert [m.equity for m in ranked] == sorted((m.equity for m in ranked), reverse=True)
    for move in ranked[:50] + [m for m in ranked if m.kind == "exchange"][:20]:
        kept = list("aenrst?")
        gone = ["?" if blank else letter for _r, _c, letter, blank in move.placed] \
            if move.kind == "play" else list(move.exchanged)
        for tile in gone:
            kept.remove(tile)
        assert move.leave == table.value("".join(kept)), move
        assert move.equity == move.score + move.leave


@pytest.mark.parametrize("game", [g for g in GAMES if rules(g).placement == "line"])
def test_top_by_equity_is_the_head_of_the_full_ranking(game):
    # moves(top=N, by="equity") keeps only the plays that can be among the best N (the
    # compiled engine's cutoff on score + leave value); the full ranking is the oracle. Leave
    # values in quarters make many equal equities, whose order must survive the cutoff.
    table = quarter_table(game, seed=11)
    cw = with_table(game, table)
    cw.compiled = True
    checked = 0
    for _number, board, rack in cases(cw, game, count=10, step=13):
        for bag in (None, 0):
            unseen = None if bag is None else "".join(
                ch for ch in "?aeiou" if ch in cw.rules.counts)[:2]
            try:
                everything = cw.moves(board, rack, by="equity", unseen=unseen, bag=bag)
            except BadInput:
                continue  # those unseen tiles are on the board already
            expected = [(m.key(), m.score, m.leave, m.equity) for m in everything]
            for top in (1, 3, 10, 40):
                ranked = cw.moves(board, rack, by="equity", unseen=unseen, bag=bag, top=top)
                assert [(m.key(), m.score, m.leave, m.equity) for m in ranked] == \
                    expected[:top], f"{game} rack {rack!r} bag {bag} top {top}"
            checked += 1
    assert checked >= 10


@pytest.mark.parametrize("options, message", [
    ({"unseen": "qq"},
     "board and rack and unseen tiles hold 2 tiles 'q'; the scrabble-en set has 1"),
    ({"unseen": "c"},
     "board and rack and unseen tiles hold 3 tiles 'c'; the scrabble-en set has 2"),
    ({"unseen": "ab", "bag": 3}, "a bag of 3 tiles contradicts the 2 unseen tiles"),
    ({"bag": 0}, "a bag of 0 tiles contradicts the 92 unseen tiles"),
    ({"by": "luck"}, "moves by 'luck': use 'score' or 'equity'"),
])
def test_bad_equity_requests_are_one_line(options, message):
    cw = with_table("scrabble-en", quarter_table("scrabble-en"))
    board = cw.parse_board(BOARD)  # c a t: both c are on the board and the rack
    with pytest.raises(BadInput) as error:
        cw.moves(board, "cdeilmn"[:5], **({"by": "equity"} | options))
    assert str(error.value).startswith(message)


def test_tile_model_adds_tiles_and_charges_repeats():
    model = TileModel([20.0, 1.0, -2.0])
    keys = [key_of_codes(c) for c in ([], [0], [1, 1], [0, 1, 1, 2])]
    assert model.lookup(keys).tolist() == [0.0, 20.0, 2.0 - 3.0, 20.0 + 2.0 - 2.0 - 3.0]


def test_match_counts_pairs_and_the_interval():
    result = MatchResult()
    result.add_pair([(10, [400, 390], [20, 20]), (-4, [380, 384], [19, 20])])
    result.add_pair([(0, [350, 350], [21, 21]), (25, [410, 385], [20, 20])])
    assert (result.wins, result.draws, result.losses) == (2, 1, 1)
    assert result.pair_shares == [0.5, 0.75]
    assert result.win_rate() == 0.625
    half = 1.96 * math.sqrt(0.03125 / 2)
    assert result.interval() == pytest.approx((0.625 - half, 0.625 + half))
    assert result.mean_spread() == 31 / 4
    assert result.points_per_move(0) == 1540 / 80
    assert result.points_per_move(1) == 1509 / 81


def test_leave_and_equity_commands(cli_artifacts, tmp_path):  # noqa: F811
    table = quarter_table("scrabble-en")
    (cli_artifacts / "leaves").mkdir(exist_ok=True)
    write_leaves(cli_artifacts / "leaves" / "scrabble-en.leaves", table, {})
    result = wordpack(cli_artifacts, "leave", "scrabble-en", "S?")
    assert result.returncode == 0, result.stderr
    assert result.stdout == f"S?: {table.value('?s'):+.2f} points\n"
    result = wordpack(cli_artifacts, "leave", "scrabble-en", "qq")
    assert result.returncode == 1
    assert result.stderr == "error: leave 'qq' holds 2 tiles 'q'; the scrabble-en set has 1\n"
    (tmp_path / "board.txt").write_text(BOARD)
    result = wordpack(cli_artifacts, "moves", "scrabble-en", "--board",
                      str(tmp_path / "board.txt"), "--rack", "s?", "--top", "2", "--by",
                      "equity")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].split() == ["#", "score", "leave", "equity", "move", "word", "words",
                                "formed"]
    cw = with_table("scrabble-en", table)
    best = cw.moves(cw.parse_board(BOARD), "s?", by="equity")[0]
    assert lines[1].split()[1:4] == [str(best.score), f"{best.leave:+.2f}", f"{best.equity:.2f}"]



@pytest.mark.full
@pytest.mark.parametrize("game", TRAINED_GAMES)
def test_the_compiled_bot_makes_the_best_move_by_equity_on_real_positions(game):
    from conftest import full_artifact
    from lookup.crossword.engine import move_engine
    from lookup.crossword.game import crossword_game

    full_artifact(f"leaves/{game}.leaves")
    cw = crossword_game(game)
    engine = move_engine(cw, compiled=True)
    player = EquityPlayer(cw.leaves())
    for number, board, rack in cases(cw, game, count=24, step=7):
        codes = [0 if ch == "?" else cw.alphabet.index(ch) + 1 for ch in rack]
        pool = "".join("?" if c == 0 else cw.alphabet[c - 1]
                       for c in cw.tiles.unseen(board, codes))
        # The bag, then the opponent's rack: the unseen tiles moves() assumes by default.
        split = max(0, len(pool) - cw.rules.rack_size)
        for bag, other, unseen in ((pool[:split], pool[split:], None), ("", "", "")):
            game_now = Game(engine, [player, player], racks=[rack, other], board=board,
                            bag=bag)
            move = player(Position(game_now, 0))
            ranked = cw.moves(board, rack, by="equity", unseen=unseen, bag=len(bag))
            label = f"{game} position {number} rack {rack!r} bag {len(bag)}"
            if move.kind == "pass":
                assert not any(m.kind == "play" for m in ranked), label
                continue
            chosen = next(m for m in ranked if m.key() == move.key())
            assert chosen.equity == ranked[0].equity, label


def test_a_match_is_mirrored_and_deterministic(cli_artifacts, monkeypatch):  # noqa: F811
    from lookup.crossword.game import crossword_game
    from lookup.play.match import play_match

    # The game is cached per process: load it from these artifacts, and forget it after.
    crossword_game.cache_clear()
    (cli_artifacts / "leaves").mkdir(exist_ok=True)
    write_leaves(cli_artifacts / "leaves" / "scrabble-en.leaves", quarter_table("scrabble-en"),
                 {})
    monkeypatch.setenv("WORDPACK_ARTIFACTS", str(cli_artifacts))
    first = play_match("scrabble-en", "tile", "greedy", pairs=2, seed=1, compiled=False)
    again = play_match("scrabble-en", "tile", "greedy", pairs=2, seed=1, batch=1,
                       compiled=False)
    assert first.wins + first.draws + first.losses == 4
    assert (first.spreads, first.points, first.turns) == \
        (again.spreads, again.points, again.turns)
    with pytest.raises(BadInput,
                       match="unknown bot 'smart'; the bots are greedy, equity, tile, sim, "
                             "turn-equity, turn-greedy$"):
        play_match("scrabble-en", "smart", "greedy", pairs=1, seed=1)
    crossword_game.cache_clear()


def test_the_sim_bot_plays_with_a_budget_counted_in_work(cli_artifacts, monkeypatch):  # noqa: F811
    from lookup.crossword.game import crossword_game
    from lookup.errors import ArtifactMissing
    from lookup.play.match import SIM_BUDGET, make_player

    crossword_game.cache_clear()
    monkeypatch.setenv("WORDPACK_ARTIFACTS", str(cli_artifacts))
    (cli_artifacts / "leaves" / "scrabble-en.leaves").unlink(missing_ok=True)
    with pytest.raises(ArtifactMissing):
        make_player("sim", crossword_game("scrabble-en"))
    crossword_game.cache_clear()
    (cli_artifacts / "leaves").mkdir(exist_ok=True)
    write_leaves(cli_artifacts / "leaves" / "scrabble-en.leaves", quarter_table("scrabble-en"),
                 {})
    bot = make_player("sim", crossword_game("scrabble-en"))
    assert (bot.candidates, bot.plies, bot.iterations, bot.seconds, bot.to_end_unseen,
            bot.endgame_plies, bot.endgame_nodes, bot.endgame_seconds) == \
        (10, 2, 60, None, 14, 6, 20000, None)
    assert SIM_BUDGET["iterations"] == bot.iterations
    crossword_game.cache_clear()
