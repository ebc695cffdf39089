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
  without any search. Other lattices give their own colouring (up and down triangles; three
  colours of hexagons) as a weight per cell: :meth:`polyfit.lattices.base.Lattice.parity_weight`.

The lattice is the pieces' (:func:`polyfit.lattices.base.of`): squares unless they say otherwise.
"""

from __future__ import annotations

from array import array
import math
from functools import cached_property
from itertools import accumulate, groupby
from operator import attrgetter

from polyfit.errors import plural
from polyfit.lattices import base as lattices
from polyfit.lattices.grid import Cell
from polyfit.limits import check, limit
from polyfit.puzzle.orientations import PieceForms, group, oriented, painted_orientations, places, translated
from polyfit.records import Record
from polyfit.xc.problem import PackedOptions
from polyfit.xc.reduce import _reduce, reduce_native

try:
    from polyfit.puzzle import _regions
except ImportError:  # the C extension did not build: the Python flood fill does the work
    _regions = None


class Placement:
    """One orientation of one piece at one position: ``piece`` (an index into the puzzle's
    piece list) and its ``cells`` (sorted); ``colours``: the piece's colours on those cells, in
    order (BurrTools colours), or () when it has none: a piece turned so that other colours
    fall on the same cells is another placement. Two placements are equal when these are.

    A placement the generator made on squares and cubes also knows which of the piece's
    orientations (:mod:`polyfit.puzzle.orientations`) it is, its ``shape`` (normalized cells)
    and its ``corner`` (least coordinates): its cells are made from them on first use, so that
    set-up does no work per cell for placements nothing asks about. Otherwise ``orientation``
    is -1; a placement the generator made on another lattice knows its cells' ``numbers``
    instead (int32 bytes, increasing: indices into ``board``, the sorted cells of the board it
    was made on), which area pruning, parity, symmetry and the cover read in C, and makes its
    cells from them on first use."""

    __slots__ = ("piece", "colours", "orientation", "corner", "shape", "_cells", "numbers", "board")

    def __init__(self, piece: int, cells=None, colours: tuple = (), orientation: int = -1, corner: tuple = (),
                 shape: tuple | None = None, numbers=None, board=None):
        self.piece = piece
        self._cells = cells
        self.colours = colours
        self.orientation = orientation
        self.corner = corner
        self.shape = shape
        self.numbers = numbers
        self.board = board

    @property
    def cells(self) -> tuple[Cell, ...]:
        cells = self._cells
        if cells is None:
            if self.numbers is not None:
                cells = self._cells = tuple(map(self.board.__getitem__, int32s(self.numbers)))
                return cells
            if len(self.corner) == 3:
                a, b, c = self.corner
                cells = tuple([(z + a, y + b, x + c) for z, y, x in self.shape])
            else:
                a, b = self.corner
                cells = tuple([(y + a, x + b) for y, x in self.shape])
            self._cells = cells
        return cells

    def __eq__(self, other) -> bool:
        if not isinstance(other, Placement):
            return NotImplemented
        return self.piece == other.piece and self.cells == other.cells and self.colours == other.colours

    def __hash__(self) -> int:
        return hash((self.piece, self.cells, self.colours))

    def __repr__(self) -> str:
        colours = f", colours={self.colours!r}" if self.colours else ""
        return f"Placement(piece={self.piece!r}, cells={self.cells!r}{colours})"

    def __reduce__(self):
        return (Placement, (self.piece, self.cells, self.colours, self.orientation, self.corner, self.shape))


def runs(placements) -> list[tuple[int, int]]:
    """The placements (a list, in order) in runs ``(start, end)``: placements ``start`` to
    ``end - 1`` are generated ones (which know their shape and corner) of one orientation of
    one piece, or one placement made otherwise. Set-up works on a run at once: one shape, and
    a list of corners."""
    found = []
    k = 0
    for (orientation, _), members in groupby(map(_ORIENTATION_PIECE, placements)):
        end = k + len(list(members))
        if orientation >= 0:
            found.append((k, end))
        else:
            found += [(j, j + 1) for j in range(k, end)]
        k = end
    return found


_ORIENTATION_PIECE = attrgetter("orientation", "piece")


def shape_places(placement, forms, grid, strides) -> array | bytes:
    """The places of a placement's shape's cells at the corner ``grid.low`` in the bit grid of
    ``strides``: those the generator made for its orientation (``forms``), else its shape's
    cells numbered."""
    form = forms.form(placement) if forms is not None else None
    if form is not None:
        return places(form, placement.orientation, strides)
    return array("i", grid.numbers(placement.shape, grid.low))


class PlacementStats(Record):
    """How many placements were made and pruned (``reduced``: removed by the reduction before
    the pruning, see :func:`reduce_first`); ``impossible`` says why no solution can exist, when
    that is known before searching."""

    __slots__ = ("generated", "pruned_area", "pruned_parity", "impossible", "reduced")

    def __init__(self, generated: int = 0, pruned_area: int = 0, pruned_parity: int = 0,
                 impossible: str | None = None, reduced: int = 0):
        self.generated, self.pruned_area, self.pruned_parity = generated, pruned_area, pruned_parity
        self.impossible, self.reduced = impossible, reduced

    @property
    def kept(self) -> int:
        return self.generated - self.reduced - self.pruned_area - self.pruned_parity


class PlacementResult(Record):
    """The placements kept, and the :class:`PlacementStats` of making them."""

    __slots__ = ("placements", "stats")

    def __init__(self, placements: list[Placement], stats: PlacementStats | None = None):
        self.placements = placements
        self.stats = PlacementStats() if stats is None else stats


def generate(board_cells, pieces, counts=None, colours=None) -> list[Placement]:
    """All placements, in a fixed order: by piece, orientation, then position (none for a piece
    whose count allows no more copies). ``colours`` (:class:`polyfit.puzzle.colours.Colours`):
    coloured pieces go only where the colour rule allows, in each colouring of their cells.

    The board is the bits of an integer laid out in its box (:class:`BitGrid`), and the corners
    where an orientation lies on it are found by one C call (or its twin, :func:`_corners`) from
    its cells' places; on squares and cubes by :func:`_generate_on_grid` (whose placements make
    their cells only when asked), on the other lattices by :func:`_generate_by_corners` (which
    keeps the moves that are translations of the lattice). A board spread thinly over a huge
    box is done by :func:`_generate_by_sets`. The placements are counted against the limit
    before they are made."""
    lattice = lattices.of(pieces[0]) if pieces else None
    if lattice is not None and lattice.name in ("square", "cubic"):
        return _generate_on_grid(board_cells, pieces, counts, colours)
    board_cells = list(board_cells)
    if board_cells and len(board_cells[0]) in (2, 3) and BitGrid.size(board_cells) <= max(1 << 16, 64 * len(board_cells)):
        return _generate_by_corners(board_cells, pieces, counts, colours, lattice)
    return _generate_by_sets(board_cells, pieces, counts, colours, lattice)


def _forms_of(piece, lattice, colours) -> list[tuple]:
    """A piece's orientations, each with the colours of its cells (in each colouring)."""
    painted = colours.of(piece) if colours else ()
    if painted:
        return list(painted_orientations(lattice, piece.cells, piece.mirror, painted))
    return [(shape, ()) for shape in piece.orientations()]


