"""Guessing-game feedback (Wordle, Nerdle): the encoding, a reference function, the matrix reader.

Encoding (stated once here; docs/FORMATS.md repeats it for other languages). A feedback for a
word of length n is n trits, one per position: 0 = grey (letter not in the answer, or all its
copies already accounted for), 1 = yellow (in the answer elsewhere), 2 = green (right place).
**Position 0 is the most significant trit**:

    code = t[0] * 3**(n-1) + t[1] * 3**(n-2) + ... + t[n-1]

so all-green is 3**n - 1 (242 for Wordle) and all-grey is 0. The string form is the digits
t[0] t[1] ... t[n-1], e.g. "20210". Worked example: guess SNAKE, answer SHARK:
S green (2), N grey (0), A green (2), K yellow (1), E grey (0) -> "20210"
-> 2*81 + 0*27 + 2*9 + 1*3 + 0 = 183.

Repeated letters use the two-pass rule: first every position whose letter matches the answer is
green; then, left to right, a remaining position is yellow while the answer still has unmatched
copies of its letter (copies not used by a green or an earlier yellow), else grey. So ERROR vs
ELDER is "20002": E green, R grey (ELDER's only R is matched by the green R at the end), R grey,
O grey, R green.

A feedback matrix stores one code per (guess, answer) pair: rows follow the game's guess list,
columns its answer list; dtype uint8 when 3**n <= 256 (Wordle), else little-endian uint16
(Nerdle, 3**8 = 6561).
"""

import functools
import json
import os
from pathlib import Path

import numpy as np

from lookup.errors import BadInput
from lookup.formats import (
    FEEDBACK_EARLIEST_SUPPORTED_VERSION,
    FEEDBACK_FIELDS,
    FEEDBACK_FORMAT,
    FEEDBACK_VERSION,
    corrupt,
    require_file,
    sha256_file,
)
from lookup.headers import read_json_header
from lookup.word_list import read_word_list

GREY, YELLOW, GREEN = 0, 1, 2


def code_count(length: int) -> int:
    """Number of distinct feedback codes for words of `length` characters (3**length)."""
    return 3**length


def all_green(length: int) -> int:
    """The code of a solved guess: every trit 2, i.e. 3**length - 1."""
    return 3**length - 1


def code_dtype(length: int) -> np.dtype:
    """Matrix dtype: uint8 while every code fits in a byte (3**length <= 256), else <u2."""
    if code_count(length) <= 256:
        return np.dtype("u1")
    if code_count(length) <= 65536:
        return np.dtype("<u2")
    raise BadInput(f"word length {length} is too long: feedback codes must fit in 16 bits")


def feedback_trits(guess: str, answer: str) -> list[int]:
    """Reference feedback, one trit per position (slow, obviously correct; the tests' oracle).

    Args:
        guess: the guessed word.
        answer: the hidden word, same length as `guess`.

    Returns:
        The trits t[0..n-1] (0 grey, 1 yellow, 2 green).

    Raises:
        BadInput: the two words differ in length.
    """
    if len(guess) != len(answer):
        raise BadInput(f"{guess!r} and {answer!r} differ in length")
    trits = [GREY] * len(guess)
    unmatched: dict[str, int] = {}
    # Pass 1: greens; every answer letter not matched by a green stays available.
    for i, (g, a) in enumerate(zip(guess, answer)):
        if g == a:
            trits[i] = GREEN
        else:
            unmatched[a] = unmatched.get(a, 0) + 1
    # Pass 2: yellows left to right while unmatched copies remain.
    for i, g in enumerate(guess):
        if trits[i] != GREEN and unmatched.get(g, 0) > 0:
            trits[i] = YELLOW
            unmatched[g] -= 1
    return trits


def trits_to_code(trits) -> int:
    """Code of a trit sequence, position 0 most significant."""
    code = 0
    for t in trits:
        code = code * 3 + t
    return code


def code_to_digits(code: int, length: int) -> str:
    """The digit string of a code, e.g. code_to_digits(183, 5) == "20210"."""
    digits = []
    for _ in range(length):
        code, t = divmod(code, 3)
        digits.append("012"[t])
    return "".join(reversed(digits))


def digits_to_code(digits: str) -> int:
    """The code of a digit string, e.g. digits_to_code("20210") == 183."""
    return trits_to_code(int(d) for d in digits)


def feedback_reference(guess: str, answer: str) -> int:
    """Reference feedback code of `guess` against `answer` (see the module docstring)."""
    return trits_to_code(feedback_trits(guess, answer))


