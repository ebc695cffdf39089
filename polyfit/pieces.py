"""Pieces, pieces files, and the ``--pieces`` spec that picks them.

A spec is a set name (``pentominoes``), or a comma-separated list of sets and single pieces
(``pentominoes,tetrominoes:O``: ``SET:NAME`` is one piece of a set), or the path of a pieces
file: text art in which each distinct letter or digit is one piece (``.vox`` files are 3D, in
z-layers separated by blank lines, bottom first). ``; mirror: yes|no`` in a pieces file says
whether its pieces may be turned over (default: yes in 2D, no in 3D, where a solid piece
cannot become its mirror image).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .board import decode, parse_rows, read_bytes, split_layers, split_lines
from .errors import ParseError, PolyfitError, UnknownNameError
from .geometry import Shape, components, is_connected, lattice_group, normalize, orientations
from .textart import draw_cells


@dataclass(frozen=True)
class Piece:
    name: str
    cells: Shape  # normalized
    mirror: bool = True  # may be turned over (placed as its mirror image)

    @property
    def dim(self) -> int:
        return len(self.cells[0])

    @property
    def size(self) -> int:
        return len(self.cells)

    def orientations(self) -> tuple[Shape, ...]:
        return _orientations(self.cells, self.mirror)


_cache: dict = {}


def _orientations(cells, mirror):
    key = (cells, mirror)
    if key not in _cache:
        _cache[key] = orientations(cells, lattice_group(len(cells[0]), mirror))
    return _cache[key]


# -- pieces files ------------------------------------------------------------------------------


def parse_pieces_text(text: str, path="<text>", dim: int = 2) -> list[Piece]:
    metadata: dict[str, str] = {}
    rows = parse_rows(split_lines(text), path, metadata)
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
        raise PolyfitError(f"{path}: the pieces file draws no pieces (use a letter or digit per piece)")
    mirror_text = metadata.get("mirror", "yes" if dim == 2 else "no").lower()
    if mirror_text not in ("yes", "no", "true", "false"):
        raise PolyfitError(f"{path}: '; mirror:' must be yes or no, not {mirror_text!r}")
    mirror = mirror_text in ("yes", "true")
    pieces = []
    for name in sorted(cells):
        if not is_connected(cells[name]):
            first_part = next(part for part in components(cells[name]) if cells[name][0] in part)
            stray = next(c for c in cells[name] if c not in first_part)
            line, column = where[stray]
            raise ParseError(
                path, line, column, f"piece {name!r} is not connected face to face: this cell is apart"
            )
        pieces.append(Piece(name, normalize(cells[name]), mirror))
    return pieces


def read_pieces_file(path) -> list[Piece]:
    path = Path(path)
    dim = 3 if path.suffix.lower() == ".vox" else 2
    return parse_pieces_text(decode(read_bytes(path), path), path, dim)


# -- specs -------------------------------------------------------------------------------------


def _looks_like_path(token: str) -> bool:
    return "/" in token or "\\" in token or token.endswith((".txt", ".vox")) or Path(token).is_file()


def resolve_pieces(spec: str, registry) -> list[Piece]:
    """The pieces a spec names. ``registry`` maps set name -> (build function, summary)."""
    spec = spec.strip()
    if not spec:
        raise PolyfitError("empty piece spec; polyfit pieces lists the sets")
    if _looks_like_path(spec) and "," not in spec:
        return _checked(read_pieces_file(spec), spec)
    result = []
    for token in (t.strip() for t in spec.split(",")):
        if not token:
            raise PolyfitError(f"empty item in piece spec {spec!r}")
        if _looks_like_path(token):
            result += read_pieces_file(token)
            continue
        set_name, _, piece_name = token.partition(":")
        if set_name not in registry:
            raise UnknownNameError("piece set", set_name, registry)
        build = registry[set_name][0]
        pieces = list(build())
        if piece_name:
            chosen = [p for p in pieces if p.name == piece_name]
            if not chosen:
                raise UnknownNameError(f"piece of {set_name}", piece_name, [p.name for p in pieces])
            pieces = chosen
        result += pieces
    return _checked(result, spec)


def _checked(pieces: list[Piece], spec: str) -> list[Piece]:
    seen = set()
    for piece in pieces:
        if piece.name in seen:
            raise PolyfitError(
                f"piece {piece.name!r} appears twice in {spec!r}; pick single pieces with "
                "SET:NAME to combine sets whose names overlap"
            )
        seen.add(piece.name)
    dims = {p.dim for p in pieces}
    if len(dims) > 1:
        raise PolyfitError(f"{spec!r} mixes 2D and 3D pieces")
    return pieces


# -- drawing -----------------------------------------------------------------------------------


def draw_pieces(pieces, width: int = 72) -> str:
    """Draw pieces side by side (2D, wrapped at ``width``) or one after another (3D)."""
    if pieces and pieces[0].dim == 3:
        parts = []
        for p in pieces:
            parts.append(f"{p.name}:\n" + draw_cells({c: p.name for c in p.cells}, empty="."))
        return "\n\n".join(parts)
    blocks = []
    for p in pieces:
        art = draw_cells({c: p.name for c in p.cells}).splitlines()
        art_width = max(len(line) for line in art)
        blocks.append([line.ljust(art_width) for line in art])
    lines_out, band = [], []
    used = 0
    for block in blocks + [None]:
        if block is None or (band and used + 3 + len(block[0]) > width):
            height = max(len(b) for b in band)
            for r in range(height):
                lines_out.append("   ".join(b[r] if r < len(b) else " " * len(b[0]) for b in band).rstrip())
            lines_out.append("")
            band, used = [], 0
        if block is not None:
            band.append(block)
            used += len(block[0]) + 3
    return "\n".join(lines_out).rstrip()
