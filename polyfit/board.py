"""Boards: the cells a puzzle must fill, read from text art.

A 2D board file (``.txt``) is rows of ``#`` (a cell to fill) and ``.`` or space (no cell); rows
may be ragged. Lines starting with ``;`` are comments, or metadata when they read
``; key: value`` (``; pieces: pentominoes``, ``; name: 6x10 box``). Every other character is
reserved for later features and is a parse error today.

A 3D voxel layout (text ``.vox``) is the same art in z-layers separated by a blank line, the
bottom layer (z = 0) first; its cells are ``(z, row, col)``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from .errors import ParseError, PolyfitError
from .geometry import Cell
from .hookspecs import hookimpl

CELL = "#"
EMPTY = ". "
_METADATA = re.compile(r";\s*([A-Za-z][\w-]*)\s*:\s*(.*?)\s*$")


@dataclass(frozen=True)
class Board:
    cells: tuple[Cell, ...]  # sorted; (row, col) in 2D, (z, row, col) in 3D
    name: str = ""
    metadata: dict[str, str] = field(default_factory=dict, compare=False, hash=False)
    path: str | None = None

    @property
    def dim(self) -> int:
        return len(self.cells[0])

    @property
    def area(self) -> int:
        return len(self.cells)

    @property
    def label(self) -> str:
        return self.name or (Path(self.path).name if self.path else "board")


def decode(data: bytes, path) -> str:
    """UTF-8 text, or a ParseError at the line and column of the first bad byte."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = data[: exc.start]
        line = before.count(b"\n") + 1
        column = exc.start - (before.rfind(b"\n") + 1) + 1
        raise ParseError(path, line, column, "the file is not UTF-8 text") from None


def split_lines(text: str):
    """Yield ``(line_number, line)``, 1-based, without line endings (\\n, \\r\\n or \\r)."""
    for number, line in enumerate(text.splitlines(), start=1):
        yield number, line


def parse_rows(numbered_lines, path, metadata: dict) -> list[tuple[int, str]]:
    """Collect metadata from ``;`` lines and return the remaining art lines, numbered."""
    rows = []
    for number, line in numbered_lines:
        if line.startswith(";"):
            match = _METADATA.match(line)
            if match:
                metadata[match.group(1).lower()] = match.group(2)
            continue
        rows.append((number, line))
    # Blank lines before the first and after the last row of art carry no meaning.
    while rows and not rows[0][1].strip():
        rows.pop(0)
    while rows and not rows[-1][1].strip():
        rows.pop()
    return rows


def art_cells(rows, path, prefix: tuple[int, ...] = ()) -> list[Cell]:
    """The ``#`` cells of numbered art lines; any other character but ``.`` and space is an error."""
    cells = []
    for row, (number, line) in enumerate(rows):
        for col, char in enumerate(line):
            if char == CELL:
                cells.append(prefix + (row, col))
            elif char not in EMPTY:
                raise ParseError(
                    path,
                    number,
                    col + 1,
                    f"unexpected character {char!r}: a board uses '#' for a cell "
                    "and '.' or space for no cell",
                )
    return cells


def parse_board_text(text: str, path="<text>") -> Board:
    metadata: dict[str, str] = {}
    rows = parse_rows(split_lines(text), path, metadata)
    cells = art_cells(rows, path)
    if not cells:
        raise PolyfitError(f"{path}: the board has no cells (draw cells with '#')")
    return Board(tuple(sorted(cells)), metadata.get("name", ""), metadata, str(path))


def split_layers(rows) -> list[list[tuple[int, str]]]:
    """Split numbered art lines into layers at blank lines (several blank lines count as one)."""
    layers = [[]]
    for number, line in rows:
        if line.strip():
            layers[-1].append((number, line))
        elif layers[-1]:
            layers.append([])
    return [layer for layer in layers if layer]


def parse_voxel_text(text: str, path="<text>") -> Board:
    metadata: dict[str, str] = {}
    rows = parse_rows(split_lines(text), path, metadata)
    cells = []
    for z, layer in enumerate(split_layers(rows)):
        cells += art_cells(layer, path, prefix=(z,))
    if not cells:
        raise PolyfitError(f"{path}: the voxel layout has no cells (draw cells with '#')")
    return Board(tuple(sorted(cells)), metadata.get("name", ""), metadata, str(path))


def read_bytes(path) -> bytes:
    try:
        return Path(path).read_bytes()
    except OSError as exc:
        raise PolyfitError(f"cannot read {path}: {exc.strerror or exc}") from None


def read_text_board(path) -> Board:
    return parse_board_text(decode(read_bytes(path), path), path)


def read_voxel_text(path) -> Board:
    return parse_voxel_text(decode(read_bytes(path), path), path)


@hookimpl
def register_shape_readers(register):
    register("text", (".txt",), read_text_board, None)
    register("voxel-text", (".vox",), read_voxel_text, None)
