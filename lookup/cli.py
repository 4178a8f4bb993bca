"""The `wordpack` command: queries on built artifacts (standard library and the runtime only).

Usage: wordpack COMMAND ARGS... (`wordpack --help` lists the commands by area, COMMAND_GROUPS;
`wordpack COMMAND --help` their arguments). Artifacts are read from $WORDPACK_ARTIFACTS, else the
checkout's artifacts/ (lookup/paths.py). The build stages are a separate command,
`wordpack-build` (pipeline/cli.py).

Exit status: 0 done; 1 a WordpackError (one line on stderr: what is wrong and what to do) or a
`check` word that is not in the lexicon; 2 a usage error (the usage, then one line), which
includes an unknown lexicon or game; 130 interrupted.
"""

import argparse
import json
import sys
import time

import lookup
from lookup.errors import BadInput, CorruptArtifact, UnknownName, WordpackError

CANDIDATES_SHOWN = 50


# --- argument types: a bad value is a usage error ---------------------------------------------

def positive_int(text: str) -> int:
    """An integer >= 1 (an argparse type)."""
    value = _int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def plies_or_end(text: str) -> int | None:
    """An integer >= 1, or "end" (None: to the end of the game) (an argparse type)."""
    return None if text.strip().lower() == "end" else positive_int(text)


