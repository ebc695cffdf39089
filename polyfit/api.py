"""The Python API: load a puzzle, count it exactly, walk its solutions, draw them.

What :mod:`polyfit` exports comes from here and from the modules it names; plugins, notebooks,
benchmarks and the command line use these names instead of reaching into the packages, so the
packages can move without breaking them. Every error is a :class:`polyfit.PolyfitError`.

>>> import polyfit
>>> puzzle = polyfit.load("shapes/pentomino/6x10.txt")
>>> puzzle.count().distinct
2339
"""

from __future__ import annotations

import os
import warnings
from dataclasses import dataclass, replace
from functools import cached_property
from pathlib import Path
from typing import Iterator

from polyfit.errors import ParseError, PolyfitError
from polyfit.formats.piece_specs import resolve_pieces
from polyfit.formats.solution_set import SolutionSet
from polyfit.formats.textart import draw_solution
from polyfit.plugins import get_plugin_manager
from polyfit.puzzle import solve
from polyfit.puzzle.board import Board
from polyfit.puzzle.solve import Counts, Found
from polyfit.registry import Registry

_REGISTRY: Registry | None = None


def registry() -> Registry:
    """What the installed plugins provide (piece sets, backends, readers, exporters), with the
    built-ins; made once per process. A plugin that fails to load is a warning, not an error."""
    global _REGISTRY
    if _REGISTRY is None:
        _REGISTRY = Registry.from_plugins(get_plugin_manager())
        for problem in _REGISTRY.problems:
            warnings.warn(problem, stacklevel=2)
    return _REGISTRY


def piece_sets() -> dict[str, str]:
    """Every piece set's name and one-line summary: built-in and from plugins."""
    return {name: entry.summary for name, entry in registry().piece_sets.items()}


def pieces(spec: str, base: str | os.PathLike | None = None, *, plugins: Registry | None = None) -> list:
    """The pieces a spec names, as ``--pieces`` takes it: ``"pentominoes"``,
    ``"pentominoes,tetrominoes:O"``, ``"2*tetrominoes"``, or a pieces file (looked for in the
    folder ``base`` first). ``plugins``: another registry than :func:`registry` (the command
    line's, with ``--plugins-dir``)."""
    return resolve_pieces(spec, (plugins or registry()).piece_set_builders(), base)


def backends() -> dict[str, str | None]:
    """Every backend's name and why it is unavailable (``None`` when it can run)."""
    return {name: b.unavailable_reason() for name, b in registry().backends.items()}


def backend(name: str = "auto", problem=None):
    """The backend named, or with ``"auto"`` the fastest one that can run ``problem`` (an
    :class:`polyfit.ExactCoverProblem`). Its ``solutions(problem, stats)`` yields each solution
    as a tuple of option indices."""
    return registry().backend(name, problem)


def read_board(path: str | os.PathLike, *, plugins: Registry | None = None, select: str | None = None) -> Board:
    """A board file in any format a reader is registered for (text art, voxel text,
    MagicaVoxel, BurrTools, the Soma notations, or a plugin's). ``select`` picks one board of a
    file that holds many (a BurrTools problem, a Soma figure): its number from 1, or its name."""
    return (plugins or registry()).read_shape(Path(path), select)


def read_boards(path: str | os.PathLike, *, plugins: Registry | None = None) -> list[Board]:
    """Every board of a file: the problems of a BurrTools puzzle, the figures of a Soma file,
    or the one board of any other file."""
    return (plugins or registry()).read_shapes(Path(path))


def load(
    path: str | os.PathLike, pieces: str | list | None = None, mirror: bool = False, *,
    plugins: Registry | None = None, break_symmetry: bool = True, select: str | None = None,
) -> Puzzle:
    """The puzzle in a board file, with the pieces its ``; pieces:`` line names (or the file
    holds), or ``pieces`` (a spec or a list of pieces). ``mirror=True`` lets every piece be
    turned over; ``select`` picks a board of a file with many (see :func:`read_board`)."""
    board = read_board(path, plugins=plugins, select=select)
    return Puzzle(board, pieces, mirror=mirror, plugins=plugins, break_symmetry=break_symmetry)


