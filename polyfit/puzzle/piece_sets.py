"""The built-in piece sets, registered through the ``register_piece_sets`` hook like any plugin's.

Named pieces are drawn below as text art in their conventional pose; the tests check that each
set's shapes are exactly the enumerator's classes (``polyfit.lattices.polyforms``). Names:

- monomino ``M``, domino ``D``; trominoes ``I`` and ``L`` (the bent tromino is often called
  ``V``; ``L`` matches the tetromino and pentomino ``L`` it grows into);
- tetrominoes ``I O T L S``; pentominoes ``F I L N P T U V W X Y Z`` (Golomb's letters);
- hexominoes ``H01``..``H35`` and heptominoes ``S001``..``S108`` (septominoes) in the
  enumerator's order (sorted canonical shapes);
- one-sided sets add the mirror image of each chiral piece with a prime (``F'``, ``H03'``),
  except the one-sided tetrominoes, which use the usual ``I O T L J S Z`` (``J`` mirrors ``L``,
  ``Z`` mirrors ``S``, all as in Tetris);
- Soma: ``V L T Z A B P``. ``A`` and ``B`` are the two screws, mirror images of each other;
  ``P`` is the branch (one cube touching the three others).
- tricubes ``I V``; tetracubes ``I O T L S`` (flat) and ``P A B`` as in Soma (Kadon's Poly-4
  names); pentacubes: the 12 flat ones by their pentomino letter and the 17 others by Kadon's
  Superquints names ``L1 L2 L3 L4 J1 J2 J4 N1 N2 S1 S2 T1 T2 V1 V2 Q A``.

Which screw is ``A`` (and which of a Superquints pair is which) depends on handedness. 3D art
is read as layers seen from above, bottom layer first, the first row at the back; in that frame
``A`` has its top cube over the arm that lies clockwise of the other arm ("on top of the
clockwise side"), as in Wikipedia's Soma table and D. Goodger's Polyform Puzzler tables.

2D pieces may be turned over (``mirror=True``) except in the one-sided sets; solid 3D pieces may
not, so a mirror-image pair like Soma's ``A`` and ``B`` are two pieces. Builds are cached.
"""

from __future__ import annotations

from functools import cache

from polyfit.lattices.grid import Shape, canonical, lattice_group, normalize
from polyfit.hookspecs import hookimpl
from polyfit.puzzle.pieces import Piece
from polyfit.lattices.polyforms import free

# '#' is a cell, rows are separated by '/'; several arguments to solid() are its layers.


def _cells(art: str):
    return [(r, c) for r, row in enumerate(art.split("/")) for c, ch in enumerate(row) if ch == "#"]


def plane(art: str) -> Shape:
    """A 2D shape from one-line text art: rows separated by '/', '#' for a cell."""
    return normalize(_cells(art))


def solid(*layers: str) -> Shape:
    """A 3D shape from layers of one-line text art, bottom layer first."""
    return normalize((z,) + cell for z, layer in enumerate(layers) for cell in _cells(layer))


def mirrored(shape: Shape) -> Shape:
    """The mirror image of a shape (its columns reversed)."""
    return normalize(cell[:-1] + (-cell[-1],) for cell in shape)


TROMINOES = {"I": "###", "L": "##/#."}
TETROMINOES = {"I": "####", "O": "##/##", "T": "###/.#.", "L": "###/#..", "S": ".##/##."}
PENTOMINOES = {
    "F": ".##/##./.#.",
    "I": "#####",
    "L": "####/#...",
    "N": "##../.###",
    "P": "##/##/#.",
    "T": "###/.#./.#.",
    "U": "#.#/###",
    "V": "#../#../###",
    "W": "#../##./.##",
    "X": ".#./###/.#.",
    "Y": "####/.#..",
    "Z": "##./.#./.##",
}
POLYOMINO_NAMES = {1: {"M": "#"}, 2: {"D": "##"}, 3: TROMINOES, 4: TETROMINOES, 5: PENTOMINOES}
NUMBERED = {6: ("H", 2), 7: ("S", 3)}  # prefix and digits for sets without letters
ONE_SIDED_TETROMINO_MIRRORS = {"L": "J", "S": "Z"}

