"""Printable solids of lattices of tetrahedral sub-cells (BurrTools' rhombic and tetra-octa
grids, :mod:`polyfit.lattices.finegrids`): the union of a piece's sub-cells, each outer face
``gap / 2`` inside, as one watertight solid.

As for prisms (:mod:`polyfit.render.layered`), the solid is an erosion. ``N`` is the set of the
sub-cells' face normals (9 on the rhombic grid: the axes and the face diagonals; 7 on the
tetra-octa grid: the axes and the body diagonals), and a cell ``C`` grown by ``g`` is ``{p:
low_C(n) - g < p.n < high_C(n) + g for every n in N}`` (``low``, ``high``: the least and greatest
``x.n`` over the cell). A point of the piece is solid unless it lies in some other cell grown by
``g``. Each cell is the intersection of its slabs along ``N`` (its faces' normals are in ``N``),
so a grown cell holds every point within ``g`` of it (the ball of radius ``g`` lies in every
slab of half-width ``g``): a solid point is at least ``g`` from every other cell, and two pieces
at least ``2 g = gap`` apart. A flat outer face moves in by exactly ``g``, and a convex piece
comes out as its Euclidean erosion (its shape scaled about its centre); along a piece's inner
(reflex) edges, where the Euclidean erosion is rounded, this one is cut flat, a little deeper.

Space is cut where that answer can change: every sub-cell of the piece by the planes ``low -
g`` and ``high + g`` of every nearby cell that is not the piece's, the same planes for every
sub-cell, so two parts of the cut meet along whole faces. A part is solid or not as a whole;
the surface is every face of a solid part whose neighbour across it is not solid.
"""

from __future__ import annotations

import math
from functools import lru_cache
from itertools import product

import numpy as np
import trimesh

from polyfit.render.layered import DIGITS

EPS = 1e-9


def face_normals(lattice) -> np.ndarray:
    """The unit normals of the lattice's sub-cell faces, one of each opposite pair."""
    found: list = []
    for cell in lattice.origins:
        corners = np.array(lattice.cell_corners(cell))
        for a, b, c in ((0, 1, 2), (0, 1, 3), (0, 2, 3), (1, 2, 3)):
            n = np.cross(corners[b] - corners[a], corners[c] - corners[a])
            n /= np.linalg.norm(n)
            if not any(abs(n @ m) > 1 - 1e-9 for m in found):
                found.append(n)
    return np.array(found)


def _nearby(lattice, cells) -> list:
    """The sub-cells within a block of the piece's (the only ones a grown cell can reach from)."""
    b = lattice.block
    low = [min(c[i] for c in cells) // b - 1 for i in range(3)]
    high = [max(c[i] for c in cells) // b + 1 for i in range(3)]
    ranges = [range(b * lo, b * (hi + 1)) for lo, hi in zip(low, high)]
    return [c for c in product(*ranges) if lattice.is_cell(c)]


# -- convex polyhedra as lists of faces (plain tuples: this runs in a tight loop) ----------


def _key(p) -> tuple:
    return (round(p[0], DIGITS), round(p[1], DIGITS), round(p[2], DIGITS))


def _dot(p, n) -> float:
    return p[0] * n[0] + p[1] * n[1] + p[2] * n[2]


def _sub(p, q):
    return (p[0] - q[0], p[1] - q[1], p[2] - q[2])


def _cross(a, b):
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def _tetrahedron(corners) -> list:
    """The tetrahedron's four faces ``(corners counter-clockwise from outside, facet)``, facet
    k the face without corner k."""
    p = [tuple(map(float, c)) for c in corners]
    faces = []
    for a, b, c, d in ((0, 1, 2, 3), (0, 1, 3, 2), (0, 2, 3, 1), (1, 2, 3, 0)):
        normal = _cross(_sub(p[b], p[a]), _sub(p[c], p[a]))
        ring = [p[a], p[b], p[c]] if _dot(normal, _sub(p[a], p[d])) > 0 else [p[a], p[c], p[b]]
        faces.append((ring, d))
    return faces


def _split_polygon(polygon, sides):
    below, above, on = [], [], []
    count = len(polygon)
    for k in range(count):
        p, q = polygon[k], polygon[(k + 1) % count]
        a, b = sides[k], sides[(k + 1) % count]
        if a <= 0:
            below.append(p)
        if a >= 0:
            above.append(p)
        if a == 0:
            on.append(p)
        if (a < 0 < b) or (b < 0 < a):
            t = a / (a - b)
            point = (p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1]), p[2] + t * (q[2] - p[2]))
            below.append(point)
            above.append(point)
            on.append(point)
    return below, above, on


