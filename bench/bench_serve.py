"""The JSON API under load (`make bench-serve`; area "serve"; LONG: not part of `make bench`).

`python -m service --workers 2` serves the real artifacts on 127.0.0.1 (a free port); the load
generator bench/serve_load.mjs (Node, open loop: a constant arrival rate, each latency measured
from the moment its request was due) sends RATES for SECONDS each, rising, until a rate fails
(an error, or p99 over STOP_P99_MS). The generator shares the machine's 2 cores with the
server; its CPU, the server's and every other process's (other jobs on a shared machine) are
in the notes.

The mix (the issue's): 60 % lexicon queries (check 20, anagrams 15, unscramble 15, match 10;
over enable, opentaal, igerman98 and opencorpora-nouns, racks and patterns made from their own
words, at most one blank), 30 % guessing (next 15, candidates 15; every built game, normal and
hard mode, the history a prefix of a game played by the server's own suggestions to a random
answer), 10 % moves (the committed self-play midgame positions of scrabble-en, wordfeud-en and
wordfeud-nl whose rack has at most one blank, top 10, a third by equity). Erudit, whose moves
search multi-word turns (0.2 s to many seconds), is left out of the mix, as is a history off the
decision tree (the player's own opener), which ranks every guess: both are measured apart, one
request at a time ("single" rows).

Memory: resident (RSS) and proportional (PSS: shared pages split among the processes mapping
them) set sizes of each worker and of each worker's engine process (the move searches run
there: service/app.py) from /proc/<pid>/smaps_rollup, after the warm-up and after the last
rate. The server's CPU is that of the workers and their engine processes.
"""

import functools
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from pathlib import Path

import common

REPO = Path(__file__).resolve().parents[1]
LONG = True
row = functools.partial(common.row, "serve")

RATES = tuple(int(r) for r in os.environ.get("SERVE_RATES", "250,500,1000,1500,2000").split(","))
SECONDS = int(os.environ.get("SERVE_SECONDS", "60"))
WORKERS = 2
POOL = 6000  # distinct requests the generator cycles through
SEED = 37
TIMEOUT_MS = 10_000
STOP_P99_MS = 1000
GOAL_P99_MS = 20  # the "highest rate held": p99 at most this, and no error
MIX = {"check": 20, "anagrams": 15, "unscramble": 15, "match": 10, "next": 15,
       "candidates": 15, "moves": 10}
LEXICON_WEIGHTS = {"enable": 4, "opentaal": 2, "igerman98": 2, "opencorpora-nouns": 1}
MOVE_GAMES = ("scrabble-en", "wordfeud-en", "wordfeud-nl")
LEXICON_LABELS = ("check", "anagrams", "unscramble", "match")
GUESSING_LABELS = ("next", "candidates")
OWN_OPENERS = ("crane", "adieu", "roate", "stare", "audio")


def _get(label: str, path: str, **params) -> dict:
    query = urllib.parse.urlencode(params, quote_via=urllib.parse.quote)
    return {"label": label, "method": "GET", "path": f"{path}?{query}" if query else path}


