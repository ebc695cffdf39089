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
from contextlib import closing
from dataclasses import replace
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Iterator

from polyfit.errors import ParseError, PolyfitError
from polyfit.plugins import get_plugin_manager
from polyfit.puzzle import solve
from polyfit.puzzle.board import Board
from polyfit.puzzle.solve import Counts, Found
from polyfit.registry import Registry

if TYPE_CHECKING:  # loaded on first use: a count of a file that holds its pieces needs neither
    from polyfit.formats.solution_set import SolutionSet

_REGISTRY: Registry | None = None


def registry() -> Registry:
    """What the installed plugins provide (piece sets, backends, readers, exporters), with the
    built-ins; made once per process. A plugin that fails to load is a warning, not an error."""
    global _REGISTRY
    if _REGISTRY is None:
        from polyfit.lattices.base import set_default

        _REGISTRY = Registry.from_plugins(get_plugin_manager())
        set_default(_REGISTRY.lattices)  # what a lattice's name means outside another session
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
    reg = plugins or registry()
    from polyfit.formats.piece_specs import resolve_pieces

    with reg.session():  # a pieces file's '; lattice:' means one of this registry's lattices
        return resolve_pieces(spec, reg.piece_set_builders(), base)


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


def colours(pieces) -> dict[str, str]:
    """Each piece's colour in every picture, sheet, model and the studio, as
    ``{name: "#rrggbb"}``: fixed by the piece's name (the same in every set it comes in),
    different for each of ``pieces``. A piece that may be placed more than once also has its
    copies' labels, ``NAME#1``, ``NAME#2``..., in shades of its colour."""
    from polyfit.render.palette import hex_colour, piece_colours

    labels = []
    for piece in pieces:
        most = piece.count[1]
        labels.append(piece.name)
        if most > 1:
            labels += [f"{piece.name}#{k}" for k in range(1, most + 1)]
    chosen = piece_colours(labels)
    return {label: hex_colour(chosen[label]) for label in labels}


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
        self.registry = plugins or registry()  # the backends this puzzle runs on

    def __repr__(self) -> str:
        return (
            f"<polyfit.Puzzle {self.board.label!r}: {len(self.board.cells)} cells, "
            f"{len(self.pieces)} pieces, {len(self.placements)} placements>"
        )

    @property
    def problem(self):
        """The exact cover problem the backends solve (symmetry broken)."""
        return self.cover.problem

    def colours(self) -> dict[str, str]:
        """Each piece's colour in every picture, sheet, model and the studio, as
        ``{name: "#rrggbb"}``: see :func:`polyfit.colours`."""
        return colours(self.pieces)

    def backend(self, name="auto"):
        """The backend ``name`` (or a backend object itself), checked against what this
        puzzle's problem needs."""
        if not isinstance(name, str):
            return name
        return self.registry.backend(name, self.cover.problem)

    def plan(self, task: str = "count", backend="auto", jobs: int | None = None, **options):
        """How a run of this puzzle goes (:class:`polyfit.engine.Plan`): which backend, the
        memo counter or not, on how many processes, and why (see :func:`polyfit.engine.choose`)."""
        from polyfit.engine import choose

        return choose(self, self.registry, task=task, backend=backend, jobs=jobs, **options)

    def run(self, *, count: bool = False, limit: int | None = None, all: bool = False, backend="auto",
            jobs: int | None = None, dask: str | None = None, checkpoint=None, resume=None,
            depth: int | None = None, seed: int | None = None, memory: int | None = None,
            force: bool = False, on_progress=None) -> Run:
        """Start a run: the one way every face (the command line, the studio, the gallery and the
        methods below) counts and solves. Iterate over it for the solutions (none for a
        ``count``), then read ``counts``; see :class:`Run` for the options."""
        from polyfit.longsearch import asks_for_jobs

        asked = asks_for_jobs(jobs, dask, checkpoint, resume, depth)
        plan = self.plan("count" if count else "solutions", backend, jobs, asked_for_jobs=asked,
                         shuffled=seed is not None, watched=on_progress is not None, memory=memory)
        return Run(self, plan, count=count, limit=limit, all=all, dask=dask, checkpoint=checkpoint,
                   resume=resume, depth=depth, seed=seed, force=force, on_progress=on_progress)

    def count(self, backend="auto", jobs: int | None = None, on_progress=None,
              disassemble: bool = False, max_states: int | None = None, ruler: str = "burrtools") -> Counts:
        """Count every solution exactly: ``distinct`` (one per symmetry class),
        ``distinct_rotations`` (classes under rotations alone) and ``total``. With ``auto``,
        the engine chooses how (:meth:`plan`): the memo counter when pieces repeat and the
        search is long, every core for a long search.

        ``jobs``: processes to split the search over; ``None`` lets the engine choose, as
        ``polyfit solve --count`` does. ``on_progress``: called as the jobs of a long count start
        and after each one, with ``fraction`` (of the search tree done), ``elapsed`` (seconds)
        and ``counts`` (so far), as the progress bar of ``polyfit solve --count`` hears it.

        ``disassemble=True`` also takes every distinct solution apart (``jobs`` processes) and
        puts in ``counts.disassembly``: ``assemblies``, ``disassemblable``,
        ``disassemblable_rotations`` (BurrTools' count with mirror solutions kept), ``levels``
        ({level text: assemblies}) and ``unknown`` (``max_states`` reached); ``on_progress`` then
        hears that tally so far after each assembly (each batch, with ``jobs``); ``ruler``:
        ``"burrtools"`` (its plan) or ``"exact"`` (the fewest moves over every plan)."""
        if disassemble:
            from polyfit.longsearch import disassembly

            counts, counts.disassembly = disassembly.count(self, self.backend(backend), jobs or 1,
                                                           max_states=max_states, on_progress=on_progress,
                                                           ruler=ruler)
            return counts
        return self.run(count=True, backend=backend, jobs=jobs, on_progress=on_progress).finish()

    def disassemblies(self, limit: int | None = None, backend: str = "auto", max_states: int | None = None,
                      every: bool = False, ruler: str = "burrtools"):
        """The distinct solutions that come apart, each as ``(Solution, taken)`` (``taken.level``,
        ``.total``, ``.moves``), in the orientation BurrTools keeps (so the levels are its), at
        most ``limit``; ``every=True`` yields the others too (``taken.separates`` False: stuck,
        or ``taken.level == "unknown"`` when the search met ``max_states`` states)."""
        from polyfit.longsearch import disassembly

        engine = self.plan("solutions", backend).backend
        number = 0
        for placements, taken in disassembly.disassemblies(self, engine, max_states=max_states, ruler=ruler):
            if taken.separates or every:
                number += 1
                yield Solution(self, placements, number), taken
                if limit is not None and number >= limit:
                    return

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
        engine = self.plan("sample", backend).backend
        drawn = self.sample_placements(engine, n, seed)
        return [Solution(self, placements, k) for k, placements in enumerate(drawn, 1)]

    def solutions(
        self, limit: int | None = None, all: bool = False, backend: str = "auto", seed: int | None = None
    ) -> Iterator[Solution]:
        """The solutions, one per symmetry class (``all=True``: every rotated and reflected
        copy too), at most ``limit``; ``seed`` tries options in a seeded random order."""
        if limit is not None and limit < 1:
            return
        with closing(self.run(limit=limit, all=all, backend=backend, seed=seed)) as run:
            yield from run


