"""Boards: the cells a puzzle must fill, read from text art.

A 2D board file (``.txt``) is rows of ``#`` (a cell to fill) and ``.`` or space (no cell); rows
may be ragged. ``+`` is an optional cell (a piece may cover it, or it may stay empty), and a
letter or digit is a cell already filled by the piece of that name (pre-placed: it is part of
every solution, and its cells must have that piece's shape). Lines starting with ``;`` are
comments, or metadata when they read ``; key: value`` (``; pieces: pentominoes``,
``; name: 6x10 box``). Any other character is a parse error.

A 3D voxel layout (text ``.vox``) is the same art in z-layers separated by a blank line, the
bottom layer (z = 0) first; its cells are ``(z, row, col)``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from .errors import ParseError, PolyfitError
from .geometry import Cell, components
from .hookspecs import hookimpl

CELL = "#"
OPTIONAL = "+"
EMPTY = ". "
_METADATA = re.compile(r";\s*([A-Za-z][\w-]*)\s*:\s*(.*?)\s*$")


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


@dataclass
class Art:
    """What board art draws: every cell, the optional ones, and pre-placed cells by letter."""

    cells: list = field(default_factory=list)
    optional: set = field(default_factory=set)
    lettered: dict = field(default_factory=dict)  # letter -> [cell]
    where: dict = field(default_factory=dict)  # lettered cell -> (line, column)


def art_cells(rows, path, prefix: tuple[int, ...] = (), art: Art | None = None) -> Art:
    """Read numbered art lines into ``art``: ``#`` a cell, ``+`` an optional cell, a letter or
    digit a pre-placed piece's cell, ``.`` and space no cell; anything else is an error."""
    art = art if art is not None else Art()
    for row, (number, line) in enumerate(rows):
        for col, char in enumerate(line):
            if char in EMPTY:
                continue
            cell = prefix + (row, col)
            if char == OPTIONAL:
                art.optional.add(cell)
            elif char.isascii() and char.isalnum():
                art.lettered.setdefault(char, []).append(cell)
                art.where[cell] = (number, col + 1)
            elif char != CELL:
                raise ParseError(
                    path,
                    number,
                    col + 1,
                    f"unexpected character {char!r}: a board uses '#' for a cell, '+' for an "
                    "optional cell, a piece's letter for a pre-placed piece, and '.' or space "
                    "for no cell",
                )
            art.cells.append(cell)
    return art


def make_board(art: Art, metadata: dict, path) -> Board:
    """The board drawn: pre-placed pieces are the face-connected groups of each letter."""
    if not art.cells:
        raise PolyfitError(f"{path}: the board has no cells (draw cells with '#')")
    fixed = []
    for letter in sorted(art.lettered):
        for group in components(art.lettered[letter]):
            cells = tuple(sorted(group))
            fixed.append((letter, cells, min(art.where[c] for c in cells)))
    fixed.sort(key=lambda f: f[2])
    return Board(
        tuple(sorted(art.cells)),
        metadata.get("name", ""),
        metadata,
        str(path),
        frozenset(art.optional),
        tuple(fixed),
    )


def parse_board_text(text: str, path="<text>") -> Board:
    metadata: dict[str, str] = {}
    rows = parse_rows(split_lines(text), path, metadata)
    return make_board(art_cells(rows, path), metadata, path)


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
    art = Art()
    for z, layer in enumerate(split_layers(rows)):
        art_cells(layer, path, prefix=(z,), art=art)
    return make_board(art, metadata, path)


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
