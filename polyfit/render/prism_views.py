"""Isometric pictures of layered lattices (triangular prisms), of tetrahedral sub-cells (the
rhombic and tetra-octa grids: :func:`subcell_faces`) and of balls (spheres), painted as cubes
are.

A cell ``(z, *plane cell)`` is its layer's polygon (side 1, ``lattice.plane.polygon``) standing
``[z, z + 1]`` high; world ``(x, y, z)`` takes the polygon's page ``(x, y)``, so rows run towards
the viewer as they do for cubes (:mod:`polyfit.render.views3d`), which projects and paints the
faces. The faces seen are the tops and the sides whose outward normal has a part towards the
viewer (``x + y > 0``), where no cell covers them; cells are painted far to near by their
centre's ``x + y + z``. A side is shaded by how it faces: towards the right as a cube's right
side, towards the front as its front. An edge is drawn thin where a face runs on flat into
another face of the same piece, thick elsewhere.
"""

from __future__ import annotations

import math
from collections import defaultdict

from polyfit.render import views3d
from polyfit.render.layered import DIGITS, edge_key, point_key, signed_area


def _side_shade(normal) -> float:
    """A cube's right side (normal +x) is 0.78 of its colour, its front (+y) 0.60: sides in
    between, in between."""
    nx, ny = normal
    return 0.60 + 0.18 * (nx - ny + 1) / 2


def prism_faces(cells: dict, lattice, offsets: dict | None = None) -> list:
    """The faces of cells ``{(z, *plane cell): name}`` to paint, far to near, as
    :func:`polyfit.render.views3d.iso_faces` gives a cube's. ``offsets`` moves each piece by a
    world vector (the exploded view): then only a piece's own cells hide its faces."""
    plane = lattice.plane
    offsets = offsets or {}
    filled = {tuple(c): name for c, name in cells.items()}

    def covered(cell, name):
        other = filled.get(cell)
        return other is not None and (not offsets or other == name)

    polygons = {}

    def polygon(cell):
        if cell not in polygons:
            polygons[cell] = [tuple(map(float, p)) for p in plane.polygon(cell)]
        return polygons[cell]

    def across(cell, p, q):
        """The plane cell beyond the edge p-q of ``cell`` (None if none shares it)."""
        edge = {point_key(p), point_key(q)}
        for other in plane.neighbours(cell):
            if edge <= {point_key(v) for v in polygon(other)}:
                return other
        return None

    faces = []
    for (z, *rest), name in filled.items():
        flat = tuple(rest)
        corners = polygon(flat)
        dx, dy, dz = offsets.get(name, (0, 0, 0))
        cx = sum(x for x, _ in corners) / len(corners) + dx
        cy = sum(y for _, y in corners) / len(corners) + dy
        depth = cx + cy + z + 0.5 + dz
        if not covered((z + 1, *flat), name):
            top = [(x + dx, y + dy, z + 1 + dz) for x, y in corners]
            faces.append((depth, False, top, name, 1.0, (0, 0, 1)))
        for p, q in zip(corners, corners[1:] + corners[:1]):
            length = ((q[0] - p[0]) ** 2 + (q[1] - p[1]) ** 2) ** 0.5
            normal = ((q[1] - p[1]) / length, (p[0] - q[0]) / length)
            if signed_area(corners) < 0:
                normal = (-normal[0], -normal[1])
            if normal[0] + normal[1] <= 1e-9:
                continue  # turned away from the viewer
            beyond = across(flat, p, q)
            if beyond is not None and covered((z, *beyond), name):
                continue
            side = [(p[0] + dx, p[1] + dy, z + dz), (q[0] + dx, q[1] + dy, z + dz),
                    (q[0] + dx, q[1] + dy, z + 1 + dz), (p[0] + dx, p[1] + dy, z + 1 + dz)]
            faces.append((depth, True, side, name, _side_shade(normal), (*normal, 0)))
    return _with_edges(faces)


def _with_edges(faces: list) -> list:
    """Faces ``(depth, order, points, name, shade, normal)`` sorted far to near, as
    ``(points, name, shade, edges)``: an edge is thin where exactly two faces of one piece meet
    on it, in one plane, thick elsewhere."""
    faces.sort(key=lambda f: f[:2])
    on_edge = defaultdict(list)
    for k, (_, _, points, name, _, normal) in enumerate(faces):
        for a in range(len(points)):
            on_edge[edge_key(points[a], points[(a + 1) % len(points)])].append((name, _plane(normal, points[0])))
    out = []
    for _, _, points, name, factor, normal in faces:
        edges = []
        for a in range(len(points)):
            b = (a + 1) % len(points)
            meeting = on_edge[edge_key(points[a], points[b])]
            thin = len(meeting) == 2 and meeting[0] == meeting[1]
            edges.append((a, b, not thin))
        out.append((points, name, factor, edges))
    return out


def _plane(normal, point) -> tuple:
    return point_key(normal) + (round(sum(n * v for n, v in zip(normal, point)), DIGITS),)


