"""Prove the best opener of a guessing game: every allowed opener's exact total, or a bound.

For one game and mode (normal, hard) every allowed guess gets a row of the opener-proof table
(format in docs/FORMATS.md, "Opener proof"):

- an incumbent comes first: the tree build's screening (pipeline/build_tree.py) of its candidate
  openers gives the best total found, `incumbent`; `beta = incumbent + margin + 1`;
- bound screen: an opener whose lower bound 3N - k - 2[answer] (lookup/guessing/splits.py) is
  at least `beta` is a `bound` row with that bound, no search needed;
- every other opener is searched exactly with budget `beta` (pipeline/search_tree.py): a total
  below `beta` is `exact`, else the row is `bound` with total `beta` (the search proved the
  total is at least `beta`; the value it stopped at depends on what the memo held, `beta` does
  not, so a rerun gives the same table).

So every opener within `margin` of the incumbent has its exact total, every `bound` row is
above `incumbent + margin`, and the least exact total is the best opener over all of them.
Every search here is exact, whatever search width the game sets for its tree build.

The plan's screening searches and then the searched openers run as Dask tasks, the latter in
chunks (bound order, then guess-list order), on a `distributed.LocalCluster` (one
single-threaded worker process per core) or on the scheduler given. Each finished chunk is
written to the checkpoint directory at once, and so is each opener the plan screens
(screen.jsonl); a rerun with the same directory skips both, so an interrupted run resumes, in
its plan too. Workers read the feedback matrix from the same path as the client: on a real
cluster every worker must see the files there.
"""

import datetime
import functools
import json
import os
import platform
import subprocess
import time
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
from tqdm import tqdm

from lookup.errors import BadInput, WordpackError
from lookup.formats import PROOF_FORMAT, PROOF_VERSION, sha256_file
from lookup.guessing.feedback import code_count
from lookup.guessing.game import load_descriptor
from lookup.guessing.splits import opener_lower_bounds, split_figures
from pipeline.atomic import atomic_output
from pipeline.build_tree import GameSearch, ScreenPool, histogram_of, opener_order
from pipeline.proof_table import SCHEMA, read_proof, recipe_path
from pipeline.provenance import record
from pipeline.sealed_parquet import read_sealed_parquet, sealed_parquet

MODES = ("normal", "hard")
# Openers per Dask task: small enough to balance two workers, large enough that a worker's memo
# (subtrees shared between openers) pays off.
DEFAULT_CHUNK = 32
# The plan's screening log in a checkpoint directory (Checkpoints.screened).
SCREEN_LOG = "screen.jsonl"
# A worker clears its search memo beyond this many entries (about 40 bytes each).
MEMO_LIMIT = 8_000_000

# Dask's comm timeouts (30 s by default) for the local cluster: a busy or niced machine can
# leave the scheduler's event loop unscheduled that long, and the client then drops the run.
COMM_TIMEOUT = "600s"


class RunInterrupted(WordpackError):
    """The Dask run stopped before every chunk was proven; finished chunks are kept."""


_CHUNK_SCHEMA = pa.schema([
    ("guess", pa.int32()), ("status", pa.string()), ("total", pa.int32()),
    ("max_depth", pa.int8()), ("seconds", pa.float64()), ("cpu_seconds", pa.float64()),
])


def code_version(repo: Path) -> str:
    """The git commit of `repo` ("+dirty" when tracked files differ from it), or "unknown"."""
    try:
        commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=repo, capture_output=True,
                                text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"],
                               cwd=repo, capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return commit + ("+dirty" if dirty.strip() else "")


def machine() -> dict:
    """Where a run happened: host, CPU, cores, Python."""
    return {"node": platform.node(), "machine": platform.machine(),
            "processor": _cpu_model(), "cores": os.cpu_count(),
            "python": platform.python_version()}


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor()


