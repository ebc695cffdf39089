"""Designing interlocking puzzles: cut a box into pieces that come apart at a high level.

A local search in the spirit of Chen, Wang, Song and Bickel ("Computational Design of
High-level Interlocking Puzzles", SIGGRAPH 2022), on polyfit's own disassembly and counting:

1. **split**: the box, less ``holes`` cells drawn at random, is cut into ``k`` connected
   pieces grown together from random seeds;
2. **change**: one cell at a time changes hands: a piece gives a border cell to the piece
   beside it, or takes the place of a hole beside it (the hole moves: a move needs room, and
   in a box with no holes a set that can slide at all slides straight out, level 1);
3. **keep what raises the level**: a change is scored on the assembly as cut
   (:meth:`Climb.score`: BurrTools' level, then the exact ruler's, then how few separations it
   finds that near, then the states met) and kept when it scores no lower, a lower one now and
   then (annealing); a climb keeps its best designs (a beam) and, when it stops rising, goes
   back to one of them;
4. **check** a design that reaches ``min_level``: every assembly of the pieces into the shape is
   counted (:meth:`polyfit.Puzzle.count` with ``disassemble=True``, read back from the BurrTools
   file it is written as); it is kept when exactly one assembly comes apart, at ``min_level``
   or more, and there are at most ``max_assemblies`` in all.

A climb that has gone back often enough gives way to a fresh one; climb ``n`` draws its random
numbers from ``(seed, n)`` and designs come out in the order of their climbs, so a seed gives
the same puzzles for any number of jobs."""

from __future__ import annotations

import itertools
import random
import time
from dataclasses import dataclass

from polyfit.errors import PolyfitError

FACES = ((1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1))
PATIENCE = 1000  # changes without a rise in the level before a climb goes back to a kept design
KICKS = 8  # how many times a climb goes back before it gives up
BEAM = 8  # the best designs a climb keeps to go back to
FORGET = 20_000  # scores kept before a climb forgets them (when it goes back to a kept design)
MIN_CELLS = 4  # the smallest piece


FORMATS = ("xmpuzzle", "vox")


@dataclass
class Design:
    """A puzzle found: ``pieces`` (cells each, where the assembly has them), the ``holes``,
    its ``level`` (BurrTools' text, of its one assembly that comes apart), ``moves`` (in all),
    ``assemblies`` (distinct, in all) and the ``climb`` that found it."""

    pieces: list
    holes: list
    level: str
    moves: int
    assemblies: int
    climb: int

    def summary(self) -> str:
        from polyfit.errors import plural

        return (f"level {self.level} ({plural(self.moves, 'move')}), "
                f"{plural(self.assemblies, 'assembly', 'assemblies')}, {plural(len(self.holes), 'hole')}")

    def write(self, path, file_format: str = "xmpuzzle", force: bool = False, note: str = "") -> list:
        """Write the puzzle to ``path``; the files written. ``xmpuzzle``: BurrTools' file, which
        polyfit reads too, with the pieces, the shape and the one assembly, the level in its
        comment; ``vox``: polyfit's voxel text of the shape (``; interlocking:`` says the
        level) and its pieces in ``NAME.pieces.vox`` beside it (BurrTools does not read these).
        ``note`` is added to the level. Nothing is overwritten without ``force``."""
        from pathlib import Path

        path = Path(path)
        comment = self.summary() + (f"; {note}" if note else "")
        if file_format == "xmpuzzle":
            from polyfit.files import write_output_text

            write_output_text(path, xmpuzzle_text(self.pieces, self.holes, None, path.stem, comment), force)
            return [path]
        if file_format == "vox":
            from polyfit.formats.interchange import Source, write_board
            from polyfit.puzzle.board import Board

            shape = tuple(sorted(c for p in self.pieces for c in p))
            board = Board(shape, path.stem, {"interlocking": comment})
            return write_board(Source(board, _named_pieces(self.pieces), None, []), path, "voxel-text", force)
        from polyfit.errors import UnknownNameError

        raise UnknownNameError("format", file_format, FORMATS)