class Workload:
    """The request pool, made from the artifacts the server reads (same seed, same pool)."""

    def __init__(self, seed: int = SEED):
        import lookup

        self.lookup = lookup
        self.rng = random.Random(seed)
        names = [n for n in LEXICON_WEIGHTS if n in lookup.lexicon_names()]
        self.lexicons = names
        self.words = {n: [w for w in lookup.lexicon(n) if 2 <= len(w) <= 12] for n in names}
        self.games = lookup.guessing_game_names()
        self.positions = [p for game in MOVE_GAMES for p in self._positions(game)]

    @staticmethod
    def _positions(game: str) -> list[dict]:
        data = json.loads((REPO / "tests" / "fixtures" / "crossword" /
                           f"selfplay-{game}.json").read_text(encoding="utf-8"))
        return [{"game": game, "board": p["board"], "rack": p["rack"], "bag": len(p["bag"])}
                for p in data["positions"] if p["rack"].count("?") <= 1 and p["rack"]]

    def _word(self, low: int, high: int) -> tuple[str, str]:
        name = self.rng.choices(self.lexicons, [LEXICON_WEIGHTS[n] for n in self.lexicons])[0]
        while True:
            word = self.rng.choice(self.words[name])
            if low <= len(word) <= high:
                return name, word

    def _rack(self, word: str, size: int) -> str:
        letters = self.rng.sample(word, min(size, len(word)))
        if self.rng.random() < 0.3:
            letters[0] = "?"
        self.rng.shuffle(letters)
        return "".join(letters)

    def request(self, label: str) -> dict:
        """One request of the label's kind."""
        rng = self.rng
        if label == "check":
            name, word = self._word(2, 12)
            if rng.random() < 0.5:  # a near-miss: one letter changed
                i = rng.randrange(len(word))
                word = word[:i] + rng.choice(word) + word[i + 1:]
            return _get(label, f"/api/lexicons/{name}/check", word=word)
        if label == "anagrams":
            name, word = self._word(4, 8)
            return _get(label, f"/api/lexicons/{name}/anagrams", letters=self._rack(word, 8))
        if label == "unscramble":
            name, word = self._word(7, 10)
            return _get(label, f"/api/lexicons/{name}/unscramble", letters=self._rack(word, 7))
        if label == "match":
            name, word = self._word(4, 9)
            pattern = "".join("?" if rng.random() < 0.5 else ch for ch in word)
            if rng.random() < 0.3:
                pattern = word[:2] + "*"
            return _get(label, f"/api/lexicons/{name}/match", pattern=pattern)
        if label in GUESSING_LABELS:
            game_id, history, hard = self._history()
            text = ",".join(f"{guess}:{feedback}" for guess, feedback in history)
            return _get(label, f"/api/guessing/{game_id}/{label}", history=text,
                        hard="true" if hard else "false")
        position = rng.choice(self.positions)
        body = {"board": position["board"], "rack": position["rack"], "top": 10,
                "by": "equity" if rng.random() < 1 / 3 else "score", "bag": position["bag"]}
        return {"label": label, "method": "POST",
                "path": f"/api/crossword/{position['game']}/moves", "body": body}

    def _history(self, opener: str | None = None) -> tuple[str, list, bool]:
        """A game, a history that follows its suggestions (after `opener` when given) to a
        random answer, cut before the end, and the mode.
        """
        game_id = "wordle-en" if opener else self.rng.choice(self.games)
        game = self.lookup.guessing_game(game_id)
        hard = self.rng.random() < 0.5
        answer = self.rng.choice(game.answers)
        history = []
        while True:
            guess = opener if opener and not history else game.next_guess(history, hard=hard)
            if guess == answer:
                break
            history.append((guess, game.feedback(guess, answer)))
        return game_id, history[:self.rng.randint(1 if opener else 0, len(history))], hard

    def pool(self, size: int) -> list[dict]:
        """`size` requests in the MIX's proportions, shuffled."""
        labels = [label for label, share in MIX.items() for _ in range(share * size // 100)]
        self.rng.shuffle(labels)
        return [self.request(label) for label in labels]

    def own_opener_requests(self, count: int) -> list[dict]:
        """`next` after a history that starts with a player's own opener (off the tree)."""
        requests = []
        for i in range(count):
            game_id, history, hard = self._history(OWN_OPENERS[i % len(OWN_OPENERS)])
            text = ",".join(f"{guess}:{feedback}" for guess, feedback in history)
            requests.append(_get("next (own opener)", f"/api/guessing/{game_id}/next",
                                 history=text, hard="true" if hard else "false"))
        return requests


# --- the server's processes -------------------------------------------------------------------

def _children(pid: int) -> list[int]:
    path = Path(f"/proc/{pid}/task/{pid}/children")
    return [int(c) for c in path.read_text().split()] if path.exists() else []


def _spawned(pid: int) -> list[int]:
    """The processes `pid` started with multiprocessing's spawn (not its resource tracker)."""
    return [child for child in _children(pid)
            if b"spawn_main" in Path(f"/proc/{child}/cmdline").read_bytes()]


def _workers(master: int) -> list[int]:
    """The worker processes of uvicorn's master."""
    return _spawned(master)


def _engines(master: int) -> list[int]:
    """Each worker's engine process."""
    return [engine for worker in _workers(master) for engine in _spawned(worker)]


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _machine_busy_seconds() -> float:
    """CPU seconds every process of the machine has used (/proc/stat: all but idle and iowait)."""
    fields = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    return (sum(fields[:8]) - fields[3] - fields[4]) / os.sysconf("SC_CLK_TCK")


def _memory_mb(pid: int) -> dict:
    """{"rss", "pss"} in MB, from /proc/<pid>/smaps_rollup."""
    values = {}
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
        key, _, rest = line.partition(":")
        if key in ("Rss", "Pss"):
            values[key.lower()] = int(rest.split()[0]) / 1024
    return values


class Server:
    """`python -m service` on a free port of 127.0.0.1, `workers` processes."""

    def __init__(self, workers: int):
        self.process = subprocess.Popen(
            [sys.executable, "-m", "service", "--port", "0", "--workers", str(workers)],
            cwd=REPO, stdout=subprocess.PIPE, text=True, start_new_session=True)
        line = self.process.stdout.readline()
        self.base = line.split()[1].rstrip("/")
        self.workers = workers

    def wait_ready(self) -> None:
        """Until the API answers and every worker has warmed up (its CPU time stands still)."""
        while True:
            try:
                with urllib.request.urlopen(f"{self.base}/api/health", timeout=5):
                    break
            except OSError:
                if self.process.poll() is not None:
                    raise RuntimeError("the server stopped while starting") from None
                time.sleep(0.2)
        while True:
            processes = self.processes()
            before = [_cpu_seconds(pid) for pid in processes]
            time.sleep(1)
            after = [_cpu_seconds(pid) for pid in processes]
            if len(_engines(self.process.pid)) == self.workers and all(
                    b - a < 0.02 for a, b in zip(before, after)):
                return

    def processes(self) -> list[int]:
        """The workers and their engine processes."""
        return _workers(self.process.pid) + _engines(self.process.pid)

    def memory(self) -> dict[str, list[dict]]:
        return {"worker": [_memory_mb(pid) for pid in _workers(self.process.pid)],
                "engine process": [_memory_mb(pid) for pid in _engines(self.process.pid)]}

    def cpu_seconds(self) -> float:
        return sum(_cpu_seconds(pid) for pid in self.processes())

    def stop(self) -> int:
        """SIGTERM (a graceful stop) and its exit status."""
        self.process.send_signal(signal.SIGTERM)
        return self.process.wait(timeout=60)


# --- running a rate -----------------------------------------------------------------------------

def percentile(values: list[float], share: float) -> float:
    """The nearest-rank percentile of `values` (share in 0..1)."""
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, int(share * len(ordered) + 0.999999) - 1))]


