"""Placements become an exact cover problem, with the puzzle's symmetry broken.

Items are the board cells and the pieces; each placement is one option. To count solutions
without searching every symmetric copy, one piece (the *breaker*, a piece every symmetry maps to
itself) keeps only one placement per orbit of the symmetry group G. Then, for a solution found
with the breaker at placement p whose stabilizer in G is H_p:

- exactly the H_p-images of that solution are found from its G-class, so it stands for a new
  class when it is the least of those images (the *canonical* one);
- the class holds |G| / |Stab(solution)| solutions, and H_p / Stab of them are found, so each
  found solution accounts for |G| / |H_p| solutions in the total.

Both counts are exact, self-symmetric solutions included, and need no unrestricted search.
The breaker must be in every solution exactly once, so a piece with a count other than 1 never
is one; without a breaker every solution is found and each class counted at its least member.

A piece used ``lo..hi`` times is one item with those bounds (Knuth's Algorithm M), never
``hi`` separate items: copies are indistinguishable. Optional cells are secondary items.
Pre-placed pieces are not in the problem; their placements follow the searched ones in
``placements``, and every symmetry maps them among themselves.

On a lattice where pieces may cross (polysticks: :meth:`polyfit.lattices.base.Lattice.crossings`)
each point that placements pass straight through along different lines is one more secondary
item, held by every placement passing through it: at most one piece passes through a point, so
none crosses another, while pieces may still touch there (Knuth's tetrasticks in "Dancing
Links"). A placement passing through a point a pre-placed piece passes through is no option.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from polyfit.lattices import base as lattices
from polyfit.xc.problem import ExactCoverProblem
from polyfit.puzzle.placements import Placement
from polyfit.puzzle.symmetry import Symmetry


def cell_name(cell) -> str:
    if len(cell) == 2:
        return f"r{cell[0]}c{cell[1]}"
    return "z{}r{}c{}".format(*cell)


def crossing_name(point) -> str:
    """The secondary item of a point pieces may not cross at."""
    return "x" + cell_name(point)


@dataclass
class Crossings:
    """The crossing points of a cover: ``points`` (secondary items, in order) and, for each
    searched placement, the indices into ``points`` it passes through, or None when it passes
    through a point a pre-placed piece passes through (then it is no option)."""

    points: list
    held: list  # placement index -> tuple of indices into points, or None


def crossings(pieces, placements, fixed) -> Crossings | None:
    """The crossing points of placements on a lattice where pieces may cross; None on the
    others (squares, cubes, triangles, hexagons, polytwigs: nothing to do)."""
    lattice = lattices.of(pieces[0]) if pieces else None
    if lattice is None or type(lattice).crossings is lattices.Lattice.crossings:
        return None
    passes = [tuple(lattice.crossings(p.cells)) for p in placements]
    lines: dict = {}
    for held in passes:
        for point, line in held:
            lines.setdefault(point, set()).add(line)
    blocked = {point for f in fixed for point, _ in lattice.crossings(f.cells)}
    points = sorted(p for p, found in lines.items() if len(found) > 1 and p not in blocked)
    index = {p: k for k, p in enumerate(points)}
    held = []
    for through in passes:
        if any(point in blocked for point, _ in through):
            held.append(None)
        else:
            held.append(tuple(sorted({index[point] for point, _ in through if point in index})))
    return Crossings(points, held)


def image(sym: Symmetry, placement: Placement) -> Placement:
    cells = tuple(sorted(sym(c) for c in placement.cells))
    return Placement(sym.piece_map[placement.piece], cells)


class PlacementKeys:
    """The placements as (piece, cell mask) keys, to map them all through a symmetry quickly.

    Cell ``i`` (in sorted order) is bit ``i`` of a mask; a symmetry maps a placement by mapping
    its piece and adding up the bits its cells go to, with no tuples built or sorted.
    """

    def __init__(self, placements: list[Placement]):
        self.cells = sorted({c for p in placements for c in p.cells})
        index = {c: i for i, c in enumerate(self.cells)}
        self.index = index
        self.pieces = [p.piece for p in placements]
        self.cell_indices = [[index[c] for c in p.cells] for p in placements]
        self.lookup = {}
        for k, (piece, cells) in enumerate(zip(self.pieces, self.cell_indices)):
            mask = 0
            for i in cells:
                mask |= 1 << i
            self.lookup[piece, mask] = k

    def image(self, sym: Symmetry) -> list[int]:
        index, lookup, piece_map = self.index, self.lookup, sym.piece_map
        bit = [1 << index[sym(c)] for c in self.cells]
        table = []
        for piece, cells in zip(self.pieces, self.cell_indices):
            mask = 0
            for i in cells:
                mask |= bit[i]
            table.append(lookup[piece_map[piece], mask])
        return table


@dataclass
class Cover:
    problem: ExactCoverProblem
    placements: list[Placement]  # all placements, before symmetry breaking
    option_placement: list[int]  # option index -> placement index
    symmetries: list[Symmetry]  # the puzzle's group G, identity first
    fixed: list[int] = field(default_factory=list)  # indices of pre-placed placements
    crossings: Crossings | None = None  # where pieces may not cross (polysticks)
    breaker: int | None = None  # piece index restricted to orbit representatives
    stabilizers: dict[int, list[Symmetry]] = field(default_factory=dict)  # non-identity ones
    orbit_sizes: dict[int, int] = field(default_factory=dict)

    def __post_init__(self):
        self._tables: dict[Symmetry, list[int]] = {}
        self._placement_keys: PlacementKeys | None = None
        self._solution_tables: dict[int | None, tuple[list, list]] = {}

    def table(self, sym: Symmetry) -> list[int]:
        """Where ``sym`` sends each placement, as a list of placement indices (built once)."""
        table = self._tables.get(sym)
        if table is None:
            table = self._keys().image(sym)
            self._tables[sym] = table
        return table

    def _keys(self) -> "PlacementKeys":
        if self._placement_keys is None:
            self._placement_keys = PlacementKeys(self.placements)
        return self._placement_keys

    def map_placement(self, sym: Symmetry, index: int) -> int:
        return self.table(sym)[index]

    def _tables_of(self, anchor: int | None) -> tuple[list, list]:
        """The tables of the symmetries a solution is compared under (the group but the identity,
        or the stabilizer of its breaker placement ``anchor``), and of the reflections among
        them: looked up once, not per solution."""
        tables = self._solution_tables.get(anchor)
        if tables is None:
            syms = self.symmetries[1:] if anchor is None else self.stabilizers.get(anchor, [])
            candidates = self.symmetries if anchor is None else syms
            tables = ([self.table(sym) for sym in syms],
                      [self.table(sym) for sym in candidates if not sym.is_proper])
            self._solution_tables[anchor] = tables
        return tables

    def _anchor(self, solution) -> int | None:
        if self.breaker is None:
            return None
        return next(i for i in solution if self.placements[i].piece == self.breaker)

    def classify(self, solution: tuple[int, ...]) -> tuple[bool, int, int]:
        """For a solution (placement indices): is it canonical, how many does it stand for, and
        (when canonical) how many symmetries map it onto itself: its class has
        ``len(symmetries) // that`` solutions."""
        anchor = self._anchor(solution)
        weight = 1 if anchor is None else self.orbit_sizes[anchor]
        if not solution:  # every piece pre-placed: the one solution is its own class
            return True, weight, len(self.symmetries)
        key = sorted(solution)
        least = key[0]
        # A symmetry of the solution fixes its breaker placement (when there is a breaker):
        # those are among the ones compared, with the identity.
        fixed_by = 1
        for table in self._tables_of(anchor)[0]:
            image = [table[i] for i in solution]
            low = min(image)
            # An image whose least placement is smaller sorts first: no need to sort it.
            if low < least:
                return False, weight, 0
            if low == least:
                mapped = sorted(image)
                if mapped < key:
                    return False, weight, 0
                fixed_by += mapped == key
        return True, weight, fixed_by

    def mirror_symmetric(self, solution: tuple[int, ...]) -> bool:
        """Does some reflection in the group map this solution onto itself?"""
        key = frozenset(solution)
        # With a breaker, a symmetry of the solution fixes its breaker placement: only the
        # stabilizer's reflections can.
        for table in self._tables_of(self._anchor(solution))[1]:
            if frozenset([table[i] for i in solution]) == key:
                return True
        return False

    @property
    def has_reflections(self) -> bool:
        return any(not sym.is_proper for sym in self.symmetries)

    def orbit(self, solution: tuple[int, ...]) -> list[tuple[int, ...]]:
        """Every distinct solution symmetric to this one (itself first)."""
        seen, result = set(), []
        for sym in self.symmetries:
            mapped = tuple(self.map_placement(sym, i) for i in solution)
            key = frozenset(mapped)
            if key not in seen:
                seen.add(key)
                result.append(mapped)
        return result


