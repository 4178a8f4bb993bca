"""CLI for guessing games: build stages (game, guessing-make, guessing-index, feedback, openers,
tree) and queries (solve, play, opener, tree)."""

import json
import time
from pathlib import Path

import typer

from lookup.errors import BadInput

JSON_OPTION = typer.Option(False, "--json", help="Print JSON instead of text.")
HARD_OPTION = typer.Option(False, "--hard", help="Hard mode: every guess uses every hint.")


def parse_guess_option(text: str) -> tuple[str, str]:
    """`salet=00001` (or `salet:gybbb`, `salet=🟩⬛🟨⬛⬛`) -> ("salet", "00001").

    The last '=' or ':' separates: feedback never contains one, a Nerdle guess does
    (`54-36=18=20100000` -> ("54-36=18", "20100000")).
    """
    cut = max(text.rfind("="), text.rfind(":"))
    word, feedback = text[:cut].strip(), text[cut + 1:].strip()
    if cut >= 0 and word and feedback:
        return word, feedback
    raise BadInput(f"--guess {text!r}: write it as WORD=FEEDBACK, e.g. salet=00001")


def _table(rows: list[dict]) -> str:
    lines = [f"{'guess':<10} {'groups':>6} {'largest':>7} {'exp.left':>9} {'bits':>6} "
             f"{'answer?':>7} {'exp.guesses':>11}"]
    for row in rows:
        expected = "" if row["expected_guesses"] is None else f"{row['expected_guesses']:.4f}"
        lines.append(f"{row['guess']:<10} {row['groups']:>6} {row['largest']:>7} "
                     f"{row['expected_remaining']:>9.3f} {row['entropy']:>6.3f} "
                     f"{'yes' if row['is_candidate'] else '':>7} {expected:>11}")
    return "\n".join(lines)


def _stats_text(stats: dict, header: dict) -> str:
    lines = [f"root {header['root']}: total {stats['total']}, mean {stats['mean']:.4f}, "
             f"max {stats['max']}",
             f"optimal: {header['optimal_over']}" if header["proven_optimal"] else "not proven",
             f"root choice: {header['root_choice']}"]
    lines += [f"  {depth} guesses: {count}" for depth, count in stats["histogram"].items()]
    return "\n".join(lines)


