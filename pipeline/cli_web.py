"""Build stage of the static word-game helper site (make web)."""

from pathlib import Path

import typer


def register(app: typer.Typer) -> None:
    """Add the web stage to the `wordpack-build` app."""

    @app.command()
    def web(
        artifacts: Path = typer.Argument(..., help="The built artifacts directory."),
        output: Path = typer.Option(..., "-o", "--output", help="Site directory to write."),
    ):
        """Write the word finder and Wordle/Nerdle helper page with its readers and data."""
        from pipeline.build_web import build_web

        manifest = build_web(artifacts, output)
        typer.echo(f"{output}: {len(manifest['files'])} files")
        for page, loads in manifest["pages"].items():
            typer.echo(f"  page {page}: {loads['bytes']:,} bytes ({loads['gzip_bytes']:,} gzipped) "
                       f"in {len(loads['files'])} files")
