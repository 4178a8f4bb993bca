"""Plain minimax over endgames: every line to the end, no pruning, no bounds, no move order.

Written apart from lookup/crossword/endgame.py on Boards, Moves and rack text (engine.plays lists
the plays), so the two share only the move list and the rules. Passes make the plain tree grow
fast (up to scoreless_turns_end - 1 of them in a row between plays), so a caller may pass a
`memo`: the exact value of each whole state (board, both racks, side, scoreless turns), and
the plays of each board and rack, which changes no value, only how often one is computed.
"""

from lookup.crossword.game import BLANK_SYMBOL, Move

PASS = Move("pass")


def rack_after(rack: str, move: Move) -> str:
    tiles = list(rack)
    for _row, _col, letter, is_blank in move.placed:
        tiles.remove(BLANK_SYMBOL if is_blank else letter)
    return "".join(tiles)


def rack_value(cw, rack: str) -> int:
    return sum(cw.rules.values[ch] for ch in rack if ch != BLANK_SYMBOL)


def minimax(engine, board, racks: tuple, scoreless: int = 0, memo: dict | None = None) -> int:
    """The value for racks[0] to move: its points to the end minus racks[1]'s."""
    cw = engine.cw
    mine, theirs = racks
    state = (board, "".join(sorted(mine)), "".join(sorted(theirs)), scoreless)
    if memo is not None and state in memo:
        return memo[state]
    best = None
    if memo is None:
        plays = engine.plays(board, mine)
    else:
        plays = memo.get((board, mine))
        if plays is None:
            plays = memo[board, mine] = engine.plays(board, mine)
    for move in plays + [PASS]:
        left = rack_after(mine, move)
        after = 0 if move.score else scoreless + 1
        if move.kind == "play" and not left:
            value = move.score + 2 * rack_value(cw, theirs)
        elif after >= cw.rules.scoreless_turns_end:
            value = move.score - rack_value(cw, left) + rack_value(cw, theirs)
        else:
            value = move.score - minimax(engine, cw.play(board, move), (theirs, left), after,
                                         memo)
        best = value if best is None else max(best, value)
    if memo is not None:
        memo[state] = best
    return best


def line_value(cw, line, racks: tuple, scoreless: int = 0) -> int:
    """What a line (Moves, sides alternating) is worth to the first side, end adjustments
    included when it ends the game."""
    racks = list(racks)
    total = 0
    for turn, move in enumerate(line):
        side = turn % 2
        sign = 1 if side == 0 else -1
        racks[side] = rack_after(racks[side], move)
        scoreless = 0 if move.score else scoreless + 1
        total += sign * move.score
        if move.kind == "play" and not racks[side]:
            return total + sign * 2 * rack_value(cw, racks[1 - side])
        if scoreless >= cw.rules.scoreless_turns_end:
            return total - rack_value(cw, racks[0]) + rack_value(cw, racks[1])
    return total
