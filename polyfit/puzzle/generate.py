"""The generator: new boards with exactly the number of distinct solutions a designer wants.

A *family* of shapes is every set of cells inside an outline (a board, or a box ``8x8`` /
``3x3x4``) with exactly the pieces' total area, connected (edge-connected in 2D, face-connected
in 3D) and, unless ``holes`` allows them, without holes: every empty cell of the outline joins,
through empty outline cells, a cell outside the outline (the same rule in 2D and 3D, so a 3D
figure has no closed cavity). Options narrow or change the family:

- ``symmetric``: the shapes are mapped onto themselves by one symmetry of the outline (a
  reflection for ``"mirror"``, a rotation for ``"rotation"``, either for ``"any"``): cells are
  taken and given up in whole orbits of that symmetry;
- ``flat`` (3D): the figure stands on its lowest layer, as Soma figures are built: every cell
  is on that layer, or rests on a cell below it, or is held by a neighbour on its own layer
  that stands (:func:`stands`);
- ``required``: cells every shape keeps. :func:`changed_board` makes the family of a board
  with K cells removed (the outline is the board) or added (the outline is the board's
  bounding box grown by one cell on every side, the board's cells required, and the board's
  own enclosed holes may stay).

The search, reproducible from ``seed``:

1. a random shape of the family is carved from the full outline, removing random orbits that
   touch the outside (so no hole can form; any orbit with ``holes``) while the rest stays
   connected (and standing, with ``flat``);
2. it is counted as ``polyfit solve --count`` counts (distinct up to the puzzle's symmetries),
   after the cheap rejections the puzzle makes when it is built (area and parity arguments,
   pieces that fit nowhere: :attr:`Puzzle.impossible`), and the count stops as soon as it
   passes :data:`CAP` solutions above the target's high end; the nodes the search took to its
   first solution give the difficulty, as ``polyfit check`` measures it;
3. it is improved: one orbit on the boundary moves to another place where the shape keeps the
   family's rules; the move is kept when the shape is no farther from the target (its count;
   then, with ``min_difficulty``, its difficulty), and after :data:`PATIENCE` moves that
   bring it no closer the search starts again from step 1.

After :data:`GIVE_UP` fresh starts in a row without a new board the search ends: the family
holds no more boards, or they are too rare to find this way.

A shape whose count is in the target range (and difficulty at least ``min_difficulty``), and is
not congruent (rotated, or reflected when the piece set is closed under reflection) to one
found before or given in ``known``, is yielded.

With ``jobs`` > 1 that many worker processes run the same search, worker ``k`` from its own
seed (worker 0 from ``seed`` itself, so it tries exactly the shapes a ``jobs=1`` run tries);
the parent keeps the first boards to arrive that are not congruent to one kept before. Each
worker's shapes are reproducible; which worker finds a board first is not, so the boards kept
and their order may differ between runs.

Nothing is printed and no file is written here: :mod:`polyfit.commands.generate` does that.
"""

from __future__ import annotations

import multiprocessing
import os
import queue as queues
import random
import re
import signal
import time
from dataclasses import dataclass, field
from itertools import product
from typing import Callable, Iterator

from polyfit.errors import PolyfitError, plural
from polyfit.limits import check_processes
from polyfit.lattices.grid import canonical, is_connected, lattice_group, neighbours
from polyfit.puzzle.board import Board
from polyfit.puzzle.pieces import check_fit
from polyfit.puzzle.check import difficulty
from polyfit.puzzle.solve import Counts, Puzzle
from polyfit.puzzle.symmetry import board_symmetries, puzzle_symmetries

CAP = 4  # a count stops this many distinct solutions past the target's high end
PATIENCE = 40  # moves without getting closer to the target before a fresh start
TRIES = 60  # random picks for one move or one carving step before giving up on it
SYMMETRIES = ("mirror", "rotation", "any")
REPORT_EVERY = 0.2  # seconds between a worker's reports of its tally
GIVE_UP = 500  # fresh starts in a row without a new board: the family has no more (or too few)


@dataclass
class Generated:
    """A board found: its count, its difficulty (see :func:`polyfit.puzzle.check.difficulty`)
    and one solution (piece name -> cells), for drawing."""

    board: Board
    solutions: int
    solution: dict
    tried: int  # shapes counted before it was found (all boards so far)
    difficulty: dict | None = None


