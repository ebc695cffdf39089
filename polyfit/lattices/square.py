"""The square lattice (2D, cells ``(row, col)``) and the cubic one (3D, cells ``(z, row, col)``),
registered through the ``register_lattices`` hook like any plugin's lattice.

Their cells, transforms and checkerboard live in :mod:`polyfit.lattices.grid`; this module
wraps them in the :class:`~polyfit.lattices.base.Lattice` contract.
"""

from __future__ import annotations

from polyfit.errors import plural
from polyfit.hookspecs import hookimpl
from polyfit.lattices import grid
from polyfit.lattices.base import Lattice


class Orthogonal(Lattice):
    """Squares or cubes: every integer tuple is a cell, neighbours one step along an axis."""

    parity_name = "checkerboard"

    def __init__(self, name: str, dim: int, summary: str):
        self.name, self.dim, self.summary = name, dim, summary
        self.origins = ((0,) * dim,)

    def neighbours(self, cell):
        return grid.neighbours(cell)

    def flood_steps(self):
        steps = []
        for axis in range(self.dim):
            for step in (-1, 1):
                offset = [0] * self.dim
                offset[axis] = step
                steps.append((tuple(offset), None))
        return steps

    def group(self, mirror: bool = True):
        return grid.lattice_group(self.dim, mirror)

    def motion_directions(self):
        # the axes from the last coordinate (x) to the first: BurrTools tries x, y, z
        return tuple(tuple(int(i == axis) for i in range(self.dim)) for axis in reversed(range(self.dim)))

    def normal_shift(self, cells):
        return tuple(-min(c[i] for c in cells) for i in range(self.dim))

    def normalize(self, cells):
        return grid.normalize(cells)

    def mirrored(self, cells):
        return grid.normalize(cell[:-1] + (-cell[-1],) for cell in cells)

    def components(self, cells):
        return grid.components(cells)

    def parity_weight(self, cell) -> int:
        return 1 - 2 * grid.checker_colour(cell)

    def parity_story(self, cells) -> str:
        light = sum(grid.checker_colour(c) for c in cells)
        dark = len(cells) - light
        return f"checkerboard parity: the board has {dark} dark and {plural(light, 'light cell')}"

    def polygon(self, cell):
        if self.dim != 2:
            raise NotImplementedError("cubes are drawn as unit cubes")
        r, c = cell
        return [(c, r), (c + 1, r), (c + 1, r + 1), (c, r + 1)]


SQUARE = Orthogonal("square", 2, "squares: polyominoes, cells (row, col), 8 symmetries")
CUBIC = Orthogonal("cubic", 3, "cubes: polycubes, cells (z, row, col), 48 symmetries")


@hookimpl
def register_lattices(register):
    register(SQUARE)
    register(CUBIC)
