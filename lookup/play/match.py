"""Matches between two bots in mirrored pairs: the same tiles dealt twice, seats swapped.

    result = play_match("scrabble-en", "equity", "greedy", pairs=1000, seed=1)
    result.win_rate(), result.interval(), result.mean_spread()

Bots (PLAYERS): "greedy" (the best score; with no play, exchange the whole rack when allowed),
"equity" (score + the game's learned leave table, lookup/crossword/equity.py), "tile" (score + one
value per tile, the table's one-tile leaves, minus 3 per repeated tile), "sim"
(lookup/play/players.py with a fixed budget per move, SIM_BUDGET: the equity bot's 10 best
candidates simulated 2 plies deep over the same 60 dealings at most (to the end of the game once
at most 14 tiles are unseen), clearly worse ones pruned by the stopping rule, the equity bot's
exchanges kept; with one tile in the bag the pre-endgame (10 candidates x each tile the bag may
hold, each solved 4 plies deep); with the bag empty the endgame solver, at most 6 plies deep and
no deeper round once 20,000 positions are searched; a budget counted in work, not seconds, so a
match gives the same result on any machine; make_player's sim_budget changes it); and for games
whose turn may lay several words (placement = "multi": Erudit) "turn-equity" (TurnEquityPlayer
with the game's leave table: the turn laid part by part by equity) and "turn-greedy" (the greedy
turn, CrosswordGame.best_turn(method="greedy"); with none, exchange or pass as "greedy").
Pair k plays the game seed seed * PAIR_STRIDE + k twice (lookup/play/game.py mirrored_pair). A draw
counts half a win. The 95 % interval of the win rate treats each pair as one sample (the two
games of a pair are not independent): mean +- 1.96 standard errors of the pairs' win shares.
"""

import inspect
import math
import os
from dataclasses import dataclass, field

from lookup.crossword.engine import move_engine
from lookup.crossword.equity import TileModel
from lookup.crossword.game import crossword_game
from lookup.errors import BadInput
from lookup.play.game import mirrored_pair
from lookup.play.players import (
    EquityPlayer,
    SimPlayer,
    TurnEquityPlayer,
    greedy_player,
    turn_greedy_player,
)

PLAYERS = ("greedy", "equity", "tile", "sim", "turn-equity", "turn-greedy")
TURN_PLAYERS = ("turn-equity", "turn-greedy")
SIM_BUDGET = {"candidates": 10, "plies": 2, "iterations": 60, "to_end_unseen": 14,
              "endgame_plies": 6, "endgame_nodes": 20000, "endgame_seconds": None,
              "pre_endgame_candidates": 10, "pre_endgame_plies": 4}
PAIR_STRIDE = 10**7
Z95 = 1.96


def sim_options(sim_budget: dict | None = None) -> dict:
    """The sim bot's SimPlayer arguments: SIM_BUDGET changed by `sim_budget`.

    Raises:
        BadInput: a name SimPlayer does not take.
    """
    unknown = sorted(set(sim_budget or {}) - set(inspect.signature(SimPlayer).parameters))
    if unknown:
        raise BadInput(f"the sim bot has no budget option {unknown[0]!r}")
    return {**SIM_BUDGET, **(sim_budget or {})}


def refuse_turn_bot(name: str, cw) -> None:
    """Refuse a turn bot (TURN_PLAYERS) for a game that lays one line a turn.

    Raises:
        BadInput: `name` is a turn bot and the game's placement is not "multi".
    """
    if name in TURN_PLAYERS and cw.rules.placement != "multi":
        raise BadInput(f"the bot {name!r} lays multi-word turns; {cw.id} lays one line a turn: "
                       f"use {', '.join(p for p in PLAYERS if p not in TURN_PLAYERS)}")


def make_player(name: str, cw, sim_budget: dict | None = None):
    """The bot called `name` for a game (PLAYERS); `sim_budget` changes the sim bot's
    SIM_BUDGET (SimPlayer's arguments, e.g. {"seconds": 1.0, "iterations": None}).

    Raises:
        BadInput: an unknown name, or a turn bot (TURN_PLAYERS) for a game that lays one line
            a turn.
        ArtifactMissing: "equity", "tile", "sim" or "turn-equity" without a built leave table.
    """
    refuse_turn_bot(name, cw)
    if name == "greedy":
        return greedy_player
    if name == "equity":
        return EquityPlayer(cw.leaves())
    if name == "tile":
        return EquityPlayer(TileModel.from_table(cw.leaves()))
    if name == "sim":
        cw.leaves()  # the simulation's leave is the table: refuse the bot without one
        return SimPlayer(**sim_options(sim_budget))
    if name == "turn-equity":
        return TurnEquityPlayer(cw.leaves())
    if name == "turn-greedy":
        return turn_greedy_player
    raise BadInput(f"unknown bot {name!r}; the bots are {', '.join(PLAYERS)}")


