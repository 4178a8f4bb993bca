"""Generate every Nerdle equation of one length: the answer list or the allowed-guess list.

Builds an equation list (format: lookup/guessing/equations.py, docs/FORMATS.md) from the rules
alone; there is no input file. The rules and the two kinds (answers: no lone 0 on the left; guesses:
0 allowed as an operand) are stated once, in lookup/guessing/equations.py.

Usage:
    wordpack-build equations --length 8 --kind answers \
        -o artifacts/sources/nerdle-classic-answers.txt

Method. LEFT is a sum of terms (`e + t`, `e - t`) and a term a product of numbers (`t * n`,
`t / n`). A LEFT of length k either has a top-level + or - (then it is `e ± t`, e an
expression and t a term, both at most k - 2 long) or is a single term with an operator (then
it is `t * n` or `t / n`, t a term at most k - 2 long, n a number). So only the pieces of
length <= L - 4 are materialised (value -> strings, exact Fractions; for length 8 about 12,000
values and 30,000 strings), and the last step searches values instead of enumerating strings: the
final value must be an integer in the RIGHT range [lo, hi], which bounds the last term to an
interval (bisect in the sorted term values) and the last number to a range (it is an integer).
Every term is >= 0 because operands are non-negative and there is no unary minus.
"""

import os
from bisect import bisect_left, bisect_right
from collections import defaultdict
from fractions import Fraction
from math import ceil, floor
from pathlib import Path

import lookup.guessing.equations as rules
from lookup.errors import BadInput
from lookup.formats import EQUATIONS_FORMAT, EQUATIONS_VERSION
from lookup.guessing.equations import KINDS, format_header
from lookup.headers import sealed
from pipeline.atomic import atomic_output
from pipeline.provenance import record

MIN_LENGTH = 5  # shortest equation with an operator and a one-digit RIGHT: "1+1=2"
MAX_LENGTH = 9  # about 6 s; every further symbol multiplies time and memory by about ten


def generate_equations(length: int, kind: str) -> list[str]:
    """Every equation of `length` symbols of the given kind, in plain string order.

    Args:
        length: number of symbols, MIN_LENGTH..MAX_LENGTH (Nerdle variants use 5 to 8).
        kind: "answers" or "guesses" (see lookup/guessing/equations.py).

    Returns:
        The sorted equations, e.g. ["1+1=2", ...] for length 5.

    Raises:
        BadInput: unsupported length or unknown kind.
    """
    if kind not in KINDS:
        raise BadInput(f"unknown equation kind {kind!r}: use answers or guesses")
    if not MIN_LENGTH <= length <= MAX_LENGTH:
        raise BadInput(f"equation length {length} is not supported: use {MIN_LENGTH}..{MAX_LENGTH}")
    pieces = _Pieces(zero=kind == "guesses", max_length=length - 4)
    equations = []
    for left_length in range(3, length - 1):
        right_length = length - 1 - left_length
        lo = 0 if right_length == 1 else 10 ** (right_length - 1)
        hi = 10**right_length - 1
        for left, value in pieces.lefts(left_length, lo, hi):
            equations.append(f"{left}={value}")
    equations.sort()
    return equations


def write_equation_list(path, length: int, kind: str) -> int:
    """Generate the equations and write them as an equation list with its provenance.

    Args:
        path: output file (written atomically).
        length: number of symbols.
        kind: "answers" or "guesses".

    Returns:
        The number of equations written.
    """
    equations = generate_equations(length, kind)
    lines = [format_header(length=length, kind=kind, count=len(equations)), *equations]
    with atomic_output(path) as handle:
        handle.write(sealed(("\n".join(lines) + "\n").encode("utf-8"), "text"))
    # The lists are built from code alone: the generator and the rules module are the inputs.
    # Paths are relative to the working directory (the checkout, under make) so that the
    # sidecar does not depend on where the checkout lives.
    code = [Path(os.path.relpath(module)) for module in (__file__, rules.__file__)]
    record(path, format=EQUATIONS_FORMAT, version=EQUATIONS_VERSION, inputs=code)
    return len(equations)


