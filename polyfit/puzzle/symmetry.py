"""The symmetry group of a puzzle: the board's symmetries that also map the piece set to itself.

A board symmetry is an affine lattice map ``cell -> transform(cell) + offset`` taking the board
onto itself. It is a symmetry of the puzzle when it maps every piece's placements onto the
placements of one piece of the set: always for rotations, and for reflections when the set is
closed under mirroring (free pieces map to themselves, one-sided pieces to their mirror partner).
The transforms are the lattice's (:meth:`polyfit.lattices.base.Lattice.group`): 8 on squares,
48 on cubes, 12 on triangles and hexagons.
"""

from __future__ import annotations

import math
from functools import lru_cache
from dataclasses import dataclass

from polyfit.lattices import base as lattices
from polyfit.lattices.grid import Cell, Transform
from polyfit.puzzle.orientations import (normal, numbered_images, oriented, painted_image, painted_orientations,
                                         translated)


@dataclass(frozen=True)
class Symmetry:
    transform: Transform  # or another lattice's transform (same methods)
    offset: tuple[int, ...]
    piece_map: tuple[int, ...] = ()  # piece index -> index of the piece its placements become

    def __call__(self, cell: Cell) -> Cell:
        return tuple(a + b for a, b in zip(self.transform(cell), self.offset))

    def images(self, cells):
        """The image of each cell, in order, without a call per cell (hundreds of coloured or
        optional cells, for each of up to 48 symmetries)."""
        if type(self.transform) is Transform:
            return self.transform.apply(cells, self.offset)
        return translated(self.transform.apply(list(cells)), self.offset)

    @property
    def is_identity(self) -> bool:
        return self.transform.is_identity

    @property
    def is_proper(self) -> bool:
        return self.transform.is_proper


def board_symmetries(cells, lattice=None) -> list[Symmetry]:
    """Every lattice symmetry mapping the cell set onto itself, the identity first (squares or
    cubes unless ``lattice`` says otherwise)."""
    cells = tuple(cells)
    lattice = lattice or lattices.get(lattices.default_name(len(cells[0])))
    if lattice.name in ("square", "cubic"):
        result = _box_symmetries(cells, lattice)
    elif type(lattice).__hash__ is None:  # (a plugin's lattice may be unhashable: not kept)
        result = list(_lattice_symmetries.__wrapped__(cells, lattice))
    else:
        result = list(_lattice_symmetries(cells, lattice))
    result.sort(key=lambda s: (not s.is_identity, s.transform))
    return result


@lru_cache(maxsize=8)
def _lattice_symmetries(cells: tuple, lattice) -> tuple:
    """:func:`board_symmetries` off squares and cubes, kept for the few boards last asked
    about (a puzzle asks for its board's twice: its own symmetries and its mirror partners).

    A symmetry of the board maps its cells with the fewest neighbours on it (its corners) onto
    themselves, and a translation keeps the order of cells: so the only offset that can follow
    a transform is the one that puts its image of the least corner on the least corner, and a
    transform whose corners do not land on the corners that way is no symmetry. Only those
    that pass are tried on every cell."""
    board = set(cells)
    degree = [sum(1 for n in lattice.neighbours(c) if n in board) for c in cells]
    fewest = min(degree)
    corners = [c for c, d in zip(cells, degree) if d == fewest]
    corner_set, least = set(corners), min(corners)
    result = []
    for g in lattice.group():
        moved = g.apply(corners)
        offset = tuple(a - b for a, b in zip(least, min(moved)))
        if not lattice.is_translation(offset) or set(translated(moved, offset)) != corner_set:
            continue
        if board.issuperset(translated(g.apply(cells), offset)):
            result.append(Symmetry(g, offset))
    return tuple(result)


