"""Guessing-game benchmarks on the real wordle-en artifacts.

Rows: feedback-matrix build (vectorized numpy) against the pure-Python per-pair reference
(timed on a sample of guesses in this run and scaled to the full matrix), exact tree search for
the SALET tree (normal and hard) with nodes visited, against the greedy tree (least expected
remaining at every node, from the same matrix) in total guesses, the search's per-node scan
(bitset kernel against the stamp kernel, ns per cell), tree size on disk against the same tree
as JSON with words, and `next_guess` latency on and off the tree against ranking with the
per-pair reference.
"""

import json
import time
from functools import partial
from pathlib import Path

import msgpack
import numpy as np

import common
from common import median_seconds

REPO = Path(__file__).resolve().parents[1]
GUESSING = REPO / "artifacts" / "guessing"
GAME = "wordle-en"

row = partial(common.row, "guessing")


def greedy_total(codes: np.ndarray, n_guesses: int) -> int:
    """Total of the tree that always plays the least expected remaining (answers on ties)."""
    n_answers = codes.shape[1]
    green = 242
    total = 0
    stack = [(np.arange(n_answers), 1)]
    while stack:
        S, depth = stack.pop()
        if S.size == 1:
            total += depth
            continue
        part = codes[:, S].astype(np.int64) + np.arange(n_guesses)[:, None] * 243
        sizes = np.bincount(part.ravel(), minlength=n_guesses * 243).reshape(n_guesses, 243)
        score = (sizes * sizes).sum(axis=1) * 2 - np.isin(np.arange(n_guesses), S)
        g = int(np.argmin(score))
        for code in np.unique(codes[g, S]):
            group = S[codes[g, S] == code]
            if code == green:
                total += depth
            else:
                stack.append((group, depth + 1))
    return total


def reference_best_guess(guesses, left) -> tuple:
    """The off-tree baseline: rank every guess by expected remaining with the per-pair
    reference feedback function (no matrix); returns the best (sum of squares, not-a-candidate)."""
    from lookup.guessing.feedback import feedback_reference

    best = None
    for g in guesses:
        groups: dict[int, int] = {}
        for a in left:
            code = feedback_reference(g, a)
            groups[code] = groups.get(code, 0) + 1
        key = (sum(v * v for v in groups.values()), g not in left)
        best = key if best is None or key < best else best
    return best


