"""The bots: callables that take a Position (lookup/play/game.py) and return the Move to make.

    result = play_game(engine, [greedy_player, EquityPlayer(cw.leaves())], seed=7)
    player = SimPlayer(iterations=50)

- greedy_player: the best-scoring play.
- turn_greedy_player: under placement = "multi" (Erudit), the greedy turn
  (CrosswordGame.best_turn(method="greedy")).
- EquityPlayer: the move of the highest equity, score + leave (lookup/crossword/equity.py).
- TurnEquityPlayer: under placement = "multi" (Erudit), a turn of several words built part by
  part by equity.
- SimPlayer: simulation while the bag has tiles (each line played to the end of the game once
  few tiles are unseen), the endgame solver once it is empty, the pre-endgame with one tile in
  the bag. The simulation ranks plays only (lookup/crossword/simulate.py does not simulate
  exchanges), so with the game's leave table the player first asks the equity bot: when that
  bot would exchange, the player exchanges the same tiles; otherwise it simulates. Each
  decision is deterministic: the simulation's seed is the player's seed plus the turn number.
"""

from lookup.crossword.board import BLANK
from lookup.crossword.endgame import solve_endgame
from lookup.crossword.equity import kept_set_values
from lookup.crossword.move import Move
from lookup.crossword.simulate import pre_endgame, simulate
from lookup.crossword.tiles import codes_of_key, key_of_codes
from lookup.crossword.turn import board_words, turn_score
from lookup.errors import ArtifactMissing
from lookup.play.game import Position

# How many standard errors of the paired difference a simulated play must beat the best play
# by equity by before the player prefers it (one-sided, about 95 %).
SWITCH_Z = 1.645


def greedy_player(position: Position) -> Move:
    """The best-scoring play (ties as CrosswordGame.moves orders them); with none, exchange
    the whole rack when the bag allows it, else pass.
    """
    engine = position.game.engine
    record, _equity = engine.search_cells(position.cells, position.rack_counts, best=True)
    if record is not None:
        return engine.move(record, position.board)
    if position.bag >= position.game.rules.exchange_min_bag:
        return Move("exchange", exchanged=position.rack)
    return Move("pass")


def turn_greedy_player(position: Position) -> Move:
    """Under placement = "multi" (Erudit), the greedy turn: the best-scoring play, then the best
    one the tiles left allow, until none fits (CrosswordGame.best_turn(method="greedy"), the
    words on the board counted for the repeated-word rule); with none, exchange or pass as
    greedy_player.
    """
    move = position.game.cw.best_turn(position.board, position.rack, method="greedy")
    if move is not None:
        return move
    if position.bag >= position.game.rules.exchange_min_bag:
        return Move("exchange", exchanged=position.rack)
    return Move("pass")


def leaves_of_rack(model, position, rack: list) -> tuple:
    """(game keys, lexicon keys, sizes, values) of every set `rack` can keep
    (MoveEngine.sub_leave_keys), valued as equity values them (kept_set_values: the model with
    tiles in the bag, the end-of-game terms against the opponents' racks without).
    """
    game = position.game
    game_keys, lex_keys, sizes = game.engine.sub_leave_keys(rack)
    opponent = 0 if position.bag else sum(game.rack_value(seat) for seat in range(len(game.racks))
                                          if seat != position.seat)
    values = kept_set_values(model, game_keys, position.bag, game.rules.tiles.values, opponent)
    return game_keys, lex_keys, sizes, values


