"""Text art: the one grammar of polyfit's text files, read into cells and drawn back.

A file is lines. Lines starting with ``;`` are comments, or metadata when they read
``; key: value``; the other lines are art, in which each character is one cell of the square
lattice (line r, character c is cell ``(r, c)``). In 3D the art is z-layers separated by a blank
line, bottom layer (z = 0) first, and cells are ``(z, r, c)``.

On a board ``#`` is a cell to fill, ``.`` or space no cell, ``+`` an optional cell, and a letter
or digit a cell already filled by the piece of that name; any other character is a
:class:`~polyfit.errors.ParseError` with its line and column. Pieces files give each piece its
own letter (:mod:`polyfit.formats.pieces_file`). Solutions are drawn back in the same art, each
cell showing the name of the piece covering it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from polyfit.errors import ParseError
from polyfit.limits import check, limit
from polyfit.files import split_lines
from polyfit.lattices.base import Lattice

CELL = "#"
OPTIONAL = "+"
EMPTY = ". "
_METADATA = re.compile(r";\s*([A-Za-z][\w-]*)\s*:\s*(.*?)\s*$")


def parse_rows(numbered_lines, path, metadata: dict, where: dict | None = None) -> list[tuple[int, str]]:
    """Collect metadata from ``;`` lines and return the remaining art lines, numbered;
    ``where`` gets each metadata value's line and column, for errors about it."""
    rows = []
    for number, line in numbered_lines:
        if line.startswith(";"):
            match = _METADATA.match(line)
            if match:
                metadata[match.group(1).lower()] = match.group(2)
                if where is not None:
                    where[match.group(1).lower()] = (number, match.start(2) + 1)
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
    metadata_at: dict = field(default_factory=dict)  # metadata key -> (line, column) of its value
    lattice: object = None  # the lattice a "; lattice:" line names (None: squares or cubes)


def art_cells(rows, path, prefix: tuple[int, ...] = (), art: Art | None = None) -> Art:
    """Read numbered art lines into ``art``: ``#`` a cell, ``+`` an optional cell, a letter or
    digit a pre-placed piece's cell, ``.`` and space no cell; anything else is an error."""
    art = art if art is not None else Art()
    most = limit("cells")
    lattice = art.lattice
    dr, dc = art_shift(rows, lattice)
    for row, (number, line) in enumerate(rows):
        if len(art.cells) + len(line) > most:  # refuse before building a million cells more
            check("cells", len(art.cells) + sum(ch not in EMPTY for ch in line), str(path))
        for col, char in enumerate(line):
            if char in EMPTY:
                continue
            cell = prefix + (row + dr, col + dc)
            if lattice is not None:
                drawn, char = char, lattice.art_mark(char, cell)
                if char in EMPTY:
                    continue
                problem = lattice.art_problem(cell)
                if problem is not None:
                    raise ParseError(path, number, col + 1, f"{drawn!r} here is not a cell: {problem}")
            if char == OPTIONAL:
                art.optional.add(cell)
            elif char.isascii() and char.isalnum():
                art.lettered.setdefault(char, []).append(cell)
                art.where[cell] = (number, col + 1)
            elif char != CELL:
                help = f"; {lattice.art_help}" if lattice is not None and lattice.art_help else ""
                raise ParseError(
                    path,
                    number,
                    col + 1,
                    f"unexpected character {char!r}: a board uses '#' for a cell, '+' for an "
                    "optional cell, a piece's letter for a pre-placed piece, and '.' or space "
                    f"for no cell{help}",
                )
            art.cells.append(cell)
    return art


def art_shift(rows, lattice) -> tuple[int, int]:
    """How far to move art for its first mark that fixes a place on the lattice to fit there
    (:meth:`polyfit.lattices.base.Lattice.art_shift`); no move on most lattices."""
    if lattice is None or type(lattice).art_shift is Lattice.art_shift:
        return 0, 0
    for row, (_, line) in enumerate(rows):
        for col, char in enumerate(line):
            if char not in EMPTY:
                shift = lattice.art_shift(char, (row, col))
                if shift is not None:
                    return shift
    return 0, 0


def split_layers(rows) -> list[list[tuple[int, str]]]:
    """Split numbered art lines into layers at blank lines (several blank lines count as one)."""
    layers = [[]]
    for number, line in rows:
        if line.strip():
            layers[-1].append((number, line))
        elif layers[-1]:
            layers.append([])
    return [layer for layer in layers if layer]


def read_art(text: str, path, dim: int, lattice_named=None) -> tuple[Art, dict[str, str]]:
    """The cells a board's art draws (``dim`` 2: one grid; 3: layers), and its metadata.

    A ``; lattice: NAME`` line is looked up with ``lattice_named(name, dim, path, (line,
    column))``, and each drawn cell is checked against that lattice."""
    metadata: dict[str, str] = {}
    art = Art()
    rows = parse_rows(split_lines(text), path, metadata, art.metadata_at)
    if "lattice" in metadata and lattice_named is not None:
        art.lattice = lattice_named(metadata["lattice"], dim, path, art.metadata_at["lattice"])
    if dim == 3:
        for z, layer in enumerate(split_layers(rows)):
            art_cells(layer, path, prefix=(z,), art=art)
    else:
        art_cells(rows, path, art=art)
    return art, metadata


def draw_cells(labels: dict, empty: str = " ", lattice=None) -> str:
    """Draw ``{cell: label}`` as text art; 3D cells are drawn as layers, bottom (z = 0) first.
    On a ``lattice`` whose cells have kinds (up and down triangles), the drawing starts where
    reading it back gives each cell its kind."""
    if not labels:
        return ""
    width = max(len(label) for label in labels.values())
    sep = "" if width == 1 else " "
    dim = len(next(iter(labels)))
    if dim == 2:
        box = None
        if lattice is not None:
            labels = {**lattice.art_extras(list(labels)), **labels}  # the points of polysticks
            r0, r1, c0, c1 = _box(labels)
            r0, c0 = lattice.art_origin(r0, c0)
            box = (r0, r1, c0, c1)
        return _draw_layer(labels, width, sep, empty, box)
    empty = "." if empty == " " else empty  # in a layer, a blank would hide where cells are not
    layers = sorted({c[0] for c in labels})
    rows = [c[1] for c in labels]
    cols = [c[2] for c in labels]
    r0, c0 = min(rows), min(cols)
    if lattice is not None:  # prisms: start where each triangle reads back pointing its way
        r0, c0 = lattice.art_origin(r0, c0)
    box = (r0, max(rows), c0, max(cols))
    parts = []
    for z in layers:
        layer = {c[1:]: label for c, label in labels.items() if c[0] == z}
        parts.append(f"z={z}\n" + _draw_layer(layer, width, sep, empty, box))
    return "\n\n".join(parts)


def _box(labels) -> tuple[int, int, int, int]:
    rows = [c[0] for c in labels]
    cols = [c[1] for c in labels]
    return (min(rows), max(rows), min(cols), max(cols))


def _draw_layer(labels, width, sep, empty, box=None) -> str:
    if box is None:
        box = _box(labels)
    r0, r1, c0, c1 = box
    lines = []
    for r in range(r0, r1 + 1):
        line = sep.join(labels.get((r, c), empty).ljust(width) for c in range(c0, c1 + 1))
        lines.append(line.rstrip())
    return "\n".join(lines)
