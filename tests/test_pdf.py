"""The printable puzzle sheet: pages, paper size and true-size geometry, read back with pypdf.

Every path the sheet draws is read from the page's content stream (``m``/``l``/``h`` and the
operator that paints it), converted from points to millimetres and measured: the board and each
piece must have exactly their cells' area at ``--unit`` millimetres a cell.
"""

from __future__ import annotations

import sys

import pypdf
import pytest
from pypdf.generic import ContentStream

from polyfit.render.palette import piece_colours
from polyfit.render.style import EMPTY_CELL, INK

from helpers import ROOT
from helpers import run_cli as invoke


BOARD = ROOT / "shapes/pentomino/6x10.txt"
SCOTT = ROOT / "shapes/pentomino/scott.txt"
CASTLE = ROOT / "shapes/soma/castle.vox"
MM = 72 / 25.4  # points


def run_cli(*args):
    return invoke([str(a) for a in args])


def drawn(page, reader) -> list[dict]:
    """Each painted path: its operator, loops (in mm from the page's bottom left) and the fill
    and stroke colours then in force (as 0-255 RGB)."""
    fill = stroke = (0, 0, 0)
    loops, current, painted = [], None, []
    for operands, op in ContentStream(page.get_contents(), reader).operations:
        if op == b"rg":
            fill = tuple(round(float(v) * 255) for v in operands)
        elif op == b"RG":
            stroke = tuple(round(float(v) * 255) for v in operands)
        elif op == b"m":
            current = [(float(operands[0]) / MM, float(operands[1]) / MM)]
            loops.append(current)
        elif op == b"l":
            current.append((float(operands[0]) / MM, float(operands[1]) / MM))
        elif op in (b"S", b"s", b"f", b"f*", b"B", b"B*", b"n", b"W", b"W*"):
            if op not in (b"n",) and loops:
                painted.append({"op": op.decode(), "loops": loops, "fill": fill, "stroke": stroke})
            if op not in (b"W", b"W*"):
                loops = []
    return painted


def area(loops) -> float:
    return abs(sum(sum(xa * yb - xb * ya for (xa, ya), (xb, yb) in zip(loop, loop[1:] + loop[:1])) / 2
                   for loop in loops))


def size(loops) -> tuple[float, float]:
    xs = [x for loop in loops for x, _ in loop]
    ys = [y for loop in loops for _, y in loop]
    return max(xs) - min(xs), max(ys) - min(ys)


def sheet(tmp_path, board, *args):
    out = tmp_path / "sheet.pdf"
    result = run_cli("solve", board, *args, "--pdf", out)
    assert result.exit_code == 0, result.output
    return pypdf.PdfReader(out), result.output


def test_sheet_true_size_board_and_pieces_then_the_solutions(tmp_path):
    reader, output = sheet(tmp_path, BOARD, "--limit", "2")
    assert f"wrote {tmp_path / 'sheet.pdf'} (2 pages, A4, 15 mm a cell)" in output
    assert len(reader.pages) == 2
    for page in reader.pages:  # A4: 210 x 297 mm
        assert (float(page.mediabox.width) / MM, float(page.mediabox.height) / MM) == pytest.approx((210, 297))
    first = drawn(reader.pages[0], reader)
    outlines = [p for p in first if p["op"] in ("S", "s") and p["stroke"] == INK]
    # The board (6 x 10 cells of 15 mm) and the twelve pentominoes (5 cells each), true size.
    # (reportlab writes points to 4 decimals: areas to within a few hundredths of a mm^2)
    assert sorted(area(p["loops"]) for p in outlines) == pytest.approx([1125] * 12 + [13500], abs=0.05)
    (board,) = [p for p in outlines if round(area(p["loops"])) == 13500]
    assert size(board["loops"]) == pytest.approx((150, 90))
    colours = piece_colours("FILNPTUVWXYZ")
    pieces = [p for p in first if p["op"] in ("f", "f*") and p["fill"] in colours.values()]
    assert sorted(p["fill"] for p in pieces) == sorted(colours.values())
    assert [area(p["loops"]) for p in pieces] == pytest.approx([1125] * 12, abs=0.05)
    text = reader.pages[0].extract_text()
    assert "6x10 box" in text and "True size: 15 mm a cell. Cut out the 12 pieces and fill the board." in text
    # Page 2: both solutions, every piece in its colour, all at one scale no larger than true size.
    second = drawn(reader.pages[1], reader)
    filled = [p for p in second if p["op"] in ("f", "f*") and p["fill"] in colours.values()]
    assert len(filled) == 24 and sorted({p["fill"] for p in filled}) == sorted(colours.values())
    cell = area(filled[0]["loops"]) / 5
    assert [area(p["loops"]) for p in filled] == pytest.approx([5 * cell] * 24, abs=0.05) and cell <= 225.01
    text = reader.pages[1].extract_text()
    assert "Solution 1" in text and "Solution 2" in text


