"""The built-in piece sets of the triangle, hex and prism lattices: polyiamonds, polyhexes and
polyprisms.

Registered through the ``register_piece_sets`` hook like the polyominoes. Named pieces are drawn
below in their lattice's text art (rows separated by ``/``, ``#`` a cell): on the triangle
lattice character c of row r points up when r + c is even (so some drawings start with an empty
row 0); on the hex lattice cells sit where
r + c is even, rows staggered. The tests check that each set's shapes are exactly the
enumerator's classes (:mod:`polyfit.lattices.polyforms`).

- polyiamonds: moniamond ``M``, diamond ``D``, triamond ``T``; tetriamonds ``I C T``;
  pentiamonds ``I C L P``; hexiamonds by their usual letters ``I`` bar, ``P`` sphinx, ``J``
  crook, ``E`` crown, ``V`` lobster, ``H`` signpost, ``S`` snake, ``X`` butterfly, ``C``
  chevron, ``G`` hook, ``F`` yacht, ``O`` hexagon; heptiamonds ``T01``..``T24`` in the
  enumerator's order;
- polyhexes: monohex ``M``, dihex ``D``; trihexes ``I V A`` (bar, bent, triangle); tetrahexes
  ``I`` bar, ``P`` pistol, ``Y`` propeller, ``J`` worm, ``U`` arch, ``O`` bee, ``S`` wave;
  pentahexes ``P01``..``P22`` in the enumerator's order;
- one-sided sets add each chiral piece's mirror image, primed (``P'``), and none may be turned
  over;
- polyprisms (the ``prisms`` lattice): solids, turned in space and never mirrored, one per
  shape under rotations, ``A``, ``B``.. in the enumerator's order (``P01``.. past 26).
"""

from __future__ import annotations

from functools import cache

from polyfit.hookspecs import hookimpl
from polyfit.lattices import base as lattices
from polyfit.lattices.polyforms import free, one_sided as one_sided_forms
from polyfit.puzzle.pieces import Piece


def _cells(art: str):
    return [(r, c) for r, row in enumerate(art.split("/")) for c, ch in enumerate(row) if ch == "#"]


IAMONDS = {
    1: {"M": "#"},
    2: {"D": "##"},
    3: {"T": "###"},
    4: {"I": "####", "C": "/.###/...#", "T": "..#/.###"},
    5: {"I": "#####", "C": "/.###/.#.#", "L": "....#/.####", "P": "..#/.####"},
    6: {
        "I": "######",
        "P": "..#/.#####",
        "J": "/.#####/.#",
        "E": "/.#####/...#",
        "V": "..##/.####",
        "H": "/.####/...##",
        "S": "....#/.####/.#",
        "X": "..#/.####/...#",
        "C": "....##/.####",
        "G": "...##/.####",
        "F": "..#.#/.####",
        "O": "###/###",
    },
}
HEXES = {
    1: {"M": "#"},
    2: {"D": "# #"},
    3: {"I": "# # #", "V": "# #/ . #", "A": "# #/ #"},
    4: {
        "I": "# # # #",
        "P": "# # #/ #",
        "Y": "#/ # #/#",
        "J": "# # #/ . . #",
        "U": "# . #/ # #",
        "O": "# #/ # #",
        "S": "# #/ . # #",
    },
}
NUMBERED = {("triangle", 7): "T", ("hex", 5): "P"}


def named_or_numbered(lattice: str, n: int, named: dict | None, prefix: str, cells_of) -> tuple[Piece, ...]:
    """The free ``n``-cell polyforms of a lattice, sorted by name: drawn in ``named`` (name ->
    art, read by ``cells_of``), or else numbered ``PREFIX01``.. in the enumerator's order."""
    if named is not None:
        pieces = [Piece(name, cells_of(art), True, lattice=lattice) for name, art in named.items()]
    else:
        pieces = [Piece(f"{prefix}{i:02d}", s, True, lattice=lattice) for i, s in enumerate(free(n, lattice), 1)]
    return tuple(sorted(pieces, key=lambda p: p.name))


def with_mirror_images(lattice: str, pieces) -> tuple[Piece, ...]:
    """Free pieces as a one-sided set: each with its chiral mirror image, primed; none turned
    over; sorted by name."""
    grid = lattices.get(lattice)
    result = []
    for piece in pieces:
        result.append(Piece(piece.name, piece.cells, False, lattice=lattice))
        image = grid.mirrored(piece.cells)
        if grid.canonical(image, False) != grid.canonical(piece.cells, False):
            result.append(Piece(piece.name + "'", image, False, lattice=lattice))
    return tuple(sorted(result, key=lambda p: p.name))


def register_sets(register, sets: dict, one_sided_sets: dict, polyforms, one_sided) -> None:
    """Register ``{name: (lattice, n, summary)}`` as free and one-sided sets."""
    for name, (lattice, n, summary) in sets.items():
        register(name, lambda lattice=lattice, n=n: polyforms(lattice, n), summary)
    for name, (lattice, n, summary) in one_sided_sets.items():
        register(name, lambda lattice=lattice, n=n: one_sided(lattice, n), summary)


