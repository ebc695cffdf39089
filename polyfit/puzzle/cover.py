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

from array import array
from dataclasses import dataclass, field
from operator import itemgetter

from polyfit.lattices import base as lattices
from polyfit.lattices.grid import Transform
from polyfit.xc.problem import ExactCoverProblem, PackedOptions

try:
    from polyfit.puzzle import _classify
except ImportError:  # the C extension did not build: Cover.classify's Python loop does the work
    _classify = None
try:
    from polyfit.puzzle import _cover
except ImportError:  # the C extension did not build: _CellItems' Python loop does the work
    _cover = None
from polyfit.puzzle.orientations import PieceForms, turned
from polyfit.puzzle.orientations import group as whole_group
from polyfit.puzzle.placements import (BitGrid, Placement, concatenated, int32s, numbered_on, numbered_options,
                                      runs, shape_places, sorted_images)
from polyfit.puzzle.symmetry import Symmetry


# With a limit on the optional cells left empty (BurrTools' maxHoles), the optional cells are
# primary items, and each has one more option: a hole there, which covers it and the HOLES
# item; HOLES takes 0..limit of them (Algorithm M). A hole option stands for no placement: its
# entry in Cover.option_placement is HOLE, and the solutions read from a search leave it out
# (Cover.placements_of), as the placements alone say which cells stay empty. HOLES is the last
# primary item, named "holes" unless a piece is (holes_label).
HOLES = "holes"
HOLE = -1


def items_problem(pieces: list[str], counts: list, required, spare, points, max_holes: int | None,
                  holes: str = HOLES) -> ExactCoverProblem:
    """The items of a cover, with no options yet: the ``pieces`` (names, used ``counts``
    times) and the ``required`` cells primary, then the ``spare`` (optional) cells, then the
    crossing ``points`` secondary; with ``max_holes``, the spare cells are primary, followed by
    the :data:`HOLES` item (named ``holes``) taken 0 to ``max_holes`` times."""
    limited = max_holes is not None
    problem = ExactCoverProblem(
        pieces + [cell_name(c) for c in required] + ([cell_name(c) for c in spare] + [holes] if limited else []),
        ([] if limited else [cell_name(c) for c in spare]) + [crossing_name(p) for p in points],
    )
    if limited:
        problem.bounds = list(counts) + [(1, 1)] * (len(required) + len(spare)) + [(0, max_holes)]
    elif any(c != (1, 1) for c in counts):
        problem.bounds = list(counts) + [(1, 1)] * len(required)
    return problem


