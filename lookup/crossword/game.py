"""Crossword games (Scrabble, Wordfeud, Erudit): the game facade the API hands out.

    cw = crossword_game("wordfeud-nl")
    board = cw.parse_board(text)              # 15 lines: '.' empty, lowercase tile, UPPER blank
    cw.moves(board, rack="abc?def", top=20)   # scored legal moves, best first
    cw.score(board, move); cw.validate(board, placement); cw.render(board, move)
    cw.best_turn(board, rack="облмеоб", method="full")   # Erudit: several words in one turn

A game is its rules (rules.py, read from artifacts/crossword/<id>.json) plus its lexicon's
GADDAG (lexicon.py, artifacts/lexicons/<lexicon>.gaddag, loaded on first use). The work is done
elsewhere in this wing: tiles and racks in tiles.py, boards in board.py, moves in move.py, the
one move path in line_plays (engine.py when numba is installed, else movegen.py), one
placement's checks and score in placement.py, the drawing in render.py, multi-word turns in
turn.py and turn_search.py, equity in equity.py and leaves.py, look-ahead in endgame.py and
simulate.py. This module checks racks, scores words for word finders and lists exchanges and
the pass. The games are the rules files that are built: `crossword_games()`.
"""

import functools
import itertools
import sys
import time

from lookup.crossword.board import Board, empty_board, parse_board
from lookup.crossword.endgame import solve_endgame
from lookup.crossword.engine import MAX_LEAVE_TILES, move_engine, numba_available
from lookup.crossword.equity import end_of_bag_values, kept_set_values, rank_by_equity
from lookup.crossword.leaves import LeaveValues, leaves_path, read_leaves
from lookup.crossword.lexicon import GameLexicon, game_lexicon, lexicon_tables
from lookup.crossword.move import Move
from lookup.crossword.movegen import (
    ACROSS,
    GaddagTables,
    MoveGenContext,
    generate,
    orientations,
)
from lookup.crossword.placement import (
    placed_tiles,
    placement_score,
    rack_problems,
    shape_problems,
    square_problems,
    word_problems,
)
from lookup.crossword.render import render
from lookup.crossword.rules import Rules, load_rules
from lookup.crossword.simulate import simulate
from lookup.crossword.tiles import BLANK_CODE, TileSet, key_of_codes
from lookup.crossword.turn import (
    connection_problems,
    played_set,
    repeat_problems,
    repeated_words,
    turn_problems,
    turn_score,
)
from lookup.crossword.turn_search import (
    METHODS,
    ClusterSearch,
    TurnAnswer,
    TurnSearch,
    check_budget,
    covering_step,
)
from lookup.errors import BadInput, unknown_name
from lookup.formats import BLANK_SYMBOL
from lookup.paths import artifacts_dir, built_names

__all__ = ["BLANK_SYMBOL", "CrosswordGame", "Move", "Rules", "crossword_game", "crossword_games"]

_DIRECTIONS = ("H", "V")
# With numba installed and not yet loaded, the line_plays call from which the compiled engine
# runs (line_plays says why).
ENGINE_AFTER_LISTS = 3


