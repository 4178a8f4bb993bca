"""Where the runtime finds artifacts: $WORDPACK_ARTIFACTS, else the checkout's artifacts/."""

import os
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]


def artifacts_dir() -> Path:
    """The artifacts directory the runtime reads from."""
    override = os.environ.get("WORDPACK_ARTIFACTS")
    return Path(override) if override else REPO_ROOT / "artifacts"
