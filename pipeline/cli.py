"""The `wordpack` command: queries on built artifacts, and `wordpack build ...` for the stages.

Query commands live with their area (cli_lexicon, cli_guessing, cli_crossword); each module
exposes `register(app, build_app)`. Every WordpackError becomes one line on stderr and exit 1.
"""

import sys

import typer

from lookup.errors import WordpackError

app = typer.Typer(
    help="wordpack: offline word-game toolkit (lexicons, Wordle/Nerdle strategy, move finding).",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
build_app = typer.Typer(
    help="Pipeline stages (the Makefile calls these).",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)
app.add_typer(build_app, name="build")


def _register_areas() -> None:
    import importlib

    for name in ("cli_lexicon", "cli_guessing", "cli_equations", "cli_crossword", "cli_proofs"):
        try:
            module = importlib.import_module(f"pipeline.{name}")
        except ModuleNotFoundError as error:
            if error.name != f"pipeline.{name}":
                raise
            continue
        module.register(app, build_app)


_register_areas()


def main() -> None:
    """Console entry point: run the app, turning wordpack errors into one-line messages."""
    try:
        # Without standalone mode click returns a command's typer.Exit code instead of exiting.
        result = app(standalone_mode=False)
    except WordpackError as error:
        print(f"error: {error}", file=sys.stderr)
        sys.exit(1)
    except (typer.Abort, KeyboardInterrupt):
        print("aborted", file=sys.stderr)
        sys.exit(130)
    except Exception as error:  # click usage errors and the like
        import click

        if isinstance(error, click.ClickException):
            error.show()
            sys.exit(error.exit_code)
        raise
    sys.exit(result if isinstance(result, int) else 0)


if __name__ == "__main__":
    main()
