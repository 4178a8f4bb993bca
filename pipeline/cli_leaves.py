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
        player: str = typer.Option("equity", "--player",
                                   help="Self-play bot: equity, or turn-equity (turns of several "
                                   "words, Erudit only)."),
        initial_table: Path = typer.Option(None, "--initial-table",
                                           help="Leave table the first iteration plays with "
                                           "(default: every leave 0)."),
    ):
        """Learn a crossword game's leave values by iterated self-play and write the table,
        with its recipe beside it (<output>.json: the command, the figures, the sha256).
        """
        import json
        import sys

        from lookup.formats import sha256_file
        from pipeline.atomic import atomic_output
        from pipeline.train_leaves import train

        with Bars(rules.stem) as bars:
            recipe = train(rules, artifacts, games=games, iterations=iterations, seed=seed,
                           run_dir=run_dir, output=output, chunk=chunk, workers=workers,
                           scheduler=scheduler or None, progress=bars.update, player=player,
                           initial_table=initial_table)
        recipe = dict(recipe, command="wordpack-build " + " ".join(sys.argv[1:]),
                      sha256=sha256_file(output))
        with atomic_output(output.with_name(output.name + ".json"), "w") as out:
            json.dump(recipe, out, indent=1, sort_keys=True)
            out.write("\n")
        last = recipe["history"][-1] if recipe["history"] else {}
        typer.echo(f"{output}: {games} games x {iterations} iterations; "
                   f"{json.dumps(last)}")

    @app.command("leaves-install")
    def leaves_install(
        source: Path = typer.Argument(..., help="Committed table sources/leaves/<id>.leaves."),
        rules: Path = typer.Option(..., "--rules", help="The game's rules artifact."),
        output: Path = typer.Option(..., "-o", "--output", help="Leave table artifact."),
    ):
        """Check a committed leave table against the game's rules and install it."""
        from pipeline.train_leaves import install_leaves

        table = install_leaves(source, rules, output)
        typer.echo(f"{output}: {len(table)} leaves, trained on "
                   f"{table.header['recipe'].get('games_per_iteration', '?')} games x "
                   f"{table.header['recipe'].get('iterations', '?')} iterations")

    @app.command("leaves-reproduce")
    def leaves_reproduce(
        source: Path = typer.Argument(..., help="Committed table sources/leaves/<id>.leaves."),
        rules: Path = typer.Option(..., "--rules", help="The game's rules artifact."),
        run_dir: Path = typer.Option(..., "--run-dir", help="Checkpoints of the new run."),
        artifacts: Path = typer.Option(Path("artifacts"), "--artifacts",
                                       help="Artifacts the workers read the game from."),
        workers: int = typer.Option(2, "--workers", min=1,
                                    help="Processes of the local Dask cluster."),
        scheduler: str = typer.Option("", "--scheduler", help="Address of a Dask scheduler."),
        initial_table: Path = typer.Option(None, "--initial-table",
                                           help="The table the recipe started from, when it "
                                           "did (its sha256 is in the recipe)."),
    ):
        """Train a committed leave table again from its recipe; fail unless the values match."""
        from lookup.errors import WordpackError
        from pipeline.train_leaves import reproduce

        with Bars(rules.stem) as bars:
            same, recipe = reproduce(source, rules, artifacts, run_dir, workers,
                                     scheduler or None, bars.update,
                                     initial_table=initial_table)
        if not same:
            raise WordpackError(f"{source}: retraining (code {recipe['code_version']} then, "
                                "now this checkout) gives other values")
        typer.echo(f"{source}: reproduced")


class Bars:
    """One tqdm progress bar per training iteration (a context manager closing them)."""

    def __init__(self, label: str):
        self.label = label
        self.bar = None
        self.iteration = None

    def __enter__(self):
        """The bars."""
        return self

    def update(self, iteration: int, done: int, total: int) -> None:
        """Show `done` of `total` games of an iteration."""
        from tqdm import tqdm

        if iteration != self.iteration:
            self.close()
            self.iteration = iteration
            self.bar = tqdm(total=total, unit="game", desc=f"{self.label} iteration {iteration}")
        self.bar.update(done - self.bar.n)

    def close(self) -> None:
        """Close the bar of the current iteration."""
        if self.bar is not None:
            self.bar.close()
            self.bar = None

    def __exit__(self, *exc):
        """Close the last bar."""
        self.close()