def make_plan(npy_path, mode: str, margin: int, chunk_size: int, progress: bool,
              checkpoints: "Checkpoints | None" = None, client=None) -> dict:
    """The incumbent, the budget, the bound rows and the chunks of openers to search.

    With `checkpoints`, each screened opener is logged there as it finishes, and a plan
    interrupted before the end takes the logged ones instead of searching them again (a
    hard-mode screening can take hours); the plan's times include theirs. With a Dask
    `client`, the screening runs on its workers, one opener per worker at a time; the plan is
    the same as without (GameSearch.screen).
    """
    started, cpu_started = time.perf_counter(), time.process_time()
    search = GameSearch(npy_path, width=0)  # a proof needs the exact search
    hard = mode == "hard"
    candidates = search.candidates(hard)
    logged = {} if checkpoints is None else checkpoints.screened(search.answers_sha256,
                                                                 search.guesses_sha256)
    last_logged, worker_cpu = [started], [0.0]

    def log(depth_limit, g, total, cpu_seconds):
        now = time.perf_counter()
        if client is not None:
            worker_cpu[0] += cpu_seconds
        if checkpoints is not None:
            checkpoints.log_screened(search.answers_sha256, search.guesses_sha256, {
                "depth_limit": depth_limit, "opener": g, "total": total,
                "seconds": round(now - last_logged[0], 3), "cpu_seconds": round(cpu_seconds, 3)})
        last_logged[0] = now

    pool = None if client is None else _DaskScreenPool(client, npy_path,
                                                       f"{search.game['id']}-{mode}")
    _, depth_limit, screened = search.screen(
        candidates, hard, progress, known={key: row["total"] for key, row in logged.items()},
        on_screened=log, pool=pool)
    incumbent_guess, incumbent = min(((g, t) for g, t, _ in screened),
                                     key=lambda row: (row[1], candidates.index(row[0])))
    beta = incumbent + margin + 1
    matrix = search.matrix
    figures = split_figures(matrix.codes, code_count(matrix.length))
    bounds = opener_lower_bounds(figures["non_green_groups"], len(matrix.answers))
    order = opener_order(matrix.codes, matrix.length, figures)
    searched = [g for g in order if bounds[g] < beta]
    return {
        "format": PROOF_FORMAT, "game": search.game["id"], "mode": mode,
        "answers_sha256": search.answers_sha256, "guesses_sha256": search.guesses_sha256,
        "depth_limit": depth_limit, "margin": margin,
        "incumbent": [matrix.guesses[incumbent_guess], incumbent], "beta": beta,
        "bound_rows": [[g, int(bounds[g])] for g in order if bounds[g] >= beta],
        "chunks": [searched[i:i + chunk_size] for i in range(0, len(searched), chunk_size)],
        "plan_seconds": round(time.perf_counter() - started
                              + sum(row["seconds"] for row in logged.values()), 3),
        "plan_cpu_seconds": round(time.process_time() - cpu_started + worker_cpu[0]
                                  + sum(row["cpu_seconds"] for row in logged.values()), 3),
    }


def screen_opener(npy_path: str, hard: bool, depth_limit: int, opener: int,
                  beta: int) -> tuple[int, float]:
    """One search of the plan's screening (a Dask task): (total, CPU seconds)."""
    searcher = _worker_searcher(npy_path, hard, depth_limit)
    cpu_started = time.process_time()
    total = _bounded_cost(searcher, opener, beta)
    return total, time.process_time() - cpu_started


class _DaskScreenPool(ScreenPool):
    """The plan's screening on a Dask client's workers, one search per worker."""

    def __init__(self, client, npy_path, label: str):
        self.client, self.label = client, label
        self.npy_path = str(Path(npy_path).resolve())
        self.slots = max(1, len(client.scheduler_info()["workers"]))

    def submit(self, hard, depth_limit, opener, beta):
        return self.client.submit(screen_opener, self.npy_path, hard, depth_limit, opener, beta,
                                  pure=False, key=f"screen-{self.label}-{depth_limit}-{opener}")

    def first_done(self, handles):
        from distributed import wait

        done = wait(handles, return_when="FIRST_COMPLETED").done
        return next(h for h in handles if h in done)

    def result(self, handle):
        return handle.result()


def _bounded_cost(searcher, opener: int, beta: int) -> int:
    """`searcher.cost(opener, beta)`, the memo (and the sets known to fit) cleared first once
    they outgrow MEMO_LIMIT so a worker's memory stays bounded over many openers.
    """
    if len(searcher.memo) + len(searcher.fitting) > MEMO_LIMIT:
        searcher.memo.clear()
        searcher.fitting.clear()
    return int(searcher.cost(opener, beta))


@functools.lru_cache(maxsize=2)
def _worker_searcher(npy_path: str, hard: bool, depth_limit: int):
    return GameSearch(npy_path, width=0).searcher(hard, depth_limit)