def holes_label(names) -> str:
    """The name of the :data:`HOLES` item: one no piece has."""
    names, label = set(names), HOLES
    while label in names:
        label = "_" + label
    return label


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
    """The placements as keys, to map them all through a symmetry quickly.

    A placement the generator made on squares or cubes is its piece, orientation and corner
    (:mod:`polyfit.puzzle.orientations`): a symmetry sends it to the orientation its transform
    makes of that one (looked up once per orientation) at the transformed corner, with no
    cell touched. Any other placement (pre-placed ones, other lattices) is its piece and its
    cells' indices (cell ``i`` in sorted order is index ``i``), and a symmetry maps the
    placement by sorting the indices its cells go to.
    """

    def __init__(self, placements: list[Placement], pieces=None, painted=None):
        self.pieces, self.painted = pieces, painted
        self.forms = PieceForms(pieces, painted) if pieces else None
        self._turns: dict = {}  # (piece, its image) -> orientations.turned of them
        grid = pieces is not None and pieces and lattices.of(pieces[0]).name in ("square", "cubic")
        self.placements = placements
        # (piece, orientation) -> the indices of its placements and their corners; and
        # (piece, orientation) -> {corner as a number: index}, corners numbered in a box.
        self.groups: dict = {}
        self.orientations: dict = {}  # piece -> the (piece, orientation) keys of its groups
        others = []
        for k, run in runs(placements):
            p = placements[k]
            piece, orientation = p.piece, p.orientation
            if not grid or orientation < 0:
                others.extend(range(k, run))
                continue
            group = self.groups.get((piece, orientation))
            if group is None:
                group = self.groups[piece, orientation] = ([], [])
                self.orientations.setdefault(piece, []).append((piece, orientation))
            group[0].extend(range(k, run))
            group[1].extend([q.corner for q in placements[k:run]])
        self.numbered: dict = {}
        if self.groups:
            # the box of the corners (a symmetry maps a corner to a corner)
            axes = list(zip(*[corner for _, corners in self.groups.values() for corner in corners]))
            dim = len(axes)
            self.low = [min(axis) for axis in axes]
            sizes = [max(axis) - low + 1 for axis, low in zip(axes, self.low)]
            self.strides = [1] * dim
            for i in range(dim - 2, -1, -1):
                self.strides[i] = self.strides[i + 1] * sizes[i + 1]
        self.others = others
        self._by_piece: dict | None = None  # made by _others_of when first asked for
        # A placement as its cells' indices in self.cells, int32 bytes (its cells are sorted, so
        # they are in increasing order): the numbers of those the generator numbered
        # (Placement.numbers), when all are numbered on one board.
        board = numbered_on([placements[k] for k in others])
        if board is not None:
            self.cells = list(board)
            self.cell_indices = [placements[k].numbers for k in others]
        else:
            self.cells = sorted({c for k in others for c in placements[k].cells})
        index = {c: i for i, c in enumerate(self.cells)}
        self.index = index
        if board is None:
            at = index.__getitem__
            self.cell_indices = [array("i", map(at, placements[k].cells)).tobytes() for k in others]
        # a placement as its piece and its cells' indices; a coloured one (BurrTools colours)
        # is its colours too, in order
        self.lookup = {(placements[k].piece, cells, placements[k].colours): k
                       for k, cells in zip(others, self.cell_indices)}

    def _number(self, corner) -> int:
        return sum((c - low) * stride for c, low, stride in zip(corner, self.low, self.strides))

    def _numbered(self, key) -> dict:
        """{corner as a number: index} of the placements of ``key`` (piece, orientation), made
        when a symmetry first maps placements onto them."""
        numbered = self.numbered.get(key)
        if numbered is None:
            indices, group = self.groups[key]
            numbered = self.numbered[key] = {self._number(c): k for c, k in zip(group, indices)}
        return numbered

    def image(self, sym: Symmetry, only: int | None = None) -> list[int]:
        """Where ``sym`` sends each placement; with ``only`` (a piece index), only the
        placements of that piece are mapped and the others' entries are -1."""
        placements = self.placements
        if sym.is_identity and sym.piece_map == tuple(range(len(sym.piece_map))):
            return list(range(len(placements)))
        table = list(range(len(placements))) if only is None else [-1] * len(placements)
        if self.groups:
            self._map_oriented(sym, table, only)
        index, lookup, piece_map = self.index, self.lookup, sym.piece_map
        to = array("i", [index[c] for c in sym.images(self.cells)])
        if only is None:
            mapped = zip(self.others, self.cell_indices)
        else:
            mapped = self._others_of().get(only, ())
        plain = []  # the uncoloured ones, sent in one C call
        for k, cells in mapped:
            colours = placements[k].colours
            if colours:  # each colour goes with its cell: in the order of the cells' images
                moved, colours = zip(*sorted(zip(map(to.__getitem__, int32s(cells)), colours)))
                table[k] = lookup[piece_map[placements[k].piece], array("i", moved).tobytes(), tuple(colours)]
            else:
                plain.append((k, cells))
        if plain:
            starts, items = concatenated(cells for _, cells in plain)
            images = sorted_images(to, items, starts)
            for (k, _), a, b in zip(plain, starts, starts[1:]):
                table[k] = lookup[piece_map[placements[k].piece], images[4 * a:4 * b], ()]
        return table

    def _others_of(self) -> dict:
        """piece -> its placements mapped by their cells, as pairs (index, cell indices)."""
        made = self._by_piece
        if made is None:
            made = self._by_piece = {}
            for k, cells in zip(self.others, self.cell_indices):
                made.setdefault(self.placements[k].piece, []).append((k, cells))
        return made

    def _affine(self, sym: Symmetry) -> tuple:
        """What maps the corners of generated placements under ``sym``: per turn number the
        number of it then this transform, and the factor of each coordinate of a corner, the
        coordinates (with their strides) where the image's least value is the extent's last
        (sign minus), and a constant: an image corner's number is the constant, less the extent
        along those, plus each coordinate times its factor."""
        transform, offset = sym.transform, sym.offset
        strides, low = self.strides, self.low
        _, numbers, products = whole_group(len(low))
        number = numbers[transform]
        row = [r[number] for r in products]  # turn number -> it, then this transform
        # Coordinate k of an image corner is signs[k] * corner[perm[k]] + offset[k], less the
        # extent's last coordinate along perm[k] where the sign is minus (the image's least
        # value there).
        factor = [0] * len(strides)
        for k, (p, s) in enumerate(zip(transform.perm, transform.signs)):
            factor[p] = strides[k] * s
        minus = [(p, strides[k]) for k, (p, s) in enumerate(zip(transform.perm, transform.signs)) if s < 0]
        constant = sum((a - b) * c for a, b, c in zip(offset, low, strides))
        return row, factor, minus, constant

    def _target(self, sym: Symmetry, affine: tuple, i: int, o: int) -> tuple[dict, int]:
        """Where ``sym`` (its :meth:`_affine`) sends the placements of orientation ``o`` of
        piece ``i``: {corner number: index} of the orientation they go to, and the constant
        of their corners' numbers there."""
        row, _, minus, constant = affine
        j = sym.piece_map[i]
        turn = self._turns.get((i, j))
        if turn is None:
            turn = self._turns[i, j] = turned(self.pieces[i].cells, self.painted[i], self.forms.of(j))
        form = self.forms.of(i)
        extent = form.extents[o]
        start = constant
        for p, stride in minus:
            start += (1 - extent[p]) * stride
        return self._numbered((j, turn[row[form.turns[o]]])), start

    def _map_oriented(self, sym: Symmetry, table: list[int], only: int | None = None) -> None:
        """Each orientation's placements at once: the image of a corner is an affine function
        of its coordinates, so its number is one sum per placement (those of piece ``only``
        alone when it is given)."""
        affine = self._affine(sym)
        factor = affine[1]
        keys = self.groups if only is None else self.orientations.get(only, ())
        for i, o in keys:
            indices, corners = self.groups[i, o]
            target, start = self._target(sym, affine, i, o)
            if len(factor) == 3:
                f0, f1, f2 = factor
                images = [target[start + f0 * z + f1 * y + f2 * x] for z, y, x in corners]
            else:
                f0, f1 = factor
                images = [target[start + f0 * y + f1 * x] for y, x in corners]
            for k, image in zip(indices, images):
                table[k] = image

    def image_of(self, sym: Symmetry, k: int) -> int:
        """Where ``sym`` sends placement ``k`` (alone)."""
        p = self.placements[k]
        if (p.piece, p.orientation) not in self.groups:
            return self.image(sym, p.piece)[k]
        affine = self._affine(sym)
        target, start = self._target(sym, affine, p.piece, p.orientation)
        return target[start + sum([f * c for f, c in zip(affine[1], p.corner)])]


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
    pieces: list | None = None  # the puzzle's pieces, to map placements by their orientations
    painted: list | None = None  # each piece's colours (polyfit.puzzle.colours), () when none
    optional: frozenset = frozenset()  # the searched cells a solution may leave empty
    max_holes: int | None = None  # the most of them a solution leaves empty (None: any)

    def __post_init__(self):
        self._tables: dict[Symmetry, list[int]] = {}
        self._placement_keys: PlacementKeys | None = None
        self._solution_tables: dict[int | None, tuple[list, list]] = {}
        self._option_placement: array | None = None  # option_placement packed for the C classifier
        self.has_reflections = any(not sym.is_proper for sym in self.symmetries)

    def placements_of(self, options) -> tuple[int, ...]:
        """A solution's placements (indices) from its options (indices), hole options left out."""
        placement_of = self.option_placement
        if self.max_holes is None:
            return tuple([placement_of[k] for k in options])
        return tuple([placement_of[k] for k in options if placement_of[k] != HOLE])

    def table(self, sym: Symmetry) -> list[int]:
        """Where ``sym`` sends each placement, as a list of placement indices (built once)."""
        table = self._tables.get(sym)
        if table is None:
            table = self._keys().image(sym)
            self._tables[sym] = table
        return table

    def reflection_table(self) -> list[int]:
        """The table of the group's first reflection (there must be one)."""
        return self.table(next(sym for sym in self.symmetries if not sym.is_proper))

    def _keys(self) -> "PlacementKeys":
        if self._placement_keys is None:
            painted = self.painted or [()] * len(self.pieces or ())
            self._placement_keys = PlacementKeys(self.placements, self.pieces, painted)
        return self._placement_keys

    def map_placement(self, sym: Symmetry, index: int) -> int:
        return self.table(sym)[index]

    def _tables_of(self, anchor: int | None) -> tuple:
        """The tables of the symmetries a solution is compared under (the group but the identity,
        or the stabilizer of its breaker placement ``anchor``), and of the reflections among
        them, as lists and packed for the C classifier: made once, not per solution."""
        tables = self._solution_tables.get(anchor)
        if tables is None:
            syms = self.symmetries[1:] if anchor is None else self.stabilizers.get(anchor, [])
            candidates = self.symmetries if anchor is None else syms
            compared = [self.table(sym) for sym in syms]
            reflections = [self.table(sym) for sym in candidates if not sym.is_proper]
            tables = (compared, reflections, _packed(compared), _packed(reflections))
            self._solution_tables[anchor] = tables
        return tables

    def _anchor(self, solution) -> int | None:
        if self.breaker is None:
            return None
        breaker, placements = self.breaker, self.placements
        for i in solution:
            if placements[i].piece == breaker:
                return i
        raise ValueError("a solution without its breaker piece")

    def classify(self, solution: tuple[int, ...], native: bool | None = None) -> tuple[bool, int, int]:
        """For a solution (placement indices): is it canonical, how many does it stand for, and
        (when canonical) how many symmetries map it onto itself: its class has
        ``len(symmetries) // that`` solutions. ``native``: the C twin (the default when it
        built) or the Python loop."""
        anchor = self._anchor(solution)
        weight = 1 if anchor is None else self.orbit_sizes[anchor]
        if not solution:  # every piece pre-placed: the one solution is its own class
            return True, weight, len(self.symmetries)
        tables, _, packed, _ = self._tables_of(anchor)
        if not tables:
            return True, weight, 1
        if (_classify is not None) if native is None else native:
            fixed_by = _classify.canonical(tuple(solution), packed, len(self.placements))
            return fixed_by > 0, weight, fixed_by
        key = sorted(solution)
        least = key[0]
        # A symmetry of the solution fixes its breaker placement (when there is a breaker):
        # those are among the ones compared, with the identity.
        fixed_by = 1
        for table in tables:
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

    def canonical_batch(self, batch: list, native: bool | None = None) -> list[tuple[tuple[int, ...], int]]:
        """For solutions as the search finds them (tuples of option indices), with no breaker:
        ``(placements, fixed_by)`` of each canonical one, in order (what :meth:`classify` says
        of each mapped to placement indices; each solution stands for itself alone). ``native``:
        the C twin (the default when it built) or the Python loop."""
        placement_of = self.option_placement
        if self.max_holes is not None:  # the holes follow from the placements: leave them out
            batch = [tuple([k for k in options if placement_of[k] != HOLE]) for options in batch]
        if ((_classify is not None) if native is None else native) and self.placements:
            if self._option_placement is None:
                self._option_placement = array("i", placement_of)
            return _classify.canonical_batch(batch, self._option_placement, self._tables_of(None)[2],
                                             len(self.placements))
        found = []
        for options in batch:
            placements = self.placements_of(options)
            canonical, _, fixed_by = self.classify(placements, native=False)
            if canonical:
                found.append((placements, fixed_by))
        return found

    def mirror_symmetric(self, solution: tuple[int, ...], native: bool | None = None) -> bool:
        """Does some reflection in the group map this solution onto itself?"""
        # With a breaker, a symmetry of the solution fixes its breaker placement: only the
        # stabilizer's reflections can.
        _, reflections, _, packed = self._tables_of(self._anchor(solution))
        if not reflections:
            return False
        if (_classify is not None) if native is None else native:
            return _classify.symmetric(tuple(solution), packed, len(self.placements))
        key = frozenset(solution)
        for table in reflections:
            if frozenset([table[i] for i in solution]) == key:
                return True
        return False

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


