"""The JSON API (service/, `wordpack serve`): every endpoint answers what the Python API
returns, in the same order; bad input of any kind gets a 4xx with one line of JSON (a
hypothesis fuzz over every endpoint); the time budget stops a long query with a 503 and the
worker goes on; the real server runs with two workers and stops gracefully; the README's curl
examples run against it.

In-process requests go through httpx's ASGI transport on the test's own (main) thread: the
endpoints compute on the main thread, where the time budget's signal arrives.
"""

import asyncio
import json
import os
import random
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import lookup
from conftest import FIXTURES, REPO, SMALL_WORDLE
from lookup.crossword.game import crossword_game, crossword_games
from service.app import ENGINE_NICENESS, MAX_BODY_BYTES, MAX_ENGINE_QUEUE, create_app
from service.openapi import openapi_document

# The fixture games, plus the README tests' wordle-en of the fixture ENABLE list's 5-letter
# words, so that the README's examples run here under their names.
GUESSING_CONFIG = (FIXTURES / "guessing" / "guessing.toml").read_text().split(
    "# proof_only")[0] + SMALL_WORDLE
README_GUESSES = ["brond", "crane", "salet"]
EMPTY = "\n".join(["." * 15] * 15) + "\n"
CAT = "\n".join(["." * 15] * 7 + [".....cat......."] + ["." * 15] * 7) + "\n"
README = REPO / "README.md"
FENCE = re.compile(r"^```(\w[\w-]*)\n(.*?)^```$", re.MULTILINE | re.DOTALL)


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """Lexicons enable (fixture list) and opencorpora-nouns (the crossword sample), the games
    tiny-en, tiny-de and wordle-en, the scrabble-en and erudit-ru rules, scrabble-en's leaves.
    """
    built = tmp_path_factory.mktemp("artifacts")
    sources = tmp_path_factory.mktemp("sources")
    for path in [*(FIXTURES / "sources").glob("enable.*"),
                 *(FIXTURES / "guessing").glob("tiny-*.txt"),
                 FIXTURES / "sources" / "opencorpora-nouns.json"]:
        shutil.copy(path, sources / path.name)
    shutil.copy(FIXTURES / "crossword" / "opencorpora-nouns-sample.txt",
                sources / "opencorpora-nouns.txt")
    (built / "guessing.toml").write_text(GUESSING_CONFIG)
    (built / "readme-guesses.txt").write_text("".join(f"{w}\n" for w in README_GUESSES))
    make = ["make", "-C", str(REPO), f"ARTIFACTS={built}", f"SOURCES={sources}",
            f"GUESSING_CONFIG={built}/guessing.toml"]
    lexicons = [f"{built}/lexicons/{name}.{kind}" for name in ("enable", "opencorpora-nouns")
                for kind in ("dawg", "gaddag")]
    subprocess.run([*make, *lexicons, f"{built}/crossword/scrabble-en.json",
                    f"{built}/crossword/erudit-ru.json", f"{built}/leaves/scrabble-en.leaves"],
                   capture_output=True, text=True, check=True)
    subprocess.run([*make, "guessing"], capture_output=True, text=True, check=True)
    return built


@pytest.fixture()
def runtime(built, monkeypatch):
    """The Python API reads the fixture artifacts (crossword_game caches games by id only)."""
    monkeypatch.setenv("WORDPACK_ARTIFACTS", str(built))
    crossword_game.cache_clear()
    yield built
    crossword_game.cache_clear()


@pytest.fixture(scope="module")
def app(built):
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("WORDPACK_ARTIFACTS", str(built))
        crossword_game.cache_clear()
        yield create_app()
        crossword_game.cache_clear()


def call(app, method: str, url: str, body=None, content: bytes | None = None,
         headers=None) -> httpx.Response:
    """One request to the application, in-process."""
    async def send():
        transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            return await client.request(method, url, json=body, content=content,
                                        headers=headers)
    return asyncio.run(send())


def get(app, url: str):
    response = call(app, "GET", url)
    assert response.status_code == 200, (url, response.text)
    return response.json()


def post(app, url: str, body: dict):
    response = call(app, "POST", url, body)
    assert response.status_code == 200, (url, response.text)
    return response.json()


def error_of(response: httpx.Response) -> str:
    """The one-line error of a 4xx/5xx answer (and that it is one)."""
    assert response.headers["content-type"] == "application/json"
    data = response.json()
    assert list(data) == ["error"] and "\n" not in data["error"], data
    assert "Traceback" not in data["error"]
    return data["error"]


# --- every endpoint equals the Python API ----------------------------------------------------

