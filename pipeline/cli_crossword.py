"""Build stages of the crossword games: the rules (crossword) and the self-play positions."""

from pathlib import Path

import typer


def register(app: typer.Typer) -> None:
    """Add the crossword stages to the `wordpack-build` app."""

    @app.command("crossword")
    def build_crossword_cmd(
        config: Path = typer.Argument(..., help="Rules file config/crossword/<id>.toml."),
        output: Path = typer.Option(..., "-o", "--output", help="Rules artifact to write."),
    ):
        """Validate a crossword game's rules and compile them to JSON."""
        from pipeline.build_crossword import build_crossword

        rules = build_crossword(config, output)
        typer.echo(f"{output}: {rules.id}, {rules.total_tiles} tiles, lexicon {rules.lexicon}")

    @app.command()
    def selfplay(
        game: str = typer.Argument(..., help="Crossword game id, e.g. wordfeud-nl."),
        games: int = typer.Option(..., "--games", min=1, help="Number of games to play."),
        seed: int = typer.Option(..., "--seed", help="Seed of the bag shuffles."),
        output: Path = typer.Option(..., "-o", "--output", help="Positions file to write."),
    ):
        """Play greedy bots against each other and write every position they pass through."""
        from tqdm import tqdm

        import lookup
        from pipeline.selfplay import selfplay as play
        from pipeline.selfplay import summary, write_selfplay

        cw = lookup.crossword_game(game)
        with tqdm(total=games, unit="game", desc=game) as bar:
            data = play(cw, games, seed, progress=lambda _result: bar.update())
        write_selfplay(data, output)
        stats = summary(data)
        typer.echo(f"{output}: {len(data['positions'])} positions from {games} games; "
                   f"{stats['points_per_play']:.1f} points per play, "
                   f"{stats['points_per_player_game']:.1f} per player per game")