def test_letter_paper_and_a_smaller_unit(tmp_path):
    reader, output = sheet(tmp_path, BOARD, "--limit", "1", "--paper", "letter", "--unit", "10")
    assert "(2 pages, letter, 10 mm a cell)" in output
    page = reader.pages[0]
    assert (float(page.mediabox.width), float(page.mediabox.height)) == pytest.approx((612, 792))
    outlines = [p for p in drawn(page, reader) if p["op"] in ("S", "s") and p["stroke"] == INK]
    assert sorted(area(p["loops"]) for p in outlines) == pytest.approx([500] * 12 + [6000], abs=0.05)


def test_without_unit_the_sheet_takes_the_largest_cell_that_fits(tmp_path):
    # 3 x 20 cells: 300 mm long at 15 mm, too long for A4 either way; at 12 mm, 240 mm fits
    # turned upright, and the board is drawn so.
    reader, output = sheet(tmp_path, ROOT / "shapes/pentomino/3x20.txt", "--limit", "1")
    assert "(2 pages, A4, 12 mm a cell)" in output
    outlines = [p for p in drawn(reader.pages[0], reader) if p["op"] in ("S", "s") and p["stroke"] == INK]
    (board,) = [p for p in outlines if area(p["loops"]) > 5 * 144 + 1]
    assert size(board["loops"]) == pytest.approx((36, 240), abs=0.01)
    assert sorted(area(p["loops"]) for p in outlines) == pytest.approx([720] * 12 + [8640], abs=0.05)
    x0 = min(x for loop in board["loops"] for x, _ in loop)
    assert all(12 - 0.01 <= x <= 210 - 12 + 0.01 for p in outlines for loop in p["loops"] for x, _ in loop)
    assert x0 == pytest.approx(12, abs=0.01)  # inside the page's margins


def test_3d_sheet_shows_the_layers_at_true_size(tmp_path):
    reader, _ = sheet(tmp_path, CASTLE, "--limit", "2")
    assert len(reader.pages) == 2
    text = reader.pages[0].extract_text()
    assert "z=0 (bottom)" in text and "z=1" in text and "15 mm a cube" in text
    empty = [p for p in drawn(reader.pages[0], reader) if p["op"] in ("f", "f*") and p["fill"] == EMPTY_CELL]
    # The castle's 27 cells, empty, 15 x 15 mm each: 24 on the bottom layer, 3 apart above.
    assert sorted(area(p["loops"]) for p in empty) == pytest.approx([3 * 225, 24 * 225], abs=0.05)
    assert sorted(len(p["loops"]) for p in empty) == [1, 3]
    assert "Solution 1" in reader.pages[1].extract_text()


def test_preplaced_pieces_are_hatched_on_the_sheet(tmp_path):
    reader, _ = sheet(tmp_path, SCOTT, "--limit", "1")
    # Page 1 draws the board with its O in place, page 2 the solution: each hatches the O
    # (the square of 2 x 2 cells), lines clipped to it, and nothing else.
    (clip,) = [p for p in drawn(reader.pages[0], reader) if p["op"] in ("W", "W*")]
    assert area(clip["loops"]) == pytest.approx(4 * 225) and size(clip["loops"]) == pytest.approx((30, 30))
    (clip,) = [p for p in drawn(reader.pages[1], reader) if p["op"] in ("W", "W*")]
    width, height = size(clip["loops"])
    assert width == pytest.approx(height) and area(clip["loops"]) == pytest.approx(width * height)


def test_without_reportlab_the_error_names_the_extra(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "reportlab", None)
    monkeypatch.setitem(sys.modules, "reportlab.pdfgen", None)
    result = run_cli("solve", BOARD, "--limit", "1", "--pdf", tmp_path / "s.pdf")
    assert result.exit_code == 2
    assert result.output == "polyfit: error: a PDF sheet needs reportlab, which is not installed: pip install reportlab (or, in polyfit's folder: pip install '.[pdf]')\n"
    assert not (tmp_path / "s.pdf").exists()


@pytest.mark.parametrize("args, message", [
    (["--unit", "40"], "6x10 box: a part of the sheet is 400 x 240 mm, but a page holds 186 x 257 mm: use a smaller unit"),
    (["--paper", "a3"], "unknown paper 'a3'; valid papers: a4, letter"),
    (["--unit", "-1"], "unit (a cell's edge) must be a positive number of millimetres, not -1"),
])
def test_bad_sheet_requests_fail_before_the_search(tmp_path, args, message):
    result = run_cli("solve", BOARD, "--limit", "1", "--pdf", tmp_path / "s.pdf", *args)
    assert result.exit_code == 2 and result.output == f"polyfit: error: {message}\n"
    assert not (tmp_path / "s.pdf").exists()
