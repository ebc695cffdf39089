"""What a lattice is to polyfit, and where a lattice's name is looked up.

A :class:`Lattice` says which integer tuples are cells and which cells are neighbours, gives its
symmetry group as transforms of coordinates, puts shapes in normal form, colours cells for
parity pruning, checks text art and draws each cell as a polygon (2D) or a unit cube (3D).
Everything else (placements, symmetry-exact counting, pruning, polyform enumeration, pictures)
asks the board's or the pieces' lattice through these methods.

A board and its pieces carry their lattice as an object (``board.lattice``); a name is looked
up once, where a file or a piece set names it. The lattices a name may mean are those of a
session's registry (:class:`polyfit.registry.Registry` collects them through the
``register_lattices`` hook, the built-in square, triangle and hex lattices first, like any
plugin's): the registry makes its lattices the ones looked up while it reads files and builds
piece sets (:func:`using`), and the Python API's default registry makes its own the default
(:func:`set_default`). Without either, the built-ins answer.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from polyfit.errors import PolyfitError, UnknownNameError

Cell = tuple[int, ...]
Shape = tuple[Cell, ...]

BUILT_IN = (
    "polyfit.lattices.square",
    "polyfit.lattices.triangle",
    "polyfit.lattices.hexagon",
    "polyfit.lattices.sticks",
    "polyfit.lattices.twigs",
    "polyfit.lattices.prisms",
    "polyfit.lattices.spheres",
    "polyfit.lattices.finegrids",
)

# The lattices each built-in module registers, by name: while only built-in plugins register
# lattices, a registry looking up a name imports only the module that registers it (a cube
# puzzle does not load the triangles, prisms or spheres). tests/test_startup.py checks it.
BUILT_IN_NAMES = {
    "polyfit.lattices.square": ("square", "cubic"),
    "polyfit.lattices.triangle": ("triangle",),
    "polyfit.lattices.hexagon": ("hex",),
    "polyfit.lattices.sticks": ("sticks",),
    "polyfit.lattices.twigs": ("twigs",),
    "polyfit.lattices.prisms": ("prisms",),
    "polyfit.lattices.spheres": ("spheres",),
    "polyfit.lattices.finegrids": ("rhombic", "tetra-octa"),
}


class Lattice:
    """The contract of a lattice; subclasses fill in the methods that raise here.

    Attributes: ``name`` (what ``; lattice:`` says), ``dim`` (2 or 3: the length of a cell's
    tuple), ``summary`` (one line for ``polyfit plugins``), ``origins`` (one cell of each class
    of cells under translation: polyforms are grown from each) and ``parity_name``.
    """

    name: str = ""
    dim: int = 2
    summary: str = ""
    origins: tuple[Cell, ...] = ((0, 0),)
    parity_name: str = "colour"
    # Edge lattices (polysticks, polytwigs): the cells are the unit segments of a grid, drawn
    # from segment(); pieces may touch at a point but not cross there (crossings()).
    segments: bool = False

    def __repr__(self) -> str:
        return f"<lattice {self.name}>"

    def __str__(self) -> str:
        return self.name

    # A lattice is known by its name: it equals its name, so a plugin's ``Piece(...,
    # lattice="hex")`` and a board read from a file agree on the lattice they are on.
    def __eq__(self, other) -> bool:
        if isinstance(other, str):
            return other == self.name
        if isinstance(other, Lattice):
            return other.name == self.name
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.name)

    # -- cells -------------------------------------------------------------------------------

    def neighbours(self, cell: Cell) -> Iterator[Cell]:
        """The cells sharing a side (a face in 3D) with ``cell``."""
        raise NotImplementedError

    def is_cell(self, cell: Cell) -> bool:
        """Is this tuple a cell of the lattice? (On the hex lattice, r + c is even.)"""
        return True

    def is_translation(self, shift: Cell) -> bool:
        """Does moving every cell by ``shift`` map the lattice onto itself (cells onto cells of
        the same kind)? Always on squares and cubes."""
        return True

    all_translations = True  # is_translation is always True: placements need not ask

    def coset(self, cell: Cell):
        """A key of the cell's class under the lattice's translations: cells ``b`` and ``c`` have
        equal keys exactly when moving by ``b - c`` is a translation (:meth:`is_translation`).
        The placement generator groups a board's cells by it, so that a shape's cell is tried
        only on the board cells it can be moved onto. Lattices give a formula; this default
        finds the class by trying the classes met so far, one :meth:`is_translation` each."""
        if self.all_translations:
            return ()
        met = self.__dict__.setdefault("_cosets_met", [])
        for number, seen in enumerate(met):
            if self.is_translation(tuple(a - b for a, b in zip(cell, seen))):
                return number
        met.append(tuple(cell))
        return len(met) - 1

    def flood_steps(self) -> list[tuple[Cell, object]]:
        """Neighbour steps as ``(offset, applies)``: ``applies(cell)`` says whether the step
        leads to a neighbour from ``cell`` (None: from every cell). Flood fill by bit shifts."""
        raise NotImplementedError

    def motion_directions(self) -> tuple[Cell, ...]:
        """The lines pieces slide along when an assembly is taken apart, one unit step of each
        (its opposite is a direction too), in the order a disassembly tries them. Empty where
        polyfit cannot take pieces apart on this lattice yet."""
        return ()

    # -- symmetry ----------------------------------------------------------------------------

    def group(self, mirror: bool = True) -> tuple:
        """The symmetries fixing a point of the lattice, as transforms of coordinates: callables
        on a cell with ``apply(cells)``, ``is_proper`` (a rotation, not a reflection),
        ``is_identity``; sortable. Only the rotations when ``mirror`` is False."""
        raise NotImplementedError

    def normal_shift(self, cells) -> Cell:
        """The translation that puts these cells in normal position (see :meth:`normalize`)."""
        raise NotImplementedError

    def normalize(self, cells) -> Shape:
        """The cells translated to normal position and sorted: two shapes are translates of
        each other exactly when their normal forms are equal."""
        cells = list(cells)
        if not cells:
            return ()
        shift = self.normal_shift(cells)
        if len(shift) == 3:
            p, q, r = shift
            return tuple(sorted([(x + p, y + q, z + r) for x, y, z in cells]))
        if len(shift) == 2:
            p, q = shift
            return tuple(sorted([(x + p, y + q) for x, y in cells]))
        return tuple(sorted(tuple(a + b for a, b in zip(c, shift)) for c in cells))

    def images(self, cells, mirror: bool = True) -> list[Shape]:
        """A shape turned every way a piece may be placed: its images under the group, each
        with its cells in the order of ``cells`` (so that what a cell carries, such as its
        BurrTools colour, goes with it)."""
        return [g.apply(cells) for g in self.group(mirror)]

    def normal_images(self, cells, mirror: bool = True) -> list[Shape]:
        """The normal forms of a shape's :meth:`images`, one per transform of the group."""
        return [self.normalize(image) for image in self.images(cells, mirror)]

    def orientations(self, cells, mirror: bool = True) -> tuple[Shape, ...]:
        """The distinct normal forms of a shape's :meth:`images`, sorted."""
        return tuple(sorted(set(self.normal_images(cells, mirror))))

    def canonical(self, cells, mirror: bool = True) -> Shape:
        """One representative per class under the group: the least orientation."""
        return min(self.normal_images(cells, mirror))

    def mirrored(self, cells) -> Shape:
        """A mirror image of a shape (any one: the first reflection of the group)."""
        reflection = next(g for g in self.group(True) if not g.is_proper)
        return self.normalize(reflection.apply(cells))

    # -- connectivity ------------------------------------------------------------------------

    def components(self, cells) -> list[set[Cell]]:
        """The side-connected components of a set of cells."""
        return connected_components(cells, self.neighbours)

    def is_connected(self, cells) -> bool:
        return len(self.components(cells)) <= 1

    # -- parity ------------------------------------------------------------------------------

    def parity_weight(self, cell: Cell) -> int:
        """An integer weight per cell for parity pruning: a piece's placements each cover some
        total weight, and the totals must add up to the board's. The checkerboard is +1/-1."""
        raise NotImplementedError

    # Does every symmetry keep each cell's parity weight, or negate all of them (the
    # checkerboard)? Then parity pruning keeps a symmetric set of placements. When not (three
    # colours of hexagons, three directions of honeycomb edges), a placement whose symmetric
    # image was pruned is dropped too: it is in no solution either.
    parity_symmetric: bool = True

    def parity_story(self, cells) -> str:
        """How the board's cells fall into the colours, for the message when parity forbids
        every choice: "the board has 5 dark and 4 light cells"."""
        total = sum(self.parity_weight(c) for c in cells)
        return f"the board's {self.parity_name} balance is {total}"

    # -- text art ----------------------------------------------------------------------------

    def art_problem(self, cell: Cell) -> str | None:
        """Why a character drawn at this position of text art is not a cell (or None)."""
        return None

    def art_mark(self, char: str, cell: Cell) -> str:
        """The common mark a character of text art stands for at this position: ``#`` a cell,
        ``+`` an optional one, a letter a pre-placed piece's cell, a space nothing. Lattices
        drawn with marks of their own (``-`` and ``|`` for the segments of polysticks) say so
        here; a character returned unchanged is read with the common meaning."""
        return char

    art_help: str = ""  # one more sentence for an unexpected character: this lattice's marks

    def art_char(self, cell: Cell) -> str:
        """The character that draws a cell of a board (``#``; on edge lattices the segment's
        own mark, ``-`` or ``|``)."""
        return "#"

    def art_shift(self, char: str, cell: Cell) -> tuple[int, int] | None:
        """For a mark that fixes where the art lies on the lattice (``|`` only on odd rows of
        polysticks), the shift of rows and columns that puts it where it belongs; None for
        marks that fix nothing. Art is read shifted so that its first such mark fits: a
        drawing may start on any row and column."""
        return None

    def art_extras(self, cells) -> dict:
        """Marks drawn around these cells when text art is drawn back, under the cells' own
        labels (the lattice points of polysticks); ``{position: char}``."""
        return {}

    def art_origin(self, row: int, col: int) -> tuple[int, int]:
        """The top-left corner from which to draw cells whose least row and column are these:
        where the cells keep their kind when read back (on triangles and hexagons, row +
        column stays even)."""
        return row, col

    # -- pictures ----------------------------------------------------------------------------

    def polygon(self, cell: Cell) -> list[tuple[float, float]]:
        """The cell's outline in the plane, ``(x, y)`` with y down, in units of the square
        cell's side (a square cell ``(r, c)`` is ``x`` from c to c + 1). 3D lattices draw cells
        as unit cubes and need not give one."""
        raise NotImplementedError

    plane = None  # a 3D lattice of 2D layers (prisms): the layers' lattice; cell (z, *plane cell)

    def flat_layers(self, labels: dict):
        """For a 3D lattice whose pictures show its layers side by side in the plane (prisms):
        ``(labels, lattice)``, the cells of ``{cell: label}`` moved onto a 2D lattice, bottom
        layer leftmost. None for a lattice drawn in space (cubes)."""
        return None

    def segment(self, cell: Cell) -> tuple[tuple[float, float], tuple[float, float]]:
        """For an edge lattice (``segments``): the cell's two end points in the plane, ``(x,
        y)`` with y down, in units of a segment's length."""
        raise NotImplementedError

    # -- crossings ---------------------------------------------------------------------------

    def crossings(self, cells) -> Iterator[tuple[Cell, int]]:
        """Where a shape passes straight through a point of an edge lattice: ``(point,
        line)`` for each point two of its segments meet at in a straight line, ``line``
        telling the lines through a point apart. Two pieces cross where they pass through one
        point along different lines, which a solution may not do (touching is fine): the
        exact cover gives such a point a secondary item (as Knuth does for tetrasticks)."""
        return iter(())

    # -- polyforms ---------------------------------------------------------------------------

    def redelmeier(self, n: int) -> Iterator[Shape]:
        """Every fixed ``n``-cell polyform once (distinct under translation), not normalized.

        For each origin (one per class of cells under translation), the polyforms whose least
        cell is that origin are grown by Redelmeier's method: only cells after the origin are
        ever added, and each cell is offered once on a path."""
        for origin in self.origins:
            yield from grow_polyforms(n, origin, self.neighbours)


