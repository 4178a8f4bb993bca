"""Nerdle on the guessing-game engine: config tables, matrices, trees, runtime, CLI, bad input.

The fast tests build nerdle-micro and nerdle-mini from the real config/guessing.toml with the
Makefile into a temporary directory (the equation lists are generated there too) and check them
against the reference feedback function of lookup/guessing/feedback.py; the full tests check the
shipped artifacts of all four variants, nerdle-classic's tree walked for all 17,723 answers.
"""

import functools
import json
import math
import re
import subprocess
import sys

import msgpack
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import REPO, full_artifact
from lookup.cli import parse_guess_option
from lookup.errors import BadInput
from lookup.guessing.equations import is_valid_answer, is_valid_guess, read_equation_list
from lookup.guessing.feedback import all_green, code_to_digits, feedback_reference, load_feedback
from lookup.guessing.game import guessing_game

# variant: (answers, allowed guesses, normal tree (root, total, histogram),
#           hard tree (root, total, histogram)), all exact.
SMALL = {
    "nerdle-micro": (127, 184, ("5-1=4", 374, [1, 27, 77, 22]),
                     ("3+2=5", 376, [1, 31, 73, 17, 4, 1])),
    "nerdle-mini": (206, 476, ("4*7=28", 544, [1, 73, 131, 1]),
                    ("4*7=28", 544, [1, 73, 131, 1])),
}


def run_make(artifacts, *targets):
    return subprocess.run(["make", "-C", str(REPO), f"ARTIFACTS={artifacts}", *targets],
                          capture_output=True, text=True, check=True)


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    artifacts = tmp_path_factory.mktemp("artifacts")
    run_make(artifacts, *SMALL)
    return artifacts


@pytest.fixture()
def mini(built, monkeypatch):
    monkeypatch.setenv("WORDPACK_ARTIFACTS", str(built))
    return guessing_game("nerdle-mini")


def read_tree(path):
    header, root = msgpack.unpackb(path.read_bytes())
    return header, root


def walk(root, guesses, answers, length):
    """Guesses per answer playing `root` with the reference feedback: (total, histogram)."""
    green = all_green(length)
    histogram: dict[int, int] = {}
    for answer in answers:
        node, depth = root, 1
        while (code := feedback_reference(guesses[node[0]], answer)) != green:
            node, depth = node[2][node[1].index(code)], depth + 1
        histogram[depth] = histogram.get(depth, 0) + 1
    return sum(d * c for d, c in histogram.items()), [histogram.get(d, 0)
                                                      for d in range(1, max(histogram) + 1)]


def wordpack(artifacts, *args):
    return subprocess.run([sys.executable, "-m", "lookup", *args], capture_output=True,
                          text=True, cwd=REPO,
                          env={"WORDPACK_ARTIFACTS": str(artifacts), "PATH": "/usr/bin:/bin"})


# --- the build --------------------------------------------------------------------------------

@pytest.mark.parametrize("game_id", SMALL)
def test_word_lists_are_the_generated_equations(built, game_id):
    n_answers, n_guesses, _, _ = SMALL[game_id]
    variant = game_id.removeprefix("nerdle-")
    game = json.loads((built / "guessing" / f"{game_id}.game.json").read_text())
    assert (game["answers"]["count"], game["guesses"]["count"]) == (n_answers, n_guesses)
    assert game["guess_rules"] == "nerdle-equations"
    _, answers = read_equation_list(built / "sources" / f"nerdle-{variant}-answers.txt")
    _, every = read_equation_list(built / "sources" / f"nerdle-{variant}-guesses.txt")
    listed = (built / "guessing" / f"{game_id}.answers.txt").read_text().split("\n")[:-1]
    guesses = (built / "guessing" / f"{game_id}.guesses.txt").read_text().split("\n")[:-1]
    assert listed == answers
    assert guesses[:n_answers] == answers and sorted(guesses) == every
    length = len(answers[0])
    assert all(is_valid_answer(a, length) for a in answers)
    assert all(is_valid_guess(g, length) for g in guesses)


