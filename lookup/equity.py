"""Equity: a move's score plus what the tiles it keeps are worth, and the bot that plays by it.

    player = EquityPlayer(cw.leaves())        # a player for lookup/game_engine.py
    player = EquityPlayer(TileModel.from_table(cw.leaves()))   # one value per tile

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

from lookup.board import BLANK
from lookup.errors import BadInput
from lookup.leaves import (
    EMPTY_LEAVE,
    LEAVE_DIGIT,
    codes_of_key,
    key_of_codes,
    leave_codes,
    tile_counts,
)
from lookup.move import Move

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
        """The one-tile values of a leave table (lookup/leaves.py LeaveValues)."""
        counts = len(table.rules.alphabet) + 1
        return cls(table.lookup([EMPTY_LEAVE * LEAVE_DIGIT + code for code in range(counts)]))

    def lookup(self, keys) -> np.ndarray:
        """Values of leave keys (lookup/leaves.py); the empty leave is 0.0."""
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


class EquityPlayer:
    """A player (lookup/game_engine.py) that makes the move of the highest equity.

    It compares the best play (the engine's best by score + leave, searched with this rack's
    leave values only, so the pruning bound is tight) with the best exchange when the bag
    allows one; a play wins ties. With neither it passes.

    Args:
        model: the leave model: `lookup(keys)` gives values (LeaveValues, TileModel).
        log: when a list, every play or exchange made with tiles in the bag appends
            (key of the rack before the move, the move's equity): the training data of
            pipeline/train_leaves.py.
    """

    def __init__(self, model, log: list | None = None):
        self.model = model
        self.log = log

    def __call__(self, position) -> Move:
        """The move of the highest equity in the position."""
        game = position.game
        engine = game.engine
        rules = game.rules
        rack = game.racks[position.seat]
        game_keys, lex_keys, sizes = engine.sub_leave_keys(rack)
        if position.bag:
            values = np.asarray(self.model.lookup(game_keys), dtype=np.float64)
        else:
            opponent = sum(game.rack_value(seat) for seat in range(len(game.racks))
                           if seat != position.seat)
            values = np.array(end_of_bag_values([codes_of_key(int(k)) for k in game_keys],
                                                tile_values(game), opponent))
        playable = sizes < len(rack)  # a play keeps fewer tiles than the rack holds
        table = engine.keyed_leave_table(lex_keys[playable], values[playable])
        record, equity = engine.search_cells(position.cells, position.rack_counts, best=True,
                                             leaves=table)
        move = None
        if record is not None:
            move = engine.move(record, position.board)
        if position.bag >= rules.exchange_min_bag:
            kept_values = values[playable]
            value = float(kept_values.max())
            # Of the kept sets worth the most, the greatest as a tuple of codes.
            kept = max(codes_of_key(int(k))
                       for k in game_keys[playable][kept_values == kept_values.max()])
            if move is None or value > equity:
                returned = list(rack)
                for code in kept:
                    returned.remove(code)
                move, equity = Move("exchange", exchanged=game.tiles_text(returned)), value
        if move is None:
            return Move("pass")
        if self.log is not None and position.bag:
            self.log.append((key_of_codes(rack), float(equity)))
        return move


def tile_values(game) -> list[int]:
    """Value of each game tile code (index 0 the blank: 0); `game` has `rules`."""
    rules = game.rules
    return [0] + [rules.values[letter] for letter in rules.alphabet]


def unseen_tiles(rules, board, rack, unseen: str | None) -> list[int]:
    """The tiles neither on the board nor on the rack (codes, 0 a blank): the bag and the
    opponent's rack; `unseen` gives them as text, else they are the rest of the set.

    Raises:
        BadInput: an `unseen` pool with a tile outside the game, or with more of a tile than
            the set has once the board and the rack are taken away.
    """
    left = tile_counts(rules)
    for code in board.cells:
        if code:
            left[0 if code & BLANK else code] -= 1
    for code in rack:
        left[code] -= 1
    if unseen is None:
        return [code for code, n in enumerate(left) for _ in range(n)]
    codes = leave_codes(rules, unseen, rules.total_tiles, what="unseen pool")
    for code in sorted(set(codes)):
        if codes.count(code) > left[code]:
            name = "blanks" if code == 0 else f"{rules.alphabet[code - 1]!r}"
            raise BadInput(f"the unseen pool holds {codes.count(code)} {name} but the board "
                           f"and rack leave only {left[code]}: it contradicts them")
    return codes


def rank_by_equity(game, model, moves: list, rack, unseen, bag: int) -> list:
    """Moves with `leave` and `equity` set (module docstring), best equity first; equal
    equities keep the order of `moves`.

    Args:
        game: has `rules` (a CrosswordGame).
        model: the leave model (`lookup(keys)`), used while the bag holds tiles.
        moves: the position's moves (CrosswordGame.moves order).
        rack: the rack's tile codes (0 a blank).
        unseen: the unseen tiles' codes (unseen_tiles); with an empty bag, the opponent's rack.
        bag: tiles in the bag.
    """
    kept_sets = []
    for move in moves:
        kept = list(rack)
        if move.kind == "play":
            gone = move.used_tiles()
        elif move.kind == "exchange":
            gone = leave_codes(game.rules, move.exchanged, len(rack), what="exchange")
        else:
            gone = []
        for code in gone:
            kept.remove(code)
        kept_sets.append(kept)
    if bag:
        values = model.lookup([key_of_codes(kept) for kept in kept_sets]).tolist()
    else:
        worth = tile_values(game)
        values = end_of_bag_values(kept_sets, worth, sum(worth[c] for c in unseen))
    for move, value in zip(moves, values):
        move.leave = round(value, 4)
        move.equity = round(move.score + value, 4)
    return sorted(moves, key=lambda move: -move.equity)
