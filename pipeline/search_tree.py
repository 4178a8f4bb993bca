"""Exact decision-tree search for guessing games (numba kernels; build time only).

Cost model: the cost of a tree over an answer set S is the total number of guesses summed over
the answers of S, each answer counting every guess up to and including the all-green one. With
f(S) the optimal cost,

    f({a}) = 1,  f({a, b}) = 3,  f(S) = min over guesses g of n + sum over groups T of f(T)

where n = |S| and the groups T are the non-green groups of S split by the feedback of g. A
guess that leaves all of S in one non-green group makes no progress and is never taken. The
game's guess limit (Wordle: 6) bounds the depth: f_d(S) is the best cost with at most d
guesses, infinite (INFINITE) when no tree fits; children get d - 1. The limit rarely binds in
normal mode, but in hard mode the unlimited optimum for wordle-en needs 7 guesses somewhere.

Lower bound (lookup.guessing.splits.tree_lower_bound, compiled here): a group T costs at least
2|T| - 1 (one guess that is an answer of T and splits the rest into singletons), so a guess
leaving k non-green groups costs at least n + sum (2|T| - 1) = 3n - k - 2[g in S]. The search
is a depth-first branch and bound:
  - `solve(S, beta)` returns f(S) when f(S) < beta, else a lower bound >= beta (fail high);
  - guesses are tried in order of that bound (then guess-list order, so answers first), and
    the loop stops once the bound reaches the best total; ordering ties by sum of squared group
    sizes was tried and saved only 4% of the nodes for a second pass over the matrix;
  - while a guess is evaluated, its groups are first probed largest first with the budget
    2|T| + 1 (one scan each, raising a group's bound to its best guess's 3|T| - k - 2[g in T])
    and then solved largest first, each with the budget left (beta cut-off); unsolved groups
    count with their lower bound (2|T| - 1, the probe's or the memo's);
  - two guesses that split S into the same groups (with the same all-green group) cost the
    same, so only the first is evaluated;
  - a memo maps a hash of (S, allowed guesses, guesses left) to the exact value and best
    guess, or to a proven lower bound.
Quick exits: if an answer of S splits S into singletons, f(S) = 2n - 1; else if any guess does,
f(S) = 2n. The per-node scan that counts every allowed guess's groups reads the transposed
matrix (answers x guesses) row by row, so a node streams |S| contiguous rows; it is almost all
of the search's time, so Wordle's 243 codes get a bitset scan three times as fast as the
stamps that larger code counts (Nerdle) use. Almost every scan is a probe (budget 2|S| + 1) of
a group of a parent's set, and a guess's count over the group is at most its count over the
parent: a probe scans guesses by that bound, highest first, and stops once none left can beat
the best found (_scan_probe; bounds under the budget stay exact, so the search visits the same
nodes). On wordle-nl refutations it scans an eighth of the cells: four random openers against
21,170 took 35.8 CPU s instead of 50.7 (a busy machine), hard-mode wordle-de ones 30% less. Nerdle's
groups are small (most guesses split them into singletons as far as the parent's bound can
tell), so its probes scan in full.

Hard mode (the rule of lookup.guessing.game.hard_mode_violation, compiled here as `_child_allowed`):
a guess must keep every green letter in place and contain every green or yellow letter as often
as the last feedback showed it (the original game's check against the last row; it implies
every earlier row's check). The allowed set of a child is the parent's set
filtered by the new feedback, and it is part of the memo key. Answers still possible are always
allowed, so every node can finish.

Games too big for the exact search within a build's time (answer lists of several thousand,
hard mode) can set a width: each node then evaluates only its first `width` guesses in bound
order. Everything else stays the same, so the result is a valid tree and the best one among
those choices, but not proven optimal; the tree header says which.

Hashes (64-bit Zobrist sums of per-answer and per-guess random keys, fixed seed) identify
answer sets, allowed sets and partitions; a collision could in principle hide a better tree,
so every built tree is re-walked with the reference feedback function in the tests.
"""

import numba
import numpy as np
from numba import types
from numba.typed import Dict

from lookup.crossword.engine_numba import bit_count
from lookup.guessing.splits import tree_lower_bound

