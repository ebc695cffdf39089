"""The driver: one assembly taken apart part by part, as BurrTools plans it, in pure Python (the
reference twin of ``_motion``'s ``take_apart``, call for call).

Each part is searched to its first separation (``context.separate``: :mod:`polyfit.motion.search`
or its C twin); then the part that stayed and the part removed are taken apart in turn, each
from the offsets its pieces had just before. A part is done when it is one piece or its pieces
are all of one group (rule 1 of :mod:`polyfit.motion.groups`); a part that is stuck otherwise is
handed to ``stuck`` (rule 2, the dealer; None: it always refuses), and when that refuses, the
whole assembly is stuck (no other first separation is tried).

:func:`take_apart` answers ``(status, states, level, total, tree)``: ``status`` ``FOUND``,
``STUCK`` or ``UNKNOWN`` (a cap was reached), the searches' ``states``, and when it comes
apart the level text (``"98.2.4.2"``), the total moves and, only when ``moves`` is asked for,
the ``tree``: ``(pieces, path, tree of the part that stayed, tree of the part removed)``, a
part's tree None when it is done as it is, ``path`` as ``separate`` gives it.
"""

from __future__ import annotations

from polyfit.motion.search import FOUND, STUCK, UNKNOWN


def one_group(group, members) -> bool:
    """Rule 1 on the numbers of :attr:`polyfit.motion.groups.Groups.numbers`."""
    seen = 0
    for p in members:
        g = group[p]
        if g < 0:
            return False
        if seen == 0:
            seen = g
        elif seen != g:
            return False
    return seen != 0


class _Stop(Exception):
    """A cap was reached: the whole assembly's level is unknown."""


class _Driver:
    def __init__(self, context, shapes, bases, weights, group, max_states, max_bytes, moves, stuck):
        self.context = context
        self.dim = context.dim
        self.shapes, self.bases, self.weights, self.group = shapes, bases, weights, group
        self.max_states, self.max_bytes = max_states, max_bytes
        self.moves, self.stuck = moves, stuck
        self.states = 0
        self.total = 0

    def part(self, members, start):
        """``(level text, multi, tree)`` of the part, or None when it is stuck."""
        dim = self.dim
        bases = [v for p in members for v in self.bases[p * dim:(p + 1) * dim]]
        left_states = max(self.max_states - self.states, 1)
        status, met, path = self.context.separate(
            [self.shapes[p] for p in members], bases, [self.weights[p] for p in members], start,
            left_states, self.max_bytes)
        self.states += met
        if status == UNKNOWN:
            raise _Stop
        if status == STUCK:
            return None
        before, removed = path[-1][0], path[-1][1]  # a removal keeps the offsets before it
        steps = len(path) - 1
        stayed = [k for k in range(len(members)) if not removed >> k & 1]
        gone = [k for k in range(len(members)) if removed >> k & 1]
        text = str(steps)
        self.total += steps
        trees = []
        multi = steps > 1
        for side in (stayed, gone):
            found = self.subpart(tuple(members[k] for k in side),
                                 tuple(v for k in side for v in before[k * dim:(k + 1) * dim]))
            if found is None:
                return None
            sub_text, sub_multi, tree = found
            if sub_multi:
                text += "." + sub_text
            multi = multi or sub_multi
            trees.append(tree)
        tree = (tuple(members), path, trees[0], trees[1]) if self.moves else None
        return text, multi, tree

    def subpart(self, members, start):
        """``(level text, multi, tree)`` of a part a separation left; ``("", False, None)`` when
        it is done as it is (or stuck and rule 2 accepts it); None when it is stuck."""
        if len(members) == 1 or one_group(self.group, members):
            return "", False, None
        total = self.total
        found = self.part(members, start)
        if found is not None:
            return found
        self.total = total
        if self.stuck is not None and self.stuck(members):
            return "", False, None
        return None


def take_apart(context, shapes, bases, weights, group, max_states, max_bytes, moves, stuck):
    """Take apart the assembly of the pieces with these ``shapes`` (numbers in ``context``),
    ``bases`` (flat, ``context.dim`` numbers a piece), ``weights`` and groups (``group``:
:attr:`polyfit.motion.groups.Groups.numbers`),
    every piece at offset 0 (see the module for the answer)."""
    n = len(shapes)
    driver = _Driver(context, shapes, bases, weights, group, max_states, max_bytes, moves, stuck)
    try:
        found = driver.part(tuple(range(n)), (0,) * (n * context.dim))
    except _Stop:
        return UNKNOWN, driver.states, None, 0, None
    if found is None:
        return STUCK, driver.states, None, 0, None
    return FOUND, driver.states, found[0], driver.total, found[2]


def level_of(context, placements, place, shapes, bases, weights, max_states, max_bytes):
    """What a count wants of :func:`take_apart`: ``(status, states, level)`` of the assembly of
    these placements (indices into ``place``, their places in BurrTools' order, ``shapes``,
    ``bases``: ``context.dim`` numbers a placement, and ``weights``), ordered by place, with
    no groups and no moves."""
    dim = context.dim
    order = sorted(placements, key=place.__getitem__)
    status, states, level, _, _ = take_apart(
        context, [shapes[i] for i in order], [v for i in order for v in bases[i * dim:(i + 1) * dim]],
        [weights[i] for i in order], [-1] * len(order), max_states, max_bytes, False, None)
    return status, states, level
