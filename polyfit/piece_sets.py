"""The built-in piece sets, registered through the ``register_piece_sets`` hook.

Shapes come from the enumerator; names are the conventional letters where there are any:

- trominoes I L; tetrominoes I O T L S; pentominoes F I L N P T U V W X Y Z;
- one-sided sets add the mirror image of each chiral piece with a prime (``F'``), except the
  one-sided tetrominoes, which use the usual I O T L J S Z;
- hexominoes H01..H35 and heptominoes S001..S108 in the enumerator's (sorted) order;
- Soma: V L T Z A B P (A and B the two screw pieces, mirror images of each other; P the
  three-legged branch); tetracubes I O T L S P A B; pentacubes: the twelve flat ones by their
  pentomino letter, the 17 others C01..C17.

2D pieces may be turned over; solid 3D pieces may not (``mirror=False``), so a mirror-image
pair like Soma's A and B are two pieces.
"""

from __future__ import annotations

from functools import cache

from .geometry import canonical, lattice_group, normalize
from .hookspecs import hookimpl
from .pieces import Piece
from .polyforms import free, one_sided


def art(*rows: str) -> tuple:
    """A 2D shape from rows of text art ('#' = cell)."""
    return normalize((r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "#")


def flat(shape) -> tuple:
    """A 2D shape as a one-layer 3D shape."""
    return normalize((0,) + c for c in shape)


LETTERS = {
    2: {
        3: {"I": art("###"), "L": art("##", "#.")},
        4: {"I": art("####"), "O": art("##", "##"), "T": art("###", ".#."), "L": art("###", "#.."), "S": art(".##", "##.")},
        5: {
            "F": art(".##", "##.", ".#."),
            "I": art("#####"),
            "L": art("####", "#..."),
            "N": art("##..", ".###"),
            "P": art("##", "##", "#."),
            "T": art("###", ".#.", ".#."),
            "U": art("#.#", "###"),
            "V": art("#..", "#..", "###"),
            "W": art("#..", "##.", ".##"),
            "X": art(".#.", "###", ".#."),
            "Y": art("####", ".#.."),
            "Z": art("##.", ".#.", ".##"),
        },
    }
}
ONE_SIDED_TETROMINO_MIRRORS = {"L": "J", "S": "Z"}

_V = ((0, 0, 0), (0, 0, 1), (0, 1, 0))
SOMA = {
    "V": _V,
    "L": flat(art("###", "#..")),
    "T": flat(art("###", ".#.")),
    "Z": flat(art(".##", "##.")),
    "A": normalize(_V + ((1, 0, 1),)),
    "B": normalize(_V + ((1, 1, 0),)),
    "P": normalize(_V + ((1, 0, 0),)),
}


def _named(shapes, names_by_shape, group, prefix, width):
    """Name shapes by the conventional table, else ``prefix`` and a number."""
    named, counter = [], 0
    for shape in shapes:
        key = canonical(shape, group)
        if key in names_by_shape:
            named.append((names_by_shape[key], shape))
        else:
            counter += 1
            named.append((f"{prefix}{counter:0{width}d}", shape))
    return named


@cache
def polyominoes(n: int) -> tuple[Piece, ...]:
    group = lattice_group(2)
    letters = {canonical(s, group): name for name, s in LETTERS[2].get(n, {}).items()}
    prefix, width = {6: ("H", 2), 7: ("S", 3)}.get(n, ("", 1))
    named = sorted(_named(free(n), letters, group, prefix, width))
    return tuple(Piece(name, s, True) for name, s in named)


def _mirror(shape):
    return normalize((r, -c) for r, c in shape)


@cache
def one_sided_polyominoes(n: int) -> tuple[Piece, ...]:
    rotations = lattice_group(2, mirror=False)
    result = []
    for piece in polyominoes(n):
        result.append(Piece(piece.name, piece.cells, False))
        mirrored = _mirror(piece.cells)
        if canonical(mirrored, rotations) != canonical(piece.cells, rotations):
            name = piece.name + "'"
            if n == 4:
                name = ONE_SIDED_TETROMINO_MIRRORS[piece.name]
            result.append(Piece(name, mirrored, False))
    return tuple(sorted(result, key=lambda p: p.name))


@cache
def soma() -> tuple[Piece, ...]:
    return tuple(Piece(name, shape, False) for name, shape in SOMA.items())


@cache
def polycubes(n: int) -> tuple[Piece, ...]:
    rotations = lattice_group(3, mirror=False)
    names = {}
    if n == 3:
        names = {canonical(flat(art("###")), rotations): "I", canonical(_V, rotations): "V"}
    if n == 4:
        for name, shape in LETTERS[2][4].items():
            names[canonical(flat(shape), rotations)] = name
        for name in "PAB":
            names[canonical(SOMA[name], rotations)] = name
    if n == 5:
        for name, shape in LETTERS[2][5].items():
            names[canonical(flat(shape), rotations)] = name
    prefix = "C" if n == 5 else "Q"
    named = sorted(_named(one_sided(n, 3), names, rotations, prefix, 2))
    return tuple(Piece(name, shape, False) for name, shape in named)


BUILT_IN = {
    "monomino": (lambda: polyominoes(1), "the single square"),
    "domino": (lambda: polyominoes(2), "the 1x2 domino"),
    "trominoes": (lambda: polyominoes(3), "the 2 free trominoes: I L"),
    "tetrominoes": (lambda: polyominoes(4), "the 5 free tetrominoes: I O T L S"),
    "pentominoes": (lambda: polyominoes(5), "the 12 free pentominoes: F I L N P T U V W X Y Z"),
    "hexominoes": (lambda: polyominoes(6), "the 35 free hexominoes: H01..H35"),
    "heptominoes": (lambda: polyominoes(7), "the 108 free heptominoes: S001..S108"),
    "one-sided-tetrominoes": (lambda: one_sided_polyominoes(4), "the 7 one-sided tetrominoes: I O T L J S Z"),
    "one-sided-pentominoes": (lambda: one_sided_polyominoes(5), "the 18 one-sided pentominoes (mirror images primed: F')"),
    "one-sided-hexominoes": (lambda: one_sided_polyominoes(6), "the 60 one-sided hexominoes (mirror images primed)"),
    "soma": (soma, "Piet Hein's 7 Soma pieces: V L T Z A B P"),
    "tricubes": (lambda: polycubes(3), "the 2 tricubes: I V"),
    "tetracubes": (lambda: polycubes(4), "the 8 tetracubes distinct under rotation: I O T L S P A B"),
    "pentacubes": (lambda: polycubes(5), "the 29 pentacubes distinct under rotation"),
}


@hookimpl
def register_piece_sets(register):
    for name, (build, summary) in BUILT_IN.items():
        register(name, build, summary)
