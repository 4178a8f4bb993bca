"""A multi-word turn (Erudit, placement = "multi"): a set of new tiles, its words, why it is
illegal, and its score.

The rules, as docs/GAMES.md ("## Erudit") reads them: every maximal run of two tiles or more,
across or down, that holds a new tile is a word of the lexicon within the length limits; every
new tile joins the tiles that were on the board before the turn, directly or through other new
tiles (on the empty board: joins the tile on the start square, which the turn covers); no
square takes two tiles. The turn scores each of those words on its own with the premiums of
the squares it newly covers, plus the bingo once when a full rack is placed
(lookup/crossword/scoring.py's score_runs). With repeat_words = false a word formed this turn may
not be on the board already (every run of two tiles or more there), nor in the words played before
(when the caller knows them), nor formed twice in the turn. And the tiles can be laid as
single-line plays one after another, each legal when laid (`layable`): two new words that need
each other's letters for their cross words, neither layable first, are not a turn. A
single-line placement is a turn too, and scores the same both ways.
"""

from collections.abc import Callable, Iterable

from lookup.crossword.board import Board, neighbours, runs_through, tile_letter
from lookup.crossword.placement import shape_problems, square_problems, word_problems
from lookup.crossword.rules import Rules
from lookup.crossword.scoring import board_tile_values, score_runs


def new_squares(board: Board, placed: list) -> list[int]:
    """Square indexes of the new tiles."""
    return [row * board.size + col for row, col, _letter, _blank in placed]


def run_letters(board: Board, run: tuple[int, int, int]) -> str:
    """The word a run (first, last, step) of `board` spells, lowercase."""
    first, last, step = run
    return "".join(tile_letter(board.alphabet, board.cells[j])
                   for j in range(first, last + 1, step))


def turn_words(board: Board, placed: list) -> list[str]:
    """Every word a turn forms: the runs of two tiles or more holding a new tile, the runs
    across first, then down (each group in reading order).
    """
    after = board.with_tiles(placed)
    return [run_letters(after, run)
            for run in runs_through(after.cells, after.size, new_squares(board, placed))]


def board_words(board: Board) -> set[str]:
    """Every word on the board: the runs of two tiles or more, across and down."""
    tiles = [index for index, code in enumerate(board.cells) if code]
    return {run_letters(board, run) for run in runs_through(board.cells, board.size, tiles)}


def repeated_words(board: Board) -> list[str]:
    """The words the board holds more than once (runs of two tiles or more, across and
    down), in reading order of their first run.
    """
    tiles = [index for index, code in enumerate(board.cells) if code]
    seen = []
    twice = []
    for run in runs_through(board.cells, board.size, tiles):
        word = run_letters(board, run)
        if word in seen and word not in twice:
            twice.append(word)
        seen.append(word)
    return twice


def connection_problems(rules: Rules, board: Board, placed: list) -> list[str]:
    """Reasons the new tiles do not join the board: the first turn misses the start square, or
    a tile joins the tiles on the board neither directly nor through other new tiles.
    """
    n = board.size
    new = set(new_squares(board, placed))
    start = rules.layout.start
    if board.is_empty():
        if start[0] * n + start[1] not in new:
            return [f"first move must cover the start square row {start[0]} col {start[1]}"]
        reached = {start[0] * n + start[1]}
    else:
        reached = {index for index in new if any(board.cells[j] for j in neighbours(index, n))}
    frontier = list(reached)
    while frontier:
        for j in neighbours(frontier.pop(), n):
            if j in new and j not in reached:
                reached.add(j)
                frontier.append(j)
    loose = sorted(new - reached)
    if not loose:
        return []
    squares = ", ".join(f"row {index // n} col {index % n}" for index in loose)
    return [f"not connected: the tiles on {squares} join no tile of the board, directly or "
            "through the other new tiles"]


