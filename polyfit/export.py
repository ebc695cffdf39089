"""Solutions leave polyfit through exporters: plain data in, one file out.

A :class:`SolutionSet` is what every exporter receives: the board, the pieces and the solutions
as piece placements, with no reference to the search that found them. The built-in exporters
(text art and JSON) register through the ``register_exporters`` hook like any plugin's.
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from .errors import PolyfitError
from .hookspecs import hookimpl
from .textart import draw_cells


@dataclass
class SolutionSet:
    board: str  # the board's name
    board_cells: tuple  # every cell of the board
    pieces: list  # polyfit.pieces.Piece objects
    solutions: list[dict] = field(default_factory=list)  # each: {piece name: cells}
    counts: dict = field(default_factory=dict)  # e.g. distinct and total, when known


def check_writable(path: Path, force: bool) -> None:
    """Refuse to replace an existing file unless forced, or to write where nothing can be."""
    if path.exists() and not force:
        raise PolyfitError(f"{path} exists; use --force to overwrite it")
    if path.is_dir():
        raise PolyfitError(f"{path} is a directory")
    if not path.parent.is_dir():
        raise PolyfitError(f"cannot write {path}: directory {path.parent} does not exist")


def read_json(path: Path, what: str) -> dict:
    """A JSON object from a file polyfit wrote, or a clear error naming ``what`` it should be."""
    try:
        data = json.loads(Path(path).read_text())
    except FileNotFoundError:
        raise PolyfitError(f"no such {what}: {path}") from None
    except (OSError, ValueError) as exc:
        raise PolyfitError(f"{path} is not a polyfit {what} ({exc})") from None
    if not isinstance(data, dict):
        raise PolyfitError(f"{path} is not a polyfit {what}")
    return data


def write_json_atomically(path: Path, data) -> None:
    """Write JSON to a temporary file beside ``path``, flush it to disk, then rename it over
    ``path``: a reader (or a kill at any moment) sees the old file or the new, never half."""
    path = Path(path)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
        try:
            with os.fdopen(fd, "w") as f:
                json.dump(data, f)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    except OSError as exc:
        raise PolyfitError(f"cannot write {path}: {exc.strerror or exc}") from None


def write_text(path: Path, text: str) -> None:
    try:
        path.write_text(text)
    except OSError as exc:
        raise PolyfitError(f"cannot write {path}: {exc.strerror or exc}") from None


def export_text(solutions: SolutionSet, path: Path) -> None:
    parts = []
    for number, solution in enumerate(solutions.solutions, start=1):
        labels = {tuple(c): name for name, cells in solution.items() for c in cells}
        parts.append(f"Solution {number}:\n{draw_cells(labels)}\n")
    write_text(path, "\n".join(parts))


def export_json(solutions: SolutionSet, path: Path) -> None:
    data = {
        "board": solutions.board,
        "cells": [list(c) for c in solutions.board_cells],
        "pieces": {p.name: [list(c) for c in p.cells] for p in solutions.pieces},
        "solutions": [
            {name: [list(c) for c in cells] for name, cells in s.items()} for s in solutions.solutions
        ],
        **solutions.counts,
    }
    write_text(path, json.dumps(data) + "\n")


def read_solution_set(path: Path) -> SolutionSet:
    """Read back what the JSON exporter wrote (``polyfit solve BOARD --output out.json``)."""
    from .pieces import Piece

    path = Path(path)
    if not path.is_file():
        raise PolyfitError(f"no such solutions file: {path}")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise PolyfitError(f"cannot read {path}: {exc.strerror or exc}") from None
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
    register("text", (".txt",), export_text, "solutions as text art")
    register("json", (".json",), export_json, "board, pieces and solutions as JSON")
