"""A piece's orientations on squares and cubes, numbered once for placements and symmetries
(and, at the end, coloured orientations on the other lattices).

Each orientation is a normalized shape (sorted cells, least coordinate 0 on every axis), with
the piece's colours on those cells when it is coloured (BurrTools colours: a piece turned so
that the same cells get other colours is another orientation, as BurrTools counts it), and one
lattice transform that turns the piece into it. A placement is an orientation at a corner (the
least coordinate on every axis), so a symmetry maps a placement by mapping its orientation (a
look-up per orientation, not per placement) and its corner: no cell is touched.

The orientations are found with each cell as a number (its coordinates the digits), so that an
image of a piece is a sorted list of ints, made and compared in C (``numbered_images``), and
only the distinct ones become cells. Placement generation, area pruning and the exact cover
lay the board out in one bit grid, where an orientation's cells are its ``places``: made once
per orientation and grid.
"""

from __future__ import annotations

from array import array
from dataclasses import dataclass, field
from functools import cache, cached_property, lru_cache
from itertools import product
from operator import add

from polyfit.lattices.grid import Transform, lattice_group

try:
    from polyfit.puzzle import _regions
except ImportError:  # the C extension did not build: the places are made in Python
    _regions = None


@cache
def group(dim: int) -> tuple:
    """The lattice's whole group (reflections too), its transforms' numbers in it, and the
    table of products: ``products[a][b]`` is the number of transform ``a`` then ``b``."""
    transforms = lattice_group(dim, True)
    number = {g: k for k, g in enumerate(transforms)}
    # a then b: coordinate i of the result is b.signs[i] * a.signs[p] * cell[a.perm[p]], p = b.perm[i].
    # A transform is keyed by its signed images of the axes (sign * (axis + 1)), so a product
    # is a look-up of one tuple: the 48 x 48 table of the cube took 10 ms built from tuples of
    # perms and signs by generators.
    signed = [tuple(s * (p + 1) for p, s in zip(g.perm, g.signs)) for g in transforms]
    by_signed = {key: k for k, key in enumerate(signed)}
    if dim == 3:
        products = tuple(
            tuple([by_signed[(a[p] * s, a[q] * t, a[r] * u)] for (p, q, r), (s, t, u) in
                   [(g.perm, g.signs) for g in transforms]])
            for a in signed
        )
    else:
        products = tuple(
            tuple([by_signed[tuple([a[p] * s for p, s in zip(g.perm, g.signs)])] for g in transforms])
            for a in signed
        )
    return transforms, number, products


@dataclass(frozen=True, eq=False)
class Oriented:
    """The orientations of one piece, sorted by shape (then colours): the order of
    :meth:`polyfit.puzzle.pieces.Piece.orientations` for an uncoloured piece. :func:`oriented`
    makes one per piece, so it is its own key (hashed by identity: hashing every cell of every
    orientation cost a millisecond per look-up on a piece of 478 voxels)."""

    shapes: tuple  # per orientation: its cells
    colourings: tuple  # per orientation: the colours of those cells in order; () when uncoloured
    turns: tuple  # per orientation: the number (in group()) of a transform of the piece giving it
    extents: tuple  # per orientation: its size along each axis
    # The piece it was made from (cells, colours), and per transform of the whole group (by
    # number) the orientation that transform turns it into, or -2 when it was not tried (a
    # reflection of a piece that may not be turned over).
    source: tuple = field(default=(), compare=False)
    by_turn: tuple = field(default=(), compare=False)
    # The base its cells are numbered in, per orientation its cells' numbers (in order), and
    # (numbers, colouring) -> orientation number: the keys :func:`numbered_images` makes (see there).
    radix: int = field(default=0, compare=False)
    numbers: tuple = field(default=(), compare=False)
    by_number: dict = field(default_factory=dict, compare=False)
    # strides -> per orientation its cells' places in a grid of those strides (see places)
    grid_places: dict = field(default_factory=dict, compare=False)

    @cached_property
    def index(self) -> dict:
        """(shape, colouring) -> orientation number (made when first asked for: hashing every
        cell of every orientation cost a millisecond on a piece of 478 voxels)."""
        return {key: k for k, key in enumerate(zip(self.shapes, self.colourings))}


