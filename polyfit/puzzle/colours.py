"""BurrTools colours: voxels of a piece or of the goal shape may have a colour (1 to 63).

A piece voxel of colour ``p`` may sit on a board cell of colour ``r`` when either is neutral (0)
or the puzzle's rule pairs them. Colours are part of the shapes, as BurrTools counts them:

- a piece turned so that other colours fall on the same cells is another placement (two
  assemblies differ when a piece shows other colours, even on the same cells);
- a symmetry of the puzzle keeps the board's colours (a goal with one coloured corner has only
  the symmetries that fix that corner), and maps each coloured piece onto one with the same
  colours (two mirror-image pieces of different colours are not each other's mirror image).

The reader of BurrTools files (:mod:`polyfit.formats.burrtools`) makes a :class:`Colours` for a
board; placement generation (:func:`polyfit.puzzle.placements.generate`) and the symmetry group
(:mod:`polyfit.puzzle.symmetry`) use it. On squares and cubes a coloured orientation is one of
:mod:`polyfit.puzzle.orientations`; on the other lattices it is a normal form of one of the
lattice's images of the piece (:meth:`polyfit.lattices.base.Lattice.images`), with the colours
its cells carry: :func:`polyfit.puzzle.orientations.painted_orientations`.
"""

from __future__ import annotations

from dataclasses import dataclass

from polyfit.puzzle.board import OnFirstUse


@dataclass(frozen=True)
class Colours:
    cells: dict  # board cell -> its colour; neutral cells are not in it
    pieces: dict  # piece name -> the colours of its cells, in the order of Piece.cells (0 neutral)
    pairs: frozenset  # (piece colour, board colour) that may meet, both from 1
    rules: bool = True  # False: the puzzle defines no colours, so every placement is allowed

    def of(self, piece) -> tuple:
        """The colours of a piece's cells (in the order of its ``cells``), or () if it has none."""
        return self.pieces.get(piece.name, ())

    def allows(self, piece_colour: int, board_colour: int) -> bool:
        return (not self.rules or piece_colour == 0 or board_colour == 0
                or (piece_colour, board_colour) in self.pairs)

    def keeps_board(self, sym) -> bool:
        """Does the board symmetry ``sym`` map every cell to a cell of its colour?"""
        cells = self.cells
        images = sym.images(cells)  # every cell's image at once (in the order of cells)
        return all([cells.get(image) == colour for image, colour in zip(images, cells.values())])


class AllowedPlacements(OnFirstUse):
    """``Board.allowed`` of a coloured board: piece name -> the cells of each placement the
    colour rule allows, for the pieces the rule restricts. Worked out on first use: a solve
    does not need it (placement generation applies the rule itself)."""

    def __init__(self, cells, pieces, colours: Colours):
        self._cells, self._pieces, self._colours = tuple(cells), tuple(pieces), colours
        self._table: dict | None = None

    def _make(self) -> dict:
        from polyfit.puzzle.placements import generate

        table = {}
        for piece in self._pieces:
            if not self._colours.of(piece):
                continue
            allowed = {p.cells for p in generate(self._cells, [piece], None, self._colours)}
            every = {p.cells for p in generate(self._cells, [piece])}
            if allowed != every:
                table[piece.name] = frozenset(allowed)
        return table

