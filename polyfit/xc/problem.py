"""The exact cover problem, independent of any geometry.

Items are named; the first ``len(primary)`` must be covered exactly once, the secondary ones at
most once. Each option is a tuple of item indices into ``primary + secondary``. What an option
means (a piece placement, a queen) is kept by whoever built the problem, never here.

Two generalisations from Knuth's TAOCP 7.2.2.1 widen what "exactly once" means:

- *multiplicities* (Algorithm M): primary item ``k`` may carry bounds ``bounds[k] = (lo, hi)``,
  and is then covered by at least ``lo`` and at most ``hi`` chosen options;
- *colours* (Algorithm C): an option may give a secondary item a colour (``colours[k][j]`` is
  the colour of the ``j``-th item of option ``k``, 0 for none). Options that agree on the colour
  of a shared secondary item may both be chosen; an uncoloured mention still excludes all others.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterator, Protocol

from polyfit.errors import PolyfitError, plural


@dataclass
class ExactCoverProblem:
    primary: list[str]
    secondary: list[str] = field(default_factory=list)
    options: list[tuple[int, ...]] = field(default_factory=list)
    bounds: list[tuple[int, int]] = field(default_factory=list)  # per primary item; [] = (1, 1)
    colours: list[tuple[int, ...]] = field(default_factory=list)  # per option; [] = uncoloured
    colour_names: list[str] = field(default_factory=list)  # colour k is colour_names[k - 1]

    @property
    def items(self) -> list[str]:
        return self.primary + self.secondary

    @property
    def has_multiplicities(self) -> bool:
        return any(b != (1, 1) for b in self.bounds)

    @property
    def has_colours(self) -> bool:
        return any(any(c) for c in self.colours)

    @property
    def needs(self) -> frozenset[str]:
        """The backend capabilities this problem calls for."""
        needs = set()
        if self.secondary:
            needs.add("secondary")
        if self.has_multiplicities:
            needs.add("multiplicities")
        if self.has_colours:
            needs.add("colours")
        return frozenset(needs)

    def bound(self, item: int) -> tuple[int, int]:
        return self.bounds[item] if self.bounds else (1, 1)

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
                    raise PolyfitError(f"option {k} names item {i}, but there {'is' if n == 1 else 'are'} {plural(n, 'item')}")
        if self.bounds and len(self.bounds) != len(self.primary):
            raise PolyfitError("exact cover problem needs one (lo, hi) bound per primary item")
        for k, (lo, hi) in enumerate(self.bounds):
            if not 0 <= lo <= hi or hi < 1:
                raise PolyfitError(f"item {names[k]!r} has bounds {lo}..{hi}; need 0 <= lo <= hi, hi >= 1")
        if self.colours:
            if len(self.colours) != len(self.options):
                raise PolyfitError("exact cover problem needs one colour tuple per option")
            for k, (option, colours) in enumerate(zip(self.options, self.colours)):
                if len(colours) != len(option):
                    raise PolyfitError(f"option {k} has {plural(len(option), 'item')} but {plural(len(colours), 'colour')}")
                for i, c in zip(option, colours):
                    if c and i < len(self.primary):
                        raise PolyfitError(f"option {k} colours primary item {names[i]!r}; only secondary items take colours")
                    if c < 0 or c > len(self.colour_names) and self.colour_names:
                        raise PolyfitError(f"option {k} has an unknown colour {c}")

    def shuffled(self, seed: int) -> tuple[ExactCoverProblem, list[int]]:
        """The same problem with options in a seeded random order.

        Returns the new problem and ``order``, where ``order[k]`` is the original index of new
        option ``k``: a backend then tries options in a different but reproducible order.
        """
        order = list(range(len(self.options)))
        import random  # only a seeded run shuffles

        random.Random(seed).shuffle(order)
        return self.with_options(order), order

    def with_options(self, chosen: list[int]) -> "ExactCoverProblem":
        """The same items with the options ``chosen`` (indices), in that order."""
        return ExactCoverProblem(
            list(self.primary),
            list(self.secondary),
            [self.options[k] for k in chosen],
            list(self.bounds),
            [self.colours[k] for k in chosen] if self.colours else [],
            list(self.colour_names),
        )


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
    capabilities: frozenset[str]  # of "secondary", "multiplicities", "colours"

    def unavailable_reason(self) -> str | None:
        """None if the backend can run here, else why not (e.g. the C extension did not build)."""

    def solutions(self, problem: ExactCoverProblem, stats: SearchStats) -> Iterator[tuple[int, ...]]:
        """Yield every solution as a tuple of option indices, in the order they were chosen.

        ``stats`` is updated as the search runs. Closing the iterator stops the search.
        """
