"""Boards: the cells a puzzle must fill, with its optional cells and pre-placed pieces.

Boards are read from files by the readers in :mod:`polyfit.formats` (text art, voxel text,
MagicaVoxel); this is the data they produce.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from polyfit.lattices.grid import Cell


@dataclass(frozen=True)
class Board:
    cells: tuple[Cell, ...]  # sorted; (row, col) in 2D, (z, row, col) in 3D; every cell
    name: str = ""
    metadata: dict[str, str] = field(default_factory=dict, compare=False, hash=False)
    path: str | None = None
    optional: frozenset = frozenset()  # cells that may stay empty
    fixed: tuple = ()  # pre-placed pieces: (name, cells, (line, column) of the first cell)

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
