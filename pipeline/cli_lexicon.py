"""Build stages of the lexicons: lexicon, trie, dawg, gaddag, and the manifest of every artifact."""

import time
from pathlib import Path

import typer


def register(app: typer.Typer) -> None:
    """Add the lexicon stages and `manifest` to the `wordpack-build` app."""

    @app.command("lexicon")
    def build_lexicon_cmd(
        name: str = typer.Argument(..., help="Lexicon name, a table of the config file."),
        config: Path = typer.Option(Path("config/lexicons.toml"), help="Lexicon config."),
        sources: Path = typer.Option(Path("sources"), help="Directory of source lists."),
        output: Path = typer.Option(..., "-o", "--output", help="Normalized word list to write."),
    ):
        """Normalize a source list into a sorted word list."""
        from pipeline.build_lexicon import build_lexicon

        started = time.perf_counter()
        count = build_lexicon(name, config, sources, output)
        typer.echo(f"{output}: {count} words ({time.perf_counter() - started:.1f} s)")

    word_list_arg = typer.Argument(..., help="Normalized word list.")
    lexicon_opt = typer.Option(..., help="Lexicon name (its alphabet is in the config).")
    config_opt = typer.Option(Path("config/lexicons.toml"), help="Lexicon config.")
    output_opt = typer.Option(..., "-o", "--output", help="File to write.")

    @app.command("trie")
    def build_trie_cmd(word_list: Path = word_list_arg, lexicon: str = lexicon_opt,
                       config: Path = config_opt, output: Path = output_opt):
        """Compile a normalized word list into a packed trie (.trie)."""
        from pipeline.build_trie import build_trie

        _build_graph(build_trie, word_list, lexicon, config, output)

    @app.command("dawg")
    def build_dawg_cmd(word_list: Path = word_list_arg, lexicon: str = lexicon_opt,
                       config: Path = config_opt, output: Path = output_opt):
        """Compile a normalized word list into a minimal DAWG (.dawg)."""
        from pipeline.build_dawg import build_dawg

        _build_graph(build_dawg, word_list, lexicon, config, output)

    @app.command("gaddag")
    def build_gaddag_cmd(word_list: Path = word_list_arg, lexicon: str = lexicon_opt,
                         config: Path = config_opt, output: Path = output_opt):
        """Compile a normalized word list into a minimal GADDAG (.gaddag)."""
        from pipeline.build_gaddag import build_gaddag

        _build_graph(build_gaddag, word_list, lexicon, config, output)

    @app.command("manifest")
    def build_manifest_cmd(
        artifacts: Path = typer.Argument(Path("artifacts"), help="Artifacts directory."),
    ):
        """Write artifacts/manifest.json from the provenance sidecars of every artifact."""
        from pipeline.manifest import build_manifest

        entries = build_manifest(artifacts)
        typer.echo(f"{artifacts}/manifest.json: {len(entries)} artifacts")


def _build_graph(build, word_list: Path, lexicon: str, config: Path, output: Path) -> None:
    from pipeline.build_lexicon import load_config

    started = time.perf_counter()
    build(word_list, load_config(config, lexicon)["alphabet"], output)
    elapsed = time.perf_counter() - started
    typer.echo(f"{output}: {output.stat().st_size} bytes ({elapsed:.1f} s)")