@dataclass
class Tally:
    """What the search did so far; updated as it goes (for a progress line)."""

    tried: int = 0  # shapes counted
    rejected: int = 0  # shapes ruled out before any search
    starts: int = 0  # fresh random shapes
    found: int = 0
    seconds: float = 0.0
    stopped: str | None = None  # "time" when the budget ran out, "exhausted" after GIVE_UP starts
    listener: Callable | None = field(default=None, repr=False)  # called after each shape counted

    def counted(self, rejected: bool) -> None:
        self.tried += 1
        self.rejected += rejected
        if self.listener is not None:
            self.listener(self)


def parse_target(text: str | int) -> tuple[int, int]:
    """``"1"`` or ``1`` -> (1, 1); ``"1..3"`` -> (1, 3)."""
    if isinstance(text, int):
        lo = hi = text
    else:
        match = re.fullmatch(r"\s*(\d+)\s*(?:\.\.\s*(\d+)\s*)?", text)
        if not match:
            raise PolyfitError(f"--solutions takes a number or a range such as 1..3, not {text!r}")
        lo = int(match.group(1))
        hi = int(match.group(2)) if match.group(2) is not None else lo
    if lo < 1 or hi < lo:
        raise PolyfitError(f"--solutions: the range must be 1 or more and low..high, not {text!r}")
    return lo, hi


def box_cells(text: str) -> tuple | None:
    """``"8x8"`` (rows x columns) or ``"3x3x4"`` (rows x columns x layers) as cells, or None
    when ``text`` is not such a size."""
    match = re.fullmatch(r"(\d+)x(\d+)(?:x(\d+))?", text.strip())
    if not match:
        return None
    rows, cols = int(match.group(1)), int(match.group(2))
    if match.group(3) is None:
        cells = [(r, c) for r in range(rows) for c in range(cols)]
    else:
        layers = int(match.group(3))
        cells = [(z, r, c) for z in range(layers) for r in range(rows) for c in range(cols)]
    if not cells:
        raise PolyfitError(f"--within {text}: the box has no cells")
    return tuple(cells)


def reflections_allowed(pieces) -> bool:
    """Is a reflected board the same puzzle (the piece set is closed under reflection)?"""
    dim = len(pieces[0].cells[0])
    return any(not s.is_proper for s in puzzle_symmetries([(0,) * dim], pieces))


def congruence_key(cells, mirror: bool):
    """The same for congruent shapes: rotations, and reflections when ``mirror``."""
    return canonical(cells, lattice_group(len(next(iter(cells))), mirror))


def stands(cells) -> bool:
    """Does a 3D figure stand on its lowest layer (layers are the first coordinate, 0 at the
    bottom)? Every cell must be on that layer, or be reached from it going up (a cell resting
    on the one below) or sideways (a neighbour on the same layer holds it, as the cubes of a
    piece hold each other), never down: nothing hangs below a cell that does not stand."""
    cells = set(cells)
    low = min(c[0] for c in cells)
    reached = {c for c in cells if c[0] == low}
    frontier = list(reached)
    while frontier:
        z, *rest = frontier.pop()
        steps = [(z + 1, *rest)]
        for axis in range(len(rest)):
            for step in (-1, 1):
                moved = list(rest)
                moved[axis] += step
                steps.append((z, *moved))
        for n in steps:
            if n in cells and n not in reached:
                reached.add(n)
                frontier.append(n)
    return len(reached) == len(cells)


def enclosed(shape, outline) -> set:
    """The empty cells of ``outline`` that cannot reach, through empty outline cells, a cell
    outside the outline."""
    inside = set(outline)
    empty = inside - set(shape)
    reached = {c for c in empty if any(n not in inside for n in neighbours(c))}
    frontier = list(reached)
    while frontier:
        cell = frontier.pop()
        for n in neighbours(cell):
            if n in empty and n not in reached:
                reached.add(n)
                frontier.append(n)
    return empty - reached


