"""Bad artifacts and bad names: one specific exception with a one-line message each."""

import pickle

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import lookup
from lookup.errors import ArtifactMissing, CorruptArtifact, UnknownName, UnsupportedFormat
from lookup.formats import DAWG_MAGIC, GRAPH_VERSION, INDEX_HEADER, PACKED_HEADER
from lookup.graph import index_path, read_graph
from pipeline.build_dawg import dawg_bytes, index_for, write_graph_files

WORDS = ["cat", "cats", "dog"]


@pytest.fixture
def dawg_file(tmp_path):
    path = tmp_path / "lexicons" / "tiny.dawg"
    path.parent.mkdir()
    write_graph_files(path, dawg_bytes(WORDS, "acdgost"))
    return path


def one_line(error) -> str:
    text = str(error.value)
    assert "\n" not in text
    return text


def test_loads_by_path_and_by_name(dawg_file, monkeypatch):
    assert list(lookup.lexicon(str(dawg_file))) == WORDS
    monkeypatch.setenv("WORDPACK_ARTIFACTS", str(dawg_file.parents[1]))
    assert "cats" in lookup.lexicon("tiny")


def test_unknown_name_lists_the_built_lexicons(dawg_file, monkeypatch):
    monkeypatch.setenv("WORDPACK_ARTIFACTS", str(dawg_file.parents[1]))
    for sidecar in ("_tiny.dawg.meta.json", "_helper.dawg", "old.dawg.meta.dawg"):
        (dawg_file.parent / sidecar).write_bytes(b"")
    (dawg_file.parent / "other.dawg").write_bytes(b"")
    assert lookup.lexicon_names() == ["other", "tiny"]
    with pytest.raises(UnknownName) as error:
        lookup.lexicon("klingon")
    assert one_line(error) == "unknown lexicon 'klingon': the built ones are other, tiny"


def test_nothing_built_names_the_make_target(tmp_path, monkeypatch):
    monkeypatch.setenv("WORDPACK_ARTIFACTS", str(tmp_path))
    assert lookup.lexicon_names() == []
    with pytest.raises(ArtifactMissing) as error:
        lookup.lexicon("enable")
    assert one_line(error) == ("unknown lexicon 'enable': none is built yet; run `make lexicons` "
                               "to build them")
    with pytest.raises(ArtifactMissing) as error:
        lookup.lexicon(str(tmp_path / "nowhere.dawg"))
    assert "run `make artifacts/lexicons/nowhere.dawg`" in one_line(error)


def test_truncated(dawg_file):
    data = dawg_file.read_bytes()
    for size in (10, PACKED_HEADER.size + 3, len(data) - 4, len(data) - 1):
        dawg_file.write_bytes(data[:size])
        with pytest.raises(CorruptArtifact) as error:
            read_graph(dawg_file, DAWG_MAGIC)
        assert "truncated" in one_line(error)


DAMAGED = "damaged: its sha256 (file_sha256) does not match its bytes; delete it and run " \
          "`make lexicons` to rebuild"


def test_corrupted_payload_is_found_at_load(dawg_file):
    data = bytearray(dawg_file.read_bytes())
    data[-2] ^= 0x10
    dawg_file.write_bytes(data)
    with pytest.raises(CorruptArtifact) as error:
        lookup.lexicon(str(dawg_file))
    assert one_line(error) == f"{dawg_file}: {DAMAGED}"


def test_corrupted_alphabet_and_header(dawg_file):
    data = dawg_file.read_bytes()
    # The alphabet, input_sha256 (metadata no answer reads) and a reserved byte: all covered.
    for at in (PACKED_HEADER.size, 20, 120):
        damaged = bytearray(data)
        damaged[at] ^= 0x01
        dawg_file.write_bytes(damaged)
        with pytest.raises(CorruptArtifact, match="file_sha256"):
            read_graph(dawg_file, DAWG_MAGIC)


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(which=st.sampled_from(["graph", "index"]), position=st.floats(0, 1, exclude_max=True),
       bit=st.integers(0, 7), damage=st.sampled_from(["flip", "truncate", "append"]))
