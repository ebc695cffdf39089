"""The studio's work, as a worker process does it: a request's JSON body in, its answer out.

Every task reads the same body: ``board`` (a board file's text: 2D text art or voxel layers),
``pieces`` (a spec as ``--pieces`` takes it; empty for the board's own ``; pieces:`` line),
``mirror``, ``dim`` (2 or 3; guessed from the text when missing), ``custom`` (pieces drawn as
in a pieces file) and ``folder`` (the board's folder). Each runs on the public API
(:mod:`polyfit`) in a worker whose current folder is the studio's; a pieces file named in a
spec is read from the board's folder or the studio's, and from nowhere else (see
:func:`confine_spec`).
"""

from __future__ import annotations

import dataclasses
import os
import tempfile
from collections import Counter
from pathlib import Path, PurePosixPath

import polyfit
from polyfit import PolyfitError
from polyfit.errors import UnknownNameError
from polyfit import report as polyfit_report
from polyfit.api import registry  # (polyfit.registry is also the module of that name)

SOLUTION_LIMIT = 1000  # solutions one request may ask for
NAME_BYTES = 255  # the longest name of a file or folder most file systems allow
PATH_BYTES = 4095  # and of a whole path (Linux's PATH_MAX, less its final zero byte)


def guess_dim(text: str) -> int:
    """3 when the drawing has several layers (blocks of rows with blank lines between), else 2."""
    blocks, in_block = 0, False
    for line in text.splitlines():
        if line.lstrip().startswith(";"):
            continue
        if line.strip():
            if not in_block:
                blocks += 1
            in_block = True
        else:
            in_block = False
    return 3 if blocks > 1 else 2


def safe_path(folder: Path, name: str) -> Path:
    """``name`` inside ``folder``: relative, no ``..``, not leading out through a link."""
    if not isinstance(name, str) or not name or "\\" in name or "\0" in name:
        raise PolyfitError(f"not a file name in the studio's folder: {name!r}")
    pure = PurePosixPath(name)
    if pure.is_absolute() or ".." in pure.parts or name.startswith("~"):
        raise PolyfitError(f"{name}: only files inside the studio's folder (a relative path without '..')")
    path = folder / pure
    shown = name if len(name) <= 60 else name[:57] + "..."
    if any(len(part.encode("utf-8", "surrogatepass")) > NAME_BYTES for part in pure.parts):
        raise PolyfitError(f"{shown}: a name in this path is too long (at most {NAME_BYTES} bytes each)")
    if len(str(path.absolute()).encode("utf-8", "surrogatepass")) > PATH_BYTES:
        raise PolyfitError(f"{shown}: the path is too long (at most {PATH_BYTES} bytes in all)")
    root = folder.resolve()
    if not path.resolve().is_relative_to(root):
        raise PolyfitError(f"{name}: leads out of the studio's folder")
    return path


def confine_spec(spec: str, base: Path, folder: Path) -> None:
    """Refuse a spec that names a pieces file outside the studio's folder (a file is looked
    for in ``base``, the board's own folder, then in the studio's)."""
    sets = polyfit.piece_sets()
    for token in spec.split(","):
        token = token.strip()
        if "*" in token:
            token = token.partition("*")[2]
        token = token.partition("=")[0].strip()
        if token and token.partition(":")[0] not in sets:
            safe_path(base, token)
            safe_path(folder, token)


def puzzle_file(name: str, drawn, folder: Path, problem: int | None = None):
    """The board ``drawn`` (the board the request's text makes) with the pieces of ``name``, a
    puzzle file of the folder that holds its pieces (a BurrTools ``.xmpuzzle``: its pieces,
    weights and groups come with them; ``problem``: which of its problems, from 1). While the
    drawing is still the file's board, that board itself (with its colours); a drawing of
    another shape keeps the file's pieces, unless the file's colours tie them to its cells."""
    board = file_board(name, folder, problem)
    if set(drawn.cells) == set(board.cells) and set(drawn.optional) == set(board.optional):
        return board
    if board.allowed or getattr(board.colours, "cells", None):  # colours on the board's own cells
        raise PolyfitError(f"the board drawn is not {name}'s any more, and that file's colours belong to its own "
                           "board: open the file again, or name pieces for the drawing")
    if board.lattice.name != drawn.lattice.name or board.dim != drawn.dim:
        raise PolyfitError(f"{name}'s pieces are {board.dim}D on the {board.lattice.name} lattice, "
                           f"the board drawn {drawn.dim}D on the {drawn.lattice.name} lattice")
    return dataclasses.replace(board, cells=drawn.cells, optional=drawn.optional, fixed=drawn.fixed,
                               name=drawn.name or board.name, path=None)


