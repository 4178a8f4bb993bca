"""Leave tables learned by iterated self-play (macondo's method), the games run on Dask.

One iteration: the equity bot (lookup/play/players.py EquityPlayer, player "equity") plays
itself with the previous iteration's table (the first iteration with every leave 0: the greedy bot
plus exchanges; or with an initial table, e.g. a table learned before by another player). Under
placement = "multi" (Erudit) the player may be "turn-equity" instead (TurnEquityPlayer: turns of
several words chosen by score + leave). Every play, turn or exchange made with tiles in the bag
logs the full rack it was made from and the move's equity. A leave's raw value is the mean
equity of the logged racks that contain it (each distinct sub-multiset of a rack counts once)
minus the mean equity of all logged moves. Thin leaves are smoothed toward a prior from their
one-tile-smaller neighbours: a leave L of n tiles seen c times gets (c * raw(L) + SMOOTHING *
prior(L)) / (c + SMOOTHING), where prior(L) is the mean over its tiles t of value(L - t) +
value(t) (0 for one tile; values of shorter leaves first). The next iteration plays with the
new table.

Games run in chunks of `chunk` games, one Dask task each, on a LocalCluster of `workers`
processes by default or on the scheduler at `scheduler`. Each finished chunk is saved to the
run directory (`iteration-<i>/chunk-<j>.npz`) and each finished iteration's table to
`iteration-<i>.leaves` (with its figures in `iteration-<i>.json`), so an interrupted run
resumes where it stopped. The seeds of the games depend only on (seed, iteration, game
number), so a run gives the same table however many workers play it. An iteration's `hours`
are those of the run that finished it (a resumed iteration counts only its last run). The run
directory keeps the options its games depend on (`run.json`: game, games, chunk, seed, player,
initial table's sha256): resuming with others is refused, so one table never mixes two recipes.
"""

import functools
import json
import os
import subprocess
import time
from pathlib import Path

import msgpack
import numpy as np

from lookup.crossword.leaves import LeaveValues, leave_keys, read_leaves
from lookup.crossword.rules import load_rules
from lookup.crossword.tiles import EMPTY_LEAVE, LEAVE_DIGIT
from lookup.errors import BadInput
from lookup.formats import LEAVES_FORMAT, LEAVES_SCALE, LEAVES_VERSION, sha256_file
from lookup.headers import SEAL_FIELD, SEAL_ZEROS, sealed
from pipeline.atomic import atomic_output

SMOOTHING = 50
# Seeds of iteration i: seed * SEED_STRIDE + i * ITERATION_STRIDE + game number.
SEED_STRIDE = 10**9
ITERATION_STRIDE = 10**7
# The self-play bots a table can be learned with (lookup/play/players.py); "turn-equity" only
# under placement = "multi".
PLAYERS = ("equity", "turn-equity")


@functools.lru_cache(maxsize=2)
def _worker_engine(game_id: str, artifacts: str, compiled: bool | None):
    """The game's engine in a worker process (loaded once per process)."""
    os.environ["WORDPACK_ARTIFACTS"] = artifacts
    from lookup.crossword.engine import move_engine
    from lookup.crossword.game import crossword_game

    return move_engine(crossword_game(game_id), compiled)


@functools.lru_cache(maxsize=2)
def _worker_model(game_id: str, artifacts: str, table: str | None):
    """The leave table a worker plays with (all zeros when `table` is None)."""
    os.environ["WORDPACK_ARTIFACTS"] = artifacts
    from lookup.crossword.game import crossword_game

    rules = crossword_game(game_id).rules
    if table is None:
        return LeaveValues(rules, np.zeros(len(leave_keys(rules.tiles.counts,
                                                          rules.rack_size - 1))))
    return read_leaves(table, rules)


def play_chunk(game_id: str, artifacts: str, table: str | None, first_seed: int,
               games: int, compiled: bool | None = None, player: str = "equity") -> dict:
    """Self-play `games` games from `first_seed` on; the racks and equities they log
    (`compiled`: the engine's path, lookup/crossword/engine.py move_engine; `player`: one of
    PLAYERS).

    Returns:
        {"racks": int64 rack keys, "equities": float32, "games", "turns", "points"}.
    """
    from lookup.play.game import play_game
    from lookup.play.players import EquityPlayer, TurnEquityPlayer

    engine = _worker_engine(game_id, artifacts, compiled)
    log: list = []
    bot = {"equity": EquityPlayer, "turn-equity": TurnEquityPlayer}[player]
    player = bot(_worker_model(game_id, artifacts, table), log)
    turns = points = 0
    for seed in range(first_seed, first_seed + games):
        result = play_game(engine, [player, player], seed)
        turns += result.turns
        points += sum(result.scores)
    return {"racks": np.array([k for k, _ in log], dtype=np.int64),
            "equities": np.array([e for _, e in log], dtype=np.float32),
            "games": games, "turns": turns, "points": points}


