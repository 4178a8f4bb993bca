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
    GRAPH_HEADER,
    LEAVES_FIELDS,
    SELFPLAY_FIELDS,
    TREE_FIELDS,
)
from pipeline.build_dawg import dawg_bytes


def documented_hexdump() -> bytes:
    text = (REPO / "docs" / "FORMATS.md").read_text()
    block = re.search(r"<!-- hexdump: dawg car cars cat / acrst -->\n```\n(.*?)```", text, re.S)
    assert block, "the worked example is missing from docs/FORMATS.md"
    data = bytearray()
    for line in block.group(1).splitlines():
        offset, _, hex_bytes = line.partition("  ")
        assert int(offset, 16) == len(data)
        data += bytes.fromhex(hex_bytes)
    return bytes(data)


def test_worked_example_is_byte_identical():
    assert documented_hexdump() == dawg_bytes(["car", "cars", "cat"], "acrst")


def test_documented_constants():
    assert GRAPH_HEADER.size == 128
    assert (ARC_TILE_MASK, ARC_ACCEPTS, ARC_LAST) == (0x3F, 0x40, 0x80)


def test_documented_header_fields():
    text = (REPO / "docs" / "FORMATS.md").read_text()
    for fields in (GAME_FIELDS, FEEDBACK_FIELDS, TREE_FIELDS, GAMES_INDEX_FIELDS, SELFPLAY_FIELDS,
                   EQUATIONS_FIELDS, LEAVES_FIELDS):
        for name in fields:
            top = name.split(".")[0]
            assert f"`{top}`" in text or f'"{top}"' in text or f"{top}=" in text, name
