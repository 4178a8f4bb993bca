"""Where the runtime finds artifacts: $WORDPACK_ARTIFACTS, else the checkout's artifacts/."""

import os
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]


def artifacts_dir() -> Path:
    """The artifacts directory the runtime reads from."""
    override = os.environ.get("WORDPACK_ARTIFACTS")
    return Path(override) if override else REPO_ROOT / "artifacts"


def built_names(directory, suffix: str) -> list[str]:
    """Sorted names of the `<name><suffix>` files in `directory` ([] if it does not exist).

    Build helpers and provenance sidecars (names starting with `_` or ending in `.meta`) are
    not listed.
    """
    directory = Path(directory)
    if not directory.is_dir():
        return []
    names = (path.name.removesuffix(suffix) for path in directory.glob(f"*{suffix}"))
    return sorted(name for name in names if not name.startswith("_") and not name.endswith(".meta"))
