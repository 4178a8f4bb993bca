"""Leave tables (lookup/crossword/leaves.py, written by pipeline/train_leaves.py): every leave of
every game, the file round trip, the reader against a plain dict, bad input and bad files, and the
learning arithmetic on hand-made racks. @pytest.mark.full checks the built tables."""

import random

import msgpack
import numpy as np
import pytest

from conftest import full_artifact
from crossword_support import GAMES, TRAINED_GAMES, rules
from lookup.crossword.leaves import LeaveValues, leave_keys, read_leaves
from lookup.crossword.rules import load_rules
from lookup.crossword.tiles import codes_of_key, key_of_codes
from lookup.errors import BadInput, CorruptArtifact
from lookup.headers import sealed
from pipeline.train_leaves import leave_statistics, smoothed_values, write_leaves

# Leaves of 1-6 tiles, blanks included (the counts of macondo's and our own enumeration).
LEAVES = {"scrabble-en": 914_624, "wordfeud-en": 918_188, "wordfeud-nl": 972_627,
          "erudit-ru": 2_768_358}


@pytest.mark.parametrize("game", GAMES)
def test_every_leave_of_every_game(game):
    r = rules(game)
    keys = leave_keys(r.tiles.counts, r.rack_size - 1)
    assert len(keys) == LEAVES[game]
    assert (np.diff(keys) > 0).all()


def test_leave_keys_by_hand():
    # One blank, two a, one b; leaves of at most two tiles.
    keys = leave_keys([1, 2, 1], 2)
    assert [codes_of_key(int(k)) for k in keys] == [[0], [1], [2], [0, 1], [0, 2], [1, 1],
                                                   [1, 2]]
    assert key_of_codes([2, 0]) == key_of_codes([0, 2]) == 64 * 64 + 2
    assert key_of_codes([19, 0]) == 4115  # "?s" in scrabble-en, docs/FORMATS.md


def table_of(game, seed=3):
    """A table of the game with quarter-point values drawn at random."""
    r = rules(game)
    rng = np.random.default_rng(seed)
    count = len(leave_keys(r.tiles.counts, r.rack_size - 1))
    return LeaveValues(r, rng.integers(-160, 160, count) / 4)


def text_of(r, codes) -> str:
    return "".join("?" if c == 0 else r.alphabet[c - 1] for c in codes)


def test_reader_equals_a_plain_dict_over_every_leave(tmp_path):
    table = table_of("scrabble-en")
    path = tmp_path / "scrabble-en.leaves"
    write_leaves(path, table, {"games": 0})
    read = read_leaves(path, table.rules)
    assert read.header["recipe"] == {"games": 0}
    plain = dict(zip(table.keys.tolist(), table.values.tolist()))
    assert read.lookup(list(plain)).tolist() == list(plain.values())
    rng = random.Random(4)
    for key in rng.sample(list(plain), 3000):
        tiles = list(text_of(table.rules, codes_of_key(key)))
        rng.shuffle(tiles)
        assert read.value("".join(tiles)) == plain[key]
    assert read.value("") == 0.0
    # A whole rack is no leave: 0.0.
    assert read.lookup([key_of_codes([1] * 7)]).tolist() == [0.0]


def test_values_are_stored_to_a_256th_of_a_point(tmp_path):
    r = rules("wordfeud-en")
    values = np.zeros(len(leave_keys(r.tiles.counts, 6)))
    values[:3] = [1 / 3, -45.126, 127.99]
    write_leaves(tmp_path / "t.leaves", LeaveValues(r, values), {})
    read = read_leaves(tmp_path / "t.leaves", r)
    assert read.values[:3].tolist() == [85 / 256, -11552 / 256, 32765 / 256]


