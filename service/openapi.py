"""The OpenAPI 3.1 description of the JSON API, served at /api/openapi.json.

Written out rather than generated: the shapes are a contract (the README's "JSON API" and
docs/ARCHITECTURE.md), and tests/test_serve.py checks that this document and the application's
routes list the same endpoints and methods.
"""

import functools

_ERROR = {"$ref": "#/components/responses/Error"}
_WORDS = {"type": "array", "items": {"type": "string"}}


def _parameter(name: str, description: str, required: bool = False, schema=None) -> dict:
    return {"name": name, "in": "query", "required": required, "description": description,
            "schema": schema or {"type": "string"}}


def _path_name(kind: str) -> dict:
    return {"name": "name", "in": "path", "required": True, "schema": {"type": "string"},
            "description": f"the {kind}'s id (404 with the built ones when unknown)"}


def _ok(description: str, schema: dict) -> dict:
    return {"200": {"description": description, "content": {"application/json": {
        "schema": schema}}}, "400": _ERROR, "404": _ERROR, "503": _ERROR}


def _object(**properties) -> dict:
    return {"type": "object", "properties": properties, "required": list(properties)}


def _get(summary: str, parameters: list, response: dict, description: str = "") -> dict:
    return {"get": {"summary": summary, "description": description, "parameters": parameters,
                    "responses": _ok(summary, response)}}


def _post(summary: str, body: dict, response: dict, description: str = "") -> dict:
    return {"post": {"summary": summary, "description": description, "parameters": [],
                     "requestBody": {"required": True, "content": {"application/json": {
                         "schema": body}}},
                     "responses": {**_ok(summary, response), "413": _ERROR}}}


_HISTORY = _parameter("history", "guesses so far, GUESS:FEEDBACK comma-separated, e.g. "
                      "salet:01000,brond:01000 (feedback: 2 green, 1 yellow, 0 grey; or g/y/b)")
_HARD = _parameter("hard", "hard mode: every guess uses every hint (true/false, default false)",
                   schema={"type": "boolean"})
_BOARD = {"type": "string", "description": "the board: one line a row, '.' an empty square, a "
          "lowercase letter a tile, an uppercase letter a blank"}
_RACK = {"type": "string", "description": "the rack's tiles, '?' a blank", "example": "abfloos"}
_PLACED = {"type": "array", "description": "new tiles [row, col, letter, is_blank]",
           "items": {"type": "array", "prefixItems": [{"type": "integer"}, {"type": "integer"},
                                                      {"type": "string"}, {"type": "boolean"}]}}
_MOVE = {
    "type": "object",
    "description": "a Move: `text` is the string inside Python's repr(Move), the rest "
                   "Move.to_dict(); leave and equity are null unless ranked by equity",
    "properties": {
        "text": {"type": "string", "example": "V 6,12 befools 38"},
        "kind": {"enum": ["play", "turn", "exchange", "pass"]},
        "row": {"type": ["integer", "null"]}, "col": {"type": ["integer", "null"]},
        "direction": {"enum": ["H", "V", None]}, "word": {"type": "string"},
        "placed": _PLACED, "words": _WORDS, "score": {"type": "integer"},
        "exchanged": {"type": "string"},
        "parts": {"type": "array", "items": {"$ref": "#/components/schemas/Move"}},
        "leave": {"type": ["number", "null"]}, "equity": {"type": ["number", "null"]},
    },
}
_RANK_ROW = {"type": "object", "properties": {
    "guess": {"type": "string"}, "groups": {"type": "integer"}, "largest": {"type": "integer"},
    "expected_remaining": {"type": "number"}, "entropy": {"type": "number"},
    "is_candidate": {"type": "boolean"}, "expected_guesses": {"type": ["number", "null"]}}}


