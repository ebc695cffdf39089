"""The grids of tetrahedral sub-cells (BurrTools' grid types 3 and 4): the lattices' cells and
groups checked against the solids they stand for, piece sets, counts against BurrTools', the
file format, pictures and verdicts."""

from __future__ import annotations

import json
import re
from itertools import permutations, product
from pathlib import Path

import pytest

import polyfit
from polyfit.errors import ParseError
from polyfit.formats import burrtools
from polyfit.lattices import polyforms
from polyfit.lattices.base import get
from helpers import assert_written_back, run

DATA = Path(__file__).parent / "data" / "burrtools" / "finegrids"
RECORDED = json.loads((DATA / "counts.json").read_text())["counts"]
RHOMBIC = get("rhombic")
TETRA_OCTA = get("tetra-octa")


# -- each sub-cell as the tetrahedron it stands for, by a rule of its own --------------------


def rhombic_tetrahedron(cell):
    """The corners of a rhombic sub-cell in half-blocks (block b spans 2b..2b+2): the block's
    centre, the centre of the face the sub-cell lies on, and the two ends of that face's edge
    the sub-cell leans on."""
    z, y, x = cell
    voxel = (x, y, z)
    block = [k // 5 for k in voxel]
    local = [k % 5 for k in voxel]
    face = next(i for i in range(3) if local[i] in (0, 4))
    edge = next(i for i in range(3) if local[i] in (1, 3))
    centre = [2 * b + 1 for b in block]
    on_face = list(centre)
    on_face[face] = 2 * block[face] + (0 if local[face] == 0 else 2)
    ends = []
    for end in (0, 2):
        corner = list(on_face)
        corner[edge] = 2 * block[edge] + (0 if local[edge] == 1 else 2)
        other = 3 - face - edge
        corner[other] = 2 * block[other] + end
        ends.append(tuple(corner))
    return frozenset([tuple(centre), tuple(on_face)] + ends)


def tetra_octa_tetrahedron(cell):
    """The corners of a tetra-octa sub-cell in blocks: the middle voxel is the block's
    tetrahedron on its corners whose coordinates add up to an even number; a corner voxel is
    the block's corner at the vertex beside it (an odd one) with the three corners along its
    edges."""
    z, y, x = cell
    voxel = (x, y, z)
    block = [k // 3 for k in voxel]
    local = [k % 3 for k in voxel]
    corners = [tuple(b + d for b, d in zip(block, step)) for step in product((0, 1), repeat=3)]
    if local == [1, 1, 1]:
        return frozenset(c for c in corners if sum(c) % 2 == 0)
    vertex = tuple(b + (1 if k == 2 else 0) for b, k in zip(block, local))
    assert sum(vertex) % 2 == 1
    near = [tuple(v + (1 if v == b else -1) * (i == axis) for i, (v, b) in enumerate(zip(vertex, block))) for axis in range(3)]
    return frozenset([vertex] + near)


GRIDS = {
    "rhombic": (RHOMBIC, rhombic_tetrahedron, 5, 2, 1),  # lattice, corners, block, units per block, fixed point
    "tetra-octa": (TETRA_OCTA, tetra_octa_tetrahedron, 3, 1, 1),
}


def sample(lattice, low=-6, high=11):
    return [c for c in product(range(low, high), repeat=3) if lattice.is_cell(c)]


def volume6(points):
    a, b, c, d = (tuple(p) for p in points)
    u, v, w = ([q[i] - a[i] for i in range(3)] for q in (b, c, d))
    return (u[0] * (v[1] * w[2] - v[2] * w[1]) - u[1] * (v[0] * w[2] - v[2] * w[0]) + u[2] * (v[0] * w[1] - v[1] * w[0]))


@pytest.mark.parametrize("name", sorted(GRIDS))
def test_sub_cells_are_the_tetrahedra_of_a_tiling_holding_their_voxel(name):
    lattice, corners, block, units, _ = GRIDS[name]
    cells = sample(lattice, 0, 2 * block)
    shapes = [corners(c) for c in cells]
    assert all(len(s) == 4 for s in shapes) and len(set(shapes)) == len(shapes)
    # they fill the 2 x 2 x 2 blocks exactly: volumes add up to the blocks'
    assert sum(abs(volume6(sorted(s))) for s in shapes) == 6 * (2 * units) ** 3
    # the voxel's centre lies inside its tetrahedron (all four barycentric weights positive)
    for cell, shape in zip(cells, shapes):
        z, y, x = cell
        centre = tuple((k + 0.5) * units / block for k in (x, y, z))
        points = sorted(shape)
        whole = volume6(points)
        for i in range(4):
            part = volume6(points[:i] + [centre] + points[i + 1:])
            assert part * whole > 0, (cell, points)
    every = {c for c in product(range(2 * block), repeat=3)}
    assert len(cells) == len([c for c in every if lattice.is_cell(c)]) == (24 * 8 if name == "rhombic" else 5 * 8)


@pytest.mark.parametrize("name", sorted(GRIDS))
def test_neighbours_are_the_sub_cells_sharing_a_face(name):
    lattice, corners, *_ = GRIDS[name]
    cells = sample(lattice, -4, 9)
    shape = {c: corners(c) for c in cells}
    by_corner = {}
    for c, s in shape.items():
        for p in s:
            by_corner.setdefault(p, set()).add(c)
    for c in sample(lattice, 0, 5):
        sharing = {d for p in shape[c] for d in by_corner[p] if d != c and len(shape[d] & shape[c]) == 3}
        assert set(lattice.neighbours(c)) == sharing and len(sharing) == 4


@pytest.mark.parametrize("name", sorted(GRIDS))
def test_the_group_is_the_cubes_48_closed_and_each_symmetry_is_a_motion_of_the_solids(name):
    lattice, corners, block, units, fixed = GRIDS[name]
    group = lattice.group()
    assert len(group) == 48 == len(set(group)) and group[0].is_identity
    assert sum(g.is_proper for g in group) == 24 == len(lattice.group(mirror=False))
    few = sample(lattice, 0, 6)
    images = {g.apply(few): g for g in group}
    for a in group:
        for b in group:
            composed = b.apply(a.apply(few))
            assert composed == a.then(b).apply(few) and composed in images  # closed
    cells = sample(lattice, -2, 7)
    for g in group:
        perm, signs = g.linear.perm, g.linear.signs

        def move(point):  # the same motion on points (x, y, z), about the fixed point
            zyx = (point[2], point[1], point[0])
            moved = [zyx[p] if s > 0 else 2 * fixed - zyx[p] for p, s in zip(perm, signs)]
            return (moved[2], moved[1], moved[0])
        for c in cells:
            image = g(c)
            assert lattice.is_cell(image)
            assert corners(image) == frozenset(move(p) for p in corners(c))
            assert set(lattice.neighbours(image)) == {g(n) for n in lattice.neighbours(c)}
        points = sorted(corners(cells[0]))
        assert (volume6(points) * volume6([move(p) for p in points]) > 0) == g.is_proper


@pytest.mark.parametrize("name", sorted(GRIDS))
def test_moves_on_grid_and_normal_forms(name):
    lattice, corners, block, *_ = GRIDS[name]
    cells = sample(lattice, -6, 12)
    present = set(cells)
    inner = [c for c in cells if all(0 <= k < 6 for k in c)]
    for shift in product(range(-block - 1, block + 2), repeat=3):
        # a move on grid takes each sub-cell to the same tetrahedron moved by as much
        moved = [tuple(a + b for a, b in zip(c, shift)) for c in inner]
        along = tuple(k * GRIDS[name][3] / block for k in reversed(shift))
        same = all(m in present and corners(m) == {tuple(p + q for p, q in zip(point, along)) for point in corners(c)}
                   for c, m in zip(inner, moved))
        assert same == lattice.is_translation(shift), shift
    # BurrTools' onGrid: whole blocks (rhombic); whole blocks adding up to an even number (tetra-octa)
    allowed = {s for s in product(range(-6, 7), repeat=3) if lattice.is_translation(s)}
    if name == "rhombic":
        assert allowed == {s for s in product(range(-6, 7), repeat=3) if all(k % 5 == 0 for k in s)}
    else:
        assert allowed == {s for s in product(range(-6, 7), repeat=3) if all(k % 3 == 0 for k in s) and sum(s) % 6 == 0}
    # one origin per class of sub-cells under those moves; normal forms agree exactly on translates
    assert len(lattice.origins) == (24 if name == "rhombic" else 10)
    shape = sorted(cells)[:7]
    for s in sorted(allowed)[:40]:
        assert lattice.normalize([tuple(a + b for a, b in zip(c, s)) for c in shape]) == lattice.normalize(shape)
    off = (0, 0, block) if name == "tetra-octa" else (0, 0, 1)
    assert lattice.normalize([tuple(a + b for a, b in zip(c, off)) for c in shape]) != lattice.normalize(shape)


def test_whole_solids_are_made_of_sub_cells():
    dodecahedron = RHOMBIC.dodecahedron((0, 0, 0))
    assert len(dodecahedron) == 48 and RHOMBIC.is_connected(dodecahedron)
    assert all(set(g.apply(dodecahedron)) == set(dodecahedron) for g in RHOMBIC.group())
    # the rhombic dodecahedra about blocks whose coordinates add up to an even number tile space
    tiles = [set(RHOMBIC.dodecahedron(b)) for b in product(range(-1, 3), repeat=3) if sum(b) % 2 == 0]
    inside = set(sample(RHOMBIC, 0, 10))
    covered = [c for t in tiles for c in t if c in inside]
    assert len(covered) == len(set(covered)) == len(inside)
    octahedron = TETRA_OCTA.octahedron((1, 0, 0))
    assert len(octahedron) == 8 and TETRA_OCTA.is_connected(octahedron)
    assert len({p for c in octahedron for p in tetra_octa_tetrahedron(c)}) == 7  # its 6 corners and centre
    with pytest.raises(ValueError):
        TETRA_OCTA.octahedron((1, 1, 0))


@pytest.mark.parametrize("name", sorted(GRIDS))
def test_sub_cell_polyforms_counted_by_the_enumerator_and_by_plain_growth(name):
    lattice = GRIDS[name][0]

    def grown(n):
        shapes = {lattice.normalize([o]) for o in lattice.origins}
        for _ in range(n - 1):
            shapes = {lattice.normalize(s + (m,)) for s in shapes for c in s for m in lattice.neighbours(c) if m not in s}
        return shapes
    for n in range(1, 4):
        assert set(polyforms.fixed(n, name)) == grown(n)
    assert [len(polyforms.free(n, name)) for n in range(1, 4)] == ([1, 3, 4] if name == "rhombic" else [2, 2, 3])


def test_polyrhombic_sets_against_plain_growth_of_centres():
    """Rhombic dodecahedra grown centre by centre on the face-centred cubic lattice, classes
    under the 24 rotation matrices: the fixed counts are the lattice's site animals in the
    literature (1, 6, 50, 475), the classes the sets' pieces."""
    from polyfit.puzzle.fine_sets import RHOMBIC_SETS, polyrhombics

    steps = [s for s in product((-1, 0, 1), repeat=3) if sorted(map(abs, s)) == [0, 1, 1]]
    assert len(steps) == 12

    def det(m):
        return (m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
                + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]))
    every = [[[signs[i] if j == perm[i] else 0 for j in range(3)] for i in range(3)]
             for perm in permutations(range(3)) for signs in product((-1, 1), repeat=3)]
    matrices = [m for m in every if det(m) == 1]
    assert len(matrices) == 24

    def fixed_form(points):
        least = min(points)
        return tuple(sorted(tuple(a - b for a, b in zip(p, least)) for p in points))
    shapes = {((0, 0, 0),)}
    fixed_counts, free_counts = [1], [1]
    for n in range(2, 5):
        shapes = {fixed_form(s + (tuple(a + b for a, b in zip(p, d)),)) for s in shapes for p in s for d in steps
                  if tuple(a + b for a, b in zip(p, d)) not in s}
        fixed_counts.append(len(shapes))
        def classes_under(group):
            return {min(fixed_form([tuple(sum(m[i][j] * p[j] for j in range(3)) for i in range(3)) for p in s]) for m in group)
                    for s in shapes}
        classes = classes_under(matrices)
        free_counts.append(len(classes_under(every)))
        name = next(k for k, (size, _) in RHOMBIC_SETS.items() if size == n)
        pieces = polyrhombics(n)
        assert len(pieces) == len(classes) == RHOMBIC_SETS[name][1]
        assert all(p.size == 48 * n and RHOMBIC.is_connected(p.cells) and not p.mirror for p in pieces)
        assert len({RHOMBIC.canonical(p.cells, mirror=False) for p in pieces}) == len(pieces)
    assert fixed_counts == [1, 6, 50, 475]
    assert free_counts[:3] == [1, 1, 4]  # the two bent chains of three are one free shape
    assert len(polyrhombics(1)) == 1 and polyrhombics(1)[0].cells == RHOMBIC.normalize(RHOMBIC.dodecahedron((0, 0, 0)))


