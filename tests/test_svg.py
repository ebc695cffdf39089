"""SVG pictures and laser-cut files: exact outlines, palette colours, pre-placed pieces hatched.

The SVG files are parsed as XML and their geometry read back: each piece is one path whose
region (tested cell by cell, by ray casting, independently of how polyfit builds outlines)
is exactly the piece's cells in the printed solution.
"""

from __future__ import annotations

import re
from xml.etree import ElementTree as ET

import pytest
from PIL import Image

from polyfit.render.flat import ink_on
from polyfit.render.outline import offset, outline
from polyfit.render.palette import piece_colours, shade, solution_colours
from polyfit.render.views3d import FACES

from helpers import ROOT
from helpers import run_cli as invoke

SVG = "{http://www.w3.org/2000/svg}"
BOARD = ROOT / "shapes/pentomino/6x10.txt"
SCOTT = ROOT / "shapes/pentomino/scott.txt"  # the square tetromino O pre-placed in the centre
CASTLE = ROOT / "shapes/soma/castle.vox"
P = ((0, 0), (0, 1), (1, 0), (1, 1), (2, 0))  # the P pentomino as the built-in set has it


def loops_of(d: str) -> list[list[tuple[float, float]]]:
    """The closed loops of SVG path data written as ``M x,y L x,y ... Z``."""
    loops = []
    for part in d.split("Z"):
        points = [tuple(map(float, p.split(","))) for p in re.findall(r"-?[\d.]+,-?[\d.]+", part)]
        if points:
            loops.append(points)
    return loops


def inside(point, loops) -> bool:
    """Even-odd ray casting: is ``point`` inside the region the loops bound?"""
    x, y = point
    crossings = 0
    for loop in loops:
        for (xa, ya), (xb, yb) in zip(loop, loop[1:] + loop[:1]):
            if (ya > y) != (yb > y) and x < xa + (y - ya) * (xb - xa) / (yb - ya):
                crossings += 1
    return crossings % 2 == 1


def area(loops) -> float:
    total = 0.0
    for loop in loops:
        total += sum(xa * yb - xb * ya for (xa, ya), (xb, yb) in zip(loop, loop[1:] + loop[:1])) / 2
    return total


def parse(path):
    return ET.parse(path).getroot()


def paths(root, kind):
    return [e for e in root.iter(f"{SVG}path") if e.get("class") == kind]


def hex_of(rgb) -> str:
    return "#{:02x}{:02x}{:02x}".format(*rgb)


def printed_solutions(output: str) -> list[dict]:
    """``{name: cells}`` of each solution polyfit printed as text art."""
    found = []
    for block in re.findall(r"Solution \d+:\n(.*?)\n\n", output, re.S):
        cells: dict = {}
        for r, line in enumerate(block.splitlines()):
            for c, name in enumerate(line.split() if " " in line else line):
                cells.setdefault(name, set()).add((r, c))
        found.append(cells)
    return found


# -- the geometry ---------------------------------------------------------------------------


def test_the_outline_of_the_p_pentomino():
    assert outline(P) == [[(0, 0), (2, 0), (2, 2), (1, 2), (1, 3), (0, 3)]]


def test_a_hole_is_its_own_loop_running_the_other_way():
    ring = [(r, c) for r in range(3) for c in range(3) if (r, c) != (1, 1)]
    outer, hole = outline(ring)
    assert outer == [(0, 0), (3, 0), (3, 3), (0, 3)]
    assert hole == [(1, 1), (1, 2), (2, 2), (2, 1)]
    assert area([outer]) == 9 and area([hole]) == -1  # clockwise on the page, then counter


def test_where_cells_touch_at_a_corner_each_empty_region_keeps_its_loop():
    # The heptomino with a hole: the hole meets the notch at one corner, (x, y) = (1, 2).
    cells = [(0, 0), (0, 1), (0, 2), (1, 0), (1, 2), (2, 1), (2, 2)]
    outer, hole = outline(cells)
    assert outer == [(0, 0), (3, 0), (3, 3), (1, 3), (1, 2), (0, 2)]
    assert hole == [(1, 1), (1, 2), (2, 2), (2, 1)]
    # Grown by a kerf the two cells that touch there join: the notch and the hole shrink.
    grown_outer, grown_hole = (offset(loop, 0.1) for loop in (outer, hole))
    assert grown_outer[4] == pytest.approx((0.9, 2.1))
    assert grown_hole[1] == pytest.approx((1.1, 1.9))


def test_offset_moves_every_side_out_by_the_distance():
    grown = offset(outline(P)[0], 0.5)
    assert grown == [(-0.5, -0.5), (2.5, -0.5), (2.5, 2.5), (1.5, 2.5), (1.5, 3.5), (-0.5, 3.5)]  # exact in binary