def connected_components(cells, neighbours) -> list[set]:
    """The components of a set of cells, two cells joined when ``neighbours`` of one holds the
    other (on every lattice)."""
    remaining = set(cells)
    result = []
    while remaining:
        start = remaining.pop()
        part = {start}
        stack = [start]
        while stack:
            for n in neighbours(stack.pop()):
                if n in remaining:
                    remaining.discard(n)
                    part.add(n)
                    stack.append(n)
        result.append(part)
    return result


def grow_polyforms(n: int, origin: Cell, neighbours) -> Iterator[Shape]:
    """Redelmeier's method on any lattice: every fixed ``n``-cell polyform whose least cell is
    ``origin``, once each. A cell is offered to the polyform once, by the first polyform cell
    it touches on the current path, and never again on that path."""
    if n < 1:
        return
    polyform: list = []
    offered = {origin}

    def grow(untried: list) -> Iterator[Shape]:
        untried = list(untried)
        while untried:
            cell = untried.pop()
            polyform.append(cell)
            if len(polyform) == n:
                yield tuple(polyform)
            else:
                new = [c for c in neighbours(cell) if c > origin and c not in offered]
                offered.update(new)
                yield from grow(untried + new)
                offered.difference_update(new)
            polyform.pop()

    yield from grow([origin])