def file_board(name: str, folder: Path, problem: int | None = None):
    """Board number ``problem`` (from 1; the first when None) of the puzzle file ``name`` in
    the studio's folder, with the pieces the file gives it."""
    path = safe_path(folder, name)
    if path.exists() and not path.is_file():
        raise PolyfitError(f"{name}: not a regular file")
    try:
        board = polyfit.read_board(path, select=None if problem is None else str(problem))
    except UnknownNameError as exc:  # no such problem
        raise PolyfitError(f"{name}: {exc}") from None
    if not board.pieces:
        raise PolyfitError(f"{name}: this file does not hold its pieces; open it as a board and name them")
    return board


def read_body(body: dict, folder: Path):
    """The board, the pieces (a list) and the mirror switch a request asks for: the pieces
    of the spec (or of the board's ``; pieces:`` line) and the ``custom`` ones drawn; with
    ``file``, the board and pieces of that puzzle file (see :func:`puzzle_file`)."""
    text = body["board"]
    dim = body.get("dim") or guess_dim(text)
    board = polyfit.Board.from_text(text, dim=dim, path="board")
    if body.get("file"):
        board = puzzle_file(body["file"], board, folder, body.get("problem"))
        if (body.get("pieces") or "").strip() or (body.get("custom") or "").strip():
            raise PolyfitError(f"{body['file']} holds its pieces: other pieces cannot join them "
                               "(their weights and groups come from the file)")
        return board, list(board.pieces), bool(body.get("mirror"))
    base = safe_path(folder, body.get("folder") or ".")
    spec = (body.get("pieces") or "").strip() or board.metadata.get("pieces")
    chosen = []
    if spec:
        confine_spec(spec, base, folder)
        chosen = polyfit.pieces(spec, base=base)
    if (body.get("custom") or "").strip():
        drawn = polyfit.parse_pieces_text(body["custom"], path="custom pieces", dim=board.dim)
        named = {p.name for p in chosen}
        twice = sorted(p.name for p in drawn if p.name in named)
        if twice:
            raise PolyfitError(f"custom pieces: {', '.join(twice)} already named by '{spec}'; draw them with other letters")
        chosen += drawn
    if not chosen:
        raise PolyfitError("no pieces given: choose a piece set (or write a '; pieces: NAME' line)")
    return board, chosen, bool(body.get("mirror"))


def check(body: dict, folder: Path, report) -> dict:
    """``polyfit check --json``: the verdict, the reasons and the witnesses' cells; plus
    ``colours``, the pieces' colours (for pre-placed pieces on the page)."""
    board, pieces, mirror = read_body(body, folder)
    limit = body.get("forced_limit")
    result = polyfit.check(board, pieces, mirror=mirror, forced_limit=limit)
    return {**polyfit_report.check_json(result), "colours": polyfit.colours(pieces)}


def count(body: dict, folder: Path, report) -> dict:
    """Count every solution, on every core for a long count, reporting after each job; the
    answer has the fields ``polyfit solve --count --json`` prints."""
    board, pieces, mirror = read_body(body, folder)
    puzzle = polyfit.Puzzle(board, pieces, mirror=mirror)
    if body.get("disassemble"):
        return disassembly_count(puzzle)

    def heard(progress) -> None:
        nodes = progress.counts.nodes
        report({"progress": progress.fraction, "nodes": nodes,
                "nodes_per_second": round(nodes / progress.elapsed) if progress.elapsed > 0 else 0})

    run = puzzle.run(count=True, on_progress=heard)  # the engine chooses, as for solve --count
    run.finish()
    return run.summary()


def disassembly_count(puzzle) -> dict:
    """``polyfit solve --count --disassemble --json``: the counts, with ``assemblies``,
    ``disassemblable`` (those that come apart), ``disassemblable_rotations`` and ``levels``."""
    counts = puzzle.count(jobs=1, disassemble=True)
    engine = puzzle.plan("solutions", "auto").backend
    return polyfit_report.disassembly_json(polyfit_report.counts_json(puzzle, counts, engine), counts.disassembly)