def run() -> list[dict]:
    from lookup.guessing.feedback import feedback_reference, load_feedback
    from lookup.guessing.game import guessing_game
    from lookup.word_list import read_word_list
    from pipeline.build_feedback import encode_words, feedback_matrix
    from pipeline.search_tree import (
        BITSET_GUESSES,
        BITSET_WORDS,
        STAMP_ENTRIES,
        Searcher,
        _scan,
        _scan_bits,
    )

    rows = []
    answers = read_word_list(GUESSING / f"{GAME}.answers.txt")
    guesses = read_word_list(GUESSING / f"{GAME}.guesses.txt")
    alphabet = "abcdefghijklmnopqrstuvwxyz"

    # Matrix build: vectorized vs pure Python per pair (sample of 300 guesses, scaled).
    started = time.perf_counter()
    matrix = feedback_matrix(guesses, answers, alphabet)
    vectorized = time.perf_counter() - started
    sample = guesses[::len(guesses) // 300][:300]
    started = time.perf_counter()
    for g in sample:
        for a in answers:
            feedback_reference(g, a)
    per_pair = (time.perf_counter() - started) / (len(sample) * len(answers))
    rows.append(row(f"{GAME} feedback matrix build ({len(guesses)} x {len(answers)})",
                    round(vectorized, 3), "s", "pure-Python per-pair reference",
                    round(per_pair * matrix.size, 1),
                    f"baseline timed on {len(sample)} guesses x all answers and scaled "
                    f"({per_pair * 1e6:.2f} us per pair)"))

    # Exact search: the SALET tree alone (no opener screening), fresh memo.
    letters = encode_words(guesses, alphabet)
    greedy = greedy_total(np.asarray(matrix), len(guesses))
    for hard, expected in ((False, 7920), (True, 8122)):
        searcher = Searcher(matrix, letters, len(alphabet), hard, 6)
        searcher.solve(np.arange(5, dtype=np.int32), np.arange(len(guesses), dtype=np.int32), 6)
        searcher = Searcher(matrix, letters, len(alphabet), hard, 6)  # fresh memo, compiled
        started = time.perf_counter()
        total = searcher.cost(guesses.index("salet"))
        seconds = time.perf_counter() - started
        mode = "hard" if hard else "normal"
        assert total == expected, (mode, total)
        rows.append(row(f"{GAME} exact SALET tree search, {mode} mode", round(seconds, 2), "s",
                        note=f"total {total} (proven optimal for this root), "
                             f"{searcher.nodes_visited} nodes visited, "
                             f"{searcher.guesses_evaluated} guesses evaluated"))
        if not hard:
            rows.append(row(f"{GAME} exact tree total guesses", total, "guesses",
                            "greedy tree (least expected remaining)", greedy,
                            f"means {total / len(answers):.4f} vs {greedy / len(answers):.4f}"))

    # The search's per-node scan (distinct codes of every guess over a node's answers): the
    # bitset kernel against the stamp kernel that larger code counts use, on random nodes.
    MT = np.ascontiguousarray(np.asarray(matrix).T)
    every = np.arange(len(guesses), dtype=np.int32)
    rng = np.random.default_rng(7)
    nodes = [np.sort(rng.choice(len(answers), size, replace=False)).astype(np.int32)
             for size in (10, 50, 150, 500) for _ in range(5)]
    kernels = {"bits": lambda S, out: _scan_bits(MT, S, every, bits, out),
               "stamps": lambda S, out: _scan(MT, S, every, 243, stamp, clock, out)}
    bits = np.zeros(BITSET_GUESSES * BITSET_WORDS, np.int64)
    stamp, clock = np.zeros(STAMP_ENTRIES, np.int32), np.zeros(1, np.int64)
    per_cell = {}
    for name, kernel in kernels.items():
        out = np.empty(len(guesses), np.int32)
        kernel(nodes[0], out)  # compiled
        cells, started = 0, time.perf_counter()
        for _ in range(3):
            for S in nodes:
                kernel(S, out)
                cells += S.size * len(guesses)
        per_cell[name] = (time.perf_counter() - started) / cells * 1e9
    rows.append(row(f"{GAME} search scan, bitset kernel (normal mode)", round(per_cell["bits"], 3),
                    "ns per cell", "stamp kernel", round(per_cell["stamps"], 3),
                    "cells = node answers x guesses; 20 random nodes of 10 to 500 answers"))

    # Tree size on disk vs the same nodes as JSON with words.
    tree_path = GUESSING / f"{GAME}.tree.msgpack"
    game = guessing_game(GAME)

    def with_words(node):
        return [guesses[node[0]], node[1], [with_words(c) for c in node[2]]]

    _, root = msgpack.unpackb(tree_path.read_bytes())
    as_json = json.dumps(with_words(root), separators=(",", ":"))
    rows.append(row(f"{GAME} decision tree on disk (msgpack)", tree_path.stat().st_size,
                    "bytes", "same tree as compact JSON with words", len(as_json.encode())))

    # next_guess latency: on the tree (two moves in) and off it.
    on_history = [("salet", game.feedback("salet", "cigar"))]
    on_history.append((game.next_guess(on_history), game.feedback(game.next_guess(on_history),
                                                                    "cigar")))
    off_history = [("crane", game.feedback("crane", "cigar"))]
    left = game.candidates(off_history)
    on_tree = median_seconds(lambda: game.next_guess(on_history), repeat=7)
    off_tree = median_seconds(lambda: game.next_guess(off_history), repeat=7)

    baseline = median_seconds(lambda: reference_best_guess(guesses, left), repeat=3)
    rows.append(row(f"{GAME} next_guess on the tree (2 guesses in)", round(on_tree * 1e6, 1),
                    "us", "off-tree ranking from the matrix", round(off_tree * 1e6, 1)))
    rows.append(row(f"{GAME} next_guess off the tree ({len(left)} answers left)",
                    round(off_tree * 1e3, 2), "ms", "ranking with the per-pair reference",
                    round(baseline * 1e3, 1), "every allowed guess ranked by expected remaining"))
    wide_history = [("fuzzy", game.feedback("fuzzy", "cigar"))]
    wide = median_seconds(lambda: game.next_guess(wide_history), repeat=3)
    rows.append(row(f"{GAME} next_guess off the tree "
                    f"({len(game.candidates(wide_history))} answers left)",
                    round(wide * 1e3, 2), "ms", note="every allowed guess ranked from the matrix"))
    load_feedback.cache_clear()
    return rows


if __name__ == "__main__":
    for r in run():
        print(r)
