"""DAWG, packed trie and GADDAG files: round trips, perfect hash, minimality, queries vs oracle."""

import hashlib
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lexicon_oracle as oracle
from conftest import FIXTURES
from lookup.dawg import Lexicon
from lookup.errors import BadInput, CorruptArtifact
from lookup.formats import DAWG_MAGIC, GADDAG_MAGIC, PACKED_HEADER, TRIE_MAGIC
from lookup.graph import NO_CHILD, read_graph, unpack_graph
from pipeline.build_dawg import dawg_bytes, sealed_graph, write_graph_files
from pipeline.build_gaddag import gaddag_bytes
from pipeline.build_trie import trie_bytes

ABC = "abcdefghijklmnopqrstuvwxyz"
RU = "абвгдежзийклмнопрстуфхцчшщъыьэюя"


def load(data: bytes, magic: bytes, tmp_path, name="t") -> Lexicon:
    path = tmp_path / f"{name}-{hashlib.sha256(data).hexdigest()[:12]}.bin"
    write_graph_files(path, data)
    return Lexicon(read_graph(path, magic), name)


def fixture_words() -> list[str]:
    return (FIXTURES / "sources" / "enable.txt").read_text().split()


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    words = fixture_words()
    return words, load(dawg_bytes(words, ABC), DAWG_MAGIC, tmp_path_factory.mktemp("dawg"))


@pytest.mark.parametrize("words", [[], ["a"], ["a", "ab", "abc"], ["abc", "abd", "b", "zz"]])
@pytest.mark.parametrize("kind", ["dawg", "trie"])
def test_round_trip_edge_cases(words, kind, tmp_path):
    data = dawg_bytes(words, ABC) if kind == "dawg" else trie_bytes(words, ABC, "00" * 32)
    lex = load(data, DAWG_MAGIC if kind == "dawg" else TRIE_MAGIC, tmp_path)
    assert list(lex) == words
    assert len(lex) == len(words)
    assert [lex.index(w) for w in words] == list(range(len(words)))
    assert [lex.word(i) for i in range(len(words))] == words
    assert "" not in lex and "q" not in lex


def test_fixture_round_trip_and_hash(small):
    words, lex = small
    assert list(lex) == words
    assert all(w in lex for w in words)
    assert all(lex.index(w) == i for i, w in enumerate(words))
    assert all(lex.word(i) == w for i, w in enumerate(words))
    with pytest.raises(KeyError):
        lex.index("zzzzzz")
    with pytest.raises(IndexError):
        lex.word(len(words))


def test_non_words_are_rejected(small):
    words, lex = small
    word_set = set(words)
    rng = random.Random(3)
    probes = ["".join(rng.choice(ABC) for _ in range(rng.randint(1, 9))) for _ in range(3000)]
    probes += [w[:-1] for w in words] + [w + "s" for w in words]
    probes += ["CAT", "cat ", "c\u00e0t", "ca1"]
    for probe in probes:
        assert (probe in lex) == (probe in word_set), probe
    assert 42 not in lex and None not in lex


def test_dawg_is_minimal_and_trie_is_not(small, tmp_path):
    words, lex = small
    reachable, classes = oracle.right_language_classes(lex.graph.arcs, lex.graph.root)
    assert reachable == classes == lex.graph.node_count
    trie = load(trie_bytes(words, ABC, "00" * 32), TRIE_MAGIC, tmp_path)
    reachable, classes = oracle.right_language_classes(trie.graph.arcs, trie.graph.root)
    assert reachable == trie.graph.node_count > classes


def test_same_input_same_bytes():
    words = fixture_words()
    assert dawg_bytes(words, ABC) == dawg_bytes(list(words), ABC)
    assert gaddag_bytes(words, ABC) == gaddag_bytes(list(words), ABC)


def packed_language(graph, node: int) -> list[str]:
    """Every string spelled from a node of a decoded packed graph, walking it (slow, obvious)."""
    out = []
    for tile, accepts, child in graph.nodes[node]:
        letter = graph.alphabet[tile - 1]
        if accepts:
            out.append(letter)
        if child != NO_CHILD:
            out.extend(letter + rest for rest in packed_language(graph, child))
    return out


