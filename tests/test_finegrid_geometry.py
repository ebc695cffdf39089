"""The sub-cells of BurrTools' fine grids in space (FineGrid.cell_corners): they tile space,
neighbours share a face, and the larger solids made of them have their shapes' volumes and
corners. Checked with determinants, barycentric coordinates and the solids' own inequalities."""

from itertools import product

import numpy as np
import pytest

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


def _hull_vertices(points) -> set:
    """The points that are the only highest one along some direction (corners of their convex
    hull), over many random directions: a point inside a face or an edge never is."""
    points = np.unique(np.round(points, 9), axis=0)
    directions = np.random.default_rng(5).normal(size=(20000, 3))
    heights = directions @ points.T
    best = heights.argmax(axis=1)
    alone = (np.sort(heights, axis=1)[:, -2] < heights.max(axis=1) - 1e-9)
    return {tuple(points[k]) for k in best[alone]}


def test_a_rhombic_dodecahedron_of_48_sub_cells_is_one():
    """The rhombic dodecahedron about a block's centre c is ``|p_i - c_i| + |p_j - c_j| <= 1``
    for each two axes: volume 2, its corners the block's 8 and the 6 neighbouring blocks'
    centres."""
    for where in ((0, 0, 0), (1, 2, -1)):
        cells = RHOMBIC.dodecahedron(where)
        assert len(cells) == 48
        centre = np.array(where[::-1]) + 0.5  # (x, y, z) of the block's centre
        points = np.array([p for c in cells for p in RHOMBIC.cell_corners(c)])
        corners = _hull_vertices(points)
        assert len(corners) == 14
        distances = sorted(round(float(np.linalg.norm(np.array(p) - centre)), 9) for p in corners)
        assert distances == [round(3 ** 0.5 / 2, 9)] * 8 + [1.0] * 6
        assert sum(_volume(RHOMBIC.cell_corners(c)) for c in cells) == pytest.approx(2.0)
        samples = np.random.default_rng(8).uniform(-1, 1, (3000, 3)) + centre
        d = np.abs(samples - centre)
        inside = (d[:, 0] + d[:, 1] < 1) & (d[:, 0] + d[:, 2] < 1) & (d[:, 1] + d[:, 2] < 1)
        # every point of the dodecahedron in exactly one of its sub-cells, no point outside in any
        assert (_owners(RHOMBIC, cells, samples) == inside).all()


def test_tetra_octa_solids_are_regular_with_edges_of_a_block_diagonal():
    tetrahedron = TETRA_OCTA.cell_corners(TETRA_OCTA.tetrahedron((1, 0, 0))[0])
    edges = {round(float(np.linalg.norm(np.subtract(a, b))), 9) for a in tetrahedron for b in tetrahedron if a != b}
    assert edges == {round(2 ** 0.5, 9)} and _volume(tetrahedron) == pytest.approx(1 / 3)
    eighths = TETRA_OCTA.octahedron((1, 0, 0))
    points = np.array([p for c in eighths for p in TETRA_OCTA.cell_corners(c)])
    corners = _hull_vertices(points)  # the vertex's 6 neighbours along the blocks' edges
    assert sorted(np.round(np.linalg.norm(np.array(sorted(corners)) - (0, 0, 1), axis=1), 9)) == [1.0] * 6
    # the regular octahedron of edge sqrt 2: 2 ** 0.5 / 3 * edge ** 3
    assert sum(_volume(TETRA_OCTA.cell_corners(c)) for c in eighths) == pytest.approx(2 ** 0.5 / 3 * 2 ** 1.5)
    samples = np.random.default_rng(9).uniform(-1, 1, (3000, 3)) + (0, 0, 1)
    inside = np.abs(samples - (0, 0, 1)).sum(axis=1) < 1  # |x| + |y| + |z - 1| < 1
    assert (_owners(TETRA_OCTA, eighths, samples) == inside).all()
