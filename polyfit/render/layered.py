"""Printable solids of layered lattices: a 2D polygon lattice stacked in layers (the prisms).

A cell ``(z, *plane cell)`` is its layer's polygon (``lattice.plane.polygon``, side 1) times
``[z, z + 1]``, scaled by ``unit``. As for cubes (:mod:`polyfit.render.meshes`), every outer
face moves inward by ``gap / 2`` and the faces between a piece's own cells never exist; the
same erosion does it. The ball of the erosion is the polygon lattice's own: a prism ``{x: x.n
<= g}`` over the edge normals ``n`` of the cells, ``g`` high, so a point stays solid exactly
when every cell its ball reaches is in the piece, and each outer face moves by ``g``.

The space is cut where that answer can change: each cell's polygon by the lines ``g`` inside
its edges' lines (and inside its far corners' lines along each normal), each layer into a thin
slab around its boundary, ``[z - g, z + g]``, and a thick one, ``[z + g, z + 1 - g]``. Those cuts
come from lines of the whole plane, so two pieces of the cut meet along whole edges and faces
(no vertex of one lies inside an edge of another). A piece of the cut is solid or not as a
whole; the surface is every face of a solid piece whose neighbour across it is not solid, so
the mesh is watertight. Exact for any polygon lattice whose cells have edges along a few
directions only (the triangles' three).
"""

from __future__ import annotations

from collections import defaultdict

import numpy as np
import trimesh

from polyfit.errors import PolyfitError

Point = tuple[float, float]
DIGITS = 7  # vertices closer than this (in cell sides) are one vertex


def plane_of(lattice):
    """The 2D lattice of a layered lattice's layers, or None for a lattice that is not one."""
    return getattr(lattice, "plane", None)


def _normals(plane, cells) -> list[tuple[float, float]]:
    """The unit normals of the cells' edges, one of each opposite pair."""
    found: list[tuple[float, float]] = []
    for cell in cells:
        polygon = plane.polygon(cell)
        for (x0, y0), (x1, y1) in zip(polygon, polygon[1:] + polygon[:1]):
            length = ((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5
            n = ((y1 - y0) / length, (x0 - x1) / length)
            if not any(abs(n[0] * m[0] + n[1] * m[1]) > 1 - 1e-9 for m in found):
                found.append(n)
    return found


def _support(polygon, n) -> tuple[float, float]:
    values = [x * n[0] + y * n[1] for x, y in polygon]
    return min(values), max(values)


def _cut(polygon: list[Point], n, value: float) -> tuple[list[Point], list[Point]]:
    """A convex polygon split by the line ``x.n = value``: the parts below and above it
    (either may be empty)."""
    below, above = [], []
    sides = [p[0] * n[0] + p[1] * n[1] - value for p in polygon]
    sides = [0.0 if abs(a) < 1e-12 else a for a in sides]  # a corner on the line is on it
    for k, p in enumerate(polygon):
        q = polygon[(k + 1) % len(polygon)]
        a, b = sides[k], sides[(k + 1) % len(polygon)]
        if a <= 0:
            below.append(p)
        if a >= 0:
            above.append(p)
        if (a < 0 < b) or (b < 0 < a):
            t = a / (a - b)
            point = (p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1]))
            below.append(point)
            above.append(point)
    return _distinct(below), _distinct(above)


def _distinct(polygon: list[Point]) -> list[Point]:
    """The polygon without repeated corners (one corner met twice over a cut)."""
    out = [p for k, p in enumerate(polygon) if point_key(p) != point_key(polygon[k - 1])]
    return out if len(out) >= 3 else []


def signed_area(polygon) -> float:
    """The polygon's area, positive when it runs clockwise on the page (y down)."""
    return 0.5 * sum(p[0] * q[1] - q[0] * p[1] for p, q in zip(polygon, polygon[1:] + polygon[:1]))


class _Plane:
    """The cut of a layer's cells: per plane cell, its convex pieces, and which cells the ball
    around a point of each piece reaches."""

    def __init__(self, plane, cells, g: float):
        self.plane = plane
        self.g = g
        self.normals = _normals(plane, cells)
        self.polygons: dict = {}
        self.parts: dict = {}  # plane cell -> [convex polygon]
        self.reach: dict = {}  # plane cell -> [frozenset of plane cells the ball reaches], per part
        for cell in cells:
            self._split(cell)

    def polygon(self, cell):
        if cell not in self.polygons:
            self.polygons[cell] = [tuple(map(float, p)) for p in self.plane.polygon(cell)]
        return self.polygons[cell]

    def _near(self, cell) -> set:
        """The cells within three steps of ``cell`` (every cell sharing a corner with it)."""
        seen = {cell}
        edge = [cell]
        for _ in range(3):
            edge = [m for c in edge for m in self.plane.neighbours(c) if m not in seen]
            seen.update(edge)
        return seen

    def _split(self, cell) -> None:
        pieces = [self.polygon(cell)]
        for n in self.normals:
            low, high = _support(self.polygon(cell), n)
            for value in (low + self.g, high - self.g):
                pieces = [part for piece in pieces for part in _cut(piece, n, value) if part and abs(signed_area(part)) > 1e-12]
        near = [(c, [_support(self.polygon(c), n) for n in self.normals]) for c in self._near(cell)]
        reach = []
        for piece in pieces:
            px = sum(p[0] for p in piece) / len(piece)
            py = sum(p[1] for p in piece) / len(piece)
            reached = set()
            for other, supports in near:
                if all(low - self.g < px * n[0] + py * n[1] < high + self.g
                       for n, (low, high) in zip(self.normals, supports)):
                    reached.add(other)
            reach.append(frozenset(reached))
        self.parts[cell] = pieces
        self.reach[cell] = reach


