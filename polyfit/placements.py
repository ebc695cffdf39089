"""Every way each piece fits the board, less the placements no solution can use.

A placement is one orientation of one piece at one position, all its cells on the board. Two
pruning rules drop placements that cannot be part of any solution:

- area: after placing the piece alone, each connected empty region left must have an area that
  some of the remaining pieces can make together;
- parity: colour the cells like a checkerboard; each placement covers some more cells of one
  colour than the other. The pieces' differences must add up to the board's, so a placement is
  dropped when the other pieces cannot make up the rest (repeated until nothing changes). When
  no choice at all adds up, the board is impossible without any search.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .geometry import Cell, checker_colour


@dataclass(frozen=True)
class Placement:
    piece: int  # index into the puzzle's piece list
    cells: tuple[Cell, ...]  # sorted


@dataclass
class PlacementStats:
    generated: int = 0
    pruned_area: int = 0
    pruned_parity: int = 0
    impossible: str | None = None  # why no solution can exist, when known before searching

    @property
    def kept(self) -> int:
        return self.generated - self.pruned_area - self.pruned_parity


@dataclass
class PlacementResult:
    placements: list[Placement]
    stats: PlacementStats = field(default_factory=PlacementStats)


def generate(board_cells, pieces) -> list[Placement]:
    """All placements, in a fixed order: by piece, orientation, then position."""
    board = set(board_cells)
    ordered_cells = sorted(board)
    result = []
    for index, piece in enumerate(pieces):
        for shape in piece.orientations():
            anchor = shape[0]
            for cell in ordered_cells:
                shift = tuple(c - a for c, a in zip(cell, anchor))
                placed = tuple(tuple(x + s for x, s in zip(c, shift)) for c in shape)
                if all(c in board for c in placed):
                    result.append(Placement(index, placed))
    return result


def subset_sums(values) -> set[int]:
    sums = {0}
    for v in values:
        sums |= {s + v for s in sums}
    return sums


def _sums_without_each(value_sets) -> list[set[int]]:
    """For each i, every total reachable by picking one value from each set except set i."""
    n = len(value_sets)
    prefix = [{0}]
    for values in value_sets:
        prefix.append({s + v for s in prefix[-1] for v in values})
    suffix = [{0}] * (n + 1)
    for i in range(n - 1, -1, -1):
        suffix[i] = {s + v for s in suffix[i + 1] for v in value_sets[i]}
    return [{a + b for a in prefix[i] for b in suffix[i + 1]} for i in range(n)]


class BitGrid:
    """Cells as bits of one integer, laid out with a spare column, row and layer between
    neighbours so that a face step is a shift and nothing wraps around an edge. Flood fill is
    then a few whole-board shifts and ANDs per step instead of a walk cell by cell."""

    def __init__(self, cells):
        cells = list(cells)
        dim = len(cells[0])
        low = [min(c[i] for c in cells) for i in range(dim)]
        size = [max(c[i] for c in cells) - low[i] + 2 for i in range(dim)]
        strides = [1] * dim
        for i in range(dim - 2, -1, -1):
            strides[i] = strides[i + 1] * size[i + 1]
        self.strides = strides
        self.bit = {
            c: 1 << sum((c[i] - low[i]) * strides[i] for i in range(dim)) for c in cells
        }

    def mask(self, cells) -> int:
        bit = self.bit
        m = 0
        for c in cells:
            m |= bit[c]
        return m

    def region_areas(self, free: int) -> list[int]:
        """The areas of the face-connected regions of a set of cells given as a mask."""
        strides = self.strides
        areas = []
        while free:
            region = free & -free
            while True:
                grown = region
                for s in strides:
                    grown |= (region << s) | (region >> s)
                grown &= free
                if grown == region:
                    break
                region = grown
            areas.append(region.bit_count())
            free &= ~region
        return areas


def prune_area(board_cells, pieces, placements, stats: PlacementStats) -> list[Placement]:
    grid = BitGrid(board_cells)
    everything = grid.mask(board_cells)
    areas = [len(p.cells) for p in pieces]
    makeable = {
        i: subset_sums(a for j, a in enumerate(areas) if j != i) for i in range(len(pieces))
    }
    kept = []
    for placement in placements:
        rest = everything & ~grid.mask(placement.cells)
        ok = makeable[placement.piece]
        if all(area in ok for area in grid.region_areas(rest)):
            kept.append(placement)
    stats.pruned_area += len(placements) - len(kept)
    return kept


def colour_difference(cells) -> int:
    return sum(1 - 2 * checker_colour(c) for c in cells)


def prune_parity(board_cells, pieces, placements, stats: PlacementStats) -> list[Placement]:
    target = colour_difference(board_cells)
    difference = {p: colour_difference(p.cells) for p in placements}
    while True:
        possible = [set() for _ in pieces]
        for p in placements:
            possible[p.piece].add(difference[p])
        if any(not s for s in possible):
            return placements  # a piece that fits nowhere is left for the search to report
        others = _sums_without_each(possible)
        kept = [p for p in placements if target - difference[p] in others[p.piece]]
        if len(kept) == len(placements):
            return kept
        stats.pruned_parity += len(placements) - len(kept)
        if not kept:
            light = sum(checker_colour(c) for c in board_cells)
            dark = len(board_cells) - light
            reachable = {d + s for d in possible[0] for s in others[0]}
            stats.impossible = (
                f"checkerboard parity: the board has {dark} dark and {light} light cells "
                f"(difference {target}), but no placement of the pieces adds up to that"
                + (f"; they can make differences {_brief(reachable)}" if reachable else "")
            )
            return kept
        placements = kept


def _brief(values) -> str:
    values = sorted(values)
    if len(values) > 12:
        return f"from {values[0]} to {values[-1]}"
    return ", ".join(str(v) for v in values)


def place(board_cells, pieces, prune: bool = True) -> PlacementResult:
    """Generate the placements and prune them by area and parity."""
    stats = PlacementStats()
    placements = generate(board_cells, pieces)
    stats.generated = len(placements)
    if prune:
        placements = prune_area(board_cells, pieces, placements, stats)
        placements = prune_parity(board_cells, pieces, placements, stats)
    return PlacementResult(placements, stats)
