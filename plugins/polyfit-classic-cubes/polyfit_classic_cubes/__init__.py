"""Piece sets of classic 3D packing puzzles, as a polyfit plugin.

- ``bedlam``: the 13 pieces of the Bedlam cube (12 pentacubes and one tetracube) for the 4x4x4
  box; 19,186 solutions are known.
- ``diabolical``: the Diabolical cube (Hoffmann, "Puzzles Old and New", 1893): one flat piece of
  each size from 2 to 7 cells, for the 3x3x3 box; 13 solutions are known.

- ``slothouber-graatsma``: six 1x2x2 bricks (``A``) and three unit cubes (``B``) for the 3x3x3
  box (Slothouber and Graatsma, 1970); the cubes must lie on a space diagonal, so there is
  exactly one solution up to symmetry.
- ``conway``: Conway's blocks-in-a-box: thirteen 1x2x4 (``A``), one 2x2x2 (``B``), one 1x2x2
  (``C``) and three 1x1x3 (``D``) for the 5x5x5 box.

The last two use several copies of a piece (``; count X: n``): copies are indistinguishable.
The boxes are in this package's ``shapes/`` folder (``polyfit_classic_cubes.shape_path``).
"""

from pathlib import Path

from polyfit import Piece, hookimpl, parse_pieces_text

__version__ = "0.1.0"

# Each letter is one piece; layers bottom first. Drawn from a known solution of the puzzle, so
# the pieces are checked to fill their box.
BEDLAM = """\
; mirror: no
eeev
DeBv
ACBB
AAAB

Dvvv
DeCh
DCCh
AyyB

wwzz
Dwgg
fwCh
yyxh

fggz
ffgz
fwxh
yxxx
"""

DIABOLICAL = """\
; mirror: no
; the pieces are flat: one layer each, drawn side by side
AA.BB.CC.DD.EEE.FFF
...B..CC.D..EE..FFF
.........DD.E...F
"""


SLOTHOUBER_GRAATSMA = """\
; count A: 6
; count B: 3
AA.B
AA

"""

CONWAY = """\
; count A: 13
; count D: 3
AAAA.BB.CC.DDD
AAAA.BB.CC

.....BB
.....BB
"""


def shape_path(name: str) -> Path:
    return Path(__file__).parent / "shapes" / f"{name}.vox"


def bedlam():
    return parse_pieces_text(BEDLAM, "bedlam", dim=3)


def diabolical():
    return [piece_as_3d(p) for p in parse_pieces_text(DIABOLICAL, "diabolical", dim=2)]


def slothouber_graatsma():
    return parse_pieces_text(SLOTHOUBER_GRAATSMA, "slothouber-graatsma", dim=3)


def conway():
    return parse_pieces_text(CONWAY, "conway", dim=3)


def piece_as_3d(piece):
    return Piece(piece.name, tuple((0,) + c for c in piece.cells), mirror=False)


@hookimpl
def register_piece_sets(register):
    register("bedlam", bedlam, "the 13 Bedlam cube pieces (4x4x4 box)")
    register("diabolical", diabolical, "the 6 Diabolical cube pieces, sizes 2 to 7 (3x3x3 box)")
    register("slothouber-graatsma", slothouber_graatsma, "6 bricks 1x2x2 and 3 unit cubes (3x3x3 box)")
    register("conway", conway, "Conway's 13 1x2x4, 2x2x2, 1x2x2 and 3 1x1x3 bricks (5x5x5 box)")
