"""The GADDAG move generator against the brute-force finder (tests/crossword_oracle.py):
the same placements, each exactly once, with the same scores."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import full_artifact
from crossword_oracle import WordIndex, brute_force_moves, generated, grid_of
from crossword_support import (
    GAMES,
    cases,
    fixture_game,
    fixture_index,
    generator_twin,
    lexicon_alphabet,
)
from pipeline.selfplay import full_bag


def agree(cw, index, board, rack, label):
    """moves() on both move paths (the engine when numba is installed, and the pure-Python
    generator) equals the brute force.
    """
    expected = brute_force_moves(cw.rules, grid_of(board), rack, index)
    for path in (cw, generator_twin(cw)):
        plays = [m for m in path.moves(board, rack) if m.kind == "play"]
        found = generated(plays)
        assert len(found) == len(plays), f"{label}: a placement came out twice"
        assert found == expected, (f"{label} rack {rack!r}: missing "
                                   f"{sorted(expected - found)[:5]}, extra "
                                   f"{sorted(found - expected)[:5]}")
    return plays


@pytest.mark.parametrize("game", GAMES)
def test_self_play_positions(game):
    cw = fixture_game(game)
    index = fixture_index(cw.rules.lexicon)
    for number, board, rack in cases(cw, game, count=24, step=9):
        plays = agree(cw, index, board, rack, f"{game} position {number}")
        for move in plays[::11]:
            assert cw.score(board, move) == move.score
            assert cw.validate(board, move, rack=rack) == []


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("blanks", [0, 1, 2])
def test_empty_board(game, blanks):
    cw = fixture_game(game)
    tiles = [t for t in full_bag(cw) if t != "?"]
    rack = "".join(tiles[::len(tiles) // 7][:7 - blanks]) + "?" * blanks
    plays = agree(cw, fixture_index(cw.rules.lexicon), cw.empty_board(), rack,
                  f"{game} empty board")
    assert plays and all(cw.rules.layout.start in {(r, c) for r, c, _l, _b in m.placed}
                         for m in plays)


@pytest.mark.parametrize("game", ["scrabble-en", "wordfeud-nl"])
def test_top_is_the_head_of_the_full_list(game):
    cw = fixture_game(game)
    for _number, board, rack in cases(cw, game, count=12, step=17):
        everything = [m.key() + (m.score,) for m in cw.moves(board, rack)]
        for top in (1, 3, 10, 50):
            for path in (cw, generator_twin(cw)):
                assert [m.key() + (m.score,) for m in path.moves(board, rack, top=top)] == \
                    everything[:top]


def test_one_tile_placements_are_listed_once():
    cw = fixture_game("scrabble-en")
    board = cw.parse_board("\n".join(["." * 15] * 7 + [".....cat......."] + ["." * 15] * 7))
    plays = [m for m in cw.moves(board, "s") if m.kind == "play"]
    squares = [tuple(m.placed) for m in plays]
    assert len(squares) == len(set(squares))
    # "cats" across; no down word stands alone through (7, 8).
    assert [m.notation() for m in plays if m.placed == [(7, 8, "s", False)]] == ["H 7,5 cats 6"]


_POSITIONS = cases(fixture_game("scrabble-en"), "scrabble-en", count=6, step=31)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(position=st.integers(0, len(_POSITIONS) - 1), data=st.data())
def test_random_racks(position, data):
    cw = fixture_game("scrabble-en")
    _number, board, _rack = _POSITIONS[position]
    unseen = full_bag(cw)
    for _r, _c, letter, is_blank in board.tiles():
        unseen.remove("?" if is_blank else letter)
    size = data.draw(st.integers(1, 7))
    picks = data.draw(st.lists(st.integers(0, len(unseen) - 1), min_size=size, max_size=size,
                               unique=True))
    rack = "".join(unseen[i] for i in sorted(picks))
    agree(cw, fixture_index("enable"), board, rack, "random rack")


@pytest.mark.full
@pytest.mark.parametrize("game", GAMES)
def test_real_lexicons(game):
    from lookup.crossword.game import crossword_game

    cw = crossword_game(game)
    words = full_artifact(f"lexicons/{cw.rules.lexicon}.txt").read_text(encoding="utf-8").split()
    full_artifact(f"lexicons/{cw.rules.lexicon}.gaddag")
    index = WordIndex(words, lexicon_alphabet(cw.rules.lexicon))
    checked = 0
    for number, board, rack in cases(cw, game, count=240):
        agree(cw, index, board, rack, f"{game} position {number}")
        checked += 1
    assert checked >= 200