@pytest.mark.parametrize("game_id", SMALL)
def test_matrix_equals_reference_for_every_pair(built, game_id):
    matrix = load_feedback(built / "guessing" / f"{game_id}.feedback.npy")
    assert matrix.codes.dtype == np.dtype("|u1" if game_id == "nerdle-micro" else "<u2")
    expected = np.array([[feedback_reference(g, a) for a in matrix.answers]
                         for g in matrix.guesses])
    assert np.array_equal(matrix.codes, expected)
    load_feedback.cache_clear()


@pytest.mark.parametrize("game_id", SMALL)
@pytest.mark.parametrize("hard", [False, True])
def test_tree_walks_to_its_exact_total(built, game_id, hard):
    n_answers, n_guesses, normal, hard_tree = SMALL[game_id]
    root_word, total, histogram = hard_tree if hard else normal
    name = f"{game_id}.hard.tree.msgpack" if hard else f"{game_id}.tree.msgpack"
    header, root = read_tree(built / "guessing" / name)
    guesses = (built / "guessing" / f"{game_id}.guesses.txt").read_text().split()
    answers = guesses[:n_answers]
    assert (header["root"], header["total"], header["histogram"]) == (root_word, total,
                                                                      histogram)
    assert walk(root, guesses, answers, len(root_word)) == (total, histogram)
    # The committed opener proof (sources/proofs/) covers every allowed guess: the root is
    # optimal too, not only the tree below it.
    assert header["proven_optimal"] and header["search_width"] == 0 and header["opener_proven"]
    assert header["root_choice"] == (f"proven best of all {n_guesses} openers "
                                     f"({game_id}.proof.parquet)")
    assert header["screened"] == [[root_word, total, True]]


def test_micro_subtrees_are_optimal_by_brute_force(built):
    """Below the root, every group of up to 6 answers costs what plain recursion finds."""
    guesses = (built / "guessing" / "nerdle-micro.guesses.txt").read_text().split()
    answers = guesses[:127]
    header, root = read_tree(built / "guessing" / "nerdle-micro.tree.msgpack")
    green = all_green(5)

    @functools.lru_cache(maxsize=None)
    def best(S, depth):
        if len(S) == 1:
            return 1
        if depth == 0:
            return math.inf
        return min(cost(S, g, depth) for g in guesses
                   if g in S or len({feedback_reference(g, a) for a in S}) > 1)

    def cost(S, guess, depth):
        groups: dict[int, list[str]] = {}
        for a in S:
            groups.setdefault(feedback_reference(guess, a), []).append(a)
        return len(S) + sum(best(tuple(T), depth - 1) for c, T in groups.items() if c != green)

    checked = 0
    for code, child in zip(root[1], root[2]):
        group = tuple(a for a in answers if feedback_reference(header["root"], a) == code)
        if 3 <= len(group) <= 6:
            subtotal, _ = walk(child, guesses, group, 5)
            assert subtotal == best(group, 5), group
            checked += 1
    assert checked == 10


# --- the runtime API --------------------------------------------------------------------------

def test_feedback_candidates_and_next_guess(mini):
    assert mini.feedback("4*7=28", "7*4=28") == "121222"
    assert mini.candidates([("4*7=28", "121222")]) == ["7*4=28"]
    assert mini.next_guess() == "4*7=28"
    assert mini.next_guess([("4*7=28", "121222")]) == "7*4=28"
    # A guess with a lone 0 is allowed (not an answer).
    history = [("10*0=0", mini.feedback("10*0=0", "12-9=3"))]
    assert "12-9=3" in mini.candidates(history)
    assert mini.evaluate("10*0=0")["is_candidate"] is False


def test_playing_every_answer_follows_the_tree(mini):
    total = 0
    for answer in mini.answers:
        history = []
        while not history or history[-1][1] != "222222":
            guess = mini.next_guess(history)
            history.append((guess, mini.feedback(guess, answer)))
        total += len(history)
    assert total == 544 == mini.tree_stats()["total"]
    assert mini.tree_stats() == {"total": 544, "mean": 2.6408, "max": 4,
                                 "histogram": {1: 1, 2: 73, 3: 131, 4: 1},
                                 "optimal": "over all openers"}


