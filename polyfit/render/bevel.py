"""Bevelled pieces: every convex edge cut at 45 degrees, ``bevel`` millimetres back on each face.

A piece's box grid (:mod:`polyfit.render.boxgrid`) gets one more plane ``bevel`` inside each
face plane, so a strip of quads that wide runs along every edge. Convex edges are then pulled
inward: a vertex on a convex edge moves ``bevel / 2`` away from each of the edge's two faces,
which turns the two strips beside the edge into one flat 45-degree chamfer. A vertex where
three convex edges meet (a corner) moves ``2 * bevel / 3`` along each axis, so the three corner
quads become the corner's triangle, as on a chamfered box. Nothing is added or removed, so a
watertight mesh stays watertight; concave edges stay sharp.
"""

from __future__ import annotations

import numpy as np
import trimesh

from polyfit.errors import PolyfitError
from polyfit.render.boxgrid import grid_quads


def face_planes(planes, solid: np.ndarray) -> list[list[tuple[float, int]]]:
    """Per axis, each plane a face of the solid lies on, with its outward direction (+1/-1)."""
    found = []
    padded = np.pad(solid, 1)
    for axis in range(3):
        diff = np.diff(padded.astype(np.int8), axis=axis)
        inner = [slice(1, -1)] * 3
        inner[axis] = slice(None)
        diff = diff[tuple(inner)]
        other = tuple(a for a in range(3) if a != axis)
        up = np.any(diff < 0, axis=other)  # solid below, empty above: the face looks up
        down = np.any(diff > 0, axis=other)
        found.append([(planes[axis][i], 1) for i in np.flatnonzero(up)]
                     + [(planes[axis][i], -1) for i in np.flatnonzero(down)])
    return found


def refine(planes, solid: np.ndarray, extra) -> tuple[list, np.ndarray]:
    """The same solid on a grid with more planes (each old box split where they cross it)."""
    new_planes, index = [], []
    for axis in range(3):
        old = np.asarray(planes[axis], dtype=float)
        merged = np.unique(np.round(np.concatenate([old, extra[axis]]), 9))
        middles = (merged[:-1] + merged[1:]) / 2
        index.append(np.searchsorted(old, middles) - 1)
        new_planes.append(merged)
    return new_planes, solid[np.ix_(*index)]


def quad_normals(vertices, quads) -> np.ndarray:
    """Each quad's outward normal, as an integer unit vector along an axis."""
    n = np.cross(vertices[quads[:, 1]] - vertices[quads[:, 0]], vertices[quads[:, 2]] - vertices[quads[:, 0]])
    return np.round(n / np.linalg.norm(n, axis=1)[:, None]).astype(int)


def convex_edges(vertices, quads):
    """``(vertex a, vertex b, normal 1, normal 2)`` for every edge where two quads meet at a
    right angle with the solid inside the angle."""
    normals = quad_normals(vertices, quads)
    edges = quads[:, [0, 1, 1, 2, 2, 3, 3, 0]].reshape(-1, 2)
    owner = np.repeat(np.arange(len(quads)), 4)
    key = np.sort(edges, axis=1)
    order = np.lexsort((key[:, 1], key[:, 0]))
    pairs = order.reshape(-1, 2)  # on a closed surface every edge has exactly two quads
    if not np.array_equal(key[pairs[:, 0]], key[pairs[:, 1]]):
        raise PolyfitError("cannot bevel a piece that is not one watertight solid (try a positive --gap)")
    first, second = pairs[:, 0], pairs[:, 1]
    n1, n2 = normals[owner[first]], normals[owner[second]]
    perpendicular = np.einsum("ij,ij->i", n1, n2) == 0
    # Convex: the other quad's centre lies behind the first quad's plane.
    centre = vertices[quads[owner[second]]].mean(axis=1)
    beyond = centre - vertices[edges[first, 0]]
    convex = perpendicular & (np.einsum("ij,ij->i", beyond, n1) < 0)
    for k in np.flatnonzero(convex):
        yield edges[first[k], 0], edges[first[k], 1], tuple(n1[k]), tuple(n2[k])


def displacements(vertices, quads, bevel: float) -> np.ndarray:
    """How far each vertex moves: onto the nearest point of the bevelled surface.

    On one convex edge (faces n1, n2) that is the middle of the chamfer, ``-bevel/2 (n1+n2)``.
    Where three faces meet it is ``-bevel/3`` times the sum of each face's normal weighted by
    the number of convex edges it has there: a corner (three convex edges) moves ``2 bevel/3``
    along each axis onto its triangle; where two convex edges meet a concave one, the vertex
    moves onto the mitre between the two chamfers.
    """
    pairs_at: dict[int, set] = {}
    for a, b, n1, n2 in convex_edges(vertices, quads):
        for v in (a, b):
            pairs_at.setdefault(int(v), set()).add(frozenset((n1, n2)))
    moves = np.zeros_like(vertices)
    for v, pairs in pairs_at.items():
        weights: dict[tuple, int] = {}
        for pair in pairs:
            for n in pair:
                weights[n] = weights.get(n, 0) + 1
        axes = {int(np.flatnonzero(n)[0]) for n in weights}
        if len(axes) != len(weights) or len(weights) > 3:
            raise PolyfitError("cannot bevel this piece: faces on both sides of one vertex")
        share = bevel / 2 if len(weights) == 2 else bevel / 3
        moves[v] = -share * np.sum([w * np.array(n) for n, w in weights.items()], axis=0)
    return moves


def chamfer(vertices, quads, bevel: float) -> trimesh.Trimesh:
    before = quad_normals(vertices, quads)
    moves = displacements(vertices, quads, bevel)
    moved = np.any(moves != 0, axis=1)
    vertices = vertices + moves
    # A quad with one moved vertex folds along the diagonal through that vertex (the mitre).
    start = np.zeros(len(quads), dtype=int)
    flags = moved[quads]
    single = flags.sum(axis=1) == 1
    start[single] = np.argmax(flags[single], axis=1)
    k = np.arange(len(quads))
    a, b, c, d = (quads[k, (start + i) % 4] for i in range(4))
    faces = np.concatenate([np.stack([a, b, c], axis=1), np.stack([a, c, d], axis=1)])
    normals = np.cross(vertices[faces[:, 1]] - vertices[faces[:, 0]], vertices[faces[:, 2]] - vertices[faces[:, 0]])
    if np.any(np.einsum("ij,ij->i", normals, np.concatenate([before, before])) <= 0):
        raise PolyfitError("the bevel is too large for this piece; try a smaller --bevel")
    return trimesh.Trimesh(vertices=vertices, faces=faces, process=False)


def bevelled_mesh(planes, solid: np.ndarray, bevel: float) -> trimesh.Trimesh:
    """The solid's surface with every convex edge chamfered by ``bevel``."""
    extra = [[c - side * bevel for c, side in axis] for axis in face_planes(planes, solid)]
    planes, solid = refine(planes, solid, extra)
    vertices, quads = grid_quads(planes, solid)
    return chamfer(vertices, quads, bevel)