def _orbits(symmetries, indices, index_of):
    """Group placement indices into orbits; returns {representative: (orbit size, stabilizer)}."""
    remaining = set(indices)
    result = {}
    for i in sorted(indices):
        if i not in remaining:
            continue
        images = [index_of(sym, i) for sym in symmetries]
        orbit = set(images)
        remaining -= orbit
        stabilizer = [sym for sym, j in zip(symmetries, images) if j == i and not sym.is_identity]
        result[i] = (len(orbit), stabilizer)
    return result


def choose_breaker(cover: Cover, pieces, counts) -> None:
    """Pick the invariant piece with the fewest orbit representatives and restrict it."""
    group = cover.symmetries
    if len(group) <= 1:
        return
    best = None
    for piece in range(len(pieces)):
        if counts[piece] != (1, 1) or any(sym.piece_map[piece] != piece for sym in group):
            continue
        searched = len(cover.placements) - len(cover.fixed)
        mine = [i for i in range(searched) if cover.placements[i].piece == piece]
        if not mine:
            continue
        orbits = _orbits(group, mine, cover.map_placement)
        fixed = sum(1 for size, _ in orbits.values() if size < len(group))
        key = (len(orbits), fixed, piece)
        if best is None or key < best[0]:
            best = (key, piece, orbits)
    if best is None:
        return
    _, piece, orbits = best
    cover.breaker = piece
    cover.orbit_sizes = {i: size for i, (size, _) in orbits.items()}
    cover.stabilizers = {i: stab for i, (_, stab) in orbits.items() if stab}


