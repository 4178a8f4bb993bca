"""Loads from a fresh process: time and resident memory of every lexicon and crossword game.

Each measurement runs in its own interpreter (nothing cached, nothing imported yet), reads the
artifacts the runtime reads ($WORDPACK_ARTIFACTS, else artifacts/) and reports:
- lexicon: `lookup.lexicon(name)` (the load: a memory map and a header check), then the
  first answers (a membership and an index() query), and the resident memory they added;
- crossword game: `crossword_game(id)` and its GADDAG, then the first `moves()` on a
  committed midgame self-play position, and the resident memory they added (counted from
  after the imports, so the interpreter and numpy are not in it);
- guessing game: `guessing_game(id).next_guess([])` (the matrix is mapped, not hashed).
Resident memory is VmRSS of /proc/self/status (Linux).
"""

import json
import subprocess
import sys
from functools import partial
from pathlib import Path

import common

REPO = Path(__file__).resolve().parents[1]
LEXICONS = ("enable", "opentaal", "igerman98", "opencorpora-nouns")
CROSSWORD_GAMES = ("scrabble-en", "wordfeud-en", "wordfeud-nl", "erudit-ru")
GUESSING_GAMES = ("wordle-en", "nerdle-classic")
MIDGAME_TILES = 30
# Loads before the readers checked every byte (bench/results.md at commit c8923ed, this machine):
# since then a word graph's whole-file sha256 is checked on every load (a crossword game's load
# checks its GADDAG and rules), for the issue "never a silent wrong answer from a damaged file".
BEFORE_CHECKSUMS_MS = {
    "lexicon enable": 0.305, "lexicon opentaal": 0.309, "lexicon igerman98": 0.441,
    "lexicon opencorpora-nouns": 0.859, "crossword scrabble-en": 0.716,
    "crossword wordfeud-en": 0.776, "crossword wordfeud-nl": 0.724, "crossword erudit-ru": 0.806,
}
BEFORE_NOTE = "before the whole-file checksums (commit c8923ed): {:.3g} ms"

_RSS = """
def rss():
    for line in open("/proc/self/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
"""

_LEXICON = _RSS + """
import time
import lookup
from lookup.dawg import Lexicon
before = rss()
started = time.perf_counter()
lex = lookup.lexicon(NAME)
loaded = time.perf_counter()
first = lex.word(len(lex) // 2)
answer = first in lex and lex.index(first) == len(lex) // 2
answered = time.perf_counter()
print(json.dumps([loaded - started, answered - loaded, rss() - before, answer]))
"""

_CROSSWORD = _RSS + """
import time
from lookup.crossword.game import crossword_game
# The committed self-play file read as plain JSON: the tests' helpers import the build side
# (and numba), which a user's process does not.
with open(f"{TESTS}/fixtures/crossword/selfplay-{NAME}.json", encoding="utf-8") as handle:
    positions = json.load(handle)["positions"]
position = next(p for p in positions if p["board"].count(".") <= 225 - TILES)
before = rss()
started = time.perf_counter()
cw = crossword_game(NAME)
cw.tables()
loaded = time.perf_counter()
moves = cw.moves(cw.parse_board(position["board"]), position["rack"])
answered = time.perf_counter()
print(json.dumps([loaded - started, answered - loaded, rss() - before, len(moves)]))
"""

_GUESSING = _RSS + """
import time
started = time.perf_counter()
import lookup
guess = lookup.guessing_game(NAME).next_guess([])
print(json.dumps([time.perf_counter() - started, 0.0, rss(), guess]))
"""


row = partial(common.row, "load")


def fresh(code: str, name: str) -> list:
    """Run `code` in a new interpreter with NAME set; its printed JSON list."""
    prelude = (f"import json, sys\nNAME = {name!r}\nTESTS = {str(REPO / 'tests')!r}\n"
               f"TILES = {MIDGAME_TILES}\n")
    result = subprocess.run([sys.executable, "-c", prelude + code], capture_output=True,
                            text=True, cwd=REPO)
    if result.returncode:
        raise RuntimeError(f"{name}: {result.stderr.strip().splitlines()[-1]}")
    return json.loads(result.stdout)


def best_of(code: str, name: str, runs: int = 3) -> list:
    """Each time and memory figure at its best over `runs` runs (the machine is shared); the
    last item as the first run printed it.
    """
    results = [fresh(code, name) for _ in range(runs)]
    return [min(column) for column in zip(*(r[:-1] for r in results))] + [results[0][-1]]


def run() -> list[dict]:
    sys.path.insert(0, str(REPO))
    from lookup.crossword.game import crossword_games
    from lookup.guessing.game import guessing_game_names
    from lookup.lexicon import lexicon_names

    rows = []
    for name in LEXICONS:
        if name not in lexicon_names():
            continue
        load, answer, memory, _ok = best_of(_LEXICON, name)
        rows.append(row(f"lexicon {name}: load", load * 1e3, "ms",
                        note=BEFORE_NOTE.format(BEFORE_CHECKSUMS_MS[f"lexicon {name}"])))
        rows.append(row(f"lexicon {name}: first membership + index()", answer * 1e3, "ms"))
        rows.append(row(f"lexicon {name}: resident memory added", memory / 2**20, "MiB"))
    for name in CROSSWORD_GAMES:
        if name not in crossword_games():
            continue
        load, answer, memory, count = best_of(_CROSSWORD, name)
        rows.append(row(f"crossword {name}: load", load * 1e3, "ms",
                        note=BEFORE_NOTE.format(BEFORE_CHECKSUMS_MS[f"crossword {name}"])))
        rows.append(row(f"crossword {name}: first moves()", answer * 1e3, "ms",
                        note=f"{count} moves, midgame position of {MIDGAME_TILES}+ tiles"))
        rows.append(row(f"crossword {name}: resident memory added", memory / 2**20, "MiB",
                        note="load and first moves()"))
    for name in GUESSING_GAMES:
        if name not in guessing_game_names():
            continue
        seconds, _zero, memory, guess = best_of(_GUESSING, name)
        rows.append(row(f"{name}: import lookup -> next_guess([])", seconds * 1e3, "ms",
                        note=f"{guess}; process resident {memory / 2**20:.0f} MiB"))
    return rows