def layered_mesh(cells, lattice, unit: float, gap: float, origin=None) -> trimesh.Trimesh:
    """A piece of a layered lattice (cells ``(z, *plane cell)``) as one watertight solid in
    millimetres, ``unit`` a cell's side and height, each outer face ``gap / 2`` inside; placed
    with ``origin`` (``(x, y, z)`` in cell units, page y down, that lands on 0) or at 0."""
    plane = plane_of(lattice)
    if plane is None:
        raise PolyfitError(f"the {lattice.name} lattice is not drawn in layers of polygons")
    cells = {tuple(c) for c in cells}
    g = gap / 2 / unit
    layers = defaultdict(set)
    for z, *rest in cells:
        layers[z].add(tuple(rest))
    flat = _Plane(plane, {c for layer in layers.values() for c in layer}, g)
    if origin is None:
        origin = _origin(flat, cells)
    # The solid pieces: (plane cell, part, slab); slab 2z is the thin one around the bottom of
    # layer z, 2z + 1 the thick one inside it.
    solid = set()
    for z, layer in layers.items():
        below = layers.get(z - 1, set())
        for cell in layer:
            for k, reached in enumerate(flat.reach[cell]):
                inside = reached <= layer
                if inside:
                    solid.add((cell, k, 2 * z + 1))
                    if g > 0 and reached <= below:  # without a gap, the thin slabs are flat: none
                        solid.add((cell, k, 2 * z))
    sides = defaultdict(list)  # an edge of the cut -> the parts on it
    for cell, parts in flat.parts.items():
        for k, part in enumerate(parts):
            for p, q in zip(part, part[1:] + part[:1]):
                sides[edge_key(p, q)].append((cell, k))
    builder = _Builder(unit, g, origin)
    step = 1 if g > 0 else 2  # the slab above or below
    for cell, k, slab in solid:
        part = flat.parts[cell][k]
        if (cell, k, slab - step) not in solid:
            builder.face(part, slab, top=False)
        if (cell, k, slab + step) not in solid:
            builder.face(part, slab, top=True)
        for p, q in zip(part, part[1:] + part[:1]):
            across = [o for o in sides[edge_key(p, q)] if o != (cell, k)]
            if not any((*o, slab) in solid for o in across):
                builder.side(part, p, q, slab)
    return builder.mesh()


def _origin(flat: _Plane, cells) -> tuple[float, float, float]:
    xs = [x for c in cells for x, _ in flat.polygon(c[1:])]
    ys = [y for c in cells for _, y in flat.polygon(c[1:])]
    return min(xs), max(ys), min(c[0] for c in cells)


def frame_origin(lattice, board_cells) -> tuple[float, float, float]:
    """The origin that places a board's cells (and its pieces, each in its place) at 0."""
    plane = plane_of(lattice)
    polygons = [plane.polygon(tuple(c[1:])) for c in board_cells]
    return (min(x for p in polygons for x, _ in p), max(y for p in polygons for _, y in p),
            min(c[0] for c in board_cells))


def point_key(p) -> tuple:
    """A point (any dimension) rounded so that one point computed twice is one key."""
    return tuple(round(v, DIGITS) for v in p)


def edge_key(p, q) -> tuple:
    """An edge's key, whichever way it runs."""
    return tuple(sorted((point_key(p), point_key(q))))


class _Builder:
    """Vertices (merged) and triangles of the surface, outward."""

    def __init__(self, unit: float, g: float, origin):
        self.unit = unit
        self.g = g
        self.origin = origin
        self.index: dict = {}
        self.vertices: list = []
        self.triangles: list = []

    def _height(self, slab: int, top: bool) -> float:
        z, thick = divmod(slab, 2)
        if thick:
            return z + 1 - self.g if top else z + self.g
        return z + self.g if top else z - self.g

    def _vertex(self, p, h: float) -> int:
        key = (*point_key(p), round(h, DIGITS))
        found = self.index.get(key)
        if found is None:
            found = self.index[key] = len(self.vertices)
            x0, y0, z0 = self.origin
            # page y runs down, the model's y up: the first row of the art lies furthest back
            self.vertices.append(((p[0] - x0) * self.unit, (y0 - p[1]) * self.unit, (h - z0) * self.unit))
        return found

    def face(self, part, slab: int, top: bool) -> None:
        h = self._height(slab, top)
        ring = [self._vertex(p, h) for p in part]
        # counter-clockwise seen from above (in the model, y up) for a top face
        if (signed_area(part) < 0) != top:  # the page's y is the model's -y: areas change sign
            ring.reverse()
        for k in range(1, len(ring) - 1):
            self.triangles.append((ring[0], ring[k], ring[k + 1]))

    def side(self, part, p, q, slab: int) -> None:
        low, high = self._height(slab, False), self._height(slab, True)
        if signed_area(part) > 0:  # the part runs clockwise in the model: its outward side is q -> p
            p, q = q, p
        a, b = self._vertex(p, low), self._vertex(q, low)
        c, d = self._vertex(q, high), self._vertex(p, high)
        self.triangles.append((a, b, c))
        self.triangles.append((a, c, d))

    def mesh(self) -> trimesh.Trimesh:
        return trimesh.Trimesh(vertices=np.array(self.vertices, dtype=float),
                               faces=np.array(self.triangles, dtype=np.int64), process=False)