def test_lists_are_the_built_names(app, runtime):
    assert get(app, "/api/lexicons") == lookup.lexicon_names() == ["enable", "opencorpora-nouns"]
    assert get(app, "/api/guessing") == lookup.guessing_game_names() == [
        "tiny-de", "tiny-en", "wordle-en"]
    assert get(app, "/api/crossword") == crossword_games() == ["erudit-ru", "scrabble-en"]
    assert get(app, "/api/lexicons/enable") == {
        "name": "enable", "words": 4054, "alphabet": "abcdefghijklmnopqrstuvwxyz"}
    assert get(app, "/api/guessing/tiny-en") == {
        "id": "tiny-en", "name": "Tiny English", "length": 4, "max_guesses": 6,
        "alphabet": "abcdefghijklmnopqrstuvwxyz", "answers": 15, "guesses": 29}
    assert get(app, "/api/crossword/scrabble-en") == {
        "id": "scrabble-en", "name": "Scrabble (English)", "lexicon": "enable",
        "alphabet": "abcdefghijklmnopqrstuvwxyz", "rack_size": 7, "board_size": 15,
        "placement": "line"}
    assert get(app, "/api/health") == {"status": "ok"}


def _lexicon_cases(name: str, count: int, seed: int):
    words = list(lookup.lexicon(name))
    rng = random.Random(seed)
    for _ in range(count):
        word = rng.choice(words)
        rack = "".join(rng.sample(word, len(word)))
        if rng.random() < 0.4:
            rack = "?" + rack[1:]
        pattern = "".join("?" if rng.random() < 0.4 else ch for ch in word)
        yield word, rack, pattern if rng.random() < 0.7 else word[:2] + "*"


@pytest.mark.parametrize("name", ["enable", "opencorpora-nouns"])
def test_lexicon_queries_equal_the_python_api(app, runtime, name):
    lex = lookup.lexicon(name)
    for word, rack, pattern in _lexicon_cases(name, 40, seed=len(name)):
        q = httpx.QueryParams
        assert get(app, f"/api/lexicons/{name}/check?{q(word=word.upper())}") == {
            "word": word.upper(), "valid": True}
        assert get(app, f"/api/lexicons/{name}/check?{q(word=word + word)}")["valid"] == (
            word + word in lex)
        assert get(app, f"/api/lexicons/{name}/anagrams?{q(letters=rack)}") == {
            "words": lex.anagrams(rack)}
        assert get(app, f"/api/lexicons/{name}/unscramble?{q(letters=rack, min_len=3)}") == {
            "words": lex.unscramble(rack, min_len=3)}
        assert get(app, f"/api/lexicons/{name}/unscramble?"
                        f"{q(letters=rack, starts=word[0], ends=word[-1])}") == {
            "words": lex.unscramble(rack, starts=word[0], ends=word[-1])}
        assert get(app, f"/api/lexicons/{name}/match?{q(pattern=pattern)}") == {
            "words": lex.match(pattern)}


def test_unscramble_with_a_game_scores_each_word(app, runtime):
    words = lookup.lexicon("enable").unscramble("cat?", min_len=3)
    game = lookup.crossword_game("scrabble-en")
    answer = get(app, "/api/lexicons/enable/unscramble?letters=cat?&min_len=3&game=scrabble-en")
    assert answer == {"words": words, "scores": [game.rack_score(w, "cat?") for w in words]}
    # cat from the rack: c 3, a 1, t 1; cats: the s is the blank; qat: the q is (0, not 10).
    assert answer["scores"][answer["words"].index("cat")] == 5
    assert answer["scores"][answer["words"].index("cats")] == 5
    assert answer["scores"][answer["words"].index("qat")] == 2


def test_the_readme_lexicon_example(app, runtime):
    assert get(app, "/api/lexicons/enable/match?pattern=c?t") == {"words": ["cat", "cot", "cut"]}
    assert get(app, "/api/lexicons/enable/check?word=quixotic") == {
        "word": "quixotic", "valid": True}
    assert get(app, "/api/lexicons/enable/check?word=qxz") == {"word": "qxz", "valid": False}


def _histories(game, hard: bool):
    """Every answer's game played by next_guess, each prefix of it."""
    for answer in game.answers:
        history = []
        while True:
            yield list(history)
            guess = game.next_guess(history, hard=hard)
            if guess == answer:
                break
            history.append((guess, game.feedback(guess, answer)))


