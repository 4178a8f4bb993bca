"""Opener proofs: the Dask stage equals brute force on a fixture game, resumes after an
interruption, feeds the tree build; the committed real tables re-solve exactly (full)."""

import json
import re
import shutil
import subprocess

import msgpack
import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from conftest import FIXTURES, REPO, full_artifact
from lookup.errors import BadInput
from lookup.formats import sha256_file
from lookup.headers import sealed_json
from pipeline.build_game import load_config
from pipeline.build_tree import GameSearch, ScreenPool, search
from pipeline.proof_table import compare_proofs, proven_opener, read_proof, recipe_path
from pipeline.prove_openers import Checkpoints, RunInterrupted, make_plan, prove_openers
from pipeline.sealed_parquet import sealed_parquet
from pipeline.search_tree import INFINITE
from test_tree import brute_force

GAMES = FIXTURES / "guessing"
MAKE_VARS = [f"GUESSING_CONFIG={GAMES / 'guessing.toml'}"]


def run_make(artifacts, sources, *targets, check=True):
    return subprocess.run(["make", "-C", str(REPO), f"ARTIFACTS={artifacts}",
                           f"SOURCES={sources}", *MAKE_VARS, *targets],
                          capture_output=True, text=True, check=check)


@pytest.fixture(scope="module")
def scheduler():
    """One single-worker local cluster for the module (the stage's --scheduler path)."""
    import logging

    from distributed import LocalCluster

    with LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                      dashboard_address=None, silence_logs=logging.ERROR) as cluster:
        yield cluster.scheduler_address


@pytest.fixture(scope="module")
def tiny_en(tmp_path_factory):
    """The built tiny-en matrix and descriptor (no trees)."""
    artifacts = tmp_path_factory.mktemp("artifacts")
    run_make(artifacts, GAMES, "tiny-en")
    return artifacts / "guessing" / "tiny-en.feedback.npy"


@pytest.fixture(scope="module")
def brute(tiny_en):
    """Every opener's optimal total by plain recursion, per mode."""
    search = GameSearch(tiny_en)
    answers, guesses = search.matrix.answers, search.matrix.guesses
    return {mode: {g: brute_force(answers, guesses, g, 6, mode == "hard") for g in guesses}
            for mode in ("normal", "hard")}


def prove(tiny_en, scheduler, tmp_path, **options):
    output = tmp_path / "tiny-en.proof.parquet"
    prove_openers(tiny_en, output, checkpoint_dir=tmp_path / "checkpoints",
                  scheduler=scheduler, progress=False, **options)
    return output


def rows_of(path):
    return pq.read_table(path).to_pylist()


def test_every_opener_exact_equals_brute_force(tiny_en, scheduler, brute, tmp_path):
    # A margin above every total makes every row exact: the whole table is brute force.
    rows = rows_of(prove(tiny_en, scheduler, tmp_path, margin=1000, chunk_size=5))
    assert len(rows) == 2 * 29
    for row in rows:
        assert row["status"] == "exact"
        assert row["total"] == brute[row["mode"]][row["opener"]], row
    assert [row["total"] for row in rows if row["mode"] == "normal"][:3] == [31, 32, 32]


def test_bounds_are_above_the_best_and_below_the_exact_totals(tiny_en, scheduler, brute,
                                                              tmp_path):
    rows = rows_of(prove(tiny_en, scheduler, tmp_path, chunk_size=5))
    for mode in ("normal", "hard"):
        best = min(brute[mode].values())
        mode_rows = [row for row in rows if row["mode"] == mode]
        assert {row["opener"] for row in mode_rows} == set(brute[mode])
        for row in mode_rows:
            exact = brute[mode][row["opener"]]
            if row["status"] == "exact":
                assert row["total"] == exact == best, row
            else:
                assert best < row["total"] <= exact, row
                assert row["max_depth"] is None
        assert mode_rows[0]["total"] == best and mode_rows[0]["status"] == "exact"