def estimate(body: dict, folder: Path, report) -> dict:
    """``polyfit estimate --json``: the search's nodes, solutions and time with their 95% ranges,
    from random probes (``exact``: the search was short, so it was run and counted outright)."""
    from polyfit.report import estimate_json
    from polyfit.xc.estimate import estimate_search

    board, pieces, mirror = read_body(body, folder)
    puzzle = polyfit.Puzzle(board, pieces, mirror=mirror)
    if puzzle.impossible is not None:
        raise PolyfitError(f"{board.label}: no search needed: {puzzle.impossible}")
    engine = puzzle.backend("auto")
    return estimate_json(puzzle, engine, estimate_search(puzzle.problem, engine))


KIT_SIZES = {"unit": 15.0, "gap": 0.2, "thickness": 5.0, "bevel": 0.0}  # as ``polyfit kit``'s


def kit(body: dict, folder: Path, report) -> bytes:
    """``polyfit kit``: one printable STL per piece (2D pieces as tiles), zipped; the sizes in
    millimetres are the body's ``unit``, ``gap``, ``thickness`` and ``bevel`` (else the kit's)."""
    import zipfile
    from io import BytesIO

    from polyfit.formats.models import check_stl_directory, write_stls
    from polyfit.render.meshes import Sizes
    from polyfit.render.prisms import check_kit, tile_meshes

    _, pieces, _ = read_body(body, folder)
    sizes = Sizes(**{name: default if body.get(name) is None else body[name] for name, default in KIT_SIZES.items()})
    check_kit(pieces, sizes, tray=False)
    meshes = tile_meshes(pieces, sizes)  # cubes, squares as tiles, triangles and hexagons, prisms
    buffer = BytesIO()
    with tempfile.TemporaryDirectory() as scratch:
        paths = check_stl_directory(Path(scratch), list(meshes), force=False)
        write_stls(meshes, paths)
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
            for path in paths.values():
                archive.write(path, path.name)
    return buffer.getvalue()


def solution_set_json(puzzle, solutions: list[dict], counts: dict) -> dict:
    """What the JSON exporter writes (``polyfit solve --output FILE.json``), plus ``colours``:
    each piece's colour in the palette of polyfit's pictures, as ``#rrggbb``."""
    data = {
        "board": puzzle.board.label,
        "cells": [list(c) for c in puzzle.board.cells],
        "pieces": {p.name: [list(c) for c in p.cells] for p in puzzle.pieces},
        "solutions": [{name: [list(c) for c in cells] for name, cells in s.items()} for s in solutions],
        **counts,
    }
    data["colours"] = puzzle.colours()
    return data


def solutions(body: dict, folder: Path, report) -> dict:
    """The first ``limit`` solutions, one per symmetry class (``all``: every copy). With
    ``disassemble``: those that come apart, as ``polyfit solve --disassemble --output F.json``
    writes them (``disassemblies``: each one's ``level`` and ``moves``; ``groups``)."""
    board, pieces, mirror = read_body(body, folder)
    puzzle = polyfit.Puzzle(board, pieces, mirror=mirror)
    limit = body.get("limit") or 100
    if body.get("disassemble"):
        if body.get("all"):
            raise PolyfitError("'all' and 'disassemble' do not go together: the solutions that come apart are one per class")
        found, taken_apart, groups = [], [], []
        for solution, taken in puzzle.disassemblies(limit=limit):
            found.append(solution.placements)
            taken_apart.append(taken.to_json())
            groups = taken.groups
        return solution_set_json(puzzle, found, {"disassemblies": taken_apart, "groups": groups})
    found = [s.placements for s in puzzle.solutions(limit=limit, all=bool(body.get("all")))]
    return solution_set_json(puzzle, found, {})


