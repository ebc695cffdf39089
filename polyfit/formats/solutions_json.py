"""Solutions as JSON: the board, its pieces and the solutions, written and read back.

``polyfit solve BOARD --output out.json`` writes this; ``polyfit render out.json`` reads it.
"""

from __future__ import annotations

import json
from pathlib import Path

from polyfit.errors import PolyfitError
from polyfit.files import read_bytes, write_output_text
from polyfit.formats.solution_set import SolutionSet
from polyfit.hookspecs import hookimpl


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
    }
    write_output_text(path, json.dumps(data) + "\n")


def read_solution_set(path: Path) -> SolutionSet:
    """Read back what the JSON exporter wrote (``polyfit solve BOARD --output out.json``)."""
    from polyfit.puzzle.pieces import Piece

    path = Path(path)
    if not path.is_file():
        raise PolyfitError(f"no such solutions file: {path}")
    data = read_bytes(path)
    try:
        data = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise PolyfitError(f"{path} is not a JSON solutions file: {exc}") from None

    def cells(value):
        return tuple(tuple(int(v) for v in c) for c in value)

    try:
        pieces = [Piece(name, cells(c)) for name, c in data["pieces"].items()]
        solutions = [{name: cells(c) for name, c in s.items()} for s in data["solutions"]]
        board_cells = cells(data["cells"])
        board = str(data.get("board", path.stem))
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise PolyfitError(
            f"{path} is not a solutions file written by 'polyfit solve --output FILE.json' "
            f"(bad or missing {exc})"
        ) from None
    if not board_cells:
        raise PolyfitError(f"{path} has a board with no cells")
    counts = {k: data[k] for k in ("distinct", "total") if k in data}
    return SolutionSet(board, board_cells, pieces, solutions, counts)


@hookimpl
def register_exporters(register):
    register("json", (".json",), export_json, "board, pieces and solutions as JSON")
