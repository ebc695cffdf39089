"""BurrTools .xmpuzzle files: hand-written puzzles count as the literature (and BurrTools) says,
BurrTools' own assemblies decode into tilings, written files read back the same, and bad
files are one clear error each."""

from __future__ import annotations

import gzip
import re

import pytest

import polyfit
from helpers import ROOT, run
from polyfit.errors import ParseError, PolyfitError
from polyfit.formats import burrtools
from polyfit.lattices.grid import normalize

BURR = ROOT / "shapes" / "burrtools"
DATA = ROOT / "tests" / "data" / "burrtools"


def test_the_hand_written_soma_cube_counts_240_and_its_castle_3():
    cube = polyfit.load(BURR / "soma.xmpuzzle")
    assert cube.board.dim == 3 and len(cube.board.cells) == 27
    assert [p.name for p in cube.pieces] == list("VLTZABP")
    counts = cube.count()
    assert (counts.distinct, counts.distinct_rotations, counts.total) == (240, 480, 11520)
    castle = polyfit.load(BURR / "soma.xmpuzzle", select="Castle")
    assert castle.count().distinct == 3  # BurrTools' burrTxt2 finds 3 assemblies too
    assert polyfit.load(BURR / "soma.xmpuzzle", select="2").board.name == "Castle"


def test_flat_pentominoes_are_a_2d_board_and_count_2339():
    puzzle = polyfit.load(BURR / "pentominoes-6x10.xmpuzzle")
    assert puzzle.board.dim == 2 and len(puzzle.board.cells) == 60
    assert all(p.mirror for p in puzzle.pieces)  # a flat piece turned in space is mirrored
    text = polyfit.load(ROOT / "shapes" / "pentomino" / "6x10.txt")
    assert {p.name: set(p.orientations()) for p in puzzle.pieces} == {p.name: set(p.orientations()) for p in text.pieces}
    assert puzzle.count().distinct == 2339


def test_variable_voxels_and_min_max_pieces_count_as_the_same_board_in_text_art():
    burr = polyfit.load(DATA / "optional.xmpuzzle")
    text = polyfit.load(DATA / "optional.txt")
    assert burr.board.cells == text.board.cells and burr.board.optional == text.board.optional
    assert len(burr.board.optional) == 4
    assert [p.count for p in burr.pieces] == [(0, 2)] * 5
    a, b = burr.count(), text.count()
    assert (a.distinct, a.total) == (b.distinct, b.total) == (312, 2496)  # burrTxt2: 312


def test_colour_rules_restrict_where_pieces_go_and_count_as_burrtools_counts(tmp_path):
    """Counts from burrTxt2 0.7.1 on the same files: 262 and 203."""
    flat = polyfit.load(DATA / "coloured.xmpuzzle")
    assert list(flat.board.allowed) == ["X"]  # the only coloured piece
    assert len(flat.board.allowed["X"]) == 2  # its centre on one of the two cells of colour 2
    counts = flat.count()
    assert (counts.distinct, counts.total, len(flat.symmetries)) == (262, 524, 2)
    cube = polyfit.load(DATA / "coloured-soma.xmpuzzle")
    assert len(cube.board.allowed["P"]) == 8  # its corner in one of the cube's corners
    counts = cube.count()
    assert (counts.distinct, counts.distinct_rotations, counts.total) == (203, 406, 9744)
    uncoloured = polyfit.load(BURR / "soma.xmpuzzle")  # V has colour 1, the cube none: no rule
    assert uncoloured.board.allowed == {}
    written = burrtools.xmpuzzle_text(cube.board, cube.pieces)  # the colours and the rule go with it
    assert "<pair " in written and re.search(r">[#_0-9]*#2", written)
    again = tmp_path / "again.xmpuzzle"
    again.write_text(written)
    back = polyfit.load(again)
    assert back.board.colours == cube.board.colours and back.count().distinct == 203


def test_gzip_and_plain_xml_read_the_same(tmp_path):
    packed = tmp_path / "soma.xmpuzzle"
    packed.write_bytes(gzip.compress((BURR / "soma.xmpuzzle").read_bytes()))
    for select in ("1", "2"):
        a = polyfit.read_board(packed, select=select)
        b = polyfit.read_board(BURR / "soma.xmpuzzle", select=select)
        assert (a.cells, a.name, a.optional, a.pieces) == (b.cells, b.name, b.optional, b.pieces)
    assert len(polyfit.read_boards(packed)) == 2


