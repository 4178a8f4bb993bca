"""The JavaScript readers and the page of `make web`, in headless Chromium, against the Python
runtime: fixture artifacts here; the real ones (@pytest.mark.full) at the sizes of issue 12."""

import gzip
import hashlib
import json
import random
import shutil
import subprocess

import pytest

import lookup
from browser_support import Site, browser  # noqa: F401 (a fixture)
from conftest import FIXTURES, REPO, full_artifact
from lookup.guessing.game import guessing_game
from pipeline.build_web import build_web

GAMES = FIXTURES / "guessing"


def make(artifacts, sources, *targets):
    subprocess.run(["make", "-C", str(REPO), f"ARTIFACTS={artifacts}", f"SOURCES={sources}",
                    f"GUESSING_CONFIG={GAMES / 'guessing.toml'}", *targets],
                   capture_output=True, text=True, check=True)


@pytest.fixture(scope="module")
def artifacts(tmp_path_factory):
    """Fixture games tiny-en and tiny-de, the ENABLE sample (4-byte words) and the Russian
    sample (a 33-letter alphabet: 8-byte words), the scrabble-en rules, and the site."""
    built = tmp_path_factory.mktemp("artifacts")
    make(built, GAMES, "guessing")
    make(built, FIXTURES / "sources", f"{built}/lexicons/enable.dawg",
         f"{built}/lexicons/opencorpora-nouns.dawg", f"{built}/crossword/scrabble-en.json")
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
    assert json.loads((web / "data/catalog.json").read_text()) == {
        "format": "web-catalog", "version": 1, "lexicons": ["enable", "opencorpora-nouns"],
        "guessing": {"tiny-de": "Tiny German (non-ASCII letters)", "tiny-en": "Tiny English"},
        "crossword": {"scrabble-en": {"name": "Scrabble (English)", "lexicon": "enable"}}}
    assert manifest["pages"]["words"]["files"] == [
        "index.html", "app.js", "js/errors.js", "js/files.js", "js/guessing.js",
        "js/lexicon.js", "js/msgpack.js", "data/catalog.json", "data/enable.dawg.gz",
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
    web = tmp_path / "web"
    shutil.copytree(artifacts / "web", web)
    problem = damage(web / "data")
    site = Site(browser, web)
    try:
        site.open("index.html?letters=cat")
        site.page.wait_for_selector("#status.failed")
        assert site.page.text_content("#status") == \
            f"Cannot use a data file: {site.url}data/enable.dawg.gz: {problem}"
    finally:
        site.close()


def test_page_refuses_a_damaged_catalog(browser, artifacts, tmp_path):  # noqa: F811
    web = tmp_path / "web"
    shutil.copytree(artifacts / "web", web)
    (web / "data" / "catalog.json").write_text("{")
    site = Site(browser, web)
    try:
        site.open("index.html")
        site.page.wait_for_selector("#status.failed")
        assert site.page.text_content("#status").startswith(
            f"Cannot use a data file: {site.url}data/catalog.json: not valid JSON (")
    finally:
        site.close()


def test_page_refuses_a_tree_of_other_lists(browser, artifacts, tmp_path):  # noqa: F811
    web = tmp_path / "web"
    shutil.copytree(artifacts / "web", web)
    shutil.copy(web / "data/tiny-de.tree.msgpack", web / "data/tiny-en.tree.msgpack")
    site = Site(browser, web)
    try:
        site.open("index.html?game=tiny-en")
        site.page.wait_for_selector("#status.failed")
        assert site.page.text_content("#status").endswith(
            "/data/tiny-en.tree.msgpack: built from other word lists than the game's; "
            "rebuild it with `make web`")
    finally:
        site.close()


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
    page.wait_for_load_state("networkidle")
    # The first game's files came in last (its load is over once the network is idle, the
    # parsing of a fixture takes far less than networkidle's 500 ms): its update was dropped.
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
