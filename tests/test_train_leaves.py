"""Training leave tables (pipeline/train_leaves.py) end to end on fixture artifacts: Dask
self-play, checkpoints, resume, the recipe, installing and reproducing a table; Erudit's
turn-equity player (its log, checked against a reference) and a first table given."""

import copy
import json
from collections import Counter

import numpy as np
import pytest

from crossword_support import (
    FIXTURE_WORDS,
    fixture_game,
    rules,
)
from lookup.crossword.engine import MoveEngine
from lookup.crossword.leaves import LeaveValues, leave_keys, read_leaves
from lookup.crossword.rules import load_rules
from lookup.crossword.tiles import key_of_codes
from lookup.errors import BadInput, WordpackError
from lookup.formats import sha256_file
from lookup.play.game import Game, Position
from lookup.play.players import TurnEquityPlayer
from pipeline.train_leaves import install_leaves, reproduce, train
from test_crossword_cli import artifacts as cli_artifacts  # noqa: F401 (a fixture)
from test_crossword_cli import build_game, wordpack_build


@pytest.fixture(scope="module")
def trained(cli_artifacts, tmp_path_factory):  # noqa: F811
    runs = tmp_path_factory.mktemp("runs")
    rules = cli_artifacts / "crossword" / "scrabble-en.json"
    output = runs / "scrabble-en.leaves"
    recipe = train(rules, cli_artifacts, games=2, iterations=2, seed=3, run_dir=runs / "run",
                   output=output, chunk=1, workers=1, compiled=False)
    return cli_artifacts, rules, runs, output, recipe


def test_training_writes_checkpoints_and_the_recipe(trained):
    _artifacts, rules, runs, output, recipe = trained
    run = runs / "run"
    assert sorted(p.name for p in (run / "iteration-0").iterdir()) == [
        "chunk-000000000.npz", "chunk-000000001.npz"]
    assert (run / "iteration-1.leaves").is_file()
    assert [h["iteration"] for h in recipe["history"]] == [0, 1]
    assert recipe["games_per_iteration"] == 2 and recipe["seed"] == 3
    first = recipe["history"][0]
    assert first["moves_logged"] > 0 and first["leaves_seen"] > 0
    assert json.loads((run / "iteration-0.json").read_text()) == first
    table = read_leaves(output, load_rules(rules))
    assert table.header["recipe"] == recipe
    assert table.value("") == 0.0


def test_a_resumed_run_gives_the_same_table(trained, tmp_path):
    artifacts, rules, runs, output, _recipe = trained
    (runs / "run" / "iteration-1.leaves").unlink()
    (runs / "run" / "iteration-1" / "chunk-000000001.npz").unlink()
    again = tmp_path / "again.leaves"
    train(rules, artifacts, games=2, iterations=2, seed=3, run_dir=runs / "run", output=again,
          chunk=1, workers=1, compiled=False)
    r = load_rules(rules)
    assert read_leaves(again, r).values.tolist() == read_leaves(output, r).values.tolist()


def test_install_and_reproduce(trained, tmp_path):
    artifacts, rules, _runs, output, _recipe = trained
    installed = tmp_path / "leaves" / "scrabble-en.leaves"
    install_leaves(output, rules, installed)
    assert installed.read_bytes() == output.read_bytes()
    meta = json.loads((tmp_path / "leaves" / "_scrabble-en.leaves.meta.json").read_text())
    assert meta["format"] == "leave-values"
    same, recipe = reproduce(output, rules, artifacts, tmp_path / "fresh", workers=1,
                             compiled=False)
    assert same and recipe["seed"] == 3