def _cap(points, normal) -> list:
    """The points where a plane cuts a convex polyhedron, as a polygon counter-clockwise about
    ``normal`` (without repeats)."""
    seen = {}
    for p in points:
        seen.setdefault(_key(p), p)
    points = list(seen.values())
    if len(points) < 3:
        return []
    centre = tuple(sum(p[i] for p in points) / len(points) for i in range(3))
    u = _sub(points[0], centre)
    v = _cross(normal, u)
    return sorted(points, key=lambda p: math.atan2(_dot(_sub(p, centre), v), _dot(_sub(p, centre), u)))


def _distinct(polygon) -> list:
    keys = [_key(p) for p in polygon]
    out = [p for k, p in enumerate(polygon) if keys[k] != keys[k - 1]]
    return out if len(out) >= 3 else []


def _cut(faces: list, normal, value: float) -> list:
    """A convex polyhedron cut by the plane ``x.normal = value``: its parts below and above
    (the cut's faces have no facet: -1)."""
    below, above, on = [], [], []
    for polygon, facet in faces:
        sides = [_dot(p, normal) - value for p in polygon]
        sides = [0.0 if abs(s) < EPS else s for s in sides]
        low, high, touching = _split_polygon(polygon, sides)
        low, high = _distinct(low), _distinct(high)
        if low and min(sides) < 0:
            below.append((low, facet))
        if high and max(sides) > 0:
            above.append((high, facet))
        on.extend(touching)
    cap = _cap(on, normal)
    if cap:
        below.append((cap, -1))
        above.append((cap[::-1], -1))
    return [part for part in (below, above) if len(part) >= 4]


def _crossed(faces, normal, value) -> bool:
    values = [_dot(p, normal) - value for polygon, _ in faces for p in polygon]
    return min(values) < -EPS and max(values) > EPS


def _parts(corners, planes) -> list:
    """The tetrahedron cut by every plane ``(normal, value)`` that crosses it: convex parts."""
    parts = [_tetrahedron(corners)]
    for normal, value in planes:
        cut = []
        for faces in parts:
            if _crossed(faces, normal, value):
                cut.extend(_cut(faces, normal, value))
            else:
                cut.append(faces)
        parts = cut
    return parts


@lru_cache(maxsize=None)
def _kind_parts(lattice, kind, g: float):
    """The sub-cell ``kind`` (one of ``lattice.origins``) cut by every plane ``v - g`` and ``v
    + g``, ``v`` any corner of any sub-cell projected on a normal: the same planes about every
    translate, so that the parts of neighbouring sub-cells meet along whole faces. Each part is
    ``(centre, [(polygon, facet)], partners)``: a face lying on the sub-cell's facet k says k, a
    face inside it says -1 and its partner the part on its other side."""
    normals = [tuple(map(float, n)) for n in face_normals(lattice)]
    corners = [tuple(map(float, c)) for c in lattice.cell_corners(kind)]
    near = {tuple(p) for c in _nearby(lattice, [kind]) for p in lattice.cell_corners(c)}
    planes = []
    for n in normals:
        low = min(_dot(c, n) for c in corners)
        high = max(_dot(c, n) for c in corners)
        values = {round(_dot(p, n) + s, 12) for p in near for s in (-g, g)}
        planes.extend((n, v) for v in sorted(values) if low + EPS < v < high - EPS)
    parts = []
    seen: dict = {}  # a cut face's points -> the part that has it
    for k, faces in enumerate(_parts(corners, planes)):
        points = {_key(p): p for polygon, _ in faces for p in polygon}.values()
        centre = tuple(sum(p[i] for p in points) / len(points) for i in range(3))
        partners = []
        for f, (polygon, facet) in enumerate(faces):
            partners.append(None)
            if facet < 0:
                key = tuple(sorted(_key(p) for p in polygon))
                if key in seen:  # each cut face is met twice: once from each side
                    j, g_ = seen.pop(key)
                    parts[j][2][g_] = k
                    partners[f] = j
                else:
                    seen[key] = (k, f)
        parts.append((centre, faces, partners))
    return parts


def _facet_neighbours(lattice, kind) -> dict:
    """Which neighbour (as a voxel offset) lies across each facet of the sub-cell ``kind``."""
    corners = [tuple(c) for c in lattice.cell_corners(kind)]
    across = {}
    for n in lattice.neighbours(kind):
        shared = set(corners) & {tuple(c) for c in lattice.cell_corners(n)}
        missing = [k for k, c in enumerate(corners) if c not in shared]
        across[missing[0]] = tuple(a - b for a, b in zip(n, kind))
    return across


# -- the solid ------------------------------------------------------------------------------


