"""Printable solids (trimesh): pieces without internal faces, shrunk for clearance; a tray.

A piece is built on a grid of axis-aligned boxes, never as one cube per cell, so the faces
between its own cells never exist. With a clearance ``gap``, every outer face moves inward by
``gap / 2``: along each axis the grid has thin slabs ``[k*unit - gap/2, k*unit + gap/2]``
around the cell boundaries and thick slabs between them, and a box is solid exactly when every
cell its ``gap/2`` surroundings touch is in the piece (an erosion). Two pieces that touched
then stand ``gap`` apart, and cells of a piece that met only along an edge no longer do, so
each piece is one watertight solid.

World coordinates, in millimetres: x along columns, y up the page (the first row of the text
art is furthest back), z up through the layers. A 2D piece is a tile ``thickness`` high.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import trimesh

from polyfit.errors import PolyfitError
from polyfit.render.bevel import bevelled_mesh
from polyfit.render.boxgrid import grid_quads
from polyfit.render.style import check_millimetres


@dataclass(frozen=True)
class Sizes:
    """Millimetres: ``unit`` the cell edge, ``gap`` the clearance between pieces that touch,
    ``thickness`` the height of 2D tiles, ``bevel`` how far convex edges are cut back."""

    unit: float = 15.0
    gap: float = 0.2
    thickness: float = 5.0
    bevel: float = 0.0

    def __post_init__(self):
        if not self.unit > 0:
            raise PolyfitError(f"unit (a cell's edge) must be a positive number of millimetres, not {self.unit:g}")
        if not 0 <= self.gap < self.unit / 2:
            raise PolyfitError(f"gap must be at least 0 and less than half the unit ({self.unit / 2:g} mm)")
        if not self.thickness > 0:
            raise PolyfitError("thickness must be positive")
        # Finite and at most a sheet's worth: --unit inf wrote NaN vertices.
        check_millimetres("--unit", self.unit)
        check_millimetres("--gap", self.gap, positive=False)
        check_millimetres("--thickness", self.thickness)
        check_millimetres("--bevel", self.bevel, positive=False)
        self.check_bevel(flat=False)

    def check_bevel(self, flat: bool) -> None:
        """Two bevels across the thinnest wall must not meet. A solid's thinnest wall is a cell
        less the gap; a tile's may also be its thickness, which solids do not have."""
        limit = min(self.unit - self.gap, self.thickness) / 2 if flat else (self.unit - self.gap) / 2
        if not 0 <= self.bevel < limit:
            wall = "a cell less the gap, or a tile's thickness" if flat else "a cell less the gap"
            raise PolyfitError(
                f"bevel must be at least 0 and less than {limit:g} mm (half the thinnest wall: {wall})"
            )


# -- the box grid ---------------------------------------------------------------------------


def grid_mesh(planes, solid: np.ndarray) -> trimesh.Trimesh:
    """The surface of the solid boxes of a grid (:func:`grid_quads`), two triangles a quad."""
    vertices, quads = grid_quads(planes, solid)
    faces = np.concatenate([quads[:, [0, 1, 2]], quads[:, [0, 2, 3]]])
    return trimesh.Trimesh(vertices=vertices, faces=faces, process=False)


def slab_planes(cells: int, unit: float, half_gap: float) -> np.ndarray:
    """Planes ``k*unit -/+ half_gap`` for the boundaries k = 0..cells: 2 * cells + 1 slabs,
    thin ones (even index m*2, around boundary m) and thick ones (odd, inside cell m)."""
    bounds = unit * np.arange(cells + 1)
    return np.stack([bounds - half_gap, bounds + half_gap], axis=1).flatten()


def spread_axis(occupied: np.ndarray, axis: int, combine) -> np.ndarray:
    """Cells along ``axis`` become slabs: a thick slab copies its cell, a thin slab combines
    its two cells (``np.logical_and`` erodes, ``np.logical_or`` dilates)."""
    padded = np.pad(occupied, [(1, 1) if a == axis else (0, 0) for a in range(occupied.ndim)])
    n = occupied.shape[axis]
    before = np.take(padded, range(0, n + 1), axis=axis)
    after = np.take(padded, range(1, n + 2), axis=axis)
    thin = combine(before, after)
    shape = list(occupied.shape)
    shape[axis] = 2 * n + 1
    out = np.zeros(shape, dtype=bool)
    sl = [slice(None)] * occupied.ndim
    sl[axis] = slice(0, None, 2)
    out[tuple(sl)] = thin
    sl[axis] = slice(1, None, 2)
    out[tuple(sl)] = occupied
    return out


