"""Pieces files: text art in which each distinct ASCII letter or digit is one piece.

Case matters; ``.`` and space are no cell. 3D files (suffix ``.vox``, or ``; dim: 3``) are
z-layers separated by a blank line, bottom layer first; in 2D a blank line is just an empty
row. Lines starting with ``;`` are comments, or metadata when they read ``; key: value``:

- ``; mirror: yes|no``: whether the pieces may be turned over (default yes in 2D, no in 3D,
  where a solid piece cannot become its mirror image);
- ``; dim: 2|3``: overrides the dimension the suffix implies;
- ``; lattice: NAME``: the lattice the art is drawn on (``triangle``, ``hex``; default squares
  in 2D, cubes in 3D), read as boards are (:mod:`polyfit.lattices.textart`);
- ``; count X: n`` or ``; count X: lo..hi``: how many copies of piece ``X`` (default 1).

Every problem with a pieces file's content is a :class:`ParseError` with a 1-based line and
column.
"""

from __future__ import annotations

import re
from pathlib import Path

from polyfit.errors import ParseError, PolyfitError
from polyfit.files import decode, read_bytes, split_lines
from polyfit.lattices.textart import art_shift, parse_rows, split_layers
from polyfit.limits import parse_range
from polyfit.lattices import base as lattices
from polyfit.puzzle.board import lattice_named
from polyfit.puzzle.pieces import Piece

PIECES_FILE_SUFFIXES = (".txt", ".vox", ".pieces")


_YES_NO = {"yes": True, "true": True, "no": False, "false": False}


def _metadata_line(text: str, key: str) -> tuple[int, int]:
    """Line and column of the value of the last ``; key:`` line (for error messages)."""
    where = (1, 1)
    for number, line in split_lines(text):
        head, colon, _ = line.partition(":")
        if line.startswith(";") and colon and head[1:].strip().lower() == key:
            value_at = len(head) + 1
            value_at += len(line[value_at:]) - len(line[value_at:].lstrip())
            where = (number, value_at + 1)
    return where


def _choice(text, path, metadata, key, choices, default, allowed):
    if key not in metadata:
        return default
    value = metadata[key].lower()
    if value not in choices:
        line, column = _metadata_line(text, key)
        raise ParseError(path, line, column, f"'; {key}:' must be {allowed}, not {metadata[key]!r}")
    return choices[value]


def parse_pieces_text(text: str, path="<text>", dim: int | None = None) -> list[Piece]:
    """The pieces drawn in ``text``, sorted by name.

    ``dim`` is the dimension when the text has no ``; dim:`` line (default 2).
    """
    metadata: dict[str, str] = {}
    metadata_at: dict = {}
    rows = parse_rows(split_lines(text), path, metadata, metadata_at)
    dim = _choice(text, path, metadata, "dim", {"2": 2, "3": 3}, dim or 2, "2 or 3")
    if "lattice" in metadata:
        lattice = lattice_named(metadata["lattice"], dim, path, metadata_at["lattice"])
    else:
        lattice = lattices.get(lattices.default_name(dim))
    mirror = _choice(text, path, metadata, "mirror", _YES_NO, dim == 2, "yes or no")
    layers = split_layers(rows) if dim == 3 else [rows]
    cells: dict[str, list] = {}
    where: dict[tuple, tuple[int, int]] = {}  # cell -> (line, column)
    dr, dc = art_shift(rows, lattice) if dim == 2 else (0, 0)
    for z, layer in enumerate(layers):
        for row, (number, line) in enumerate(layer):
            for col, char in enumerate(line):
                cell = (z, row, col) if dim == 3 else (row + dr, col + dc)
                if char not in ". ":
                    char = lattice.art_mark(char, cell)  # the points of polysticks are no cells
                if char in ". ":
                    continue
                if not (char.isascii() and char.isalnum()):
                    help = f"; {lattice.art_help}" if lattice.art_help else ""
                    raise ParseError(
                        path,
                        number,
                        col + 1,
                        f"unexpected character {char!r}: a pieces file draws each piece with "
                        f"its own letter or digit, and '.' or space for no cell{help}",
                    )
                problem = lattice.art_problem(cell)
                if problem is not None:
                    raise ParseError(path, number, col + 1, f"{char!r} here is not a cell: {problem}")
                cells.setdefault(char, []).append(cell)
                where[cell] = (number, col + 1)
    if not cells:
        message = "the pieces file draws no pieces (use a letter or digit per piece)"
        raise ParseError(path, 1, 1, message)
    counts = _count_lines(text, path, cells)
    pieces = []
    for name in sorted(cells):
        if not lattice.is_connected(cells[name]):
            # Point at the first cell, in reading order, that is cut off from the first one.
            first_part = next(part for part in lattice.components(cells[name]) if cells[name][0] in part)
            stray = next(c for c in cells[name] if c not in first_part)
            line, column = where[stray]
            message = f"piece {name!r} is not connected face to face: this cell is apart"
            raise ParseError(path, line, column, message)
        pieces.append(Piece(name, tuple(cells[name]), mirror, counts.get(name, (1, 1)), lattice.name))
    return pieces


_COUNT_LINE = re.compile(r";\s*count\s+(\S+)\s*:\s*(.*?)\s*$", re.IGNORECASE)


def _count_lines(text: str, path, names) -> dict[str, tuple[int, int]]:
    """The ``; count X: n`` lines of a pieces file."""
    counts = {}
    for number, line in split_lines(text):
        match = _COUNT_LINE.match(line)
        if not match:
            continue
        name, value = match.group(1), match.group(2)
        if name not in names:
            known = ", ".join(sorted(names))
            message = f"'; count {name}:' names no piece of this file (its pieces: {known})"
            raise ParseError(path, number, match.start(1) + 1, message)
        try:
            counts[name] = parse_count(value)
        except PolyfitError as exc:
            raise ParseError(path, number, match.start(2) + 1, str(exc)) from None
    return counts


def parse_count(text: str) -> tuple[int, int]:
    """``n`` or ``lo..hi`` as ``(lo, hi)``; a clear error for anything else."""
    lo, hi = parse_range(text, "bad count")
    if hi == 0:
        raise PolyfitError(f"bad count {text.strip()!r}: at most 0 copies; leave the piece out instead")
    return lo, hi


def parse_pieces_bytes(data: bytes, path="<bytes>", dim: int | None = None) -> list[Piece]:
    """Like :func:`parse_pieces_text`, for the raw bytes of a file (which must be UTF-8)."""
    return parse_pieces_text(decode(data, path), path, dim)


def read_pieces_file(path) -> list[Piece]:
    """The pieces in a file; ``.vox`` files are 3D unless they say ``; dim: 2``."""
    path = Path(path)
    dim = 3 if path.suffix.lower() == ".vox" else 2
    return parse_pieces_bytes(read_bytes(path, "pieces file"), path, dim)
