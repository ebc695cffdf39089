"""BurrTools' sphere grid (grid type 2) in ``.xmpuzzle`` files: which voxels are spheres, how
its transformations are numbered, where a piece's voxels start.

A voxel ``(x, y, z)`` is a sphere when x + y + z is even; the others are the holes between
spheres, and a shape filling one is refused (BurrTools never turns them). Cells are ``(z, y,
x)`` of the ``spheres`` lattice (:mod:`polyfit.lattices.spheres`), and any move of voxels
keeps x + y + z even: the least corner of a shape steps back one in x where it would not.
"""

from __future__ import annotations

from itertools import product

from polyfit.errors import ParseError
from polyfit.lattices.grid import matrix_product


# BurrTools numbers the 24 rotations of the sphere grid so: transformation ``t = 8 b + 2 k + p``
# turns the piece with UP_BASES[2 b + p] (which brings the direction named onto +z) and then by k
# quarter turns about z (x towards y). Matrices act on (x, y, z), BurrTools' voxel order.
UP_BASES = (
    ((1, 0, 0), (0, 1, 0), (0, 0, 1)),  # +z stays up
    ((0, 0, 1), (0, -1, 0), (1, 0, 0)),  # +x up: the half turn about x + z
    ((0, 0, 1), (1, 0, 0), (0, 1, 0)),  # +y up: the turn by 120 degrees about x + y + z
    ((1, 0, 0), (0, 0, 1), (0, -1, 0)),  # -y up: the quarter turn about x
    ((0, 0, 1), (0, 1, 0), (-1, 0, 0)),  # -x up: the quarter turn about y
    ((1, 0, 0), (0, -1, 0), (0, 0, -1)),  # -z up: the half turn about x
)
QUARTER_Z = ((0, -1, 0), (1, 0, 0), (0, 0, 1))


def _rotations():
    result = [None] * 24
    for b in range(3):
        turns = ((1, 0, 0), (0, 1, 0), (0, 0, 1))
        for k in range(4):
            for p in range(2):
                result[8 * b + 2 * k + p] = matrix_product(turns, UP_BASES[2 * b + p])
            turns = matrix_product(QUARTER_Z, turns)
    return tuple(result)


BURRTOOLS_ROTATIONS = _rotations()  # transformation t (0 to 23) -> its matrix on (x, y, z)


def _thirds():
    """The 96 rotations of space, times 3, whose entries are thirds but not all whole: each row
    is 1, 2, 2 in some order and with some signs, the third row the cross product of the first
    two, over 3. They put every sphere of a flat piece (in a plane of closest packing: one whose
    normal is a diagonal of the cube) on a sphere, turned by 60 degrees in its plane and then as
    the cube turns, but not the packing. In the order of their rows' numbers."""
    rows = sorted(v for v in product((-2, -1, 1, 2), repeat=3) if v[0] ** 2 + v[1] ** 2 + v[2] ** 2 == 9)
    found = []
    for a in rows:
        for b in rows:
            c = (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])
            if a[0] * b[0] + a[1] * b[1] + a[2] * b[2] == 0 and not any(n % 3 for n in c):
                found.append((a, b, tuple(n // 3 for n in c)))
    return found


# BurrTools numbers those 96 in an order of its own (its table of matrices for the sphere grid,
# tabs_2/rotmatrix.inc, follows no rule that its sources state): transformation 24 + k is the
# FLAT_ORDER[k]-th of _thirds(). The live test compares them with BurrTools' table.
FLAT_ORDER = (
    60, 71, 54, 92, 39, 57, 41, 55, 50, 88, 56, 67, 45, 51, 35, 61, 86, 59, 82, 63, 77, 49, 73, 53,
    7, 16, 18, 79, 44, 5, 89, 48, 90, 6, 47, 4, 46, 76, 17, 91, 19, 78, 29, 9, 66, 38, 84, 31,
    8, 11, 64, 28, 87, 30, 85, 37, 65, 10, 58, 36, 15, 24, 13, 80, 70, 62, 34, 26, 25, 33, 69, 68,
    83, 14, 27, 32, 12, 81, 22, 75, 3, 20, 94, 2, 43, 40, 1, 93, 52, 95, 23, 74, 0, 42, 72, 21,
)


def _all_turns():
    flat = _thirds()
    cube = [tuple(tuple(3 * n for n in row) for row in m) for m in BURRTOOLS_ROTATIONS]
    return tuple(cube + [flat[k] for k in FLAT_ORDER])


TURNS = _all_turns()  # transformation t (0 to 119) -> 3 times its matrix on (x, y, z)
TRANSFORMATIONS = len(TURNS)  # BurrTools' rotations of spheres: 24 of the cube, 96 turning flat pieces


def turn(t: int, vector):
    """``vector`` (x, y, z; between two spheres of a shape) turned by transformation ``t``, or
    None where it does not end between two spheres (a turn by 60 degrees of a piece that is not
    flat in that plane: BurrTools never places a piece so)."""
    (a, b, c), (d, e, f), (g, h, i) = TURNS[t]
    x, y, z = vector
    turned = (a * x + b * y + c * z, d * x + e * y + f * z, g * x + h * y + i * z)
    if any(n % 3 for n in turned) or (turned[0] + turned[1] + turned[2]) % 6:
        return None  # off the grid, or onto a hole between spheres
    return (turned[0] // 3, turned[1] // 3, turned[2] // 3)


def check_transformation(t: int, path, line: int, column: int) -> None:
    if not 0 <= t < TRANSFORMATIONS:
        raise ParseError(path, line, column, f"transformation {t}: BurrTools' sphere transformations are 0 to {TRANSFORMATIONS - 1}")


def even_low(voxels):
    """The least corner of sphere voxels, one less in x where x + y + z would be odd."""
    low = [min(v[i] for v in voxels) for i in range(3)]
    low[0] -= sum(low) & 1
    return tuple(low)


def piece_voxels(cells):
    """A piece's voxels ``(x, y, z)`` from its cells ``(z, y, x)``, from their least corner."""
    voxels = [(x, y, z) for z, y, x in cells]
    low = even_low(voxels)
    return [tuple(a - b for a, b in zip(v, low)) for v in voxels]


def hotspot(voxels):
    """The sphere BurrTools makes a shape's hotspot (burrTxt2 sets it so on every shape before
    it solves): the filled voxel nearest the box's corner, the first in x-fastest order on ties."""
    return min(voxels, key=lambda v: (v[0] ** 2 + v[1] ** 2 + v[2] ** 2, v[2], v[1], v[0]))


def check_voxels(puzzle, problem, number: int, offset):
    """Refuse a problem whose result or pieces fill a hole between spheres; the result's offset
    (z, y, x), moved so that it keeps x + y + z even."""
    for shape_id in [problem.result] + [p.shape for p in problem.parts if p.count[1] > 0]:
        shape = puzzle.shapes[shape_id]
        hole = next((v for v in shape.voxels if sum(v) & 1), None)
        if hole is not None:
            x, y, z = hole
            raise ParseError(puzzle.path, shape.line, shape.column,
                             f"problem {number}: shape {shape_id} fills voxel ({x}, {y}, {z}), a hole between spheres "
                             "(on the sphere grid, x + y + z is even)")
    if sum(offset) & 1:
        offset = (offset[0], offset[1], offset[2] - 1)
    return offset