# -- pieces ---------------------------------------------------------------------------------


def cell_frame(cells) -> tuple:
    """The box of cells to lay out on: per axis (x, y, z) the lowest index and the count."""
    cells = [tuple(c) for c in cells]
    if len(cells[0]) == 2:
        cells = [(0,) + c for c in cells]
    zs, rows, cols = zip(*cells)
    return (min(cols), max(cols) - min(cols) + 1), (max(rows), max(rows) - min(rows) + 1), (
        min(zs), max(zs) - min(zs) + 1)


def occupancy(cells, frame) -> np.ndarray:
    """A boolean ``[x, y, z]`` array of the cells in ``frame``; y counts rows up from the
    last (front) row, so the first row of the art lies furthest back."""
    (x0, nx), (last_row, ny), (z0, nz) = frame
    grid = np.zeros((nx, ny, nz), dtype=bool)
    for cell in cells:
        cell = tuple(cell)
        z, row, col = cell if len(cell) == 3 else (0,) + cell
        grid[col - x0, last_row - row, z - z0] = True
    return grid


def piece_mesh(cells, sizes: Sizes = Sizes(), frame=None) -> trimesh.Trimesh:
    """One piece as a watertight solid; ``frame`` places it within a board (default: its own
    bounding box, at the origin)."""
    cells = [tuple(c) for c in cells]
    flat = len(cells[0]) == 2
    sizes.check_bevel(flat)
    frame = frame or cell_frame(cells)
    grid = occupancy(cells, frame)
    half = sizes.gap / 2
    planes = []
    solid = grid
    counts = grid.shape
    for axis in range(3):
        if flat and axis == 2:
            planes.append(np.array([0.0, sizes.thickness]))
            continue
        if half == 0:
            planes.append(sizes.unit * np.arange(counts[axis] + 1))
            continue
        planes.append(slab_planes(counts[axis], sizes.unit, half))
        solid = spread_axis(solid, axis, np.logical_and)
    if sizes.bevel > 0:
        return bevelled_mesh(planes, solid, sizes.bevel)
    return grid_mesh(planes, solid)


def board_frame(board_cells):
    return cell_frame(board_cells)


def assembly(solution: dict, board_cells, sizes: Sizes = Sizes()) -> dict:
    """Each piece of a solution ``{name: cells}`` as a mesh in its place on the board."""
    frame = board_frame(board_cells)
    return {name: piece_mesh(cells, sizes, frame) for name, cells in solution.items()}


# -- the tray -------------------------------------------------------------------------------


@dataclass(frozen=True)
class TraySizes:
    """Millimetres: ``wall`` around the cavity, ``floor`` under it, ``depth`` of the cavity."""

    wall: float = 3.0
    floor: float = 2.0
    depth: float = 5.0

    def __post_init__(self):
        check_millimetres("--wall", self.wall)
        check_millimetres("--floor", self.floor)
        check_millimetres("--thickness", self.depth)  # kit's tray: as deep as the tiles are high


def tray_mesh(board_cells, sizes: Sizes = Sizes(), tray: TraySizes = TraySizes()) -> trimesh.Trimesh:
    """A base with walls whose cavity is the 2D board grown by half the gap on every side, so
    pieces shrunk by half the gap sit in it with the same clearance as between each other."""
    cells = [tuple(c) for c in board_cells]
    if len(cells[0]) != 2:
        raise PolyfitError("a tray is made for 2D boards only")
    half = sizes.gap / 2
    if tray.wall <= half:
        raise PolyfitError("the tray wall must be thicker than half the gap")
    frame = cell_frame(cells)
    cavity2d = occupancy(cells, frame)[:, :, 0]
    (_, nx), (_, ny), _ = frame
    planes = []
    for axis, n in enumerate((nx, ny)):
        if half == 0:
            inner = sizes.unit * np.arange(n + 1)
        else:
            inner = slab_planes(n, sizes.unit, half)
            cavity2d = spread_axis(cavity2d, axis, np.logical_or)
        planes.append(np.concatenate([[inner[0] - (tray.wall - half)], inner,
                                      [inner[-1] + (tray.wall - half)]]))
    cavity2d = np.pad(cavity2d, 1)  # the outer wall ring
    planes.append(np.array([-tray.floor, 0.0, tray.depth]))
    solid = np.ones(cavity2d.shape + (2,), dtype=bool)
    solid[:, :, 1] = ~cavity2d
    return grid_mesh(planes, solid)
