"""Build a game's feedback matrix: the code of every (allowed guess, answer) pair.

Reads `<game>.game.json` and its two word lists; writes `<game>.feedback.npy` (uint8, or <u2
when 3**length > 256; rows = guesses, columns = answers; encoding in lookup/guessing/feedback.py)
and its header `<game>.feedback.json` with the sha256 of both lists and of the .npy file.

Usage: wordpack-build feedback artifacts/guessing/wordle-en.game.json
       -o artifacts/guessing/wordle-en.feedback.npy
"""

from pathlib import Path

import numba
import numpy as np

from lookup.formats import FEEDBACK_FORMAT, FEEDBACK_VERSION, corrupt, require_file, sha256_file
from lookup.guessing.feedback import code_dtype, feedback_header_path
from lookup.guessing.game import load_descriptor
from lookup.headers import sealed_json
from lookup.word_list import read_word_list
from pipeline.atomic import atomic_output
from pipeline.provenance import record


def encode_words(words: list[str], alphabet: str) -> np.ndarray:
    """Letter indices, uint8[len(words), length] (every word must be over `alphabet`)."""
    index = {ch: i for i, ch in enumerate(alphabet)}
    length = len(words[0]) if words else 0
    return np.array([[index[ch] for ch in w] for w in words], dtype=np.uint8).reshape(-1, length)


def feedback_matrix(guesses: list[str], answers: list[str], alphabet: str) -> np.ndarray:
    """Codes of every (guess, answer) pair, compiled; equals
    lookup.guessing.feedback.feedback_reference.

    Position i of a pair is green when guess[i] == answer[i]. Otherwise it is yellow iff

        count(answer, c) - #{j < i: guess[j] == c} - #{j > i: guess[j] == c, green at j} > 0

    with c = guess[i]. Why: of the answer's copies of c, every green of c uses one, and every
    earlier same-letter position uses one too (green ones by matching, non-green ones as
    yellows taken first), so the j > i greens and all j < i same-letter positions are exactly
    the copies not left for position i. Only the j > i green term depends on the answer, and
    only for guesses that repeat c. A numba kernel fills one guess row per parallel task,
    position by position over contiguous per-position answer rows (SIMD-friendly): Nerdle
    classic's 17,723 x 17,723 takes about a second, where the same formula in blocked numpy
    took 11-16 s (its temporaries made it memory-bound).

    Args:
        guesses: allowed guesses, all of one length.
        answers: answers, same length.
        alphabet: every character the words use.

    Returns:
        uint8 (or uint16) array [len(guesses), len(answers)].
    """
    length = len(answers[0])
    g_letters = encode_words(guesses, alphabet)
    a_letters = encode_words(answers, alphabet)
    # counts[letter, answer] = copies of letter in answer (a word has at most `length` copies).
    counts = np.zeros((len(alphabet), len(answers)), dtype=np.int8)
    for i in range(length):
        np.add.at(counts, (a_letters[:, i], np.arange(len(answers))), 1)
    # before[g, i] = #{j < i: guess[j] == guess[i]}: depends on the guess only.
    before = np.zeros(g_letters.shape, dtype=np.int8)
    for i in range(length):
        for j in range(i):
            before[:, i] += g_letters[:, j] == g_letters[:, i]
    out = np.empty((len(guesses), len(answers)), dtype=code_dtype(length))
    _fill_codes(g_letters, before, np.ascontiguousarray(a_letters.T), counts, out)
    return out


@numba.njit(parallel=True, cache=True)
def _fill_codes(g_letters, before, a_by_position, counts, out):
    """out[g, a] = the code of guess g vs answer a by the rule in feedback_matrix.

    a_by_position is uint8[length, answers] (row i: every answer's letter at i); counts and
    before as in feedback_matrix.
    """
    n_answers = a_by_position.shape[1]
    length = g_letters.shape[1]
    for g in numba.prange(g_letters.shape[0]):
        code = np.zeros(n_answers, np.int32)
        room = np.empty(n_answers, np.int8)
        for i in range(length):
            c = g_letters[g, i]
            copies, used = counts[c], before[g, i]
            for a in range(n_answers):
                room[a] = copies[a] - used
            for j in range(i + 1, length):
                if g_letters[g, j] == c:
                    later = a_by_position[j]
                    for a in range(n_answers):
                        room[a] -= later[a] == c
            here = a_by_position[i]
            for a in range(n_answers):
                green = here[a] == c
                code[a] = code[a] * 3 + 2 * green + ((not green) & (room[a] > 0))  # no branch
        for a in range(n_answers):
            out[g, a] = code[a]


def build_feedback(game_path, output) -> dict:
    """Write the matrix of the game described by `game_path` and its JSON header."""
    game_path = Path(game_path)
    game = load_descriptor(game_path)
    lists = {role: game_path.parent / game[role]["file"] for role in ("guesses", "answers")}
    for role, path in lists.items():
        if sha256_file(require_file(path, str(game_path))) != game[role]["sha256"]:
            raise corrupt(path, f"does not match the sha256 in {game_path.name}", str(game_path))
    guesses = read_word_list(lists["guesses"])
    answers = read_word_list(lists["answers"])
    matrix = feedback_matrix(guesses, answers, game["alphabet"])
    output = Path(output)
    with atomic_output(output, "wb") as handle:
        np.save(handle, matrix, allow_pickle=False)
    header = {
        "format": FEEDBACK_FORMAT,
        "version": FEEDBACK_VERSION,
        "game": game["id"],
        "length": game["length"],
        "dtype": matrix.dtype.str,
        "shape": list(matrix.shape),
        "guesses": {"file": lists["guesses"].name, "sha256": sha256_file(lists["guesses"])},
        "answers": {"file": lists["answers"].name, "sha256": sha256_file(lists["answers"])},
        "sha256": sha256_file(output),
    }
    header_path = feedback_header_path(output)
    with atomic_output(header_path, "wb") as handle:
        handle.write(sealed_json(header))
    inputs = [lists["guesses"], lists["answers"]]
    record(output, format=FEEDBACK_FORMAT, version=FEEDBACK_VERSION, inputs=inputs)
    record(header_path, format=FEEDBACK_FORMAT, version=FEEDBACK_VERSION, inputs=inputs)
    return header
