"""``count-memo``: count solutions by remembering subproblems, without visiting every solution.

A partial cover leaves a set of still-uncovered items, and the number of ways to finish it
depends on that set alone (and, for items with multiplicities, on how often each has been
covered so far). Many partial covers leave the same set: the dominoes of a 10x10 board reach
258,584,046,368 tilings through about 17,000 such sets (with those of Burnside's lemma). So the count of each state is
computed once and kept in a cache (the idea of Knuth's later counting programs and of Nishino
et al., "Dancing with decision diagrams", 2017).

**The state.** Items are of three kinds, the problem's semantics being Knuth's Algorithms X and
M (options with no primary item are never chosen, as in dancing links):

- *exact* items: primary with bounds 1..1 (cells; pieces used once, so the state says which
  pieces are left);
- *optional* items: secondary ones, and primary ones with bounds 0..1, covered at most once;
- *multiplicity* items: every other primary item, with bounds ``lo..hi``.

An option made of multiplicity items alone gets a private optional item of its own. The state
is the set of exact and optional items still free (a bitset) and how often each multiplicity
item has been covered; an option is *valid* in a state when its exact and optional items are
all free and it takes no multiplicity item beyond its ``hi``.

**The count.** While an exact item is uncovered, branch on the one with the fewest valid
options (the lowest on ties, stopping at one with none or one): the count is the sum over those
options of the count after taking it. Then, while some optional item has valid options, branch
on the one with the fewest: either it stays free for good (closed), or one of its options takes
it. With no valid option left, the state is a solution when every multiplicity item reached its
``lo``. Each solution is reached along exactly one path, so the sums are exact.

**The cache** holds at most about ``memory`` bytes. When it is full, ``_memo.c`` replaces,
among the few slots a key may live in, the entry whose count took the least work to find; this
twin drops its oldest entry. A count that was dropped is found again when asked, so the cap
costs time, never correctness.

This module is the pure-Python twin of ``_memo.c`` (same states, same choices, same counts, and
the same node counts while nothing is evicted; Python integers, so no overflow); it also draws
uniform random solutions for both (:func:`sample`): from a state, each branch is taken with
probability proportional to the number of solutions below it.
"""

from __future__ import annotations

import os
import random
import sys
from dataclasses import dataclass, field

from typing import Iterator

from polyfit.errors import PolyfitError
from polyfit.xc.problem import ExactCoverProblem, SearchStats

try:
    from polyfit.dlx import _memo
except ImportError as exc:  # no compiler when polyfit was installed: the extension is optional
    _memo = None
    _import_error = str(exc)
else:
    _import_error = None

ENTRY_BYTES = 200  # about what one cached state costs in Python (its key, count and dict slot)


def default_memory() -> int:
    """A quarter of this machine's RAM (1 GiB when it cannot be read), in bytes."""
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") // 4
    except (ValueError, OSError, AttributeError):
        return 1 << 30


@dataclass
class Prepared:
    """A problem as the memo counters take it (see the module docstring for the kinds)."""

    exact: int  # bits 0..exact-1 are exact items, exact..bits-1 optional ones
    bits: int
    lo: list[int]  # per multiplicity item
    hi: list[int]
    option_bits: list[tuple[int, ...]]  # per kept option: its exact and optional items (bits)
    option_mult: list[tuple[tuple[int, int], ...]]  # per kept option: (multiplicity item, amount)
    kept: list[int]  # kept option -> index of the option in the problem
    item_bit: dict[int, int] = field(default_factory=dict)  # problem item -> bit
    item_mult: dict[int, int] = field(default_factory=dict)  # problem item -> multiplicity item