# The three tetracubes that are not flat, with their Soma names; each is the V tricube (bottom
# layer "#./##") plus one cube on top.
SOMA = {
    "V": solid("#./##"),
    "L": solid("###/#.."),
    "T": solid("###/.#."),
    "Z": solid("##./.##"),
    "A": solid("#./##", "../.#"),  # the top cube over the arm clockwise of the other arm
    "B": solid("#./##", "#./.."),  # over the other arm: A's mirror image
    "P": solid("#./##", "../#."),  # over the corner
}
TRICUBES = {"I": solid("###"), "V": SOMA["V"]}
TETRACUBES = {name: solid(art) for name, art in TETROMINOES.items()}
TETRACUBES.update({name: SOMA[name] for name in "PAB"})
PENTACUBES = {name: solid(art) for name, art in PENTOMINOES.items()}
PENTACUBES.update(
    {
        # The 17 that are not flat, by the names of Kadon's Superquints set.
        "L1": solid("..#/###", ".../#.."),
        "L2": solid("..#/###", ".../.#."),
        "L3": solid("..#/###", ".../..#"),
        "L4": solid("..#/###", "..#/..."),
        "J1": solid(".../#..", "..#/###"),
        "J2": solid(".../.#.", "..#/###"),
        "J4": solid("..#/...", "..#/###"),
        "N1": solid(".../#..", ".##/##."),
        "N2": solid(".../.#.", ".##/##."),
        "S1": solid(".##/##.", ".../#.."),
        "S2": solid(".##/##.", ".../.#."),
        "T1": solid("#./##/#.", "../#./.."),
        "T2": solid("#./##/#.", "../.#/.."),
        "V1": solid(".#/##/..", "../#./#."),
        "V2": solid(".#./##.", ".##/..."),
        "Q": solid("##/##", "../#."),
        "A": solid(".#/##", ".#/#."),
    }
)


@cache
def polyominoes(n: int) -> tuple[Piece, ...]:
    """The free ``n``-ominoes, named by letter where there are letters, sorted by name."""
    if n in POLYOMINO_NAMES:
        pieces = [Piece(name, plane(art), True) for name, art in POLYOMINO_NAMES[n].items()]
    else:
        prefix, digits = NUMBERED[n]
        pieces = [Piece(f"{prefix}{i:0{digits}d}", s, True) for i, s in enumerate(free(n), 1)]
    return tuple(sorted(pieces, key=lambda p: p.name))


@cache
def one_sided_polyominoes(n: int) -> tuple[Piece, ...]:
    """The free ``n``-ominoes plus the mirror image of each chiral one; none may be turned over."""
    rotations = lattice_group(2, mirror=False)
    result = []
    for piece in polyominoes(n):
        result.append(Piece(piece.name, piece.cells, False))
        image = mirrored(piece.cells)
        if canonical(image, rotations) != canonical(piece.cells, rotations):
            name = ONE_SIDED_TETROMINO_MIRRORS[piece.name] if n == 4 else piece.name + "'"
            result.append(Piece(name, image, False))
    return tuple(sorted(result, key=lambda p: p.name))


def _solids(table: dict[str, Shape]) -> tuple[Piece, ...]:
    return tuple(Piece(name, shape, False) for name, shape in table.items())


@cache
def soma() -> tuple[Piece, ...]:
    return _solids(SOMA)


@cache
def polycubes(n: int) -> tuple[Piece, ...]:
    """The ``n``-cubes distinct under rotation (3 <= n <= 5), in the order of the tables above."""
    return _solids({3: TRICUBES, 4: TETRACUBES, 5: PENTACUBES}[n])


BUILT_IN = {
    "monomino": (lambda: polyominoes(1), "the single square: M"),
    "domino": (lambda: polyominoes(2), "the 1x2 domino: D"),
    "trominoes": (lambda: polyominoes(3), "the 2 free trominoes: I L"),
    "tetrominoes": (lambda: polyominoes(4), "the 5 free tetrominoes: I O T L S"),
    "pentominoes": (lambda: polyominoes(5), "the 12 free pentominoes: F I L N P T U V W X Y Z"),
    "hexominoes": (lambda: polyominoes(6), "the 35 free hexominoes: H01..H35"),
    "heptominoes": (lambda: polyominoes(7), "the 108 free heptominoes: S001..S108"),
    "one-sided-tetrominoes": (
        lambda: one_sided_polyominoes(4),
        "the 7 one-sided tetrominoes: I O T L J S Z",
    ),
    "one-sided-pentominoes": (
        lambda: one_sided_polyominoes(5),
        "the 18 one-sided pentominoes: the 12 letters and mirror images F' L' N' P' Y' Z'",
    ),
    "one-sided-hexominoes": (
        lambda: one_sided_polyominoes(6),
        "the 60 one-sided hexominoes: H01..H35 and mirror images primed (H01')",
    ),
    "soma": (soma, "Piet Hein's 7 Soma pieces: V L T Z A B P (27 cubes)"),
    "tricubes": (lambda: polycubes(3), "the 2 tricubes: I V"),
    "tetracubes": (
        lambda: polycubes(4),
        "the 8 tetracubes distinct under rotation: I O T L S P A B",
    ),
    "pentacubes": (
        lambda: polycubes(5),
        "the 29 pentacubes distinct under rotation: 12 flat by letter, 17 by Kadon's names",
    ),
}


@hookimpl
def register_piece_sets(register):
    for name, (build, summary) in BUILT_IN.items():
        register(name, build, summary)