class Run:
    """A run of a puzzle under way, as :meth:`Puzzle.run` starts it. Iterate for the solutions
    (:class:`Solution`): one per symmetry class, or every copy with ``all``, at most ``limit``
    (none for a ``count``); then ``counts`` holds what was counted, ``stopped_early`` says the
    limit cut the search short, and ``plan`` says how it ran.

    Options: ``dask`` (a scheduler address to run the jobs on), ``checkpoint`` (a file to save
    finished jobs of a count to; refused if it exists unless ``force``), ``resume`` (one to go on
    from), ``depth`` (split at that depth of the search tree), ``seed`` (options in a random
    order), ``on_progress`` (called as the jobs start and after each). Errors in these options
    are raised before anything runs."""

    def __init__(self, puzzle, plan, *, count=False, limit=None, all=False, dask=None, checkpoint=None,
                 resume=None, depth=None, seed=None, force=False, on_progress=None):
        self.puzzle = puzzle
        self.plan = plan
        self.count = count
        self.limit = limit
        self.all = all
        self.stopped_early = False
        self.solutions_yielded = 0
        self._search_options = dict(
            count=count, jobs=plan.processes, split=plan.split, dask=dask, checkpoint=checkpoint,
            resume=resume, depth=depth, seed=seed, force=force, on_progress=on_progress,
        )
        self._counts = Counts()
        self._search = None
        if plan.counter is None:
            self._start_search()  # its errors (a checkpoint that exists...) before anything runs

    def _start_search(self):
        from polyfit import longsearch

        self._search = longsearch.run(self.puzzle, self.plan.backend, **self._search_options)
        self._counts = self._search.counts

    @property
    def counts(self) -> Counts:
        return self._counts

    # What a report of an interrupted run says: jobs done, and where the checkpoint is.
    @property
    def split(self) -> bool:
        return self._search is not None and self._search.split

    @property
    def jobs(self) -> int:
        return self._search.jobs if self._search is not None else 0

    @property
    def processes(self) -> int:
        return self._search.processes if self._search is not None else 1

    @property
    def done(self) -> int:
        return self._search.done if self._search is not None else 0

    @property
    def checkpoint(self):
        return self._search.checkpoint if self._search is not None else None

    def __iter__(self) -> Iterator[Solution]:
        puzzle = self.puzzle
        if self._search is None:
            if self._count_with_counter():
                return
            self._start_search()
        if self.limit is not None and self.limit < 1:
            self.stopped_early = True
            return
        try:
            for found in self._search:
                if self.count or not found.canonical:
                    continue  # each class is given once, from its canonical solution
                batch = puzzle.cover.orbit(found.placements) if self.all else [found.placements]
                for placements in batch:
                    self.solutions_yielded += 1
                    yield Solution(puzzle, placements, self.solutions_yielded)
                    if self.limit is not None and self.solutions_yielded >= self.limit:
                        self.stopped_early = True
                        return
        finally:
            self.close()

    def _count_with_counter(self) -> bool:
        """Count with the plan's memoizing counter; False when it reached its node limit (the
        search then counts as if it had not been tried; the plan says so)."""
        from polyfit.dlx.memo import NodeLimit

        plan = self.plan
        counts = Counts()
        try:
            self.puzzle.count_memo(plan.counter, counts, plan.node_limit)
        except NodeLimit:
            plan.why += f"; count-memo passed {plan.node_limit:,} states, so {plan.backend.name} searched"
            plan.counter = None
            return False
        self._counts = counts
        return True

    def finish(self) -> Counts:
        """Run to the end (or the limit); the counts."""
        for _ in self:
            pass
        return self.counts

    def close(self) -> None:
        """Stop the search (its workers too) and save the checkpoint; the counts stay."""
        if self._search is not None:
            self._search.close()

    def interrupted(self) -> str:
        """Stop, and say how far the run came: for a Ctrl-C."""
        from polyfit.report import interrupted_text

        self.close()
        return interrupted_text(self)

    def summary(self) -> dict:
        """The counts and how they were found, as ``polyfit solve --count --json`` prints them."""
        from polyfit.report import counts_json

        return counts_json(self.puzzle, self.counts, self.plan.counter or self.plan.backend, self)


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