@pytest.mark.parametrize("game_id", ["tiny-en", "tiny-de", "wordle-en"])
@pytest.mark.parametrize("hard", [False, True])
def test_guessing_queries_equal_the_python_api(app, runtime, game_id, hard):
    game = lookup.guessing_game(game_id)
    mode = "true" if hard else "false"
    answers = 0
    for history in _histories(game, hard):
        text = ",".join(f"{g}:{f}" for g, f in history)
        params = httpx.QueryParams(history=text, hard=mode)
        candidates = game.candidates(history, hard=hard)
        assert get(app, f"/api/guessing/{game_id}/next?{params}") == {
            "guess": game.next_guess(history, hard=hard), "candidates": len(candidates)}
        assert get(app, f"/api/guessing/{game_id}/candidates?{params}") == {
            "candidates": candidates}
        if game_id != "wordle-en" or len(history) > 1:  # ranking the opening is slower
            assert get(app, f"/api/guessing/{game_id}/rank?{params}&n=3") == {
                "rank": game.rank(history, n=3, hard=hard)}
        answers += not history
    assert answers == len(game.answers)


def test_guessing_exact_answers(app, runtime):
    assert get(app, "/api/guessing/tiny-en/next") == {"guess": "bolt", "candidates": 15}
    assert get(app, "/api/guessing/tiny-en/candidates?history=bell:0000") == {
        "candidates": ["cook"]}
    assert get(app, "/api/guessing/tiny-en/feedback?guess=bell&answer=ball") == {
        "feedback": "2022"}
    game = lookup.guessing_game("tiny-en")
    assert get(app, "/api/guessing/tiny-en/evaluate?guess=bell&history=bolt:0020") == \
        game.evaluate("bell", [("bolt", "0020")])
    # Colours as letters and squares, '=' as the separator: the same history.
    for history in ("bolt:bbgb", "bolt=0020", "bolt:⬛⬛🟩⬛"):
        assert get(app, f"/api/guessing/tiny-en/candidates?{httpx.QueryParams(history=history)}"
                   ) == {"candidates": game.candidates([("bolt", "0020")])}


def _positions(game_id: str, count: int, blanks: int = 2):
    data = json.loads((FIXTURES / "crossword" / f"selfplay-{game_id}.json").read_text())
    return [p for p in data["positions"] if p["rack"] and p["rack"].count("?") <= blanks][:count]


def test_moves_equal_the_python_api(app, runtime):
    game = lookup.crossword_game("scrabble-en")
    compared = 0
    for position in _positions("scrabble-en", 30):
        board = game.parse_board(position["board"])
        for by in ("score", "equity"):
            body = {"board": position["board"], "rack": position["rack"], "top": 15, "by": by,
                    "bag": len(position["bag"])}
            expected = game.moves(board, position["rack"], top=15, by=by,
                                  bag=len(position["bag"]))
            answer = post(app, "/api/crossword/scrabble-en/moves", body)["moves"]
            assert [m["text"] for m in answer] == [repr(m)[6:-2] for m in expected]
            for got, move in zip(answer, expected):
                assert got == {"text": move.notation(), **move.to_dict(), "leave": move.leave,
                               "equity": move.equity}
            compared += len(answer)
    assert compared > 300


def test_the_contract_s_move_shape(app, runtime):
    answer = post(app, "/api/crossword/scrabble-en/moves", {"board": CAT, "rack": "s?", "top": 1})
    assert answer == {"moves": [{
        "text": "V 6,8 As 7", "kind": "play", "row": 6, "col": 8, "direction": "V",
        "word": "as", "placed": [[6, 8, "a", True], [7, 8, "s", False]],
        "words": ["as", "cats"], "score": 7, "exchanged": "", "parts": [], "leave": None,
        "equity": None}]}