def _slabs(lattice, cells, normals) -> np.ndarray:
    """``(cells, normals, 2)``: each cell's least and greatest ``x.n``."""
    corners = np.array([lattice.cell_corners(c) for c in cells])  # (cells, 4, 3)
    heights = corners @ normals.T  # (cells, 4, normals)
    return np.stack([heights.min(axis=1), heights.max(axis=1)], axis=2)


def subcell_mesh(cells, lattice, unit: float, gap: float, origin=None) -> trimesh.Trimesh:
    """A piece of tetrahedral sub-cells as one watertight solid in millimetres, ``unit`` a
    block's side, each outer face ``gap / 2`` inside; placed with ``origin`` (a point ``(x, y,
    z)`` in blocks, y along the rows, that lands on the model's 0: its x and z least, its y
    greatest, as the model's y runs up the page) or at the piece's own corner."""
    cells = sorted({tuple(c) for c in cells})
    own = set(cells)
    g = gap / 2 / unit
    normals = face_normals(lattice)
    others = [c for c in _nearby(lattice, cells) if c not in own]
    mine = _slabs(lattice, cells, normals)
    theirs = _slabs(lattice, others, normals) if others else np.zeros((0, len(normals), 2))
    grown_low, grown_high = theirs[:, :, 0] - g, theirs[:, :, 1] + g
    # the other cells whose grown slabs reach each cell of the piece (none: a cell all solid)
    reach = ((grown_low[None] < mine[:, None, :, 1] - EPS) & (grown_high[None] > mine[:, None, :, 0] + EPS)).all(axis=2)
    inner = {c for c, reached in zip(cells, reach) if not reached.any() and all(n in own for n in lattice.neighbours(c))}
    polygons, on_facets = [], []
    for cell, reached in zip(cells, reach):
        if cell in inner:
            continue
        kind = lattice.kind(cell)
        shift = tuple((a - b) // lattice.block for a, b in zip(cell[::-1], kind[::-1]))  # (x, y, z), blocks
        across = _facet_neighbours(lattice, kind)
        low, high = grown_low[reached], grown_high[reached]
        parts = _kind_parts(lattice, kind, round(g, 12))
        centres = np.array([centre for centre, _, _ in parts]) + shift
        heights = centres @ normals.T  # (parts, normals)
        covered = ((heights[:, None] > low[None]) & (heights[:, None] < high[None])).all(axis=2).any(axis=1)
        for (_, faces, partners), gone in zip(parts, covered):
            if gone:
                continue
            for (polygon, facet), partner in zip(faces, partners):
                if facet < 0 and partner is not None and not covered[partner]:
                    continue  # between two solid parts of the sub-cell
                if facet >= 0 and tuple(a + b for a, b in zip(cell, across[facet])) in inner:
                    continue  # against a cell that is solid all through
                moved = [(p[0] + shift[0], p[1] + shift[1], p[2] + shift[2]) for p in polygon]
                (polygons if facet < 0 else on_facets).append(moved)
    # a face on a facet between two solid parts is met twice (once from each sub-cell): the
    # others are surface
    keys = [tuple(sorted(_key(p) for p in polygon)) for polygon in on_facets]
    count: dict = {}
    for key in keys:
        count[key] = count.get(key, 0) + 1
    surface = polygons + [polygon for polygon, key in zip(on_facets, keys) if count[key] == 1]
    return _mesh(surface, unit, origin if origin is not None else _origin(lattice, cells))


def _origin(lattice, cells):
    points = np.array([p for c in cells for p in lattice.cell_corners(c)])
    return points[:, 0].min(), points[:, 1].max(), points[:, 2].min()


def frame_origin(lattice, board_cells):
    """The origin that places a board's sub-cells (and its pieces, each in its place) at 0."""
    return _origin(lattice, board_cells)


def _mesh(polygons, unit: float, origin) -> trimesh.Trimesh:
    index: dict = {}
    vertices: list = []
    triangles: list = []
    x0, y0, z0 = origin
    for polygon in polygons:
        ring = []
        for p in polygon:
            key = _key(p)
            if key not in index:
                index[key] = len(vertices)
                # the model's y runs up the page: rows (y) run the other way, so the turn of every
                # face is reversed below to keep it counter-clockwise from outside
                vertices.append(((p[0] - x0) * unit, (y0 - p[1]) * unit, (p[2] - z0) * unit))
            ring.append(index[key])
        ring.reverse()
        for k in range(1, len(ring) - 1):
            triangles.append((ring[0], ring[k], ring[k + 1]))
    return trimesh.Trimesh(vertices=np.array(vertices, dtype=float), faces=np.array(triangles, dtype=np.int64),
                           process=False)
