"""Polysticks: the unit segments of the square grid.

Text art draws the grid at double resolution: lattice points at even rows and columns (``+``),
a horizontal segment ``-`` between two of them (even row, odd column), a vertical one ``|``
below one (odd row, even column); a square's inside (odd row and column) is empty. So the cell
of a segment is the place it is drawn, ``(row, col)`` with ``row + col`` odd, and the 5x5 grid
of Goodger's tetrastick puzzle reads::

    +-+-+-+-+-+
    | | | | | |
    +-+-+-+-+-+
    ...

The 8 symmetries of the square act on these doubled coordinates about a lattice point, exactly as
on square cells (:mod:`polyfit.lattices.grid`); a translation moves by an even number of rows and
columns. Two segments are neighbours when they share an end point. Pieces may touch at a point
but not cross there: a piece passes straight through a point when it holds both segments on one
line through it, and two pieces passing through one point along the two lines would cross
(:meth:`SticksLattice.crossings`). The parity weight counts horizontal segments against
vertical ones, the imbalance behind Goodger's five tetrasticks that can be left out.
"""

from __future__ import annotations

from polyfit.errors import plural
from polyfit.hookspecs import hookimpl
from polyfit.lattices import grid
from polyfit.lattices.edges import EdgeLattice

HORIZONTAL, VERTICAL = "-", "|"


class SticksLattice(EdgeLattice):
    name = "sticks"
    summary = "square-grid segments: polysticks, drawn +-+ and |, 8 symmetries"
    origins = ((0, 1), (1, 0))  # a horizontal and a vertical segment
    parity_name = "horizontal/vertical"
    all_translations = False
    degree = 4  # segments meeting at a lattice point
    STEPS = {
        HORIZONTAL: ((0, -2), (0, 2), (-1, -1), (-1, 1), (1, -1), (1, 1)),
        VERTICAL: ((-2, 0), (2, 0), (-1, -1), (-1, 1), (1, -1), (1, 1)),
    }
    MARKS = {HORIZONTAL: "-", VERTICAL: "|"}
    art_help = (
        "on the sticks lattice '+' is a lattice point, '-' a horizontal segment between two "
        "of them and '|' a vertical one, as in '+-+' over '| |'"
    )
    where_segments = (
        "segments lie between lattice points, '-' beside a '+' and '|' under one, as in '+-+' "
        "over '| |' (the squares' insides stay empty)"
    )

    def kind(self, cell):
        r, c = cell
        if (r + c) % 2 == 0:
            return None
        return HORIZONTAL if r % 2 == 0 else VERTICAL

    def is_cell(self, cell) -> bool:
        return (cell[0] + cell[1]) % 2 == 1

    def is_translation(self, shift) -> bool:
        return shift[0] % 2 == 0 and shift[1] % 2 == 0

    def coset(self, cell):
        return (cell[0] % 2, cell[1] % 2)

    def group(self, mirror: bool = True):
        return grid.lattice_group(2, mirror)

    def normal_shift(self, cells):
        low_r = min(c[0] for c in cells)
        low_c = min(c[1] for c in cells)
        return (-low_r + low_r % 2, -low_c + low_c % 2)

    def ends(self, cell):
        r, c = cell
        if r % 2 == 0:
            return ((r, c - 1), (r, c + 1))
        return ((r - 1, c), (r + 1, c))

    def crossings(self, cells):
        cells = set(cells)
        points = sorted({point for cell in cells for point in self.ends(cell)})
        for r, c in points:
            if (r, c - 1) in cells and (r, c + 1) in cells:
                yield (r, c), 0
            if (r - 1, c) in cells and (r + 1, c) in cells:
                yield (r, c), 1

    def art_mark(self, char, cell):
        if char == "+" and cell[0] % 2 == 0 and cell[1] % 2 == 0:
            return " "  # a lattice point: a drawing aid
        return super().art_mark(char, cell)

    def art_shift(self, char, cell):
        r, c = cell
        if char == "-":
            return r % 2, (c + 1) % 2
        if char == "|":
            return (r + 1) % 2, c % 2
        return None

    def art_extras(self, cells):
        return {point: "+" for cell in cells for point in self.ends(cell)}

    def art_origin(self, row, col):
        return row - row % 2, col - col % 2

    def segment(self, cell):
        (r0, c0), (r1, c1) = self.ends(cell)
        return (c0 / 2, r0 / 2), (c1 / 2, r1 / 2)

    def parity_weight(self, cell) -> int:
        return 1 if cell[0] % 2 == 0 else -1

    def parity_story(self, cells) -> str:
        across = sum(1 for c in cells if c[0] % 2 == 0)
        return (
            f"horizontal/vertical parity: the board has {plural(across, 'horizontal segment')} "
            f"and {len(cells) - across} vertical"
        )


STICKS = SticksLattice()


@hookimpl
def register_lattices(register):
    register(STICKS)
