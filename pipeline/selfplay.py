"""Self-play: two greedy bots play a crossword game from a seeded bag; every position is kept.

Each bot plays the best-scoring move lookup finds (under placement = "multi", Erudit, the
greedy multi-word turn of cw.best_turn, no word formed twice in a game); with no play it
exchanges its whole rack when the bag allows, else it passes. A game ends when a player empties
its rack with the bag empty, or after the rules' number of scoreless turns in a row. Rack
penalties at the end are out of scope: a score is the sum of the player's move scores.

The file (JSON, UTF-8, deterministic for a given lexicon, game, seed and count):
    {"format": "crossword-selfplay", "version": 1, "game": id, "seed": S, "games": N,
     "positions": [{"game", "turn", "player", "board", "rack", "bag", "scores", "move",
                    "score"}, ...],
     "results": [{"game", "scores", "turns", "plays", "points"}, ...]}
`board` is the board text before the move (lookup/crossword/board.py), `rack` the player's tiles
("?" a blank), `bag` the tiles left in the bag in drawing order, `scores` both players' totals
before the move, `move` and `score` what the bot played. Tests and bench/bench_crossword.py reuse
the positions.

Usage: wordpack selfplay GAME --games N --seed S -o FILE
"""

import json
import random

from lookup.crossword.game import BLANK_SYMBOL, CrosswordGame, Move
from lookup.formats import SELFPLAY_FIELDS, SELFPLAY_FORMAT, SELFPLAY_VERSION
from lookup.headers import read_json_header
from pipeline.atomic import atomic_output

# A game cannot last longer: every turn either places a tile or counts as scoreless.
_MAX_TURNS = 1000


def full_bag(cw: CrosswordGame) -> list[str]:
    """Every tile of the game's set, letters in alphabet order then the blanks."""
    rules = cw.rules
    return [letter for letter in rules.alphabet for _ in range(rules.counts[letter])] + \
        [BLANK_SYMBOL] * rules.blanks


def _rack_text(cw: CrosswordGame, rack: list[str]) -> str:
    order = {letter: k for k, letter in enumerate(cw.alphabet)}
    return "".join(sorted(rack, key=lambda tile: order.get(tile, len(order))))


def play_game(cw: CrosswordGame, rng: random.Random, game: int) -> tuple[list, dict]:
    """Play one game; returns (positions, result) as described in the module docstring."""
    rules = cw.rules
    bag = full_bag(cw)
    rng.shuffle(bag)
    racks = [bag[:rules.rack_size], bag[rules.rack_size:2 * rules.rack_size]]
    del bag[:2 * rules.rack_size]
    board = cw.empty_board()
    scores = [0, 0]
    plays = [0, 0]
    positions = []
    scoreless = 0
    player = 0
    turn = 0
    played: set[str] = set()
    while turn < _MAX_TURNS and scoreless < rules.scoreless_turns_end:
        rack = racks[player]
        if rules.placement == "multi":
            best = cw.best_turn(board, _rack_text(cw, rack), method="greedy",
                                played_words=played) or Move("pass")
        else:
            best = cw.moves(board, _rack_text(cw, rack), top=1, bag=len(bag))[0]
        if best.kind not in ("play", "turn"):
            best = (Move("exchange", exchanged=_rack_text(cw, rack))
                    if len(bag) >= rules.exchange_min_bag else Move("pass"))
        positions.append({"game": game, "turn": turn, "player": player, "board": board.text(),
                          "rack": _rack_text(cw, rack), "bag": "".join(bag),
                          "scores": list(scores), "move": best.notation(),
                          "score": best.score})
        turn += 1
        if best.kind in ("play", "turn"):
            played.update(best.words)
            board = cw.play(board, best)
            for _row, _col, letter, is_blank in best.placed:
                rack.remove(BLANK_SYMBOL if is_blank else letter)
            scores[player] += best.score
            plays[player] += 1
            scoreless = 0
            drawn = min(rules.rack_size - len(rack), len(bag))
            rack.extend(bag[:drawn])
            del bag[:drawn]
            if not rack:
                break
        else:
            scoreless += 1
            if best.kind == "exchange":
                returned = list(best.exchanged)
                for tile in returned:
                    rack.remove(tile)
                rack.extend(bag[:len(returned)])
                del bag[:len(returned)]
                bag.extend(returned)
                rng.shuffle(bag)
        player = 1 - player
    result = {"game": game, "scores": scores, "turns": turn, "plays": sum(plays),
              "points": sum(scores)}
    return positions, result


def selfplay(cw: CrosswordGame, games: int, seed: int, progress=None) -> dict:
    """Play `games` games from one Random(seed); returns the file's content."""
    rng = random.Random(seed)
    positions = []
    results = []
    for game in range(games):
        game_positions, result = play_game(cw, rng, game)
        positions.extend(game_positions)
        results.append(result)
        if progress is not None:
            progress(result)
    return {"format": SELFPLAY_FORMAT, "version": SELFPLAY_VERSION, "game": cw.id,
            "seed": seed, "games": games, "positions": positions, "results": results}


def write_selfplay(data: dict, output) -> None:
    """Write a self-play file atomically (one position per line, for readable diffs)."""
    head = {key: value for key, value in data.items() if key not in ("positions", "results")}
    lines = [json.dumps(head, ensure_ascii=False, sort_keys=True)[:-1] + ', "positions": [']
    lines += [json.dumps(p, ensure_ascii=False, sort_keys=True) + ","
              for p in data["positions"]]
    if data["positions"]:
        lines[-1] = lines[-1][:-1]
    lines.append('], "results": [')
    lines += [json.dumps(r, ensure_ascii=False, sort_keys=True) + "," for r in data["results"]]
    if data["results"]:
        lines[-1] = lines[-1][:-1]
    lines.append("]}")
    with atomic_output(output) as handle:
        handle.write(("\n".join(lines) + "\n").encode("utf-8"))


def read_selfplay(path) -> dict:
    """Read a self-play file (tests and the benchmark).

    Raises:
        ArtifactMissing, CorruptArtifact, UnsupportedFormat: see lookup.headers.check_header.
    """
    return read_json_header(path, make_target="crossword-positions", format=SELFPLAY_FORMAT,
                            versions=(SELFPLAY_VERSION, SELFPLAY_VERSION), fields=SELFPLAY_FIELDS)


def summary(data: dict) -> dict:
    """Average points per play and per game over a self-play file's results."""
    results = data["results"]
    plays = sum(r["plays"] for r in results)
    points = sum(r["points"] for r in results)
    return {"games": len(results), "plays": plays, "points": points,
            "points_per_play": points / plays if plays else 0.0,
            "points_per_game": points / len(results) if results else 0.0,
            "points_per_player_game": points / (2 * len(results)) if results else 0.0}