# Memo value packing: value << 32 | (guess + 1) << 1 | exact. guess + 1 == 0 means "none".
_EXACT = np.int64(1)
INFINITE = np.int64(1 << 30)
# The bitset scan (_scan_bits) serves games of up to 256 codes (Wordle: 3^5 = 243), 4 words of
# bits per guess; 512 guesses per block make a 16 KB table, well inside an L1 cache.
BITSET_WORDS = 4
BITSET_CODES = 64 * BITSET_WORDS
BITSET_GUESSES = 512
# _scan_probe's blocks: smaller than a full scan's, so that it stops closer to the last guess
# that can beat the best.
PROBE_BLOCK = 128
# A cell of _scan_probe's scan, guesses in bound order, costs about this many of a full scan's
# cells, guesses in list order (a bitset cell on wordle-nl: 1.8 against 0.7 ns in a
# micro-benchmark); on wordle-nl refutations 2.5 did better than 3.5 and than 1.8.
GATHER_COST = 2.5
# evaluate_guess's bound-raising passes: each raises a group's bound by this many per mille of
# its size (at least 1). Five wordle-de openers refuted against 16,898 (1075, 1928, 731, 2870,
# 3074) took 52,741 nodes and 9.2 CPU s with them, 112,146 and 16.3 without; steps of
# (20, 50, 100, 200, 400) or (50, 150, 400) per mille did worse (9.7 and 12.9 s).
RAISE_PER_MILLE = (30, 100, 300)
_lower_bound = numba.njit(cache=True)(tree_lower_bound)


@numba.njit(cache=True)
def _pack(value, guess, exact):
    return (np.int64(value) << 32) | (np.int64(guess + 1) << 1) | np.int64(exact)


@numba.njit(cache=True)
def _hash_set(items, keys):
    h = np.uint64(0)
    for x in items:
        h += keys[x]
    return h


@numba.njit(cache=True)
def _memo_key(S, allowed, depth, hard, akeys, gkeys, dkeys):
    """The memo key of (S, allowed guesses in hard mode, guesses left): solve and _fits share
    one memo, so they must key a node alike.
    """
    key = _hash_set(S, akeys) ^ dkeys[depth]
    if hard:
        key ^= _hash_set(allowed, gkeys)
    return key


@numba.njit(cache=True)
def _split(codes_row, S, ncodes, green):
    """Group S by codes_row[S]: returns (order, starts, group_codes); order lists S grouped.

    Groups are in ascending code order; the all-green group (if any) is included with its code.
    """
    n = S.shape[0]
    count = np.zeros(ncodes + 1, np.int32)
    for j in range(n):
        count[codes_row[S[j]] + 1] += 1
    ngroups = 0
    for c in range(ncodes):
        if count[c + 1] > 0:
            ngroups += 1
        count[c + 1] += count[c]
    order = np.empty(n, np.int32)
    pos = count[:ncodes].copy()
    for j in range(n):
        c = codes_row[S[j]]
        order[pos[c]] = S[j]
        pos[c] += 1
    starts = np.empty(ngroups + 1, np.int32)
    group_codes = np.empty(ngroups, np.int32)
    gi = 0
    for c in range(ncodes):
        if count[c + 1] > count[c]:
            starts[gi] = count[c]
            group_codes[gi] = c
            gi += 1
    starts[ngroups] = n
    return order, starts, group_codes


@numba.njit(cache=True)
def _child_allowed(allowed, g, code, letters, counts, length, nletters):
    """Hard mode: the guesses of `allowed` that may follow guess g after it got `code`
    (lookup.guessing.game's hard_mode_violation over letter indices; tests/test_tree.py checks that
    they agree). The rule's squares and letter counts depend on (g, code) only, so they are
    worked out once, and each guess costs a few comparisons.
    """
    green_squares = np.empty(length, np.int64)
    n_green = 0
    need = np.zeros(nletters, np.int32)
    c = code
    for i in range(length - 1, -1, -1):
        t = c % 3
        c //= 3
        if t == 2:
            green_squares[n_green] = i
            n_green += 1
        if t > 0:
            need[letters[g, i]] += 1
    needed = np.empty(length, np.int64)
    n_needed = 0
    for x in range(nletters):
        if need[x] > 0:
            needed[n_needed] = x
            n_needed += 1
    out = np.empty(allowed.shape[0], np.int32)
    m = 0
    for h in allowed:
        ok = True
        for j in range(n_green):
            if letters[h, green_squares[j]] != letters[g, green_squares[j]]:
                ok = False
                break
        if ok:
            for j in range(n_needed):
                if counts[h, needed[j]] < need[needed[j]]:
                    ok = False
                    break
        if ok:
            out[m] = h
            m += 1
    return out[:m]


@numba.njit(cache=True)
def _group_lb(T, akeys, context_hash, memo):
    m = T.shape[0]
    if m <= 2:
        return np.int64(2 * m - 1)
    key = _hash_set(T, akeys) ^ context_hash
    if key in memo:
        return memo[key] >> 32
    return np.int64(2 * m - 1)


@numba.njit(cache=True)
def _scan(MT, S, allowed, ncodes, stamp, clock, distinct):
    """distinct[gi] = number of distinct codes of guess allowed[gi] over S (green included).

    Reads MT (answer-major) row by row, so a node streams n rows of the matrix instead of
    touching one cache line per (guess, answer). Guesses go in blocks whose (guess, code)
    stamp table stays in cache; a stamp equal to the block's clock marks a code as seen.
    """
    n = S.shape[0]
    ng = allowed.shape[0]
    block = stamp.shape[0] // ncodes
    for b0 in range(0, ng, block):
        b1 = min(b0 + block, ng)
        if clock[0] >= 2**31 - 2:
            stamp[:] = 0
            clock[0] = 0
        clock[0] += 1
        now = np.int32(clock[0])
        for gi in range(b0, b1):
            distinct[gi] = 0
        for x in range(n):
            row = MT[S[x]]
            for gi in range(b0, b1):
                idx = (gi - b0) * ncodes + row[allowed[gi]]
                distinct[gi] += stamp[idx] != now  # branch-free: the branch mispredicts
                stamp[idx] = now