def _solution_set(solutions) -> tuple[SolutionSet, Registry | None]:
    """What exporters take, from a :class:`Solution`, several solutions of one puzzle (a list,
    or what :meth:`Puzzle.solutions` yields), or a :class:`SolutionSet` as it is; and the
    registry of their puzzle (None for a SolutionSet)."""
    from polyfit.formats.solution_set import SolutionSet

    if isinstance(solutions, SolutionSet):
        return solutions, None
    if isinstance(solutions, Solution):
        return solutions.solution_set(), solutions.puzzle.registry
    chosen = list(solutions)
    if not chosen or not all(isinstance(s, Solution) for s in chosen):
        raise PolyfitError("export takes a Solution, a list of Solutions of one puzzle, or a SolutionSet")
    puzzle = chosen[0].puzzle
    if any(s.puzzle is not puzzle for s in chosen):
        raise PolyfitError("the solutions to export together must be of one puzzle")
    return SolutionSet.of(puzzle.board, puzzle.pieces, [s.placements for s in chosen]), puzzle.registry


def export(solutions, target: str | os.PathLike | None = None, format: str | None = None, *,
           overwrite: bool = False, plugins: Registry | None = None, **options) -> bytes | None:
    """Write solutions to a file in any format an exporter is registered for, as
    ``polyfit solve --output FILE`` does: ``target`` is a path, whose suffix names the
    format (``.png``, ``.gif``, ``.svg``, ``.cut.svg``, ``.pdf``, ``.stl``, ``.glb``, ``.3mf``,
    ``.obj``, ``.json``, ``.txt``, or a plugin's), or ``format`` names it. With a bare suffix
    (``".svg"``) or no target, nothing is written: the file's bytes are returned.

    ``solutions``: a :class:`Solution`, several of one puzzle, or a :class:`SolutionSet`.
    ``options`` are the format's own (pictures: ``cell``, ``margin``, ``labels``, ``view``;
    the PDF sheet: ``unit``, ``paper``; models: ``unit``, ``gap``; the laser-cut SVG:
    ``unit``, ``kerf``). An existing file is replaced only with ``overwrite=True``."""
    from polyfit.errors import OutputExistsError
    from polyfit.formats import export as exporting

    chosen, own = _solution_set(solutions)
    exporters = (plugins or own or registry()).exporters
    as_bytes = target is None or exporting.is_suffix(target)
    if as_bytes:
        if format is None:
            if target is None:
                raise PolyfitError("give a file name, a suffix such as '.png', or a format")
            format = exporting.choose(exporters, "solutions" + target, how="format=...").name
        planned = exporting.output(exporters, None, format, options)
    else:
        planned = exporting.output(exporters, target, format, options, how="format=...")
    try:
        planned.check(chosen, overwrite)
        if as_bytes:
            return planned.data(chosen)
        planned.write(chosen, overwrite)
        return None
    except OutputExistsError as exc:
        raise OutputExistsError(exc.path, f"{exc.path} exists; pass overwrite=True to replace it") from None


