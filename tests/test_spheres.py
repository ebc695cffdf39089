"""Spheres (face-centred cubic packing): the lattice's group and turns, BurrTools' grid type 2 and
its counts, text art, pictures, a puzzle with no assembly."""

from __future__ import annotations

import dataclasses
import gzip
import json
import math
import re
from fractions import Fraction
from itertools import permutations, product
from pathlib import Path

import pytest

import polyfit
from polyfit.errors import ParseError, PolyfitError
from polyfit.formats import burrtools, burrtools_spheres
from polyfit.lattices import polyforms
from polyfit.lattices.base import get
from polyfit.puzzle.board import Board
from polyfit.puzzle.lattice_sets import SPHERE_SETS, polyspheres
from helpers import BURRTXT2, assert_written_back, burrtxt2, run

DATA = Path(__file__).parent / "data" / "burrtools" / "spheres"
RECORDED = json.loads((DATA / "counts.json").read_text())["counts"]
SPHERES = get("spheres")
SAMPLE = [c for c in product(range(-2, 3), repeat=3) if sum(c) % 2 == 0]
BURRTOOLS_TABLE = BURRTXT2.parent / "src" / "lib" / "tabs_2" / "rotmatrix.inc"


def determinant(m):
    return (m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
            + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]))


def text_of(path):
    raw = path.read_bytes()
    return (gzip.decompress(raw) if raw[:2] == b"\x1f\x8b" else raw).decode()


def test_the_group_has_48_symmetries_24_rotations_and_is_closed():
    group = SPHERES.group()
    assert len(set(group)) == 48 and sum(g.is_identity for g in group) == 1
    assert sum(g.is_proper for g in group) == 24 == len(SPHERES.group(mirror=False))
    images = {g.apply(SAMPLE): g for g in group}
    for a in group:
        for b in group:
            composed = b.apply(a.apply(SAMPLE))
            assert composed == a.then(b).apply(SAMPLE) and composed in images  # closed


def test_each_symmetry_keeps_spheres_neighbours_and_distances_and_is_proper_when_it_keeps_handedness():
    basis = [(1, 1, 0), (1, 0, 1), (0, 1, 1)]  # three neighbours of the origin: a right-handed frame
    for g in SPHERES.group():
        for cell in SAMPLE:
            assert SPHERES.is_cell(g(cell))
            assert set(SPHERES.neighbours(g(cell))) == {g(n) for n in SPHERES.neighbours(cell)}
        for x, y in product(SAMPLE[:15], SAMPLE[-15:]):
            assert math.dist(x, y) == pytest.approx(math.dist(g(x), g(y)))
        assert (determinant([g(v) for v in basis]) * determinant(basis) > 0) == g.is_proper


def test_neighbours_are_the_twelve_touching_spheres():
    for cell in SAMPLE:
        near = set(SPHERES.neighbours(cell))
        assert len(near) == 12 and all(SPHERES.is_cell(n) and cell in SPHERES.neighbours(n) for n in near)
        # spheres of diameter sqrt(2) at the cells: exactly these touch it
        touching = {(cell[0] + a, cell[1] + b, cell[2] + c) for a, b, c in product(range(-2, 3), repeat=3)
                    if (a + b + c) % 2 == 0 and a * a + b * b + c * c == 2}
        assert near == touching


