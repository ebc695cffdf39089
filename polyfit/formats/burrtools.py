"""BurrTools ``.xmpuzzle`` files: read their problems as boards with pieces, write them back.

An ``.xmpuzzle`` is XML, usually gzip-compressed: ``<puzzle version="2">`` holds a
``<gridType type="0"/>`` (0 is the cube grid, 1 the triangular prisms, 2 the spheres, 3 the
rhombic dodecahedra and 4 the tetrahedra-octahedra; polyfit reads these), the
``<colors>``, the ``<shapes>`` (``<voxel x= y= z= type="0">`` strings with one character per
voxel, x fastest, then y, then z: ``_`` empty, ``#`` filled, ``+`` variable, each optionally
followed by a colour number) and the ``<problems>``. A ``<problem>`` lists its pieces
(``<shape id= count=>`` or ``min= max=``), its goal (``<result id=>``), its colour rules
(``<bitmap>`` of ``<pair piece= result=>``: which piece colour may sit on which result colour)
and, once solved, ``<solutions>`` whose ``<assembly>`` gives each piece's position and
transformation (or ``x`` when a piece is left out).

Here each problem is a :class:`~polyfit.puzzle.board.Board`: the result's ``#`` voxels are its
cells, its ``+`` voxels the optional cells, and :attr:`Board.pieces` the problem's pieces with
their counts. Problems whose pieces and result all lie in one z layer are read as 2D boards
with pieces that may be turned over (a flat piece turned in space is its mirror image in the
plane); others are 3D, and pieces are never mirrored, as in BurrTools. Cells are
``(y, x)`` in 2D and ``(z, y, x)`` in 3D.

On the prism grid (grid type 1) voxel ``(x, y, z)`` is a triangular prism: its triangle
points up (+y) when x + y is even, and down when it is odd; x runs along a row of triangles,
half a side per step, y across the rows. It is cell ``(z, -y, x)`` of the ``prisms`` lattice
(:mod:`polyfit.lattices.prisms`: rows run down there), moved so that row + column keeps its
parity. Prism problems are always 3D boards.

On the sphere grid (grid type 2) voxel ``(x, y, z)`` is a sphere when x + y + z is even (the
voxels between are holes and stay empty): cell ``(z, y, x)`` of the ``spheres`` lattice
(:mod:`polyfit.lattices.spheres`), moved so that x + y + z stays even. Its transformations 0 to
23 are the cube's rotations in an order of their own; 24 to 119 turn flat pieces by 60 degrees
in a plane of closest packing (then as the cube turns), numbered as BurrTools numbers them.

On grid types 3 and 4 the voxels are the sub-cells of the ``rhombic`` and ``tetra-octa``
lattices (:mod:`polyfit.lattices.finegrids`), cell ``(z, y, x)`` as on cubes; a board is moved
only by whole blocks (of even parity on grid 4), so that every voxel stays the sub-cell it is,
and an assembly's transformation is the first that BurrTools places "on grid" there.

Colours are part of the shapes, as in BurrTools (:mod:`polyfit.puzzle.colours`): a coloured
piece goes only where its voxels keep the rule (a piece voxel of colour p on a result voxel of
colour r is allowed when either is neutral, 0, or the ``<bitmap>`` pairs them), a piece turned
so that other colours fall on the same cells is another placement, and only the symmetries
that keep the colours count solutions as the same. :attr:`Board.colours` holds them;
:attr:`Board.allowed` tells, on first use, the placements the rule allows for each piece it
restricts.

The XML is read with expat (:mod:`polyfit.formats.burrtools_xml`), refusing any
``<!DOCTYPE`` (so no entity can expand), and gzip is decompressed only up to polyfit's
``file-bytes`` limit; a file that is not UTF-8 and names no encoding is latin-1, as BurrTools
writes it. A shape's cells are counted against the ``cells`` limit before any is made. Every
problem is a :class:`~polyfit.errors.ParseError` naming the line and column (of the
decompressed XML).
"""

from __future__ import annotations

import math
import re
from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from polyfit.errors import ParseError, PolyfitError, UnknownNameError, plural
from polyfit.files import read_bytes
from polyfit.formats.burrtools_xml import Node, int_attribute, xml_tree
from polyfit.hookspecs import hookimpl
from polyfit.lattices.grid import matrix_product
from polyfit.limits import check
from polyfit.puzzle.board import Board, OnFirstUse
from polyfit.puzzle.orientations import normal
from polyfit.puzzle.pieces import Piece
from polyfit.records import Record

if TYPE_CHECKING:
    from polyfit.puzzle.colours import Colours

SUFFIX = ".xmpuzzle"
GRIDS = {
    0: "cubes",
    1: "triangular prisms",
    2: "spheres",
    3: "rhombic dodecahedra",
    4: "tetrahedra and octahedra",
}
NAMES = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
UNPLACED = "x"


# -- the 24 rotations, numbered as BurrTools numbers its transformations of the cube grid ------


@cache
def _rotations():
    """BurrTools' transformations of the cube grid as matrices (:data:`ROTATIONS`), worked out
    on first use: counting a cube file needs none. Transformation ``4 * a + k`` turns a shape
    ``k`` quarter turns about the x axis (y to z), then points the x axis at the ``a``-th of +x,
    +z, -x, -z, +y, -y; transformations 24 to 47 are the same after a reflection in x
    (BurrTools places pieces with the first 24 only)."""
    identity = ((1, 0, 0), (0, 1, 0), (0, 0, 1))
    about_x = ((1, 0, 0), (0, 0, -1), (0, 1, 0))
    x_to_z = ((0, 0, -1), (0, 1, 0), (1, 0, 0))
    x_to_y = ((0, -1, 0), (1, 0, 0), (0, 0, 1))
    x_to_minus_y = ((0, 1, 0), (-1, 0, 0), (0, 0, 1))
    bases = [identity, x_to_z, matrix_product(x_to_z, x_to_z), matrix_product(x_to_z, matrix_product(x_to_z, x_to_z)),
             x_to_y, x_to_minus_y]
    turns = [identity]
    for _ in range(3):
        turns.append(matrix_product(turns[-1], about_x))
    proper = [matrix_product(base, turn) for base in bases for turn in turns]
    flip = ((-1, 0, 0), (0, 1, 0), (0, 0, 1))
    return tuple(proper + [matrix_product(m, flip) for m in proper])