def test_packed_graph_decodes_to_the_words_and_counts(small):
    words, lex = small
    graph = unpack_graph(dawg_bytes(words, ABC), "fixture", DAWG_MAGIC)
    assert packed_language(graph, 0) == words
    assert len(graph.nodes) == lex.graph.node_count
    assert graph.counts == [len(packed_language(graph, k)) for k in range(len(graph.nodes))]


def test_shared_nodes_are_written_once():
    # The node after `cat` and after `dog` (one arc, `s`) is shared: written at `cat`'s `t`
    # with reference 1 (shared number 0), referred to from `dog`'s `g` with reference 2.
    data = dawg_bytes(["cat", "cats", "dog", "dogs"], "acdgost")
    arcs = data[PACKED_HEADER.unpack_from(data)[3]:][:PACKED_HEADER.unpack_from(data)[10]]
    a, c, d, g, o, s, t = range(1, 8)
    accepts, last, ref = 0x20, 0x40, 0x80
    assert arcs == bytes([c, a | last, t | accepts | last | ref, 1, s | accepts | last | ref, 0,
                          d | last, o | last, g | accepts | last | ref, 2])


def gaddag_language(graph) -> set[str]:
    """Every string spelled by the GADDAG, separator written as '^'."""
    out = set()

    def walk(p, prefix):
        while True:
            arc = graph.arcs[p]
            tile = arc & 0x3F
            spelled = prefix + ("^" if tile == 0 else graph.alphabet[tile - 1])
            if arc & 0x40:
                out.add(spelled)
            if arc >> 8:
                walk(arc >> 8, spelled)
            if arc & 0x80:
                return
            p += 1

    if graph.root:
        walk(graph.root, "")
    return out


def test_gaddag_holds_exactly_gordons_strings(tmp_path):
    words = ["care", "cat", "cats", "to"]
    path = tmp_path / "g.gaddag"
    write_graph_files(path, gaddag_bytes(words, ABC))
    graph = read_graph(path, GADDAG_MAGIC)
    expected = set()
    for w in words:
        for i in range(1, len(w) + 1):
            expected.add(w[:i][::-1] + ("^" + w[i:] if i < len(w) else ""))
    assert "erac" in expected and "rac^e" in expected and "c^are" in expected
    assert gaddag_language(graph) == expected
    reachable, classes = oracle.right_language_classes(graph.arcs, graph.root)
    assert reachable == classes


word_sets = st.sets(st.text(alphabet="abcde", min_size=1, max_size=7), max_size=60)


@settings(max_examples=60, deadline=None)
@given(words=word_sets, probes=st.lists(st.text(alphabet="abcdef", max_size=8), max_size=30))
def test_random_lexicons_match_set(tmp_path_factory, words, probes):
    words = sorted(words)
    lex = load(dawg_bytes(words, "abcde"), DAWG_MAGIC, tmp_path_factory.mktemp("h"))
    assert list(lex) == words
    assert [lex.index(w) for w in words] == list(range(len(words)))
    for probe in probes + words:
        assert (probe in lex) == (probe in set(words))
    reachable, classes = oracle.right_language_classes(lex.graph.arcs, lex.graph.root)
    assert reachable == classes == lex.graph.node_count


racks = st.text(alphabet="aeinrstcdlo?", min_size=1, max_size=9)
patterns = st.text(alphabet="aeinrstc?*", min_size=1, max_size=7)


@settings(max_examples=150, deadline=None)
@given(letters=racks)
def test_anagrams_match_oracle(small, letters):
    words, lex = small
    assert lex.anagrams(letters) == oracle.anagrams(words, letters)


@settings(max_examples=150, deadline=None)
@given(letters=racks, min_len=st.integers(1, 5),
       starts=st.sampled_from(["", "c", "re", "st"]), ends=st.sampled_from(["", "s", "ed"]),
       contains=st.sampled_from(["", "a", "in"]))
def test_unscramble_matches_oracle(small, letters, min_len, starts, ends, contains):
    words, lex = small
    assert lex.unscramble(letters, min_len, starts, ends, contains) == oracle.unscramble(
        words, letters, min_len, starts, ends, contains)


@settings(max_examples=150, deadline=None)
@given(pattern=patterns)
def test_match_matches_oracle(small, pattern):
    words, lex = small
    assert lex.match(pattern) == oracle.match(words, pattern)


