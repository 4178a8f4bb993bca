"""Sealed Parquet tables: the opener tables and the opener proofs (docs/FORMATS.md "Seals").

A sealed table carries `file_sha256` in its schema metadata, like the JSON and msgpack
artifacts. Parquet stores the metadata in its footer as Thrift compact KeyValue structs, so the
64 digits follow the bytes `0b "file_sha256" 18 40` (the key's length 11 and the key, then the
value's field header and length 64); the writer writes them as zeros and `sealed` fills them in
with the sha256 of the whole file, which a reader checks before it parses a byte (pyarrow's own
checks cover the structure, not the values in the pages).
"""

from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from lookup.formats import corrupt, require_file
from lookup.headers import SEAL_FIELD, SEAL_ZEROS, check_seal, sealed


def sealed_parquet(table: pa.Table) -> bytes:
    """The bytes of `table` as a zstd-compressed Parquet file, sealed (deterministic)."""
    metadata = {**(table.schema.metadata or {}), SEAL_FIELD.encode(): SEAL_ZEROS}
    sink = pa.BufferOutputStream()
    pq.write_table(table.replace_schema_metadata(metadata), sink, compression="zstd")
    return sealed(sink.getvalue().to_pybytes(), "parquet")


def read_sealed_parquet(path, make_target: str) -> tuple[pa.Table, dict[str, str]]:
    """A sealed table and its schema metadata (strings; the seal's field left out).

    Raises:
        ArtifactMissing: the file does not exist.
        CorruptArtifact: the seal is missing or does not match, or pyarrow cannot read it.
    """
    path = require_file(path, make_target)
    data = Path(path).read_bytes()
    check_seal(path, data, "parquet", make_target)
    try:
        table = pq.read_table(pa.BufferReader(data))
    except (OSError, pa.ArrowInvalid) as error:
        raise corrupt(path, f"not a readable Parquet file ({error})", make_target) from None
    metadata = {key.decode(): value.decode() for key, value in
                (table.schema.metadata or {}).items() if key.decode() != SEAL_FIELD}
    return table.replace_schema_metadata(None), metadata