def test_the_rotation_table_has_24_rotations_then_their_mirror_images():
    def det(m):
        return (m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
                + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]))

    rotations = burrtools.ROTATIONS
    assert len(set(rotations)) == 48
    assert [det(m) for m in rotations] == [1] * 24 + [-1] * 24
    assert rotations[0] == ((1, 0, 0), (0, 1, 0), (0, 0, 1))
    assert rotations[1] == ((1, 0, 0), (0, 0, -1), (0, 1, 0))  # a quarter turn about x: y to z
    assert rotations[24] == ((-1, 0, 0), (0, 1, 0), (0, 0, 1))


def test_assemblies_burrtools_wrote_decode_into_tilings_of_the_cube():
    """The file is burrTxt2's output for shapes/burrtools/soma.xmpuzzle (it keeps the last ten
    of its 240 assemblies): read with BurrTools' numbering of the transformations, each is
    the seven pieces, in their shapes, tiling the cube, and no two are congruent."""
    path = DATA / "soma-solved-by-burrtools.xmpuzzle"
    solutions = burrtools.read_assemblies(path)
    assert len(solutions) == 10
    puzzle = polyfit.load(path)
    shapes = {p.name: set(p.orientations()) for p in puzzle.pieces}
    classes = set()
    for solution in solutions:
        assert sorted(c for cells in solution.values() for c in cells) == sorted(puzzle.board.cells)
        assert all(normalize(cells) in shapes[name] for name, cells in solution.items())
        placements = tuple(sorted(puzzle.placements.index(next(p for p in puzzle.placements if p.cells == cells and puzzle.pieces[p.piece].name == name)) for name, cells in solution.items()))
        images = set()
        for symmetry in puzzle.symmetries:
            images.add(frozenset((symmetry.piece_map[puzzle.placements[i].piece], tuple(sorted(symmetry(c) for c in puzzle.placements[i].cells))) for i in placements))
        classes.add(min(tuple(sorted(image)) for image in images))
    assert len(classes) == 10


@pytest.mark.parametrize("source", ["soma.xmpuzzle", "pentominoes-6x10.xmpuzzle", "optional"])
def test_written_files_read_back_with_the_same_pieces_counts_and_solutions(tmp_path, source):
    puzzle = polyfit.load(DATA / "optional.xmpuzzle") if source == "optional" else polyfit.load(BURR / source)
    solutions = [s.placements for s in puzzle.solutions(limit=6)]
    out = tmp_path / "out.xmpuzzle"
    out.write_bytes(burrtools.xmpuzzle_bytes(puzzle.board, puzzle.pieces, solutions))
    again = polyfit.load(out)
    assert again.board.cells == puzzle.board.cells and again.board.optional == puzzle.board.optional
    assert [(p.name, p.count, set(p.orientations())) for p in again.pieces] == [
        (p.name, p.count, set(p.orientations())) for p in puzzle.pieces]
    assert again.count().distinct == puzzle.count().distinct
    read = burrtools.read_assemblies(out)
    def pieces_and_cells(solution):  # copies of a piece are numbered in no fixed order
        return sorted((label.split("#")[0], tuple(sorted(cells))) for label, cells in solution.items())

    assert [pieces_and_cells(s) for s in read] == [pieces_and_cells(s) for s in solutions]


def test_list_and_problem_on_the_command_line(app):
    result = run(app, "solve", BURR / "soma.xmpuzzle", "--list")
    assert result.exit_code == 0
    assert "1  Soma cube: 3D, 27 cells; pieces: V, L, T, Z, A, B, P" in result.output
    assert "2  Castle: 3D, 27 cells" in result.output
    result = run(app, "solve", BURR / "soma.xmpuzzle", "--problem", "Castle", "--count")
    assert result.output.startswith("Castle: 3 distinct solutions (6 up to rotation alone), 6 in all")
    result = run(app, "solve", BURR / "soma.xmpuzzle", "--count")  # every problem, in a table
    assert "Soma cube        240        480      11520" in result.output
    result = run(app, "solve", BURR / "soma.xmpuzzle", "--problem", "Tower")
    assert result.exit_code == 2
    assert "unknown problem 'Tower'; valid problems: 1, 2, Castle, Soma cube" in result.output


