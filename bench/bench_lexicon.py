"""Lexicon benchmarks on the real ENABLE artifacts: size, build time, query latency, start-up.

Baselines measured here: a Python set (membership, memory), the same queries written naively
over the set, the naive 27-slots-per-node trie (size computed from the trie's node count),
gzip/xz of the word list, and the two packages a Python user would otherwise pick
(marisa-trie, DAWG2), built from the same words in this run.
"""

import gc
import gzip
import lzma
import random
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
LEX = REPO / "artifacts" / "lexicons"


def per_call(fn, items, repeat=5) -> float:
    """Best-of-`repeat` mean seconds per call of fn over items."""
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        for item in items:
            fn(item)
        best = min(best, (time.perf_counter() - started) / len(items))
    return best


def median_time(fn, items) -> float:
    times = []
    for item in items:
        started = time.perf_counter()
        fn(item)
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def row(what, value, unit, baseline="", baseline_value=None, note="", lower_is_better=True):
    ratio = None
    if baseline_value:
        ratio = baseline_value / value if lower_is_better else value / baseline_value
    return {"area": "lexicon", "what": what, "value": value, "unit": unit, "baseline": baseline,
            "baseline_value": baseline_value, "ratio": ratio, "note": note}


def naive_makeable(word_counts, letters):
    have = Counter(letters)
    blanks = have.pop("?", 0)
    out = []
    for word, need in word_counts:
        if len(word) > len(letters):
            continue
        if sum(max(0, n - have[c]) for c, n in need.items()) <= blanks:
            out.append(word)
    return out


