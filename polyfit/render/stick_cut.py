"""Polysticks and polytwigs to cut: each piece one closed outline of sticks that may touch.

A piece is made of sticks ``WIDTH`` of a segment wide. Around each lattice point the sticks
meeting there leave a small regular polygon free (a square where four segments meet, a
triangle where three do): every stick stops at its side. A piece fills the polygon's part
between its own sticks there, the hull of their ends: all of it where it runs straight on or
branches, the half on its side of the diagonal where it turns a corner of the square grid,
nothing where it ends. So two pieces that meet at a point (one ending there, or two turning
away from each other) never overlap, as the solutions need; one passing straight through
fills the point.

The outline is the boundary of the union of these convex pieces (the sticks' rectangles and
the joints' hulls), which meet side to side: sides shared by two of them cancel, the rest
join into loops, clockwise on the page with the material on their right (a hole's loop runs
the other way), grown by half the laser's kerf (:func:`polyfit.render.outline.offset`).
"""

from __future__ import annotations

import math

from polyfit.render.outline import chain_loops, offset

WIDTH = 0.24  # a stick's width, of its length (as drawn by polyfit.render.segments)


def _key(p) -> tuple:
    return (round(p[0], 9), round(p[1], 9))


def _clockwise(polygon: list) -> list:
    """The polygon clockwise on the page (y down): positive shoelace area."""
    area = sum(a[0] * b[1] - b[0] * a[1] for a, b in zip(polygon, polygon[1:] + polygon[:1]))
    return polygon if area > 0 else polygon[::-1]


def _hull(points: list) -> list:
    """The convex hull (Andrew's monotone chain), without points on its sides."""
    points = sorted(set(_key(p) for p in points))
    if len(points) <= 2:
        return points

    def cross(o, a, b):
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    lower, upper = [], []
    for p in points:
        while len(lower) >= 2 and cross(lower[-2], lower[-1], p) <= 1e-12:
            lower.pop()
        lower.append(p)
    for p in reversed(points):
        while len(upper) >= 2 and cross(upper[-2], upper[-1], p) <= 1e-12:
            upper.pop()
        upper.append(p)
    return lower[:-1] + upper[:-1]


def convex_parts(lattice, cells, width: float = WIDTH) -> list[list[tuple[float, float]]]:
    """The piece as convex polygons meeting side to side, in segment units: a rectangle per
    stick and a hull per point where two or more of its sticks meet."""
    degree = lattice.degree  # segments meeting at a point of the lattice
    inset = width / (2 * math.tan(math.pi / degree))  # a stick stops this far short of a point
    half = width / 2
    ends: dict = {}  # point -> the end sides of the sticks meeting there
    parts = []
    for cell in cells:
        a, b = lattice.segment(cell)
        dx, dy = b[0] - a[0], b[1] - a[1]
        length = math.hypot(dx, dy)
        ux, uy = dx / length, dy / length
        nx, ny = -uy * half, ux * half
        p = (a[0] + ux * inset, a[1] + uy * inset)
        q = (b[0] - ux * inset, b[1] - uy * inset)
        side_p = [_key((p[0] + nx, p[1] + ny)), _key((p[0] - nx, p[1] - ny))]
        side_q = [_key((q[0] + nx, q[1] + ny)), _key((q[0] - nx, q[1] - ny))]
        parts.append(_clockwise([side_p[0], side_q[0], side_q[1], side_p[1]]))
        ends.setdefault(_key(a), []).extend(side_p)
        ends.setdefault(_key(b), []).extend(side_q)
    for sides in ends.values():
        if len(sides) >= 4:  # two sticks or more: their ends' hull joins them
            parts.append(_clockwise(_hull(sides)))
    return parts


def stick_loops(lattice, cells, width: float = WIDTH) -> list[list[tuple[float, float]]]:
    """The outline of a piece of an edge lattice: closed loops in segment units, clockwise on
    the page around the material, holes the other way; straight runs merged."""
    edges: dict = {}
    for part in convex_parts(lattice, cells, width):
        for a, b in zip(part, part[1:] + part[:1]):
            if (b, a) in edges:
                del edges[b, a]
            else:
                edges[a, b] = True
    return chain_loops(edges)


class StickShape:
    """A piece of an edge lattice as the cut layout takes it (:func:`polyfit.render.cut.layout`):
    its outline, as it is and turned a quarter, in millimetres."""

    def __init__(self, lattice, cells):
        self.lattice, self.cells = lattice, tuple(cells)

    def __len__(self) -> int:
        return len(self.cells)

    def forms(self, unit: float, kerf: float) -> list:
        loops = [offset([(x * unit, y * unit) for x, y in loop], kerf / 2)
                 for loop in stick_loops(self.lattice, self.cells)]
        turned = [[(-y, x) for x, y in loop] for loop in loops]
        return [_at_origin(loops), _at_origin(turned)]


def _at_origin(loops):
    left = min(x for loop in loops for x, _ in loop)
    top = min(y for loop in loops for _, y in loop)
    return [[(x - left, y - top) for x, y in loop] for loop in loops]
