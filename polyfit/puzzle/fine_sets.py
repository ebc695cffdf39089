"""The built-in piece sets of the grids of tetrahedral sub-cells: polyrhombic dodecahedra.

A polyrhombic dodecahedron is made of whole rhombic dodecahedra of the ``rhombic`` lattice
(:meth:`polyfit.lattices.finegrids.RhombicGrid.dodecahedron`, 48 sub-cells each) joined face
to face: their centres are blocks whose coordinates add up to an even number, and two are
joined when their blocks differ by one in two coordinates (the face-centred cubic lattice's
12 neighbours). The sets hold one piece per shape under rotations (solids: turned in space,
never mirrored, as BurrTools does), ``A``, ``B``.. in the enumerator's order (``R01``.. past
26). A rotation
must take each dodecahedron onto one of the grid's, so it is one of the cube's: the two bent
chains of three, mirror images, are two pieces (a rotation taking the centres of one onto
the other would turn its dodecahedra off the grid).
"""

from __future__ import annotations

from functools import cache
from itertools import permutations, product

from polyfit.hookspecs import hookimpl
from polyfit.lattices.base import grow_polyforms
from polyfit.lattices.finegrids import RHOMBIC
from polyfit.puzzle.pieces import Piece

# name -> (dodecahedra, pieces): the enumerator's counts, checked by the tests
RHOMBIC_SETS = {"rhombic-dodecahedron": (1, 1), "rhombics-2": (2, 1), "rhombics-3": (3, 5), "rhombics-4": (4, 28)}
STEPS = tuple(sorted({s for p in permutations((1, 1, 0)) for signs in product((-1, 1), repeat=3)
                      for s in [tuple(a * b for a, b in zip(p, signs))]}))


def centre_neighbours(block):
    """The 12 blocks whose dodecahedra share a face with this block's."""
    return (tuple(a + b for a, b in zip(block, step)) for step in STEPS)


def _normal_centres(blocks):
    """Centres moved by a step of the face-centred cubic lattice (an even sum of blocks) to
    their least position, sorted."""
    low = [min(b[i] for b in blocks) for i in range(3)]
    if sum(low) % 2:
        low[2] -= 1
    return tuple(sorted(tuple(a - b for a, b in zip(block, low)) for block in blocks))


def polyrhombic_shapes(n: int) -> list:
    """The shapes (sub-cells, normalized) of the ``n``-dodecahedron pieces, one per class
    under the lattice's rotations, in the order their centres are first grown. A rotation about
    a block's centre moves the blocks by its signed permutation."""
    turns = [g.linear for g in RHOMBIC.group(mirror=False)]
    seen = set()
    shapes = []
    for centres in grow_polyforms(n, (0, 0, 0), centre_neighbours):
        key = min(_normal_centres(turn.apply(centres)) for turn in turns)
        if key not in seen:
            seen.add(key)
            shapes.append(RHOMBIC.normalize([c for b in centres for c in RHOMBIC.dodecahedron(b)]))
    return shapes


@cache
def polyrhombics(n: int) -> tuple[Piece, ...]:
    """The ``n``-dodecahedron pieces: ``A``, ``B``.. (``R01``.. when there are more than 26)."""
    shapes = polyrhombic_shapes(n)
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    names = letters if len(shapes) <= len(letters) else [f"R{i:02d}" for i in range(1, len(shapes) + 1)]
    return tuple(Piece(name, shape, False, lattice="rhombic") for name, shape in zip(names, shapes))


@hookimpl
def register_piece_sets(register):
    for name, (n, count) in RHOMBIC_SETS.items():
        if n == 1:
            what = "one rhombic dodecahedron"
        else:
            what = f"the {'shape' if count == 1 else f'{count} shapes'} of {n} face-joined rhombic dodecahedra"
        register(name, lambda n=n: list(polyrhombics(n)), f"{what} (solids on the rhombic lattice: turned in space, never mirrored)")