def _packed(tables: list) -> array:
    """Tables one after another, as the int32 buffer the C classifier reads."""
    packed = array("i")
    for table in tables:
        packed.extend(table)
    return packed


def _orbits(symmetries, indices, tables):
    """Group placement indices into orbits (``tables``: each symmetry's table of images);
    returns {representative: (orbit size, stabilizer)}."""
    remaining = set(indices)
    result = {}
    for i in sorted(indices):
        if i not in remaining:
            continue
        images = [table[i] for table in tables]
        orbit = set(images)
        remaining -= orbit
        stabilizer = [sym for sym, j in zip(symmetries, images) if j == i and not sym.is_identity]
        result[i] = (len(orbit), stabilizer)
    return result


def _generators(symmetries) -> list[int] | None:
    """The positions of a few symmetries that generate the group, or None when the group is
    not one of transforms of squares or cubes that it is closed under (then every symmetry is
    used). Greedily, those of the highest order first (they make the most), each one not a
    product of those before it: 3 for the cube's 48."""
    transforms = [sym.transform for sym in symmetries]
    if not all(type(t) is Transform and len(t.perm) in (2, 3) for t in transforms):
        return None
    dim = len(transforms[0].perm)
    _, numbers, products = whole_group(dim)
    identity = numbers[Transform.identity(dim)]
    members = [numbers[t] for t in transforms]

    def order(t: int) -> int:
        power, k = t, 1
        while power != identity:
            power, k = products[power][t], k + 1
        return k

    reached, generators = {identity}, []
    for k in sorted(range(len(members)), key=lambda k: (-order(members[k]), k)):
        if members[k] in reached:
            continue
        generators.append(k)
        frontier = list(reached)
        while frontier:  # close under products with the generators so far
            frontier = {products[a][members[g]] for a in frontier for g in generators} - reached
            reached |= frontier
        if len(reached) == len(members):
            break
    return generators if reached == set(members) else None