class FeedbackMatrix:
    """A loaded feedback matrix with the word lists it is tied to.

    Attributes:
        codes: the memory-mapped matrix, uint8 or <u2 [len(guesses), len(answers)].
        guesses: the guess list (row order).
        answers: the answer list (column order).
        length: word length.
    """

    def __init__(self, codes: np.ndarray, guesses: list[str], answers: list[str], length: int):
        self.codes = codes  # uint8|uint16[n_guesses, n_answers]
        self.guesses = guesses
        self.answers = answers
        self.length = length
        self.guess_index = {w: i for i, w in enumerate(guesses)}
        self.answer_index = {w: i for i, w in enumerate(answers)}


@functools.lru_cache(maxsize=None)
def load_feedback(path, verify: bool = False) -> FeedbackMatrix:
    """Load `<game>.feedback.npy` with its header `<game>.feedback.json` and the two word lists.

    The header (sealed) ties the matrix to the exact bytes of the lists and of the .npy file,
    and every load checks all three. The .npy (628 MB for nerdle-classic, 350 ms to hash) is
    hashed once per file: a good result is stamped in `_<name>.verified.json` beside it with the
    file's identity (size, modification and change times, inode, device), and a later load
    whose file has that identity trusts the stamp. So a file replaced or written to is hashed
    again; damage that changes none of them (a disk's bit rot) is caught only with `verify`,
    which always hashes.

    Args:
        path: the .npy file.
        verify: hash the .npy file whatever its stamp says (`wordpack info --verify`).

    Returns:
        The matrix (memory-mapped, read-only) and its word lists.

    Raises:
        ArtifactMissing: a file is missing (the message names the make target).
        UnsupportedFormat: the header has a format version this reader cannot read.
        CorruptArtifact: a checksum, shape or dtype does not match the header.
    """
    target = str(path)  # every file of the matrix is rebuilt by making the .npy
    path = require_file(path, target)
    header_path = feedback_header_path(path)
    header = read_json_header(header_path, make_target=target, sealed=True,
                              format=FEEDBACK_FORMAT,
                              versions=(FEEDBACK_EARLIEST_SUPPORTED_VERSION, FEEDBACK_VERSION),
                              fields=FEEDBACK_FIELDS)
    lists = {}
    for role in ("guesses", "answers"):
        list_path = require_file(path.parent / header[role]["file"], target)
        if sha256_file(list_path) != header[role]["sha256"]:
            raise corrupt(path, f"its {role} list {list_path.name} does not match the sha256 in "
                          f"{header_path.name}", target)
        lists[role] = read_word_list(list_path, target)
    _check_matrix_bytes(path, header["sha256"], verify, f"{header_path.name}", target)
    try:
        codes = np.load(path, mmap_mode="r", allow_pickle=False)
    except ValueError as error:  # numpy's words for a truncated or foreign file
        raise corrupt(path, f"not a complete .npy matrix ({error})", target) from None
    length = header["length"]
    shape = (len(lists["guesses"]), len(lists["answers"]))
    if (codes.shape != shape or list(shape) != header["shape"]
            or codes.dtype != code_dtype(length) or str(codes.dtype.str) != header["dtype"]):
        raise corrupt(path, f"shape {codes.shape} / dtype {codes.dtype} do not match the word "
                      f"lists {shape} / {code_dtype(length)}", target)
    return FeedbackMatrix(codes, lists["guesses"], lists["answers"], length)


def verified_stamp_path(npy_path) -> Path:
    """Where load_feedback stamps a .npy file it has hashed: `_<name>.verified.json`."""
    return Path(npy_path).with_name(f"_{Path(npy_path).name}.verified.json")


def _check_matrix_bytes(path: Path, sha256: str, verify: bool, header_name: str,
                        target: str) -> None:
    """Refuse a .npy whose sha256 is not `sha256`; skip the hash when its stamp (load_feedback)
    names this very file, unless `verify`.
    """
    stat = path.stat()
    identity = {"size": stat.st_size, "mtime_ns": stat.st_mtime_ns, "ctime_ns": stat.st_ctime_ns,
                "inode": stat.st_ino, "device": stat.st_dev, "sha256": sha256}
    stamp = verified_stamp_path(path)
    if not verify:
        try:
            if json.loads(stamp.read_text(encoding="utf-8")) == identity:
                return
        except (OSError, ValueError):
            pass  # no stamp, or an unreadable one: hash the file
    if sha256_file(path) != sha256:
        raise corrupt(path, f"damaged: its sha256 does not match {header_name}", target)
    temporary = stamp.with_name(f"{stamp.name}.{os.getpid()}.tmp")
    try:
        temporary.write_text(json.dumps(identity), encoding="utf-8")
        os.replace(temporary, stamp)
    except OSError:
        pass  # a read-only directory: every load hashes


def feedback_header_path(npy_path) -> Path:
    """`x.feedback.npy` -> `x.feedback.json`."""
    return Path(npy_path).with_suffix(".json")