@functools.cache
def openapi_document() -> dict:
    """The OpenAPI document (one dict, built once)."""
    lexicon, guessing, crossword = (_path_name(k) for k in ("lexicon", "guessing game",
                                                            "crossword game"))
    names = {"type": "array", "items": {"type": "string"}}
    paths = {
        "/api/health": _get("The server is up", [], _object(status={"const": "ok"})),
        "/api/openapi.json": _get("This document", [], {"type": "object"}),
        "/api/lexicons": _get("Built lexicons", [], names),
        "/api/lexicons/{name}": _get("A lexicon's size and alphabet", [lexicon], _object(
            name={"type": "string"}, words={"type": "integer"}, alphabet={"type": "string"})),
        "/api/lexicons/{name}/check": _get(
            "Whether a word is in the lexicon (lowercased, as `wordpack check`)",
            [lexicon, _parameter("word", "the word", True)],
            _object(word={"type": "string"}, valid={"type": "boolean"})),
        "/api/lexicons/{name}/anagrams": _get(
            "Words that use exactly these letters", [lexicon, _parameter(
                "letters", "the letters, '?' a blank (at most 20)", True)], _object(words=_WORDS),
            "Longest first, then alphabetical: Lexicon.anagrams."),
        "/api/lexicons/{name}/unscramble": _get(
            "Words made from some of these letters", [
                lexicon, _parameter("letters", "the letters, '?' a blank (at most 20)", True),
                _parameter("min_len", "shortest word (default 2)", schema={"type": "integer"}),
                _parameter("starts", "the word starts with this"),
                _parameter("ends", "the word ends with this"),
                _parameter("contains", "the word contains this"),
                _parameter("game", "a crossword game id: also give each word's tile score")],
            {"type": "object", "required": ["words"], "properties": {
                "words": _WORDS, "scores": {"type": "array", "items": {"type": "integer"},
                                            "description": "with game: scores[i] is words[i]'s "
                                            "(letters the rack lacks are blanks)"}}},
            "Longest first, then alphabetical: Lexicon.unscramble."),
        "/api/lexicons/{name}/match": _get(
            "Words matching a pattern", [lexicon, _parameter(
                "pattern", "'?' one letter, '*' any run, letters fixed (at most 64)", True)],
            _object(words=_WORDS), "Longest first, then alphabetical: Lexicon.match."),
        "/api/guessing": _get("Built guessing games", [], names),
        "/api/guessing/{name}": _get("A guessing game's facts", [guessing], _object(
            id={"type": "string"}, name={"type": "string"}, length={"type": "integer"},
            max_guesses={"type": "integer"}, alphabet={"type": "string"},
            answers={"type": "integer"}, guesses={"type": "integer"})),
        "/api/guessing/{name}/next": _get(
            "The guess to play next and how many answers are left",
            [guessing, _HISTORY, _HARD],
            _object(guess={"type": "string"}, candidates={"type": "integer"}),
            "GuessingGame.next_guess: the decision tree's guess while the history follows it."),
        "/api/guessing/{name}/candidates": _get(
            "The answers still possible, in answer-list order", [guessing, _HISTORY, _HARD],
            _object(candidates=_WORDS)),
        "/api/guessing/{name}/rank": _get(
            "The best next guesses with their figures", [
                guessing, _HISTORY, _HARD,
                _parameter("n", "rows (default 10, at most 100)", schema={"type": "integer"})],
            _object(rank={"type": "array", "items": _RANK_ROW})),
        "/api/guessing/{name}/evaluate": _get(
            "The figures of one guess after the history",
            [guessing, _parameter("guess", "the guess", True), _HISTORY, _HARD], _RANK_ROW),
        "/api/guessing/{name}/feedback": _get(
            "The colours of a guess against an answer", [
                guessing, _parameter("guess", "the guess", True),
                _parameter("answer", "the answer", True)],
            _object(feedback={"type": "string", "example": "01000"})),
        "/api/crossword": _get("Built crossword games", [], names),
        "/api/crossword/{name}": _get("A crossword game's rules in brief", [crossword], _object(
            id={"type": "string"}, name={"type": "string"}, lexicon={"type": "string"},
            alphabet={"type": "string"}, rack_size={"type": "integer"},
            board_size={"type": "integer"}, placement={"enum": ["line", "multi"]})),
        "/api/crossword/{name}/leave": _get(
            "The value in points of keeping these tiles", [crossword, _parameter(
                "tiles", "the tiles kept, '?' a blank", True)],
            _object(tiles={"type": "string"}, value={"type": "number"})),
        "/api/crossword/{name}/moves": _post(
            "The best moves of a board and rack",
            {"type": "object", "required": ["board", "rack"], "properties": {
                "board": _BOARD, "rack": _RACK,
                "top": {"type": "integer", "minimum": 1, "maximum": 200, "default": 10},
                "by": {"enum": ["score", "equity"], "default": "score"},
                "bag": {"type": ["integer", "null"], "description": "tiles in the bag "
                        "(decides exchanges); default: unseen tiles minus a rack"},
                "unseen": {"type": ["string", "null"], "description": "by equity: the tiles "
                           "not on the board or the rack; default: the rest of the set"}}},
            _object(moves={"type": "array", "items": {"$ref": "#/components/schemas/Move"}}),
            "CrosswordGame.moves, best first; Erudit ranks multi-word turns too. "
            "Under the time budget."),
        "/api/crossword/{name}/best_turn": _post(
            "The best turn (Erudit: several words in one turn)",
            {"type": "object", "required": ["board", "rack"], "properties": {
                "board": _BOARD, "rack": _RACK,
                "method": {"enum": ["greedy", "full"], "default": "greedy"},
                "seconds": {"type": "number", "exclusiveMinimum": 0, "description": "the full "
                            "search's own budget, at most the server's: past it, the best turn "
                            "found so far, with proven false"}}},
            _object(move={"oneOf": [{"$ref": "#/components/schemas/Move"}, {"type": "null"}]},
                    proven={"type": ["boolean", "null"], "description": "the full search "
                            "finished: the turn is the best; null for greedy"}),
            "CrosswordGame.best_turn (with seconds: search_turns); null when no tile can be "
            "placed. Without seconds, the full search is under the server's time budget (503 "
            "past it)."),
        "/api/crossword/{name}/score": _post(
            "The score of a placement by the game's rules",
            {"type": "object", "required": ["board", "placed"],
             "properties": {"board": _BOARD, "placed": _PLACED}},
            _object(score={"type": "integer"})),
        "/api/crossword/{name}/validate": _post(
            "Why a placement is illegal (no problems: legal)",
            {"type": "object", "required": ["board", "placed"],
             "properties": {"board": _BOARD, "placed": _PLACED, "rack": _RACK}},
            _object(valid={"type": "boolean"}, problems=_WORDS)),
    }
    return {
        "openapi": "3.1.0",
        "info": {"title": "wordpack", "version": "1",
                 "description": "Word-game queries over prebuilt artifacts: lexicons, "
                                "Wordle/Nerdle strategy, crossword moves. Every error is "
                                '{"error": "one line"}.'},
        "paths": paths,
        "components": {
            "schemas": {"Move": _MOVE},
            "responses": {"Error": {"description": "what is wrong and what to do",
                                    "content": {"application/json": {"schema": _object(
                                        error={"type": "string"})}}}},
        },
    }
