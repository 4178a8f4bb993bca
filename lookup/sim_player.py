"""The simulating player: simulation while the bag has tiles (each line played to the end of
the game once few tiles are unseen), the endgame solver once it is empty, the pre-endgame with
one tile in the bag.

The simulation ranks plays only (lookup/simulate.py does not simulate exchanges), so with the
game's leave table the player first asks the equity bot (lookup/equity.py): when that bot
would exchange, the player exchanges the same tiles; otherwise it simulates.

    player = SimPlayer(iterations=50)          # a player for lookup/game_engine.py
    result = play_game(engine, [player, greedy_player], seed=7)

A player is a callable Position -> Move (lookup/game_engine.py), so `wordpack match` and
game_engine.mirrored_pair run it like any other. Each decision is deterministic: the
simulation's seed is the player's seed plus the turn number.
"""

from lookup.crossword import Move
from lookup.endgame import solve_endgame
from lookup.equity import EquityPlayer
from lookup.errors import ArtifactMissing
from lookup.game_engine import greedy_player
from lookup.simulate import pre_endgame, simulate

# How many standard errors of the paired difference a simulated play must beat the best play
# by equity by before the player prefers it (one-sided, about 95 %).
SWITCH_Z = 1.645


class SimPlayer:
    """Plays by simulation (lookup/simulate.py) and solves the end (lookup/endgame.py).

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
                 to_end_unseen: int = 0):
        self.candidates = candidates
        self.plies = plies
        self.iterations = iterations
        self.seconds = seconds
        self.endgame_seconds = endgame_seconds
        self.endgame_plies = endgame_plies
        self.endgame_nodes = endgame_nodes
        self.pre_endgame_candidates = pre_endgame_candidates
        self.to_end_unseen = to_end_unseen
        self.leave = leave
        self.seed = seed
        self._equity_players = {}  # game id -> EquityPlayer with the game's leave table

    def __call__(self, position) -> Move:
        """The move for a Position (lookup/game_engine.py)."""
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
                               seconds=self.endgame_seconds, leave=self.leave)
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
