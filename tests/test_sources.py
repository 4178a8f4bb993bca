"""The committed sources/ lists agree with their provenance files (no network needed)."""

import hashlib
import json
from pathlib import Path

import pytest

from pipeline import fetch_sources

SOURCES = Path(__file__).resolve().parents[1] / "sources"

# The counts DESIGN.md section 3 promises (the NYT guesses are the 14,855 allowed words minus the
# 2,309 answers; the OpenCorpora selection is "about 67,000").
EXPECTED = {
    "wordle-en-answers": 2315,
    "wordle-en-guesses": 10657,
    "wordle-en-nyt-answers": 2309,
    "wordle-en-nyt-guesses": 14855 - 2309,
    "enable": 172820,
    "opentaal": 413288,
    "igerman98": 356010,
    "opencorpora-nouns": 68472,
}
KEYS = {
    "name", "registry", "package", "version", "file_in_package", "url", "package_sha256",
    "list_sha256", "licence", "count", "encoding", "filter", "retrieved",
}


def provenance(name):
    return json.loads((SOURCES / f"{name}.json").read_text(encoding="utf-8"))


def test_every_list_is_expected_and_has_provenance():
    lists = {path.stem for path in SOURCES.glob("*.txt")}
    assert lists == set(EXPECTED)
    assert {path.stem for path in SOURCES.glob("*.json")} == lists
    assert fetch_sources.EXPECTED_COUNTS == EXPECTED


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_list_matches_its_provenance(name):
    data = (SOURCES / f"{name}.txt").read_bytes()
    meta = provenance(name)
    assert set(meta) == KEYS
    assert meta["name"] == name
    assert meta["list_sha256"] == hashlib.sha256(data).hexdigest()
    assert meta["count"] == EXPECTED[name]
    assert meta["licence"].strip()
    assert meta["package_sha256"] and len(meta["package_sha256"]) == 64
    # One entry per line, "\n" endings, final newline, valid UTF-8, no empty entries.
    assert data.endswith(b"\n") and b"\r" not in data
    words = data.decode("utf-8")[:-1].split("\n")
    assert len(words) == meta["count"]
    assert all(words)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_provenance_file_is_canonical(name):
    # Sorted keys, indent=1, final newline: the form fetch_sources writes, so files diff cleanly.
    text = (SOURCES / f"{name}.json").read_text(encoding="utf-8")
    canonical = json.dumps(json.loads(text), indent=1, sort_keys=True, ensure_ascii=False) + "\n"
    assert text == canonical


def test_provenance_matches_the_pins():
    pins = {
        pin.package: pin
        for pin in vars(fetch_sources).values()
        if isinstance(pin, fetch_sources.Pin)
    }
    for name in EXPECTED:
        meta = provenance(name)
        pin = pins[meta["package"]]
        assert (meta["registry"], meta["version"], meta["url"], meta["package_sha256"]) == (
            pin.registry, pin.version, pin.url, pin.sha256
        )


def test_wordle_lists_are_consistent():
    def words(name):
        return (SOURCES / f"{name}.txt").read_text(encoding="utf-8").split()

    answers, guesses = words("wordle-en-answers"), words("wordle-en-guesses")
    assert answers[:3] == ["cigar", "rebut", "sissy"]
    assert not set(answers) & set(guesses)
    nyt_answers, nyt_guesses = words("wordle-en-nyt-answers"), words("wordle-en-nyt-guesses")
    assert not set(nyt_answers) & set(nyt_guesses)
    assert len(set(nyt_answers) | set(nyt_guesses)) == 14855
    # The NYT answers are the original answers, in the same order, less six removed words.
    removed = {"agora", "fibre", "lynch", "pupal", "slave", "wench"}
    assert nyt_answers == [word for word in answers if word not in removed]


def test_readme_lists_every_sha256():
    readme = (SOURCES / "README.md").read_text(encoding="utf-8")
    for name in EXPECTED:
        assert provenance(name)["list_sha256"] in readme
