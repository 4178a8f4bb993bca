"""Opener-proof benchmarks (pipeline/prove_openers.py) on the built guessing games.

Rows: the CPU-hours and wall hours of every committed proof (from its recipe in
sources/proofs/); the speed-up of the Dask stage from 1 to 2 local workers on the same chunks
of wordle-de openers; for each game and mode of ESTIMATE_GAMES without a committed proof, the
estimated CPU-hours of a full proof: the openers that survive the bound screen against the
built tree's total times the mean CPU time of a random sample of them. Openers near the best
take far longer than a random one, so this is a low estimate (the 160 best-bounded wordle-en
hard openers alone took 561 CPU s). And for each unfinished run in the checkpoint directory or
committed in sources/proofs/unfinished/ (`make prove-<id>` stopped before the end), the CPU
spent so far and the rest at the same rate (its finished chunks are the best-bounded openers,
which hold the near-best ones, the costliest: a high estimate, but not a firm bound either), or
for a run stopped in its plan, the CPU its screening (screen.jsonl) spent so far.
"""

import json
import logging
import os
import sys
import time
from functools import partial
from pathlib import Path

import msgpack
import numpy as np
import pyarrow.parquet as pq

import common
from lookup.guessing.equations import SYMBOLS, read_equation_list
from lookup.guessing.feedback import code_count
from lookup.guessing.splits import opener_lower_bounds, split_figures
from pipeline.build_feedback import encode_words, feedback_matrix
from pipeline.build_tree import GameSearch
from pipeline.prove_openers import Checkpoints, prove_chunk
from pipeline.search_tree import INFINITE, Searcher

REPO = Path(__file__).resolve().parents[1]
GUESSING = Path(os.environ.get("WORDPACK_ARTIFACTS", REPO / "artifacts")) / "guessing"
# The speed-up runs random openers of a committed proof against its normal-mode beta: wordle-de's
# take about a second each (wordle-en's, a hundredth since the bitset scan: too little work).
SPEEDUP_GAME = "wordle-de"
SPEEDUP_OPENERS = 24  # 6 chunks of 4
SAMPLE = 6  # openers timed per game and mode for the estimate, at most...
ESTIMATE_SECONDS = 60  # ...until this much CPU is spent (one exact search of a big game's
# opener can take minutes: a cap keeps `make bench` to minutes per game)
# The best opener known with every true equation allowed as a guess (docs/GAMES.md).
ALL_EQUATIONS_OPENER = "54-36=18"
# Games to estimate (PROOF_ESTIMATE_GAMES, comma-separated ids; default all), of those
# without a full proof.
ESTIMATE_GAMES = [game for game in os.environ.get("PROOF_ESTIMATE_GAMES", "").split(",") if game]
# Where `make prove-<id>` keeps its checkpoints (the Makefile's PROOF_CHECKPOINTS), and the
# committed checkpoints of runs stopped before the end.
CHECKPOINT_DIRS = [Path(os.environ.get("PROOF_CHECKPOINTS", GUESSING.parent / "_proofs")),
                   REPO / "sources" / "proofs" / "unfinished"]


row = partial(common.row, "proofs")


def committed_recipes() -> list[dict]:
    """The recipe of every committed proof (sources/proofs/<game>.proof.json), by game."""
    return [json.loads(path.read_text())
            for path in sorted((REPO / "sources" / "proofs").glob("*.proof.json"))]


def committed_modes() -> set[tuple[str, str]]:
    """(game, mode) of every committed proof."""
    return {(recipe["game"], mode) for recipe in committed_recipes() for mode in recipe["modes"]}


def committed_rows() -> list[dict]:
    rows = []
    for recipe in committed_recipes():
        for mode, run in recipe["modes"].items():
            rows.append(row(f"{recipe['game']} {mode}: committed proof, CPU",
                            run["cpu_seconds"] / 3600, "CPU-hours",
                            note=f"{run['searched']} searched, {run['bound_screened']} by "
                                 f"bound; wall {run['wall_seconds'] / 3600:.3g} h on "
                                 f"{run['workers']} workers (plan and sessions run to the end)"))
    return rows


