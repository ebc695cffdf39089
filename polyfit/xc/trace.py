"""A step-by-step trace of the search, for watching it (``polyfit solve --animate``).

The backends are built for speed and report only solutions, so this is a small Algorithm X of
its own over the same exact cover problem: it branches on the uncovered primary item with the
fewest live options (leftmost on ties) and tries that item's options in order, as the dancing
links backends do. Each placement and each backtrack is one step; the trace stops at the first
solution. It is slow (plain sets), but a picture needs only hundreds of steps.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

from polyfit.xc.problem import ExactCoverProblem


@dataclass(frozen=True)
class Step:
    kind: str  # "place", "remove" or "solution"
    option: int | None  # the option placed or removed (None for "solution")
    chosen: tuple[int, ...]  # the options on the board after this step, in the order chosen


def trace(problem: ExactCoverProblem) -> Iterator[Step]:
    """Every step of the search up to and including the first solution (if there is one)."""
    primary = len(problem.primary)
    options = problem.options
    by_item: list[list[int]] = [[] for _ in problem.items]
    for k, option in enumerate(options):
        for item in option:
            by_item[item].append(k)
    live = set(range(len(options)))
    covered: set[int] = set()
    chosen: list[int] = []

    def branch_item():
        best, fewest = None, None
        for item in range(primary):
            if item in covered:
                continue
            count = sum(1 for k in by_item[item] if k in live)
            if fewest is None or count < fewest:
                best, fewest = item, count
                if count == 0:
                    break
        return best

    def search():
        item = branch_item()
        if item is None:
            yield Step("solution", None, tuple(chosen))
            return
        for k in [k for k in by_item[item] if k in live]:
            removed = {j for i in options[k] for j in by_item[i] if j in live}
            live.difference_update(removed)
            covered.update(options[k])
            chosen.append(k)
            yield Step("place", k, tuple(chosen))
            yield from search()
            chosen.pop()
            covered.difference_update(options[k])
            live.update(removed)
            yield Step("remove", k, tuple(chosen))

    for step in search():
        yield step
        if step.kind == "solution":
            return