@cache
def polyforms(lattice: str, n: int) -> tuple[Piece, ...]:
    """The free ``n``-cell polyforms of the lattice, named, sorted by name."""
    named = (IAMONDS if lattice == "triangle" else HEXES).get(n)
    return named_or_numbered(lattice, n, named, NUMBERED.get((lattice, n), ""), _cells)


@cache
def one_sided(lattice: str, n: int) -> tuple[Piece, ...]:
    """The free ``n``-cell polyforms plus each chiral one's mirror image; none turned over."""
    return with_mirror_images(lattice, polyforms(lattice, n))


def _names(lattice, n) -> str:
    return " ".join(p.name for p in polyforms(lattice, n))


SETS = {
    "moniamond": ("triangle", 1, "the single triangle: M"),
    "diamond": ("triangle", 2, "two triangles: D"),
    "triamond": ("triangle", 3, "three triangles in a row: T"),
    "tetriamonds": ("triangle", 4, "the 3 tetriamonds: I C T"),
    "pentiamonds": ("triangle", 5, "the 4 pentiamonds: I C L P"),
    "hexiamonds": ("triangle", 6, "the 12 hexiamonds: I P J E V H S X C G F O"),
    "heptiamonds": ("triangle", 7, "the 24 heptiamonds: T01..T24"),
    "monohex": ("hex", 1, "the single hexagon: M"),
    "dihex": ("hex", 2, "two hexagons: D"),
    "trihexes": ("hex", 3, "the 3 trihexes: I V A"),
    "tetrahexes": ("hex", 4, "the 7 tetrahexes: I P Y J U O S"),
    "pentahexes": ("hex", 5, "the 22 pentahexes: P01..P22"),
}
ONE_SIDED = {
    "one-sided-tetriamonds": ("triangle", 4, "the 4 one-sided tetriamonds: I C T and I'"),
    "one-sided-pentiamonds": ("triangle", 5, "the 6 one-sided pentiamonds: I C L P and L' P'"),
    "one-sided-hexiamonds": ("triangle", 6, "the 19 one-sided hexiamonds: the 12 and mirror images primed"),
    "one-sided-heptiamonds": ("triangle", 7, "the 43 one-sided heptiamonds: T01..T24 and mirror images primed"),
    "one-sided-tetrahexes": ("hex", 4, "the 10 one-sided tetrahexes: the 7 and mirror images primed"),
    "one-sided-pentahexes": ("hex", 5, "the 33 one-sided pentahexes: P01..P22 and mirror images primed"),
}


# name -> (cells, pieces): the enumerator's counts, checked by the tests (not worked out when
# the sets are registered, which every start of polyfit does)
PRISM_SETS = {"monoprism": (1, 1), "diprisms": (2, 2), "triprisms": (3, 3), "tetraprisms": (4, 13), "pentaprisms": (5, 43)}
_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


@cache
def polyprisms(n: int) -> tuple[Piece, ...]:
    """The ``n``-cell polyprisms distinct under rotations in space, in the enumerator's order:
    named ``A``, ``B``.. (``P01``.. when there are more than 26)."""
    shapes = one_sided_forms(n, "prisms")
    names = _LETTERS if len(shapes) <= len(_LETTERS) else [f"P{i:02d}" for i in range(1, len(shapes) + 1)]
    return tuple(Piece(name, shape, False, lattice="prisms") for name, shape in zip(names, shapes))


# name -> (cells, pieces), as for PRISM_SETS: spheres turned as rigid bodies (flat pieces also by
# 60 degrees in their plane), never mirrored
SPHERE_SETS = {"monosphere": (1, 1), "dispheres": (2, 1), "trispheres": (3, 4), "tetraspheres": (4, 25)}


@cache
def polyspheres(n: int) -> tuple[Piece, ...]:
    """The ``n``-sphere polyspheres distinct under turns in space, in the enumerator's order,
    named as :func:`polyprisms` names its pieces."""
    shapes = one_sided_forms(n, "spheres")
    names = _LETTERS if len(shapes) <= len(_LETTERS) else [f"P{i:02d}" for i in range(1, len(shapes) + 1)]
    return tuple(Piece(name, shape, False, lattice="spheres") for name, shape in zip(names, shapes))


@hookimpl
def register_piece_sets(register):
    register_sets(register, SETS, ONE_SIDED, polyforms, one_sided)
    for name, (n, count) in PRISM_SETS.items():
        what = "one prism" if n == 1 else f"the {count} shapes of {n} face-joined triangular prisms"
        register(name, lambda n=n: list(polyprisms(n)), f"{what} (solids: turned in space, never mirrored)")
    for name, (n, count) in SPHERE_SETS.items():
        what = "one sphere" if n == 1 else f"the {count} shapes of {n} touching spheres in close packing"
        register(name, lambda n=n: list(polyspheres(n)), f"{what} (solids: turned in space, never mirrored)")