def _box_symmetries(cells, lattice) -> list[Symmetry]:
    """On squares and cubes a symmetry maps the cells' box onto itself: only the transforms
    that permute equal sides are tried, each moved back onto the box and its image checked
    against the cells (a set look-up per cell, no sorting)."""
    axes = list(zip(*cells))  # each coordinate of every cell
    low, high = [min(axis) for axis in axes], [max(axis) for axis in axes]
    size = [h - l for l, h in zip(low, high)]
    board = set(cells)
    whole = len(board) == math.prod(n + 1 for n in size)  # the board fills its box
    result = []
    for g in lattice.group():
        if any(size[p] != size[k] for k, p in enumerate(g.perm)):
            continue
        # Coordinate k of an image is signs[k] * cell[perm[k]]: its least value over the box.
        least = [low[p] if s > 0 else -high[p] for p, s in zip(g.perm, g.signs)]
        offset = tuple(a - b for a, b in zip(low, least))
        if whole or board.issuperset(g.apply(cells, offset)):  # a whole box maps onto itself
            result.append(Symmetry(g, offset))
    return result


def _shape_images(pieces, colours):
    """The lattice, each piece's orientations, ``image_of(i, transform)``: the shape of piece
    ``i`` turned by ``transform``, as its orientations hold it, or on squares and cubes one
    shape of the same rotations (only ever looked up in sets of orientations), and
    ``kind(i, transform)``: transforms of the same kind turn piece ``i`` into the same
    orientations (on squares and cubes: the rotations, or the reflections of a piece that may
    not be turned over)."""
    lattice = lattices.of(pieces[0])
    if lattice.name in ("square", "cubic"):

        painted = [colours.of(p) if colours else () for p in pieces]
        # (A Piece's cells are normalized, and its colours in their order; other shapes' may not be.)
        cells = [tuple(p.cells) if k else normal(p.cells)[0] for p, k in zip(pieces, painted)]
        forms = [oriented(c, p.mirror, k) for c, p, k in zip(cells, pieces, painted)]
        # An orientation as the numbers of its cells (and its colours), with their base: ints
        # to hash, not hundreds of cells.
        shapes = [{(form.radix,) + key for key in form.by_number} for form in forms]

        mirrored: dict = {}  # piece -> its image under the first reflection asked for

        def image_of(i, transform):
            if transform.is_proper or pieces[i].mirror:  # one of the piece's own orientations
                return next(iter(shapes[i]))
            # Any two reflections differ by a rotation, and each piece's orientations hold all
            # its rotations: one reflected image per piece stands for all (it is only looked up).
            image = mirrored.get(i)
            if image is None:
                radix = forms[i].radix
                image = mirrored[i] = (radix,) + numbered_images(cells[i], painted[i], [transform], radix)[0]
            return image

        def kind(i, transform):
            return i, transform.is_proper or pieces[i].mirror
    else:
        painted = [colours.of(p) if colours else () for p in pieces]
        shapes = [set(painted_orientations(lattice, p.cells, p.mirror, k)) if k else {(o, ()) for o in p.orientations()}
                  for p, k in zip(pieces, painted)]

        def image_of(i, transform):
            return painted_image(lattice, transform.apply(pieces[i].cells), painted[i])

        def kind(i, transform):
            return i, transform
    return lattice, shapes, image_of, kind


def puzzle_symmetries(board_cells, pieces, colours=None) -> list[Symmetry]:
    """The board symmetries under which the piece set maps onto itself, with that piece map.

    ``pieces`` are :class:`polyfit.puzzle.pieces.Piece` objects (anything with ``cells`` and
    ``orientations()``). Pieces of identical shape map to themselves first. With ``colours``
    (:class:`polyfit.puzzle.colours.Colours`) a piece's colours are part of its shape.
    """
    counts = [getattr(p, "count", (1, 1)) for p in pieces]
    lattice, shapes, image_of, kind = _shape_images(pieces, colours)
    result = []
    found: dict = {}  # a kind of transform of a piece -> the piece it maps it to, or None
    for sym in board_symmetries(board_cells, lattice):
        mapping = []
        for i in range(len(pieces)):
            key = kind(i, sym.transform)
            if key not in found:  # (a shape of hundreds of voxels costs as much to hash)
                image = image_of(i, sym.transform)
                if image in shapes[i]:
                    found[key] = i
                else:
                    found[key] = next((j for j, s in enumerate(shapes) if image in s and counts[j] == counts[i]), None)
            if found[key] is None:
                break
            mapping.append(found[key])
        else:
            if len(set(mapping)) == len(mapping):
                result.append(Symmetry(sym.transform, sym.offset, tuple(mapping)))
    return result


