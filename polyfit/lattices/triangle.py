"""The triangular lattice: polyiamonds.

Cell ``(r, c)`` is the triangle in row r, position c; it points up when r + c is even and down
when it is odd, so text art reads directly: line r, character c. Neighbours: ``(r, c - 1)``,
``(r, c + 1)``, and ``(r + 1, c)`` below an up triangle or ``(r - 1, c)`` above a down one.
Triangles of side 1 (the square cell's side) in rows of height sqrt(3)/2.

The 12 symmetries act on three coordinates (:mod:`polyfit.lattices.triads`): ``a = r``, the
strip ``b = floor((c - r - 1) / 2)`` between lines running down to the right, and ``c3`` that
makes ``a + b + c3`` -2 for an up triangle and -1 for a down one (edge neighbours differ by one
in one coordinate). Negation ``x -> -1 - x`` is the half
turn about a lattice vertex; it swaps up and down as it should.
"""

from __future__ import annotations

import math

from polyfit.hookspecs import hookimpl
from polyfit.lattices.base import Lattice
from polyfit.lattices.triads import AffineImages, TriadTransform, even_normal_shift, triad_group

HEIGHT = math.sqrt(3) / 2


class TriangleTransform(TriadTransform):
    FLIP = -1

    @staticmethod
    def to_triad(cell):
        r, c = cell
        b = (c - r - 1) // 2
        return (r, b, -1 - r - b - ((r + c + 1) & 1))

    @staticmethod
    def from_triad(t):
        a, b, c3 = t
        return (a, a + 2 * b + 1 + (a + b + c3 == -2))


def is_up(cell) -> bool:
    return (cell[0] + cell[1]) % 2 == 0


class TriangleLattice(AffineImages, Lattice):
    name = "triangle"
    dim = 2
    summary = "triangles: polyiamonds, cell (r, c) points up when r + c is even, 12 symmetries"
    origins = ((0, 0), (0, 1))  # an up and a down triangle
    parity_name = "up/down"
    all_translations = False

    def neighbours(self, cell):
        r, c = cell
        yield (r, c - 1)
        yield (r, c + 1)
        yield (r + 1, c) if (r + c) % 2 == 0 else (r - 1, c)

    def is_translation(self, shift) -> bool:
        return (shift[0] + shift[1]) % 2 == 0

    def coset(self, cell):
        return (cell[0] + cell[1]) % 2

    def flood_steps(self):
        return [((0, -1), None), ((0, 1), None), ((1, 0), is_up), ((-1, 0), lambda cell: not is_up(cell))]

    def group(self, mirror: bool = True):
        return triad_group(TriangleTransform, mirror)

    def normal_shift(self, cells):
        return even_normal_shift(cells)

    def art_origin(self, row, col):
        return row, col - (row + col) % 2

    def parity_weight(self, cell) -> int:
        return 1 if is_up(cell) else -1

    def parity_story(self, cells) -> str:
        up = sum(1 for c in cells if is_up(c))
        return f"up/down parity: the board has {up} up and {len(cells) - up} down triangles"

    def polygon(self, cell):
        r, c = cell
        top, bottom = r * HEIGHT, (r + 1) * HEIGHT
        if is_up(cell):
            return [((c + 1) / 2, top), (c / 2 + 1, bottom), (c / 2, bottom)]
        return [(c / 2, top), (c / 2 + 1, top), ((c + 1) / 2, bottom)]


TRIANGLE = TriangleLattice()


@hookimpl
def register_lattices(register):
    register(TRIANGLE)
