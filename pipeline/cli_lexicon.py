"""CLI for lexicons: build stages (lexicon, trie, dawg, gaddag, manifest) and word queries."""

import json
import time
from pathlib import Path

import typer

from lookup.errors import BadInput

JSON_OPTION = typer.Option(False, "--json", help="Print JSON instead of text.")


def register(app: typer.Typer, build_app: typer.Typer) -> None:
    """Add the lexicon commands to the `wordpack` app and its `build` group."""

    @build_app.command("lexicon")
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

    @build_app.command("trie")
    def build_trie_cmd(word_list: Path = word_list_arg, lexicon: str = lexicon_opt,
                       config: Path = config_opt, output: Path = output_opt):
        """Compile a normalized word list into a packed trie (.trie)."""
        from pipeline.build_trie import build_trie

        _build_graph(build_trie, word_list, lexicon, config, output)

    @build_app.command("dawg")
    def build_dawg_cmd(word_list: Path = word_list_arg, lexicon: str = lexicon_opt,
                       config: Path = config_opt, output: Path = output_opt):
        """Compile a normalized word list into a minimal DAWG (.dawg)."""
        from pipeline.build_dawg import build_dawg

        _build_graph(build_dawg, word_list, lexicon, config, output)

    @build_app.command("gaddag")
    def build_gaddag_cmd(word_list: Path = word_list_arg, lexicon: str = lexicon_opt,
                         config: Path = config_opt, output: Path = output_opt):
        """Compile a normalized word list into a minimal GADDAG (.gaddag)."""
        from pipeline.build_gaddag import build_gaddag

        _build_graph(build_gaddag, word_list, lexicon, config, output)

    @build_app.command("manifest")
    def build_manifest_cmd(
        artifacts: Path = typer.Argument(Path("artifacts"), help="Artifacts directory."),
    ):
        """Write artifacts/manifest.json from the provenance sidecars of every artifact."""
        from pipeline.manifest import build_manifest

        entries = build_manifest(artifacts)
        typer.echo(f"{artifacts}/manifest.json: {len(entries)} artifacts")

    @app.command()
    def check(
        lexicon: str = typer.Argument(..., help="Lexicon name or .dawg path."),
        words: list[str] = typer.Argument(..., help="Words to look up."),
        as_json: bool = JSON_OPTION,
    ):
        """Say whether each word is in the lexicon (exit 1 if any is not)."""
        import lookup

        lex = lookup.lexicon(lexicon)
        found = {word: word.lower() in lex for word in words}
        if as_json:
            typer.echo(json.dumps(found, ensure_ascii=False))
        else:
            for word, ok in found.items():
                typer.echo(f"{word}: {'yes' if ok else 'no'}")
        if not all(found.values()):
            raise typer.Exit(1)

    @app.command()
    def anagram(
        lexicon: str = typer.Argument(..., help="Lexicon name or .dawg path."),
        letters: str = typer.Argument(..., help="Letters; ? is a blank."),
        as_json: bool = JSON_OPTION,
    ):
        """Words that use exactly these letters."""
        import lookup

        _print_words(lookup.lexicon(lexicon).anagrams(letters), as_json)

    @app.command()
    def unscramble(
        lexicon: str = typer.Argument(..., help="Lexicon name or .dawg path."),
        letters: str = typer.Argument(..., help="Letters; ? is a blank."),
        min_len: int = typer.Option(2, "--min-len", help="Shortest word."),
        starts: str = typer.Option("", help="Word starts with."),
        ends: str = typer.Option("", help="Word ends with."),
        contains: str = typer.Option("", help="Word contains."),
        game: str = typer.Option(None, help="Score each word in this crossword game."),
        as_json: bool = JSON_OPTION,
    ):
        """Every word that can be made from these letters (a word finder)."""
        import lookup

        lex = lookup.lexicon(lexicon)
        found = lex.unscramble(letters, min_len=min_len, starts=starts, ends=ends,
                               contains=contains)
        if game is None:
            _print_words(found, as_json)
            return
        scorer = lookup.crossword_game(game)
        found = sorted(((w, scorer.rack_score(w, letters)) for w in found),
                       key=lambda pair: (-pair[1], -len(pair[0]), pair[0]))
        if as_json:
            typer.echo(json.dumps([{"word": w, "score": s} for w, s in found], ensure_ascii=False))
        else:
            for word, score in found or [("(no words)", "")]:
                typer.echo(f"{score:>4}  {word}")

    @app.command()
    def match(
        lexicon: str = typer.Argument(..., help="Lexicon name or .dawg path."),
        pattern: str = typer.Argument(..., help="? one letter, * any run, letters fixed."),
        as_json: bool = JSON_OPTION,
    ):
        """Words matching a pattern such as c?t*."""
        import lookup

        _print_words(lookup.lexicon(lexicon).match(pattern), as_json)

    @app.command()
    def info(as_json: bool = JSON_OPTION):
        """What is built: every artifact with its size, format and licences."""
        from lookup.paths import artifacts_dir

        manifest_path = artifacts_dir() / "manifest.json"
        if not manifest_path.is_file():
            raise BadInput(f"{manifest_path} does not exist: run `make` to build the artifacts")
        manifest = json.loads(manifest_path.read_text())
        if as_json:
            typer.echo(json.dumps(manifest, indent=1, ensure_ascii=False))
            return
        width = max((len(e["path"]) for e in manifest["artifacts"]), default=4)
        typer.echo(f"{'artifact':<{width}}  {'bytes':>11}  {'format':<14} licences")
        for entry in manifest["artifacts"]:
            typer.echo(f"{entry['path']:<{width}}  {entry['size']:>11,}  "
                       f"{entry['format'] + ' v' + str(entry['version']):<14} "
                       f"{', '.join(entry['licences']) or '-'}")


def _build_graph(build, word_list: Path, lexicon: str, config: Path, output: Path) -> None:
    from pipeline.build_lexicon import load_config

    started = time.perf_counter()
    build(word_list, load_config(config, lexicon)["alphabet"], output)
    elapsed = time.perf_counter() - started
    typer.echo(f"{output}: {output.stat().st_size} bytes ({elapsed:.1f} s)")


def _print_words(words: list[str], as_json: bool) -> None:
    if as_json:
        typer.echo(json.dumps(words, ensure_ascii=False))
        return
    if not words:
        typer.echo("(no words)")
        return
    length = None
    for word in words:
        if len(word) != length:
            length = len(word)
            typer.echo(f"{length} letters:")
        typer.echo(f"  {word}")