# -- BurrTools' files ----------------------------------------------------------------------------


SOLVED = ["rd-octahedral-six-solved-by-burrtools.xmpuzzle", "to-octahedron-solved-by-burrtools.xmpuzzle"]


@pytest.mark.parametrize("name", SOLVED)
def test_assemblies_burrtools_wrote_are_tilings_by_the_pieces_and_written_back_as_its_strings(name):
    path = DATA / name
    board = polyfit.read_board(path)
    lattice = board.lattice
    shapes = {p.name: p.orientations() for p in board.pieces}
    found = burrtools.read_assemblies(path)
    assert len(found) == (2 if name.startswith("rd-") else 10)  # burrTxt2 keeps 10 of the 16
    for solution in found:
        assert sorted(c for cells in solution.values() for c in cells) == sorted(board.cells)
        for label, cells in solution.items():
            assert lattice.normalize(cells) in shapes[label.split("#")[0]]
    theirs = re.findall(r"<assembly>([^<]*)", path.read_text())
    ours = re.findall(r"<assembly>([^<]*)", burrtools.xmpuzzle_text(board, board.pieces, found))
    assert [a.split() for a in ours] == [a.split() for a in theirs]


@pytest.mark.parametrize("name", ["rd-two-by-halves.xmpuzzle", "to-cube-threes.xmpuzzle"])
def test_written_files_read_back_with_their_solutions(name, tmp_path):
    board = polyfit.read_board(DATA / name)
    solutions = [s.placements for s in polyfit.Puzzle(board).solutions(limit=4)]
    assert len(solutions) == 4
    assert_written_back(board, solutions, tmp_path, 3 if name.startswith("rd-") else 4, RECORDED[name], ordered=False)


