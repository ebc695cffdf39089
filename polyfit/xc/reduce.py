"""Option reduction before the search: drop options that cannot be in any solution.

An option goes when choosing it would leave some *needed* item (a primary item that must be
covered at least once) with no compatible option left: every option that covers that item
clashes with the chosen one. Two options clash when they share an *exclusive* item, one that
at most one chosen option may cover (a primary item with bounds ``lo..1``, or a secondary item
no option colours). Removing an option can doom others, so the pass repeats to a fixed point.
This is the look-ahead of BurrTools' placement reducer and of Knuth's DLX-PRE.

It never changes the set of solutions: a removed option is in none, since a solution holding
it would have to cover the starved item with an option that clashes with it. Items shared
under multiplicities (``hi > 1``) or colours are treated as never clashing, which only keeps
options that a finer rule might drop, so the rule stays sound with Algorithms M and C.

The C module ``_reduce`` and :func:`reduce_python` are twins: the same options go, in the same
rounds. The search sees a smaller problem; its solutions are mapped back through ``kept``.
Options the set-up made packed (:class:`polyfit.xc.problem.PackedOptions`) reach the C pass as
their buffers, and only the kept ones are ever made into tuples.
"""

from __future__ import annotations

from dataclasses import dataclass

from polyfit.xc.problem import ExactCoverProblem, packed

try:
    from polyfit.xc import _reduce
except ImportError as error:  # the C extension did not build: the Python twin does the work
    _reduce = None
    _import_error = str(error)
else:
    _import_error = None


# Removing a few options changes which item the search branches on without pruning the tree:
# measured on the pentomino boxes (2-6% of the options removed) the search took 2-13% longer,
# on 8x8-corners (9% removed) 9% less, on SolidSixPieceBurrs (79% removed) 7 times less.
PAYS = 0.08


@dataclass
class Reduction:
    problem: ExactCoverProblem  # the reduced problem
    kept: list[int]  # kept[k]: the original index of reduced option k
    removed: int
    rounds: int

    @property
    def pays(self) -> bool:
        """Is searching the reduced problem worth it (at least PAYS of the options gone)?"""
        total = self.removed + len(self.kept)
        return self.removed > 0 and (self.removed >= PAYS * total or not self.kept)


def item_roles(problem: ExactCoverProblem) -> tuple[bytes, bytes]:
    """Per item: is it exclusive (two options covering it clash), is it needed (lo >= 1)."""
    n_primary = len(problem.primary)
    n = n_primary + len(problem.secondary)
    coloured = set()
    if problem.colours:  # (zip would read every option of a packed problem even with none)
        for option, colours in zip(problem.options, problem.colours):
            coloured.update(i for i, c in zip(option, colours) if c)
    exclusive = bytearray(n)
    needed = bytearray(n)
    for i in range(n):
        if i < n_primary:
            lo, hi = problem.bound(i)
            exclusive[i] = hi == 1
            needed[i] = lo >= 1
        else:
            exclusive[i] = i not in coloured
    return bytes(exclusive), bytes(needed)


def reduce_python(options, n_items: int, exclusive: bytes, needed: bytes) -> tuple[list[bool], int]:
    """The rule in pure Python, step for step as ``_reduce.reduce``; returns (alive, rounds)."""
    alive = [True] * len(options)
    rounds, changed = 0, True
    while changed:
        changed = False
        rounds += 1
        by_item = [[] for _ in range(n_items)]
        for k, option in enumerate(options):
            if alive[k]:
                for i in option:
                    by_item[i].append(k)
        size = [len(ks) for ks in by_item]
        hopeless = any(needed[i] and size[i] == 0 for i in range(n_items))
        for k, option in enumerate(options):
            if not alive[k]:
                continue
            mine = set(option)
            clashing = set()
            for i in option:
                if exclusive[i]:
                    clashing.update(p for p in by_item[i] if alive[p])
            counts = [0] * n_items
            for p in clashing:
                for j in options[p]:
                    counts[j] += 1
            dead = hopeless or any(
                needed[j] and j not in mine and counts[j] and counts[j] == size[j]
                for j in range(n_items)
            )
            if dead:
                alive[k] = False
                changed = True
                for i in option:
                    size[i] -= 1
                    if size[i] == 0 and needed[i]:
                        hopeless = True
    return alive, rounds


def reduce_native(options, n_items: int, exclusive: bytes, needed: bytes) -> tuple[list[bool], int]:
    """The C pass on options as a list of tuples or packed; returns (alive, rounds)."""
    starts, flat = packed(options)
    alive = bytearray(b"\x01" * len(options))
    rounds = _reduce.reduce(n_items, starts, flat, exclusive, needed, alive)
    return [bool(a) for a in alive], rounds


def reduce(problem: ExactCoverProblem, native: bool | None = None) -> Reduction:
    """The problem without the options that no solution can hold (see the module docstring)."""
    exclusive, needed = item_roles(problem)
    n_items = len(problem.primary) + len(problem.secondary)
    use_native = _reduce is not None if native is None else native
    run = reduce_native if use_native else reduce_python
    alive, rounds = run(problem.options, n_items, exclusive, needed)
    kept = [k for k, a in enumerate(alive) if a]
    reduced = problem.with_options(kept)
    return Reduction(reduced, kept, len(problem.options) - len(kept), rounds)
