"""Nerdle equations: generator and validator against a slow, independent reference.

The reference (`reference_*` below) shares no code with pipeline/generate_equations.py or
lookup/guessing/equations.py: it matches the grammar with a regular expression and evaluates LEFT
with Python's own operator precedence on Fractions (`eval`), so only the rules are in common.
"""

import ast
import functools
import itertools
import re
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from lookup.errors import (
    ArtifactMissing,
    BadInput,
    CorruptArtifact,
    UnsupportedFormat,
)
from lookup.guessing.equations import (
    evaluate_left,
    format_header,
    is_valid_answer,
    is_valid_guess,
    parse_header,
    read_equation_list,
    validate_equation,
)
from pipeline.build_game import load_config
from pipeline.generate_equations import generate_equations, write_equation_list

REPO = Path(__file__).resolve().parents[1]
# Game id -> equation length, from the one list of games.
NERDLE_GAMES = {game.id: game.length  # the shipped ones: each has its lists
                for game in load_config(REPO / "config" / "guessing.toml").values()
                if game.guess_rules == "nerdle-equations" and not game.proof_only}
SYMBOLS = "0123456789+-*/="
LEFT_SYMBOLS = "0123456789+-*/"
KINDS = ("answers", "guesses")
COUNTS = {
    (5, "answers"): 127,
    (6, "answers"): 206,
    (7, "answers"): 6_661,
    (8, "answers"): 17_723,
    (5, "guesses"): 184,
    (6, "guesses"): 476,
    (7, "guesses"): 11_857,
    (8, "guesses"): 67_346,
}

@functools.cache
def generated(length, kind):
    """The generator's list, computed once per test session."""
    return generate_equations(length, kind)


# --- the reference ---------------------------------------------------------------------------
# A number has no leading zero; answers also forbid the number 0 itself on the left.
REFERENCE_NUMBER = {"answers": "[1-9][0-9]*", "guesses": "0|[1-9][0-9]*"}
REFERENCE_LEFT = {
    kind: re.compile(f"(?:{number})(?:[-+*/](?:{number}))+")
    for kind, number in REFERENCE_NUMBER.items()
}
REFERENCE_RIGHT = re.compile("0|[1-9][0-9]*")


def reference_left_value(left, kind):
    """Exact value of LEFT, or None if LEFT breaks the grammar or divides by zero."""
    if not REFERENCE_LEFT[kind].fullmatch(left):
        return None
    python = re.sub(r"[0-9]+", lambda m: f"Fraction({m.group()})", left)
    try:
        return eval(python, {"Fraction": Fraction})
    except ZeroDivisionError:
        return None


def reference_is_valid(text, kind):
    if text.count("=") != 1:
        return False
    left, right = text.split("=")
    if not REFERENCE_RIGHT.fullmatch(right):
        return False
    value = reference_left_value(left, kind)
    return value is not None and value == int(right)


def reference_every_string(length, kind):
    """Every string over the 15 symbols, kept if valid: the most literal reading of the rules."""
    return sorted(
        text
        for text in map("".join, itertools.product(SYMBOLS, repeat=length))
        if reference_is_valid(text, kind)
    )


def reference_by_left(length, kind):
    """Every LEFT over the 14 non-'=' symbols; RIGHT is then the one decimal that can match.

    Equivalent to trying every RIGHT of the remaining length: RIGHT is a decimal integer
    without leading zeros, so it equals the value of LEFT exactly when it is str(value).
    """
    equations = []
    for left_length in range(1, length - 1):
        right_length = length - 1 - left_length
        for left in map("".join, itertools.product(LEFT_SYMBOLS, repeat=left_length)):
            value = reference_left_value(left, kind)
            if value is None or value.denominator != 1 or value < 0:
                continue
            right = str(value.numerator)
            if len(right) == right_length:
                equations.append(f"{left}={right}")
    return sorted(equations)