def test_interrupted_run_resumes_to_the_same_table(tiny_en, scheduler, tmp_path):
    first = prove(tiny_en, scheduler, tmp_path / "a", margin=3, chunk_size=4)
    checkpoints = tmp_path / "a" / "checkpoints" / "tiny-en.normal"
    chunks = sorted(checkpoints.glob("chunk-*.parquet"))
    assert len(chunks) == 3  # the 10 openers bounded below beta = 31 + 3 + 1, 4 per chunk
    kept = chunks[0].stat().st_mtime_ns
    # As if the run had stopped after its first chunk: later chunks and the output never written.
    for chunk in chunks[1:]:
        chunk.unlink()
    shutil.rmtree(checkpoints.parent / "tiny-en.hard")
    again = tmp_path / "b.proof.parquet"
    prove_openers(tiny_en, again, checkpoint_dir=tmp_path / "a" / "checkpoints",
                  scheduler=scheduler, progress=False, margin=3, chunk_size=4)
    assert chunks[0].stat().st_mtime_ns == kept
    assert compare_proofs(first, again) == []
    assert len(json.loads(recipe_path(again).read_text())["modes"]["normal"]["workers"]) == 1


def test_an_interrupted_plan_resumes_from_its_screening_log(tiny_en, tmp_path):
    checkpoints = Checkpoints(tmp_path / "tiny-en.hard")
    whole = make_plan(tiny_en, "hard", 0, 4, False, checkpoints)
    log = checkpoints.directory / "screen.jsonl"
    lines = log.read_text().splitlines()
    search = GameSearch(tiny_en, width=0)
    assert json.loads(lines[0]) == {"answers_sha256": search.answers_sha256,
                                    "guesses_sha256": search.guesses_sha256}
    screened = [json.loads(line) for line in lines[1:]]
    assert [row["opener"] for row in screened] == search.candidates()
    assert {row["depth_limit"] for row in screened} == {whole["depth_limit"]}
    # As if stopped while it searched the third opener, halfway through writing the second.
    log.write_text("\n".join(lines[:2]) + "\n" + lines[2][:9])
    resumed = make_plan(tiny_en, "hard", 0, 4, False, Checkpoints(checkpoints.directory))
    untimed = ("plan_seconds", "plan_cpu_seconds")
    assert {k: v for k, v in resumed.items() if k not in untimed} == \
        {k: v for k, v in whole.items() if k not in untimed}
    again = [json.loads(line) for line in log.read_text().splitlines()[1:]]
    assert [row["opener"] for row in again] == [row["opener"] for row in screened]
    assert [row["total"] for row in again if row["total"] < INFINITE] == \
        [row["total"] for row in screened if row["total"] < INFINITE]
    assert resumed["plan_cpu_seconds"] >= screened[0]["cpu_seconds"]
    log.write_text(lines[0].replace(search.answers_sha256, "0" * 64) + "\n")
    with pytest.raises(BadInput, match=r"screen.jsonl holds a screening over other word lists: "
                                       "delete it or use another --checkpoints directory"):
        make_plan(tiny_en, "hard", 0, 4, False, checkpoints)


class LastInFirstOut(ScreenPool):
    """Runs `slots` screening searches at once, here, finishing the latest submitted first:
    budgets then come from fewer finished openers than one at a time would give them."""

    def __init__(self, game_search, hard, slots):
        self.game_search, self.hard, self.slots = game_search, hard, slots
        self.submitted, self.running, self.most_running = [], set(), 0

    def submit(self, hard, depth_limit, opener, beta):
        self.submitted.append((depth_limit, opener, beta))
        self.running.add(len(self.submitted) - 1)
        self.most_running = max(self.most_running, len(self.running))
        return len(self.submitted) - 1

    def first_done(self, handles):
        return max(handles)

    def result(self, handle):
        self.running.remove(handle)
        depth_limit, opener, beta = self.submitted[handle]
        return self.game_search.searcher(self.hard, depth_limit).cost(opener, beta), 0.0