def prepare(problem: ExactCoverProblem, amounts: list[tuple[int, ...]] | None = None) -> Prepared:
    """The kinds of items and the options that can ever be chosen.

    ``amounts`` (for symmetric solutions, see :mod:`polyfit.puzzle.burnside`) says, per option
    and per item of it, how many times the option covers the item (1 when not given): an
    option covering an exact or optional item more than once can never be chosen."""
    if problem.has_colours:
        raise PolyfitError("the memo counters do not take colours; use dlx-c or dlx-python")
    n1 = len(problem.primary)
    exact, optional, mult = [], [], []
    for k in range(n1):
        lo, hi = problem.bound(k)
        if (lo, hi) == (1, 1):
            exact.append(k)
        elif (lo, hi) == (0, 1):
            optional.append(k)
        else:
            mult.append(k)
    optional += range(n1, len(problem.items))
    item_bit = {item: b for b, item in enumerate(exact + optional)}
    item_mult = {item: m for m, item in enumerate(mult)}
    held = [0] * len(mult)
    rows = []
    for index, option in enumerate(problem.options):
        if not any(i < n1 for i in option):
            continue  # reached through no primary item: never chosen, as in dancing links
        times = amounts[index] if amounts is not None else (1,) * len(option)
        if any(a < 1 for a in times):
            raise PolyfitError(f"option {index} covers an item {min(times)} times")
        if any(a > 1 for i, a in zip(option, times) if i in item_bit):
            continue
        bits_ = tuple(sorted(item_bit[i] for i in option if i in item_bit))
        taken = tuple(sorted((item_mult[i], a) for i, a in zip(option, times) if i in item_mult))
        rows.append((index, bits_, taken))
        for m, a in taken:
            held[m] += a
    lo = [problem.bound(k)[0] for k in mult]
    # No item can be covered more often than its options allow: a larger hi is the same problem.
    hi = [min(problem.bound(k)[1], h) for k, h in zip(mult, held)]
    bits_total = len(exact) + len(optional)
    prepared = Prepared(len(exact), bits_total, lo, hi, [], [], [], item_bit, item_mult)
    for index, bits_, taken in rows:
        if any(a > hi[m] for m, a in taken):
            continue
        if not bits_:  # multiplicity items alone: a private optional item says taken or not
            bits_ = (prepared.bits,)
            prepared.bits += 1
        prepared.option_bits.append(bits_)
        prepared.option_mult.append(taken)
        prepared.kept.append(index)
    return prepared


class NodeLimit(Exception):
    """A count stopped at its node limit (``count(..., node_limit=N)``): the engine then counts
    another way. Raised by both twins at the same state, as they expand states alike."""


@dataclass
class MemoStats:
    """What a memo count did: ``nodes`` states expanded (each once while it stays cached),
    ``hits`` counts found in the cache, ``entries`` states cached at the end, ``evictions``
    entries replaced when the cache was full, ``memory`` the cache's size in bytes."""

    nodes: int = 0
    hits: int = 0
    entries: int = 0
    evictions: int = 0
    memory: int = 0

    def as_dict(self) -> dict:
        return {"entries": self.entries, "hits": self.hits, "evictions": self.evictions, "bytes": self.memory}


