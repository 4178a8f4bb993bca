"""Constants shared by the writers in pipeline/ and the readers in lookup/.

docs/FORMATS.md is the normative description; this module is its code form. Writers and readers
import these names rather than repeating numbers.
"""

import hashlib
import struct
from pathlib import Path

from lookup.errors import ArtifactMissing, CorruptArtifact, UnsupportedFormat, make_command

# --- Word-graph files (.trie, .dawg, .gaddag) -------------------------------------------------
# Layout (version 2): fixed header (GRAPH_HEADER), alphabet (UTF-8, zero-padded to a multiple of
# 8 bytes), then the words section: one zero word, then `arc_count` little-endian words of
# `word_bytes` (4, or 8 when the alphabet has 32 letters or more): the root pointer, then each
# node as its tile mask followed by its arcs. With GRAPH_HAS_COUNTS (DAWG, trie) a counts
# section of `arc_count` u32 follows. Nothing else: the file size follows from the header.
TRIE_MAGIC = b"WPTRIE\x00\x00"
DAWG_MAGIC = b"WPDAWG\x00\x00"
GADDAG_MAGIC = b"WPGADDAG"
GRAPH_VERSION = 2
GRAPH_EARLIEST_SUPPORTED_VERSION = 2
# Rebuilds every word graph (a file of an older version names it in its error).
GRAPH_MAKE_TARGET = "lexicons"

# magic, version, flags, header_size, input_sha256, payload_sha256,
# word_count, node_count, arc_count, alphabet_bytes, word_bytes, then 28 reserved zero bytes
GRAPH_HEADER = struct.Struct("<8sHHI32s32sIIIII28x")
assert GRAPH_HEADER.size == 128
GRAPH_HAS_COUNTS = 0x1  # flags bit 0: the perfect-hash counts section is present
GRAPH_ALIGNMENT = 8  # the alphabet is padded so that the words section starts on this boundary
# Word width: 4 bytes while every tile mask fits in 32 bits (tiles 0..31), else 8.
NARROW_WORD_BYTES = 4
WIDE_WORD_BYTES = 8
NARROW_MAX_ALPHABET = 31
COUNT_BYTES = 4

# One arc is one word (its high 32 bits zero when words are 8 bytes). Arcs of a node are
# contiguous, sorted by tile, the last one has ARC_LAST; the word before a node's first arc is
# its tile mask (bit k set when the node has an arc of tile k).
ARC_TILE_MASK = 0x3F  # bits 0-5: 0 = GADDAG separator, k = alphabet[k - 1]
ARC_ACCEPTS = 0x40  # bit 6: the path ending with this arc spells a word
ARC_LAST = 0x80  # bit 7: last arc of its node
ARC_CHILD_SHIFT = 8  # bits 8-31: index of the child node's first arc, 0 = no child
ARC_MAX_INDEX = (1 << 24) - 1
SEPARATOR_TILE = 0
MAX_ALPHABET = ARC_TILE_MASK  # tiles 1..63
# Arc 0 is the root pointer: its child field is the index of the root node (0 if no words).
ROOT_POINTER_INDEX = 0


def graph_word_bytes(alphabet_size: int) -> int:
    """Bytes per word of a word graph over `alphabet_size` letters (masks need tile bits 0..n)."""
    return NARROW_WORD_BYTES if alphabet_size <= NARROW_MAX_ALPHABET else WIDE_WORD_BYTES


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


def check_version(path, found: int, earliest: int, current: int, make_target: str = "") -> None:
    """Raise UnsupportedFormat unless earliest <= found <= current."""
    if not earliest <= found <= current:
        need = str(current) if earliest == current else f"{earliest}..{current}"
        raise UnsupportedFormat(path, found, need, make_target)


def corrupt(path, what: str, make_target: str = "") -> CorruptArtifact:
    """A CorruptArtifact with the standard advice appended: rebuild with `make <make_target>`."""
    return CorruptArtifact(f"{path}: {what}; delete it and run `{make_command(make_target)}` to "
                           "rebuild")


# --- Normalized word lists (docs/FORMATS.md "## Normalized word lists") ----------------------
# artifacts/lexicons/<name>.txt: no header; the version is recorded in the provenance sidecar.
LEXICON_LIST_FORMAT = "lexicon-list"
LEXICON_LIST_VERSION = 1

# --- Nerdle equation lists (docs/FORMATS.md "## nerdle equations") --------------------------
# One text header line "# nerdle-equations rules=1 length=8 kind=answers count=17723", then one
# equation per line. The version is the `rules` field: it changes whenever the rules change.
EQUATIONS_FORMAT = "nerdle-equations"
EQUATIONS_VERSION = 1
EQUATIONS_EARLIEST_SUPPORTED_VERSION = 1
EQUATIONS_VERSION_KEY = "rules"
# The header's fields after the format name, in the order they are written.
EQUATIONS_FIELDS = {"rules": int, "length": int, "kind": str, "count": int}