def disassembly(body: dict, folder: Path, report) -> dict:
    """The solution sent (``solution``: {label: cells}, as /api/solutions gives it) taken apart
    as it stands, by ``Solution.disassemble()`` (``polyfit solve --disassemble --moves``):
    ``level``, ``ruler``, ``total``, ``moves`` (``{"pieces", "by", "removed"}``, ``by`` in the
    cells' order ``[layer, row, column]``), ``groups``; and to place the pieces: ``pieces``
    ({label: cells} at the start), ``colours`` and ``bounds`` (the assembly's lowest and
    highest cell on each axis)."""
    puzzle, placements = chosen_solution(body, folder)
    board = puzzle.board
    if board.dim != 3:
        raise PolyfitError("disassembly plays on 3D boards; this board is 2D")
    solution = polyfit.Solution(puzzle, solution_indices(puzzle, placements))
    taken = solution.disassemble()
    if taken.level is None:
        raise PolyfitError("this solution does not come apart: it has no disassembly to play "
                           "(check 'disassemble' and Show solutions for those that do)")
    if taken.level == "unknown":
        raise PolyfitError("the disassembly search met its cap on states before this solution came "
                           "apart, so there is no move list to play")
    cells = [c for shape in placements.values() for c in shape]
    moves = taken.to_json()["moves"]
    if not drawn_as_cubes(board):  # the page slides solids: each move's way in the view's space
        ways: dict = {}
        for move in moves:
            by = tuple(move["by"])
            if by not in ways:
                ways[by] = translation_vector(puzzle, solution.placements[move["pieces"][0]][0], by)
            move["vector"] = ways[by]
    return {
        **taken.to_json(),
        "moves": moves,
        "total": taken.total,
        "groups": taken.groups,
        "pieces": {label: [list(c) for c in shape] for label, shape in solution.placements.items()},
        "colours": puzzle.colours(),
        "bounds": [[min(c[k] for c in cells) for k in range(3)], [max(c[k] for c in cells) for k in range(3)]],
    }


VIEW_SIZES = {"unit": 1.0, "gap": 0.06}  # the 3D view's solids: in cells, a thin gap between pieces


def drawn_as_cubes(board) -> bool:
    """Whether the page draws this board's cells itself (squares and cubes); other lattices
    are shown read-only, as the solids of :func:`view_meshes`."""
    return board.lattice.name in ("square", "cubic")


def view_meshes(board, pieces, placements: dict) -> dict:
    """``{label: mesh}``: each piece of ``placements`` as the solid polyfit's 3D models make
    of it (:func:`polyfit.formats.models.solution_meshes`), in its place in the board, a
    cell's side long. A lattice without solids is refused in one line."""
    from polyfit.formats.models import solution_meshes
    from polyfit.render.solids import only_solids
    from polyfit.render.meshes import Sizes

    if board.dim != 3:
        raise PolyfitError(f"the studio's 3D view shows solids; this board is 2D on the {board.lattice.name} "
                           f"lattice (polyfit solve FILE --png draws its solutions)")
    only_solids([board], "the studio's 3D view")
    solution_set = polyfit.SolutionSet(board.label, board.cells, list(pieces), [placements])
    return solution_meshes(solution_set, 0, Sizes(**VIEW_SIZES))


def translation_vector(puzzle, cell, by) -> list[float]:
    """How far a solid moves in the view's space when its cells move by ``by`` (a move of
    the disassembly): the shift of one cell's solid, ``cell`` then ``cell + by``."""
    moved = tuple(a + b for a, b in zip(cell, by))
    name = puzzle.pieces[0].name
    before, after = (next(iter(view_meshes(puzzle.board, puzzle.pieces, {name: (c,)}).values())) for c in (cell, moved))
    return [round(float(v), 6) for v in after.vertices.mean(axis=0) - before.vertices.mean(axis=0)]


def meshes(body: dict, folder: Path, report) -> dict:
    """The 3D view of a board on a lattice the page does not draw itself: with ``solution``
    ({label: cells}, as /api/solutions gives it), each piece's solid in its place; without,
    the board's cells as one solid (``board``). ``meshes``: {label: {"vertices": [[x, y, z]],
    "faces": [[i, j, k]]}} (x right, y back, z up, a cell's side long), and ``colours``."""
    if body.get("solution") is not None:
        puzzle, placements = chosen_solution(body, folder)
        solution_indices(puzzle, placements)
        board, pieces, colours = puzzle.board, puzzle.pieces, puzzle.colours()
    else:
        board, pieces, _ = read_body(body, folder)
        placements, colours = {"board": tuple(board.cells)}, {}
    solids = view_meshes(board, pieces, placements)
    return {
        "lattice": board.lattice.name,
        "meshes": {label: {"vertices": [[round(float(v), 5) for v in point] for point in mesh.vertices],
                           "faces": mesh.faces.tolist()} for label, mesh in solids.items()},
        "colours": colours,
    }


