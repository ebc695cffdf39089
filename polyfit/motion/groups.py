"""Groups: pieces that may stay together when an assembly is taken apart, as BurrTools has them.

In a BurrTools problem each entry of the piece list (a *part*: a shape and how many copies) may
name groups, either all its copies in one (``group="1"`` on the ``<shape>``) or some copies in
each (``<group group="1" count="2"/>`` inside it). A part of a disassembly that cannot be taken
further apart still counts as done when

1. all its pieces come from parts in exactly one group each, the same group (the usual case: a
   cage of three interlocked frames, each ``group="1"``); or else
2. its pieces can be dealt out to the groups within their counts, trying the parts still stuck
   in this disassembly in the order they got stuck (BurrTools' ``grouping_c``; once a deal
   fails, every later part of the same disassembly fails too).

BurrTools 0.7.1 files the counts of rule 2 under each part's *shape number* in the file but
looks them up by the part's place in the problem's list, and its undo after a half-dealt set
takes the wrong amount back; both are kept here on purpose, so that the answers agree with
BurrTools' on every file (``keys`` gives the numbers the counts are filed under: the shape
numbers for a BurrTools file, the parts' own places for groups made here).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property


@dataclass(frozen=True)
class Groups:
    """``part_of``: each piece's part; ``groups``: each part's ``(group, count)`` pairs (group
    numbers from 1); ``keys``: what each part's counts are filed under (see the module)."""

    part_of: tuple[int, ...]
    groups: tuple[tuple[tuple[int, int], ...], ...]
    keys: tuple[int, ...]

    @classmethod
    def none(cls, pieces: int) -> Groups:
        return cls(tuple(range(pieces)), ((),) * pieces, tuple(range(pieces)))

    @classmethod
    def of(cls, pieces: int, together) -> Groups:
        """Each list of piece numbers in ``together`` a group that may stay together."""
        groups = [[] for _ in range(pieces)]
        for number, members in enumerate(together, 1):
            for piece in members:
                groups[piece].append((number, 1))
        return cls(tuple(range(pieces)), tuple(tuple(g) for g in groups), tuple(range(pieces)))

    def lists(self) -> list[list[int]]:
        """The pieces of each group, by group number (a piece counted once per group)."""
        members = {}
        for piece, part in enumerate(self.part_of):
            for group, _ in self.groups[part]:
                members.setdefault(group, []).append(piece)
        return [members[g] for g in sorted(members)]

    @cached_property
    def grouped(self) -> bool:
        """Is any piece's part in a group?"""
        return any(self.groups)

    @cached_property
    def numbers(self) -> tuple[int, ...]:
        """For each piece, the one group its part is in, -1 when it is in none or several: what
        rule 1 (:meth:`one_group`) looks at, as the driver (:mod:`polyfit.motion.driver`) takes
        it."""
        return tuple(pairs[0][0] if len(pairs) == 1 else -1 for pairs in (self.groups[p] for p in self.part_of))

    def one_group(self, pieces) -> bool:
        """Rule 1: every piece's part is in exactly one group, the same for all."""
        seen = 0  # no group yet (BurrTools' group numbers start at 1)
        for piece in pieces:
            groups = self.groups[self.part_of[piece]]
            if len(groups) != 1:
                return False
            if seen == 0:
                seen = groups[0][0]
            elif seen != groups[0][0]:
                return False
        return seen != 0

    def dealer(self) -> Dealer:
        return Dealer(self)


class Dealer:
    """Rule 2 for one disassembly: the parts that got stuck so far, dealt out to the groups."""

    def __init__(self, groups: Groups):
        self.part_of = groups.part_of
        self.counts = {}  # (key, group) -> copies left
        self.order = []  # the (key, group) pairs in the order BurrTools lists them
        for part, pairs in enumerate(groups.groups):
            for group, count in pairs:
                if group == 0:
                    continue
                slot = (groups.keys[part], group)
                if slot not in self.counts:
                    self.counts[slot] = 0
                    self.order.append(slot)
                self.counts[slot] += count
        self.number = max((g for _, g in self.order), default=-1) + 1
        self.sets = []  # [group tried, [part numbers]]
        self.failed = False

    def deal(self, pieces) -> bool:
        """Rule 2 for one more stuck set of pieces (its parts looked up by place, see the
        module)."""
        if self.failed:
            return False
        self.sets.append([1, []])
        return all(self._add(self.part_of[p]) for p in pieces)

    def _take(self, part, group) -> bool:
        slot = (part, group)
        if self.counts.get(slot, 0) > 0:
            self.counts[slot] -= 1
            return True
        return False

    def _give(self, part, group, amount=1) -> None:
        if (part, group) in self.counts:
            self.counts[(part, group)] += amount

    def _add(self, part) -> bool:
        if self.failed:
            return False
        s = len(self.sets) - 1
        self.sets[s][1].append(part)
        if self._take(part, self.sets[s][0]):
            return True
        for other in self.sets[s][1][:-1]:
            self._give(other, self.sets[s][0])
        while True:
            self.sets[s][0] += 1
            group, parts = self.sets[s]
            if group >= self.number:
                self.sets[s][0] = 0
                if s == 0:
                    self.failed = True
                    return False
                s -= 1
                for other in self.sets[s][1]:
                    self._give(other, self.sets[s][0])
            else:
                for placed, other in enumerate(parts):
                    if not self._take(other, group):
                        if placed:  # BurrTools takes back -placed from the first part's count
                            self._give(parts[0], group, -placed)
                        s -= 1
                        break
                s += 1
            if s >= len(self.sets):
                return True
