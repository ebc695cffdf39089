"""Polytwigs: the unit segments of the hexagonal grid (the edges of a honeycomb).

Text art draws the honeycomb with its hexagons standing on a point, as polyfit's hex lattice
does, each edge one character: ``/`` and ``\\`` on even rows, ``|`` on odd rows::

     / \\ / \\
    |   |   |
     \\ / \\ /

A cell is the place its edge is drawn, ``(row, col)`` with ``row + col`` odd: ``/`` where
``row + col`` is 1 modulo 4, ``\\`` where it is 3 (even rows), ``|`` on odd rows where it is 1
(where it is 3 sits a hexagon's centre). Twice an edge's place, less the centre ``(1, 2)``, is
the sum of the two hexagons it separates in the hex lattice's doubled coordinates, so the 12
symmetries of the hexagon act on edges as on hexagons (:mod:`polyfit.lattices.triads`), about
the hexagon centred at ``(1, 2)``; a translation moves by even rows and columns whose sum is a
multiple of 4. Two edges are neighbours when they share an end point; three edges meet at a
point, at 120 degrees, so no two pieces can ever cross: polytwigs need no secondary items.

The parity weight tells the three directions of edges apart (+1, -1, 0).
"""

from __future__ import annotations

import math

from polyfit.hookspecs import hookimpl
from polyfit.lattices.edges import EdgeLattice
from polyfit.lattices.triads import TriadTransform, triad_group

UPRIGHT, RISING, FALLING = "|", "/", "\\"
CENTRE = (1, 2)  # a hexagon's centre: the symmetries turn about it
ROOT3 = math.sqrt(3)


class TwigTransform(TriadTransform):
    FLIP = 0

    @staticmethod
    def to_triad(cell):
        r, c = cell[0] - CENTRE[0], cell[1] - CENTRE[1]
        x = (c - r) // 2
        return (x, r, -x - r)

    @staticmethod
    def from_triad(t):
        return (t[1] + CENTRE[0], 2 * t[0] + t[1] + CENTRE[1])


class TwigsLattice(EdgeLattice):
    name = "twigs"
    summary = "honeycomb edges: polytwigs, drawn / \\ and |, 12 symmetries"
    origins = ((0, 1), (0, 3), (1, 0))  # a rising, a falling and an upright edge
    parity_name = "three-direction"
    parity_symmetric = False  # a turn by 60 degrees permutes the three directions
    all_translations = False
    degree = 3  # edges meeting at a point of the honeycomb
    STEPS = {
        UPRIGHT: ((-1, -1), (-1, 1), (1, -1), (1, 1)),
        RISING: ((-1, 1), (1, -1), (0, -2), (0, 2)),
        FALLING: ((-1, -1), (1, 1), (0, -2), (0, 2)),
    }
    MARKS = {UPRIGHT: "|", RISING: "/", FALLING: "\\"}
    art_help = (
        "on the twigs lattice '/' and '\\' are the slanted edges and '|' the upright ones, "
        "their rows alternating as in ' / \\' over '|   |'"
    )
    where_segments = (
        "rows of slanted edges ' / \\ / \\' alternate with rows of upright ones '|   |   |', "
        "each upright edge under the foot of a '/' and a '\\'"
    )

    def kind(self, cell):
        r, c = cell
        s = (r + c) % 4
        if s % 2 == 0:
            return None
        if r % 2:
            return UPRIGHT if s == 1 else None
        return RISING if s == 1 else FALLING

    def is_translation(self, shift) -> bool:
        return shift[0] % 2 == 0 and shift[1] % 2 == 0 and (shift[0] + shift[1]) % 4 == 0

    def coset(self, cell):
        return (cell[0] % 2, cell[1] % 2, (cell[0] + cell[1]) % 4)

    def group(self, mirror: bool = True):
        return triad_group(TwigTransform, mirror)

    def normal_shift(self, cells):
        low_r = min(c[0] for c in cells)
        low_c = min(c[1] for c in cells)
        dr = -low_r + low_r % 2
        return (dr, -low_c + (low_c - dr) % 4)

    def ends(self, cell):
        # In quarters of a row's height down (a row is 3/4 of an edge) and in columns.
        r, c = cell
        kind = self.kind(cell)
        if kind == UPRIGHT:
            return ((3 * r - 2, c), (3 * r + 2, c))
        if kind == RISING:
            return ((3 * r + 1, c - 1), (3 * r - 1, c + 1))
        return ((3 * r - 1, c - 1), (3 * r + 1, c + 1))

    def segment(self, cell):
        (a, b), (p, q) = self.ends(cell)
        return (b * ROOT3 / 4, a / 4), (q * ROOT3 / 4, p / 4)

    def art_shift(self, char, cell):
        kind = next((k for k, mark in self.MARKS.items() if mark == char), None)
        if kind is None:
            return None
        r, c = cell
        dr = (r + (kind == UPRIGHT)) % 2
        return dr, ((1 if kind != FALLING else 3) - (r + dr + c)) % 4

    def parity_weight(self, cell) -> int:
        return {UPRIGHT: 1, RISING: -1, FALLING: 0}[self.kind(cell)]

    def parity_story(self, cells) -> str:
        counts = {UPRIGHT: 0, RISING: 0, FALLING: 0}
        for cell in cells:
            counts[self.kind(cell)] += 1
        return (
            "three-direction parity: the board has {} '|', {} '/' and {} '\\' edges".format(
                counts[UPRIGHT], counts[RISING], counts[FALLING]
            )
        )


TWIGS = TwigsLattice()


@hookimpl
def register_lattices(register):
    register(TWIGS)
