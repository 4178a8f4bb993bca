"""How guesses split the candidate answers: group sizes and the figures drawn from them.

One home for the statistics the runtime's ranking (lookup/guessing/game.py), the opener table
(pipeline/build_openers.py) and the tree search (pipeline/build_tree.py,
pipeline/search_tree.py) share. A guess splits the candidates into groups, one per feedback code
it gets; the all-green group (the guess itself, when it is a candidate) is a group like the
others in these figures.
"""

import numpy as np

# Guess rows per block when counting groups: block * max(codes, candidates) stays around 1M,
# so the (row, code) counters stay in cache (Nerdle classic's opening figures: 5 s, not 19 s).
_COUNTER_BUDGET = 1 << 20


def group_sizes_by_counting(codes: np.ndarray, ncodes: int) -> tuple[np.ndarray, np.ndarray]:
    """(row of each group, its size) for codes [rows, n], via a bincount over (row, code) cells.

    Groups come row by row, codes ascending within a row.
    """
    rows = codes.shape[0]
    cells = codes.astype(np.int64) + np.arange(rows, dtype=np.int64)[:, None] * ncodes
    sizes = np.bincount(cells.ravel(), minlength=rows * ncodes)
    nonzero = np.flatnonzero(sizes)
    return nonzero // ncodes, sizes[nonzero]


def group_sizes_by_sorting(codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The same as group_sizes_by_counting, from run lengths of each sorted row (for few codes)."""
    ordered = np.sort(codes, axis=1)
    first = np.ones(ordered.shape, dtype=bool)
    first[:, 1:] = ordered[:, 1:] != ordered[:, :-1]
    starts = np.flatnonzero(first)  # every row starts a run at its column 0
    return starts // codes.shape[1], np.diff(np.append(starts, ordered.size))


def tree_lower_bound(n, non_green_groups, is_candidate):
    """The least total any tree can reach over n answers when it opens with a given guess.

    Each answer costs this guess; each non-green group T then costs at least 2|T| - 1 (a guess
    that is an answer of T and splits the rest into singletons), so a guess leaving k non-green
    groups costs at least n + sum(2|T| - 1) = 3n - k - 2[the guess is one of the answers].
    Plain arithmetic: it takes numbers or numpy arrays, and pipeline/search_tree.py compiles
    this same function into its numba kernel.
    """
    return 3 * n - non_green_groups - 2 * is_candidate


def opener_lower_bounds(non_green_groups: np.ndarray, n_answers: int) -> np.ndarray:
    """tree_lower_bound of every guess as opener over all `n_answers` answers, from each
    guess's non-green group count; the answers lead the guess list (guess i is answer i for
    i < n_answers), as every guessing game lays it out.
    """
    is_answer = np.arange(len(non_green_groups)) < n_answers
    return tree_lower_bound(n_answers, non_green_groups, is_answer)


def split_figures(codes, ncodes: int, rows: np.ndarray | None = None) -> dict[str, np.ndarray]:
    """How each guess splits the candidates, from its row of feedback codes.

    Args:
        codes: feedback codes [guesses, n] over the n candidates (an array or a memory map).
        ncodes: number of distinct codes (3**length); the all-green code is ncodes - 1.
        rows: the rows to use, in output order; all rows by default.

    Returns:
        One array per figure, one entry per row: "groups" (distinct codes, the all-green one
        included), "non_green_groups", "largest" (answers in the largest group),
        "sum_squares" (sum of group size**2, exact), "expected_remaining" (sum_squares / n)
        and "entropy" (bits, -sum p log2 p with p = size / n).
    """
    if rows is None:
        rows = np.arange(codes.shape[0])
    n = codes.shape[1]
    green = ncodes - 1
    figures = {key: np.empty(rows.size, dtype) for key, dtype in (
        ("groups", np.int64), ("non_green_groups", np.int64), ("largest", np.int64),
        ("sum_squares", np.int64), ("entropy", np.float64))}
    # Counting costs rows x 3**length, sorting rows x n log n: count while candidates are many.
    block = max(1, _COUNTER_BUDGET // max(ncodes, n))
    for start in range(0, rows.size, block):
        part = np.asarray(codes[rows[start:start + block]])
        count = part.shape[0]
        row_of, sizes = (group_sizes_by_counting(part, ncodes) if 4 * n >= ncodes
                         else group_sizes_by_sorting(part))
        p = sizes / n
        end = start + count
        groups = np.bincount(row_of, minlength=count)
        figures["groups"][start:end] = groups
        figures["non_green_groups"][start:end] = groups - (part == green).any(axis=1)
        # Float sums of integers below 2**53 are exact.
        figures["sum_squares"][start:end] = np.rint(np.bincount(row_of, sizes * sizes, count))
        figures["entropy"][start:end] = -np.bincount(row_of, p * np.log2(p), count) + 0.0
        largest = np.zeros(count, np.int64)
        np.maximum.at(largest, row_of, sizes)
        figures["largest"][start:end] = largest
    figures["expected_remaining"] = figures["sum_squares"] / n
    return figures
