"""The rules files against docs/GAMES.md, the rules build stage and the rules reader."""

import json
import os

import pytest

from crossword_support import GAMES, REPO, rules
from lookup.crossword.rules import load_rules, rules_from_dict
from lookup.errors import ArtifactMissing, BadInput, CorruptArtifact, UnsupportedFormat
from pipeline.build_crossword import build_crossword, read_rules, rules_json

SCRABBLE_COUNTS = dict(zip("eaionrtlsudgbcmpfhvwykjxqz",
                           [12, 9, 9, 8, 6, 6, 6, 4, 4, 4, 4, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1,
                            1, 1, 1, 1]))
SCRABBLE_VALUES = {**dict.fromkeys("aeioulnrst", 1), **dict.fromkeys("dg", 2),
                   **dict.fromkeys("bcmp", 3), **dict.fromkeys("fhvwy", 4), "k": 5,
                   **dict.fromkeys("jx", 8), **dict.fromkeys("qz", 10)}
WORDFEUD_EN = {"a": (10, 1), "b": (2, 4), "c": (2, 4), "d": (5, 2), "e": (12, 1), "f": (2, 4),
               "g": (3, 3), "h": (3, 4), "i": (9, 1), "j": (1, 10), "k": (1, 5), "l": (4, 1),
               "m": (2, 3), "n": (6, 1), "o": (7, 1), "p": (2, 4), "q": (1, 10), "r": (6, 1),
               "s": (5, 1), "t": (7, 1), "u": (4, 2), "v": (2, 4), "w": (2, 4), "x": (1, 8),
               "y": (2, 4), "z": (1, 10)}
WORDFEUD_NL = {"a": (7, 1), "b": (2, 4), "c": (2, 5), "d": (5, 2), "e": (18, 1), "f": (2, 4),
               "g": (3, 3), "h": (2, 4), "i": (4, 2), "j": (2, 4), "k": (3, 3), "l": (3, 3),
               "m": (3, 3), "n": (11, 1), "o": (6, 1), "p": (2, 4), "q": (1, 10), "r": (5, 2),
               "s": (5, 2), "t": (5, 2), "u": (3, 2), "v": (2, 4), "w": (2, 5), "x": (1, 8),
               "y": (1, 8), "z": (2, 5)}
ERUDIT = {"а": (10, 1), "б": (3, 3), "в": (5, 2), "г": (3, 3), "д": (5, 2), "е": (9, 1),
          "ж": (2, 5), "з": (2, 5), "и": (8, 1), "й": (4, 2), "к": (6, 2), "л": (4, 2),
          "м": (5, 2), "н": (8, 1), "о": (10, 1), "п": (6, 2), "р": (6, 2), "с": (6, 2),
          "т": (5, 2), "у": (3, 3), "ф": (1, 10), "х": (2, 5), "ц": (1, 10), "ч": (2, 5),
          "ш": (1, 10), "щ": (1, 10), "ъ": (1, 10), "ы": (2, 5), "ь": (2, 5), "э": (1, 10),
          "ю": (1, 10), "я": (3, 3)}

# docs/GAMES.md "### Boards": the top-left quarter of each board (rows and columns 0-7); the
# rest mirrors.
SCRABBLE_QUARTER = ["TW . . DL . . . TW", ". DW . . . TL . .", ". . DW . . . DL .",
                    "DL . . DW . . . DL", ". . . . DW . . .", ". TL . . . TL . .",
                    ". . DL . . . DL .", "TW . . DL . . . DW"]
WORDFEUD_QUARTER = ["TL . . . TW . . DL", ". DL . . . TL . .", ". . DW . . . DL .",
                    ". . . TL . . . DW", "TW . . . DW . DL .", ". TL . . . TL . .",
                    ". . DL . DL . . .", "DL . . DW . . . ."]


@pytest.mark.parametrize("game, placement, repeat_words", [
    ("scrabble-en", "line", True),
    ("wordfeud-en", "line", True),
    ("wordfeud-nl", "line", True),
    ("erudit-ru", "multi", False),
])
def test_placement_rules(game, placement, repeat_words):
    assert (rules(game).placement, rules(game).repeat_words) == (placement, repeat_words)


