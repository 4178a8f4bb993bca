"""Build a game's optimal decision tree (normal or hard mode) by exact search.

Reads `<game>.feedback.npy` (with its header, word lists and `<game>.game.json`); writes
`<game>.tree.msgpack` or, with --hard, `<game>.hard.tree.msgpack` (layout in lookup/tree.py),
plus a `_<file>.build.json` note with the wall-clock search time (kept out of the artifact so
that the artifact stays byte-identical across builds).

Root: the `opener_candidates` openers with the lowest lower bound 3N - k - 2[answer] (ties:
lower sum of squared group sizes, then list order) are screened by exact search, each against
the best total so far plus one (so ties are exact too). The game's configured root, if any, is
the default and is always screened first; otherwise the best screened opener is the root. The
tree below the root is optimal over every allowed guess within the guess limit (the search in
pipeline/search_tree.py is exact) unless the game sets a search width, and whether the root
itself is the best opener is proven only among the screened ones; the header says both.

Usage: wordpack-build tree artifacts/guessing/wordle-en.feedback.npy [--hard]
       -o artifacts/guessing/wordle-en.tree.msgpack
"""

import json
import time
from pathlib import Path

import msgpack
import numpy as np
from tqdm import tqdm

from lookup.errors import BadInput
from lookup.feedback import code_count, load_feedback
from lookup.formats import TREE_FORMAT, TREE_VERSION, sha256_file
from lookup.guessing import load_descriptor
from lookup.splits import split_figures, tree_lower_bound
from pipeline.atomic import atomic_output
from pipeline.build_feedback import encode_words
from pipeline.provenance import record
from pipeline.search_tree import INFINITE, Searcher


def opener_order(codes: np.ndarray, length: int) -> list[int]:
    """Guess indices by lower bound, then sum of squared group sizes, then list order."""
    figures = split_figures(codes, code_count(length))
    is_answer = np.arange(codes.shape[0]) < codes.shape[1]  # answers lead the guess list
    bound = tree_lower_bound(codes.shape[1], figures["non_green_groups"], is_answer)
    order = np.lexsort((np.arange(codes.shape[0]), figures["sum_squares"], bound))
    return [int(g) for g in order]


def histogram_of(searcher: Searcher, node: list) -> list[int]:
    """Answers solved at guess 1, 2, ... when every answer is played through the tree."""
    green = searcher.ncodes - 1
    histogram: list[int] = []
    stack = [(node, searcher.answers, 1)]
    while stack:
        current, S, depth = stack.pop()
        children = dict(zip(current[1], current[2]))
        for code, group in searcher.split(S, current[0]):
            if code == green:
                histogram += [0] * (depth - len(histogram))
                histogram[depth - 1] += 1
            else:
                stack.append((children[code], group, depth + 1))
    return histogram


def _screen(searcher: Searcher, candidates: list[int], label: str, progress: bool):
    """[(opener, total, exact)] in candidate order; each against the best so far plus one."""
    screened = []
    best = int(INFINITE)
    for g in tqdm(candidates, desc=label, unit="opener", disable=not progress):
        total = searcher.cost(g, beta=best + 1 if best < INFINITE else INFINITE)
        exact = bool(total <= best or best == INFINITE)
        screened.append((g, int(total), exact))
        best = min(best, total)
    return screened


def search(npy_path, hard: bool, progress: bool = True):
    """Screen openers, pick the root and build the tree.

    Returns:
        (header without timing, root node, seconds spent searching).
    """
    npy_path = Path(npy_path)
    matrix = load_feedback(npy_path)
    game = load_descriptor(npy_path.with_name(npy_path.name.removesuffix(".feedback.npy")
                                              + ".game.json"))
    letters = encode_words(matrix.guesses, game["alphabet"])
    width = game["search_width"]
    started = time.perf_counter()
    candidates = opener_order(matrix.codes, matrix.length)[:game["opener_candidates"]]
    configured = game["root"]
    if configured is not None:
        root_index = matrix.guess_index[configured]
        candidates = [root_index] + [g for g in candidates if g != root_index]
    # If no tree fits the game's guess limit (hard mode over a big lexicon), allow one more
    # guess at a time; the header records the limit that was used.
    for depth_limit in range(game["max_guesses"], 2 * game["max_guesses"] + 1):
        searcher = Searcher(np.asarray(matrix.codes), letters, len(game["alphabet"]), hard,
                            depth_limit, width)
        screened = _screen(searcher, candidates, f"{game['id']} openers", progress)
        if configured is not None:
            root_index, root_total = screened[0][0], screened[0][1]
            root_choice = "configured"
        else:
            root_index, root_total, _ = min(screened,
                                            key=lambda row: (row[1], candidates.index(row[0])))
            root_choice = f"best of {len(screened)} screened openers"
        if root_total < INFINITE:
            break
    else:
        raise BadInput(f"{game['id']}: no tree solves every answer in "
                       f"{2 * game['max_guesses']} guesses")
    root = searcher.tree(root_index)
    seconds = time.perf_counter() - started
    histogram = histogram_of(searcher, root)
    total = sum(depth * count for depth, count in enumerate(histogram, 1))
    if total != root_total:
        raise AssertionError(f"tree walk total {total} != search total {root_total}")
    screened.sort(key=lambda row: (row[1], candidates.index(row[0])))
    header = {
        "format": TREE_FORMAT,
        "version": TREE_VERSION,
        "game": game["id"],
        "hard": hard,
        "max_guesses": game["max_guesses"],
        "root": matrix.guesses[root_index],
        "answers_sha256": sha256_file(npy_path.parent / game["answers"]["file"]),
        "guesses_sha256": sha256_file(npy_path.parent / game["guesses"]["file"]),
        "total": total,
        "max": len(histogram),
        "histogram": histogram,
        "proven_optimal": width == 0,
        "optimal_over": (f"every tree opening with {matrix.guesses[root_index]!r} over "
                         + (f"all {len(matrix.guesses)} allowed guesses" if width == 0 else
                            f"the {width} best-bounded allowed guesses at each node")
                         + (" obeying hard mode" if hard else "")
                         + f", at most {depth_limit} guesses per answer"),
        "search_width": width,
        "depth_limit": depth_limit,
        "root_choice": root_choice,
        # [opener, total, exact]: exact False means `total` is only a lower bound (it lost).
        "screened": [[matrix.guesses[g], t, e] for g, t, e in screened],
        "nodes_visited": searcher.nodes_visited,
        "guesses_evaluated": searcher.guesses_evaluated,
    }
    return header, root, seconds


def build_tree(npy_path, output, hard: bool = False, progress: bool = True) -> dict:
    """Search and write the tree file; returns its header."""
    header, root, seconds = search(npy_path, hard, progress)
    output = Path(output)
    with atomic_output(output, "wb") as handle:
        handle.write(msgpack.packb([header, root], use_bin_type=True))
    inputs = [Path(npy_path)]
    record(output, format=TREE_FORMAT, version=TREE_VERSION, inputs=inputs)
    note = output.with_name(f"_{output.name}.build.json")
    with atomic_output(note, "w") as handle:
        json.dump({"search_seconds": round(seconds, 3), "nodes_visited": header["nodes_visited"],
                   "total": header["total"]}, handle, indent=1, sort_keys=True)
        handle.write("\n")
    return header
