"""Constants shared by the writers in pipeline/ and the readers in lookup/.

docs/FORMATS.md is the normative description; this module is its code form. Writers and readers
import these names rather than repeating numbers.
"""

import hashlib
import struct
from pathlib import Path

from lookup.errors import ArtifactMissing, CorruptArtifact, UnsupportedFormat, make_command

# --- Word graphs (.trie, .dawg, .gaddag) and their runtime indexes (.idx) ---------------------
# Version 4: two files per graph, built by one pipeline run (docs/FORMATS.md "Word graphs"),
# each carrying the sha256 of its whole self (GRAPH_SHA256_AT) that readers check on load.
# - The packed graph `<name>.<kind>` (shipped; clients/js/lexicon.js reads it): PACKED_HEADER,
#   the alphabet (UTF-8, zero-padded to a multiple of 8 bytes), the arcs section (the nodes in
#   pre-order, variable width, see PACKED_*), then with GRAPH_HAS_COUNTS the counts section
#   (one LEB128 varint per node: the words below it).
# - The runtime index `<name>.<kind>.idx` beside it (lookup/graph.py reads it, a memory map
#   and a header check): INDEX_HEADER, the alphabet, the words section (the root pointer, then
#   each node as its tile mask followed by its arcs, ARC_*), with GRAPH_HAS_COUNTS the counts
#   section (u32 per word), with GRAPH_HAS_MEMBERSHIP the membership section (a double array,
#   MEMBER_*). Everything Python's queries need is stored; nothing is computed at load.
TRIE_MAGIC = b"WPTRIE\x00\x00"
DAWG_MAGIC = b"WPDAWG\x00\x00"
GADDAG_MAGIC = b"WPGADDAG"
# The index of a graph of magic M has magic INDEX_MAGIC[M].
INDEX_MAGIC = {TRIE_MAGIC: b"WPTRIEIX", DAWG_MAGIC: b"WPDAWGIX", GADDAG_MAGIC: b"WPGADDIX"}
INDEX_SUFFIX = ".idx"
GRAPH_VERSION = 4
GRAPH_EARLIEST_SUPPORTED_VERSION = 4
# Both headers hold at this offset the file's sha256 taken with these 32 bytes zeroed
# (graph_file_sha256): one digest covers the whole file, header included.
GRAPH_SHA256_AT = 48
GRAPH_SHA256_BYTES = 32
# Rebuilds every word graph (a file of an older version names it in its error).
GRAPH_MAKE_TARGET = "lexicons"

# Packed graph header: magic, version, flags, header_size, input_sha256, file_sha256,
# word_count, node_count, arc_count, alphabet_bytes, arcs_bytes, counts_bytes, 24 reserved
# zero bytes.
PACKED_HEADER = struct.Struct("<8sHHI32s32sIIIIII24x")
assert PACKED_HEADER.size == 128
# Index header: magic, version, flags, header_size, graph_sha256 (the file_sha256 of the
# packed graph it was built from), file_sha256, word_count, node_count, arc_count (words in
# the words section after the zero word), alphabet_bytes, word_bytes, member_slots,
# member_root, 20 reserved zero bytes.
INDEX_HEADER = struct.Struct("<8sHHI32s32sIIIIIII20x")
assert INDEX_HEADER.size == 128


def graph_file_sha256(data) -> bytes:
    """The file_sha256 of a word graph file, packed or index: the sha256 of all its bytes with
    the field itself (GRAPH_SHA256_AT) zeroed.
    """
    view = memoryview(data)
    digest = hashlib.sha256(view[:GRAPH_SHA256_AT])
    digest.update(bytes(GRAPH_SHA256_BYTES))
    digest.update(view[GRAPH_SHA256_AT + GRAPH_SHA256_BYTES:])
    return digest.digest()