class Solution:
    """One solution of a puzzle: which piece covers which cells. ``indices`` are into
    ``puzzle.placements``; ``number`` is its place in the order found, from 1."""

    def __init__(self, puzzle: Puzzle, indices: tuple[int, ...], number: int = 1):
        self.puzzle, self.indices, self.number = puzzle, indices, number

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
        from polyfit.report import solution_text

        return solution_text(self.puzzle, self.indices)

    def to_json(self) -> dict:
        """``{label: [[cell], ...]}``, as ``polyfit solve --json`` prints a solution."""
        from polyfit.report import solution_json

        return solution_json(self.puzzle, self.indices)

    def disassemble(self, engine: str = "auto", max_states: int | None = None, max_bytes: int | None = None,
                    ruler: str = "burrtools"):
        """Take this solution apart as it stands: ``level`` (BurrTools' text such as
        ``"5.2.2"``; ``"unknown"`` when a cap was reached; None when it does not come apart),
        ``total`` moves and ``moves`` (``{"pieces", "by", "removed"}`` each, ``by`` in the cells'
        coordinate order); ``ruler="exact"``: the fewest moves over every plan rather than
        BurrTools' (``.ruler`` says which gave the level)."""
        from polyfit.longsearch import disassembly

        return disassembly.take_apart(self.puzzle, self.placements, engine=engine,
                                      max_states=max_states, max_bytes=max_bytes, ruler=ruler)

    def solution_set(self) -> SolutionSet:
        """This solution as exporters take it."""
        from polyfit.formats.solution_set import SolutionSet

        return SolutionSet.of(self.puzzle.board, self.puzzle.pieces, [self.placements])

    def export(self, target: str | os.PathLike | None = None, format: str | None = None, *,
               overwrite: bool = False, **options) -> bytes | None:
        """This solution as a file of any format: see :func:`export`."""
        return export(self, target, format, overwrite=overwrite, **options)

    def png(self, path: str | os.PathLike | None = None, *, overwrite: bool = False, **options) -> bytes | None:
        """The solution as a PNG picture (options ``cell``, ``margin`` in pixels, ``labels``,
        and ``view`` ``"iso"``, ``"exploded"`` or ``"layers"`` for 3D boards). Writes
        ``path`` (an existing file only with ``overwrite=True``), or returns the bytes."""
        return export(self, path, "png", overwrite=overwrite, **options)

    def svg(self, path: str | os.PathLike | None = None, *, overwrite: bool = False, **options) -> bytes | None:
        """The solution as an SVG picture, with :meth:`png`'s options."""
        return export(self, path, "svg", overwrite=overwrite, **options)

    def gif(self, path: str | os.PathLike | None = None, *, overwrite: bool = False, **options) -> bytes | None:
        """The solution put together piece by piece, as an animated GIF (:meth:`png`'s
        options; ``view`` ``"iso"`` or ``"layers"``)."""
        return export(self, path, "gif", overwrite=overwrite, **options)

    def pdf(self, path: str | os.PathLike | None = None, *, overwrite: bool = False, **options) -> bytes | None:
        """A printable puzzle sheet: the puzzle at true size, then this solution (options
        ``unit``, a cell in millimetres, and ``paper`` ``"a4"`` or ``"letter"``; needs
        reportlab)."""
        return export(self, path, "pdf", overwrite=overwrite, **options)

    def stl(self, path: str | os.PathLike | None = None, *, overwrite: bool = False, **options) -> bytes | None:
        """The pieces in place as one STL model (options ``unit`` and ``gap`` in millimetres)."""
        return export(self, path, "stl", overwrite=overwrite, **options)

    def glb(self, path: str | os.PathLike | None = None, *, overwrite: bool = False, **options) -> bytes | None:
        """The pieces in place, each in its colour, as a glTF binary (options as :meth:`stl`)."""
        return export(self, path, "glb", overwrite=overwrite, **options)

    def threemf(self, path: str | os.PathLike | None = None, *, overwrite: bool = False, **options) -> bytes | None:
        """The pieces in place, each in its colour, as 3MF (options as :meth:`stl`)."""
        return export(self, path, "3mf", overwrite=overwrite, **options)

    def obj(self, path: str | os.PathLike | None = None, *, overwrite: bool = False, **options) -> bytes | None:
        """The pieces in place as Wavefront OBJ with vertex colours (options as :meth:`stl`)."""
        return export(self, path, "obj", overwrite=overwrite, **options)

    def _repr_png_(self) -> bytes:
        return self.png()

    def _repr_pretty_(self, printer, cycle) -> None:
        printer.text(self.text())


__all__ = [
    "Board",
    "board_pieces",
    "check",
    "Counts",
    "export",
    "Found",
    "Puzzle",
    "Run",
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
