"""One assembly's plan of moves as BurrTools makes it: each part searched to its first
separation (:mod:`polyfit.motion.search`, or its C twin), then the part that stayed and the part
removed, in turn; the tree of separations (:class:`Separation`) it leaves, with its level.

:mod:`polyfit.motion.exact` searches the same parts for the fewest moves over every plan;
:mod:`polyfit.motion.disassembly` runs either and says what came of it.
"""

from __future__ import annotations

from dataclasses import dataclass

from polyfit.motion.search import STUCK as _STUCK, UNKNOWN as _UNKNOWN


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
    """One assembly's disassembly: its parts, searched one after the other."""

    def __init__(self, owner, shapes, bases, weights, groups, cells):
        self.owner = owner
        self.shapes, self.bases, self.weights = shapes, bases, tuple(weights)
        self.groups = groups
        self.dealer = None  # rule 2 of the groups, made when a part first gets stuck
        self.cells = cells
        self.states = 0

    def part(self, pieces, start):
        """The tree of this part from the offsets ``start``, or None when it is stuck."""
        owner = self.owner
        bases = [v for p in pieces for v in self.bases[p]]
        left_states = max(owner.max_states - self.states, 1)
        status, met, path = owner._context.separate(
            [self.shapes[p] for p in pieces], bases, [self.weights[p] for p in pieces],
            start, left_states, owner.max_bytes)
        self.states += met
        if status == _UNKNOWN:
            raise _Capped(f"the search met {self.states:,} states (cap {owner.max_states:,}) "
                          f"or reached its memory cap ({owner.max_bytes:,} bytes)")
        if status == _STUCK:
            return None
        before, stayed, gone = split_at(pieces, path)
        left = self.subpart(pieces, stayed, before)
        if left is False:
            return None
        taken = self.subpart(pieces, gone, before)
        if taken is False:
            return None
        return Separation(tuple(pieces), self.steps(pieces, path), left, taken)

    def subpart(self, pieces, members, positions):
        """The tree of a part, None when it is done as it is, False when it is stuck."""
        if len(members) == 1 or self.groups.one_group(members):
            return None
        dim = self.owner.dim
        place = {p: k for k, p in enumerate(pieces)}
        start = tuple(v for p in members for v in positions[place[p] * dim:(place[p] + 1) * dim])
        tree = self.part(members, start)
        if tree is None:
            if self.dealer is None:
                self.dealer = self.groups.dealer()
            if not self.dealer.deal(members):
                return False
        return tree

    def steps(self, pieces, path) -> tuple[Step, ...]:
        dim = self.owner.dim
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


def split_at(pieces, path) -> tuple:
    """Where a separation ``path`` (a search's states, the last one the removal) leaves a
    part's ``pieces``: ``(offsets just before, the pieces that stayed, the pieces removed)``."""
    removed = path[-1][1]
    stayed = tuple(p for k, p in enumerate(pieces) if not removed >> k & 1)
    gone = tuple(p for k, p in enumerate(pieces) if removed >> k & 1)
    return path[-2][0], stayed, gone