def places(form: Oriented, number: int, strides) -> array | bytes:
    """The places of orientation ``number``'s cells in a grid of ``strides`` (a cell's place is
    its coordinates times the strides, added up), as int32 (in C when it built: from the cells'
    numbers, polyfit/puzzle/_regions.c's ``places``): made once per orientation and grid,
    for placement generation, area pruning and the cover alike (they lay the board out the same
    way). The places of the last grid asked for are kept."""
    strides = tuple(strides)
    made = form.grid_places.get(strides)
    if made is None:
        form.grid_places.clear()
        made = form.grid_places[strides] = [None] * len(form.shapes)
    found = made[number]
    if found is None:
        numbers = form.numbers[number]
        if _regions is not None:  # int32 bytes
            found = _regions.places(numbers, form.radix, strides)
        elif form.radix ** len(strides) <= len(form.shapes) * len(numbers) * 2:  # a table of every number's place
            found = array("i", map(_places_table(form.radix, strides).__getitem__, numbers))
        elif len(strides) == 3:
            s0, s1, s2 = strides
            found = array("i", [z * s0 + y * s1 + x * s2 for z, y, x in form.shapes[number]])
        else:
            s0, s1 = strides
            found = array("i", [y * s0 + x * s1 for y, x in form.shapes[number]])
        made[number] = found
    return found


@lru_cache(maxsize=16)
def _places_table(radix: int, strides: tuple) -> tuple:
    """The place in a grid of ``strides`` of every cell with coordinates below ``radix``, by its
    number (coordinates as digits: see :func:`numbered_images`)."""
    if len(strides) == 3:
        s0, s1, s2 = strides
        return tuple([z * s0 + y * s1 + x * s2 for z, y, x in product(range(radix), repeat=3)])
    s0, s1 = strides
    return tuple([y * s0 + x * s1 for y, x in product(range(radix), repeat=2)])


class PieceForms:
    """The orientations (:func:`oriented`) of a puzzle's pieces on squares and cubes, as
    placement generation makes them (``painted``: each piece's colours, or None when none is
    coloured), made when first asked for."""

    def __init__(self, pieces, painted=None):
        self.pieces, self.painted = pieces, painted
        self._forms: dict = {}
        self._high: dict = {}

    def of(self, piece: int) -> Oriented:
        form = self._forms.get(piece)
        if form is None:
            p = self.pieces[piece]
            form = self._forms[piece] = oriented(p.cells, p.mirror, self.painted[piece] if self.painted else ())
        return form

    def form(self, placement) -> Oriented | None:
        """The orientations a placement's orientation number refers to, or None when its shape
        is not theirs (a placement made otherwise)."""
        form = self.of(placement.piece)
        number, shapes = placement.orientation, form.shapes
        return form if 0 <= number < len(shapes) and shapes[number] is placement.shape else None

    def high(self, piece: int) -> list[int]:
        """The piece's greatest coordinates."""
        high = self._high.get(piece)
        if high is None:
            high = self._high[piece] = highest(self.pieces[piece].cells)
        return high


def translated(cells, offset) -> list:
    """The cells moved by ``offset``, in order."""
    if len(offset) == 3:
        p, q, r = offset
        return [(x + p, y + q, z + r) for x, y, z in cells]
    if len(offset) == 2:
        p, q = offset
        return [(x + p, y + q) for x, y in cells]
    return [tuple(a + b for a, b in zip(c, offset)) for c in cells]


def normal(cells, colours=()) -> tuple[tuple, tuple]:
    """Cells (with their colours) translated so each coordinate's least value is 0 and sorted."""
    dim = len(cells[0])
    low = [min([c[i] for c in cells]) for i in range(dim)]
    if dim == 3:
        a, b, d = low
        moved = [(z - a, y - b, x - d) for z, y, x in cells]
    else:
        a, b = low
        moved = [(y - a, x - b) for y, x in cells]
    return sorted_with(moved, colours)