# --- generator == reference -----------------------------------------------------------------


@pytest.mark.parametrize("kind", KINDS)
def test_generator_matches_every_string_of_length_5(kind):
    expected = reference_every_string(5, kind)
    assert len(expected) == COUNTS[5, kind]
    assert generate_equations(5, kind) == expected


@pytest.mark.parametrize("length", [5, 6, 7])
@pytest.mark.parametrize("kind", KINDS)
def test_generator_matches_reference(length, kind):
    expected = reference_by_left(length, kind)
    assert len(expected) == COUNTS[length, kind]
    assert generate_equations(length, kind) == expected


@pytest.mark.full
@pytest.mark.parametrize("kind", KINDS)
def test_generator_matches_reference_length_8(kind):
    expected = reference_by_left(8, kind)
    assert len(expected) == COUNTS[8, kind]
    assert generate_equations(8, kind) == expected


@pytest.mark.parametrize("length", [5, 6, 7, 8])
@pytest.mark.parametrize("kind", KINDS)
def test_counts_sorted_unique(length, kind):
    equations = generated(length, kind)
    assert len(equations) == COUNTS[length, kind]
    assert equations == sorted(set(equations))
    assert all(len(equation) == length for equation in equations)


@pytest.mark.parametrize("length", [5, 6, 7, 8])
def test_guesses_are_answers_plus_lone_zero_equations(length):
    answers = set(generated(length, "answers"))
    guesses = set(generated(length, "guesses"))
    has_lone_zero = re.compile(r"(?:^|[-+*/])0(?:[-+*/]|=)")
    assert answers <= guesses
    assert guesses - answers == {g for g in guesses if has_lone_zero.search(g)}


CLASSIC_EXAMPLES = [
    ("54-36=18", True, True),
    ("12+34=46", True, True),
    ("100-99=1", True, True),
    ("1*1+9=10", True, True),
    ("99/9-9=2", True, True),
    ("10/4*2=5", True, True),  # only the final value must be an integer
    ("1/3*12=4", True, True),
    ("12-3*4=0", True, True),  # RIGHT may be 0
    ("10/4+1=3", False, False),  # 10/4+1 = 7/2
    ("10/3=3.3", False, False),  # '.' is not a symbol
    ("3/0+12=4", False, False),  # divides by zero (and uses a lone 0)
    ("9+0*99=9", False, True),  # a lone 0: allowed in guesses only
    ("0*99+9=9", False, True),
    ("90/9*0=0", False, True),
    ("00+12=12", False, False),  # leading zero
    ("12+3=015", False, False),  # leading zero on the right
    ("1+1+1=03", False, False),
    ("-1+13=12", False, False),  # no unary minus
    ("1+-1+1=1", False, False),
    ("0*12=0+0", False, False),  # RIGHT is a number, not a calculation
    ("5*2=10+0", False, False),
    ("12-12=0", False, False),  # 7 symbols: a nerdle-midi answer, not a classic one
]


@pytest.mark.parametrize("text, answer, guess", CLASSIC_EXAMPLES)
def test_classic_examples(text, answer, guess, classic_answers, classic_guesses):
    assert (text in classic_answers) == answer
    assert (text in classic_guesses) == guess
    assert is_valid_answer(text, 8) == answer
    assert is_valid_guess(text, 8) == guess
    if len(text) == 8:
        assert reference_is_valid(text, "answers") == answer
        assert reference_is_valid(text, "guesses") == guess


@pytest.mark.parametrize(
    "length, text, answer, guess",
    [
        (5, "1+1=2", True, True),
        (5, "9-9=0", True, True),
        (5, "0+1=1", False, True),
        (5, "0*1=0", False, True),
        (5, "1/0=0", False, False),
        (6, "18/6=3", True, True),
        (6, "4*5=20", True, True),
        (6, "0*10=0", False, True),
        (6, "1+2=03", False, False),
        (7, "12-12=0", True, True),
        (7, "3/0+1=1", False, False),  # divides by zero
        (7, "3/1+0=3", False, True),
    ],
)
def test_short_examples(length, text, answer, guess):
    assert (text in generated(length, "answers")) == answer
    assert (text in generated(length, "guesses")) == guess
    assert is_valid_answer(text, length) == answer
    assert is_valid_guess(text, length) == guess


