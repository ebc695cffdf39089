"""3D: the Soma cube and the figure library, voxel files, mirror counting."""

import json

import pytest
from typer.testing import CliRunner

from polyfit.formats.textart import read_voxel_text
from polyfit.formats.magicavoxel import parse_magicavoxel, write_magicavoxel
from polyfit.puzzle.piece_sets import soma
from polyfit.puzzle.pieces import Piece
from polyfit.puzzle.solve import Puzzle

from helpers import ROOT, built_in_registry

SOMA = ROOT / "shapes" / "soma"
MANIFEST = json.loads((SOMA / "manifest.json").read_text())["figures"]


def test_the_cube(backend):
    puzzle = Puzzle(read_voxel_text(SOMA / "cube.vox"), soma())
    assert puzzle.placement_stats.generated == 688
    assert len(puzzle.symmetries) == 48
    counts = puzzle.count(backend)
    assert (counts.distinct, counts.total) == (240, 11520)
    assert counts.distinct_rotations == 480  # no Soma cube solution is its own mirror image


def test_the_library_has_forty_named_figures():
    figures = sorted(SOMA.glob("*.vox"))
    assert len(figures) >= 40
    assert sorted(p.name for p in figures) == sorted(MANIFEST)
    for path in figures:
        board = read_voxel_text(path)
        assert board.name and board.area == 27 and board.metadata["pieces"] == "soma", path.name


@pytest.mark.parametrize("figure", sorted(MANIFEST))
def test_manifest_counts(figure):
    expected = MANIFEST[figure]
    counts = Puzzle(read_voxel_text(SOMA / figure), soma()).count(built_in_registry().backend("auto"))
    got = {"distinct": counts.distinct, "distinct_rotations": counts.distinct_rotations, "total": counts.total}
    assert got == {k: expected[k] for k in got}
    if "published" in expected:
        published = counts.distinct if figure == "cube.vox" else counts.distinct_rotations
        assert published == expected["published"]


def test_magicavoxel_cube_solves_like_the_text_one():
    cube = read_voxel_text(SOMA / "cube.vox")
    board = parse_magicavoxel(write_magicavoxel(cube.cells, 200), "cube.vox")
    counts = Puzzle(board, soma()).count(built_in_registry().backend("auto"))
    assert (counts.distinct, counts.total) == (240, 11520)


def test_mirror_lets_the_screws_change_hands():
    """With --mirror, A and B may each be either screw: the total is the plain total (A, B as
    given, or swapped) plus the solutions with two left screws and with two right ones."""
    backend = built_in_registry().backend("auto")
    cube = read_voxel_text(SOMA / "cube.vox")
    pieces = {p.name: p for p in soma()}
    plain = Puzzle(cube, list(pieces.values())).count(backend).total
    mirrored = Puzzle(cube, [Piece(p.name, p.cells, True) for p in pieces.values()]).count(backend).total
    same_hand = 0
    for screw in "AB":
        twins = [p for n, p in pieces.items() if n not in "AB"]
        twins += [Piece("A", pieces[screw].cells, False), Piece("B", pieces[screw].cells, False)]
        same_hand += Puzzle(cube, twins, break_symmetry=False).count(backend).total
    assert plain == 11520
    assert mirrored == 2 * plain + same_hand


def test_solve_castle_prints_layers(app):
    result = CliRunner().invoke(app, ["solve", str(SOMA / "castle.vox"), "--limit", "1"])
    assert result.exit_code == 0
    art = result.output.split("Solution 1:\n")[1]
    assert art.startswith("z=0\n") and "\nz=1\n" in art
    assert sum(art.count(letter) for letter in "VLTZABP") == 27


def test_count_json_reports_the_three_numbers(app):
    result = CliRunner().invoke(app, ["solve", str(SOMA / "cube.vox"), "--count", "--json"])
    data = json.loads(result.output)
    assert (data["distinct"], data["distinct_rotations"], data["total"]) == (240, 480, 11520)
    text = CliRunner().invoke(app, ["solve", str(SOMA / "cube.vox"), "--count"]).output
    assert "240 distinct solutions (480 up to rotation alone), 11520 in all" in text


def test_json_solutions_hold_each_piece_cells(app):
    result = CliRunner().invoke(app, ["solve", str(SOMA / "cube.vox"), "--limit", "1", "--json"])
    (solution,) = json.loads(result.output)["solutions"]
    assert sorted(solution) == sorted("VLTZABP")
    cells = [tuple(c) for cs in solution.values() for c in cs]
    assert len(cells) == 27 and set(cells) == {(z, r, c) for z in range(3) for r in range(3) for c in range(3)}


def test_binary_vox_through_the_cli(app, tmp_path):
    path = tmp_path / "cube.vox"
    path.write_bytes(write_magicavoxel(read_voxel_text(SOMA / "cube.vox").cells))
    result = CliRunner().invoke(app, ["solve", str(path), "--pieces", "soma", "--count", "--json"])
    assert json.loads(result.output)["total"] == 11520
    path.write_bytes(path.read_bytes()[:30])
    result = CliRunner().invoke(app, ["solve", str(path), "--pieces", "soma"])
    assert result.exit_code == 2 and "cube.vox:1:" in result.output


def test_3d_pieces_file_and_2d_mismatch(app, tmp_path):
    pieces = tmp_path / "bars.vox"
    pieces.write_text("aab\n\n..b\n")
    board = tmp_path / "box.vox"
    board.write_text("##\n##\n")  # one layer of four cells
    result = CliRunner().invoke(app, ["solve", str(board), "--pieces", str(pieces), "--count", "--json"])
    assert json.loads(result.output)["total"] > 0
    result = CliRunner().invoke(app, ["solve", str(board), "--pieces", "tetrominoes:O"])
    assert result.exit_code == 2 and "3D" in result.output and "2D" in result.output
