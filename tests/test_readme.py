"""The README's examples run: its Python session (```pycon, a doctest) and its shell session
(```console, `$ wordpack ...` lines followed by their output).

`make test` has no full artifacts (CI is a clean clone), so the fast tests run every example on
small artifacts built from the fixtures under the README's names: `enable` from
tests/fixtures/sources, a `wordle-en` of that list's 5-letter words, the real `scrabble-en`
rules with the fixture GADDAG. There each example must run without an error; what it prints is
not compared, since small data gives other answers. `make test-full` compares every printed
output with the README verbatim, on the real artifacts ($WORDPACK_ARTIFACTS, else artifacts/).
The ```sh blocks are `make` commands (the build itself), which the tests do not run.
"""

import doctest
import re
import shlex
import subprocess
import sys

import pytest

from conftest import FIXTURES, REPO, SMALL_WORDLE
from lookup.paths import artifacts_dir

README = REPO / "README.md"
FENCE = re.compile(r"^```(\w*)\n(.*?)^```$", re.MULTILINE | re.DOTALL)

README_GUESSES = ["brond", "crane"]


def blocks(language: str) -> list[str]:
    """The README's fenced blocks tagged `language`, in order."""
    return [body for tag, body in FENCE.findall(README.read_text(encoding="utf-8"))
            if tag == language]


def shell_examples() -> list[tuple[str, str]]:
    """(command, expected output) for every `$ ` line of the ```console blocks."""
    examples = []
    for block in blocks("console"):
        for chunk in re.split(r"^\$ ", block, flags=re.MULTILINE)[1:]:
            command, _, output = chunk.partition("\n")
            examples.append((command, output))
    return examples


def run_shell_example(command: str, artifacts) -> subprocess.CompletedProcess:
    program, *args = shlex.split(command)
    assert program == "wordpack", f"the README's shell session runs only wordpack: {command}"
    return subprocess.run([sys.executable, "-m", "lookup", *args], capture_output=True,
                          text=True, cwd=REPO,
                          env={"WORDPACK_ARTIFACTS": str(artifacts), "PATH": "/usr/bin:/bin"})


def run_python_session(monkeypatch, artifacts, checker: doctest.OutputChecker) -> None:
    monkeypatch.setenv("WORDPACK_ARTIFACTS", str(artifacts))
    monkeypatch.chdir(REPO)  # the examples open docs/examples/... relative to the checkout
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(checker=checker, optionflags=doctest.ELLIPSIS)
    test = parser.get_doctest("\n".join(blocks("pycon")), {}, "README.md", str(README), 0)
    assert test.examples, "README.md has no ```pycon session"
    reports: list[str] = []
    result = runner.run(test, out=reports.append)
    assert result.failed == 0, "".join(reports)


def same_output(expected: str, printed: str) -> bool:
    """Verbatim, but for '...' (doctest ELLIPSIS, e.g. for timings) and trailing spaces."""
    def strip(text):
        return "\n".join(line.rstrip() for line in text.splitlines()) + "\n"

    return doctest.OutputChecker().check_output(strip(expected), strip(printed),
                                                doctest.ELLIPSIS)


class AnyOutput(doctest.OutputChecker):
    """Accepts whatever an example prints (an exception still fails it)."""

    def check_output(self, want, got, optionflags):
        return True


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    built = tmp_path_factory.mktemp("artifacts")
    (built / "guessing.toml").write_text(SMALL_WORDLE)
    (built / "readme-guesses.txt").write_text("".join(f"{w}\n" for w in README_GUESSES))
    subprocess.run(["make", "-C", str(REPO), f"ARTIFACTS={built}",
                    f"SOURCES={FIXTURES / 'sources'}", f"GUESSING_CONFIG={built}/guessing.toml",
                    "guessing", f"{built}/lexicons/enable.dawg", f"{built}/lexicons/enable.gaddag",
                    f"{built}/crossword/scrabble-en.json",
                    f"{built}/lexicons/opencorpora-nouns.gaddag",
                    f"{built}/crossword/erudit-ru.json"],
                   capture_output=True, text=True, check=True)
    return built


def test_only_make_commands_are_left_unrun():
    for block in blocks("sh"):
        for line in block.splitlines():
            assert line.startswith("make"), f"a ```sh block of README.md holds {line!r}"
    assert not blocks("python"), "write Python examples as a ```pycon session (they are run)"


def test_python_session_runs(small, monkeypatch):
    run_python_session(monkeypatch, small, AnyOutput())


def test_shell_session_runs(small):
    examples = shell_examples()
    assert examples, "README.md has no ```console session"
    for command, _ in examples:
        result = run_shell_example(command, small)
        assert result.returncode == 0, (command, result.stderr)


@pytest.mark.full
def test_python_session_prints_what_the_readme_says(monkeypatch):
    run_python_session(monkeypatch, artifacts_dir(), doctest.OutputChecker())


@pytest.mark.full
@pytest.mark.parametrize("command, expected", shell_examples())
def test_shell_session_prints_what_the_readme_says(command, expected):
    result = run_shell_example(command, artifacts_dir())
    assert result.returncode == 0, result.stderr
    assert same_output(expected, result.stdout), result.stdout