def board_pieces(board: Board, *, plugins: Registry | None = None) -> list:
    """The pieces a board's ``; pieces:`` line names (a pieces file named there is looked for
    next to the board first); a bad spec is an error at that line and column."""
    if board.pieces:
        return list(board.pieces)  # the file holds its pieces (a BurrTools puzzle, a Soma figure)
    spec = board.metadata.get("pieces")
    if not spec:
        raise PolyfitError(
            f"{board.path or board.label}: no pieces given; use --pieces NAME (pieces=... in "
            "Python) or a '; pieces: NAME' line in the board file (polyfit pieces lists the sets)"
        )
    try:
        return pieces(spec, Path(board.path).parent if board.path else None, plugins=plugins)
    except ParseError:
        raise  # inside a pieces file: it has its own place
    except PolyfitError as exc:
        line, column = board.metadata_at.get("pieces", (1, 1))
        raise ParseError(board.path or board.label, line, column, f"'; pieces: {spec}': {exc}") from None


def _pieces_for(board: Board, spec, plugins) -> list:
    if spec is None:
        return board_pieces(board, plugins=plugins)
    if isinstance(spec, str):
        return pieces(spec, plugins=plugins)
    return list(spec)


class Puzzle(solve.Puzzle):
    """A board and its pieces, ready to count and solve.

    ``pieces`` is a spec (``"pentominoes"``), a list of :class:`polyfit.Piece`, or ``None`` for
    the board's own ``; pieces:`` line. Making the puzzle generates every placement, prunes those
    no solution can use and finds the symmetry group; counting and solving run a backend.
    ``reduce=False`` searches every option, also those the reduction proves useless
    (``puzzle.reduction`` says how many it found and whether they were removed).
    """

    def __init__(self, board: Board, pieces=None, *, mirror: bool = False,
                 plugins: Registry | None = None, break_symmetry: bool = True, reduce: bool = True):
        chosen = _pieces_for(board, pieces, plugins)
        if mirror:
            chosen = [replace(p, mirror=True) for p in chosen]
        super().__init__(board, chosen, break_symmetry=break_symmetry, reduce=reduce)

    def __repr__(self) -> str:
        return (
            f"<polyfit.Puzzle {self.board.label!r}: {len(self.board.cells)} cells, "
            f"{len(self.pieces)} pieces, {len(self.placements)} placements>"
        )

    @property
    def problem(self):
        """The exact cover problem the backends solve (symmetry broken)."""
        return self.cover.problem

    def backend(self, name="auto"):
        """The backend ``name`` (or a backend object itself), checked against what this
        puzzle's problem needs."""
        if not isinstance(name, str):
            return name
        return registry().backend(name, self.cover.problem)

    def count(self, backend: str = "auto", jobs: int | None = None, on_progress=None) -> Counts:
        """Count every solution exactly: ``distinct`` (one per symmetry class),
        ``distinct_rotations`` (classes under rotations alone) and ``total``. With ``auto``,
        a long count with repeated pieces runs on ``count-memo``, as on the command line.

        ``jobs``: processes to split the search over; ``None`` uses every core when a quick
        estimate says the search is long, as ``polyfit solve --count`` does. ``on_progress``:
        called as the jobs of a long count start and after each one, with ``fraction`` (of the
        search tree done), ``elapsed`` (seconds) and ``counts`` (so far), as the progress bar
        of ``polyfit solve --count`` hears it."""
        from polyfit import longsearch

        if backend == "auto" and (jobs or 1) == 1:
            from polyfit.puzzle.burnside import auto_counter

            counter = auto_counter(self, registry().backends, lambda: longsearch.quick_estimate(self))
            if counter is not None:
                return self.count_memo(counter, Counts())
        return longsearch.run(self, self.backend(backend), count=True, jobs=jobs,
                              watched=on_progress is not None, on_progress=on_progress).finish()

    def check(self, backend: str = "auto", forced_limit: int | None = None):
        """Where the puzzle stands for a designer: ``verdict`` ``"unique"``, ``"multiple"`` or
        ``"none"``, with the ``reasons`` (lint, a proof of impossibility, or the search),
        placements per piece, the placements every solution shares (``forced``, when there
        are at most ``forced_limit`` distinct solutions) and a ``difficulty`` score. The search
        stops at the second distinct solution unless the forced placements need them all."""
        from polyfit.puzzle.check import FORCED_LIMIT, check

        return check(self.board, self.pieces, lambda problem: self.backend(backend), puzzle=self,
                     forced_limit=FORCED_LIMIT if forced_limit is None else forced_limit)

    def hint(self, max: int | None = None, solution: int = 1, backend: str = "auto",
             limit: int | None = None):
        """The fewest pieces of solution number ``solution`` (as :meth:`solutions` numbers
        them) to pre-place so that one distinct solution remains, as a ``Hint``: ``added``
        (piece name, cells), ``proven`` (every smaller set was ruled out) or only minimal,
        ``text`` (the new board file), ``solutions_after`` (its fresh count: 1). ``max``
        bounds the size of the sets tried exhaustively; puzzles with more than ``limit``
        solutions (symmetric copies included) are refused."""
        from polyfit.puzzle import hint as hints

        return hints.hint(self, self.backend(backend), max, solution,
                          hints.SOLUTION_LIMIT if limit is None else limit)

    def sample(self, n: int, seed: int | None = None, backend: str = "auto") -> list[Solution]:
        """``n`` solutions drawn independently and uniformly at random among all of them
        (symmetric copies included), the same ones for the same ``seed``; by a memoizing
        backend (``auto``: ``count-memo``, or its Python twin without the C extension)."""
        if backend == "auto":
            memo = registry().backends.get("count-memo")
            backend = "count-memo" if memo is not None and memo.unavailable_reason() is None else "count-memo-python"
        engine = self.backend(backend)
        if not getattr(engine, "memoizes", False):
            raise PolyfitError(f"sample draws from the counts of a memoizing backend (count-memo), not {engine.name}")
        drawn = self.sample_placements(engine, n, seed)
        return [Solution(self, placements, k) for k, placements in enumerate(drawn, 1)]

    def solutions(
        self, limit: int | None = None, all: bool = False, backend: str = "auto", seed: int | None = None
    ) -> Iterator[Solution]:
        """The solutions, one per symmetry class (``all=True``: every rotated and reflected
        copy too), at most ``limit``; ``seed`` tries options in a seeded random order."""
        if limit is not None and limit < 1:
            return
        engine = self.backend(backend)
        number = 0
        for found in self.search(engine, Counts(), seed):
            if not found.canonical:
                continue
            batch = self.cover.orbit(found.placements) if all else [found.placements]
            for placements in batch:
                number += 1
                yield Solution(self, placements, number)
                if limit is not None and number >= limit:
                    return