def test_the_turn_player_logs_each_move_made_with_tiles_in_the_bag_and_its_equity():
    # The reference: a move's equity is its score (a turn's, lookup/crossword/turn.py) plus the
    # table's value of the tiles it keeps; an exchange's, the value of the tiles it keeps.
    cw = copy.copy(fixture_game("erudit-ru"))
    r = rules("erudit-ru")
    count = len(leave_keys(r.tiles.counts, r.rack_size - 1))
    table = LeaveValues(r, np.random.default_rng(5).integers(-120, 120, count) / 4)
    cw._leaves = table
    engine = MoveEngine(cw, compiled=False)
    log: list = []
    expected: list = []
    player = TurnEquityPlayer(table, log)

    def checked(position: Position):
        rack = list(position.game.racks[position.seat])
        move = player(position)
        if position.bag and move.kind != "pass":
            kept = list(rack)
            used = (cw.rules.tiles.codes(move.exchanged) if move.kind == "exchange"
                    else [code for part in (move.parts or (move,)) for code in part.used_tiles()])
            for code in used:
                kept.remove(code)
            score = 0 if move.kind == "exchange" else move.score
            value = float(table.lookup([key_of_codes(kept)])[0])
            expected.append((key_of_codes(rack), score + value, move.kind))
        assert log == [(key, equity) for key, equity, _kind in expected]
        return move

    result = Game(engine, [checked, checked], 4, check=True).run()
    kinds = Counter(kind for _key, _equity, kind in expected)
    assert kinds["turn"] > 0 and kinds["play"] > 0 and len(log) < result.turns


@pytest.fixture(scope="module")
def erudit_artifacts(tmp_path_factory):
    """An artifacts directory with the erudit-ru rules and the fixture Russian GADDAG."""
    built = tmp_path_factory.mktemp("erudit-artifacts")
    words = FIXTURE_WORDS["opencorpora-nouns"].read_text().split()
    result = build_game(built, "erudit-ru", "opencorpora-nouns", words, "train-erudit")
    assert result.returncode == 0, result.stderr
    return built


@pytest.fixture(scope="module")
def turn_trained(erudit_artifacts, tmp_path_factory):
    # turn-equity self-play of Erudit, its first iteration playing with a table learned before
    # by the equity bot (trained here on the same seeds).
    runs = tmp_path_factory.mktemp("turn-runs")
    rules_path = erudit_artifacts / "crossword" / "erudit-ru.json"
    single = train(rules_path, erudit_artifacts, games=2, iterations=1, seed=5,
                   run_dir=runs / "single", output=runs / "single.leaves", chunk=1, workers=1,
                   compiled=False)
    recipe = train(rules_path, erudit_artifacts, games=2, iterations=1, seed=5,
                   run_dir=runs / "turn", output=runs / "turn.leaves", chunk=2, workers=1,
                   compiled=False, player="turn-equity", initial_table=runs / "single.leaves")
    return erudit_artifacts, rules_path, runs, single, recipe


def test_turn_equity_training_records_its_player_and_initial_table(turn_trained):
    _artifacts, rules_path, runs, single, recipe = turn_trained
    assert single["player"] == "equity" and single["initial_table"] is None
    assert recipe["player"] == "turn-equity"
    assert recipe["initial_table"] == {"path": str(runs / "single.leaves"),
                                       "sha256": sha256_file(runs / "single.leaves")}
    assert recipe["history"][0]["player"] == "turn-equity"
    assert json.loads((runs / "turn" / "run.json").read_text()) == {
        "chunk": 2, "game": "erudit-ru", "games_per_iteration": 2,
        "initial_table_sha256": sha256_file(runs / "single.leaves"), "player": "turn-equity",
        "seed": 5}
    # The same games as the equity bot's (seed 5), played by turns with the learned table:
    # other moves, equities counted with that table's leaves.
    first, turned = single["history"][0], recipe["history"][0]
    assert turned["moves_logged"] > 0
    assert (turned["mean_equity"], turned["turns_per_game"]) != \
        (first["mean_equity"], first["turns_per_game"])
    table = read_leaves(runs / "turn.leaves", load_rules(rules_path))
    assert table.header["recipe"] == recipe


