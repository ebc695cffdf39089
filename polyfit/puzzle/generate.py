"""The generator: new boards with exactly the number of distinct solutions a designer wants.

A *family* of shapes is every set of cells inside an outline (a board, or a box ``8x8`` /
``3x3x4``) with exactly the pieces' total area, connected (edge-connected in 2D, face-connected
in 3D) and without holes: every empty cell of the outline joins, through empty outline cells, a
cell outside the outline (the same rule in 2D and 3D, so a 3D figure has no closed cavity).
With ``symmetric`` the shapes are also mapped onto themselves by one symmetry of the outline
(a reflection for ``"mirror"``, a rotation for ``"rotation"``, either for ``"any"``): cells are
taken and given up in whole orbits of that symmetry.

The search, reproducible from ``seed``:

1. a random shape of the family is carved from the full outline, removing random orbits that
   touch the outside (so no hole can form) while the rest stays connected;
2. it is counted as ``polyfit solve --count`` counts (distinct up to the puzzle's symmetries),
   after the cheap rejections the puzzle makes when it is built (area and parity arguments,
   pieces that fit nowhere: :attr:`Puzzle.impossible`), and the count stops as soon as it
   passes :data:`CAP` solutions above the target's high end;
3. it is improved: one orbit on the boundary moves to another place where the shape keeps the
   family's rules; the move is kept when the count is no farther from the target, and after
   :data:`PATIENCE` moves that bring it no closer the search starts again from step 1.

A shape whose count is in the target range, and is not congruent (rotated, or reflected when
the piece set is closed under reflection) to one found before or given in ``known``, is
yielded. Nothing is printed and no file is written here: :mod:`polyfit.commands.generate`
does that.
"""

from __future__ import annotations

import random
import re
import time
from dataclasses import dataclass, field
from typing import Callable, Iterator

from polyfit.errors import PolyfitError, plural
from polyfit.lattices.grid import canonical, is_connected, lattice_group, neighbours
from polyfit.puzzle.board import Board
from polyfit.puzzle.solve import Counts, Puzzle
from polyfit.puzzle.symmetry import board_symmetries, puzzle_symmetries

CAP = 4  # a count stops this many distinct solutions past the target's high end
PATIENCE = 40  # moves without getting closer to the target before a fresh start
TRIES = 60  # random picks for one move or one carving step before giving up on it
SYMMETRIES = ("mirror", "rotation", "any")


@dataclass
class Generated:
    """A board found: its count and one solution (piece name -> cells), for drawing."""

    board: Board
    solutions: int
    solution: dict
    tried: int  # shapes counted before it was found (all boards so far)


@dataclass
class Tally:
    """What the search did so far; updated as it goes (for a progress line)."""

    tried: int = 0  # shapes counted
    rejected: int = 0  # shapes ruled out before any search
    starts: int = 0  # fresh random shapes
    found: int = 0
    seconds: float = 0.0
    stopped: str | None = None  # "time" when the budget ran out


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


class Family:
    """The shapes of one area inside an outline, connected and without holes, symmetric under
    one map of the outline (or none)."""

    def __init__(self, outline, area: int, symmetric: str | None, rng: random.Random):
        self.outline = tuple(sorted(set(outline)))
        self.inside = frozenset(self.outline)
        self.area = area
        self.rng = rng
        self.symmetric = symmetric
        self.maps = [None]
        if symmetric is not None:
            if symmetric not in SYMMETRIES:
                raise PolyfitError(f"--symmetric takes {', '.join(SYMMETRIES)}, not {symmetric!r}")
            wanted = {"mirror": lambda s: not s.is_proper, "rotation": lambda s: s.is_proper,
                      "any": lambda s: True}[symmetric]
            self.maps = [s for s in board_symmetries(self.outline) if not s.is_identity and wanted(s)]
            if not self.maps:
                raise PolyfitError(f"the outline has no {symmetric} symmetry (--symmetric {symmetric})")
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

    def touches_outside(self, cell, shape) -> bool:
        return any(n not in self.inside or n not in shape for n in neighbours(cell))

    def holes(self, shape) -> bool:
        """Is an empty outline cell cut off from the outside of the outline?"""
        empty = self.inside - shape
        reached = {c for c in empty if any(n not in self.inside for n in neighbours(c))}
        frontier = list(reached)
        while frontier:
            cell = frontier.pop()
            for n in neighbours(cell):
                if n in empty and n not in reached:
                    reached.add(n)
                    frontier.append(n)
        return len(reached) != len(empty)

    def allowed(self, shape) -> bool:
        return len(shape) == self.area and is_connected(shape) and not self.holes(shape)

    def carve(self) -> frozenset | None:
        """A random shape of the family: the outline, with random orbits that touch the outside
        removed while the rest stays connected; None when the area cannot be met."""
        shape = set(self.outline)
        while len(shape) > self.area:
            excess = len(shape) - self.area
            choices = [o for o in self.orbits
                       if len(o) <= excess and o[0] in shape and self.touches_outside(o[0], shape)]
            self.rng.shuffle(choices)
            for orbit in choices[:TRIES]:
                rest = shape.difference(orbit)
                if rest and is_connected(rest):
                    shape = rest
                    break
            else:
                return None
        shape = frozenset(shape)
        return shape if self.allowed(shape) else None

    def move(self, shape: frozenset) -> frozenset | None:
        """One boundary orbit moved to another place, the family's rules kept; None if no
        random pick worked."""
        inner = [o for o in self.orbits if o[0] in shape and self.touches_outside(o[0], shape)]
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