# -- cut files ------------------------------------------------------------------------------


def cut_file(tmp_path, *args):
    out = tmp_path / "cut.svg"
    result = run_cli("pieces", *args, "--svg", out, "--cut")
    assert result.exit_code == 0, result.output
    return parse(out), result.output


def run_cli(*args):
    return invoke([str(a) for a in args])


def test_cut_p_pentomino_exact_path_in_millimetres(tmp_path):
    # One P, 10 mm a cell: the packer turns it a quarter (lower), 5 mm from the sheet's edges.
    root, output = cut_file(tmp_path, "pentominoes:P", "--unit", "10")
    assert output == "wrote %s (1 piece to cut, 10 mm a cell, kerf 0 mm)\n" % (tmp_path / "cut.svg")
    (path,) = paths(root, "cut")
    assert path.get("d") == "M5,5 L35,5 L35,25 L15,25 L15,15 L5,15 Z"
    assert path.get("fill") == "none" and path.get("stroke") == "#000000" and path.get("stroke-width") == "0.1"
    assert root.get("width") == "40mm" and root.get("height") == "30mm" and root.get("viewBox") == "0 0 40 30"
    assert not paths(root, "piece") and not list(root.iter(f"{SVG}text"))  # outlines only


def test_cut_kerf_moves_each_edge_out_by_half(tmp_path):
    root, output = cut_file(tmp_path, "pentominoes:P", "--unit", "10", "--kerf", "0.2")
    (path,) = paths(root, "cut")
    # Every side 0.1 mm further out: the piece is 30.2 x 20.2, its notch 0.1 smaller each way.
    assert path.get("d") == "M5,5 L35.2,5 L35.2,25.2 L15,25.2 L15,15.2 L5,15.2 Z"
    (loop,) = loops_of(path.get("d"))
    # Grown by d, a polygon gains its perimeter times d and (convex - concave corners) d^2.
    assert area([loop]) == pytest.approx(500 + 100 * 0.1 + (5 - 1) * 0.1**2)


def test_cut_pentominoes_each_its_own_closed_path_apart(tmp_path):
    root, _ = cut_file(tmp_path, "pentominoes", "--unit", "20", "--kerf", "0.3")
    cuts = paths(root, "cut")
    assert sorted(p.get("data-piece") for p in cuts) == sorted("FILNPTUVWXYZ")
    boxes = []
    for p in cuts:
        (loop,) = loops_of(p.get("d"))
        assert p.get("d").count("M") == 1 and p.get("d").endswith("Z")
        # True size after the kerf: 5 cells of 20 mm, each side 0.15 mm out.
        perimeter = sum(abs(xb - xa) + abs(yb - ya) for (xa, ya), (xb, yb) in zip(loop, loop[1:] + loop[:1]))
        before = perimeter - 8 * 0.15  # each side out by 0.15: 8 x 0.15 longer in all
        assert area([loop]) == pytest.approx(5 * 400 + before * 0.15 + 4 * 0.15**2)
        xs, ys = [x for x, _ in loop], [y for _, y in loop]
        boxes.append((min(xs), min(ys), max(xs), max(ys)))
    width, height = float(root.get("width")[:-2]), float(root.get("height")[:-2])
    for k, a in enumerate(boxes):
        assert 5 - 1e-9 <= a[0] and a[2] <= width - 5 + 1e-9 and 5 - 1e-9 <= a[1] and a[3] <= height - 5 + 1e-9
        for b in boxes[k + 1:]:  # no two pieces closer than 3 mm: nothing shared, nothing cut twice
            assert a[2] + 3 <= b[0] + 1e-9 or b[2] + 3 <= a[0] + 1e-9 or a[3] + 3 <= b[1] + 1e-9 or b[3] + 3 <= a[1] + 1e-9


def test_cut_from_solve_cuts_the_copies_the_solution_uses(tmp_path):
    out = tmp_path / "cut.svg"
    result = run_cli("solve", BOARD, "--limit", "1", "--svg", out, "--cut", "--unit", "10")
    assert result.exit_code == 0, result.output
    assert sorted(p.get("data-piece") for p in paths(parse(out), "cut")) == sorted("FILNPTUVWXYZ")
    result = run_cli("pieces", "2*tetrominoes", "--svg", tmp_path / "t.svg", "--cut")
    assert result.exit_code == 0, result.output
    names = sorted(p.get("data-piece") for p in paths(parse(tmp_path / "t.svg"), "cut"))
    assert names == sorted(f"{n}#{k}" for n in "ILOST" for k in (1, 2))