# -- where names are looked up ---------------------------------------------------------------

_BUILT_INS: dict[str, Lattice] = {}
_DEFAULT: dict[str, Lattice] | None = None  # the API's default registry's lattices
_SESSION: ContextVar[dict | None] = ContextVar("polyfit_lattices", default=None)


def built_ins() -> dict[str, Lattice]:
    """The built-in lattices by name (square, cubic, triangle, hex), as their modules register
    them through the hook."""
    if not _BUILT_INS:
        for module in BUILT_IN:
            importlib.import_module(module).register_lattices(lambda lattice: _BUILT_INS.setdefault(lattice.name, lattice))
    return _BUILT_INS


def table() -> dict[str, Lattice]:
    """The lattices a name may mean here: the session's while it reads (:func:`using`), else the
    default registry's, else the built-ins."""
    return _SESSION.get() or _DEFAULT or built_ins()


@contextmanager
def using(lattices: dict[str, Lattice]):
    """Look names up in ``lattices`` (a registry's) inside the ``with`` block."""
    token = _SESSION.set(lattices)
    try:
        yield
    finally:
        _SESSION.reset(token)


def set_default(lattices: dict[str, Lattice]) -> None:
    """Make ``lattices`` (the API's default registry's) the ones names mean outside a session."""
    global _DEFAULT
    _DEFAULT = lattices