def test_erudit_turns_score_validate_and_leave_equal_the_python_api(app, runtime):
    erudit = lookup.crossword_game("erudit-ru")
    # No blank, and a budget no search here comes near even on a busy machine: the full search
    # takes up to a second without blanks (the budget's own test is below).
    roomy = create_app(budget=60, warm=False)
    for position in _positions("erudit-ru", 6, blanks=0):
        board = erudit.parse_board(position["board"])
        for method in ("greedy", "full"):
            move = erudit.best_turn(board, position["rack"], method=method)
            answer = post(roomy, "/api/crossword/erudit-ru/best_turn",
                          {"board": position["board"], "rack": position["rack"],
                           "method": method})
            assert answer["proven"] is (None if method == "greedy" else True)
            if method == "full":  # a budget the search stays within: the same, proven turn
                assert post(roomy, "/api/crossword/erudit-ru/best_turn",
                            {"board": position["board"], "rack": position["rack"],
                             "method": method, "seconds": 30}) == answer
            answer = answer["move"]
            assert answer == (None if move is None else json.loads(json.dumps(
                {"text": move.notation(), **move.to_dict(), "leave": None, "equity": None,
                 "parts": [{"text": p.notation(), **p.to_dict(), "leave": None, "equity": None}
                           for p in move.parts]})))
            if move is not None:
                placed = [list(tile) for tile in move.placed]
                body = {"board": position["board"], "placed": placed}
                assert erudit.score(board, move.placed) == move.score
                assert post(app, "/api/crossword/erudit-ru/score", body) == {"score": move.score}
                assert post(app, "/api/crossword/erudit-ru/validate",
                            {**body, "rack": position["rack"]}) == {"valid": True, "problems": []}
    scrabble = lookup.crossword_game("scrabble-en")
    board = scrabble.parse_board(CAT)
    placed = [[7, 8, "z", False]]
    assert post(app, "/api/crossword/scrabble-en/validate", {"board": CAT, "placed": placed}) == {
        "valid": False, "problems": scrabble.validate(board, [(7, 8, "z", False)])}
    for tiles in ("", "?", "?s", "ers", "qu"):
        assert get(app, f"/api/crossword/scrabble-en/leave?{httpx.QueryParams(tiles=tiles)}") \
            == {"tiles": tiles, "value": scrabble.leave(tiles)}


def test_openapi_describes_every_route(app):
    document = get(app, "/api/openapi.json")
    assert document == json.loads(json.dumps(openapi_document()))
    described = {(path, method.upper()) for path, item in document["paths"].items()
                 for method in item}
    routed = {(route.path, method) for route in app.routes if route.path.startswith("/api/")
              for method in route.methods - {"HEAD"}}
    assert described == routed


# --- bad input: one line of JSON, never a 5xx ------------------------------------------------

