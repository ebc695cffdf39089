"""One assembly's plan of moves: the tree of separations (:class:`Separation`) with its level,
built from what the driver (:mod:`polyfit.motion.driver`, or its C twin) found for BurrTools'
plan: each part searched to its first separation, then the part that stayed and the part
removed, in turn.

:mod:`polyfit.motion.exact` searches the same parts for the fewest moves over every plan;
:mod:`polyfit.motion.disassembly` runs either and says what came of it.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Step:
    """A move as the search made it: the ``pieces`` that slid, the ``direction`` (its number in
    the lattice's list times two, plus one for the opposite way), ``amount`` (None: out for
    good) and the ``offsets`` of this part's pieces before it (flat)."""

    pieces: tuple[int, ...]
    direction: int
    amount: int | None
    offsets: tuple[int, ...]


@dataclass(frozen=True)
class Separation:
    """One part taken apart: its ``pieces``, the ``steps`` up to and with the removal, and the
    trees of the part that stayed (``left``) and of the part removed (``removed``): ``None``
    when that part is one piece or a group."""

    pieces: tuple[int, ...]
    steps: tuple[Step, ...]
    left: Separation | None = None
    removed: Separation | None = None

    def multi(self) -> bool:
        """Does this part, or a part of it, need more than one move?"""
        return len(self.steps) > 1 or any(p is not None and p.multi() for p in (self.left, self.removed))

    def level(self) -> str:
        text = str(len(self.steps))
        for part in (self.left, self.removed):
            if part is not None and part.multi():
                text += "." + part.level()
        return text

    def total(self) -> int:
        return len(self.steps) + sum(p.total() for p in (self.left, self.removed) if p is not None)

    def all_steps(self) -> list[tuple[Separation, Step]]:
        """Every step in order, with its part: this part's, then the part that stayed, then
        the part removed."""
        steps = [(self, step) for step in self.steps]
        for part in (self.left, self.removed):
            if part is not None:
                steps.extend(part.all_steps())
        return steps


class _Capped(Exception):
    pass


class _Job:
    """One assembly's disassembly with the exact ruler (:class:`polyfit.motion.exact.ExactJob`):
    its parts, searched one after the other. (BurrTools' plan is :mod:`polyfit.motion.driver`.)"""

    def __init__(self, owner, shapes, bases, weights, groups, cells):
        self.owner = owner
        self.shapes, self.bases, self.weights = shapes, bases, tuple(weights)
        self.groups = groups
        self.cells = cells
        self.states = 0

    def steps(self, pieces, path) -> tuple[Step, ...]:
        return steps_of(pieces, path, self.owner.dim)


def steps_of(pieces, path, dim) -> tuple[Step, ...]:
    """The steps of a part's ``pieces`` along a search's ``path`` (its states, the last one the
    removal)."""
    steps = []
    for before, after in zip(path, path[1:]):
        positions, removed, direction, amount = after
        if removed:
            moving = tuple(p for k, p in enumerate(pieces) if removed >> k & 1)
            amount = None
        else:
            moving = tuple(p for k, p in enumerate(pieces)
                           if positions[k * dim:(k + 1) * dim] != before[0][k * dim:(k + 1) * dim])
        steps.append(Step(moving, direction, amount, before[0]))
    return tuple(steps)


def tree_of(found, dim) -> Separation | None:
    """The :class:`Separation` of a driver's tree (:mod:`polyfit.motion.driver`)."""
    if found is None:
        return None
    pieces, path, left, removed = found
    return Separation(pieces, steps_of(pieces, path, dim), tree_of(left, dim), tree_of(removed, dim))


def split_at(pieces, path) -> tuple:
    """Where a separation ``path`` (a search's states, the last one the removal) leaves a
    part's ``pieces``: ``(offsets just before, the pieces that stayed, the pieces removed)``."""
    removed = path[-1][1]
    stayed = tuple(p for k, p in enumerate(pieces) if not removed >> k & 1)
    gone = tuple(p for k, p in enumerate(pieces) if removed >> k & 1)
    return path[-2][0], stayed, gone
