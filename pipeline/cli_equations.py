"""Build stage of the Nerdle equation lists: `wordpack-build equations`."""

from pathlib import Path

import typer

from pipeline.generate_equations import write_equation_list


def register(app: typer.Typer) -> None:
    """Add the equations stage to the `wordpack-build` app."""

    @app.command("equations")
    def equations(
        length: int = typer.Option(..., help="Symbols per equation (Nerdle classic: 8)."),
        kind: str = typer.Option(..., help="answers or guesses (guesses allow a lone 0)."),
        output: Path = typer.Option(..., "-o", "--output", help="The equation list to write."),
    ) -> None:
        """Generate every valid Nerdle equation of one length and kind as an equation list."""
        count = write_equation_list(output, length, kind)
        typer.echo(f"{output}: {count} equations (length {length}, {kind})")