PROPER = 24  # BurrTools' assemblies use transformations 0..23


def rotate(matrix, point):
    return tuple(sum(matrix[i][k] * point[k] for k in range(3)) for i in range(3))


# -- the prism grid (grid type 1): its voxels as cells, and its 24 transformations -------------

PRISMS = 1
SPHERES = 2
FINE = {3: "rhombic", 4: "tetra-octa"}  # the grids of tetrahedral sub-cells: lattice by grid type
READ_GRIDS = (0, PRISMS, SPHERES) + tuple(FINE)
GRID_LATTICES = {PRISMS: "prisms", SPHERES: "spheres", **FINE}  # grid type -> its lattice (0: squares or cubes)
ROW = math.sqrt(0.75)  # the height of a row of triangles of side 1


def _spheres():
    """The sphere grid's numbers and checks (:mod:`polyfit.formats.burrtools_spheres`), loaded
    when a file is on that grid: the other grids' files need not pay for its tables."""
    from polyfit.formats import burrtools_spheres

    return burrtools_spheres


def prism_cell(voxel):
    """The ``prisms`` lattice's cell of BurrTools' prism voxel ``(x, y, z)`` (rows run down)."""
    x, y, z = voxel
    return (z, -y, x)


def prism_voxel(cell):
    z, r, c = cell
    return (c, -r, z)


def even_low(voxels):
    """The least corner of prism voxels, moved back one in x where x + y would be odd: taking it
    away keeps each triangle pointing the way it points."""
    low = [min(v[i] for v in voxels) for i in range(3)]
    low[0] -= (low[0] + low[1]) & 1
    return tuple(low)


@cache
def _prism_matrices():
    """The 24 transformations of the prism grid (:data:`PRISM_MATRICES`), on first use."""
    return tuple(_prism_matrix(t) for t in range(24))


def _prism_matrix(t: int):
    """Transformation ``t = 12 m + 6 f + k`` of the prism grid, on points of space: the
    mirror image x -> -x when m is 1, the half turn about the y axis when f is 1, then k turns
    by 60 degrees about the z axis. 0 to 11 are rotations, 12 to 23 their mirror images."""
    k, f, m = t % 6, t // 6 % 2, t // 12
    flip_x, flip_z = (-1) ** (f + m), (-1) ** f
    cos, sin = math.cos(math.radians(60 * k)), math.sin(math.radians(60 * k))
    return ((cos * flip_x, -sin, 0.0), (sin * flip_x, cos, 0.0), (0.0, 0.0, flip_z))


PRISM_PROPER = 12
WRITE_GRIDS = {"square": 0, "cubic": 0, "prisms": PRISMS, "spheres": SPHERES, "rhombic": 3, "tetra-octa": 4}  # lattice -> the grid type it is written as


def prism_turn(t: int, voxel):
    """Where BurrTools' transformation ``t`` takes prism voxel ``(x, y, z)``: its centre (the
    triangle's centroid, half-way up the layer) turned about the origin, a vertex of the
    lattice, and the voxel holding the turned centre."""
    x, y, z = voxel
    centre = (0.5 + 0.5 * x, ROW * (y + (2 if (x + y) & 1 else 1) / 3), z + 0.0)
    px, py, pz = rotate(_prism_matrices()[t], centre)
    return (round(2 * px - 1), math.floor(py / ROW), round(pz))


# -- names given on first use ------------------------------------------------------------------

# Counting a file needs neither the transformations' tables nor the separation trees (their
# module, polyfit.formats.burrtools_separations): these names are made or loaded when asked for.
_SEPARATION_NAMES = ("BurrSeparation", "separation_lines", "REMOVED_AT")


