import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
FIXTURES = REPO / "tests" / "fixtures"


def full_artifact(relative: str) -> Path:
    """A real artifact for @pytest.mark.full tests; fails with the make hint when absent.

    Read from $WORDPACK_ARTIFACTS when set (as the runtime does), else the checkout's artifacts/.
    """
    path = Path(os.environ.get("WORDPACK_ARTIFACTS", REPO / "artifacts")) / relative
    if not path.is_file():
        pytest.fail(f"{path} is missing: run `make` before `make test-full`")
    return path