def check_lattice(lattice) -> None:
    """Refuse what is registered as a lattice but is not one."""
    name = getattr(lattice, "name", None)
    if not isinstance(lattice, Lattice) or not isinstance(name, str) or not name or lattice.dim not in (2, 3):
        raise PolyfitError(f"registered {lattice!r}, which is not a lattice (a Lattice with a name and dim 2 or 3)")


def get(name) -> Lattice:
    """The lattice of that name (``square``, ``cubic``, ``triangle``, ``hex`` or a plugin's); a
    lattice is itself."""
    if isinstance(name, Lattice):
        return name
    lattices = table()
    if name not in lattices:
        raise UnknownNameError("lattice", name, list(lattices))
    return lattices[name]


def names() -> list[str]:
    return list(table())


def default_name(dim: int) -> str:
    """The lattice a file means when it names none: squares in 2D, cubes in 3D."""
    return "cubic" if dim == 3 else "square"


def only_squares(things, what: str) -> None:
    """Refuse, with a clear error, what is made for square and cubic cells only (laser-cut
    outlines, printable tiles, PDF sheets, animations) on pieces or boards of another lattice."""
    for thing in things:
        lattice = of(thing)
        if lattice.name not in ("square", "cubic"):
            raise PolyfitError(
                f"{what} is made for squares and cubes; it does not handle the {lattice.name} "
                "lattice yet (solve, --count, check, hint, estimate, --png and --svg do)"
            )


def of(thing) -> Lattice:
    """The lattice of a board or piece (squares or cubes, by dimension, for a thing without one)."""
    lattice = getattr(thing, "lattice", None) or default_name(len(thing.cells[0]))
    return get(lattice)
