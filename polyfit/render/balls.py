"""Printable solids of spheres (BurrTools' sphere grid, :mod:`polyfit.lattices.spheres`): each
piece its balls joined by necks, one watertight solid.

``unit`` is the distance between the centres of two touching spheres. Every ball has radius
``R = (unit - gap) / 2``, so two balls of different pieces that touched stand ``gap`` apart;
the balls of one piece that touch are joined by a neck, a cylinder of radius ``r = 0.4 R``
along the line between their centres. Necks stay ``gap`` away from other pieces: a ball of
another piece touching both ends of a neck lies ``0.866 unit`` from its axis (more than ``R +
r + gap``), and two necks that share no ball come no nearer than ``0.707 unit`` (more than ``2
r + gap``). Since ``r < R / 2``, two necks of one ball (their directions are at least 60
degrees apart) meet only inside the ball, so the solid's surface is each ball's sphere less a
cap where a neck leaves it and each neck's tube between two such caps' rims: a neck is
``0.8 (unit - gap)`` across at 15 mm, 0.2 mm, about 6 mm, which prints.

The sphere is a polyhedron inscribed in it (the convex hull of points on it, with a ring of
24 points on the rim of each of the 12 caps a neck may take), the neck a prism inscribed in
its cylinder between two rims, so the solid lies inside the exact one (within about 1.5% of
its volume): pieces stay at least ``gap`` apart.
"""

from __future__ import annotations

import math
from functools import lru_cache
from itertools import permutations

import numpy as np
import trimesh

NECK = 0.4  # a neck's radius, of the ball's
RIM = 24  # points on a cap's rim
ALPHA = math.asin(NECK)  # a cap's angular radius


def directions() -> list[tuple]:
    """The 12 directions to touching spheres, unit vectors ``(x, y, z)``."""
    found = set()
    for a, b in ((1, 1), (1, -1), (-1, 1), (-1, -1)):
        for p in permutations((a, b, 0)):
            found.add(p)
    return [tuple(v / math.sqrt(2) for v in d) for d in sorted(found)]


def _frame(d):
    """Two unit vectors across direction ``d``, the same for ``d`` and ``-d``."""
    canonical = np.array(d) if next(v for v in d if abs(v) > 1e-9) > 0 else -np.array(d)
    helper = np.array([1.0, 0.0, 0.0]) if abs(canonical[0]) < 0.9 else np.array([0.0, 1.0, 0.0])
    e1 = np.cross(canonical, helper)
    e1 /= np.linalg.norm(e1)
    return e1, np.cross(canonical, e1)


def _ring(d, polar: float, count: int, turn: float = 0.0) -> list:
    e1, e2 = _frame(d)
    d = np.array(d)
    return [math.cos(polar) * d + math.sin(polar) * (math.cos(t) * e1 + math.sin(t) * e2)
            for t in (2 * math.pi * (k + turn) / count for k in range(count))]


def convex_hull(points: np.ndarray) -> np.ndarray:
    """Triangles ``(a, b, c)``, counter-clockwise from outside, of the convex hull of points in
    general position that all lie on it (points on a sphere): incremental, each new point
    replacing the faces it sees by a fan to their horizon."""
    n = len(points)
    first = 0
    second = int(np.argmax(np.linalg.norm(points - points[first], axis=1)))
    line = points[second] - points[first]
    third = int(np.argmax(np.linalg.norm(np.cross(points - points[first], line), axis=1)))
    normal = np.cross(line, points[third] - points[first])
    fourth = int(np.argmax(np.abs((points - points[first]) @ normal)))
    start = [first, second, third, fourth]
    faces: dict[int, tuple] = {}
    planes = np.zeros((4 * n, 4))
    alive = np.zeros(4 * n, dtype=bool)
    edges: dict[tuple, int] = {}
    count = 0

    def add(a, b, c):
        nonlocal count, planes, alive
        if count == len(planes):  # every face ever made keeps its row: grow
            planes = np.concatenate([planes, np.zeros_like(planes)])
            alive = np.concatenate([alive, np.zeros_like(alive)])
        alive[count] = True
        normal = np.cross(points[b] - points[a], points[c] - points[a])
        normal /= np.linalg.norm(normal)
        planes[count] = (*normal, normal @ points[a])
        faces[count] = (a, b, c)
        for e in ((a, b), (b, c), (c, a)):
            edges[e] = count
        count += 1

    inside = points[start].mean(axis=0)
    for a, b, c in ((0, 1, 2), (0, 1, 3), (0, 2, 3), (1, 2, 3)):
        a, b, c = start[a], start[b], start[c]
        if np.cross(points[b] - points[a], points[c] - points[a]) @ (points[a] - inside) < 0:
            b, c = c, b
        add(a, b, c)
    for p in np.random.default_rng(0).permutation([k for k in range(n) if k not in start]):
        seen = np.flatnonzero(alive[:count] & (planes[:count, :3] @ points[p] - planes[:count, 3] > 1e-12))
        if not len(seen):
            continue
        seen_set = set(seen.tolist())
        horizon = []
        for f in seen_set:
            a, b, c = faces[f]
            for e in ((a, b), (b, c), (c, a)):
                if edges.get((e[1], e[0])) not in seen_set:
                    horizon.append(e)
        for f in seen_set:
            a, b, c = faces.pop(f)
            for e in ((a, b), (b, c), (c, a)):
                if edges.get(e) == f:
                    del edges[e]
            alive[f] = False
        for a, b in horizon:
            add(a, b, p)
    return np.array(list(faces.values()))