def _generate_by_corners(board_cells, pieces, counts, colours, lattice) -> list[Placement]:
    """:func:`generate` on a bit grid of the board: the corners where each orientation lies on
    it (its least coordinates' place), of which those that move it by a translation of the
    lattice (its first cell stays in its coset). A placement is its cells' numbers on the
    sorted board (:attr:`Placement.numbers`), picked by their places for all the corners of
    an orientation at once (:func:`pick`): no cell is made."""
    board = board_cells if all(a < b for a, b in zip(board_cells, board_cells[1:])) else sorted(board_cells)
    grid = BitGrid(board)
    strides, low, box = tuple(grid.strides), tuple(grid.low), grid.box
    masks = (grid.mask(board).to_bytes(grid.length // 8 + 1, "little"),)  # the whole grid
    number_at = array("i", [-1]) * grid.length  # place -> the number of the board's cell there
    for number, place in enumerate(grid.numbers(board)):
        number_at[place] = number
    corners_of = _regions.corners if _regions is not None else _corners
    coset = lattice.coset if lattice is not None else (lambda cell: ())
    every_move = lattice is None or lattice.all_translations
    most = limit("placements")
    result = []
    for index, piece in enumerate(pieces):
        if counts is not None and counts[index][1] == 0:
            continue
        for shape, colouring in _forms_of(piece, lattice, colours):
            axes = list(zip(*shape))
            least = tuple(min(axis) for axis in axes)
            limits = tuple(b - (max(axis) - a + 1) for b, axis, a in zip(box, axes, least))
            if min(limits) < 0:
                continue
            places = array("i", grid.numbers(shape, corner=tuple(g - a for g, a in zip(low, least))))
            bases = array("i", corners_of(masks, places, b"", strides, limits, low, True))  # the corners' places
            if len(result) + len(bases) > most:
                check("placements", len(result) + len(bases), "the pieces on this board (and more to come)")
            kind, first = coset(shape[0]), places[0]  # (the shape's cells and places are sorted alike)
            if not every_move:
                bases = array("i", [b for b in bases if coset(board[number_at[b + first]]) == kind])
            found = pick(number_at, places, bases)
            size = 4 * len(places)
            for k in range(len(bases)):
                numbers = found[k * size:(k + 1) * size]
                if colouring and not all(colours.allows(c, colours.cells.get(board[n], 0))
                                         for n, c in zip(int32s(numbers), colouring)):
                    continue
                result.append(Placement(index, None, colouring, numbers=numbers, board=board))
    return result


def pick(table, places, bases) -> bytes:
    """For each base, ``table[base + place]`` for each place, as int32 bytes (int32 buffers
    in; C's ``pick`` in polyfit/puzzle/_regions.c when it built)."""
    if _regions is not None:
        return _regions.pick(table, places, bases)
    table, places = int32s(table), int32s(places)
    return array("i", [table[base + place] for base in int32s(bases) for place in places]).tobytes()


def sorted_images(table, items, starts) -> bytes:
    """Each group ``items[starts[j]:starts[j + 1]]`` mapped through ``table`` and sorted, one
    after another, as int32 bytes (C's ``sorted_images`` when it built)."""
    if _regions is not None:
        return _regions.sorted_images(table, items, starts)
    table, items, starts = int32s(table), int32s(items), int32s(starts)
    found = array("i")
    for a, b in zip(starts, starts[1:]):
        found.extend(sorted(table[i] for i in items[a:b]))
    return found.tobytes()


def sums(table, items, starts) -> list[int]:
    """The sum of ``table[item]`` over each group of items, as :func:`sorted_images` groups
    them (C's ``sums`` when it built)."""
    if _regions is not None:
        return _regions.sums(table, items, starts)
    table, items, starts = int32s(table), int32s(items), int32s(starts)
    return [sum(table[i] for i in items[a:b]) for a, b in zip(starts, starts[1:])]


def numbered_on(placements) -> list | None:
    """The board (sorted cells) every one of the placements is numbered on
    (:attr:`Placement.numbers`), or None when some is not, or they are on different boards."""
    board = placements[0].board if placements else None
    if board is None or any(p.board is not board for p in placements):
        return None
    return board


def concatenated(groups) -> tuple[array, bytes]:
    """Groups of numbers (int32 bytes: placements' numbers) one after another, and where each
    starts (an offset more than there are groups): the int32 buffers :func:`sorted_images` and
    :func:`sums` take."""
    groups = list(groups)
    starts = array("i", [0])
    starts.extend(accumulate(len(numbers) >> 2 for numbers in groups))
    return starts, b"".join(groups)


def numbered_options(placements, heads, table) -> tuple[array, bytes]:
    """Options of placements numbered on one board as int32 buffers ``(starts, items)``: each
    its piece's item (``heads[piece]``, int32 bytes), then the items of its cells
    (``table[number]``, picked in C)."""
    cell_starts, numbers = concatenated(p.numbers for p in placements)
    picked = memoryview(pick(table, numbers, array("i", [0])))
    items = b"".join([part for p, a, b in zip(placements, cell_starts, cell_starts[1:])
                      for part in (heads[p.piece], picked[4 * a:4 * b])])
    starts = array("i", [0])
    starts.extend(accumulate(b - a + 1 for a, b in zip(cell_starts, cell_starts[1:])))
    return starts, items


def _generate_by_sets(board_cells, pieces, counts, colours, lattice) -> list[Placement]:
    """:func:`generate` with sets, for a board of any size of box: a shape fits at shift
    ``s`` when every cell ``c`` of it lands on the board: ``s`` is in ``board - c`` for each
    ``c``, so the fitting shifts are the intersection of a few sets (each built once per cell
    offset, from the board cells of ``c``'s coset: on grids where not every move is a
    translation, those a move of the lattice takes ``c`` to)."""
    coset = lattice.coset if lattice is not None else (lambda cell: ())
    by_coset: dict = {}
    for b in board_cells:
        by_coset.setdefault(coset(b), []).append(b)
    landing: dict = {}  # cell offset c -> {b - c for the board cells b of c's coset}
    result = []
    most = limit("placements")
    for index, piece in enumerate(pieces):
        if counts is not None and counts[index][1] == 0:
            continue
        for shape, colouring in _forms_of(piece, lattice, colours):
            fits = None
            for c in shape:
                shifts = landing.get(c)
                if shifts is None:
                    shifts = landing[c] = _differences_from(by_coset.get(coset(c), ()), c)
                fits = shifts if fits is None else fits & shifts
            if len(result) + len(fits) > most:
                check("placements", len(result) + len(fits), "the pieces on this board (and more to come)")
            for shift in sorted(fits):
                placed = tuple(translated(shape, shift))
                if colouring and not all(colours.allows(k, colours.cells.get(c, 0)) for c, k in zip(placed, colouring)):
                    continue
                result.append(Placement(index, placed, colouring))
    return result


def _differences_from(cells, c) -> set:
    """``{b - c for b in cells}``, the cells as tuples of 2 or 3 coordinates (or any)."""
    if len(c) == 3:
        p, q, r = c
        return {(x - p, y - q, z - r) for x, y, z in cells}
    if len(c) == 2:
        p, q = c
        return {(x - p, y - q) for x, y in cells}
    return {tuple(x - y for x, y in zip(b, c)) for b in cells}


def _generate_on_grid(board_cells, pieces, counts, colours) -> list[Placement]:
    """:func:`generate` on squares and cubes: the board as the bits of a :class:`BitGrid`, and
    each orientation's corners found by one C call (or its twin, :func:`_corners`) from its
    cells' places (:func:`polyfit.puzzle.orientations.places`, made once per orientation and
    grid and used again by area pruning and the cover)."""
    board_cells = list(board_cells)
    if not board_cells:  # every cell pre-placed: nothing left to place
        return []
    used = [i for i in range(len(pieces)) if counts is None or counts[i][1] > 0]
    forms = {i: oriented(pieces[i].cells, pieces[i].mirror, colours.of(pieces[i]) if colours else ()) for i in used}
    grid = BitGrid(board_cells)
    strides, low, box = tuple(grid.strides), tuple(grid.low), grid.box
    masks = _colour_masks(grid, board_cells, colours, forms.values())
    corners_of = _regions.corners if _regions is not None else _corners
    most = limit("placements")
    found = []  # (piece, orientation, its corners)
    total = 0
    for index in used:
        form = forms[index]
        for number, (colouring, extent) in enumerate(zip(form.colourings, form.extents)):
            limits = tuple(b - e for b, e in zip(box, extent))
            if min(limits) < 0:
                continue
            painted = array("i", colouring) if colouring and len(masks) > 1 else b""
            corners = corners_of(masks, places(form, number, strides), painted, strides, limits, low)
            found.append((index, number, corners))
            total += len(corners)
            if total > most:
                check("placements", total, "the pieces on this board (and more to come)")
    result = []
    for index, number, corners in found:
        form = forms[index]
        shape, colouring = form.shapes[number], form.colourings[number]
        result += [Placement(index, None, colouring, number, corner, shape) for corner in corners]
    return result


def _colour_masks(grid: BitGrid, board_cells, colours, forms) -> tuple[bytes, ...]:
    """The board cells each piece colour may cover, as bytes (see :func:`_corners`): the whole
    board for colour 0 (and for all when no rule restricts a colour), less the cells of the
    board colours the rule keeps a piece colour off."""
    board = grid.mask(board_cells)
    size = grid.length // 8 + 1
    piece_colours = {k for form in forms for colouring in form.colourings for k in colouring}
    if not colours or not piece_colours - {0}:
        return (board.to_bytes(size, "little"),)
    on_board = set(board_cells)
    cells_of: dict = {}  # board colour -> its cells on this board
    for cell, r in colours.cells.items():
        if cell in on_board:
            cells_of.setdefault(r, []).append(cell)
    by_colour = {r: grid.mask(cells) for r, cells in cells_of.items()}
    masks = []
    for k in range(max(piece_colours) + 1):
        mask = board
        for r, cells in by_colour.items():
            if not colours.allows(k, r):
                mask &= ~cells
        masks.append(mask.to_bytes(size, "little"))
    return tuple(masks)


def _corners(masks, places, colours, strides, limits, low, as_places: bool = False) -> list[tuple] | bytes:
    """The corners where a shape lies on a board (polyfit/puzzle/_regions.c's ``corners``, in
    Python): each cell of the shape (its place at corner 0 in ``places``) moved up by the
    corner's place lies on the mask of its colour (``masks``, bytes; ``colours`` the number
    of each cell's mask, or empty: all on ``masks[0]``), and the corner's coordinates are at
    most ``limits``. In increasing order of places, each corner plus ``low``; ``as_places``:
    their places instead, as int32 bytes."""
    places, colours = int32s(places), int32s(colours)
    if len(colours) not in (0, len(places)) or not masks:
        raise ValueError("corners: one mask or more, and colours none or one per place")
    masks = [int.from_bytes(mask, "little") for mask in masks]
    found = -1
    for k, place in enumerate(places):
        if place < 0:
            raise ValueError("corners: a place off the board")
        found &= masks[colours[k] if len(colours) else 0] >> place
        if not found:
            return b"" if as_places else []
    result = []
    for k in range(found.bit_length()):
        if found >> k & 1:
            coordinates, rest = [], k
            for stride in strides:
                coordinates.append(rest // stride)
                rest %= stride
            if all(c <= m for c, m in zip(coordinates, limits)):
                result.append(k if as_places else tuple(c + a for c, a in zip(coordinates, low)))
    return array("i", result).tobytes() if as_places else result


def int32s(buffer) -> memoryview:
    """An int32 buffer (bytes, an array of 'i') as a sequence of ints."""
    return memoryview(buffer).cast("B").cast("i")


def reachable_areas(sizes, counts) -> int:
    """Every total area of a choice of pieces within their counts, as a bit mask (bit a set
    when area a can be made)."""
    sums = 1 << sum(size * lo for size, (lo, _) in zip(sizes, counts))
    for size, (lo, hi) in zip(sizes, counts):
        have, wanted = 1, hi - lo + 1  # sums holds 0 .. have-1 optional copies of this piece
        while have < wanted:  # doubling: log2(hi - lo) shifts, not hi - lo
            more = min(have, wanted - have)
            sums |= sums << (size * more)
            have += more
    return sums


def reaches(sums: int, low: int, high: int) -> bool:
    """Does the mask of areas hold some area in low..high?"""
    return high >= low and (sums >> low) & ((1 << (high - low + 1)) - 1) != 0


def area_problem(required: int, cells: int, sizes, counts) -> str | None:
    """Why no choice of pieces can fill the cells (``required`` of them must be filled, the
    others are optional), or None when some choice has a fitting total area."""
    low = sum(size * lo for size, (lo, _) in zip(sizes, counts))
    high = sum(size * hi for size, (_, hi) in zip(sizes, counts))
    if low <= cells:  # else too much at the least, whatever the choice (and no mask so large)
        capped = [(lo, max(lo, min(hi, cells // size))) for size, (lo, hi) in zip(sizes, counts)]
        if reaches(reachable_areas(sizes, capped), required, cells):
            return None
    need = f"{required}" if required == cells else f"{required} to {cells}"
    if low == high:
        return f"the pieces cover {plural(low, 'cell')}, but the board needs {need}"
    return (
        f"the pieces cover between {low} and {high} cells depending on the counts, but no "
        f"choice of them covers {need}"
    )


class Totals:
    """A set of whole numbers (the colour differences pieces can make) as the bits of one
    integer, so that the totals of two sets cost a few shifts instead of every pair."""

    def __init__(self, bits: int = 1, low: int = 0):
        self.bits, self.low = bits, low  # bit k set: low + k is in the set

    @classmethod
    def of(cls, values) -> Totals:
        low = min(values)
        bits = 0
        for v in values:
            bits |= 1 << (v - low)
        return cls(bits, low)

    def __contains__(self, value: int) -> bool:
        k = value - self.low
        return k >= 0 and (self.bits >> k) & 1 == 1

    def values(self) -> list[int]:
        bits, low = self.bits, self.low
        return [low + k for k in range(bits.bit_length()) if (bits >> k) & 1]

    def __add__(self, other: Totals) -> Totals:
        """Every a + b with a in self and b in other."""
        small, big = sorted((self, other), key=lambda t: t.bits.bit_count())
        offsets = [k for k in range(small.bits.bit_length()) if (small.bits >> k) & 1]
        steps = {b - a for a, b in zip(offsets, offsets[1:])}
        if len(steps) == 1:  # an even progression: smear by doubling
            step, count = steps.pop(), len(offsets)
            bits, have = big.bits << offsets[0], 1
            while have < count:
                more = min(have, count - have)
                bits |= bits << (step * more)
                have += more
        else:
            bits = 0
            for k in offsets:
                bits |= big.bits << k
        return Totals(bits, small.low + big.low)

    def times(self, copies: int) -> Totals:
        """Every total of ``copies`` values from this set (repeats allowed), by doubling."""
        total, power = Totals(), self
        while copies:
            if copies & 1:
                total = total + power
            copies >>= 1
            if copies:
                power = power + power
        return total


def _totals_without_each(groups: list[Totals]) -> list[Totals]:
    """For each i, the totals of every group except group i."""
    prefix = [Totals()]
    for totals in groups:
        prefix.append(prefix[-1] + totals)
    suffix = [Totals()] * (len(groups) + 1)
    for i in range(len(groups) - 1, -1, -1):
        suffix[i] = suffix[i + 1] + groups[i]
    return [prefix[i] + suffix[i + 1] for i in range(len(groups))]


class BitGrid:
    """Cells as bits of one integer, laid out with spare columns, rows and layers between
    neighbours so that a step to a neighbour is a shift and nothing wraps around an edge. Flood
    fill is then a few whole-board shifts and ANDs per step instead of a walk cell by cell.

    The steps are the lattice's (:meth:`~polyfit.lattices.base.Lattice.flood_steps`); a step
    taken only from some cells (down from an up triangle) is shifted through their mask."""

    @staticmethod
    def size(cells, lattice=None) -> int:
        """How many bits the grid of these cells takes."""
        axes = list(zip(*cells))  # each coordinate of every cell
        spare = BitGrid._spare(len(axes), lattice)
        bits = 1
        for axis, extra in zip(axes, spare):
            bits *= max(axis) - min(axis) + 1 + extra
        return bits

    @staticmethod
    def _spare(dim, lattice) -> list[int]:
        """Spare places per axis: the longest step along it (one on squares and cubes)."""
        if lattice is None:
            return [1] * dim
        return [max(abs(offset[i]) for offset, _ in lattice.flood_steps()) for i in range(dim)]

    def __init__(self, cells, lattice=None):
        cells = list(cells)
        dim = len(cells[0])
        spare = self._spare(dim, lattice)
        axes = list(zip(*cells))  # each coordinate of every cell
        low = [min(axis) for axis in axes]
        size = [max(axis) - least + 1 + extra for axis, least, extra in zip(axes, low, spare)]
        strides = [1] * dim
        for i in range(dim - 2, -1, -1):
            strides[i] = strides[i + 1] * size[i + 1]
        self.strides = strides
        self.low = low
        self.box = [n - k for n, k in zip(size, spare)]  # the cells' box, without the spare places
        self.cells = cells
        self.length = strides[0] * size[0]  # bits
        # Steps other than one along an axis from every cell: (shift, mask of cells it leaves).
        self.steps: list[tuple[int, int]] = []
        if lattice is not None and any(
            applies is not None or sum(map(abs, offset)) != 1 for offset, applies in lattice.flood_steps()
        ):
            for offset, applies in lattice.flood_steps():
                shift = sum(o * s for o, s in zip(offset, strides))
                from_cells = cells if applies is None else [c for c in cells if applies(c)]
                self.steps.append((shift, self.mask(from_cells)))

    @cached_property
    def bit(self) -> dict:
        """Each cell's bit (made when first asked for: the masks are made from numbers)."""
        return {c: 1 << k for c, k in zip(self.cells, self.numbers(self.cells))}

    def numbers(self, cells, corner=None) -> list[int]:
        """The cells' places in the grid (``corner``: added to each cell first)."""
        low, strides = self.low, self.strides
        if corner is not None:
            low = [b - a for a, b in zip(corner, low)]
        if len(strides) == 3:
            (a, b, c), (s0, s1, s2) = low, strides
            return [(z - a) * s0 + (y - b) * s1 + (x - c) * s2 for z, y, x in cells]
        if len(strides) == 2:
            (a, b), (s0, s1) = low, strides
            return [(y - a) * s0 + (x - b) * s1 for y, x in cells]
        return [sum([(v - w) * t for v, w, t in zip(cell, low, strides)]) for cell in cells]

    def mask(self, cells) -> int:
        """The cells (all of them in the grid) as bits."""
        bits = bytearray(self.length // 8 + 1)
        for k in self.numbers(list(cells)):
            bits[k >> 3] |= 1 << (k & 7)
        return int.from_bytes(bits, "little")

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
                if self.steps:
                    for shift, leaves in self.steps:
                        moving = region & leaves
                        grown |= moving << shift if shift > 0 else moving >> -shift
                else:
                    for s in strides:
                        grown |= (region << s) | (region >> s)
                grown &= free
                if grown == region:
                    break
                region = grown
            regions.append(region)
            free &= ~region
        return regions


def prune_area(board_cells, pieces, placements, stats: PlacementStats, counts, optional=(),
               colours=None) -> list[Placement]:
    """Drop each placement that leaves an empty region no choice of the other pieces can fill
    (the region's area must be reachable, between its cells that must be filled and all of
    them). ``colours``: the puzzle's BurrTools colours, as the placements were generated with."""
    sizes = [len(p.cells) for p in pieces]
    makeable = {}  # piece -> areas the other pieces (and its other copies) can make
    for i in {p.piece for p in placements}:
        others = [(0, hi - 1) if j == i else (0, hi) for j, (_, hi) in enumerate(counts)]
        makeable[i] = reachable_areas(sizes, others)
    lattice = lattices.of(pieces[0])
    bits = BitGrid.size(board_cells, lattice)
    if native_regions(lattice, (bits // 64 + len(board_cells)) * len(placements)):
        forms = _forms(pieces, colours)
        fits = _whole_board_regions(board_cells, optional, makeable, lattice, native=True, forms=forms)
    elif _regions is not None and len(board_cells) * len(placements) <= NATIVE_STEPS:
        fits = _graph_regions(board_cells, optional, makeable, lattice)
    elif bits <= WHOLE_BOARD_BITS:
        fits = _whole_board_regions(board_cells, optional, makeable, lattice)
    else:
        fits = _LocalRegions(board_cells, optional, makeable, max(sizes), lattice)
    many = getattr(fits, "many", None)
    if many is not None:
        kept = [placement for placement, ok in zip(placements, many(placements)) if ok]
    else:
        kept = [placement for placement in placements if fits(placement)]
    stats.pruned_area += len(placements) - len(kept)
    return kept


# Boards whose bit grid (their box, with a spare row, column and layer) has up to this many bits
# are flood-filled whole, as one integer, for every placement; larger ones only around the
# placement (a whole-board fill per placement grows as cells times placements).
WHOLE_BOARD_BITS = 8192


# The C flood fill (polyfit/puzzle/_regions.c) fills the whole board for every placement when
# that costs at most about this many steps (words of the board's bits plus its cells, times the
# placements: a few tens of milliseconds); larger problems are filled around each placement.
NATIVE_STEPS = 50_000_000


def _graph_regions(board_cells, optional, makeable, lattice=None):
    """The test of :func:`_whole_board_regions` on any lattice, in C (``fits_graph``): the
    board as a graph, each cell's neighbours on the board listed once, and the regions a
    placement leaves filled from its sides at once until one is left (the rest). Placements
    numbered on this board (:attr:`Placement.numbers`) hand their numbers over as they are.
    Its twins are the Python fills (the tests compare them on every lattice)."""
    cells = list(board_cells)
    neighbours = (lattice or lattices.get(lattices.default_name(len(cells[0])))).neighbours
    index = {c: k for k, c in enumerate(cells)}
    starts, adjacent = array("i", [0]), array("i")
    for c in cells:
        adjacent.extend([index[n] for n in neighbours(c) if n in index])
        starts.append(len(adjacent))
    must = bytes(c not in optional for c in cells)
    pieces = sorted(makeable)
    ok_number = {piece: k for k, piece in enumerate(pieces)}
    oks = tuple(makeable[p].to_bytes((makeable[p].bit_length() + 7) // 8, "little") for p in pieces)

    def fits_many(placements) -> list[bool]:
        board = numbered_on(placements)
        if board is not None and (board is board_cells or list(board) == cells):  # their numbers are ours
            covered_starts, covered = concatenated(p.numbers for p in placements)
        else:
            covered_starts, covered = array("i", [0]), array("i")
            at = index.__getitem__
            for placement in placements:
                covered.extend(map(at, placement.cells))
                covered_starts.append(len(covered))
        areas = array("i", [ok_number[p.piece] for p in placements])
        return [bool(a) for a in _regions.fits_graph(starts, adjacent, must, oks, covered_starts, covered, areas)]

    def fits(placement) -> bool:
        return fits_many([placement])[0]

    fits.many = fits_many
    return fits


def native_regions(lattice, steps: int) -> bool:
    """Does the C flood fill do area pruning: built, on a lattice whose neighbours are one
    stride away along an axis (squares, cubes), and within :data:`NATIVE_STEPS`?"""
    return (_regions is not None and steps <= NATIVE_STEPS and lattice is not None
            and all(applies is None and sum(map(abs, offset)) == 1 for offset, applies in lattice.flood_steps()))


def _whole_board_regions(board_cells, optional, makeable, lattice=None, native=False, forms: PieceForms | None = None):
    grid = BitGrid(board_cells, lattice)
    everything = grid.mask(board_cells)
    must = everything & ~grid.mask(c for c in optional if c in grid.bit)

    shapes: dict = {}  # (piece, orientation) -> its cells as bits at corner ``low``

    def cells_of(placement) -> int:
        if placement.orientation < 0:
            return grid.mask(placement.cells)
        shift = sum((a - b) * s for a, b, s in zip(placement.corner, grid.low, grid.strides))
        key = placement.piece, placement.orientation
        shape = shapes.get(key)
        if shape is None:
            shape = shapes[key] = grid.mask(placement.cells) >> shift
        return shape << shift

    def fits(placement) -> bool:
        rest = everything & ~cells_of(placement)
        ok = makeable[placement.piece]
        return all(reaches(ok, (r & must).bit_count(), r.bit_count()) for r in grid.regions(rest))

    if not native or grid.steps:
        return fits
    size = (everything.bit_length() + 7) // 8
    must_bytes, strides = must.to_bytes(size, "little"), tuple(grid.strides)
    ok_bytes = {piece: areas.to_bytes((areas.bit_length() + 7) // 8, "little") for piece, areas in makeable.items()}

    def fits_in_c(placement) -> bool:
        rest = everything & ~cells_of(placement)
        return _regions.fits(rest.to_bytes(size, "little"), must_bytes, strides, ok_bytes[placement.piece])

    def fits_many(placements) -> list[bool]:
        """:func:`fits_in_c` for every placement in one call: each (piece, orientation) shape
        once, as the places of its cells at corner ``low`` (those the generator made), then
        a run of its placements by their corners; a placement made otherwise is its cells'
        places at corner ``low``."""
        shape_number: dict = {}  # (piece, orientation) -> index in shapes
        shapes, found = [], array("i")
        pieces = sorted(ok_bytes)
        ok_number = {piece: k for k, piece in enumerate(pieces)}
        low = tuple(grid.low)
        for k, run in runs(placements):
            placement = placements[k]
            piece, orientation = placement.piece, placement.orientation
            if orientation < 0:
                found.extend((len(shapes), ok_number[piece], 1))
                shapes.append(array("i", grid.numbers(placement.cells)))
                continue
            number = shape_number.get((piece, orientation))
            if number is None:
                number = shape_number[piece, orientation] = len(shapes)
                shapes.append(shape_places(placement, forms, grid, strides))
            found.extend((number, ok_number[piece], run - k))
        corners = [p.corner if p.orientation >= 0 else low for p in placements]
        answers = _regions.fits_many(everything.to_bytes(size, "little"), must_bytes, strides,
                                     tuple(ok_bytes[p] for p in pieces), tuple(shapes), found, corners, low)
        return [bool(a) for a in answers]

    fits_in_c.many = fits_many
    return fits_in_c


class _LocalRegions:
    """The same test as :func:`_whole_board_regions`, in time near the placement's size.

    Every region left by a placement in a connected part of the board touches the placement,
    so the regions are found by filling from its neighbours. A fill that passes ``cap`` cells
    stops: when at most one fill of a part is that large, its area is what the others leave of
    the part; only a placement that splits a part in two large regions is filled in full. The
    parts the placement does not touch are checked once per piece."""

    def __init__(self, board_cells, optional, makeable, largest_piece: int, lattice=None):
        cells = sorted(board_cells)
        neighbours = (lattice or lattices.get(lattices.default_name(len(cells[0])))).neighbours
        self.index = index = {c: k for k, c in enumerate(cells)}
        self.adjacent = [[index[n] for n in neighbours(c) if n in index] for c in cells]
        self.must = [c not in optional for c in cells]
        self.makeable = makeable
        self.cap = max(64, 4 * largest_piece)
        self.part = [-1] * len(cells)
        self.parts: list[tuple[int, int]] = []  # (area, cells that must be filled)
        for start in range(len(cells)):
            if self.part[start] < 0:
                region, _ = self._fill(start, lambda k: True, len(cells))
                for k in region:
                    self.part[k] = len(self.parts)
                self.parts.append((len(region), sum(self.must[k] for k in region)))
        # For each piece, the parts that cannot be left as they are.
        self.bad_parts = {
            i: {p for p, (area, must) in enumerate(self.parts) if not reaches(ok, must, area)}
            for i, ok in makeable.items()
        }

    def _fill(self, start, allowed, cap, owner=None) -> tuple[list[int], int | None]:
        """The cells reached from ``start`` (at most about ``cap``), and the first fill in
        ``owner`` met on the way: the fill stops there, as it is in that fill's region."""
        seen = {start}
        stack = [start]
        adjacent = self.adjacent
        while stack and len(seen) <= cap:
            for n in adjacent[stack.pop()]:
                if n not in seen and allowed(n):
                    if owner is not None and n in owner:
                        return list(seen), owner[n]
                    seen.add(n)
                    stack.append(n)
        return list(seen), None

    def __call__(self, placement) -> bool:
        index, part, must = self.index, self.part, self.must
        ok = self.makeable[placement.piece]
        covered = {index[c] for c in placement.cells}
        touched = {part[k] for k in covered}
        if self.bad_parts[placement.piece] - touched:
            return False
        owner: dict[int, int] = {}  # cell -> the fill that reached it
        large: dict[int, set] = {p: set() for p in touched}  # part -> its large fills
        left = {p: list(self.parts[p]) for p in touched}  # part -> (area, must) not yet filled
        for k in covered:
            left[part[k]][0] -= 1
            left[part[k]][1] -= must[k]
        fills = 0
        for k in covered:
            for start in self.adjacent[k]:
                if start in covered or start in owner:
                    continue
                fills += 1
                region, met = self._fill(start, lambda n: n not in covered, self.cap, owner)
                if met is not None:  # the region of an earlier fill, which was large
                    large[part[start]].add(met)
                    continue
                for n in region:
                    owner[n] = fills
                if len(region) > self.cap:
                    large[part[start]].add(fills)
                    continue
                area, needed = len(region), sum(must[n] for n in region)
                if not reaches(ok, needed, area):
                    return False
                left[part[start]][0] -= area
                left[part[start]][1] -= needed
        for p, fills_of_part in large.items():
            if len(fills_of_part) == 1:
                area, needed = left[p]
                if not reaches(ok, needed, area):
                    return False
            elif len(fills_of_part) > 1 and not self._split_part_fits(p, covered, ok):
                return False
        return True

    def _split_part_fits(self, p, covered, ok) -> bool:
        """Fill every region of part ``p`` left by the placement in full."""
        part, must = self.part, self.must
        done: set = set(covered)
        for start in range(len(part)):
            if part[start] != p or start in done:
                continue
            region, _ = self._fill(start, lambda n: n not in covered, len(part))
            done.update(region)
            if not reaches(ok, sum(must[n] for n in region), len(region)):
                return False
        return True


def colour_difference(cells, lattice=None) -> int:
    """The cells' total parity weight: dark minus light cells on a checkerboard."""
    if not cells:
        return 0
    weight = (lattice or lattices.get(lattices.default_name(len(cells[0])))).parity_weight
    return sum(weight(c) for c in cells)


def prune_parity(board_cells, pieces, placements, stats: PlacementStats, counts, colours=None) -> list[Placement]:
    """Parity pruning for exact counts: each copy of a piece is one term of the sum; the copies
    of one piece are taken together (the totals of k copies), not one by one. ``colours``: the
    puzzle's BurrTools colours, as the placements were generated with."""
    lattice = lattices.of(pieces[0])
    target = colour_difference(board_cells, lattice)
    difference = _differences(placements, lattice, board_cells, _forms(pieces, colours))
    used = [i for i, (_, hi) in enumerate(counts) if hi > 0]
    # A placement as one number: its difference and its piece (the test is one per such pair).
    size = len(pieces)
    code = [d * size + p.piece for d, p in zip(difference, placements)]
    indices = range(len(placements))
    while True:
        present = set(code) if len(indices) == len(code) else {code[k] for k in indices}
        possible = [set() for _ in pieces]
        for c in present:
            possible[c % size].add(c // size)
        if any(not possible[i] for i in used):
            return [placements[k] for k in indices]  # a piece that fits nowhere is left for the search to report
        # For piece i: the totals of all the other copies, its own other copies included.
        sets = {i: Totals.of(possible[i]) for i in used}
        others_of = dict(zip(used, _totals_without_each([sets[i].times(counts[i][1]) for i in used])))
        for i in used:
            others_of[i] = others_of[i] + sets[i].times(counts[i][1] - 1)
        allowed = {c for c in present if target - c // size in others_of[c % size]}
        if len(allowed) == len(present):
            return [placements[k] for k in indices]
        kept = [k for k in indices if code[k] in allowed]
        stats.pruned_parity += len(indices) - len(kept)
        if not kept:
            reachable = (sets[used[0]] + others_of[used[0]]).values()
            stats.impossible = (
                f"{lattice.parity_story(list(board_cells))} "
                f"(difference {target}), but no placement of the pieces adds up to that"
                + (f"; they can make differences {_brief(reachable)}" if reachable else "")
            )
            return []
        indices = kept


def _differences(placements, lattice, board_cells, forms: PieceForms | None = None) -> list[int]:
    """Each placement's colour difference. On squares and cubes moving a shape by a corner
    whose coordinates add up to an odd number swaps the checkerboard's colours, so one sum per
    orientation does for all its placements; and turning a piece swaps them when the image is
    moved back by an odd number of cells (its least coordinates, the greatest of the piece
    along an axis whose sign the turn flips), so one sum per piece does for all orientations
    the generator made (``forms``)."""
    if lattice.name not in ("square", "cubic"):
        # each cell's parity weight, asked of the lattice once per board cell (the board holds
        # every placement's cells)
        board = numbered_on(placements)
        if board is not None:  # added up in C by the cells' numbers
            starts, items = concatenated(p.numbers for p in placements)
            return sums(array("i", map(lattice.parity_weight, board)), items, starts)
        weights = {c: lattice.parity_weight(c) for c in board_cells}
        return [sum(map(weights.__getitem__, p.cells)) for p in placements]
    known: dict = {}  # (piece, orientation) -> its difference at corner 0
    of_piece: dict = {}  # piece -> its difference
    result = []
    for k, run in runs(placements):
        p = placements[k]
        if p.orientation < 0:
            result.append(_checkerboard(p.cells))
            continue
        key = (p.piece, p.orientation)
        base = known.get(key)
        if base is None:
            base = known[key] = _shape_difference(p, forms, of_piece)
        result += [-base if sum(q.corner) & 1 else base for q in placements[k:run]]
    return result


def _shape_difference(placement: Placement, forms: PieceForms | None, of_piece: dict) -> int:
    """The colour difference of a generated placement's shape at corner 0 (its orientation's);
    ``of_piece``: the pieces' differences worked out so far."""
    form = forms.form(placement) if forms is not None else None
    if form is None:
        return _checkerboard(placement.shape)
    transform = group(len(placement.corner))[0][form.turns[placement.orientation]]
    high = forms.high(placement.piece)
    moved_back = sum(high[p] for p, s in zip(transform.perm, transform.signs) if s < 0)
    difference = of_piece.get(placement.piece)
    if difference is None:
        difference = of_piece[placement.piece] = _checkerboard(forms.pieces[placement.piece].cells)
    return -difference if moved_back & 1 else difference


def _forms(pieces, colours) -> PieceForms:
    """The pieces' orientations as the generator makes them (``colours``: the puzzle's)."""
    return PieceForms(pieces, [colours.of(p) for p in pieces] if colours else None)


def _checkerboard(cells) -> int:
    """:func:`colour_difference` on squares and cubes: dark cells (coordinates adding up to an
    even number) less light ones."""
    return len(cells) - 2 * sum([sum(c) & 1 for c in cells])


def _brief(values) -> str:
    """The reachable differences, short; with their step, so that a gap (0 in -50, -46, ...,
    50) does not read as reachable."""
    values = sorted(values)
    if len(values) <= 6:
        return ", ".join(str(v) for v in values)
    step = 0
    for a, b in zip(values, values[1:]):
        step = math.gcd(step, b - a)
    first, last = values[0], values[-1]
    steps = f" (steps of {step})" if step > 1 else ""
    if len(values) == (last - first) // step + 1:  # every value of the progression
        return f"{first}, {first + step}, ..., {last}{steps}"
    return f"{len(values)} values from {first} to {last}{steps}, not every one between"


def place(board_cells, pieces, prune: bool = True, counts=None, optional=frozenset(), colours=None,
          reduce: bool = False) -> PlacementResult:
    """Generate the placements and prune them by area and parity.

    ``counts`` are the pieces' ``(lo, hi)`` (default: each exactly once); ``optional`` the
    cells that may stay empty; ``colours`` the colour rules of a BurrTools puzzle. With
    ``reduce`` (and ``prune``), the reduction may go first (:func:`reduce_first`)."""
    counts = list(counts) if counts is not None else [(1, 1)] * len(pieces)
    stats = PlacementStats()
    placements = generate(board_cells, pieces, counts, colours)
    stats.generated = len(placements)
    if prune and placements:
        if reduce:
            kept = reduce_first(placements, len(pieces), counts, optional)
            if kept is not None:
                stats.reduced = len(placements) - len(kept)
                placements = kept
        placements = prune_area(board_cells, pieces, placements, stats, counts, optional, colours)
        if not optional and all(lo == hi for lo, hi in counts):
            placements = prune_parity(board_cells, pieces, placements, stats, counts, colours)
    return PlacementResult(placements, stats)


# The reduction goes before the pruning (reduce_first) when the placements hold at least this
# many cells in all, and it is kept when it removes at least this share of them.
REDUCE_FIRST_CELLS = 50_000
REDUCE_FIRST_SHARE = 0.5


def reduce_first(placements, n_pieces: int, counts, optional=frozenset()) -> list[Placement] | None:
    """The placements the reduction (:mod:`polyfit.xc.reduce`) keeps on the plain problem,
    before any pruning, or None when it does not go first.

    Off squares and cubes area pruning fills around each placement, which costs about the
    cells beside it; where large pieces fit few ways (prisms, spheres), the reduction removes
    almost all of them anyway. So for placements numbered on one board (:func:`numbered_on`)
    that hold at least :data:`REDUCE_FIRST_CELLS` cells, the reduction runs first on the plain
    problem: items the board's cells (needed unless optional) and the pieces (within their
    counts), options the placements. It removes only placements in no solution (of any
    symmetry breaking or limit on holes, which only add constraints), so no count changes; and
    what it keeps, a symmetry of the puzzle maps onto what it keeps (its rule is the same
    everywhere, and it stops where nothing more goes), so symmetry is broken as before. It is
    kept when it removes at least :data:`REDUCE_FIRST_SHARE` of the placements but not all
    (then the pruning explains why there is no solution)."""
    board = numbered_on(placements)
    if board is None or _reduce is None or sum(len(p.numbers) for p in placements) < 4 * REDUCE_FIRST_CELLS:
        return None
    # The pieces' items first (as in the cover: the reduction tries the items in order, and a
    # piece with nowhere else to go is what dooms most placements), then the cells'.
    heads = [array("i", [i]).tobytes() for i in range(n_pieces)]
    starts, items = numbered_options(placements, heads, array("i", range(n_pieces, n_pieces + len(board))))
    exclusive = bytes(hi == 1 for _, hi in counts) + b"\x01" * len(board)
    needed = bytes(lo >= 1 for lo, _ in counts) + bytes(c not in optional for c in board)
    alive, _ = reduce_native(PackedOptions(starts, items), n_pieces + len(board), exclusive, needed)
    kept = [p for p, a in zip(placements, alive) if a]
    if not kept or len(placements) - len(kept) < REDUCE_FIRST_SHARE * len(placements):
        return None
    return kept

