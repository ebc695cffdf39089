"""Solutions as JSON: the board, its pieces and the solutions, written and read back.

``polyfit solve BOARD --output out.json`` writes this; ``polyfit render out.json`` reads it.
"""

from __future__ import annotations

import json
from pathlib import Path

from polyfit.errors import PolyfitError
from polyfit.files import path_is_file, read_bytes, write_output_text
from polyfit.limits import check, limit
from polyfit.fields import Fields, shown
from polyfit.formats.solution_set import SolutionSet
from polyfit.formats.export import register_table
from polyfit.hookspecs import hookimpl
from polyfit.lattices import base as lattices


def export_json(solutions: SolutionSet, path: Path) -> None:
    """The ``json`` exporter: never writes over an existing file (``--force`` is the core's)."""
    data = {
        "board": solutions.board,
        "cells": [list(c) for c in solutions.board_cells],
        "pieces": {p.name: [list(c) for c in p.cells] for p in solutions.pieces},
        "solutions": [
            {name: [list(c) for c in cells] for name, cells in s.items()} for s in solutions.solutions
        ],
        **solutions.counts,
        **solutions.extra,
    }
    if solutions.fixed:
        data["preplaced"] = [list(c) for c in solutions.fixed]
    lattice = solutions.pieces[0].lattice.name if solutions.pieces else ""
    if lattice not in ("", "square", "cubic"):
        data["lattice"] = lattice  # squares and cubes go without saying, as in text art
    write_output_text(path, json.dumps(data) + "\n")


def read_solution_set(path: Path) -> SolutionSet:
    """Read back what the JSON exporter wrote (``polyfit solve BOARD --output out.json``),
    every field checked: anything else is one line, ``FILE: field NAME: what is wrong``."""
    from polyfit.puzzle.pieces import Piece

    path = Path(path)
    if not path_is_file(path):
        raise PolyfitError(f"no such solutions file: {path}")
    data = read_bytes(path)
    try:
        data = json.loads(data.decode("utf-8"))
    except (ValueError, RecursionError) as exc:  # not UTF-8, not JSON, a number too long
        raise PolyfitError(f"{path} is not a JSON solutions file: {exc}") from None
    written_by = "a solutions file written by 'polyfit solve --output FILE.json'"
    if not isinstance(data, dict):
        raise PolyfitError(f"{path} is not {written_by}")
    for name in ("cells", "pieces", "solutions"):
        if name not in data:
            raise PolyfitError(f"{path} is not {written_by} (field {name}: missing)")
    fields = Fields(data, path)
    board = fields.text("board") if fields.has("board") else path.stem
    board_cells = read_cells(fields, "cells", None)
    dim = len(board_cells[0])
    check("box", box(board_cells), f"{path}: field cells")
    on_board = set(board_cells)
    lattice = ""
    if fields.has("lattice"):
        lattice = fields.text("lattice")
        try:
            grid = lattices.get(lattice)
        except PolyfitError as exc:
            raise fields.error("lattice", str(exc)) from None
        if grid.dim != dim or not all(grid.is_cell(c) for c in board_cells):
            raise fields.error("lattice", f"the board's cells are not cells of the {lattice} lattice")
    pieces = []
    shapes = fields.part("pieces")
    for name in shapes.data:
        cells = read_cells(shapes, name, dim)
        check("box", box(cells), f"{path}: field pieces.{name}")
        try:
            pieces.append(Piece(name, cells, lattice=lattice))
        except ValueError as exc:
            raise shapes.error(name, str(exc)) from None
    if not pieces:
        raise fields.error("pieces", "has no pieces")
    solutions = []
    for number, solution in enumerate(fields.listing("solutions")):
        placed = Fields(solution, path, f"solutions[{number}]")
        for name in placed.data:
            piece, mark, copy = name.rpartition("#")
            if name not in shapes.data and not (mark and piece in shapes.data and copy.isdecimal() and copy.isascii()):
                raise placed.error(name, "is not one of the pieces (nor NAME#N, a copy of one)")
        cells = {name: read_cells(placed, name, dim) for name in placed.data}
        for name, shape in cells.items():
            if not on_board.issuperset(shape):
                raise placed.error(name, "has a cell that is not on the board")
        solutions.append(cells)
    counts = {k: fields.whole(k) for k in ("distinct", "total") if fields.has(k)}
    if len(counts) == 2:
        fields.at_most("distinct", "total", counts)
    fixed = read_cells(fields, "preplaced", dim) if fields.has("preplaced") else ()
    if not on_board.issuperset(fixed):
        raise fields.error("preplaced", "has a cell that is not on the board")
    return SolutionSet(board, board_cells, pieces, solutions, counts, fixed)


def read_cells(fields, name: str, dim: int | None) -> tuple:
    """The cells in field ``name``: a non-empty list of distinct cells, each a list of ``dim``
    (2 or 3, the first cell's when None) whole numbers from 0 to the ``number`` limit."""
    listed = fields.listing(name)
    if not listed:
        raise fields.error(name, "has no cells")
    check("cells", len(listed), f"{fields.path}: field {name}")
    most = limit("number")
    cells = []
    for i, cell in enumerate(listed):
        where = f"{name}[{i}]"
        if not isinstance(cell, list):
            raise fields.error(where, f"must be a cell such as [1, 2], not {shown(cell)}")
        if dim is None:
            dim = len(cell)
        if dim not in (2, 3):
            raise fields.error(where, f"must be a cell of 2 or 3 numbers, not {len(cell)}")
        if len(cell) != dim:
            raise fields.error(where, f"has {len(cell)} numbers, but the board's cells have {dim}")
        cells.append(tuple(fields.check_whole(where, v, 0, most) for v in cell))
    if len(set(cells)) != len(cells):
        raise fields.error(name, "has a cell twice")
    return tuple(cells)


def box(cells) -> int:
    """Cells in the box around ``cells``."""
    size = 1
    for axis in zip(*cells):
        size *= max(axis) - min(axis) + 1
    return size


export_json.writes_counts = True  # with --count: the counts and no solutions
EXPORTERS = {"json": ((".json",), export_json, "board, pieces and solutions as JSON")}


@hookimpl
def register_exporters(register):
    register_table(register, EXPORTERS)