def rack_digits(racks: np.ndarray, rack_size: int) -> np.ndarray:
    """Tile codes of full-rack keys, one row per rack, ascending."""
    return np.stack([(racks >> (6 * (rack_size - 1 - p))) & (LEAVE_DIGIT - 1)
                     for p in range(rack_size)], axis=1)


def leave_statistics(racks, equities, keys, rack_size: int):
    """Per leave (keys order): the summed equity and the count of racks that contain it.

    Only full racks count (a rack logged with tiles in the bag is always full).
    """
    racks = np.asarray(racks, dtype=np.int64)
    equities = np.asarray(equities, dtype=np.float64)
    full = (racks >= LEAVE_DIGIT ** rack_size) & (racks < 2 * LEAVE_DIGIT ** rack_size)
    racks, equities = racks[full], equities[full]
    digits = rack_digits(racks, rack_size)
    sums = np.zeros(len(keys))
    counts = np.zeros(len(keys), dtype=np.int64)
    for mask in range(1, (1 << rack_size) - 1):
        positions = [p for p in range(rack_size) if mask >> p & 1]
        # A multiset is counted once: of equal tiles, only the first ones may be kept.
        canonical = np.ones(len(racks), dtype=bool)
        key = np.full(len(racks), EMPTY_LEAVE, dtype=np.int64)
        for p in positions:
            if p and not mask >> (p - 1) & 1:
                canonical &= digits[:, p] != digits[:, p - 1]
            key = key * LEAVE_DIGIT + digits[:, p]
        at = np.searchsorted(keys, key[canonical])
        sums += np.bincount(at, weights=equities[canonical], minlength=len(keys))
        counts += np.bincount(at, minlength=len(keys))
    return sums, counts


def smoothed_values(sums, counts, mean: float, keys, max_tiles: int,
                    smoothing: float = SMOOTHING) -> np.ndarray:
    """Leave values from their statistics (module docstring), shorter leaves first."""
    values = np.zeros(len(keys))
    seen = counts > 0
    raw = np.zeros(len(keys))
    raw[seen] = sums[seen] / counts[seen] - mean
    for n in range(1, max_tiles + 1):
        first, last = np.searchsorted(keys, [LEAVE_DIGIT ** n, 2 * LEAVE_DIGIT ** n])
        level = keys[first:last]
        prior = np.zeros(len(level))
        if n > 1:
            digits = rack_digits(level, n)
            for p in range(n):
                without = np.full(len(level), EMPTY_LEAVE, dtype=np.int64)
                for q in range(n):
                    if q != p:
                        without = without * LEAVE_DIGIT + digits[:, q]
                single = EMPTY_LEAVE * LEAVE_DIGIT + digits[:, p]
                prior += values[np.searchsorted(keys, without)] + \
                    values[np.searchsorted(keys, single)]
            prior /= n
        c = counts[first:last]
        values[first:last] = (c * raw[first:last] + smoothing * prior) / (c + smoothing)
    return values


def write_leaves(path, table: LeaveValues, recipe: dict) -> None:
    """Write a leave table (docs/FORMATS.md "Leave tables"); values are rounded to 1/256."""
    rules = table.rules
    scaled = np.rint(table.values * LEAVES_SCALE)
    limit = np.iinfo(np.int16).max
    if np.abs(scaled).max(initial=0) > limit:
        raise ValueError(f"a leave value beyond +-{limit / LEAVES_SCALE:.0f} points")
    header = {"format": LEAVES_FORMAT, "version": LEAVES_VERSION, "game": rules.id,
              "alphabet": rules.alphabet, "counts": rules.tiles.counts,
              "max_tiles": table.max_tiles, "leaves": len(table), "scale": LEAVES_SCALE,
              "recipe": recipe, SEAL_FIELD: SEAL_ZEROS.decode()}
    data = sealed(msgpack.packb([header, scaled.astype("<i2").tobytes()], use_bin_type=True),
                  "msgpack")
    with atomic_output(path) as out:
        out.write(data)