def changed_board(cells, area: int, remove: int | None = None, add: int | None = None) -> dict:
    """The family of a board with cells removed or added so that the pieces' ``area`` fills
    it: ``outline``, ``required`` and ``exempt`` (holes of the board that may stay), for
    :func:`generate`. ``remove``/``add`` (K cells) must then match the area; with neither,
    K is the difference between the board's area and the pieces'."""
    cells = tuple(sorted(set(cells)))
    have = len(cells)
    if remove is not None and add is not None:
        raise PolyfitError("--remove and --add do not go together: give one")
    given = remove if remove is not None else add
    if given is not None and given < 1:
        raise PolyfitError(f"--{'remove' if remove is not None else 'add'} takes 1 or more cells, not {given}")
    if given is None:
        if area == have:
            raise PolyfitError(
                f"the pieces cover the board's {plural(have, 'cell')} exactly: polyfit solve counts "
                "its solutions; generate changes a board whose area differs from the pieces'"
            )
        remove, add = (have - area, None) if area < have else (None, area - have)
    wanted = have - remove if remove is not None else have + add
    if wanted != area:
        hint = f"--remove {have - area}" if area < have else f"--add {area - have}" if area > have else "neither"
        option = f"--remove {remove}" if remove is not None else f"--add {add}"
        raise PolyfitError(
            f"{option} makes {plural(wanted, 'cell')} from the board's {have}, but the pieces cover "
            f"{plural(area, 'cell')}: the shape must have the pieces' area (use {hint}, or other pieces)"
        )
    if remove is not None:
        if remove >= have:
            raise PolyfitError(f"--remove {remove}: the board has only {plural(have, 'cell')}")
        return {"outline": cells, "required": (), "exempt": (), "base": cells}
    dim = len(cells[0])
    ranges = [range(min(c[k] for c in cells) - 1, max(c[k] for c in cells) + 2) for k in range(dim)]
    box = tuple(product(*ranges))
    return {"outline": box, "required": cells, "exempt": tuple(sorted(enclosed(cells, box))), "base": cells}


class Family:
    """The shapes of one area inside an outline: connected, keeping the ``required`` cells,
    without holes (but the ``exempt`` cells) unless ``holes``, standing when ``flat``, and
    symmetric under one map of ``base`` (default: the outline) when ``symmetric``."""

    def __init__(self, outline, area: int, symmetric: str | None, rng: random.Random, *,
                 required=(), holes: bool = False, flat: bool = False, exempt=(), base=None):
        self.outline = tuple(sorted(set(outline)))
        self.inside = frozenset(self.outline)
        self.area = area
        self.rng = rng
        self.symmetric = symmetric
        self.required = frozenset(required)
        self.holes = holes
        self.flat = flat
        self.exempt = frozenset(exempt)
        if flat and len(self.outline[0]) != 3:
            raise PolyfitError("--flat is for 3D figures (they stand on their lowest layer)")
        if not self.required <= self.inside:
            raise PolyfitError("the required cells are not all inside the outline")
        self.maps = [None]
        if symmetric is not None:
            if symmetric not in SYMMETRIES:
                raise PolyfitError(f"--symmetric takes {', '.join(SYMMETRIES)}, not {symmetric!r}")
            wanted = {"mirror": lambda s: not s.is_proper, "rotation": lambda s: s.is_proper,
                      "any": lambda s: True}[symmetric]
            shape = self.outline if base is None else base
            self.maps = [s for s in board_symmetries(shape) if not s.is_identity and wanted(s)]
            if not self.maps:
                what = "outline" if base is None else "board"
                raise PolyfitError(f"the {what} has no {symmetric} symmetry (--symmetric {symmetric})")
        self.choose_symmetry()

    def choose_symmetry(self) -> None:
        """Pick the map the next shapes keep (one at random from the outline's), and its orbits."""
        sym = self.rng.choice(self.maps) if len(self.maps) > 1 else self.maps[0]
        self.orbit_of: dict = {}
        for cell in self.outline:
            if cell in self.orbit_of:
                continue
            orbit = {cell}
            if sym is not None:
                image = sym(cell)
                while image != cell:
                    orbit.add(image)
                    image = sym(image)
            frozen = tuple(sorted(orbit))
            for c in frozen:
                self.orbit_of[c] = frozen
        self.orbits = sorted(set(self.orbit_of.values()))
        self.free = [o for o in self.orbits if not self.required.intersection(o)]

    def touches_outside(self, cell, shape) -> bool:
        return any(n not in self.inside or n not in shape for n in neighbours(cell))

    def removable(self, shape) -> list:
        """The orbits of ``shape`` that may go: on its boundary (any, with ``holes``), never
        a required one."""
        return [o for o in self.free
                if o[0] in shape and (self.holes or self.touches_outside(o[0], shape))]

    def has_holes(self, shape) -> bool:
        """Is an empty outline cell (not an exempt one) cut off from the outside?"""
        return bool(enclosed(shape, self.inside) - self.exempt)

    def allowed(self, shape) -> bool:
        return (len(shape) == self.area and self.required <= shape and is_connected(shape)
                and (self.holes or not self.has_holes(shape)) and (not self.flat or stands(shape)))

    def carve(self) -> frozenset | None:
        """A random shape of the family: the outline, with random orbits that may go removed
        while the rest stays connected (and standing); None when the area cannot be met."""
        shape = set(self.outline)
        standing = self.flat and stands(shape)
        while len(shape) > self.area:
            excess = len(shape) - self.area
            choices = [o for o in self.removable(shape) if len(o) <= excess]
            self.rng.shuffle(choices)
            for orbit in choices[:TRIES]:
                rest = shape.difference(orbit)
                if rest and is_connected(rest) and (not standing or stands(rest)):
                    shape = rest
                    break
            else:
                return None
        shape = frozenset(shape)
        return shape if self.allowed(shape) else None

    def move(self, shape: frozenset) -> frozenset | None:
        """One boundary orbit moved to another place, the family's rules kept; None if no
        random pick worked."""
        inner = self.removable(shape)
        if not inner:
            return None
        for _ in range(TRIES):
            leave = self.rng.choice(inner)
            rest = shape.difference(leave)
            outer = sorted({self.orbit_of[n] for c in rest for n in neighbours(c)
                            if n in self.inside and n not in rest and self.orbit_of[n] != leave
                            and len(self.orbit_of[n]) == len(leave)})
            if not outer:
                continue
            candidate = rest.union(self.rng.choice(outer))
            if self.allowed(candidate):
                return candidate
        return None


