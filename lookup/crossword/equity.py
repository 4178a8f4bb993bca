"""Equity: a move's score plus what the tiles it keeps are worth.

    cw.moves(board, rack, by="equity")       # rank_by_equity with the game's leave table
    TileModel.from_table(cw.leaves())        # a crude model: one value per tile

The bot that plays by equity is lookup/play/players.py EquityPlayer.

The formula (also what CrosswordGame.moves(by="equity") reports):
- While the bag holds tiles: equity = score + leave, the leave's value from a leave model
  (0.0 for the empty leave; a pass keeps the whole rack, which no table values: 0.0 too).
  An exchange scores 0 and keeps the tiles it does not return: equity = leave of the kept.
- With the bag empty the leave models do not apply; the game's end does: a play that empties
  the rack earns 2x the value of the opponent's rack (they lose it, the player gains it), a
  play that keeps tiles costs 2x their value plus 10 (the player loses them, and the opponent
  may go out next turn). equity = score + 2 * opponent rack, or score - (2 * kept + 10).
"""

import numpy as np

from lookup.crossword.tiles import EMPTY_LEAVE, LEAVE_DIGIT, codes_of_key, key_of_codes

# What keeping tiles costs with the bag empty, beyond twice their value (module docstring).
END_KEEP_PENALTY = 10
# The per-tile model's cost of each tile that repeats one already kept.
DUPLICATE_PENALTY = 3.0


def sub_leaves(rack) -> list[tuple]:
    """Every distinct multiset of tiles a rack can keep, the empty one and the whole rack
    included, each as ascending tile codes.
    """
    kept = [()]
    for code in sorted(set(rack)):
        n = rack.count(code)
        kept = [k + (code,) * m for k in kept for m in range(n + 1)]
    return kept


class TileModel:
    """A crude leave model: one value per tile, minus DUPLICATE_PENALTY per repeated tile.

    Args:
        worth: value of each tile code (index 0 the blank).
    """

    def __init__(self, worth):
        self.worth = [float(w) for w in worth]

    @classmethod
    def from_table(cls, table) -> "TileModel":
        """The one-tile values of a leave table (lookup/crossword/leaves.py LeaveValues)."""
        counts = len(table.rules.alphabet) + 1
        return cls(table.lookup([EMPTY_LEAVE * LEAVE_DIGIT + code for code in range(counts)]))

    def lookup(self, keys) -> np.ndarray:
        """Values of leave keys (lookup/crossword/leaves.py); the empty leave is 0.0."""
        out = np.zeros(len(keys))
        for at, key in enumerate(keys):
            codes = codes_of_key(int(key))
            out[at] = sum(self.worth[c] for c in codes) - DUPLICATE_PENALTY * (
                len(codes) - len(set(codes)))
        return out


def end_of_bag_values(kept_sets, tile_value, opponent_rack: int) -> list[float]:
    """The leave term of the end-of-bag formula (module docstring) for each kept set."""
    return [2.0 * opponent_rack if not kept else
            -(2.0 * sum(tile_value[c] for c in kept) + END_KEEP_PENALTY) for kept in kept_sets]


def rank_by_equity(game, model, moves: list, rack, unseen, bag: int) -> list:
    """Moves with `leave` and `equity` set (module docstring), best equity first; equal
    equities keep the order of `moves`.

    Args:
        game: has `rules` (a CrosswordGame).
        model: the leave model (`lookup(keys)`), used while the bag holds tiles.
        moves: the position's moves (CrosswordGame.moves order).
        rack: the rack's tile codes (0 a blank).
        unseen: the unseen tiles' codes (TileSet.unseen); with an empty bag, the opponent's
            rack.
        bag: tiles in the bag.
    """
    kept_sets = []
    for move in moves:
        kept = list(rack)
        if move.kind == "play":
            gone = move.used_tiles()
        elif move.kind == "exchange":
            gone = game.rules.tiles.codes(move.exchanged, "exchange")
        else:
            gone = []
        for code in gone:
            kept.remove(code)
        kept_sets.append(kept)
    if bag:
        values = model.lookup([key_of_codes(kept) for kept in kept_sets]).tolist()
    else:
        worth = game.rules.tiles.values
        values = end_of_bag_values(kept_sets, worth, sum(worth[c] for c in unseen))
    for move, value in zip(moves, values):
        move.leave = round(value, 4)
        move.equity = round(move.score + value, 4)
    return sorted(moves, key=lambda move: -move.equity)


def kept_set_values(model, game_keys, bag: int, tile_value, opponent_rack: int) -> np.ndarray:
    """The leave term of each kept set, given by its leave key in game codes: the model's
    values while the bag holds tiles (`model` unused otherwise), else the end-of-bag formula
    against an opponent's rack worth `opponent_rack`.
    """
    if bag:
        return np.asarray(model.lookup(game_keys), dtype=np.float64)
    return np.array(end_of_bag_values([codes_of_key(int(k)) for k in game_keys], tile_value,
                                      opponent_rack), dtype=np.float64)
