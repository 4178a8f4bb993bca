"""Build stages of the guessing games.

game, guessing-make, guessing-index, feedback, openers and tree.
"""

import time
from pathlib import Path

import typer


def register(app: typer.Typer) -> None:
    """Add the guessing-game stages to the `wordpack-build` app."""
    output_opt = typer.Option(..., "-o", "--output", help="File to write.")

    @app.command("game")
    def build_game_cmd(
        config: Path = typer.Argument(..., help="config/guessing.toml or a _<id>.config.json."),
        game: str = typer.Argument(..., help="Game id, a table of the config."),
        sources: Path = typer.Option(Path("sources"), help="What config paths sources/ mean."),
        artifacts: Path = typer.Option(Path("artifacts"),
                                       help="What config paths artifacts/ mean."),
        output: Path = output_opt,
    ):
        """Write a game's answer and guess lists and its descriptor (<id>.game.json)."""
        from pipeline.build_game import build_game

        descriptor = build_game(config, game, sources, artifacts, output)
        typer.echo(f"{output}: {descriptor['answers']['count']} answers, "
                   f"{descriptor['guesses']['count']} allowed guesses")

    @app.command("guessing-make")
    def guessing_make_cmd(
        config: Path = typer.Argument(..., help="config/guessing.toml"),
        fragments: Path = typer.Option(..., help="Directory for the per-game _<id>.config.json."),
        output: Path = output_opt,
    ):
        """Write the Makefile fragment of the games and their sources, and each game's table.

        A game's table file (_<id>.config.json) is rewritten only when the table changes.
        """
        from pipeline.build_game import make_rules

        make_rules(config, output, fragments)

    @app.command("guessing-index")
    def guessing_index_cmd(config: Path = typer.Argument(..., help="config/guessing.toml"),
                           output: Path = output_opt):
        """Write games.json, the configured game ids the runtime knows."""
        from pipeline.build_game import build_index

        index = build_index(config, output)
        typer.echo(f"{output}: {len(index['games'])} games")

    @app.command("feedback")
    def build_feedback_cmd(game: Path = typer.Argument(..., help="<id>.game.json"),
                           output: Path = output_opt):
        """Compute the feedback matrix (<id>.feedback.npy) and its header."""
        from pipeline.build_feedback import build_feedback

        started = time.perf_counter()
        header = build_feedback(game, output)
        typer.echo(f"{output}: {header['shape'][0]} x {header['shape'][1]} {header['dtype']} "
                   f"({time.perf_counter() - started:.1f} s)")

    @app.command("openers")
    def build_openers_cmd(matrix: Path = typer.Argument(..., help="<id>.feedback.npy"),
                          output: Path = output_opt):
        """Write the opener table (<id>.openers.parquet)."""
        from pipeline.build_openers import build_openers

        table = build_openers(matrix, output)
        typer.echo(f"{output}: {table.num_rows} openers")

    @app.command("tree")
    def build_tree_cmd(
        matrix: Path = typer.Argument(..., help="<id>.feedback.npy"),
        hard: bool = typer.Option(False, "--hard", help="Hard mode: every guess uses every hint."),
        output: Path = output_opt,
    ):
        """Search the optimal decision tree and write it (<id>[.hard].tree.msgpack)."""
        from pipeline.build_tree import build_tree

        started = time.perf_counter()
        header = build_tree(matrix, output, hard=hard)
        typer.echo(f"{output}: root {header['root']}, total {header['total']}, max "
                   f"{header['max']}, {header['nodes_visited']} nodes "
                   f"({time.perf_counter() - started:.1f} s)")
