"""The exact tree search equals brute force on small games; built trees re-walk to their totals."""

import functools
import math

import msgpack
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numba import types
from numba.typed import Dict

from conftest import FIXTURES, REPO, full_artifact
from lookup.guessing.feedback import all_green, code_count, feedback_reference
from lookup.guessing.game import hard_mode_violation
from lookup.guessing.splits import split_figures, tree_lower_bound
from lookup.word_list import read_word_list
from pipeline.build_feedback import encode_words, feedback_matrix
from pipeline.build_tree import GameSearch
from pipeline.search_tree import (
    BITSET_CODES,
    BITSET_GUESSES,
    BITSET_WORDS,
    INFINITE,
    STAMP_ENTRIES,
    Searcher,
    _child_allowed,
    _fits,
    _lower_bound,
    _scan,
    _scan_bits,
    _scan_probe,
    evaluate_guess,
    solve,
)

GAMES = FIXTURES / "guessing"


def brute_force(answers, guesses, root, max_guesses, hard):
    """Optimal total of a tree opening with `root`: plain recursion over every guess."""
    length = len(answers[0])
    green = all_green(length)

    @functools.lru_cache(maxsize=None)
    def best(S, depth, last):
        if depth == 0:
            return math.inf
        if len(S) == 1:
            return 1
        allowed = [h for h in guesses
                   if not hard or hard_mode_violation(h, last[0], last[1]) is None]
        # A guess that leaves S whole costs n + f(S) > f(S): never the best, so skip it.
        return min((cost(S, h, depth) for h in allowed if progresses(S, h)), default=math.inf)

    def progresses(S, guess):
        return guess in S or len({feedback_reference(guess, a) for a in S}) > 1

    def cost(S, guess, depth):
        groups = {}
        for a in S:
            groups.setdefault(feedback_reference(guess, a), []).append(a)
        return len(S) + sum(best(tuple(T), depth - 1, (guess, code))
                            for code, T in groups.items() if code != green)

    return cost(tuple(answers), root, max_guesses)


def searcher_for(answers, guesses, hard, max_guesses, alphabet):
    matrix = feedback_matrix(guesses, answers, alphabet)
    return Searcher(matrix, encode_words(guesses, alphabet), len(alphabet), hard, max_guesses)


def walk(tree, answers, guesses, hard):
    """Total guesses and max depth playing every answer through `tree` with the reference."""
    green = all_green(len(answers[0]))
    total = worst = 0
    for answer in answers:
        node, depth, history = tree, 1, []
        while True:
            guess = guesses[node[0]]
            if hard:
                for previous, code in history:
                    assert hard_mode_violation(guess, previous, code) is None, (guess, previous)
            code = feedback_reference(guess, answer)
            if code == green:
                break
            history.append((guess, code))
            node, depth = node[2][node[1].index(code)], depth + 1
        total += depth
        worst = max(worst, depth)
    return total, worst


def tiny_en():
    answers = read_word_list(GAMES / "tiny-en-answers.txt")
    extra = [w for w in read_word_list(GAMES / "tiny-en-guesses.txt") if w not in answers]
    return answers, answers + extra


@pytest.mark.parametrize("hard", [False, True])
@pytest.mark.parametrize("max_guesses", [6, 3])
def test_search_equals_brute_force_on_tiny_en(hard, max_guesses):
    answers, guesses = tiny_en()
    searcher = searcher_for(answers, guesses, hard, max_guesses, "abcdefghijklmnopqrstuvwxyz")
    for root in range(0, len(guesses), 3):
        expected = brute_force(answers, guesses, guesses[root], max_guesses, hard)
        found = searcher.cost(root)
        assert (found if found < INFINITE else math.inf) == expected, guesses[root]
        if expected < math.inf:
            assert walk(searcher.tree(root), answers, guesses, hard)[0] == expected