# --- Guessing games (docs/FORMATS.md "## guessing games") -------------------------------------
# games.json: the configured game ids and names.
GAMES_INDEX_NAME = "games.json"
GAMES_INDEX_FORMAT = "guess-games"
GAMES_INDEX_VERSION = 1
GAMES_INDEX_EARLIEST_SUPPORTED_VERSION = 1
GAMES_INDEX_FIELDS = {"games": dict}
# <game>.answers.txt, <game>.guesses.txt: one word per line, no header (sidecar format name).
GAME_LIST_FORMAT = "guess-game-list"
# <game>.game.json: the game descriptor (alphabet, length, word-list files and their sha256).
GAME_FORMAT = "guess-game"
GAME_VERSION = 1
GAME_EARLIEST_SUPPORTED_VERSION = 1
_WORD_LIST_FIELDS = {"file": str, "count": int, "sha256": str}
GAME_FIELDS = {
    "id": str, "name": str, "alphabet": str, "length": int, "max_guesses": int,
    "root": (str, type(None)), "opener_candidates": int, "search_width": int,
    "guess_rules": (str, type(None)),
    **{f"{role}.{key}": kind for role in ("answers", "guesses")
       for key, kind in _WORD_LIST_FIELDS.items()},
}
# <game>.feedback.npy + <game>.feedback.json (the header tying the matrix to its word lists).
FEEDBACK_FORMAT = "feedback-matrix"
FEEDBACK_VERSION = 1
FEEDBACK_EARLIEST_SUPPORTED_VERSION = 1
FEEDBACK_FIELDS = {
    "game": str, "length": int, "dtype": str, "shape": list, "sha256": str,
    "guesses.file": str, "guesses.sha256": str, "answers.file": str, "answers.sha256": str,
}
# <game>.tree.msgpack / <game>.hard.tree.msgpack: [header, root]; a node is
# [guess_index, codes, children] with codes ascending and children[i] the node for codes[i].
TREE_FORMAT = "guess-tree"
TREE_VERSION = 1
TREE_EARLIEST_SUPPORTED_VERSION = 1
TREE_FIELDS = {
    "game": str, "hard": bool, "max_guesses": int, "depth_limit": int, "search_width": int,
    "root": str, "answers_sha256": str, "guesses_sha256": str, "total": int, "max": int,
    "histogram": list, "proven_optimal": bool, "optimal_over": str, "root_choice": str,
    "screened": list, "nodes_visited": int, "guesses_evaluated": int,
}
# <game>.proof.parquet: every opener's exact total or a proven bound (the tree build reads it).
PROOF_FORMAT = "opener-proof"
PROOF_VERSION = 1
# <game>.openers.parquet (analysts only; the runtime never reads it).
OPENERS_FORMAT = "opener-table"
OPENERS_VERSION = 1

# --- Crossword games (docs/FORMATS.md "## crossword games") -----------------------------------
# <id>.json: one game's rules, read by lookup/crossword_rules.py.
CROSSWORD_RULES_FORMAT = "crossword-rules"
# Version 2 added `placement` and `repeat_words`; a version 1 file lacks them.
CROSSWORD_RULES_VERSION = 2
CROSSWORD_RULES_EARLIEST_SUPPORTED_VERSION = 2
# The header fields every rules file has; rules_from_dict checks the rules themselves.
CROSSWORD_RULES_FIELDS = {"config_sha256": str, "id": str}
# The blank: its key in the rules' tile table, a blank in racks and exchanges, and one letter
# in lexicon queries (anagrams, unscramble, match).
BLANK_SYMBOL = "?"

# --- Crossword self-play files (docs/FORMATS.md "### Self-play files") -------------------------
SELFPLAY_FORMAT = "crossword-selfplay"
SELFPLAY_VERSION = 1
SELFPLAY_FIELDS = {"game": str, "seed": int, "games": int, "positions": list, "results": list}

# --- Provenance sidecars and the manifest (docs/FORMATS.md) ----------------------------------
MANIFEST_NAME = "manifest.json"
MANIFEST_FORMAT = "wordpack-manifest"
MANIFEST_VERSION = 1

# Leave tables (lookup/leaves.py): artifacts/leaves/<game>.leaves
LEAVES_FORMAT = "leave-values"
LEAVES_VERSION = 1
LEAVES_EARLIEST_SUPPORTED_VERSION = 1
LEAVES_FIELDS = {"game": str, "alphabet": str, "counts": list, "max_tiles": int, "leaves": int,
                 "scale": int, "recipe": dict}
# Values are stored as int16 multiples of 1/LEAVES_SCALE points (+-128 points).
LEAVES_SCALE = 256