def prove_chunk(npy_path: str, hard: bool, depth_limit: int, beta: int,
                openers: list[int]) -> pa.Table:
    """Search each opener with budget `beta` (a Dask task); one chunk-table row per opener."""
    searcher = _worker_searcher(npy_path, hard, depth_limit)
    rows = {name: [] for name in _CHUNK_SCHEMA.names}
    for g in openers:
        started, cpu_started = time.perf_counter(), time.process_time()
        total = _bounded_cost(searcher, g, beta)
        if total < beta:
            histogram = histogram_of(searcher, searcher.tree(g))
            status, max_depth = "exact", len(histogram)
        else:
            status, total, max_depth = "bound", beta, None
        for name, value in zip(_CHUNK_SCHEMA.names, (
                g, status, total, max_depth, time.perf_counter() - started,
                time.process_time() - cpu_started)):
            rows[name].append(value)
    return pa.table(rows, schema=_CHUNK_SCHEMA)


class Checkpoints:
    """One mode's checkpoints: screen.jsonl, plan.json, chunk-<i>.parquet, sessions.jsonl."""

    def __init__(self, directory: Path):
        self.directory = Path(directory)

    def screen_log(self) -> list[dict]:
        """screen.jsonl's lines: the lists' sha256, then one row per screened opener; a last
        line torn by an interruption is left out (that opener is screened again).
        """
        path = self.directory / SCREEN_LOG
        if not path.is_file():
            return []
        text = path.read_text()
        rows = []
        for number, line in enumerate(text[:text.rfind("\n") + 1].splitlines(), 1):
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError:
                raise BadInput(f"{path}: line {number} is not JSON: delete the file to screen "
                               "again") from None
        return rows

    def screened(self, answers_sha256: str, guesses_sha256: str) -> dict:
        """The plan's screening logged so far: {(depth limit, opener): its log row}."""
        lines = self.screen_log()
        if lines and lines[0] != {"answers_sha256": answers_sha256,
                                  "guesses_sha256": guesses_sha256}:
            raise BadInput(f"{self.directory / SCREEN_LOG} holds a screening over other word "
                           "lists: delete it or use another --checkpoints directory")
        return {(row["depth_limit"], row["opener"]): row for row in lines[1:]}

    def log_screened(self, answers_sha256: str, guesses_sha256: str, row: dict) -> None:
        """Append one screened opener to screen.jsonl (its first line: the lists' sha256),
        after cutting a torn last line off.
        """
        path = self.directory / SCREEN_LOG
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "a+") as handle:
            handle.seek(0)
            text = handle.read()
            if not text.endswith("\n"):
                handle.truncate(text.rfind("\n") + 1)
            lines = [row] if text.count("\n") else [
                {"answers_sha256": answers_sha256, "guesses_sha256": guesses_sha256}, row]
            for line in lines:
                handle.write(json.dumps(line) + "\n")

    def plan(self, make) -> dict:
        """The stored plan, or make() stored (a resumed run keeps its first plan)."""
        path = self.directory / "plan.json"
        if path.is_file():
            return json.loads(path.read_text())
        plan = make()
        with atomic_output(path, "w") as handle:
            json.dump(plan, handle)
        return plan

    def chunk_path(self, index: int) -> Path:
        """The checkpoint file of chunk `index`."""
        return self.directory / f"chunk-{index:05d}.parquet"

    def done(self, index: int) -> bool:
        """Whether chunk `index` is checkpointed (written whole: atomic_output)."""
        return self.chunk_path(index).is_file()

    def save_chunk(self, index: int, table: pa.Table) -> None:
        """Checkpoint chunk `index` atomically."""
        with atomic_output(self.chunk_path(index), "wb") as handle:
            pq.write_table(table, handle)

    def chunks(self, count: int) -> pa.Table:
        """Chunks 0..count-1, concatenated in order."""
        return pa.concat_tables([pq.read_table(self.chunk_path(i)) for i in range(count)])

    def log_session(self, session: dict) -> None:
        """Append one run session (times, workers) to sessions.jsonl."""
        with open(self.directory / "sessions.jsonl", "a") as handle:
            handle.write(json.dumps(session) + "\n")

    def sessions(self) -> list[dict]:
        """Every session logged so far, oldest first."""
        path = self.directory / "sessions.jsonl"
        if not path.is_file():
            return []
        return [json.loads(line) for line in path.read_text().splitlines() if line]


