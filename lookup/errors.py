"""Exceptions raised by the runtime. Every message is one line: what is wrong and what to do."""


class WordpackError(Exception):
    """Base class of every error wordpack raises on purpose (the CLI prints it as one line)."""


class BadInput(WordpackError, ValueError):
    """A query the caller got wrong: letters outside the alphabet, a malformed pattern, ..."""


class UnknownName(WordpackError, ValueError):
    """An unknown lexicon or game id."""


class ArtifactMissing(WordpackError, FileNotFoundError):
    """An artifact that has not been built; the message names the make target that builds it."""


class CorruptArtifact(WordpackError):
    """An artifact that is truncated, fails its checksum, or is not the file it claims to be."""


class UnsupportedFormat(WordpackError):
    """An artifact written in a format version this reader cannot read."""

    def __init__(self, path, found, need, rebuild: str = "make"):
        self.found = found
        self.need = need
        super().__init__(
            f"{path}: format version {found} is not supported (this reader reads {need}); "
            f"rebuild it with `{rebuild}` or upgrade wordpack"
        )
