"""The symmetry group of a puzzle: the board's symmetries that also map the piece set to itself.

A board symmetry is an affine lattice map ``cell -> transform(cell) + offset`` taking the board
onto itself. It is a symmetry of the puzzle when it maps every piece's placements onto the
placements of one piece of the set: always for rotations, and for reflections when the set is
closed under mirroring (free pieces map to themselves, one-sided pieces to their mirror partner).
The transforms are the lattice's (:meth:`polyfit.lattices.base.Lattice.group`): 8 on squares,
48 on cubes, 12 on triangles and hexagons.
"""

from __future__ import annotations

from dataclasses import dataclass

from polyfit.lattices import base as lattices
from polyfit.lattices.grid import Cell, Transform


@dataclass(frozen=True)
class Symmetry:
    transform: Transform  # or another lattice's transform (same methods)
    offset: tuple[int, ...]
    piece_map: tuple[int, ...] = ()  # piece index -> index of the piece its placements become

    def __call__(self, cell: Cell) -> Cell:
        return tuple(a + b for a, b in zip(self.transform(cell), self.offset))

    @property
    def is_identity(self) -> bool:
        return self.transform.is_identity

    @property
    def is_proper(self) -> bool:
        return self.transform.is_proper


def board_symmetries(cells, lattice=None) -> list[Symmetry]:
    """Every lattice symmetry mapping the cell set onto itself, the identity first (squares or
    cubes unless ``lattice`` says otherwise)."""
    cells = list(cells)
    lattice = lattice or lattices.get(lattices.default_name(len(cells[0])))
    target = lattice.normalize(cells)
    shift = lattice.normal_shift(cells)
    result = []
    for g in lattice.group():
        image = g.apply(cells)
        if lattice.normalize(image) == target:
            # image + its shift == cells + their shift, so g then this offset maps cells onto cells
            image_shift = lattice.normal_shift(image)
            result.append(Symmetry(g, tuple(a - b for a, b in zip(image_shift, shift))))
    result.sort(key=lambda s: (not s.is_identity, s.transform))
    return result


def puzzle_symmetries(board_cells, pieces) -> list[Symmetry]:
    """The board symmetries under which the piece set maps onto itself, with that piece map.

    ``pieces`` are :class:`polyfit.puzzle.pieces.Piece` objects (anything with ``cells`` and
    ``orientations()``). Pieces of identical shape map to themselves first.
    """
    shapes = [set(p.orientations()) for p in pieces]
    counts = [getattr(p, "count", (1, 1)) for p in pieces]
    lattice = lattices.of(pieces[0])
    result = []
    for sym in board_symmetries(board_cells, lattice):
        mapping = []
        for i, piece in enumerate(pieces):
            image = lattice.normalize(sym.transform.apply(piece.cells))
            if image in shapes[i]:
                mapping.append(i)
                continue
            targets = [
                j for j, s in enumerate(shapes) if image in s and counts[j] == counts[i]
            ]
            if not targets:
                break
            mapping.append(targets[0])
        else:
            if len(set(mapping)) == len(mapping):
                result.append(Symmetry(sym.transform, sym.offset, tuple(mapping)))
    return result


def configuration_symmetries(symmetries, board, pieces) -> list[Symmetry]:
    """The symmetries that also respect a board's optional cells and pre-placed pieces: each
    optional cell goes to an optional cell, each pre-placed piece onto a pre-placed copy of the
    piece its placements become, and the placements a piece is allowed (``board.allowed``) onto
    those allowed the piece it becomes."""
    if not board.optional and not board.fixed and not board.allowed:
        return list(symmetries)
    index = {p.name: i for i, p in enumerate(pieces)}
    fixed = {(name, frozenset(cells)) for name, cells, _ in board.fixed}
    result = []
    for sym in symmetries:
        if {sym(c) for c in board.optional} != board.optional:
            continue
        if board.allowed and not _keeps_allowed(sym, board.allowed, pieces):
            continue
        if all(
            (pieces[sym.piece_map[index[name]]].name, frozenset(sym(c) for c in cells)) in fixed
            for name, cells, _ in board.fixed
        ):
            result.append(sym)
    return result


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