def test_tiny_en_known_values():
    # Pinned so that a change in the search or the fixture shows up as an exact number.
    answers, guesses = tiny_en()
    normal = searcher_for(answers, guesses, False, 6, "abcdefghijklmnopqrstuvwxyz")
    hard = searcher_for(answers, guesses, True, 6, "abcdefghijklmnopqrstuvwxyz")
    bolt = guesses.index("bolt")
    assert normal.cost(bolt) == brute_force(answers, guesses, "bolt", 6, False)
    assert hard.cost(bolt) == brute_force(answers, guesses, "bolt", 6, True)
    assert normal.cost(bolt) <= hard.cost(bolt)


words3 = st.text(alphabet="abcd", min_size=3, max_size=3)


@settings(max_examples=200, deadline=None)
@given(answers=st.lists(words3, min_size=1, max_size=9, unique=True),
       extra=st.lists(words3, max_size=5, unique=True),
       hard=st.booleans(), max_guesses=st.integers(2, 6), data=st.data())
def test_search_equals_brute_force_on_random_games(answers, extra, hard, max_guesses, data):
    guesses = answers + [w for w in extra if w not in answers]
    root = data.draw(st.integers(0, len(guesses) - 1))
    searcher = searcher_for(answers, guesses, hard, max_guesses, "abcd")
    expected = brute_force(answers, guesses, guesses[root], max_guesses, hard)
    found = searcher.cost(root)
    assert (found if found < INFINITE else math.inf) == expected
    if expected < math.inf:
        total, worst = walk(searcher.tree(root), answers, guesses, hard)
        assert total == expected and worst <= max_guesses
    # With a budget, over every opener and one memo (as a proof's worker searches): exact below
    # the budget, a bound at or above it otherwise.
    budget = data.draw(st.integers(1, 4 * len(answers) + 2))
    budgeted = searcher_for(answers, guesses, hard, max_guesses, "abcd")
    for g, guess in enumerate(guesses):
        exact = brute_force(answers, guesses, guess, max_guesses, hard)
        value = budgeted.cost(g, budget)
        if exact < budget:
            assert value == exact, guess
        else:
            assert value >= budget, guess


@settings(max_examples=200, deadline=None)
@given(answers=st.lists(words3, min_size=1, max_size=9, unique=True),
       extra=st.lists(words3, max_size=5, unique=True),
       hard=st.booleans(), max_guesses=st.integers(1, 5))
def test_fit_check_agrees_with_brute_force(answers, extra, hard, max_guesses):
    # Some tree over every answer fits in max_guesses iff some opener's brute-force cost is
    # finite.
    guesses = answers + [w for w in extra if w not in answers]
    searcher = searcher_for(answers, guesses, hard, max_guesses, "abcd")
    expected = any(brute_force(answers, guesses, g, max_guesses, hard) < math.inf
                   for g in guesses)
    fitting = Dict.empty(key_type=types.uint64, value_type=types.boolean)
    assert _fits(searcher.answers, searcher.guesses, np.int64(max_guesses), hard, searcher.ctx,
                 searcher.memo, fitting) == expected


def test_compiled_hard_mode_rule_agrees_with_the_runtime():
    _, guesses = tiny_en()
    alphabet = "abcdefghijklmnopqrstuvwxyz"
    letters = encode_words(guesses, alphabet)
    counts = np.zeros((len(guesses), len(alphabet)), np.uint8)
    for i in range(letters.shape[1]):
        np.add.at(counts, (np.arange(len(guesses)), letters[:, i]), 1)
    everything = np.arange(len(guesses), dtype=np.int32)
    for g, previous in enumerate(guesses):
        for code in sorted({feedback_reference(previous, answer) for answer in guesses}):
            expected = [h for h, guess in enumerate(guesses)
                        if hard_mode_violation(guess, previous, code) is None]
            allowed = _child_allowed(everything, g, code, letters, counts, 4, len(alphabet))
            assert allowed.tolist() == expected, (previous, code)


@settings(max_examples=60, deadline=None)
@given(ncodes=st.sampled_from([3, 27, 243, 729]), n_guesses=st.integers(1, 1300),
       n_answers=st.integers(1, 40), data=st.data())
