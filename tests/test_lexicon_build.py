"""The lexicon stages run through the Makefile on fixture sources, and the CLI on the result."""

import json
import shutil
import subprocess
import sys

import pytest

from conftest import FIXTURES, REPO
from pipeline.build_lexicon import normalize

TARGETS = [f"lexicons/{name}.{ext}" for name in ("enable", "opencorpora-nouns")
           for ext in ("txt", "trie", "trie.idx", "dawg", "dawg.idx", "gaddag", "gaddag.idx")] + [
               "crossword/scrabble-en.json"]


def run_make(artifacts, *targets, check=True, sources=FIXTURES / "sources"):
    return subprocess.run(
        ["make", "-C", str(REPO), f"ARTIFACTS={artifacts}", f"SOURCES={sources}", *targets],
        capture_output=True, text=True, check=check)


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    artifacts = tmp_path_factory.mktemp("artifacts")
    run_make(artifacts, *[f"{artifacts}/{t}" for t in TARGETS])
    subprocess.run([sys.executable, "-m", "pipeline", "manifest", str(artifacts)],
                   check=True, capture_output=True, cwd=REPO)
    return artifacts


def wordpack(built, *args):
    return subprocess.run([sys.executable, "-m", "lookup", *args], capture_output=True,
                          text=True, cwd=REPO, env={"WORDPACK_ARTIFACTS": str(built),
                                                    "PATH": "/usr/bin:/bin"})


def test_second_make_does_nothing(built):
    result = run_make(built, "-q", *[f"{built}/{t}" for t in TARGETS], check=False)
    assert result.returncode == 0, result.stdout


def test_touching_a_source_rebuilds_only_its_lexicon(built, tmp_path):
    sources = tmp_path / "sources"
    shutil.copytree(FIXTURES / "sources", sources)
    artifacts = tmp_path / "artifacts"
    shutil.copytree(built, artifacts)
    targets = [f"{artifacts}/{t}" for t in TARGETS]
    (sources / "opencorpora-nouns.txt").touch()
    plan = run_make(artifacts, "-n", *targets, sources=sources).stdout
    rebuilt = sorted(line.split()[-1] for line in plan.splitlines() if " -o " in line)
    assert rebuilt == sorted(f"{artifacts}/lexicons/opencorpora-nouns.{ext}"
                             for ext in ("txt", "trie", "dawg", "gaddag"))


def test_rebuild_is_byte_identical(built, tmp_path):
    run_make(tmp_path, *[f"{tmp_path}/{t}" for t in TARGETS])
    for target in TARGETS:
        assert (tmp_path / target).read_bytes() == (built / target).read_bytes(), target


def test_normalized_lists(built):
    enable = (built / "lexicons" / "enable.txt").read_text().split("\n")
    source = (FIXTURES / "sources" / "enable.txt").read_text().split()
    assert enable[:-1] == sorted(set(source)) and enable[-1] == ""
    russian = (built / "lexicons" / "opencorpora-nouns.txt").read_text().split()
    # ё folds to е, "Москва" is lowercased, the hyphenated entry is dropped
    assert "еж" in russian and "елка" in russian and "москва" in russian
    assert not any("-" in w or "ё" in w for w in russian)


def test_normalization_rules():
    dutch = {"alphabet": "abcdefghijklmnopqrstuvwxyz", "keep_capitalized": False,
             "strip_diacritics": True}
    assert normalize(["café", "één", "Amsterdam", "zee", "co-op", "zee", "naïef"], dutch) == [
        "cafe", "een", "naief", "zee"]
    german = {"alphabet": "abcdefghijklmnopqrstuvwxyzßäöü", "drop_all_caps": True,
              "strip_diacritics": True}
    assert normalize(["Äpfel", "NATO", "Straße", "Café", "A"], german) == [
        "a", "cafe", "straße", "äpfel"]


