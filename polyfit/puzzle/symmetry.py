"""The symmetry group of a puzzle: the board's symmetries that also map the piece set to itself.

A board symmetry is an affine lattice map ``cell -> transform(cell) + offset`` taking the board
onto itself. It is a symmetry of the puzzle when it maps every piece's placements onto the
placements of one piece of the set: always for rotations, and for reflections when the set is
closed under mirroring (free pieces map to themselves, one-sided pieces to their mirror partner).
"""

from __future__ import annotations

from dataclasses import dataclass

from polyfit.lattices.grid import Cell, Transform, lattice_group, normalize


@dataclass(frozen=True)
class Symmetry:
    transform: Transform
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


def board_symmetries(cells) -> list[Symmetry]:
    """Every lattice symmetry mapping the cell set onto itself, the identity first."""
    cells = list(cells)
    dim = len(cells[0])
    target = normalize(cells)
    low = [min(c[i] for c in cells) for i in range(dim)]
    result = []
    for g in lattice_group(dim):
        image = g.apply(cells)
        if normalize(image) == target:
            image_low = [min(c[i] for c in image) for i in range(dim)]
            result.append(Symmetry(g, tuple(a - b for a, b in zip(low, image_low))))
    result.sort(key=lambda s: (not s.is_identity, s.transform))
    return result


def puzzle_symmetries(board_cells, pieces) -> list[Symmetry]:
    """The board symmetries under which the piece set maps onto itself, with that piece map.

    ``pieces`` are :class:`polyfit.puzzle.pieces.Piece` objects (anything with ``cells`` and
    ``orientations()``). Pieces of identical shape map to themselves first.
    """
    shapes = [set(p.orientations()) for p in pieces]
    counts = [getattr(p, "count", (1, 1)) for p in pieces]
    result = []
    for sym in board_symmetries(board_cells):
        mapping = []
        for i, piece in enumerate(pieces):
            image = normalize(sym.transform.apply(piece.cells))
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