class _Pieces:
    """Expressions and terms of short lengths, grouped by exact value.

    terms[m] and exprs[m] map a Fraction to the strings of exactly m symbols with that value;
    every term is also an expression. Numbers have no leading zeros; `zero` allows the number 0.
    """

    def __init__(self, *, zero: bool, max_length: int):
        self.zero = zero
        self.terms = [{}]
        self.exprs = [{}]
        for length in range(1, max_length + 1):
            self.terms.append(self._build_terms(length))
            self.exprs.append(self._build_exprs(length))
        # Sorted distinct term values per length, for the interval search of the last term.
        self.sorted_terms = [sorted(terms) for terms in self.terms]

    def numbers(self, length: int) -> range:
        """The operand values written with exactly `length` digits."""
        if length == 1:
            return range(0 if self.zero else 1, 10)
        return range(10 ** (length - 1), 10**length)

    def _build_terms(self, length):
        terms = defaultdict(list)
        for number in self.numbers(length):
            terms[Fraction(number)].append(str(number))
        for head in range(1, length - 1):
            for value, strings in self.terms[head].items():
                for number in self.numbers(length - 1 - head):
                    terms[value * number].extend(f"{s}*{number}" for s in strings)
                    if number:
                        terms[value / number].extend(f"{s}/{number}" for s in strings)
        return dict(terms)

    def _build_exprs(self, length):
        exprs = defaultdict(list, {value: list(s) for value, s in self.terms[length].items()})
        for head in range(1, length - 1):
            for left, left_strings in self.exprs[head].items():
                for right, right_strings in self.terms[length - 1 - head].items():
                    for operator, value in (("+", left + right), ("-", left - right)):
                        exprs[value].extend(
                            f"{a}{operator}{b}" for a in left_strings for b in right_strings
                        )
        return dict(exprs)

    def lefts(self, length: int, lo: int, hi: int):
        """Yield (left, value) for each LEFT of `length` symbols with integer value in [lo, hi]."""
        yield from self._sums(length, lo, hi)
        yield from self._products(length, lo, hi)

    def _sums(self, length, lo, hi):
        """LEFT = e ± t: for each value of e, the t that land in [lo, hi] form an interval."""
        for head in range(1, length - 1):
            tail = length - 1 - head
            tail_values = self.sorted_terms[tail]
            tails = self.terms[tail]
            for left, left_strings in self.exprs[head].items():
                # e + t in [lo, hi] <=> t in [lo - e, hi - e]; e - t <=> t in [e - hi, e - lo].
                bounds = (("+", lo - left, hi - left), ("-", left - hi, left - lo))
                for operator, low, high in bounds:
                    start = bisect_left(tail_values, low)
                    stop = bisect_right(tail_values, high)
                    for right in tail_values[start:stop]:
                        value = left + right if operator == "+" else left - right
                        if value.denominator != 1:
                            continue
                        for a in left_strings:
                            for b in tails[right]:
                                yield f"{a}{operator}{b}", value.numerator

    def _products(self, length, lo, hi):
        """LEFT = t * n or t / n: for each value of t, the n that land in [lo, hi] form a range."""
        for head in range(1, length - 1):
            numbers = self.numbers(length - 1 - head)
            for term, strings in self.terms[head].items():
                for operator, number, value in self._last_factors(term, numbers, lo, hi):
                    for s in strings:
                        yield f"{s}{operator}{number}", value

    @staticmethod
    def _last_factors(term, numbers, lo, hi):
        """(operator, n, integer value) with term * n or term / n in [lo, hi], n in `numbers`."""
        if term == 0:
            # 0 * n and 0 / n (n != 0) are 0.
            if lo == 0:
                for number in numbers:
                    yield "*", number, 0
                    if number:
                        yield "/", number, 0
            return
        if numbers[0] == 0 and lo == 0:
            yield "*", 0, 0  # term * 0 = 0; term / 0 is invalid
        # From here term > 0 and n >= 1, so the value is > 0: search [max(lo, 1), hi].
        first, last, low = max(numbers[0], 1), numbers[-1], max(lo, 1)
        for number in range(max(first, ceil(low / term)), min(last, floor(hi / term)) + 1):
            value = term * number
            if value.denominator == 1:
                yield "*", number, value.numerator
        # term / n is an integer only if term is (term is in lowest terms) and n divides it.
        if term.denominator == 1:
            whole = term.numerator
            for number in range(max(first, ceil(term / hi)), min(last, whole // low) + 1):
                if whole % number == 0:
                    yield "/", number, whole // number
