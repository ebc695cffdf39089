"""Writing a board and its pieces in each format polyfit reads, for ``polyfit convert``.

The writers, by name and suffix: ``text`` (``.txt``, 2D text art), ``voxel-text`` (``.vox``,
3D text art), ``magicavoxel`` (binary ``.vox``, chosen by name), ``xmpuzzle`` (BurrTools),
``yass`` (``.soma``) and ``bundgaard`` (``.std``, Bundgaard's notation). Text art keeps a
pieces spec (``; pieces: soma``) when the pieces came from one; pieces that came with the file
(a BurrTools puzzle) go into a pieces file beside it, named on the ``; pieces:`` line.
MagicaVoxel files hold cells only, so the pieces file is written beside them too, and
``polyfit convert`` says what is not in the file (:func:`what_is_dropped`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from polyfit.errors import PolyfitError
from polyfit.files import exists_error, path_exists, write_output, write_output_text
from polyfit.formats import burrtools, soma_notation
from polyfit.formats.magicavoxel import write_magicavoxel
from polyfit.lattices import base as lattices
from polyfit.puzzle.board import Board
from polyfit.puzzle.pieces import check_board_pieces

PIECE_NAMES = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"


@dataclass
class Source:
    """What a conversion writes: the board, its pieces, how they were named, solutions."""

    board: Board
    pieces: list  # polyfit Pieces
    spec: str | None  # the pieces spec they came from ('soma'), None when the file held them
    solutions: list  # {label: cells}, for the formats that keep solutions (BurrTools)
    separations: list = field(default_factory=list)  # per solution: (labels, tree, directions)


def _art_rows(labels: dict, dim: int, empty: str = ".") -> list[str]:
    """Text art of ``{cell: char}``: 2D rows, or 3D layers bottom first with blank lines."""
    if dim == 2:
        rows = max(c[0] for c in labels) + 1
        cols = max(c[1] for c in labels) + 1
        return ["".join(labels.get((r, c), empty) for c in range(cols)).rstrip(empty) or "." for r in range(rows)]
    layers = max(c[0] for c in labels) + 1
    rows = max(c[1] for c in labels) + 1
    cols = max(c[2] for c in labels) + 1
    out = []
    for z in range(layers):
        if z:
            out.append("")
        out += ["".join(labels.get((z, r, c), ".") for c in range(cols)) for r in range(rows)]
    return out


def board_text(board: Board, pieces_line: str | None) -> str:
    """The board as text art: ``#`` cells (polysticks' and polytwigs' own marks, with the
    points of polysticks), ``+`` optional cells, pre-placed pieces by name."""
    lattice = board.lattice
    labels = {**lattice.art_extras(board.cells), **{c: lattice.art_char(c) for c in board.cells}}
    for c in board.optional:
        labels[c] = "+"
    for name, cells, _ in board.fixed:
        if len(name) != 1 or name not in PIECE_NAMES:
            raise PolyfitError(f"pre-placed piece {name!r}: text art names pieces with one letter or digit")
        for c in cells:
            labels[c] = name
    lines = []
    if board.name:
        lines.append(f"; name: {board.name}")
    if lattice.name != lattices.default_name(board.dim) and "lattice" not in board.metadata:
        lines.append(f"; lattice: {lattice.name}")  # a board read from a BurrTools prism file
    for key, value in board.metadata.items():
        if key not in ("name", "pieces") and "\n" not in value:
            lines.append(f"; {key}: {value}")
    if pieces_line:
        lines.append(f"; pieces: {pieces_line}")
    return "\n".join(lines + _art_rows(labels, board.dim, " " if lattice.segments else ".")) + "\n"


def pieces_text(pieces) -> str:
    """A pieces file: each piece drawn with its one-character name, side by side."""
    pieces = list(pieces)
    dim = pieces[0].dim
    for piece in pieces:
        if len(piece.name) != 1 or piece.name not in PIECE_NAMES:
            raise PolyfitError(f"piece {piece.name!r}: a pieces file names each piece with one letter or digit")
    mirrors = {p.mirror for p in pieces}
    if len(mirrors) > 1:
        raise PolyfitError("some pieces may be turned over and some not: a pieces file says it once for all")
    labels = {}
    left = 0
    lattice = lattices.of(pieces[0])
    for piece in pieces:
        for cell in piece.cells:
            shifted = (*cell[:-1], cell[-1] + left)
            labels[shifted] = piece.name
        left += max(c[-1] for c in piece.cells) + 2
        if not lattice.all_translations:
            left += left & 1  # an even shift: each triangle keeps pointing its way
    lines = [f"; mirror: {'yes' if mirrors.pop() else 'no'}"]
    if lattice.name != lattices.default_name(dim):
        lines.append(f"; lattice: {lattice.name}")
    if dim == 3:
        lines.append("; dim: 3")
    for piece in pieces:
        if piece.count != (1, 1):
            lo, hi = piece.count
            lines.append(f"; count {piece.name}: {lo if lo == hi else f'{lo}..{hi}'}")
    return "\n".join(lines + _art_rows(labels, dim)) + "\n"


def _pieces_file(source: Source, path: Path, force: bool, written: list) -> str:
    """The ``; pieces:`` value: the spec, or a pieces file written beside ``path``."""
    if source.spec:
        return source.spec
    side = path.with_name(path.stem + ".pieces" + (".vox" if source.board.dim == 3 else ".txt"))
    write_output_text(side, pieces_text(source.pieces), force)
    written.append(side)
    return side.name


def _text(source: Source, path: Path, force: bool) -> list[Path]:
    if source.board.dim != 2:
        raise PolyfitError(f"{source.board.label} is 3D: write it as voxel text (.vox) instead of .txt")
    return _art(source, path, force)


def _voxel_text(source: Source, path: Path, force: bool) -> list[Path]:
    if source.board.dim != 3:
        raise PolyfitError(f"{source.board.label} is 2D: write it as text art (.txt) instead of .vox")
    return _art(source, path, force)


def _art(source: Source, path: Path, force: bool) -> list[Path]:
    if path_exists(path, "write") and not force:
        raise exists_error(path)  # before any pieces file is written beside it
    written: list[Path] = []
    line = _pieces_file(source, path, force, written)
    write_output_text(path, board_text(source.board, line), force)
    return [path] + written


def _magicavoxel(source: Source, path: Path, force: bool) -> list[Path]:
    board = source.board
    if board.dim != 3:
        raise PolyfitError(f"{board.label} is 2D; MagicaVoxel files are 3D")
    if board.optional or board.fixed:
        raise PolyfitError(f"{board.label} has optional cells or pre-placed pieces, which a MagicaVoxel file cannot hold; write voxel text")
    if any(max(c[i] for c in board.cells) > 255 for i in range(3)):
        raise PolyfitError(f"{board.label} is over 256 cells wide: MagicaVoxel's limit")
    if path_exists(path, "write") and not force:
        raise exists_error(path)
    written = [path]
    if not source.spec:
        _pieces_file(source, path, force, written)
    write_output(path, write_magicavoxel(board.cells, 150), force)
    return written


def _xmpuzzle(source: Source, path: Path, force: bool) -> list[Path]:
    if source.board.lattice.segments:
        raise PolyfitError(f"{source.board.label} is drawn on the {source.board.lattice.name} lattice, "
                           "whose cells are segments: BurrTools has no such grid; write text art (.txt)")
    write_output(path, burrtools.xmpuzzle_bytes(source.board, source.pieces, source.solutions,
                                                  separations=source.separations), force)
    return [path]


def _yass(source: Source, path: Path, force: bool) -> list[Path]:
    write_output_text(path, soma_notation.yass_text(source.board, source.pieces), force)
    return [path]


def _bundgaard(source: Source, path: Path, force: bool) -> list[Path]:
    write_output_text(path, soma_notation.bundgaard_text([source.board], source.pieces), force)
    return [path]


WRITERS = {
    "text": ((".txt",), _text),
    "voxel-text": ((".vox",), _voxel_text),
    "magicavoxel": ((), _magicavoxel),
    "xmpuzzle": ((burrtools.SUFFIX,), _xmpuzzle),
    "yass": ((soma_notation.YASS_SUFFIX,), _yass),
    "bundgaard": ((".std",), _bundgaard),
}


def what_is_dropped(source: Source, written: list[Path], name: str | None) -> str | None:
    """What the file written cannot hold, and how to use it all the same: MagicaVoxel files
    hold cells only, so the pieces (and the board's name and notes) are not in them."""
    if writer_for(written[0], name) is not _magicavoxel:
        return None
    lost = [f"the board's name ({source.board.name})"] if source.board.name else []
    notes = [f"'; {key}:'" for key in source.board.metadata if key not in ("name", "pieces")]
    if notes:
        lost.append(f"its {', '.join(notes)} line" + ("s" if len(notes) > 1 else ""))
    if source.spec:
        lost.insert(0, f"the pieces ({source.spec})")
        use = f"--pieces {source.spec}"
    else:
        lost.insert(0, f"the pieces (they are in {written[-1].name} beside it)")
        use = f"--pieces {written[-1]}"
    listed = ", ".join(lost[:-1]) + " and " + lost[-1] if len(lost) > 1 else lost[0]
    return f"{written[0]} is a MagicaVoxel file, which holds cells only: {listed} are not in it; solve it with {use}"


def writer_for(path: Path, name: str | None = None):
    if name is not None:
        if name not in WRITERS:
            from polyfit.errors import UnknownNameError

            raise UnknownNameError("board format", name, WRITERS)
        return WRITERS[name][1]
    suffix = path.suffix.lower()
    for suffixes, write in WRITERS.values():
        if suffix in suffixes:
            return write
    known = sorted({s for suffixes, _ in WRITERS.values() for s in suffixes})
    raise PolyfitError(f"no board writer for {suffix or 'files without a suffix'!r}; known suffixes: {', '.join(known)} (or choose one with --format: {', '.join(WRITERS)})")


def write_board(source: Source, path, name: str | None = None, force: bool = False) -> list[Path]:
    """Write ``source`` to ``path`` in the format its suffix (or ``name``) says; the files
    written (the board, and any pieces file beside it). Nothing is overwritten without ``force``."""
    path = Path(path)
    write = writer_for(path, name)
    check_board_pieces(source.board, source.pieces)
    if not (write is _xmpuzzle and source.board.colours is not None) and source.board.allowed:
        raise PolyfitError(f"{source.board.label} has colour rules (some pieces may only go some ways), which only "
                           "BurrTools files (.xmpuzzle) hold")
    return write(source, path, force)