@lru_cache(maxsize=1)
def unit_ball():
    """The ball of radius 1 as a polyhedron: ``(vertices, triangles, caps, rims)``, where
    ``caps[i]`` is the set of triangles of the cap towards ``directions()[i]`` and ``rims[i]``
    its rim's vertices, in turn about the direction (the same turn for a direction and its
    opposite, so that a neck's two rims pair off)."""
    ds = directions()
    spacing = 2 * math.pi * math.sin(ALPHA) / RIM  # between neighbouring rim points (radians)
    rings = max(1, round(ALPHA / spacing))
    points, owner, rims = [], [], []
    for i, d in enumerate(ds):
        rims.append(list(range(len(points), len(points) + RIM)))
        points.extend(_ring(d, ALPHA, RIM))
        owner.extend([i] * RIM)
        for j in range(rings - 1, 0, -1):  # rings inside the cap, the last its centre
            polar = ALPHA * j / rings
            count = max(5, round(RIM * math.sin(polar) / math.sin(ALPHA)))
            points.extend(_ring(d, polar, count, 0.5 * j))
            owner.extend([i] * count)
        points.append(np.array(d))
        owner.append(i)
    # the rest of the sphere: a spiral of points about as far apart, none near a rim
    total = round(4 * math.pi / (0.85 * (1.3 * spacing) ** 2))
    golden = math.pi * (3 - math.sqrt(5))
    unit_ds = np.array(ds)
    for k in range(total):
        z = 1 - 2 * (k + 0.5) / total
        rho = math.sqrt(1 - z * z)
        p = np.array([rho * math.cos(golden * k), rho * math.sin(golden * k), z])
        if (np.arccos(np.clip(unit_ds @ p, -1, 1)) > ALPHA + 0.8 * spacing).all():
            points.append(p)
            owner.append(-1)
    vertices = np.array(points)
    triangles = convex_hull(vertices)
    owner = np.array(owner)
    caps = [set(np.flatnonzero((owner[triangles] == i).all(axis=1)).tolist()) for i in range(len(ds))]
    return vertices, triangles, caps, rims


def ball_mesh(cells, lattice, unit: float, gap: float, origin=None) -> trimesh.Trimesh:
    """A piece of spheres as one watertight solid in millimetres, ``unit`` between the
    centres of touching spheres: balls ``gap / 2`` smaller than touching ones, joined by necks.
    Placed with ``origin`` (a point ``(x, y, z)`` in the lattice's units, y along the rows, that
    lands on the model's 0: its x and z least, its y greatest) or at the piece's own corner."""
    cells = sorted({tuple(c) for c in cells})
    scale = unit / math.sqrt(2)  # touching spheres' centres are sqrt 2 apart in the lattice
    radius = (unit - gap) / 2
    if origin is None:
        origin = frame_origin(lattice, cells)
    x0, y0, z0 = origin
    centres = {c: np.array([(x - x0) * scale, (y0 - y) * scale, (z - z0) * scale])
               for c in cells for x, y, z in [lattice.centre(c)]}
    ds = directions()
    # a step in the lattice (z, y, x) as a direction of the model (x, -y, z)
    index_of = {}
    for i, d in enumerate(ds):
        step = (round(d[2] * math.sqrt(2)), -round(d[1] * math.sqrt(2)), round(d[0] * math.sqrt(2)))
        index_of[step] = i
    opposite = {i: ds.index(tuple(-v for v in d)) for i, d in enumerate(ds)}
    base, triangles, caps, rims = unit_ball()
    own = set(cells)
    vertices, faces = [], []
    placed = {}  # (cell, vertex of the unit ball) -> vertex of the mesh
    for cell in cells:
        bonds = [index_of[tuple(b - a for a, b in zip(cell, n))] for n in lattice.neighbours(cell) if n in own]
        dropped = set().union(*(caps[i] for i in bonds)) if bonds else set()
        kept = [t for k, t in enumerate(triangles) if k not in dropped]
        used = sorted({v for t in kept for v in t})
        for v in used:
            placed[cell, v] = len(vertices)
            vertices.append(centres[cell] + radius * base[v])
        faces.extend((placed[cell, a], placed[cell, b], placed[cell, c]) for a, b, c in kept)
    for cell in cells:
        for n in lattice.neighbours(cell):
            if n in own and cell < n:
                i = index_of[tuple(b - a for a, b in zip(cell, n))]
                here = [placed[cell, v] for v in rims[i]]
                there = [placed[n, v] for v in rims[opposite[i]]]
                tube = []
                for k in range(RIM):
                    a, b = here[k], here[(k + 1) % RIM]
                    c, d = there[(k + 1) % RIM], there[k]
                    tube += [(a, b, c), (a, c, d)]
                a, b, c = (vertices[v] for v in tube[0])
                axis = centres[cell]
                if np.cross(b - a, c - a) @ (a - axis - ((a - axis) @ (centres[n] - axis)) / unit ** 2 * (centres[n] - axis)) < 0:
                    tube = [(a, c, b) for a, b, c in tube]
                faces.extend(tube)
    return trimesh.Trimesh(vertices=np.array(vertices), faces=np.array(faces, dtype=np.int64), process=False)


def frame_origin(lattice, cells):
    """The origin that places spheres at ``cells`` (a board's: its pieces each in its place)
    with their balls at 0 or beyond."""
    half = math.sqrt(2) / 2  # a touching sphere's radius, in the lattice's units
    points = [lattice.centre(c) for c in cells]
    return (min(p[0] for p in points) - half, max(p[1] for p in points) + half, min(p[2] for p in points) - half)