# -- pictures -------------------------------------------------------------------------------


def test_solution_svg_one_path_per_piece_exactly_its_cells_in_its_colour(tmp_path):
    out = tmp_path / "s.svg"
    result = run_cli("solve", BOARD, "--limit", "1", "--svg", out, "--labels", "--cell", "20", "--margin", "10")
    assert result.exit_code == 0, result.output
    (solution,) = printed_solutions(result.output)
    root = parse(out)
    assert root.get("viewBox") == "0 0 220 140"  # 10 x 6 cells of 20 and a margin of 10
    pieces = paths(root, "piece")
    assert len(pieces) == 12 and not paths(root, "empty")
    colours = solution_colours([], [solution])
    for path in pieces:
        name = path.get("data-piece")
        assert path.get("fill") == hex_of(colours[name])
        loops = loops_of(path.get("d"))
        covered = {(r, c) for r in range(6) for c in range(10) if inside((10 + 20 * c + 10, 10 + 20 * r + 10), loops)}
        assert covered == solution[name]
        assert area(loops) == 5 * 400
        assert all(x % 10 == 0 and y % 10 == 0 for loop in loops for x, y in loop)
    outlines = paths(root, "outline")
    assert len(outlines) == 12 and {p.get("stroke") for p in outlines} == {"#222222"}
    assert {p.get("d") for p in outlines} == {p.get("d") for p in pieces}  # the union's boundary
    labels = {t.text for t in root.iter(f"{SVG}text")}
    assert labels == set("FILNPTUVWXYZ")


def test_several_solutions_make_a_sheet_as_the_png_does(tmp_path):
    result = run_cli("solve", BOARD, "--limit", "3", "--svg", tmp_path / "s.svg", "--png", tmp_path / "s.png")
    assert result.exit_code == 0, result.output
    root = parse(tmp_path / "s.svg")
    assert len(paths(root, "piece")) == 36
    captions = [t.text for t in root.iter(f"{SVG}text") if t.get("class") == "caption"]
    assert captions == ["Solution 1", "Solution 2", "Solution 3"]
    with Image.open(tmp_path / "s.png") as png:  # the same sheet, the same size
        assert (root.get("width"), root.get("height")) == (str(png.width), str(png.height))


def test_preplaced_pieces_are_hatched_in_svg_and_png(tmp_path):
    result = run_cli("solve", SCOTT, "--limit", "1", "--svg", tmp_path / "s.svg", "--png", tmp_path / "s.png",
                     "--margin", "0")
    assert result.exit_code == 0, result.output
    root = parse(tmp_path / "s.svg")
    (hatch,) = paths(root, "preplaced")
    assert hatch.get("data-piece") == "O"
    pattern = re.fullmatch(r"url\(#(.+)\)", hatch.get("fill")).group(1)
    assert [p.get("id") for p in root.iter(f"{SVG}pattern")] == [pattern]
    pad = 4  # --margin 0 still leaves room for half a border (4 pixels at --cell 32)
    square = {(3, 3), (3, 4), (4, 3), (4, 4)}
    assert {(r, c) for r in range(8) for c in range(8)
            if inside((pad + 32 * c + 16, pad + 32 * r + 16), loops_of(hatch.get("d")))} == square
    # The PNG: the O's cells carry hatching lines; no other cell has any.
    colours = solution_colours([], printed_solutions(result.output))
    ink = ink_on(colours["O"])
    with Image.open(tmp_path / "s.png") as image:
        image = image.convert("RGB")
        for r in range(8):
            for c in range(8):
                inner = {image.getpixel((pad + 32 * c + x, pad + 32 * r + y)) for x in range(6, 26) for y in range(6, 26)}
                if (r, c) in square:
                    assert ink in inner and colours["O"] in inner
                else:
                    assert ink not in inner


def test_json_keeps_the_preplaced_cells_for_render(tmp_path):
    saved = tmp_path / "s.json"
    assert run_cli("solve", SCOTT, "--limit", "1", "-o", saved).exit_code == 0
    result = run_cli("render", saved, "--svg", tmp_path / "r.svg")
    assert result.exit_code == 0, result.output
    assert [p.get("data-piece") for p in paths(parse(tmp_path / "r.svg"), "preplaced")] == ["O"]


