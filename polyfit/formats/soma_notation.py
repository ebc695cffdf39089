"""The two text notations of Soma figures: Thorleif Bundgaard's and yass's ``.soma`` files.

**Bundgaard's notation** (recognised by its content, a line starting with ``/SOMA``, whatever
the file's suffix) holds one figure or many. Each figure starts with a ``/SOMAnnn`` line and
a ``;name`` line; each further line is one row of the figure written as ``/layer/layer/...``,
top layer first; in a row, ``1``-``7`` (or ``V L T Z A B P``) name the piece in a cell and
``.`` (or ``-``, ``0``, a space) is no cell. Lines starting with ``|`` are another solution and
are skipped. A figure drawn entirely with piece names is a solved figure: its shape is read,
and solved afresh. When some cells are plain (``#``, ``o``, any other character), the named
cells are pieces placed in advance.

**yass's** ``.soma`` files (by suffix) hold one figure: z slices separated by blank lines, top
slice first, each slice a row per line; ``.`` or a space is no cell, ``c p n z t l 3`` place
that piece in advance (yass's names for P B A Z T L V), any other character is a plain cell;
``#`` starts a comment. A ``# name: ...`` comment names the figure.

Both read into 3D boards of cells ``(z, row, col)`` with ``z = 0`` the bottom layer, the seven
Soma pieces (``; pieces: soma``) and the pre-placed pieces in :attr:`Board.fixed`; both are
written back (:func:`bundgaard_text`, :func:`yass_text`). The screws are told apart by shape
in polyfit's coordinates: Bundgaard's 5 and yass's ``n`` are polyfit's ``A``.
"""

from __future__ import annotations

import re
from pathlib import Path

from polyfit.errors import ParseError, PolyfitError, UnknownNameError
from polyfit.files import decode, read_bytes, split_lines
from polyfit.hookspecs import hookimpl
from polyfit.lattices.grid import components
from polyfit.puzzle.board import Board

SOMA = "VLTZABP"  # polyfit's names, in Bundgaard's order 1 to 7
YASS = {"3": "V", "l": "L", "t": "T", "z": "Z", "n": "A", "p": "B", "c": "P"}
TO_YASS = {v: k for k, v in YASS.items()}
BUNDGAARD_EMPTY = ".-0 "
YASS_SUFFIX = ".soma"
MAGIC = "/SOMA"


def _piece_of_bundgaard(char: str) -> str | None:
    if char in "1234567":
        return SOMA[int(char) - 1]
    if char in SOMA:
        return char
    return None


def _board(cells: dict, where: dict, name: str, path, metadata: dict, solved: bool) -> Board:
    """A board from ``{cell: piece name or None}``: named cells are pre-placed unless the
    figure is a solved one (every cell named)."""
    if not cells:
        raise ParseError(path, 1, 1, f"figure {name!r} has no cells")
    fixed = []
    if not solved:
        by_piece: dict[str, list] = {}
        for cell, piece in cells.items():
            if piece is not None:
                by_piece.setdefault(piece, []).append(cell)
        for piece in sorted(by_piece):
            for group in components(by_piece[piece]):
                group = tuple(sorted(group))
                fixed.append((piece, group, min(where[c] for c in group)))
        fixed.sort(key=lambda f: f[2])
    low = tuple(min(c[i] for c in cells) for i in range(3))

    def shift(cell):
        return tuple(a - b for a, b in zip(cell, low))

    fixed = tuple((p, tuple(shift(c) for c in group), at) for p, group, at in fixed)
    metadata = {"name": name, "pieces": "soma", **metadata}
    return Board(tuple(sorted(shift(c) for c in cells)), name, metadata, str(path), frozenset(), fixed)


# -- Bundgaard's notation -----------------------------------------------------------------------


class _Figure:
    def __init__(self, ident: str, line: int):
        self.ident = ident
        self.name = ""
        self.line = line
        self.rows: list[tuple[int, list[str]]] = []  # (line number, layers top first)