@pytest.mark.parametrize("hard", [False, True])
def test_screening_several_openers_at_once_finds_the_same_winner(tiny_en, hard):
    game_search = GameSearch(tiny_en, width=0)
    candidates = game_search.candidates() + list(range(6))
    _, depth_limit, one_at_a_time = game_search.screen(candidates, hard, False)
    pool = LastInFirstOut(game_search, hard, slots=3)
    _, parallel_depth, parallel = game_search.screen(candidates, hard, False, pool=pool)
    assert pool.most_running == 3
    assert parallel_depth == depth_limit
    assert [g for g, _, _ in parallel] == candidates
    # Every opener that tied or beat the ones before it is exact either way, with one total.
    exact = [(g, t) for g, t, e in one_at_a_time if e]
    assert [(g, t) for g, t, e in parallel if e] == exact
    assert min(t for _, t, _ in parallel) == min(t for _, t, _ in one_at_a_time)
    first_budgets = [beta for _, _, beta in pool.submitted[:3]]
    assert first_budgets == [INFINITE] * 3  # no opener finished yet when these started


def test_a_plan_screened_on_the_cluster_equals_one_screened_here(tiny_en, scheduler, tmp_path):
    from distributed import Client

    here = make_plan(tiny_en, "hard", 0, 4, False)
    with Client(scheduler) as client:
        checkpoints = Checkpoints(tmp_path / "tiny-en.hard")
        on_cluster = make_plan(tiny_en, "hard", 0, 4, False, checkpoints, client)
    untimed = ("plan_seconds", "plan_cpu_seconds")
    assert {k: v for k, v in on_cluster.items() if k not in untimed} == \
        {k: v for k, v in here.items() if k not in untimed}
    screened = checkpoints.screen_log()[1:]
    assert [row["opener"] for row in screened] == GameSearch(tiny_en).candidates()
    # The workers' CPU counts, though the client here spent next to none on the searches.
    assert on_cluster["plan_cpu_seconds"] >= sum(row["cpu_seconds"] for row in screened)


def test_a_lost_scheduler_stops_the_run_with_one_line(tiny_en, scheduler, tmp_path,
                                                      monkeypatch):
    import distributed
    from distributed.client import FutureCancelledError

    def lost(futures):
        raise FutureCancelledError("proof-tiny-en-normal-0", "scheduler-connection-lost")

    monkeypatch.setattr(distributed, "as_completed", lost)
    with pytest.raises(RunInterrupted) as stopped:
        prove(tiny_en, scheduler, tmp_path, modes=("normal",), chunk_size=4)
    checkpoints = tmp_path / "checkpoints" / "tiny-en.normal"
    assert re.fullmatch(r"tiny-en normal: the Dask run stopped \(FutureCancelledError: .+\); 0 of "
                        rf"\d+ chunks are saved in {re.escape(str(checkpoints))}: run the same "
                        "command again to resume", str(stopped.value))
    # The stopped session is logged: a resumed run's recipe counts its wall time.
    assert [(s["chunks"], s["workers"]) for s in Checkpoints(checkpoints).sessions()] == [(0, 1)]


def test_a_scheduler_lost_in_the_plan_stops_the_run_with_one_line(tiny_en, scheduler,
                                                                   tmp_path, monkeypatch):
    import distributed
    from distributed.client import FutureCancelledError

    real_wait, waits = distributed.wait, []

    def lost_at_the_third(futures, **kwargs):
        waits.append(len(futures))
        if len(waits) == 3:
            raise FutureCancelledError("screen-tiny-en-normal", "scheduler-connection-lost")
        return real_wait(futures, **kwargs)

    monkeypatch.setattr(distributed, "wait", lost_at_the_third)
    with pytest.raises(RunInterrupted) as stopped:
        prove(tiny_en, scheduler, tmp_path, modes=("normal",), chunk_size=4)
    checkpoints = tmp_path / "checkpoints" / "tiny-en.normal"
    assert re.fullmatch(r"tiny-en normal: the Dask run stopped in its plan "
                        r"\(FutureCancelledError: .+\); 2 screened openers are logged in "
                        rf"{re.escape(str(checkpoints))}: run the same command again to resume",
                        str(stopped.value))
    assert not (checkpoints / "plan.json").exists()