def rational_rotations():
    """Every rotation matrix whose entries are thirds, times 3: rows are integer vectors of
    length 3, pairwise orthogonal, determinant 1 (27). Built by brute force from the rows."""
    rows = {v for v in product(range(-3, 4), repeat=3) if sum(a * a for a in v) == 9}
    found = []
    for r0, r1 in permutations(rows, 2):
        if sum(a * b for a, b in zip(r0, r1)):
            continue
        r2 = (r0[1] * r1[2] - r0[2] * r1[1], r0[2] * r1[0] - r0[0] * r1[2], r0[0] * r1[1] - r0[1] * r1[0])
        if any(a % 3 for a in r2):
            continue
        found.append((r0, r1, tuple(a // 3 for a in r2)))
    return found  # three times each matrix: integers


def turned_by_brute_force(cells, rotations):
    """The shapes a rigid body of spheres takes on the packing: each rotation that puts every
    sphere on a sphere (relative to the first), normalized by least coordinates keeping parity."""
    shapes = set()
    first = cells[0]
    for m in rotations:
        moved = []
        for c in cells:
            v = [a - b for a, b in zip(c, first)]
            w = [sum(m[i][k] * v[k] for k in range(3)) for i in range(3)]
            if any(x % 3 for x in w) or sum(w) % 6:
                break
            moved.append(tuple(x // 3 for x in w))
        else:
            low = [min(c[i] for c in moved) for i in range(3)]
            low[2] -= sum(low) % 2
            shapes.add(tuple(sorted(tuple(a - b for a, b in zip(c, low)) for c in moved)))
    return shapes


def test_pieces_turn_as_rigid_bodies_the_120_turns_burrtools_has():
    rotations = rational_rotations()
    assert len(rotations) == 120  # BurrTools' sphere grid has 120 transformations
    flat = 0
    for n in (2, 3, 4):
        for shape in polyforms.fixed(n, "spheres"):
            assert set(SPHERES.orientations(shape, mirror=False)) == turned_by_brute_force(shape, rotations)
            flat += len(SPHERES.orientations(shape, False)) > len({SPHERES.normalize(g.apply(shape)) for g in SPHERES.group(False)})
    assert flat > 0  # some shapes (flat in a plane of closest packing) take more than the cube's 24 turns


@pytest.mark.skipif(not BURRTOOLS_TABLE.exists(), reason="BurrTools' sources are not unpacked here")
def test_the_turns_are_burrtools_table_and_its_first_24_are_numbered_as_it_numbers_them():
    table = []
    for row in re.findall(r"\{([^}]*)\}", BURRTOOLS_TABLE.read_text())[:120]:
        numbers = [Fraction(*map(int, v.replace(".0", "").split("/"))) if "/" in v else Fraction(int(v)) for v in row.split(",")]
        table.append(tuple(tuple(numbers[3 * i:3 * i + 3]) for i in range(3)))
    # BurrTools' matrices act on (x, y, z); ours (rows of thirds) on (z, y, x): reverse both ways
    ours = {tuple(tuple(Fraction(m[2 - i][2 - j], 3) for j in range(3)) for i in range(3)) for m in rational_rotations()}
    assert set(table) == ours
    assert [tuple(tuple(Fraction(v) for v in r) for r in m) for m in burrtools_spheres.BURRTOOLS_ROTATIONS] == table[:24]
    assert [tuple(tuple(Fraction(v, 3) for v in r) for r in m) for m in burrtools_spheres.TURNS] == table  # 0 to 119


def test_polyspheres_counted_by_the_enumerator_and_by_plain_growth():
    """Fixed polyspheres grown sphere by sphere into a set of normal forms (no Redelmeier)."""
    def grown(n):
        shapes = {((0, 0, 0),)}
        steps = [s for s in product((-1, 0, 1), repeat=3) if sum(map(abs, s)) == 2]
        for _ in range(n - 1):
            shapes = {normal(s + (tuple(a + b for a, b in zip(c, d)),)) for s in shapes for c in s for d in steps
                      if tuple(a + b for a, b in zip(c, d)) not in s}
        return shapes

    def normal(cells):
        low = [min(c[i] for c in cells) for i in range(3)]
        low[2] -= sum(low) % 2
        return tuple(sorted(tuple(a - b for a, b in zip(c, low)) for c in cells))

    for n in range(1, 5):
        assert set(polyforms.fixed(n, "spheres")) == grown(n)
    assert [len(polyforms.fixed(n, "spheres")) for n in range(1, 5)] == [1, 6, 50, 475]
    assert [len(polyforms.one_sided(n, "spheres")) for n in range(1, 5)] == [1, 1, 4, 25]


def test_the_polysphere_sets_are_the_enumerators_shapes_under_turns():
    for name, (n, count) in SPHERE_SETS.items():
        pieces = polyspheres(n)
        assert len(pieces) == count == len(polyforms.one_sided(n, "spheres"))
        assert not any(p.mirror for p in pieces) and all(p.size == n and p.lattice == "spheres" for p in pieces)
        assert len({SPHERES.canonical(p.cells, mirror=False) for p in pieces}) == count


def test_flat_pieces_turned_in_their_plane_change_the_counts(monkeypatch):
    """With only the cube's rotations (no turn by 60 degrees of flat pieces) the tetrahedron
    and the pyramid would count otherwise than BurrTools does."""
    def cube_turns_only(self, cells, mirror=True):
        return tuple(sorted({self.normalize(g.apply(cells)) for g in self.group(mirror)}))
    from polyfit.puzzle import pieces
    monkeypatch.setattr(type(SPHERES), "orientations", cube_turns_only)
    pieces._orientations.cache_clear()  # worked out afresh, and again after the test
    try:
        for name in ("tetrahedron-tetraspheres.xmpuzzle", "pyramid-trispheres-tetraspheres.xmpuzzle"):
            assert polyfit.Puzzle(polyfit.read_board(DATA / name)).count().distinct != RECORDED[name]
    finally:
        pieces._orientations.cache_clear()


SOLVED = sorted(p.name for p in DATA.glob("*-solved-by-burrtools.xmpuzzle"))


@pytest.mark.parametrize("name", SOLVED)
def test_assemblies_burrtools_wrote_are_tilings_by_the_pieces_and_distinct(name):
    path = DATA / name
    board = polyfit.read_board(path)
    shapes = {p.name: p.orientations() for p in board.pieces}
    found = burrtools.read_assemblies(path)
    assert len(found) == len(re.findall("<assembly>", text_of(path))) > 0
    classes = set()
    for solution in found:
        assert sorted(c for cells in solution.values() for c in cells) == sorted(board.cells)
        for label, cells in solution.items():
            assert SPHERES.normalize(cells) in shapes[label.split("#")[0]]
        classes.add(assembly_class(solution))
    assert len(classes) == len(found)


def assembly_class(solution):
    """One tiling of each class of an assembly under the packing's symmetries."""
    images = []
    for g in SPHERES.group():
        moved = [g.apply(c) for c in solution.values()]
        shift = SPHERES.normal_shift([x for c in moved for x in c])
        images.append(tuple(sorted(tuple(sorted(tuple(a + b for a, b in zip(x, shift)) for x in c)) for c in moved)))
    return min(images)


def transformations(text):
    """The transformation numbers of the assemblies in an .xmpuzzle's text."""
    numbers = []
    for assembly in re.findall(r"<assembly>([^<]*)", text):
        tokens = assembly.split()
        k = 0
        while k < len(tokens):
            if tokens[k] == "x":
                k += 1
                continue
            numbers.append(int(tokens[k + 3]))
            k += 4
    return numbers


def test_some_burrtools_assemblies_turn_flat_pieces_by_numbers_24_to_119():
    numbers = {t for name in SOLVED for t in transformations(text_of(DATA / name))}
    assert any(t >= 24 for t in numbers) and max(numbers) < 120


@pytest.mark.parametrize("name", SOLVED)
def test_assemblies_written_again_are_burrtools_own_strings(name):
    """Flat pieces turned in their plane too (transformations 24 to 119): polyfit numbers them
    as BurrTools does."""
    path = DATA / name
    theirs = re.findall(r"<assembly>([^<]*)", text_of(path))
    board = polyfit.read_board(path)
    ours = re.findall(r"<assembly>([^<]*)", burrtools.xmpuzzle_text(board, board.pieces, burrtools.read_assemblies(path)))
    assert [a.split() for a in ours] == [a.split() for a in theirs]


def test_an_assembly_turning_a_piece_that_is_not_flat_by_60_degrees_is_refused(tmp_path):
    path = DATA / "box-tetraspheres-solved-by-burrtools.xmpuzzle"
    text = text_of(path)
    first = re.search(r"<assembly>([^<]*)", text)
    tokens = first.group(1).split()
    tokens[3] = "24"  # the box's first piece is a tetrahedron, flat in no plane
    bad = tmp_path / "turned.xmpuzzle"
    bad.write_text(text[:first.start(1)] + " ".join(tokens) + text[first.end(1):])
    with pytest.raises(ParseError, match=r"turned\.xmpuzzle:\d+:\d+: transformation 24 turns shape \d+ off the sphere grid"):
        burrtools.read_assemblies(bad)


@pytest.mark.parametrize("name", ["box-tetraspheres.xmpuzzle", "pyramid-trispheres-tetraspheres.xmpuzzle"])
def test_written_sphere_files_read_back_with_their_solutions(name, tmp_path):
    source = DATA / name
    board = polyfit.read_board(source)
    solutions = [s.placements for s in polyfit.Puzzle(board).solutions(limit=40)]
    numbers = transformations(burrtools.xmpuzzle_text(board, board.pieces, solutions))
    assert max(numbers) >= 24  # some turn a flat piece in its plane
    assert_written_back(board, solutions, tmp_path, 2, RECORDED[source.name])


FLAT = sorted(RECORDED_KEPT := json.loads((DATA / "counts.json").read_text())["kept"])


@pytest.mark.parametrize("name", FLAT)
def test_flat_pieces_turned_in_their_plane_are_written_and_read_back(name, tmp_path):
    """The flat rhombi's files hold polyfit's solutions, which turn flat pieces by 60 degrees
    in their plane: they read back as the same tilings."""
    path = DATA / name
    board = polyfit.read_board(path)
    solutions = [s.placements for s in polyfit.Puzzle(board).solutions()]
    assert len(solutions) == RECORDED[name] and max(transformations(text_of(path))) >= 24
    assert_written_back(board, solutions, tmp_path, 2, RECORDED[name])


@pytest.mark.skipif(not BURRTXT2.exists(), reason="BurrTools is not built here (bash ../shared/burrtools/build.sh)")
@pytest.mark.parametrize("name", FLAT)
def test_burrtools_keeps_the_written_flat_turns_and_finds_the_same_classes(name, tmp_path):
    """burrTxt2 FILE (no -R) keeps polyfit's assemblies as written, then finds its own: as many,
    one in each class of polyfit's (read by polyfit, with BurrTools' numbers 24 to 119)."""
    path = DATA / name
    again = burrtxt2(path, tmp_path)
    written = re.findall(r"<assembly>([^<]*)", text_of(path))
    listed = re.findall(r"<assembly>([^<]*)", text_of(again))
    assert len(listed) == RECORDED_KEPT[name] == 2 * len(written) and f'assemblies="{RECORDED[name]}"' in text_of(again)
    assert [a.split() for a in listed[:len(written)]] == [a.split() for a in written]
    found = burrtools.read_assemblies(again)
    board = polyfit.read_board(path)
    assert all(sorted(c for cells in s.values() for c in cells) == sorted(board.cells) for s in found)
    ours, theirs = found[:len(written)], found[len(written):]
    assert sorted(map(assembly_class, ours)) == sorted(map(assembly_class, theirs))
    assert len(set(map(assembly_class, theirs))) == RECORDED[name]


def test_a_shape_filling_a_hole_between_spheres_is_refused(tmp_path, app):
    path = tmp_path / "hole.xmpuzzle"
    path.write_text('<?xml version="1.0"?>\n<puzzle version="2"><gridType type="2"/><shapes>\n'
                    '<voxel x="2" y="1" z="1" type="0">##</voxel>\n<voxel x="2" y="1" z="1" type="0">#_</voxel>\n'
                    '</shapes><problems><problem><shapes><shape id="1" count="1"/></shapes><result id="0"/>'
                    '</problem></problems></puzzle>\n')
    with pytest.raises(ParseError, match=r"hole\.xmpuzzle:3:1: .*voxel \(1, 0, 0\), a hole between spheres"):
        polyfit.read_board(path)
    result = run(app, "solve", path, "--count")
    assert result.exit_code == 2 and "hole between spheres" in result.output and "Traceback" not in result.output


def test_a_sphere_board_in_text_art(tmp_path, app):
    path = tmp_path / "slab.vox"
    path.write_text("; lattice: spheres\n; pieces: trispheres\n#.#.\n.#.#\n#.#.\n\n.#.#\n#.#.\n.#.#\n")
    board = polyfit.read_board(path)
    assert board.lattice == "spheres" and len(board.cells) == 12 and (1, 1, 0) in board.cells
    assert polyfit.Puzzle(board).count().total > 0
    bad = tmp_path / "bad.vox"
    bad.write_text("; lattice: spheres\n##\n")
    result = run(app, "solve", bad, "--count")
    assert result.exit_code == 2 and "bad.vox:2:2" in result.output and "z + row + column is even" in result.output


def test_a_sphere_puzzle_with_no_assembly_says_why(tmp_path, app):
    tetrahedron = next(p for p in polyspheres(4) if all(math.dist(a, b) == pytest.approx(math.sqrt(2))
                                                         for a in p.cells for b in p.cells if a != b))
    line = tuple((0, k, k) for k in range(8))
    board = Board(line, "line", {}, None, frozenset(), pieces=(dataclasses.replace(tetrahedron, count=(2, 2)),), lattice="spheres")
    path = tmp_path / "line.xmpuzzle"
    path.write_bytes(burrtools.xmpuzzle_bytes(board, board.pieces))
    result = run(app, "solve", path)
    assert result.exit_code == 0 and "Traceback" not in result.output
    assert f"piece {tetrahedron.name} fits nowhere" in result.output


def test_a_picture_draws_the_layers_side_by_side(tmp_path, app):
    path = DATA / "pyramid-trispheres-tetraspheres.xmpuzzle"
    target = tmp_path / "pyramid.png"
    result = run(app, "solve", path, "--limit", "1", "--png", target)
    assert result.exit_code == 0, result.output
    from PIL import Image

    from polyfit.render.pictures import solution_image
    image = Image.open(target)
    board = polyfit.read_board(path)
    solution = burrtools.read_assemblies(DATA / "pyramid-trispheres-tetraspheres-solved-by-burrtools.xmpuzzle")[0]
    bottom = solution_image([c for c in board.cells if c[0] == 0], list(board.pieces),
                            {k: [c for c in v if c[0] == 0] for k, v in solution.items() if any(c[0] == 0 for c in v)})
    # three layers (3 x 3, 2 x 2, 1) in a row: as tall as the bottom one, much wider
    assert image.height == bottom.height and image.width > 1.8 * bottom.width


def test_hint_pre_places_pieces_on_a_sphere_board_and_counts_it_afresh():
    from polyfit.puzzle.hint import hint
    puzzle = polyfit.load(DATA / "box-tetraspheres.xmpuzzle")
    found = hint(puzzle, puzzle.backend("auto"), None, 1)
    assert found.status == "added" and found.solutions_after == 1
    assert "; lattice: spheres" in found.text  # drawn back as the sphere board it is