def _named_pieces(pieces) -> list:
    """The pieces A, B, ... as polyfit pieces (not turned over: BurrTools' default)."""
    from polyfit.puzzle.pieces import Piece

    return [Piece(chr(ord("A") + k), tuple(sorted(p)), mirror=False) for k, p in enumerate(pieces)]


@dataclass
class Tally:
    """What the search did so far (for a progress line)."""

    climbs: int = 0
    tried: int = 0  # designs taken apart
    checked: int = 0  # designs whose assemblies were counted
    best: str = "-"  # the highest level met in a climb (assembly as cut)

    def add(self, other: "Tally") -> None:
        self.climbs += other.climbs
        self.tried += other.tried
        self.checked += other.checked
        if _level_key(other.best) > _level_key(self.best):
            self.best = other.best


def _level_key(level: str):
    if level in ("-", None, "unknown"):
        return ()
    return tuple(int(n) for n in level.split("."))


def _neighbours(cell):
    return [tuple(c + d for c, d in zip(cell, step)) for step in FACES]


def connected(cells) -> bool:
    cells = set(cells)
    if not cells:
        return False
    todo = [next(iter(cells))]
    seen = {todo[0]}
    while todo:
        for n in _neighbours(todo.pop()):
            if n in cells and n not in seen:
                seen.add(n)
                todo.append(n)
    return len(seen) == len(cells)


def split(cells, k: int, rng: random.Random) -> dict | None:
    """``{cell: piece}``: ``cells`` cut into ``k`` connected pieces grown from random seeds,
    the smallest piece growing first; None when some piece is smaller than :data:`MIN_CELLS`."""
    cells = sorted(cells)
    inside = set(cells)
    owner = {}
    sizes = [0] * k
    for piece, cell in enumerate(rng.sample(cells, k)):
        owner[cell] = piece
        sizes[piece] = 1
    while len(owner) < len(cells):
        frontier = {}
        for cell, piece in owner.items():
            for n in _neighbours(cell):
                if n in inside and n not in owner:
                    frontier.setdefault(piece, []).append(n)
        if not frontier:
            return None  # the shape is not connected
        piece = min(frontier, key=lambda p: (sizes[p], rng.random()))
        cell = rng.choice(sorted(frontier[piece]))
        owner[cell] = piece
        sizes[piece] += 1
    return owner if min(sizes) >= MIN_CELLS else None