def test_scans_count_each_guesses_distinct_codes(ncodes, n_guesses, n_answers, data):
    """Both scans (stamps for any game, bitsets up to 256 codes) equal a plain set count, over
    every guess (normal mode: contiguous rows) and over a subset (hard mode), across blocks."""
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    MT = rng.integers(0, data.draw(st.integers(1, ncodes)), (n_answers, n_guesses),
                      dtype=np.uint8 if ncodes <= 256 else np.uint16)
    S = np.unique(rng.integers(0, n_answers, data.draw(st.integers(1, n_answers)))).astype(np.int32)
    every = np.arange(n_guesses, dtype=np.int32)
    subset = every[rng.random(n_guesses) < 0.5]
    for allowed in (every, subset):
        expected = [len(set(MT[S, g].tolist())) for g in allowed]
        stamps = np.empty(len(allowed), np.int32)
        _scan(MT, S, allowed, ncodes, np.zeros(max(STAMP_ENTRIES, 32 * ncodes), np.int32),
              np.zeros(1, np.int64), stamps)
        assert stamps.tolist() == expected
        if ncodes <= BITSET_CODES:
            bits = np.empty(len(allowed), np.int32)
            _scan_bits(MT, S, allowed, np.zeros(BITSET_GUESSES * BITSET_WORDS, np.int64), bits)
            assert bits.tolist() == expected


@settings(max_examples=80, deadline=None)
@given(n_guesses=st.integers(1, 1300), n_good=st.integers(0, 200), narrow=st.integers(1, 30),
       n_answers=st.integers(3, 120), slack=st.integers(0, 3), data=st.data())
def test_probe_scan_is_exact_where_it_matters(n_guesses, n_good, narrow, n_answers, slack,
                                              data):
    """_scan_probe against plain set counts: a few guesses with many codes and many with few
    (so that guesses are skipped), parent counts over a superset of S, exact or loosened."""
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    MT = rng.integers(0, narrow, (n_answers, n_guesses), dtype=np.uint8)
    good = rng.choice(n_guesses, min(n_good, n_guesses), replace=False)
    MT[:, good] = rng.integers(0, BITSET_CODES - 13, (n_answers, good.size))
    T = np.unique(rng.integers(0, n_answers, data.draw(st.integers(1, n_answers))))
    S = np.sort(rng.choice(T, data.draw(st.integers(1, T.size)), replace=False)).astype(np.int32)
    allowed = np.arange(n_guesses, dtype=np.int32)
    if data.draw(st.booleans()):  # hard mode: a subset
        allowed = allowed[(rng.random(n_guesses) < 0.6) | (allowed == 0)]
    true = np.array([len(set(MT[S, g].tolist())) for g in allowed], np.int32)
    parent = np.array([len(set(MT[T, g].tolist())) for g in allowed], np.int32)
    parent += rng.integers(0, slack + 1, parent.size, dtype=np.int32)  # upper bounds too
    in_s = np.zeros(n_answers, np.bool_)
    in_s[S] = True
    distinct = np.empty(allowed.size, np.int32)
    exact = np.empty(allowed.size, np.bool_)
    best_found = _scan_probe(MT, S, allowed, in_s, parent,
                             np.zeros(BITSET_GUESSES * BITSET_WORDS, np.int64), distinct, exact)
    candidate = (allowed < n_answers) & in_s[np.minimum(allowed, n_answers - 1)]
    assert (distinct[exact] == true[exact]).all()
    assert (distinct[~exact] == np.minimum(parent, S.size)[~exact]).all()
    assert (distinct[~exact] >= true[~exact]).all()
    best = (true + candidate).max()
    assert (distinct[exact] + candidate[exact]).max() == best == best_found
    assert (distinct[~exact] + 1 <= best).all()


def test_lower_bound_holds_and_compiled_form_agrees():
    answers, guesses = tiny_en()
    matrix = feedback_matrix(guesses, answers, "abcdefghijklmnopqrstuvwxyz")
    figures = split_figures(matrix, code_count(4))
    is_answer = np.arange(len(guesses)) < len(answers)
    bounds = tree_lower_bound(len(answers), figures["non_green_groups"], is_answer)
    for g in range(0, len(guesses), 4):
        k, candidate = int(figures["non_green_groups"][g]), bool(is_answer[g])
        assert _lower_bound(len(answers), k, candidate) == bounds[g] == 45 - k - 2 * candidate
        assert brute_force(answers, guesses, guesses[g], 6, False) >= bounds[g]