@numba.njit(cache=True)
def _scan_bits(MT, S, allowed, bits, distinct):
    """_scan for games of at most BITSET_CODES codes: a block's guesses each get
    BITSET_WORDS words of bits in an L1-sized table, a (guess, code) seen sets its bit, and the
    block's counts are the bits set. With every guess allowed (normal mode) a block reads a
    contiguous slice of each row. On wordle-de 0.6 ns per cell against the stamps' 1.8 (1.4
    through a hard-mode `allowed` subset).
    """
    n = S.shape[0]
    ng = allowed.shape[0]
    every_guess = ng == MT.shape[1]  # allowed is ascending, so it is 0 .. ng - 1
    block = bits.shape[0] // BITSET_WORDS
    for b0 in range(0, ng, block):
        b1 = min(b0 + block, ng)
        bits[:(b1 - b0) * BITSET_WORDS] = 0
        for x in range(n):
            row = MT[S[x]]
            if every_guess:
                part = row[b0:b1]
                for j in range(b1 - b0):
                    c = np.int64(part[j])
                    bits[j * BITSET_WORDS + (c >> 6)] |= np.int64(1) << (c & 63)
            else:
                for j in range(b1 - b0):
                    c = np.int64(row[allowed[b0 + j]])
                    bits[j * BITSET_WORDS + (c >> 6)] |= np.int64(1) << (c & 63)
        for j in range(b1 - b0):
            d = 0
            for w in range(BITSET_WORDS):
                d += bit_count(bits[j * BITSET_WORDS + w])
            distinct[b0 + j] = d


@numba.njit(cache=True)
def _scan_probe(MT, S, allowed, in_s, parent, bits, distinct, exact):
    """_scan for a probe (budget 2|S| + 1), which needs the least bound 3n - max(d + [g in S])
    exactly and the exact count only of guesses whose bound may be under the budget.

    S is a group of the parent node's set, so a guess's distinct count over S is at most its
    count over the parent (`parent`, aligned with `allowed`; exact or itself an upper bound)
    and at most n. Guesses go by that upper bound, highest first, in blocks; once a block
    starts at an upper bound that cannot beat the best d + [g in S] found, the rest are left
    with distinct[gi] = the upper bound and exact[gi] False. Gathered guesses cost more per cell
    than a full scan's contiguous rows (GATHER_COST), so a probe with too many guesses left
    falls back to _scan_bits. Returns the best d + [g in S] over every guess, exact.
    """
    n = S.shape[0]
    ng = allowed.shape[0]
    n_answers = MT.shape[0]
    # Counting sort by upper bound, descending; guess-list order within a bound.
    count = np.zeros(n + 2, np.int64)
    for gi in range(ng):
        count[min(parent[gi], n)] += 1
    # No answer splits S (the probe's quick exit 1 came first, or n exceeds the codes), so the
    # best d + [g in S] is at most n and guesses whose bound is n are never skipped: too many,
    # and the full scan is cheaper.
    if count[n] * GATHER_COST > ng:
        return _scan_all(MT, S, allowed, in_s, bits, distinct, exact)
    at = np.empty(n + 2, np.int64)
    total = 0
    for v in range(n, -1, -1):
        at[v] = total
        total += count[v]
    order = np.empty(ng, np.int32)
    for gi in range(ng):
        v = min(parent[gi], n)
        order[at[v]] = gi
        at[v] += 1
    guesses = np.empty(BITSET_GUESSES, np.int32)
    best = 0
    b0 = 0
    block = PROBE_BLOCK
    while b0 < ng and min(parent[order[b0]], n) + 1 > best:
        if b0 > 0:
            # Guesses that may still beat the best: those whose upper bound is at least it.
            left = -b0
            for v in range(best, n + 1):
                left += count[v]
            if left * GATHER_COST > ng:
                return _scan_all(MT, S, allowed, in_s, bits, distinct, exact)
            # One block for all of them if it can: each block pulls every row's cache lines
            # in again.
            block = min(max(left, PROBE_BLOCK), BITSET_GUESSES)
        b1 = min(b0 + block, ng)
        m = b1 - b0
        for j in range(m):
            guesses[j] = allowed[order[b0 + j]]
        bits[:m * BITSET_WORDS] = 0
        for x in range(n):
            row = MT[S[x]]
            for j in range(m):
                c = np.int64(row[guesses[j]])
                bits[j * BITSET_WORDS + (c >> 6)] |= np.int64(1) << (c & 63)
        for j in range(m):
            gi = order[b0 + j]
            d = 0
            for w in range(BITSET_WORDS):
                d += bit_count(bits[j * BITSET_WORDS + w])
            distinct[gi] = d
            exact[gi] = True
            g = allowed[gi]
            best = max(best, distinct[gi] + (1 if g < n_answers and in_s[g] else 0))
        b0 = b1
    for j in range(b0, ng):
        gi = order[j]
        distinct[gi] = min(parent[gi], n)
        exact[gi] = False
    return best


