"""How pieces slide on triangular prisms (``prisms`` lattice, BurrTools' grid type 1).

Cells are ``(z, r, c)`` (:mod:`polyfit.lattices.prisms`): the prism on triangle ``(r, c)`` of
layer z, pointing up when ``r + c`` is even, rows running down. A piece slides along four lines
and their opposites, each step a translation of the lattice (it keeps every triangle pointing
its way), in BurrTools' order:

- ``(1, 0, 0)``: one layer up;
- ``(0, 0, 2)``: one triangle's side to the right, along a row;
- ``(0, -1, 1)``: one side up and to the right, at 60 degrees (along a left-leaning edge);
- ``(0, -1, -1)``: one side up and to the left, at 120 degrees.

A step of a prism passes over more than the cell where it ends: sliding along a row, a triangle
crosses the opposite triangle beside it; sliding at 60 degrees an up triangle crosses the down
triangle on its right (the one on its left only touches it along an edge) and a down triangle
crosses the up triangle above it. :data:`SWEPT` lists, per direction and kind of triangle, the
cells (offsets from the cell) that must be free for one step: the cells the open prism meets on
its way, the end cell included. A step along the opposite direction of one piece is the step of
the other piece along the direction itself, so the pair limits of the positive directions give
all eight, as on cubes.

**Pair limits.** Piece ``i`` slides ``d`` whole steps along a direction before it meets piece
``j``, where ``d`` is the least, over ``i``'s cells ``a``, the swept offsets ``s`` of ``a``'s
kind and ``j``'s cells ``b``, of ``b - (a + s)`` as a whole number of steps (``FREE`` when
none is). :class:`SweptContext` computes it by lines, as the cube search does: each point
``p`` is ``t`` steps plus a remainder ``q`` on its line, and the limit is a gap of ``t``
between points of the same line.
"""

from __future__ import annotations

from bisect import bisect_right

from polyfit.lattices.prisms import MOTION_DIRECTIONS as DIRECTIONS
from polyfit.motion.search import FREE, Context

# SWEPT[k][kind]: kind 0 an up triangle (r + c even), 1 a down one.
SWEPT = (
    (((1, 0, 0),), ((1, 0, 0),)),
    (((0, 0, 1), (0, 0, 2)), ((0, 0, 1), (0, 0, 2))),
    (((0, 0, 1), (0, -1, 1)), ((0, -1, 0), (0, -1, 1))),
    (((0, 0, -1), (0, -1, -1)), ((0, -1, 0), (0, -1, -1))),
)


def kind(cell) -> int:
    """0 for a prism on an up triangle, 1 on a down one."""
    return (cell[1] + cell[2]) & 1


def split(point, vector, along: int):
    """``point`` as ``t`` steps of ``vector`` plus a remainder (``along``: a coordinate where
    the vector is not 0): ``(t, remainder)``, the remainder the same for every point of a line."""
    t = point[along] // vector[along]
    return t, tuple(p - t * v for p, v in zip(point, vector))


def frame(cells):
    """A piece's cells moved to its least corner, with that corner, the corner moved back one
    column where its row + column would be odd (so a cell's kind is the same in the frame as in
    the assembly): ``(shape, base)``."""
    base = [min(c[i] for c in cells) for i in range(3)]
    base[2] -= (base[1] + base[2]) & 1
    base = tuple(base)
    return tuple(sorted(tuple(v - b for v, b in zip(c, base)) for c in cells)), base


