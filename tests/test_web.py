"""The JavaScript readers and the page of `make web`, in headless Chromium, against the Python
runtime: fixture artifacts here; the real ones (@pytest.mark.full) at the sizes of issue 12."""

import contextlib
import gzip
import hashlib
import json
import math
import os
import random
import re
import shutil
import subprocess
import urllib.parse

import pytest

import lookup
from browser_support import Site
from conftest import FIXTURES, REPO, full_artifact
from lookup.crossword.game import CrosswordGame
from lookup.crossword.rules import load_rules
from lookup.guessing.game import guessing_game
from lookup.headers import check_seal
from pipeline.build_web import build_web
from pipeline.selfplay import read_selfplay

GAMES = FIXTURES / "guessing"
CROSSWORD_GAMES = ("scrabble-en", "wordfeud-en", "erudit-ru")


def make(artifacts, sources, *targets):
    subprocess.run(["make", "-C", str(REPO), f"ARTIFACTS={artifacts}", f"SOURCES={sources}",
                    f"GUESSING_CONFIG={GAMES / 'guessing.toml'}", *targets],
                   capture_output=True, text=True, check=True)


@pytest.fixture(scope="module")
def artifacts(tmp_path_factory):
    """Fixture games tiny-en and tiny-de, the ENABLE sample (4-byte words) and the Russian
    sample (a 33-letter alphabet: 8-byte words) with their GADDAGs (for Python's moves), the
    crossword games on them (scrabble-en with its leave table, wordfeud-en, and erudit-ru
    without one), and the site."""
    built = tmp_path_factory.mktemp("artifacts")
    make(built, GAMES, "guessing")
    make(built, FIXTURES / "sources", *(f"{built}/lexicons/{name}.{kind}"
                                        for name in ("enable", "opencorpora-nouns")
                                        for kind in ("dawg", "gaddag")),
         *(f"{built}/crossword/{game}.json" for game in CROSSWORD_GAMES),
         f"{built}/leaves/scrabble-en.leaves")
    build_web(built, built / "web")
    return built


@pytest.fixture()
def runtime(artifacts, monkeypatch):
    monkeypatch.setenv("WORDPACK_ARTIFACTS", str(artifacts))
    return artifacts


@pytest.fixture()
def site(browser, artifacts):  # noqa: F811 (the fixture)
    opened = Site(browser, artifacts / "web")
    opened.open("index.html#words")
    yield opened
    assert opened.errors == []
    opened.close()


def test_site_has_every_file_in_its_manifest(artifacts):
    web = artifacts / "web"
    manifest = json.loads((web / "web-manifest.json").read_text())
    files = sorted(p.relative_to(web).as_posix() for p in web.rglob("*")
                   if p.is_file() and p.name != "web-manifest.json")
    assert sorted(manifest["files"]) == files
    for name, entry in manifest["files"].items():
        content = (web / name).read_bytes()
        assert entry["bytes"] == len(content)
        assert entry["sha256"] == hashlib.sha256(content).hexdigest()
    assert not [f for f in files if "feedback" in f or "openers" in f]
    assert gzip.decompress((web / "data/enable.dawg.gz").read_bytes()) == \
        (artifacts / "lexicons/enable.dawg").read_bytes()
    assert sorted(f for f in files if f.startswith("js/")) == sorted(
        f"js/{p.name}" for p in (REPO / "clients/js").glob("*.js"))
    for sealed_file in (web / "data/catalog.json", web / "web-manifest.json"):
        check_seal(sealed_file, sealed_file.read_bytes(), "json")
    catalog = json.loads((web / "data/catalog.json").read_text())
    del catalog["file_sha256"]
    assert catalog == {
        "format": "web-catalog", "version": 2, "lexicons": ["enable", "opencorpora-nouns"],
        "guessing": {"tiny-de": "Tiny German (non-ASCII letters)", "tiny-en": "Tiny English"},
        "crossword": {
            "erudit-ru": {"name": "Эрудит", "lexicon": "opencorpora-nouns"},
            "scrabble-en": {"name": "Scrabble (English)", "lexicon": "enable"},
            "wordfeud-en": {"name": "Wordfeud (English)", "lexicon": "enable"}}}
    assert manifest["pages"]["words"]["files"] == [
        "index.html", "style.css", "app.js", "remote.js", "js/errors.js", "js/files.js",
        "js/lexicon.js", "js/rules.js", "data/catalog.json", "data/enable.dawg.gz",
        "data/crossword/scrabble-en.json"]


LEXICON_QUERIES = """
  const lexicon = await lex.loadLexicon(`data/${arg.name}.dawg`);
  const packed = await lex.loadLexicon(`data/${arg.name}.dawg.gz`);
  return {
    size: lexicon.size, packedSize: packed.size,
    has: arg.probes.map((w) => lexicon.has(w)),
    index: arg.probes.map((w) => lexicon.index(w)),
    word: arg.indices.map((i) => lexicon.word(i)),
    anagrams: arg.racks.map((r) => lexicon.anagrams(r)),
    unscramble: arg.racks.map((r) => lexicon.unscramble(r, {minLength: 3})),
    match: arg.patterns.map((p) => lexicon.match(p)),
  };
"""