def solution_indices(puzzle, placements: dict) -> tuple:
    """The puzzle's placement of each piece of a solution sent (``{label: cells}``), checked to
    be a whole solution: every piece as many times as the puzzle has it, every cell that must be
    covered covered once."""
    index = {(p.piece, tuple(sorted(p.cells))): i for i, p in enumerate(puzzle.placements)}
    number = {p.name: k for k, p in enumerate(puzzle.pieces)}
    chosen = []
    for label, cells in placements.items():
        found = index.get((number[label.partition("#")[0]], tuple(sorted(cells))))
        if found is None:
            raise PolyfitError(f"solution: {label!r} is not placed as this puzzle can place it "
                               "(the solution is not one of this puzzle's)")
        chosen.append(found)
    covered = [c for i in chosen for c in puzzle.placements[i].cells]
    must = set(puzzle.board.cells) - set(puzzle.board.optional)
    if len(covered) != len(set(covered)) or not must <= set(covered):
        raise PolyfitError("solution: the pieces sent do not fill the board once each (the solution "
                           "is not one of this puzzle's)")
    used = Counter(puzzle.placements[i].piece for i in chosen)
    wrong = [p.name for k, (p, (low, high)) in enumerate(zip(puzzle.pieces, puzzle.counts)) if not low <= used[k] <= high]
    if wrong or sorted(puzzle.labels(chosen)) != sorted(placements):
        raise PolyfitError(f"solution: it does not use the puzzle's pieces as the puzzle asks "
                           f"({', '.join(wrong) or 'labels'}); the solution is not one of this puzzle's")
    return tuple(chosen)


def chosen_solution(body: dict, folder: Path):
    """The puzzle and the one solution a request sends back (``solution``: {label: cells}),
    checked against the board and pieces."""
    board, pieces, mirror = read_body(body, folder)
    puzzle = polyfit.Puzzle(board, pieces, mirror=mirror)
    sent = body.get("solution")
    names = {p.name for p in puzzle.pieces}
    on_board = set(board.cells)
    placements = {}
    if not isinstance(sent, dict) or not sent:
        raise PolyfitError("'solution' must be an object {piece: cells}, as /api/solutions gives it")
    for label, cells in sent.items():
        if label.partition("#")[0] not in names:
            raise PolyfitError(f"solution: {label!r} is not one of the pieces")
        if not isinstance(cells, list) or not all(
            isinstance(c, list) and len(c) == board.dim and all(type(v) is int for v in c) for c in cells
        ):
            raise PolyfitError(f"solution: the cells of {label!r} must be a list of [row, column{', layer' if board.dim == 3 else ''}]")
        cells = tuple(tuple(c) for c in cells)
        if not on_board.issuperset(cells):
            raise PolyfitError(f"solution: {label!r} has a cell that is not on the board")
        placements[label] = cells
    return puzzle, placements


def export(kind: str):
    """A task that writes the solution sent with the registered exporter ``kind`` (``png``,
    ``glb``, ...) and answers the file's bytes."""

    def task(body: dict, folder: Path, report) -> bytes:
        puzzle, placements = chosen_solution(body, folder)
        board = puzzle.board
        solution_set = polyfit.SolutionSet(board.label, board.cells, puzzle.pieces, [placements])
        exporter = registry().exporter(None, kind)
        with tempfile.TemporaryDirectory() as scratch:
            path = Path(scratch) / f"solution.{kind}"
            exporter.export(solution_set, path)
            return path.read_bytes()

    return task


