"""Constants shared by the writers in pipeline/ and the readers in lookup/.

docs/FORMATS.md is the normative description; this module is its code form. Writers and readers
import these names rather than repeating numbers.
"""

import hashlib
import struct
from pathlib import Path

from lookup.errors import ArtifactMissing, CorruptArtifact, UnsupportedFormat

# --- Word-graph files (.trie, .dawg, .gaddag) -------------------------------------------------
# Layout: fixed header (GRAPH_HEADER), alphabet (UTF-8, zero-padded to a multiple of 4 bytes),
# then the payload: `arc_count` little-endian u32 arcs. The file is exactly
# header_size + 4 * arc_count bytes long.
TRIE_MAGIC = b"WPTRIE\x00\x00"
DAWG_MAGIC = b"WPDAWG\x00\x00"
GADDAG_MAGIC = b"WPGADDAG"
GRAPH_VERSION = 1
GRAPH_EARLIEST_SUPPORTED_VERSION = 1

# magic, version, flags, header_size, input_sha256, payload_sha256,
# word_count, node_count, arc_count, alphabet_bytes
GRAPH_HEADER = struct.Struct("<8sHHI32s32sIIII")
assert GRAPH_HEADER.size == 96

# One arc is one u32. Arcs of a node are contiguous, sorted by tile, the last one has ARC_LAST.
ARC_TILE_MASK = 0x3F  # bits 0-5: 0 = GADDAG separator, k = alphabet[k - 1]
ARC_ACCEPTS = 0x40  # bit 6: the path ending with this arc spells a word
ARC_LAST = 0x80  # bit 7: last arc of its node
ARC_CHILD_SHIFT = 8  # bits 8-31: index of the child node's first arc, 0 = no child
ARC_MAX_INDEX = (1 << 24) - 1
SEPARATOR_TILE = 0
SEPARATOR_CHAR = "^"  # how the GADDAG separator is written in docs and tests
MAX_ALPHABET = ARC_TILE_MASK  # tiles 1..63
# Arc 0 is the root pointer: its child field is the index of the root node (0 if no words).
ROOT_POINTER_INDEX = 0


def sha256_file(path) -> str:
    """Hex sha256 of a file's bytes."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def require_file(path, make_target: str) -> Path:
    """Return `path` as a Path, or raise ArtifactMissing naming the make target that builds it."""
    path = Path(path)
    if not path.is_file():
        raise ArtifactMissing(f"{path} does not exist: run `make {make_target}` to build it")
    return path


def check_version(path, found: int, earliest: int, current: int, rebuild: str = "make") -> None:
    """Raise UnsupportedFormat unless earliest <= found <= current; `rebuild` is the command
    the message names to rebuild the file."""
    if not earliest <= found <= current:
        need = str(current) if earliest == current else f"{earliest}..{current}"
        raise UnsupportedFormat(path, found, need, rebuild)


def corrupt(path, what: str) -> CorruptArtifact:
    """A CorruptArtifact with the standard advice appended."""
    return CorruptArtifact(f"{path}: {what}; delete it and run `make` to rebuild")


# --- Guessing games (docs/FORMATS.md "## guessing games") -------------------------------------
# <game>.game.json: the game descriptor (alphabet, length, word-list files and their sha256).
GAME_FORMAT = "guess-game"
GAME_VERSION = 1
GAME_EARLIEST_SUPPORTED_VERSION = 1
# <game>.feedback.npy + <game>.feedback.json (the header tying the matrix to its word lists).
FEEDBACK_FORMAT = "feedback-matrix"
FEEDBACK_VERSION = 1
FEEDBACK_EARLIEST_SUPPORTED_VERSION = 1
# <game>.tree.msgpack / <game>.hard.tree.msgpack: [header, root]; a node is
# [guess_index, codes, children] with codes ascending and children[i] the node for codes[i].
TREE_FORMAT = "guess-tree"
TREE_VERSION = 1
TREE_EARLIEST_SUPPORTED_VERSION = 1
# <game>.openers.parquet (analysts only; the runtime never reads it).
OPENERS_FORMAT = "opener-table"
OPENERS_VERSION = 1

# --- Crossword games (docs/FORMATS.md "## crossword games") -----------------------------------
# <id>.json: one game's rules, read by lookup/crossword_rules.py.
CROSSWORD_RULES_FORMAT = "crossword-rules"
# Version 2 added `placement` and `repeat_words`; a version 1 file lacks them.
CROSSWORD_RULES_VERSION = 2
CROSSWORD_RULES_EARLIEST_SUPPORTED_VERSION = 2
# The blank: its key in the rules' tile table, a blank in racks and exchanges, and one letter
# in lexicon queries (anagrams, unscramble, match).
BLANK_SYMBOL = "?"