def _figures(text: str, path) -> list[_Figure]:
    figures: list[_Figure] = []
    for number, line in split_lines(text):
        stripped = line.strip()
        if stripped.startswith(MAGIC):
            figures.append(_Figure(stripped[len(MAGIC):].strip(), number))
            continue
        if not figures or not stripped:
            continue  # text before the first figure, and blank lines, are not figures
        figure = figures[-1]
        if stripped.startswith(";"):
            if not figure.name:
                figure.name = stripped[1:].strip()
        elif stripped.startswith("/"):
            layers = stripped[1:].split("/")
            if layers and layers[-1] == "":
                layers.pop()
            if not layers:
                raise ParseError(path, number, 1, "a row with no layers (write /layer/layer/...)")
            figure.rows.append((number, layers))
        # '|' lines (another solution) and any other text are not part of the shape
    if not figures:
        raise ParseError(path, 1, 1, "no figure: Bundgaard's notation starts each one with a /SOMA line")
    return figures


def _figure_board(figure: _Figure, number: int, path) -> Board:
    if not figure.rows:
        raise ParseError(path, figure.line, 1, f"figure {figure.ident or number} has no rows (/layer/layer/... lines)")
    height = len(figure.rows[0][1])
    cells: dict = {}
    where: dict = {}
    plain = False
    for row, (line, layers) in enumerate(figure.rows):
        if len(layers) != height:
            raise ParseError(path, line, 1, f"this row has {len(layers)} layers, the figure's first row {height}")
        column = 2
        for k, layer in enumerate(layers):
            for col, char in enumerate(layer):
                if char not in BUNDGAARD_EMPTY:
                    if not char.isprintable():
                        raise ParseError(path, line, column + col, f"unexpected character {char!r}")
                    cell = (height - 1 - k, row, col)
                    piece = _piece_of_bundgaard(char)
                    plain = plain or piece is None
                    cells[cell] = piece
                    where[cell] = (line, column + col)
            column += len(layer) + 1
    name = figure.name or f"SOMA{figure.ident}" or f"figure {number}"
    metadata = {"soma": figure.ident} if figure.ident else {}
    return _board(cells, where, name, path, metadata, solved=not plain)


def _labels(figures: list[_Figure]) -> list[str]:
    return [f.name or f"SOMA{f.ident}" for f in figures]


def _select(figures: list[_Figure], select: str | None) -> int:
    if select is None:
        return 0
    text = select.strip()
    for k, figure in enumerate(figures):
        if text in (figure.name, figure.ident, f"SOMA{figure.ident}") and text:
            return k
    if re.fullmatch(r"[0-9]{1,9}", text) and 1 <= int(text) <= len(figures):
        return int(text) - 1
    valid = [str(k) for k in range(1, len(figures) + 1)] + [n for n in _labels(figures) if n]
    raise UnknownNameError("figure", text, valid)


def parse_bundgaard(text: str, path="<text>", select: str | None = None) -> Board:
    figures = _figures(text, path)
    k = _select(figures, select)
    return _figure_board(figures[k], k + 1, path)


def read_bundgaard(path, select: str | None = None) -> Board:
    """The figure ``select`` (a number from 1, a name, or a SOMA number; default the first)."""
    return parse_bundgaard(decode(read_bytes(path), path), path, select)


def read_bundgaard_all(path) -> list[Board]:
    figures = _figures(decode(read_bytes(path), path), path)
    return [_figure_board(f, k + 1, path) for k, f in enumerate(figures)]


read_bundgaard.read_all = read_bundgaard_all


def sniff_bundgaard(head: bytes) -> bool:
    """A line starting with ``/SOMA`` in the first bytes (text art has no ``/``)."""
    text = head.lstrip(b"\xef\xbb\xbf")
    return any(line.lstrip().startswith(MAGIC.encode()) for line in text.splitlines())


# -- yass ---------------------------------------------------------------------------------------