@pytest.mark.parametrize("guess, message", [
    ("4*7=2a", "uses 'a', not in the alphabet"),
    ("4*7=281", "has 7 characters, nerdle-mini needs 6"),
    ("4*7*28", "equation has no '='"),
    ("4=4=44", "equation has two '='"),
    ("4*7=27", "'4*7=27' is not true: 4*7 = 28"),
    ("07+1=8", "number '07' in '07+1' has a leading zero"),
    ("8/0=80", "divides by zero"),
    ("+4*7=8", "there is no unary minus or plus"),
])
def test_bad_equation_is_one_clear_line(mini, guess, message):
    for call in (lambda: mini.candidates([(guess, "000000")]), lambda: mini.evaluate(guess),
                 lambda: mini.feedback(guess, "4*7=28")):
        with pytest.raises(BadInput, match=re.escape(message)) as error:
            call()
        assert "\n" not in str(error.value)


def test_feedback_contradicting_the_history(mini):
    # Every equation has an '=', so it cannot be grey.
    with pytest.raises(BadInput, match="no answer fits: check the colours of guess 1"):
        mini.candidates([("4*7=28", "000000")])
    with pytest.raises(BadInput, match="no answer fits: check the colours of guess 2"):
        mini.candidates([("4*7=28", "121222"), ("7*4=28", "000000")])
    with pytest.raises(BadInput, match="has 5 positions, the game has 6"):
        mini.candidates([("4*7=28", "12122")])


# --- the CLI ------------------------------------------------------------------------------------

def test_cli_solve_opener_and_tree(built):
    result = wordpack(built, "solve", "nerdle-mini", "-g", "4*7=28=121222", "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["candidates"] == ["7*4=28"] and data["next_guess"] == "7*4=28"
    squares = wordpack(built, "solve", "nerdle-mini", "-g", "4*7=28:🟨🟩🟨🟩🟩🟩", "--json")
    assert json.loads(squares.stdout)["candidates"] == ["7*4=28"]
    opener = json.loads(wordpack(built, "opener", "nerdle-mini", "4*7=28", "--json").stdout)
    assert opener["expected_guesses"] == 2.6408 and opener["is_candidate"]
    assert wordpack(built, "tree", "nerdle-mini").stdout.startswith(
        "root 4*7=28: total 544, mean 2.6408, max 4")


def test_cli_play(built, mini):
    history, lines = [], []
    while not history or history[-1][1] != "222222":
        guess = mini.next_guess(history)
        history.append((guess, mini.feedback(guess, "12-9=3")))
        lines += ["", history[-1][1]]
    result = subprocess.run([sys.executable, "-m", "lookup", "play", "nerdle-mini"],
                            input="\n".join(lines) + "\n", capture_output=True, text=True,
                            cwd=REPO, env={"WORDPACK_ARTIFACTS": str(built), "PATH": "/usr/bin"})
    assert result.returncode == 0, result.stderr
    assert f"solved in {len(history)}" in result.stdout


@pytest.mark.parametrize("args, message", [
    (["solve", "nerdle-mini", "-g", "4*7=27=000000"], "'4*7=27' is not true"),
    (["solve", "nerdle-mini", "-g", "4*7=28"], "guess '4*7' has 3 characters"),
    (["solve", "nerdle-mini", "-g", "4*7=28=000000"], "no answer fits"),
    (["opener", "nerdle-mini", "4=4=44"], "two '='"),
])
def test_cli_bad_input_is_one_line(built, args, message):
    result = wordpack(built, *args)
    assert result.returncode == 1
    assert result.stderr.count("\n") == 1 and message in result.stderr, result.stderr


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(["4*7=28", "10*0=0", "54-36=18", "1+1=2", "salet"]),
       st.text("012gybGYB🟩🟨⬛", min_size=1, max_size=8), st.sampled_from("=:"))
