"""The exact cover problem, independent of any geometry.

Items are named; the first ``len(primary)`` must be covered exactly once, the secondary ones at
most once. Each option is a tuple of item indices into ``primary + secondary``. What an option
means (a piece placement, a queen) is kept by whoever built the problem, never here.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Iterator, Protocol

from .errors import PolyfitError


@dataclass
class ExactCoverProblem:
    primary: list[str]
    secondary: list[str] = field(default_factory=list)
    options: list[tuple[int, ...]] = field(default_factory=list)

    @property
    def items(self) -> list[str]:
        return self.primary + self.secondary

    def validate(self) -> None:
        n = len(self.primary) + len(self.secondary)
        names = self.items
        if len(set(names)) != len(names):
            raise PolyfitError("exact cover problem has duplicate item names")
        for k, option in enumerate(self.options):
            if len(set(option)) != len(option):
                raise PolyfitError(f"option {k} names an item twice")
            for i in option:
                if not 0 <= i < n:
                    raise PolyfitError(f"option {k} names item {i}, but there are {n} items")

    def shuffled(self, seed: int) -> tuple[ExactCoverProblem, list[int]]:
        """The same problem with options in a seeded random order.

        Returns the new problem and ``order``, where ``order[k]`` is the original index of new
        option ``k``: a backend then tries options in a different but reproducible order.
        """
        order = list(range(len(self.options)))
        random.Random(seed).shuffle(order)
        problem = ExactCoverProblem(
            list(self.primary), list(self.secondary), [self.options[k] for k in order]
        )
        return problem, order


@dataclass
class SearchStats:
    """Work counted as Knuth counts it: search-tree nodes and link updates."""

    nodes: int = 0
    updates: int = 0
    solutions: int = 0


class Backend(Protocol):
    """What every solver backend provides (registered through the ``register_backends`` hook)."""

    name: str
    summary: str
    capabilities: frozenset[str]  # e.g. {"secondary"}

    def unavailable_reason(self) -> str | None:
        """None if the backend can run here, else why not (e.g. the C extension did not build)."""

    def solutions(self, problem: ExactCoverProblem, stats: SearchStats) -> Iterator[tuple[int, ...]]:
        """Yield every solution as a tuple of option indices, in the order they were chosen.

        ``stats`` is updated as the search runs. Closing the iterator stops the search.
        """