def register(app: typer.Typer, build_app: typer.Typer) -> None:
    """Add the guessing-game commands to the `wordpack` app and its `build` group."""
    output_opt = typer.Option(..., "-o", "--output", help="File to write.")

    @build_app.command("game")
    def build_game_cmd(
        config: Path = typer.Argument(..., help="config/guessing.toml or a _<id>.config.json."),
        game: str = typer.Argument(..., help="Game id, a table of the config."),
        sources: Path = typer.Option(Path("sources"), help="What config paths sources/ mean."),
        artifacts: Path = typer.Option(Path("artifacts"),
                                       help="What config paths artifacts/ mean."),
        output: Path = output_opt,
    ):
        """Write a game's answer and guess lists and its descriptor (<id>.game.json)."""
        from pipeline.build_game import build_game

        descriptor = build_game(config, game, sources, artifacts, output)
        typer.echo(f"{output}: {descriptor['answers']['count']} answers, "
                   f"{descriptor['guesses']['count']} allowed guesses")

    @build_app.command("guessing-make")
    def guessing_make_cmd(
        config: Path = typer.Argument(..., help="config/guessing.toml"),
        fragments: Path = typer.Option(..., help="Directory for the per-game _<id>.config.json."),
        output: Path = output_opt,
    ):
        """Write the Makefile fragment listing the games and their sources, and each game's
        own config file (rewritten only when its table changes)."""
        from pipeline.build_game import make_rules

        make_rules(config, output, fragments)

    @build_app.command("guessing-index")
    def guessing_index_cmd(config: Path = typer.Argument(..., help="config/guessing.toml"),
                           output: Path = output_opt):
        """Write games.json, the configured game ids the runtime knows."""
        from pipeline.build_game import build_index

        index = build_index(config, output)
        typer.echo(f"{output}: {len(index['games'])} games")

    @build_app.command("feedback")
    def build_feedback_cmd(game: Path = typer.Argument(..., help="<id>.game.json"),
                           output: Path = output_opt):
        """Compute the feedback matrix (<id>.feedback.npy) and its header."""
        from pipeline.build_feedback import build_feedback

        started = time.perf_counter()
        header = build_feedback(game, output)
        typer.echo(f"{output}: {header['shape'][0]} x {header['shape'][1]} {header['dtype']} "
                   f"({time.perf_counter() - started:.1f} s)")

    @build_app.command("openers")
    def build_openers_cmd(matrix: Path = typer.Argument(..., help="<id>.feedback.npy"),
                          output: Path = output_opt):
        """Write the opener table (<id>.openers.parquet)."""
        from pipeline.build_openers import build_openers

        table = build_openers(matrix, output)
        typer.echo(f"{output}: {table.num_rows} openers")

    @build_app.command("tree")
    def build_tree_cmd(matrix: Path = typer.Argument(..., help="<id>.feedback.npy"),
                       hard: bool = HARD_OPTION, output: Path = output_opt):
        """Search the optimal decision tree and write it (<id>[.hard].tree.msgpack)."""
        from pipeline.build_tree import build_tree

        started = time.perf_counter()
        header = build_tree(matrix, output, hard=hard)
        typer.echo(f"{output}: root {header['root']}, total {header['total']}, max "
                   f"{header['max']}, {header['nodes_visited']} nodes "
                   f"({time.perf_counter() - started:.1f} s)")

    @app.command()
    def solve(
        game: str = typer.Argument(..., help="Game id, e.g. wordle-en."),
        guess: list[str] = typer.Option([], "--guess", "-g",
                                        help="WORD=FEEDBACK, repeatable, in playing order."),
        hard: bool = HARD_OPTION,
        top: int = typer.Option(10, help="Suggestions to show."),
        as_json: bool = JSON_OPTION,
    ):
        """Show the answers still possible and the best next guesses."""
        import lookup.guessing

        g = lookup.guessing.guessing_game(game)
        history = [parse_guess_option(item) for item in guess]
        candidates = g.candidates(history, hard=hard)
        rows = g.rank(history, n=top, hard=hard)
        suggestion = g.next_guess(history, hard=hard)
        if as_json:
            typer.echo(json.dumps({"candidates": candidates, "next_guess": suggestion,
                                   "rank": rows}, ensure_ascii=False))
            return
        shown = " ".join(candidates[:50]) + (" ..." if len(candidates) > 50 else "")
        typer.echo(f"{len(candidates)} possible: {shown}")
        typer.echo(f"next guess: {suggestion}")
        typer.echo(_table(rows))

    @app.command()
    def play(game: str = typer.Argument(..., help="Game id, e.g. wordle-en."),
             hard: bool = HARD_OPTION):
        """Play along: suggests a guess, asks what you played and its colours, repeats."""
        import lookup.guessing

        from lookup.feedback import all_green
        from lookup.guessing import parse_feedback

        g = lookup.guessing.guessing_game(game)
        history: list[tuple[str, str]] = []
        typer.echo(f"{g.name}: type the colours as digits (20100), letters (gybbb) or squares.")
        while len(history) < g.max_guesses:
            suggestion = g.next_guess(history, hard=hard)
            left = len(g.candidates(history))
            word = typer.prompt(f"guess {len(history) + 1} ({left} possible; suggestion)",
                                default=suggestion).strip().lower()
            colours = typer.prompt(f"colours for {word}").strip()
            step = history + [(word, colours)]
            try:
                g.candidates(step, hard=hard)  # validates word, colours and hard-mode hints
            except BadInput as error:
                typer.echo(f"error: {error}", err=True)
                continue
            history = step
            if parse_feedback(colours, g.length) == all_green(g.length):
                typer.echo(f"solved in {len(history)}")
                return
        typer.echo("out of guesses")

    @app.command()
    def opener(game: str = typer.Argument(..., help="Game id, e.g. wordle-en."),
               word: str = typer.Argument(..., help="The first guess to rate."),
               hard: bool = HARD_OPTION, as_json: bool = JSON_OPTION):
        """Rate a first guess: groups, largest group, expected remaining, entropy."""
        import lookup.guessing

        row = lookup.guessing.guessing_game(game).evaluate(word, hard=hard)
        if as_json:
            typer.echo(json.dumps(row, ensure_ascii=False))
            return
        typer.echo(_table([row]))

    @app.command()
    def tree(game: str = typer.Argument(..., help="Game id, e.g. wordle-en."),
             hard: bool = HARD_OPTION, as_json: bool = JSON_OPTION):
        """Statistics of the stored decision tree: total, mean, max, histogram."""
        import lookup.guessing

        g = lookup.guessing.guessing_game(game)
        stats = g.tree_stats(hard=hard)
        if as_json:
            typer.echo(json.dumps(stats))
            return
        typer.echo(_stats_text(stats, g.tree_info(hard=hard)))