def test_guess_option_splits_at_the_last_separator(word, feedback, separator):
    assert parse_guess_option(f"{word}{separator}{feedback}") == (word, feedback)


# --- the real artifacts (after `make`) -----------------------------------------------------------

REAL = {
    # game: (answers, guesses, root, total, histogram, hard total, optimal); every variant has
    # a committed opener proof (sources/proofs/) in both modes: classic's hard tree opens with
    # the proven 54-38=16, 53,929, not the normal mode's 54-36=18.
    "nerdle-micro": (127, 184, "5-1=4", 374, [1, 27, 77, 22], 376, "over all openers"),
    "nerdle-mini": (206, 476, "4*7=28", 544, [1, 73, 131, 1], 544, "over all openers"),
    "nerdle-midi": (6661, 11857, "2+49=51", 20456, [1, 407, 5371, 882], 20736,
                    "over all openers"),
    "nerdle-classic": (17723, 17723, "54-36=18", 53512, [1, 1320, 14737, 1665], 53929,
                       "over all openers"),
}


@pytest.fixture()
def real(monkeypatch):
    monkeypatch.setenv("WORDPACK_ARTIFACTS", str(REPO / "artifacts"))
    full_artifact("guessing/games.json")


@pytest.mark.full
@pytest.mark.parametrize("game_id", REAL)
def test_real_trees(real, game_id):
    n_answers, n_guesses, root, total, histogram, hard_total, optimal = REAL[game_id]
    game = guessing_game(game_id)
    assert (len(game.answers), len(game.guesses)) == (n_answers, n_guesses)
    stats = game.tree_stats()
    assert stats == {"total": total, "mean": round(total / n_answers, 4), "max": len(histogram),
                     "histogram": dict(enumerate(histogram, 1)), "optimal": optimal}
    assert game.tree_info()["root"] == game.next_guess() == root
    assert game.tree_stats(hard=True)["total"] == hard_total
    load_feedback.cache_clear()


@pytest.mark.full
def test_real_classic_beats_the_published_tree(real):
    game = guessing_game("nerdle-classic")
    stats = game.tree_stats()
    assert stats["mean"] <= 3.02 and stats["max"] <= 5  # best published: 3.03, max 5
    assert stats == {"total": 53512, "mean": 3.0194, "max": 4,
                     "histogram": {1: 1, 2: 1320, 3: 14737, 4: 1665}, "optimal": "over all openers"}
    header = game.tree_info()
    assert header["proven_optimal"] and header["root"] == "54-36=18"
    hard = game.tree_stats(hard=True)
    assert (game.tree_info(hard=True)["root"], hard["total"], hard["optimal"]) == \
        ("54-38=16", 53929, "over all openers")
    load_feedback.cache_clear()


@pytest.mark.full
def test_real_classic_tree_walk_with_the_reference(real):
    path = full_artifact("guessing/nerdle-classic.tree.msgpack")
    guesses = full_artifact("guessing/nerdle-classic.guesses.txt").read_text().split()
    _, answers = read_equation_list(full_artifact("sources/nerdle-classic-answers.txt"))
    assert guesses == answers  # classic guesses are the answers
    header, root = read_tree(path)
    assert walk(root, guesses, answers, 8) == (53512, [1, 1320, 14737, 1665])
    assert header["total"] == 53512


@pytest.mark.full
def test_real_classic_matrix_sample_and_runtime(real):
    game = guessing_game("nerdle-classic")
    rows = range(0, len(game.guesses), 443)
    for g in rows:
        expected = [feedback_reference(game.guesses[g], a) for a in game.answers]
        assert game.codes[g].tolist() == expected, game.guesses[g]
    assert game.feedback("54-36=18", "12+35=47") == code_to_digits(
        feedback_reference("54-36=18", "12+35=47"), 8) == "11020210"
    history = [("54-36=18", "11020210")]
    assert len(game.candidates(history)) == 17
    assert game.next_guess(history) == "153/3=51"
    with pytest.raises(BadInput, match=re.escape("'12+34=47' is not true: 12+34 = 46")):
        game.evaluate("12+34=47")
    load_feedback.cache_clear()