def __getattr__(name: str):
    if name == "ROTATIONS":
        return _rotations()
    if name == "PRISM_MATRICES":
        return _prism_matrices()
    if name in _SEPARATION_NAMES:
        from polyfit.formats import burrtools_separations

        return getattr(burrtools_separations, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# -- the puzzle's parts --------------------------------------------------------------------------


class Shape(Record):
    __slots__ = ("size", "voxels", "name", "hotspot", "line", "column", "weight")

    def __init__(self, size: tuple, voxels: dict, name: str, hotspot: tuple, line: int, column: int, weight: int = 1):
        self.size = size  # (x, y, z)
        self.voxels = voxels  # (x, y, z) -> (state '#' or '+', colour)
        self.name, self.hotspot, self.line, self.column = name, hotspot, line, column
        self.weight = weight  # which part moves when two come apart: the heavier stays

    def cells(self, state="#"):
        return sorted(v for v, (s, _) in self.voxels.items() if s == state)


class Part(Record):
    __slots__ = ("shape", "count", "groups")

    def __init__(self, shape: int, count: tuple[int, int], groups: tuple = ()):
        self.shape, self.count = shape, count
        self.groups = groups  # (group, count) pairs: copies that may stay together when taken apart


class Problem(Record):
    __slots__ = ("name", "parts", "result", "pairs", "max_holes", "assemblies", "line", "column", "trees")

    def __init__(self, name: str, parts: list, result: int, pairs: set, max_holes: int | None, assemblies: list,
                 line: int, column: int, trees: list | None = None):
        self.name, self.parts, self.result, self.pairs, self.max_holes = name, parts, result, pairs, max_holes
        self.assemblies = assemblies  # (text, line, column)
        self.line, self.column = line, column
        self.trees = [] if trees is None else trees  # per assembly: its <separation> node, or None


class XmPuzzle(Record):
    __slots__ = ("shapes", "problems", "colours", "path", "grid")

    def __init__(self, shapes: list, problems: list, colours: int, path: str, grid: int = 0):
        self.shapes, self.problems, self.colours, self.path = shapes, problems, colours, path
        self.grid = grid  # BurrTools' gridType: 0 cubes, 1 triangular prisms, 2 spheres, 3 and 4 fine grids


_NOT_VOXEL = re.compile(r"[^_#+0-9]")
_COLOUR = re.compile(r"[0-9]+")
_NO_DIGITS = str.maketrans("", "", "0123456789")


def _shape(node: Node, path, index: int) -> Shape:
    """A ``<voxel>`` shape. Its cells are counted, and checked against the ``cells`` limit,
    before any is made: a small gzip file can declare a box of millions of voxels."""
    size = tuple(int_attribute(node, axis, path, 1, 10_000) for axis in "xyz")
    int_attribute(node, "type", path, 0, 0)
    volume = size[0] * size[1] * size[2]
    where = f"{path}:{node.line}:{node.column}: shape {index}"
    check("box", volume, where)
    text = "".join(node.text.split())
    bad = _NOT_VOXEL.search(text) or _COLOUR.match(text)  # a colour before any voxel
    if bad:
        raise ParseError(path, node.line, node.column, f"shape {index}: unexpected {bad.group()[0]!r} in its voxels (they are '_', '#' or '+', each with an optional colour number)")
    states = text.translate(_NO_DIGITS) if _COLOUR.search(text) else text
    if len(states) != volume:
        raise ParseError(
            path, node.line, node.column,
            f"shape {index}: its voxel string has {plural(len(states), 'voxel')}, but x*y*z = "
            f"{size[0]}*{size[1]}*{size[2]} = {volume}",
        )
    check("cells", states.count("#") + states.count("+"), where)
    sx, sxy = size[0], size[0] * size[1]
    colour_at = {}
    if states is not text:
        digits = 0  # digits before the match: the voxel before it is at its start less them, less one
        for match in _COLOUR.finditer(text):
            colour = match.group()
            if len(colour) > 3 or int(colour) > 63:
                raise ParseError(path, node.line, node.column, f"shape {index}: colour {colour[:10]} is over BurrTools' 63")
            colour_at[match.start() - digits - 1] = int(colour)
            digits += len(colour)
    voxels = {}
    sy = size[1]
    for state in "#+":
        plain = (state, 0)
        position = states.find(state)
        while position >= 0:
            voxels[position % sx, position // sx % sy, position // sxy] = (state, colour_at[position]) if position in colour_at else plain
            position = states.find(state, position + 1)
    hotspot = tuple(int(node.attrs.get(k, "0")) if re.fullmatch(r"-?[0-9]{1,6}", node.attrs.get(k, "0")) else 0 for k in ("hx", "hy", "hz"))
    weight = int_attribute(node, "weight", path, 0, 2**31 - 1, default=1)
    return Shape(size, voxels, node.attrs.get("name", ""), hotspot, node.line, node.column, weight)


def _problem(node: Node, path, shapes: int, number: int) -> Problem:
    parts = []
    result = None
    pairs = set()
    assemblies = []
    trees = []
    for child in node.children:
        if child.tag == "shapes":
            for part in child.find("shape"):
                shape = int_attribute(part, "id", path)
                if shape >= shapes:
                    raise ParseError(path, part.line, part.column, f"problem {number} uses shape {shape}, but the file has shapes 0 to {shapes - 1}")
                if "count" in part.attrs:
                    lo = hi = int_attribute(part, "count", path)
                elif "min" in part.attrs or "max" in part.attrs:
                    lo, hi = int_attribute(part, "min", path), int_attribute(part, "max", path)
                    if lo > hi:
                        raise ParseError(path, part.line, part.column, f"min {lo} is above max {hi}")
                else:
                    lo = hi = 1
                # group="g": every copy in group g; else <group group= count=> children
                group = int_attribute(part, "group", path, 0, 65535, default=0)
                if group:
                    groups = ((group, hi),)
                else:
                    groups = tuple((int_attribute(g, "group", path, 0, 65535), int_attribute(g, "count", path, 0, 65535))
                                   for g in part.find("group"))
                parts.append(Part(shape, (lo, hi), groups))
        elif child.tag == "result":
            result = int_attribute(child, "id", path)
            if result >= shapes:
                raise ParseError(path, child.line, child.column, f"problem {number}'s result is shape {result}, but the file has shapes 0 to {shapes - 1}")
        elif child.tag == "bitmap":
            for pair in child.find("pair"):
                pairs.add((int_attribute(pair, "piece", path, 0, 62), int_attribute(pair, "result", path, 0, 62)))
        elif child.tag == "solutions":
            for solution in child.find("solution"):
                for assembly in solution.find("assembly"):
                    assemblies.append((assembly.text, assembly.line, assembly.column))
                    trees.append(None)
                for tree in solution.find("separation")[:1]:
                    if trees:
                        trees[-1] = tree  # read when asked for (read_separations)
    if result is None:
        raise ParseError(path, node.line, node.column, f"problem {number} has no <result id=...> (its goal shape)")
    holes = int_attribute(node, "maxHoles", path) if "maxHoles" in node.attrs else None
    return Problem(node.attrs.get("name", ""), parts, result, pairs, holes, assemblies, node.line, node.column, trees)


def read_separations(path, select: str | None = None) -> list:
    """The saved solutions of a problem with their trees: ``(assembly text, BurrSeparation or
    None)`` each, in the file's order."""
    from polyfit.formats.burrtools_separations import separation_tree

    puzzle = parse_puzzle(read_bytes(path), path)
    problem = puzzle.problems[select_problem(puzzle, select) - 1]
    found = []
    for (text, _, _), node in zip(problem.assemblies, problem.trees):
        tokens = text.split()
        placed = (len(tokens) - tokens.count(UNPLACED)) // 4
        found.append((" ".join(tokens), None if node is None else separation_tree(node, path, placed)))
    return found


def parse_puzzle(data: bytes, path="<bytes>") -> XmPuzzle:
    """The shapes and problems of an ``.xmpuzzle`` file's bytes (gzip or plain XML)."""
    root = xml_tree(data, path)
    if root.tag != "puzzle":
        raise ParseError(path, root.line, root.column, f"not a BurrTools puzzle: the XML's root is <{root.tag}>, not <puzzle>")
    version = root.attrs.get("version", "")
    if version not in ("1", "2"):
        raise ParseError(path, root.line, root.column, f"BurrTools puzzle version {version[:20]!r}: polyfit reads versions 1 and 2")
    kind = 0
    for grid in root.find("gridType"):
        kind = int_attribute(grid, "type", path, 0, 1000)
        if kind not in READ_GRIDS:
            name = GRIDS.get(kind, "an unknown grid")
            known = ", ".join(f"{GRIDS[k]} ({k})" for k in sorted(READ_GRIDS))
            raise ParseError(path, grid.line, grid.column, f"grid type {kind} ({name}): polyfit reads BurrTools' "
                             f"grids of {known}, not this one yet")
    colours = sum(len(c.find("color")) for c in root.find("colors"))
    shapes = []
    for holder in root.find("shapes"):
        for node in holder.find("voxel"):
            shapes.append(_shape(node, path, len(shapes)))
    problems = []
    for holder in root.find("problems"):
        for node in holder.find("problem"):
            problems.append(_problem(node, path, len(shapes), len(problems) + 1))
    if not problems:
        raise ParseError(path, root.line, root.column, "the puzzle has no problems (nothing to solve)")
    return XmPuzzle(shapes, problems, colours, str(path), kind)


# -- problems as boards -------------------------------------------------------------------------


def _flat(shapes) -> bool:
    """Do the shapes (and each of them) lie in one z layer?"""
    return all(s.size[2] == 1 or len({z for _, _, z in s.voxels}) <= 1 for s in shapes)


def _cell(voxel, flat: bool, grid: int = 0):
    if grid == PRISMS:
        return prism_cell(voxel)
    x, y, z = voxel
    return (y, x) if flat else (z, y, x)


def _cells(voxels, flat: bool, grid: int) -> list:
    """:func:`_cell` of each voxel, in one pass (a result may have a million voxels: no call
    per voxel)."""
    if grid == PRISMS:
        return [(z, -y, x) for x, y, z in voxels]  # prism_cell's
    if flat:
        return [(y, x) for x, y, _ in voxels]
    return [(z, y, x) for x, y, z in voxels]


def _colours(puzzle: XmPuzzle, problem: Problem, result: Shape, pieces, cell_of, flat: bool, grid: int) -> Colours | None:
    """The colours of the problem's goal and pieces (board cells and piece cells) and its rule
    (the bitmap numbers colours from 0, :class:`Colours` from 1), or None when nothing is
    coloured. BurrTools ignores the rule when the file defines no colours."""
    board = {cell_of(v): colour for v, (_, colour) in result.voxels.items() if colour}
    painted = {}
    for shape_id, piece in pieces:
        shape = puzzle.shapes[shape_id].voxels
        if not any(colour for _, colour in shape.values()):
            continue  # (a piece's voxels are all '#': a '+' in one is refused before)
        voxels = [(_cell(v, flat, grid), colour) for v, (state, colour) in shape.items() if state == "#"]
        painted[piece.name] = normal([c for c, _ in voxels], [k for _, k in voxels])[1]  # in the order of piece.cells
    if not board and not painted:
        return None
    from polyfit.puzzle.colours import Colours

    pairs = frozenset((p + 1, r + 1) for p, r in problem.pairs)
    return Colours(board, painted, pairs, rules=puzzle.colours > 0)


def _names(puzzle: XmPuzzle, problem: Problem) -> dict[int, str]:
    names = {}
    taken = set()
    ids = list(dict.fromkeys(p.shape for p in problem.parts))
    for shape in ids:
        name = puzzle.shapes[shape].name
        if len(name) == 1 and name in NAMES and name not in taken:
            names[shape] = name
            taken.add(name)
    spare = iter(n for n in NAMES if n not in taken)
    for shape in ids:
        if shape not in names:
            names[shape] = next(spare, f"S{shape}")
    return names


class Layout(Record):
    """How a problem's shapes became a board: what to undo to read its assemblies."""

    __slots__ = ("flat", "offset", "pieces", "grid")

    def __init__(self, flat: bool, offset: tuple, pieces: list, grid: int = 0):
        self.flat = flat
        self.offset = offset  # subtracted from every result cell
        self.pieces = pieces  # (shape id, Piece)
        self.grid = grid


def problem_board(puzzle: XmPuzzle, number: int) -> tuple[Board, Layout]:
    """Problem ``number`` (1-based) as a board with its pieces."""
    problem = puzzle.problems[number - 1]
    path = puzzle.path
    result = puzzle.shapes[problem.result]
    used = [puzzle.shapes[p.shape] for p in problem.parts if p.count[1] > 0]
    if not used:
        raise ParseError(path, problem.line, problem.column, f"problem {number} has no pieces")
    grid = puzzle.grid
    fine = _fine_lattice(grid)
    flat = grid == 0 and _flat([result] + used)
    every = _cells(result.voxels, flat, grid)
    if not every:
        raise ParseError(path, result.line, result.column, f"problem {number}'s result (shape {problem.result}) has no voxels")
    offset = tuple(min([c[i] for c in every]) for i in range(len(every[0])))
    if fine is not None:  # a move by whole blocks (of the parity that keeps the grid)
        _check_sub_cells(fine, [result] + used, path)
        offset = tuple(-k for k in fine.normal_shift(every))
    if grid == PRISMS and (offset[1] + offset[2]) & 1:
        offset = (offset[0], offset[1], offset[2] - 1)  # keep each triangle pointing its way
    if grid == SPHERES:
        offset = _spheres().check_voxels(puzzle, problem, number, offset)
    if any(offset):
        every = [tuple([a - b for a, b in zip(c, offset)]) for c in every]
    variable = frozenset(c for c, (state, _) in zip(every, result.voxels.values()) if state == "+")

    def shift(cell):
        return tuple(a - b for a, b in zip(cell, offset))

    names = _names(puzzle, problem)
    counts: dict[int, tuple[int, int]] = {}
    for part in problem.parts:
        lo, hi = counts.get(part.shape, (0, 0))
        counts[part.shape] = (lo + part.count[0], hi + part.count[1])
    pieces = []
    for shape_id, (lo, hi) in counts.items():
        if hi == 0:
            continue
        shape = puzzle.shapes[shape_id]
        if any(state == "+" for state, _ in shape.voxels.values()):
            raise ParseError(path, shape.line, shape.column, f"shape {shape_id} is a piece of problem {number} but has variable ('+') voxels; only a result may")
        cells = _cells(shape.voxels, flat, grid)  # all '#' (in the file's order: the piece sorts them)
        if not cells:
            raise ParseError(path, shape.line, shape.column, f"shape {shape_id} is a piece of problem {number} but has no filled voxels")
        check("cells", len(cells), f"{path}: shape {shape_id}")
        pieces.append((shape_id, Piece(names[shape_id], tuple(cells), flat, (lo, hi), GRID_LATTICES.get(grid, ""))))
    max_holes = problem.max_holes
    least, most = (sum(p.size * p.count[k] for _, p in pieces) for k in (0, 1))
    if least == most:
        max_holes = None  # the pieces' area is fixed: BurrTools ignores the limit (its holes are known)
    colours = _colours(puzzle, problem, result, pieces, lambda voxel: shift(_cell(voxel, flat, grid)), flat, grid)
    cells = tuple(sorted(every))
    allowed = {}
    if colours is not None:
        from polyfit.puzzle.colours import AllowedPlacements

        allowed = AllowedPlacements(cells, [p for _, p in pieces], colours)
    name = problem.name or result.name or f"{Path(path).stem} problem {number}"
    board = Board(
        cells,
        name,
        {"name": name, "source": f"{Path(path).name}, problem {number}"},
        path,
        variable,
        pieces=tuple(p for _, p in pieces),
        allowed=allowed,
        motion=tuple((puzzle.shapes[shape_id].weight, _groups(problem, shape_id), shape_id,
                      {} if flat or grid else _OrientationNumbers(piece)) for shape_id, piece in pieces),
        colours=colours,
        lattice=GRID_LATTICES.get(grid, ""),
        max_holes=max_holes,
    )
    return board, Layout(flat, offset, pieces, grid)


def _fine_lattice(grid: int):
    """The lattice of a grid of tetrahedral sub-cells (None for the others)."""
    if grid not in FINE:
        return None
    from polyfit.lattices.base import get

    return get(FINE[grid])


def _check_sub_cells(lattice, shapes, path) -> None:
    """Refuse a voxel that is no sub-cell of the grid (BurrTools' editor never sets one)."""
    for shape in shapes:
        for x, y, z in shape.voxels:
            if not lattice.is_cell((z, y, x)):
                raise ParseError(path, shape.line, shape.column, f"shape voxel x={x} y={y} z={z} is not a sub-cell of "
                                 f"BurrTools' {lattice.name} grid: its voxels there are empty")


def _groups(problem: Problem, shape_id: int) -> tuple:
    """The groups of the first entry of the problem's piece list with this shape."""
    return next(p.groups for p in problem.parts if p.shape == shape_id)


def problem_names(puzzle: XmPuzzle) -> list[str]:
    return [p.name or puzzle.shapes[p.result].name or "" for p in puzzle.problems]


def select_problem(puzzle: XmPuzzle, select: str | None) -> int:
    """The 1-based number of the problem ``select`` names: a number, or a problem's name."""
    if select is None:
        return 1
    names = problem_names(puzzle)
    text = select.strip()
    if text in names:
        return names.index(text) + 1
    if re.fullmatch(r"[0-9]{1,9}", text) and 1 <= int(text) <= len(names):
        return int(text)
    valid = [str(k) for k in range(1, len(names) + 1)] + [n for n in names if n]
    raise UnknownNameError("problem", text, valid)


def read_xmpuzzle(path, select: str | None = None) -> Board:
    """The problem ``select`` (a number from 1 or a name; default the first) of a file."""
    puzzle = parse_puzzle(read_bytes(path), path)
    return problem_board(puzzle, select_problem(puzzle, select))[0]


def read_all(path) -> list[Board]:
    """Every problem of a file, as boards (a problem polyfit cannot read is an error)."""
    puzzle = parse_puzzle(read_bytes(path), path)
    return [problem_board(puzzle, k)[0] for k in range(1, len(puzzle.problems) + 1)]


read_xmpuzzle.read_all = read_all


# -- assemblies ---------------------------------------------------------------------------------


def _piece_voxels(piece: Piece, flat: bool):
    """A piece's voxels as BurrTools sees them: (x, y, z) with the cells' least corner at 0
    (on prisms, the least corner with x + y even)."""
    if piece.lattice.name == "prisms":
        voxels = [prism_voxel(c) for c in piece.cells]
        low = even_low(voxels)
        return [tuple(a - b for a, b in zip(v, low)) for v in voxels]
    if piece.lattice.name == "spheres":
        return _spheres().piece_voxels(piece.cells)
    if flat:
        return [(c, r, 0) for r, c in piece.cells]
    return [(c, r, z) for z, r, c in piece.cells]


def _board_cell(voxel, layout: Layout):
    cell = _cell(voxel, layout.flat, layout.grid)
    return tuple(a - b for a, b in zip(cell, layout.offset))


def read_assemblies(path, select: str | None = None) -> list[dict]:
    """The saved assemblies of a problem, each as ``{piece label: sorted cells}`` (labels as in
    ``polyfit solve --json``: ``NAME``, or ``NAME#k`` for the k-th of several copies)."""
    puzzle = parse_puzzle(read_bytes(path), path)
    number = select_problem(puzzle, select)
    board, layout = problem_board(puzzle, number)
    problem = puzzle.problems[number - 1]
    slots = []  # one per piece copy BurrTools numbers: (shape id, piece name)
    for part in problem.parts:
        slots.extend([part.shape] * part.count[1])
    name_of = {shape_id: piece.name for shape_id, piece in layout.pieces}
    spheres = _spheres() if layout.grid == SPHERES else None
    result = []
    for text, line, column in problem.assemblies:
        tokens = text.split()
        placements = []
        k = 0
        while k < len(tokens):
            if tokens[k] == UNPLACED:
                placements.append(None)
                k += 1
                continue
            numbers = tokens[k : k + 4]
            if len(numbers) < 4 or not all(re.fullmatch(r"-?[0-9]{1,9}", n) for n in numbers):
                raise ParseError(path, line, column, "an assembly is four numbers (x y z transformation) or 'x' per piece")
            placements.append(tuple(int(n) for n in numbers))
            k += 4
        if len(placements) != len(slots):
            raise ParseError(path, line, column, f"an assembly places {len(placements)} pieces, the problem has {len(slots)}")
        cells_of: list[tuple[str, tuple]] = []
        for shape_id, placed in zip(slots, placements):
            if placed is None:
                continue
            x, y, z, t = placed
            proper = PRISM_PROPER if layout.grid == PRISMS else PROPER
            if layout.grid == SPHERES:
                spheres.check_transformation(t, path, line, column)
            elif not 0 <= t < proper:
                raise ParseError(path, line, column, f"transformation {t}: BurrTools' are 0 to {proper - 1}")
            shape = puzzle.shapes[shape_id]
            hx, hy, hz = shape.hotspot
            cells = []
            if layout.grid == PRISMS:
                # the voxel turned, less the hotspot turned, from the position (as BurrTools places it)
                hot = prism_turn(t, shape.hotspot)
                steps = [tuple(a - b for a, b in zip(prism_turn(t, v), hot)) for v in shape.cells("#")]
            elif layout.grid == SPHERES:
                steps = [spheres.turn(t, (vx - hx, vy - hy, vz - hz)) for vx, vy, vz in shape.cells("#")]
                if None in steps:
                    raise ParseError(path, line, column, f"transformation {t} turns shape {shape_id} off the sphere grid "
                                     "(BurrTools turns by 60 degrees only pieces flat in that plane)")
            else:
                matrix = _rotations()[t]
                steps = [rotate(matrix, (vx - hx, vy - hy, vz - hz)) for vx, vy, vz in shape.cells("#")]
            for dx, dy, dz in steps:
                cells.append(_board_cell((x + dx, y + dy, z + dz), layout))
            cells_of.append((name_of[shape_id], tuple(sorted(cells))))
        names = [n for n, _ in cells_of]
        seen: dict[str, int] = {}
        solution = {}
        for name, cells in cells_of:
            if names.count(name) > 1:
                seen[name] = seen.get(name, 0) + 1
                name = f"{name}#{seen[name]}"
            solution[name] = cells
        result.append(solution)
    return result


def _transformation(voxels, placed, grid: int = 0, lattice=None) -> tuple[int, tuple]:
    """The BurrTools transformation and position that put ``voxels`` (a piece with its hotspot
    at the origin) on the ``placed`` voxels: the first that does, as BurrTools' assembler finds
    it (on the grids of sub-cells, the first whose turned shape moves there on grid)."""
    target = sorted(placed)
    low = target[0]
    spheres = _spheres() if grid == SPHERES else None
    count = spheres.TRANSFORMATIONS if spheres else PRISM_PROPER if grid == PRISMS else PROPER
    for t in range(count):
        if grid == PRISMS:
            hot = prism_turn(t, (0, 0, 0))
            turned = [tuple(a - b for a, b in zip(prism_turn(t, v), hot)) for v in voxels]
            least = min(turned)
            if (low[0] - least[0] + low[1] - least[1] - hot[0] - hot[1]) & 1:
                # the position less the turned hotspot moves the piece's own voxels: by an odd
                # x + y it would turn triangles over, so this is not the transformation
                continue
        elif grid == SPHERES:
            turned = [spheres.turn(t, v) for v in voxels]
            if None in turned:
                continue
        else:
            matrix = _rotations()[t]
            turned = [rotate(matrix, v) for v in voxels]
        least = min(turned)
        position = tuple(a - b for a, b in zip(low, least))
        if grid in FINE and not _on_grid(t, voxels, position, lattice):
            continue
        if sorted(tuple(a + b for a, b in zip(v, position)) for v in turned) == target:
            return t, position
    raise PolyfitError("a placement is not the piece turned in space (a mirror image?): it cannot be written for BurrTools")


def _on_grid(t: int, voxels, position, lattice) -> bool:
    """Does BurrTools place the piece turned by ``t`` at ``position`` (its hotspot, at the
    origin, turned)? It turns the piece's box, grown to whole blocks, and shifts it back to
    the origin; the move from there must be by whole blocks (``onGrid``). How far it grows the
    box does not matter: by whole blocks of the parity that keeps the grid."""
    block = 2 * lattice.block if lattice.name == "tetra-octa" else lattice.block
    size = [-(-(max(v[i] for v in voxels) + 1) // block) * block for i in range(3)]
    matrix = _rotations()[t]
    back = [sum((size[j] - 1) for j in range(3) if matrix[i][j] < 0) for i in range(3)]
    move = [p - b for p, b in zip(position, back)]
    return lattice.is_translation((move[2], move[1], move[0]))


def orientation_numbers(piece: Piece) -> dict:
    """BurrTools' transformation number of each orientation of a 3D piece (normalized cells,
    (z, y, x)): the least that turns the piece so (it sorts copies of a piece by it)."""
    numbers = {}
    voxels = _piece_voxels(piece, False)
    rotations = _rotations()
    for t in range(PROPER):
        (a, b, c), (d, e, f), (g, h, i) = rotations[t]  # rotate(), unrolled: this runs per piece
        xs = [a * x + b * y + c * z for x, y, z in voxels]
        ys = [d * x + e * y + f * z for x, y, z in voxels]
        zs = [g * x + h * y + i * z for x, y, z in voxels]
        lx, ly, lz = min(xs), min(ys), min(zs)
        shape = tuple(sorted(zip([v - lz for v in zs], [v - ly for v in ys], [v - lx for v in xs])))
        numbers.setdefault(shape, t)
    return numbers


class _OrientationNumbers(OnFirstUse):
    """:func:`orientation_numbers` of a piece, worked out on first use: only taking apart an
    assembly with copies of the piece asks for them, and counting should not pay for them."""

    def __init__(self, piece: Piece):
        self._piece = piece

    def _make(self) -> dict:
        return orientation_numbers(self._piece)


# -- writing ------------------------------------------------------------------------------------


def _voxel_string(voxels: dict, size) -> str:
    sx, sy, sz = size
    return "".join(voxels.get((x, y, z), "_") for z in range(sz) for y in range(sy) for x in range(sx))


def _attr(value: str) -> str:
    return (
        value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
        .replace("\n", "&#10;").replace("\r", "&#13;").replace("\t", "&#9;")
    )


def _box(voxels):
    return tuple(max(v[i] for v in voxels) + 1 for i in range(3))


def _check_turns(piece: Piece, dim: int) -> None:
    """BurrTools turns pieces in space and never mirrors them: refuse what it would solve differently."""
    other = replace(piece, mirror=not piece.mirror).orientations()
    if set(other) == set(piece.orientations()):
        return  # the piece is its own mirror image: whether it may be turned over does not matter
    if dim == 3 and piece.mirror:
        raise PolyfitError(f"piece {piece.name} may be turned over (mirrored), which BurrTools never does; add its mirror image as a piece of its own")
    if dim == 2 and not piece.mirror:
        raise PolyfitError(f"piece {piece.name} may not be turned over, but BurrTools turns flat pieces over in space")


def xmpuzzle_text(board: Board, pieces, solutions=(), name: str | None = None, separations=()) -> str:
    """The XML of a puzzle with one problem: ``board`` filled by ``pieces`` (with their
    counts); ``solutions`` (``{label: cells}`` as ``polyfit solve --json`` gives them) are
    saved as assemblies. ``separations``, one per solution when given: how it comes apart, as
    ``(labels, tree, directions)`` (the disassembler's piece labels, its
    :class:`~polyfit.motion.Separation` tree and the lattice's directions of motion), saved as
    BurrTools' ``<separation>`` tree so that BurrTools can replay it. The pieces' weights and
    groups (``Board.motion``, from a BurrTools file) are written too."""
    if board.fixed:
        raise PolyfitError(f"{board.label} has pre-placed pieces, which BurrTools cannot express; remove them (or convert the board without them)")
    colours = board.colours
    if colours is None and board.allowed:
        raise PolyfitError(f"{board.label} restricts where some pieces go, which BurrTools can say only with colours; "
                           "polyfit writes the colours of a BurrTools file, not other restrictions")
    pieces = list(pieces)
    dim = board.dim
    flat = dim == 2
    grid = WRITE_GRIDS.get(board.lattice.name)
    if grid is None:
        raise PolyfitError(f"{board.label} is drawn on the {board.lattice.name} lattice, which BurrTools has no grid "
                           f"for (polyfit writes the {', '.join(WRITE_GRIDS)} lattices as .xmpuzzle)")
    for piece in pieces:
        if piece.dim != dim:
            raise PolyfitError(f"{board.label} is {dim}D but piece {piece.name} is {piece.dim}D")
        if piece.lattice != board.lattice:
            raise PolyfitError(f"{board.label} is on the {board.lattice.name} lattice but piece {piece.name} is on the {piece.lattice.name} lattice")
        _check_turns(piece, dim)
    if grid in GRID_LATTICES and grid != PRISMS and separations:
        raise PolyfitError(f"polyfit does not take assemblies of {GRIDS[grid]} apart: it cannot write their separations")

    def voxel(cell):
        if grid == PRISMS:
            return prism_voxel(cell)
        return (cell[1], cell[0], 0) if flat else (cell[2], cell[1], cell[0])

    if separations and len(separations) != len(solutions):
        raise PolyfitError(f"{len(separations)} separations for {len(solutions)} solutions: one each is needed")
    if separations:
        from polyfit.formats.burrtools_separations import separation_lines
    rules = board.motion if len(board.motion) == len(pieces) else ()
    # BurrTools files the counts of its groups under the shapes' numbers (see
    # polyfit.motion.groups): pieces with groups keep the numbers their file gave them
    ids = list(range(len(pieces)))
    if rules and any(r[1] for r in rules) and len({r[2] for r in rules}) == len(rules):
        ids = [r[2] for r in rules]
    result_id = min(set(range(len(ids) + 1)) - set(ids))
    shape_lines = {}
    lines = ['<?xml version="1.0"?>', '<puzzle version="2">', f'  <gridType type="{grid}"/>', *_colour_lines(colours), "  <shapes>"]
    piece_voxels = []
    for k, piece in enumerate(pieces):
        voxels = _piece_voxels(piece, flat)
        hot, spot = (0, 0, 0), ""
        if grid == SPHERES:  # the hotspot BurrTools gives it: positions are where it goes
            hot = _spheres().hotspot(voxels)
            spot = "".join(f' h{axis}="{n}"' for axis, n in zip("xyz", hot) if n)
        piece_voxels.append([tuple(a - b for a, b in zip(v, hot)) for v in voxels])
        size = _box(voxels)
        painted = colours.of(piece) if colours else ()
        text = _voxel_string({v: f"#{k or ''}" for v, k in zip(voxels, painted or [0] * len(voxels))}, size)
        weight = f' weight="{rules[k][0]}"' if rules and rules[k][0] != 1 else ""
        shape_lines[ids[k]] = f'    <voxel x="{size[0]}" y="{size[1]}" z="{size[2]}" type="0" name="{_attr(piece.name)}"{spot}{weight}>{text}</voxel>'
    painted = colours.cells if colours else {}
    board_voxels = {voxel(c): ("+" if c in board.optional else "#") + str(painted.get(c) or "") for c in board.cells}
    if grid == PRISMS:
        low = even_low(board_voxels)
    elif grid == SPHERES:
        low = _spheres().even_low(board_voxels)
    elif grid in FINE:  # a move by whole blocks, of the parity that keeps the grid
        low = tuple(-k for k in reversed(board.lattice.normal_shift(board.cells)))
    else:
        low = tuple(min(v[i] for v in board_voxels) for i in range(3))
    board_voxels = {tuple(a - b for a, b in zip(v, low)): s for v, s in board_voxels.items()}
    size = _box(board_voxels)
    title = name or board.name or board.label
    shape_lines[result_id] = f'    <voxel x="{size[0]}" y="{size[1]}" z="{size[2]}" type="0" name="{_attr(title)}">{_voxel_string(board_voxels, size)}</voxel>'
    for number in range(max(shape_lines) + 1):
        lines.append(shape_lines.get(number, '    <voxel x="1" y="1" z="1" type="0" name="unused">#</voxel>'))
    lines.append("  </shapes>")
    lines.append("  <problems>")
    # No solve state: BurrTools then keeps the saved assemblies and, when it solves the
    # problem, adds its own (burrTxt2 cannot resume a problem marked solved without its
    # assembler's state).
    holes = "" if board.max_holes is None else f' maxHoles="{board.max_holes}"'
    lines.append(f'    <problem name="{_attr(title)}"{holes}>')
    lines.append("      <shapes>")
    for k, piece in enumerate(pieces):
        lo, hi = piece.count
        count = f'count="{lo}"' if lo == hi else f'min="{lo}" max="{hi}"'
        groups = rules[k][1] if rules else ()
        if len(groups) == 1 and groups[0][1] >= hi:
            lines.append(f'        <shape id="{ids[k]}" {count} group="{groups[0][0]}"/>')
        elif groups:
            lines.append(f'        <shape id="{ids[k]}" {count}>')
            lines += [f'          <group group="{g}" count="{n}"/>' for g, n in groups]
            lines.append("        </shape>")
        else:
            lines.append(f'        <shape id="{ids[k]}" {count}/>')
    lines.append("      </shapes>")
    lines.append(f'      <result id="{result_id}"/>')
    if colours and colours.pairs:
        pairs = "".join(f'<pair piece="{p - 1}" result="{r - 1}"/>' for p, r in sorted(colours.pairs))
        lines.append(f"      <bitmap>{pairs}</bitmap>")
    else:
        lines.append("      <bitmap/>")
    if solutions:
        lines.append("      <solutions>")
        for number, solution in enumerate(solutions, start=1):
            text, slots = _assembly(solution, pieces, piece_voxels, voxel, low, grid)
            if not separations or separations[number - 1] is None:
                lines.append(f'        <solution asmNum="{number}"><assembly>{text}</assembly></solution>')
                continue
            lines.append(f'        <solution asmNum="{number}" solNum="{number}">')
            lines.append(f"          <assembly>{text}</assembly>")
            labels, tree, directions = separations[number - 1]
            missing = [label for label in labels if label not in slots]
            if missing or len(labels) != len(slots):
                raise PolyfitError(f"solution {number}'s disassembly names pieces {', '.join(labels)}, "
                                   f"its assembly {', '.join(slots)}")
            lines += separation_lines(tree, [slots[label] for label in labels], directions, voxel, "          ")
            lines.append("        </solution>")
        lines.append("      </solutions>")
    lines.append("    </problem>")
    lines.append("  </problems>")
    lines.append("  <comment/>")
    lines.append("</puzzle>")
    return "\n".join(lines) + "\n"


def _colour_lines(colours) -> list[str]:
    """The ``<colors>`` of a board's colours: as many as the highest colour number (BurrTools
    keeps a colour's red, green and blue, polyfit does not: they are spread round the hues);
    none when the colours came from a file that defined none (then no rule holds)."""
    if colours is None or not colours.rules:
        return ["  <colors/>"]
    used = [*colours.cells.values(), *(k for painted in colours.pieces.values() for k in painted),
            *(k for pair in colours.pairs for k in pair)]
    most = max(used, default=0)
    if not most:
        return ["  <colors/>"]
    import colorsys

    lines = ["  <colors>"]
    for k in range(most):
        red, green, blue = (round(255 * v) for v in colorsys.hsv_to_rgb(k / most, 0.6, 0.85))
        lines.append(f'    <color red="{red}" green="{green}" blue="{blue}"/>')
    return lines + ["  </colors>"]


def _assembly(solution: dict, pieces, piece_voxels, voxel, low, grid: int = 0) -> tuple[str, dict]:
    """The ``<assembly>`` text of a solution, and for each of its labels the piece's BurrTools
    number (its slot: the problem's pieces in order, the copies of one sorted by transformation
    and position, empty slots after them) and position ``(x, y, z)``: ``{label: (slot, xyz)}``."""
    by_piece: dict[str, list] = {}
    for label, cells in solution.items():
        by_piece.setdefault(label.split("#")[0], []).append((label, [tuple(c) for c in cells]))
    tokens = []
    slots = {}
    slot = 0
    for piece, voxels in zip(pieces, piece_voxels):
        placed = []
        for label, cells in by_piece.pop(piece.name, []):
            target = [tuple(a - b for a, b in zip(voxel(c), low)) for c in cells]
            t, (x, y, z) = _transformation(voxels, target, grid, piece.lattice)
            placed.append((x, y, z, t, label))
        if len(placed) > piece.count[1]:
            raise PolyfitError(f"a solution uses piece {piece.name} {len(placed)} times, more than its count allows")
        placed.sort(key=lambda p: (p[3], p[0], p[1], p[2]))
        for number, p in enumerate(placed):
            slots[p[4]] = (slot + number, p[:3])
        tokens += [" ".join(str(n) for n in p[:4]) for p in placed]
        tokens += [UNPLACED] * (piece.count[1] - len(placed))
        slot += piece.count[1]
    if by_piece:
        raise PolyfitError(f"a solution names pieces that are not in the puzzle: {', '.join(sorted(by_piece))}")
    return " ".join(tokens), slots


def xmpuzzle_bytes(board: Board, pieces, solutions=(), name: str | None = None, separations=()) -> bytes:
    """:func:`xmpuzzle_text`, gzip-compressed as BurrTools writes it."""
    import gzip

    return gzip.compress(xmpuzzle_text(board, pieces, solutions, name, separations).encode("utf-8"), mtime=0)


def sniff(head: bytes) -> bool:
    """Plain-XML puzzles are recognised by their content (gzip ones by the suffix)."""
    text = head.lstrip(b"\xef\xbb\xbf").lstrip()
    return text.startswith(b"<?xml") and b"<puzzle" in head


@hookimpl
def register_shape_readers(register):
    register("xmpuzzle", (SUFFIX,), read_xmpuzzle, sniff)
