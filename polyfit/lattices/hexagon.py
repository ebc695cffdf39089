"""The hexagonal lattice: polyhexes, in "doubled" coordinates.

Cell ``(r, c)`` exists when r + c is even; its neighbours are ``(r, c - 2)``, ``(r, c + 2)`` and
``(r +- 1, c +- 1)``. Text art draws rows staggered, ``# # #`` over `` # # #``. Hexagons stand on a
point, one square cell wide (side 1/sqrt(3)), rows 1.5 sides apart.

The 12 symmetries act on cube coordinates ``(x, y, z) = ((c - r) / 2, r, -x - y)``
(:mod:`polyfit.lattices.triads`); negation is the half turn about a hexagon's centre. The
parity weight colours the lattice in three colours (no two neighbours alike): +1, -1 and 0.
"""

from __future__ import annotations

import math

from polyfit.hookspecs import hookimpl
from polyfit.lattices.base import Lattice
from polyfit.lattices.triads import AffineImages, TriadTransform, even_normal_shift, triad_group

SIDE = 1 / math.sqrt(3)
STEPS = ((0, -2), (0, 2), (-1, -1), (-1, 1), (1, -1), (1, 1))


class HexTransform(TriadTransform):
    FLIP = 0

    @staticmethod
    def to_triad(cell):
        r, c = cell
        x = (c - r) // 2
        return (x, r, -x - r)

    @staticmethod
    def from_triad(t):
        return (t[1], 2 * t[0] + t[1])


def colour(cell) -> int:
    """0, 1 or 2: a three-colouring, neighbours always differ."""
    r, c = cell
    return ((c - 3 * r) // 2) % 3


class HexLattice(AffineImages, Lattice):
    name = "hex"
    dim = 2
    summary = "hexagons: polyhexes, cells (r, c) with r + c even, 12 symmetries"
    origins = ((0, 0),)
    parity_name = "three-colour"
    parity_symmetric = False  # a turn by 60 degrees about a hexagon swaps two colours
    all_translations = True  # any difference of two cells is a translation

    def neighbours(self, cell):
        r, c = cell
        for dr, dc in STEPS:
            yield (r + dr, c + dc)

    def is_cell(self, cell) -> bool:
        return (cell[0] + cell[1]) % 2 == 0

    def is_translation(self, shift) -> bool:
        return (shift[0] + shift[1]) % 2 == 0

    def coset(self, cell):
        return (cell[0] + cell[1]) % 2

    def flood_steps(self):
        return [(step, None) for step in STEPS]

    def group(self, mirror: bool = True):
        return triad_group(HexTransform, mirror)

    def normal_shift(self, cells):
        return even_normal_shift(cells)

    def art_origin(self, row, col):
        return row, col - (row + col) % 2

    def parity_weight(self, cell) -> int:
        return (1, -1, 0)[colour(cell)]

    def parity_story(self, cells) -> str:
        counts = [0, 0, 0]
        for cell in cells:
            counts[colour(cell)] += 1
        return "three-colour parity: the board has {} + {} + {} cells of the three colours".format(*counts)

    def art_problem(self, cell):
        if not self.is_cell(cell):
            row, col = cell
            return (
                "on the hex lattice a cell sits where row + column is even, counting both from 0 "
                f"(rows from the board's first row, not the file's first line): this is row {row}, "
                f"column {col}; rows are staggered, '# # #' over ' # # #'"
            )
        return None

    def polygon(self, cell):
        r, c = cell
        cx, cy = (c + 1) / 2, SIDE + r * 1.5 * SIDE
        half = 0.5
        return [
            (cx, cy - SIDE),
            (cx + half, cy - SIDE / 2),
            (cx + half, cy + SIDE / 2),
            (cx, cy + SIDE),
            (cx - half, cy + SIDE / 2),
            (cx - half, cy - SIDE / 2),
        ]


HEX = HexLattice()


@hookimpl
def register_lattices(register):
    register(HEX)