def test_3d_layers_side_by_side_and_iso_faces_shaded_from_the_palette(tmp_path):
    result = run_cli("solve", CASTLE, "--limit", "1", "--svg", tmp_path / "l.svg", "--view", "layers")
    assert result.exit_code == 0, result.output
    root = parse(tmp_path / "l.svg")
    captions = [t.text for t in root.iter(f"{SVG}text") if t.get("class") == "caption"]
    assert captions == ["z=0 (bottom)", "z=1"]
    # The castle's first solution: 7 pieces on the bottom layer, 3 of them reach the top one.
    assert len(paths(root, "piece")) == 10
    assert sorted(p.get("data-piece") for p in paths(root, "piece")) == sorted("ABLPTVZ" + "ABP")
    result = run_cli("solve", CASTLE, "--limit", "1", "--svg", tmp_path / "i.svg")
    assert result.exit_code == 0, result.output
    faces = paths(parse(tmp_path / "i.svg"), "face")
    colours = piece_colours("ABLPTVZ")
    assert {p.get("data-piece") for p in faces} == set("ABLPTVZ")
    for face in faces:
        assert face.get("fill") in {hex_of(shade(colours[face.get("data-piece")], f)) for _, f, _ in FACES}


def test_pieces_svg_draws_every_piece(tmp_path):
    result = run_cli("pieces", "pentominoes", "--svg", tmp_path / "p.svg")
    assert result.exit_code == 0, result.output
    root = parse(tmp_path / "p.svg")
    colours = piece_colours("FILNPTUVWXYZ")
    assert {(p.get("data-piece"), p.get("fill")) for p in paths(root, "piece")} == {
        (n, hex_of(c)) for n, c in colours.items()}
    assert all(area(loops_of(p.get("d"))) == 5 * 32 * 32 for p in paths(root, "piece"))


# -- bad requests ---------------------------------------------------------------------------


@pytest.mark.parametrize("args, message", [
    (["--cut"], "--cut makes the --svg file a laser-cutting file; add --svg FILE (or give --output a FILE.cut.svg)"),
    (["--svg", "{tmp}/c.svg", "--kerf", "0.2"], "--kerf sets the laser's kerf for --cut; add --svg FILE --cut"),
    (["--svg", "{tmp}/c.svg", "--cut", "--kerf", "15"],
     "kerf must be at least 0 and less than the cell (unit 15 mm), not 15"),
    (["--svg", "{tmp}/c.svg", "--cut", "--unit", "0"], "unit (a cell's edge) must be a positive number of millimetres, not 0"),
    (["--svg", "{tmp}/c.png"], "{tmp}/c.png: --svg writes svg files (.svg), but the name says png (.png); name it c.svg"),
    (["--output", "{tmp}/c.cut.svg", "--unit", "0"], "unit (a cell's edge) must be a positive number of millimetres, not 0"),
    (["--svg", "{tmp}/missing/c.svg"], "cannot write {tmp}/missing/c.svg: directory {tmp}/missing does not exist"),
])
def test_bad_svg_requests_are_one_clear_error_before_the_search(tmp_path, args, message):
    result = run_cli("solve", BOARD, "--limit", "1", *[a.format(tmp=tmp_path) for a in args])
    assert result.exit_code == 2
    assert result.output == f"polyfit: error: {message.format(tmp=tmp_path)}\n"


def test_cut_refuses_3d_pieces_and_svg_files_are_not_replaced(tmp_path):
    result = run_cli("solve", CASTLE, "--limit", "1", "--svg", tmp_path / "c.svg", "--cut")
    assert result.exit_code == 2 and "a laser-cut file holds flat pieces" in result.output
    result = run_cli("pieces", "soma", "--svg", tmp_path / "c.svg", "--cut")
    assert result.exit_code == 2 and "piece V is 3D (an STL file makes printable solids)" in result.output
    (tmp_path / "c.svg").write_text("mine")
    result = run_cli("pieces", "pentominoes", "--svg", tmp_path / "c.svg")
    assert result.exit_code == 2 and "c.svg exists; use --force to overwrite it" in result.output
    assert (tmp_path / "c.svg").read_text() == "mine"
    assert run_cli("pieces", "pentominoes", "--svg", tmp_path / "c.svg", "--force").exit_code == 0
    assert parse(tmp_path / "c.svg").tag == f"{SVG}svg"


def test_a_bad_preplaced_field_in_saved_solutions_is_one_clear_error(tmp_path):
    import json

    saved = tmp_path / "s.json"
    assert run_cli("solve", SCOTT, "--limit", "1", "-o", saved).exit_code == 0
    data = json.loads(saved.read_text())
    assert data["preplaced"] == [[3, 3], [3, 4], [4, 3], [4, 4]]
    for value, what in (([[30, 30]], "has a cell that is not on the board"), ("x", "must be a list, not 'x'")):
        data["preplaced"] = value
        saved.write_text(json.dumps(data))
        result = run_cli("render", saved, "--svg", tmp_path / "r.svg")
        assert result.exit_code == 2 and result.output == f"polyfit: error: {saved}: field preplaced: {what}\n"