BAD_REQUESTS = [
    ("GET", "/api/lexicons/klingon/check?word=a", None, 404,
     "unknown lexicon 'klingon': the built ones are enable, opencorpora-nouns"),
    ("GET", "/api/guessing/nope/next", None, 404,
     "unknown guessing game 'nope': the built ones are tiny-de, tiny-en, wordle-en"),
    ("POST", "/api/crossword/monopoly/moves", {"board": EMPTY, "rack": "a"}, 404,
     "unknown crossword game 'monopoly': the built ones are erudit-ru, scrabble-en"),
    ("GET", "/api/lexicons/enable/unscramble?letters=abc&game=monopoly", None, 404,
     "unknown crossword game 'monopoly'"),
    # Names are looked up among the built ones, never taken for paths (lookup.lexicon takes
    # a .dawg path too).
    ("GET", "/api/lexicons/enable.dawg/check?word=a", None, 404, "unknown lexicon 'enable.dawg'"),
    ("GET", "/api/lexicons/..%2F..%2Fetc%2Fpasswd/check?word=a", None, 404, "nothing at"),
    ("GET", "/api/nope", None, 404, "nothing at /api/nope: the endpoints are in /api/openapi.json"),
    ("GET", "/api/lexicons/enable/check", None, 400, "parameter 'word' is missing"),
    ("GET", "/api/lexicons/enable/check?word=a&word=b", None, 400, "'word' is given 2 times"),
    ("GET", "/api/lexicons/enable/anagrams?letters=ab&min_len=2", None, 400,
     "unknown parameter 'min_len': /api/lexicons/enable/anagrams takes letters"),
    ("GET", "/api/lexicons/enable/anagrams?letters=r2d2", None, 400,
     "'2' in letters 'r2d2' is not in the enable alphabet"),
    ("GET", "/api/lexicons/enable/anagrams?letters=" + "a" * 21, None, 400,
     "letters has 21 letters; at most 20"),
    ("GET", "/api/lexicons/enable/match?pattern=" + "?" * 300, None, 400,
     "parameter 'pattern' has 300 characters; at most 256"),
    ("GET", "/api/lexicons/enable/unscramble?letters=abc&min_len=zero", None, 400,
     "min_len must be a whole number from 1 to 64, not 'zero'"),
    ("GET", "/api/guessing/tiny-en/next?history=bell", None, 400,
     "history item 1 'bell': write GUESS:FEEDBACK"),
    ("GET", "/api/guessing/tiny-en/next?history=bell:0000,bell:0001", None, 400,
     "no answer fits"),
    ("GET", "/api/guessing/tiny-en/next?history=bell:00000", None, 400, "feedback"),
    ("GET", "/api/guessing/tiny-en/next?hard=maybe", None, 400,
     "hard must be true or false, not 'maybe'"),
    ("GET", "/api/guessing/tiny-en/rank?n=0", None, 400, "n must be a whole number from 1 to"),
    ("GET", "/api/guessing/tiny-en/next?history=" + ",".join(["bell:0000"] * 21), None, 400,
     "history has 21 guesses; at most 20"),
    ("POST", "/api/crossword/scrabble-en/moves", {"board": "...", "rack": "a"}, 400, "board"),
    ("POST", "/api/crossword/scrabble-en/moves", {"board": EMPTY}, 400,
     "field 'rack' is missing"),
    ("POST", "/api/crossword/scrabble-en/moves", {"board": EMPTY, "rack": 7}, 400,
     "field 'rack' must be a string, not 7"),
    ("POST", "/api/crossword/scrabble-en/moves", {"board": EMPTY, "rack": "abcdefgh"}, 400,
     "holds 7"),
    ("POST", "/api/crossword/scrabble-en/moves", {"board": EMPTY, "rack": "a", "top": 0}, 400,
     "top must be a whole number from 1 to 200, not 0"),
    ("POST", "/api/crossword/scrabble-en/moves", {"board": EMPTY, "rack": "a", "top": True}, 400,
     "top must be a whole number"),
    ("POST", "/api/crossword/scrabble-en/moves", {"board": EMPTY, "rack": "a", "by": "luck"}, 400,
     "field 'by' must be one of score, equity, not \"luck\""),
    ("POST", "/api/crossword/scrabble-en/moves", {"board": EMPTY, "rack": "a", "colour": 1}, 400,
     "unknown field 'colour'"),
    ("POST", "/api/crossword/erudit-ru/moves", {"board": EMPTY, "rack": "аб", "by": "equity"},
     404, "erudit-ru.leaves does not exist: run `make leaves`"),
    ("POST", "/api/crossword/scrabble-en/score", {"board": EMPTY, "placed": [[7, 7, "c"]]}, 400,
     "field 'placed' must be a list of [row, col, letter, is_blank]"),
    ("POST", "/api/crossword/scrabble-en/score", {"board": EMPTY, "placed": [[15, 7, "c", False]]},
     400, "rows and columns 0 to 14"),
    ("POST", "/api/crossword/scrabble-en/best_turn", {"board": EMPTY, "rack": "a",
                                                      "method": "psychic"}, 400,
     "field 'method' must be one of greedy, full"),
    ("POST", "/api/crossword/erudit-ru/best_turn", {"board": EMPTY, "rack": "аб",
                                                    "method": "full", "seconds": 0}, 400,
     "seconds must be a number of seconds above 0 and at most 1 (the server's budget), not 0"),
    ("POST", "/api/crossword/erudit-ru/best_turn", {"board": EMPTY, "rack": "аб",
                                                    "method": "full", "seconds": "1"}, 400,
     "seconds must be a number of seconds above 0 and at most 1 (the server's budget), not "
     '"1"'),
    ("POST", "/api/crossword/erudit-ru/best_turn", {"board": EMPTY, "rack": "аб",
                                                    "method": "full", "seconds": 2.5}, 400,
     "seconds must be a number of seconds above 0 and at most 1 (the server's budget), not 2.5"),
    ("GET", "/api/crossword/scrabble-en/leave?tiles=12", None, 400,
     "leave tile '1' is not a letter of scrabble-en"),
    ("GET", "/api/crossword/scrabble-en/moves", None, 405,
     "GET is not allowed on /api/crossword/scrabble-en/moves: use POST"),
    ("DELETE", "/api/lexicons", None, 405, "DELETE is not allowed on /api/lexicons: use GET, HEAD"),
]


@pytest.mark.parametrize("method, url, body, status, message", BAD_REQUESTS)
def test_bad_requests_get_one_line_of_json(app, method, url, body, status, message):
    response = call(app, method, url, body)
    assert response.status_code == status, response.text
    assert message in error_of(response)


def test_bodies_that_are_not_a_json_object_or_too_big(app):
    url = "/api/crossword/scrabble-en/moves"
    for content in (b"", b"{", b"[1, 2]", b"null", b"\xff\xfe", b"[" * 100_000):
        response = call(app, "POST", url, content=content[:MAX_BODY_BYTES])
        assert response.status_code == 400
        assert error_of(response).startswith("the body must be a JSON object")
    response = call(app, "POST", url, content=b" " * (MAX_BODY_BYTES + 1))
    assert response.status_code == 413
    assert error_of(response) == "the body has 16,385 bytes; at most 16,384"

    async def chunked():  # no Content-Length: counted as it comes
        for _ in range(20):
            yield b" " * 1024
    response = call(app, "POST", url, content=chunked())
    assert response.status_code == 413
    assert error_of(response) == "the body has over 16,384 bytes; at most 16,384"