def generate(base: str, rate: float, seconds: float, requests: list[dict]) -> dict:
    """Run bench/serve_load.mjs and return its result."""
    with tempfile.NamedTemporaryFile("w", suffix=".json") as plan:
        json.dump({"base": base, "rate": rate, "seconds": seconds, "timeout_ms": TIMEOUT_MS,
                   "requests": requests}, plan)
        plan.flush()
        output = subprocess.run(["node", str(REPO / "bench" / "serve_load.mjs"), plan.name],
                                capture_output=True, text=True, check=True).stdout
    return json.loads(output)


def _figures(result: dict, labels) -> tuple[list[float], int]:
    ms = [m for label in labels for m in result["labels"].get(label, {"ms": []})["ms"]]
    errors = sum(sum(result["labels"].get(label, {"errors": {}})["errors"].values())
                 for label in labels)
    return ms, errors


def _latency_rows(what: str, ms: list[float], errors: int, extra: str = "") -> list[dict]:
    if not ms:
        return [row(f"{what} p99", None, "ms", note=f"no answer; {errors} errors")]
    return [row(f"{what} p99", percentile(ms, 0.99), "ms",
                note=f"p50 {percentile(ms, 0.5):.2f}, p95 {percentile(ms, 0.95):.2f}, "
                     f"max {max(ms):.1f}; {len(ms):,} answers, {errors} errors{extra}")]