def test_solve_matches_best_root():
    answers, guesses = tiny_en()
    searcher = searcher_for(answers, guesses, False, 6, "abcdefghijklmnopqrstuvwxyz")
    best_root = min(brute_force(answers, guesses, g, 6, False) for g in guesses)
    assert searcher.solve(np.arange(len(answers), dtype=np.int32),
                          np.arange(len(guesses), dtype=np.int32), 6) == best_root


# --- the real trees (after `make`) ----------------------------------------------------------------

def stored(name):
    header, root = msgpack.unpackb(full_artifact(f"guessing/{name}").read_bytes())
    return header, root


def real_lists(game):
    directory = REPO / "artifacts" / "guessing"
    return (read_word_list(directory / f"{game}.answers.txt"),
            read_word_list(directory / f"{game}.guesses.txt"))


@pytest.mark.full
@pytest.mark.parametrize("game, hard, opener, total, worst", [
    ("wordle-en", False, "salet", 7920, 5),
    ("wordle-en", True, "salet", 8122, 6),
    # Selby's 7,897 / 8,099 used the 2022 allowed list (12,947 words); the current 14,855 allow
    # better trees, and the opener proof finds TARSE best (docs/GAMES.md "## Published
    # results").
    ("wordle-en-nyt", False, "tarse", 7883, 6),
    ("wordle-en-nyt", True, "salet", 8097, 6),
    ("wordle-de", False, "salut", 16877, 6),  # the opener proof's best of all 4,529
    ("wordle-de", True, "salbt", 17592, 7),  # the same in hard mode, 7-guess limit
    ("wordle-nl", False, "karet", 21166, 6),  # the opener proof's best of all 5,592
    # Hard mode, 7-guess limit (no opener fits 6): the opener proof's best of all 5,592.
    ("wordle-nl", True, "krimp", 22429, 7),
])
def test_real_tree_walks_to_its_total(game, hard, opener, total, worst):
    header, root = stored(f"{game}.hard.tree.msgpack" if hard else f"{game}.tree.msgpack")
    answers, guesses = real_lists(game)
    assert header["root"] == opener and header["total"] == total and header["max"] == worst
    assert walk(root, answers, guesses, hard) == (total, worst)


@pytest.mark.full
def test_a_trap_group_rules_a_hard_mode_opener_out_at_once():
    # Dutch hard mode at a 6-guess limit: after SEINT, the 7 words below share a feedback and
    # hard mode leaves 30 guesses for them; they fit a tree in 6 more guesses (23 in all) but
    # not in 5, so SEINT fits no tree. The unbounded opener search finds that group first
    # (smallest groups first): 347 nodes, where solving the large groups before it took the
    # plan hours.
    game = "wordle-nl"
    search = GameSearch(full_artifact(f"guessing/{game}.feedback.npy"), width=0)
    searcher = search.searcher(True, 6)
    seint = search.matrix.guess_index["seint"]
    trap = {code: group for code, group in searcher.split(searcher.answers, seint)}[96]
    assert [search.matrix.guesses[a] for a in trap] == [
        "cijns", "fijns", "gijns", "mijns", "pions", "rijns", "zijns"]
    allowed = searcher.child_allowed(searcher.guesses, seint, 96)
    assert len(allowed) == 30
    assert searcher.solve(trap, allowed, 5) == INFINITE
    assert searcher.solve(trap, allowed, 6) == 23
    fresh = search.searcher(True, 6)
    assert fresh.cost(seint) == INFINITE and fresh.nodes_visited == 347
    # With a budget too (a proof's chunk: the 9-guess limit, against PARET's 22,601 + 1):
    # SLIET leaves a trap of 20 words (BIETS BISTE BITSE DIETS ...), found without solving
    # a group (only the probes count as nodes).
    budgeted = search.searcher(True, 9)
    assert budgeted.cost(search.matrix.guess_index["sliet"], 22602) == INFINITE
    assert budgeted.nodes_visited == 137


