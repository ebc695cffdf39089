"""``bitset-python``: Algorithm X on bitsets in pure Python, the fallback without a compiler.

Python's integers are bitsets of any size whose AND, OR and popcount run in C, a machine word
at a time. The live options are one integer; each item's options and each option's conflicts
(the options sharing an item with it) are precomputed integers. Branching takes the uncovered
primary item with the fewest live options, leftmost on ties
(:func:`polyfit.xc.branching.fewest_branches`), and tries its options in index order.
``nodes`` counts options tried, ``updates`` options killed.

It is a *semantic* twin of ``bitset-c`` (``_bsx.c``), not a line-by-line one: both make the same
choices, so they give the same solutions in the same order with the same node and update
counts (the tests check it on random problems), but the code differs. Here the search recurses
over Python integers; ``_bsx.c`` runs an explicit loop over word arrays copied per level, keeps
the live options as a packed list of nonzero words, and finds the branching item by popcount or
by kept counts. Against the dancing-links backends the choices, solutions, their order and the
node counts are the same too; only ``updates`` counts something else there (nodes unlinked).
"""

from __future__ import annotations

from typing import Iterator

from polyfit.xc.branching import CapacityForm, bits, fewest_branches, mask_of, options_by_item
from polyfit.xc.problem import ExactCoverProblem, SearchStats


class PythonBitset:
    name = "bitset-python"
    summary = "Algorithm X on Python's big-integer bitsets; pure Python, no compiler needed"
    capabilities = frozenset({"secondary", "multiplicities"})

    def unavailable_reason(self):
        return None

    def problem_reason(self, problem: ExactCoverProblem) -> str | None:
        return CapacityForm(problem).reason if problem.has_multiplicities else None

    def solutions(self, problem: ExactCoverProblem, stats: SearchStats) -> Iterator[tuple[int, ...]]:
        reason = self.problem_reason(problem)
        if reason is not None:
            raise ValueError(f"problem not for {self.name}: {reason}")
        form = CapacityForm(problem)  # with no multiplicities, the problem itself
        n_primary = form.primary
        options = form.options
        caps = form.option_caps
        cap_rows = [0] * len(form.cap_hi)
        for k, mine in enumerate(caps):
            if any(j < n_primary for j in options[k]):
                for c in mine:
                    cap_rows[c] |= 1 << k
        containing = options_by_item(options, form.items)
        live = 0
        conflict = [0] * len(problem.options)
        covers = [0] * len(problem.options)  # each option's primary items, as a bitmask
        for k, option in enumerate(options):
            mask = mask_of(j for j in option if j < n_primary)
            if mask:  # options without primary items are never chosen
                live |= 1 << k
                row = 0
                for j in option:
                    row |= containing[j]
                conflict[k] = row
                covers[k] = mask
        primary_lists = containing[:n_primary]
        choice: list[int] = []
        nodes = updates = 0

        def search(live: int, uncovered: int, used: tuple[int, ...]):
            nonlocal nodes, updates
            best, least = fewest_branches(uncovered, primary_lists, live)
            if best < 0 and any(u < lo for u, lo in zip(used, form.cap_lo)):
                return  # every exact item covered, but a capacity item too few times
            if best < 0:
                stats.nodes, stats.updates = nodes, updates
                stats.solutions += 1
                yield tuple(choice)
                return
            if least == 0:
                return
            for o in bits(live & primary_lists[best]):
                nodes += 1
                killed = live & conflict[o]
                updates += killed.bit_count()
                child, now = live & ~killed, used
                if caps[o]:
                    now = list(used)
                    for c in caps[o]:
                        now[c] += 1
                        if now[c] == form.cap_hi[c]:  # full: its other options die
                            more = child & cap_rows[c]
                            updates += more.bit_count()
                            child &= ~more
                    now = tuple(now)
                choice.append(o)
                yield from search(child, uncovered & ~covers[o], now)
                choice.pop()

        try:
            yield from search(live, (1 << n_primary) - 1, (0,) * len(form.cap_hi))
        finally:
            stats.nodes, stats.updates = nodes, updates