def rate_rows(rate: int, result: dict, server_cpu: float,
              machine_cpu: float) -> tuple[list[dict], bool, float]:
    """The rows of one rate, whether it failed (stop rising), and its overall p99."""
    rows = []
    for label in MIX:
        ms, errors = _figures(result, [label])
        rows += _latency_rows(f"{rate}/s: {label}", ms, errors)
    ms, errors = _figures(result, LEXICON_LABELS + GUESSING_LABELS)
    rows += _latency_rows(f"{rate}/s: lexicon and guessing", ms, errors)
    every, errors = _figures(result, MIX)
    kinds = {}
    for label in MIX:
        for kind, n in result["labels"][label]["errors"].items():
            kinds[kind] = kinds.get(kind, 0) + n
    p99 = percentile(every, 0.99) if every else float("inf")
    rows += _latency_rows(
        f"{rate}/s: every request", every, errors,
        f" ({', '.join(f'{k}: {n}' for k, n in sorted(kinds.items())) or 'none'}); "
        f"{result['sent'] / result['seconds']:.0f} requests/s sent over {result['seconds']:.0f} s, "
        f"generator CPU {100 * result['cpu_ms'] / 1000 / result['seconds']:.0f} % of a core "
        f"(max lag {result['lag_ms_max']:.1f} ms, {result['sockets']} connections), "
        f"server CPU {100 * server_cpu / result['seconds']:.0f} % of a core, other processes "
        f"{100 * (machine_cpu - server_cpu - result['cpu_ms'] / 1000) / result['seconds']:.0f} %")
    return rows, errors > 0.01 * len(every) or p99 > STOP_P99_MS, p99


def run():
    workload = Workload()
    pool = workload.pool(POOL)
    server = Server(WORKERS)
    rows = []
    try:
        server.wait_ready()
        start = server.memory()
        held = None
        for rate in RATES:
            cpu, machine = server.cpu_seconds(), _machine_busy_seconds()
            result = generate(server.base, rate, SECONDS, pool)
            measured, failed, p99 = rate_rows(rate, result, server.cpu_seconds() - cpu,
                                              _machine_busy_seconds() - machine)
            rows += measured
            errors = _figures(result, MIX)[1]
            if not failed and errors == 0 and p99 <= GOAL_P99_MS:
                held = rate
            if failed:
                break
        end = server.memory()
        rows.append(row(f"highest rate held: p99 at most {GOAL_P99_MS} ms, no error", held,
                        "requests/s", note=f"rates tried: {', '.join(map(str, RATES))} "
                        f"({SECONDS} s each, rising, stopped after the first to fail)"))
        rows += _single_rows(server)
        for when, memory in (("after warm-up", start), ("after the last rate", end)):
            for kind, each in memory.items():
                rss = [m["rss"] for m in each]
                pss = [m["pss"] for m in each]
                rows.append(row(f"memory {when}: RSS per {kind}", statistics.mean(rss), "MB",
                                note=f"each: {', '.join(f'{v:.0f}' for v in rss)} MB; PSS "
                                     f"(shared pages split) {', '.join(f'{v:.0f}' for v in pss)}"
                                     f" MB, {sum(pss):.0f} MB for all {len(pss)}"))
        growth = (sum(m["rss"] for each in end.values() for m in each)
                  / sum(m["rss"] for each in start.values() for m in each) - 1)
        rows.append(row("server RSS growth over the run", 100 * growth, "%",
                        note="after the last rate against after warm-up, workers and engine "
                             "processes"))
    finally:
        status = server.stop()
    rows.append(row("graceful stop (SIGTERM) exit status", status, ""))
    return rows


def _single_rows(server: Server) -> list[dict]:
    """The expensive queries left out of the mix, at a few requests a second."""
    workload = Workload(SEED + 1)
    result = generate(server.base, 5, 40, workload.own_opener_requests(200))
    ms, errors = _figures(result, ["next (own opener)"])
    rows = _latency_rows("single: next after the player's own opener (off the tree), "
                         "wordle-en, 5/s", ms, errors)
    positions = Workload._positions("erudit-ru")
    for label, seconds in (("full search", None), ("full search with seconds 0.5", 0.5)):
        turns = [{"label": "best_turn", "method": "POST",
                  "path": "/api/crossword/erudit-ru/best_turn",
                  "body": {"board": p["board"], "rack": p["rack"], "method": "full",
                           **({"seconds": seconds} if seconds else {})}} for p in positions]
        result = generate(server.base, 2, 40, turns)
        ms, errors = _figures(result, ["best_turn"])
        kinds = result["labels"]["best_turn"]["errors"]
        rows += _latency_rows(f"single: erudit-ru best_turn {label}, 2/s", ms, errors,
                              f" ({', '.join(f'{k}: {n}' for k, n in sorted(kinds.items()))}: "
                              "503 is the 1 s time budget)" if kinds else "")
    return rows


if __name__ == "__main__":
    for result_row in run():
        print(result_row)
