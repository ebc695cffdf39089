"""Boards: the cells a puzzle must fill, with its optional cells and pre-placed pieces.

Boards are read from files by the readers in :mod:`polyfit.formats` (text art, voxel text,
MagicaVoxel); this is the data they produce. :meth:`Board.from_text` reads text art held in
memory (the grammar is :mod:`polyfit.lattices.textart`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from polyfit.errors import ParseError, PolyfitError, UnknownNameError
from polyfit.limits import check
from polyfit.lattices import base as lattices
from polyfit.lattices.grid import Cell


@dataclass(frozen=True)
class Board:
    cells: tuple[Cell, ...]  # sorted; (row, col) in 2D, (z, row, col) in 3D; every cell
    name: str = ""
    metadata: dict[str, str] = field(default_factory=dict, compare=False, hash=False)
    path: str | None = None
    optional: frozenset = frozenset()  # cells that may stay empty
    fixed: tuple = ()  # pre-placed pieces: (name, cells, (line, column) of the first cell)
    # Where each metadata value was written: key -> (line, column), for errors about it.
    metadata_at: dict = field(default_factory=dict, compare=False, hash=False, repr=False)
    # The lattice (a polyfit.Lattice; a name is looked up once, here); "" means squares in 2D,
    # cubes in 3D.
    lattice: lattices.Lattice | str = ""
    # The pieces, for files that hold them with the board (BurrTools, the Soma notations);
    # empty when the pieces are named by a '; pieces:' line or given apart.
    pieces: tuple = field(default=(), compare=False, hash=False, repr=False)
    # Where some pieces may go, by piece name: the sorted cells of each placement allowed (a
    # BurrTools colour rule); pieces not named may go anywhere.
    allowed: dict = field(default_factory=dict, compare=False, hash=False, repr=False)
    # How taking an assembly apart treats each entry of ``pieces`` (a BurrTools file says it):
    # ``(weight, groups, key, numbers)``: the heavier part stays put when two come apart;
    # ``groups`` the ``(group, count)`` pairs of pieces that may stay together; ``key`` the shape
    # number BurrTools files the group counts under; ``numbers`` BurrTools' transformation
    # number of each orientation (its order of a piece's copies). Empty: weight 1, no groups.
    motion: tuple = field(default=(), compare=False, hash=False, repr=False)
    # BurrTools colours of the cells and pieces, and their rule (polyfit.puzzle.colours.Colours);
    # when given, they decide the placements and symmetries and ``allowed`` only reports them.
    colours: object = field(default=None, compare=False, hash=False, repr=False)
    # The most optional cells a solution may leave empty (BurrTools' maxHoles); None: any.
    max_holes: int | None = None

    def __post_init__(self):
        where = self.path or self.name or "the board"
        if not self.cells:
            raise PolyfitError(f"{where}: the board has no cells")
        object.__setattr__(self, "lattice", lattices.get(self.lattice or lattices.default_name(len(self.cells[0]))))
        check("cells", len(self.cells), where)
        box = 1
        for axis in range(len(self.cells[0])):
            values = [c[axis] for c in self.cells]
            box *= max(values) - min(values) + 1
        check("box", box, where)
        if self.max_holes is not None and (type(self.max_holes) is not int or self.max_holes < 0):
            raise PolyfitError(f"{where}: the most holes must be a whole number, 0 or more, not {self.max_holes!r}")

    @property
    def dim(self) -> int:
        return len(self.cells[0])

    @property
    def area(self) -> int:
        return len(self.cells)

    @property
    def fixed_cells(self) -> frozenset:
        return frozenset(c for _, cells, _ in self.fixed for c in cells)

    @property
    def label(self) -> str:
        return self.name or (Path(self.path).name if self.path else "board")

    @classmethod
    def from_text(cls, text: str, dim: int = 2, path="<text>") -> Board:
        """The board drawn in text art: 2D (``dim=2``) or voxel layers (``dim=3``).

        Pre-placed pieces are the face-connected groups of each letter; ``; name:`` and other
        ``; key: value`` lines become :attr:`name` and :attr:`metadata`; ``; max-holes: N``
        sets :attr:`max_holes`."""
        if dim not in (2, 3):
            raise PolyfitError(f"a text-art board is 2D or 3D, not {dim}D")
        from polyfit.lattices.textart import read_art  # text boards only: not a file of another kind

        art, metadata = read_art(text, path, dim, lattice_named)
        if not art.cells:
            raise PolyfitError(f"{path}: the board has no cells (draw cells with '#')")
        lattice = art.lattice or lattices.get(lattices.default_name(dim))
        fixed = []
        for letter in sorted(art.lettered):
            for group in lattice.components(art.lettered[letter]):
                cells = tuple(sorted(group))
                fixed.append((letter, cells, min(art.where[c] for c in cells)))
        fixed.sort(key=lambda f: f[2])
        max_holes = None
        if "max-holes" in metadata:
            text = metadata["max-holes"]
            if not (text.isascii() and text.isdigit()):
                line, column = art.metadata_at["max-holes"]
                raise ParseError(path, line, column, f"max-holes must be a whole number, 0 or more (the most "
                                 f"optional cells a solution leaves empty), not {text!r}")
            max_holes = int(text)
        return cls(
            tuple(sorted(art.cells)),
            metadata.get("name", ""),
            metadata,
            str(path),
            frozenset(art.optional),
            tuple(fixed),
            dict(art.metadata_at),
            lattice,
            max_holes=max_holes,
        )


class OnFirstUse(Mapping):
    """A table of a board (``Board.allowed``, the numbers in ``Board.motion``) worked out (by
    ``_make``) the first time something looks into it: what reading a file need not pay for
    unless it is asked."""

    _table: dict | None = None

    def _make(self) -> dict:
        raise NotImplementedError

    def _work(self) -> dict:
        if self._table is None:
            self._table = self._make()
        return self._table

    def __getitem__(self, key):
        return self._work()[key]

    def __iter__(self):
        return iter(self._work())

    def __len__(self) -> int:
        return len(self._work())

    def __repr__(self) -> str:
        return repr(self._work())


def lattice_named(name: str, dim: int, path, where) -> lattices.Lattice:
    """The lattice a ``; lattice:`` line names, which must have the file's dimension; a
    :class:`ParseError` at the name otherwise."""
    line, column = where
    try:
        lattice = lattices.get(name)
    except UnknownNameError as exc:
        raise ParseError(path, line, column, str(exc)) from None
    if lattice.dim != dim:
        raise ParseError(path, line, column, f"the {name} lattice is {lattice.dim}D but this file is {dim}D")
    return lattice
