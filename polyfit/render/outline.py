"""The outline of a set of square cells: closed loops along its boundary, and kerf offsets.

Vector pictures draw each piece as one polygon (its union boundary), not one square per cell,
and a laser cutter wants each piece as one closed path. The geometry is plain integers: a cell
``(row, col)`` is the unit square from ``(col, row)`` to ``(col + 1, row + 1)`` in ``(x, y)``
with y down, as on a page.

Every loop runs clockwise on the page with the cells on its right; a hole's loop therefore
runs the other way round. Where two cells of a piece touch only at a corner (around a hole
that reaches the edge at a point), the loops part so that each empty region has its own
loop; grown outward by a kerf, the cells then join there, as the cut material does.
"""

from __future__ import annotations

Point = tuple[float, float]

# The four sides of a cell, clockwise on the page: corner offsets (dx, dy) from (col, row).
CELL_SIDES = (((0, 0), (1, 0)), ((1, 0), (1, 1)), ((1, 1), (0, 1)), ((0, 1), (0, 0)))


def boundary_edges(cells) -> set[tuple[Point, Point]]:
    """The directed unit edges of the union's boundary: the sides of cells whose reverse is
    not also a side (a side shared by two cells is inside and cancels out)."""
    edges = set()
    for row, col in cells:
        for (ax, ay), (bx, by) in CELL_SIDES:
            edge = ((col + ax, row + ay), (col + bx, row + by))
            reverse = (edge[1], edge[0])
            if reverse in edges:
                edges.remove(reverse)
            else:
                edges.add(edge)
    return edges


def turn(a: Point, b: Point, c: Point) -> int:
    """Turning from a->b onto b->c, on the page (y down): 1 clockwise (right), -1 counter-
    clockwise (left), 0 straight on."""
    cross = (b[0] - a[0]) * (c[1] - b[1]) - (b[1] - a[1]) * (c[0] - b[0])
    return (cross > 0) - (cross < 0)


def outline(cells) -> list[list[Point]]:
    """The boundary of the cells as closed loops of corner points (the first point is not
    repeated at the end), straight runs merged into one side. Loops start at their top-left
    corner, the outer boundary of each connected part before its holes (topmost first)."""
    return chain_loops(boundary_edges(cells))


def chain_loops(edges) -> list[list[Point]]:
    """Directed boundary edges ``(a, b)`` joined into closed loops, as :func:`outline` gives
    them: each from its top-left point, straight runs merged; where two loops share a point,
    each turns left round its own empty region."""
    leaving: dict[Point, list[Point]] = {}
    for a, b in edges:
        leaving.setdefault(a, []).append(b)
    loops = []
    while leaving:
        start = min(leaving, key=lambda p: (p[1], p[0]))
        points = [start]
        previous, here = None, start
        while True:
            ends = leaving[here]
            if len(ends) == 1 or previous is None:
                end = min(ends, key=lambda p: (p[1], p[0])) if previous is None else ends[0]
            else:  # a corner two loops share: turn left, round the empty region
                end = min(ends, key=lambda p: turn(previous, here, p))
            ends.remove(end)
            if not ends:
                del leaving[here]
            previous, here = here, end
            if here == start:
                break
            points.append(here)
        loops.append(corners(points))
    return loops


def corners(points: list[Point]) -> list[Point]:
    """The loop without the points where it runs straight on."""
    n = len(points)
    kept = [p for k, p in enumerate(points) if turn(points[k - 1], p, points[(k + 1) % n]) != 0]
    return kept


def offset(loop: list[Point], distance: float) -> list[Point]:
    """The loop moved outward (away from the cells) by ``distance``: every side shifts along
    its normal, and each corner goes where its two moved sides meet, out at convex corners and
    in at concave ones; a hole shrinks. At the right angles of cell outlines a corner moves
    diagonally by ``distance`` along each axis; any other angle works too (the 45 degrees of
    polysticks' joints, the 60 of triangles)."""
    n = len(loop)
    moved = []
    for k, point in enumerate(loop):
        nx, ny = normal(loop[k - 1], point)
        mx, my = normal(point, loop[(k + 1) % n])
        scale = distance / (1 + nx * mx + ny * my)
        moved.append((point[0] + scale * (nx + mx), point[1] + scale * (ny + my)))
    return moved


def normal(a: Point, b: Point) -> Point:
    """The outward unit normal of side a->b (the cells are on its right, so outward is left)."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = (dx * dx + dy * dy) ** 0.5
    return dy / length, -dx / length


def number(value: float) -> str:
    """A coordinate as SVG and PDF writers print it: at most 4 decimals, no trailing zeros."""
    text = f"{value:.4f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def path_data(loops, scale: float = 1.0, at: Point = (0.0, 0.0)) -> str:
    """SVG path data for loops in cell units: each loop ``M x,y L x,y ... Z``, scaled and then
    moved by ``at``."""
    parts = []
    for loop in loops:
        points = [f"{number(at[0] + x * scale)},{number(at[1] + y * scale)}" for x, y in loop]
        parts.append("M" + " L".join(points) + " Z")
    return " ".join(parts)