def test_any_damage_to_either_file_is_refused_at_load(dawg_file, which, position, bit, damage):
    path = dawg_file if which == "graph" else index_path(dawg_file)
    good = path.read_bytes()
    at = int(position * len(good))
    if damage == "flip":
        bad = bytearray(good)
        bad[at] ^= 1 << bit
    elif damage == "truncate":
        bad = good[:at]
    else:
        bad = good + bytes([1 << bit]) * (1 + at % 9)
    path.write_bytes(bytes(bad))
    try:
        with pytest.raises((CorruptArtifact, UnsupportedFormat)) as error:
            lookup.lexicon(str(dawg_file))
        assert "\n" not in str(error.value) and "make lexicons" in str(error.value)
    finally:
        path.write_bytes(good)


def test_wrong_magic(dawg_file):
    data = dawg_file.read_bytes()
    dawg_file.write_bytes(b"NOTADAWG" + data[8:])
    with pytest.raises(CorruptArtifact) as error:
        read_graph(dawg_file, DAWG_MAGIC)
    assert "not a WPDAWG file" in one_line(error)


def test_newer_version(dawg_file):
    data = bytearray(dawg_file.read_bytes())
    data[8:10] = (GRAPH_VERSION + 1).to_bytes(2, "little")
    dawg_file.write_bytes(data)
    with pytest.raises(UnsupportedFormat) as error:
        read_graph(dawg_file, DAWG_MAGIC)
    assert error.value.found == GRAPH_VERSION + 1
    assert "rebuild it with `make lexicons`" in one_line(error)


@pytest.mark.parametrize("old", [1, 2, 3])
def test_older_versions_name_the_make_target(dawg_file, old):
    data = bytearray(dawg_file.read_bytes())
    data[8:10] = old.to_bytes(2, "little")
    dawg_file.write_bytes(data)
    with pytest.raises(UnsupportedFormat) as error:
        lookup.lexicon(str(dawg_file))
    assert one_line(error) == (f"{dawg_file}: format version {old} is not supported (this "
                               "reader reads 4); rebuild it with `make lexicons` or upgrade "
                               "wordpack")


def test_missing_index_names_the_make_target(dawg_file):
    index_path(dawg_file).unlink()
    with pytest.raises(ArtifactMissing) as error:
        read_graph(dawg_file, DAWG_MAGIC)
    assert one_line(error) == (f"{dawg_file}.idx does not exist: run `make lexicons` to build "
                               "it")


def test_index_of_another_graph(dawg_file):
    index_path(dawg_file).write_bytes(index_for(dawg_bytes(WORDS[:2], "acdgost")))
    with pytest.raises(CorruptArtifact) as error:
        read_graph(dawg_file, DAWG_MAGIC)
    assert one_line(error) == (f"{dawg_file}.idx: was not built from tiny.dawg; delete it and "
                               "run `make lexicons` to rebuild")


def test_damaged_index(dawg_file):
    path = index_path(dawg_file)
    data = bytearray(path.read_bytes())
    path.write_bytes(data[:-1])
    with pytest.raises(CorruptArtifact, match="truncated or padded"):
        read_graph(dawg_file, DAWG_MAGIC)
    data[INDEX_HEADER.size + 9] ^= 0x01
    path.write_bytes(data)
    with pytest.raises(CorruptArtifact) as error:
        read_graph(dawg_file, DAWG_MAGIC)
    assert one_line(error) == f"{path}: {DAMAGED}"


@pytest.mark.parametrize("error", [
    ArtifactMissing("x.dawg is missing: run `make lexicons`"),
    CorruptArtifact("x.dawg: checksum mismatch"),
    UnknownName("unknown lexicon 'x'"),
    UnsupportedFormat("x.dawg", 2, 3, "lexicons"),
])
def test_errors_cross_process_boundaries(error):
    # A worker's error reaches the parent pickled (matches, training): it must arrive whole.
    again = pickle.loads(pickle.dumps(error))
    assert (type(again), str(again)) == (type(error), str(error))