@numba.njit(cache=True)
def _scan_all(MT, S, allowed, in_s, bits, distinct, exact):
    """_scan_probe's fallback: _scan_bits over every guess; returns the best d + [g in S]."""
    _scan_bits(MT, S, allowed, bits, distinct)
    exact[:] = True
    n_answers = MT.shape[0]
    best = 0
    for gi in range(allowed.shape[0]):
        g = allowed[gi]
        best = max(best, distinct[gi] + (1 if g < n_answers and in_s[g] else 0))
    return best


@numba.njit(cache=True)
def _distinct_over(row, S, seen, mark):
    """Distinct codes of one guess's matrix row over S; `seen` is scratch of ncodes, `mark` a
    value it does not hold yet.
    """
    d = 0
    for x in range(S.shape[0]):
        c = row[S[x]]
        if seen[c] != mark:
            seen[c] = mark
            d += 1
    return d


@numba.njit(cache=True)
def _child_distinct(allowed, distinct, child_allowed, budget, size):
    """The parent_distinct to pass a child of `size` answers searched with `budget`: the
    parent's counts when the child is a probe (budget 2 size + 1), else empty.
    """
    if budget != 2 * size + 1:
        return np.zeros(0, np.int32)
    if child_allowed.shape[0] == allowed.shape[0]:
        return distinct
    return _aligned(allowed, distinct, child_allowed)


@numba.njit(cache=True)
def _aligned(allowed, distinct, child_allowed):
    """Distinct (over `allowed`) at the positions of child_allowed, a subsequence of it."""
    out = np.empty(child_allowed.shape[0], np.int32)
    i = 0
    for j in range(child_allowed.shape[0]):
        while allowed[i] != child_allowed[j]:
            i += 1
        out[j] = distinct[i]
    return out


# solve and evaluate_guess, the entries from Python, release the GIL: a search can run for an
# hour, and a Dask worker running it must still answer its scheduler's heartbeats (held, the
# scheduler dropped the worker after 5 minutes and retried the search elsewhere, 4 times).
@numba.njit(cache=True, nogil=True)
def _fits(S, allowed, depth, hard, ctx, memo, fitting):
    """Whether some tree over S fits in `depth` guesses (f_depth(S) < INFINITE), without its
    cost: the first guess whose groups all fit will do, so a set that fits costs about one
    tree's nodes. A set that fits none goes into `memo` as exactly INFINITE; one that fits
    into `fitting` (the memo keeps values, and a fit is no value). A guess's groups are checked
    smallest first: a trap is a small group, and the first group that fits no tree rules the
    guess out (largest first, BLIES's 7-guess refutation in Dutch hard mode took 133 CPU s,
    smallest first 23).
    """
    n = S.shape[0]
    if n <= 1:
        return depth >= n
    if depth < 2:
        return False
    if n == 2:
        return True
    M, MT, akeys, gkeys, letters, counts, stamp, clock, bits, dkeys, width = ctx
    key = _memo_key(S, allowed, depth, hard, akeys, gkeys, dkeys)
    if key in fitting:
        return True
    if key in memo:
        entry = memo[key]
        if entry & _EXACT:
            return (entry >> 32) < INFINITE
        if (entry >> 32) > depth * n:  # a bound above any tree's cost that fits
            return False
    ncodes = 1
    for _ in range(letters.shape[1]):
        ncodes *= 3
    green = ncodes - 1
    ng = allowed.shape[0]
    distinct = np.empty(ng, np.int32)
    if ncodes <= BITSET_CODES:
        _scan_bits(MT, S, allowed, bits, distinct)
    else:
        _scan(MT, S, allowed, ncodes, stamp, clock, distinct)
    # Most groups first (ties: list order); a guess that leaves S in one group is no progress.
    order = np.argsort(-distinct, kind="mergesort")
    for oi in range(ng):
        gi = order[oi]
        if distinct[gi] <= 1:
            break
        if depth == 2 and distinct[gi] < n:
            break  # two guesses: the first must leave only singletons
        g = allowed[gi]
        grouped, starts, gcodes = _split(M[g], S, ncodes, green)
        sizes = starts[1:] - starts[:-1]
        ok = True
        for t in np.argsort(sizes, kind="mergesort"):
            if gcodes[t] == green or sizes[t] == 1:
                continue
            child_allowed = allowed
            if hard:
                child_allowed = _child_allowed(allowed, g, gcodes[t], letters, counts,
                                               letters.shape[1], counts.shape[1])
            if not _fits(grouped[starts[t]:starts[t + 1]], child_allowed, depth - 1, hard, ctx,
                         memo, fitting):
                ok = False
                break
        if ok:
            fitting[key] = True
            return True
    memo[key] = _pack(INFINITE, -1, 1)
    return False


