"""Exceptions raised by the runtime. Every message is one line: what is wrong and what to do."""


def make_command(make_target: str = "") -> str:
    """The command that builds `make_target` (`make` alone for "")."""
    return f"make {make_target}" if make_target else "make"


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

    def __init__(self, path, found, need, make_target: str = ""):
        self.path = path
        self.found = found
        self.need = need
        self.make_target = make_target
        super().__init__(
            f"{path}: format version {found} is not supported (this reader reads {need}); "
            f"rebuild it with `{make_command(make_target)}` or upgrade wordpack"
        )

    def __reduce__(self):
        """Pickle with the constructor's arguments, so the error crosses process boundaries
        (a match's or a training run's workers) whole instead of breaking the pool receiving it.
        """
        return (type(self), (self.path, self.found, self.need, self.make_target))


def unknown_name(kind: str, name: str, built: list[str],
                 make_target: str) -> UnknownName | ArtifactMissing:
    """The error for a name that is not built: it lists what is, or says what builds them.

    UnknownName when some are built (the name is wrong); ArtifactMissing when none is (the
    build is what is missing, whatever the name).

    Args:
        kind: what was asked for, e.g. "lexicon".
        name: the unknown name.
        built: the names that are built.
        make_target: the make target that builds every configured one, e.g. "lexicons".
    """
    if built:
        return UnknownName(f"unknown {kind} {name!r}: the built ones are {', '.join(built)}")
    return ArtifactMissing(f"unknown {kind} {name!r}: none is built yet; run "
                       f"`{make_command(make_target)}` to build them")