def test_manifest(built):
    manifest = json.loads((built / "manifest.json").read_text())
    entries = {e["path"]: e for e in manifest["artifacts"]}
    assert sorted(entries) == sorted(TARGETS)
    dawg = entries["lexicons/enable.dawg"]
    assert dawg["format"] == "dawg" and dawg["version"] == 4
    index = entries["lexicons/enable.dawg.idx"]
    assert index["format"] == "dawg-index" and index["version"] == 4
    assert index["licences"] == ["public domain"]
    assert dawg["licences"] == ["public domain"]
    assert entries["lexicons/opencorpora-nouns.gaddag"]["licences"] == ["CC-BY-SA-3.0"]
    assert entries["crossword/scrabble-en.json"]["licences"] == ["MIT (wordpack)"]
    assert dawg["size"] == (built / "lexicons" / "enable.dawg").stat().st_size


def test_manifest_skips_work_directories(built, tmp_path):
    from pipeline.manifest import build_manifest

    copy = tmp_path / "artifacts"
    shutil.copytree(built, copy)
    for work in ("_proofs/wordle-en.hard/plan.json", "_leave-runs/scrabble-en/chunk-00000.npz"):
        (copy / work).parent.mkdir(parents=True)
        (copy / work).write_text("{}")
    entries = build_manifest(copy)
    assert sorted(e["path"] for e in entries) == sorted(TARGETS)


def test_cli_queries(built):
    result = wordpack(built, "check", "enable", "cat", "qzx", "--json")
    assert result.returncode == 1 and json.loads(result.stdout) == {"cat": True, "qzx": False}
    result = wordpack(built, "anagram", "enable", "retinas", "--json")
    assert json.loads(result.stdout) == ["nastier", "retains", "retinas", "stainer"]
    result = wordpack(built, "unscramble", "enable", "tac", "--min-len", "3", "--json")
    assert json.loads(result.stdout) == ["act", "cat"]
    result = wordpack(built, "match", "opencorpora-nouns", "к??")
    assert result.stdout.split() == ["3", "letters:", "кот", "кто"]
    result = wordpack(built, "unscramble", "enable", "cat?", "--min-len", "4",
                      "--game", "scrabble-en", "--json")
    scored = json.loads(result.stdout)
    assert scored[0] == {"word": "cats", "score": 5}  # c=3 a=1 t=1, the s a blank
    assert [s["score"] for s in scored] == sorted((s["score"] for s in scored), reverse=True)
    result = wordpack(built, "unscramble", "enable", "quixoti?", "--min-len", "8",
                      "--game", "scrabble-en")
    assert result.stdout.split() == ["23", "quixotic"]  # q10 u1 i1 x8 o1 t1 i1, c a blank
    result = wordpack(built, "info")
    assert "lexicons/enable.dawg" in result.stdout and "public domain" in result.stdout


def test_info_verify_checks_every_artifact_against_the_manifest(built, tmp_path):
    result = wordpack(built, "info", "--verify")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1] == (f"all {len(TARGETS)} artifacts match "
                                              f"{built}/manifest.json")
    copy = tmp_path / "artifacts"
    shutil.copytree(built, copy)
    dawg = copy / "lexicons" / "enable.dawg"
    data = bytearray(dawg.read_bytes())
    data[-1] ^= 1
    dawg.write_bytes(data)
    (copy / "crossword" / "scrabble-en.json").unlink()
    result = wordpack(copy, "info", "--verify")
    assert result.returncode == 1
    assert "lexicons/enable.dawg" in result.stdout and "[differs]" in result.stdout
    assert result.stderr == (f"error: 2 of {len(TARGETS)} artifacts do not match "
                             f"{copy}/manifest.json (crossword/scrabble-en.json, "
                             "lexicons/enable.dawg): run `make` to rebuild them\n")


@pytest.mark.parametrize("args, message", [
    (["anagram", "enable", "ab1"], "error: '1' in letters 'ab1' is not in the enable alphabet"),
    (["match", "enable", "c[t"], "error: '[' in pattern"),
])
def test_cli_errors_are_one_line(built, args, message):
    result = wordpack(built, *args)
    assert result.returncode == 1
    assert result.stderr.startswith(message) and result.stderr.count("\n") == 1, result.stderr
    assert "Traceback" not in result.stderr


def test_cli_unbuilt_lexicon_is_a_usage_error_listing_the_built_ones(built):
    result = wordpack(built, "anagram", "opentaal", "abc")
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert result.stderr.splitlines()[-1] == (
        "wordpack anagram: error: unknown lexicon 'opentaal': the built ones are enable, "
        "opencorpora-nouns")