@pytest.fixture(scope="module")
def prepared(tmp_path_factory):
    words = fixture_words()
    lex = load(dawg_bytes(words, ABC), DAWG_MAGIC, tmp_path_factory.mktemp("prepared"))
    lex.prepare_match()
    return words, lex


@settings(max_examples=150, deadline=None)
@given(pattern=st.text(alphabet="aeinrstcz??*", min_size=1, max_size=9))
def test_prepared_match_matches_oracle(prepared, pattern):
    # Patterns with at most one '*' are answered from the length index, the others by the walk.
    words, lex = prepared
    assert lex.match(pattern) == oracle.match(words, pattern)


def test_prepare_match_indexes_words_by_length(prepared):
    words, lex = prepared
    lengths = {length: len(rows) for length, rows in lex._rows_by_length.items()}
    assert lengths == {n: sum(len(w) == n for w in words) for n in {len(w) for w in words}}
    for pattern in ("???", "*", "c*", "*s", "?a*s", "c*t*"):
        assert lex.match(pattern) == oracle.match(words, pattern)
    assert lex.match("q" * 40) == lex.match("q*" + "?" * 40) == []  # no word that long


def test_query_examples(small):
    _, lex = small
    assert lex.anagrams("retinas") == ["nastier", "retains", "retinas", "stainer"]
    assert lex.anagrams("c?t") == oracle.anagrams(fixture_words(), "c?t")
    assert "cat" in lex.anagrams("TAC")  # queries are case-insensitive
    assert lex.match("ca??") == oracle.match(fixture_words(), "ca??")
    assert lex.unscramble("cat", min_len=3) == ["act", "cat"]


@pytest.mark.parametrize("call, message", [
    (lambda lex: lex.anagrams(""), "empty"),
    (lambda lex: lex.anagrams("ab1"), "'1' in letters"),
    (lambda lex: lex.anagrams("a" * 21), "at most 20"),
    (lambda lex: lex.unscramble("abc", min_len=0), "min_len"),
    (lambda lex: lex.unscramble("abc", starts="é"), "'é' in starts"),
    (lambda lex: lex.match("c[a]t"), "'[' in pattern"),
    (lambda lex: lex.match(""), "pattern is empty"),
    (lambda lex: lex.match("?" * 65), "at most 64"),
])
def test_bad_queries(small, call, message):
    _, lex = small
    with pytest.raises(BadInput, match=message.replace("[", r"\[")):
        call(lex)


def test_cyrillic_lexicon(tmp_path):
    words = sorted({"кот", "кошка", "дом", "дома", "мир", "ток", "кто", "окно", "сон", "нос"})
    lex = load(dawg_bytes(words, RU), DAWG_MAGIC, tmp_path)
    assert list(lex) == words
    assert lex.anagrams("кто") == ["кот", "кто", "ток"]
    assert lex.anagrams("сно") == ["нос", "сон"]
    assert lex.match("д*") == ["дома", "дом"]
    assert lex.unscramble("окшак?") == oracle.unscramble(words, "окшак?")
    with pytest.raises(BadInput, match="'x' in letters"):
        lex.anagrams("xот")


def test_damaged_packed_graph_is_refused_in_one_line():
    good = dawg_bytes(["cat", "cats", "dog", "dogs"], "acdgost")
    fields = list(PACKED_HEADER.unpack_from(good))
    header_size, arcs_bytes = fields[3], fields[10]
    arcs = good[header_size:header_size + arcs_bytes]
    # The last arc without LAST: its node reads on past the section. Then arcs that each hold
    # their child in place, without end: nesting deeper than any word.
    for damaged in (arcs[:-2] + bytes([arcs[-2] & ~0x40]) + arcs[-1:], bytes([1]) * 5000):
        fields[2], fields[10], fields[11] = 0, len(damaged), 0  # no counts section
        # Sealed with a matching sha256, as a faulty writer would: the structure is on trial.
        data = sealed_graph(PACKED_HEADER.pack(*fields) + good[PACKED_HEADER.size:header_size]
                            + damaged)
        with pytest.raises(CorruptArtifact) as error:
            unpack_graph(data, "g.dawg", DAWG_MAGIC)
        assert str(error.value) == ("g.dawg: arcs or counts section does not decode; delete "
                                    "it and run `make lexicons` to rebuild")