@numba.njit(cache=True, nogil=True)
def solve(S, allowed, depth, beta, hard, ctx, memo, stats, parent_distinct):
    """f_depth(S) if it is < beta, else a lower bound >= beta. See the module docstring.

    Args:
        S: answer indices (int32, ascending), the candidates at this node.
        allowed: guess indices (int32, ascending) allowed here (all guesses in normal mode).
        depth: guesses left, this one included.
        beta: the budget; results >= beta are lower bounds only.
        hard: hard mode (children filter `allowed`).
        ctx: (M [guesses, answers], MT [answers, guesses], answer keys, guess keys,
              letters [guesses, length], letter counts [guesses, alphabet], stamp scratch,
              clock, bitset scratch, depth keys, width); answer a is guess a (answers come
              first in the guess list). width > 0 evaluates only the first `width` guesses
              in bound order at each node: a faster search whose trees are not proven
              optimal.
        memo: typed dict uint64 -> packed int64.
        stats: int64[2]: nodes searched, guesses evaluated.
        parent_distinct: when S is a group of a parent node's set, each allowed guess's
            distinct count over that set (or an upper bound of it), aligned with `allowed`;
            else empty. Probes use it to skip guesses (_scan_probe).
    """
    n = S.shape[0]
    if depth < 1 or (depth == 1 and n > 1):
        return INFINITE
    if n == 1:
        return np.int64(1)
    if n == 2:
        return np.int64(3)
    M, MT, akeys, gkeys, letters, counts, stamp, clock, bits, dkeys, width = ctx
    key = _memo_key(S, allowed, depth, hard, akeys, gkeys, dkeys)
    known_lb = np.int64(2 * n - 1)
    if key in memo:
        entry = memo[key]
        value = entry >> 32
        if entry & _EXACT or value >= beta:
            return value
        known_lb = value
    stats[0] += 1
    length = letters.shape[1]
    ncodes = 1
    for _ in range(length):
        ncodes *= 3
    green = ncodes - 1
    n_answers = MT.shape[0]
    # Quick exit 1: an answer of S that splits S into singletons gives the minimum 2n - 1.
    if n <= ncodes:
        seen = np.zeros(ncodes, np.int32)
        for j in range(n):
            row = M[S[j]]
            distinct = 0
            for x in range(n):
                c = row[S[x]]
                if seen[c] != j + 1:
                    seen[c] = j + 1
                    distinct += 1
            if distinct == n:
                memo[key] = _pack(2 * n - 1, S[j], 1)
                return np.int64(2 * n - 1)
    if beta <= 2 * n:
        lb = max(np.int64(2 * n), known_lb)
        memo[key] = _pack(lb, -1, 0)
        return lb
    # Bound every allowed guess: 3n - k - 2[g in S], k = its non-green groups.
    in_s = np.zeros(n_answers, np.bool_)
    for a in S:
        in_s[a] = True
    ng = allowed.shape[0]
    distinct = np.empty(ng, np.int32)
    # A probe (budget 2n + 1) of a parent's group may skip guesses; its bounds below are then
    # exact wherever they are under the budget, and the least bound is exact (_scan_probe).
    probe = ncodes <= BITSET_CODES and beta == 2 * n + 1 and parent_distinct.shape[0] == ng
    exact = np.ones(ng if probe else 0, np.bool_)
    seen_codes = np.zeros(ncodes if probe else 0, np.int32)
    if probe:
        best_split = _scan_probe(MT, S, allowed, in_s, parent_distinct, bits, distinct, exact)
        # Most probes end here, without bounding each guess: below n no guess splits S into
        # singletons (quick exit 2), and the least bound is 3n - best_split (a guess with
        # best_split <= 1 makes no progress).
        if best_split < n and depth > 2:
            min_bound = 3 * n - best_split if best_split > 1 else INFINITE
            if max(known_lb, min_bound) >= beta:
                memo[key] = _pack(max(known_lb, min_bound), -1, 0)
                return max(known_lb, min_bound)
    elif ncodes <= BITSET_CODES:
        _scan_bits(MT, S, allowed, bits, distinct)
    else:
        _scan(MT, S, allowed, ncodes, stamp, clock, distinct)
    bound = np.empty(ng, np.int64)
    min_bound = INFINITE
    useful = 0
    for gi in range(ng):
        g = allowed[gi]
        is_cand = g < n_answers and in_s[g]
        if probe and not exact[gi] and (
                _lower_bound(n, distinct[gi] - (1 if is_cand else 0), is_cand) < beta):
            distinct[gi] = _distinct_over(M[g], S, seen_codes, gi + 1)
        k = distinct[gi] - (1 if is_cand else 0)
        if k == n and not is_cand:
            # Quick exit 2: no answer splits S (checked above), this guess does: 2n is optimal.
            memo[key] = _pack(2 * n, g, 1)
            return np.int64(2 * n)
        if k == 1 and not is_cand:
            bound[gi] = INFINITE  # all of S in one group: no progress
        else:
            bound[gi] = _lower_bound(n, k, is_cand)
            useful += 1
            min_bound = min(min_bound, bound[gi])
    if depth == 2:
        # Quick exits 1 and 2 failed: one guess cannot leave only singletons.
        memo[key] = _pack(INFINITE, -1, 1)
        return INFINITE
    known_lb = max(known_lb, min_bound)
    if known_lb >= beta:
        memo[key] = _pack(known_lb, -1, 0)
        return known_lb
    # Try guesses by bound, then index (answers first: deterministic); only those under budget.
    order_key = np.empty(useful, np.int64)
    m = 0
    for gi in range(ng):
        if bound[gi] < beta:
            order_key[m] = (bound[gi] << 32) | gi
            m += 1
    order_key = np.sort(order_key[:m])
    best = beta
    best_g = -1
    sigs = Dict.empty(key_type=types.uint64, value_type=types.int64)
    first = np.empty(ncodes, np.int32)
    first_at = np.zeros(ncodes, np.int32)
    tried = 0
    nletters = counts.shape[1]
    for oi in range(m):
        gi = order_key[oi] & 0xFFFFFFFF
        if bound[gi] >= best:
            break
        g = allowed[gi]
        row = M[g]
        # Partition signature: each answer keyed by the first answer of its group; the
        # all-green group is marked, so equal signatures mean equal costs.
        sig = np.uint64(0)
        for x in range(n):
            c = row[S[x]]
            if first_at[c] != oi + 1:
                first_at[c] = oi + 1
                first[c] = x
            label = np.uint64(first[c] + 1) * np.uint64(0x9E3779B97F4A7C15)
            if c == green:
                label ^= np.uint64(0xD6E8FEB86659FD93)
            sig += akeys[S[x]] * (label | np.uint64(1))
        # (Not in hard mode: there the guess also decides what its children may guess.)
        if not hard:
            if sig in sigs:
                continue
            sigs[sig] = g
        if width > 0 and tried >= width:
            break
        tried += 1
        stats[1] += 1
        grouped, starts, gcodes = _split(row, S, ncodes, green)
        ngroups = gcodes.shape[0]
        lbs = np.empty(ngroups, np.int64)
        total = np.int64(n)
        for t in range(ngroups):
            if gcodes[t] == green:
                lbs[t] = 0
            elif hard:
                # The memo key of a child needs its allowed set; the plain bound will do.
                lbs[t] = 2 * (starts[t + 1] - starts[t]) - 1
            else:
                lbs[t] = _group_lb(grouped[starts[t]:starts[t + 1]], akeys, dkeys[depth - 1],
                                   memo)
            total += lbs[t]
        if total >= best:
            continue
        # Groups largest first (the likeliest to blow the budget), in two passes: a probe of
        # each group whose bound is still the plain 2|T| - 1, with budget 2|T| + 1 (one scan
        # of the group: it raises the bound to its best guess's 3|T| - k - 2[g in T], or
        # solves it), so that a guess fails on the sum of its groups' bounds before any group
        # is searched deeply; then each group with the budget left. Without the probe pass a
        # near-best wordle-de opener (SEILT) took 1,035,196 nodes, with it 50,270.
        sizes = starts[1:] - starts[:-1]
        gorder = np.argsort(-sizes, kind="mergesort")
        for probing in (True, False):
            for t in gorder:
                if gcodes[t] == green or sizes[t] <= 2:
                    continue
                if probing and lbs[t] > 2 * sizes[t] - 1:
                    continue  # the memo already knows more than the plain bound
                T = grouped[starts[t]:starts[t + 1]]
                child_allowed = allowed
                if hard:
                    child_allowed = _child_allowed(allowed, g, gcodes[t], letters, counts,
                                                   length, nletters)
                budget = best - (total - lbs[t])
                if probing:
                    budget = min(budget, 2 * sizes[t] + 1)
                v = solve(T, child_allowed, depth - 1, budget, hard, ctx, memo, stats,
                          _child_distinct(allowed, distinct, child_allowed, budget, sizes[t]))
                total += v - lbs[t]
                lbs[t] = v
                if total >= best:
                    break
            if total >= best:
                break
        if total < best:
            best = total
            best_g = g
            if best <= known_lb:
                break
    if best_g >= 0:
        memo[key] = _pack(best, best_g, 1)
        return best
    lb = max(beta, known_lb)
    memo[key] = _pack(lb, -1, 0)
    return lb


