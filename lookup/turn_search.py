"""Choosing a multi-word turn (Erudit): greedy, and the exhaustive search over tile sets.

A turn is searched as parts, single-line plays laid one after another, each legal on the board
the parts before it leave (the step, `Step`, is the single-line move generator with the tiles
left in the rack). What a turn is worth and whether it is legal depend only on its set of new
tiles (lookup/turn.py), not on the order of its parts, so the search keeps one state per set.

- greedy (the Erudit article's first method): lay the best-scoring play, then the best one
  the new board and the tiles left allow, until none fits; a play that would leave the turn
  illegal (a repeated word) is skipped.
- full: every state reachable by parts, each expanded once, breadth first by number of parts
  so a state keeps its shortest decomposition (a set in one line is a play). The tiles left
  follow from the set, so (tiles placed, rack left) is one key.

A legal set of new tiles that no order of single-line parts reaches with every part legal when
laid (two new words that complete each other's cross words) is accepted by validate and score,
but not found here; docs/GAMES.md ("## Erudit") says why that is rare.
"""

from collections.abc import Callable

from lookup.board import Board
from lookup.move import Move

# The step: plays for (board, {letter: count} left, blanks left), best first.
Step = Callable[[Board, dict, int], list]
# The judge of a state: its score, or None when the turn it forms is illegal.
Judge = Callable[[Board, list], int | None]

METHODS = ("greedy", "full")


def rack_left(letters: dict, blanks: int, placed) -> tuple[dict, int]:
    """The rack ({letter: count}, blanks) after placing the tiles `placed`."""
    left = dict(letters)
    for _row, _col, letter, is_blank in placed:
        if is_blank:
            blanks -= 1
        else:
            left[letter] -= 1
    return {letter: n for letter, n in left.items() if n}, blanks


def turn_move(parts: tuple, score: int) -> Move:
    """The Move of a turn laid as `parts`: the play itself when there is one part."""
    if len(parts) == 1:
        return parts[0]
    return Move("turn", score=score, parts=parts)


def greedy_turn(step: Step, judge: Judge, board: Board, letters: dict,
                blanks: int) -> Move | None:
    """The greedy turn (module docstring), or None when no play fits."""
    parts: tuple = ()
    placed: list = []
    score = None
    while True:
        left, left_blanks = rack_left(letters, blanks, placed)
        if not left and not left_blanks:
            break
        for play in step(board.with_tiles(placed), left, left_blanks):
            value = judge(board, placed + play.placed)
            if value is not None:
                parts += (play,)
                placed += play.placed
                score = value
                break
        else:
            break
    return turn_move(parts, score) if parts else None


def all_turns(step: Step, judge: Judge, board: Board, letters: dict, blanks: int) -> list:
    """Every legal turn the parts reach, as (score, parts), each set of new tiles once."""
    seen = {frozenset()}
    level = [((), [])]
    found = []
    while level:
        following = []
        for parts, placed in level:
            left, left_blanks = rack_left(letters, blanks, placed)
            if not left and not left_blanks:
                continue
            for play in step(board.with_tiles(placed), left, left_blanks):
                tiles = placed + play.placed
                key = frozenset(tiles)
                if key in seen:
                    continue
                seen.add(key)
                state = (parts + (play,), tiles)
                following.append(state)
                value = judge(board, tiles)
                if value is not None:
                    found.append((value, state[0]))
        level = following
    return found


def ranked(found: list) -> list[Move]:
    """Turns (score, parts) as Moves, best first; ties: fewer parts, then the new tiles."""
    order = sorted(found, key=lambda item: (-item[0], len(item[1]),
                                            sorted(t for p in item[1] for t in p.placed)))
    return [turn_move(parts, score) for score, parts in order]

