"""wordpack runtime: answers word-game queries from prebuilt artifacts.

Imports only numpy and msgpack (never pipeline, typer or tqdm); loads artifacts lazily.
`lexicon` needs neither; the game modules (and numpy) are imported on first use of
`guessing_game` or `crossword_game`, so a word lookup starts fast.
"""

from lookup.errors import (
    ArtifactMissing,
    BadInput,
    CorruptArtifact,
    UnknownName,
    UnsupportedFormat,
    WordpackError,
)
from lookup.lexicon import lexicon, lexicon_names

_LAZY = {"guessing_game": "lookup.guessing.game", "guessing_game_names": "lookup.guessing.game",
         "crossword_game": "lookup.crossword.game"}

__all__ = [
    "ArtifactMissing",
    "BadInput",
    "CorruptArtifact",
    "UnknownName",
    "UnsupportedFormat",
    "WordpackError",
    "crossword_game",
    "guessing_game",
    "guessing_game_names",
    "lexicon",
    "lexicon_names",
]


def __getattr__(name):
    if name in _LAZY:
        import importlib

        value = getattr(importlib.import_module(_LAZY[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'lookup' has no attribute {name!r}")
