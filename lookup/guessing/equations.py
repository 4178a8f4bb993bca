"""Nerdle equations: the rules, a validator for user guesses, and the reader of equation lists.

An equation is `LEFT=RIGHT` over the symbols `0-9 + - * / =` (docs/GAMES.md "## Nerdle"):

- exactly one `=`;
- RIGHT is a non-negative integer written without leading zeros (`0` itself is allowed);
- LEFT is numbers joined by `+ - * /`, with at least one operator, no unary minus (an operator
  never starts LEFT nor follows another operator) and no leading zeros (`07` is not a number);
- LEFT is evaluated with the usual precedence (`*` and `/` before `+` and `-`, left to right
  otherwise) in exact rational arithmetic: intermediate values may be fractions (`10/4*2=5` is
  true), dividing by zero makes the equation invalid, and only the final value must equal RIGHT.

The two list kinds differ in one rule only, the lone zero:

- `answers`: the number `0` may not appear on the left at all (`0+12=12` and `12-0*5=12` are
  not answers). RIGHT may be `0` (`12-12=0` is an answer).
- `guesses`: the same grammar with `0` allowed as an operand (`0+12=12`, `5*0+1=1`).

These readings reproduce the published counts exactly: answers 127 / 206 / 6,661 / 17,723 and
guesses 184 / 476 / 11,857 / 67,346 for lengths 5 / 6 / 7 / 8.

Equation lists (`artifacts/sources/nerdle-<variant>-<kind>.txt`, built by
pipeline/generate_equations.py) are UTF-8 text, one equation per line, sorted in plain string
order, each line ending in "\\n", after one header line:

    # nerdle-equations rules=1 length=8 kind=answers count=17723

The header is the only line starting with `#` (no equation contains `#`), so a reader that only
wants the equations drops the first line, or every line starting with `#`. `rules` is
lookup.formats.EQUATIONS_VERSION and changes whenever the rules above change; `count` is the
number of equation lines, so a truncated list is detected.
"""

from fractions import Fraction

from lookup.errors import BadInput
from lookup.formats import (
    EQUATIONS_EARLIEST_SUPPORTED_VERSION,
    EQUATIONS_FIELDS,
    EQUATIONS_FORMAT,
    EQUATIONS_VERSION,
    EQUATIONS_VERSION_KEY,
    corrupt,
    require_file,
)
from lookup.headers import SEAL_FIELD, SEAL_ZEROS, check_header, check_seal

SYMBOLS = "0123456789+-*/="
OPERATORS = "+-*/"
DIGITS = "0123456789"
KINDS = ("answers", "guesses")
_COUNT_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight")


def evaluate_left(left: str, *, kind: str = "answers") -> Fraction:
    """The exact value of the left side of an equation.

    Args:
        left: the text before `=`, e.g. "10/4*2".
        kind: "answers" (no lone 0 operand) or "guesses" (0 allowed as an operand).

    Returns:
        The value as a Fraction (it may be negative or not an integer).

    Raises:
        BadInput: `left` breaks the grammar or divides by zero; the message says how.
    """
    _check_kind(kind)
    if not left:
        raise BadInput("the left side is empty: write a calculation before '='")
    numbers, operators = _split_left(left, kind)
    # Standard precedence: `total` is the sum of the finished terms, `term` the running
    # product/quotient; `sign` is the +/- that precedes the running term.
    total, sign, term = Fraction(0), 1, Fraction(numbers[0])
    for operator, number in zip(operators, numbers[1:]):
        if operator == "*":
            term *= number
        elif operator == "/":
            if number == 0:
                raise BadInput(f"'{left}' divides by zero")
            term /= number
        else:
            total += sign * term
            sign, term = (1 if operator == "+" else -1), Fraction(number)
    return total + sign * term


def validate_equation(text: str, *, length: int | None = None, kind: str = "answers") -> None:
    """Check that `text` is a true equation under the Nerdle rules (see the module docstring).

    Args:
        text: the equation, e.g. "54-36=18".
        length: the required number of symbols (a Nerdle game's length, config/guessing.toml);
            None for any length.
        kind: "answers" (no lone 0 on the left) or "guesses" (0 allowed as an operand).

    Raises:
        BadInput: `text` is not a valid true equation; the one-line message says why, e.g.
            "'12+3=14' is not true: 12+3 = 15".
    """
    _check_kind(kind)
    if not isinstance(text, str):
        raise BadInput(f"an equation is a string, not {type(text).__name__}")
    for symbol in text:
        if symbol not in SYMBOLS:
            raise BadInput(f"symbol {symbol!r} is not allowed: use 0-9 + - * / =")
    if length is not None and len(text) != length:
        raise BadInput(f"wrong length: {len(text)}, this game uses {length}")
    equals = text.count("=")
    if equals != 1:
        word = _COUNT_WORDS[equals] if equals < len(_COUNT_WORDS) else str(equals)
        raise BadInput(f"equation has {word} '=': write exactly one, as in LEFT=RIGHT")
    left, right = text.split("=")
    if not right:
        raise BadInput(f"'{text}' has nothing after '=': the right side is a number")
    for symbol in right:
        if symbol not in DIGITS:
            raise BadInput(f"the right side '{right}' must be a plain number, without {symbol!r}")
    if len(right) > 1 and right[0] == "0":
        raise BadInput(f"the right side '{right}' has a leading zero")
    value = evaluate_left(left, kind=kind)
    if value != int(right):
        raise BadInput(f"'{text}' is not true: {left} = {value}")


def is_valid_answer(text: str, length: int | None = None) -> bool:
    """Whether `text` is a valid answer equation (of `length` symbols, if given)."""
    return _is_valid(text, length, "answers")


