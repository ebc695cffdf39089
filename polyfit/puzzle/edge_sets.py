"""The built-in piece sets of the edge lattices: polysticks and polytwigs.

Registered through the ``register_piece_sets`` hook like the polyominoes. Named pieces are drawn
below in their lattice's text art (one string per row): polysticks with ``+`` at lattice points
and ``-`` and ``|`` for segments, polytwigs with ``/``, ``\\`` and ``|``. The names are Polyform
Puzzler's (D. Goodger), so its puzzles read the same here; the tests check that each set's
shapes are exactly the enumerator's classes (:mod:`polyfit.lattices.polyforms`).

- polysticks: monostick ``I1``, disticks ``I2 V2``, tristicks ``I3 L3 T3 U3 Z3``, the 16
  tetrasticks by the letters they look like (``F H I J L N O P R T U V W X Y Z``), the 55
  pentasticks ``P01``..``P55`` in the enumerator's order;
- polytwigs: monotwig ``I1``, ditwig ``L2``, tritwigs ``C3 S3 Y3``, tetratwigs ``C4 P4 W4
  Y4``, the 12 pentatwigs and the 27 hexatwigs by Polyform Puzzler's names (``C5``..``Y5``,
  ``C06``..``Y26``);
- one-sided sets add each chiral piece's mirror image, primed (``L'``), and none may be turned
  over.
"""

from __future__ import annotations

from functools import cache

from polyfit.hookspecs import hookimpl
from polyfit.lattices import base as lattices
from polyfit.lattices.textart import Art, art_cells
from polyfit.puzzle.lattice_sets import named_or_numbered, register_sets, with_mirror_images
from polyfit.puzzle.pieces import Piece

STICKS = {
    1: {"I1": ("+-+",)},
    2: {"I2": ("+-+-+",), "V2": ("+", "|", "+-+")},
    3: {
        "I3": ("+-+-+-+",),
        "L3": ("    +", "    |", "+-+-+"),
        "T3": ("  +", "  |", "+-+-+"),
        "U3": ("+ +", "| |", "+-+"),
        "Z3": ("+-+", "  |", "  +-+"),
    },
    4: {
        "F": ("+ +", "| |", "+-+-+"),
        "H": ("  +-+", "  |", "+-+-+"),
        "I": ("+-+-+-+-+",),
        "J": ("  +-+", "    |", "+-+-+"),
        "L": ("      +", "      |", "+-+-+-+"),
        "N": ("    +-+", "    |", "+-+-+"),
        "O": ("+-+", "| |", "+-+"),
        "P": ("+-+", "| |", "+ +-+"),
        "R": ("  +", "  |", "+-+-+", "|", "+"),
        "T": ("  +", "  |", "  +", "  |", "+-+-+"),
        "U": ("+   +", "|   |", "+-+-+"),
        "V": ("    +", "    |", "    +", "    |", "+-+-+"),
        "W": ("    +", "    |", "  +-+", "  |", "+-+"),
        "X": ("  +", "  |", "+-+-+", "  |", "  +"),
        "Y": ("    +", "    |", "+-+-+-+"),
        "Z": ("    +", "    |", "+-+-+", "|", "+"),
    },
}
TWIGS = {
    1: {
        'I1': ('|',),
    },
    2: {
        'L2': (' /', '|'),
    },
    3: {
        'C3': (' / \\', '|'),
        'S3': ('  |', ' /', '|'),
        'Y3': ('\\ /', ' |'),
    },
    4: {
        'C4': (' / \\', '|', ' \\'),
        'P4': ('    /', '   |', '\\ /'),
        'W4': ('   /', '  |', ' /', '|'),
        'Y4': ('   |', '\\ /', ' |'),
    },
    5: {
        'C5': (' / \\', '|', ' \\ /'),
        'H5': ('\\ / \\', ' |', '/'),
        'I5': ('    /', '   |', '  /', ' |', '/'),
        'L5': (' \\ /', '  |', ' /', '|'),
        'P5': ('/ \\', '   |', '  /', ' |'),
        'R5': ('  \\ /', '   |', '\\ /'),
        'S5': (' \\', '  |', ' /', '|', ' \\'),
        'T5': ('   |', '\\ /', ' |', '/'),
        'U5': ('|', ' \\', '  |', ' /', '|'),
        'W5': ('   /', '  |', ' /', '|', ' \\'),
        'X5': ('\\ /', ' |', '/ \\'),
        'Y5': ('/ \\ /', '   |', '  /'),
    },
    6: {
        'C06': (' |', '  \\', '   |', '\\ /', ' |'),
        'F06': ('  \\', '   |', '\\ /', ' |', '/'),
        'H06': ('      /', '     |', '/ \\ /', '   |'),
        'H16': ('    /', '   |', '\\ /', ' |', '/'),
        'I06': ('     |', '    /', '   |', '  /', ' |', '/'),
        'J06': ('   / \\', '  |   |', ' /', '|'),
        'L06': ('    / \\', '   |', '  /', ' |', '/'),
        'L16': ('     |', '    /', '   |', '\\ /', ' |'),
        'L26': ('    /', '   |', '\\ /', ' |', '  \\'),
        'M06': ('   / \\', '  |', ' /', '|', ' \\'),
        'O06': (' / \\', '|   |', ' \\ /'),
        'Q06': (' /   /', '|   |', ' \\ /'),
        'Q16': ('/ \\', '   |', '\\ /', ' |'),
        'Q26': ('   \\', '|   |', ' \\ /', '  |'),
        'R06': ('    \\', '     |', '/ \\ /', '   |'),
        'R16': ('  \\', '   |', '\\ /', ' |', '  \\'),
        'S06': ('     / \\', '|   |', ' \\ /'),
        'S16': ('      / \\', '     |', '/ \\ /'),
        'S26': ('    / \\', '   |', '\\ /', ' |'),
        'U06': ('  \\ /', '   |', '\\ /', ' |'),
        'V06': ('\\     /', ' |   |', '  \\ /'),
        'W06': ('   / \\ /', '  |', ' /', '|'),
        'X06': ('    /', '   |', '\\ / \\', ' |'),
        'X16': ('  \\', '   |', '\\ / \\', ' |'),
        'Y06': ('     |', '/ \\ /', '   |', '    \\'),
        'Y16': ('     |', '/ \\ /', '   |', '  /'),
        'Y26': ('     /', '|   |', ' \\ /', '  |'),
    },
}
NAMED = {"sticks": STICKS, "twigs": TWIGS}
NUMBERED = {("sticks", 5): "P"}