class PythonMemo:
    """The counter over a prepared problem, in Python. ``state`` is ``(free bits, used)``."""

    def __init__(self, prepared: Prepared, memory: int | None = None):
        self.p = prepared
        self.masks = [sum(1 << b for b in bits_) for bits_ in prepared.option_bits]
        self.by_bit = [[] for _ in range(prepared.bits)]
        for o, bits_ in enumerate(prepared.option_bits):
            for b in bits_:
                self.by_bit[b].append(o)
        self.capacity = max(1, (memory if memory is not None else default_memory()) // ENTRY_BYTES)
        self.cache: dict = {}
        self.stats = MemoStats()
        self.node_limit = 0  # stop past this many states expanded (0: never)

    def root(self) -> tuple[int, tuple[int, ...]]:
        return (1 << self.p.bits) - 1, (0,) * len(self.p.lo)

    def state_after(self, taken, closed) -> tuple[int, tuple[int, ...]]:
        """The state after taking the options ``taken`` and closing the bits ``closed``."""
        free, used = self.root()
        used = list(used)
        for o in taken:
            free &= ~self.masks[o]
            for m, a in self.p.option_mult[o]:
                used[m] += a
        for b in closed:
            free &= ~(1 << b)
        return free, tuple(used)

    def _valid(self, o, free, used) -> bool:
        mask = self.masks[o]
        if free & mask != mask:
            return False
        hi = self.p.hi
        return all(used[m] + a <= hi[m] for m, a in self.p.option_mult[o])

    def branches(self, state):
        """``(leaf, children)``: the branches of a state as ``(choice, state)`` pairs, where a
        choice is an option index (taken) or ``-1 - bit`` (the optional item closed); with no
        branches, ``leaf`` is 1 for a solution and 0 for a dead end."""
        free, used = state
        p = self.p
        best, best_options = -1, None
        exact_free = free & ((1 << p.exact) - 1)
        while exact_free:
            low = exact_free & -exact_free
            b = low.bit_length() - 1
            exact_free ^= low
            valid = [o for o in self.by_bit[b] if self._valid(o, free, used)]
            if best_options is None or len(valid) < len(best_options):
                best, best_options = b, valid
                if len(valid) <= 1:
                    break
        if best_options is not None:
            return 0, [(o, self._take(o, free, used)) for o in best_options]
        rest = free >> p.exact << p.exact
        while rest:
            low = rest & -rest
            b = low.bit_length() - 1
            rest ^= low
            valid = [o for o in self.by_bit[b] if self._valid(o, free, used)]
            if valid and (best_options is None or len(valid) < len(best_options)):
                best, best_options = b, valid
                if len(valid) == 1:
                    break
        if best_options is None:
            return int(all(u >= lo for u, lo in zip(used, p.lo))), []
        closed = (-1 - best, (free & ~(1 << best), used))
        return 0, [closed] + [(o, self._take(o, free, used)) for o in best_options]

    def weighted(self, taken, closed):
        """``(leaf, [(choice, count), ...])`` for the state after ``taken`` and ``closed``:
        what :func:`sample` asks of either twin."""
        leaf, children = self.branches(self.state_after(taken, closed))
        return leaf, [(choice, self.count(child)) for choice, child in children]

    def _take(self, o, free, used):
        used = list(used)
        for m, a in self.p.option_mult[o]:
            used[m] += a
        return free & ~self.masks[o], tuple(used)

    def count(self, state=None) -> int:
        """The number of solutions below ``state`` (the root when not given)."""
        state = self.root() if state is None else state
        old = sys.getrecursionlimit()
        sys.setrecursionlimit(max(old, 4 * self.p.bits + 200))
        try:
            return self._count(state)
        finally:
            sys.setrecursionlimit(old)
            self.stats.entries = len(self.cache)
            self.stats.memory = len(self.cache) * ENTRY_BYTES

    def _count(self, state) -> int:
        cache = self.cache
        known = cache.get(state)
        if known is not None:
            self.stats.hits += 1
            return known
        self.stats.nodes += 1
        if self.node_limit and self.stats.nodes > self.node_limit:
            raise NodeLimit(self.node_limit)
        leaf, children = self.branches(state)
        total = leaf
        for _, child in children:
            total += self._count(child)
        if len(cache) >= self.capacity:
            del cache[next(iter(cache))]  # the oldest entry
            self.stats.evictions += 1
        cache[state] = total
        return total


def sample(counter, n: int, seed: int | None) -> list[tuple[int, ...]]:
    """``n`` solutions drawn independently and uniformly at random (kept option indices, in the
    order taken), from a counter with ``count()`` and ``weighted(taken, closed)`` (either
    twin); reproducible for a given ``seed``. Empty when there is no solution."""
    rng = random.Random(seed)
    if counter.count() == 0:
        return []
    drawn = []
    for _ in range(n):
        taken, closed = [], []
        while True:
            leaf, children = counter.weighted(taken, closed)
            if not children:
                if leaf != 1:
                    raise AssertionError("a random solution ended in a dead end")
                break
            pick = rng.randrange(sum(weight for _, weight in children))
            for choice, weight in children:
                if pick < weight:
                    break
                pick -= weight
            if choice >= 0:
                taken.append(choice)
            else:
                closed.append(-1 - choice)
        drawn.append(tuple(taken))
    return drawn



def walk(counter) -> Iterator[tuple[int, ...]]:
    """Every solution (kept option indices, in the order taken), walking only into branches
    with solutions below them: each solution costs one path, never a dead end."""
    taken, closed = [], []

    def below():
        leaf, children = counter.weighted(taken, closed)
        if not children:
            if leaf:
                yield tuple(taken)
            return
        for choice, weight in children:
            if weight == 0:
                continue
            (taken if choice >= 0 else closed).append(choice if choice >= 0 else -1 - choice)
            yield from below()
            (taken if choice >= 0 else closed).pop()

    if counter.count():
        old = sys.getrecursionlimit()
        sys.setrecursionlimit(max(old, 4 * counter.p.bits + 200))
        try:
            yield from below()
        finally:
            sys.setrecursionlimit(old)


class CMemo:
    """The C counter (``_memo.Counter``) over a prepared problem, with the twin's interface."""

    def __init__(self, prepared: Prepared, memory: int | None = None):
        self.p = prepared
        bits_start, bits_flat, mult_start, mult_items, mult_amounts = [0], [], [0], [], []
        for bits_, taken in zip(prepared.option_bits, prepared.option_mult):
            bits_flat.extend(bits_)
            bits_start.append(len(bits_flat))
            for m, a in taken:
                mult_items.append(m)
                mult_amounts.append(a)
            mult_start.append(len(mult_items))
        if max(prepared.hi, default=0) >= 1 << 31:
            raise PolyfitError("an item may be covered more than 2**31 times: too many for count-memo")
        memory = memory if memory is not None else default_memory()
        self._c = _memo.Counter(
            prepared.bits, prepared.exact, prepared.lo, prepared.hi, bits_start, bits_flat,
            mult_start, mult_items, mult_amounts, memory,
        )

    @property
    def stats(self) -> MemoStats:
        c = self._c
        return MemoStats(c.nodes, c.hits, c.entries, c.evictions, c.memory)

    @property
    def node_limit(self) -> int:
        return self._c.node_limit

    @node_limit.setter
    def node_limit(self, limit: int) -> None:
        self._c.node_limit = limit

    def count(self) -> int:
        try:
            return self._c.count()
        except TimeoutError:
            raise NodeLimit(self._c.node_limit) from None
        except OverflowError:
            raise PolyfitError("more than 2**128 solutions: too many for count-memo; count-memo-python counts any number") from None

    def weighted(self, taken, closed):
        try:
            return self._c.weighted(list(taken), list(closed))
        except OverflowError:
            raise PolyfitError("more than 2**128 solutions: too many for count-memo; count-memo-python counts any number") from None


class PythonMemoBackend:
    name = "count-memo-python"
    summary = "counts by caching the count of each set of uncovered items; pure Python twin of count-memo"
    capabilities = frozenset({"secondary", "multiplicities"})
    memoizes = True  # counts without visiting every solution (see polyfit.puzzle.burnside)
    counter_class = PythonMemo

    def __init__(self, memory: int | None = None):
        self.memory = memory

    def unavailable_reason(self):
        return None

    def with_memory(self, memory: int | None):
        """The same backend with a cache of at most ``memory`` bytes (None: a quarter of RAM)."""
        return type(self)(memory)

    def counter(self, problem: ExactCoverProblem, amounts=None):
        """A counter of ``problem`` (see :func:`prepare` for ``amounts``): ``count()``,
        ``weighted(taken, closed)``, ``stats`` (:class:`MemoStats`) and ``p`` (the prepared
        problem, whose ``kept`` maps its options back to the problem's)."""
        return self.counter_class(prepare(problem, amounts), self.memory)

    def count(self, problem: ExactCoverProblem, stats: SearchStats, amounts=None, memo: dict | None = None,
              node_limit: int = 0) -> int:
        """The number of solutions of ``problem``; adds the work to ``stats`` and to ``memo``
        (a dict of ``entries``, ``hits``, ``evictions``, the most ``bytes``). ``node_limit``:
        raise :class:`NodeLimit` past that many states expanded (0: no limit)."""
        counter = self.counter(problem, amounts)
        counter.node_limit = node_limit
        try:
            return counter.count()
        finally:
            add_stats(counter.stats, stats, memo)

    def sample(self, problem: ExactCoverProblem, n: int, seed: int | None) -> list[tuple[int, ...]]:
        """``n`` solutions (option indices) drawn independently and uniformly at random."""
        counter = self.counter(problem)
        kept = counter.p.kept
        return [tuple(kept[o] for o in options) for options in sample(counter, n, seed)]

    def solutions(self, problem: ExactCoverProblem, stats: SearchStats) -> Iterator[tuple[int, ...]]:
        """Every solution, found by walking the counted tree (no dead ends)."""
        counter = self.counter(problem)
        kept = counter.p.kept
        for solution in walk(counter):
            stats.solutions += 1
            stats.nodes = counter.stats.nodes
            yield tuple(kept[o] for o in solution)
        stats.nodes = counter.stats.nodes


class MemoBackend(PythonMemoBackend):
    name = "count-memo"
    summary = "counts by caching the count of each set of uncovered items (C); for huge counts"
    counter_class = CMemo

    def unavailable_reason(self):
        if _memo is None:
            return f"the C extension polyfit.dlx._memo did not build or load ({_import_error})"
        return None


def add_stats(done: MemoStats, stats: SearchStats, memo: dict | None) -> None:
    stats.nodes += done.nodes
    if memo is not None:
        for key, value in done.as_dict().items():
            memo[key] = max(memo.get(key, 0), value) if key == "bytes" else memo.get(key, 0) + value
