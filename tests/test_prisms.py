"""Triangular prisms: the lattice's group, BurrTools' grid type 1 and its counts, text art, pictures."""

from __future__ import annotations

import json
import math
from itertools import product
from pathlib import Path

import pytest

import polyfit
from polyfit.errors import ParseError
from polyfit.formats import burrtools
from polyfit.lattices import polyforms
from polyfit.lattices.base import get
from polyfit.lattices.textart import draw_cells
from polyfit.puzzle.board import Board
from polyfit.puzzle.pieces import Piece
from helpers import assert_written_back, run

DATA = Path(__file__).parent / "data" / "burrtools" / "prisms"
RECORDED = json.loads((DATA / "counts.json").read_text())["counts"]
PRISMS = get("prisms")
H = math.sqrt(3) / 2


def centre(cell):
    """The prism's centre in space (x right, y up, z up the layers), by its own rule: the
    triangle (r, c) has its corners at half-units along rows of height sqrt(3)/2, rows going
    down; the centroid is a third of the way from its horizontal side."""
    z, r, c = cell
    up = (r + c) % 2 == 0
    y = -(r * H + (2 * H / 3 if up else H / 3))
    return (c / 2 + 0.5, y, z + 0.5)


def determinant(m):
    return (m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
            + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]))


SAMPLE = [(z, r, c) for z, r, c in product(range(-2, 3), range(-2, 3), range(-3, 4))]


def test_the_group_has_24_symmetries_12_rotations_and_is_closed():
    group = PRISMS.group()
    assert len(group) == 24 and len(set(group)) == 24
    assert group[0].is_identity
    assert sum(g.is_proper for g in group) == 12 == len(PRISMS.group(mirror=False))
    images = {g: g.apply(SAMPLE) for g in group}
    for a in group:
        for b in group:
            composed = b.apply(a.apply(SAMPLE))
            assert composed == a.then(b).apply(SAMPLE)
            assert any(composed == images[g] for g in group)  # closed


def test_each_symmetry_keeps_neighbours_and_distances_and_is_proper_when_it_keeps_handedness():
    for g in PRISMS.group():
        for cell in SAMPLE:
            assert set(PRISMS.neighbours(g(cell))) == {g(n) for n in PRISMS.neighbours(cell)}
        # the map of centres is a motion of space: distances kept; its determinant says its hand
        a, b, c, d = (0, 0, 0), (0, 0, 1), (1, 0, 0), (0, 1, 1)
        pa, pb, pc, pd = (centre(x) for x in (a, b, c, d))
        qa, qb, qc, qd = (centre(g(x)) for x in (a, b, c, d))
        for x, y in product(SAMPLE[:20], SAMPLE[-20:]):
            assert math.dist(centre(x), centre(y)) == pytest.approx(math.dist(centre(g(x)), centre(g(y))))
        before = [[p[i] - pa[i] for i in range(3)] for p in (pb, pc, pd)]
        after = [[q[i] - qa[i] for i in range(3)] for q in (qb, qc, qd)]
        assert (determinant(before) * determinant(after) > 0) == g.is_proper


def test_neighbours_are_the_five_prisms_sharing_a_face():
    for cell in SAMPLE:
        near = list(PRISMS.neighbours(cell))
        assert len(set(near)) == 5
        for n in near:
            assert cell in PRISMS.neighbours(n)
            # a side neighbour's centre is a third of a row's height... away: 1/sqrt(3); above or below: 1
            assert math.dist(centre(cell), centre(n)) == pytest.approx(1 / math.sqrt(3) if n[0] == cell[0] else 1)


def test_polyprisms_counted_by_the_enumerator_and_by_plain_growth():
    """Fixed polyprisms grown cell by cell into a set of normal forms (no Redelmeier) agree."""
    def grown(n):
        shapes = {PRISMS.normalize([(0, 0, 0)]), PRISMS.normalize([(0, 0, 1)])}
        for _ in range(n - 1):
            shapes = {PRISMS.normalize(s + (m,)) for s in shapes for c in s for m in PRISMS.neighbours(c) if m not in s}
        return shapes
    for n in range(1, 5):
        assert set(polyforms.fixed(n, "prisms")) == grown(n)
    assert [len(polyforms.free(n, "prisms")) for n in range(1, 5)] == [1, 2, 3, 11]


@pytest.mark.parametrize("name", ["diamonds-and-stacks-solved-by-burrtools.xmpuzzle", "tower-solved-by-burrtools.xmpuzzle"])
def test_assemblies_burrtools_wrote_are_tilings_by_the_pieces_and_distinct(name):
    """burrTxt2 -R on diamonds-and-stacks and on hand-written-tower (whose three copies of L
    take ten of the twelve transformations there, 0 to 3 and 5 to 10, half of them turning it
    upside down)."""
    path = DATA / name
    board = polyfit.read_board(path)
    shapes = {p.name: p.orientations() for p in board.pieces}
    found = burrtools.read_assemblies(path)
    assert len(found) == 10  # burrTxt2 keeps ten of its 15 (and of its 150)
    classes = set()
    for solution in found:
        assert sorted(c for cells in solution.values() for c in cells) == sorted(board.cells)
        for label, cells in solution.items():
            assert PRISMS.normalize(cells) in shapes[label.split("#")[0]]
        # one class per assembly under the board's symmetries (BurrTools keeps one of each)
        images = []
        for g in PRISMS.group():  # the board's own symmetries map its normal form onto itself
            moved = [g.apply(c) for c in solution.values()]
            shift = PRISMS.normal_shift([x for c in moved for x in c])
            images.append(tuple(sorted(tuple(sorted(tuple(a + b for a, b in zip(x, shift)) for x in c)) for c in moved)))
        classes.add(min(images))
    assert len(classes) == 10