@pytest.mark.parametrize("game, total, blanks, bingo, lexicon", [
    ("scrabble-en", 100, 2, 50, "enable"),
    ("wordfeud-en", 104, 2, 40, "enable"),
    ("wordfeud-nl", 104, 2, 40, "opentaal"),
    ("erudit-ru", 131, 3, 15, "opencorpora-nouns"),
])
def test_totals(game, total, blanks, bingo, lexicon):
    r = rules(game)
    assert (r.total_tiles, r.blanks, r.bingo, r.lexicon) == (total, blanks, bingo, lexicon)
    assert (r.rack_size, r.min_word_length, r.max_word_length, r.layout.size) == (7, 2, 15, 15)
    assert r.layout.start == (7, 7)


def test_tile_sets_match_docs_games():
    scrabble = rules("scrabble-en")
    assert scrabble.counts == SCRABBLE_COUNTS and scrabble.values == SCRABBLE_VALUES
    for game, table in (("wordfeud-en", WORDFEUD_EN), ("wordfeud-nl", WORDFEUD_NL),
                        ("erudit-ru", ERUDIT)):
        r = rules(game)
        assert {letter: (r.counts[letter], r.values[letter]) for letter in r.alphabet} == table


def test_erudit_has_no_yo_tile_and_no_ij_in_dutch():
    assert "ё" not in rules("erudit-ru").alphabet
    assert rules("erudit-ru").alphabet == "абвгдежзийклмнопрстуфхцчшщъыьэюя"
    assert rules("wordfeud-nl").alphabet == "abcdefghijklmnopqrstuvwxyz"


@pytest.mark.parametrize("game, counts", [
    ("scrabble-en", {"TW": 8, "DW": 17, "TL": 12, "DL": 24, ".": 164}),
    ("wordfeud-en", {"TW": 8, "DW": 12, "TL": 20, "DL": 24, ".": 161}),
    ("wordfeud-nl", {"TW": 8, "DW": 12, "TL": 20, "DL": 24, ".": 161}),
    # Erudit: the Scrabble layout with a plain centre (see the rules file's provenance).
    ("erudit-ru", {"TW": 8, "DW": 16, "TL": 12, "DL": 24, ".": 165}),
])
def test_premium_counts_and_symmetry(game, counts):
    layout = rules(game).layout
    assert layout.counts() == counts
    assert layout.is_symmetric()


@pytest.mark.parametrize("game, quarter", [("scrabble-en", SCRABBLE_QUARTER),
                                           ("wordfeud-en", WORDFEUD_QUARTER),
                                           ("wordfeud-nl", WORDFEUD_QUARTER)])
def test_board_quarters_match_docs_games(game, quarter):
    layout = rules(game).layout
    for r, row in enumerate(quarter):
        assert list(layout.premiums[r * 15:r * 15 + 8]) == row.split()


def test_erudit_board_is_scrabble_with_a_plain_centre():
    scrabble = list(rules("scrabble-en").layout.premiums)
    scrabble[7 * 15 + 7] = "."
    assert list(rules("erudit-ru").layout.premiums) == scrabble


@pytest.mark.parametrize("game", GAMES)
def test_every_fact_has_provenance(game):
    provenance = rules(game).provenance
    assert set(provenance) >= {"board", "tiles", "values", "bingo", "rack_size", "exchange",
                               "scoreless_turns", "lexicon", "placement"}


def test_build_is_deterministic_and_round_trips(tmp_path):
    config = REPO / "config" / "crossword" / "erudit-ru.toml"
    first, second = tmp_path / "a" / "erudit-ru.json", tmp_path / "b" / "erudit-ru.json"
    build_crossword(config, first)
    build_crossword(config, second)
    assert first.read_bytes() == second.read_bytes()
    data = json.loads(first.read_text(encoding="utf-8"))
    assert data["format"] == "crossword-rules" and data["version"] == 3
    assert load_rules(first) == read_rules(config)
    meta = json.loads((first.parent / "_erudit-ru.json.meta.json").read_text())
    assert meta["inputs"][0]["path"].endswith("config/crossword/erudit-ru.toml")


def _config(**changes) -> dict:
    import tomllib

    with open(REPO / "config" / "crossword" / "scrabble-en.toml", "rb") as handle:
        data = tomllib.load(handle)
    data.update(changes)
    return data