def test_width_limited_search_gives_a_valid_tree():
    answers, guesses = tiny_en()
    exact = searcher_for(answers, guesses, True, 6, "abcdefghijklmnopqrstuvwxyz")
    narrow = Searcher(feedback_matrix(guesses, answers, "abcdefghijklmnopqrstuvwxyz"),
                      encode_words(guesses, "abcdefghijklmnopqrstuvwxyz"), 26, True, 6, width=1)
    root = guesses.index("coat")
    total = narrow.cost(root)
    assert total >= exact.cost(root)
    assert walk(narrow.tree(root), answers, guesses, True)[0] == total


def test_build_relaxes_the_guess_limit_when_no_tree_fits(tmp_path):
    from pipeline.build_feedback import build_feedback
    from pipeline.build_game import build_game
    from pipeline.build_tree import search

    config = tmp_path / "games.toml"
    config.write_text((GAMES / "guessing.toml").read_text().replace(
        'opener_candidates = 4\nmax_guesses = 6', 'opener_candidates = 2\nmax_guesses = 2'))
    build_game(config, "tiny-en", GAMES, tmp_path, tmp_path / "tiny-en.game.json")
    build_feedback(tmp_path / "tiny-en.game.json", tmp_path / "tiny-en.feedback.npy")
    header, root, _ = search(tmp_path / "tiny-en.feedback.npy", hard=False, progress=False)
    assert header["max_guesses"] == 2 and header["depth_limit"] == 3 == header["max"]
    answers, guesses = tiny_en()
    assert walk(root, answers, guesses, False) == (header["total"], 3)


def test_hard_candidates_are_screened_first_in_hard_mode_only(tmp_path):
    from pipeline.build_feedback import build_feedback
    from pipeline.build_game import build_game
    from pipeline.build_tree import search

    config = tmp_path / "games.toml"
    config.write_text((GAMES / "guessing.toml").read_text().replace(
        'opener_candidates = 4\nmax_guesses = 6',
        'opener_candidates = 4\nmax_guesses = 6\nhard_candidates = ["otto", "bell"]', 1))
    build_game(config, "tiny-en", GAMES, tmp_path, tmp_path / "tiny-en.game.json")
    build_feedback(tmp_path / "tiny-en.game.json", tmp_path / "tiny-en.feedback.npy")
    game_search = GameSearch(tmp_path / "tiny-en.feedback.npy")
    guesses = game_search.matrix.guesses
    best_bounded = [guesses[g] for g in game_search.candidates()]
    assert best_bounded == ["bolt", "belt", "blot", "clot"]
    assert [guesses[g] for g in game_search.candidates(hard=True)] == [
        "otto", "bell", "bolt", "belt", "blot", "clot"]
    header, _, _ = search(tmp_path / "tiny-en.feedback.npy", hard=True, progress=False)
    assert sorted(row[0] for row in header["screened"]) == sorted(["otto", "bell"] + best_bounded)
    header, _, _ = search(tmp_path / "tiny-en.feedback.npy", hard=False, progress=False)
    assert sorted(row[0] for row in header["screened"]) == sorted(best_bounded)


def test_a_hard_candidate_that_is_no_allowed_guess_is_refused(tmp_path):
    from lookup.errors import BadInput
    from pipeline.build_game import build_game

    config = tmp_path / "games.toml"
    config.write_text((GAMES / "guessing.toml").read_text().replace(
        'max_guesses = 6', 'max_guesses = 6\nhard_candidates = ["zzzz"]', 1))
    with pytest.raises(BadInput, match="tiny-en: hard_candidates word 'zzzz' is not an allowed "
                                       "guess"):
        build_game(config, "tiny-en", GAMES, tmp_path, tmp_path / "tiny-en.game.json")


def test_the_search_entries_release_the_gil():
    # A Dask worker answers its scheduler's heartbeats on another thread while a search runs:
    # with the GIL held through an hour-long search the scheduler dropped the worker.
    assert solve.targetoptions["nogil"] and evaluate_guess.targetoptions["nogil"]
