"""The Starlette application of `wordpack serve`: JSON endpoints under /api/, the page of
`make web` at /.

Every answer is what the Python API returns, in the same order: lexicon queries through
`lookup.lexicon(name)`, guessing through `lookup.guessing_game(id)`, crossword through
`lookup.crossword_game(id)`. The endpoints and their shapes are in service/openapi.py (served at
/api/openapi.json) and the README ("JSON API").

Errors are JSON, one line: {"error": "what is wrong and what to do"}. 400 bad input (a letter
outside the alphabet, a malformed history, board or body, an unknown parameter), 404 an unknown
lexicon or game (the message lists the built ones) or endpoint, or an artifact this server lacks
(a leave table), 405 a wrong method, 413 a body over MAX_BODY_BYTES, 503 a query over its time
budget (service/budget.py). Never a traceback: anything unexpected is a 500 whose message names
only the exception's type.

The endpoints are coroutines that compute without awaiting, on the worker's main thread: a query
takes microseconds to milliseconds, less than a hop to a thread pool would add, and the time
budget's signal reaches the main thread only. Concurrency comes from worker processes
(service/__main__.py), which share the memory-mapped artifacts. The move searches (`moves`,
`best_turn`) are the exception: one in a hundred takes 20 to 250 ms, and on the event loop every
request queued behind it waited that long (the load test's p99 of the quick queries was that
wait). Each worker sends them to its own engine process (`EngineProcess`, one process that
loads the crossword games) and awaits the answer, so the quick queries never wait behind a
search; the engine process computes under the same budget, on its main thread. Each worker
loads every lexicon and game when it starts (`warm_up`), so no query pays for a first load and
no budget interrupts one. What warm-up leaves on the heap (about 350,000 objects: decoded guess
trees, leave maps) is then frozen out of the garbage collector: a full collection over it took
63 ms, a pause every queued request waited out (the tail of the load test).
"""

import asyncio
import contextlib
import gc
import json
import multiprocessing
import os
import signal
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

import lookup
from lookup.crossword.game import crossword_games
from lookup.errors import ArtifactMissing, BadInput, UnknownName, WordpackError, unknown_name
from lookup.paths import artifacts_dir
from service.budget import BudgetExceeded, time_budget
from service.openapi import openapi_document

# Seconds one query may compute (`wordpack serve --budget`; the workers read BUDGET_VARIABLE).
DEFAULT_BUDGET = 1.0
BUDGET_VARIABLE = "WORDPACK_SERVE_BUDGET"
# A crossword body is a board of 15 lines (at most 2 bytes a square in UTF-8) and a few fields.
MAX_BODY_BYTES = 16 * 1024
MAX_PARAMETER_CHARS = 256
MAX_HISTORY = 20  # guesses in a history; no game takes more than 8 (docs/GAMES.md)
MAX_TOP = 200  # moves in one answer
MAX_RANK = 100  # rows of one ranking
MAX_MIN_LEN = 64
MAX_BAG = 1000
# Move searches waiting for a worker's engine process, beyond which a request gets a 503 at once
# (each runs at most its budget, so a longer queue would only wait past any client's patience).
MAX_ENGINE_QUEUE = 32
# The engine processes run at this niceness: when a search and a worker want the same core, the
# worker's quick queries go first (the kernel gives a nice-0 process about 10 times the CPU of a
# nice-10 one), and a search takes what the workers leave.
ENGINE_NICENESS = 10
TRUE_WORDS = ("true", "1", "yes")
FALSE_WORDS = ("false", "0", "no")