class EquityPlayer:
    """A player (lookup/play/game.py) that makes the move of the highest equity.

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
        game_keys, lex_keys, sizes, values = leaves_of_rack(self.model, position, rack)
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


class TurnEquityPlayer:
    """A player for games whose turn may lay several words (placement = "multi": Erudit):
    it lays the turn part by part, each part the single-line play of the highest equity on
    the board the parts before it leave (its score as laid + the leave of the tiles it
    keeps; the bingo counted on the part that empties a full rack), as long as the part
    raises the turn's equity (the turn's score, lookup/crossword/turn.py, + the leave of the
    tiles kept: a part's score as laid may count a word of the turn that a later part
    extends); then, like EquityPlayer, it exchanges instead when the best exchange is worth
    more, and passes when nothing fits. Greedy, one engine search a part: the exact turn by
    equity is CrosswordGame.search_turns(by="equity"). lookup/play/match.py's "turn-equity".

    Args:
        model: the leave model: `lookup(keys)` gives values (LeaveValues, TileModel).
        log: when a list, every turn, play or exchange made with tiles in the bag appends
            (key of the rack before the move, the move's equity), as EquityPlayer's log: the
            training data of pipeline/train_leaves.py (its player "turn-equity").
    """

    def __init__(self, model, log: list | None = None):
        self.model = model
        self.log = log

    def __call__(self, position) -> Move:
        """The turn (or play, exchange, pass) for a Position (lookup/play/game.py)."""
        game = position.game
        engine = game.engine
        rules = game.rules
        size = rules.layout.size
        to_lex = engine.to_lex
        rack = list(game.racks[position.seat])
        full = len(rack) == rules.rack_size
        cells = position.cells.copy()
        counts = position.rack_counts.copy()
        board = start = position.board
        # A part may not form a word that was on the board when the turn began, though an
        # earlier part extended it (the engine sees the board as the parts leave it).
        words_before = board_words(start)
        first = leaves_of_rack(self.model, position, rack)
        leaves = first
        parts = []
        placed = []
        score = equity = None
        while rack:
            game_keys, lex_keys, sizes, values = leaves
            playable = sizes < len(rack)
            worth = values[playable].copy()
            if parts and full:
                worth[sizes[playable] == 0] += rules.bingo  # this part empties the rack
            record, _part_equity = engine.search_cells(
                cells, counts, best=True, leaves=engine.keyed_leave_table(lex_keys[playable],
                                                                           worth),
                played=words_before)
            if record is None:
                break
            part = engine.move(record, board)
            kept = list(rack)
            for tile in part.used_tiles():
                kept.remove(tile)
            after = leaves_of_rack(self.model, position, kept)
            with_part = turn_score(rules, start, placed + part.placed) if parts else part.score
            with_equity = with_part + float(after[3][after[2] == len(kept)][0])
            if parts and with_equity <= equity:
                break
            index = part.row * size + part.col
            step = 1 if part.direction == "H" else size
            for code in part.key()[4]:
                if not cells[index]:
                    tile = 0 if code & BLANK else code
                    rack.remove(tile)
                    counts[to_lex[tile]] -= 1
                    cells[index] = to_lex[code & ~BLANK] | (code & BLANK)
                index += step
            board = board.with_tiles(part.placed)
            parts.append(part)
            placed += part.placed
            score, equity, leaves = with_part, with_equity, after
        move = None
        if parts:
            move = parts[0] if len(parts) == 1 else Move("turn", score=score,
                                                           parts=tuple(parts))
        if position.bag >= rules.exchange_min_bag:
            game_keys, _lex_keys, sizes, values = first
            playable = sizes < len(game.racks[position.seat])
            kept_values = values[playable]
            value = float(kept_values.max())
            if move is None or value > equity:
                kept = max(codes_of_key(int(k))
                           for k in game_keys[playable][kept_values == kept_values.max()])
                returned = list(game.racks[position.seat])
                for code in kept:
                    returned.remove(code)
                move, equity = Move("exchange", exchanged=game.tiles_text(returned)), value
        if move is None:
            return Move("pass")
        if self.log is not None and position.bag:
            self.log.append((key_of_codes(game.racks[position.seat]), float(equity)))
        return move


class SimPlayer:
    """Plays by simulation (lookup/crossword/simulate.py) and solves the end
    (lookup/crossword/endgame.py).

    Args:
        candidates, plies, iterations, seconds: each simulation's (simulate); iterations
            and seconds bound every move's simulation.
        endgame_seconds: time for each endgame solve (the first round always finishes);
            None solves to the end (or to endgame_plies).
        endgame_plies: search each endgame at most this deep (None: no limit). A budget in
            plies, unlike one in seconds, makes the player's moves independent of the machine.
        endgame_nodes: stop deepening an endgame once it has searched this many positions
            (the first round always finishes; None: no limit); machine-independent too.
        pre_endgame_candidates: candidates of the one-tile pre-endgame; 0 simulates instead.
        pre_endgame_plies: each of the pre-endgame's endgame solves at most this deep (None:
            to the end); endgame_seconds and endgame_nodes bound each of them too.
        to_end_unseen: with at most this many tiles unseen (bag and opponent's rack), each
            line is simulated to the end of the game instead of `plies` deep (Quackle's
            championship player: 14); 0 never. Two plies and a leave misjudge the last turns
            before the bag empties: the going-out bonus and the tiles stuck on a rack.
        leave: the leave function (simulate); None for the game's.
        seed: the simulations' seed (plus the turn).
    """

    def __init__(self, candidates: int = 10, plies: int = 2, iterations: int | None = 50,
                 seconds: float | None = None, endgame_seconds: float | None = 5.0,
                 pre_endgame_candidates: int = 0, leave=None, seed: int = 0,
                 endgame_plies: int | None = None, endgame_nodes: int | None = None,
                 to_end_unseen: int = 0, pre_endgame_plies: int | None = 4):
        self.candidates = candidates
        self.plies = plies
        self.iterations = iterations
        self.seconds = seconds
        self.endgame_seconds = endgame_seconds
        self.endgame_plies = endgame_plies
        self.endgame_nodes = endgame_nodes
        self.pre_endgame_candidates = pre_endgame_candidates
        self.pre_endgame_plies = pre_endgame_plies
        self.to_end_unseen = to_end_unseen
        self.leave = leave
        self.seed = seed
        self._equity_players = {}  # game id -> EquityPlayer with the game's leave table

    def __call__(self, position) -> Move:
        """The move for a Position (lookup/play/game.py)."""
        engine = position.game.engine
        board = position.board
        unseen = position.unseen
        if position.bag == 0 and unseen:
            # The game's unseen tiles are the opponent's rack: nothing to check.
            result = solve_endgame(engine, board, position.rack, unseen,
                                   seconds=self.endgame_seconds, plies=self.endgame_plies,
                                   nodes=self.endgame_nodes, scoreless=position.scoreless,
                                   checked=False)
            return result.line[0]
        if self.leave is None and position.bag >= position.game.rules.exchange_min_bag:
            equity_player = self._equity_player(position.game.cw)
            static = equity_player(position) if equity_player else None
            if static is not None and static.kind == "exchange":
                return static
        if position.bag == 1 and self.pre_endgame_candidates:
            rows = pre_endgame(engine, board, position.rack, unseen,
                               candidates=self.pre_endgame_candidates,
                               plies=self.pre_endgame_plies, seconds=self.endgame_seconds,
                               nodes=self.endgame_nodes, leave=self.leave)
            return rows[0].move if rows else greedy_player(position)
        plies = None if len(unseen) <= self.to_end_unseen else self.plies
        rows = simulate(engine, board, position.rack, unseen, candidates=self.candidates,
                        plies=plies, iterations=self.iterations, seconds=self.seconds,
                        seed=self.seed + position.turn, leave=self.leave)
        return self.choose(rows).move if rows else greedy_player(position)

    @staticmethod
    def choose(rows):
        """The row to play among simulate's rows: the best by mean when it beats the first
        candidate (the best by static equity) by more than SWITCH_Z standard errors of their
        paired difference, or when that one was pruned; else the first candidate. A few dozen
        dealings leave the means points apart by chance: the paired test keeps that noise
        from overruling the leave table.
        """
        static = next(row for row in rows if row.rank == 0)
        best = rows[0]
        if best is static or static.pruned or best.gain > SWITCH_Z * best.gain_stderr:
            return best
        return static

    def _equity_player(self, cw) -> EquityPlayer | None:
        """The equity bot of the game's leave table; None when the table is not built."""
        if cw.id not in self._equity_players:
            try:
                self._equity_players[cw.id] = EquityPlayer(cw.leaves())
            except ArtifactMissing:
                self._equity_players[cw.id] = None
        return self._equity_players[cw.id]