def count_capped(puzzle: Puzzle, backend, cap: int) -> tuple[int, tuple | None, dict | None]:
    """The distinct solutions, counting no further than ``cap + 1``; the first one's
    placements (None when there is none); and the difficulty, from the nodes to the first
    solution the search met, as :mod:`polyfit.puzzle.check` measures it."""
    if puzzle.impossible:
        return 0, None, None
    counts = Counts()
    first = None
    hard = None
    search = puzzle.search(backend, counts)
    try:
        for found in search:
            if hard is None:
                hard = difficulty(counts.search.nodes, len(found.placements) - len(puzzle.cover.fixed))
            if found.canonical:
                if first is None:
                    first = found.placements
                if counts.distinct > cap:
                    break
    finally:
        search.close()
    return counts.distinct, first, hard


def generate(
    pieces,
    outline,
    backend_for: Callable,
    target: tuple[int, int] = (1, 1),
    count: int | None = 1,
    seed: int = 0,
    symmetric: str | None = None,
    known=(),
    metadata: dict | None = None,
    deadline: float | None = None,
    tally: Tally | None = None,
    *,
    required=(),
    exempt=(),
    base=None,
    holes: bool = False,
    flat: bool = False,
    min_difficulty: float | None = None,
    jobs: int = 1,
    worker_setup: Callable | None = None,
) -> Iterator[Generated]:
    """Up to ``count`` (None: no end) boards inside ``outline`` (cells) that the ``pieces``
    fill in ``target`` = (lo, hi) distinct ways (see the module's docstring), as an iterator;
    its ``close()`` stops the search (and any worker processes).

    ``backend_for(problem)`` gives the backend to count with; ``known``: cell sets (boards
    already found) not to yield again, up to congruence; ``metadata``: ``; key: value`` lines
    for the boards (``solutions`` and ``difficulty`` lines are added); ``deadline``: a
    :func:`time.monotonic` time to stop at; ``required``, ``exempt``, ``base``, ``holes``,
    ``flat``: the family (see :class:`Family` and :func:`changed_board`); ``min_difficulty``:
    the least difficulty score a board may have; ``jobs``: worker processes (they start
    before this returns), each of which calls ``worker_setup(parent_pid)`` first."""
    pieces = list(pieces)
    if not pieces:
        raise PolyfitError("no pieces given")
    if any(p.count[0] != p.count[1] for p in pieces):
        raise PolyfitError("polyfit generate needs a fixed number of each piece (no ranges such as 0..1*NAME)")
    area = sum(p.size * p.count[0] for p in pieces)
    outline = tuple(sorted(set(outline)))
    dim = len(outline[0])
    check_fit(pieces, dim, "", "the outline")
    if area > len(outline):
        raise PolyfitError(
            f"the pieces cover {plural(area, 'cell')} but the outline has only {len(outline)}"
        )
    check_processes(jobs)
    tally = tally if tally is not None else Tally()
    family = dict(required=required, exempt=exempt, base=base, holes=holes, flat=flat)
    Family(outline, area, symmetric, random.Random(seed), **family)  # bad options fail here
    search = dict(pieces=pieces, outline=outline, area=area, backend_for=backend_for, target=target,
                  symmetric=symmetric, metadata=dict(metadata or {}), deadline=deadline,
                  family=family, min_difficulty=min_difficulty)
    mirror = reflections_allowed(pieces)
    seen = {congruence_key(cells, mirror) for cells in known}
    if jobs == 1:
        return _search(search, count, seed, seen, mirror, tally)
    return ParallelBoards(search, count, seed, seen, mirror, tally, jobs, worker_setup)