def test_a_query_over_its_budget_is_a_503_and_the_next_one_is_answered(built, runtime):
    slow = create_app(budget=0.002, warm=False)
    # Every word of up to 12 letters (thousands of prefixes: far over 2 ms).
    response = call(slow, "GET", "/api/lexicons/enable/unscramble?letters=" + "?" * 12)
    assert response.status_code == 503
    assert error_of(response) == ("the query ran past its 0.002 s time budget: ask for less "
                                  "(fewer blanks, a longer pattern, a smaller top)")
    assert get(slow, "/api/lexicons/enable/check?word=cat") == {"word": "cat", "valid": True}
    roomy = create_app(budget=60, warm=False)
    assert get(roomy, "/api/lexicons/enable/unscramble?letters=" + "?" * 12) == {
        "words": lookup.lexicon("enable").unscramble("?" * 12)}


def test_the_engine_process_refuses_past_its_queue_and_comes_back_after_dying(built, runtime):
    app = create_app(warm=False)
    engine = next(route.endpoint.__self__ for route in app.routes
                  if getattr(route, "path", "") == "/api/crossword/{name}/moves").engine
    body = {"board": CAT, "rack": "s?", "top": 3}
    cw = lookup.crossword_game("scrabble-en")
    expected = [move.notation() for move in cw.moves(cw.parse_board(CAT), "s?", top=3)]
    assert [m["text"] for m in post(app, "/api/crossword/scrabble-en/moves", body)["moves"]] \
        == expected
    engine.waiting = MAX_ENGINE_QUEUE  # as many searches as may wait are waiting
    response = call(app, "POST", "/api/crossword/scrabble-en/moves", body)
    assert response.status_code == 503
    assert error_of(response) == (f"the move engine has {MAX_ENGINE_QUEUE} searches waiting: "
                                  "ask again in a moment")
    engine.waiting = 0
    for process in list(engine._pool._processes.values()):
        process.kill()
        process.join()
    response = call(app, "POST", "/api/crossword/scrabble-en/moves", body)
    assert response.status_code == 503
    assert error_of(response) == "the move engine stopped and is restarting: ask again"
    assert [m["text"] for m in post(app, "/api/crossword/scrabble-en/moves", body)["moves"]] \
        == expected
    engine.stop()


# The fuzz: any method, path, query string and body; names good and bad.
PATHS = sorted(openapi_document()["paths"])  # every route (test_openapi_describes_every_route)
NAMES = ["enable", "opencorpora-nouns", "tiny-en", "tiny-de", "wordle-en", "scrabble-en",
         "erudit-ru", ""]
PARAMETERS = ["word", "letters", "min_len", "starts", "ends", "contains", "game", "pattern",
              "history", "hard", "n", "guess", "answer", "tiles"]
FIELDS = ["board", "rack", "top", "by", "bag", "unseen", "method", "placed"]
TEXT = st.one_of(st.text(max_size=30), st.text("abcst?*:,=0123 цаб", max_size=30),
                 st.sampled_from(["bell:0000", "cat?", "c?t*", "true", "0", "-1", "1e9", EMPTY,
                                  CAT, "scrabble-en", "ab", "s?"]))
JSON_VALUES = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-10**20, 10**20), st.floats(), TEXT),
    lambda inner: st.one_of(st.lists(inner, max_size=4),
                            st.dictionaries(st.text(max_size=5), inner, max_size=3)),
    max_leaves=12)


@st.composite
def requests(draw):
    name = draw(st.one_of(st.sampled_from(NAMES), st.text(max_size=12)))
    path = draw(st.sampled_from(PATHS)).replace("{name}", urllib.parse.quote(name, safe=""))
    params = draw(st.dictionaries(st.one_of(st.sampled_from(PARAMETERS), st.text(max_size=5)),
                                  TEXT, max_size=4))
    method = draw(st.sampled_from(["GET", "POST", "GET", "POST", "PUT", "DELETE"]))
    body = draw(st.one_of(
        st.none(), st.binary(max_size=40),
        st.dictionaries(st.one_of(st.sampled_from(FIELDS), st.text(max_size=5)), JSON_VALUES,
                        max_size=6).map(lambda d: json.dumps(d).encode())))
    return method, path, params, body


@settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))
@given(requests())
def test_fuzz_no_request_gets_a_5xx(app, runtime, request_parts):
    method, path, params, body = request_parts
    response = call(app, method, path + "?" + str(httpx.QueryParams(params)), content=body)
    assert response.status_code < 500, (method, path, params, body, response.text)
    if response.status_code >= 400:
        error_of(response)
    elif response.status_code >= 300:  # /api/lexicons/ -> /api/lexicons
        assert response.headers["location"]
    else:
        response.json()


# --- the real server -------------------------------------------------------------------------

class RealServer:
    """`wordpack serve --port 0 --workers 2` on the fixture artifacts."""

    def __init__(self, artifacts, *options):
        self.process = subprocess.Popen(
            [sys.executable, "-m", "lookup", "serve", "--port", "0", "--workers", "2", *options],
            cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            env={**os.environ, "WORDPACK_ARTIFACTS": str(artifacts)}, start_new_session=True)
        self.first_line = self.process.stdout.readline()
        self.base = self.first_line.split()[1].rstrip("/")

    def wait_ready(self) -> None:
        """Poll /api/health until a worker answers (no fixed sleep: a short pause between
        attempts while nothing listens yet).
        """
        while True:
            assert self.process.poll() is None, self.process.stderr.read()
            try:
                with urllib.request.urlopen(f"{self.base}/api/health", timeout=30) as answer:
                    if answer.status == 200:
                        return
            except OSError:
                time.sleep(0.05)

    def get(self, path: str):
        with urllib.request.urlopen(f"{self.base}{path}", timeout=30) as answer:
            return json.loads(answer.read())

    def workers(self) -> list[int]:
        pid = self.process.pid
        children = open(f"/proc/{pid}/task/{pid}/children").read().split()
        return [c for c in children if b"spawn_main" in open(f"/proc/{c}/cmdline", "rb").read()]

    def engines(self) -> list[str]:
        """Each worker's engine process (it starts before its worker accepts a connection)."""
        return [c for w in self.workers() for c in open(f"/proc/{w}/task/{w}/children").read()
                .split() if b"spawn_main" in open(f"/proc/{c}/cmdline", "rb").read()]

    def stop(self) -> int:
        self.process.send_signal(signal.SIGTERM)
        return self.process.wait(timeout=60)

    def kill(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()


@pytest.fixture(scope="module")
def server(built):
    running = RealServer(built)
    try:
        running.wait_ready()
        yield running
    finally:
        running.kill()


def test_the_real_server_runs_two_workers_and_answers(server, runtime):
    assert server.first_line.startswith("serving http://127.0.0.1:")
    assert "with 2 workers" in server.first_line
    assert len(server.workers()) == 2
    lex = lookup.lexicon("enable")
    game = lookup.guessing_game("tiny-en")
    # Enough requests that both workers answer some (each is warm before it accepts).
    for word, rack, pattern in _lexicon_cases("enable", 20, seed=7):
        q = httpx.QueryParams
        assert server.get(f"/api/lexicons/enable/anagrams?{q(letters=rack)}") == {
            "words": lex.anagrams(rack)}
        assert server.get(f"/api/lexicons/enable/match?{q(pattern=pattern)}") == {
            "words": lex.match(pattern)}
    assert server.get("/api/guessing/tiny-en/next?history=bolt:0020") == {
        "guess": game.next_guess([("bolt", "0020")]),
        "candidates": len(game.candidates([("bolt", "0020")]))}
    request = urllib.request.Request(
        f"{server.base}/api/crossword/scrabble-en/moves", method="POST",
        data=json.dumps({"board": CAT, "rack": "s?", "top": 3}).encode())
    with urllib.request.urlopen(request, timeout=30) as answer:
        moves = json.loads(answer.read())["moves"]
    assert [m["text"] for m in moves] == [m.notation() for m in lookup.crossword_game(
        "scrabble-en").moves(lookup.crossword_game("scrabble-en").parse_board(CAT), "s?", top=3)]
    with pytest.raises(urllib.error.HTTPError) as error:
        server.get("/api/lexicons/klingon/check?word=a")
    assert error.value.code == 404
    assert json.loads(error.value.read()) == {
        "error": "unknown lexicon 'klingon': the built ones are enable, opencorpora-nouns"}
    # Each worker starts its engine process while it warms up (a condition, not a time).
    while len(engines := server.engines()) < 2:
        time.sleep(0.05)
    # /proc/<pid>/stat field 19 is the niceness: workers at the server's, engines lowered.
    niceness = [int(open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[16])
                for pid in server.workers() + engines]
    assert niceness == [os.nice(0)] * 2 + [os.nice(0) + ENGINE_NICENESS] * 2


def test_the_real_server_stops_gracefully_on_sigterm(built):
    running = RealServer(built, "--budget", "0.002")
    try:
        running.wait_ready()
        # The budget works in a real worker (uvloop's event loop on the main thread).
        with pytest.raises(urllib.error.HTTPError) as error:
            running.get("/api/lexicons/enable/unscramble?letters=" + "?" * 12)
        assert error.value.code == 503
        assert running.get("/api/lexicons/enable/check?word=cat")["valid"] is True
        assert running.stop() == 0
        assert "Traceback" not in running.process.stderr.read()
    finally:
        running.kill()


def test_a_port_in_use_is_one_line(server, built):
    port = server.base.rsplit(":", 1)[1]
    result = subprocess.run([sys.executable, "-m", "service", "--port", port], cwd=REPO,
                            capture_output=True, text=True,
                            env={**os.environ, "WORDPACK_ARTIFACTS": str(built)})
    assert result.returncode == 1
    assert result.stderr == (f"error: cannot listen on 127.0.0.1:{port}: Address already in "
                             "use; pick another --port or --host\n")


def test_a_stale_artifact_stops_the_start_with_one_line(built, tmp_path):
    shutil.copytree(built, tmp_path / "artifacts")
    (tmp_path / "artifacts" / "lexicons" / "enable.dawg").write_bytes(b"not a word graph")
    result = subprocess.run([sys.executable, "-m", "lookup", "serve", "--port", "0"], cwd=REPO,
                            capture_output=True, text=True,
                            env={**os.environ, "WORDPACK_ARTIFACTS": str(tmp_path / "artifacts")})
    assert result.returncode == 1
    assert result.stderr.startswith("error: ") and result.stderr.count("\n") == 1
    assert "enable.dawg" in result.stderr and result.stdout == ""


def test_serve_without_the_extra_says_what_to_install(monkeypatch, capsys):
    import importlib.util

    from lookup import cli

    real = importlib.util.find_spec
    hidden = ("starlette", "uvloop")
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name in hidden else real(name, *a))
    with pytest.raises(SystemExit) as exit_:
        cli.main(["serve"])
    assert exit_.value.code == 1
    assert capsys.readouterr().err == ("error: wordpack serve needs the serve extra (starlette, "
                                       "uvloop missing): pip install 'wordpack[serve]'\n")


