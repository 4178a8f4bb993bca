"""The move generator on the real artifacts against the committed golden moves
(tests/golden/crossword-moves.txt; `make approve-moves` rewrites it after a deliberate change)."""

import pytest

from crossword_support import GAMES
from golden_moves import GOLDEN, blocks, game_text


@pytest.mark.full
@pytest.mark.parametrize("game", GAMES)
def test_moves_match_the_golden_file(game):
    expected = blocks(GOLDEN.read_text(encoding="utf-8"), True)[game]
    assert game_text(game) == expected, (
        f"{game}: moves differ from {GOLDEN.name}; after a deliberate change run "
        "`make approve-moves` and review the diff")
