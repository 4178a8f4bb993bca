"""The `wordpack-build` command (also `python -m pipeline`): one command per Make stage.

The Makefile calls these; the query commands are `wordpack` (lookup/cli.py). Each area module
(cli_lexicon, cli_equations, cli_guessing, cli_crossword, cli_leaves, cli_proofs, cli_web)
adds its stages through `register(app)`. A usage error prints the usage and one line and exits 2;
a WordpackError prints one line and exits 1.
"""

import sys

from lookup.errors import UnknownName, WordpackError

try:
    import typer
    from typer.core import TyperGroup

    from pipeline import (
        cli_crossword,
        cli_equations,
        cli_guessing,
        cli_leaves,
        cli_lexicon,
        cli_proofs,
        cli_web,
    )
except ModuleNotFoundError as missing:  # a plain `pip install .` has only the runtime
    if missing.name.split(".")[0] in ("lookup", "pipeline"):
        raise
    sys.exit(f"error: wordpack-build needs the build extra ({missing.name} is not installed): "
             "pip install 'wordpack[build]'")


class _Stages(TyperGroup):
    """The command group; an unknown lexicon or game id is a usage error like a bad option."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except UnknownName as error:
            raise typer.BadParameter(str(error), ctx=ctx) from None


app = typer.Typer(
    cls=_Stages,
    help="wordpack build stages (the Makefile calls these; `wordpack` answers queries).",
    add_completion=False,
    pretty_exceptions_enable=False,
    # Plain usage errors: the usage and one line, not a rich panel.
    rich_markup_mode=None,
)
for area in (cli_lexicon, cli_equations, cli_guessing, cli_crossword, cli_leaves, cli_proofs,
             cli_web):
    area.register(app)


def main() -> None:
    """Console entry point: typer reports usage errors (exit 2); wordpack errors are one line."""
    try:
        app(prog_name="wordpack-build")
    except WordpackError as error:
        print(f"error: {error}", file=sys.stderr)
        sys.exit(1)
    except ModuleNotFoundError as missing:  # pyarrow, numba, tqdm: imported by the stages
        if missing.name.split(".")[0] in ("lookup", "pipeline"):
            raise
        sys.exit(f"error: wordpack-build needs the build extra ({missing.name} is not "
                 "installed): pip install 'wordpack[build]'")
    except KeyboardInterrupt:
        print("aborted", file=sys.stderr)
        sys.exit(130)


if __name__ == "__main__":
    main()