def lexicon_queries(words: list[str], alphabet: str, seed: int, probes: int, queries: int):
    """Membership probes (half words, half one-letter edits of words) and query inputs."""
    rng = random.Random(seed)
    sample = rng.sample(words, min(len(words), probes // 2))
    edits = [w[:i] + rng.choice(alphabet) + w[i + 1:] for w in sample
             for i in [rng.randrange(len(w))]]
    racks, patterns = [], []
    for _ in range(queries):
        word = rng.choice(words)
        letters = list(word[:7]) + [rng.choice(alphabet) for _ in range(rng.randrange(2))]
        rng.shuffle(letters)
        racks.append("".join(letters[:6]) + "?" * rng.randrange(2))
        # A letter first and no '*' before the second symbol: an open start would make the
        # Python side walk most of the lexicon for one pattern.
        symbols = [c if i == 0 or rng.random() < 0.6 else "?" for i, c in enumerate(word)]
        cut = rng.randrange(min(2, len(symbols)), len(symbols) + 1)
        patterns.append("".join(symbols[:cut]) + "*" * rng.randrange(2) + "".join(symbols[cut:]))
    return sample + edits + ["", "x" * 40], racks, patterns


def python_answers(lex, probes, indices, racks, patterns) -> dict:
    def index(word):
        try:
            return lex.index(word)
        except KeyError:
            return -1

    return {"size": len(lex), "packedSize": len(lex), "has": [w in lex for w in probes],
            "index": [index(w) for w in probes], "word": [lex.word(i) for i in indices],
            "anagrams": [lex.anagrams(r) for r in racks],
            "unscramble": [lex.unscramble(r, min_len=3) for r in racks],
            "match": [lex.match(p) for p in patterns]}


@pytest.mark.parametrize("name", ["enable", "opencorpora-nouns"])
def test_lexicon_agrees_with_python(site, runtime, name):
    lex = lookup.lexicon(str(runtime / "lexicons" / f"{name}.dawg"))
    words = list(lex)
    probes, racks, patterns = lexicon_queries(words, lex.alphabet, 12, 2 * len(words), 60)
    indices = list(range(len(words)))
    expected = python_answers(lex, probes, indices, racks, patterns)
    got = site.run(LEXICON_QUERIES, {"name": name, "probes": probes, "indices": indices,
                                     "racks": racks, "patterns": patterns})
    assert got == expected
    assert sum(expected["has"]) == sum(p in set(words) for p in probes) > len(probes) // 3


def test_lexicon_examples(site):
    got = site.run("""
      const e = await lex.loadLexicon("data/enable.dawg.gz");
      return [e.name, e.size, e.has("cat"), e.has("cxt"), e.index("cat"), e.word(0),
              e.anagrams("act"), e.unscramble("cat?", {minLength: 3, ends: "t"}), e.match("c?t")];
    """)
    assert got == ["enable", 4054, True, False, 554, "aa", ["act", "cat"],
                   ["act", "aft", "ait", "alt", "ant", "apt", "art", "att", "bat", "cat", "cot",
                    "cut", "eat", "fat", "gat", "hat", "kat", "lat", "mat", "oat", "pat", "qat",
                    "rat", "sat", "tat", "vat", "wat"],
                   ["cat", "cot", "cut"]]


PLAY_EVERY_ANSWER = """
  const g = await guess.loadGuessingGame("data/", arg.id);
  const green = "2".repeat(g.length);
  return g.answers.map((answer) => {
    const history = [];
    for (;;) {
      const next = g.nextGuess(history, {hard: arg.hard});
      const digits = g.feedback(next, answer);
      history.push([next, digits]);
      if (digits === green || history.length > 20) return history.length;
    }
  });
"""


def python_guesses_per_answer(game, hard: bool) -> list[int]:
    counts = []
    for answer in game.answers:
        history = []
        while not history or history[-1][1] != "2" * game.length:
            guess = game.next_guess(history, hard=hard)
            history.append((guess, game.feedback(guess, answer)))
        counts.append(len(history))
    return counts


@pytest.mark.parametrize("game_id", ["tiny-en", "tiny-de"])
@pytest.mark.parametrize("hard", [False, True])
def test_every_answer_takes_as_many_guesses_as_in_python(site, runtime, game_id, hard):
    game = guessing_game(game_id)
    got = site.run(PLAY_EVERY_ANSWER, {"id": game_id, "hard": hard})
    assert got == python_guesses_per_answer(game, hard)
    assert sum(got) == game.tree_stats(hard=hard)["total"]


def test_guessing_queries_agree_with_python(site, runtime):
    game = guessing_game("tiny-en")
    histories = [[], [["bell", "0222"]], [["bell", "bggg"]], [["cook", "0000"]],
                 [["note", "0001"]], [["book", 0]], [["bolt", "0210"], ["dell", "⬛⬛🟨⬛"]]]
    got = site.run("""
      const g = await guess.loadGuessingGame("data", "tiny-en");
      const pairs = g.guesses.flatMap((x) => g.answers.map((y) => g.feedback(x, y)));
      return {pairs, candidates: arg.map((h) => g.candidates(h)),
              next: arg.map((h) => g.nextGuess(h)),
              hard: arg.slice(0, -1).map((h) => g.nextGuess(h, {hard: true})),
              hardError: caught(() => g.candidates(arg.at(-1), {hard: true}))};
    """, histories)
    assert got == {
        "pairs": [game.feedback(x, y) for x in game.guesses for y in game.answers],
        "candidates": [game.candidates(h) for h in histories],
        "next": [game.next_guess(h) for h in histories],
        "hard": [game.next_guess(h, hard=True) for h in histories[:-1]],
        "hardError": ["BadInput",
                      "hard mode: guess 2 'dell' breaks guess 1's hint: position 2 must be 'o'"]}
    assert got["next"] == ["bolt", "dell", "dell", "boot", "bell", "dell", "look"]


BAD_HISTORIES = [
    ([["tolls", "0000"]], "guess 'tolls' has 5 characters, tiny-en needs 4"),
    ([["bell", "02z2"]], "feedback '02z2': 'z' is not a colour; use digits 0/1/2, letters g/y/b "
                         "or the squares 🟩 🟨 ⬛"),
    ([["bell", "022"]], "feedback '022' has 3 positions, the game has 4"),
    ([["zzzz", "0000"]], "'zzzz' is not in the allowed list of tiny-en"),
    ([["bel1", "0000"]], "guess 'bel1' uses '1', not in the alphabet "
                         "'abcdefghijklmnopqrstuvwxyz'"),
    ([["bell", "2222"], ["tell", "2222"]], "no answer fits: check the colours of guess 2 ('tell')"),
    ([["bell"]], "history item 1 must be a (guess, feedback) pair"),
]


def test_bad_input_messages_are_python_s(site, runtime):
    game = guessing_game("tiny-en")
    got = site.run("""
      const g = await guess.loadGuessingGame("data/", "tiny-en");
      const e = await lex.loadLexicon("data/enable.dawg");
      return [...arg.map((h) => caught(() => g.candidates(h))),
              caught(() => e.unscramble("ca1")), caught(() => e.match("")),
              caught(() => e.unscramble("cat", {starts: "é"}))];
    """, [h for h, _ in BAD_HISTORIES])
    messages = []
    for history, _ in BAD_HISTORIES:
        with pytest.raises(lookup.errors.BadInput) as error:
            game.candidates(history)
        messages.append(["BadInput", str(error.value)])
    assert got[:-3] == messages == [["BadInput", m] for _, m in BAD_HISTORIES]
    assert got[-3:] == [
        ["BadInput", "'1' in letters 'ca1' is not in the enable alphabet "
                     "(use abcdefghijklmnopqrstuvwxyz?)"],
        ["BadInput", "pattern is empty: use letters, '?' and '*'"],
        ["BadInput", "'é' in starts 'é' is not in the enable alphabet "
                     "(use abcdefghijklmnopqrstuvwxyz)"]]


@contextlib.contextmanager
def copied_site(browser, artifacts, tmp_path):
    """A Site over a copy of artifacts/web (yielded with the copy's path), which the test may
    damage before it opens a page: the site serves the files as they are when asked.
    """
    web = tmp_path / "web"
    shutil.copytree(artifacts / "web", web)
    site = Site(browser, web)
    try:
        yield site, web
    finally:
        site.close()


def truncated(data):
    dawg = (data / "enable.dawg").read_bytes()
    (data / "enable.dawg.gz").write_bytes(gzip.compress(dawg[:-4]))
    return f"{len(dawg) - 4} bytes where its header promises {len(dawg)}: truncated or damaged; " \
        "rebuild it with `make lexicons`"


def version_one(data):
    dawg = bytearray((data / "enable.dawg").read_bytes())
    dawg[8:10] = b"\x01\x00"
    (data / "enable.dawg.gz").write_bytes(gzip.compress(bytes(dawg)))
    return "word graph version 1; these readers read version 4; rebuild it with `make lexicons`"


def flipped(data):
    dawg = bytearray((data / "enable.dawg").read_bytes())
    dawg[len(dawg) // 2] ^= 0x04
    (data / "enable.dawg.gz").write_bytes(gzip.compress(bytes(dawg)))
    return "damaged: its sha256 (file_sha256) does not match its bytes; rebuild it with " \
        "`make lexicons`"


def missing(data):
    (data / "enable.dawg.gz").unlink()
    return "HTTP 404 File not found; check the address, or build it with `make web`"


@pytest.mark.parametrize("damage", [truncated, version_one, flipped, missing])
def test_page_refuses_a_damaged_lexicon_with_a_message(browser, artifacts, tmp_path,  # noqa: F811
                                                      damage):
    with copied_site(browser, artifacts, tmp_path) as (site, web):
        problem = damage(web / "data")
        site.open("index.html?letters=cat")
        site.page.wait_for_selector("#status.failed")
        assert site.page.text_content("#status") == \
            f"Cannot use a data file: {site.url}data/enable.dawg.gz: {problem}"


@pytest.mark.parametrize("damage", ["not json", "one bit"])
def test_page_refuses_a_damaged_catalog(browser, artifacts, tmp_path, damage):  # noqa: F811
    with copied_site(browser, artifacts, tmp_path) as (site, web):
        catalog = web / "data" / "catalog.json"
        if damage == "not json":
            catalog.write_text("{")
            problem = "not valid JSON ("
        else:  # a game's name changes: still valid JSON, and the same format and version
            catalog.write_bytes(catalog.read_bytes().replace(b"Tiny English", b"Tiny Englisi"))
            problem = "damaged: its sha256 (file_sha256) does not match its bytes; rebuild it " \
                "with `make web`"
        site.open("index.html")
        site.page.wait_for_selector("#status.failed")
        assert site.page.text_content("#status").startswith(
            f"Cannot use a data file: {site.url}data/catalog.json: {problem}")


def test_page_refuses_a_tree_of_other_lists(browser, artifacts, tmp_path):  # noqa: F811
    with copied_site(browser, artifacts, tmp_path) as (site, web):
        shutil.copy(web / "data/tiny-de.tree.msgpack", web / "data/tiny-en.tree.msgpack")
        site.open("index.html?game=tiny-en")
        site.page.wait_for_selector("#status.failed")
        assert site.page.text_content("#status").endswith(
            "/data/tiny-en.tree.msgpack: built from other word lists than the game's; "
            "rebuild it with `make web`")


def test_word_finder_page(site):
    page = site.page
    page.fill("#letters", "cat?")
    page.fill("#minLength", "3")
    site.wait_text("#found", "65 words", prefix=True)
    groups = page.eval_on_selector_all(
        ".words div", "ds => ds.map(d => [...d.children].map(s => s.textContent))")
    headings = page.eval_on_selector_all(".words h3", "hs => hs.map(h => h.textContent)")
    assert headings == ["4 letters", "3 letters"]
    assert groups[0] == ["cats5"]
    assert groups[1][:6] == ["ace4", "act5", "aft2", "ait2", "alt2", "ant2"]
    assert len(groups[1]) == 64
    page.fill("#starts", "c1")
    assert site.wait_text("#filters-error") == (
        "'1' in starts 'c1' is not in the enable alphabet (use abcdefghijklmnopqrstuvwxyz)")
    assert page.text_content("#found") == ""


def test_a_game_that_loads_late_does_not_replace_the_game_picked_after_it(site):
    """The helper shows the game picked last, even when the one picked before it (a big game
    on a slow line) finishes loading later."""
    page = site.page
    # The picker is filled once the catalog has come in: read it only then.
    page.wait_for_function("document.querySelector('#game').value !== ''")
    first = page.input_value("#game")
    assert first != "tiny-en"
    held = []

    def hold(route):
        held.append(route)

    page.route(f"**/{first}.game.json", hold)
    with page.expect_request(f"**/{first}.game.json"):
        page.click("nav a[data-view=guess]")
    page.select_option("#game", "tiny-en")
    site.wait_text("#answers-left", "15 answers left")
    site.wait_text("#next-guess", "bolt")
    held[0].continue_()
    page.unroute(f"**/{first}.game.json", hold)
    # The section is busy until every game load has settled, the late one included: then its
    # answer has come in, and it was dropped.
    page.wait_for_selector("#guess[aria-busy=false]", state="attached")
    assert (page.text_content("#answers-left"), page.text_content("#next-guess")) == (
        "15 answers left", "bolt")


def test_wordle_helper_page(site):
    page = site.page
    page.click("nav a[data-view=guess]")
    page.select_option("#game", "tiny-en")
    # The page may still show the first game's figures for a moment: wait for tiny-en's.
    site.wait_text("#answers-left", "15 answers left")
    assert site.wait_text("#next-guess", "bolt") == "bolt"
    page.fill("#guess-input", "bell")
    page.press("#guess-input", "Enter")
    page.wait_for_selector("#rows .row")
    for position, clicks in enumerate([0, 2, 2, 2]):
        for _ in range(clicks):
            page.locator("#rows .tile").nth(position).click()
    site.wait_text("#answers-left", "3 answers left")
    assert page.text_content("#answers") == "dell tell well"
    page.fill("#guess-input", "bel1")
    page.press("#guess-input", "Enter")
    assert site.wait_text("#guess-error") == (
        "guess 'bel1' uses '1', not in the alphabet 'abcdefghijklmnopqrstuvwxyz'")
    page.click("#rows .tile >> nth=3")
    assert site.wait_text("#rows .error") == (
        "no answer fits: check the colours of guess 1 ('bell')")



# ---- the move finder ---------------------------------------------------------------------

# A midgame position of the scrabble-en self-play fixture (tests/fixtures/crossword): 26 tiles,
# a blank on the board and one on the rack.
SCRABBLE_POSITION = 6
SCRABBLE_RACK = "aacnuu?"


def python_game(artifacts, game_id: str) -> CrosswordGame:
    """A fresh game of the fixture artifacts on the pure-Python move generator
    (lookup.crossword_game keeps one game per id, whatever artifacts directory it came from)."""
    return CrosswordGame(load_rules(artifacts / "crossword" / f"{game_id}.json"), compiled=False)


def selfplay_board(game_id: str, number: int) -> str:
    return read_selfplay(FIXTURES / "crossword" / f"selfplay-{game_id}.json")[
        "positions"][number]["board"]


def address_board(text: str) -> str:
    """A board in the move finder's address form: rows joined by "/", a number for a run of
    empty squares (clients/web/moves.js encodeBoard, written again here)."""
    return "/".join(re.sub(r"\.+", lambda run: str(len(run.group())), row)
                    for row in text.split())


@pytest.fixture()
def finder(browser, artifacts):  # noqa: F811 (the fixture)
    opened = Site(browser, artifacts / "web")
    opened.open("index.html#moves")
    # The page's first search (of the empty board) clears the messages when it starts: tests
    # act once it has ended, so that it cannot clear theirs.
    opened.wait_text("#moves-status", "Type your rack to see the moves.")
    opened.page.wait_for_selector("#board .sq")
    yield opened
    assert opened.errors == []
    opened.close()


def board_on_page(page) -> str:
    """The board on the page in the board text format (previewed tiles not included)."""
    tiles = page.eval_on_selector_all("#board .sq", "sqs => sqs.map(s => s.dataset.tile || '.')")
    size = math.isqrt(len(tiles))
    return "".join("".join(tiles[r * size:(r + 1) * size]) + "\n" for r in range(size))


def cursor_of(page) -> tuple[int, str]:
    """The square the typing goes to and the direction it moves in."""
    return (int(page.get_attribute("#board .sq.cursor", "data-index")),
            page.get_attribute("#board", "data-direction"))


def wait_list(page, rack: str, by: str, board: str | None = None) -> list[dict]:
    """Wait for the move list of `rack` (and `board`) ranked `by`; return its rows."""
    page.wait_for_function(
        "([rack, by, board]) => { const list = document.getElementById('move-list');"
        " return !list.classList.contains('stale') && list.dataset.rack === rack"
        " && list.dataset.by === by && (board === null || list.dataset.board === board); }",
        arg=[rack, by, board])
    return page.eval_on_selector_all("#move-list tr", """rows => rows.map(row => ({
        text: row.dataset.text, score: row.children[1].textContent,
        leave: row.children[2].textContent, equity: row.children[3].textContent,
        words: row.children[4].textContent}))""")


def type_board(page, text: str) -> None:
    """Type a board's tiles on the page, run by run across (a blank as its upper-case letter)."""
    size = len(text.split())
    for r, row in enumerate(text.split()):
        for run in re.finditer(r"[^.]+", row):
            page.click(f"#board .sq >> nth={r * size + run.start()}")
            if cursor_of(page)[1] != "H":
                page.keyboard.press("Space")
            page.keyboard.type(run.group())


def expected_rows(moves, rack: str) -> list[dict]:
    """The rows the page shows for Python's moves (the leave column: the tiles kept)."""
    rows = []
    for move in moves:
        kept = list(rack)
        for tile in (["?" if blank else letter for _r, _c, letter, blank in move.placed]
                     if move.kind != "exchange" else list(move.exchanged)):
            kept.remove(tile)
        rows.append({"text": move.notation(), "score": str(move.score),
                     "kept": "".join(kept) or "–", "words": " ".join(move.words)})
    return rows


def shown_rows(rows) -> list[dict]:
    """The page's rows as expected_rows gives them (the leave's value cut off)."""
    return [{"text": row["text"], "score": row["score"], "kept": row["leave"].split(" ")[0],
             "words": row["words"]} for row in rows]


def rack_after(rack: str, move) -> str:
    kept = list(rack)
    for _r, _c, letter, blank in move.placed:
        kept.remove("?" if blank else letter)
    return "".join(kept)


def test_move_finder_types_a_position_plays_a_move_and_shares_it(browser, finder, runtime):  # noqa: F811
    page = finder.page
    cw = python_game(runtime, "scrabble-en")
    text = selfplay_board("scrabble-en", SCRABBLE_POSITION)
    board = cw.parse_board(text)
    page.select_option("#rank-by", "score")
    type_board(page, text)
    page.fill("#rack", SCRABBLE_RACK)
    assert board_on_page(page) == text
    rows = wait_list(page, SCRABBLE_RACK, "score", text)
    best = cw.moves(board, SCRABBLE_RACK, top=20)
    assert shown_rows(rows) == expected_rows(best, SCRABBLE_RACK)
    unseen = cw.tiles.text(cw.tiles.unseen(board, cw.rack_codes(SCRABBLE_RACK, board)))
    assert page.text_content("#unseen").replace(" ", "") == unseen
    assert page.text_content("#unseen-count") == f"({len(unseen)})"
    assert page.text_content("#board-error") == page.text_content("#rack-error") == ""

    # Hovering a move shows its tiles on the board; leaving the list takes them off.
    page.hover("#move-list tr >> nth=2")
    previewed = page.eval_on_selector_all(
        "#board .sq", "sqs => sqs.flatMap(s => s.dataset.preview ? [[+s.dataset.index,"
        " s.dataset.preview]] : [])")
    assert previewed == [[r * 15 + c, letter.upper() if blank else letter]
                         for r, c, letter, blank in best[2].placed]
    page.hover("#unseen")
    assert page.eval_on_selector_all("#board .sq[data-preview]:not([data-preview=''])",
                                     "sqs => sqs.length") == 0

    # Playing the third move puts its tiles on the board and takes them off the rack.
    page.click("#move-list tr >> nth=2 >> button.play")
    after = cw.play(board, best[2]).text()
    left = rack_after(SCRABBLE_RACK, best[2])
    rows = wait_list(page, left, "score", after)
    assert board_on_page(page) == after
    assert page.input_value("#rack") == left
    assert shown_rows(rows) == expected_rows(
        cw.moves(cw.parse_board(after), left, top=20), left)

    # By equity: Python's order, leaves and equities.
    page.select_option("#rank-by", "equity")
    rows = wait_list(page, left, "equity", after)
    by_equity = cw.moves(cw.parse_board(after), left, top=20, by="equity")
    assert shown_rows(rows) == expected_rows(by_equity, left)
    for row, move in zip(rows, by_equity):
        assert abs(float(row["equity"]) - move.equity) <= 0.05 + 1e-9
        assert abs(float(row["leave"].split(" ")[1].replace("−", "-")) - move.leave) <= 0.05 + 1e-9

    # The address holds the position: a fresh page opened on it shows the same.
    shared = Site(browser, runtime / "web")
    try:
        url = page.url
        shared.open("index.html" + url[url.index("#"):])
        assert wait_list(shared.page, left, "equity", after) == rows
        assert board_on_page(shared.page) == after
        assert shared.page.input_value("#rack") == left
        assert shared.errors == []
    finally:
        shared.close()
    assert url.endswith(f"#moves?game=scrabble-en&board={address_board(after)}&rack={left}"
                        "&by=equity&top=20")


def test_board_takes_keys_like_a_crossword(finder, runtime):
    page = finder.page
    page.select_option("#rank-by", "score")
    page.click("#board .sq >> nth=112")  # the start square, row 7 col 7
    assert cursor_of(page) == (112, "H")
    page.keyboard.type("cat")
    assert cursor_of(page) == (115, "H")
    page.keyboard.press("Backspace")  # an empty square: back one and erase it
    assert cursor_of(page) == (114, "H")
    assert board_on_page(page).split()[7] == ".......ca......"
    page.keyboard.press("Control+z")
    assert board_on_page(page).split()[7] == ".......cat....."
    page.click("#board .sq >> nth=112")
    page.click("#board .sq >> nth=112")  # a second click on the square turns the direction
    assert cursor_of(page) == (112, "V")
    page.keyboard.type("Ar")  # upper case: a blank
    page.click("#blank-mode")  # the letters typed next are blanks
    page.keyboard.type("e")
    page.click("#blank-mode")
    assert cursor_of(page) == (157, "V")
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowRight")
    assert cursor_of(page) == (143, "H")
    page.keyboard.press("Space")
    assert cursor_of(page) == (143, "V")
    page.keyboard.press("Delete")  # an empty square: nothing to erase
    lines = board_on_page(page).split()
    assert lines[7:10] == [".......Aat.....", ".......r.......", ".......E......."]
    assert page.get_attribute("#board .sq >> nth=112", "class").split() == [
        "sq", "start", "tiled", "blank"]
    assert page.text_content("#board .sq >> nth=112") == "a"  # a blank: its letter, no value
    assert page.text_content("#board .sq >> nth=113") == "A1"
    page.keyboard.type("1")
    assert page.text_content("#board-error") == (
        "'1' is not a letter of scrabble-en (letters: abcdefghijklmnopqrstuvwxyz)")
    page.keyboard.type("?")
    assert page.text_content("#board-error") == (
        "'?' is a blank on the rack; on the board a blank stands for a letter: type the "
        "letter in upper case, or press Blank first")
    assert board_on_page(page).split()[7:10] == lines[7:10]
    page.click("#clear")
    assert board_on_page(page) == ("." * 15 + "\n") * 15
    page.click("#undo")
    assert board_on_page(page).split()[7:10] == lines[7:10]
    page.fill("#rack", "ab")
    text = board_on_page(page)
    cw = python_game(runtime, "scrabble-en")
    assert shown_rows(wait_list(page, "ab", "score", text)) == expected_rows(
        cw.moves(cw.parse_board(text), "ab", top=20), "ab")
    assert page.text_content("#board-error") == ""


def play_notation(move) -> str:
    """A play as the move finder's "Score your play" reads it: the move list's text without
    the score."""
    return move.notation().rsplit(" ", 1)[0]


def test_score_your_own_play_as_python_scores_and_checks_it(finder, runtime):
    page = finder.page
    cw = python_game(runtime, "scrabble-en")
    text = selfplay_board("scrabble-en", SCRABBLE_POSITION)
    board = cw.parse_board(text)
    page.goto(finder.url + f"index.html#moves?game=scrabble-en&board={address_board(text)}"
              f"&rack={SCRABBLE_RACK}&by=score")
    best = cw.moves(board, SCRABBLE_RACK, top=20)
    wait_list(page, SCRABBLE_RACK, "score", text)

    def check(play: str) -> str:
        page.fill("#my-play", play)
        page.evaluate("document.getElementById('my-play-result').textContent = ''")
        page.click("#my-play-form button[type=submit]")
        page.wait_for_function("document.getElementById('my-play-result').textContent"
                               " || document.getElementById('my-play-error').textContent")
        return page.text_content("#my-play-result") or page.text_content("#my-play-error")

    legal = best[5]
    assert cw.validate(board, legal.placed, SCRABBLE_RACK) == []
    assert check(play_notation(legal)) == f"{cw.score(board, legal.placed)} points, legal"
    previewed = page.eval_on_selector_all(
        "#board .sq", "sqs => sqs.flatMap(s => s.dataset.preview ? [+s.dataset.index] : [])")
    assert previewed == [r * 15 + c for r, c, _letter, _blank in legal.placed]
    # The same squares with the last new tile a q: not on the rack, and no word.
    row, col, _letter, _blank = legal.placed[-1]
    illegal = legal.placed[:-1] + [(row, col, "q", False)]
    reasons = cw.validate(board, illegal, SCRABBLE_RACK)
    assert reasons
    new = {(r, c): letter.upper() if blank else letter for r, c, letter, blank in illegal}
    letters = [board.letter(r, c) or new[r, c]
               for r, c in ((legal.row + k * (legal.direction == "V"),
                             legal.col + k * (legal.direction == "H"))
                            for k in range(len(legal.word)))]
    notation = f"{legal.direction} {legal.row},{legal.col} {''.join(letters)}"
    assert check(notation) == \
        f"{cw.score(board, illegal)} points; not legal: {'; '.join(reasons)}"
    assert not page.is_visible("#play-mine")
    assert check("X 7,7 cat") == (
        "'X 7,7 cat': write a play as in the list, e.g. H 7,3 caT (H across, V down, then "
        "row,col from 0 and the letters, upper case for a blank)")
    assert check("H 14,13 abc") == "the play runs off the board at row 14 col 15"
    check(play_notation(legal))
    page.click("#play-mine")
    after = cw.play(board, legal).text()
    wait_list(page, rack_after(SCRABBLE_RACK, legal), "score", after)
    assert board_on_page(page) == after
    assert page.text_content("#my-play-result") == ""


def bad_boards() -> list[str]:
    empty = ["." * 15] * 15

    def with_rows(**rows):
        lines = list(empty)
        for key, row in rows.items():
            lines[int(key[1:])] = row
        return "\n".join(lines) + "\n"

    return ["\n".join(empty[:14]) + "\n", with_rows(r7="." * 16), with_rows(r7=".......c1t....."),
            with_rows(r7=".......céu....."), with_rows(r7=".......zz......"),
            with_rows(r7="....ABCt......."), with_rows(r0="cat............"),
            with_rows(r7=".......cat.....", r9="..........ox...")]


def test_pasted_board_is_checked_as_python_checks_it(finder, runtime):
    page = finder.page
    cw = python_game(runtime, "scrabble-en")
    page.click("#paste summary")
    for text in bad_boards():
        with pytest.raises(lookup.errors.BadInput) as error:
            cw.parse_board(text)
        page.fill("#board-text", text)
        page.click("#use-board")
        finder.wait_text("#board-error", f"pasted board: {error.value}")
        assert board_on_page(page) == ("." * 15 + "\n") * 15
    good = selfplay_board("scrabble-en", SCRABBLE_POSITION)
    page.fill("#board-text", "\n  " + good.replace("\n", " \n").replace("....", ". . . ."))
    page.click("#use-board")
    page.wait_for_function("document.getElementById('board-error').textContent === ''")
    page.wait_for_function("n => document.querySelectorAll('#board .sq.tiled').length === n",
                           arg=len(good.replace(".", "").replace("\n", "")))
    assert board_on_page(page) == good
    # A board pasted on the board itself (several lines) replaces it too.
    page.click("#clear")
    other = selfplay_board("scrabble-en", SCRABBLE_POSITION + 2)
    page.click("#board .sq >> nth=0")
    page.eval_on_selector("#board-input", """(input, text) => {
        const data = new DataTransfer();
        data.setData("text/plain", text);
        input.dispatchEvent(new ClipboardEvent("paste", {clipboardData: data, bubbles: true,
                                                         cancelable: true}));
    }""", other)
    page.wait_for_function("n => document.querySelectorAll('#board .sq.tiled').length === n",
                           arg=len(other.replace(".", "").replace("\n", "")))
    assert board_on_page(page) == other


def test_a_board_typed_into_the_box_as_it_opens_is_kept(finder):
    # The box's toggle event comes after it is open: a board typed (or filled by a test) at
    # once must survive it (it was overwritten with the board on screen, a flaky test).
    page = finder.page
    kept = page.evaluate("""() => new Promise((resolve) => {
        const box = document.getElementById("paste");
        const text = document.getElementById("board-text");
        box.addEventListener("toggle", () => resolve(text.value), {once: true});
        box.open = true;
        text.value = "typed at once";
    })""")
    assert kept == "typed at once"
    # Closing drops what was not used: the box opens again on the board.
    page.evaluate("""() => new Promise((resolve) => {
        const box = document.getElementById("paste");
        box.addEventListener("toggle", () => resolve(), {once: true});
        box.open = false;
    })""")
    page.click("#paste summary")
    assert page.input_value("#board-text") == ("." * 15 + "\n") * 15


@pytest.mark.parametrize("rack", ["zz", "ab1", "abcdefgh", "a??"])
def test_bad_rack_gets_python_s_message(finder, runtime, rack):
    page = finder.page
    cw = python_game(runtime, "scrabble-en")
    text = selfplay_board("scrabble-en", SCRABBLE_POSITION)
    page.select_option("#rank-by", "score")
    page.click("#paste summary")
    page.fill("#board-text", text)
    page.click("#use-board")
    page.fill("#rack", rack)
    with pytest.raises(lookup.errors.BadInput) as error:
        cw.moves(cw.parse_board(text), rack)
    assert finder.wait_text("#rack-error") == str(error.value)
    assert wait_list(page, rack, "", text) == []
    assert page.text_content("#unseen") == ""  # no unseen tiles for a rack the set cannot hold


def test_address_of_another_game_or_a_bad_board_says_so(finder):
    page = finder.page
    page.evaluate("location.hash = '#moves?game=scrabble-xx'")
    page.wait_for_selector("#status.failed")
    assert page.text_content("#status") == (
        "No crossword game 'scrabble-xx' on this site: pick one of erudit-ru, scrabble-en, "
        "wordfeud-en.")
    page.evaluate("location.hash = '#moves?game=wordfeud-en&board=15/15/7cat5'")
    finder.wait_text("#board-error", "the board in the address has 3 rows; it needs 15")
    page.evaluate("location.hash = '#moves?game=wordfeud-en&board=" + "15/" * 7 +
                  "7cat6/" + "15/" * 6 + "15'")
    finder.wait_text("#board-error",
                     "the board in the address has 16 squares in row 7; it needs 15")
    assert page.input_value("#cw-game") == "wordfeud-en"
    assert board_on_page(page) == ("." * 15 + "\n") * 15


def test_erudit_moves_and_greedy_turn_in_the_browser(finder, runtime):
    """Erudit: a Russian board from the address, the single-line plays in Python's order, the
    best greedy turn (several lines) played from the page; no leave table in the fixture, so
    the list is by score and says why."""
    page = finder.page
    cw = python_game(runtime, "erudit-ru")
    positions = read_selfplay(FIXTURES / "crossword" / "selfplay-erudit-ru.json")["positions"]
    text, rack = next((p["board"], p["rack"]) for p in positions[8:]
                      if (turn := cw.best_turn(cw.parse_board(p["board"]), p["rack"]))
                      and turn.kind == "turn")
    board = cw.parse_board(text)
    page.evaluate(f"location.hash = '#moves?game=erudit-ru&board={address_board(text)}"
                  f"&rack={rack}&by=equity'")
    rows = wait_list(page, rack, "score", text)
    assert board_on_page(page) == text
    assert shown_rows(rows) == expected_rows(cw.moves(board, rack)[:20], rack)
    assert finder.wait_text("#moves-error") == (
        f"No equity: {finder.url}data/crossword/erudit-ru.leaves.pack.gz: HTTP 404 File not "
        "found; check the address, or build it with `make web`")
    turn = cw.best_turn(board, rack, method="greedy")
    assert page.text_content("#greedy-turn") == turn.notation()
    page.click("#play-turn")
    left = rack_after(rack, turn)
    wait_list(page, left, "score", cw.play(board, turn).text())
    assert board_on_page(page) == cw.play(board, turn).text()
    # Typed Cyrillic letters go on the board; a Latin one is refused.
    page.click("#clear")
    page.click("#board .sq >> nth=112")
    page.keyboard.type("кот")
    page.keyboard.type("x")
    assert board_on_page(page).split()[7] == ".......кот....."
    assert page.text_content("#board-error") == (
        f"'x' is not a letter of erudit-ru (letters: {cw.alphabet})")


@pytest.mark.parametrize("damage", [truncated, version_one, flipped, missing])
def test_move_finder_refuses_a_damaged_word_graph(browser, artifacts, tmp_path,  # noqa: F811
                                                  damage):
    with copied_site(browser, artifacts, tmp_path) as (site, web):
        problem = damage(web / "data")
        site.open("index.html#moves?game=scrabble-en&rack=abc")
        site.page.wait_for_selector("#status.failed")
        assert site.page.text_content("#status") == \
            f"Cannot use a data file: {site.url}data/enable.dawg.gz: {problem}"
        assert site.page.eval_on_selector_all("#move-list tr", "rows => rows.length") == 0
        assert site.errors == []


def test_move_finder_refuses_rules_of_another_version(browser, artifacts, tmp_path):  # noqa: F811
    with copied_site(browser, artifacts, tmp_path) as (site, web):
        rules = web / "data" / "crossword" / "scrabble-en.json"
        rules.write_text(rules.read_text().replace('"version": 3', '"version": 2'))
        site.open("index.html#moves")
        site.page.wait_for_selector("#status.failed")
        assert site.page.text_content("#status") == (
            f"Cannot use a data file: {site.url}data/crossword/scrabble-en.json: crossword-rules "
            "version 2, these readers read version 3; rebuild it with `make web`")


def test_move_finder_ranks_by_score_when_the_leave_table_is_damaged(browser, artifacts,  # noqa: F811
                                                                     runtime, tmp_path):
    with copied_site(browser, artifacts, tmp_path) as (site, web):
        pack = web / "data" / "crossword" / "scrabble-en.leaves.pack.gz"
        pack.write_bytes(pack.read_bytes()[:-100])
        cw = python_game(runtime, "scrabble-en")
        site.open("index.html#moves?game=scrabble-en&rack=cat&by=equity")
        rows = wait_list(site.page, "cat", "score")
        assert shown_rows(rows) == expected_rows(cw.moves(cw.empty_board(), "cat", top=20), "cat")
        assert site.wait_text("#moves-error", f"No equity: {site.url}data/crossword/"
                              "scrabble-en.leaves.pack.gz: ", prefix=True)
        assert site.page.text_content("#moves-status").startswith("Best 20 moves by score (")
        assert not site.page.is_visible("#status.failed")
        assert site.errors == []


def test_move_finder_without_its_worker_says_so(browser, artifacts, tmp_path):  # noqa: F811
    with copied_site(browser, artifacts, tmp_path) as (site, web):
        (web / "worker.js").unlink()
        site.open("index.html#moves?game=scrabble-en&rack=cat")
        site.page.wait_for_selector("#status.failed")
        assert site.page.text_content("#status") == (
            f"Cannot use a data file: {site.url}worker.js: the page's worker did not start; check "
            "that the site serves it and js/, or build it with `make web`")
        site.page.click("#board .sq >> nth=112")
        site.page.keyboard.type("a")  # the board still takes keys
        assert board_on_page(site.page).split()[7] == ".......a......."
        assert site.errors == []


def hold_the_worker(page):
    """Make the page's worker busy, as a long search would keep it, until the returned
    release() is called: its next message waits on a synchronous request the test holds.
    Returns (the held requests, release)."""
    held = []
    page.route("**/hold-the-worker", lambda route: held.append(route))
    page.workers[0].evaluate("""() => {
        const handle = self.onmessage;
        self.onmessage = (event) => {
            self.onmessage = handle;
            const request = new XMLHttpRequest();
            request.open("GET", "/hold-the-worker", false);
            request.send();
            return handle(event);
        };
    }""")

    def release():
        while not held:  # each call to the page lets Playwright deliver the held route
            page.evaluate("0")
        held[0].fulfill(status=204)
        page.unroute("**/hold-the-worker")

    return held, release


def test_the_page_answers_while_the_worker_searches(finder, runtime):
    page = finder.page
    cw = python_game(runtime, "scrabble-en")
    text = selfplay_board("scrabble-en", SCRABBLE_POSITION)
    page.select_option("#rank-by", "score")
    page.click("#paste summary")
    page.fill("#board-text", text)
    page.click("#use-board")
    wait_list(page, "", "", text)
    held, release = hold_the_worker(page)
    with page.expect_request("**/hold-the-worker"):
        page.fill("#rack", "ab")
    # The worker is stuck in its search: the page still answers, takes keys and clicks.
    assert page.evaluate("() => 6 * 7") == 42
    page.fill("#rack", SCRABBLE_RACK)
    page.click("#board .sq >> nth=0")
    page.keyboard.type("q")
    page.keyboard.press("Backspace")
    assert board_on_page(page) == text
    assert page.text_content("#moves-status") == "Searching"
    assert page.eval_on_selector_all("#move-list tr", "rows => rows.length") == 0
    release()
    rows = wait_list(page, SCRABBLE_RACK, "score", text)
    assert shown_rows(rows) == expected_rows(
        cw.moves(cw.parse_board(text), SCRABBLE_RACK, top=20), SCRABBLE_RACK)
    assert len(held) == 1


def test_the_helper_ranks_in_the_worker(site, runtime):
    """The Wordle/Nerdle helper's next guess (a ranking once off the tree) comes from the
    worker: while it is busy the page still answers, then the guess is Python's."""
    page = site.page
    game = guessing_game("tiny-en")
    page.click("nav a[data-view=guess]")
    page.select_option("#game", "tiny-en")
    site.wait_text("#next-guess", "bolt")
    def fits(history):
        try:
            return bool(game.candidates(history))
        except lookup.errors.BadInput:  # no answer fits
            return False

    # A first guess off the decision tree, all grey and with one tile clicked yellow.
    guess, tile, history = next(
        (guess, tile, [(guess, feedback)]) for guess in game.guesses for tile in range(4)
        if guess != game.next_guess([]) and (feedback := "0" * tile + "1" + "0" * (3 - tile))
        and fits([(guess, "0000")]) and fits([(guess, feedback)]))
    page.fill("#guess-input", guess)
    page.press("#guess-input", "Enter")
    page.wait_for_selector("#rows .row")
    site.wait_text("#next-guess", game.next_guess([(guess, "0000")]))
    before = page.text_content("#answers-left")
    held, release = hold_the_worker(page)
    with page.expect_request("**/hold-the-worker"):
        page.locator("#rows .tile").nth(tile).click()
    # The worker is held: the page shows the colour clicked, answers and takes clicks.
    assert page.get_attribute(f"#rows .tile >> nth={tile}", "data-trit") == "1"
    assert page.evaluate("() => 6 * 7") == 42
    page.check("#hard")
    page.uncheck("#hard")
    assert page.text_content("#answers-left") == before
    release()
    assert site.wait_text("#next-guess", game.next_guess(history))
    left = len(game.candidates(history))
    assert page.text_content("#answers-left") == f"{left} answer{'s' * (left != 1)} left"
    assert len(held) == 1


def fetched_files(site, open_and_wait) -> set[str]:
    """The site's files a page fetches (its worker's fetches too) while `open_and_wait` runs."""
    fetched = set()
    site.page.on("request", lambda request: fetched.add(
        urllib.parse.urlsplit(request.url).path.removeprefix("/")))
    open_and_wait()
    return fetched - {"favicon.ico"}


def test_each_page_loads_what_its_manifest_lists(browser, artifacts):  # noqa: F811
    manifest = json.loads((artifacts / "web" / "web-manifest.json").read_text())
    pages = {name: set(entry["files"]) for name, entry in manifest["pages"].items()}
    site = Site(browser, artifacts / "web")
    try:
        def words():
            site.open("index.html?letters=cat")
            site.page.wait_for_function(
                "document.getElementById('found').textContent.includes(' words (')")

        assert fetched_files(site, words) == pages["words"]
    finally:
        site.close()
    site = Site(browser, artifacts / "web")
    try:
        def moves():
            site.open("index.html#moves?game=scrabble-en&rack=cat")
            wait_list(site.page, "cat", "equity")

        assert fetched_files(site, moves) == pages["moves"]
        assert {"data/enable.dawg.gz", "data/crossword/scrabble-en.leaves.pack.gz",
                "js/crossword.js", "worker.js", "moves.js"} <= pages["moves"]
    finally:
        site.close()
    site = Site(browser, artifacts / "web")
    try:
        def guess():  # the fixture has no wordle-en: the code is the manifest's, the data not
            site.open("index.html?game=tiny-en#guess")
            site.wait_text("#next-guess", "bolt")

        code = {name for name in pages["guess"] if not name.startswith("data/")}
        assert {name for name in fetched_files(site, guess)
                if not name.startswith("data/")} == code
    finally:
        site.close()


def test_move_finder_on_a_phone(browser, artifacts, runtime):  # noqa: F811
    """360 CSS pixels wide, touch: nothing wider than the screen, squares big enough to tap,
    taps type and play."""
    cw = python_game(runtime, "scrabble-en")
    text = selfplay_board("scrabble-en", SCRABBLE_POSITION)
    phone = browser.new_context(viewport={"width": 360, "height": 740}, device_scale_factor=2,
                                is_mobile=True, has_touch=True)
    site = Site(phone, artifacts / "web")
    try:
        page = site.page
        site.open(f"index.html#moves?game=scrabble-en&board={address_board(text)}"
                  f"&rack={SCRABBLE_RACK}&by=score")
        rows = wait_list(page, SCRABBLE_RACK, "score", text)
        assert page.evaluate("document.documentElement.scrollWidth") == 360
        box = page.locator("#board").bounding_box()
        square = page.locator("#board .sq >> nth=0").bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 360
        assert square["width"] >= 20 and square["height"] >= 20
        best = cw.moves(cw.parse_board(text), SCRABBLE_RACK, top=20)
        assert shown_rows(rows) == expected_rows(best, SCRABBLE_RACK)
        page.tap("#move-list tr >> nth=1")  # a tap shows the move on the board
        previewed = page.eval_on_selector_all(
            "#board .sq", "sqs => sqs.flatMap(s => s.dataset.preview ? [+s.dataset.index] : [])")
        assert previewed == [r * 15 + c for r, c, _letter, _blank in best[1].placed]
        page.tap("#move-list tr >> nth=1 >> button.play")
        after = cw.play(cw.parse_board(text), best[1]).text()
        wait_list(page, rack_after(SCRABBLE_RACK, best[1]), "score", after)
        page.tap("#board .sq >> nth=0")
        page.keyboard.type("q")
        assert board_on_page(page).split()[0] == "q" + "." * 14
        # A phone keyboard's keys come as input events without key codes: letters, then a
        # Backspace, which deletes the field's one character.
        phone_keys = """([value, inputType]) => {
            const input = document.getElementById("board-input");
            input.value = value;
            input.dispatchEvent(new InputEvent("input", {inputType, bubbles: true}));
        }"""
        page.evaluate(phone_keys, ["\u200bxi", "insertText"])
        assert board_on_page(page).split()[0] == "qxi" + "." * 12
        page.evaluate(phone_keys, ["", "deleteContentBackward"])
        assert board_on_page(page).split()[0] == "qx" + "." * 13
        assert cursor_of(page) == (2, "H")
    finally:
        site.close()
        phone.close()


# ---- the real artifacts (make test-full) ----------------------------------------------------

REAL_LEXICONS = ["enable", "opentaal", "igerman98", "opencorpora-nouns"]
PAGE_BUDGET = 600_000  # bytes the ENABLE word finder page loads, before HTTP compression


@pytest.fixture(scope="module")
def real_site(tmp_path_factory):
    """The site built from the real artifacts ($WORDPACK_ARTIFACTS, else artifacts/)."""
    games = full_artifact("guessing/games.json").parents[1]
    for name in REAL_LEXICONS:
        full_artifact(f"lexicons/{name}.dawg")
    site = tmp_path_factory.mktemp("real") / "web"
    build_web(games, site)
    return site


@pytest.fixture()
def real_page(browser, real_site):  # noqa: F811 (the fixture)
    opened = Site(browser, real_site)
    opened.open("index.html#words")
    yield opened
    assert opened.errors == []
    opened.close()


@pytest.mark.full
@pytest.mark.parametrize("name", REAL_LEXICONS)
def test_real_lexicon_agrees_with_python(real_page, name):
    lex = lookup.lexicon(name)
    words = list(lex)
    probes, racks, patterns = lexicon_queries(words, lex.alphabet, 2024, 10_000, 500)
    indices = random.Random(7).sample(range(len(words)), 10_000)
    expected = python_answers(lex, probes, indices, racks, patterns)
    got = real_page.run(LEXICON_QUERIES, {"name": name, "probes": probes, "indices": indices,
                                          "racks": racks, "patterns": patterns})
    assert len(probes) >= 10_000 and len(racks) == len(patterns) == 500
    assert got == expected
    assert sum(map(len, expected["unscramble"])) > 500


@pytest.mark.full
@pytest.mark.parametrize("game_id, total", [("wordle-en", 7920), ("nerdle-classic", 53512)])
def test_real_every_answer_takes_as_many_guesses_as_in_python(real_page, game_id, total):
    game = guessing_game(game_id)
    got = real_page.run(PLAY_EVERY_ANSWER, {"id": game_id, "hard": False})
    assert got == python_guesses_per_answer(game, hard=False)
    assert sum(got) == total


@pytest.mark.full
def test_real_word_finder_page_budget(browser, real_site):  # noqa: F811
    manifest = json.loads((real_site / "web-manifest.json").read_text())
    site = Site(browser, real_site)
    try:
        site.open("index.html?letters=retinas")
        assert site.wait_text("#found", "256 words (", prefix=True)
        fetched = site.bytes_fetched()
    finally:
        site.close()
    assert manifest["pages"]["words"]["bytes"] <= fetched <= PAGE_BUDGET


REAL_CROSSWORD_GAMES = ["scrabble-en", "wordfeud-en", "wordfeud-nl", "erudit-ru"]


@pytest.mark.full
@pytest.mark.parametrize("game_id", REAL_CROSSWORD_GAMES)
def test_real_move_finder_agrees_with_python(browser, real_site, game_id):  # noqa: F811
    """The move finder of the real site, on a self-play position of each game opened from its
    address: Python's best 20 moves by score and by equity (Erudit: its single-line plays).
    With $WORDPACK_SCREENSHOTS set, scrabble-en's view is saved there (bench/web-moves-*.png),
    at desktop and phone widths."""
    cw = lookup.crossword_game(game_id)
    position = read_selfplay(FIXTURES / "crossword" / f"selfplay-{game_id}.json")["positions"][9]
    text, rack = position["board"], position["rack"]
    board = cw.parse_board(text)
    address = (f"index.html#moves?game={game_id}&board={address_board(text)}&rack={rack}"
               "&by=score")
    # With `top`, Erudit's moves() ranks multi-word turns too; the page lists single-line plays.
    multi = cw.rules.placement == "multi"
    by_score = cw.moves(board, rack)[:20] if multi else cw.moves(board, rack, top=20)
    by_equity = (cw.moves(board, rack, by="equity")[:20] if multi
                 else cw.moves(board, rack, top=20, by="equity"))
    screenshots = os.environ.get("WORDPACK_SCREENSHOTS") if game_id == "scrabble-en" else None
    site = Site(browser, real_site)
    try:
        site.open(address)
        assert shown_rows(wait_list(site.page, rack, "score", text)) == \
            expected_rows(by_score, rack)
        site.page.select_option("#rank-by", "equity")
        rows = wait_list(site.page, rack, "equity", text)
        assert shown_rows(rows) == expected_rows(by_equity, rack)
        for row, move in zip(rows, by_equity):
            assert abs(float(row["equity"]) - move.equity) <= 0.05 + 1e-9
        if cw.rules.placement == "multi":
            turn = cw.best_turn(board, rack, method="greedy")
            assert site.page.text_content("#greedy-turn") == turn.notation()
        if screenshots:
            site.page.set_viewport_size({"width": 1280, "height": 960})
            site.page.hover("#move-list tr >> nth=0")
            site.page.screenshot(path=f"{screenshots}/web-moves-desktop.png", full_page=True)
        assert site.errors == []
    finally:
        site.close()
    if screenshots:
        phone = browser.new_context(viewport={"width": 360, "height": 740},
                                    device_scale_factor=2, is_mobile=True, has_touch=True)
        site = Site(phone, real_site)
        try:
            site.open(address.replace("by=score", "by=equity") + "&top=10")
            wait_list(site.page, rack, "equity", text)
            site.page.tap("#move-list tr >> nth=0")
            site.page.screenshot(path=f"{screenshots}/web-moves-phone.png", full_page=True)
        finally:
            site.close()
            phone.close()


def test_the_site_server_reports_no_client_that_went_away(tmp_path, capsys):
    # A browser may close a page while its files load; the server says nothing of it (a
    # traceback on stderr per such request made CI's log look broken), and reports anything
    # else as the standard library does.
    from lookup.web_server import start_server

    (tmp_path / "index.html").write_text("<!doctype html>")
    server = start_server(tmp_path)
    try:
        for error, reported in ((BrokenPipeError(), False), (ConnectionResetError(), False),
                                (ValueError("a bug"), True)):
            try:
                raise error
            except Exception:
                server.handle_error(None, ("127.0.0.1", 1))
            assert ("Exception occurred" in capsys.readouterr().err) == reported, error
    finally:
        server.shutdown()
