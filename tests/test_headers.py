"""Every header reader refuses a header without a version, with a field missing or ill-typed:
one line naming the file, the field and the make target, never a KeyError or TypeError."""

import json

import msgpack
import pytest

from conftest import FIXTURES
from lookup.errors import CorruptArtifact, UnsupportedFormat
from lookup.formats import GAME_VERSION, GAMES_INDEX_VERSION, TREE_FORMAT, TREE_VERSION
from lookup.guessing.equations import read_equation_list
from lookup.guessing.feedback import load_feedback
from lookup.guessing.game import guessing_game_names, load_descriptor
from lookup.guessing.tree import load_tree
from lookup.headers import check_header
from pipeline.build_feedback import build_feedback
from pipeline.build_game import build_game, build_index
from pipeline.generate_equations import write_equation_list

GAMES = FIXTURES / "guessing"
CONFIG = GAMES / "guessing.toml"
TREE_HEADER = {
    "format": TREE_FORMAT, "version": TREE_VERSION, "game": "tiny-en", "hard": False,
    "max_guesses": 6, "depth_limit": 6, "search_width": 0, "root": "bell",
    "answers_sha256": "a" * 64, "guesses_sha256": "b" * 64, "total": 1, "max": 1,
    "histogram": [1], "proven_optimal": True, "optimal_over": "every tree", "root_choice":
    "configured", "screened": [], "nodes_visited": 0, "guesses_evaluated": 0,
}


@pytest.fixture()
def built(tmp_path):
    build_game(CONFIG, "tiny-en", GAMES, tmp_path, tmp_path / "tiny-en.game.json")
    build_feedback(tmp_path / "tiny-en.game.json", tmp_path / "tiny-en.feedback.npy")
    build_index(CONFIG, tmp_path / "games.json")
    (tmp_path / "tiny-en.tree.msgpack").write_bytes(msgpack.packb([TREE_HEADER, [0, [], []]]))
    write_equation_list(tmp_path / "nerdle-micro-answers.txt", 5, "answers")
    return tmp_path


def edit_json(path, edit) -> None:
    data = json.loads(path.read_text())
    edit(data)
    path.write_text(json.dumps(data))


def edit_tree(path, edit) -> None:
    header, root = msgpack.unpackb(path.read_bytes())
    edit(header)
    path.write_bytes(msgpack.packb([header, root]))


def edit_equations(path, edit) -> None:
    first, rest = path.read_text().split("\n", 1)
    path.write_text(edit(first) + "\n" + rest)


def read_descriptor(directory):
    load_descriptor(directory / "tiny-en.game.json", "tiny-en")


def read_feedback(directory):
    load_feedback.cache_clear()
    load_feedback(directory / "tiny-en.feedback.npy")


def read_tree(directory):
    load_tree.cache_clear()
    load_tree(directory / "tiny-en.tree.msgpack", "a" * 64, "b" * 64)


def read_games_index(directory):
    guessing_game_names(directory)


def read_equations(directory):
    read_equation_list(directory / "nerdle-micro-answers.txt", "equations")


def drop(key):
    return lambda data: data.pop(key)


def drop_nested(key, inner):
    return lambda data: data[key].pop(inner)


def assign(key, value):
    return lambda data: data.__setitem__(key, value)


