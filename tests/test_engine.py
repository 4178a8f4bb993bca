"""The move engine (lookup/crossword/engine.py) against CrosswordGame.moves: the same plays, in the
same order, with the same scores and blanks; its best play equals moves(top=1); with a leave
table, its best play is the best of every play by score + leave value.

The fast suite runs the pure-Python kernel on the fixture lexicons; @pytest.mark.full runs
the compiled kernel (numba) on the real lexicons over every committed self-play position,
each with 0, 1 and 2 blanks.
"""

import random

import numpy as np
import pytest

from crossword_support import (
    GAMES,
    blank_variant,
    cases,
    fixture_game,
    game_with_words,
    generator_twin,
    selfplay_positions,
)
from lookup.crossword.engine import MoveEngine, move_engine, numba_available
from lookup.crossword.engine_kernel import R_LEAVE, leave_slot
from lookup.crossword.equity import sub_leaves
from lookup.crossword.tiles import key_of_codes


def same_plays(cw, engine, board, rack, label):
    """The engine lists what the pure-Python move generator lists, in the same order."""
    generator = generator_twin(cw)
    expected = [(m.key(), m.score) for m in generator.moves(board, rack) if m.kind == "play"]
    found = [(m.key(), m.score) for m in engine.plays(board, rack)]
    assert found == expected, f"{label} rack {rack!r}: {len(found)} plays, expected " \
                              f"{len(expected)}"
    best = engine.best(board, rack)
    if expected:
        assert (best.key(), best.score) == expected[0], f"{label} rack {rack!r}: best play"
    else:
        assert best is None


@pytest.mark.parametrize("game", GAMES)
def test_pure_python_engine_equals_moves(game):
    cw = fixture_game(game)
    engine = MoveEngine(cw, compiled=False)
    for number, board, rack in cases(cw, game, count=24, step=9):
        same_plays(cw, engine, board, rack, f"{game} position {number}")


@pytest.mark.parametrize("game", GAMES)
def test_empty_board_and_short_racks(game):
    cw = fixture_game(game)
    engine = MoveEngine(cw, compiled=False)
    board = next(b for b in (cw.parse_board(p["board"]) for p in selfplay_positions(game))
                 if len(list(b.tiles())) >= 10 and not any(t[3] for t in b.tiles()))
    for rack in ("", "?", cw.alphabet[0], cw.alphabet[:3] + "?"):
        same_plays(cw, engine, cw.empty_board(), rack, f"{game} empty board")
        same_plays(cw, engine, board, rack, f"{game} midgame board")
    same_plays(cw, engine, cw.empty_board(), "??", f"{game} empty board")


def leave_text(rack: str, move) -> str:
    kept = list(rack)
    for _row, _col, letter, is_blank in move.placed:
        kept.remove("?" if is_blank else letter)
    return "".join(kept)


@pytest.mark.parametrize("game", ["scrabble-en", "erudit-ru"])
def test_best_by_equity_is_the_best_of_all_plays(game):
    cw = fixture_game(game)
    engine = MoveEngine(cw, compiled=False)
    rng = random.Random(5)
    for number, board, rack in cases(cw, game, count=12, step=13):
        plays = engine.plays(board, rack)
        # Quarter points: sums of scores and values are exact in floating point.
        values = {leave_text(rack, m): rng.randrange(-80, 80) / 4 for m in plays[::3]}
        leaves = engine.leave_table(values)
        best = engine.best(board, rack, leaves)
        if not plays:
            assert best is None
            continue
        # Equal equities: the order of moves() after the score (the tiles without the new
        # blanks' marks, then which new tiles are blanks).
        expected = min(plays, key=lambda m: (-(m.score + values.get(leave_text(rack, m), 0.0)),
                                             "HV".index(m.direction),
                                             m.row if m.direction == "H" else m.col,
                                             m.col if m.direction == "H" else m.row,
                                             m._plain, m._blanks))
        assert (best.key(), best.score) == (expected.key(), expected.score), \
            f"{game} position {number} rack {rack!r}"


def test_every_record_carries_its_leave_key():
    cw = fixture_game("wordfeud-nl")
    engine = MoveEngine(cw, compiled=False)
    for _number, board, rack in cases(cw, "wordfeud-nl", count=6, step=23):
        out, count = engine.search_cells(engine.cells(board), engine.rack_counts(rack, board))
        width = engine.width
        keys = sorted((engine.move(out, board, at).key(), out[at + R_LEAVE])
                      for at in range(0, count * width, width))
        expected = sorted((m.key(), engine.leave_key(leave_text(rack, m)))
                          for m in engine.plays(board, rack))
        assert keys == expected


def test_without_numba_the_engine_runs_pure_python(monkeypatch):
    import lookup.crossword.engine

    monkeypatch.setattr(lookup.crossword.engine, "numba_available", lambda: False)
    engine = MoveEngine(fixture_game("wordfeud-en"))
    assert not engine.compiled
    assert engine.best(fixture_game("wordfeud-en").empty_board(), "ax").notation() == \
        "H 7,6 ax 9"


def test_leave_keys_ignore_tile_order():
    engine = MoveEngine(fixture_game("scrabble-en"), compiled=False)
    assert engine.leave_key("") == 1
    assert engine.leave_key("?s") == engine.leave_key("s?") == 64 * 64 + 19
    assert engine.leave_key("ers") == engine.leave_key("res") == ((1 * 64 + 5) * 64 + 18) * 64 \
        + 19
    table = engine.leave_table({"?s": 25.5, "q": -7.0})
    assert table.max_value == 25.5