@pytest.fixture(scope="module")
def classic_answers():
    return set(generated(8, "answers"))


@pytest.fixture(scope="module")
def classic_guesses():
    return set(generated(8, "guesses"))


@pytest.mark.parametrize("kind", KINDS)
def test_generator_rejects_bad_arguments(kind):
    with pytest.raises(BadInput, match="length 4 is not supported"):
        generate_equations(4, kind)
    with pytest.raises(BadInput, match="unknown equation kind 'hard'"):
        generate_equations(8, "hard")


# --- validator -------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", KINDS)
def test_validator_matches_generator_on_every_string_of_length_5(kind):
    valid = set(generated(5, kind))
    for text in map("".join, itertools.product(SYMBOLS, repeat=5)):
        assert _accepts(text, kind) == (text in valid), text


@pytest.mark.parametrize("length", [6, 7, 8])
@pytest.mark.parametrize("kind", KINDS)
def test_validator_accepts_every_generated_equation(length, kind):
    for text in generated(length, kind):
        validate_equation(text, length=length, kind=kind)


@pytest.mark.parametrize(
    "text, kwargs, message",
    [
        ("12+3=14", {}, "'12+3=14' is not true: 12+3 = 15"),
        ("10/4=2", {}, "'10/4=2' is not true: 10/4 = 5/2"),
        ("1-9=8", {}, "'1-9=8' is not true: 1-9 = -8"),
        ("1+1=2=2", {}, "equation has two '=': write exactly one, as in LEFT=RIGHT"),
        ("1+1+2", {}, "equation has no '=': write exactly one, as in LEFT=RIGHT"),
        ("12x3=36", {}, "symbol 'x' is not allowed: use 0-9 + - * / ="),
        ("1 +2=3", {}, "symbol ' ' is not allowed: use 0-9 + - * / ="),
        ("1+2+3=6", {"length": 6}, "wrong length: 7, this game uses 6"),
        ("1+2=", {}, "'1+2=' has nothing after '=': the right side is a number"),
        ("=12", {}, "the left side is empty: write a calculation before '='"),
        ("6=1+5", {}, "the right side '1+5' must be a plain number, without '+'"),
        ("1+2=03", {}, "the right side '03' has a leading zero"),
        ("-1+4=3", {}, "'-1+4' starts with '-': there is no unary minus or plus"),
        ("1+-4=3", {}, "'1+-4' has two operators in a row: '+-'"),
        ("14+=3", {}, "'14+' ends with an operator: a number must follow it"),
        ("01+2=3", {}, "number '01' in '01+2' has a leading zero"),
        ("0+3=3", {}, "'0+3' uses the number 0: a lone 0 is allowed in guesses only"),
        ("3/0=3", {"kind": "guesses"}, "'3/0' divides by zero"),
        ("12=12", {}, "the left side '12' needs an operator: + - * or /"),
    ],
)
def test_validator_messages(text, kwargs, message):
    with pytest.raises(BadInput) as raised:
        validate_equation(text, **kwargs)
    assert str(raised.value) == message


def test_validator_arguments():
    validate_equation("54-36=18", length=8)
    validate_equation("9-9=0", length=5)
    with pytest.raises(BadInput, match="unknown equation kind"):
        validate_equation("54-36=18", kind="answer")
    with pytest.raises(BadInput, match="an equation is a string, not int"):
        validate_equation(12)


def test_nerdle_games_of_the_config():
    assert NERDLE_GAMES == {"nerdle-micro": 5, "nerdle-mini": 6, "nerdle-midi": 7,
                            "nerdle-classic": 8}


