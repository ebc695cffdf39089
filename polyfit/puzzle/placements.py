"""Every way each piece fits the board, less the placements no solution can use.

A placement is one orientation of one piece at one position, all its cells on the board. Each
piece ``i`` is used ``counts[i] = (lo, hi)`` times (exactly once by default); optional cells may
stay empty. Two pruning rules drop placements that cannot be part of any solution:

- area: after placing the piece alone, each connected empty region left must be fillable by
  some of the remaining pieces (within their counts): their total area must lie between the
  region's cells that must be filled and all its cells;
- parity (exact counts and no optional cells only): colour the cells like a checkerboard; each
  placement covers some more cells of one colour than the other. The pieces' differences must
  add up to the board's, so a placement is dropped when the other pieces cannot make up the rest
  (repeated until nothing changes). When no choice at all adds up, the board is impossible
  without any search.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from polyfit.errors import plural
from polyfit.lattices.grid import Cell, checker_colour


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


def generate(board_cells, pieces, counts=None) -> list[Placement]:
    """All placements, in a fixed order: by piece, orientation, then position (none for a piece
    whose count allows no more copies).

    A shape fits at shift ``s`` when every cell ``c`` of it lands on the board: ``s`` is in
    ``board - c`` for each ``c``, so the fitting shifts are the intersection of a few sets (each
    built once per cell offset)."""
    board = set(board_cells)
    landing: dict = {}  # cell offset c -> {b - c for b on the board}
    result = []
    for index, piece in enumerate(pieces):
        if counts is not None and counts[index][1] == 0:
            continue
        for shape in piece.orientations():
            fits = None
            for c in shape:
                shifts = landing.get(c)
                if shifts is None:
                    shifts = landing[c] = {tuple(x - y for x, y in zip(b, c)) for b in board}
                fits = shifts if fits is None else fits & shifts
            for shift in sorted(fits):
                placed = tuple(tuple(x + s for x, s in zip(c, shift)) for c in shape)
                result.append(Placement(index, placed))
    return result


def reachable_areas(sizes, counts) -> int:
    """Every total area of a choice of pieces within their counts, as a bit mask (bit a set
    when area a can be made)."""
    sums = 1 << sum(size * lo for size, (lo, _) in zip(sizes, counts))
    for size, (lo, hi) in zip(sizes, counts):
        for _ in range(hi - lo):
            sums |= sums << size
    return sums


def reaches(sums: int, low: int, high: int) -> bool:
    """Does the mask of areas hold some area in low..high?"""
    return high >= low and (sums >> low) & ((1 << (high - low + 1)) - 1) != 0


def area_problem(required: int, cells: int, sizes, counts) -> str | None:
    """Why no choice of pieces can fill the cells (``required`` of them must be filled, the
    others are optional), or None when some choice has a fitting total area."""
    if reaches(reachable_areas(sizes, counts), required, cells):
        return None
    low = sum(size * lo for size, (lo, _) in zip(sizes, counts))
    high = sum(size * hi for size, (_, hi) in zip(sizes, counts))
    need = f"{required}" if required == cells else f"{required} to {cells}"
    if low == high:
        return f"the pieces cover {plural(low, 'cell')}, but the board needs {need}"
    return (
        f"the pieces cover between {low} and {high} cells depending on the counts, but no "
        f"choice of them covers {need}"
    )


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
        return [region.bit_count() for region in self.regions(free)]

    def regions(self, free: int) -> list[int]:
        """The face-connected regions of a set of cells, each as a mask."""
        strides = self.strides
        regions = []
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
            regions.append(region)
            free &= ~region
        return regions


def prune_area(board_cells, pieces, placements, stats: PlacementStats, counts, optional=()) -> list[Placement]:
    grid = BitGrid(board_cells)
    everything = grid.mask(board_cells)
    must = everything & ~grid.mask(c for c in optional if c in grid.bit)
    sizes = [len(p.cells) for p in pieces]
    makeable = {}  # piece -> areas the other pieces (and its other copies) can make
    for i in {p.piece for p in placements}:
        others = [(0, hi - 1) if j == i else (0, hi) for j, (_, hi) in enumerate(counts)]
        makeable[i] = reachable_areas(sizes, others)
    kept = []
    for placement in placements:
        rest = everything & ~grid.mask(placement.cells)
        ok = makeable[placement.piece]
        if all(reaches(ok, (r & must).bit_count(), r.bit_count()) for r in grid.regions(rest)):
            kept.append(placement)
    stats.pruned_area += len(placements) - len(kept)
    return kept


def colour_difference(cells) -> int:
    return sum(1 - 2 * checker_colour(c) for c in cells)


def prune_parity(board_cells, pieces, placements, stats: PlacementStats, counts) -> list[Placement]:
    """Parity pruning for exact counts: each copy of a piece is one term of the sum."""
    target = colour_difference(board_cells)
    difference = {p: colour_difference(p.cells) for p in placements}
    slots = [i for i, (_, hi) in enumerate(counts) for _ in range(hi)]  # one per copy
    first_slot = {i: slots.index(i) for i in set(slots)}
    while True:
        possible = [set() for _ in pieces]
        for p in placements:
            possible[p.piece].add(difference[p])
        if any(not possible[i] for i in slots):
            return placements  # a piece that fits nowhere is left for the search to report
        others = _sums_without_each([possible[i] for i in slots])
        kept = [p for p in placements if target - difference[p] in others[first_slot[p.piece]]]
        if len(kept) == len(placements):
            return kept
        stats.pruned_parity += len(placements) - len(kept)
        if not kept:
            light = sum(checker_colour(c) for c in board_cells)
            dark = len(board_cells) - light
            reachable = {d + s for d in possible[slots[0]] for s in others[0]}
            stats.impossible = (
                f"checkerboard parity: the board has {dark} dark and {plural(light, 'light cell')} "
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


def place(board_cells, pieces, prune: bool = True, counts=None, optional=frozenset()) -> PlacementResult:
    """Generate the placements and prune them by area and parity.

    ``counts`` are the pieces' ``(lo, hi)`` (default: each exactly once); ``optional`` the
    cells that may stay empty."""
    counts = list(counts) if counts is not None else [(1, 1)] * len(pieces)
    stats = PlacementStats()
    placements = generate(board_cells, pieces, counts)
    stats.generated = len(placements)
    if prune and placements:
        placements = prune_area(board_cells, pieces, placements, stats, counts, optional)
        if not optional and all(lo == hi for lo, hi in counts):
            placements = prune_parity(board_cells, pieces, placements, stats, counts)
    return PlacementResult(placements, stats)