def count_capped(puzzle: Puzzle, backend, cap: int) -> tuple[int, tuple | None]:
    """The distinct solutions, counting no further than ``cap + 1``; and the first one's
    placements (None when there is none)."""
    if puzzle.impossible:
        return 0, None
    counts = Counts()
    first = None
    search = puzzle.search(backend, counts)
    try:
        for found in search:
            if found.canonical:
                if first is None:
                    first = found.placements
                if counts.distinct > cap:
                    break
    finally:
        search.close()
    return counts.distinct, first


def generate(
    pieces,
    outline,
    backend_for: Callable,
    target: tuple[int, int] = (1, 1),
    count: int = 1,
    seed: int = 0,
    symmetric: str | None = None,
    known=(),
    metadata: dict | None = None,
    deadline: float | None = None,
    tally: Tally | None = None,
) -> Iterator[Generated]:
    """Yield up to ``count`` boards inside ``outline`` (cells) that the ``pieces`` fill in
    ``target`` = (lo, hi) distinct ways (see the module's docstring). ``backend_for(problem)``
    gives the backend to count with; ``known``: cell sets (boards already found) not to yield
    again, up to congruence; ``metadata``: ``; key: value`` lines for the boards (a
    ``solutions`` line is added); ``deadline``: a :func:`time.monotonic` time to stop at."""
    pieces = list(pieces)
    if not pieces:
        raise PolyfitError("no pieces given")
    if any(p.count[0] != p.count[1] for p in pieces):
        raise PolyfitError("polyfit generate needs a fixed number of each piece (no ranges such as 0..1*NAME)")
    lo, hi = target
    area = sum(p.size * p.count[0] for p in pieces)
    outline = tuple(sorted(set(outline)))
    dim = len(outline[0])
    if {len(p.cells[0]) for p in pieces} != {dim}:
        raise PolyfitError(f"the outline is {dim}D but the pieces are not")
    if area > len(outline):
        raise PolyfitError(
            f"the pieces cover {plural(area, 'cell')} but the outline has only {len(outline)}"
        )
    tally = tally if tally is not None else Tally()
    start = time.monotonic()
    rng = random.Random(seed)
    mirror = reflections_allowed(pieces)
    seen = {congruence_key(cells, mirror) for cells in known}
    family = Family(outline, area, symmetric, rng)
    cap = hi + CAP
    memo: dict = {}  # congruence key -> (distinct, solution): congruent shapes count alike
    metadata = dict(metadata or {})

    def evaluate(shape):
        key = congruence_key(shape, mirror)
        if key in memo:
            return key, memo[key]
        tally.tried += 1
        board = Board(tuple(sorted(shape)), "", metadata)
        puzzle = Puzzle(board, pieces)
        if puzzle.impossible:
            tally.rejected += 1
        n, first = count_capped(puzzle, backend_for(puzzle.cover.problem), cap)
        solution = None
        if first is not None:
            solution = {}
            for name, index in zip(puzzle.labels(first), first):
                solution[name] = tuple(sorted(puzzle.placements[index].cells))
        memo[key] = (n, solution)
        return key, memo[key]

    def distance(n):
        return lo - n if n < lo else max(0, n - hi)

    failures = 0
    while tally.found < count:
        tally.seconds = time.monotonic() - start
        if deadline is not None and time.monotonic() >= deadline:
            tally.stopped = "time"
            return
        tally.starts += 1
        if family.symmetric is not None:
            family.choose_symmetry()
        shape = family.carve()
        if shape is None:
            failures += 1
            if failures > 1000:
                raise PolyfitError("no shape of the family could be made (is the outline too small or cut in parts?)")
            continue
        key, (n, solution) = evaluate(shape)
        stale = 0
        while stale < PATIENCE and not lo <= n <= hi:
            if deadline is not None and time.monotonic() >= deadline:
                break
            candidate = family.move(shape)
            if candidate is None:
                break
            new_key, (m, new_solution) = evaluate(candidate)
            if distance(m) < distance(n):
                stale = 0
            else:
                stale += 1
            if distance(m) <= distance(n):
                shape, key, n, solution = candidate, new_key, m, new_solution
        if lo <= n <= hi and key not in seen:
            seen.add(key)
            tally.found += 1
            tally.seconds = time.monotonic() - start
            board = Board(tuple(sorted(shape)), "", {**metadata, "solutions": str(n)})
            yield Generated(board, n, solution, tally.tried)
