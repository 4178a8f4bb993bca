"""Leave values: what the tiles a move keeps on the rack are worth, in points, per game.

    table = read_leaves(leaves_path("scrabble-en"), rules)   # cw.leaves() caches it
    table.value("?s")                        # points; 0.0 for the empty leave
    table.lookup(keys)                       # many leave keys at once (numpy)

A leave is a multiset of 1 to rack_size - 1 tiles of the game's set (never more of a letter,
or more blanks, than the set holds), keyed as lookup/crossword/tiles.py says: 1 followed by one
base-64 digit per tile in ascending order, the blank as digit 0 and letter alphabet[k - 1] as
digit k. The file stores one value per leave in ascending key order;
the reader enumerates the keys again from the rules (`leave_keys`), so a lookup is a binary
search over a sorted int64 array. The file format is in docs/FORMATS.md ("Leave tables").
"""

import msgpack
import numpy as np

from lookup.crossword.rules import Rules
from lookup.crossword.tiles import EMPTY_LEAVE, LEAVE_DIGIT, key_of_codes
from lookup.errors import BadInput
from lookup.formats import (
    LEAVES_EARLIEST_SUPPORTED_VERSION,
    LEAVES_FIELDS,
    LEAVES_FORMAT,
    LEAVES_VERSION,
    corrupt,
    require_file,
)
from lookup.headers import check_header, check_seal
from lookup.paths import artifacts_dir

MAKE_TARGET = "leaves"


def leave_keys(counts, max_tiles: int) -> np.ndarray:
    """The key of every leave of 1 to `max_tiles` tiles, ascending.

    Args:
        counts: tiles of each code in the set (TileSet.counts).
        max_tiles: the longest leave (a rack's size minus one).

    Keys of n tiles lie in [64^n, 2 * 64^n), so the leaves come by size, then by tiles.
    """
    keys = np.array([EMPTY_LEAVE], dtype=np.int64)
    last = np.array([-1], dtype=np.int64)  # the largest code in the leave
    run = np.array([0], dtype=np.int64)  # how many of it
    levels = []
    for _ in range(max_tiles):
        grown_keys, grown_last, grown_run = [], [], []
        for code, limit in enumerate(counts):
            if not limit:
                continue
            fresh = last < code
            repeat = (last == code) & (run < limit)
            for rows, runs in ((fresh, np.ones(int(fresh.sum()), dtype=np.int64)),
                               (repeat, run[repeat] + 1)):
                grown_keys.append(keys[rows] * LEAVE_DIGIT + code)
                grown_last.append(np.full(len(runs), code, dtype=np.int64))
                grown_run.append(runs)
        keys = np.concatenate(grown_keys)
        order = np.argsort(keys, kind="stable")
        keys, last, run = keys[order], np.concatenate(grown_last)[order], \
            np.concatenate(grown_run)[order]
        levels.append(keys)
    return np.concatenate(levels) if levels else np.zeros(0, dtype=np.int64)


class LeaveValues:
    """A game's leave table: the value in points of every leave of 1 to max_tiles tiles.

    Args:
        rules: the game's rules.
        values: one value per leave in leave_keys order (float).
        header: the file's header (training recipe), {} when made in memory.
    """

    def __init__(self, rules: Rules, values, header: dict | None = None):
        self.rules = rules
        self.max_tiles = rules.rack_size - 1
        self.keys = leave_keys(rules.tiles.counts, self.max_tiles)
        self.values = np.asarray(values, dtype=np.float64)
        if len(self.values) != len(self.keys):
            raise ValueError(f"{len(self.values)} values for {len(self.keys)} leaves")
        self.header = header or {}

    def __len__(self):
        """The number of leaves."""
        return len(self.keys)

    def lookup(self, keys) -> np.ndarray:
        """Values of leave keys (an int64 array); 0.0 for the empty leave and for keys that are
        not leaves of the table (a whole rack).
        """
        keys = np.asarray(keys, dtype=np.int64)
        at = np.searchsorted(self.keys, keys)
        at = np.minimum(at, len(self.keys) - 1)
        found = self.keys[at] == keys
        return np.where(found, self.values[at], 0.0)

    def value(self, tiles: str) -> float:
        """The value of a leave written as text ("?" a blank), whatever the tile order.

        Raises:
            BadInput: a character outside the game, more tiles than a leave keeps, or more of
                a tile than the set has.
        """
        tiles = "".join(tiles.split())
        if len(tiles) > self.max_tiles:
            raise BadInput(f"leave {tiles!r} has {len(tiles)} tiles; a {self.rules.id} leave "
                           f"holds at most {self.max_tiles} (a rack holds {self.rules.rack_size})")
        codes = self.rules.tiles.codes(tiles, "leave")
        if not codes:
            return 0.0
        return float(self.lookup([key_of_codes(codes)])[0])


def read_leaves(path, rules: Rules) -> LeaveValues:
    """Read a leave table written for these rules.

    Raises:
        ArtifactMissing: no such file.
        CorruptArtifact, UnsupportedFormat: not a leave table, or one made for other rules.
    """
    path = require_file(path, MAKE_TARGET)
    raw = path.read_bytes()
    try:
        header, data = msgpack.unpackb(raw, raw=False)
    except (ValueError, TypeError, msgpack.UnpackException) as error:
        raise corrupt(path, f"not a leave table ({error})", MAKE_TARGET) from None
    check_header(header, path, format=LEAVES_FORMAT,
                 versions=(LEAVES_EARLIEST_SUPPORTED_VERSION, LEAVES_VERSION),
                 fields=LEAVES_FIELDS, make_target=MAKE_TARGET)
    check_seal(path, raw, "msgpack", MAKE_TARGET)
    if (header["alphabet"] != rules.alphabet or header["counts"] != rules.tiles.counts
            or header["max_tiles"] != rules.rack_size - 1):
        raise corrupt(path, f"made for other {rules.id} rules (alphabet, tile counts or rack "
                      "size differ)", MAKE_TARGET)
    if not isinstance(data, bytes) or len(data) != 2 * header["leaves"]:
        raise corrupt(path, f"holds {len(data) // 2} values for {header['leaves']} leaves",
                      MAKE_TARGET)
    values = np.frombuffer(data, dtype="<i2").astype(np.float64) / header["scale"]
    try:
        return LeaveValues(rules, values, header)
    except ValueError as error:
        raise corrupt(path, str(error), MAKE_TARGET) from None


def leaves_path(game_id: str):
    """Where the runtime reads a game's leave table."""
    return artifacts_dir() / "leaves" / f"{game_id}.leaves"