def parse_yass(text: str, path="<text>") -> Board:
    slices: list[list[tuple[int, str]]] = [[]]
    name = Path(str(path)).stem
    for number, line in split_lines(text):
        content, hash_, comment = line.partition("#")
        if hash_ and comment.strip().lower().startswith("name:"):
            name = comment.strip()[5:].strip() or name
        if "\t" in content:
            raise ParseError(path, number, content.index("\t") + 1, "a tab: yass files allow tabs only in comments")
        if not content.strip():
            if not hash_ and slices[-1]:
                slices.append([])  # a blank line ends a slice (a comment line does not)
            continue
        slices[-1].append((number, content.rstrip()))
    slices = [s for s in slices if s]
    if not slices:
        raise ParseError(path, 1, 1, "the file draws no figure (slices of rows, top slice first)")
    cells: dict = {}
    where: dict = {}
    for k, rows in enumerate(slices):
        for row, (number, line) in enumerate(rows):
            for col, char in enumerate(line):
                if char in ". ":
                    continue
                if not char.isprintable():
                    raise ParseError(path, number, col + 1, f"unexpected character {char!r}")
                cell = (len(slices) - 1 - k, row, col)
                cells[cell] = YASS.get(char)
                where[cell] = (number, col + 1)
    return _board(cells, where, name, path, {}, solved=False)


def read_yass(path) -> Board:
    data = decode(read_bytes(path), path)
    if any(line.lstrip().startswith(MAGIC) for _, line in split_lines(data)):
        return parse_bundgaard(data, path)  # Bundgaard's notation in a .soma file
    return parse_yass(data, path)


# -- writing ------------------------------------------------------------------------------------


def _check_soma(board: Board, pieces, notation: str) -> None:
    from polyfit.puzzle.piece_sets import soma

    if board.dim != 3:
        raise PolyfitError(f"{notation} draws Soma figures, in 3D; {board.label} is 2D")
    if board.optional:
        raise PolyfitError(f"{notation} has no optional cells, and {board.label} has some")
    wanted = {p.name: set(p.orientations()) for p in soma()}
    given = {p.name: set(p.orientations()) for p in pieces} if pieces is not None else wanted
    if given != wanted or any(p.count != (1, 1) for p in pieces or ()):
        raise PolyfitError(f"{notation} is for the seven Soma pieces ({' '.join(SOMA)}), once each; {board.label} has other pieces")


def _layers(board: Board, draw) -> tuple[list[int], int, int, dict]:
    labels = {c: "#" for c in board.cells}
    for name, cells, _ in board.fixed:
        for c in cells:
            labels[c] = name
    heights = sorted({c[0] for c in board.cells}, reverse=True)
    rows = max(c[1] for c in board.cells) + 1
    cols = max(c[2] for c in board.cells) + 1
    return list(range(max(heights), -1, -1)), rows, cols, {c: draw(label) for c, label in labels.items()}


def bundgaard_text(boards, pieces=None, numbers=None) -> str:
    """Figures in Bundgaard's notation: plain cells ``#``, pre-placed pieces by number."""
    parts = []
    for k, board in enumerate(boards):
        _check_soma(board, pieces, "Bundgaard's notation")
        layers, rows, cols, chars = _layers(board, lambda label: "#" if label == "#" else str(SOMA.index(label) + 1))
        ident = (numbers[k] if numbers else None) or board.metadata.get("soma") or f"{k + 1:03d}"
        lines = [f"{MAGIC}{ident}", f";{board.name or board.label}"]
        for r in range(rows):
            lines.append("".join("/" + "".join(chars.get((z, r, c), ".") for c in range(cols)) for z in layers))
        parts.append("\n".join(lines))
    return "\n\n".join(parts) + "\n"


def yass_text(board: Board, pieces=None) -> str:
    """A figure as a yass ``.soma`` file: plain cells ``o``, pre-placed pieces by yass's letters."""
    _check_soma(board, pieces, "yass's .soma format")
    layers, rows, cols, chars = _layers(board, lambda label: "o" if label == "#" else TO_YASS[label])
    lines = [f"# name: {board.name or board.label}"]
    for k, z in enumerate(layers):
        if k:
            lines.append("")
        for r in range(rows):
            lines.append("".join(chars.get((z, r, c), ".") for c in range(cols)))
    return "\n".join(lines) + "\n"


@hookimpl
def register_shape_readers(register):
    register("bundgaard", (), read_bundgaard, sniff_bundgaard)
    register("yass", (YASS_SUFFIX,), read_yass, None)