@cache
def polyforms(lattice: str, n: int) -> tuple[Piece, ...]:
    """The free ``n``-segment polyforms of an edge lattice, named, sorted by name."""
    grid = lattices.get(lattice)

    def cells_of(rows):
        return art_cells(list(enumerate(rows, 1)), "<piece art>", art=Art(lattice=grid)).cells

    return named_or_numbered(lattice, n, NAMED[lattice].get(n), NUMBERED.get((lattice, n), ""), cells_of)


@cache
def one_sided(lattice: str, n: int) -> tuple[Piece, ...]:
    """The free polyforms plus each chiral one's mirror image, primed; none turned over."""
    return with_mirror_images(lattice, polyforms(lattice, n))


SETS = {
    "monostick": ("sticks", 1, "the single segment of the square grid: I1"),
    "disticks": ("sticks", 2, "the 2 disticks: I2 V2"),
    "tristicks": ("sticks", 3, "the 5 tristicks: I3 L3 T3 U3 Z3"),
    "tetrasticks": ("sticks", 4, "the 16 tetrasticks: F H I J L N O P R T U V W X Y Z"),
    "pentasticks": ("sticks", 5, "the 55 pentasticks: P01..P55"),
    "monotwig": ("twigs", 1, "the single edge of the honeycomb: I1"),
    "ditwig": ("twigs", 2, "two honeycomb edges: L2"),
    "tritwigs": ("twigs", 3, "the 3 tritwigs: C3 S3 Y3"),
    "tetratwigs": ("twigs", 4, "the 4 tetratwigs: C4 P4 W4 Y4"),
    "pentatwigs": ("twigs", 5, "the 12 pentatwigs: C5 H5 I5 L5 P5 R5 S5 T5 U5 W5 X5 Y5"),
    "hexatwigs": ("twigs", 6, "the 27 hexatwigs: C06..Y26"),
}
ONE_SIDED = {
    "one-sided-tristicks": ("sticks", 3, "the 7 one-sided tristicks: the 5 and mirror images primed"),
    "one-sided-tetrasticks": ("sticks", 4, "the 25 one-sided tetrasticks: the 16 and mirror images primed"),
    "one-sided-pentasticks": ("sticks", 5, "the 99 one-sided pentasticks: P01..P55 and mirror images primed"),
    "one-sided-tritwigs": ("twigs", 3, "the 4 one-sided tritwigs: C3 S3 Y3 and S3'"),
    "one-sided-tetratwigs": ("twigs", 4, "the 6 one-sided tetratwigs: C4 P4 W4 Y4 and P4' Y4'"),
    "one-sided-pentatwigs": ("twigs", 5, "the 19 one-sided pentatwigs: the 12 and mirror images primed"),
    "one-sided-hexatwigs": ("twigs", 6, "the 49 one-sided hexatwigs: the 27 and mirror images primed"),
}


@hookimpl
def register_piece_sets(register):
    register_sets(register, SETS, ONE_SIDED, polyforms, one_sided)