def ball_faces(cells: dict, lattice, offsets: dict | None = None, points: int = 48) -> list:
    """Cells of a lattice of balls (``lattice.centre(cell)``, ``lattice.radius``) as faces to
    paint far to near: each ball its outline (a circle in the plane across the line of sight,
    which the isometric view draws round), shaded as a cube's side, and a highlight up and to
    the left of its centre, in the piece's own colour. Nearer balls cover farther ones."""
    offsets = offsets or {}
    r = lattice.radius
    # two directions across the line of sight (1, 1, 1): across the page and up it
    u = (1 / 2 ** 0.5, -1 / 2 ** 0.5, 0.0)
    v = (-1 / 6 ** 0.5, -1 / 6 ** 0.5, 2 / 6 ** 0.5)
    angles = [2 * math.pi * k / points for k in range(points)]
    faces = []
    for cell, name in cells.items():
        dx, dy, dz = offsets.get(name, (0, 0, 0))
        x, y, z = lattice.centre(cell)
        centre = (x + dx, y + dy, z + dz)

        def circle(radius, shift=(0.0, 0.0)):
            return [tuple(c + radius * (math.cos(t) + shift[0]) * a + radius * (math.sin(t) + shift[1]) * b
                          for c, a, b in zip(centre, u, v)) for t in angles]

        depth = sum(centre)
        outline = circle(r)
        faces.append((depth, 0, outline, name, 0.78, [(k, (k + 1) % points, True) for k in range(points)]))
        faces.append((depth, 1, circle(r * 0.45, (-0.55, 0.55)), name, 1.0, []))
    faces.sort(key=lambda f: f[:2])
    return [f[2:] for f in faces]


def _shade(normal) -> float:
    """A face turned to the viewer shaded as a cube's faces are (top 1.0, right side 0.78,
    front 0.60), a slanted one in between, weighted by the squares of its normal's parts."""
    weights = [max(v, 0.0) ** 2 for v in normal]
    return (0.78 * weights[0] + 0.60 * weights[1] + 1.0 * weights[2]) / sum(weights)


def subcell_faces(cells: dict, lattice, offsets: dict | None = None) -> list:
    """Tetrahedral sub-cells ``{cell: name}`` (``lattice.cell_corners``) as faces to paint, far
    to near: each sub-cell's triangles turned to the viewer that no other sub-cell covers (with
    ``offsets``, the exploded view, only one of its own piece), so a piece shows as the union of
    its sub-cells. Sub-cells are painted far to near by their centre's ``x + y + z``."""
    offsets = offsets or {}
    faces = []
    for cell, name in cells.items():
        corners = [tuple(map(float, p)) for p in lattice.cell_corners(cell)]
        shift = offsets.get(name, (0, 0, 0))
        depth = sum(sum(p) for p in corners) / 4 + sum(shift)
        covering = {}
        for other in lattice.neighbours(cell):  # across each face: the neighbour missing one corner
            if other in cells and (not offsets or cells[other] == name):
                covering.update({k: other for k, p in enumerate(corners)
                                 if p not in {tuple(map(float, q)) for q in lattice.cell_corners(other)}})
        for k in range(4):
            if k in covering:
                continue
            a, b, c = (corners[j] for j in range(4) if j != k)
            normal = _unit(_cross3(_minus(b, a), _minus(c, a)))
            if sum(n * (p - q) for n, p, q in zip(normal, a, corners[k])) < 0:
                normal = tuple(-v for v in normal)
                b, c = c, b
            if sum(normal) <= 1e-9:
                continue  # turned away from the viewer
            points = [tuple(v + d for v, d in zip(p, shift)) for p in (a, b, c)]
            faces.append((depth, 0, points, name, _shade(normal), normal))
    return _with_edges(faces)


def _minus(p, q):
    return tuple(a - b for a, b in zip(p, q))


def _cross3(a, b):
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def _unit(v):
    length = math.sqrt(sum(a * a for a in v))
    return tuple(a / length for a in v)


def faces_in_space(cells: dict, lattice, offsets=None) -> list:
    """The faces of cells of a lattice drawn in space: prisms, tetrahedral sub-cells, or balls."""
    if lattice.plane is not None:
        return prism_faces(cells, lattice, offsets)
    if hasattr(lattice, "cell_corners"):
        return subcell_faces(cells, lattice, offsets)
    return ball_faces(cells, lattice, offsets)


def in_space(lattice) -> bool:
    """Can cells of this lattice be drawn in space here?"""
    return lattice.plane is not None or hasattr(lattice, "centre") or hasattr(lattice, "cell_corners")


def draw_prisms(cells: dict, colours: dict, lattice, style=None, offsets=None, marked=frozenset()):
    """An isometric picture of cells ``{cell: name}`` of a layered lattice."""
    from polyfit.render.style import Style

    return views3d.paint_faces(faces_in_space(cells, lattice, offsets), colours, style or Style(), marked=marked)


def exploded_offsets(cells: dict, lattice, spread: float = 1.8) -> dict:
    """Each piece moved away from the figure's centre along the line through its own centre
    (in world units, as :func:`polyfit.render.views3d.exploded_offsets` moves cubes)."""
    centres: dict = defaultdict(list)
    for cell, name in cells.items():
        if hasattr(lattice, "cell_corners"):  # tetrahedral sub-cells
            corners = lattice.cell_corners(cell)
            centres[name].append(tuple(sum(p[i] for p in corners) / 4 for i in range(3)))
            continue
        if lattice.plane is None:  # balls
            centres[name].append(lattice.centre(cell))
            continue
        z, *rest = cell
        corners = lattice.plane.polygon(tuple(rest))
        centres[name].append((sum(x for x, _ in corners) / len(corners), sum(y for _, y in corners) / len(corners),
                              z + 0.5))
    every = [p for points in centres.values() for p in points]
    middle = [sum(p[i] for p in every) / len(every) for i in range(3)]
    return {name: tuple((sum(p[i] for p in points) / len(points) - middle[i]) * spread for i in range(3))
            for name, points in centres.items()}
