"""CLI for opener proofs: `wordpack-build proofs` (the Dask run), `proof-table` (install a
committed table into the artifacts) and `proof-compare` (the reprove check).
"""

import shlex
import sys
from pathlib import Path

import typer

from lookup.errors import BadInput


def register(app: typer.Typer) -> None:
    """Add the proof stages to the build CLI."""

    @app.command("proofs")
    def proofs_cmd(
        npy: Path = typer.Argument(..., help="The game's <id>.feedback.npy."),
        output: Path = typer.Option(..., "-o", "--output", help="The <id>.proof.parquet to "
                                    "write (its recipe <id>.proof.json goes beside it)."),
        modes: str = typer.Option("normal,hard", help="normal, hard or both (comma-separated)."),
        checkpoints: Path = typer.Option(None, help="Directory for finished chunks (resume "
                                         "here); default _proofs/ beside the output."),
        workers: int = typer.Option(0, help="Local worker processes; 0: one per core."),
        scheduler: str = typer.Option(None, help="Address of a Dask scheduler (a cluster) "
                                      "instead of a local one, e.g. tcp://10.0.0.5:8786."),
        margin: int = typer.Option(0, help="Openers within this many guesses of the best "
                                   "found get exact totals too."),
        chunk_size: int = typer.Option(32, help="Openers per Dask task."),
        same_as: Path = typer.Option(None, help="A committed table: prove with its modes and "
                                     "margin, then fail unless the same table comes out."),
    ) -> None:
        """Prove every allowed opener of a game: exact totals or bounds above the best."""
        from pipeline.proof_table import compare_proofs, settings_of
        from pipeline.prove_openers import prove_openers

        mode_list = [m.strip() for m in modes.split(",") if m.strip()]
        if same_as is not None:
            settings = settings_of(same_as)
            mode_list, margin = settings["modes"], settings["margin"]
        command = shlex.join(["python", "-m", "pipeline", *sys.argv[1:]])
        recipe = prove_openers(npy, output, mode_list, checkpoints, workers, scheduler, margin,
                               chunk_size, command=command)
        for mode, run in recipe["modes"].items():
            opener, total = run["incumbent"]
            typer.echo(f"{output} {mode}: {run['searched']} searched, {run['bound_screened']} "
                       f"by bound; incumbent {opener} {total}; {run['cpu_seconds']:.0f} CPU s")
        if same_as is not None:
            differences = compare_proofs(same_as, output)
            if differences:
                raise BadInput(f"{output} differs from {same_as}: {differences[0]} "
                               f"({len(differences)} differences)")
            typer.echo(f"{output}: the same table as {same_as}")

    @app.command("proof-table")
    def proof_table_cmd(
        committed: Path = typer.Argument(..., help="sources/proofs/<id>.proof.parquet"),
        game: Path = typer.Option(..., "--game", help="The game's <id>.game.json (its lists "
                                  "beside it)."),
        output: Path = typer.Option(..., "-o", "--output", help="The artifact to write."),
    ) -> None:
        """Check a committed proof table against the game's lists and install it."""
        from pipeline.prove_openers import install_proof

        install_proof(committed, game, output)
        typer.echo(f"{output}: from {committed}")