GRAPH_HAS_COUNTS = 0x1  # flags bit 0: the counts section is present (DAWG, trie)
GRAPH_HAS_MEMBERSHIP = 0x2  # flags bit 1 (index only): the membership section is present
GRAPH_ALIGNMENT = 8  # the alphabet is padded so that the next section starts on this boundary
MAX_VARINT_BYTES = 5  # a LEB128 varint of a u32 (references, counts) takes at most 5 bytes

# A packed arc is one head byte, then the tile byte when the head's tile field is
# PACKED_TILE_ESCAPE, then with PACKED_REF a LEB128 reference; without PACKED_REF the child
# node follows right there (its arcs, in pre-order). A node is its arcs, the last with
# PACKED_LAST. A node reached by one arc only is written where that arc is; a node reached by
# several (shared) is written at its first arc, with reference REF_NEW_SHARED, and later arcs
# name it by its shared number (in order of first appearance) + REF_SHARED_BASE.
PACKED_TILE_MASK = 0x1F  # bits 0-4: the tile, or PACKED_TILE_ESCAPE
PACKED_TILE_ESCAPE = 0x1F  # tiles 31..63: the tile is the next byte
PACKED_ACCEPTS = 0x20  # bit 5: the path ending with this arc spells a word
PACKED_LAST = 0x40  # bit 6: last arc of its node
PACKED_REF = 0x80  # bit 7: a reference follows (else the child is written next)
REF_NO_CHILD = 0
REF_NEW_SHARED = 1
REF_SHARED_BASE = 2

# Index words: 4 bytes while every tile mask fits in 32 bits (tiles 0..31), else 8.
NARROW_WORD_BYTES = 4
WIDE_WORD_BYTES = 8
NARROW_MAX_ALPHABET = 31
COUNT_BYTES = 4

# One index arc is one word (its high 32 bits zero when words are 8 bytes). Arcs of a node are
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

# Membership section: a double array of `member_slots` u32. A node has a base b >= 1 (no two
# nodes share one); its arc of tile t is slot b + t, which holds t | MEMBER_ACCEPTS | (the
# child's base << MEMBER_CHILD_SHIFT), base 0 for no child. A slot whose tile field is not t
# belongs to no arc of tile t of that node. member_root is the root's base (0: no words).
MEMBER_TILE_MASK = 0x3F
MEMBER_ACCEPTS = 0x40
MEMBER_CHILD_SHIFT = 7
MEMBER_MAX_BASE = (1 << 25) - 1
MEMBER_SLOT_BYTES = 4


def graph_word_bytes(alphabet_size: int) -> int:
    """Bytes per word of a graph index over `alphabet_size` letters (masks need tile bits 0..n)."""
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
# One text header line "# nerdle-equations rules=2 length=8 kind=answers count=17723
# file_sha256=<64 hex digits>", then one equation per line. The version is the `rules` field: it
# changes whenever the rules or the file's layout change (2: the header carries the seal).
EQUATIONS_FORMAT = "nerdle-equations"
EQUATIONS_VERSION = 2
EQUATIONS_EARLIEST_SUPPORTED_VERSION = 2
EQUATIONS_VERSION_KEY = "rules"
# The header's fields after the format name, in the order they are written.
EQUATIONS_FIELDS = {"rules": int, "length": int, "kind": str, "count": int, "file_sha256": str}

