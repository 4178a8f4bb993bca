"""Training leave tables (pipeline/train_leaves.py) end to end on fixture artifacts: Dask
self-play, checkpoints, resume, the recipe, installing and reproducing a table."""

import json

import pytest

from lookup.crossword.leaves import read_leaves
from lookup.crossword.rules import load_rules
from pipeline.train_leaves import install_leaves, reproduce, train
from test_crossword_cli import artifacts as cli_artifacts  # noqa: F401 (a fixture)


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