def check(board: Board, pieces=None, *, mirror: bool = False, backend: str = "auto",
          plugins: Registry | None = None, forced_limit: int | None = None):
    """:meth:`Puzzle.check` for a board and pieces that may not even make a puzzle: an area
    that no choice of the pieces matches is a verdict (``"none"``), not an error."""
    from polyfit.puzzle.check import FORCED_LIMIT, check as check_puzzle

    chosen = _pieces_for(board, pieces, plugins)
    if mirror:
        chosen = [replace(p, mirror=True) for p in chosen]
    engines = plugins or registry()
    return check_puzzle(board, chosen, lambda problem: engines.backend(backend, problem),
                        forced_limit=FORCED_LIMIT if forced_limit is None else forced_limit)


def generate(pieces, within=None, solutions=1, count: int = 1, seed: int = 0,
             symmetric: str | None = None, *, backend: str = "auto", known=(),
             seconds: float | None = None, plugins: Registry | None = None,
             base=None, remove: int | None = None, add: int | None = None, holes: bool = False,
             flat: bool = False, min_difficulty: float | None = None, jobs: int = 1) -> Iterator[Board]:
    """Boards inside ``within`` that ``pieces`` fill in exactly ``solutions`` distinct ways
    (a number, or a range ``"1..3"``), as ``polyfit generate`` finds them: up to ``count``,
    pairwise not congruent, the same ones in the same order for the same ``seed``.

    ``pieces``: a spec or a list of pieces; ``within``: a box size (``"8x8"``, ``"3x3x4"``:
    rows x columns x layers), a :class:`Board`, or a board file; ``symmetric``: ``"mirror"``,
    ``"rotation"`` or ``"any"`` for shapes with that symmetry of the outline; ``known``: cell
    sets not to yield again (up to congruence); ``seconds``: a time budget. Instead of
    ``within``, ``base`` (a :class:`Board` or a board file) with ``remove`` or ``add`` K cells:
    that board changed (the pieces' area must be the board's minus or plus K; with neither, K
    is the difference). ``holes``: allow enclosed holes; ``flat``: 3D figures that stand on
    their lowest layer; ``min_difficulty``: the least difficulty score (as
    :meth:`Puzzle.check` reports it); ``jobs``: worker processes (the boards may then vary
    from run to run). Each board has ``; pieces:`` (when ``pieces`` is a spec),
    ``; solutions:`` and ``; difficulty:`` metadata."""
    import time

    from polyfit.longsearch.workers import die_with
    from polyfit.puzzle.generate import box_cells, changed_board, generate as search, parse_target

    engines = plugins or registry()
    if pieces is None:
        raise PolyfitError("generate needs pieces: a spec such as 'pentominoes' or a list")
    if (within is None) == (base is None):
        raise PolyfitError("generate needs within (an outline) or base (a board to change)")
    chosen = _pieces_for(None, pieces, plugins)

    def cells_of(shape):
        if isinstance(shape, Board):
            return shape.cells
        cells = box_cells(shape) if isinstance(shape, str) else None
        return cells if cells is not None else read_board(shape, plugins=plugins).cells

    family = {}
    if base is not None:
        area = sum(p.size * p.count[0] for p in chosen)
        family = changed_board(cells_of(base), area, remove, add)
        outline = family.pop("outline")
    else:
        outline = cells_of(within)
    metadata = {"pieces": pieces} if isinstance(pieces, str) else {}
    deadline = None if seconds is None else time.monotonic() + seconds
    boards = search(chosen, outline, lambda problem: engines.backend(backend, problem),
                    parse_target(solutions), count, seed, symmetric, known, metadata, deadline,
                    holes=holes, flat=flat, min_difficulty=min_difficulty, jobs=jobs,
                    worker_setup=die_with, **family)
    try:
        for found in boards:
            yield found.board
    finally:
        boards.close()