def speedup_rows() -> list[dict]:
    from distributed import Client, LocalCluster

    search = GameSearch(GUESSING / f"{SPEEDUP_GAME}.feedback.npy")
    recipe = json.loads((REPO / "sources" / "proofs" / f"{SPEEDUP_GAME}.proof.json").read_text())
    beta, depth = recipe["modes"]["normal"]["beta"], recipe["modes"]["normal"]["depth_limit"]
    rng = np.random.default_rng(2024)
    openers = [int(g) for g in rng.choice(len(search.matrix.guesses), SPEEDUP_OPENERS,
                                          replace=False)]
    chunks = [openers[i:i + 4] for i in range(0, len(openers), 4)]
    npy = str((GUESSING / f"{SPEEDUP_GAME}.feedback.npy").resolve())
    seconds = {}
    for workers in (1, 2):
        with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                          dashboard_address=None, silence_logs=logging.ERROR) as cluster, \
                Client(cluster) as client:
            # Warm-up: every worker loads the matrix and the compiled kernels first.
            client.gather(client.map(prove_chunk, [npy] * workers, [False] * workers,
                                     [depth] * workers, [beta] * workers,
                                     [[g] for g in openers[:workers]], pure=False))
            started = time.perf_counter()
            client.gather([client.submit(prove_chunk, npy, False, depth, beta, chunk, pure=False)
                           for chunk in chunks])
            seconds[workers] = time.perf_counter() - started
    return [row(f"{SPEEDUP_GAME}: {SPEEDUP_OPENERS} openers on 1 worker", seconds[1], "s",
                note=f"random openers in 6 chunks, normal mode against {beta}"),
            row(f"{SPEEDUP_GAME}: the same on 2 workers", seconds[2], "s",
                note=f"speed-up {seconds[1] / seconds[2]:.2f}x (2 cores; other load on the machine "
                "lowers it)")]


def estimate_rows() -> list[dict]:
    rows = []
    rng = np.random.default_rng(13)
    committed = committed_modes()  # a committed proof's rows give its real CPU time
    for npy in sorted(GUESSING.glob("*.feedback.npy")):
        game = npy.name.removesuffix(".feedback.npy")
        if ((game, "normal") in committed and (game, "hard") in committed
                or ESTIMATE_GAMES and game not in ESTIMATE_GAMES):
            continue
        search = GameSearch(npy, width=0)
        matrix = search.matrix
        figures = split_figures(matrix.codes, code_count(matrix.length))
        bounds = opener_lower_bounds(figures["non_green_groups"], len(matrix.answers))
        for mode, suffix in (("normal", "tree.msgpack"), ("hard", "hard.tree.msgpack")):
            if (game, mode) in committed:
                continue
            header, _ = msgpack.unpackb((GUESSING / f"{game}.{suffix}").read_bytes())
            beta = header["total"] + 1
            survivors = np.flatnonzero(bounds < beta)
            searcher = search.searcher(mode == "hard", header["depth_limit"])
            sample = rng.choice(survivors, size=min(SAMPLE, survivors.size), replace=False)
            cpu = []
            for g in sample:
                started = time.process_time()
                searcher.cost(int(g), beta)
                cpu.append(time.process_time() - started)
                if sum(cpu) >= ESTIMATE_SECONDS:
                    break
            mean = float(np.mean(cpu)) if cpu else 0.0
            print(f"proofs: {game} {mode}: {len(cpu)} openers, {sum(cpu):.0f} CPU s",
                  file=sys.stderr, flush=True)
            rows.append(row(f"{game} {mode}: full proof, estimated CPU",
                            mean * survivors.size / 3600, "CPU-hours",
                            note=f"{survivors.size} of {len(matrix.guesses)} openers survive the "
                            f"bound screen against {beta}; mean {mean:.3g} CPU s over "
                            f"{len(cpu)} random ones (a fresh search each)"))
    return rows


