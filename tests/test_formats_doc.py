"""docs/FORMATS.md's worked example is the real output of the writer, byte for byte."""

import re

from conftest import REPO
from lookup.formats import (
    ARC_ACCEPTS,
    ARC_LAST,
    ARC_TILE_MASK,
    EQUATIONS_FIELDS,
    FEEDBACK_FIELDS,
    GAME_FIELDS,
    GAMES_INDEX_FIELDS,
    INDEX_HEADER,
    LEAVES_FIELDS,
    MEMBER_ACCEPTS,
    MEMBER_CHILD_SHIFT,
    MEMBER_TILE_MASK,
    PACKED_ACCEPTS,
    PACKED_HEADER,
    PACKED_LAST,
    PACKED_REF,
    PACKED_TILE_ESCAPE,
    REF_NEW_SHARED,
    REF_NO_CHILD,
    REF_SHARED_BASE,
    SELFPLAY_FIELDS,
    TREE_FIELDS,
)
from pipeline.build_dawg import dawg_bytes, index_for


def documented_hexdump(title: str) -> bytes:
    text = (REPO / "docs" / "FORMATS.md").read_text()
    block = re.search(rf"<!-- hexdump: {title} -->\n```\n(.*?)```", text, re.S)
    assert block, "the worked example is missing from docs/FORMATS.md"
    data = bytearray()
    for line in block.group(1).splitlines():
        offset, _, hex_bytes = line.partition("  ")
        assert int(offset, 16) == len(data)
        data += bytes.fromhex(hex_bytes)
    return bytes(data)


def test_worked_example_is_byte_identical():
    packed = dawg_bytes(["car", "cars", "cat"], "acrst")
    assert documented_hexdump("dawg car cars cat / acrst") == packed
    assert documented_hexdump("index of dawg car cars cat / acrst") == index_for(packed)


def test_documented_constants():
    assert PACKED_HEADER.size == INDEX_HEADER.size == 128
    assert (PACKED_TILE_ESCAPE, PACKED_ACCEPTS, PACKED_LAST, PACKED_REF) == (0x1F, 0x20, 0x40, 0x80)
    assert (REF_NO_CHILD, REF_NEW_SHARED, REF_SHARED_BASE) == (0, 1, 2)
    assert (ARC_TILE_MASK, ARC_ACCEPTS, ARC_LAST) == (0x3F, 0x40, 0x80)
    assert (MEMBER_TILE_MASK, MEMBER_ACCEPTS, MEMBER_CHILD_SHIFT) == (0x3F, 0x40, 7)


def test_documented_header_fields():
    text = (REPO / "docs" / "FORMATS.md").read_text()
    for fields in (GAME_FIELDS, FEEDBACK_FIELDS, TREE_FIELDS, GAMES_INDEX_FIELDS, SELFPLAY_FIELDS,
                   EQUATIONS_FIELDS, LEAVES_FIELDS):
        for name in fields:
            top = name.split(".")[0]
            assert f"`{top}`" in text or f'"{top}"' in text or f"{top}=" in text, name