def _search(search: dict, count: int | None, seed, seen: set, mirror: bool, tally: Tally) -> Iterator[Generated]:
    pieces, metadata, deadline = search["pieces"], search["metadata"], search["deadline"]
    backend_for, min_difficulty = search["backend_for"], search["min_difficulty"]
    lo, hi = search["target"]
    start = time.monotonic()
    rng = random.Random(seed)
    family = Family(search["outline"], search["area"], search["symmetric"], rng, **search["family"])
    cap = hi + CAP
    memo: dict = {}  # congruence key -> (distinct, solution, difficulty): congruent shapes count alike

    def evaluate(shape):
        key = congruence_key(shape, mirror)
        if key in memo:
            return key, memo[key]
        board = Board(tuple(sorted(shape)), "", metadata)
        puzzle = Puzzle(board, pieces)
        n, first, hard = count_capped(puzzle, backend_for(puzzle.cover.problem), cap)
        solution = None
        if first is not None:
            solution = {}
            for name, index in zip(puzzle.labels(first), first):
                solution[name] = tuple(sorted(puzzle.placements[index].cells))
        memo[key] = (n, solution, hard)
        tally.counted(bool(puzzle.impossible))
        return key, memo[key]

    def distance(n, hard):
        """How far a shape is from the target: its count, then its difficulty."""
        if n < lo or n > hi:
            return (lo - n if n < lo else n - hi, 0.0)
        if min_difficulty is None:
            return (0, 0.0)
        return (0, max(0.0, min_difficulty - (hard["score"] if hard else 0.0)))

    failures = fruitless = 0
    while count is None or tally.found < count:
        tally.seconds = time.monotonic() - start
        if deadline is not None and time.monotonic() >= deadline:
            tally.stopped = "time"
            return
        if fruitless >= GIVE_UP:
            tally.stopped = "exhausted"
            return
        tally.starts += 1
        fruitless += 1
        if family.symmetric is not None:
            family.choose_symmetry()
        shape = family.carve()
        if shape is None:
            failures += 1
            if failures > 1000:
                raise PolyfitError("no shape of the family could be made (is the outline too small or cut in parts?)")
            continue
        key, (n, solution, hard) = evaluate(shape)
        stale = 0
        while stale < PATIENCE and distance(n, hard) != (0, 0.0):
            if deadline is not None and time.monotonic() >= deadline:
                break
            candidate = family.move(shape)
            if candidate is None:
                break
            new_key, (m, new_solution, new_hard) = evaluate(candidate)
            before, after = distance(n, hard), distance(m, new_hard)
            stale = 0 if after < before else stale + 1
            if after <= before:
                shape, key, n, solution, hard = candidate, new_key, m, new_solution, new_hard
        if distance(n, hard) == (0, 0.0) and key not in seen:
            seen.add(key)
            fruitless = 0
            tally.found += 1
            tally.seconds = time.monotonic() - start
            lines = {**metadata, "solutions": str(n)}
            if hard is not None:
                lines["difficulty"] = f"{hard['score']:.2f}"
            board = Board(tuple(sorted(shape)), "", lines)
            yield Generated(board, n, solution, tally.tried, hard)


