"""Loading lexicons by name or path (cached, lazy: nothing is read until first asked)."""

import functools
from pathlib import Path

from lookup.dawg import Lexicon
from lookup.errors import UnknownName
from lookup.formats import DAWG_MAGIC, GADDAG_MAGIC, TRIE_MAGIC, require_file
from lookup.graph import read_graph
from lookup.paths import artifacts_dir

LEXICONS = ("enable", "opentaal", "igerman98", "opencorpora-nouns")
_MAGIC_BY_SUFFIX = {".dawg": DAWG_MAGIC, ".trie": TRIE_MAGIC, ".gaddag": GADDAG_MAGIC}


def lexicon_path(name: str, suffix: str = ".dawg") -> Path:
    """Where the artifact `suffix` of lexicon `name` lives (it may not be built yet)."""
    return artifacts_dir() / "lexicons" / f"{name}{suffix}"


def _resolve(name_or_path) -> tuple[Path, str]:
    text = str(name_or_path)
    if "/" in text or text.endswith((".dawg", ".trie")):
        path = Path(text)
        name = path.stem
    elif text in LEXICONS or lexicon_path(text).is_file():
        path, name = lexicon_path(text), text
    else:
        raise UnknownName(f"unknown lexicon {text!r}: choose one of {', '.join(LEXICONS)} "
                          "or give the path of a .dawg file")
    return require_file(path, f"artifacts/lexicons/{name}{path.suffix}"), name


@functools.lru_cache(maxsize=None)
def _load(path: Path, name: str) -> Lexicon:
    magic = _MAGIC_BY_SUFFIX.get(path.suffix, DAWG_MAGIC)
    return Lexicon(read_graph(path, magic), name)


def lexicon(name_or_path) -> Lexicon:
    """Load a lexicon: a name ("enable", "opentaal", "igerman98", "opencorpora-nouns") or the
    path of a .dawg or .trie file. Loaded once per process and cached.

    Raises:
        UnknownName: not a known lexicon.
        ArtifactMissing: not built yet (the message names the make target).
        CorruptArtifact, UnsupportedFormat: the file cannot be trusted.
    """
    path, name = _resolve(name_or_path)
    return _load(path.resolve(), name)
