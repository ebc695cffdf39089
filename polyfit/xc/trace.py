"""A step-by-step trace of the search, for watching it (``polyfit solve --animate``).

The backends are built for speed and report only solutions, so this is a small Algorithm X of
its own over the same exact cover problem: it branches on the uncovered primary item with the
fewest live options (leftmost on ties, :func:`polyfit.xc.branching.fewest_branches`) and tries
that item's options in order, as the dancing links backends do. Each placement and each
backtrack is one step; the trace stops at the first solution. It is plain Python on bit masks,
slow beside the backends, but a picture needs only hundreds of steps.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

from polyfit.xc.branching import bits, fewest_branches, mask_of, options_by_item
from polyfit.xc.problem import ExactCoverProblem


@dataclass(frozen=True)
class Step:
    kind: str  # "place", "remove" or "solution"
    option: int | None  # the option placed or removed (None for "solution")
    chosen: tuple[int, ...]  # the options on the board after this step, in the order chosen


def trace(problem: ExactCoverProblem) -> Iterator[Step]:
    """Every step of the search up to and including the first solution (if there is one)."""
    options = problem.options
    containing = options_by_item(options, len(problem.items))
    # The options sharing an item with each option (itself too): choosing it kills them.
    conflicts = [0] * len(options)
    for k, option in enumerate(options):
        for i in option:
            conflicts[k] |= containing[i]
    chosen: list[int] = []

    def search(live: int, uncovered: int):
        item, _ = fewest_branches(uncovered, containing, live)
        if item < 0:
            yield Step("solution", None, tuple(chosen))
            return
        for k in bits(live & containing[item]):
            chosen.append(k)
            yield Step("place", k, tuple(chosen))
            yield from search(live & ~conflicts[k], uncovered & ~mask_of(options[k]))
            chosen.pop()
            yield Step("remove", k, tuple(chosen))

    every_option = (1 << len(options)) - 1
    for step in search(every_option, (1 << len(problem.primary)) - 1):
        yield step
        if step.kind == "solution":
            return