def worker_seed(seed, k: int):
    """Worker ``k``'s seed: worker 0 runs the ``jobs=1`` search itself."""
    return seed if k == 0 else f"{seed}/{k}"


class ParallelBoards:
    """The boards of ``jobs`` worker processes, each running :func:`_search` from its own
    seed, as they arrive; none congruent to one kept before. ``close()`` (also at the end, or
    on an error or Ctrl-C in the parent) stops the workers."""

    def __init__(self, search, count, seed, seen, mirror, tally: Tally, jobs: int, setup):
        self.count, self.seen, self.mirror, self.tally = count, seen, mirror, tally
        self.deadline = search["deadline"]
        self.start = time.monotonic()
        forking = "fork" in multiprocessing.get_all_start_methods()
        context = multiprocessing.get_context("fork" if forking else "spawn")
        self.queue = context.Queue()
        self.tallies = {k: (0, 0, 0) for k in range(jobs)}
        self.running = set(range(jobs))
        self.workers = [
            context.Process(target=_worker, args=(k, search, worker_seed(seed, k), list(seen), mirror,
                                                  self.queue, os.getpid(), setup),
                            name=f"polyfit-generate-{k}", daemon=True)
            for k in range(jobs)
        ]
        for worker in self.workers:
            worker.start()

    def __iter__(self):
        return self

    def __next__(self) -> Generated:
        try:
            return self._next()
        except BaseException:
            self.close()
            raise

    def _next(self) -> Generated:
        tally = self.tally
        while self.count is None or tally.found < self.count:
            tally.seconds = time.monotonic() - self.start
            if self.deadline is not None and time.monotonic() >= self.deadline:
                tally.stopped = "time"
                break
            if not self.running:
                tally.stopped = "exhausted"
                break
            try:
                kind, k, data, counted = self.queue.get(timeout=0.1)
            except queues.Empty:
                continue
            self.tallies[k] = counted
            tally.tried, tally.rejected, tally.starts = (sum(t[i] for t in self.tallies.values()) for i in range(3))
            if kind == "error":
                raise PolyfitError(data)
            if kind == "done":
                self.running.discard(k)
                continue
            if kind == "found":
                key = congruence_key(data.board.cells, self.mirror)
                if key in self.seen:
                    continue
                self.seen.add(key)
                tally.found += 1
                data.tried = tally.tried
                return data
        self.close()
        raise StopIteration

    def close(self) -> None:
        workers, self.workers = self.workers, []
        for worker in workers:
            if worker.is_alive():
                worker.terminate()
        for worker in workers:
            worker.join()
        if workers:
            self.queue.close()


def _worker(k, search, seed, seen, mirror, queue, parent, setup) -> None:
    # Ctrl-C reaches the whole process group: the parent stops the workers, they stay quiet.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if setup is not None:
        setup(parent)
    tally = Tally()
    last = [time.monotonic()]

    def numbers(t):
        return (t.tried, t.rejected, t.starts)

    def report(t):
        now = time.monotonic()
        if now - last[0] >= REPORT_EVERY:
            last[0] = now
            queue.put(("tally", k, None, numbers(t)))

    tally.listener = report
    try:
        for found in _search(search, None, seed, set(seen), mirror, tally):
            queue.put(("found", k, found, numbers(tally)))
    except PolyfitError as exc:
        queue.put(("error", k, str(exc), numbers(tally)))
    except Exception as exc:  # a bug: tell the parent rather than die silently
        queue.put(("error", k, f"generate worker {k} failed: {exc!r}", numbers(tally)))
    else:
        queue.put(("done", k, None, numbers(tally)))
