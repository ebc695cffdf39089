"""The surface of a grid of solid boxes, as quads: what printable pieces and bevels are made of.

:mod:`polyfit.render.meshes` builds pieces and trays on such grids, and
:mod:`polyfit.render.bevel` refines a grid before it chamfers the edges; both take the surface
from here.
"""

from __future__ import annotations

import numpy as np

from polyfit.errors import PolyfitError


def grid_quads(planes, solid: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The surface of the solid boxes of a grid as ``(vertices, quads)``: only faces between a
    solid and an empty box (or the outside) are made, corners ordered to face outward.

    ``planes`` is one increasing coordinate array per axis, ``solid`` a boolean array with one
    fewer entry than planes along each axis.
    """
    solid = np.asarray(solid, dtype=bool)
    shape = solid.shape
    point_shape = tuple(n + 1 for n in shape)

    def point_ids(i, j, k):
        return np.ravel_multi_index((i, j, k), point_shape)

    quads = []
    padded = np.pad(solid, 1)
    for axis in range(3):
        b, c = (axis + 1) % 3, (axis + 2) % 3
        # diff < 0: solid then empty going up the axis (a face looking up), > 0 the reverse.
        diff = np.diff(padded.astype(np.int8), axis=axis)
        inner = [slice(1, -1)] * 3
        inner[axis] = slice(None)
        diff = diff[tuple(inner)]
        for sign in (-1, 1):
            plane_index = np.argwhere(diff == sign)  # plane index along axis = position
            if len(plane_index) == 0:
                continue
            corners = []
            for db, dc in ((0, 0), (1, 0), (1, 1), (0, 1)):
                p = plane_index.copy()
                p[:, b] += db
                p[:, c] += dc
                corners.append(point_ids(p[:, 0], p[:, 1], p[:, 2]))
            quad = np.stack(corners, axis=1)
            if sign == 1:
                quad = quad[:, ::-1]
            quads.append(quad)
    if not quads:
        raise PolyfitError("nothing solid to make a mesh of")
    quads = np.concatenate(quads)
    used, quads = np.unique(quads, return_inverse=True)
    quads = quads.reshape(-1, 4)
    index = np.unravel_index(used, point_shape)
    vertices = np.stack([np.asarray(planes[a], dtype=float)[index[a]] for a in range(3)], axis=1)
    return vertices, quads
