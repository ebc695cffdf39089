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

from .geometry import Cell, checker_colour, components


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


def prune_area(board_cells, pieces, placements, stats: PlacementStats) -> list[Placement]:
    board = set(board_cells)
    areas = [len(p.cells) for p in pieces]
    makeable = {
        i: subset_sums(a for j, a in enumerate(areas) if j != i) for i in range(len(pieces))
    }
    kept = []
    for placement in placements:
        rest = board.difference(placement.cells)
        ok = makeable[placement.piece]
        if all(len(region) in ok for region in components(rest)):
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
