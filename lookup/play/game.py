"""Whole crossword games: a seeded bag, turns, the end of the game and its rack adjustments.

    engine = move_engine(crossword_game("scrabble-en"))
    result = play_game(engine, [greedy_player, greedy_player], seed=7)
    first, second = mirrored_pair(engine, bot_a, bot_b, seed=7)   # same tiles, seats swapped

A player is a callable taking a Position (what the player to move sees) and returning a
lookup Move: a play, a turn (placement = "multi", Erudit: its parts laid in order), an exchange
or a pass. The game checks what it can cheaply (the tiles come from the rack and go on empty
squares; an exchange only with exchange_min_bag tiles or more in the bag) and, with
check=True, the play's or turn's legality and score (CrosswordGame.validate and score).

Rules (data from the game's rules file, lookup/crossword/game.py Rules):
- The bag holds the whole set (letters in alphabet order, then the blanks), shuffled once by
  random.Random(seed); tiles are drawn from its front, first a full rack for each player in
  seat order. Exchanged tiles go back to the bag, which the same generator shuffles again.
  The same seed gives the same game for the same players; a mirrored pair plays one seed
  twice with the seats swapped.
- After a play the player draws back to a full rack; after a turn, once, when all its parts
  are laid (the turn scores move.score, its score under the turn rules, lookup/crossword/turn.py).
  A turn counts as a play below. The game ends when a player's rack is empty with the bag
  empty ("out"), or after `scoreless_turns_end` scoreless turns in a row (passes, exchanges
  and plays scoring 0) ("scoreless").
- Rack adjustments at the end, the same in all four games: a player who went out gains the
  value of every other rack, and every other player loses the value of their own rack; at a
  scoreless end every player loses the value of their own rack. (Scrabble's tournament rules;
  Wordfeud and Erudit are assumed to follow them: no rule sheet found says otherwise.)
"""

import random
from dataclasses import dataclass, field

from lookup.crossword.board import BLANK, Board
from lookup.crossword.move import Move
from lookup.errors import BadInput

# A game cannot last longer: every turn either places a tile or counts as scoreless.
MAX_TURNS = 1000


@dataclass
class GameResult:
    """The outcome of one game.

    Attributes:
        scores: final score of each seat, rack adjustments included.
        adjustments: what the end of the game added to each seat's score.
        ended: "out" (a rack emptied with the bag empty), "scoreless" or "turns" (MAX_TURNS).
        turns: turns played.
        moves: (seat, move notation, score) of every turn, when the game was recorded.
    """

    scores: list
    adjustments: list
    ended: str
    turns: int
    moves: list = field(default_factory=list)

    def spread(self, seat: int = 0) -> int:
        """The seat's final score minus the best other seat's."""
        return self.scores[seat] - max(s for k, s in enumerate(self.scores) if k != seat)


class Position:
    """What the player to move sees.

    Attributes:
        game: the Game (its engine, cw and rules).
        seat: the player to move.
        turn: turns played so far.
        bag: tiles in the bag.
        scores: every seat's score so far.
        scoreless: scoreless turns in a row so far.
        cells: the board as lexicon codes (lookup/crossword/engine.py search_cells).
        rack_counts: the rack as counts of lexicon codes, blanks at index 0.
    """

    def __init__(self, game: "Game", seat: int):
        self.game = game
        self.seat = seat
        self.turn = game.turn
        self.bag = len(game.bag)
        self.scores = list(game.scores)
        self.scoreless = game.scoreless
        self.cells = game.cells
        self.rack_counts = game.rack_counts(seat)
        self._board = None

    @property
    def board(self) -> Board:
        """The board (a lookup Board)."""
        if self._board is None:
            self._board = self.game.board()
        return self._board

    @property
    def rack(self) -> str:
        """The rack, letters in alphabet order then "?" for each blank."""
        return self.game.rack_text(self.seat)

    @property
    def unseen(self) -> str:
        """Tiles neither on the board nor on this rack (the bag and the other racks)."""
        game = self.game
        tiles = list(game.bag)
        for seat, rack in enumerate(game.racks):
            if seat != self.seat:
                tiles.extend(rack)
        return game.tiles_text(tiles)


