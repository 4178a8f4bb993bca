"""Build a game's optimal decision tree (normal or hard mode) by exact search.

Reads `<game>.feedback.npy` (with its header, word lists and `<game>.game.json`); writes
`<game>.tree.msgpack` or, with --hard, `<game>.hard.tree.msgpack` (layout in
lookup/guessing/tree.py), plus a `_<file>.build.json` note with the wall-clock search time (kept out
of the artifact so that the artifact stays byte-identical across builds).

Root: with an opener-proof table `<game>.proof.parquet` beside the matrix that covers every
allowed guess in this mode (pipeline/prove_openers.py), its proven best opener, whose tree is
then searched exactly even if the game sets a search width (the proof's totals are exact, and
the tree's must match them). Otherwise the
`opener_candidates` openers with the lowest lower bound 3N - k - 2[answer] (ties: lower sum of
squared group sizes, then list order) are screened by exact search, each against the best total
so far plus one (so ties are exact too). The game's configured root, if any, is the default and
is always screened first; otherwise the best screened opener is the root. The tree below the
root is optimal over every allowed guess within the guess limit (the search in
pipeline/search_tree.py is exact) unless the game sets a search width; the root is proven the
best opener over all allowed guesses only with a proof table or when every guess was screened
(header `opener_proven`), else only among the screened ones.

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
from lookup.formats import TREE_FORMAT, TREE_VERSION, sha256_file
from lookup.guessing.feedback import code_count, load_feedback
from lookup.guessing.game import load_descriptor
from lookup.guessing.splits import opener_lower_bounds, split_figures
from lookup.headers import SEAL_FIELD, SEAL_ZEROS, sealed
from pipeline.atomic import atomic_output
from pipeline.build_feedback import encode_words
from pipeline.proof_table import proven_opener, read_proof
from pipeline.provenance import record
from pipeline.search_tree import INFINITE, Searcher


def opener_order(codes: np.ndarray, length: int, figures: dict | None = None) -> list[int]:
    """Guess indices by lower bound, then sum of squared group sizes, then list order.

    `figures` are lookup.guessing.splits.split_figures of `codes` when the caller has them already.
    """
    if figures is None:
        figures = split_figures(codes, code_count(length))
    bound = opener_lower_bounds(figures["non_green_groups"], codes.shape[1])
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


class GameSearch:
    """A built game ready to search: its matrix, descriptor, letters and list checksums.

    `width` overrides the game's search width (0: exact search, as proofs need).
    """

    def __init__(self, npy_path, width: int | None = None):
        npy_path = Path(npy_path)
        self.matrix = load_feedback(npy_path)
        self.game = load_descriptor(npy_path.with_name(
            npy_path.name.removesuffix(".feedback.npy") + ".game.json"))
        self.letters = encode_words(self.matrix.guesses, self.game["alphabet"])
        self.answers_sha256 = sha256_file(npy_path.parent / self.game["answers"]["file"])
        self.guesses_sha256 = sha256_file(npy_path.parent / self.game["guesses"]["file"])
        self.width = self.game["search_width"] if width is None else width

    def searcher(self, hard: bool, depth_limit: int) -> Searcher:
        """A fresh exact (or width-limited: `width`) search state."""
        return Searcher(np.asarray(self.matrix.codes), self.letters, len(self.game["alphabet"]),
                        hard, depth_limit, self.width)

    def candidates(self, hard: bool = False) -> list[int]:
        """The configured root (if any) first, in hard mode then the configured
        `hard_candidates`, then the best-bounded `opener_candidates`.

        Hard mode needs its own: a trap (a few words alike but for one letter, which hard mode
        makes you guess one by one) can rule the best-bounded openers out of the guess limit
        that another opener fits.
        """
        order = opener_order(self.matrix.codes, self.matrix.length)
        first = [] if self.game["root"] is None else [self.game["root"]]
        if hard:
            first += self.game.get("hard_candidates", [])
        first = list(dict.fromkeys(self.matrix.guess_index[w] for w in first))
        return first + [g for g in order[:self.game["opener_candidates"]] if g not in first]

    def screen(self, candidates: list[int], hard: bool, progress: bool, first_depth: int = 0,
               known: dict | None = None, on_screened=None, pool=None):
        """Screen `candidates` exactly under the game's guess limit (or `first_depth`), one
        more guess at a time until some tree fits.

        `known` maps (depth limit, opener) to a total an earlier, interrupted screening of the
        same candidates found, which is taken instead of searching again; `on_screened(depth
        limit, opener, total, cpu seconds)` is called after each search. `pool` (a
        `ScreenPool`) runs up to `pool.slots` searches at once, elsewhere; without it they run
        here, one at a time.

        Each opener is searched against the best total known when it starts, plus one. Run
        one at a time, that is the best of the openers before it; run several at once, it can
        be a larger budget, never a smaller one, so an opener that ties or beats the best is
        still searched exactly, and the best total, the depth limit and the winner (ties: the
        earlier candidate) are the same however the searches were run or resumed. A total that
        is only a lower bound (its value depends on the memo) never becomes the best.

        Returns:
            (searcher here, or None with `pool`; depth limit used; [(opener, total, exact)] in
            candidate order), where `exact` False means `total` may be only a lower bound (it
            is above the best of the openers before it, so the opener lost).
        """
        limit = self.game["max_guesses"]
        known = known or {}
        for depth_limit in range(first_depth or limit, 2 * limit + 1):
            searcher = None if pool is not None else self.searcher(hard, depth_limit)
            runner = pool or _InProcess(searcher)
            totals = {g: known[(depth_limit, g)] for g in candidates
                      if (depth_limit, g) in known}
            best = min(totals.values(), default=int(INFINITE))
            waiting = [g for g in candidates if g not in totals]
            running = {}
            with tqdm(total=len(candidates), initial=len(totals),
                      desc=f"{self.game['id']} openers", unit="opener",
                      disable=not progress) as bar:
                while waiting or running:
                    while waiting and len(running) < runner.slots:
                        g = waiting.pop(0)
                        running[runner.submit(hard, depth_limit, g, best + 1 if best < INFINITE
                                              else int(INFINITE))] = g
                    handle = runner.first_done(list(running))
                    g = running.pop(handle)
                    total, cpu_seconds = runner.result(handle)
                    totals[g] = total = int(total)
                    best = min(best, total)
                    if on_screened is not None:
                        on_screened(depth_limit, g, total, cpu_seconds)
                    bar.update()
            screened, best = [], int(INFINITE)
            for g in candidates:
                screened.append((g, totals[g], bool(totals[g] <= best or best == INFINITE)))
                best = min(best, totals[g])
            if best < INFINITE:
                return searcher, depth_limit, screened
        raise BadInput(f"{self.game['id']}: no tree solves every answer in {2 * limit} guesses")


class ScreenPool:
    """Where `GameSearch.screen` runs its searches: `slots` at once.

    `submit(hard, depth limit, opener, beta)` starts one search and returns a handle;
    `first_done(handles)` waits for one of them to finish and returns it; `result(handle)` is
    its (total, CPU seconds).
    """

    slots = 1


class _InProcess(ScreenPool):
    """One search at a time in this process, on `searcher` (it keeps its memo between them)."""

    def __init__(self, searcher):
        self.searcher = searcher

    def submit(self, hard, depth_limit, opener, beta):
        cpu_started = time.process_time()
        return self.searcher.cost(opener, beta=beta), time.process_time() - cpu_started

    def first_done(self, handles):
        return handles[0]

    def result(self, handle):
        return handle


def proof_path(npy_path) -> Path:
    """The game's opener-proof table beside its matrix (the tree build uses it if present)."""
    npy_path = Path(npy_path)
    return npy_path.with_name(npy_path.name.removesuffix(".feedback.npy") + ".proof.parquet")