def _client(workers: int, scheduler: str | None):
    import logging

    from distributed import Client, LocalCluster

    if scheduler:
        return Client(scheduler)
    cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                           dashboard_address=None, silence_logs=logging.ERROR)
    return Client(cluster)


def _comm_timeouts():
    """Dask settings in force while a run's cluster and client exist (COMM_TIMEOUT)."""
    import dask
    import distributed  # noqa: F401  (loads its defaults, which leaving the context keeps)

    return dask.config.set({"distributed.comm.timeouts.connect": COMM_TIMEOUT,
                            "distributed.comm.timeouts.tcp": COMM_TIMEOUT})


def run_mode(npy_path, mode: str, checkpoints: Checkpoints, client, margin: int,
             chunk_size: int, progress: bool) -> tuple[dict, pa.Table]:
    """Prove one mode, resuming from `checkpoints`; returns (plan, chunk rows of every chunk)."""
    from concurrent.futures import CancelledError

    from distributed import as_completed
    from distributed.comm.core import CommClosedError
    from distributed.scheduler import KilledWorker

    stops = (CancelledError, CommClosedError, KilledWorker)
    game = GameSearch(npy_path)
    try:
        plan = checkpoints.plan(lambda: make_plan(npy_path, mode, margin, chunk_size, progress,
                                                  checkpoints, client))
    except stops as error:
        raise RunInterrupted(
            f"{game.game['id']} {mode}: the Dask run stopped in its plan {_why(error)}; "
            f"{len(checkpoints.screen_log()[1:])} screened openers are logged in "
            f"{checkpoints.directory}: run the same command again to resume") from None
    if plan["margin"] != margin:
        raise BadInput(f"{checkpoints.directory} holds a run with margin {plan['margin']}, not "
                       f"{margin}: use another --checkpoints directory or --margin "
                       f"{plan['margin']}")
    if (plan["answers_sha256"], plan["guesses_sha256"]) != (game.answers_sha256,
                                                            game.guesses_sha256):
        raise BadInput(f"{checkpoints.directory} holds a run over other word lists: delete it "
                       "or use another --checkpoints directory")
    chunks = plan["chunks"]
    pending = [i for i in range(len(chunks)) if not checkpoints.done(i)]
    started, workers = time.perf_counter(), 0
    if pending:
        workers = len(client.scheduler_info()["workers"])
        futures = {client.submit(prove_chunk, str(Path(npy_path).resolve()), mode == "hard",
                                 plan["depth_limit"], plan["beta"], chunks[i], pure=False,
                                 key=f"proof-{plan['game']}-{mode}-{i}"): i for i in pending}
        total_openers = sum(len(c) for c in chunks)
        with tqdm(total=total_openers, initial=total_openers - sum(len(chunks[i])
                                                                   for i in pending),
                  desc=f"{plan['game']} {mode}", unit="opener", disable=not progress,
                  smoothing=0.05) as bar:
            try:
                for future in as_completed(futures):
                    index = futures[future]
                    checkpoints.save_chunk(index, future.result())
                    bar.update(len(chunks[index]))
            except stops as error:
                saved = sum(checkpoints.done(i) for i in range(len(chunks)))
                raise RunInterrupted(
                    f"{plan['game']} {mode}: the Dask run stopped {_why(error)}; {saved} of "
                    f"{len(chunks)} chunks are saved in {checkpoints.directory}: run the same "
                    "command again to resume") from None
            finally:
                # A stopped session (Ctrl-C, a lost scheduler) is logged too: the recipe's wall
                # time of a run resumed over several sessions sums them all.
                checkpoints.log_session({
                    "wall_seconds": round(time.perf_counter() - started, 3),
                    "chunks": sum(checkpoints.done(i) for i in pending), "workers": workers,
                    "finished": _now()})
    return plan, checkpoints.chunks(len(chunks)) if chunks else pa.table(
        {name: [] for name in _CHUNK_SCHEMA.names}, schema=_CHUNK_SCHEMA)


def _why(error: Exception) -> str:
    """'(ErrorType: first line of its message)' for a Dask run's stop."""
    reason = str(error).splitlines()[0] if str(error) else ""
    return f"({type(error).__name__}{': ' + reason if reason else ''})"