def test_written_prism_files_read_back_with_their_solutions(tmp_path):
    source = DATA / "hand-written-tower.xmpuzzle"
    board = polyfit.read_board(source)
    solutions = [s.placements for s in polyfit.Puzzle(board).solutions(limit=5)]
    assert len(solutions) == 5
    assert_written_back(board, solutions, tmp_path, 1, RECORDED[source.name])


def test_a_prism_board_in_text_art_reads_draws_and_reads_back(tmp_path):
    text = "; lattice: prisms\n ##\n###\n\n ##\n###\n"
    board = Board.from_text(text, dim=3)
    assert board.lattice == "prisms" and len(board.cells) == 10
    assert (0, 0, 1) in board.cells and (0, 1, 0) in board.cells  # (0, 1) points down, (1, 0) down
    pieces = [Piece("D", ((0, 0, 0), (0, 0, 1)), False, (0, 5), "prisms"),
              Piece("S", ((0, 0, 0), (1, 0, 0)), False, (0, 5), "prisms")]
    assert polyfit.Puzzle(board, pieces).count().total > 0
    # drawn back from its least row and column (1, 1: an up triangle) it would read as other
    # triangles; the drawing starts a column earlier, where the art's (0, 0) points up
    cells = [(z, r + 1, c + 1) for z, r, c in board.cells]
    drawn = draw_cells({c: "#" for c in cells}, lattice=PRISMS)
    again = Board.from_text("; lattice: prisms\n" + drawn.replace("z=0\n", "").replace("z=1\n", ""), dim=3)
    assert PRISMS.normalize(again.cells) == PRISMS.normalize(cells)
    assert sum(PRISMS.parity_weight(c) for c in again.cells) == sum(PRISMS.parity_weight(c) for c in cells)


def test_other_grids_are_refused_naming_the_grid(app, tmp_path):
    path = tmp_path / "grid7.xmpuzzle"
    path.write_text('<?xml version="1.0"?>\n<puzzle version="2"><gridType type="7"/><shapes/><problems/></puzzle>\n')
    with pytest.raises(ParseError, match=r"grid type 7 \(an unknown grid\).*cubes \(0\), triangular prisms \(1\)"):
        polyfit.read_board(path)
    result = run(app, "solve", path, "--count")
    assert result.exit_code == 2 and "grid type 7" in result.output and "Traceback" not in result.output


def test_a_picture_draws_each_layer_as_triangles(tmp_path):
    from polyfit.render.pictures import solution_image
    board = polyfit.read_board(DATA / "diamonds-and-stacks.xmpuzzle")
    solution = burrtools.read_assemblies(DATA / "diamonds-and-stacks-solved-by-burrtools.xmpuzzle")[0]
    image = solution_image(board.cells, list(board.pieces), solution)
    one_layer = solution_image([c for c in board.cells if c[0] == 0], list(board.pieces),
                               {k: [c for c in v if c[0] == 0] for k, v in solution.items() if any(c[0] == 0 for c in v)})
    # three layers side by side, each as wide as the one layer alone (and a gap between)
    assert image.height == one_layer.height and image.width > 2.5 * one_layer.width


def test_the_polyprism_sets_are_the_enumerators_shapes_under_rotation():
    from polyfit.puzzle.lattice_sets import PRISM_SETS as SETS, polyprisms
    for name, (n, count) in SETS.items():
        pieces = polyprisms(n)
        assert len(pieces) == count == len(polyforms.one_sided(n, "prisms"))
        assert not any(p.mirror for p in pieces) and all(p.size == n for p in pieces)
        assert len({PRISMS.canonical(p.cells, mirror=False) for p in pieces}) == count
    assert [p.name for p in polyprisms(4)] == list("ABCDEFGHIJKLM")


def test_a_board_names_a_polyprism_set(tmp_path):
    # three layers of a 2 x 6 parallelogram, filled by the triprisms four times each: the
    # parallelogram-triprisms file's puzzle, drawn as voxel text (BurrTools: 996 assemblies)
    layer = "######\n.######\n"
    path = tmp_path / "par.vox"
    path.write_text("; lattice: prisms\n; pieces: 4*triprisms\n" + "\n".join([layer] * 3))
    assert polyfit.Puzzle(polyfit.read_board(path)).count().distinct == RECORDED["parallelogram-triprisms.xmpuzzle"]


@pytest.mark.parametrize("name", ["diamonds-and-stacks-solved-by-burrtools.xmpuzzle", "tower-solved-by-burrtools.xmpuzzle"])
def test_assemblies_written_again_are_burrtools_own_strings(name):
    """Read as tilings and written back, each assembly is the very string burrTxt2 wrote:
    the same transformation numbers, positions and order of copies."""
    import gzip
    import re
    path = DATA / name
    raw = path.read_bytes()
    theirs = re.findall(r"<assembly>([^<]*)", (gzip.decompress(raw) if raw[:2] == b"\x1f\x8b" else raw).decode())
    board = polyfit.read_board(path)
    ours = re.findall(r"<assembly>([^<]*)", burrtools.xmpuzzle_text(board, board.pieces, burrtools.read_assemblies(path)))
    assert len(ours) == len(theirs) == 10
    assert [a.split() for a in ours] == [a.split() for a in theirs]