def test_importing_the_runtime_loads_no_web_framework():
    code = ("import sys, lookup, lookup.cli; lookup.lexicon_names(); "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in "
            "('starlette', 'uvicorn', 'service', 'httpx')))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            cwd=REPO, check=True)
    assert result.stdout.strip() == "[]"


# --- the README's curl examples --------------------------------------------------------------

def curl_examples() -> list[tuple[str, str]]:
    """(command, expected output) of every `$ curl` line of the README's ```shell-session
    blocks (the JSON API section).
    """
    examples = []
    for tag, body in FENCE.findall(README.read_text(encoding="utf-8")):
        if tag == "shell-session":
            for chunk in re.split(r"^\$ ", body, flags=re.MULTILINE)[1:]:
                command, _, output = chunk.partition("\n")
                examples.append((command, output))
    return examples


def run_curl(command: str, base: str) -> str:
    args = shlex.split(command.replace("http://127.0.0.1:8000", base))
    assert args[0] == "curl", f"the README's JSON API session runs only curl: {command}"
    return subprocess.run(args, capture_output=True, text=True, check=True).stdout


def test_the_readme_shows_curl_examples():
    commands = [command for command, _ in curl_examples()]
    assert len(commands) >= 5
    for endpoint in ("/check?", "/anagrams?", "/next?", "/moves"):
        assert any(endpoint in command for command in commands), endpoint


@pytest.mark.parametrize("command, expected", curl_examples())
def test_readme_curl_examples_run(server, command, expected):
    printed = json.loads(run_curl(command, server.base))
    assert ("error" in printed) == ("error" in json.loads(expected)), printed


@pytest.fixture(scope="module")
def full_server():
    running = RealServer(os.environ.get("WORDPACK_ARTIFACTS", REPO / "artifacts"))
    try:
        running.wait_ready()
        yield running
    finally:
        running.kill()


@pytest.mark.full
@pytest.mark.parametrize("command, expected", curl_examples())
def test_readme_curl_examples_print_what_the_readme_says(full_server, command, expected):
    assert run_curl(command, full_server.base).strip() == expected.strip()