GOOD = (BURR / "soma.xmpuzzle").read_text()
BAD = {
    "truncated gzip": (gzip.compress(GOOD.encode())[:200], "gzip data is truncated"),
    "XML error": (GOOD.replace("</shapes>", "</shape>", 1).encode(), "not well-formed XML: mismatched tag"),
    "unknown grid type": (GOOD.replace('type="0"/>', 'type="7"/>', 1).encode(), "grid type 7 (an unknown grid): polyfit reads BurrTools' grids of cubes (0), triangular prisms (1)"),
    "voxel string of the wrong length": (GOOD.replace(">####__</voxel>", ">####_</voxel>").encode(), "shape 1: its voxel string has 5 voxels, but x*y*z = 3*2*1 = 6"),
    "unknown shape id": (GOOD.replace('<shape id="6" count="1"/>', '<shape id="16" count="1"/>').encode(), "problem 1 uses shape 16, but the file has shapes 0 to 8"),
    "entities": (b'<?xml version="1.0"?>\n<!DOCTYPE lol [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;">]>\n<puzzle version="2">&b;</puzzle>', "a DOCTYPE or entity declaration"),
    "not a puzzle": (b'<?xml version="1.0"?>\n<svg></svg>', "not a BurrTools puzzle"),
    "no result": (GOOD.replace('<result id="7"/>', "").encode(), "problem 1 has no <result id=...>"),
    "bad character": (GOOD.replace(">####__</voxel>", ">###x__</voxel>").encode(), "unexpected 'x' in its voxels"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_files_are_one_clear_error(app, tmp_path, case):
    data, message = BAD[case]
    path = tmp_path / "bad.xmpuzzle"
    path.write_bytes(data)
    result = run(app, "solve", path, "--count")
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"polyfit: error: {path}:"), result.output
    assert message in lines[0]


def test_decompression_stops_at_the_file_size_limit(tmp_path, monkeypatch):
    path = tmp_path / "bomb.xmpuzzle"
    path.write_bytes(gzip.compress(b"<?xml version='1.0'?><puzzle version='2'>" + b" " * 2_000_000 + b"</puzzle>"))
    assert path.stat().st_size < 10_000
    monkeypatch.setenv("POLYFIT_MAX_FILE_BYTES", "100000")
    with pytest.raises(PolyfitError, match="over polyfit's limit of 100,000 on the size of a file"):
        polyfit.read_board(path)


def _box_puzzle(side: int) -> bytes:
    """A gzipped .xmpuzzle whose result is a filled side^3 box: kilobytes for millions of voxels."""
    return gzip.compress(
        f'<?xml version="1.0"?><puzzle version="2"><gridType type="0"/><colors/><shapes>'
        f'<voxel x="2" y="1" z="1" type="0">##</voxel>'
        f'<voxel x="{side}" y="{side}" z="{side}" type="0">{"#" * side**3}</voxel></shapes>'
        f'<problems><problem><shapes><shape id="0" count="1"/></shapes><result id="1"/></problem>'
        f"</problems></puzzle>".encode(), 9)


def test_a_huge_declared_box_is_refused_before_its_voxels_are_built(tmp_path):
    """A 9.9 KB file declaring 215^3 filled voxels took minutes and 3 GB (1.93 GB in the
    audit) before its error: the limit on cells is checked on the voxel string."""
    import tracemalloc

    path = tmp_path / "box.xmpuzzle"
    path.write_bytes(_box_puzzle(215))
    assert path.stat().st_size < 10_000
    tracemalloc.start()
    try:
        with pytest.raises(PolyfitError, match=r"box.xmpuzzle:1:\d+: shape 1: 9,938,375 cells, over polyfit's limit of 1,000,000 on the cells"):
            polyfit.read_board(path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 200 * 2**20, peak  # copies of the 10 MB text (70 MB seen), not a voxel each (gigabytes)


def test_writing_refuses_what_burrtools_would_solve_differently():
    board = polyfit.Board.from_text("###\n#A#\n#AA\n", 2)
    with pytest.raises(PolyfitError, match="pre-placed pieces"):
        burrtools.xmpuzzle_text(board, polyfit.pieces("trominoes"))
    cube = polyfit.read_board(BURR / "soma.xmpuzzle")
    mirrored = [polyfit.Piece(p.name, p.cells, True) for p in cube.pieces]
    with pytest.raises(PolyfitError, match="piece A may be turned over"):
        burrtools.xmpuzzle_text(cube, mirrored)
    one_sided = polyfit.pieces("one-sided-tetrominoes")
    with pytest.raises(PolyfitError, match="BurrTools turns flat pieces over"):
        burrtools.xmpuzzle_text(polyfit.Board.from_text("####\n" * 7, 2), one_sided)


def test_a_parse_error_points_into_the_file():
    with pytest.raises(ParseError) as caught:
        burrtools.parse_puzzle(GOOD.replace(">####__</voxel>", ">####_</voxel>").encode(), "x.xmpuzzle")
    assert (caught.value.line, caught.value.column) == (GOOD.splitlines().index(next(
        line for line in GOOD.splitlines() if ">####__</voxel>" in line)) + 1, 5)
