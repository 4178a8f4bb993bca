"""Reading plain word lists: UTF-8, one word per line, every line ending in "\\n".

The lexicons' normalized lists (artifacts/lexicons/<name>.txt), the guessing games' answer and
guess lists (artifacts/guessing/<id>.answers.txt, .guesses.txt) and the committed source lists
are all read here, by the build and the runtime alike. Lines starting with '#' are comments (no
alphabet has '#'; hand-written fixture lists use them) and empty lines are skipped.
"""

from lookup.formats import corrupt, require_file


def read_word_list(path, make_target: str = "") -> list[str]:
    """The words of a list file, in file order.

    Args:
        path: the list.
        make_target: what builds it (`make <make_target>`); by default the path itself.

    Raises:
        ArtifactMissing: the file does not exist.
        CorruptArtifact: not UTF-8, or the last line has no newline (a truncated file).
    """
    path = require_file(path, make_target or str(path))
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise corrupt(path, "not UTF-8 text", make_target) from None
    if text and not text.endswith("\n"):
        raise corrupt(path, "last line has no newline (truncated?)", make_target)
    return [line for line in text.split("\n")[:-1] if line and not line.startswith("#")]