def unfinished_rows() -> list[dict]:
    rows = []
    committed = committed_modes()
    seen = set()
    for log_path in (p for d in CHECKPOINT_DIRS for p in sorted(d.glob("*/screen.jsonl"))):
        if (log_path.parent / "plan.json").is_file() or log_path.parent.name in seen:
            continue  # a finished plan: its rows below
        seen.add(log_path.parent.name)
        screened = Checkpoints(log_path.parent).screen_log()[1:]
        game, mode = log_path.parent.name.rsplit(".", 1)
        fits = [r["total"] for r in screened if r["total"] < INFINITE]
        rows.append(row(f"{game} {mode}: unfinished plan so far, CPU",
                        sum(r["cpu_seconds"] for r in screened) / 3600, "CPU-hours",
                        note=f"{len(screened)} candidate openers screened, at guess limits "
                        f"{sorted({r['depth_limit'] for r in screened})}; "
                        + (f"best {min(fits)}" if fits else "no tree fits yet")))
    for plan_path in (p for d in CHECKPOINT_DIRS for p in sorted(d.glob("*/plan.json"))):
        if plan_path.parent.name in seen:
            continue  # one run per game and mode: the working checkpoints, else the committed
        seen.add(plan_path.parent.name)
        checkpoints = Checkpoints(plan_path.parent)
        plan = json.loads(plan_path.read_text())
        chunks = plan["chunks"]
        done = [i for i in range(len(chunks)) if checkpoints.done(i)]
        if (plan["game"], plan["mode"]) in committed or len(done) == len(chunks):
            continue
        cpu = sum(sum(pq.read_table(checkpoints.chunk_path(i), columns=["cpu_seconds"])
                      .column("cpu_seconds").to_pylist()) for i in done)
        openers_done = sum(len(chunks[i]) for i in done)
        searched = sum(len(chunk) for chunk in chunks)
        rest = cpu / max(openers_done, 1) * (searched - openers_done)
        rows.append(row(f"{plan['game']} {plan['mode']}: unfinished proof so far, CPU",
                        (plan["plan_cpu_seconds"] + cpu) / 3600, "CPU-hours",
                        note=f"{openers_done} of {searched} searched openers done (best-bounded "
                        f"first), incumbent {plan['incumbent'][0]} {plan['incumbent'][1]}; "
                        f"the rest at that rate: {rest / 3600:.3g} CPU-hours more"))
    return rows


def all_equations_rows() -> list[dict]:
    """The open question: nerdle-classic with every true equation allowed as a guess.

    The matrix is built in memory only (too big to ship): 67,346 x 17,723 uint16, 2.4 GB, and
    the search keeps a transposed copy, so a worker needs about 5 GB.
    """
    _, answers = read_equation_list(GUESSING.parent / "sources" / "nerdle-classic-answers.txt")
    _, every = read_equation_list(GUESSING.parent / "sources" / "nerdle-classic-guesses.txt")
    known = set(answers)
    guesses = answers + [e for e in every if e not in known]  # answers first, as searches need
    started = time.perf_counter()
    matrix = feedback_matrix(guesses, answers, SYMBOLS)
    matrix_seconds = time.perf_counter() - started
    searcher = Searcher(matrix, encode_words(guesses, SYMBOLS), len(SYMBOLS), False, 6)
    started = time.process_time()
    best = searcher.cost(guesses.index(ALL_EQUATIONS_OPENER))
    best_cpu = time.process_time() - started
    figures = split_figures(matrix, code_count(len(answers[0])))
    survivors = np.flatnonzero(opener_lower_bounds(figures["non_green_groups"], len(answers))
                               < best + 1)
    rng = np.random.default_rng(5)
    sample = rng.choice(survivors, SAMPLE, replace=False)
    started = time.process_time()
    for g in sample:
        searcher.cost(int(g), best + 1)
    mean = (time.process_time() - started) / SAMPLE
    return [
        row(f"nerdle-classic, all {len(guesses)} equations as guesses: {ALL_EQUATIONS_OPENER} "
            "exact", best_cpu, "CPU s", note=f"total {best}; the {len(guesses)} x {len(answers)} "
            f"matrix built in {matrix_seconds:.1f} s, {matrix.nbytes / 1e9:.2f} GB"),
        row(f"nerdle-classic, all {len(guesses)} equations as guesses: full proof, estimated "
            "CPU", mean * survivors.size / 3600, "CPU-hours",
            note=f"{survivors.size} of {len(guesses)} openers survive the bound screen against "
            f"{best + 1}; mean {mean:.3g} CPU s over {SAMPLE} random ones (after "
            f"{ALL_EQUATIONS_OPENER}'s search filled the memo: low); each worker needs about "
            "5 GB"),
    ]


def run() -> list[dict]:
    return (committed_rows() + speedup_rows() + estimate_rows() + unfinished_rows()
            + all_equations_rows())