# (file, how to edit it, reader, make target named, field named, what is said about it)
CASES = {
    "descriptor without version": ("tiny-en.game.json", edit_json, drop("version"),
                                   read_descriptor, "tiny-en", "version", "is missing"),
    "descriptor without length": ("tiny-en.game.json", edit_json, drop("length"),
                                  read_descriptor, "tiny-en", "length", "is missing"),
    "descriptor without answers.sha256": ("tiny-en.game.json", edit_json,
                                          drop_nested("answers", "sha256"), read_descriptor,
                                          "tiny-en", "answers.sha256", "is missing"),
    "descriptor with a text length": ("tiny-en.game.json", edit_json, assign("length", "4"),
                                      read_descriptor, "tiny-en", "length",
                                      "should be an integer, not a string"),
    "descriptor with a boolean length": ("tiny-en.game.json", edit_json,
                                         assign("length", True), read_descriptor, "tiny-en",
                                         "length", "should be an integer, not true or false"),
    "feedback without version": ("tiny-en.feedback.json", edit_json, drop("version"),
                                 read_feedback, "{dir}/tiny-en.feedback.npy", "version",
                                 "is missing"),
    "feedback without guesses.file": ("tiny-en.feedback.json", edit_json,
                                      drop_nested("guesses", "file"), read_feedback,
                                      "{dir}/tiny-en.feedback.npy", "guesses.file",
                                      "is missing"),
    "feedback with a text length": ("tiny-en.feedback.json", edit_json, assign("length", "4"),
                                    read_feedback, "{dir}/tiny-en.feedback.npy", "length",
                                    "should be an integer, not a string"),
    "tree without version": ("tiny-en.tree.msgpack", edit_tree, drop("version"), read_tree,
                             "{dir}/tiny-en.tree.msgpack", "version", "is missing"),
    "tree without histogram": ("tiny-en.tree.msgpack", edit_tree, drop("histogram"),
                               read_tree, "{dir}/tiny-en.tree.msgpack", "histogram",
                               "is missing"),
    "tree with a text version": ("tiny-en.tree.msgpack", edit_tree, assign("version", "1"),
                                 read_tree, "{dir}/tiny-en.tree.msgpack", "version",
                                 "should be an integer, not a string"),
    "tree with a map histogram": ("tiny-en.tree.msgpack", edit_tree,
                                  assign("histogram", {"1": 1}), read_tree,
                                  "{dir}/tiny-en.tree.msgpack", "histogram",
                                  "should be an array, not a map"),
    "games index without version": ("games.json", edit_json, drop("version"),
                                    read_games_index, "guessing", "version", "is missing"),
    "games index without games": ("games.json", edit_json, drop("games"), read_games_index,
                                  "guessing", "games", "is missing"),
    "games index with an array of games": ("games.json", edit_json, assign("games", ["tiny"]),
                                           read_games_index, "guessing", "games",
                                           "should be a map, not an array"),
    "equations with text rules": ("nerdle-micro-answers.txt", edit_equations,
                                  lambda line: line.replace("rules=2", "rules=one"),
                                  read_equations, "equations", "rules",
                                  "should be an integer, not a string"),
    "equations with a text count": ("nerdle-micro-answers.txt", edit_equations,
                                    lambda line: line.replace("count=127", "count=12x"),
                                    read_equations, "equations", "count",
                                    "should be an integer, not a string"),
}


@pytest.mark.parametrize("case", CASES)
def test_bad_header_is_one_clear_line(built, case):
    name, edit_file, edit, read, target, field, said = CASES[case]
    edit_file(built / name, edit)
    with pytest.raises(CorruptArtifact) as error:
        read(built)
    assert str(error.value) == (f"{built / name}: header field {field!r} {said}; delete it and "
                                f"run `make {target.format(dir=built)}` to rebuild")


@pytest.mark.parametrize("name, edit_file, version, read, target", [
    ("tiny-en.game.json", edit_json, GAME_VERSION, read_descriptor, "tiny-en"),
    ("tiny-en.tree.msgpack", edit_tree, TREE_VERSION, read_tree, "{dir}/tiny-en.tree.msgpack"),
    ("games.json", edit_json, GAMES_INDEX_VERSION, read_games_index, "guessing"),
])
def test_newer_version_names_the_make_target(built, name, edit_file, version, read, target):
    edit_file(built / name, assign("version", version + 1))
    with pytest.raises(UnsupportedFormat) as error:
        read(built)
    assert str(error.value) == (f"{built / name}: format version {version + 1} is not supported "
                                f"(this reader reads {version}); rebuild it with "
                                f"`make {target.format(dir=built)}` or upgrade wordpack")


def test_another_format_is_refused(built):
    edit_json(built / "tiny-en.game.json", assign("format", "guess-tree"))
    with pytest.raises(CorruptArtifact, match="not a guess-game header; delete it and run "
                                              "`make tiny-en`"):
        read_descriptor(built)


def test_check_header_types():
    fields = {"name": str, "root": (str, type(None)), "size.rows": int}
    good = {"format": "f", "version": 2, "name": "x", "root": None, "size": {"rows": 3}}
    assert check_header(good, "p", format="f", versions=(1, 2), fields=fields) is good
    bad = dict(good, size=4)
    with pytest.raises(CorruptArtifact, match="p: header field 'size.rows' is missing; delete "
                                              "it and run `make` to rebuild"):
        check_header(bad, "p", format="f", versions=(1, 2), fields=fields)
    with pytest.raises(CorruptArtifact, match="'root' should be a string or null, not an "
                                              "integer"):
        check_header(dict(good, root=3), "p", format="f", versions=(1, 2), fields=fields)
    with pytest.raises(CorruptArtifact, match="p: not a f header"):
        check_header([good], "p", format="f", versions=(1, 2), fields=fields)