def test_a_run_adds_its_modes_to_an_existing_table(tiny_en, scheduler, tmp_path):
    both = prove(tiny_en, scheduler, tmp_path / "both", margin=3)
    output = tmp_path / "one" / "tiny-en.proof.parquet"
    for mode in ("hard", "normal"):  # hard first: the table still lists normal first
        prove_openers(tiny_en, output, modes=(mode,), margin=3, scheduler=scheduler,
                      checkpoint_dir=tmp_path / "one" / mode, progress=False,
                      command=f"prove {mode}")
    assert compare_proofs(both, output) == []
    assert pq.read_schema(output).metadata[b"modes"] == pq.read_schema(both).metadata[b"modes"]
    recipe = json.loads(recipe_path(output).read_text())
    assert recipe["command"] == "prove normal"
    assert {mode: run["command"] for mode, run in recipe["modes"].items()} == \
        {"normal": "prove normal", "hard": "prove hard"}
    assert recipe["sha256"] == sha256_file(output)
    with pytest.raises(BadInput, match="its normal mode was proved with margin 3, not 0; add "
                                       "modes with --margin 3 or prove every mode again "
                                       r"\(--modes normal,hard\)"):
        prove_openers(tiny_en, output, modes=("hard",), margin=0, scheduler=scheduler,
                      checkpoint_dir=tmp_path / "one" / "again", progress=False)
    # Proving every mode again replaces the table whatever it held.
    prove_openers(tiny_en, output, margin=0, scheduler=scheduler,
                  checkpoint_dir=tmp_path / "one" / "all", progress=False)
    assert json.loads(pq.read_schema(output).metadata[b"modes"])["hard"]["margin"] == 0


def test_resume_with_other_settings_is_refused(tiny_en, scheduler, tmp_path):
    prove(tiny_en, scheduler, tmp_path, modes=("normal",), margin=0)
    with pytest.raises(BadInput, match="margin 0, not 2"):
        prove(tiny_en, scheduler, tmp_path, modes=("normal",), margin=2)


def test_proven_opener_needs_every_guess(tiny_en, scheduler, tmp_path):
    output = prove(tiny_en, scheduler, tmp_path, modes=("normal",))
    search = GameSearch(tiny_en)
    table, settings = read_proof(output, search.answers_sha256, search.guesses_sha256)
    assert settings["normal"]["depth_limit"] == 6
    best = proven_opener(table, "normal", search.matrix.guesses)
    assert table.column("opener")[0].as_py() == best
    assert proven_opener(table.slice(0, 28), "normal", search.matrix.guesses) is None
    assert proven_opener(table, "hard", search.matrix.guesses) is None
    with pytest.raises(BadInput, match="other word lists"):
        read_proof(output, search.answers_sha256, "0" * 64)


@pytest.fixture(scope="module")
def committed(tmp_path_factory):
    """A sources directory like the fixtures' with a committed tiny-en proof, built by make."""
    sources = tmp_path_factory.mktemp("sources")
    shutil.copytree(GAMES, sources, dirs_exist_ok=True)
    artifacts = tmp_path_factory.mktemp("artifacts")
    run_make(artifacts, sources, "PROOF_WORKERS=1", "prove-tiny-en")
    run_make(artifacts, sources, "tiny-en")
    return sources, artifacts


