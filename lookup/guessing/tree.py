"""Reader of decision trees (`<game>.tree.msgpack`, `<game>.hard.tree.msgpack`).

The file is one msgpack array `[header, root]` (header first, as wordfreq's cBpack files):

  header: map with "format": "guess-tree", "version": 2, "game", "hard", "max_guesses",
          "depth_limit" (the guess limit the search used), "search_width" (0: exact),
          "root" (the opening word), "answers_sha256" / "guesses_sha256" (the word lists the
          indices refer to), "total", "max", "histogram" (answers solved at guess 1, 2, ...),
          "proven_optimal", "optimal_over", "opener_proven" (optional: absent means false),
          "root_choice", "screened", "nodes_visited", "guesses_evaluated", and
          "file_sha256", the file's seal (lookup/headers.py), checked at load.
  node:   array [guess, codes, children]: `guess` indexes the game's guess list, `codes` lists
          the feedback codes other than all-green in ascending order, and `children[i]` is the
          node played after `codes[i]`. A node whose guess is the only answer left has
          empty codes and children.

Nodes are arrays rather than maps keyed by code because msgpack >= 1.0 refuses integer map keys
unless every reader passes strict_map_key=False.
"""

import bisect
import functools

import msgpack

from lookup.formats import (
    TREE_EARLIEST_SUPPORTED_VERSION,
    TREE_FIELDS,
    TREE_FORMAT,
    TREE_VERSION,
    corrupt,
    require_file,
)
from lookup.headers import check_header, check_seal


class GuessTree:
    """A loaded decision tree.

    Attributes:
        header: the header map (see the module docstring).
        root: the root node [guess, codes, children].
    """

    def __init__(self, header: dict, root: list):
        self.header = header
        self.root = root

    def child(self, node: list, code: int):
        """The node after `node`'s guess got `code`, or None when the tree has no such branch."""
        codes = node[1]
        i = bisect.bisect_left(codes, code)
        if i < len(codes) and codes[i] == code:
            return node[2][i]
        return None

    def stats(self) -> dict:
        """{"total", "mean", "max", "histogram", "optimal"}; histogram maps guesses used ->
        answers; optimal is "over all openers", "for its opener" or "not proven".
        """
        histogram = self.header["histogram"]
        answers = sum(histogram)
        if not self.header["proven_optimal"]:
            optimal = "not proven"
        elif self.header.get("opener_proven", False):  # absent in trees built before proofs
            optimal = "over all openers"
        else:
            optimal = "for its opener"
        return {
            "total": self.header["total"],
            "mean": round(self.header["total"] / answers, 4),
            "max": self.header["max"],
            "histogram": {depth: count for depth, count in enumerate(histogram, 1) if count},
            "optimal": optimal,
        }


@functools.lru_cache(maxsize=None)
def load_tree(path, answers_sha256: str, guesses_sha256: str) -> GuessTree:
    """Load a tree and check that it indexes the given word lists.

    Args:
        path: the .tree.msgpack file.
        answers_sha256: sha256 of the game's answer list file.
        guesses_sha256: sha256 of the game's guess list file.

    Returns:
        The tree.

    Raises:
        ArtifactMissing: the file is missing.
        UnsupportedFormat: a format version this reader cannot read.
        CorruptArtifact: not a guess-tree, truncated, or built from other word lists.
    """
    target = str(path)
    path = require_file(path, target)
    raw = path.read_bytes()
    try:
        data = msgpack.unpackb(raw, raw=False)
    except (ValueError, msgpack.exceptions.ExtraData, msgpack.exceptions.UnpackException):
        raise corrupt(path, "not a complete msgpack guess-tree", target) from None
    if not isinstance(data, list) or len(data) != 2 or not isinstance(data[1], list):
        raise corrupt(path, f"not a {TREE_FORMAT} file: it should be [header, root]", target)
    header, root = data
    check_header(header, path, format=TREE_FORMAT, make_target=target,
                 versions=(TREE_EARLIEST_SUPPORTED_VERSION, TREE_VERSION), fields=TREE_FIELDS)
    check_seal(path, raw, "msgpack", target)
    if header["answers_sha256"] != answers_sha256 or header["guesses_sha256"] != guesses_sha256:
        raise corrupt(path, "built from other word lists than the game's", target)
    return GuessTree(header, root)
