"""The sub-cells of BurrTools' fine grids in space (FineGrid.cell_corners): they tile space,
neighbours share a face, and the larger solids made of them have their shapes' volumes and
corners. Checked with determinants, barycentric coordinates and scipy's convex hull."""

from itertools import product

import numpy as np
import pytest
from scipy.spatial import ConvexHull

from polyfit.lattices.finegrids import RHOMBIC, TETRA_OCTA


def _volume(corners) -> float:
    p = np.array(corners)
    return abs(np.linalg.det(p[1:] - p[0])) / 6


def _cells_in(lattice, blocks):
    """Every sub-cell of the blocks ``blocks`` (a range of block coordinates along each axis)."""
    b = lattice.block
    return [c for c in product(*(range(b * blocks.start, b * blocks.stop),) * 3) if lattice.is_cell(c)]


def _owners(lattice, cells, points) -> np.ndarray:
    """How many of the cells' tetrahedra hold each point (inside, by barycentric coordinates)."""
    counts = np.zeros(len(points), dtype=int)
    for cell in cells:
        p = np.array(lattice.cell_corners(cell))
        weights = np.linalg.solve((p[1:] - p[0]).T, (points - p[0]).T).T
        inside = (weights > 0).all(axis=1) & (weights.sum(axis=1) < 1)
        counts += inside
    return counts


@pytest.mark.parametrize("lattice", [RHOMBIC, TETRA_OCTA], ids=lambda lat: lat.name)
def test_the_sub_cells_tile_space(lattice):
    cells = _cells_in(lattice, range(0, 2))  # the 2 x 2 x 2 blocks from the origin
    # each block's sub-cells fill it: 24 of 1/24 (rhombic); a tetrahedron of 1/3 and 4 corners of 1/6
    assert sum(_volume(lattice.cell_corners(c)) for c in cells) == pytest.approx(8.0)
    assert all(0 <= v <= 2 for c in cells for p in lattice.cell_corners(c) for v in p)
    rng = np.random.default_rng(29)
    points = rng.uniform(0.0, 2.0, (2000, 3))
    assert (_owners(lattice, cells, points) == 1).all()  # no two overlap, no gap between them


@pytest.mark.parametrize("lattice", [RHOMBIC, TETRA_OCTA], ids=lambda lat: lat.name)
def test_neighbours_share_a_face_and_others_none(lattice):
    cells = _cells_in(lattice, range(-1, 2))
    corners = {c: {tuple(p) for p in lattice.cell_corners(c)} for c in cells}
    for cell in lattice.origins:
        neighbours = set(lattice.neighbours(cell))
        assert len(neighbours) == 4  # a tetrahedron has four faces
        for other in cells:
            shared = len(corners[cell] & corners[other])
            if other == cell:
                continue
            assert (shared == 3) == (other in neighbours), (cell, other)


def test_a_rhombic_dodecahedron_of_48_sub_cells_is_one():
    for where in ((0, 0, 0), (1, 2, -1)):
        cells = RHOMBIC.dodecahedron(where)
        assert len(cells) == 48
        points = np.array([p for c in cells for p in RHOMBIC.cell_corners(c)])
        hull = ConvexHull(points)
        # the block as a cube of side 1 inside it: its 8 corners and the 6 neighbouring blocks' centres
        assert len(hull.vertices) == 14
        assert hull.volume == pytest.approx(2.0)
        assert sum(_volume(RHOMBIC.cell_corners(c)) for c in cells) == pytest.approx(2.0)  # fills its hull
        centre = np.array(where[::-1]) + 0.5  # (x, y, z) of the block's centre
        distances = sorted(np.round(np.linalg.norm(points[hull.vertices] - centre, axis=1), 9))
        assert distances == [round(3 ** 0.5 / 2, 9)] * 8 + [1.0] * 6


def test_tetra_octa_solids_are_regular_with_edges_of_a_block_diagonal():
    tetrahedron = TETRA_OCTA.cell_corners(TETRA_OCTA.tetrahedron((1, 0, 0))[0])
    edges = {round(float(np.linalg.norm(np.subtract(a, b))), 9) for a in tetrahedron for b in tetrahedron if a != b}
    assert edges == {round(2 ** 0.5, 9)} and _volume(tetrahedron) == pytest.approx(1 / 3)
    eighths = TETRA_OCTA.octahedron((1, 0, 0))
    points = np.array([p for c in eighths for p in TETRA_OCTA.cell_corners(c)])
    hull = ConvexHull(points)
    assert len(hull.vertices) == 6 and hull.volume == pytest.approx(2 ** 0.5 / 3 * 2 ** 1.5)  # edge sqrt 2
    assert sum(_volume(TETRA_OCTA.cell_corners(c)) for c in eighths) == pytest.approx(4 / 3)