def test_make_uses_the_committed_table(committed):
    sources, artifacts = committed
    recipe = json.loads((sources / "proofs" / "tiny-en.proof.json").read_text())
    assert recipe["command"].startswith("python -m pipeline proofs ")
    assert set(recipe["modes"]) == {"normal", "hard"} and recipe["machine"]["cores"] >= 1
    installed = artifacts / "guessing" / "tiny-en.proof.parquet"
    assert installed.read_bytes() == (sources / "proofs" / "tiny-en.proof.parquet").read_bytes()
    rows = rows_of(installed)
    for suffix, mode in (("tree.msgpack", "normal"), ("hard.tree.msgpack", "hard")):
        header, _ = msgpack.unpackb((artifacts / "guessing" / f"tiny-en.{suffix}").read_bytes())
        best = next(row for row in rows if row["mode"] == mode)
        assert (header["root"], header["total"]) == (best["opener"], best["total"])
        assert header["opener_proven"] and header["root_choice"] == (
            "proven best of all 29 openers (tiny-en.proof.parquet)")


def test_a_proven_opener_gets_an_exact_tree_whatever_the_width(committed, tmp_path):
    # A width-limited game (as wordle-de) with a proof: the tree below the proven opener is
    # searched exactly, so its total is the proof's.
    _, artifacts = committed
    guessing = tmp_path / "guessing"
    shutil.copytree(artifacts / "guessing", guessing)
    descriptor = guessing / "tiny-en.game.json"
    game = json.loads(descriptor.read_text())
    descriptor.write_bytes(sealed_json({**game, "search_width": 1}))  # as a writer would seal it
    best = next(row for row in rows_of(guessing / "tiny-en.proof.parquet")
                if row["mode"] == "normal")
    header, _, _ = search(guessing / "tiny-en.feedback.npy", hard=False, progress=False)
    assert (header["root"], header["total"]) == (best["opener"], best["total"])
    assert header["search_width"] == 0 and header["proven_optimal"] and header["opener_proven"]


def test_a_proof_that_disagrees_with_the_tree_search_is_refused(committed, tmp_path):
    _, artifacts = committed
    guessing = tmp_path / "guessing"
    shutil.copytree(artifacts / "guessing", guessing)
    proof = guessing / "tiny-en.proof.parquet"
    table = pq.read_table(proof)
    totals = table.column("total").to_pylist()
    field = table.schema.field("total")
    lowered = pa.array([totals[0] - 1] + totals[1:], field.type)
    proof.write_bytes(sealed_parquet(table.set_column(table.schema.get_field_index("total"),
                                                      field, lowered)))
    with pytest.raises(BadInput, match=r"tiny-en.proof.parquet: normal opener '\w+' totals "
                                       r"\d+ there but \d+ in this search; rerun make "
                                       r"reprove-tiny-en"):
        search(guessing / "tiny-en.feedback.npy", hard=False, progress=False)


def test_reprove_checks_the_same_table_comes_out(committed, tmp_path):
    sources, artifacts = committed
    assert run_make(artifacts, sources, "PROOF_WORKERS=1", "reprove-tiny-en").returncode == 0
    table = pq.read_table(sources / "proofs" / "tiny-en.proof.parquet")
    totals = table.column("total").to_pylist()
    tampered = table.set_column(3, "total", [[totals[0] - 1] + totals[1:]])
    tampered_sources = tmp_path / "sources"
    shutil.copytree(sources, tampered_sources)
    (tampered_sources / "proofs" / "tiny-en.proof.parquet").write_bytes(sealed_parquet(tampered))
    result = run_make(artifacts, tampered_sources, "PROOF_WORKERS=1", "reprove-tiny-en",
                      check=False)
    assert result.returncode != 0
    assert "error: " in result.stderr and "differs from" in result.stderr
    assert "Traceback" not in result.stderr