class CrosswordGame:
    """One crossword game: its rules plus its lexicon's GADDAG (loaded on first use).

    Args:
        rules: the game's rules.
        tables: the lexicon's GADDAG prepared by lookup.crossword.movegen.gaddag_tables, or
            None to load artifacts/lexicons/<rules.lexicon>.gaddag when first needed.
        compiled: how line_plays finds plays: True the compiled move engine, False the
            pure-Python move generator, None the engine once it pays (line_plays).
    """

    def __init__(self, rules: Rules, tables: GaddagTables | None = None,
                 compiled: bool | None = None):
        self.rules = rules
        self.id = rules.id
        self.alphabet = rules.alphabet
        self.compiled = compiled
        self._tables = tables
        self._lexicon = None
        self._leaves = None
        self._context = None
        self._lists = 0  # line_plays calls so far

    # --- the lexicon ---------------------------------------------------------------------
    def lexicon(self) -> GameLexicon:
        """The lexicon with its code maps (loads the GADDAG on first call).

        Raises:
            ArtifactMissing: the GADDAG has not been built.
            CorruptArtifact: it lacks a letter of the game's alphabet.
        """
        if self._lexicon is None:
            tables = self._tables
            if tables is None:
                tables = lexicon_tables(str(artifacts_dir() / "lexicons"
                                            / f"{self.rules.lexicon}.gaddag"))
            self._lexicon = game_lexicon(self.rules, tables)
        return self._lexicon

    @property
    def tiles(self) -> TileSet:
        """The tile set (lookup/crossword/tiles.py): codes, counts, values, unseen tiles."""
        return self.rules.tiles

    def tables(self) -> GaddagTables:
        """The lexicon's GADDAG (loads it on first call); raises as lexicon() does."""
        return self.lexicon().tables

    def is_word(self, word: str) -> bool:
        """True when `word` (lowercase letters) is in the game's lexicon."""
        return self.lexicon().is_word(word)

    # --- boards and racks ----------------------------------------------------------------
    def empty_board(self) -> Board:
        """A board with no tiles."""
        return empty_board(self.rules.layout.size, self.alphabet)

    def parse_board(self, text: str) -> Board:
        """Parse a board (lookup/crossword/board.py describes the text format).

        Raises:
            BadInput: wrong size, unknown symbols, letters outside the alphabet, more tiles
                than the set has, or tiles that are not connected through the start square.
        """
        r = self.rules
        return parse_board(text, layout=r.layout, alphabet=r.alphabet, counts=r.counts,
                           blanks=r.blanks, game=r.id)
    def rack_codes(self, rack: str, board: Board | None = None) -> list[int]:
        """The tile codes of a rack such as "abc?def" (lookup/crossword/tiles.py: 0 a blank).

        Args:
            rack: letters of the game (either case) and "?" for a blank.
            board: when given, the rack and the board together may not hold more tiles of a
                letter (or blanks) than the set has.

        Raises:
            BadInput: too many tiles, a letter outside the alphabet, or tiles the set lacks.
        """
        r = self.rules
        rack = "".join(rack.split())
        if len(rack) > r.rack_size:
            raise BadInput(f"rack {rack!r} has {len(rack)} tiles; a {r.id} rack holds "
                           f"{r.rack_size}")
        codes = [r.tiles.code(ch, "rack letter") for ch in rack]
        on_board = r.tiles.on_board(board) if board is not None else []
        r.tiles.check_counts(codes + on_board, "rack and board")
        return codes

    def parse_rack(self, rack: str, board: Board | None = None) -> tuple[dict, int]:
        """Letters ({letter: count}) and blanks of a rack such as "abc?def"; raises as
        rack_codes does.
        """
        letters: dict[str, int] = {}
        blanks = 0
        for code in self.rack_codes(rack, board):
            if code == BLANK_CODE:
                blanks += 1
            else:
                letter = self.alphabet[code - 1]
                letters[letter] = letters.get(letter, 0) + 1
        return letters, blanks

    def leaves(self) -> LeaveValues:
        """The game's leave table (artifacts/leaves/<id>.leaves, loaded on first call).

        Raises:
            ArtifactMissing: the table has not been built (`make leaves`).
        """
        if self._leaves is None:
            self._leaves = read_leaves(leaves_path(self.id), self.rules)
        return self._leaves

    def leave(self, tiles: str) -> float:
        """The value in points of keeping `tiles` ("?" a blank) with tiles in the bag; 0.0 for
        none.

        Raises:
            BadInput: tiles outside the game, more than a leave keeps, or more of a tile than
                the set has.
        """
        return self.leaves().value(tiles)

    def play(self, board: Board, move: Move) -> Board:
        """The board after a move (exchanges and passes leave it unchanged)."""
        return board.with_tiles(move.placed) if move.kind in ("play", "turn") else board

    def tile_score(self, word: str) -> int:
        """Sum of the tile values of a word; uppercase letters and "?" are blanks (0).

        Raises:
            BadInput: a character that is not a letter of the game.
        """
        total = 0
        for ch in word:
            if ch == BLANK_SYMBOL or (ch != ch.lower() and ch.lower() in self.rules.values):
                continue
            if ch not in self.rules.values:
                raise BadInput(f"{ch!r} is not a letter of {self.id} (letters: {self.alphabet})")
            total += self.rules.values[ch]
        return total

    def rack_score(self, word: str, rack: str) -> int:
        """Tile score of `word` spelled from `rack` ("?" = blank): letters the rack lacks are
        blanks and score 0, as on word-finder sites.

        Raises:
            BadInput: a character that is not a letter of the game.
        """
        left = {}
        for ch in rack.lower():
            left[ch] = left.get(ch, 0) + 1
        spelled = []
        for ch in word:
            if left.get(ch, 0):
                left[ch] -= 1
                spelled.append(ch)
            else:
                spelled.append(BLANK_SYMBOL)
        return self.tile_score("".join(spelled))

    # --- moves ---------------------------------------------------------------------------
    def moves(self, board: Board, rack: str, top: int | None = None,
              bag: int | None = None, played_words=None, by: str = "score",
              unseen: str | None = None, seconds: float | None = None) -> list[Move]:
        """Every legal move with its score, best first.

        Plays come first among equal scores, then exchanges, then the pass; ties among plays
        are ordered by direction, row, column and tiles, so the order is deterministic.
        Under placement = "multi" (Erudit), `top` ranks multi-word turns (kind "turn") with
        the plays, found by the full search of best_turn (ties: fewer parts first), by score
        or by equity (search_turns); without `top` the list holds the single-line plays, as
        every turn would be too many to list (the browser's finder lists those).
        By equity (score + the value of the tiles kept, lookup/crossword/equity.py), every move gets
        `leave` and `equity` and the moves are sorted by equity, ties in that same order.

        Args:
            board: the position.
            rack: the tiles to play, "?" for a blank.
            top: return only the best `top` moves (by score; the single-line search and the
                turn search prune by a score bound).
            bag: tiles in the bag, deciding whether exchanges are allowed and, by equity,
                whether leaves or the end of the game count; by default the unseen tiles
                minus one full opponent rack.
            played_words: under repeat_words = false, the words played earlier in the game;
                the words on the board count in any case.
            by: "score" or "equity" (needs the game's leave table, artifacts/leaves).
            unseen: by equity, the tiles neither on the board nor on the rack (the bag and
                the opponent's rack), "?" a blank; by default the rest of the set.
            seconds: under placement = "multi" with `top`, a time budget for the turn
                search: the best turns found by then (search_turns says whether proven).

        Raises:
            BadInput: a rack the game or the board does not allow, top < 1, an unknown `by`,
                an `unseen` pool or bag that contradicts the board and rack, seconds not a
                positive number, or (repeat_words = false) a board that holds a word twice.
        """
        if top is not None and top < 1:
            raise BadInput(f"top must be at least 1, not {top}")
        if by not in ("score", "equity"):
            raise BadInput(f"moves by {by!r}: use 'score' or 'equity'")
        check_budget(seconds)
        r = self.rules
        codes = self.rack_codes(rack, board)
        if by == "equity":
            pool, bag = self._pool_and_bag(board, codes, unseen, bag)
            if r.placement == "multi" and top is not None:
                # The best turns by equity (search_turns), then the exchanges and the pass
                # ranked with them; turns first among equal equities, as plays are.
                turns = self.search_turns(board, rack, top, played_words, seconds, by="equity",
                                          bag=bag, unseen=unseen).moves
                others = rank_by_equity(self, self.leaves(), self._exchanges_and_pass(codes, bag),
                                        codes, pool, bag)
                return sorted(turns + others, key=lambda move: -move.equity)[:top]
            if top is not None and r.repeat_words and self._uses_engine(None):
                # Only the plays that can be among the best `top` (line_plays), then the
                # exchanges and the pass: ranking thousands of plays to keep ten took most of
                # the time.
                found = self._plays(board, codes, top, self._leave_values(codes, pool, bag),
                                    compiled=True) + self._exchanges_and_pass(codes, bag)
            else:
                found = self.moves(board, rack, bag=bag, played_words=played_words)
            by_equity = rank_by_equity(self, self.leaves(), found, codes, pool, bag)
            return by_equity[:top] if top is not None else by_equity
        if r.placement == "multi" and top is not None:
            moves = self.search_turns(board, rack, top, played_words, seconds).moves
        else:
            moves = self._plays(board, codes, top if r.repeat_words else None)
            if not r.repeat_words:
                played = played_set(board, played_words)
                moves = [m for m in moves if not repeat_problems(r, m.words, played)][:top]
        if bag is None:
            on_board = sum(1 for code in board.cells if code)
            bag = max(0, r.total_tiles - on_board - len(codes) - r.rack_size)
        # Plays are sorted best first and score >= 0; exchanges and the pass (score 0) follow
        # them, which is their place in the order (plays first among equal scores).
        moves += self._exchanges_and_pass(codes, bag)
        return moves[:top] if top is not None else moves

    def _exchanges_and_pass(self, codes: list[int], bag: int) -> list[Move]:
        """Every exchange of the rack `codes` when the bag allows one (in text order), then
        the pass.
        """
        r = self.rules
        moves = []
        if bag >= r.exchange_min_bag and codes:
            tiles = r.tiles.text(codes)
            subsets = sorted({"".join(c) for k in range(1, len(tiles) + 1)
                              for c in itertools.combinations(tiles, k)})
            moves.extend(Move("exchange", exchanged=s) for s in subsets)
        moves.append(Move("pass"))
        return moves

    def _pool_and_bag(self, board: Board, codes: list[int], unseen: str | None,
                      bag: int | None) -> tuple[list[int], int]:
        """The unseen tiles and the bag size for equity (moves() says how), checked."""
        r = self.rules
        pool = r.tiles.unseen(board, codes, unseen)
        if bag is None:
            bag = max(0, len(pool) - r.rack_size)
        if not len(pool) - r.rack_size <= bag <= len(pool):
            raise BadInput(f"a bag of {bag} tiles contradicts the {len(pool)} unseen "
                           f"tiles (the bag plus the opponent's rack of at most "
                           f"{r.rack_size}): give the bag size and the unseen tiles that fit")
        return pool, bag

    def best_turn(self, board: Board, rack: str, method: str = "greedy",
                  played_words=None, seconds: float | None = None,
                  by: str = "score") -> Move | None:
        """The best turn under the game's rules: a play (one line) or, under placement =
        "multi", a Move of kind "turn" whose `parts` are plays in an order they can be laid.

        Args:
            board: the position.
            rack: the tiles to play, "?" for a blank.
            method: "greedy", the best play then the best one the tiles left allow, until none
                fits; or "full", the best turn of every sequence of plays
                (lookup/crossword/turn_search.py).
            played_words: under repeat_words = false, the words played earlier in the game;
                the words on the board count in any case.
            seconds: with method "full", a time budget: the best turn found by then
                (search_turns says whether it is proven best).
            by: with method "full", "score" or "equity" (score + the value of the tiles
                kept, as moves() computes it with the default bag and unseen tiles).

        Returns:
            The move, or None when no tile can be placed.

        Raises:
            BadInput: a bad rack, an unknown method, seconds not a positive number, or
                (repeat_words = false) a board that holds a word twice.
        """
        if method not in METHODS:
            raise BadInput(f"unknown method {method!r}: use one of {', '.join(METHODS)}")
        codes = self.rack_codes(rack, board)
        if self.rules.placement == "line":
            plays = self.moves(board, rack, top=1, played_words=played_words)
            return plays[0] if plays[0].kind == "play" else None
        if method == "greedy":
            return self._turn_search(board, codes, played_words).greedy()
        turns = self.search_turns(board, rack, 1, played_words, seconds, by=by).moves
        return turns[0] if turns else None

    def search_turns(self, board: Board, rack: str, top: int = 1, played_words=None,
                     seconds: float | None = None, by: str = "score", bag: int | None = None,
                     unseen: str | None = None, leaves=None) -> TurnAnswer:
        """The best `top` turns of a position under placement = "multi" (Erudit), by the
        exact cluster search (lookup/crossword/turn_search.py ClusterSearch), ranked as
        moves() ranks them; with `seconds`, the best found within that time.

        Args:
            board, rack, top, played_words: as moves() takes them.
            seconds: a time budget.
            by: "score", or "equity": score + the value of the tiles kept
                (lookup/crossword/equity.py: the leave model while the bag holds tiles, the
                end-of-game terms when it is empty); the moves get `leave` and `equity`.
            bag, unseen: by equity, as moves() takes them.
            leaves: by equity, the leave model (`lookup(keys)`); the game's table by default.

        Returns:
            A TurnAnswer: `moves`, and `proven`, true when the search finished (the moves
            are then the best `top`, ties as moves() orders them).

        Raises:
            BadInput: a bad rack, top < 1, an unknown `by`, an `unseen` pool or bag that
                contradicts the board and rack, seconds not a positive number, a game whose
                placement is "line", or (repeat_words = false) a board that holds a word
                twice.
        """
        if self.rules.placement != "multi":
            raise BadInput(f"{self.id} lays one line a turn: use moves()")
        if top < 1:
            raise BadInput(f"top must be at least 1, not {top}")
        if by not in ("score", "equity"):
            raise BadInput(f"turns by {by!r}: use 'score' or 'equity'")
        check_budget(seconds)
        codes = self.rack_codes(rack, board)
        leave = None
        if by == "equity":
            pool, bag = self._pool_and_bag(board, codes, unseen, bag)
            leave = self._leave_of_kept(leaves or self.leaves(), pool, bag)
        if not self.rules.repeat_words:
            twice = repeated_words(board)
            if twice:
                raise BadInput(f"the board holds {twice[0].upper()} twice; {self.id} forms "
                               "each word once: correct the board")
        started = time.perf_counter()
        search = self._turn_search(board, codes, played_words)
        deadline = None if seconds is None else started + seconds
        # Thousands of plays lists: the compiled engine pays from the first search.
        compiled = self.compiled if self.compiled is not None else numba_available()
        clusters = ClusterSearch(search, covering_step(self, compiled), deadline, leave)
        moves = clusters.best(top)
        return TurnAnswer(moves, clusters.proven, time.perf_counter() - started)

    def _leave_of_kept(self, model, pool: list[int], bag: int):
        """leave(kept tiles in lexicon codes) for ClusterSearch: rank_by_equity's value."""
        to_game = self.lexicon().to_game
        worth = self.rules.tiles.values
        opponent = sum(worth[code] for code in pool)

        def leave(kept: list[int]) -> float:
            codes = [to_game[code] if code else BLANK_CODE for code in kept]
            if bag:
                return float(model.lookup([key_of_codes(codes)])[0])
            return end_of_bag_values([codes], worth, opponent)[0]

        return leave

    def _turn_search(self, board: Board, rack: list[int], played_words,
                     compiled: bool | None = None) -> TurnSearch:
        """The turn search of a position (lookup/crossword/turn_search.py); its step is
        line_plays, `compiled` as line_plays takes it.
        """
        return TurnSearch(self, board, rack, played_set(board, played_words),
                          functools.partial(self.line_plays, compiled=compiled))

    def _leave_values(self, rack: list[int], pool: list[int], bag: int) -> dict:
        """{leave key in lexicon codes: value} of every tile multiset the rack can keep, as
        rank_by_equity values it (the leave table while the bag holds tiles, else the
        end-of-bag formula against the unseen `pool`).
        """
        game_keys, lex_keys, _sizes = move_engine(self, compiled=True).sub_leave_keys(rack)
        worth = self.rules.tiles.values
        values = kept_set_values(self.leaves() if bag else None, game_keys, bag, worth,
                                 sum(worth[c] for c in pool))
        return dict(zip(lex_keys.tolist(), values.tolist()))

    def _plays(self, board: Board, rack: list[int], top: int | None = None,
               leave_values: dict | None = None, compiled: bool | None = None) -> list[Move]:
        """The single-line plays of a rack's tile codes, best first (line_plays)."""
        lex = self.lexicon()
        cells = lex.cells(board)
        counts = lex.rack_counts(rack)
        moves = []
        same_codes = lex.same_codes
        for negative, direction, line, start, codes, blank_bits in self.line_plays(
                cells, counts, top, compiled, leave_values):
            row, col = (line, start) if direction == ACROSS else (start, line)
            if not same_codes:
                codes = tuple(lex.to_game[c] for c in codes)
            moves.append(Move("play", row, col, _DIRECTIONS[direction], -negative, "", codes,
                              board, blank_bits))
        return moves

    def line_plays(self, cells: list, counts: list, top: int | None = None,
                   compiled: bool | None = None, leave_values: dict | None = None) -> list:
        """Every single-line play of a position, best first in the order of moves(), as
        tuples (-score, direction, line, start, main word codes, blank bits) in lexicon codes.

        The one move path of the game: the compiled move engine (lookup/crossword/engine.py)
        when numba is installed, else the pure-Python move generator
        (lookup/crossword/movegen.py), which CPython runs about twice as fast as the engine's
        kernel source. Both list the same plays in the same order (tests/test_engine.py). By
        default the engine takes over from the generator at the game's ENGINE_AFTER_LISTS-th
        list, or at once when numba is already loaded: its first use in a process costs
        about 0.15 s and 60 MB (numba and the compiled code), more than a few lists save, so
        a process that asks one question (`wordpack moves`) never pays it.

        Args:
            cells: the board in lexicon codes, row-major (GameLexicon.cells).
            counts: the rack by lexicon code, the blanks at index 0 (GameLexicon.rack_counts).
            top: only the best `top` plays (the generator prunes by a score bound).
            compiled: True the engine, False the generator, None the game's `compiled`
                (None: as above).
            leave_values: with `top`, the plays that can be among the best `top` by equity
                instead of by score, in score order (MoveEngine.play_tuples); the generator
                lists them all.
        """
        self._lists += 1
        if self._uses_engine(compiled):
            plays = move_engine(self, compiled=True).play_tuples(cells, counts, top,
                                                                 leave_values)
            return plays[:top] if top is not None and leave_values is None else plays
        context = self._movegen_context()
        across, down = orientations(context, cells)
        letters = list(counts)
        letters[0] = 0
        return generate(context, across, down, letters, counts[0],
                        top if leave_values is None else None)

    def _movegen_context(self) -> MoveGenContext:
        """The move generator's constants of this game (lookup/crossword/movegen.py), made on
        first use.
        """
        if self._context is None:
            r = self.rules
            lex = self.lexicon()
            layout = r.layout
            self._context = MoveGenContext(
                lex.tables, layout.size, layout.start[0] * layout.size + layout.start[1],
                layout.letter_mult, layout.word_mult, lex.values, r.rack_size, r.bingo,
                lex.all_letters, r.min_word_length, r.max_word_length)
        return self._context

    def _uses_engine(self, compiled: bool | None) -> bool:
        """Whether line_plays runs the compiled engine (its `compiled` argument)."""
        if compiled is None:
            compiled = self.compiled
        if compiled is None:
            compiled = (numba_available() and self.rules.rack_size <= MAX_LEAVE_TILES + 1
                        and (self._lists >= ENGINE_AFTER_LISTS or "numba" in sys.modules))
        return compiled

    # --- look-ahead: lookup/crossword/endgame.py, lookup/crossword/simulate.py
    # ------------------------------
    def endgame(self, board: Board, rack: str, opponent_rack: str, seconds: float | None = None,
                plies: int | None = None, nodes: int | None = None, threads: int = 1):
        """Best play to the end with the bag empty and both racks known: an EndgameResult
        with `value` (the mover's points to the end minus the opponent's, end adjustments
        included) and `line` (the principal variation); lookup/crossword/endgame.py. `seconds`,
        `plies` and `nodes` (positions searched) bound the iterative deepening; `threads`
        searches on that many threads (the same value, sooner on as many cores).

        Raises:
            BadInput: bad racks, a bag that is not empty, seconds, plies or nodes not
                positive, threads not from 1 to 16 or above 1 with nodes.
        """
        return solve_endgame(move_engine(self), board, rack, opponent_rack, seconds=seconds,
                             plies=plies, nodes=nodes, threads=threads)

    def simulate(self, board: Board, rack: str, unseen: str | None = None, candidates: int = 10,
                 plies: int | None = 2, iterations: int | None = None,
                 seconds: float | None = None, seed: int = 0, threads: int = 1) -> list:
        """Monte Carlo simulation of the best candidates by equity: rows (move, mean,
        stderr, iterations, pruned), best first; lookup/crossword/simulate.py. plies=None plays
        every line to the end of the game; `threads` plays dealings on that many threads at
        once (the same rows, sooner on as many cores).

        Raises:
            BadInput: bad rack or unseen tiles; candidates, plies, iterations or seconds not
                positive; threads not from 1 to 16.
        """
        return simulate(move_engine(self), board, rack, unseen=unseen, candidates=candidates,
                        plies=plies, iterations=iterations, seconds=seconds, seed=seed,
                        threads=threads)

    # --- one placement -------------------------------------------------------------------
    def validate(self, board: Board, placement, rack: str | None = None,
                 played_words=None) -> list[str]:
        """Why a placement is illegal; an empty list when it is legal.

        Under placement = "multi" (Erudit) the tiles may form several words anywhere: the
        rules of lookup/crossword/turn.py apply.

        Args:
            board: the position.
            placement: a Move, or a list of (row, col, letter, is_blank) new tiles.
            rack: when given, the placement must use tiles of this rack.
            played_words: under repeat_words = false, the words played earlier in the game;
                the words on the board count in any case.

        Returns:
            One reason per problem, e.g. "tiles not in one line", "not connected: ...",
            "cross word QX is not a word", "main word ZZZQ is not a word", "word KOT is
            already played; erudit-ru forms each word once".

        Raises:
            BadInput: a placement that is not a list of new tiles, or a bad rack.
        """
        placed = placed_tiles(placement)
        rules = self.rules
        if rules.placement == "multi":
            reasons = turn_problems(rules, board, placed, self.is_word, played_words)
            if rack is not None:
                reasons += rack_problems(placed, rack, *self.parse_rack(rack))
            return reasons
        reasons, direction = shape_problems(rules, board, placed)
        if rack is not None and not reasons:
            reasons = rack_problems(placed, rack, *self.parse_rack(rack))
        if reasons:
            return reasons
        return word_problems(rules, board, placed, direction, self.is_word)

    def score(self, board: Board, move) -> int:
        """Score a placement by the game's rules (lookup/crossword/scoring.py), whatever the lexicon
        says.

        Under placement = "multi" (Erudit) a placement is a turn: the sum of the words it
        forms, each with the premiums of its new tiles, plus the bingo (lookup/crossword/turn.py).

        Args:
            board: the position before the move.
            move: a Move (exchanges and passes score 0) or a list of (row, col, letter,
                is_blank) new tiles.

        Raises:
            BadInput: the tiles do not form one legal shape (see validate).
        """
        if isinstance(move, Move) and move.kind not in ("play", "turn"):
            return 0
        placed = placed_tiles(move)
        if self.rules.placement == "multi":
            reasons = (square_problems(self.rules, board, placed)
                       or connection_problems(self.rules, board, placed))
            if reasons:
                raise BadInput(f"cannot score this turn: {reasons[0]}")
            return turn_score(self.rules, board, placed)
        reasons, direction = shape_problems(self.rules, board, placed)
        if reasons:
            raise BadInput(f"cannot score this placement: {reasons[0]}")
        return placement_score(self.rules, board, placed, direction)

    def render(self, board: Board, move: Move | None = None) -> str:
        """The board as text, with a move's new tiles in brackets (lookup/crossword/render.py).

        Tiles are lowercase (a blank uppercase); empty squares show their premium: = triple
        word, - double word, " triple letter, ' double letter.
        """
        return render(self.rules.layout, board, move)


def crossword_games() -> list[str]:
    """Ids of the crossword games built in the artifacts directory, sorted.

    A game is built when artifacts/crossword/<id>.json exists (`make crossword` builds every
    config/crossword/<id>.toml); files whose names start with "_" are not games.
    """
    return built_names(artifacts_dir() / "crossword", ".json")


@functools.lru_cache(maxsize=None)
def crossword_game(game_id: str) -> CrosswordGame:
    """The crossword game `game_id` (rules loaded now, lexicon on first use).

    Raises:
        UnknownName: no such game is built (the message lists those that are).
        ArtifactMissing: no crossword game is built at all.
        CorruptArtifact, UnsupportedFormat: its rules file cannot be trusted.
    """
    built = crossword_games()
    if game_id not in built:
        raise unknown_name("crossword game", game_id, built, "crossword")
    return CrosswordGame(load_rules(artifacts_dir() / "crossword" / f"{game_id}.json"))
