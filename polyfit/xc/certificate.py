"""Linear certificates: a proof, found by elimination, that an exact cover problem has no solution.

Write the problem as ``A x = b``: a row per primary item with fixed bounds (``lo == hi``), a
column per option, ``b`` the bounds, ``x`` in {0, 1}. Items whose count may vary, and secondary
items, are left out (a relaxation: a proof for it holds for the problem). If ``b`` is not in the
span of the columns modulo a prime ``p``, no whole-number ``x`` solves the system, let alone a
0/1 one. The proof is a weight ``y`` per item with ``y . column = 0`` for every option and
``y . b != 0`` (mod ``p``): every option weighs nothing, the target does not.

For a puzzle the items are cells and pieces, so ``y`` is a colouring: a weight per cell (and per
piece) under which every placement of each piece adds up to the same amount, while the board
cannot be made of them. Straight trominoes on the 8x8 square less a corner are the classic case:
colour the diagonals 0, 1, 2 in turn.

Primes are tried from small (whose colourings read well) to large; over a large prime a
certificate is as good a proof, and nearly always exists when one exists over the rationals.
"""

from __future__ import annotations

from dataclasses import dataclass

from polyfit.xc.problem import ExactCoverProblem

# The last is large enough that a certificate over the rationals nearly always shows mod it,
# and small enough that numpy's 64-bit products of row entries cannot overflow.
PRIMES = (2, 3, 5, 7, 1_000_003)
MAX_WORK = 2_000_000_000  # multiply-adds of the elimination (items squared times options)


@dataclass
class Certificate:
    prime: int
    weights: dict[int, int]  # item index -> weight, from -(p // 2) to p // 2; others weigh 0
    target: int  # the weight of b, not 0 mod prime
    option_weight: int = 0  # every option weighs this (0) mod prime

    def weight_of(self, items) -> int:
        return sum(self.weights.get(i, 0) for i in items) % self.prime


def _balanced(value: int, p: int) -> int:
    value %= p
    return value - p if value > p // 2 else value


def find_certificate(problem: ExactCoverProblem, primes=PRIMES) -> Certificate | None:
    """A weight per item proving that the problem has no solution, or None when elimination
    finds none modulo any of ``primes`` (or the problem is too large to eliminate)."""
    fixed = [k for k in range(len(problem.primary)) if problem.bound(k)[0] == problem.bound(k)[1]]
    if not fixed:
        return None
    column = {item: c for c, item in enumerate(fixed)}
    target = [problem.bound(item)[0] for item in fixed]
    rows = []
    for option in problem.options:
        row = sorted(column[i] for i in option if i in column)
        if row:
            rows.append(row)
    if len(fixed) ** 2 * len(rows) > MAX_WORK:
        return None
    for p in primes:
        found = _certificate_mod(rows, target, len(fixed), p)
        if found is not None:
            weights, total = found
            return Certificate(
                p,
                {fixed[c]: _balanced(w, p) for c, w in enumerate(weights) if w % p},
                _balanced(total, p),
            )
    return None


def _certificate_mod(rows, target, n, p):
    """Weights ``y`` (length ``n``) with ``y . row = 0`` for every row and ``y . target != 0``
    (mod p), or None. The rows are reduced to a fully reduced echelon basis (each pivot column
    zero in every other basis row, so a row is reduced in one product); the weights then come
    from the null space of that basis, one vector per free column."""
    import numpy as np

    basis = np.zeros((0, n), dtype=np.int64)
    pivots: list[int] = []
    for sparse in rows:
        row = np.zeros(n, dtype=np.int64)
        row[sparse] = 1
        if pivots:
            row = (row - row[pivots] @ basis) % p
        nonzero = np.flatnonzero(row)
        if not len(nonzero):
            continue
        pivot = int(nonzero[0])
        row = row * pow(int(row[pivot]), p - 2, p) % p
        basis = (basis - np.outer(basis[:, pivot], row)) % p
        basis = np.vstack([basis, row])
        pivots.append(pivot)
        if len(pivots) == n:
            return None  # the options span everything: no certificate here
    free = np.array([c for c in range(n) if c not in set(pivots)], dtype=np.int64)
    target = np.array(target, dtype=np.int64) % p
    # For free column f: y[f] = 1 and y[pivot_i] = -basis[i, f]; then y . target is this.
    totals = (target[free] - basis[:, free].T @ target[pivots]) % p if pivots else target[free]
    hits = np.flatnonzero(totals)
    if not len(hits):
        return None
    f = int(free[hits[0]])
    y = [0] * n
    y[f] = 1
    for i, pivot in enumerate(pivots):
        y[pivot] = int(-basis[i, f] % p)
    return y, int(totals[hits[0]])