@pytest.mark.parametrize("changes, message", [
    ({"board": ["TW"] * 15}, "row 0 has 1 squares; need 15"),
    ({"board": _config()["board"][:-1] + [". " * 14 + "XX"]}, "unknown premium 'XX'"),
    ({"start": [7, 15]}, "start square (7, 15) is off the 15x15 board"),
    ({"tiles": {**_config()["tiles"], "Q": [1, 10]}}, "tile 'Q' is not one lowercase letter"),
    ({"tiles": {**_config()["tiles"], "a": [0, 1]}}, "needs count >= 1"),
    ({"tiles": {**_config()["tiles"], "?": [2, 3]}}, "the blank scores 0"),
    ({"rack_size": "7"}, "rack_size must be an integer"),
    ({"min_word_length": 1}, "need 2 <= min_word_length"),
    ({"max_word_length": 16}, "max_word_length <= 15"),
    ({"provenance": {"board": "x"}}, "provenance.tiles must say where"),
    ({"placement": "grid"}, "placement must be one of line, multi, not 'grid'"),
    ({"repeat_words": 1}, "repeat_words must be a bool, not 1"),
])
def test_bad_rules_are_one_line_errors(changes, message):
    with pytest.raises(BadInput, match=message.replace("(", r"\(").replace(")", r"\)")) as error:
        rules_from_dict(_config(**changes), "scrabble-en.toml")
    assert "\n" not in str(error.value)


def test_rules_file_must_be_named_after_its_id(tmp_path):
    text = (REPO / "config" / "crossword" / "scrabble-en.toml").read_text()
    (tmp_path / "scrabble-xx.toml").write_text(text)
    with pytest.raises(BadInput, match="differs from the file name"):
        read_rules(tmp_path / "scrabble-xx.toml")


def test_reader_refuses_bad_artifacts(tmp_path):
    with pytest.raises(ArtifactMissing, match=r"nope.json does not exist: run `make crossword`"):
        load_rules(tmp_path / "nope.json")
    good = json.loads(rules_json(rules("scrabble-en"), "0" * 64))
    cases = {
        "notjson.json": "{",
        "other.json": json.dumps({**good, "format": "wordle-tree"}),
        "bad.json": json.dumps({**good, "rack_size": 0}),
    }
    for name, text in cases.items():
        (tmp_path / name).write_text(text)
        with pytest.raises(CorruptArtifact):
            load_rules(tmp_path / name)
    header_cases = {
        "no-version.json": ({k: v for k, v in good.items() if k != "version"},
                            "header field 'version' is missing"),
        "no-sha.json": ({k: v for k, v in good.items() if k != "config_sha256"},
                        "header field 'config_sha256' is missing"),
        "bad-id.json": ({**good, "id": 7}, "header field 'id' should be a string, not an integer"),
    }
    for name, (content, message) in header_cases.items():
        (tmp_path / name).write_text(json.dumps(content))
        with pytest.raises(CorruptArtifact, match=f"{name}: {message}; delete it and run "
                           "`make crossword` to rebuild"):
            load_rules(tmp_path / name)
    (tmp_path / "newer.json").write_text(json.dumps({**good, "version": 4}))
    with pytest.raises(UnsupportedFormat):
        load_rules(tmp_path / "newer.json")
    unsealed = {key: value for key, value in good.items() if key != "file_sha256"}
    (tmp_path / "older.json").write_text(json.dumps({**unsealed, "version": 2}))
    with pytest.raises(UnsupportedFormat, match=r"version 2 is not supported \(this reader "
                       r"reads 3\); rebuild it with `make crossword`"):
        load_rules(tmp_path / "older.json")


def test_crossword_game_names(tmp_path, monkeypatch):
    from lookup.crossword.game import crossword_game, crossword_games
    from lookup.errors import ArtifactMissing, UnknownName

    monkeypatch.setenv("WORDPACK_ARTIFACTS", os.fspath(tmp_path))
    crossword_game.cache_clear()
    try:
        assert crossword_games() == []
        with pytest.raises(ArtifactMissing) as nothing_built:
            crossword_game("wordfeud-nl")
        assert str(nothing_built.value) == (
            "unknown crossword game 'wordfeud-nl': none is built yet; run `make crossword` to "
            "build them")
        build_crossword(REPO / "config" / "crossword" / "scrabble-en.toml",
                        tmp_path / "crossword" / "scrabble-en.json")
        # The build wrote the sidecar _scrabble-en.json.meta.json too: not a game.
        assert sorted(p.name for p in (tmp_path / "crossword").iterdir()) == [
            "_scrabble-en.json.meta.json", "scrabble-en.json"]
        assert crossword_games() == ["scrabble-en"]
        with pytest.raises(UnknownName) as misspelt:
            crossword_game("scrable-en")
        assert str(misspelt.value) == (
            "unknown crossword game 'scrable-en': the built ones are scrabble-en")
        assert crossword_game("scrabble-en").rules == rules("scrabble-en")
    finally:
        crossword_game.cache_clear()
