"""BurrTools' sphere grid (grid type 2) in ``.xmpuzzle`` files: which voxels are spheres, how
its transformations are numbered, where a piece's voxels start.

A voxel ``(x, y, z)`` is a sphere when x + y + z is even; the others are the holes between
spheres, and a shape filling one is refused (BurrTools never turns them). Cells are ``(z, y,
x)`` of the ``spheres`` lattice (:mod:`polyfit.lattices.spheres`), and any move of voxels
keeps x + y + z even: the least corner of a shape steps back one in x where it would not.
"""

from __future__ import annotations

from polyfit.errors import ParseError
from polyfit.lattices.grid import lattice_group, matrix_product
from polyfit.lattices.spheres import NORMALS, half_turn


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
TRANSFORMATIONS = 120  # BurrTools' rotations of spheres: 24 of the cube, 96 turning flat pieces


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


def flat_turns(shape, position, board_cell) -> set:
    """The cells a flat piece may stand on when BurrTools places its hotspot at ``position``
    with one of its transformations 24 to 119 (whose numbers polyfit does not know): every turn
    of the piece by 60 degrees in its plane of closest packing (a half turn about the plane's
    normal, then each rotation of the cube), hotspot kept at ``position``."""
    hot = shape.hotspot
    vectors = [tuple(a - b for a, b in zip(v, hot))[::-1] for v in shape.cells("#")]  # (z, y, x)
    found = set()
    for normal in NORMALS:
        if any(sum(a * n for a, n in zip(v, normal)) for v in vectors):
            continue
        turned = [half_turn(normal, v) for v in vectors]
        for g in lattice_group(3, False):
            cells = (board_cell(tuple(p + d for p, d in zip(position, g(v)[::-1]))) for v in turned)
            found.add(tuple(sorted(cells)))
    return found


def place_flat_turns(flat: list, placed: list, board, path, line: int, column: int) -> list:
    """The cells of the flat pieces of an assembly that BurrTools turned by numbers polyfit does
    not know: the one way of putting each on one of its :func:`flat_turns` so that, with the
    pieces ``placed``, the assembly fills the board (its optional cells may stay empty). A parse
    error when no way, or more than one, does."""
    free = set(board.cells) - {c for _, cells in placed for c in cells}
    need = free - set(board.optional)
    found = []

    def fill(k, chosen, left):
        if len(found) > 1:
            return
        if k == len(flat):
            if not (need & left):
                found.append(list(chosen))
            return
        for cells in sorted(flat[k][1]):
            if left.issuperset(cells):
                chosen.append((flat[k][0], cells))
                fill(k + 1, chosen, left - set(cells))
                chosen.pop()

    fill(0, [], free)
    if len(found) != 1:
        how = "no way" if not found else "more than one way"
        raise ParseError(path, line, column, f"the assembly turns {len(flat)} flat piece(s) by transformations 24 to 119, "
                         f"whose numbers polyfit does not know, and {how} of turning them fills the result")
    return found[0]
