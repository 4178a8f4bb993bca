"""CLI for the crossword games: the rules build stage, move finding and self-play."""

import json
import sys
import time
from pathlib import Path

import typer

from lookup.errors import BadInput


def register(app: typer.Typer, build_app: typer.Typer) -> None:
    """Add the crossword commands to the `wordpack` app and its `build` group."""

    @build_app.command("crossword")
    def build_crossword_cmd(
        config: Path = typer.Argument(..., help="Rules file config/crossword/<id>.toml."),
        output: Path = typer.Option(..., "-o", "--output", help="Rules artifact to write."),
    ):
        """Validate a crossword game's rules and compile them to JSON."""
        from pipeline.build_crossword import build_crossword

        rules = build_crossword(config, output)
        typer.echo(f"{output}: {rules.id}, {rules.total_tiles} tiles, lexicon {rules.lexicon}")

    @app.command()
    def moves(
        game: str = typer.Argument(..., help="Crossword game id, e.g. scrabble-en."),
        board: Path = typer.Option(..., "--board", help="Board text file ('-' for stdin)."),
        rack: str = typer.Option(..., "--rack", help="Rack letters, '?' for a blank."),
        top: int = typer.Option(10, "--top", help="How many moves to list."),
        bag: int = typer.Option(None, "--bag", help="Tiles in the bag (decides exchanges); "
                                "default: unseen tiles minus the opponent's rack."),
        as_json: bool = typer.Option(False, "--json", help="Print JSON instead of text."),
    ):
        """List the best moves for a board and rack, and draw the best one on the board."""
        from lookup.crossword import crossword_game

        cw = crossword_game(game)
        text = sys.stdin.read() if str(board) == "-" else _read_board(board)
        position = cw.parse_board(text)
        cw.tables()  # load the lexicon before the clock starts
        started = time.perf_counter()
        found = cw.moves(position, rack, top=top, bag=bag)
        elapsed = time.perf_counter() - started
        if as_json:
            typer.echo(json.dumps({"game": game, "rack": rack, "moves": [m.to_dict()
                                                                         for m in found]},
                                  ensure_ascii=False, indent=1))
            return
        typer.echo(f"{'#':>3} {'score':>5}  {'move':<10} {'word':<16} words formed")
        for rank, move in enumerate(found, start=1):
            if move.kind == "play":
                where = f"{move.direction} {move.row},{move.col}"
                word = move.notation().split()[2]
                formed = " ".join(w.upper() for w in move.words)
            else:
                where, word, formed = move.kind, move.exchanged, ""
            typer.echo(f"{rank:>3} {move.score:>5}  {where:<10} {word:<16} {formed}")
        typer.echo(f"({len(found)} shown, {elapsed * 1000:.1f} ms)")
        if found and found[0].kind == "play":
            typer.echo("")
            typer.echo(cw.render(position, found[0]), nl=False)

    @app.command()
    def selfplay(
        game: str = typer.Argument(..., help="Crossword game id, e.g. wordfeud-nl."),
        games: int = typer.Option(..., "--games", help="Number of games to play."),
        seed: int = typer.Option(..., "--seed", help="Seed of the bag shuffles."),
        output: Path = typer.Option(..., "-o", "--output", help="Positions file to write."),
    ):
        """Play greedy bots against each other and write every position they pass through."""
        from tqdm import tqdm

        from lookup.crossword import crossword_game
        from pipeline.selfplay import selfplay as play
        from pipeline.selfplay import summary, write_selfplay

        if games < 1:
            raise BadInput(f"--games must be at least 1, not {games}")
        cw = crossword_game(game)
        with tqdm(total=games, unit="game", desc=game) as bar:
            data = play(cw, games, seed, progress=lambda _result: bar.update())
        write_selfplay(data, output)
        stats = summary(data)
        typer.echo(f"{output}: {len(data['positions'])} positions from {games} games; "
                   f"{stats['points_per_play']:.1f} points per play, "
                   f"{stats['points_per_player_game']:.1f} per player per game")


def _read_board(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise BadInput(f"board file {path} does not exist") from None
    except UnicodeDecodeError:
        raise BadInput(f"board file {path} is not UTF-8 text") from None
