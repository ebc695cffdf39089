"""Integer cells on the square (2D) and cubic (3D) lattices, and their symmetries.

A cell is a tuple of ints: ``(row, col)`` in 2D, ``(z, row, col)`` in 3D. A shape is a tuple of
cells. A lattice symmetry is a signed permutation of the coordinates: 8 of them in 2D, 48 in 3D,
half of which are proper rotations. (Knuth's polyomino and polycube generators close two
generating rotations; the signed permutations are simply listed here.)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, cached_property
from itertools import permutations, product

Cell = tuple[int, ...]
Shape = tuple[Cell, ...]


@dataclass(frozen=True, order=True)
class Transform:
    """A linear lattice symmetry: coordinate ``i`` of the image is ``signs[i] * cell[perm[i]]``."""

    perm: tuple[int, ...]
    signs: tuple[int, ...]

    def __call__(self, cell: Cell) -> Cell:
        return tuple(s * cell[p] for p, s in zip(self.perm, self.signs))

    def apply(self, cells, offset=None) -> Shape:
        """The cells under this transform, then moved by ``offset`` (if given), in one pass."""
        if len(self.perm) == 3:
            (p, q, r), (a, b, c), (u, v, w) = self.perm, self.signs, offset or (0, 0, 0)
            return tuple([(a * x[p] + u, b * x[q] + v, c * x[r] + w) for x in cells])
        if len(self.perm) == 2:
            (p, q), (a, b), (u, v) = self.perm, self.signs, offset or (0, 0)
            return tuple([(a * x[p] + u, b * x[q] + v) for x in cells])
        return tuple(tuple(y + o for y, o in zip(self(c), offset or (0,) * len(c))) for c in cells)

    def then(self, other: Transform) -> Transform:
        """The transform that applies ``self`` first and ``other`` second."""
        perm = tuple(self.perm[p] for p in other.perm)
        signs = tuple(s * self.signs[p] for p, s in zip(other.perm, other.signs))
        return Transform(perm, signs)

    def inverse(self) -> Transform:
        n = len(self.perm)
        perm = [0] * n
        signs = [1] * n
        for i, (p, s) in enumerate(zip(self.perm, self.signs)):
            perm[p] = i
            signs[p] = s
        return Transform(tuple(perm), tuple(signs))

    @cached_property
    def is_proper(self) -> bool:
        """True for a rotation, False for a reflection (determinant -1); worked out once."""
        sign = 1
        for s in self.signs:
            sign *= s
        # parity of the permutation
        seen = [False] * len(self.perm)
        for i in range(len(self.perm)):
            if not seen[i]:
                j, length = i, 0
                while not seen[j]:
                    seen[j] = True
                    j = self.perm[j]
                    length += 1
                if length % 2 == 0:
                    sign = -sign
        return sign == 1

    @property
    def is_identity(self) -> bool:
        return self.perm == tuple(range(len(self.perm))) and all(s == 1 for s in self.signs)

    @staticmethod
    def identity(dim: int) -> Transform:
        return Transform(tuple(range(dim)), (1,) * dim)


@cache
def matrix_product(a, b) -> tuple:
    """The product ``a b`` of two square matrices given as rows."""
    n = len(a)
    return tuple(tuple(sum(a[i][k] * b[k][j] for k in range(n)) for j in range(n)) for i in range(n))


@cache
def lattice_group(dim: int, mirror: bool = True) -> tuple[Transform, ...]:
    """All lattice symmetries of the given dimension, sorted; only rotations if ``mirror`` is
    False. They are the signed permutations of the coordinates (the proper ones alone for
    rotations), made directly: closing generators under products cost a few milliseconds per
    call on the cube."""
    if dim not in (2, 3):
        raise ValueError(f"no lattice group for dimension {dim}")
    signs = list(product((1, -1), repeat=dim))
    group = [Transform(perm, sign) for perm in permutations(range(dim)) for sign in signs]
    return tuple(sorted(g for g in group if mirror or g.is_proper))


def normalize(cells) -> Shape:
    """Translate so every coordinate's minimum is 0, and sort the cells."""
    cells = list(cells)
    if not cells:
        return ()
    columns = list(zip(*cells))  # a coordinate at a time: no loop per cell in Python
    return tuple(sorted(zip(*[[v - low for v in column] for column, low in zip(columns, map(min, columns))])))


def orientations(cells, group) -> tuple[Shape, ...]:
    """The distinct normalized images of a shape under a group, in sorted order."""
    return tuple(sorted({normalize(g.apply(cells)) for g in group}))


def canonical(cells, group) -> Shape:
    """One representative per equivalence class under the group: the least orientation."""
    return min(normalize(g.apply(cells)) for g in group)


def neighbours(cell: Cell):
    """The 2*dim cells that share a face with ``cell``."""
    for i in range(len(cell)):
        for step in (-1, 1):
            yield cell[:i] + (cell[i] + step,) + cell[i + 1 :]


def is_connected(cells) -> bool:
    cells = set(cells)
    if not cells:
        return True
    start = next(iter(cells))
    seen = {start}
    stack = [start]
    while stack:
        for n in neighbours(stack.pop()):
            if n in cells and n not in seen:
                seen.add(n)
                stack.append(n)
    return len(seen) == len(cells)


def components(cells) -> list[set[Cell]]:
    """The face-connected components of a set of cells."""
    from polyfit.lattices.base import connected_components

    return connected_components(cells, neighbours)


def checker_colour(cell: Cell) -> int:
    """0 or 1: the checkerboard colour of a cell (sum of coordinates mod 2)."""
    return sum(cell) & 1