def is_valid_guess(text: str, length: int | None = None) -> bool:
    """Whether `text` is an allowed guess (a true equation; 0 may be an operand)."""
    return _is_valid(text, length, "guesses")


def format_header(*, length: int, kind: str, count: int) -> str:
    """The first line of an equation list, without its newline, its seal still zeros (the
    writer seals the whole file: lookup.headers.sealed(data, "text")).
    """
    _check_kind(kind)
    return (f"# {EQUATIONS_FORMAT} {EQUATIONS_VERSION_KEY}={EQUATIONS_VERSION} length={length} "
            f"kind={kind} count={count} {SEAL_FIELD}={SEAL_ZEROS.decode()}")


def parse_header(line: str, path="equation list", make_target: str = "") -> dict:
    """Parse and check the header line of an equation list.

    Args:
        line: the first line, with or without its newline.
        path: the file it came from, for messages.
        make_target: what rebuilds it (`make <make_target>`); "" for `make`.

    Returns:
        {"rules": int, "length": int, "kind": str, "count": int, "file_sha256": str}.

    Raises:
        CorruptArtifact: the line is not an equation-list header.
        UnsupportedFormat: the list was written under rules this reader does not know.
    """
    fields = line.rstrip("\n").split(" ")
    if fields[:2] != ["#", EQUATIONS_FORMAT] or len(fields) != 2 + len(EQUATIONS_FIELDS):
        raise corrupt(path, f"first line is not a '# {EQUATIONS_FORMAT} ...' header", make_target)
    header = {}
    for (key, kind), field in zip(EQUATIONS_FIELDS.items(), fields[2:]):
        name, _, value = field.partition("=")
        if name != key:
            raise corrupt(path, f"header field {field!r} should be {key}=...", make_target)
        header[key] = int(value) if kind is int and value.isascii() and value.isdigit() else value
    # The format name is the line's second word, not a key=value field.
    check_header({"format": EQUATIONS_FORMAT, **header}, path, format=EQUATIONS_FORMAT,
                 fields=EQUATIONS_FIELDS, make_target=make_target,
                 versions=(EQUATIONS_EARLIEST_SUPPORTED_VERSION, EQUATIONS_VERSION),
                 version_key=EQUATIONS_VERSION_KEY)
    if header["kind"] not in KINDS:
        raise corrupt(path, f"header kind {header['kind']!r} is neither answers nor guesses",
                      make_target)
    return header


def read_equation_list(path, make_target: str | None = None) -> tuple[dict, list[str]]:
    """Read an equation list written by pipeline/generate_equations.py.

    Args:
        path: the list file.
        make_target: the make target that builds it (named when the file is missing); by
            default the path itself.

    Returns:
        (header, equations): the parsed header (see parse_header) and the equations in file
        order (sorted).

    Raises:
        ArtifactMissing: the file does not exist.
        CorruptArtifact: bad header, damaged (the seal does not match), not UTF-8, wrong count
            (truncation), or a line of the wrong length.
        UnsupportedFormat: the list was written under other rules.
    """
    target = make_target or str(path)
    path = require_file(path, target)
    data = path.read_bytes()
    first_line, _, rest = data.partition(b"\n")
    try:
        header = parse_header(first_line.decode("utf-8"), path, target)
    except UnicodeDecodeError:
        raise corrupt(path, "first line is not UTF-8 text", target) from None
    check_seal(path, data, "text", target)
    try:
        text = rest.decode("utf-8")
    except UnicodeDecodeError:
        raise corrupt(path, "not UTF-8 text", target) from None
    if text and not text.endswith("\n"):
        raise corrupt(path, "last line has no newline (truncated?)", target)
    equations = text.split("\n")[:-1]
    if len(equations) != header["count"]:
        raise corrupt(path, f"header says {header['count']} equations, file has {len(equations)}",
                      target)
    for equation in equations:
        if len(equation) != header["length"]:
            raise corrupt(path, f"line {equation!r} is not {header['length']} symbols long",
                          target)
    return header, equations


def _is_valid(text, length, kind) -> bool:
    try:
        validate_equation(text, length=length, kind=kind)
    except BadInput:
        return False
    return True


def _check_kind(kind) -> None:
    if kind not in KINDS:
        raise BadInput(f"unknown equation kind {kind!r}: use answers or guesses")


def _split_left(left: str, kind: str) -> tuple[list[int], list[str]]:
    """Numbers and operators of a left side, checking the grammar (see the module docstring)."""
    numbers, operators, start = [], [], 0
    for index, symbol in enumerate(left + "+"):  # the sentinel "+" closes the last number
        if symbol in DIGITS:
            continue
        if symbol not in OPERATORS:
            raise BadInput(f"symbol {symbol!r} is not allowed in the left side: use 0-9 + - * /")
        number = left[start:index]
        if not number:
            if index == 0:
                raise BadInput(f"'{left}' starts with {symbol!r}: there is no unary minus or plus")
            if index == len(left):
                raise BadInput(f"'{left}' ends with an operator: a number must follow it")
            raise BadInput(f"'{left}' has two operators in a row: {left[index - 1:index + 1]!r}")
        if len(number) > 1 and number[0] == "0":
            raise BadInput(f"number '{number}' in '{left}' has a leading zero")
        if number == "0" and kind == "answers":
            raise BadInput(f"'{left}' uses the number 0: a lone 0 is allowed in guesses only")
        numbers.append(int(number))
        operators.append(symbol)
        start = index + 1
    operators.pop()  # the sentinel
    if not operators:
        raise BadInput(f"the left side '{left}' needs an operator: + - * or /")
    return numbers, operators