def _now() -> str:
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def mode_table(plan: dict, guesses: list[str], searched: pa.Table) -> pa.Table:
    """One mode's rows: best first (total, exact before bound, max depth, guess-list order)."""
    rows = [(g, "bound", total, None, 0.0) for g, total in plan["bound_rows"]]
    rows += zip(*(searched.column(name).to_pylist()
                  for name in ("guess", "status", "total", "max_depth", "seconds")))
    rows.sort(key=lambda row: (row[2], row[1] != "exact", row[3] or 0, row[0]))
    return pa.table({
        "opener": [guesses[row[0]] for row in rows], "mode": [plan["mode"]] * len(rows),
        "status": [row[1] for row in rows], "total": [row[2] for row in rows],
        "max_depth": [row[3] for row in rows], "seconds": [round(row[4], 4) for row in rows],
    }, schema=SCHEMA)


def _prove_modes(npy_path, modes, checkpoint_dir: Path, workers: int, scheduler, margin: int,
                 chunk_size: int, progress: bool, game: GameSearch) -> tuple[list, dict]:
    """(table per mode, recipe entry per mode) of every mode, on one Dask client."""
    client = _client(workers or os.cpu_count() or 1, scheduler)
    tables, recipe_modes = [], {}
    try:
        for mode in modes:
            checkpoints = Checkpoints(checkpoint_dir / f"{game.game['id']}.{mode}")
            plan, searched = run_mode(npy_path, mode, checkpoints, client, margin, chunk_size,
                                      progress)
            tables.append(mode_table(plan, game.matrix.guesses, searched))
            sessions = checkpoints.sessions()
            recipe_modes[mode] = {
                "depth_limit": plan["depth_limit"], "margin": margin,
                "incumbent": plan["incumbent"], "beta": plan["beta"],
                "bound_screened": len(plan["bound_rows"]), "searched": searched.num_rows,
                "wall_seconds": round(plan["plan_seconds"]
                                      + sum(s["wall_seconds"] for s in sessions), 1),
                "cpu_seconds": round(plan["plan_cpu_seconds"]
                                     + sum(searched.column("cpu_seconds").to_pylist()), 1),
                "workers": sorted({s["workers"] for s in sessions}),
            }
    finally:
        cluster = client.cluster  # the LocalCluster _client started, None with `scheduler`
        client.close()
        if cluster is not None:
            cluster.close()
    return tables, recipe_modes


def _kept_modes(output: Path, modes, margin: int, game: GameSearch) -> tuple[dict, dict, dict]:
    """(table, settings, recipe entry) per mode of an existing table at `output` that this run
    does not prove: a run adds modes to a table and keeps the others.

    Raises:
        BadInput: modes to keep that were proved over other word lists or with another margin.
    """
    if not output.is_file() or set(MODES) <= set(modes):
        return {}, {}, {}
    try:
        existing = list(json.loads(read_sealed_parquet(output, f"prove-{game.game['id']}")[1]
                                   .get("modes", "{}")))
    except (WordpackError, ValueError) as error:
        raise BadInput(f"{output}: not a readable opener-proof table ({error}); delete it or "
                       "prove every mode") from None
    kept = [mode for mode in MODES if mode in existing and mode not in modes]
    if not kept:
        return {}, {}, {}
    every = ",".join(sorted(set(existing) | set(modes), key=MODES.index))
    try:
        table, settings = read_proof(output, game.answers_sha256, game.guesses_sha256)
    except BadInput:
        raise BadInput(f"{output}: its {', '.join(kept)} rows were proved over other word "
                       f"lists; prove every mode again (--modes {every})") from None
    recipe = recipe_path(output)
    runs = json.loads(recipe.read_text()) if recipe.is_file() else {}
    tables, kept_settings, entries = {}, {}, {}
    for mode in kept:
        if settings[mode]["margin"] != margin:
            raise BadInput(f"{output}: its {mode} mode was proved with margin "
                           f"{settings[mode]['margin']}, not {margin}; add modes with "
                           f"--margin {settings[mode]['margin']} or prove every mode again "
                           f"(--modes {every})")
        tables[mode] = table.filter(pc.equal(table.column("mode"), mode))
        kept_settings[mode] = settings[mode]
        entry = dict(runs.get("modes", {}).get(mode, {}))
        for key in ("command", "code_version", "finished"):
            entry.setdefault(key, runs.get(key, "unknown"))
        entries[mode] = entry
    return tables, kept_settings, entries