def _orbit_sizes(indices, tables) -> dict[int, int]:
    """{representative: orbit size} of placement indices, the orbits found by following the
    images under generators of the group (``tables``: a table of images per generator); each
    orbit is represented by its least index."""
    seen: set = set()
    result = {}
    for i in sorted(indices):
        if i in seen:
            continue
        orbit, frontier = {i}, [i]
        while frontier:
            frontier = [table[k] for k in frontier for table in tables]
            frontier = [k for k in frontier if k not in orbit]
            orbit.update(frontier)
        seen |= orbit
        result[i] = len(orbit)
    return result


def choose_breaker(cover: Cover, pieces, counts) -> None:
    """Pick the invariant piece with the fewest orbit representatives and restrict it.

    A piece's orbits are followed under a few generators of the group, not every symmetry;
    only its representatives that some symmetry other than the identity fixes (an orbit
    smaller than the group) are mapped by every symmetry, to find their stabilizers."""
    group = cover.symmetries
    if len(group) <= 1:
        return
    best = None
    searched = len(cover.placements) - len(cover.fixed)
    of_piece: dict[int, list[int]] = {}
    for start, end in runs(cover.placements[:searched]):  # a run of one orientation at a time
        of_piece.setdefault(cover.placements[start].piece, []).extend(range(start, end))
    # The candidates, those with the fewest placements first: a piece of n placements has at
    # least n / |G| orbits, so once that bound cannot beat the best, its orbits are not worked
    # out (mapping every placement of a big piece under every symmetry costs milliseconds).
    candidates = []
    for piece in range(len(pieces)):
        if counts[piece] != (1, 1) or any(sym.piece_map[piece] != piece for sym in group):
            continue
        mine = of_piece.get(piece)
        if mine:
            candidates.append((-(-len(mine) // len(group)), piece, mine))
    keys = cover._keys()
    generators = _generators(group)
    for least, piece, mine in sorted(candidates, key=lambda c: c[:2]):
        if best is not None and (least, 0, piece) > best[0]:
            continue
        if generators is None:
            orbits = _orbits(group, mine, [cover._tables.get(sym) or keys.image(sym, piece) for sym in group])
        else:
            sizes = _orbit_sizes(mine, [cover._tables.get(group[g]) or keys.image(group[g], piece) for g in generators])
            orbits = {i: (size, None) for i, size in sizes.items()}  # stabilizers: for the breaker alone
        fixed = sum(1 for size, _ in orbits.values() if size < len(group))
        key = (len(orbits), fixed, piece)
        if best is None or key < best[0]:
            best = (key, piece, orbits)
    if best is None:
        return
    _, piece, orbits = best
    cover.breaker = piece
    cover.orbit_sizes = {i: size for i, (size, _) in orbits.items()}
    cover.stabilizers = {}
    for i, (size, stabilizer) in orbits.items():
        if stabilizer is None and size < len(group):
            stabilizer = [sym for sym in group if not sym.is_identity and keys.image_of(sym, i) == i]
        if stabilizer:
            cover.stabilizers[i] = stabilizer


def build_cover(
    board_cells,
    pieces,
    placements,
    symmetries,
    break_symmetry=True,
    counts=None,
    optional=frozenset(),
    fixed=(),
    colours=None,
    max_holes: int | None = None,
) -> Cover:
    """The exact cover problem of the cells ``board_cells`` (those the search fills; the
    ``optional`` ones may stay empty, at most ``max_holes`` of them when it is given) by
    ``placements``; ``fixed`` are pre-placed ones; ``colours`` the BurrTools colours of the
    pieces (:class:`polyfit.puzzle.colours.Colours`)."""
    counts = list(counts) if counts is not None else [(1, 1)] * len(pieces)
    used = [i for i in range(len(pieces)) if counts[i][1] > 0]
    piece_item = {piece: k for k, piece in enumerate(used)}
    required = sorted(c for c in board_cells if c not in optional)
    spare = sorted(c for c in board_cells if c in optional)
    if max_holes is not None and max_holes >= len(spare):
        max_holes = None  # a limit no solution can pass
    if max_holes == 0:  # no cell may stay empty: the optional cells are required
        required, spare, max_holes = sorted(required + spare), [], None
    limited = max_holes is not None
    cell_item = {c: len(used) + k for k, c in enumerate(required + spare)}
    crossed = crossings(pieces, placements, fixed)
    names = [pieces[i].name for i in used]
    problem = items_problem(names, [counts[i] for i in used], required, spare,
                            crossed.points if crossed else [], max_holes, holes_label(names))
    everything = list(placements) + list(fixed)
    painted = [colours.of(p) if colours else () for p in pieces]
    cover = Cover(problem, everything, [], list(symmetries), pieces=list(pieces), painted=painted)
    cover.fixed = list(range(len(placements), len(everything)))
    cover.optional = frozenset(spare)
    cover.crossings = crossed
    if break_symmetry:
        choose_breaker(cover, pieces, counts)
    first_point = len(used) + len(cell_item)
    items_of = _CellItems(cell_item, PieceForms(pieces, painted))
    breaker, representatives = cover.breaker, cover.orbit_sizes
    searched = [index for index, placement in enumerate(placements)
                if placement.piece != breaker or index in representatives]
    if crossed is None:
        problem.options = items_of.options(placements, searched, piece_item)
        cover.option_placement += searched
    else:
        for index in searched:
            held = crossed.held[index]
            if held is None:
                continue
            placement = placements[index]
            option = (piece_item[placement.piece],) + items_of(placement) + tuple(first_point + k for k in held)
            problem.options.append(option)
            cover.option_placement.append(index)
    if limited:
        cover.max_holes = max_holes
        holes = len(problem.primary) - 1
        problem.options += [(holes, cell_item[c]) for c in spare]
        cover.option_placement += [HOLE] * len(spare)
    return cover


class _CellItems:
    """The items of a placement's cells, in the order of its cells. A placement that knows its
    shape and corner gets them by adding its corner's place to its shape's cells' places (in
    the bit grid of the cells, :class:`polyfit.puzzle.placements.BitGrid`, where placement
    generation made them: :func:`polyfit.puzzle.orientations.places`), with no cell made or
    hashed."""

    def __init__(self, cell_item: dict, forms: PieceForms | None = None):
        self.cell_item = cell_item
        self.forms = forms
        cells = list(cell_item)
        self.grid = grid = BitGrid(cells) if cells else None
        self.strides = tuple(grid.strides) if cells else ()
        self.table = [None] * (grid.length if cells else 0)  # a cell's item by its place
        self.item_at = array("i", [-1]) * len(self.table)  # the same as int32, -1 for None (for C)
        for k, item in zip(grid.numbers(cells) if cells else (), cell_item.values()):
            self.table[k] = self.item_at[k] = item
        self.offsets: dict = {}  # (piece, orientation) -> how to pick its items (see __call__)
        self.numbered_items = [None, None]  # a board, and its cells' items (_numbered_items)

    def _shape_places(self, placement) -> array | bytes:
        """The places of a placement's shape's cells at corner 0 (its cells' places less its
        corner's)."""
        return shape_places(placement, self.forms, self.grid, self.strides)

    def options(self, placements, indices, piece_item: dict, native: bool | None = None) -> PackedOptions:
        """The options of the placements at ``indices``: each its piece's item, then its cells'
        items in the order of its cells. The runs of placements of one orientation go to C in
        one call (``native``: the C twin, the default when it built, or a call per placement),
        which packs their options in two int32 buffers (no tuple is made until the options are
        read: the reduction reads the buffers), and the placements made otherwise one by one
        between them (the options are then tuples)."""
        if not ((_cover is not None) if native is None else native):
            return PackedOptions(tuples=[(piece_item[placements[i].piece],) + self(placements[i]) for i in indices])
        parts = []  # PackedOptions of runs, and tuples of placements made one by one, in order
        chosen = [placements[i] for i in indices]
        shapes, found, corners, low = [], array("i"), [], tuple(self.grid.low) if self.grid else ()
        shape_number: dict = {}  # (piece, orientation) -> index in shapes
        numbered = []  # a run of placements numbered on one board

        def gather():
            if found:
                parts.append(PackedOptions(*_cover.options(self.item_at, tuple(shapes), found, corners, low, self.strides)))
                del found[:], corners[:]
            if numbered:
                parts.append(self._numbered_options(numbered, piece_item))
                del numbered[:]

        for k, run in runs(chosen):
            placement = chosen[k]
            piece, orientation = placement.piece, placement.orientation
            if orientation < 0 and self._numbered_items(placement.board) is not None:
                if numbered and placement.board is not numbered[0].board:
                    gather()
                numbered.append(placement)
                continue
            if orientation < 0:
                gather()
                parts.append((piece_item[piece],) + self(placement))
                continue
            number = shape_number.get((piece, orientation))
            if number is None:
                number = shape_number[piece, orientation] = len(shapes)
                shapes.append(self._shape_places(placement))
            found.extend((piece_item[piece], number, run - k))
            corners.extend([p.corner for p in chosen[k:run]])
        gather()
        if len(parts) == 1 and isinstance(parts[0], PackedOptions):
            return parts[0]
        return PackedOptions(tuples=[option for part in parts
                                     for option in (part if isinstance(part, PackedOptions) else (part,))])

    def _numbered_items(self, board) -> array | None:
        """The item of each cell of ``board`` (the sorted cells numbered placements index), as
        int32; None when there is no board or some cell of it is no item. Made once per board."""
        if board is None:
            return None
        known = self.numbered_items
        if known[0] is not board:
            items = [self.cell_item.get(c, -1) for c in board]
            known[:] = [board, None if -1 in items else array("i", items)]
        return known[1]

    def _numbered_options(self, numbered, piece_item: dict) -> PackedOptions:
        """The options of placements numbered on one board: their cells' items picked in C."""
        heads = {piece: array("i", [item]).tobytes() for piece, item in piece_item.items()}
        return PackedOptions(*numbered_options(numbered, heads, self._numbered_items(numbered[0].board)))

    def __call__(self, placement) -> tuple:
        if placement.shape is None:
            return tuple(map(self.cell_item.__getitem__, placement.cells))
        key = placement.piece, placement.orientation
        gather = self.offsets.get(key)
        if gather is None:
            offsets = array("i", bytes(self._shape_places(placement)))
            # One C call picks a shape's items out of the slice of the table it spans.
            pick = itemgetter(*offsets) if len(offsets) > 1 else (lambda window, k=offsets[0]: (window[k],))
            gather = self.offsets[key] = (pick, max(offsets) + 1)
        pick, span = gather
        base = self.grid.numbers([placement.corner])[0]
        return pick(self.table[base:base + span])