def mirror_partners(board_cells, pieces, colours=None) -> list | None:
    """Under a reflection of the board, the piece each piece's placements become, whatever the
    counts: itself when it is its own mirror image (or may be turned over), the first piece of
    its mirror shape otherwise, None when the set has no such piece. None when the board has
    no reflection."""
    lattice, shapes, image_of, _ = _shape_images(pieces, colours)
    reflection = next((s for s in board_symmetries(board_cells, lattice) if not s.is_proper), None)
    if reflection is None:
        return None
    result = []
    for i in range(len(pieces)):
        image = image_of(i, reflection.transform)
        if image in shapes[i]:
            result.append(i)
        else:
            result.append(next((j for j, s in enumerate(shapes) if image in s), None))
    return result


def configuration_symmetries(symmetries, board, pieces) -> list[Symmetry]:
    """The symmetries that also respect a board's optional cells and pre-placed pieces: each
    optional cell goes to an optional cell, each pre-placed piece onto a pre-placed copy of the
    piece its placements become, and the placements a piece is allowed (``board.allowed``) onto
    those allowed the piece it becomes; with BurrTools colours (``board.colours``), each
    coloured cell to a cell of its colour (the pieces' colours are :func:`puzzle_symmetries`')."""
    colours = board.colours
    if not board.optional and not board.fixed and not colours and not board.allowed:
        return list(symmetries)
    index = {p.name: i for i, p in enumerate(pieces)}
    fixed = {(name, frozenset(cells)) for name, cells, _ in board.fixed}
    keeps_optional = _keeps(dict.fromkeys(board.optional, 0))
    keeps_colours = _keeps(colours.cells) if colours is not None else None
    result = []
    for sym in symmetries:
        if not keeps_optional(sym):
            continue
        if colours is not None:
            if not keeps_colours(sym):
                continue
        elif board.allowed and not _keeps_allowed(sym, board.allowed, pieces):
            continue
        if all(
            (pieces[sym.piece_map[index[name]]].name, frozenset(sym(c) for c in cells)) in fixed
            for name, cells, _ in board.fixed
        ):
            result.append(sym)
    return result


def _keeps(values: dict):
    """``keeps(sym)``: does a symmetry map every cell of ``values`` (cell -> value) to a cell
    of the same value? On squares and cubes the cells are turned in C, as a piece's are
    (:func:`polyfit.puzzle.orientations.numbered_images`): they are kept when their box is
    (its least corner goes to itself) and their image moved back to that corner is them."""
    cells, painted = list(values), tuple(values.values())
    if not cells:
        return lambda sym: True
    dim = len(cells[0])
    axes = list(zip(*cells))
    low, high = [min(axis) for axis in axes], [max(axis) for axis in axes]
    normalized = tuple(translated(cells, tuple(-a for a in low))) if dim in (2, 3) else ()
    radix = max(h - a for a, h in zip(low, high)) + 1
    small = normalized and radix ** dim * len(cells) < 2**58  # (numbers that fit a machine word)
    own = numbered_images(normalized, painted, [Transform.identity(dim)], radix)[0] if small else None

    def keeps(sym) -> bool:
        transform = sym.transform
        if own is None or type(transform) is not Transform:
            return all([values.get(image) == value for image, value in zip(sym.images(cells), painted)])
        least = [(low[p] if s > 0 else -high[p]) + o for p, s, o in zip(transform.perm, transform.signs, sym.offset)]
        return least == low and numbered_images(normalized, painted, [transform], radix)[0] == own

    return keeps


def _keeps_allowed(sym, allowed, pieces) -> bool:
    for i, piece in enumerate(pieces):
        image = pieces[sym.piece_map[i]].name
        if (piece.name in allowed) != (image in allowed):
            return False
        if piece.name in allowed:
            moved = {tuple(sorted(sym(c) for c in cells)) for cells in allowed[piece.name]}
            if moved != allowed[image]:
                return False
    return True
