"""Pieces: named shapes, how many copies a solution uses, and the ways each may be turned.

Pieces come from the built-in sets (:mod:`polyfit.puzzle.piece_sets`), plugins, or pieces files
(:mod:`polyfit.formats.pieces_file`); ``--pieces`` specs pick them
(:mod:`polyfit.formats.piece_specs`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from polyfit.limits import check
from polyfit.lattices import base as lattices
from polyfit.lattices.grid import Shape, lattice_group, normalize, orientations


@dataclass(frozen=True)
class Piece:
    """A named shape; ``cells`` are normalized on construction."""

    name: str
    cells: Shape
    mirror: bool = True  # may be turned over (placed as its mirror image)
    count: tuple[int, int] = (1, 1)  # how many copies a solution uses: lo..hi
    # The lattice (a polyfit.Lattice; a name is looked up once, here); "" means squares in 2D,
    # cubes in 3D.
    lattice: lattices.Lattice | str = ""

    def __post_init__(self):
        cells = tuple(tuple(c) for c in self.cells)
        if not cells:
            raise ValueError(f"piece {self.name!r} has no cells")
        if self.lattice:
            lattice = lattices.get(self.lattice)
            if any(len(c) != lattice.dim or not lattice.is_cell(c) for c in cells):
                raise ValueError(f"piece {self.name!r} has cells that are not cells of the {lattice.name} lattice")
            cells = lattice.normalize(cells)
        else:
            lattice = lattices.get(lattices.default_name(len(cells[0])))
            cells = normalize(cells)
        object.__setattr__(self, "lattice", lattice)
        object.__setattr__(self, "cells", cells)
        lo, hi = self.count
        if not 0 <= lo <= hi or hi < 1:
            raise ValueError(f"piece {self.name!r} has count {lo}..{hi}")
        check("cells", len(cells), f"piece {self.name!r}")

    @property
    def dim(self) -> int:
        return len(self.cells[0])

    @property
    def size(self) -> int:
        return len(self.cells)

    def orientations(self) -> tuple[Shape, ...]:
        """The distinct normalized orientations this piece may be placed in, sorted."""
        return _orientations(self.cells, self.mirror, self.lattice)


@cache
def _orientations(cells: Shape, mirror: bool, lattice: lattices.Lattice) -> tuple[Shape, ...]:
    if lattice.name in ("square", "cubic"):
        return orientations(cells, lattice_group(len(cells[0]), mirror))
    return lattice.orientations(cells, mirror)


def check_fit(pieces, dim: int, lattice, where: str) -> None:
    """Refuse pieces that cannot go on a board of dimension ``dim`` drawn on ``lattice`` (a
    lattice or its name; "" for squares or cubes), naming the board as ``where``: 3D pieces on
    a flat board, triangles on squares. Every face (the commands, the API, the studio) comes
    through here before anything else looks at the cells, so a mismatch is this one error."""
    from polyfit.errors import PolyfitError, plural

    lattice = lattices.get(lattice or lattices.default_name(dim)).name

    def which(wrong, what):
        if len(wrong) == len(pieces):
            return f"the pieces are {what}"
        names = ", ".join(p.name for p in wrong[:6]) + (", ..." if len(wrong) > 6 else "")
        are = "is" if len(wrong) == 1 else "are"
        return f"{plural(len(wrong), 'piece')} ({names}) {are} {what}"

    if not pieces:
        raise PolyfitError("no pieces given")
    wrong = [p for p in pieces if p.dim != dim]
    if wrong:
        dims = " and ".join(f"{d}D" for d in sorted({p.dim for p in wrong}))
        raise PolyfitError(f"{where} is {dim}D but {which(wrong, dims)}")
    wrong = [p for p in pieces if p.lattice.name != lattice]
    if wrong:
        kinds = " and ".join(sorted({p.lattice.name for p in wrong}))
        raise PolyfitError(
            f"{where} is drawn on the {lattice} lattice but {which(wrong, 'on the ' + kinds + ' lattice')}: "
            "use pieces of the board's lattice (a pieces file says '; lattice: NAME')"
        )


def check_board_pieces(board, pieces) -> None:
    """:func:`check_fit` for a :class:`polyfit.puzzle.board.Board`."""
    check_fit(list(pieces), board.dim, board.lattice, board.label)
