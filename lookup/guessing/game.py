"""Guessing games at run time: `guessing_game(id)` answers from the built artifacts only.

A game (Wordle, Nerdle, or any list a user configures) is an alphabet, a word length, an answer
list and an allowed-guess list. Its artifacts live in `<artifacts>/guessing/`:
`games.json` (the configured ids), `<id>.game.json` (descriptor), `<id>.answers.txt`,
`<id>.guesses.txt`, `<id>.feedback.npy` (+ `.feedback.json`), `<id>.tree.msgpack` and
`<id>.hard.tree.msgpack`. Nothing here recomputes a matrix: filtering and ranking read matrix
rows (see lookup/guessing/feedback.py for the code encoding).

History is a sequence of (guess, feedback) pairs. Feedback may be written as digits ("20100":
2 green, 1 yellow, 0 grey), as letters (g = green, y = yellow, b / x / w / . / - = grey, any
case) or as the squares the game shares (🟩 green, 🟨 yellow, ⬛ / ⬜ grey; the high-contrast
🟧 green and 🟦 yellow too).
"""

import functools
from pathlib import Path

import numpy as np

from lookup.errors import BadInput, unknown_name
from lookup.formats import (
    GAME_EARLIEST_SUPPORTED_VERSION,
    GAME_FIELDS,
    GAME_FORMAT,
    GAME_VERSION,
    GAMES_INDEX_EARLIEST_SUPPORTED_VERSION,
    GAMES_INDEX_FIELDS,
    GAMES_INDEX_FORMAT,
    GAMES_INDEX_NAME,
    GAMES_INDEX_VERSION,
    corrupt,
)
from lookup.guessing.feedback import (
    all_green,
    code_count,
    code_to_digits,
    feedback_reference,
    load_feedback,
)
from lookup.guessing.splits import split_figures
from lookup.guessing.tree import load_tree
from lookup.headers import read_json_header
from lookup.paths import artifacts_dir

_FEEDBACK_SYMBOLS = {
    "0": 0, "1": 1, "2": 2,
    "g": 2, "y": 1, "b": 0, "x": 0, "w": 0, ".": 0, "-": 0,
    "🟩": 2, "🟧": 2, "🟨": 1, "🟦": 1, "⬛": 0, "⬜": 0,
}
_VARIATION_SELECTOR = "\ufe0f"


def guessing_dir() -> Path:
    """Where the guessing-game artifacts are: <artifacts>/guessing."""
    return artifacts_dir() / "guessing"


def load_descriptor(path, make_target: str = "") -> dict:
    """Read and check a `<id>.game.json` descriptor (fields: lookup.formats.GAME_FIELDS).

    Args:
        path: the descriptor.
        make_target: what rebuilds it (`make <make_target>`, e.g. the game id); default the
            path itself.

    Raises:
        ArtifactMissing, UnsupportedFormat, CorruptArtifact: see lookup.headers.check_header.
    """
    return read_json_header(path, make_target=make_target or str(path), sealed=True,
                            format=GAME_FORMAT,
                            versions=(GAME_EARLIEST_SUPPORTED_VERSION, GAME_VERSION),
                            fields=GAME_FIELDS)


def guessing_game_names(directory=None) -> list[str]:
    """The ids of the games the build was configured with, from games.json ([] before a build).

    Args:
        directory: the guessing artifacts; default guessing_dir().

    Raises:
        CorruptArtifact, UnsupportedFormat: games.json cannot be trusted.
    """
    return list(games_index(directory))


def games_index(directory=None) -> dict[str, str]:
    """The configured games from games.json, id -> display name ({} before a build).

    Args:
        directory: the guessing artifacts; default guessing_dir().

    Raises:
        CorruptArtifact, UnsupportedFormat: games.json cannot be trusted.
    """
    index_path = Path(directory or guessing_dir()) / GAMES_INDEX_NAME
    if not index_path.is_file():
        return {}
    index = read_json_header(index_path, make_target="guessing", sealed=True,
                             format=GAMES_INDEX_FORMAT,
                             versions=(GAMES_INDEX_EARLIEST_SUPPORTED_VERSION,
                                       GAMES_INDEX_VERSION), fields=GAMES_INDEX_FIELDS)
    return dict(index["games"])


def parse_feedback(text: str, length: int) -> int:
    """Feedback code of `text` written as digits, gyb letters or squares.

    Args:
        text: e.g. "20100", "gybbb", "🟩⬛🟨⬛⬛".
        length: the game's word length.

    Returns:
        The code (position 0 most significant trit).

    Raises:
        BadInput: an unknown symbol or the wrong number of positions.
    """
    symbols = [ch for ch in text.strip().lower() if ch != _VARIATION_SELECTOR and not ch.isspace()]
    code = 0
    for ch in symbols:
        if ch not in _FEEDBACK_SYMBOLS:
            raise BadInput(f"feedback {text!r}: {ch!r} is not a colour; use digits 0/1/2, letters "
                           "g/y/b or the squares 🟩 🟨 ⬛")
        code = code * 3 + _FEEDBACK_SYMBOLS[ch]
    if len(symbols) != length:
        raise BadInput(f"feedback {text!r} has {len(symbols)} positions, the game has {length}")
    return code


