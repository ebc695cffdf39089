"""What a lattice is to polyfit, and the table of lattices registered through the hook.

A :class:`Lattice` says which integer tuples are cells and which cells are neighbours, gives its
symmetry group as transforms of coordinates, puts shapes in normal form, colours cells for
parity pruning, checks text art and draws each cell as a polygon (2D) or a unit cube (3D).
Everything else (placements, symmetry-exact counting, pruning, polyform enumeration, pictures)
asks the board's or the pieces' lattice through these methods.

The table is filled through the ``register_lattices`` hook: the built-in lattices
(:mod:`polyfit.lattices.square`, :mod:`~polyfit.lattices.triangle`,
:mod:`~polyfit.lattices.hexagon`) register through it like any plugin's. They are always there:
a look-up before the plugins are loaded calls the built-ins' hook itself.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator

from polyfit.errors import PolyfitError, UnknownNameError

Cell = tuple[int, ...]
Shape = tuple[Cell, ...]

BUILT_IN = ("polyfit.lattices.square", "polyfit.lattices.triangle", "polyfit.lattices.hexagon")


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

    def __repr__(self) -> str:
        return f"<lattice {self.name}>"

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

    def flood_steps(self) -> list[tuple[Cell, object]]:
        """Neighbour steps as ``(offset, applies)``: ``applies(cell)`` says whether the step
        leads to a neighbour from ``cell`` (None: from every cell). Flood fill by bit shifts."""
        raise NotImplementedError

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
        return tuple(sorted(tuple(a + b for a, b in zip(c, shift)) for c in cells))

    def orientations(self, cells, mirror: bool = True) -> tuple[Shape, ...]:
        """The distinct normal forms of a shape's images under the group, sorted."""
        return tuple(sorted({self.normalize(g.apply(cells)) for g in self.group(mirror)}))

    def canonical(self, cells, mirror: bool = True) -> Shape:
        """One representative per class under the group: the least orientation."""
        return min(self.normalize(g.apply(cells)) for g in self.group(mirror))

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

    def parity_story(self, cells) -> str:
        """How the board's cells fall into the colours, for the message when parity forbids
        every choice: "the board has 5 dark and 4 light cells"."""
        total = sum(self.parity_weight(c) for c in cells)
        return f"the board's {self.parity_name} balance is {total}"

    # -- text art ----------------------------------------------------------------------------

    def art_problem(self, cell: Cell) -> str | None:
        """Why a character drawn at this position of text art is not a cell (or None)."""
        return None

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


# -- the table filled through the hook --------------------------------------------------------

_TABLE: dict[str, Lattice] = {}
_PLUGIN: dict[str, str] = {}


def add(lattice: Lattice, plugin: str = "") -> bool:
    """Put a registered lattice in the table; False when its name is taken (the first stays)."""
    name = getattr(lattice, "name", None)
    if not isinstance(name, str) or not name or getattr(lattice, "dim", None) not in (2, 3):
        raise PolyfitError(f"registered {lattice!r}, which is not a lattice (a name and dim 2 or 3)")
    if name in _TABLE:
        return _TABLE[name] is lattice and _PLUGIN[name] == plugin
    _TABLE[name] = lattice
    _PLUGIN[name] = plugin
    return True


def _built_ins() -> None:
    for module in BUILT_IN:
        if module not in _PLUGIN.values():
            importlib.import_module(module).register_lattices(lambda lattice, m=module: add(lattice, m))


def get(name: str) -> Lattice:
    """The lattice of that name (``square``, ``cubic``, ``triangle``, ``hex`` or a plugin's)."""
    if name not in _TABLE:
        _built_ins()
    if name not in _TABLE:
        raise UnknownNameError("lattice", name, names())
    return _TABLE[name]


def plugin_of(name: str) -> str:
    return _PLUGIN.get(name, "")


def names() -> list[str]:
    _built_ins()
    return list(_TABLE)


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
    """The lattice of a board or piece (its ``lattice`` name, or squares/cubes by dimension)."""
    name = getattr(thing, "lattice", "") or default_name(len(thing.cells[0]))
    return get(name)
