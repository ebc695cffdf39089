"""Printable tiles of the triangle and hex lattices: each piece's outline extruded.

A square-lattice tile is built from its grid (:mod:`polyfit.render.meshes`); a tile of any
other 2D lattice is its outline (the union of its cells' polygons,
:func:`polyfit.render.flat.polygon_layout`), moved in by half the gap so that neighbouring
tiles keep the gap between them, cut into triangles by ear clipping and extruded to the tile's
thickness. Pieces with holes are refused (none of the built-in polyiamonds or polyhexes below
seven cells has one).
"""

from __future__ import annotations

import numpy as np
import trimesh

from polyfit.errors import PolyfitError
from polyfit.lattices import base as lattices
from polyfit.render.flat import polygon_layout
from polyfit.render.outline import offset

Point = tuple[float, float]


def inset(loop: list[Point], distance: float) -> list[Point]:
    """The loop with every side moved ``distance`` towards the inside (the loop runs
    clockwise on the page, y down: the inside is on the right of each side)."""
    return offset(loop, -distance)


def _cross(o: Point, a: Point, b: Point) -> float:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def ear_clip(loop: list[Point]) -> list[tuple[int, int, int]]:
    """Triangles ``(i, j, k)`` (indices into the loop) covering a simple polygon given
    clockwise on the page (counter-clockwise with y up), each in the loop's turning sense."""
    left = list(range(len(loop)))
    triangles = []
    guard = 0
    while len(left) > 3 and guard < 10 * len(loop) ** 2:
        guard += 1
        for m in range(len(left)):
            i, j, k = left[m - 1], left[m], left[(m + 1) % len(left)]
            a, b, c = loop[i], loop[j], loop[k]
            if _cross(a, b, c) <= 1e-12:
                continue  # a reflex or straight corner is no ear
            inside = any(
                _cross(a, b, loop[p]) >= 0 and _cross(b, c, loop[p]) >= 0 and _cross(c, a, loop[p]) >= 0
                for p in left if p not in (i, j, k)
            )
            if not inside:
                triangles.append((i, j, k))
                del left[m]
                break
    triangles.append(tuple(left))
    return triangles


def check_kit(pieces, sizes, tray: bool) -> None:
    """Trays and bevels are made for squares only: refuse them on another lattice."""
    if tray or sizes.bevel:
        lattices.only_squares(pieces, "polyfit kit --tray and --bevel")
    from polyfit.render.solids import only_solids

    only_solids([p for p in pieces if p.dim == 3], "polyfit kit")


def tile_meshes(pieces, sizes) -> dict:
    """Each piece as a mesh at its own corner: squares and cubes from their grid
    (:func:`polyfit.render.meshes.piece_mesh`), the other space lattices' solids from
    :mod:`polyfit.render.solids`, other lattices' tiles extruded from their outline."""
    from polyfit.render.meshes import piece_mesh

    lattice = lattices.of(pieces[0])
    if lattice.name in ("square", "cubic"):
        return {p.name: piece_mesh(p.cells, sizes) for p in pieces}
    if lattice.segments:
        raise PolyfitError(
            f"polyfit kit makes tiles of cells; the {lattice.name} lattice's pieces are sticks: cut them "
            "with polyfit pieces SET --svg FILE --cut"
        )
    if lattice.dim == 3:  # prisms, sub-cells, spheres (cubes were built above)
        from polyfit.render.solids import piece_solids  # (check_kit refused lattices without solids)

        return piece_solids(pieces, lattice, sizes)
    return {p.name: prism_mesh(p.cells, lattice, sizes.unit, sizes.gap, sizes.thickness) for p in pieces}


def prism_mesh(cells, lattice, unit: float, gap: float, thickness: float) -> trimesh.Trimesh:
    """One piece of a polygon lattice as a watertight tile, ``unit`` mm to a square cell's
    side, shrunk by half the ``gap`` all round, ``thickness`` mm high, at the origin."""
    layout = polygon_layout({tuple(c): "piece" for c in cells}, lattice)
    loops = layout.loops["piece"]
    if len(loops) != 1:
        raise PolyfitError(f"a tile with a hole cannot be made yet ({len(loops) - 1} holes)")
    loop = [(x * unit, y * unit) for x, y in loops[0]]
    loop = inset(loop, gap / 2)
    n = len(loop)
    # Page coordinates have y down, the model y up: the mirror turns the loop, clockwise on the
    # page, clockwise seen from above, so the top's triangles are reversed and the bottom's not.
    vertices = [(x, -y, 0.0) for x, y in loop] + [(x, -y, thickness) for x, y in loop]
    faces = []
    for i, j, k in ear_clip(loop):
        faces.append((n + k, n + j, n + i))
        faces.append((i, j, k))
    for i in range(n):
        j = (i + 1) % n
        faces.append((j, i, n + i))
        faces.append((j, n + i, n + j))
    mesh = trimesh.Trimesh(np.array(vertices), np.array(faces), process=True)
    if mesh.volume < 0:
        mesh.invert()
    return mesh