def hard_mode_violation(guess: str, previous: str, code: int) -> str | None:
    """Why `guess` may not follow `previous` (which got `code`) in hard mode, or None.

    Hard mode as the original game checks it: every green letter stays in place, and every
    letter shown green or yellow is used at least as often as it was shown. This is the rule's
    one statement; pipeline/search_tree.py has a compiled copy (`_child_allowed`) that
    tests/test_tree.py checks against this function.
    """
    trits = [int(d) for d in code_to_digits(code, len(previous))]
    for i, (t, letter) in enumerate(zip(trits, previous)):
        if t == 2 and guess[i] != letter:
            return f"position {i + 1} must be {letter!r}"
    shown: dict[str, int] = {}
    for t, letter in zip(trits, previous):
        if t:
            shown[letter] = shown.get(letter, 0) + 1
    for letter, times in shown.items():
        if guess.count(letter) < times:
            return f"it must contain {letter!r}" + (f" {times} times" if times > 1 else "")
    return None


class GuessingGame:
    """One guessing game, answering from its built artifacts.

    Attributes:
        id, name, alphabet, length, max_guesses: from the descriptor.
        answers: the answer list; guesses: the allowed guesses (answers first).
    """

    def __init__(self, directory: Path, game: dict):
        self.directory = directory
        self.descriptor = game
        self.id = game["id"]
        self.name = game["name"]
        self.alphabet = game["alphabet"]
        self.length = game["length"]
        self.max_guesses = game["max_guesses"]
        matrix = load_feedback(directory / f"{self.id}.feedback.npy")
        if (matrix.guesses[:len(matrix.answers)] != matrix.answers
                or len(matrix.answers) != game["answers"]["count"]
                or len(matrix.guesses) != game["guesses"]["count"]):
            raise corrupt(directory / f"{self.id}.feedback.npy",
                          f"its word lists do not match {self.id}.game.json")
        self._matrix = matrix
        self.answers = matrix.answers
        self.guesses = matrix.guesses
        self.codes = matrix.codes  # uint8|uint16[len(guesses), len(answers)], memory-mapped

    # --- words and feedback ------------------------------------------------------------------

    def _word(self, word: str, what: str = "guess") -> str:
        word = word.strip().lower()
        if len(word) != self.length:
            raise BadInput(f"{what} {word!r} has {len(word)} characters, {self.id} needs "
                           f"{self.length}")
        bad = sorted({ch for ch in word if ch not in self.alphabet})
        if bad:
            raise BadInput(f"{what} {word!r} uses {''.join(bad)!r}, not in the alphabet "
                           f"{self.alphabet!r}")
        if self.descriptor.get("guess_rules") == "nerdle-equations":
            # Imported here: its exact arithmetic (fractions) costs every load ~10 ms.
            from lookup.guessing.equations import validate_equation

            # Say why (untrue, two '=', a leading zero...) rather than just "not allowed".
            try:
                validate_equation(word, length=self.length, kind="guesses")
            except BadInput as error:
                raise BadInput(f"{what} {word!r}: {error}") from None
        return word

    def _guess_index(self, word: str) -> int:
        word = self._word(word)
        index = self._matrix.guess_index.get(word)
        if index is None:
            raise BadInput(f"{word!r} is not in the allowed list of {self.id}")
        return index

    def feedback(self, guess: str, answer: str) -> str:
        """Feedback digits of `guess` against `answer`, e.g. feedback("salet", "cigar") == "01000".

        Args:
            guess: any word of the game's length and alphabet.
            answer: likewise.

        Returns:
            One digit per position: 2 green, 1 yellow, 0 grey.

        Raises:
            BadInput: wrong length or characters outside the alphabet.
        """
        guess = self._word(guess)
        answer = self._word(answer, "answer")
        return code_to_digits(feedback_reference(guess, answer), self.length)

    # --- history -------------------------------------------------------------------------------

    def _parse_history(self, history, hard: bool) -> tuple[list[tuple[int, int]], np.ndarray]:
        """[(guess index, code)] and the candidate answer indices; validates everything."""
        parsed = []
        candidates = np.arange(len(self.answers))
        for turn, item in enumerate(history, 1):
            try:
                guess, feedback = item
            except (TypeError, ValueError):
                raise BadInput(f"history item {turn} must be a (guess, feedback) pair") from None
            g = self._guess_index(guess)
            code = feedback if isinstance(feedback, int) and not isinstance(feedback, bool) \
                else parse_feedback(str(feedback), self.length)
            if not 0 <= code < code_count(self.length):
                raise BadInput(f"feedback code {code} of guess {turn} is out of range")
            if hard:
                for earlier, (pg, pc) in enumerate(parsed, 1):
                    why = hard_mode_violation(self.guesses[g], self.guesses[pg], pc)
                    if why:
                        raise BadInput(f"hard mode: guess {turn} {self.guesses[g]!r} breaks "
                                       f"guess {earlier}'s hint: {why}")
            parsed.append((g, code))
            candidates = candidates[np.asarray(self.codes[g, candidates]) == code]
            if candidates.size == 0:
                raise BadInput(f"no answer fits: check the colours of guess {turn} "
                               f"({self.guesses[g]!r})")
        return parsed, candidates

    def candidates(self, history=(), hard: bool = False) -> list[str]:
        """Answers still possible after `history`, in answer-list order.

        Args:
            history: (guess, feedback) pairs so far.
            hard: also check that every guess obeys the hard-mode hints before it.

        Raises:
            BadInput: a guess not allowed, malformed feedback, no answer fits, or (hard) a
                guess that ignores a hint.
        """
        _, cands = self._parse_history(history, hard=hard)
        return [self.answers[a] for a in cands]

    def _allowed(self, parsed, hard: bool) -> np.ndarray:
        """Guess indices allowed next: all, or in hard mode those obeying every hint so far."""
        if not hard or not parsed:
            return np.arange(len(self.guesses))
        return np.array([h for h, word in enumerate(self.guesses)
                         if all(hard_mode_violation(word, self.guesses[g], c) is None
                                for g, c in parsed)], dtype=np.int64)

    # --- the decision tree ------------------------------------------------------------------------

    def _tree(self, hard: bool):
        name = f"{self.id}.hard.tree.msgpack" if hard else f"{self.id}.tree.msgpack"
        return load_tree(self.directory / name, self.descriptor["answers"]["sha256"],
                         self.descriptor["guesses"]["sha256"])

    def _tree_node(self, parsed, hard: bool):
        """The tree node reached by the history, or None once the history leaves the tree."""
        tree = self._tree(hard)
        node = tree.root
        for g, code in parsed:
            if node is None or node[0] != g:
                return None
            if code == all_green(self.length):
                return None
            node = tree.child(node, code)
        return node

    def _subtree_total(self, tree, node, candidates: np.ndarray) -> int:
        """Guesses the tree needs below `node` summed over `candidates` (its own guess counted)."""
        green = all_green(self.length)
        total = 0
        for a in candidates:
            current, depth = node, 1
            code = int(self.codes[current[0], a])
            while code != green:
                current, depth = tree.child(current, code), depth + 1
                code = int(self.codes[current[0], a])
            total += depth
        return total

    def tree_info(self, hard: bool = False) -> dict:
        """The stored tree's header: root, total, proof status, screened openers, search size."""
        return dict(self._tree(hard).header)

    def tree_stats(self, hard: bool = False) -> dict:
        """Statistics of the stored decision tree.

        Returns:
            {"total": guesses summed over all answers, "mean": total / answers (4 decimals),
             "max": most guesses any answer needs, "histogram": {guesses: answers},
             "optimal": "over all openers" (no tree totals less, whatever its opener: the
             opener is proven best), "for its opener" (no tree with this opener totals less)
             or "not proven" (a width-limited search)}.

        Raises:
            ArtifactMissing: the tree has not been built.
        """
        return self._tree(hard).stats()

    # --- ranking ---------------------------------------------------------------------------------

    def _figures(self, guesses: np.ndarray, candidates: np.ndarray) -> dict[str, np.ndarray]:
        """lookup.guessing.splits.split_figures of each guess over the candidates."""
        # The [guesses, candidates] cells, gathered once: the matrix itself when every answer is
        # a candidate, rows first when few guesses are wanted (evaluate: not a full-matrix copy).
        if candidates.size == self.codes.shape[1]:
            # Candidates are ascending, so they are all the columns in order.
            return split_figures(self.codes, code_count(self.length), guesses)
        if 4 * guesses.size < self.codes.shape[0]:
            return split_figures(self.codes[guesses][:, candidates], code_count(self.length))
        return split_figures(self.codes[:, candidates], code_count(self.length), guesses)

    @functools.cached_property
    def _opening_figures(self) -> dict[str, np.ndarray]:
        # Cached: ranking every guess over every answer costs about a second, and the empty
        # history is the most common query.
        return self._figures(np.arange(len(self.guesses)), np.arange(len(self.answers)))

    def _rows(self, history, hard: bool, only: int | None = None, n: int | None = None):
        parsed, cands = self._parse_history(history, hard)
        if only is not None:
            if hard and parsed:
                for turn, (g, c) in enumerate(parsed, 1):
                    why = hard_mode_violation(self.guesses[only], self.guesses[g], c)
                    if why:
                        raise BadInput(f"hard mode: {self.guesses[only]!r} breaks guess {turn}'s "
                                       f"hint: {why}")
            allowed = np.array([only])
        else:
            allowed = self._allowed(parsed, hard)
        if not parsed and only is None:
            figures = self._opening_figures
        else:
            figures = self._figures(allowed, cands)
        is_candidate = np.isin(allowed, cands)  # answers lead the guess list: index a is answer a
        node = self._tree_node(parsed, hard) if self._has_tree(hard) else None
        known = {}
        if node is not None:
            known[node[0]] = self._subtree_total(self._tree(hard), node, cands)
            if not parsed:
                for word, total, exact in self._tree(hard).header.get("screened", []):
                    if exact:
                        known.setdefault(self._matrix.guess_index[word], total)
        # Order: the tree's choice (proven optimal) and other exact totals first, then by
        # expected remaining, answers that could win first, then guess-list order.
        known_total = np.full(allowed.size, np.inf)
        for g, total in known.items():
            i = np.searchsorted(allowed, g)  # allowed is ascending
            if i < allowed.size and allowed[i] == g:
                known_total[i] = total
        order = np.lexsort((allowed, ~is_candidate, figures["expected_remaining"], known_total))
        if n is not None:
            order = order[:n]
        rows = []
        for i in order:
            g = int(allowed[i])
            total = known.get(g)
            rows.append({
                "guess": self.guesses[g],
                "groups": int(figures["groups"][i]),
                "largest": int(figures["largest"][i]),
                "expected_remaining": round(float(figures["expected_remaining"][i]), 4),
                "entropy": round(float(figures["entropy"][i]), 4),
                "is_candidate": bool(is_candidate[i]),
                "expected_guesses": None if total is None else round(total / cands.size, 4),
            })
        return rows, node, cands

    def _has_tree(self, hard: bool) -> bool:
        name = f"{self.id}.hard.tree.msgpack" if hard else f"{self.id}.tree.msgpack"
        return (self.directory / name).is_file()

    def rank(self, history=(), n: int = 10, hard: bool = False) -> list[dict]:
        """The best next guesses, best first.

        Args:
            history: (guess, feedback) pairs so far.
            n: how many rows.
            hard: hard mode (only guesses obeying every hint; the hard-mode tree).

        Returns:
            Rows {"guess", "groups", "largest", "expected_remaining", "entropy",
            "is_candidate", "expected_guesses"}: groups and sizes are over the answers still
            possible; expected_guesses (guesses from now on, this one included, averaged over
            them) is known only for the tree's move and, at the start, the screened openers.

        Raises:
            BadInput: bad history (see candidates) or a hard-mode violation in it.
        """
        if n < 1:
            raise BadInput(f"n must be at least 1, got {n}")
        return self._rows(history, hard, n=n)[0]

    def evaluate(self, guess: str, history=(), hard: bool = False) -> dict:
        """The figures of `rank` for one given guess after `history`.

        Raises:
            BadInput: the guess is not allowed (or breaks a hard-mode hint), or bad history.
        """
        return self._rows(history, hard, only=self._guess_index(guess))[0][0]

    def next_guess(self, history=(), hard: bool = False) -> str:
        """The guess to play next: the tree's while the history follows it, else the best ranked.

        Raises:
            BadInput: bad history or a hard-mode violation in it.
        """
        parsed, cands = self._parse_history(history, hard)
        if cands.size == 1:
            return self.answers[int(cands[0])]
        if self._has_tree(hard):
            node = self._tree_node(parsed, hard)
            if node is not None:
                return self.guesses[node[0]]
        return self.rank(history, n=1, hard=hard)[0]["guess"]


@functools.lru_cache(maxsize=None)
def _load_game(directory: str, game_id: str) -> GuessingGame:
    directory = Path(directory)
    names = guessing_game_names(directory)
    if game_id not in names:
        raise unknown_name("guessing game", game_id, names, "guessing")
    return GuessingGame(directory, load_descriptor(directory / f"{game_id}.game.json", game_id))


def guessing_game(game_id: str) -> GuessingGame:
    """The guessing game `game_id` ("wordle-en", "wordle-en-nyt", "wordle-de", "wordle-nl", ...).

    Raises:
        UnknownName: no such game is built (the message lists those that are).
        ArtifactMissing: none is built at all (the message names the make target).
        ArtifactMissing: its artifacts are not built (the message names the make target).
    """
    return _load_game(str(guessing_dir()), game_id)