def repeat_problems(rules: Rules, words: list[str], played: set[str]) -> list[str]:
    """Reasons the words of a turn break repeat_words = false; `played` holds the words played
    before (at least those on the board).
    """
    if rules.repeat_words:
        return []
    reasons = []
    for k, word in enumerate(words):
        if word in played:
            reasons.append(f"word {word.upper()} is already played; {rules.id} forms each word "
                           "once")
        elif word in words[:k]:
            reasons.append(f"word {word.upper()} is formed twice in this turn; {rules.id} forms "
                           "each word once")
    return reasons


def played_set(board: Board, played_words: Iterable[str] | None) -> set[str]:
    """The words a turn may not repeat: those on the board plus `played_words`."""
    return board_words(board) | {word.lower() for word in (played_words or ())}


def turn_problems(rules: Rules, board: Board, placed: list, is_word: Callable[[str], bool],
                  played_words: Iterable[str] | None = None) -> list[str]:
    """Why a turn is illegal (module docstring); an empty list when it is legal."""
    reasons = square_problems(rules, board, placed)
    if reasons:
        return reasons
    reasons = connection_problems(rules, board, placed)
    words = turn_words(board, placed)
    if not words:
        reasons.append("no word formed: a word has two tiles or more in a row or column")
    for word in words:
        if len(word) > rules.max_word_length:
            reasons.append(f"word {word.upper()} is longer than {rules.max_word_length} "
                           "letters")
        elif len(word) < rules.min_word_length:
            reasons.append(f"word {word.upper()} is shorter than {rules.min_word_length} "
                           "letters")
        elif not is_word(word):
            reasons.append(f"word {word.upper()} is not a word")
    reasons += repeat_problems(rules, words, played_set(board, played_words))
    if not reasons and not layable(rules, board, placed, is_word):
        reasons.append("no order of single-line plays lays these tiles with every play legal "
                       "when laid: lay the words one after another, each forming words")
    return reasons


def layable(rules: Rules, board: Board, placed: list, is_word: Callable[[str], bool]) -> bool:
    """Whether the new tiles (legal as a set) can be laid as single-line plays one after
    another, each legal on the board the ones before leave (placement.py's shape and word
    checks, repeats aside: the whole turn's words are judged on the final board). At most
    2^7 sets of tiles laid, each tried once.
    """
    tiles = sorted(placed)
    failed = set()

    def lay(laid: frozenset, now: Board) -> bool:
        if len(laid) == len(tiles):
            return True
        if laid in failed:
            return False
        left = [tile for tile in tiles if tile not in laid]
        for part in _line_parts(now, left):
            reasons, direction = shape_problems(rules, now, part)
            if reasons or word_problems(rules, now, part, direction, is_word):
                continue
            if lay(laid | frozenset(part), now.with_tiles(part)):
                return True
        failed.add(laid)
        return False

    return lay(frozenset(), board)


def _line_parts(board: Board, tiles: list) -> list[list]:
    """Every run of `tiles` along a row or a column with only board tiles between them: the
    single-line plays that could lay them.
    """
    n = board.size
    parts = []
    for across in (True, False):
        lines: dict[int, list] = {}
        for tile in tiles:
            lines.setdefault(tile[0] if across else tile[1], []).append(tile)
        for group in lines.values():
            group.sort(key=lambda tile: tile[1] if across else tile[0])
            for first in range(len(group)):
                for last in range(first, len(group)):
                    if last > first:
                        a, b = group[last - 1], group[last]
                        between = (range(a[1] + 1, b[1]) if across else range(a[0] + 1, b[0]))
                        if any(not board.cells[(a[0] * n + k) if across else (k * n + a[1])]
                               for k in between):
                            break
                    if across or last > first:
                        parts.append(group[first:last + 1])
    return parts


def turn_score(rules: Rules, board: Board, placed: list) -> int:
    """The score of a turn whose tiles may go where they are (lookup/crossword/scoring.py's
    rule).
    """
    after = board.with_tiles(placed)
    new = new_squares(board, placed)
    values = board_tile_values(rules.tiles.values)
    layout = rules.layout
    return score_runs(after.cells, set(new), runs_through(after.cells, after.size, new),
                      layout.letter_mult, layout.word_mult, values, rules.rack_size, rules.bingo)
