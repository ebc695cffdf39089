"""Pieces, pieces files, and the ``--pieces`` spec that picks them.

A spec is a set name (``pentominoes``), a comma-separated list of sets and single pieces
(``pentominoes,tetrominoes:O``: ``SET:NAME`` is one piece of a set), or the path of a pieces
file. Set names win over files of the same name in the current directory; a token with a path
separator or a ``.txt``/``.vox`` suffix is always a file.

Each piece is used exactly once unless a count says otherwise. A count is a number ``n`` or a
range ``lo..hi``, written before a token with ``*`` (``2*tetrominoes``: two of each;
``0..1*pentominoes``: each at most once) or after it with ``=`` (``pentominoes:F=0..2``).
Copies of a piece are indistinguishable: swapping two of them is not a new solution.

A pieces file is text art in which each distinct ASCII letter or digit is one piece (case
matters), ``.`` and space are no cell. 3D files (suffix ``.vox``, or ``; dim: 3``) are z-layers
separated by a blank line, bottom layer first; in 2D a blank line is just an empty row. Lines
starting with ``;`` are comments, or metadata when they read ``; key: value``:

- ``; mirror: yes|no``: whether the pieces may be turned over (default yes in 2D, no in 3D,
  where a solid piece cannot become its mirror image);
- ``; dim: 2|3``: overrides the dimension the suffix implies;
- ``; count X: n`` or ``; count X: lo..hi``: how many copies of piece ``X`` (default 1).

Every problem with a pieces file's content is a :class:`ParseError` with a 1-based line and
column.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path

from .board import decode, parse_rows, read_bytes, split_layers, split_lines
from .errors import ParseError, PolyfitError, UnknownNameError
from .geometry import Shape, components, is_connected, lattice_group, normalize, orientations
from .textart import draw_cells

PIECES_FILE_SUFFIXES = (".txt", ".vox")


@dataclass(frozen=True)
class Piece:
    """A named shape; ``cells`` are normalized on construction."""

    name: str
    cells: Shape
    mirror: bool = True  # may be turned over (placed as its mirror image)
    count: tuple[int, int] = (1, 1)  # how many copies a solution uses: lo..hi

    def __post_init__(self):
        cells = normalize(self.cells)
        if not cells:
            raise ValueError(f"piece {self.name!r} has no cells")
        object.__setattr__(self, "cells", cells)
        lo, hi = self.count
        if not 0 <= lo <= hi or hi < 1:
            raise ValueError(f"piece {self.name!r} has count {lo}..{hi}")

    @property
    def dim(self) -> int:
        return len(self.cells[0])

    @property
    def size(self) -> int:
        return len(self.cells)

    def orientations(self) -> tuple[Shape, ...]:
        """The distinct normalized orientations this piece may be placed in, sorted."""
        return _orientations(self.cells, self.mirror)


@cache
def _orientations(cells: Shape, mirror: bool) -> tuple[Shape, ...]:
    return orientations(cells, lattice_group(len(cells[0]), mirror))


# -- pieces files ------------------------------------------------------------------------------

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
    rows = parse_rows(split_lines(text), path, metadata)
    dim = _choice(text, path, metadata, "dim", {"2": 2, "3": 3}, dim or 2, "2 or 3")
    mirror = _choice(text, path, metadata, "mirror", _YES_NO, dim == 2, "yes or no")
    layers = split_layers(rows) if dim == 3 else [rows]
    cells: dict[str, list] = {}
    where: dict[tuple, tuple[int, int]] = {}  # cell -> (line, column)
    for z, layer in enumerate(layers):
        for row, (number, line) in enumerate(layer):
            for col, char in enumerate(line):
                if char in ". ":
                    continue
                if not (char.isascii() and char.isalnum()):
                    raise ParseError(
                        path,
                        number,
                        col + 1,
                        f"unexpected character {char!r}: a pieces file draws each piece with "
                        "its own letter or digit, and '.' or space for no cell",
                    )
                cell = (z, row, col) if dim == 3 else (row, col)
                cells.setdefault(char, []).append(cell)
                where[cell] = (number, col + 1)
    if not cells:
        message = "the pieces file draws no pieces (use a letter or digit per piece)"
        raise ParseError(path, 1, 1, message)
    counts = _count_lines(text, path, cells)
    pieces = []
    for name in sorted(cells):
        if not is_connected(cells[name]):
            # Point at the first cell, in reading order, that is cut off from the first one.
            first_part = next(part for part in components(cells[name]) if cells[name][0] in part)
            stray = next(c for c in cells[name] if c not in first_part)
            line, column = where[stray]
            message = f"piece {name!r} is not connected face to face: this cell is apart"
            raise ParseError(path, line, column, message)
        pieces.append(Piece(name, tuple(cells[name]), mirror, counts.get(name, (1, 1))))
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
    low, dots, high = text.strip().partition("..")
    if not dots:
        high = low
    low, high = low.strip(), high.strip()
    if not (low.isdigit() and high.isdigit()):
        raise PolyfitError(f"bad count {text.strip()!r}: write a number n or a range lo..hi")
    lo, hi = int(low), int(high)
    if lo > hi:
        raise PolyfitError(f"bad count {text.strip()!r}: the low end {lo} is above the high end {hi}")
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
    try:
        data = read_bytes(path)
    except ValueError as exc:  # a NUL in the name: no file can have it
        raise PolyfitError(f"cannot read {str(path)!r}: {exc}") from None
    return parse_pieces_bytes(data, path, dim)


# -- specs -------------------------------------------------------------------------------------


def _is_file(token: str) -> bool:
    try:
        return Path(token).is_file()
    except (OSError, ValueError):  # a name too long for the system, say
        return False


def _names_a_file(token: str) -> bool:
    return "/" in token or "\\" in token or token.lower().endswith(PIECES_FILE_SUFFIXES)


def _split_count(token: str) -> tuple[str, tuple[int, int] | None]:
    """``2*SET``, ``lo..hi*SET`` or ``SET:NAME=lo..hi`` -> (the token without its count, count)."""
    count_text = None
    if "*" in token and "=" in token:
        raise PolyfitError(f"{token!r} has two counts ('*' and '='); give one")
    if "*" in token:
        count_text, _, token = token.partition("*")
    if "=" in token:
        token, _, count_text = token.partition("=")
    token = token.strip()
    if count_text is None:
        return token, None
    if not token:
        raise PolyfitError(f"count {count_text.strip()!r} is not followed by a set or piece")
    return token, parse_count(count_text)


def _pieces_of(token: str, registry, base=None) -> list[Piece]:
    token, count = _split_count(token)
    pieces = _named_pieces(token, registry, base)
    if count is not None:
        pieces = [replace(p, count=count) for p in pieces]
    return pieces


def _named_pieces(token: str, registry, base=None) -> list[Piece]:
    set_name, colon, piece_name = token.partition(":")
    if set_name in registry:
        pieces = list(registry[set_name][0]())
        if not colon:
            return pieces
        chosen = [p for p in pieces if p.name == piece_name]
        if not chosen:
            raise UnknownNameError(
                f"piece of {set_name}", piece_name, [p.name for p in pieces], f"pieces of {set_name}"
            )
        return chosen
    if base is not None and not Path(token).is_absolute() and _is_file(str(Path(base) / token)):
        return read_pieces_file(Path(base) / token)
    if _names_a_file(token) or _is_file(token):
        return read_pieces_file(token)
    raise UnknownNameError("piece set", set_name, registry)


def _twice(name: str, first: str, second: str, same_token: bool) -> str:
    if same_token:
        return f"{second!r} has two pieces named {name!r}"
    if first == second:
        return f"{first!r} is named twice, so its piece {name!r} would be used twice"
    return (
        f"piece {name!r} is in both {first!r} and {second!r}; pick single pieces with "
        "SET:NAME to combine sets whose names overlap"
    )


def _recounts(token: str, before: Piece, piece: Piece) -> bool:
    """Does this token only give a new count to a piece named before (SET:NAME=n)?"""
    bare, count = _split_count(token)
    return count is not None and ":" in bare and (before.cells, before.mirror) == (piece.cells, piece.mirror)


def resolve_pieces(spec: str, registry, base=None) -> list[Piece]:
    """The pieces a spec names, in the order named.

    ``registry`` maps set name -> (build function returning pieces, summary); a pieces file is
    looked for in the folder ``base`` first (a board's own folder, for its ``; pieces:`` line).
    """
    spec = spec.strip()
    if not spec:
        raise PolyfitError("empty piece spec; 'polyfit pieces' lists the sets")
    if _is_file(spec) and spec.split(":")[0] not in registry:
        tokens = [spec]  # a file whose name has a comma in it
    else:
        tokens = [t.strip() for t in spec.split(",")]
    result: list[Piece] = []
    named_by: dict[str, int] = {}  # piece name -> index of the token that brought it
    for index, token in enumerate(tokens):
        if not token:
            raise PolyfitError(f"empty item in piece spec {spec!r}")
        for piece in _pieces_of(token, registry, base):
            if piece.name in named_by:
                first = named_by[piece.name]
                position = next(k for k, p in enumerate(result) if p.name == piece.name)
                if _recounts(token, result[position], piece) and first != index:
                    # 'pentominoes,pentominoes:F=0..2': all twelve, F from 0 to 2 times.
                    result[position] = piece
                    continue
                raise PolyfitError(_twice(piece.name, tokens[first], token, first == index))
            named_by[piece.name] = index
            result.append(piece)
    dims = sorted({p.dim for p in result})
    if len(dims) > 1:
        raise PolyfitError(f"{spec!r} mixes 2D and 3D pieces")
    return result


# -- drawing -----------------------------------------------------------------------------------


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