def code_version() -> str:
    """The git commit of the code (with "-dirty" when it has local changes), or "unknown"."""
    root = Path(__file__).resolve().parents[1]
    try:
        commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=root, capture_output=True,
                                text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--", "lookup", "pipeline"],
                               cwd=root, capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return commit + ("-dirty" if dirty.strip() else "")


def _client(scheduler: str | None, workers: int):
    from dask.distributed import Client, LocalCluster

    if scheduler:
        return Client(scheduler)
    return Client(LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                               dashboard_address=":0"))


def train(rules_path, artifacts, *, games: int, iterations: int, seed: int, run_dir,
          output, chunk: int = 100, workers: int = 2, scheduler: str | None = None,
          progress=None, compiled: bool | None = None, player: str = "equity",
          initial_table=None) -> dict:
    """Train a game's leave table and write it to `output`; returns the recipe.

    Args:
        rules_path: the game's rules artifact (artifacts/crossword/<id>.json).
        artifacts: the artifacts directory the workers read the game from.
        games: self-play games per iteration.
        iterations: how many times to play and re-learn.
        seed: seeds every game (module docstring).
        run_dir: checkpoints; an existing one is resumed.
        output: the leave table to write.
        chunk: games per Dask task.
        workers: processes of the local cluster (ignored with `scheduler`).
        scheduler: address of a running Dask scheduler, or None for a local cluster.
        progress: a callable(iteration, games done, games) after every chunk, or None.
        compiled: the workers' engine path (None: numba when installed).
        player: the self-play bot, one of PLAYERS.
        initial_table: the table the first iteration plays with, or None for all zeros.

    Raises:
        BadInput: an unknown player, "turn-equity" for a game of single-line plays, an
            initial table of another game, or a run directory started with other options.
    """
    from dask.distributed import as_completed

    rules = load_rules(rules_path)
    if player not in PLAYERS:
        raise BadInput(f"unknown player {player!r}: choose one of {', '.join(PLAYERS)}")
    if player == "turn-equity" and rules.placement != "multi":
        raise BadInput(f"player turn-equity lays turns of several words, which {rules.id} does "
                       "not allow (placement = \"line\"): use --player equity")
    initial = None
    if initial_table is not None:
        initial_table = Path(initial_table).resolve()
        read_leaves(initial_table, rules)  # of this game, sealed: checked before any game
        initial = {"path": str(initial_table), "sha256": sha256_file(initial_table)}
    run_dir = Path(run_dir)
    _check_run(run_dir, {"game": rules.id, "games_per_iteration": games, "chunk": chunk,
                         "seed": seed, "player": player,
                         "initial_table_sha256": initial and initial["sha256"]})
    artifacts = str(Path(artifacts).resolve())
    max_tiles = rules.rack_size - 1
    keys = leave_keys(rules.tiles.counts, max_tiles)
    history = []
    table = initial_table
    client = None
    try:
        for iteration in range(iterations):
            table_path = run_dir / f"iteration-{iteration}.leaves"
            chunk_dir = run_dir / f"iteration-{iteration}"
            chunk_dir.mkdir(parents=True, exist_ok=True)
            starts = list(range(0, games, chunk))
            done = {int(p.stem.split("-")[1]) for p in chunk_dir.glob("chunk-*.npz")}
            if not table_path.exists():
                iteration_started = time.time()
                todo = [s for s in starts if s not in done]
                finished = games - sum(min(chunk, games - s) for s in todo)
                if progress:
                    progress(iteration, finished, games)
                if todo:
                    client = client or _client(scheduler, workers)
                    base = seed * SEED_STRIDE + iteration * ITERATION_STRIDE
                    futures = {client.submit(play_chunk, rules.id, artifacts,
                                             str(table) if table else None, base + s,
                                             min(chunk, games - s), compiled, player,
                                             pure=False): s
                               for s in todo}
                    for future in as_completed(futures):
                        data = future.result()
                        start = futures[future]
                        with atomic_output(chunk_dir / f"chunk-{start:09d}.npz") as out:
                            np.savez(out, **data)
                        finished += data["games"]
                        if progress:
                            progress(iteration, finished, games)
                _learn(chunk_dir, keys, rules, max_tiles, table_path,
                       {"iteration": iteration, "games": games, "seed": seed,
                        "player": player,
                        "hours": round((time.time() - iteration_started) / 3600, 3)})
            history.append(json.loads(table_path.with_suffix(".json").read_text()))
            table = table_path
    finally:
        if client is not None:
            client.close()
    recipe = {"game": rules.id, "games_per_iteration": games, "iterations": iterations,
              "seed": seed, "chunk": chunk, "smoothing": SMOOTHING, "player": player,
              "initial_table": initial, "code_version": code_version(),
              "hours": round(sum(h.get("hours", 0.0) for h in history), 3),
              "history": history}
    final = read_leaves(table, rules)
    write_leaves(output, final, recipe)
    return recipe


