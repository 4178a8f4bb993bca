"""Damaged files are refused, never read as good ones (docs/FORMATS.md: what a reader checks).

For each kind of artifact whose every byte is covered by a checksum (word graphs: file_sha256;
sealed JSON and msgpack files: their seal), random single-bit flips anywhere in the file (header
included), truncations and appended bytes are each refused through the public API, in Python
and in the JavaScript readers under Node: one line naming the file and the make target.
"""

import json
import shutil
import subprocess

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import lookup
from conftest import FIXTURES, REPO
from lookup.errors import CorruptArtifact, UnsupportedFormat
from lookup.guessing import feedback as feedback_module
from lookup.guessing import game as guessing_module
from lookup.guessing import tree as tree_module
from pipeline.build_dawg import dawg_bytes, write_graph_files

GAMES = FIXTURES / "guessing"
DAMAGES = st.fixed_dictionaries({
    "kind": st.sampled_from(["flip", "truncate", "append"]),
    "position": st.floats(0, 1, exclude_max=True),
    "bit": st.integers(0, 7),
    "extra": st.integers(1, 9),
})
NODE = shutil.which("node")


def damage_bytes(good: bytes, damage: dict) -> bytes:
    at = int(damage["position"] * len(good))
    if damage["kind"] == "flip":
        bad = bytearray(good)
        bad[at] ^= 1 << damage["bit"]
        return bytes(bad)
    if damage["kind"] == "truncate":
        return good[:at]
    return good + bytes([1 << damage["bit"]]) * damage["extra"]


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """The tiny fixture guessing games (trees included), a small DAWG, the scrabble-en rules,
    a leave table of zeros for them and its leave pack as the page reads it (gzip undone).
    """
    import gzip

    import numpy as np

    from lookup.crossword.leaves import LeaveValues
    from pipeline.build_crossword import build_crossword
    from pipeline.build_web_leaves import pack_leaves
    from pipeline.train_leaves import write_leaves

    artifacts = tmp_path_factory.mktemp("artifacts")
    subprocess.run(["make", "-C", str(REPO), f"ARTIFACTS={artifacts}", f"SOURCES={GAMES}",
                    f"GUESSING_CONFIG={GAMES / 'guessing.toml'}", "guessing"],
                   capture_output=True, text=True, check=True)
    write_graph_files(artifacts / "lexicons" / "tiny.dawg",
                      dawg_bytes(["cat", "cats", "do", "dog", "dogs"], "acdgost"))
    rules = build_crossword(REPO / "config" / "crossword" / "scrabble-en.toml",
                            artifacts / "crossword" / "scrabble-en.json")
    leaves = artifacts / "leaves" / "scrabble-en.leaves"
    leaves.parent.mkdir()
    write_leaves(leaves, LeaveValues(rules, np.zeros(914_624)), {"seed": 1})
    pack = artifacts / "web" / "scrabble-en.leaves.pack"
    pack.parent.mkdir()
    pack.write_bytes(gzip.decompress(pack_leaves(leaves)))
    return artifacts


def refused(error, make_target: str) -> bool:
    text = str(error)
    return "\n" not in text and make_target in text


def next_guess_after(artifacts, monkeypatch):
    """The public API's first guess of tiny-en in both modes (reads both trees)."""
    monkeypatch.setenv("WORDPACK_ARTIFACTS", str(artifacts))
    guessing_module._load_game.cache_clear()
    tree_module.load_tree.cache_clear()  # both trees are read again, from the files as they are
    game = lookup.guessing_game("tiny-en")
    return game.next_guess([]), game.next_guess([], hard=True), game.tree_stats()


# --- Python -------------------------------------------------------------------------------------

def guessing_queries(artifacts, monkeypatch):
    """The public API's tiny-en queries that read every file of the game: games.json, the
    descriptor, both trees, the matrix, its header and both lists.
    """
    monkeypatch.setenv("WORDPACK_ARTIFACTS", str(artifacts))
    guessing_module._load_game.cache_clear()
    tree_module.load_tree.cache_clear()  # every file is read again, as it is now
    feedback_module.load_feedback.cache_clear()
    game = lookup.guessing_game("tiny-en")
    answer = game.candidates([])[-1]
    return (game.next_guess([]), game.next_guess([], hard=True), game.tree_stats(),
            game.candidates([("bolt", game.feedback("bolt", answer))]))