class Climb:
    """One climb from a fresh split (see the module). A design is ``owner``: a tuple giving, for
    each cell of the outline (in sorted order), its piece, or -1 for a hole; the cells' faces are
    looked up in a table made once, so a change costs a few steps, not a pass over the box."""

    def __init__(self, outline, cells, holes, k, rng, taker):
        self.coords = sorted(outline)
        self.index = {c: i for i, c in enumerate(self.coords)}
        self.faces = [tuple(self.index[n] for n in _neighbours(c) if n in self.index) for c in self.coords]
        self.cells, self.holes, self.k, self.rng, self.taker = cells, holes, k, rng, taker
        self.tried = 0
        self._scores = {}  # owner -> score: a climb walks back over designs it has scored

    def pieces(self, owner) -> list:
        pieces = [[] for _ in range(self.k)]
        for cell, piece in zip(self.coords, owner):
            if piece >= 0:
                pieces[piece].append(cell)
        return pieces

    def owner_of(self, owned: dict) -> tuple:
        return tuple(owned.get(c, -1) for c in self.coords)

    def score(self, owner):
        """``(rank, level, key pieces)`` of the assembly as cut, None when it does not come
        apart or a cap was reached: ``rank`` is BurrTools' level (its first number: the moves
        to the first separation, where its plan takes every part apart), then the exact ruler's
        level, then (less is better) how many separations that ruler finds that near, then the
        states met. The key pieces are the first separation's smaller side. Scores are kept,
        so a design met again costs nothing."""
        known = self._scores.get(owner, False)
        if known is not False:
            return known
        self.tried += 1
        self._scores[owner] = found = self._score(self.pieces(owner))
        return found

    def _score(self, pieces):
        from polyfit.motion.exact import nearest_separations

        # BurrTools' plan first: it is the cheaper ruler, and a design it cannot take apart is dropped
        result = self.taker.disassemble(pieces)
        if result.status == "unknown" or not result.separates:
            return None
        found = nearest_separations(self.taker, pieces)
        if found is None or not found[0]:
            return None
        level, separations, states = found
        first = len(result.tree.steps)
        return (first, level, -len(separations), states), result.level, frozenset(result.tree.steps[-1].pieces)

    def forget(self) -> None:
        """Drop the scores kept and the shapes the disassembler knows (a long climb meets
        hundreds of thousands of designs, and their pieces' shapes, which would fill memory)."""
        from polyfit.motion import Disassembler

        taker = self.taker
        self._scores.clear()
        self.taker = Disassembler(taker.directions, taker.engine, taker.max_states, taker.max_bytes)

    def change(self, owner) -> tuple | None:
        """A copy of ``owner`` with one cell on a border handed over: from a piece to the piece
        beside it, or swapped with a hole beside it (the hole moves; holes are owned by -1);
        None when a piece would come apart or be too small."""
        rng, faces = self.rng, self.faces
        for _ in range(64):
            cell = rng.randrange(len(owner))
            piece = owner[cell]
            if piece < 0:
                continue
            beside = rng.choice(faces[cell])
            other = owner[beside]
            if other != piece:
                break
        else:
            return None
        changed = list(owner)
        if other < 0:  # the piece moves into the hole, leaving one behind
            changed[beside], changed[cell] = piece, -1
        else:
            changed[cell] = other
        left = [i for i, p in enumerate(changed) if p == piece]
        if len(left) < MIN_CELLS or not self._connected(changed, left):
            return None
        return tuple(changed)

    def _connected(self, owner, cells) -> bool:
        piece = owner[cells[0]]
        todo, seen = [cells[0]], {cells[0]}
        faces = self.faces
        while todo:
            for n in faces[todo.pop()]:
                if n not in seen and owner[n] == piece:
                    seen.add(n)
                    todo.append(n)
        return len(seen) == len(cells)

    @staticmethod
    def chance(worse, now) -> float:
        """The chance to keep a change that lowers the rank (annealing at a fixed temperature:
        a step down in BurrTools' level is kept seldom, one in the states met often)."""
        for weight, a, b in zip((4, 2, 1), now, worse):
            if a != b:
                return 2.0 ** (-weight * (a - b))
        return 0.5

    def start(self):
        """A fresh split that comes apart: ``(owner, score)``, or None after 50 tries."""
        for _ in range(50):
            owned = split(self.cells, self.k, self.rng)
            if owned is not None:
                owner = self.owner_of(owned)
                scored = self.score(owner)
                if scored is not None and scored[1] is not None:
                    return owner, scored
        return None

    def run(self, patience=PATIENCE, kicks=KICKS, beam=BEAM, deadline=None):
        """Yields each better design as ``(owner, score)``. The ``beam`` best designs met are
        kept; when ``patience`` changes in a row bring no rise, the climb goes back to one of
        them (drawn at random) and goes on from there, ``kicks`` times before it gives up; it
        stops at ``deadline`` (``time.monotonic()``)."""
        begun = self.start()
        if begun is None:
            return
        owner, scored = begun
        yield owner, scored
        kept = [(scored[0], owner)]
        best = scored[0]
        for _ in range(kicks + 1):
            since = 0
            while since <= patience:
                if deadline is not None and time.monotonic() > deadline:
                    return
                changed = self.change(owner)
                if changed is None:
                    since += 1
                    continue
                found = self.score(changed)
                since += 1
                if found is None or (found[0] < scored[0] and self.rng.random() >= self.chance(found[0], scored[0])):
                    continue
                if found[0] > best:
                    since, best = 0, found[0]
                    yield changed, found
                owner, scored = changed, found
                if len(kept) < beam or found[0] > kept[-1][0]:
                    if all(o != changed for _, o in kept):
                        kept.append((found[0], changed))
                        kept.sort(key=lambda e: e[0], reverse=True)
                        del kept[beam:]
            if len(self._scores) > FORGET:
                self.forget()
            _, owner = self.rng.choice(kept)
            scored = self.score(owner)