class PrismMotion:
    """The rule :class:`~polyfit.motion.Disassembler` follows on prisms: the directions, the
    frame of a piece, the search context and how far a removed set goes."""

    directions = DIRECTIONS
    name = "prisms"

    def frame(self, cells):
        return frame(cells)

    def context(self, engine: str, dim: int):
        from polyfit.motion.native import context

        return context(engine, dim, (), SweptContext())

    def distance_out(self, cells, pieces, step, unit) -> int:
        """How many steps along ``unit`` the removed set of ``step`` slides before no further
        step of it meets the rest of its part (at least 1)."""
        dim = 3
        moving = set(step.pieces)
        mine, rest = [], []
        for k, p in enumerate(pieces):
            offset = step.offsets[k * dim:(k + 1) * dim]
            placed = [tuple(c + o for c, o in zip(cell, offset)) for cell in cells[p]]
            (mine if p in moving else rest).extend(placed)
        return max(1, _gap(mine, rest, unit) + 1) if rest else 1


def _gap(mine, rest, unit) -> int:
    """The most whole steps along ``unit`` (a direction or its opposite) from a cell of
    ``mine`` (through its swept cells) to a cell of ``rest``, -1 when none is ever met."""
    k = DIRECTIONS.index(unit) if unit in DIRECTIONS else DIRECTIONS.index(tuple(-v for v in unit))
    vector = DIRECTIONS[k]
    along = next(i for i, v in enumerate(vector) if v)
    if unit != vector:  # the rest slides the other way, towards mine
        mine, rest = rest, mine
    lines = {}
    for a in mine:
        for s in SWEPT[k][kind(a)]:
            t, q = split(tuple(x + y for x, y in zip(a, s)), vector, along)
            lines.setdefault(q, []).append(t)
    far = -1
    for b in rest:
        t, q = split(b, vector, along)
        for value in lines.get(q, ()):
            if value <= t:
                far = max(far, t - value)
    return far


class SweptContext(Context):
    """:class:`~polyfit.motion.search.Context` with the prisms' directions and swept cells."""

    def __init__(self):
        super().__init__(3, ())
        self.alongs = tuple(next(i for i, v in enumerate(d) if v) for d in DIRECTIONS)
        self.steps = tuple(tuple((i, v) for i, v in enumerate(d) if v) for d in DIRECTIONS)
        self.cells = []

    def add_shape(self, cells) -> int:
        probes = []  # per direction: {remainder: sorted steps of the swept points}
        for k, vector in enumerate(DIRECTIONS):
            lines = {}
            for cell in cells:
                for s in SWEPT[k][kind(cell)]:
                    t, q = split(tuple(a + b for a, b in zip(cell, s)), vector, self.alongs[k])
                    lines.setdefault(q, []).append(t)
            probes.append({q: sorted(set(ts)) for q, ts in lines.items()})
        self.lines.append(probes)
        self.cells.append(tuple(tuple(c) for c in cells))
        return len(self.lines) - 1

    def pair_limits(self, first: int, second: int, offset) -> tuple:
        key = (first, second, offset)
        found = self.cache.get(key)
        if found is not None:
            return found
        found = self.compute_limits(first, second, offset)
        self.cache[key] = found
        self.cache_bytes += 64 + 8 * len(found)
        return found

    def compute_limits(self, first: int, second: int, offset) -> tuple:
        """:meth:`pair_limits` worked out, not cached (the C twin caches what it asks for)."""
        theirs = [tuple(a + b for a, b in zip(cell, offset)) for cell in self.cells[second]]
        limits = []
        for k, vector in enumerate(DIRECTIONS):
            best = FREE
            mine = self.lines[first][k]
            along = self.alongs[k]
            for cell in theirs:
                t, q = split(cell, vector, along)
                line = mine.get(q)
                if line is None:
                    continue
                at = bisect_right(line, t)  # line[at - 1]: the nearest swept point not ahead of it
                if at and t - line[at - 1] < best:
                    best = t - line[at - 1]
            limits.append(best)
        return tuple(limits)


MOTION = PrismMotion()


def motion_rule(lattice):
    """The rule :class:`~polyfit.motion.Disassembler` takes for pieces on ``lattice``: None
    where a step is one unit along an axis (cubes, squares)."""
    return MOTION if lattice.name == "prisms" else None