def test_evaluate_left():
    assert evaluate_left("10/4*2") == 5
    assert evaluate_left("1-9/2") == Fraction(-7, 2)
    assert evaluate_left("2+3*4-6/4") == Fraction(25, 2)
    assert evaluate_left("0*7", kind="guesses") == 0
    with pytest.raises(BadInput, match="symbol '=' is not allowed in the left side"):
        evaluate_left("1=1")


def _accepts(text, kind):
    try:
        validate_equation(text, kind=kind)
    except BadInput as error:
        message = str(error)
        assert message and "\n" not in message
        return False
    return True


# Numbers as a player might type them: with leading zeros, lone zeros, or long.
typed_numbers = st.one_of(
    st.integers(0, 9).map(str),
    st.integers(10, 9999).map(str),
    st.text("0123456789", min_size=1, max_size=4),
)
typed_lefts = st.builds(
    lambda first, rest: first + "".join(op + n for op, n in rest),
    typed_numbers,
    st.lists(st.tuples(st.sampled_from("+-*/"), typed_numbers), max_size=3),
)


@st.composite
def typed_equations(draw):
    """An equation a player might type: often true, sometimes off by one or misformatted."""
    left = draw(typed_lefts)
    value = reference_left_value(left, "guesses")
    choices = [draw(st.text("0123456789", min_size=1, max_size=4))]
    if value is not None and value.denominator == 1:
        choices += [str(value.numerator), str(value.numerator + 1), "0" + str(value.numerator)]
    return f"{left}={draw(st.sampled_from(choices))}"


@settings(max_examples=600)
@given(st.one_of(typed_equations(), st.text(SYMBOLS + "x ", max_size=10)))
@example("10/4*2=5")
@example("3/0+1=1")
@example("0/5=0")
@example("1/3*3=1")
def test_validator_agrees_with_reference(text):
    for kind in KINDS:
        assert _accepts(text, kind) == reference_is_valid(text, kind)


@settings(max_examples=300)
@given(typed_lefts)
def test_evaluate_left_agrees_with_reference(left):
    for kind in KINDS:
        expected = reference_left_value(left, kind)
        try:
            value = evaluate_left(left, kind=kind)
        except BadInput:
            value = None
        assert value == expected


def test_runtime_module_imports_only_the_standard_library():
    tree = ast.parse((REPO / "lookup" / "guessing" / "equations.py").read_text())
    imported = {
        node.module if isinstance(node, ast.ImportFrom) else alias.name
        for node in ast.walk(tree)
        if isinstance(node, (ast.Import, ast.ImportFrom))
        for alias in node.names
    }
    assert imported == {"fractions", "lookup.errors", "lookup.formats", "lookup.headers"}


# --- equation lists --------------------------------------------------------------------------


def test_write_and_read_list(tmp_path, monkeypatch):
    monkeypatch.chdir(REPO)  # provenance names the code inputs relative to the checkout
    path = tmp_path / "sources" / "nerdle-micro-answers.txt"
    assert write_equation_list(path, 5, "answers") == 127
    first = path.read_bytes()
    assert first.startswith(b"# nerdle-equations rules=2 length=5 kind=answers count=127 "
                            b"file_sha256=")
    assert first.split(b"\n", 2)[1] == b"1*1=1"
    assert first.endswith(b"\n") and b"\r" not in first
    header, equations = read_equation_list(path)
    assert header == {"rules": 2, "length": 5, "kind": "answers", "count": 127,
                      "file_sha256": first.split(b"\n", 1)[0].rsplit(b"=", 1)[1].decode()}
    assert equations == generate_equations(5, "answers")
    write_equation_list(path, 5, "answers")
    assert path.read_bytes() == first  # deterministic
    sidecar = tmp_path / "sources" / "_nerdle-micro-answers.txt.meta.json"
    meta = sidecar.read_text()
    assert '"path": "pipeline/generate_equations.py"' in meta
    assert '"path": "lookup/guessing/equations.py"' in meta
    assert sorted(p.name for p in path.parent.iterdir()) == [sidecar.name, path.name]