def sorted_with(cells: list, colours) -> tuple[tuple, tuple]:
    """Cells sorted, with the colours they carry (in the order of ``cells``) in their order."""
    if not colours:
        cells.sort()
        return tuple(cells), ()
    pairs = sorted(zip(cells, colours))
    return tuple([c for c, _ in pairs]), tuple([k for _, k in pairs])


def highest(cells) -> list[int]:
    return [max([c[i] for c in cells]) for i in range(len(cells[0]))]


def numbered_images(cells: tuple, colours: tuple, transforms, radix: int, native: bool | None = None) -> list:
    """For each transform, the key of the image of normalized ``cells`` (with ``colours``):
    the image's cells as numbers, their coordinates the digits in base ``radix`` (more than any
    coordinate), sorted, and the colours in their order. The numbers sort as the cells do, so
    an image is sorted and compared as ints, without a tuple per cell. In C when it built
    (polyfit/puzzle/_regions.c's ``images``; ``native``: that or the Python twin below)."""
    if (_regions is not None) if native is None else native:
        return _regions.images(tuple(cells), tuple(colours), tuple([(g.perm, g.signs) for g in transforms]), radix)
    return _numbered_images(cells, colours, transforms, radix)


def _numbered_images(cells: tuple, colours: tuple, transforms, radix: int) -> list:
    """:func:`numbered_images` in Python: a coordinate of an image is a coordinate of the
    piece or its greatest value less it, and its digit's terms for every cell are one list made
    once, so an image is one sum of lists."""
    dim = len(cells[0])
    high = highest(cells)
    terms: dict = {}  # (axis, place, sign) -> each cell's term of that digit
    keys = []
    for g in transforms:
        digits = []
        for place, (p, s) in enumerate(zip(g.perm, g.signs)):
            term = terms.get((p, place, s))
            if term is None:
                weight, top = radix ** (dim - 1 - place), high[p]
                if s > 0:
                    term = [c[p] * weight for c in cells]
                else:
                    term = [(top - c[p]) * weight for c in cells]
                terms[p, place, s] = term
            digits.append(term)
        numbers = list(map(add, digits[0], digits[1]))
        if dim == 3:
            numbers = list(map(add, numbers, digits[2]))
        if colours:
            pairs = sorted(zip(numbers, colours))
            keys.append((tuple([n for n, _ in pairs]), tuple([k for _, k in pairs])))
        else:
            numbers.sort()
            keys.append((tuple(numbers), ()))
    return keys


def _radix(cells) -> int:
    """The base the cells of a piece's images are numbered in: more than any coordinate of any
    image (the greatest extent is the same in every orientation)."""
    return max(highest(cells)) + 1


@lru_cache(maxsize=16)
def _cells_table(dim: int, radix: int) -> tuple:
    """Every cell with coordinates below ``radix``, by its number (coordinates as digits)."""
    return tuple(product(range(radix), repeat=dim))