@dataclass(frozen=True, eq=False)
class Solution:
    """One solution of a puzzle: which piece covers which cells."""

    puzzle: Puzzle
    indices: tuple[int, ...]  # into puzzle.placements
    number: int = 1  # its place in the order found, from 1

    @cached_property
    def placements(self) -> dict[str, tuple]:
        """``{label: cells}``: the label is the piece's name, ``NAME#k`` for its k-th copy."""
        puzzle = self.puzzle
        return {
            label: puzzle.placements[i].cells
            for label, i in zip(puzzle.labels(self.indices), self.indices)
        }

    def __repr__(self) -> str:
        return f"<polyfit.Solution {self.number} of {self.puzzle.board.label!r}>"

    def text(self) -> str:
        """The solution as text art, as ``polyfit solve`` prints it."""
        puzzle = self.puzzle
        chosen = [puzzle.placements[i] for i in self.indices]
        covered = {c for p in chosen for c in p.cells}
        empty = [c for c in puzzle.board.optional if c not in covered]
        return draw_solution(puzzle.pieces, chosen, puzzle.labels(self.indices), empty)

    def solution_set(self) -> SolutionSet:
        """This solution as exporters take it."""
        board = self.puzzle.board
        return SolutionSet(board.label, board.cells, self.puzzle.pieces, [self.placements],
                           fixed=tuple(sorted(board.fixed_cells)))

    def png(self, path: str | os.PathLike | None = None, *, cell: int = 32, margin: int = 16,
            labels: bool = False, view: str | None = None) -> bytes | None:
        """Draw the solution (3D boards: ``view`` ``"iso"``, ``"exploded"`` or ``"layers"``).
        Writes ``path`` when given (never over an existing file), else returns the PNG bytes."""
        from polyfit.files import check_writable
        from polyfit.render.pictures import save_png, solution_image
        from polyfit.render.style import Style

        try:
            style = Style(cell=cell, margin=margin, labels=labels)
        except ValueError as exc:
            raise PolyfitError(str(exc)) from None
        board = self.puzzle.board
        image = solution_image(board.cells, self.puzzle.pieces, self.placements, style, view,
                               fixed=board.fixed_cells)
        if path is not None:
            check_writable(Path(path), force=False)
            save_png(image, Path(path))
            return None
        import io

        buffer = io.BytesIO()
        image.save(buffer, format="PNG")
        return buffer.getvalue()

    def _repr_png_(self) -> bytes:
        return self.png()

    def _repr_pretty_(self, printer, cycle) -> None:
        printer.text(self.text())


__all__ = [
    "Board",
    "board_pieces",
    "check",
    "Counts",
    "Found",
    "Puzzle",
    "Solution",
    "backend",
    "backends",
    "load",
    "piece_sets",
    "pieces",
    "read_board",
    "read_boards",
    "registry",
]