def positive_float(text: str) -> float:
    """A number > 0 (an argparse type)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be positive, not {text}")
    return value


def non_negative_int(text: str) -> int:
    """An integer >= 0 (an argparse type)."""
    value = _int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be at least 0, not {value}")
    return value


def _int(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None


def parse_guess_option(text: str) -> tuple[str, str]:
    """`salet=00001` (or `salet:gybbb`, `salet=🟩⬛🟨⬛⬛`) -> ("salet", "00001").

    The last '=' or ':' separates: feedback never contains one, a Nerdle guess does
    (`54-36=18=20100000` -> ("54-36=18", "20100000")).

    Raises:
        argparse.ArgumentTypeError: no separator, or nothing on one side of it.
    """
    cut = max(text.rfind("="), text.rfind(":"))
    word, feedback = text[:cut].strip(), text[cut + 1:].strip()
    if cut >= 0 and word and feedback:
        return word, feedback
    raise argparse.ArgumentTypeError(f"{text!r}: write it as WORD=FEEDBACK, e.g. salet=00001")


# --- lexicon queries --------------------------------------------------------------------------

def check(args) -> int:
    """Say whether each word is in the lexicon; 1 when one is not."""
    lex = lookup.lexicon(args.lexicon)
    found = {word: word.lower() in lex for word in args.words}
    if args.json:
        print(json.dumps(found, ensure_ascii=False))
    else:
        for word, ok in found.items():
            print(f"{word}: {'yes' if ok else 'no'}")
    return 0 if all(found.values()) else 1


def anagram(args) -> int:
    """Words that use exactly these letters."""
    _print_words(lookup.lexicon(args.lexicon).anagrams(args.letters), args.json)
    return 0


def unscramble(args) -> int:
    """Words made from some of these letters; with --game, scored in that crossword game."""
    game = None if args.game is None else lookup.crossword_game(args.game)
    words = lookup.lexicon(args.lexicon).unscramble(
        args.letters, min_len=args.min_len, starts=args.starts, ends=args.ends,
        contains=args.contains)
    if game is None:
        _print_words(words, args.json)
        return 0
    scored = sorted(((word, game.rack_score(word, args.letters)) for word in words),
                    key=lambda pair: (-pair[1], -len(pair[0]), pair[0]))
    if args.json:
        print(json.dumps([{"word": w, "score": s} for w, s in scored], ensure_ascii=False))
    else:
        for word, score in scored or [("(no words)", "")]:
            print(f"{score:>4}  {word}")
    return 0


def match(args) -> int:
    """Words matching a pattern."""
    if args.pattern is None:
        args.parser.error(_missing_pattern(args.lexicon))
    _print_words(lookup.lexicon(args.lexicon).match(args.pattern), args.json)
    return 0


def _missing_pattern(name: str) -> str:
    """The usage error of `wordpack match NAME` without a pattern.

    `wordpack match GAME --a BOT ...` used to play a bot match: when NAME is a built crossword
    game, the message points to `wordpack bots`.
    """
    from lookup.crossword.game import crossword_games

    message = "the following arguments are required: pattern"
    if name in crossword_games():
        message += (f" ({name} is a crossword game: for a bot match use `wordpack bots {name} "
                    "--a BOT --b BOT ...`)")
    return message


def leave(args) -> int:
    """The value in points of keeping some tiles in a crossword game ('?' a blank)."""
    game = lookup.crossword_game(args.game)
    value = game.leave(args.tiles)
    if args.json:
        print(json.dumps({"game": args.game, "tiles": args.tiles, "value": value}))
    else:
        print(f"{args.tiles}: {value:+.2f} points")
    return 0


def info(args) -> int:
    """Every built artifact with its size, format and licences (from manifest.json).

    With --verify, each file's size and sha256 are checked against the manifest (the loaders
    check only headers, shapes and the small lists' checksums).
    """
    from lookup.formats import (
        MANIFEST_EARLIEST_SUPPORTED_VERSION,
        MANIFEST_FIELDS,
        MANIFEST_FORMAT,
        MANIFEST_NAME,
        MANIFEST_VERSION,
        sha256_file,
    )
    from lookup.headers import read_json_header
    from lookup.paths import artifacts_dir

    directory = artifacts_dir()
    manifest_path = directory / MANIFEST_NAME
    manifest = read_json_header(manifest_path, make_target="artifacts", sealed=True,
                                format=MANIFEST_FORMAT,
                                versions=(MANIFEST_EARLIEST_SUPPORTED_VERSION, MANIFEST_VERSION),
                                fields=MANIFEST_FIELDS)
    entries = manifest["artifacts"]
    problems = {}
    if args.verify:
        for entry in entries:
            path = directory / entry["path"]
            if not path.is_file():
                problems[entry["path"]] = "missing"
            elif path.stat().st_size != entry["size"] or sha256_file(path) != entry["sha256"]:
                problems[entry["path"]] = "differs"
    if args.json:
        if args.verify:
            manifest = {**manifest, "problems": problems}
        print(json.dumps(manifest, indent=1, ensure_ascii=False))
    else:
        width = max((len(e["path"]) for e in entries), default=4)
        print(f"{'artifact':<{width}}  {'bytes':>11}  {'format':<18} licences")
        for entry in entries:
            status = f"  [{problems.get(entry['path'], 'ok')}]" if args.verify else ""
            print(f"{entry['path']:<{width}}  {entry['size']:>11,}  "
                  f"{entry['format'] + ' v' + str(entry['version']):<18} "
                  f"{', '.join(entry['licences']) or '-'}{status}")
    if problems:
        raise CorruptArtifact(f"{len(problems)} of {len(entries)} artifacts do not match "
                              f"{manifest_path} ({', '.join(sorted(problems))}): run `make` to "
                              "rebuild them")
    if args.verify and not args.json:
        print(f"all {len(entries)} artifacts match {manifest_path}")
    return 0


def _print_words(words: list[str], as_json: bool) -> None:
    if as_json:
        print(json.dumps(words, ensure_ascii=False))
        return
    if not words:
        print("(no words)")
        return
    length = None
    for word in words:
        if len(word) != length:
            length = len(word)
            print(f"{length} letters:")
        print(f"  {word}")


# --- guessing games ---------------------------------------------------------------------------

def solve(args) -> int:
    """The answers still possible and the best next guesses."""
    game = lookup.guessing_game(args.game)
    history = args.guess
    candidates = game.candidates(history, hard=args.hard)
    rows = game.rank(history, n=args.top, hard=args.hard)
    suggestion = game.next_guess(history, hard=args.hard)
    if args.json:
        print(json.dumps({"candidates": candidates, "next_guess": suggestion, "rank": rows},
                         ensure_ascii=False))
        return 0
    shown = " ".join(candidates[:CANDIDATES_SHOWN])
    more = " ..." if len(candidates) > CANDIDATES_SHOWN else ""
    print(f"{len(candidates)} possible: {shown}{more}")
    print(f"next guess: {suggestion}")
    print(_rank_table(rows))
    return 0


def play(args) -> int:
    """Play along: suggest a guess, ask what was played and its colours, until solved.

    It goes on up to the depth of the stored tree when that is deeper than the game's guess
    limit (hard trees of some games need more than 6 guesses), so that following the tree
    always reaches the answer.
    """
    from lookup.guessing.feedback import all_green
    from lookup.guessing.game import parse_feedback

    game = lookup.guessing_game(args.game)
    limit = max(game.max_guesses, _tree_depth(game, args.hard))
    history: list[tuple[str, str]] = []
    print(f"{game.name}: type the colours as digits (20100), letters (gybbb) or squares.")
    while len(history) < limit:
        suggestion = game.next_guess(history, hard=args.hard)
        left = len(game.candidates(history, hard=args.hard))
        word = input(f"guess {len(history) + 1} ({left} possible; suggestion) [{suggestion}]: ")
        word = word.strip().lower() or suggestion
        colours = input(f"colours for {word}: ").strip()
        step = history + [(word, colours)]
        try:
            game.candidates(step, hard=args.hard)  # checks the word, the colours, hard mode
        except BadInput as error:
            print(f"error: {error}", file=sys.stderr)
            continue
        history = step
        if parse_feedback(colours, game.length) == all_green(game.length):
            print(f"solved in {len(history)}")
            return 0
    print("out of guesses")
    return 0


def _tree_depth(game, hard: bool) -> int:
    """Most guesses the stored tree needs, 0 when the tree is not built."""
    try:
        return game.tree_stats(hard=hard)["max"]
    except lookup.ArtifactMissing:
        return 0


def opener(args) -> int:
    """Rate a first guess: groups, largest group, expected remaining, entropy."""
    row = lookup.guessing_game(args.game).evaluate(args.word, hard=args.hard)
    print(json.dumps(row, ensure_ascii=False) if args.json else _rank_table([row]))
    return 0


def tree(args) -> int:
    """Statistics of the stored decision tree: total, mean, max, histogram."""
    game = lookup.guessing_game(args.game)
    stats = game.tree_stats(hard=args.hard)
    if args.json:
        print(json.dumps(stats))
        return 0
    header = game.tree_info(hard=args.hard)
    print(f"root {header['root']}: total {stats['total']}, mean {stats['mean']:.4f}, "
          f"max {stats['max']}")
    print(f"optimal: {header['optimal_over']}" if header["proven_optimal"] else "not proven")
    print(f"root choice: {header['root_choice']}")
    for depth, count in stats["histogram"].items():
        print(f"  {depth} guesses: {count}")
    return 0


def _rank_table(rows: list[dict]) -> str:
    lines = [f"{'guess':<10} {'groups':>6} {'largest':>7} {'exp.left':>9} {'bits':>6} "
             f"{'answer?':>7} {'exp.guesses':>11}"]
    for row in rows:
        expected = "" if row["expected_guesses"] is None else f"{row['expected_guesses']:.4f}"
        lines.append(f"{row['guess']:<10} {row['groups']:>6} {row['largest']:>7} "
                     f"{row['expected_remaining']:>9.3f} {row['entropy']:>6.3f} "
                     f"{'yes' if row['is_candidate'] else '':>7} {expected:>11}")
    return "\n".join(lines)


# --- crossword games --------------------------------------------------------------------------

def moves(args) -> int:
    """The best moves for a board and rack, and the best one drawn on the board."""
    game, position = _crossword_position(args)
    game.tables()  # load the lexicon before the clock starts
    started = time.perf_counter()
    proven = None
    if args.seconds is not None and game.rules.placement == "multi":
        answer = game.search_turns(position, args.rack, args.top, seconds=args.seconds,
                                   by=args.by, bag=args.bag, unseen=args.unseen)
        found, proven = answer.moves, answer.proven
    else:
        found = game.moves(position, args.rack, top=args.top, bag=args.bag, by=args.by,
                           unseen=args.unseen)
    elapsed = time.perf_counter() - started
    if args.json:
        proof = {} if proven is None else {"proven": proven}
        print(json.dumps({"game": args.game, "rack": args.rack,
                          "moves": [move.to_dict() for move in found], **proof},
                         ensure_ascii=False, indent=1))
        return 0
    by_equity = args.by == "equity"
    values = f" {'leave':>7} {'equity':>7}" if by_equity else ""
    print(f"{'#':>3} {'score':>5}{values}  {'move':<10} {'word':<16} words formed")
    for rank, move in enumerate(found, start=1):
        if move.kind == "play":
            where = f"{move.direction} {move.row},{move.col}"
            word = move.notation().split()[2]
            formed = " ".join(w.upper() for w in move.words)
        elif move.kind == "turn":  # several plays in one turn (Erudit): the parts in order
            where = "turn"
            word = move.notation().rsplit(" ", 1)[0]
            formed = " ".join(w.upper() for w in move.words)
        else:
            where, word, formed = move.kind, move.exchanged, ""
        values = f" {move.leave:>+7.2f} {move.equity:>7.2f}" if by_equity else ""
        print(f"{rank:>3} {move.score:>5}{values}  {where:<10} {word:<16} {formed}")
    print(f"({len(found)} shown, {elapsed * 1000:.1f} ms)")
    if proven is not None:
        print("proven best" if proven else f"best found in {args.seconds:g} s, not proven best")
    if found and found[0].kind in ("play", "turn"):
        print()
        print(game.render(position, found[0]), end="")
    return 0


def sim(args) -> int:
    """Simulate the best candidate plays (Monte Carlo over the unseen tiles), best first."""
    game, position = _crossword_position(args)
    from lookup.crossword.engine import move_engine
    from lookup.crossword.simulate import default_leave, simulate

    engine = move_engine(game)
    bar = _progress_bar("simulating") if sys.stderr.isatty() else None
    rows = simulate(engine, position, args.rack, unseen=args.unseen, candidates=args.candidates,
                    plies=args.plies, iterations=args.iterations, seconds=args.seconds,
                    seed=args.seed, progress=bar, threads=args.threads)
    if bar is not None:
        print(file=sys.stderr)
    if args.json:
        print(json.dumps([{"move": row.move.to_dict(), "mean": row.mean, "stderr": row.stderr,
                           "iterations": row.iterations, "pruned": row.pruned,
                           "equity": row.equity, "rank": row.rank, "gain": row.gain,
                           "gain_stderr": row.gain_stderr} for row in rows],
                         ensure_ascii=False, indent=1))
        return 0
    if not rows:
        print("no play: exchange or pass (wordpack moves lists them)")
        return 0
    # gain: the mean minus the baseline's (the best play by equity) over the same dealings.
    print(f"{'#':>3}  {'move':<10} {'word':<16} {'score':>5} {'equity':>7} {'mean':>8} "
          f"{'stderr':>7} {'gain':>13} {'iters':>6}")
    for rank, row in enumerate(rows, start=1):
        move = row.move
        gain = f"{row.gain:+.2f}+-{row.gain_stderr:.2f}" if row.rank else "baseline"
        print(f"{rank:>3}  {move.direction} {move.row},{move.col:<6} "
              f"{move.notation().split()[2]:<16} {move.score:>5} {row.equity:>7.1f} "
              f"{row.mean:>8.2f} {row.stderr:>7.2f} {gain:>13} {row.iterations:>6}"
              f"{'  pruned' if row.pruned else ''}")
    # The stopping rule's state (lookup/crossword/simulate.py StoppingRule).
    pruned = sum(row.pruned for row in rows)
    settled = "; the first is clearly the best" if len(rows) > 1 and pruned == len(rows) - 1 \
        else ""
    print(f"{max(row.iterations for row in rows)} iterations; {pruned} of {len(rows)} "
          f"candidates pruned{settled}")
    if default_leave(game) is None:
        print("(no leave values for this game: equity is the score)")
    return 0


def endgame(args) -> int:
    """Solve an endgame (bag empty, both racks known): value and best line for both sides."""
    game, position = _crossword_position(args)
    result = game.endgame(position, args.rack, args.opponent, seconds=args.seconds,
                          plies=args.plies, nodes=args.nodes, threads=args.threads)
    if args.json:
        print(json.dumps({"value": result.value, "exact": result.exact,
                          "plies": result.plies, "nodes": result.nodes,
                          "line": [move.to_dict() for move in result.line]},
                         ensure_ascii=False, indent=1))
        return 0
    how = "exact" if result.exact else f"searched {result.plies} plies, not exact"
    print(f"value {result.value:+d} for the side to move ({how}; {result.nodes:,} positions, "
          f"{result.seconds:.2f} s)")
    for turn, move in enumerate(result.line, start=1):
        print(f"{turn:>3}. {'you' if turn % 2 else 'opponent':<8} {move.notation()}")
    return 0


def bots(args) -> int:
    """A match between two bots in mirrored pairs (each deal played twice, seats swapped)."""
    from lookup.play.match import play_match

    lookup.crossword_game(args.game)  # an unknown game is a usage error before any game starts

    def progress(result, pairs):
        print(f"\r{len(result.pair_shares)}/{pairs} pairs: {args.a} wins "
              f"{100 * result.win_rate():.1f} %, spread {result.mean_spread():+.1f}",
              end="", file=sys.stderr, flush=True)

    from lookup.play.match import sim_options

    # The sim bot's budget per move: --sim-seconds alone lets the clock bound the iterations.
    sim_budget = {}
    if args.sim_seconds is not None:
        sim_budget.update(seconds=args.sim_seconds, iterations=args.sim_iterations)
    elif args.sim_iterations is not None:
        sim_budget["iterations"] = args.sim_iterations
    started = time.perf_counter()
    result = play_match(args.game, args.a, args.b, args.pairs, args.seed, args.workers,
                        progress=progress, sim_budget=sim_budget)
    print(file=sys.stderr)
    low, high = result.interval()
    summary = {"game": args.game, "a": args.a, "b": args.b, "pairs": args.pairs,
               "seed": args.seed, "wins": result.wins, "draws": result.draws,
               "losses": result.losses, "win_rate": round(result.win_rate(), 4),
               "interval95": [round(low, 4), round(high, 4)],
               "mean_spread": round(result.mean_spread(), 2),
               "points_per_move": [round(result.points_per_move(0), 2),
                                   round(result.points_per_move(1), 2)],
               "seconds": round(time.perf_counter() - started, 1)}
    if "sim" in (args.a, args.b):
        summary["sim_budget"] = sim_options(sim_budget)
    if args.json:
        print(json.dumps(summary, indent=1))
        return 0
    print(f"{args.game}: {args.a} (A) against {args.b} (B), {args.pairs} mirrored pairs, "
          f"seed {args.seed}")
    print(f"A wins {result.wins}, draws {result.draws}, loses {result.losses}: win rate "
          f"{100 * result.win_rate():.1f} % (95 % interval {100 * low:.1f}-{100 * high:.1f} %)")
    print(f"mean spread {result.mean_spread():+.1f} points per game; points per move: "
          f"A {result.points_per_move(0):.2f}, B {result.points_per_move(1):.2f}")
    if "sim_budget" in summary:
        print("sim bot budget per move: " + ", ".join(
            f"{name} {value}" for name, value in summary["sim_budget"].items()))
    return 0


def _progress_bar(label: str, width: int = 30):
    """A progress callback drawing one line on stderr."""
    def show(done: int, total: int) -> None:
        filled = width * done // total
        print(f"\r{label} [{'#' * filled}{'.' * (width - filled)}] {done}/{total}", end="",
              file=sys.stderr, flush=True)
    return show


def _crossword_position(args):
    """(CrosswordGame, Board) of the `game` and `--board` arguments."""
    game = lookup.crossword_game(args.game)
    text = sys.stdin.read() if args.board == "-" else _read_board(args.board)
    return game, game.parse_board(text)


def _read_board(path: str) -> str:
    try:
        with open(path, encoding="utf-8") as board:
            return board.read()
    except FileNotFoundError:
        raise BadInput(f"board file {path} does not exist") from None
    except IsADirectoryError:
        raise BadInput(f"board file {path} is a directory") from None
    except UnicodeDecodeError:
        raise BadInput(f"board file {path} is not UTF-8 text") from None


# --- the site and the JSON API ----------------------------------------------------------------

SERVE_PACKAGES = ("starlette", "uvicorn", "uvloop", "httptools")


def serve(args) -> int:
    """Serve the web page of `make web` and the JSON API (/api/) with worker processes.

    The server is the `service` package (beside `lookup`, never imported by it: it needs the
    `serve` extra); this process becomes it (exec), so Ctrl-C and SIGTERM reach its workers.
    """
    import importlib.util
    import os

    missing = [name for name in SERVE_PACKAGES if importlib.util.find_spec(name) is None]
    if missing:
        raise WordpackError(f"wordpack serve needs the serve extra ({', '.join(missing)} "
                            "missing): pip install 'wordpack[serve]'")
    workers = args.workers or os.cpu_count() or 1
    argv = [sys.executable, "-m", "service", "--host", args.host, "--port", str(args.port),
            "--workers", str(workers), "--budget", str(args.budget)]
    os.execv(sys.executable, argv + (["--open"] if args.open else []))
    return 0


# --- the parser -------------------------------------------------------------------------------

# The headings of `wordpack --help`, each with its commands (the names of the functions above).
COMMAND_GROUPS = {
    "lexicon queries": ("check", "anagram", "unscramble", "match"),
    "guessing games": ("solve", "play", "opener", "tree"),
    "crossword games": ("moves", "leave", "sim", "endgame", "bots"),
    "site and files": ("info", "serve"),
}


class GroupedHelpParser(argparse.ArgumentParser):
    """The top-level parser: its help lists the commands under the headings of COMMAND_GROUPS.

    argparse lists every subcommand under one heading; here the subcommands' action is left out
    of the help (help=SUPPRESS) and `commands` (name -> one-line help) is listed after the
    options, one section a group. The commands' own parsers are plain ArgumentParsers.
    """

    commands: dict[str, str]  # name -> one-line help, set by build_parser

    def format_help(self) -> str:
        """The usual help (usage, description, options), then one section per command group."""
        formatter = self._get_formatter()
        for title, names in COMMAND_GROUPS.items():
            formatter.start_section(title)
            for name in names:
                formatter.add_argument(argparse.Action([], name, metavar=name,
                                                       help=self.commands[name]))
            formatter.end_section()
        return f"{super().format_help()}\n{formatter.format_help()}"


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every query command (each sets `run` and `parser`)."""
    parser = GroupedHelpParser(
        prog="wordpack", usage="%(prog)s [-h] COMMAND ...",
        description="Queries on the built wordpack artifacts: lexicons, Wordle/Nerdle "
                    "strategy, crossword moves. Artifacts come from $WORDPACK_ARTIFACTS, else "
                    "the checkout's artifacts/; `wordpack-build` builds them.")
    commands = parser.add_subparsers(prog="wordpack", metavar="COMMAND", required=True,
                                     help=argparse.SUPPRESS,
                                     parser_class=argparse.ArgumentParser)
    parser.commands = {}

    def command(run, *arguments):
        summary = run.__doc__.splitlines()[0]
        parser.commands[run.__name__] = summary.rstrip(".")
        sub = commands.add_parser(run.__name__, help=parser.commands[run.__name__],
                                  description=summary)
        for add in arguments:
            add(sub)
        sub.set_defaults(run=run, parser=sub)
        return sub

    def lexicon_arg(sub):
        sub.add_argument("lexicon", help="lexicon name (enable, opentaal, ...) or .dawg path")

    def json_opt(sub):
        sub.add_argument("--json", action="store_true", help="print JSON instead of text")

    def game_arg(sub):
        sub.add_argument("game", help="guessing game id, e.g. wordle-en")

    def hard_opt(sub):
        sub.add_argument("--hard", action="store_true",
                         help="hard mode: every guess uses every hint")

    def letters_arg(sub):
        sub.add_argument("letters", help="the letters; ? is a blank")

    command(check, lexicon_arg, json_opt).add_argument("words", nargs="+", help="words to look up")
    command(anagram, lexicon_arg, letters_arg, json_opt)
    sub = command(unscramble, lexicon_arg, letters_arg, json_opt)
    sub.add_argument("--min-len", type=positive_int, default=2, help="shortest word (2)")
    sub.add_argument("--starts", default="", help="the word starts with this")
    sub.add_argument("--ends", default="", help="the word ends with this")
    sub.add_argument("--contains", default="", help="the word contains this")
    sub.add_argument("--game", help="score each word in this crossword game, e.g. scrabble-en")
    sub = command(match, lexicon_arg, json_opt)
    # Required, but optional to argparse so that match() can say that a crossword game id
    # wants `wordpack bots`; the usage says it is required.
    sub.add_argument("pattern", nargs="?", help="? one letter, * any run, letters fixed")
    sub.usage = "%(prog)s [-h] [--json] lexicon pattern"

    sub = command(solve, game_arg, hard_opt, json_opt)
    sub.add_argument("-g", "--guess", type=parse_guess_option, action="append", default=[],
                     metavar="WORD=FEEDBACK", help="a guess and its colours, repeatable, in "
                     "playing order (salet=01000, salet=bybbb or squares)")
    sub.add_argument("--top", type=positive_int, default=10, help="suggestions to show (10)")
    command(play, game_arg, hard_opt)
    command(opener, game_arg, hard_opt, json_opt).add_argument("word",
                                                               help="the first guess to rate")
    command(tree, game_arg, hard_opt, json_opt)

    def position_args(sub):
        sub.add_argument("game", help="crossword game id, e.g. scrabble-en")
        sub.add_argument("--board", required=True,
                         help="board text file ('-' for stdin): 15 lines, '.' empty, a "
                              "lowercase letter a tile, an uppercase letter a blank")
        sub.add_argument("--rack", required=True, help="rack letters, '?' for a blank")

    def seconds_opt(sub):
        sub.add_argument("--seconds", type=positive_float, help="time budget in seconds")

    sub = command(moves, json_opt, position_args)
    sub.add_argument("--top", type=positive_int, default=10, help="moves to list (10)")
    sub.add_argument("--bag", type=non_negative_int, help="tiles in the bag (decides "
                     "exchanges); default: unseen tiles minus the opponent's rack")
    sub.add_argument("--by", choices=("score", "equity"), default="score",
                     help="rank by score, or by equity: score + the value of the tiles kept")
    sub.add_argument("--unseen", help="with --by equity: the tiles not on the board or the "
                     "rack (bag and opponent's rack); default: the rest of the set")
    sub.add_argument("--seconds", type=positive_float, help="Erudit: a time budget for the "
                     "turn search (lists the turns found, and whether the first is proven best)")
    sub = command(leave, json_opt)
    sub.add_argument("game", help="crossword game id, e.g. scrabble-en")
    sub.add_argument("tiles", help="the tiles kept, '?' for a blank")
    sub = command(sim, json_opt, position_args, seconds_opt)
    sub.add_argument("--unseen", help="tiles the player cannot see (bag and opponent's "
                     "rack); default: the set minus the board and the rack")
    sub.add_argument("--candidates", type=positive_int, default=10,
                     help="plays simulated, the best by equity (10)")
    sub.add_argument("--plies", type=plies_or_end, default=2,
                     help="turns simulated after each candidate (2), or 'end': to the end "
                     "of the game")
    sub.add_argument("--iterations", type=positive_int,
                     help="dealings simulated (100; with --seconds at most 3,250)")
    sub.add_argument("--seed", type=non_negative_int, default=0, help="seeds the dealings (0)")
    sub.add_argument("--threads", type=positive_int, default=1, help="dealings played at once: "
                     "the same rows, sooner on as many cores (1; at most 16)")
    sub = command(endgame, json_opt, position_args, seconds_opt)
    sub.add_argument("--opponent", required=True, help="the opponent's rack (the bag must "
                     "be empty: the board and both racks hold the whole set)")
    sub.add_argument("--plies", type=positive_int, help="search at most this deep "
                     "(default: to the end)")
    sub.add_argument("--nodes", type=positive_int, help="stop deepening after this many "
                     "positions (the same answer on any machine; default: no limit)")
    sub.add_argument("--threads", type=positive_int, default=1, help="search on this many "
                     "threads: the same value, sooner on as many cores (1; at most 16; "
                     "not with --nodes)")
    sub = command(bots, json_opt)
    sub.add_argument("game", help="crossword game id, e.g. scrabble-en")
    sub.add_argument("--a", default="equity", help="bot A: greedy, equity, tile or sim; in "
                     "games of multi-word turns (Erudit) also turn-equity or turn-greedy (equity)")
    sub.add_argument("--b", default="greedy", help="bot B (greedy)")
    sub.add_argument("--pairs", type=positive_int, default=100,
                     help="mirrored pairs: one deal played twice, seats swapped (100)")
    sub.add_argument("--seed", type=non_negative_int, default=1, help="picks the deals (1)")
    sub.add_argument("--workers", type=positive_int, default=1, help="processes (1)")
    sub.add_argument("--sim-seconds", type=positive_float,
                     help="the sim bot's simulation time per move (default: its iterations)")
    sub.add_argument("--sim-iterations", type=positive_int,
                     help="the sim bot's dealings per move (30; with --sim-seconds, at most)")

    command(info, json_opt).add_argument(
        "--verify", action="store_true",
        help="check every artifact's size and sha256 against manifest.json")
    sub = command(serve)
    sub.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    sub.add_argument("--port", type=non_negative_int, default=8000, help="port (8000; 0: any)")
    sub.add_argument("--workers", type=positive_int,
                     help="worker processes (default: one per core)")
    sub.add_argument("--budget", type=positive_float, default=1.0,
                     help="seconds one query may compute before a 503 (1)")
    sub.add_argument("--open", action="store_true", help="also open it in the web browser")
    grouped = [name for names in COMMAND_GROUPS.values() for name in names]
    assert sorted(grouped) == sorted(parser.commands), "COMMAND_GROUPS lists every command once"
    return parser


def main(argv: list[str] | None = None) -> None:
    """Console entry point: parse, run, and turn every error into one line and an exit code."""
    args = build_parser().parse_args(argv)
    try:
        status = args.run(args)
    except UnknownName as error:
        args.parser.error(str(error))
    except WordpackError as error:
        print(f"error: {error}", file=sys.stderr)
        sys.exit(1)
    except (KeyboardInterrupt, EOFError):
        print("aborted", file=sys.stderr)
        sys.exit(130)
    sys.exit(status)