def refused_in_guessing(built, monkeypatch, name: str, damage: dict) -> None:
    """Damage one file of tiny-en and check that the queries refuse it in one line."""
    path = built / "guessing" / name
    good = path.read_bytes()
    path.write_bytes(damage_bytes(good, damage))
    try:
        with pytest.raises((CorruptArtifact, UnsupportedFormat)) as error:
            guessing_queries(built, monkeypatch)
        assert refused(error.value, "make ")
    finally:
        path.write_bytes(good)


GUESSING_FILES = ["tiny-en.tree.msgpack", "tiny-en.hard.tree.msgpack", "tiny-en.game.json",
                  "games.json", "tiny-en.feedback.npy", "tiny-en.feedback.json",
                  "tiny-en.answers.txt", "tiny-en.guesses.txt"]


@settings(max_examples=300, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(damage=DAMAGES, name=st.sampled_from(GUESSING_FILES))
def test_any_damaged_file_of_a_guessing_game_is_refused(built, monkeypatch, damage, name):
    refused_in_guessing(built, monkeypatch, name, damage)


def test_the_good_files_answer(built, monkeypatch):
    assert guessing_queries(built, monkeypatch)[0] == "bolt"


@settings(max_examples=200, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(damage=DAMAGES)
def test_a_damaged_rules_file_is_refused(built, tmp_path_factory, damage):
    from lookup.crossword.rules import load_rules

    path = tmp_path_factory.mktemp("crossword") / "scrabble-en.json"
    path.write_bytes(damage_bytes((built / "crossword" / "scrabble-en.json").read_bytes(), damage))
    with pytest.raises((CorruptArtifact, UnsupportedFormat)) as error:
        load_rules(path)
    assert refused(error.value, "make crossword")


@settings(max_examples=80, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(damage=DAMAGES)
def test_a_damaged_leave_table_is_refused(tmp_path_factory, damage):
    import numpy as np

    from crossword_support import rules
    from lookup.crossword.leaves import LeaveValues, read_leaves
    from pipeline.train_leaves import write_leaves

    path = tmp_path_factory.mktemp("leaves") / "scrabble-en.leaves"
    game = rules("scrabble-en")
    table = LeaveValues(game, np.zeros(914_624))
    write_leaves(path, table, {"seed": 1})
    path.write_bytes(damage_bytes(path.read_bytes(), damage))
    with pytest.raises((CorruptArtifact, UnsupportedFormat)) as error:
        read_leaves(path, game)
    assert refused(error.value, "make leaves")


# --- JavaScript under Node ----------------------------------------------------------------------

def node_cases(cases: list, tmp_path) -> list:
    listing = tmp_path / "cases.json"
    listing.write_text(json.dumps(cases))
    result = subprocess.run([NODE, str(REPO / "tests" / "damage_driver.mjs"), str(listing)],
                            capture_output=True, text=True, check=True, cwd=REPO)
    return [json.loads(line) for line in result.stdout.splitlines()]


def js_damages(good: bytes, count: int, seed: int) -> list:
    """`count` damages spread over the whole file: flips first, then truncations and appends."""
    import random

    rng = random.Random(seed)
    damages = [{"kind": "flip", "at": rng.randrange(len(good)), "bit": rng.randrange(8)}
               for _ in range(count)]
    damages += [{"kind": "truncate", "at": rng.randrange(len(good))} for _ in range(count // 4)]
    damages += [{"kind": "append", "extra": rng.randrange(1, 9), "bit": rng.randrange(8)}
                for _ in range(count // 4)]
    return damages


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_js_readers_refuse_every_damaged_file(built, tmp_path):
    games = built / "guessing"
    files = [("dawg", built / "lexicons" / "tiny.dawg", None),
             ("tree", games / "tiny-en.tree.msgpack", games / "tiny-en.game.json"),
             ("tree", games / "tiny-en.hard.tree.msgpack", games / "tiny-en.game.json"),
             ("descriptor", games / "tiny-en.game.json", None),
             ("rules", built / "crossword" / "scrabble-en.json", None),
             ("leaves", built / "web" / "scrabble-en.leaves.pack",
              built / "crossword" / "scrabble-en.json")]
    cases = []
    for seed, (reader, path, extra) in enumerate(files):
        good = path.read_bytes()
        for damage in js_damages(good, 200, seed):
            cases.append({"reader": reader, "file": str(path), "extra": str(extra or ""),
                          "damage": damage})
    # The good files read, so a refusal below is the damage's doing.
    assert [r["refused"] for r in node_cases([dict(c, damage={"kind": "append", "extra": 0,
                                                              "bit": 0}) for c in cases[:1]],
                                             tmp_path)] == [False]
    results = node_cases(cases, tmp_path)
    silent = [case for case, result in zip(cases, results) if not result["refused"]]
    assert silent == []
    assert {r["name"] for r in results} == {"BadArtifact"}
    # One line that names the file and says what to do.
    assert all(r["message"].startswith(case["file"] + ": ") and "\n" not in r["message"]
               and "; " in r["message"] for r, case in zip(results, cases))


@settings(max_examples=100, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(damage=DAMAGES)
def test_wordpack_info_refuses_a_damaged_manifest(built, tmp_path_factory, monkeypatch, capsys,
                                                  damage):
    from lookup.cli import main
    from pipeline.manifest import build_manifest

    artifacts = tmp_path_factory.mktemp("listed")
    shutil.copytree(built / "guessing", artifacts / "guessing")
    build_manifest(artifacts)
    manifest = artifacts / "manifest.json"
    manifest.write_bytes(damage_bytes(manifest.read_bytes(), damage))
    monkeypatch.setenv("WORDPACK_ARTIFACTS", str(artifacts))
    with pytest.raises(SystemExit) as exit_status:
        main(["info", "--verify"])
    error = capsys.readouterr().err
    assert exit_status.value.code == 1
    assert error.startswith(f"error: {manifest}: ") and error.count("\n") == 1
    assert "make artifacts" in error


@settings(max_examples=200, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(damage=DAMAGES)
def test_a_damaged_equation_list_is_refused(tmp_path_factory, damage):
    from lookup.guessing.equations import read_equation_list
    from pipeline.build_game import read_source_list
    from pipeline.generate_equations import write_equation_list

    path = tmp_path_factory.mktemp("sources") / "nerdle-micro-guesses.txt"
    write_equation_list(path, 5, "guesses")
    path.write_bytes(damage_bytes(path.read_bytes(), damage))
    for read in (lambda: read_equation_list(path, "equations"), lambda: read_source_list(path)):
        with pytest.raises((CorruptArtifact, UnsupportedFormat)) as error:
            read()
        assert refused(error.value, "`make")  # a first line cut short reads as a word list


@settings(max_examples=200, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(damage=DAMAGES)
def test_a_damaged_opener_table_is_refused_and_never_read_by_the_runtime(built, monkeypatch,
                                                                         damage):
    from pipeline.sealed_parquet import read_sealed_parquet

    path = built / "guessing" / "tiny-en.openers.parquet"
    good = path.read_bytes()
    answers = guessing_queries(built, monkeypatch)
    path.write_bytes(damage_bytes(good, damage))
    try:
        with pytest.raises((CorruptArtifact, UnsupportedFormat)) as error:
            read_sealed_parquet(path, "tiny-en")
        assert refused(error.value, "make tiny-en")
        assert guessing_queries(built, monkeypatch) == answers
    finally:
        path.write_bytes(good)


@settings(max_examples=200, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(damage=DAMAGES)
def test_a_damaged_proof_table_is_refused(tmp_path_factory, damage):
    import pyarrow as pa

    from lookup.formats import PROOF_FORMAT, PROOF_VERSION
    from pipeline.proof_table import SCHEMA, read_proof
    from pipeline.sealed_parquet import sealed_parquet

    table = pa.Table.from_pylist(
        [{"opener": "bolt", "mode": "normal", "status": "exact", "total": 9, "max_depth": 3,
          "seconds": 0.5},
         {"opener": "bell", "mode": "normal", "status": "bound", "total": 12, "max_depth": None,
          "seconds": 0.0}], schema=SCHEMA)
    table = table.replace_schema_metadata({
        "format": PROOF_FORMAT, "version": str(PROOF_VERSION), "game": "tiny-en",
        "answers_sha256": "a" * 64, "guesses_sha256": "b" * 64,
        "modes": json.dumps({"normal": {"margin": 0}})})
    path = tmp_path_factory.mktemp("proofs") / "tiny-en.proof.parquet"
    path.write_bytes(damage_bytes(sealed_parquet(table), damage))
    with pytest.raises((CorruptArtifact, UnsupportedFormat)) as error:
        read_proof(path, "a" * 64, "b" * 64)
    assert refused(error.value, "make prove-tiny-en")


# --- the real files (make test-full) ------------------------------------------------------------
# Every kind of shipped file, damaged at random positions across the whole file: each damage is
# refused, in one line naming the file and the make target, by the reader the runtime (or the
# build) uses. REAL_DAMAGES per file, seeded by the file's name.

REAL_DAMAGES = 30


def real_damages(name: str, count: int) -> list[dict]:
    import random

    rng = random.Random(name)
    return [{"kind": rng.choice(["flip", "flip", "truncate", "append"]),
             "position": rng.random(), "bit": rng.randrange(8), "extra": rng.randrange(1, 9)}
            for _ in range(count)]


def _copies(tmp_path, relatives: list[str]) -> list:
    from conftest import full_artifact

    copies = []
    for relative in relatives:
        copy = tmp_path / relative
        copy.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(full_artifact(relative), copy)
        copies.append(copy)
    return copies


def _wordle_lists(tmp_path) -> tuple[str, str]:
    descriptor = json.loads((tmp_path / "guessing" / "wordle-en.game.json").read_text())
    return descriptor["answers"]["sha256"], descriptor["guesses"]["sha256"]


def _read_rules(path):
    from lookup.crossword.rules import load_rules

    load_rules.cache_clear()  # cached by path: read the damaged bytes
    return load_rules(path)


def _read_leaves(path):
    from crossword_support import rules
    from lookup.crossword.leaves import read_leaves

    return read_leaves(path, rules("scrabble-en"))


def _read_manifest(path):
    """`wordpack info` on the manifest; its error line (exit 1) raised as a CorruptArtifact."""
    import contextlib
    import io

    from lookup.cli import main

    stderr = io.StringIO()
    with pytest.MonkeyPatch.context() as patch, contextlib.redirect_stderr(stderr), \
            contextlib.redirect_stdout(io.StringIO()):
        patch.setenv("WORDPACK_ARTIFACTS", str(path.parent))
        try:
            main(["info"])
        except SystemExit as stop:
            if stop.code:
                assert stop.code == 1 and stderr.getvalue().startswith("error: ")
                raise CorruptArtifact(stderr.getvalue().removeprefix("error: ").rstrip("\n")
                                      ) from None


def _read_lexicon(graph):
    import importlib

    importlib.import_module("lookup.lexicon")._load.cache_clear()  # cached by path
    lexicon = lookup.lexicon(str(graph))
    return lexicon.word(0), "cat" in lexicon  # the index is mapped on the first query


def _read_tree(path):
    tree_module.load_tree.cache_clear()  # cached by path: read the damaged bytes
    return tree_module.load_tree(path, *_wordle_lists(path.parents[1]))


def _read_equations(path):
    from lookup.guessing.equations import read_equation_list

    return read_equation_list(path, "equations")


def _read_proof(path):
    from pipeline.proof_table import read_proof

    return read_proof(path, *_wordle_lists(path.parents[1]))


def _read_openers(path):
    from pipeline.sealed_parquet import read_sealed_parquet

    return read_sealed_parquet(path, "wordle-en")


def _read_feedback(path):
    feedback_module.load_feedback.cache_clear()
    return feedback_module.load_feedback(path.with_name("wordle-en.feedback.npy"))


# (file to damage, the files it is read with, its reader, the make target named)
REAL_KINDS = {
    "word graph": ("lexicons/enable.dawg", ["lexicons/enable.dawg.idx"], _read_lexicon,
                   "make lexicons"),
    "word graph index": ("lexicons/enable.dawg.idx", ["lexicons/enable.dawg"],
                         lambda path: _read_lexicon(path.with_suffix("")), "make lexicons"),
    "guess tree": ("guessing/wordle-en.tree.msgpack", ["guessing/wordle-en.game.json"],
                   _read_tree, "make "),
    "guess-game descriptor": ("guessing/wordle-en.game.json", [],
                              lambda path: guessing_module.load_descriptor(path), "make "),
    "games index": ("guessing/games.json", [],
                    lambda path: guessing_module.games_index(path.parent), "make guessing"),
    "feedback header": ("guessing/wordle-en.feedback.json",
                        ["guessing/wordle-en.feedback.npy", "guessing/wordle-en.answers.txt",
                         "guessing/wordle-en.guesses.txt"], _read_feedback, "make "),
    "crossword rules": ("crossword/scrabble-en.json", [], _read_rules, "make crossword"),
    "leave table": ("leaves/scrabble-en.leaves", [], _read_leaves, "make leaves"),
    "equation list": ("sources/nerdle-mini-answers.txt", [], _read_equations, "make equations"),
    "opener proof": ("guessing/wordle-en.proof.parquet", ["guessing/wordle-en.game.json"],
                     _read_proof, "make prove-wordle-en"),
    "opener table": ("guessing/wordle-en.openers.parquet", [], _read_openers, "make wordle-en"),
    "manifest": ("manifest.json", [], _read_manifest, "make artifacts"),
}


@pytest.mark.full
@pytest.mark.parametrize("kind", REAL_KINDS)
def test_every_kind_of_real_file_refuses_damage(kind, tmp_path):
    relative, companions, read, make_target = REAL_KINDS[kind]
    path, *_ = _copies(tmp_path, [relative, *companions])
    good = path.read_bytes()
    read(path)  # the good file reads, so each refusal below is the damage's doing
    for damage in real_damages(relative, REAL_DAMAGES):
        path.write_bytes(damage_bytes(good, damage))
        with pytest.raises((CorruptArtifact, UnsupportedFormat)) as error:
            read(path)
        assert refused(error.value, make_target), (damage, str(error.value))


@pytest.mark.full
@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_js_readers_refuse_damage_to_the_real_files(tmp_path):
    import gzip

    from pipeline.build_web_leaves import pack_leaves

    copies = _copies(tmp_path, ["lexicons/enable.dawg", "guessing/wordle-en.tree.msgpack",
                                "guessing/wordle-en.hard.tree.msgpack",
                                "guessing/wordle-en.game.json", "crossword/scrabble-en.json",
                                "leaves/scrabble-en.leaves"])
    dawg, tree, hard_tree, descriptor, rules, leaves = copies
    pack = tmp_path / "scrabble-en.leaves.pack"
    pack.write_bytes(gzip.decompress(pack_leaves(leaves)))
    files = [("dawg", dawg, None), ("tree", tree, descriptor), ("tree", hard_tree, descriptor),
             ("descriptor", descriptor, None), ("rules", rules, None), ("leaves", pack, rules)]
    cases = [{"reader": reader, "file": str(path), "extra": str(extra or ""), "damage": damage}
             for seed, (reader, path, extra) in enumerate(files)
             for damage in js_damages(path.read_bytes(), REAL_DAMAGES, seed)]
    results = node_cases(cases, tmp_path)
    assert [case for case, result in zip(cases, results) if not result["refused"]] == []
    assert all(r["name"] == "BadArtifact" and r["message"].startswith(case["file"] + ": ")
               and "\n" not in r["message"] for r, case in zip(results, cases))
