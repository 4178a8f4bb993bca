"""Nerdle equation generation: the value-search generator against plain LEFT enumeration.

Baseline, measured in this run: enumerate every LEFT (number tokens without leading zeros
joined by operators), evaluate each with integer arithmetic in precedence order, and keep
those whose value is an integer of the remaining length. This is the method most Nerdle
solvers use; the generator searches value intervals instead.
"""

import itertools
import time

from pipeline.generate_equations import generate_equations


def naive_equations(length, kind):
    """Every equation of `length`, by evaluating every LEFT candidate (the baseline)."""
    first = 0 if kind == "guesses" else 1
    numbers = {n: [(str(v), v) for v in range(first if n == 1 else 10 ** (n - 1), 10**n)]
               for n in range(1, length - 3)}  # LEFT <= length - 2 symbols, with an operator
    out = []
    for left_length in range(3, length - 1):
        right_length = length - 1 - left_length
        for shape in _shapes(left_length):
            for operators in itertools.product("+-*/", repeat=len(shape) - 1):
                for tokens in itertools.product(*(numbers[n] for n in shape)):
                    value = _evaluate(tokens, operators)
                    if value is None:
                        continue
                    p, q = value
                    if p < 0 or p % q:
                        continue
                    right = str(p // q)
                    if len(right) == right_length:
                        left = tokens[0][0] + "".join(
                            o + t[0] for o, t in zip(operators, tokens[1:]))
                        out.append(f"{left}={right}")
    out.sort()
    return out


def _shapes(length):
    """Digit counts of the numbers of a LEFT with at least one operator."""
    for count in range(2, length // 2 + 2):
        for digits in itertools.product(range(1, length), repeat=count):
            if sum(digits) + count - 1 == length:
                yield digits


def _evaluate(tokens, operators):
    """(numerator, positive denominator) of the LEFT, None on division by zero."""
    total_p, total_q, sign = 0, 1, 1
    term_p, term_q = tokens[0][1], 1
    for operator, (_, number) in zip(operators, tokens[1:]):
        if operator == "*":
            term_p *= number
        elif operator == "/":
            if number == 0:
                return None
            term_q *= number
        else:
            total_p, total_q = total_p * term_q + sign * term_p * total_q, total_q * term_q
            sign, term_p, term_q = (1 if operator == "+" else -1), number, 1
    return total_p * term_q + sign * term_p * total_q, total_q * term_q


def best_time(fn, repeat=3):
    best, result = float("inf"), None
    for _ in range(repeat):
        started = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - started)
    return best, result


def run():
    rows = []
    for kind in ("answers", "guesses"):
        fast, equations = best_time(lambda: generate_equations(8, kind))
        slow, expected = best_time(lambda: naive_equations(8, kind), repeat=1)
        assert equations == expected, "generator and baseline disagree"
        rows.append({
            "area": "equations", "what": f"generate nerdle-classic {kind} ({len(equations)})",
            "value": fast, "unit": "s", "baseline": "evaluate every LEFT",
            "baseline_value": slow, "ratio": slow / fast, "note": "same list, checked",
        })
    return rows