@pytest.mark.parametrize("compiled", [False, True])
def test_sub_leave_keys_equal_every_kept_multiset_keyed(compiled):
    if compiled and not numba_available():
        pytest.skip("numba is not installed")
    cw = fixture_game("erudit-ru")
    engine = MoveEngine(cw, compiled=compiled)
    # Lexicon codes in the reverse of the game's letter order: the two keys sort differently.
    engine.to_lex = [0] + list(range(len(cw.alphabet), 0, -1))
    engine._to_lex_array = np.asarray(engine.to_lex)
    rng = random.Random(11)
    racks = [[], [0], [0, 0, 3], [5, 5, 5, 5, 5, 5, 5]]
    racks += [[rng.randrange(len(cw.alphabet) + 1) for _ in range(rng.randrange(1, 8))]
              for _ in range(200)]
    for rack in racks:
        kept_sets = sub_leaves(sorted(rack))
        game_keys, lex_keys, sizes = engine.sub_leave_keys(rng.sample(rack, len(rack)))
        assert game_keys.tolist() == [key_of_codes(k) for k in kept_sets], rack
        assert lex_keys.tolist() == [key_of_codes([engine.to_lex[c] for c in k])
                                     for k in kept_sets], rack
        assert sizes.tolist() == [len(k) for k in kept_sets], rack
    assert len(engine.sub_leave_keys([1, 2, 3, 4, 5, 6, 7])[0]) == 128


@pytest.mark.parametrize("compiled", [False, True])
def test_keyed_leave_table_finds_every_key(compiled):
    if compiled and not numba_available():
        pytest.skip("numba is not installed")
    engine = MoveEngine(fixture_game("scrabble-en"), compiled=compiled)
    _game_keys, keys, _sizes = engine.sub_leave_keys([0, 1, 1, 5, 18, 19, 26])
    values = [k % 97 - 60.5 for k in keys.tolist()]
    table = engine.keyed_leave_table(keys, values)
    assert len(table.keys) == 256 and table.max_value == max(values)
    for key, value in zip(keys.tolist(), values):
        slot = leave_slot(table.keys, key)
        assert (table.keys[slot], table.values[slot]) == (key, value)
    assert table.keys[leave_slot(table.keys, 12345)] == 0
    assert engine.keyed_leave_table([], []).max_value == 0.0


# Positions times blank counts (0, 1, 2) that the set allows beside the board's blanks.
FIXTURE_CASES = {"scrabble-en": 358, "wordfeud-en": 316, "wordfeud-nl": 320, "erudit-ru": 557}


@pytest.mark.full
@pytest.mark.parametrize("game", GAMES)
def test_compiled_engine_equals_moves_on_every_position(game):
    pytest.importorskip("numba")
    from lookup.crossword.game import crossword_game

    cw = crossword_game(game)
    engine = move_engine(cw, compiled=True)
    assert engine.compiled
    checked = 0
    for number, position in enumerate(selfplay_positions(game)):
        board = cw.parse_board(position["board"])
        for blanks in (0, 1, 2):
            rack = blank_variant(cw, board, position["rack"], blanks)
            if rack is not None:
                same_plays(cw, engine, board, rack, f"{game} position {number}")
                checked += 1
    assert checked == FIXTURE_CASES[game]


def test_the_compiled_engine_keeps_the_gaddag_as_one_array_of_the_index_s_words():
    # arcs[p] is node_mask[p + 1] (lookup/graph.py): the compiled kernel's arcs are a view of
    # its node masks one position on, so a node's mask and its first arcs share a cache line.
    pytest.importorskip("numba")
    engine = MoveEngine(fixture_game("scrabble-en"), compiled=True)
    tables = engine.lexicon.tables
    _params, arcs, node_mask = engine.kernel_constants[:3]
    assert arcs.base is node_mask and arcs.dtype == node_mask.dtype == np.int32
    assert np.array_equal(node_mask, np.asarray(tables.node_mask))
    assert np.array_equal(arcs, np.asarray(tables.arcs))


@pytest.mark.parametrize("compiled", [False, True])
def test_the_best_play_skips_a_repeated_word_under_the_erudit_rule(compiled):
    if compiled and not numba_available():
        pytest.skip("numba is not installed")
    cw = game_with_words("erudit-ru", ["кот", "от"], "repeat")
    board = cw.empty_board().with_tiles([(7, 6, "к", False), (7, 7, "о", False),
                                         (7, 8, "т", False)])
    engine = MoveEngine(cw, compiled=compiled)
    # KOT down onto the board's T outscores OT but repeats KOT: the best is OT.
    assert [m.notation() for m in engine.plays(board, "ко")] == ["V 6,8 от 4"]
    assert engine.best(board, "ко").notation() == "V 6,8 от 4"
    assert engine.best(board, "ко").key() == cw.moves(board, "ко", top=1)[0].key()


def test_the_engine_takes_over_at_the_third_list_when_numba_is_not_loaded_yet(monkeypatch):
    pytest.importorskip("numba")
    import types

    import lookup.crossword.game as game_module
    from lookup.crossword.game import CrosswordGame

    shared = fixture_game("scrabble-en")  # cached: other tests have listed moves with it
    cw = CrosswordGame(shared.rules, shared.tables())  # a game that has listed nothing yet
    board = cw.parse_board(selfplay_positions("scrabble-en")[10]["board"])
    expected = [repr(m) for m in generator_twin(cw).moves(board, "retains")]
    asked = []
    real_engine = game_module.move_engine

    def counted(*args, **kwargs):
        asked.append(cw._lists)
        return real_engine(*args, **kwargs)

    monkeypatch.setattr(game_module, "move_engine", counted)
    monkeypatch.setattr(game_module, "sys", types.SimpleNamespace(modules={}))
    for _ in range(4):
        assert [repr(m) for m in cw.moves(board, "retains")] == expected
    assert asked == [game_module.ENGINE_AFTER_LISTS, game_module.ENGINE_AFTER_LISTS + 1]