def build_cover(
    board_cells,
    pieces,
    placements,
    symmetries,
    break_symmetry=True,
    counts=None,
    optional=frozenset(),
    fixed=(),
) -> Cover:
    """The exact cover problem of the cells ``board_cells`` (those the search fills; the
    ``optional`` ones may stay empty) by ``placements``; ``fixed`` are pre-placed ones."""
    counts = list(counts) if counts is not None else [(1, 1)] * len(pieces)
    used = [i for i in range(len(pieces)) if counts[i][1] > 0]
    piece_item = {piece: k for k, piece in enumerate(used)}
    required = sorted(c for c in board_cells if c not in optional)
    spare = sorted(c for c in board_cells if c in optional)
    cell_item = {c: len(used) + k for k, c in enumerate(required + spare)}
    crossed = crossings(pieces, placements, fixed)
    problem = ExactCoverProblem(
        [pieces[i].name for i in used] + [cell_name(c) for c in required],
        [cell_name(c) for c in spare] + ([crossing_name(p) for p in crossed.points] if crossed else []),
    )
    if any(counts[i] != (1, 1) for i in used):
        problem.bounds = [counts[i] for i in used] + [(1, 1)] * len(required)
    everything = list(placements) + list(fixed)
    cover = Cover(problem, everything, [], list(symmetries))
    cover.fixed = list(range(len(placements), len(everything)))
    cover.crossings = crossed
    if break_symmetry:
        choose_breaker(cover, pieces, counts)
    first_point = len(used) + len(cell_item)
    for index, placement in enumerate(placements):
        if placement.piece == cover.breaker and index not in cover.orbit_sizes:
            continue
        option = (piece_item[placement.piece],) + tuple(cell_item[c] for c in placement.cells)
        if crossed is not None:
            held = crossed.held[index]
            if held is None:
                continue
            option += tuple(first_point + k for k in held)
        problem.options.append(option)
        cover.option_placement.append(index)
    return cover