def shape_of(outline, holes: int, rng: random.Random):
    """The outline less ``holes`` cells drawn at random, keeping it connected."""
    cells = sorted(outline)
    if holes < 0 or holes >= len(cells):
        raise PolyfitError(f"--holes {holes}: the shape has {len(cells)} cells")
    for _ in range(1000):
        gone = set(rng.sample(cells, holes))
        left = [c for c in cells if c not in gone]
        if connected(left):
            return left, sorted(gone)
    raise PolyfitError(f"could not leave {holes} holes in the shape and keep it in one piece")


def check(pieces, holes, outline, name: str = "interlocking"):
    """Count the assemblies of ``pieces`` into their shape, as BurrTools would from the file
    :func:`xmpuzzle_text` writes: ``(assemblies, disassemblable, levels, moves of the one)``."""
    from polyfit.api import Puzzle
    from polyfit.formats.burrtools import parse_puzzle, problem_board
    from polyfit.longsearch import disassembly

    text = xmpuzzle_text(pieces, holes, outline, name)
    board, _ = problem_board(parse_puzzle(text.encode("utf-8")), 0)
    puzzle = Puzzle(board)
    counts, tally = disassembly.count(puzzle, puzzle.backend("auto"), 1)
    return counts.distinct, tally


def xmpuzzle_text(pieces, holes, outline, name: str = "interlocking", comment: str = "") -> str:
    """The BurrTools file of the puzzle: its pieces (A, B, ...), the shape (the outline less the
    holes) and the one assembly the pieces were cut as."""
    from polyfit.formats.burrtools import xmpuzzle_text as write
    from polyfit.puzzle.board import Board

    shape = sorted(c for p in pieces for c in p)
    chosen = _named_pieces(pieces)
    board = Board(tuple(shape), name)
    text = write(board, chosen, [{q.name: [list(c) for c in p] for q, p in zip(chosen, pieces)}], name)
    if comment:
        from xml.sax.saxutils import escape

        text = text.replace("  <comment/>", f"  <comment>{escape(comment)}</comment>")
    return text


def validate(outline, k: int, min_level: int, holes: int, max_assemblies: int) -> None:
    if k < 2:
        raise PolyfitError(f"--pieces-count {k}: an interlocking puzzle has two pieces or more")
    if min_level < 1:
        raise PolyfitError(f"--min-level {min_level}: a level is 1 or more")
    if max_assemblies < 1:
        raise PolyfitError(f"--max-assemblies {max_assemblies}: at least the one that comes apart")
    if len(outline[0]) != 3:
        raise PolyfitError("interlocking puzzles are made of cubes: give --within a box such as 5x5x5")
    if holes < 0 or len(outline) - holes < k * MIN_CELLS:
        raise PolyfitError(f"{len(outline)} cells less {holes} holes are too few for {k} pieces of "
                           f"{MIN_CELLS} cells or more")


def climb(outline, k: int, min_level: int, holes: int, max_assemblies: int, seed: int, number: int,
          deadline: float | None = None):
    """Climb number ``number``: ``(Design or None, Tally)``; it stops at ``deadline``."""
    from polyfit.lattices.base import get
    from polyfit.motion import Disassembler

    tally = Tally(climbs=1)
    rng = random.Random(f"{seed}:{number}")
    cells, gone = shape_of(outline, holes, rng)
    directions = get("cubic").motion_directions()
    climber = Climb(outline, cells, gone, k, rng, Disassembler(directions, "auto", max_states=200_000))
    found_design = None
    for owner, (rank, level, _) in climber.run(deadline=deadline):
        if _level_key(level) > _level_key(tally.best):
            tally.best = level
        if rank[0] < min_level:
            continue
        pieces = climber.pieces(owner)
        gone = [c for c, p in zip(climber.coords, owner) if p < 0]
        tally.checked += 1
        assemblies, found = check(pieces, gone, outline)
        if found.disassemblable != 1 or assemblies > max_assemblies:
            continue
        (level, _), = found.levels.items()
        if int(level.split(".")[0]) < min_level:
            continue
        taken = Disassembler(directions).disassemble(pieces)
        found_design = Design(pieces, gone, level, taken.total, assemblies, number)
        break
    tally.tried = climber.tried
    return found_design, tally