def test_read_list_refuses_damage(tmp_path):
    good = tmp_path / "good.txt"
    write_equation_list(good, 5, "guesses")
    text = good.read_text()
    cases = {
        "truncated.txt": text[:-3],
        "short.txt": text[: text.rindex("\n", 0, -1) + 1],
        "noheader.txt": text.split("\n", 1)[1],
        "badkind.txt": text.replace("kind=guesses", "kind=hints", 1),
        "badcount.txt": text.replace("count=184", "count=1x4", 1),
        "badlength.txt": text.replace("length=5", "length=6", 1),
        "badfield.txt": text.replace("length=5", "size=5", 1),
    }
    messages = {
        "truncated.txt": "damaged: its sha256 (file_sha256) does not match its bytes",
        "short.txt": "damaged: its sha256 (file_sha256) does not match its bytes",
        "noheader.txt": "first line is not a '# nerdle-equations ...' header",
        "badkind.txt": "header kind 'hints' is neither answers nor guesses",
        "badcount.txt": "header field 'count' should be an integer, not a string",
        "badlength.txt": "damaged: its sha256 (file_sha256) does not match its bytes",
        "badfield.txt": "header field 'size=5' should be length=...",
    }
    for name, content in cases.items():
        path = tmp_path / name
        path.write_text(content)
        with pytest.raises(CorruptArtifact, match=re.escape(messages[name])):
            read_equation_list(path)
    newer = tmp_path / "newer.txt"
    newer.write_text(text.replace("rules=2", "rules=3", 1))
    with pytest.raises(UnsupportedFormat, match="format version 3 is not supported"):
        read_equation_list(newer)
    with pytest.raises(ArtifactMissing, match="run `make artifacts/sources/x.txt`"):
        read_equation_list(tmp_path / "missing.txt", "artifacts/sources/x.txt")


def test_header_round_trip():
    line = format_header(length=8, kind="guesses", count=67346)
    assert line == ("# nerdle-equations rules=2 length=8 kind=guesses count=67346 file_sha256="
                    + "0" * 64)
    assert parse_header(line + "\n") == {
        "rules": 2,
        "length": 8,
        "kind": "guesses",
        "count": 67346,
        "file_sha256": "0" * 64,
    }


def test_cli_build_stage(tmp_path):
    output = tmp_path / "nerdle-mini-guesses.txt"
    command = [sys.executable, "-m", "pipeline", "equations"]
    done = subprocess.run(
        command + ["--length", "6", "--kind", "guesses", "-o", str(output)],
        cwd=REPO,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"{output}: 476 equations (length 6, guesses)\n"
    assert read_equation_list(output)[1] == generate_equations(6, "guesses")
    failed = subprocess.run(
        command + ["--length", "6", "--kind", "hints", "-o", str(output)],
        cwd=REPO,
        capture_output=True,
        text=True,
    )
    assert failed.returncode == 1
    assert failed.stderr == "error: unknown equation kind 'hints': use answers or guesses\n"


@pytest.mark.full
@pytest.mark.parametrize("game", sorted(NERDLE_GAMES))
@pytest.mark.parametrize("kind", KINDS)
def test_built_lists(game, kind):
    length = NERDLE_GAMES[game]
    path = REPO / "artifacts" / "sources" / f"{game}-{kind}.txt"
    header, equations = read_equation_list(path, f"artifacts/sources/{game}-{kind}.txt")
    seal = header.pop("file_sha256")  # read_equation_list checked it against the bytes
    assert len(seal) == 64
    assert header == {"rules": 2, "length": length, "kind": kind, "count": COUNTS[length, kind]}
    assert equations == generated(length, kind)