def _check_run(run_dir: Path, options: dict) -> None:
    """Record the options a run directory's games depend on, or refuse other ones."""
    path = run_dir / "run.json"
    if path.exists():
        started = json.loads(path.read_text())
        if started != options:
            changed = ", ".join(f"{k} {started.get(k)!r} (now {v!r})" for k, v in options.items()
                                if started.get(k) != v)
            raise BadInput(f"{run_dir} was started with {changed}: resume it with its options "
                           "or use another --run-dir")
        return
    run_dir.mkdir(parents=True, exist_ok=True)
    with atomic_output(path, "w") as out:
        json.dump(options, out, indent=1, sort_keys=True)


def install_leaves(source, rules_path, output) -> LeaveValues:
    """Check a committed table against the game's rules and copy it to the artifacts."""
    from pipeline.provenance import record

    table = read_leaves(source, load_rules(rules_path))
    with atomic_output(output) as out:
        out.write(Path(source).read_bytes())
    record(output, format=LEAVES_FORMAT, version=LEAVES_VERSION, inputs=[source, rules_path])
    return table


def reproduce(source, rules_path, artifacts, run_dir, workers: int = 2,
              scheduler: str | None = None, progress=None,
              compiled: bool | None = None, initial_table=None) -> tuple[bool, dict]:
    """Train again with a committed table's recipe (its header); (same values?, recipe).

    A recipe that started from an initial table needs that table (`initial_table`, the file of
    the recipe's sha256; a table replaced since is in the git history).

    Raises:
        BadInput: the recipe's initial table not given, or another file given.
    """
    rules = load_rules(rules_path)
    committed = read_leaves(source, rules)
    recipe = committed.header["recipe"]
    initial = recipe.get("initial_table")
    if initial is None and initial_table is not None:
        raise BadInput(f"{source}'s recipe starts from all zeros: drop the initial table")
    if initial is not None and (initial_table is None
                                or sha256_file(initial_table) != initial["sha256"]):
        raise BadInput(f"{source}'s recipe starts from the table of sha256 {initial['sha256']} "
                       f"(then {initial['path']}): pass that file as the initial table")
    output = Path(run_dir) / Path(source).name
    train(rules_path, artifacts, games=recipe["games_per_iteration"],
          iterations=recipe["iterations"], seed=recipe["seed"], run_dir=run_dir,
          output=output, chunk=recipe["chunk"], workers=workers, scheduler=scheduler,
          progress=progress, compiled=compiled, player=recipe.get("player", "equity"),
          initial_table=initial_table)
    again = read_leaves(output, rules)
    return bool(np.array_equal(again.values, committed.values)), recipe


def _learn(chunk_dir: Path, keys, rules, max_tiles: int, table_path: Path,
           recipe: dict) -> dict:
    """Learn a table from an iteration's chunks and write it; the iteration's figures."""
    racks, equities = [], []
    games = turns = points = 0
    for path in sorted(chunk_dir.glob("chunk-*.npz")):
        with np.load(path) as data:
            racks.append(data["racks"])
            equities.append(data["equities"].astype(np.float64))
            games += int(data["games"])
            turns += int(data["turns"])
            points += int(data["points"])
    racks, equities = np.concatenate(racks), np.concatenate(equities)
    sums, counts = leave_statistics(racks, equities, keys, rules.rack_size)
    logged = len(equities)
    mean = float(equities.sum()) / max(logged, 1)
    values = smoothed_values(sums, counts, mean, keys, max_tiles)
    summary = dict(recipe, moves_logged=logged, mean_equity=round(mean, 3),
                   points_per_game=round(points / max(games, 1), 2),
                   turns_per_game=round(turns / max(games, 1), 2),
                   leaves_seen=int((counts > 0).sum()),
                   leaves_under_smoothing=int((counts < SMOOTHING).sum()))
    write_leaves(table_path, LeaveValues(rules, values), summary)
    with atomic_output(table_path.with_suffix(".json"), "w") as out:
        json.dump(summary, out, indent=1)
    return summary