def _climb_task(args):
    return climb(*args)


def _setup(parent) -> None:
    import signal

    from polyfit.longsearch.workers import die_with

    # Ctrl-C reaches the whole process group: the parent stops the workers, they stay quiet.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    die_with(parent)


def search(outline, k: int, min_level: int, holes: int = 0, max_assemblies: int = 1, seed: int = 0,
           jobs: int = 1, climbs: int | None = None, tally: Tally | None = None, deadline: float | None = None):
    """Yields each :class:`Design` found (see the module), in the order of the climbs that found
    them (so the same for any ``jobs``), for ever unless ``climbs`` bounds them; ``tally`` hears
    the work as each climb ends; at ``deadline`` (``time.monotonic()``) the climbs stop."""
    validate(outline, k, min_level, holes, max_assemblies)
    tally = tally if tally is not None else Tally()
    numbers = itertools.count() if climbs is None else iter(range(climbs))
    if deadline is not None:
        numbers = itertools.takewhile(lambda _: time.monotonic() < deadline, numbers)
    if jobs <= 1:
        for number in numbers:
            design, done = climb(outline, k, min_level, holes, max_assemblies, seed, number, deadline)
            tally.add(done)
            if design is not None:
                yield design
        return
    import multiprocessing
    import os

    context = multiprocessing.get_context("fork" if hasattr(os, "fork") else "spawn")
    pool = context.Pool(jobs, _setup, (os.getpid(),))
    try:
        pending = []
        while True:
            while len(pending) < 2 * jobs:
                number = next(numbers, None)
                if number is None:
                    break
                pending.append(pool.apply_async(_climb_task, ((outline, k, min_level, holes, max_assemblies, seed, number, deadline),)))
            if not pending:
                return
            design, done = pending.pop(0).get()
            tally.add(done)
            if design is not None:
                yield design
    finally:
        pool.terminate()
        pool.join()


def generate_interlocking(within, pieces: int, min_level: int, holes: int = 0, max_assemblies: int = 1,
                          count: int | None = 1, seed: int = 0, jobs: int = 1, seconds: float | None = None):
    """Design interlocking puzzles, as ``polyfit generate --interlocking`` does: cut ``within``
    (a box size such as ``"5x5x5"``, or cells) less ``holes`` cells into ``pieces`` connected
    pieces whose one assembly that comes apart has level ``min_level`` or more (BurrTools'
    level), with at most ``max_assemblies`` assemblies in all. Yields each :class:`Design` found
    (write one with :meth:`Design.write`), ``count`` of them (None: for ever), within ``seconds``
    (None: no limit), in the same order for any ``jobs`` (worker processes) for one ``seed``.

    >>> import polyfit
    >>> design = next(polyfit.generate_interlocking("3x3x3", pieces=3, min_level=2, holes=2, seed=4))
    >>> design.level, design.assemblies
    ('2', 1)
    """
    if isinstance(within, str):
        from polyfit.puzzle.generate import box_cells

        outline = box_cells(within)
        if outline is None:
            raise PolyfitError(f"within {within!r}: give a box size such as 5x5x5, or the cells")
    else:
        outline = tuple(sorted(tuple(c) for c in within))
    if count is not None and count < 1:
        return
    deadline = None if seconds is None else time.monotonic() + seconds
    found = search(outline, pieces, min_level, holes, max_assemblies, seed, jobs, deadline=deadline)
    try:
        for number, design in enumerate(found, 1):
            yield design
            if count is not None and number >= count:
                return
    finally:
        found.close()