def test_a_run_directory_refuses_other_options(turn_trained):
    artifacts, rules_path, runs, _single, _recipe = turn_trained
    with pytest.raises(BadInput, match="^.*turn was started with player 'turn-equity' "
                                       r"\(now 'equity'\), initial_table_sha256 '[0-9a-f]{64}' "
                                       r"\(now None\): resume it with its options or use "
                                       "another --run-dir$"):
        train(rules_path, artifacts, games=2, iterations=1, seed=5, run_dir=runs / "turn",
              output=runs / "other.leaves", chunk=2, workers=1, compiled=False)


def test_bad_players_and_initial_tables_are_refused_in_one_line(turn_trained, trained,
                                                                tmp_path):
    artifacts, rules_path, runs, _single, _recipe = turn_trained
    _artifacts, scrabble_rules, _runs, scrabble_table, _r = trained
    with pytest.raises(BadInput, match="^player turn-equity lays turns of several words, which "
                                       'scrabble-en does not allow \\(placement = "line"\\): '
                                       "use --player equity$"):
        train(scrabble_rules, _artifacts, games=1, iterations=1, seed=1,
              run_dir=tmp_path / "a", output=tmp_path / "a.leaves", player="turn-equity")
    with pytest.raises(BadInput, match="^unknown player 'sim': choose one of equity, "
                                       "turn-equity$"):
        train(rules_path, artifacts, games=1, iterations=1, seed=1, run_dir=tmp_path / "b",
              output=tmp_path / "b.leaves", player="sim")
    with pytest.raises(WordpackError):  # a table of another game
        train(rules_path, artifacts, games=1, iterations=1, seed=1, run_dir=tmp_path / "c",
              output=tmp_path / "c.leaves", initial_table=scrabble_table)
    assert not (tmp_path / "a").exists() and not (tmp_path / "c").exists()


def test_reproducing_a_table_from_an_initial_one(turn_trained, tmp_path):
    artifacts, rules_path, runs, _single, recipe = turn_trained
    with pytest.raises(BadInput, match=f"^.*turn.leaves's recipe starts from the table of sha256 "
                                       f"{recipe['initial_table']['sha256']} \\(then .*"
                                       r"single.leaves\): pass that file as the initial table$"):
        reproduce(runs / "turn.leaves", rules_path, artifacts, tmp_path / "none", workers=1,
                  compiled=False)
    same, again = reproduce(runs / "turn.leaves", rules_path, artifacts, tmp_path / "fresh",
                            workers=1, compiled=False, initial_table=runs / "single.leaves")
    assert same and again["player"] == "turn-equity"


def test_the_cli_trains_with_the_turn_player_and_refuses_it_for_a_line_game(turn_trained,
                                                                           trained, tmp_path):
    artifacts, rules_path, runs, _single, _recipe = turn_trained
    output = tmp_path / "cli.leaves"
    result = wordpack_build(artifacts, "leaves", str(rules_path), "--artifacts", str(artifacts),
                            "--games", "1", "--iterations", "1", "--seed", "5", "--workers", "1",
                            "--run-dir", str(tmp_path / "run"), "-o", str(output),
                            "--player", "turn-equity", "--initial-table",
                            str(runs / "single.leaves"))
    assert result.returncode == 0, result.stderr
    recipe = json.loads(output.with_name("cli.leaves.json").read_text())
    assert recipe["player"] == "turn-equity"
    assert recipe["initial_table"]["sha256"] == sha256_file(runs / "single.leaves")
    assert recipe["command"].endswith("--player turn-equity --initial-table "
                                      f"{runs / 'single.leaves'}")
    scrabble_artifacts, scrabble_rules, *_ = trained
    result = wordpack_build(scrabble_artifacts, "leaves", str(scrabble_rules), "--games", "1",
                            "--iterations", "1", "--seed", "5", "--run-dir",
                            str(tmp_path / "run2"), "-o", str(tmp_path / "x.leaves"),
                            "--player", "turn-equity")
    assert result.returncode == 1
    assert result.stderr == ("error: player turn-equity lays turns of several words, which "
                             'scrabble-en does not allow (placement = "line"): use --player '
                             "equity\n")