class Game:
    """One game in progress (module docstring).

    Args:
        engine: the game's MoveEngine (lookup/crossword/engine.py).
        players: one callable per seat, in seat order.
        seed: seeds the bag's shuffles.
        bag: a given bag instead of the shuffled set: tiles in drawing order ("?" a blank).
        racks: given racks instead of the first draws (then `bag` is what remains).
        board: a given starting board.
        scores: given starting scores.
        check: validate every play and its score with CrosswordGame.validate and score.
        record: keep every turn's move in the result.
    """

    def __init__(self, engine, players, seed: int = 0, *, bag: str | None = None,
                 racks=None, board: Board | None = None, scores=None, check: bool = False,
                 record: bool = False):
        cw = engine.cw
        rules = cw.rules
        self.engine = engine
        self.cw = cw
        self.rules = rules
        self.players = list(players)
        self.check = check
        self.record = record
        self.rng = random.Random(seed)
        if bag is None:
            tiles = [code for code, letter in enumerate(rules.alphabet, start=1)
                     for _ in range(rules.counts[letter])] + [0] * rules.blanks
            self.rng.shuffle(tiles)
        else:
            tiles = self.tiles_of(bag)
        self.bag = tiles
        if racks is None:
            self.racks = []
            for _ in self.players:
                self.racks.append(self.bag[:rules.rack_size])
                del self.bag[:rules.rack_size]
        else:
            if len(racks) != len(self.players):
                raise BadInput(f"{len(racks)} racks for {len(self.players)} players")
            self.racks = [self.tiles_of(rack) for rack in racks]
        size = rules.layout.size
        self.codes = list(board.cells) if board is not None else [0] * (size * size)
        self.cells = engine.cells(board if board is not None else cw.empty_board())
        self.scores = list(scores) if scores is not None else [0] * len(self.players)
        self.turn = 0
        self.scoreless = 0
        self.moves: list = []

    # --- tiles -----------------------------------------------------------------------------
    def tiles_of(self, text: str) -> list:
        """Tile codes of a text (TileSet.codes: 0 for a blank "?").

        Raises:
            BadInput: a character that is not a tile of the game, or more of a tile than the
                set has.
        """
        return self.rules.tiles.codes(text)

    def tiles_text(self, tiles) -> str:
        """Tile codes as text: letters in alphabet order, then "?" for each blank."""
        return self.rules.tiles.text(tiles)

    def rack_text(self, seat: int) -> str:
        """A seat's rack as text (tiles_text)."""
        return self.tiles_text(self.racks[seat])

    def rack_counts(self, seat: int):
        """A seat's rack as counts of lexicon codes, blanks at index 0."""
        counts = self.engine.empty_rack()
        to_lex = self.engine.to_lex
        for tile in self.racks[seat]:
            counts[to_lex[tile]] += 1
        return counts

    def rack_value(self, seat: int) -> int:
        """Summed value of a seat's rack (blanks 0)."""
        return self.rules.tiles.value(self.racks[seat])

    def board(self) -> Board:
        """The board now."""
        return Board(self.rules.layout.size, self.cw.alphabet, tuple(self.codes))

    def _draw(self, rack: list, count: int) -> None:
        count = min(count, len(self.bag))
        rack.extend(self.bag[:count])
        del self.bag[:count]

    # --- turns -----------------------------------------------------------------------------
    def _take(self, rack: list, tile: int, what) -> None:
        """Remove a tile from a rack; `what()` names the move when the rack lacks it."""
        if tile not in rack:
            raise BadInput(f"{what()}: the rack {self.tiles_text(rack)!r} lacks "
                           f"{self.tiles_text([tile])!r}")
        rack.remove(tile)

    def _play(self, seat: int, move: Move) -> None:
        """Lay a play, or a turn's parts one after the other; score it; draw once."""
        rack = self.racks[seat]
        if self.check:
            board = self.board()
            reasons = self.cw.validate(board, move, rack=self.rack_text(seat))
            if reasons:
                raise BadInput(f"illegal {move.kind} {move.notation()}: {reasons[0]}")
            if self.cw.score(board, move) != move.score:
                raise BadInput(f"{move.kind} {move.notation()} scores "
                               f"{self.cw.score(board, move)}")
        for part in move.parts if move.kind == "turn" else (move,):
            self._lay(rack, part, move)
        self.scores[seat] += move.score
        self._draw(rack, self.rules.rack_size - len(rack))

    def _lay(self, rack: list, part: Move, move: Move) -> None:
        """Put a play's new tiles on the board from the rack (`move`: the move it is part of,
        named in errors).
        """
        size = self.rules.layout.size
        step = 1 if part.direction == "H" else size
        index = part.row * size + part.col
        to_lex = self.engine.to_lex
        for code in part.key()[4]:
            if not self.codes[index]:
                self._take(rack, 0 if code & BLANK else code, lambda: f"play {move.notation()}")
                self.codes[index] = code
                self.cells[index] = to_lex[code & ~BLANK] | (code & BLANK)
            elif self.codes[index] != code:
                raise BadInput(f"play {move.notation()} does not fit the board")
            index += step

    def _exchange(self, seat: int, move: Move) -> None:
        if len(self.bag) < self.rules.exchange_min_bag:
            raise BadInput(f"an exchange needs {self.rules.exchange_min_bag} tiles in the bag; "
                           f"it holds {len(self.bag)}")
        rack = self.racks[seat]
        returned = self.tiles_of(move.exchanged)
        if not returned:
            raise BadInput("an exchange returns at least one tile")
        for tile in returned:
            self._take(rack, tile, lambda: f"exchange {move.exchanged}")
        self._draw(rack, len(returned))
        self.bag.extend(returned)
        self.rng.shuffle(self.bag)

    def step(self) -> bool:
        """Play one turn; True while the game goes on."""
        seat = self.turn % len(self.players)
        move = self.players[seat](Position(self, seat))
        laid = move.kind in ("play", "turn")
        if laid:
            if move.kind == "turn" and self.rules.placement != "multi":
                raise BadInput(f"turn {move.notation()}: {self.cw.id} lays one line a turn")
            self._play(seat, move)
        elif move.kind == "exchange":
            self._exchange(seat, move)
        elif move.kind != "pass":
            raise BadInput(f"unknown move kind {move.kind!r}")
        if self.record:
            self.moves.append((seat, move.notation(), move.score))
        self.turn += 1
        self.scoreless = 0 if laid and move.score else self.scoreless + 1
        if laid and not self.racks[seat]:
            self._end("out", seat)
            return False
        if self.scoreless >= self.rules.scoreless_turns_end:
            self._end("scoreless", None)
            return False
        if self.turn >= MAX_TURNS:
            self._end("turns", None)
            return False
        return True

    def _end(self, how: str, goer: int | None) -> None:
        values = [self.rack_value(seat) for seat in range(len(self.players))]
        adjustments = [-v for v in values]
        if goer is not None:
            adjustments[goer] = sum(values)
        for seat, delta in enumerate(adjustments):
            self.scores[seat] += delta
        self.result = GameResult(list(self.scores), adjustments, how, self.turn, self.moves)

    def run(self) -> GameResult:
        """Play to the end."""
        while self.step():
            pass
        return self.result


def play_game(engine, players, seed: int, **options) -> GameResult:
    """Play one game (Game's arguments) to the end."""
    return Game(engine, players, seed, **options).run()


def mirrored_pair(engine, first, second, seed: int, **options) -> tuple[GameResult,
                                                                         GameResult]:
    """Two games on one seed with the seats swapped: (first in seat 0, second in seat 0).

    The first racks and the bag's order are the same in both games; a player gets in one
    game the tiles the other got in the other, until exchanges reshuffle the bag.
    """
    return (play_game(engine, [first, second], seed, **options),
            play_game(engine, [second, first], seed, **options))
