"""wordpack runtime: answers word-game queries from prebuilt artifacts.

Imports only numpy and msgpack (never pipeline, typer or tqdm); loads artifacts lazily.
"""

from lookup.errors import (
    ArtifactMissing,
    BadInput,
    CorruptArtifact,
    UnknownName,
    UnsupportedFormat,
    WordpackError,
)
from lookup.lexicon import lexicon

__all__ = [
    "ArtifactMissing",
    "BadInput",
    "CorruptArtifact",
    "UnknownName",
    "UnsupportedFormat",
    "WordpackError",
    "lexicon",
]
