"""Leave packs: a crossword game's leave table in the compact form the move-finder page loads.

A leave table (artifacts/leaves/<id>.leaves, lookup/crossword/leaves.py) holds one int16 per
leave, the value in steps of 1/256 point: 1.83 MB for scrabble-en, 1.64 MB gzipped, because
the values at that resolution are close to noise (13.5 bits of entropy each). But most of a
value is predictable from the leaves one tile shorter (the training smooths thin leaves toward
exactly such a prior, pipeline/train_leaves.py): the pack stores each value's difference from
that prediction, which the reader (clients/js/leaves.js) makes again from the values it has
decoded already, so every value comes back exactly (0.90 MB gzipped for scrabble-en). The
format is in docs/FORMATS.md ("Leave packs"); the names below are shared with the reader.

Prediction of a leave L of n >= 2 tiles (ascending codes c_1..c_n): S = the sum over i of
value(L - c_i) + value(c_i), and prediction = floor((2S + n) / 2n) (S / n rounded half up);
0 for one tile. Residual = value - prediction, zig-zag coded (0, -1, 1, -2, ... -> 0, 1, 2, 3,
...): a code below ESCAPE is one byte of the residuals section, a larger one is the byte ESCAPE
there and the code minus ESCAPE as an LEB128 varint in the escapes section.
"""

import gzip
from pathlib import Path

import msgpack
import numpy as np

from lookup.crossword.leaves import leave_keys
from lookup.crossword.tiles import LEAVE_DIGIT
from lookup.errors import BadInput
from lookup.formats import LEAVES_FORMAT
from lookup.headers import SEAL_FIELD, SEAL_ZEROS, check_seal, sealed
from pipeline.atomic import atomic_output

PACK_FORMAT = "leave-pack"
PACK_VERSION = 1
ESCAPE = 255
PACK_SUFFIX = ".leaves.pack.gz"


def _digits(keys: np.ndarray, n: int) -> np.ndarray:
    """The n codes of each leave key, ascending (a row per key)."""
    digits = np.zeros((len(keys), n), dtype=np.int64)
    rest = keys.copy()
    for p in range(n - 1, -1, -1):
        digits[:, p] = rest % LEAVE_DIGIT
        rest //= LEAVE_DIGIT
    return digits


def predictions(values: np.ndarray, counts: list[int], max_tiles: int) -> np.ndarray:
    """The prediction of every leave from the values of the leaves one tile shorter (module
    docstring), in the order of lookup/crossword/leaves.py's keys.
    """
    keys = leave_keys(counts, max_tiles)
    values = np.asarray(values, dtype=np.int64)
    predicted = np.zeros(len(keys), dtype=np.int64)
    for n in range(2, max_tiles + 1):
        first, last = np.searchsorted(keys, [LEAVE_DIGIT ** n, 2 * LEAVE_DIGIT ** n])
        digits = _digits(keys[first:last], n)
        total = np.zeros(last - first, dtype=np.int64)
        for p in range(n):
            without = np.ones(last - first, dtype=np.int64)
            for q in range(n):
                if q != p:
                    without = without * LEAVE_DIGIT + digits[:, q]
            single = LEAVE_DIGIT + digits[:, p]
            total += values[np.searchsorted(keys, without)] + values[np.searchsorted(keys, single)]
        predicted[first:last] = (2 * total + n) // (2 * n)
    return predicted


def _varints(numbers) -> bytes:
    out = bytearray()
    for number in numbers:
        while number >= 0x80:
            out.append(number & 0x7F | 0x80)
            number >>= 7
        out.append(number)
    return bytes(out)


def pack_leaves(source: Path) -> bytes:
    """The leave pack (gzipped) of the leave table `source`.

    Raises:
        BadInput: `source` is not a leave table.
        CorruptArtifact: its seal does not match its bytes.
    """
    raw = Path(source).read_bytes()
    header, data = msgpack.unpackb(raw, raw=False)
    if not isinstance(header, dict) or header.get("format") != LEAVES_FORMAT:
        raise BadInput(f"{source}: not a leave table")
    check_seal(source, raw, "msgpack", "leaves")  # a damaged table never becomes a good pack
    return pack_values(header, np.frombuffer(data, dtype="<i2"))


def pack_values(header: dict, values: np.ndarray) -> bytes:
    """The leave pack (gzipped) of a leave table's values (int16, in 1/scale points) under its
    header (the game, its alphabet, tile counts, max_tiles, leaves and scale).
    """
    values = np.asarray(values, dtype=np.int64)
    residual = values - predictions(values, header["counts"], header["max_tiles"])
    zigzag = np.where(residual >= 0, 2 * residual, -2 * residual - 1)
    escaped = zigzag >= ESCAPE
    pack_header = {"format": PACK_FORMAT, "version": PACK_VERSION, "game": header["game"],
                   "alphabet": header["alphabet"], "counts": header["counts"],
                   "max_tiles": header["max_tiles"], "leaves": header["leaves"],
                   "scale": header["scale"], "escapes": int(escaped.sum()),
                   SEAL_FIELD: SEAL_ZEROS.decode()}
    packed = msgpack.packb([pack_header, np.minimum(zigzag, ESCAPE).astype(np.uint8).tobytes(),
                            _varints((zigzag[escaped] - ESCAPE).tolist())], use_bin_type=True)
    return gzip.compress(sealed(packed, "msgpack"), compresslevel=9, mtime=0)


def unpack_leaves(packed: bytes) -> tuple[dict, np.ndarray]:
    """The header and int16 values of a leave pack (the reader of the tests; the page's is
    clients/js/leaves.js).
    """
    header, residuals, escapes = msgpack.unpackb(gzip.decompress(packed), raw=False)
    zigzag = np.frombuffer(residuals, dtype=np.uint8).astype(np.int64)
    extra, number, shift = [], 0, 0
    for byte in escapes:
        number |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            extra.append(number)
            number, shift = 0, 0
    zigzag[zigzag == ESCAPE] += np.array(extra, dtype=np.int64)
    residual = np.where(zigzag % 2 == 1, -(zigzag + 1) // 2, zigzag // 2)
    keys = leave_keys(header["counts"], header["max_tiles"])
    values = np.zeros(len(keys), dtype=np.int64)
    # Level by level: a prediction reads only the values of shorter leaves.
    for n in range(1, header["max_tiles"] + 1):
        first, last = np.searchsorted(keys, [LEAVE_DIGIT ** n, 2 * LEAVE_DIGIT ** n])
        values[first:last] = predictions(values, header["counts"], n)[first:last] + \
            residual[first:last]
    return header, values.astype("<i2")


def write_leave_pack(source: Path, target: Path) -> None:
    """Write the leave pack of the leave table `source` to `target` (atomically)."""
    with atomic_output(target) as out:
        out.write(pack_leaves(source))
