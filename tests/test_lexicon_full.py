"""The real lexicons (after `make`): exact sizes, round trips, minimality, queries vs a set."""

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import lexicon_oracle as oracle
from conftest import full_artifact
from lookup.formats import DAWG_MAGIC, GADDAG_MAGIC, TRIE_MAGIC
from lookup.graph import read_graph
from lookup.lexicon import lexicon
from lookup.word_list import read_word_list
from pipeline.build_dawg import dawg_bytes
from pipeline.build_gaddag import gaddag_bytes
from pipeline.build_trie import trie_bytes

pytestmark = pytest.mark.full

# name: (words, DAWG nodes, the index's arc_count: the root pointer, a mask word per node, the
# arcs)
EXPECTED = {
    "enable": (172820, 53602, 1 + 53602 + 122172),
    "opentaal": (348507, 161670, 1 + 161670 + 348221),
    "igerman98": (355725, 94794, 1 + 94794 + 178671),
    "opencorpora-nouns": (67261, 41680, 1 + 41680 + 88239),
}


@pytest.fixture(scope="module", params=sorted(EXPECTED))
def real(request):
    name = request.param
    words = read_word_list(full_artifact(f"lexicons/{name}.txt"))
    return name, words, lexicon(full_artifact(f"lexicons/{name}.dawg"))


def test_counts_round_trip_and_hash(real):
    name, words, lex = real
    count, nodes, arcs = EXPECTED[name]
    assert len(words) == len(lex) == count
    assert (lex.graph.node_count, len(lex.graph.arcs)) == (nodes, arcs)
    assert list(lex) == words
    assert all(w in lex for w in words)
    assert all(lex.index(w) == i for i, w in enumerate(words))
    assert all(lex.word(i) == words[i] for i in range(0, len(words), 7))


def test_non_words(real):
    _, words, lex = real
    word_set = set(words)
    rng = random.Random(11)
    letters = lex.alphabet
    probes = ["".join(rng.choice(letters) for _ in range(rng.randint(2, 10)))
              for _ in range(20000)]
    probes += [w + rng.choice(letters) for w in rng.sample(words, 5000)]
    probes += [w[1:] for w in rng.sample(words, 5000)]
    assert [p in lex for p in probes] == [p in word_set for p in probes]


def test_dawg_is_minimal(real):
    _, _, lex = real
    reachable, classes = oracle.right_language_classes(lex.graph.arcs, lex.graph.root)
    assert reachable == classes == lex.graph.node_count


def test_rebuild_is_byte_identical(real):
    name, words, lex = real
    assert dawg_bytes(words, lex.alphabet) == full_artifact(f"lexicons/{name}.dawg").read_bytes()


def test_enable_trie_and_gaddag_rebuild_identically():
    words = read_word_list(full_artifact("lexicons/enable.txt"))
    trie_path = full_artifact("lexicons/enable.trie")
    gaddag_path = full_artifact("lexicons/enable.gaddag")
    graph = read_graph(trie_path, TRIE_MAGIC)
    assert trie_bytes(words, graph.alphabet, graph.input_sha256) == trie_path.read_bytes()
    assert gaddag_bytes(words, graph.alphabet) == gaddag_path.read_bytes()
    gaddag = read_graph(gaddag_path, GADDAG_MAGIC)
    assert (gaddag.node_count, len(gaddag.arcs)) == (419251, 1 + 419251 + 834583)


def test_enable_sizes():
    # Issue 9's goal: ENABLE's DAWG with its perfect hash in at most 300,000 bytes.
    dawg = read_graph(full_artifact("lexicons/enable.dawg"), DAWG_MAGIC)
    gaddag = read_graph(full_artifact("lexicons/enable.gaddag"), GADDAG_MAGIC)
    assert (dawg.size, dawg.index_size) == (289362, 1895176)
    assert (gaddag.size, gaddag.index_size) == (1929392, 5015504)


def test_known_examples():
    enable = lexicon(full_artifact("lexicons/enable.dawg"))
    assert "quixotic" in enable and "qat" in enable
    assert "qi" not in enable and "zzz" not in enable  # ENABLE predates both
    assert enable.anagrams("retinas") == ["anestri", "antsier", "nastier", "ratines", "retains",
                                          "retinas", "retsina", "stainer", "stearin"]
    assert enable.index("aa") == 0 and enable.index("cigar") == 25534
    assert enable.word(len(enable) - 1) == "zyzzyvas"


queries = st.tuples(st.text(alphabet="aeioulnrstdgcmp??", min_size=1, max_size=8),
                    st.text(alphabet="aeinrstl?*", min_size=1, max_size=6))


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(query=queries)
def test_queries_match_oracle_on_enable(query):
    letters, pattern = query
    lex = lexicon(full_artifact("lexicons/enable.dawg"))
    words = _words("enable")
    assert lex.anagrams(letters) == oracle.anagrams(words, letters)
    assert lex.unscramble(letters) == oracle.unscramble(words, letters)
    if pattern.strip("*"):
        assert lex.match(pattern) == oracle.match(words, pattern)


ru_queries = st.tuples(st.text(alphabet="аеиоянрстклмд?", min_size=1, max_size=8),
                       st.text(alphabet="аеонтк?*", min_size=1, max_size=6))


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(query=ru_queries)
def test_queries_match_oracle_on_russian(query):
    letters, pattern = query
    lex = lexicon(full_artifact("lexicons/opencorpora-nouns.dawg"))
    words = _words("opencorpora-nouns")
    assert lex.anagrams(letters) == oracle.anagrams(words, letters)
    assert lex.unscramble(letters, min_len=3) == oracle.unscramble(words, letters, min_len=3)
    if pattern.strip("*"):
        assert lex.match(pattern) == oracle.match(words, pattern)


_WORDS = {}


def _words(name):
    if name not in _WORDS:
        _WORDS[name] = read_word_list(full_artifact(f"lexicons/{name}.txt"))
    return _WORDS[name]



@pytest.mark.parametrize("name, pattern, count, first", [
    ("enable", "?????re", 148, ["acquire", "affaire"]),
    ("opentaal", "?????f", 118, ["aangaf", "aanhef"]),
    ("igerman98", "?????re", 421, ["abfahre", "abfedre"]),
    ("opencorpora-nouns", "??????", 5863, ["абажур", "абазин"]),
    ("opentaal", "ge*", 14848, ["gegevensbeschermingsvoorschriften",
                                "geneesmiddelenvergoedingssysteem"]),
    ("enable", "*ing", 12564, ["overintellectualizing", "contradistinguishing"]),
    ("enable", "a?*?e", 1171, ["acetylcholinesterase", "anticholinesterase"]),
])
def test_prepared_match_equals_the_walk(name, pattern, count, first):
    lex = lexicon(full_artifact(f"lexicons/{name}.dawg"))  # shared: its index is reset below
    walked = lex.match(pattern)
    lex.prepare_match()
    try:
        answer = lex.match(pattern)
    finally:
        lex._rows_by_length = None
    assert answer == walked == oracle.match(_words(name), pattern)
    assert (len(answer), answer[:2]) == (count, first)
