"""Piece sets of classic 3D packing puzzles, as a polyfit plugin.

- ``bedlam``: the 13 pieces of the Bedlam cube (12 pentacubes and one tetracube) for the 4x4x4
  box; 19,186 solutions are known.
- ``diabolical``: the Diabolical cube (Hoffmann, "Puzzles Old and New", 1893): one flat piece of
  each size from 2 to 7 cells, for the 3x3x3 box; 13 solutions are known.

The boxes are in this package's ``shapes/`` folder (``polyfit_classic_cubes.shape_path``).
Slothouber-Graatsma needs several copies of one piece, which polyfit's core does not offer yet.
"""

from pathlib import Path

from polyfit.hookspecs import hookimpl
from polyfit.pieces import parse_pieces_text

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


def shape_path(name: str) -> Path:
    return Path(__file__).parent / "shapes" / f"{name}.vox"


def bedlam():
    return parse_pieces_text(BEDLAM, "bedlam", dim=3)


def diabolical():
    return [piece_as_3d(p) for p in parse_pieces_text(DIABOLICAL, "diabolical", dim=2)]


def piece_as_3d(piece):
    from polyfit.pieces import Piece

    return Piece(piece.name, tuple((0,) + c for c in piece.cells), mirror=False)


@hookimpl
def register_piece_sets(register):
    register("bedlam", bedlam, "the 13 Bedlam cube pieces (4x4x4 box)")
    register("diabolical", diabolical, "the 6 Diabolical cube pieces, sizes 2 to 7 (3x3x3 box)")