# --- Guessing games (docs/FORMATS.md "## guessing games") -------------------------------------
# games.json: the configured game ids and names, sealed (lookup/headers.py).
GAMES_INDEX_NAME = "games.json"
GAMES_INDEX_FORMAT = "guess-games"
GAMES_INDEX_VERSION = 2
GAMES_INDEX_EARLIEST_SUPPORTED_VERSION = 2
GAMES_INDEX_FIELDS = {"games": dict, "file_sha256": str}
# <game>.answers.txt, <game>.guesses.txt: one word per line, no header (sidecar format name);
# the descriptor holds their sha256, which every reader checks.
GAME_LIST_FORMAT = "guess-game-list"
GAME_LIST_VERSION = 1
# <game>.game.json: the game descriptor (alphabet, length, word-list files and their sha256),
# sealed.
GAME_FORMAT = "guess-game"
GAME_VERSION = 2
GAME_EARLIEST_SUPPORTED_VERSION = 2
_WORD_LIST_FIELDS = {"file": str, "count": int, "sha256": str}
GAME_FIELDS = {
    "id": str, "name": str, "alphabet": str, "length": int, "max_guesses": int,
    "root": (str, type(None)), "opener_candidates": int, "search_width": int,
    "guess_rules": (str, type(None)), "file_sha256": str,
    **{f"{role}.{key}": kind for role in ("answers", "guesses")
       for key, kind in _WORD_LIST_FIELDS.items()},
}
# <game>.feedback.npy + <game>.feedback.json (the header tying the matrix to its word lists and
# to the .npy's sha256; the header is sealed).
FEEDBACK_FORMAT = "feedback-matrix"
FEEDBACK_VERSION = 2
FEEDBACK_EARLIEST_SUPPORTED_VERSION = 2
FEEDBACK_FIELDS = {
    "game": str, "length": int, "dtype": str, "shape": list, "sha256": str, "file_sha256": str,
    "guesses.file": str, "guesses.sha256": str, "answers.file": str, "answers.sha256": str,
}
# <game>.tree.msgpack / <game>.hard.tree.msgpack: [header, root], sealed (lookup/headers.py);
# a node is [guess_index, codes, children] with codes ascending and children[i] the node for
# codes[i].
TREE_FORMAT = "guess-tree"
TREE_VERSION = 2
TREE_EARLIEST_SUPPORTED_VERSION = 2
TREE_FIELDS = {
    "game": str, "hard": bool, "max_guesses": int, "depth_limit": int, "search_width": int,
    "root": str, "answers_sha256": str, "guesses_sha256": str, "total": int, "max": int,
    "histogram": list, "proven_optimal": bool, "optimal_over": str, "root_choice": str,
    "screened": list, "nodes_visited": int, "guesses_evaluated": int, "file_sha256": str,
}
# <game>.proof.parquet: every opener's exact total or a proven bound (the tree build reads it).
# Version 2 is sealed (file_sha256 in the schema metadata: pipeline/sealed_parquet.py).
PROOF_FORMAT = "opener-proof"
PROOF_VERSION = 2
PROOF_EARLIEST_SUPPORTED_VERSION = 2
# <game>.openers.parquet (analysts only; the runtime never reads it). Version 2 carries format
# and version in its schema metadata and is sealed.
OPENERS_FORMAT = "opener-table"
OPENERS_VERSION = 2

# --- Crossword games (docs/FORMATS.md "## crossword games") -----------------------------------
# <id>.json: one game's rules, read by lookup/crossword/rules.py.
CROSSWORD_RULES_FORMAT = "crossword-rules"
# Version 2 added `placement` and `repeat_words`; version 3 is sealed (file_sha256, like the
# guessing descriptors: lookup/headers.py).
CROSSWORD_RULES_VERSION = 3
CROSSWORD_RULES_EARLIEST_SUPPORTED_VERSION = 3
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
# Version 2 is sealed (file_sha256).
MANIFEST_VERSION = 2
MANIFEST_EARLIEST_SUPPORTED_VERSION = 2
MANIFEST_FIELDS = {"artifacts": list}

# Leave tables (lookup/crossword/leaves.py): artifacts/leaves/<game>.leaves
LEAVES_FORMAT = "leave-values"
LEAVES_VERSION = 2
LEAVES_EARLIEST_SUPPORTED_VERSION = 2
LEAVES_FIELDS = {"game": str, "alphabet": str, "counts": list, "max_tiles": int, "leaves": int,
                 "scale": int, "recipe": dict, "file_sha256": str}
# Values are stored as int16 multiples of 1/LEAVES_SCALE points (+-128 points).
LEAVES_SCALE = 256
