"""Slow, obviously correct references for lexicon queries, over a plain set of words."""

import re
from collections import Counter


def makeable(word: str, letters: str) -> bool:
    """Can `word` be spelled from `letters` ('?' = any letter)?"""
    have = Counter(letters)
    blanks = have.pop("?", 0)
    missing = sum(max(0, n - have[ch]) for ch, n in Counter(word).items())
    return missing <= blanks


def order(words) -> list[str]:
    return sorted(words, key=lambda w: (-len(w), w))


def anagrams(words, letters: str) -> list[str]:
    return order(w for w in words if len(w) == len(letters) and makeable(w, letters))


def unscramble(words, letters, min_len=2, starts="", ends="", contains="") -> list[str]:
    return order(w for w in words if len(w) >= min_len and makeable(w, letters)
                 and w.startswith(starts) and w.endswith(ends) and contains in w)


def match(words, pattern: str) -> list[str]:
    regex = re.compile("".join("." if ch == "?" else ".*" if ch == "*" else re.escape(ch)
                               for ch in pattern))
    return order(w for w in words if regex.fullmatch(w))


def right_language_classes(arcs: list, root: int) -> tuple[int, int]:
    """(number of nodes reachable from root, number of distinct right languages among them).

    The right language of a node is the set of strings its arcs spell. Two nodes have the same
    right language exactly when their canonical forms (tile, accepts, child's class) per arc
    are equal, computed bottom-up; the graph is minimal when the two numbers are equal.
    """
    classes: dict[tuple, int] = {}
    class_of: dict[int, int] = {}

    def classify(start: int) -> int:
        if start in class_of:
            return class_of[start]
        form = []
        p = start
        while True:
            arc = arcs[p]
            child = arc >> 8
            form.append((arc & 0x3F, bool(arc & 0x40), classify(child) if child else -1))
            if arc & 0x80:
                break
            p += 1
        class_of[start] = classes.setdefault(tuple(form), len(classes))
        return class_of[start]

    import sys

    sys.setrecursionlimit(10000)
    if root:
        classify(root)
    return len(class_of), len(classes)