class ApiError(Exception):
    """An answer other than 200: its HTTP status and one line for {"error": ...}."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status


def error_response(status: int, message: str, headers=None) -> JSONResponse:
    """The JSON error answer: {"error": one line}."""
    return JSONResponse({"error": " ".join(message.split())}, status, headers=headers)


# --- query parameters and bodies ----------------------------------------------------------------

def query(request: Request, names: tuple[str, ...]) -> dict[str, str]:
    """The query parameters of an endpoint that takes `names`, each given at most once.

    Raises:
        ApiError: 400 for a parameter the endpoint does not take, one given twice, or one longer
            than MAX_PARAMETER_CHARS.
    """
    params = request.query_params
    for key in params:
        if key not in names:
            takes = ", ".join(names) if names else "no parameters"
            raise ApiError(400, f"unknown parameter {key!r}: {request.url.path} takes {takes}")
    values = {}
    for key in names:
        given = params.getlist(key)
        if len(given) > 1:
            raise ApiError(400, f"parameter {key!r} is given {len(given)} times: give it once")
        if given:
            if len(given[0]) > MAX_PARAMETER_CHARS:
                raise ApiError(400, f"parameter {key!r} has {len(given[0])} characters; at most "
                                    f"{MAX_PARAMETER_CHARS}")
            values[key] = given[0]
    return values


def required(values: dict, key: str, example: str) -> str:
    """values[key]; a 400 naming the parameter (with an example) when it is missing."""
    if key not in values:
        raise ApiError(400, f"parameter {key!r} is missing, e.g. {example}")
    return values[key]


def whole_number(values: dict, key: str, default, low: int, high: int):
    """values[key] as an int in low..high (`default` when absent); JSON true/false are not
    numbers.

    Raises:
        ApiError: 400 for anything else.
    """
    value = values.get(key)
    if value is None:
        return default
    if isinstance(value, str):
        try:
            value = int(value.strip())
        except ValueError:
            raise ApiError(400, f"{key} must be a whole number from {low} to {high}, not "
                                f"{value!r}") from None
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ApiError(400, f"{key} must be a whole number from {low} to {high}, not {value!r}")
    return value


def seconds_field(values: dict, key: str, high: float) -> float | None:
    """values[key] as a number of seconds above 0 and at most `high` (None when absent).

    Raises:
        ApiError: 400 for anything else.
    """
    value = values.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 < value <= high:
        raise ApiError(400, f"{key} must be a number of seconds above 0 and at most {high:g} "
                            f"(the server's budget), not {json.dumps(value)[:40]}")
    return float(value)


def flag(values: dict, key: str) -> bool:
    """values[key] as a boolean (true/false, 1/0, yes/no; false when absent)."""
    text = values.get(key, "false").strip().lower()
    if text in TRUE_WORDS:
        return True
    if text in FALSE_WORDS:
        return False
    raise ApiError(400, f"{key} must be true or false, not {values[key]!r}")


def parse_history(text: str) -> list[tuple[str, str]]:
    """`salet:01000,brond:01000` -> [("salet", "01000"), ("brond", "01000")]; "" -> [].

    The last ':' or '=' of an item separates: feedback never holds one, a Nerdle guess holds
    '=' (`54-36=18:20100000`). Feedback is digits (2 green, 1 yellow, 0 grey), letters
    (g, y, b) or the coloured squares.

    Raises:
        ApiError: 400 for an item without a guess or feedback, or over MAX_HISTORY items.
    """
    if not text.strip():
        return []
    items = text.split(",")
    if len(items) > MAX_HISTORY:
        raise ApiError(400, f"history has {len(items)} guesses; at most {MAX_HISTORY}")
    history = []
    for turn, item in enumerate(items, 1):
        cut = max(item.rfind(":"), item.rfind("="))
        guess, feedback = item[:cut].strip(), item[cut + 1:].strip()
        if cut < 0 or not guess or not feedback:
            raise ApiError(400, f"history item {turn} {item!r}: write GUESS:FEEDBACK, "
                                "comma-separated, e.g. salet:01000,brond:01000")
        history.append((guess, feedback))
    return history


async def json_body(request: Request, fields: tuple[str, ...]) -> dict:
    """The request's body: a JSON object whose keys are among `fields`.

    Raises:
        ApiError: 413 over MAX_BODY_BYTES (read no further); 400 not a JSON object, or a key
            the endpoint does not take.
    """
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > MAX_BODY_BYTES:
        raise ApiError(413, f"the body has {int(declared):,} bytes; at most {MAX_BODY_BYTES:,}")
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY_BYTES:
            raise ApiError(413, f"the body has over {MAX_BODY_BYTES:,} bytes; at most "
                                f"{MAX_BODY_BYTES:,}")
        chunks.append(chunk)
    try:
        body = json.loads(b"".join(chunks))
    except (ValueError, UnicodeDecodeError, RecursionError):
        body = None
    if not isinstance(body, dict):
        raise ApiError(400, "the body must be a JSON object, e.g. "
                            '{"board": "<15 lines>", "rack": "abfloos"}')
    for key in body:
        if key not in fields:
            raise ApiError(400, f"unknown field {key!r}: {request.url.path} takes "
                                f"{', '.join(fields)}")
    return body


def text_field(body: dict, key: str, example: str = "", optional: bool = False):
    """body[key], a string (None when optional and absent or null)."""
    value = body.get(key)
    if value is None:
        if optional:
            return None
        raise ApiError(400, f"field {key!r} is missing, e.g. {example}")
    if not isinstance(value, str):
        raise ApiError(400, f"field {key!r} must be a string, not {json.dumps(value)[:40]}")
    return value


def choice_field(body: dict, key: str, choices: tuple[str, ...]) -> str:
    """body[key], one of `choices` (the first when absent)."""
    value = body.get(key, choices[0])
    if value not in choices:
        raise ApiError(400, f"field {key!r} must be one of {', '.join(choices)}, not "
                            f"{json.dumps(value)[:40]}")
    return value


def placed_field(body: dict, size: int) -> list[tuple[int, int, str, bool]]:
    """body["placed"]: new tiles [[row, col, letter, is_blank], ...] on a board of `size`."""
    value = body.get("placed")
    shape = 'a list of [row, col, letter, is_blank], e.g. [[7, 7, "c", false]]'
    if not isinstance(value, list) or not value or len(value) > size * size:
        raise ApiError(400, f"field 'placed' must be {shape}")
    tiles = []
    for tile in value:
        if not (isinstance(tile, list) and len(tile) == 4
                and all(type(n) is int and 0 <= n < size for n in tile[:2])
                and isinstance(tile[2], str) and len(tile[2]) == 1
                and isinstance(tile[3], bool)):
            raise ApiError(400, f"field 'placed' must be {shape} (rows and columns 0 to "
                                f"{size - 1}), not {json.dumps(tile)[:40]}")
        tiles.append(tuple(tile))
    return tiles


# --- answers ----------------------------------------------------------------------------------

def compute(budget: float, function, *args, **kwargs):
    """function(*args, **kwargs) under the time budget, lookup's errors turned into ApiErrors
    (in a worker and in its engine process alike).
    """
    try:
        with time_budget(budget):
            return function(*args, **kwargs)
    except BudgetExceeded:
        raise ApiError(503, f"the query ran past its {budget:g} s time budget: ask for less "
                            "(fewer blanks, a longer pattern, a smaller top)") from None
    except UnknownName as error:
        raise ApiError(404, str(error)) from None
    except BadInput as error:
        raise ApiError(400, str(error)) from None
    except ArtifactMissing as error:
        raise ApiError(404, str(error)) from None


def move_json(move) -> dict:
    """A Move as JSON: `text` (the string inside repr(Move)), then Move.to_dict()'s fields,
    `leave` and `equity` always (null unless ranked by equity), a turn's `parts` likewise.
    """
    data = {"text": move.notation(), **move.to_dict()}
    data["parts"] = [move_json(part) for part in move.parts]
    data["leave"] = move.leave
    data["equity"] = move.equity
    return data


class Api:
    """The endpoints over the games loaded at start (`warm_up`), each query under `budget`."""

    def __init__(self, budget: float):
        self.budget = budget
        self.engine = EngineProcess(budget)
        self.lexicons = {name: lookup.lexicon(name) for name in lookup.lexicon_names()}
        self.guessing = {name: lookup.guessing_game(name)
                         for name in lookup.guessing_game_names()}
        self.crossword = {name: lookup.crossword_game(name) for name in crossword_games()}

    def warm_up(self) -> None:
        """Run one query of each kind on every game: maps the artifacts, indexes each lexicon's
        words by length for `match` (Lexicon.prepare_match), reads the trees and leave tables,
        computes the opening figures that ranking guesses at the start reads (about a second a
        game), and starts the engine process (which warms the move searches).
        """
        for lex in self.lexicons.values():
            lex.prepare_match()
        for game in self.guessing.values():
            for hard in (False, True):
                game.next_guess([], hard=hard)
            game.rank([], n=1)
        for game in self.crossword.values():
            try:
                game.leave(game.alphabet[0])
            except ArtifactMissing:
                pass  # no leave table: leave answers 404
        self.engine.start()

    def compute(self, function, *args, **kwargs):
        """function(*args, **kwargs) under the time budget, lookup's errors turned into
        ApiErrors.
        """
        return compute(self.budget, function, *args, **kwargs)

    # --- names --------------------------------------------------------------------------------
    def _lexicon(self, request: Request):
        return self._named(self.lexicons, request, "lexicon", "lexicons")

    def _guessing_game(self, request: Request):
        return self._named(self.guessing, request, "guessing game", "guessing")

    def _crossword_game(self, request: Request):
        return self._named(self.crossword, request, "crossword game", "crossword")

    @staticmethod
    def _named(loaded: dict, request: Request, kind: str, make_target: str):
        name = request.path_params["name"]
        if name not in loaded:
            raise ApiError(404, str(unknown_name(kind, name, sorted(loaded), make_target)))
        return loaded[name]

    # --- endpoints ----------------------------------------------------------------------------
    async def health(self, request: Request):
        """GET /api/health -> {"status": "ok"}."""
        query(request, ())
        return JSONResponse({"status": "ok"})

    async def openapi(self, request: Request):
        """GET /api/openapi.json -> the OpenAPI description."""
        query(request, ())
        return JSONResponse(openapi_document())

    async def lexicon_names(self, request: Request):
        """GET /api/lexicons -> the built lexicons' names."""
        query(request, ())
        return JSONResponse(sorted(self.lexicons))

    async def lexicon_info(self, request: Request):
        """GET /api/lexicons/{name} -> {"name", "words", "alphabet"}."""
        lex = self._lexicon(request)
        query(request, ())
        return JSONResponse({"name": lex.name, "words": len(lex), "alphabet": lex.alphabet})

    async def check(self, request: Request):
        """GET /api/lexicons/{name}/check?word=W -> {"word": W, "valid": bool}."""
        lex = self._lexicon(request)
        word = required(query(request, ("word",)), "word", "?word=quixotic")
        # As `wordpack check`: the word in lowercase (the lexicons store lowercase words).
        return JSONResponse({"word": word, "valid": self.compute(lex.__contains__,
                                                                 word.lower())})

    async def anagrams(self, request: Request):
        """GET /api/lexicons/{name}/anagrams?letters=L -> {"words": Lexicon.anagrams(L)}."""
        lex = self._lexicon(request)
        letters = required(query(request, ("letters",)), "letters", "?letters=retinas")
        return JSONResponse({"words": self.compute(lex.anagrams, letters)})

    async def unscramble(self, request: Request):
        """GET /api/lexicons/{name}/unscramble?letters=L&min_len=N&game=G -> {"words", "scores"}."""
        lex = self._lexicon(request)
        values = query(request, ("letters", "min_len", "starts", "ends", "contains", "game"))
        letters = required(values, "letters", "?letters=retinas")
        min_len = whole_number(values, "min_len", 2, 1, MAX_MIN_LEN)
        game = None
        if "game" in values:
            game = self.crossword.get(values["game"])
            if game is None:
                raise ApiError(404, str(unknown_name("crossword game", values["game"],
                                                     sorted(self.crossword), "crossword")))
        words = self.compute(lex.unscramble, letters, min_len=min_len,
                             starts=values.get("starts", ""), ends=values.get("ends", ""),
                             contains=values.get("contains", ""))
        if game is None:
            return JSONResponse({"words": words})
        # As `wordpack unscramble --game`: the tile score of each word spelled from the
        # letters, the letters the rack lacks being blanks; `scores[i]` is `words[i]`'s.
        scores = self.compute(lambda: [game.rack_score(word, letters) for word in words])
        return JSONResponse({"words": words, "scores": scores})

    async def match(self, request: Request):
        """GET /api/lexicons/{name}/match?pattern=P -> {"words": Lexicon.match(P)}."""
        lex = self._lexicon(request)
        pattern = required(query(request, ("pattern",)), "pattern", "?pattern=c?t*")
        return JSONResponse({"words": self.compute(lex.match, pattern)})

    async def guessing_names(self, request: Request):
        """GET /api/guessing -> the built guessing games' ids."""
        query(request, ())
        return JSONResponse(sorted(self.guessing))

    async def guessing_info(self, request: Request):
        """GET /api/guessing/{name} -> the game's id, name, length, lists' sizes."""
        game = self._guessing_game(request)
        query(request, ())
        return JSONResponse({"id": game.id, "name": game.name, "length": game.length,
                             "max_guesses": game.max_guesses, "alphabet": game.alphabet,
                             "answers": len(game.answers), "guesses": len(game.guesses)})

    def _history(self, request: Request, *names: str) -> tuple[dict, list, bool]:
        values = query(request, ("history", "hard", *names))
        return values, parse_history(values.get("history", "")), flag(values, "hard")

    async def next_guess(self, request: Request):
        """GET /api/guessing/{name}/next?history=H&hard=B -> {"guess", "candidates": N}."""
        game = self._guessing_game(request)
        _, history, hard = self._history(request)
        guess, left = self.compute(lambda: (game.next_guess(history, hard=hard),
                                            len(game.candidates(history, hard=hard))))
        return JSONResponse({"guess": guess, "candidates": left})

    async def candidates(self, request: Request):
        """GET /api/guessing/{name}/candidates?history=H -> {"candidates": [...]}."""
        game = self._guessing_game(request)
        _, history, hard = self._history(request)
        return JSONResponse({"candidates": self.compute(game.candidates, history, hard=hard)})

    async def rank(self, request: Request):
        """GET /api/guessing/{name}/rank?history=H&n=N -> {"rank": GuessingGame.rank rows}."""
        game = self._guessing_game(request)
        values, history, hard = self._history(request, "n")
        n = whole_number(values, "n", 10, 1, MAX_RANK)
        return JSONResponse({"rank": self.compute(game.rank, history, n=n, hard=hard)})

    async def evaluate(self, request: Request):
        """GET /api/guessing/{name}/evaluate?guess=G&history=H -> one rank row."""
        game = self._guessing_game(request)
        values, history, hard = self._history(request, "guess")
        guess = required(values, "guess", "?guess=crane")
        return JSONResponse(self.compute(game.evaluate, guess, history, hard=hard))

    async def feedback(self, request: Request):
        """GET /api/guessing/{name}/feedback?guess=G&answer=A -> {"feedback": digits}."""
        game = self._guessing_game(request)
        values = query(request, ("guess", "answer"))
        guess = required(values, "guess", "?guess=salet&answer=cigar")
        answer = required(values, "answer", "?guess=salet&answer=cigar")
        return JSONResponse({"feedback": self.compute(game.feedback, guess, answer)})

    async def crossword_names(self, request: Request):
        """GET /api/crossword -> the built crossword games' ids."""
        query(request, ())
        return JSONResponse(sorted(self.crossword))

    async def crossword_info(self, request: Request):
        """GET /api/crossword/{name} -> the rules in brief."""
        game = self._crossword_game(request)
        query(request, ())
        rules = game.rules
        return JSONResponse({"id": rules.id, "name": rules.name, "lexicon": rules.lexicon,
                             "alphabet": rules.alphabet, "rack_size": rules.rack_size,
                             "board_size": rules.layout.size, "placement": rules.placement})

    async def _position(self, request: Request, fields: tuple[str, ...]):
        game = self._crossword_game(request)
        query(request, ())
        body = await json_body(request, ("board", *fields))
        text = text_field(body, "board", '"board": "<15 lines of 15: . empty, a letter a tile>"')
        return game, self.compute(game.parse_board, text), body

    async def moves(self, request: Request):
        """POST /api/crossword/{name}/moves {board, rack, top, by, bag, unseen} -> {"moves"}."""
        fields = ("rack", "top", "by", "bag", "unseen")
        game, _board, body = await self._position(request, fields)
        rack = text_field(body, "rack", '"rack": "abfloos"')
        options = {"top": whole_number(body, "top", 10, 1, MAX_TOP),
                   "by": choice_field(body, "by", ("score", "equity")),
                   "bag": whole_number(body, "bag", None, 0, MAX_BAG),
                   "unseen": text_field(body, "unseen", optional=True)}
        found = await self.engine.search(game.rules.id, "moves", body["board"], rack, options)
        return JSONResponse({"moves": found})

    async def best_turn(self, request: Request):
        """POST /api/crossword/{name}/best_turn {board, rack, method, seconds} -> {"move",
        "proven"}.
        """
        game, _board, body = await self._position(request, ("rack", "method", "seconds"))
        rack = text_field(body, "rack", '"rack": "abfloos"')
        options = {"method": choice_field(body, "method", ("greedy", "full")),
                   "seconds": seconds_field(body, "seconds", self.budget)}
        answer = await self.engine.search(game.rules.id, "best_turn", body["board"], rack,
                                          options)
        return JSONResponse(answer)

    async def score(self, request: Request):
        """POST /api/crossword/{name}/score {board, placed} -> {"score": N}."""
        game, board, body = await self._position(request, ("placed",))
        placed = placed_field(body, game.rules.layout.size)
        return JSONResponse({"score": self.compute(game.score, board, placed)})

    async def validate(self, request: Request):
        """POST /api/crossword/{name}/validate {board, placed, rack} -> {"valid", "problems"}."""
        game, board, body = await self._position(request, ("placed", "rack"))
        placed = placed_field(body, game.rules.layout.size)
        rack = text_field(body, "rack", optional=True)
        problems = self.compute(game.validate, board, placed, rack)
        return JSONResponse({"valid": not problems, "problems": problems})

    async def leave(self, request: Request):
        """GET /api/crossword/{name}/leave?tiles=T -> {"tiles": T, "value": points}."""
        game = self._crossword_game(request)
        tiles = required(query(request, ("tiles",)), "tiles", "?tiles=er")
        return JSONResponse({"tiles": tiles, "value": self.compute(game.leave, tiles)})

    def routes(self) -> list[Route]:
        """The API's routes, under /api/."""
        get = [("/health", self.health), ("/openapi.json", self.openapi),
               ("/lexicons", self.lexicon_names), ("/lexicons/{name}", self.lexicon_info),
               ("/lexicons/{name}/check", self.check),
               ("/lexicons/{name}/anagrams", self.anagrams),
               ("/lexicons/{name}/unscramble", self.unscramble),
               ("/lexicons/{name}/match", self.match),
               ("/guessing", self.guessing_names), ("/guessing/{name}", self.guessing_info),
               ("/guessing/{name}/next", self.next_guess),
               ("/guessing/{name}/candidates", self.candidates),
               ("/guessing/{name}/rank", self.rank),
               ("/guessing/{name}/evaluate", self.evaluate),
               ("/guessing/{name}/feedback", self.feedback),
               ("/crossword", self.crossword_names), ("/crossword/{name}", self.crossword_info),
               ("/crossword/{name}/leave", self.leave)]
        post = [("/crossword/{name}/moves", self.moves),
                ("/crossword/{name}/best_turn", self.best_turn),
                ("/crossword/{name}/score", self.score),
                ("/crossword/{name}/validate", self.validate)]
        return ([Route(f"/api{path}", endpoint, methods=["GET"]) for path, endpoint in get]
                + [Route(f"/api{path}", endpoint, methods=["POST"]) for path, endpoint in post])