def run() -> list[dict]:
    sys.path.insert(0, str(REPO))
    from lookup.dawg import Lexicon
    from lookup.formats import DAWG_MAGIC, TRIE_MAGIC
    from lookup.graph import read_graph
    from pipeline.build_dawg import dawg_bytes
    from pipeline.build_gaddag import gaddag_bytes
    from pipeline.build_trie import trie_bytes

    rows = []
    text = (LEX / "enable.txt").read_bytes()
    words = text.decode().split("\n")[:-1]
    n = len(words)
    alphabet = "abcdefghijklmnopqrstuvwxyz"
    # Build times (in process, the same functions the stages run), every lexicon.
    from lookup.word_list import read_word_list

    for name in ("enable", "opentaal", "igerman98", "opencorpora-nouns"):
        name_words = read_word_list(LEX / f"{name}.txt")
        name_alphabet = read_graph(LEX / f"{name}.dawg", DAWG_MAGIC).alphabet
        for ext, build in (("trie", lambda: trie_bytes(name_words, name_alphabet, "00" * 32)),
                           ("dawg", lambda: dawg_bytes(name_words, name_alphabet)),
                           ("gaddag", lambda: gaddag_bytes(name_words, name_alphabet))):
            started = time.perf_counter()
            build()
            size = (LEX / f"{name}.{ext}").stat().st_size
            rows.append(row(f"build {name}.{ext}", time.perf_counter() - started, "s",
                            note=f"{len(name_words):,} words, {size:,} bytes"))

    # Sizes, bytes per word.
    trie_graph = read_graph(LEX / "enable.trie", TRIE_MAGIC)
    naive = (trie_graph.node_count + 1) * 27 * 4
    gz = len(gzip.compress(text, 9, mtime=0))
    xz = len(lzma.compress(text, preset=9 | lzma.PRESET_EXTREME))
    import dawg as dawg2
    import marisa_trie

    with tempfile.TemporaryDirectory() as tmp:
        marisa = marisa_trie.Trie(words)
        marisa.save(f"{tmp}/m")
        marisa_size = Path(f"{tmp}/m").stat().st_size
        d2 = dawg2.DAWG(words)
        d2.save(f"{tmp}/d")
        d2_size = Path(f"{tmp}/d").stat().st_size
    for ext in ("trie", "dawg", "gaddag"):
        size = (LEX / f"enable.{ext}").stat().st_size
        rows.append(row(f"ENABLE .{ext} size", size / n, "bytes/word", "naive 27-slot trie",
                        naive / n, note=f"{size:,} bytes"))
    dawg_size = (LEX / "enable.dawg").stat().st_size
    for label, size in (("gzip -9 word list", gz), ("xz -9e word list", xz),
                        ("marisa-trie", marisa_size), ("DAWG2 (dawgdic)", d2_size)):
        rows.append(row(f"ENABLE .dawg vs {label}", dawg_size / n, "bytes/word", label, size / n,
                        note=f"{dawg_size:,} vs {size:,} bytes"))

    # Memory: loaded DAWG (with membership table and perfect-hash counts) vs a Python set.
    gc.collect()
    tracemalloc.start()
    lex = Lexicon(read_graph(LEX / "enable.dawg", DAWG_MAGIC), "enable")
    "warm" in lex
    lex.index("cigar")
    dawg_mem = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    gc.collect()
    tracemalloc.start()
    word_set = set(text.decode().split("\n")[:-1])
    set_mem = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    rows.append(row("ENABLE loaded, memory", dawg_mem / 2**20, "MiB", "Python set",
                    set_mem / 2**20))

    # Membership.
    rng = random.Random(2026)
    present = rng.sample(words, 20000)
    absent = ["".join(rng.choice(alphabet) for _ in range(len(w))) for w in present[:20000]]
    probes = present + absent
    rows.append(row("contains (50% words)", per_call(lex.__contains__, probes) * 1e6, "us",
                    "Python set", per_call(word_set.__contains__, probes) * 1e6))
    rows.append(row("contains vs marisa-trie", per_call(lex.__contains__, probes) * 1e6, "us",
                    "marisa-trie", per_call(marisa.__contains__, probes) * 1e6))
    rows.append(row("contains vs DAWG2", per_call(lex.__contains__, probes) * 1e6, "us",
                    "DAWG2 (C++)", per_call(d2.__contains__, probes) * 1e6))
    rows.append(row("index(word)", per_call(lex.index, present[:5000]) * 1e6, "us"))
    rows.append(row("word(i)", per_call(lex.word, range(0, n, 37)) * 1e6, "us"))

    # Anagram / unscramble: random 7-tile racks drawn from the English Scrabble bag.
    bag = ("e" * 12 + "a" * 9 + "i" * 9 + "o" * 8 + "n" * 6 + "r" * 6 + "t" * 6 + "l" * 4 + "s" * 4
           + "u" * 4 + "d" * 4 + "g" * 3 + "bbccmmppffhhvvwwyy" + "kjxqz")
    word_counts = [(w, Counter(w)) for w in words]
    for blanks in (0, 1, 2):
        racks = ["".join(rng.sample(bag, 7 - blanks)) + "?" * blanks for _ in range(40)]
        fast = median_time(lex.unscramble, racks)
        slow = median_time(lambda r: naive_makeable(word_counts, r), racks[:10])
        rows.append(row(f"unscramble 7 tiles, {blanks} blank(s), median", fast * 1e3, "ms",
                        "scan of all words with Counter", slow * 1e3))
        fast = median_time(lex.anagrams, racks)
        slow = median_time(lambda r: [w for w in naive_makeable(word_counts, r)
                                      if len(w) == 7], racks[:10])
        rows.append(row(f"anagrams 7 tiles, {blanks} blank(s), median", fast * 1e3, "ms",
                        "scan of all words with Counter", slow * 1e3))
    patterns = ["c?t*", "*ing", "??x??", "q*u*z*"]
    fast = median_time(lex.match, patterns)
    rows.append(row("match (c?t*, *ing, ??x??, q*u*z*), median", fast * 1e3, "ms"))

    # Cold start: a fresh interpreter, import lookup, first membership answer.
    code = ("import time; t=time.perf_counter(); import lookup; "
            "lookup.lexicon('enable').__contains__('quixotic'); print(time.perf_counter()-t)")
    cold = min(float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                                    cwd=REPO, check=True).stdout) for _ in range(3))
    rows.append(row("import lookup -> first answer", cold * 1e3, "ms"))
    return rows