@pytest.mark.parametrize("tiles, message", [
    ("?s1", "leave tile '1' is not a letter of scrabble-en"),
    ("abcdefg", "leave 'abcdefg' has 7 tiles; a scrabble-en leave holds at most 6"),
    ("qq", "leave 'qq' holds 2 tiles 'q'; the scrabble-en set has 1"),
    ("???", "leave '???' holds 3 blanks; the scrabble-en set has 2"),
])
def test_bad_leaves_are_one_line(tiles, message):
    with pytest.raises(BadInput) as error:
        table_of("scrabble-en").value(tiles)
    assert str(error.value).startswith(message)


def test_a_table_of_other_rules_or_a_broken_file_is_refused(tmp_path):
    path = tmp_path / "t.leaves"
    write_leaves(path, table_of("wordfeud-en"), {})
    with pytest.raises(CorruptArtifact, match="made for other scrabble-en rules"):
        read_leaves(path, rules("scrabble-en"))
    header, data = msgpack.unpackb(path.read_bytes())
    path.write_bytes(msgpack.packb([header, data[:-2]]))  # any change breaks the seal
    with pytest.raises(CorruptArtifact, match="damaged: its sha256"):
        read_leaves(path, rules("wordfeud-en"))
    # Sealed as a faulty writer would: the value count is on trial.
    path.write_bytes(sealed(msgpack.packb([dict(header, file_sha256="0" * 64), data[:-2]],
                                          use_bin_type=True), "msgpack"))
    with pytest.raises(CorruptArtifact, match="holds 918187 values for 918188 leaves"):
        read_leaves(path, rules("wordfeud-en"))
    path.write_bytes(b"\x00garbage")
    with pytest.raises(CorruptArtifact, match="make leaves"):
        read_leaves(path, rules("wordfeud-en"))


def test_statistics_count_each_distinct_leave_of_a_rack_once():
    r = rules("scrabble-en")
    keys = leave_keys(r.tiles.counts, 6)
    a, e, s = 1, 5, 19
    racks = [key_of_codes([a, a, e, e, e, s, 0]), key_of_codes([a, e, s, s, 0, 0, 26])]
    sums, counts = leave_statistics(racks, [30.0, 50.0], keys, 7)

    def stat(codes):
        at = int(np.searchsorted(keys, key_of_codes(codes)))
        return sums[at], counts[at]

    assert stat([a]) == (80.0, 2)
    assert stat([a, a]) == (30.0, 1)
    assert stat([e, e, e]) == (30.0, 1)
    assert stat([0, s]) == (80.0, 2)
    assert stat([0, 0]) == (50.0, 1)
    assert stat([26]) == (50.0, 1)
    # Distinct sub-multisets of 1-6 tiles: (3*4*2*2) - 2 and 2*2*3*3*2 - 2.
    assert counts.sum() == 46 + 70


def test_thin_leaves_lean_on_their_neighbours():
    keys = leave_keys([0, 1, 1], 2)  # a, b, ab
    sums = np.array([40.0 * 200, 20.0 * 100, 10.0 * 50])
    counts = np.array([200, 100, 50])
    values = smoothed_values(sums, counts, 30.0, keys, 2, smoothing=50)
    # a: (200 * 10 + 50 * 0) / 250 = 8; b: (100 * -10) / 150; ab: prior a + b, own -20.
    assert values[0] == pytest.approx(8.0)
    assert values[1] == pytest.approx(-20 / 3)
    assert values[2] == pytest.approx((50 * -20 + 50 * (8 - 20 / 3)) / 100)


@pytest.mark.full
@pytest.mark.parametrize("game", TRAINED_GAMES)
def test_built_table_equals_a_plain_dict(game):
    r = load_rules(full_artifact(f"crossword/{game}.json"))
    table = read_leaves(full_artifact(f"leaves/{game}.leaves"), r)
    assert len(table) == LEAVES[game]
    plain = dict(zip(table.keys.tolist(), table.values.tolist()))
    assert table.lookup(list(plain)).tolist() == list(plain.values())
    for key in random.Random(1).sample(list(plain), 2000):
        assert table.value(text_of(r, codes_of_key(key))[::-1]) == plain[key]
