import os
from pathlib import Path

import pytest

from browser_support import BROWSER_SKIP_REASON, browser  # noqa: F401 (one session-wide fixture for every module)

REPO = Path(__file__).resolve().parents[1]
FIXTURES = REPO / "tests" / "fixtures"

# The small wordle-en: every 5-letter word of the fixture ENABLE list, plus the README's
# guesses that the fixture list lacks.
SMALL_WORDLE = """
[wordle-en]
name = "Wordle (README test)"
alphabet = "abcdefghijklmnopqrstuvwxyz"
length = 5
answers = ["artifacts/lexicons/enable.txt"]
guesses = ["artifacts/readme-guesses.txt"]
root = "salet"
opener_candidates = 1
max_guesses = 6
"""


def full_artifact(relative: str) -> Path:
    """A real artifact for @pytest.mark.full tests; fails with the make hint when absent.

    Read from $WORDPACK_ARTIFACTS when set (as the runtime does), else the checkout's artifacts/.
    """
    path = Path(os.environ.get("WORDPACK_ARTIFACTS", REPO / "artifacts")) / relative
    if not path.is_file():
        pytest.fail(f"{path} is missing: run `make` before `make test-full`")
    return path


@pytest.fixture(autouse=True)
def fast_tests_read_no_built_artifacts(request, monkeypatch, tmp_path_factory):
    """A fast test gives the same result whether `make` has built artifacts/ or not: it reads
    only the artifacts it makes itself (WORDPACK_ARTIFACTS points at an empty directory until
    the test sets it). Full tests read the real ones.
    """
    if request.node.get_closest_marker("full") is None:
        empty = tmp_path_factory.getbasetemp() / "no-artifacts"
        empty.mkdir(exist_ok=True)
        monkeypatch.setenv("WORDPACK_ARTIFACTS", str(empty))


def pytest_terminal_summary(terminalreporter):
    """Say plainly when the browser tests did not run."""
    skipped = terminalreporter.stats.get("skipped", [])
    count = sum(BROWSER_SKIP_REASON in str(report.longrepr) for report in skipped)
    if count:
        terminalreporter.write_line(f"{count} browser tests skipped: {BROWSER_SKIP_REASON}")