@dataclass
class MatchResult:
    """Games of bot A against bot B, counted for A.

    Attributes:
        pair_shares: per pair, A's wins + draws / 2 over its two games.
        spreads: A's final score minus B's, per game.
        wins, draws, losses: A's games.
        points, turns: [A's, B's] points (end adjustments included) and turns, summed.
    """

    pair_shares: list = field(default_factory=list)
    spreads: list = field(default_factory=list)
    wins: int = 0
    draws: int = 0
    losses: int = 0
    points: list = field(default_factory=lambda: [0, 0])
    turns: list = field(default_factory=lambda: [0, 0])

    def add_pair(self, games) -> None:
        """Count one pair: (A's spread, [A's, B's] points, [A's, B's] turns) of each game."""
        share = 0.0
        for spread, points, turns in games:
            self.spreads.append(spread)
            for bot in range(2):
                self.points[bot] += points[bot]
                self.turns[bot] += turns[bot]
            if spread > 0:
                self.wins += 1
                share += 1.0
            elif spread == 0:
                self.draws += 1
                share += 0.5
            else:
                self.losses += 1
        self.pair_shares.append(share / len(games))

    def merge(self, other: "MatchResult") -> None:
        """Add another result's pairs."""
        self.pair_shares += other.pair_shares
        self.spreads += other.spreads
        self.wins += other.wins
        self.draws += other.draws
        self.losses += other.losses
        for bot in range(2):
            self.points[bot] += other.points[bot]
            self.turns[bot] += other.turns[bot]

    def win_rate(self) -> float:
        """A's share of the games, a draw counting half."""
        return sum(self.pair_shares) / len(self.pair_shares) if self.pair_shares else 0.0

    def interval(self) -> tuple[float, float]:
        """The 95 % interval of the win rate (module docstring)."""
        n = len(self.pair_shares)
        if n < 2:
            return (0.0, 1.0)
        mean = self.win_rate()
        variance = sum((s - mean) ** 2 for s in self.pair_shares) / (n - 1)
        half = Z95 * math.sqrt(variance / n)
        return (max(0.0, mean - half), min(1.0, mean + half))

    def mean_spread(self) -> float:
        """A's mean final score minus B's."""
        return sum(self.spreads) / len(self.spreads) if self.spreads else 0.0

    def points_per_move(self, bot: int = 0) -> float:
        """Points per turn of bot A (0) or B (1)."""
        return self.points[bot] / self.turns[bot] if self.turns[bot] else 0.0


def _seat_turns(turns: int, seat: int) -> int:
    """Turns the seat played in a game of `turns` turns (seat 0 moves first)."""
    return (turns + 1 - seat) // 2


def play_pairs(game_id: str, a: str, b: str, seeds, artifacts: str | None = None,
               compiled: bool | None = None, sim_budget: dict | None = None) -> MatchResult:
    """Play one mirrored pair per seed; the result for bot A (sim_budget: make_player's)."""
    if artifacts is not None:
        os.environ["WORDPACK_ARTIFACTS"] = artifacts
    cw = crossword_game(game_id)
    engine = move_engine(cw, compiled)
    first, second = make_player(a, cw, sim_budget), make_player(b, cw, sim_budget)
    result = MatchResult()
    for seed in seeds:
        a_first, b_first = mirrored_pair(engine, first, second, seed)
        result.add_pair([
            (a_first.spread(0), a_first.scores,
             [_seat_turns(a_first.turns, 0), _seat_turns(a_first.turns, 1)]),
            (b_first.spread(1), b_first.scores[::-1],
             [_seat_turns(b_first.turns, 1), _seat_turns(b_first.turns, 0)])])
    return result


def _play_batch(task) -> MatchResult:
    return play_pairs(*task)


def play_match(game_id: str, a: str, b: str, pairs: int, seed: int, workers: int = 1,
               batch: int = 50, progress=None, compiled: bool | None = None,
               sim_budget: dict | None = None) -> MatchResult:
    """Play `pairs` mirrored pairs of bot A against bot B.

    Args:
        game_id: the crossword game.
        a, b: bot names (PLAYERS).
        pairs: how many pairs.
        seed: picks the pairs' deals (module docstring).
        workers: processes playing batches of pairs in parallel (1: this process).
        batch: pairs per batch.
        progress: a callable(result so far, pairs) after every batch, or None.
        compiled: the engine's path (lookup/crossword/engine.py move_engine).
        sim_budget: changes to the sim bot's budget per move (sim_options).

    Raises:
        BadInput: an unknown bot, a turn bot for a game that lays one line a turn, or fewer
            than one pair or worker.
    """
    for name in (a, b):
        if name not in PLAYERS:
            raise BadInput(f"unknown bot {name!r}; the bots are {', '.join(PLAYERS)}")
        if name in TURN_PLAYERS:
            refuse_turn_bot(name, crossword_game(game_id))
    if pairs < 1 or workers < 1:
        raise BadInput("a match needs at least one pair and one worker")
    sim_options(sim_budget)  # an unknown option is bad input before any game starts
    first = seed * PAIR_STRIDE
    artifacts = os.environ.get("WORDPACK_ARTIFACTS")
    tasks = [(game_id, a, b, range(first + k, first + min(k + batch, pairs)), artifacts,
              compiled, sim_budget) for k in range(0, pairs, batch)]
    total = MatchResult()
    if workers == 1:
        done = map(_play_batch, tasks)
        pool = None
    else:
        import multiprocessing

        pool = multiprocessing.get_context("spawn").Pool(workers)
        done = pool.imap(_play_batch, tasks)
    try:
        for part in done:
            total.merge(part)
            if progress:
                progress(total, pairs)
    finally:
        if pool is not None:
            pool.terminate()
    return total