def search(npy_path, hard: bool, progress: bool = True):
    """Pick the root (the proven opener, else by screening) and build the tree.

    Args:
        npy_path: the game's feedback matrix.
        hard: hard mode.
        progress: show a progress bar.

    Returns:
        (header without timing, root node, seconds spent searching).
    """
    game_search = GameSearch(npy_path)
    matrix, game = game_search.matrix, game_search.game
    width = game["search_width"]
    mode = "hard" if hard else "normal"
    started = time.perf_counter()
    proven, first_depth = None, 0
    proof = proof_path(npy_path)
    if proof.is_file():
        table, settings = read_proof(proof, game_search.answers_sha256,
                                     game_search.guesses_sha256)
        proven = proven_opener(table, mode, matrix.guesses)
        if proven is not None:
            first_depth = settings[mode]["depth_limit"]
    if proven is not None:
        # The proof's totals are exact, so the proven opener's tree is searched exactly too,
        # whatever width the game sets for screening.
        width = game_search.width = 0
        candidates = [matrix.guess_index[proven]]
    else:
        candidates = game_search.candidates(hard)
    searcher, depth_limit, screened = game_search.screen(candidates, hard, progress,
                                                         first_depth)
    if proven is not None:
        root_index, root_total = screened[0][0], screened[0][1]
        proven_total = next(row["total"] for row in table.to_pylist()
                            if row["mode"] == mode and row["opener"] == proven)
        if root_total != proven_total:
            raise BadInput(f"{proof.name}: {mode} opener {proven!r} totals {proven_total} "
                           f"there but {root_total} in this search; rerun "
                           f"make reprove-{game['id']} to find which is wrong")
        root_choice = (f"proven best of all {len(matrix.guesses)} openers "
                       f"({proof.name})")
    elif game["root"] is not None:
        root_index, root_total = screened[0][0], screened[0][1]
        root_choice = "configured"
    else:
        root_index, root_total, _ = min(screened,
                                        key=lambda row: (row[1], candidates.index(row[0])))
        root_choice = f"best of {len(screened)} screened openers"
    # Screening every allowed guess proves the root best too, when it is the least total.
    opener_proven = width == 0 and (proven is not None or (
        len(screened) == len(matrix.guesses) and root_total == min(t for _, t, _ in screened)))
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
        "answers_sha256": game_search.answers_sha256,
        "guesses_sha256": game_search.guesses_sha256,
        "total": total,
        "max": len(histogram),
        "histogram": histogram,
        "proven_optimal": width == 0,
        "optimal_over": (f"every tree opening with {matrix.guesses[root_index]!r} over "
                         + (f"all {len(matrix.guesses)} allowed guesses" if width == 0 else
                            f"the {width} best-bounded allowed guesses at each node")
                         + (" obeying hard mode" if hard else "")
                         + f", at most {depth_limit} guesses per answer"),
        "opener_proven": opener_proven,
        "search_width": width,
        "depth_limit": depth_limit,
        "root_choice": root_choice,
        # [opener, total, exact]: exact False means `total` is only a lower bound (it lost).
        "screened": [[matrix.guesses[g], t, e] for g, t, e in screened],
        "nodes_visited": searcher.nodes_visited,
        "guesses_evaluated": searcher.guesses_evaluated,
        SEAL_FIELD: SEAL_ZEROS.decode(),
    }
    return header, root, seconds


def build_tree(npy_path, output, hard: bool = False, progress: bool = True) -> dict:
    """Search and write the tree file; returns its header."""
    header, root, seconds = search(npy_path, hard, progress)
    output = Path(output)
    with atomic_output(output, "wb") as handle:
        handle.write(sealed(msgpack.packb([header, root], use_bin_type=True), "msgpack"))
    proof = proof_path(npy_path)
    inputs = [Path(npy_path)] + ([proof] if proof.is_file() else [])
    record(output, format=TREE_FORMAT, version=TREE_VERSION, inputs=inputs)
    note = output.with_name(f"_{output.name}.build.json")
    with atomic_output(note, "w") as handle:
        json.dump({"search_seconds": round(seconds, 3), "nodes_visited": header["nodes_visited"],
                   "total": header["total"]}, handle, indent=1, sort_keys=True)
        handle.write("\n")
    return header