def _cells_of(numbers: tuple, dim: int, radix: int, table: tuple | None) -> tuple:
    """The cells of numbers (see :func:`numbered_images`), from ``table`` when given."""
    if table is not None:
        return tuple(map(table.__getitem__, numbers))
    if dim == 3:
        square = radix * radix
        return tuple([(n // square, n // radix % radix, n % radix) for n in numbers])
    return tuple([(n // radix, n % radix) for n in numbers])


@cache
def oriented(cells: tuple, mirror: bool, colours: tuple = ()) -> Oriented:
    """The orientations of a piece (normalized ``cells``, ``colours`` aligned with them or ())
    under the rotations of its lattice, and the reflections too when ``mirror``."""
    dim = len(cells[0])
    transforms, number, _ = group(dim)
    high = highest(cells)
    radix = max(high) + 1
    tried = lattice_group(dim, mirror)
    found: dict = {}
    image: dict = {}  # transform number -> the key of its image
    for g, key in zip(tried, numbered_images(cells, colours, tried, radix)):
        if key not in found:
            found[key] = number[g]
        image[number[g]] = key
    numbered = sorted(found)  # as the shapes sort
    turns = tuple(found[k] for k in numbered)
    # The distinct orientations' cells, from one table of cells when it is no bigger than them.
    table = _cells_table(dim, radix) if radix ** dim <= len(numbered) * len(cells) * 2 else None
    by_number = {key: k for k, key in enumerate(numbered)}
    return Oriented(
        tuple([_cells_of(n, dim, radix, table) for n, _ in numbered]),
        tuple([colouring for _, colouring in numbered]),
        turns,
        # axis i of the image is axis perm[i] of the piece: its size, without a look at a cell
        tuple(tuple(high[p] + 1 for p in transforms[t].perm) for t in turns),
        (cells, colours),
        tuple(by_number[image[t]] if t in image else -2 for t in range(len(transforms))),
        radix,
        tuple(n for n, _ in numbered),
        by_number,
    )


@cache
def turned(cells: tuple, colours: tuple, target: Oriented) -> tuple:
    """For each transform of the whole group (by number): which orientation of ``target`` (the
    orientations of a piece) it turns this piece into, or -1.

    One image is made, not one per transform: once some transform ``u`` turns this piece into
    an orientation of ``target`` (made from target's piece by its turn ``t_o``), transform
    ``t`` turns it into what ``t_o``, then the inverse of ``u``, then ``t`` turn target's
    piece into (:func:`_whole_turns`). The identity or one reflection is such a ``u`` when any
    transform is: any two transforms of the same kind differ by a rotation."""
    dim = len(cells[0])
    transforms, number, products = group(dim)
    whole = _whole_turns(target)
    if target.source == (cells, colours):
        return whole
    if len(cells) != len(target.shapes[0]) or _radix(cells) != target.radix:
        return (-1,) * len(transforms)  # images of another size never match
    inverse = _inverses(dim)
    identity = number[Transform.identity(dim)]
    reflection = next(k for k, g in enumerate(transforms) if not g.is_proper)
    for u in (identity, reflection):
        o = target.by_number.get(numbered_images(cells, colours, [transforms[u]], target.radix)[0], -1)
        if o >= 0:
            first = products[target.turns[o]][inverse[u]]
            return tuple([whole[products[first][t]] for t in range(len(transforms))])
    return (-1,) * len(transforms)


@cache
def _whole_turns(form: Oriented) -> tuple:
    """For each transform of the whole group (by number): the orientation of ``form`` it turns
    the form's piece into, or -1. The reflections of a piece that may not be turned over were
    not tried; one of them, ``m``, decides for all: ``t`` turns the piece into what ``m``'s
    orientation's turn, then the rotation from ``m`` to ``t``, turns it into."""
    missing = [t for t, k in enumerate(form.by_turn) if k == -2]
    if not missing:
        return form.by_turn
    cells, colours = form.source
    dim = len(cells[0])
    transforms, _, products = group(dim)
    m = missing[0]
    o = form.by_number.get(numbered_images(cells, colours, [transforms[m]], form.radix)[0], -1)
    result = list(form.by_turn)
    inverse = _inverses(dim)
    for t in missing:
        result[t] = -1 if o < 0 else form.by_turn[products[form.turns[o]][products[inverse[m]][t]]]
    return tuple(result)


@cache
def _inverses(dim: int) -> tuple:
    """Each transform's inverse (by number in :func:`group`)."""
    transforms, number, products = group(dim)
    identity = number[Transform.identity(dim)]
    return tuple(row.index(identity) for row in products)


def painted_image(lattice, cells, colouring: tuple) -> tuple[tuple, tuple]:
    """``cells`` (an image of a piece on ``lattice``) in normal position and sorted, with the
    colours they carry (``colouring``, in the order of ``cells``; () when uncoloured)."""
    shift = lattice.normal_shift(cells)
    return sorted_with([tuple([a + b for a, b in zip(c, shift)]) for c in cells], colouring)


@cache
def painted_orientations(lattice, cells: tuple, mirror: bool, colouring: tuple) -> tuple:
    """The orientations of a piece on a lattice other than squares and cubes, each a pair
    ``(shape, colours)``: a shape with other colours on its cells is another orientation."""
    return tuple(sorted({painted_image(lattice, image, colouring) for image in lattice.images(cells, mirror)}))