def prove_openers(npy_path, output, modes=MODES, checkpoint_dir=None, workers: int = 0,
                  scheduler: str | None = None, margin: int = 0,
                  chunk_size: int = DEFAULT_CHUNK, progress: bool = True,
                  command: str = "") -> dict:
    """Prove the openers of a game in `modes`; write the table to `output` and its recipe.

    When `output` already holds a table of the game's word lists, its modes not in `modes`
    are kept, rows and recipe entries (so a long proof of one mode adds to a committed table).

    Args:
        npy_path: the game's `<id>.feedback.npy`.
        output: the `<id>.proof.parquet` to write; the recipe goes to `<id>.proof.json` beside.
        modes: "normal" and/or "hard".
        checkpoint_dir: where finished chunks go (a subdirectory per game and mode); default a
            `_proofs` directory beside `output`.
        workers: LocalCluster worker processes (0: one per core); ignored with `scheduler`.
        scheduler: address of a running Dask scheduler (a real cluster).
        margin: openers within `margin` of the incumbent get exact totals.
        chunk_size: openers per Dask task.
        command: the command line, for the recipe.

    Returns:
        The recipe.

    Raises:
        BadInput: bad modes or settings, or modes to keep that do not fit (_kept_modes).
    """
    npy_path, output = Path(npy_path), Path(output)
    unknown = [m for m in modes if m not in MODES]
    if unknown or not modes:
        raise BadInput(f"modes {', '.join(unknown) or '(none)'}: give normal and/or hard")
    modes = [mode for mode in MODES if mode in modes]  # each once, normal first
    if chunk_size < 1 or margin < 0:
        raise BadInput("--chunk-size must be at least 1 and --margin at least 0")
    version = code_version(Path(__file__).resolve().parents[1])  # the code that starts the run
    game = GameSearch(npy_path)
    tables, settings, recipe_modes = _kept_modes(output, modes, margin, game)
    checkpoint_dir = Path(checkpoint_dir or output.with_name("_proofs"))
    with _comm_timeouts():
        proved, proved_modes = _prove_modes(npy_path, modes, checkpoint_dir, workers, scheduler,
                                            margin, chunk_size, progress, game)
    finished = _now()
    for mode, mode_table_, run in zip(modes, proved, proved_modes.values(), strict=True):
        tables[mode] = mode_table_
        settings[mode] = {k: run[k] for k in ("depth_limit", "margin", "incumbent", "beta")}
        recipe_modes[mode] = {**run, "command": command, "code_version": version,
                              "finished": finished}
    order = [mode for mode in MODES if mode in tables]
    table = pa.concat_tables([tables[mode].replace_schema_metadata(None) for mode in order])
    metadata = {"format": PROOF_FORMAT, "version": str(PROOF_VERSION), "game": game.game["id"],
                "answers_sha256": game.answers_sha256, "guesses_sha256": game.guesses_sha256,
                "modes": json.dumps({mode: settings[mode] for mode in order})}
    table = table.replace_schema_metadata(metadata)
    with atomic_output(output, "wb") as handle:
        handle.write(sealed_parquet(table))
    recipe = {"format": f"{PROOF_FORMAT}-recipe", "game": game.game["id"], "command": command,
              "code_version": version,
              "machine": machine(), "finished": finished,
              "modes": {mode: recipe_modes[mode] for mode in order},
              "answers_sha256": game.answers_sha256, "guesses_sha256": game.guesses_sha256,
              "sha256": sha256_file(output)}
    with atomic_output(recipe_path(output), "w") as handle:
        json.dump(recipe, handle, indent=1, sort_keys=True)
        handle.write("\n")
    return recipe


def install_proof(committed, descriptor_path, output) -> None:
    """Copy a committed proof table into the artifacts after checking it fits the game's lists
    (`descriptor_path`: the game's `<id>.game.json`, its lists beside it).
    """
    descriptor_path = Path(descriptor_path)
    game = load_descriptor(descriptor_path)
    read_proof(committed, sha256_file(descriptor_path.parent / game["answers"]["file"]),
               sha256_file(descriptor_path.parent / game["guesses"]["file"]))
    output = Path(output)
    with atomic_output(output, "wb") as handle:
        handle.write(Path(committed).read_bytes())
    record(output, format=PROOF_FORMAT, version=PROOF_VERSION, inputs=[Path(committed),
                                                                        descriptor_path])