def test_a_voxel_that_is_no_sub_cell_is_refused(tmp_path):
    text = (DATA / "to-tetrahedron.xmpuzzle").read_text()
    shape = re.search(r'<voxel x="2" y="2" z="2"[^>]*>([_#]{8})</voxel>', text)
    bad = text.replace(shape.group(0), shape.group(0).replace(shape.group(1), "#" + shape.group(1)[1:]))
    path = tmp_path / "bad.xmpuzzle"
    path.write_text(bad)
    with pytest.raises(ParseError, match=r"voxel x=0 y=0 z=0 is not a sub-cell of BurrTools' tetra-octa grid"):
        polyfit.read_board(path)


def test_no_assembly_gets_a_verdict_with_its_reason(app):
    result = run(app, "solve", DATA / "to-box-pairs.xmpuzzle")
    assert result.exit_code == 0 and "Traceback" not in result.output
    assert "0 distinct solutions" in result.output
    assert "every placement of piece P weighs 0, so the pieces weigh 0 in all, but the board weighs 1" in result.output


def test_a_picture_draws_the_layers(app, tmp_path):
    from PIL import Image

    target = tmp_path / "six.png"
    result = run(app, "solve", DATA / "rd-octahedral-six.xmpuzzle", "--limit", "1", "--png", target)
    assert result.exit_code == 0, result.output
    image = Image.open(target).convert("RGB")
    # the pieces' colours fill the sub-cells: three pieces, so at least three colours besides
    # the white page and the black outlines
    colours = {c for _, c in image.getcolors(1 << 20)} - {(255, 255, 255), (0, 0, 0)}
    assert len(colours) >= 3
    # every sub-cell of the board is a square of its own, each layer apart from the others
    board = polyfit.read_board(DATA / "rd-octahedral-six.xmpuzzle")
    placed, plane = RHOMBIC.flat_layers({c: "#" for c in board.cells})
    assert len(placed) == len(board.cells) == 288
    assert len({c[0] for c in board.cells}) == 17  # layers of voxels
    squares = [plane.polygon(cell) for cell in placed]
    assert all(abs(p[2][0] - p[0][0] - 0.76) < 1e-9 for p in squares)  # smaller than their places: apart
