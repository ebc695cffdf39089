"""BurrTools colours on its other grids (triangular prisms, spheres, rhombic dodecahedra,
tetrahedra-octahedra), read, counted and written back as on the cube grid.

The files are the ``*-coloured`` and ``*-painted`` ones of the grids' folders: their counts are
burrTxt2's (``counts.json``, checked live with the other counts in test_grid_counts.py); the
prism boxes' ``*.burrtools.json.gz`` record ``burrTxt2 -R -d`` with levels."""

import dataclasses
import gzip
import json
import re
from pathlib import Path

import pytest

import polyfit
from polyfit.formats import burrtools
from helpers import BURRTXT2, assert_tally_is_burrtools, burrtools_count, burrtxt2, run

BURRTOOLS = Path(__file__).parent / "data" / "burrtools"
LATTICES = {"prisms": {"prisms"}, "spheres": {"spheres"}, "finegrids": {"rhombic", "tetra-octa"}}
QUICK = {"parallelogram-tetraprisms-coloured.xmpuzzle", "flat-rhombus-four-by-four-coloured.xmpuzzle",
         "rd-octahedral-six-coloured.xmpuzzle", "to-cube-threes-coloured.xmpuzzle"}
# the source each coloured file was made from (its name before the suffix): the same board
# and pieces without colours
SOURCES = {"box-6": "disassembly/box-6"}


def coloured():
    for folder in LATTICES:
        counts = json.loads((BURRTOOLS / folder / "counts.json").read_text())["counts"]
        for name, count in sorted(counts.items()):
            if "-coloured" in name or "-painted" in name:
                yield folder, name, count


FILES = list(coloured())


def source(folder, name):
    stem = re.sub(r"-(coloured|painted).*", "", name.removesuffix(".xmpuzzle"))
    return BURRTOOLS / folder / f"{SOURCES.get(stem, stem)}.xmpuzzle"


def test_every_grid_has_coloured_files():
    grids = {polyfit.read_board(BURRTOOLS / folder / name).lattice.name for folder, name, _ in FILES}
    assert grids == {"prisms", "spheres", "rhombic", "tetra-octa"}


@pytest.mark.parametrize("folder, name, count", FILES)
def test_colours_on_other_grids_count_as_burrtools_counts(folder, name, count):
    board = polyfit.read_board(BURRTOOLS / folder / name)
    plain = polyfit.read_board(source(folder, name))
    assert board.lattice.name in LATTICES[folder] and board.colours is not None and board.colours.rules
    assert sorted(board.cells) == sorted(plain.cells) and board.pieces == plain.pieces
    found = polyfit.Puzzle(board).count().distinct
    assert found == count
    unruled = dataclasses.replace(board, colours=dataclasses.replace(board.colours, rules=False), allowed={})
    without = polyfit.Puzzle(unruled).count().distinct
    if "-painted" in name:
        # every pair of colours may meet: nothing is ruled out, but the colours tell apart
        # assemblies that the board's symmetries made one
        assert dict(board.allowed) == {} and without == found > polyfit.Puzzle(plain).count().distinct
    else:
        assert without >= found  # the rule only takes assemblies away


def test_some_coloured_files_have_assemblies_only_the_colours_rule_out():
    ruled_out = []
    for folder, name, count in FILES:
        board = polyfit.read_board(BURRTOOLS / folder / name)
        unruled = dataclasses.replace(board, colours=dataclasses.replace(board.colours, rules=False), allowed={})
        if polyfit.Puzzle(unruled).count().distinct > count:
            ruled_out.append(board.lattice.name)
    assert set(ruled_out) == {"prisms", "spheres", "rhombic", "tetra-octa"}


@pytest.mark.parametrize("folder, name, count", FILES)
def test_coloured_files_written_back_keep_their_colours(folder, name, count, tmp_path):
    board = polyfit.read_board(BURRTOOLS / folder / name)
    again = tmp_path / "again.xmpuzzle"
    again.write_text(burrtools.xmpuzzle_text(board, board.pieces))
    back = polyfit.read_board(again)
    assert sorted(back.cells) == sorted(board.cells) and back.lattice == board.lattice
    assert back.colours == board.colours
    assert polyfit.Puzzle(back).count().distinct == count


@pytest.mark.skipif(not BURRTXT2.exists(), reason="BurrTools is not built here (bash ../shared/burrtools/build.sh)")
@pytest.mark.parametrize("folder, name, count", [
    pytest.param(*entry, marks=[] if entry[1] in QUICK else [pytest.mark.slow]) for entry in FILES])
def test_burrtools_counts_the_coloured_files_polyfit_writes_back(folder, name, count, tmp_path):
    board = polyfit.read_board(BURRTOOLS / folder / name)
    again = tmp_path / "again.xmpuzzle"
    again.write_bytes(burrtools.xmpuzzle_bytes(board, board.pieces))
    (tmp_path / "run").mkdir()
    assert burrtools_count(again, tmp_path / "run") == count


BOXES = sorted(p for p in (BURRTOOLS / "prisms").glob("*-coloured*.xmpuzzle")
               if p.with_name(p.stem + ".burrtools.json.gz").exists())
assert len(BOXES) == 2  # one that comes apart at several levels, one that does not come apart


def answer(path):
    return json.loads(gzip.decompress(path.with_name(path.stem + ".burrtools.json.gz").read_bytes()))


@pytest.mark.parametrize("path", BOXES, ids=lambda p: p.stem)
def test_coloured_prisms_come_apart_as_burrtools_takes_them_apart(path):
    assert_tally_is_burrtools(polyfit.load(path), answer(path))


@pytest.mark.skipif(not BURRTXT2.exists(), reason="BurrTools is not built here (bash ../shared/burrtools/build.sh)")
@pytest.mark.parametrize("path", BOXES, ids=lambda p: p.stem)
def test_burrtools_takes_the_coloured_prisms_apart_as_recorded_now(path, tmp_path):
    text = burrtxt2(path, tmp_path, "-R", "-d").read_text(errors="replace")
    numbers = {key: int(re.search(f'{key}="([0-9]+)"', text).group(1)) for key in ("assemblies", "solutions")}
    assert numbers == {key: answer(path)["default"][key] for key in ("assemblies", "solutions")}


def test_convert_keeps_colours_in_a_burrtools_file_and_refuses_formats_without_them(tmp_path, app):
    path = BURRTOOLS / "spheres" / "flat-rhombus-four-by-four-coloured.xmpuzzle"
    result = run(app, "convert", path, tmp_path / "rhombus.xmpuzzle", "--solutions", "2")
    assert result.exit_code == 0, result.output
    board = polyfit.read_board(tmp_path / "rhombus.xmpuzzle")
    assert board.colours == polyfit.read_board(path).colours and polyfit.Puzzle(board).count().distinct == 11
    found = burrtools.read_assemblies(tmp_path / "rhombus.xmpuzzle")
    assert len(found) == 2 and all(sorted(c for cells in s.values() for c in cells) == sorted(board.cells) for s in found)
    result = run(app, "convert", path, tmp_path / "rhombus.vox")
    assert result.exit_code == 2 and "only BurrTools files (.xmpuzzle) hold" in result.output
    assert "Traceback" not in result.output and not (tmp_path / "rhombus.vox").exists()