def test_a_proof_only_game_is_proved_and_checked_but_not_shipped(tmp_path):
    # tiny-en-proof-only (proof_only = true): `make prove-<id>` builds its matrix in
    # _proof-only/ and proves it; the default build then checks the committed table against
    # the game's lists without building the matrix, and games.json leaves the game out.
    sources, artifacts = tmp_path / "sources", tmp_path / "artifacts"
    shutil.copytree(GAMES, sources)
    run_make(artifacts, sources, "PROOF_WORKERS=1", "PROOF_MODES=normal",
             "prove-tiny-en-proof-only")
    committed = sources / "proofs" / "tiny-en-proof-only.proof.parquet"
    rows = rows_of(committed)
    assert len(rows) == 29 and rows[0]["status"] == "exact"
    assert all(row["total"] > rows[0]["total"] for row in rows[1:])
    fresh = tmp_path / "fresh"
    run_make(fresh, sources, "guessing")
    assert "tiny-en-proof-only" not in json.loads(
        (fresh / "guessing" / "games.json").read_text())["games"]
    assert not list((fresh / "guessing").glob("tiny-en-proof-only*"))
    assert sorted(p.name for p in (fresh / "_proof-only").glob("tiny-en-proof-only*")) == [
        "tiny-en-proof-only.answers.txt", "tiny-en-proof-only.game.json",
        "tiny-en-proof-only.guesses.txt", "tiny-en-proof-only.proof.parquet"]
    assert (fresh / "_proof-only" / "tiny-en-proof-only.proof.parquet").read_bytes() == \
        committed.read_bytes()
    # A table proved over other lists is refused in one line.
    shutil.copy(sources / "proofs" / "tiny-en-proof-only.proof.parquet",
                sources / "proofs" / "tiny-de.proof.parquet")
    result = run_make(fresh, sources, "guessing", check=False)
    assert result.returncode != 0
    assert "tiny-de.proof.parquet: proved over other word lists" in result.stderr
    assert "Traceback" not in result.stderr


# --- the committed real tables (after `make`) --------------------------------------------------

COMMITTED = sorted(path.name.removesuffix(".proof.parquet")
                   for path in (REPO / "sources" / "proofs").glob("*.proof.parquet"))
PROOF_ONLY_GAMES = {game_id for game_id, config in load_config(REPO / "config" / "guessing.toml")
                    .items() if config.proof_only}


@pytest.mark.full
@pytest.mark.parametrize("game", COMMITTED)
def test_committed_table_re_solves_20_random_openers(game):
    directory = "_proof-only" if game in PROOF_ONLY_GAMES else "guessing"  # (make test-full
    # builds the proof-only matrices)
    search = GameSearch(full_artifact(f"{directory}/{game}.feedback.npy"), width=0)
    path = REPO / "sources" / "proofs" / f"{game}.proof.parquet"
    table, settings = read_proof(path, search.answers_sha256, search.guesses_sha256)
    rng = np.random.default_rng(13)
    for mode, options in settings.items():
        rows = [row for row in table.to_pylist() if row["mode"] == mode]
        assert len(rows) == len(search.matrix.guesses)
        assert proven_opener(table, mode, search.matrix.guesses) == rows[0]["opener"]
        searcher = search.searcher(mode == "hard", options["depth_limit"])
        for i in sorted(rng.choice(len(rows), size=min(20, len(rows)), replace=False)):
            row = rows[i]
            g = search.matrix.guess_index[row["opener"]]
            if row["status"] == "exact":
                assert searcher.cost(g) == row["total"], row
            else:  # the bound: no tree opening with it totals less
                assert searcher.cost(g, row["total"]) >= row["total"], row


@pytest.mark.full
def test_wordle_en_matches_selby():
    if "wordle-en" not in COMMITTED:
        pytest.skip("the wordle-en proof is not committed yet")
    rows = rows_of(REPO / "sources" / "proofs" / "wordle-en.proof.parquet")
    exact = {row["opener"]: row["total"] for row in rows
             if row["mode"] == "normal" and row["status"] == "exact"}
    assert {w: exact.get(w) for w in ("salet", "reast", "crate", "trace", "slate", "crane")} == {
        "salet": 7920, "reast": 7923, "crate": 7926, "trace": 7926, "slate": 7928, "crane": 7930}
    assert min(row["total"] for row in rows if row["mode"] == "normal") == 7920