# --- the engine process ---------------------------------------------------------------------------

_ENGINE_GAMES: dict = {}  # in an engine process: the crossword games by id
# How often an engine process checks that its worker still runs (it exits when not).
ENGINE_PARENT_POLL_SECONDS = 0.5


def _exit_with_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(ENGINE_PARENT_POLL_SECONDS)
    os._exit(0)


def _engine_start() -> None:
    """An engine process's start: lower its priority (ENGINE_NICENESS), load every crossword
    game and warm its searches (one move list, by equity too where the game has a leave table,
    and one best turn: maps the GADDAG and the leave table, loads the compiled engine), then
    freeze that heap out of the collector.

    The process lives as long as its worker however the worker ends (a graceful stop, a crash,
    SIGKILL): a watcher thread exits when the worker is gone, so no engine outlives its server
    holding the server's output open. Ctrl-C reaches every process of the terminal's group;
    the engine ignores it and follows its worker out.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    os.nice(ENGINE_NICENESS)
    threading.Thread(target=_exit_with_parent, args=(os.getppid(),), daemon=True).start()
    for name in crossword_games():
        game = _ENGINE_GAMES[name] = lookup.crossword_game(name)
        rack = game.alphabet[:2]
        game.moves(game.empty_board(), rack, top=1)
        game.best_turn(game.empty_board(), rack)
        try:
            game.moves(game.empty_board(), rack, top=1, by="equity")
        except ArtifactMissing:
            pass  # no leave table: by=equity answers 404
    gc.collect()
    gc.freeze()


def _engine_ready() -> bool:
    return True


def _engine_search(budget: float, name: str, method: str, board: str, rack: str,
                   options: dict) -> tuple:
    """In an engine process: game `name`'s `moves` or `best_turn` as JSON, ("ok", answer), or
    ("error", status, message) (an ApiError does not cross processes whole).
    """
    game = _ENGINE_GAMES[name]

    def search():
        position = game.parse_board(board)
        if method == "moves":
            return [move_json(move) for move in game.moves(position, rack, **options)]
        if options["method"] == "full" and game.rules.placement == "multi":
            turns = game.search_turns(position, rack, 1, seconds=options["seconds"])
            move, proven = (turns.moves or [None])[0], turns.proven
        else:  # greedy proves nothing; a one-line game's best play is its best move
            move = game.best_turn(position, rack, method=options["method"])
            proven = None if options["method"] == "greedy" else True
        return {"move": None if move is None else move_json(move), "proven": proven}

    try:
        return ("ok", compute(budget, search))
    except ApiError as error:
        return ("error", error.status, str(error))


class EngineProcess:
    """A worker's engine process: the move searches run there, so that the worker's event loop
    answers the quick queries meanwhile. Started by `start` (the worker's warm-up) or by the
    first search; one search at a time, at most MAX_ENGINE_QUEUE waiting; an engine process
    that dies is replaced at the next search.
    """

    def __init__(self, budget: float):
        self.budget = budget
        self.waiting = 0
        self._pool = None

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(1, multiprocessing.get_context("spawn"),
                                             initializer=_engine_start)
        return self._pool

    def start(self) -> None:
        """Start the engine process and wait until it has loaded and warmed the games."""
        self._executor().submit(_engine_ready).result()

    def stop(self) -> None:
        """Stop the engine process (the worker's shutdown: its requests are answered)."""
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None

    async def search(self, name: str, method: str, board: str, rack: str, options: dict):
        """Game `name`'s `moves` or `best_turn` (keyword `options`) as JSON.

        Raises:
            ApiError: the search's own errors, or 503 when the queue is full or the engine
                process died.
        """
        if self.waiting >= MAX_ENGINE_QUEUE:
            raise ApiError(503, f"the move engine has {self.waiting} searches waiting: ask "
                                "again in a moment")
        self.waiting += 1
        try:
            answer = await asyncio.get_running_loop().run_in_executor(
                self._executor(), _engine_search, self.budget, name, method, board, rack,
                options)
        except BrokenProcessPool:
            self._pool = None
            raise ApiError(503, "the move engine stopped and is restarting: ask again") from None
        finally:
            self.waiting -= 1
        if answer[0] == "error":
            raise ApiError(answer[1], answer[2])
        return answer[1]


# --- the application ----------------------------------------------------------------------------

async def _api_error(request: Request, error: ApiError):
    return error_response(error.status, str(error))


async def _http_error(request: Request, error: HTTPException):
    """Starlette's own errors (no route, a wrong method) as one line of JSON."""
    if error.status_code == 404:
        message = f"nothing at {request.url.path}: the endpoints are in /api/openapi.json"
    elif error.status_code == 405:
        allowed = {k.lower(): v for k, v in (error.headers or {}).items()}.get("allow", "")
        # Starlette builds the list from a set: sorted, the message is the same in every process.
        allowed = ", ".join(sorted(method.strip() for method in allowed.split(",") if method))
        message = f"{request.method} is not allowed on {request.url.path}: use {allowed}"
    else:
        message = str(error.detail)
    return error_response(error.status_code, message, headers=error.headers)


async def _wordpack_error(request: Request, error: WordpackError):
    """A broken artifact (CorruptArtifact, UnsupportedFormat): the server's fault."""
    return error_response(500, str(error))


async def _unexpected(request: Request, error: Exception):
    return error_response(500, f"internal error ({type(error).__name__}); the server's log has "
                               "the details")


def web_dir() -> Path:
    """Where `make web` writes the page: <artifacts>/web."""
    return artifacts_dir() / "web"


async def _no_page(request: Request):
    return error_response(404, f"the web page is not built ({web_dir()}/index.html is "
                               "missing): run `make web`; the JSON API is under /api/")


def create_app(budget: float | None = None, warm: bool = True) -> Starlette:
    """The application over the artifacts of lookup.paths.artifacts_dir().

    Args:
        budget: seconds one query may compute; None: $WORDPACK_SERVE_BUDGET, else
            DEFAULT_BUDGET.
        warm: run Api.warm_up before serving (each worker of `wordpack serve` does).

    Raises:
        WordpackError: an artifact cannot be read (the server does not start).
    """
    if budget is None:
        budget = float(os.environ.get(BUDGET_VARIABLE, DEFAULT_BUDGET))
    api = Api(budget)
    if warm:
        api.warm_up()
        gc.collect()
        gc.freeze()  # the loaded games live as long as the worker: never scan them again
    page = web_dir()
    site = (Mount("/", StaticFiles(directory=page, html=True))
            if (page / "index.html").is_file() else Route("/", _no_page))
    @contextlib.asynccontextmanager
    async def lifespan(app):
        yield
        api.engine.stop()

    return Starlette(routes=[*api.routes(), site], lifespan=lifespan,
                     exception_handlers={ApiError: _api_error, HTTPException: _http_error,
                                         WordpackError: _wordpack_error,
                                         Exception: _unexpected})
