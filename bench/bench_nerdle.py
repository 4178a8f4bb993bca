"""Nerdle benchmarks on the real nerdle-classic (and nerdle-midi) artifacts.

Rows: the 17,723 x 17,723 feedback-matrix build (the engine's compiled kernel, as `make` runs
it) against the same formula in blocked numpy (the engine's earlier path, kept here as the
baseline) and against the pure-Python per-pair reference (timed on a sample of guesses and
scaled), its cost per pair against the Wordle matrix through the same code, its size on disk
against the matrix all 67,346 true equations would need as guesses, the exact tree search from
54-36=18 (and midi's from 2+49=51), the tree's total against the counting bound, and the
runtime: loading the game, `next_guess` on and off the tree, ranking at the start.
"""

import time
from functools import partial
from pathlib import Path

import numpy as np

import common
from common import median_seconds

REPO = Path(__file__).resolve().parents[1]
GUESSING = REPO / "artifacts" / "guessing"
ALPHABET = "0123456789+-*/="
ALL_TRUE_EQUATIONS = 67346  # nerdle-classic-guesses.txt: every true 8-symbol equation

row = partial(common.row, "nerdle")


def numpy_feedback_matrix(guesses, answers, alphabet):
    """The feedback formula of pipeline.build_feedback.feedback_matrix in blocked numpy."""
    from lookup.guessing.feedback import code_dtype
    from pipeline.build_feedback import encode_words

    length = len(answers[0])
    g_letters = encode_words(guesses, alphabet)
    a_letters = encode_words(answers, alphabet)
    counts = np.zeros((len(alphabet), len(answers)), dtype=np.int8)
    for i in range(length):
        np.add.at(counts, (a_letters[:, i], np.arange(len(answers))), 1)
    before = np.zeros(g_letters.shape, dtype=np.int8)
    for i in range(length):
        for j in range(i):
            before[:, i] += g_letters[:, j] == g_letters[:, i]
    dtype = code_dtype(length)
    out = np.empty((len(guesses), len(answers)), dtype=dtype)
    block = max(1, (1 << 22) // (len(answers) * length))  # temporaries around 16 MB
    for start in range(0, len(guesses), block):
        g = g_letters[start:start + block]
        green = g[:, None, :] == a_letters[None, :, :]
        code = np.zeros((len(g), len(answers)), dtype=dtype)
        for i in range(length):
            room = counts[g[:, i]] - before[start:start + block, i, None]
            for j in range(i + 1, length):
                rows = np.flatnonzero(g[:, j] == g[:, i])
                if rows.size:
                    room[rows] -= green[rows, :, j]
            yellow = ~green[:, :, i] & (room > 0)
            code *= 3
            code += (green[:, :, i].view(np.uint8) * 2 + yellow.view(np.uint8)).astype(dtype)
        out[start:start + block] = code
    return out


def matrix_rows() -> list[dict]:
    from lookup.guessing.feedback import feedback_reference
    from lookup.word_list import read_word_list
    from pipeline.build_feedback import feedback_matrix

    answers = read_word_list(GUESSING / "nerdle-classic.answers.txt")
    feedback_matrix(answers[:2], answers[:2], ALPHABET)  # load the compiled kernel
    started = time.perf_counter()
    matrix = feedback_matrix(answers, answers, ALPHABET)
    compiled = time.perf_counter() - started
    started = time.perf_counter()
    blocked = numpy_feedback_matrix(answers, answers, ALPHABET)
    numpy_seconds = time.perf_counter() - started
    assert np.array_equal(matrix, blocked)
    del blocked
    sample = answers[::len(answers) // 100][:100]
    started = time.perf_counter()
    for g in sample:
        for a in answers:
            feedback_reference(g, a)
    per_pair = (time.perf_counter() - started) / (len(sample) * len(answers))
    what = f"nerdle-classic feedback matrix build ({len(answers)} x {len(answers)})"
    rows = [
        row(what, round(compiled, 2), "s", "same formula in blocked numpy (earlier path)",
            round(numpy_seconds, 2), "numba kernel, one guess row per parallel task"),
        row(what, round(compiled, 2), "s", "pure-Python per-pair reference",
            round(per_pair * matrix.size, 1),
            f"baseline timed on {len(sample)} guesses x all answers and scaled "
            f"({per_pair * 1e6:.2f} us per pair)"),
    ]
    wordle_answers = read_word_list(GUESSING / "wordle-en.answers.txt")
    wordle_guesses = read_word_list(GUESSING / "wordle-en.guesses.txt")
    wordle = median_seconds(lambda: feedback_matrix(wordle_guesses, wordle_answers,
                                                    "abcdefghijklmnopqrstuvwxyz"), repeat=3)
    wordle_pairs = len(wordle_guesses) * len(wordle_answers)
    rows.append(row("nerdle-classic matrix build per pair (8 symbols)",
                    round(compiled / matrix.size * 1e9, 2), "ns",
                    f"wordle-en through the same code ({len(wordle_guesses)} x "
                    f"{len(wordle_answers)}, 5 letters)", round(wordle / wordle_pairs * 1e9, 2),
                    "ratio < 1: a Nerdle pair costs more (8 positions, more repeats)"))
    npy = GUESSING / "nerdle-classic.feedback.npy"
    all_guesses = ALL_TRUE_EQUATIONS * len(answers) * matrix.itemsize + (npy.stat().st_size
                                                                         - matrix.nbytes)
    rows.append(row("nerdle-classic feedback matrix on disk (answers as guesses)",
                    npy.stat().st_size, "bytes",
                    f"all {ALL_TRUE_EQUATIONS} true equations as guesses (computed)", all_guesses,
                    "uint16 .npy, memory-mapped at run time"))
    return rows


def tree_rows() -> list[dict]:
    from lookup.guessing.feedback import code_count, load_feedback
    from lookup.guessing.game import load_descriptor
    from lookup.guessing.splits import split_figures, tree_lower_bound
    from pipeline.build_feedback import encode_words
    from pipeline.search_tree import Searcher

    rows = []
    for game_id, opener, expected in (("nerdle-classic", "54-36=18", 53512),
                                      ("nerdle-midi", "2+49=51", 20456)):
        matrix = load_feedback(GUESSING / f"{game_id}.feedback.npy")
        game = load_descriptor(GUESSING / f"{game_id}.game.json")
        codes = np.asarray(matrix.codes)
        letters = encode_words(matrix.guesses, ALPHABET)
        warm = Searcher(codes, letters, len(ALPHABET), False, 6)
        warm.solve(np.arange(5, dtype=np.int32), np.arange(len(matrix.guesses), dtype=np.int32),
                   6)  # load the compiled search
        del warm
        searcher = Searcher(codes, letters, len(ALPHABET), False, game["max_guesses"])
        started = time.perf_counter()
        total = searcher.cost(matrix.guess_index[opener])
        searcher.tree(matrix.guess_index[opener])
        search = time.perf_counter() - started
        assert total == expected, (game_id, total)
        n = len(matrix.answers)
        rows.append(row(f"{game_id} exact tree search from {opener}", round(search, 2), "s",
                        note=f"total {total}, mean {total / n:.4f} (proven optimal for this "
                             f"root over all {len(matrix.guesses)} allowed guesses); "
                             f"{searcher.nodes_visited} nodes visited"))
        # Counting bound: no tree that opens with g totals less than 3N - k - 2[g answer].
        non_green = split_figures(codes, code_count(matrix.length))["non_green_groups"]
        bound = int(tree_lower_bound(n, non_green, np.arange(len(matrix.guesses)) < n).min())
        rows.append(row(f"{game_id} tree total guesses", total, "guesses",
                        "counting bound (best opener's 3N - k - 2)", bound,
                        f"means {total / n:.4f} vs bound {bound / n:.4f}"
                        + ("; best published tree 3.03" if game_id == "nerdle-classic" else ""),
                        higher_is_better=True))
        del codes, searcher
        load_feedback.cache_clear()
    return rows


def runtime_rows() -> list[dict]:
    import lookup.guessing.game
    from bench_guessing import reference_best_guess
    from lookup.guessing.feedback import load_feedback

    rows = []
    started = time.perf_counter()
    game = lookup.guessing.game.guessing_game("nerdle-classic")
    load = time.perf_counter() - started
    mapped = median_seconds(lambda: np.load(GUESSING / "nerdle-classic.feedback.npy",
                                            mmap_mode="r"), repeat=5)
    rows.append(row("guessing_game('nerdle-classic') load", round(load, 2), "s",
                    "np.load of the matrix, memory-mapped, no checks", round(mapped, 4),
                    "most of the load is the sha256 check of the 628 MB matrix"))
    answer = "12+35=47"
    on_history = [("54-36=18", game.feedback("54-36=18", answer))]
    second = game.next_guess(on_history)
    on_history.append((second, game.feedback(second, answer)))
    off_history = [("12+34=46", game.feedback("12+34=46", answer))]
    left = game.candidates(off_history)
    on_tree = median_seconds(lambda: game.next_guess(on_history), repeat=7)
    off_tree = median_seconds(lambda: game.next_guess(off_history), repeat=3)

    baseline = median_seconds(lambda: reference_best_guess(game.guesses, left), repeat=1)
    rows.append(row("nerdle-classic next_guess on the tree (2 guesses in)",
                    round(on_tree * 1e6, 1), "us", "off-tree ranking from the matrix",
                    round(off_tree * 1e6, 1)))
    rows.append(row(f"nerdle-classic next_guess off the tree ({len(left)} answers left)",
                    round(off_tree * 1e3, 2), "ms", "ranking with the per-pair reference",
                    round(baseline * 1e3, 1), "all 17,723 guesses ranked by expected remaining"))
    opening = median_seconds(lambda: game.rank(n=10), repeat=1)
    rows.append(row("nerdle-classic rank() at the start, first call", round(opening, 2), "s",
                    note="group counts of 17,723 x 17,723 pairs, then cached per game; "
                         "next_guess() needs none of it (the tree's root)"))
    load_feedback.cache_clear()
    return rows


def run() -> list[dict]:
    return matrix_rows() + tree_rows() + runtime_rows()


if __name__ == "__main__":
    for r in run():
        print(r)
