"""Checking an artifact's header: its format name, its version and its required fields; and
its seal, the sha256 of the whole file that JSON and msgpack artifacts carry in their header.

Every reader of a JSON or msgpack header (and of the equation lists' one-line text header, once
parsed into a map) goes through `check_header`, so that a header from another format, from a
version this reader does not know, or with a field missing or of the wrong type is refused with
one line naming the file, the field and the make target that rebuilds it: never a KeyError or
TypeError further down. The expected fields of each format are constants in lookup/formats.py.

The seal (docs/FORMATS.md "Seals"): the header's field `file_sha256` holds 64 lowercase hex
digits, the sha256 of the file's bytes with those 64 digits read as "0". The writer writes the
field with zeros and `sealed` fills it in; a reader finds the field by its encoded key
(SEAL_TAGS: the bytes that precede the digits in JSON and in msgpack) and `check_seal` refuses
a file whose digest differs. It covers every byte, header included, so a damaged file is never
read as a good one.
"""

import hashlib
import json
from collections.abc import Mapping
from pathlib import Path

from lookup.formats import check_version, corrupt, require_file

SEAL_FIELD = "file_sha256"
SEAL_DIGITS = 64
SEAL_ZEROS = b"0" * SEAL_DIGITS
# The bytes right before the seal's digits: JSON (json.dumps' ": " separator), msgpack (the
# key as a fixstr of 11 bytes, then a str8 of 64 bytes), a text header line of key=value
# fields (the equation lists) and Parquet's footer (a Thrift compact KeyValue: the key's length
# and the key, then the value's field header and length: pipeline/sealed_parquet.py).
SEAL_TAGS = {"json": b'"file_sha256": "', "msgpack": b"\xabfile_sha256\xd9\x40",
             "text": b" file_sha256=", "parquet": b"\x0bfile_sha256\x18\x40"}

# How a type is named in messages.
_TYPE_NAMES = {
    str: "a string",
    int: "an integer",
    float: "a number",
    bool: "true or false",
    dict: "a map",
    list: "an array",
    type(None): "null",
}


def check_header(
    header,
    path,
    *,
    format: str,
    versions: tuple[int, int],
    fields: Mapping[str, type | tuple[type, ...]],
    make_target: str = "",
    version_key: str = "version",
) -> dict:
    """Check a decoded header against its format and return it.

    Args:
        header: the decoded header, as read from the file (anything: a non-map is refused).
        path: the file the header came from, named in every message.
        format: the value the header's "format" field must have.
        versions: (earliest, current): the versions this reader reads.
        fields: every other required field and its type, or a tuple of allowed types
            (`type(None)` allows null). A dotted name such as "answers.sha256" is the field
            "sha256" of the map in field "answers". `int` does not accept true or false.
        make_target: what rebuilds the file, named as `make <make_target>`; "" for `make`.
        version_key: the field that holds the version ("rules" for equation lists).

    Returns:
        `header`, unchanged.

    Raises:
        CorruptArtifact: not a map, another format, no version, or a required field missing
            or of the wrong type.
        UnsupportedFormat: a version outside `versions`.
    """
    if not isinstance(header, dict) or header.get("format") != format:
        raise corrupt(path, f"not a {format} header", make_target)
    version = _field(header, version_key, int, path, make_target)
    check_version(path, version, *versions, make_target=make_target)
    for name, expected in fields.items():
        _field(header, name, expected, path, make_target)
    return header


def read_json_header(path, *, make_target: str = "", sealed: bool = False, **expected) -> dict:
    """Read a JSON file whose top level is a header and check it with `check_header`.

    Args:
        path: the file.
        make_target: what builds or rebuilds it (`make <make_target>`); "" for `make`.
        sealed: the format is sealed: check the seal too (after the version, so that a file
            of an older, unsealed version is refused for its version).
        **expected: `format`, `versions`, `fields` (and `version_key`) as for check_header.

    Raises:
        ArtifactMissing: the file does not exist.
        CorruptArtifact, UnsupportedFormat: as for check_header, or the file is not JSON, or
            its seal does not match.
    """
    path = require_file(path, make_target or str(path))
    data = Path(path).read_bytes()
    try:
        header = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise corrupt(path, f"not a JSON {expected['format']} file", make_target) from None
    check_header(header, path, make_target=make_target, **expected)
    if sealed:
        check_seal(path, data, "json", make_target)
    return header


def sealed_json(data: dict) -> bytes:
    """The sealed JSON file of a header map (indented by one space, keys sorted, UTF-8): the
    writers' one layout, whose `": "` separator is the seal's tag.
    """
    text = json.dumps({**data, SEAL_FIELD: SEAL_ZEROS.decode()}, indent=1, sort_keys=True,
                      ensure_ascii=False) + "\n"
    return sealed(text.encode("utf-8"), "json")


def _field(header: dict, name: str, expected, path, make_target: str):
    value = header
    for part in name.split("."):
        if not isinstance(value, dict) or part not in value:
            raise corrupt(path, f"header field {name!r} is missing", make_target)
        value = value[part]
    allowed = expected if isinstance(expected, tuple) else (expected,)
    if not _has_type(value, allowed):
        wanted = " or ".join(_TYPE_NAMES[t] for t in allowed)
        raise corrupt(path, f"header field {name!r} should be {wanted}, not "
                      f"{_TYPE_NAMES.get(type(value), type(value).__name__)}", make_target)
    return value


def _has_type(value, allowed: tuple[type, ...]) -> bool:
    if isinstance(value, bool):
        return bool in allowed
    return isinstance(value, allowed)


def _seal_at(data: bytes, encoding: str) -> int | None:
    """Where the seal's digits start, or None unless the field occurs exactly once."""
    tag = SEAL_TAGS[encoding]
    at = data.find(tag)
    if at < 0 or data.find(tag, at + 1) >= 0 or at + len(tag) + SEAL_DIGITS > len(data):
        return None
    return at + len(tag)


def _seal_digest(data: bytes, at: int) -> bytes:
    digest = hashlib.sha256(memoryview(data)[:at])
    digest.update(SEAL_ZEROS)
    digest.update(memoryview(data)[at + SEAL_DIGITS:])
    return digest.hexdigest().encode()


def sealed(data: bytes, encoding: str) -> bytes:
    """A file's bytes with its seal filled in (written as SEAL_ZEROS, once).

    Args:
        data: the file, whose header has SEAL_FIELD = "0" * 64.
        encoding: "json", "msgpack", "text" or "parquet".
    """
    at = _seal_at(data, encoding)
    if at is None or data[at:at + SEAL_DIGITS] != SEAL_ZEROS:
        raise ValueError(f"the {encoding} data must hold {SEAL_FIELD} once, as zeros")
    return data[:at] + _seal_digest(data, at) + data[at + SEAL_DIGITS:]


def check_seal(path, data: bytes, encoding: str, make_target: str = "") -> None:
    """Refuse a file whose seal is missing or does not match its bytes.

    Raises:
        CorruptArtifact: one line naming the file and the make target.
    """
    at = _seal_at(data, encoding)
    if at is None:
        raise corrupt(path, f"damaged: its header has no single {SEAL_FIELD}", make_target)
    if data[at:at + SEAL_DIGITS] != _seal_digest(data, at):
        raise corrupt(path, f"damaged: its sha256 ({SEAL_FIELD}) does not match its bytes",
                      make_target)
