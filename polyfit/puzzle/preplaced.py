"""Pieces drawn on the board by their letter: placed before the search, in every solution.

Each face-connected group of cells marked with a piece's letter is one copy of that piece; it
must have the piece's shape in one of the orientations the piece may take. The copies placed
here are taken off the piece's count, and their cells off the board the search fills.
"""

from __future__ import annotations


from polyfit.errors import PolyfitError, plural
from polyfit.lattices import base as lattices
from polyfit.puzzle.placements import Placement
from polyfit.records import Record


class Preplaced(Record):
    """The pre-placed copies (one placement each) and each piece's ``(lo, hi)`` left for the
    search."""

    __slots__ = ("placements", "counts")

    def __init__(self, placements: list[Placement], counts: list[tuple[int, int]]):
        self.placements, self.counts = placements, counts


def preplace(board, pieces) -> Preplaced:
    counts = [p.count for p in pieces]
    index = {p.name: i for i, p in enumerate(pieces)}
    placements = []
    for name, cells, (line, column) in board.fixed:
        where = f"{board.path or board.label}:{line}:{column}"
        if name not in index:
            names = ", ".join(p.name for p in pieces)
            raise PolyfitError(
                f"{where}: {name!r} marks a pre-placed piece, but no piece is named {name!r} "
                f"(the pieces: {names})"
            )
        i = index[name]
        if lattices.of(pieces[i]).normalize(cells) not in pieces[i].orientations():
            turned = "" if pieces[i].mirror else " (without turning it over)"
            are = "is" if len(cells) == 1 else "are"
            raise PolyfitError(
                f"{where}: the {plural(len(cells), 'cell')} marked {name!r} {are} not the shape of piece "
                f"{name} ({plural(pieces[i].size, 'cell')}) in any orientation{turned}"
            )
        lo, hi = counts[i]
        if hi == 0:
            placed = sum(1 for n, _, _ in board.fixed if n == name)
            are = "is" if placed == 1 else "are"
            raise PolyfitError(
                f"{where}: {plural(placed, 'copy', 'copies')} of piece {name} {are} pre-placed, but the "
                f"pieces allow at most {pieces[i].count[1]}"
            )
        counts[i] = (max(0, lo - 1), hi - 1)
        placements.append(Placement(i, cells))
    return Preplaced(placements, counts)