@numba.njit(cache=True, nogil=True)
def evaluate_guess(S, allowed, g, depth, beta, hard, ctx, memo, stats, fitting):
    """Cost of guessing g first at S with `depth` guesses left (exact when < beta, else a lower
    bound >= beta).

    Every group is probed first with the small budget 2|T| + 1: that costs one scan of the
    group and raises its bound from 2|T| - 1 to its best guess's 3|T| - k - 2[g in T] (or
    solves it), so a bad opener fails on the sum of its groups' bounds before any group is
    searched deeply. With a finite beta, passes over the groups then raise each bound by a
    small share of its size (RAISE_PER_MILLE), since proving that a group costs a little more
    is far cheaper than solving it; the groups' summed bounds usually pass beta before any
    group is solved outright. The last pass solves the groups largest first with the budget
    left.

    Between the probes and the raising passes, a fit pass goes over the groups smallest first
    and gives up at the first that fits no tree under the guess limit (with a budget it only
    asks whether each fits, _fits; without one it solves each, so it is the last pass): in
    hard mode a few words alike but for one letter (a trap: CIJNS FIJNS GIJNS MIJNS PIONS
    RIJNS ZIJNS after SEINT) must be guessed one by one, and finding such a group first rules
    an opener out at once instead of after the large groups are solved. The Dutch hard-mode
    plan's 8 openers at a 6-guess limit took 330-3,895 CPU s each without it, under 0.1 s
    with it; at a 9-guess limit against 22,602, SLIET, SALET and BEITS took 77.7, 35.5 and
    91.3 CPU s without it, 0.1 or less with it (a trap of 20, 17 and 10 words), while openers
    that fit (PARET, STOLA, ZIJDE) took the same time.
    """
    M, MT, akeys, gkeys, letters, counts, stamp, clock, bits, dkeys, width = ctx
    n = S.shape[0]
    ncodes = 1
    for _ in range(letters.shape[1]):
        ncodes *= 3
    green = ncodes - 1
    grouped, starts, gcodes = _split(M[g], S, ncodes, green)
    ngroups = gcodes.shape[0]
    sizes = starts[1:] - starts[:-1]
    lbs = np.zeros(ngroups, np.int64)
    total = np.int64(n)
    for t in range(ngroups):
        if gcodes[t] != green:
            lbs[t] = 2 * sizes[t] - 1
            total += lbs[t]
    gorder = np.argsort(-sizes, kind="mergesort")  # largest first: the earliest cut-off
    solved = np.zeros(ngroups, np.bool_)  # exact values (a pair may not fit the depth)
    no_parent = np.zeros(0, np.int32)  # (S is every answer: parent counts would skip nothing)
    unbounded = beta >= INFINITE
    # Passes: 0 probes; 1 looks for a group that fits no tree (the fit pass); then, with a
    # budget, one pass per RAISE_PER_MILLE step and a last one with the budget left.
    npasses = 2 if unbounded else len(RAISE_PER_MILLE) + 3
    for p in range(npasses):
        for t in (gorder[::-1] if p == 1 else gorder):
            if gcodes[t] == green or solved[t]:
                continue
            T = grouped[starts[t]:starts[t + 1]]
            child_allowed = allowed
            if hard:
                child_allowed = _child_allowed(allowed, g, gcodes[t], letters, counts,
                                               letters.shape[1], counts.shape[1])
            if p == 1 and not unbounded:
                if not _fits(T, child_allowed, depth - 1, hard, ctx, memo, fitting):
                    return INFINITE
                continue
            # The fit cap: a tree over T within depth - 1 guesses costs at most (depth - 1)|T|,
            # so a value at or above the cap means no tree fits T, nor S after g.
            cap = (depth - 1) * sizes[t] + 1
            budget = beta - (total - lbs[t])
            if p == 0:
                budget = min(budget, 2 * sizes[t] + 1)
            elif p == 1:
                budget = min(budget, cap)
            elif p < npasses - 1:
                step = max(1, sizes[t] * RAISE_PER_MILLE[p - 2] // 1000)
                budget = min(budget, lbs[t] + step)
            v = solve(T, child_allowed, depth - 1, budget, hard, ctx, memo, stats, no_parent)
            if v >= cap:
                return INFINITE
            solved[t] = v < budget
            total += v - lbs[t]
            lbs[t] = v
            if total >= beta:
                return total
    return total


# (guess, code) stamp entries per scan block: 256 KB, about half an L2 cache.
STAMP_ENTRIES = 1 << 16


class Searcher:
    """Exact search state for one game and mode: the matrix, hash keys, memo and counters.

    Answers must come first in the guess list (answer a is guess a), as lookup.guessing.game lays
    out.
    """

    def __init__(self, matrix: np.ndarray, letters: np.ndarray, nletters: int, hard: bool,
                 max_guesses: int, width: int = 0, seed: int = 20220101):
        M = np.ascontiguousarray(matrix)
        n_guesses, n_answers = M.shape
        ncodes = 3 ** letters.shape[1]
        rng = np.random.default_rng(seed)
        self.keys = (rng.integers(0, 2**63, n_answers, dtype=np.uint64) | np.uint64(1),
                     rng.integers(0, 2**63, n_guesses, dtype=np.uint64) | np.uint64(1),
                     rng.integers(0, 2**63, max_guesses + 1, dtype=np.uint64) | np.uint64(1))
        self.letters = np.ascontiguousarray(letters, dtype=np.uint8)
        self.counts = np.zeros((n_guesses, max(nletters, 1)), np.uint8)
        for i in range(self.letters.shape[1]):
            np.add.at(self.counts, (np.arange(n_guesses), self.letters[:, i]), 1)
        if ncodes <= BITSET_CODES:
            stamp, bits = np.zeros(0, np.int32), np.zeros(BITSET_GUESSES * BITSET_WORDS, np.int64)
        else:
            stamp, bits = np.zeros(max(STAMP_ENTRIES, 32 * ncodes), np.int32), np.zeros(0, np.int64)
        self.ctx = (M, np.ascontiguousarray(M.T), self.keys[0], self.keys[1], self.letters,
                    self.counts, stamp, np.zeros(1, np.int64), bits, self.keys[2],
                    np.int64(width))
        self.width = width  # 0: exact search
        self.ncodes = ncodes
        self.hard = hard
        self.max_guesses = max_guesses
        self.memo = Dict.empty(key_type=types.uint64, value_type=types.int64)
        # Sets known to fit their guess limit (_fits), kept across openers like the memo.
        self.fitting = Dict.empty(key_type=types.uint64, value_type=types.boolean)
        self.stats = np.zeros(2, np.int64)
        self.answers = np.arange(n_answers, dtype=np.int32)
        self.guesses = np.arange(n_guesses, dtype=np.int32)

    @property
    def nodes_visited(self) -> int:
        """Subproblems searched (memo misses of size >= 3), deterministic for a given input."""
        return int(self.stats[0])

    @property
    def guesses_evaluated(self) -> int:
        """Guesses whose groups were solved (after bound and duplicate-partition pruning)."""
        return int(self.stats[1])

    def solve(self, S, allowed, depth: int, beta=INFINITE) -> int:
        """f_depth(S) if < beta, else a lower bound >= beta (INFINITE: no tree fits)."""
        return int(solve(S, allowed, np.int64(depth), np.int64(beta), self.hard, self.ctx,
                         self.memo, self.stats, np.zeros(0, np.int32)))

    def cost(self, guess: int, beta=INFINITE) -> int:
        """Cost of the best tree over all answers that opens with `guess` (exact if < beta)."""
        return int(evaluate_guess(self.answers, self.guesses, np.int32(guess),
                                  np.int64(self.max_guesses), np.int64(beta), self.hard,
                                  self.ctx, self.memo, self.stats, self.fitting))

    def split(self, S, guess: int):
        """[(code, group)] of S under `guess`, codes ascending, groups as int32 arrays."""
        grouped, starts, codes = _split(self.ctx[0][guess], S, self.ncodes, self.ncodes - 1)
        return [(int(c), grouped[starts[t]:starts[t + 1]]) for t, c in enumerate(codes)]

    def child_allowed(self, allowed, guess: int, code: int):
        """Guesses still allowed after `guess` got `code` (hard mode), else `allowed`."""
        if not self.hard:
            return allowed
        return _child_allowed(allowed, np.int32(guess), np.int32(code), self.letters,
                              self.counts, self.letters.shape[1], self.counts.shape[1])

    def best_guess(self, S, allowed, depth: int) -> int:
        """An optimal guess at S with `depth` guesses left: from the memo, solving if needed."""
        if len(S) <= 2:
            return int(S[0])
        key = self.keys[0][S].sum(dtype=np.uint64) ^ self.keys[2][depth]
        if self.hard:
            key ^= self.keys[1][allowed].sum(dtype=np.uint64)
        entry = self.memo.get(key)
        if entry is None or not entry & 1:
            self.solve(S, allowed, depth)
            entry = self.memo[key]
        guess = ((entry >> 1) & 0x7FFFFFFF) - 1
        if guess < 0:
            raise ValueError("no tree fits the guess limit below this node")
        return guess

    def tree(self, root: int):
        """The optimal tree over all answers opening with `root`: [guess, codes, children]."""
        return self._node(self.answers, self.guesses, root, self.max_guesses)

    def _node(self, S, allowed, guess: int, depth: int):
        green = self.ncodes - 1
        codes, children = [], []
        for code, group in self.split(S, guess):
            if code == green:
                continue
            child_allowed = self.child_allowed(allowed, guess, code)
            codes.append(code)
            children.append(self._node(group, child_allowed,
                                       self.best_guess(group, child_allowed, depth - 1),
                                       depth - 1))
        return [int(guess), codes, children]
