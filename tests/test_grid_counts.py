"""polyfit's counts on files of BurrTools' other grids equal burrTxt2's: triangular prisms
(grid type 1), spheres (2), rhombic dodecahedra (3) and tetrahedra-octahedra (4). Each folder's
``counts.json`` records ``burrTxt2 -R -c`` (``counts``) and, where kept, ``-R -c -m``
(``mirror``: mirror images apart, polyfit's ``distinct_rotations``); the live test runs
BurrTools again where it is built (one file of each grid in the quick suite)."""

import json
from pathlib import Path

import pytest

import polyfit
from helpers import BURRTXT2, burrtools_count

BURRTOOLS = Path(__file__).parent / "data" / "burrtools"
LATTICES = {"prisms": {"prisms"}, "spheres": {"spheres"}, "finegrids": {"rhombic", "tetra-octa"}}
QUICK = {("prisms", "parallelogram-tetraprisms.xmpuzzle", False), ("spheres", "box-tetraspheres.xmpuzzle", False),
         ("finegrids", "rd-two-by-halves.xmpuzzle", True), ("finegrids", "to-octahedron.xmpuzzle", False)}


def recorded():
    for folder in LATTICES:
        data = json.loads((BURRTOOLS / folder / "counts.json").read_text())
        for name, count in sorted(data["counts"].items()):
            yield folder, name, count, data.get("mirror", {}).get(name)


@pytest.mark.parametrize("folder, name, count, mirrors", list(recorded()))
def test_counts_equal_burrtools_recorded_counts(folder, name, count, mirrors):
    board = polyfit.read_board(BURRTOOLS / folder / name)
    assert board.lattice.name in LATTICES[folder] and board.dim == 3
    found = polyfit.Puzzle(board).count()
    assert found.distinct == count
    if mirrors is not None:
        assert found.distinct_rotations == mirrors


@pytest.mark.skipif(not BURRTXT2.exists(), reason="BurrTools is not built here (bash ../shared/burrtools/build.sh)")
@pytest.mark.parametrize("folder, name, count, mirror", [
    pytest.param(folder, name, mirrors if mirror else count, mirror,
                 marks=[] if (folder, name, mirror) in QUICK else [pytest.mark.slow])
    for folder, name, count, mirrors in recorded() for mirror in (False, True) if not mirror or mirrors is not None])
def test_burrtools_counts_the_recorded_assemblies_now(folder, name, count, mirror, tmp_path):
    assert burrtools_count(BURRTOOLS / folder / name, tmp_path, *(["-m"] if mirror else [])) == count
