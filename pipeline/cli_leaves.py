"""Build stage of the leave tables: iterated self-play on Dask (pipeline/train_leaves.py)."""

from pathlib import Path

import typer


def register(app: typer.Typer) -> None:
    """Add the leave-table stage to the `wordpack-build` app."""

    @app.command()
    def leaves(
        rules: Path = typer.Argument(..., help="Rules artifact artifacts/crossword/<id>.json."),
        games: int = typer.Option(..., "--games", min=1, help="Self-play games per iteration."),
        iterations: int = typer.Option(..., "--iterations", min=1,
                                       help="Rounds of self-play and re-learning."),
        seed: int = typer.Option(..., "--seed", help="Seeds every game."),
        run_dir: Path = typer.Option(..., "--run-dir",
                                     help="Checkpoints (resumed when it exists)."),
        output: Path = typer.Option(..., "-o", "--output", help="Leave table to write."),
        artifacts: Path = typer.Option(Path("artifacts"), "--artifacts",
                                       help="Artifacts the workers read the game from."),
        chunk: int = typer.Option(100, "--chunk", min=1, help="Games per Dask task."),
        workers: int = typer.Option(2, "--workers", min=1,
                                    help="Processes of the local Dask cluster."),
        scheduler: str = typer.Option("", "--scheduler",
                                      help="Address of a Dask scheduler (default: a local "
                                      "cluster)."),
    ):
        """Learn a crossword game's leave values by iterated self-play and write the table."""
        import json

        from tqdm import tqdm

        from pipeline.train_leaves import train

        bars: dict = {}

        def progress(iteration: int, done: int, total: int) -> None:
            bar = bars.get(iteration)
            if bar is None:
                for old in bars.values():
                    old.close()
                bar = bars[iteration] = tqdm(total=total, unit="game",
                                             desc=f"{rules.stem} iteration {iteration}")
            bar.update(done - bar.n)

        recipe = train(rules, artifacts, games=games, iterations=iterations, seed=seed,
                       run_dir=run_dir, output=output, chunk=chunk, workers=workers,
                       scheduler=scheduler or None, progress=progress)
        for bar in bars.values():
            bar.close()
        last = recipe["history"][-1] if recipe["history"] else {}
        typer.echo(f"{output}: {games} games x {iterations} iterations; "
                   f"{json.dumps(last)}")
