"""Loading lexicons by name or path (cached, lazy: nothing is read until first asked)."""

import functools
from pathlib import Path

from lookup.dawg import Lexicon
from lookup.errors import unknown_name
from lookup.formats import DAWG_MAGIC, GADDAG_MAGIC, TRIE_MAGIC, require_file
from lookup.graph import read_graph
from lookup.paths import artifacts_dir, built_names

_MAGIC_BY_SUFFIX = {".dawg": DAWG_MAGIC, ".trie": TRIE_MAGIC, ".gaddag": GADDAG_MAGIC}


def lexicon_path(name: str, suffix: str = ".dawg") -> Path:
    """Where the artifact `suffix` of lexicon `name` lives (it may not be built yet)."""
    return artifacts_dir() / "lexicons" / f"{name}{suffix}"


def lexicon_names() -> list[str]:
    """The lexicons built in <artifacts>/lexicons (those with a .dawg), sorted."""
    return built_names(artifacts_dir() / "lexicons", ".dawg")


def _resolve(name_or_path) -> tuple[Path, str]:
    text = str(name_or_path)
    if "/" in text or text.endswith((".dawg", ".trie")):
        path = Path(text)
        name = path.stem
    elif lexicon_path(text).is_file():
        path, name = lexicon_path(text), text
    else:
        raise unknown_name("lexicon", text, lexicon_names(), "lexicons")
    return require_file(path, f"artifacts/lexicons/{name}{path.suffix}"), name


@functools.lru_cache(maxsize=None)
def _load(path: Path, name: str) -> Lexicon:
    magic = _MAGIC_BY_SUFFIX.get(path.suffix, DAWG_MAGIC)
    return Lexicon(read_graph(path, magic), name)


def lexicon(name_or_path) -> Lexicon:
    """Load a lexicon: a built name ("enable", "opentaal", "igerman98", "opencorpora-nouns": see
    lexicon_names) or the path of a .dawg or .trie file. Loaded once per process and cached.

    Raises:
        UnknownName: no lexicon of that name is built (the message lists those that are).
        ArtifactMissing: none is built at all (the message names the make target).
        ArtifactMissing: the path given does not exist.
        CorruptArtifact, UnsupportedFormat: the file cannot be trusted.
    """
    path, name = _resolve(name_or_path)
    return _load(path.resolve(), name)
