"""Text-art files: 2D boards (``.txt``), voxel text (``.vox``), and solutions as text.

The grammar is :mod:`polyfit.lattices.textart`; this module reads board files with it, draws
solutions and piece sets back as text, and registers the ``text`` and ``voxel-text`` board
readers and the ``text`` exporter.
"""

from __future__ import annotations

from polyfit.files import read_text, write_output_text
from polyfit.hookspecs import hookimpl
from polyfit.lattices import base as lattices
from polyfit.puzzle.board import Board


def draw_cells(labels: dict, lattice=None) -> str:
    """:func:`polyfit.lattices.textart.draw_cells`, loaded when something is drawn: reading a
    board (what most runs load this reader for) draws nothing."""
    from polyfit.lattices.textart import draw_cells as draw

    return draw(labels, lattice=lattice)


def parse_board_text(text: str, path="<text>") -> Board:
    return Board.from_text(text, 2, path)


def parse_voxel_text(text: str, path="<text>") -> Board:
    return Board.from_text(text, 3, path)


def read_text_board(path) -> Board:
    return parse_board_text(read_text(path), path)


def read_voxel_text(path) -> Board:
    return parse_voxel_text(read_text(path), path)


# -- drawing -----------------------------------------------------------------------------------


def draw_solution(pieces, placements, names=None, empty_cells=()) -> str:
    """Draw a solution given as placements (objects with ``piece`` index and ``cells``).

    ``names`` label each placement (default: its piece's name); ``empty_cells`` are board
    cells left empty (optional ones), drawn as ``+``."""
    labels = {cell: "+" for cell in empty_cells}
    for k, placement in enumerate(placements):
        name = names[k] if names is not None else pieces[placement.piece].name
        for cell in placement.cells:
            labels[cell] = name
    return draw_cells(labels, lattice=lattices.of(pieces[0]) if pieces else None)


def draw_board_labels(board, labels: dict) -> str:
    """Draw ``{cell: label}`` over a board's cells, as text art of the board's lattice."""
    return draw_cells(labels, lattice=lattices.of(board) if board is not None else None)


def draw_pieces(pieces, width: int = 72) -> str:
    """Draw pieces with their names: 2D side by side (wrapped at ``width`` columns), 3D one
    below the other, each under its name and layer by layer (bottom first); polysticks and
    polytwigs with their segments' marks under their names."""
    pieces = list(pieces)
    if not pieces:
        return ""
    if pieces[0].dim == 3:
        drawings = (f"{p.name}:\n" + draw_cells({c: p.name for c in p.cells}, lattice=lattices.of(p)) for p in pieces)
        return "\n\n".join(drawings)
    blocks = []
    for p in pieces:
        lattice = lattices.of(p)
        if lattice.segments:  # a piece of sticks reads best drawn with its marks, named above
            art = [p.name] + draw_cells({c: lattice.art_char(c) for c in p.cells}, lattice=lattice).splitlines()
        else:
            art = draw_cells({c: p.name for c in p.cells}, lattice=lattice).splitlines()
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
    """The ``text`` exporter: never writes over an existing file (``--force`` is the core's)."""
    parts = []
    lattice = lattices.of(solutions.pieces[0]) if solutions.pieces else None
    for number, solution in enumerate(solutions.solutions, start=1):
        labels = {tuple(c): name for name, cells in solution.items() for c in cells}
        parts.append(f"Solution {number}:\n{draw_cells(labels, lattice=lattice)}\n")
    write_output_text(path, "\n".join(parts))


@hookimpl
def register_shape_readers(register):
    register("text", (".txt",), read_text_board, None)
    register("voxel-text", (".vox",), read_voxel_text, None)


EXPORTERS = {"text": ((".txt",), export_text, "solutions as text art")}


@hookimpl
def register_exporters(register):
    from polyfit.formats.export import register_table  # read as a board file, no exporter is needed

    register_table(register, EXPORTERS)
