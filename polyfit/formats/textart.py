"""Text art: the one grammar of polyfit's text files, and solutions drawn back as text.

A board file (``.txt``) is rows of ``#`` (a cell to fill) and ``.`` or space (no cell); rows
may be ragged. ``+`` is an optional cell (a piece may cover it, or it may stay empty), and a
letter or digit is a cell already filled by the piece of that name (pre-placed: it is part of
every solution, and its cells must have that piece's shape). Lines starting with ``;`` are
comments, or metadata when they read ``; key: value`` (``; pieces: pentominoes``,
``; name: 6x10 box``). Any other character is a parse error.

A 3D voxel layout (text ``.vox``) is the same art in z-layers separated by a blank line, the
bottom layer (z = 0) first; its cells are ``(z, row, col)``. Pieces files
(:mod:`polyfit.formats.pieces_file`) use the same lines, metadata and layers.

Solutions are drawn back in the same art: each cell shows the name of the piece covering it.
This module registers the ``text`` and ``voxel-text`` board readers and the ``text`` exporter.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from polyfit.errors import ParseError, PolyfitError
from polyfit.files import read_text, split_lines, write_text
from polyfit.hookspecs import hookimpl
from polyfit.lattices.grid import components
from polyfit.puzzle.board import Board

CELL = "#"
OPTIONAL = "+"
EMPTY = ". "
_METADATA = re.compile(r";\s*([A-Za-z][\w-]*)\s*:\s*(.*?)\s*$")


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


def read_text_board(path) -> Board:
    return parse_board_text(read_text(path), path)


def read_voxel_text(path) -> Board:
    return parse_voxel_text(read_text(path), path)


# -- drawing -----------------------------------------------------------------------------------


def draw_cells(labels: dict, empty: str = " ") -> str:
    """Draw ``{cell: label}`` as text art; 3D cells are drawn as layers, bottom (z = 0) first."""
    if not labels:
        return ""
    width = max(len(label) for label in labels.values())
    sep = "" if width == 1 else " "
    dim = len(next(iter(labels)))
    if dim == 2:
        return _draw_layer(labels, width, sep, empty)
    empty = "." if empty == " " else empty  # in a layer, a blank would hide where cells are not
    layers = sorted({c[0] for c in labels})
    rows = [c[1] for c in labels]
    cols = [c[2] for c in labels]
    box = (min(rows), max(rows), min(cols), max(cols))
    parts = []
    for z in layers:
        layer = {c[1:]: label for c, label in labels.items() if c[0] == z}
        parts.append(f"z={z}\n" + _draw_layer(layer, width, sep, empty, box))
    return "\n\n".join(parts)


def _draw_layer(labels, width, sep, empty, box=None) -> str:
    if box is None:
        rows = [c[0] for c in labels]
        cols = [c[1] for c in labels]
        box = (min(rows), max(rows), min(cols), max(cols))
    r0, r1, c0, c1 = box
    lines = []
    for r in range(r0, r1 + 1):
        line = sep.join(labels.get((r, c), empty).ljust(width) for c in range(c0, c1 + 1))
        lines.append(line.rstrip())
    return "\n".join(lines)


def draw_solution(pieces, placements, names=None, empty_cells=()) -> str:
    """Draw a solution given as placements (objects with ``piece`` index and ``cells``).

    ``names`` label each placement (default: its piece's name); ``empty_cells`` are board
    cells left empty (optional ones), drawn as ``+``."""
    labels = {cell: "+" for cell in empty_cells}
    for k, placement in enumerate(placements):
        name = names[k] if names is not None else pieces[placement.piece].name
        for cell in placement.cells:
            labels[cell] = name
    return draw_cells(labels)


def draw_pieces(pieces, width: int = 72) -> str:
    """Draw pieces with their names: 2D side by side (wrapped at ``width`` columns), 3D one
    below the other, each under its name and layer by layer (bottom first)."""
    pieces = list(pieces)
    if not pieces:
        return ""
    if pieces[0].dim == 3:
        drawings = (f"{p.name}:\n" + draw_cells({c: p.name for c in p.cells}) for p in pieces)
        return "\n\n".join(drawings)
    blocks = []
    for p in pieces:
        art = draw_cells({c: p.name for c in p.cells}).splitlines()
        block_width = max(len(line) for line in art)
        blocks.append([line.ljust(block_width) for line in art])
    bands: list[list] = [[]]
    used = 0
    for block in blocks:
        block_width = len(block[0])
        if bands[-1] and used + 3 + block_width > width:
            bands.append([])
        used = block_width if not bands[-1] else used + 3 + block_width
        bands[-1].append(block)
    out = []
    for band in bands:
        height = max(len(b) for b in band)
        for r in range(height):
            out.append("   ".join(b[r] if r < len(b) else " " * len(b[0]) for b in band).rstrip())
        out.append("")
    return "\n".join(out).rstrip()


def export_text(solutions, path) -> None:
    parts = []
    for number, solution in enumerate(solutions.solutions, start=1):
        labels = {tuple(c): name for name, cells in solution.items() for c in cells}
        parts.append(f"Solution {number}:\n{draw_cells(labels)}\n")
    write_text(path, "\n".join(parts))


@hookimpl
def register_shape_readers(register):
    register("text", (".txt",), read_text_board, None)
    register("voxel-text", (".vox",), read_voxel_text, None)


@hookimpl
def register_exporters(register):
    register("text", (".txt",), export_text, "solutions as text art")