def open_file(body: dict, folder: Path, report) -> dict:
    """A board file of the folder as the page draws it: its text, whether it is 3D, its
    lattice, whether the page can edit it (squares and cubes; a board on another lattice
    is solved and shown in 3D as it is) and whether its pieces slide (can be taken apart)."""
    from polyfit.formats.interchange import board_text

    path = safe_path(folder, body.get("path"))
    if path.exists() and not path.is_file() and not path.is_dir():  # a pipe would wait for a writer
        raise PolyfitError(f"{body['path']}: not a regular file")
    boards = polyfit.read_boards(path)  # a BurrTools file's problems, a Soma file's figures
    number = body.get("problem") or 1
    if not 1 <= number <= len(boards):
        raise PolyfitError(f"{body['path']} holds {len(boards)} board{'s' if len(boards) > 1 else ''}: "
                           f"choose one from 1 to {len(boards)}")
    board = boards[number - 1]
    data = path.read_bytes()
    try:
        if len(boards) > 1:
            raise PolyfitError("several boards: each is drawn from its cells")
        text = data.decode("utf-8")
        polyfit.Board.from_text(text, dim=board.dim, path=str(path))
    except (UnicodeDecodeError, PolyfitError):
        # MagicaVoxel or a plugin's format: drawn as text art (on another lattice, that lattice's)
        text = voxel_text(board) if drawn_as_cubes(board) else board_text(board, None)
    held = [p.name for p in board.pieces]  # a puzzle file with its pieces (BurrTools)
    answer = {"path": body["path"], "text": text, "dim": board.dim, "pieces": held,
              "lattice": board.lattice.name, "editable": drawn_as_cubes(board),
              "slides": bool(board.lattice.motion_directions())}
    if len(boards) > 1:
        answer.update(problem=number, boards=[b.name or f"board {k}" for k, b in enumerate(boards, 1)])
    return answer


def save_puzzle(body: dict, folder: Path, report) -> dict:
    """Save the board drawn as a BurrTools ``.xmpuzzle`` at ``path`` with the pieces (their
    weights and groups) of ``file``'s board number ``problem``: the file's other problems,
    saved assemblies and comments are not kept, so the file the pieces come from is only
    replaced when it holds that one problem (and ``overwrite`` says so)."""
    from polyfit.files import write_output
    from polyfit.formats.burrtools import xmpuzzle_bytes

    name = body["path"]
    path = safe_path(folder, name)
    source = safe_path(folder, body["file"])
    drawn = polyfit.Board.from_text(body["board"], dim=body.get("dim") or guess_dim(body["board"]), path="board")
    board = puzzle_file(body["file"], drawn, folder, body.get("problem"))
    if path.exists() and path.resolve() == source.resolve() and len(polyfit.read_boards(source)) > 1:
        raise PolyfitError(f"{name} holds several problems and saving keeps only this one: save it under "
                           "another name")
    if not path.parent.is_dir():
        raise PolyfitError(f"{name}: no folder {path.parent.relative_to(folder)} in the studio's folder")
    write_output(path, xmpuzzle_bytes(board, board.pieces), force=body.get("overwrite") is True)
    return {"path": name, "saved": True}


def voxel_text(board) -> str:
    """A board as text art (voxel layers for 3D, bottom first), its name kept."""
    lines = [f"; name: {board.name}"] if board.name else []
    cells = {c if board.dim == 3 else (0, *c) for c in board.cells}  # (layer, row, column)
    optional = {c if board.dim == 3 else (0, *c) for c in board.optional}
    layers, rows, columns = (range(max(c[k] for c in cells) + 1) for k in range(3))
    for z in layers:
        if z:
            lines.append("")
        for r in rows:
            lines.append("".join(("+" if (z, r, c) in optional else "#") if (z, r, c) in cells else "."
                                 for c in columns).rstrip(".") or ".")
    return "\n".join(lines) + "\n"


TASKS = {
    "check": check,
    "count": count,
    "estimate": estimate,
    "solutions": solutions,
    "stl": kit,
    "png": export("png"),
    "glb": export("glb"),
    "open": open_file,
    "save-puzzle": save_puzzle,
    "disassembly": disassembly,
    "meshes": meshes,
}


def work(kind: str, body: dict, folder: str, send) -> None:
    """Run a task in a worker and send its outcome: ``("progress", dict)`` messages, then
    ``("done", answer)`` or ``("error", text)``. Never a traceback: a bug is one line too."""
    folder = Path(folder)
    os.chdir(folder)
    try:
        answer = TASKS[kind](body, folder, lambda fields: send(("progress", fields)))
    except PolyfitError as exc:
        send(("error", str(exc)))
    except RecursionError:
        send(("error", "the input is nested too deeply"))
    except OSError as exc:  # a file that cannot be read: the file's fault, said in one line
        where = f"{exc.filename}: " if exc.filename else ""
        send(("error", f"{where}{exc.strerror or exc}"))
    except MemoryError:
        send(("error", "the input is too large for this machine's memory"))
    except Exception as exc:  # a bug: said in one line, the page carries on
        send(("failed", f"internal error in {kind}: {type(exc).__name__}: {exc}"))
    else:
        send(("done", answer))
