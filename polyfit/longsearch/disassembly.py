"""Taking a puzzle's solutions apart: every assembly through :mod:`polyfit.motion`, over processes.

A solution becomes an assembly as BurrTools orders it (the pieces in the order of the puzzle's
piece list, the copies of one piece by BurrTools' placement order) with the weights and groups
its file gives; :func:`count` takes every distinct assembly apart (over ``jobs`` processes)
and tallies the levels, as ``burrTxt2 -d`` counts its solutions (``-m``: classes under rotations
alone, a class and its mirror image apart).
"""

from __future__ import annotations

import os
from collections import Counter
from dataclasses import dataclass, field

from polyfit.errors import PolyfitError
from polyfit.lattices import base as lattices
from polyfit.motion import Disassembler, Disassembly, Groups
from polyfit.motion.disassembly import MAX_BYTES, MAX_STATES


@dataclass(frozen=True)
class Assembly:
    """A solution as the disassembler takes it: ``labels`` (``NAME`` or ``NAME#k``) and the
    ``cells`` of each piece in BurrTools' order, their ``weights`` and ``groups``."""

    labels: tuple[str, ...]
    cells: tuple[tuple, ...]
    weights: tuple[int, ...]
    groups: Groups

    def group_lists(self) -> list[list[str]]:
        """The pieces (labels) of each group that may stay together."""
        return [[self.labels[p] for p in members] for members in self.groups.lists()]


def _copy_order(numbers, cells):
    """BurrTools sorts the copies of a piece by transformation number, then position (x, y,
    z); ``numbers``: {normalized orientation: BurrTools' number} from the file, when it has
    them."""
    if not numbers:
        return tuple(sorted(cells))
    low = tuple(min(c[i] for c in cells) for i in range(len(cells[0])))
    shape = tuple(sorted(tuple(a - b for a, b in zip(c, low)) for c in cells))
    return (numbers.get(shape, len(numbers)), *reversed(low))


def assembly(puzzle, placements: dict) -> Assembly:
    """The assembly of a solution given as ``{label: cells}`` (see ``Solution.placements``)."""
    board = puzzle.board
    pieces = puzzle.pieces
    rules = board.motion if len(board.motion) == len(pieces) else ()
    index = {p.name: k for k, p in enumerate(pieces)}
    by_piece: dict[int, list] = {}
    for label, cells in placements.items():
        by_piece.setdefault(index[label.split("#")[0]], []).append((label, tuple(cells)))
    labels, cells, weights, part_of = [], [], [], []
    for k in sorted(by_piece):
        copies = by_piece[k]
        if len(copies) > 1:
            numbers = rules[k][3] if rules and len(rules[k]) > 3 else None
            copies.sort(key=lambda c: _copy_order(numbers, c[1]))
        for label, shape in copies:
            labels.append(label)
            cells.append(shape)
            weights.append(rules[k][0] if rules else 1)
            part_of.append(k)
    if rules:
        groups = Groups(tuple(part_of), tuple(r[1] for r in rules), tuple(r[2] for r in rules))
    else:
        groups = Groups(tuple(part_of), ((),) * len(pieces), tuple(range(len(pieces))))
    return Assembly(tuple(labels), tuple(cells), tuple(weights), groups)


def disassembler(puzzle, engine: str = "auto", max_states: int | None = None,
                 max_bytes: int | None = None) -> Disassembler:
    """A disassembler for the puzzle's lattice (its pair limits are kept between assemblies)."""
    lattice = lattices.of(puzzle.board)
    directions = lattice.motion_directions()
    if not directions:
        raise PolyfitError(f"disassembly is not available on the {lattice.name} lattice yet (cubes and squares have it)")
    return Disassembler(directions, engine, max_states or MAX_STATES, max_bytes or MAX_BYTES)


def disassemble(puzzle, placements: dict, engine: str = "auto", max_states=None, max_bytes=None,
                taker: Disassembler | None = None) -> tuple[Assembly, Disassembly]:
    """One solution taken apart."""
    found = assembly(puzzle, placements)
    taker = taker or disassembler(puzzle, engine, max_states, max_bytes)
    return found, taker.disassemble(found.cells, found.weights, found.groups)


@dataclass
class Tally:
    """What :func:`count` found: ``assemblies`` (distinct), ``disassemblable`` (distinct ones
    that come apart), ``disassemblable_rotations`` (classes under rotations alone that come
    apart), ``levels`` (level text -> distinct assemblies), ``unknown`` (a cap was reached)."""

    assemblies: int = 0
    disassemblable: int = 0
    disassemblable_rotations: int = 0
    levels: dict = field(default_factory=dict)
    unknown: int = 0
    states: int = 0

    def add(self, other: Tally) -> None:
        self.assemblies += other.assemblies
        self.disassemblable += other.disassemblable
        self.disassemblable_rotations += other.disassemblable_rotations
        self.unknown += other.unknown
        self.states += other.states
        self.levels = dict(Counter(self.levels) + Counter(other.levels))

    def sorted_levels(self) -> dict:
        """The levels, easiest first (by each number in turn)."""
        return dict(sorted(self.levels.items(), key=lambda kv: _level_key(kv[0])))


def _level_key(level: str):
    if level == "unknown":
        return (float("inf"),)
    return tuple(int(n) for n in level.split("."))


def mirror_image(puzzle, placements: tuple) -> tuple | None:
    """The solution's image under a reflection of the puzzle, when that is another rotation
    class (None when a reflection maps the solution onto itself, or there is none)."""
    cover = puzzle.cover
    if not cover.has_reflections or cover.mirror_symmetric(placements):
        return None
    reflection = next(sym for sym in cover.symmetries if not sym.is_proper)
    return tuple(cover.map_placement(reflection, i) for i in placements)


def _labelled(puzzle, placements) -> dict:
    return {label: puzzle.placements[i].cells for label, i in zip(puzzle.labels(placements), placements)}


def tally_one(puzzle, placements, taker: Disassembler) -> Tally:
    """One distinct solution (placement indices) and, when it is another rotation class, its
    mirror image."""
    tally = Tally(assemblies=1)
    _, result = disassemble(puzzle, _labelled(puzzle, placements), taker=taker)
    tally.states += result.states
    if result.separates:
        tally.disassemblable += 1
        tally.disassemblable_rotations += 1
        tally.levels[result.level] = 1
    elif result.status == "unknown":
        tally.unknown += 1
        tally.levels["unknown"] = 1
    image = mirror_image(puzzle, placements)
    if image is not None:
        _, mirrored = disassemble(puzzle, _labelled(puzzle, image), taker=taker)
        tally.states += mirrored.states
        tally.disassemblable_rotations += mirrored.separates
    return tally


# -- the count, over processes -------------------------------------------------------------------

_WORKER: dict = {}


def _work_setup(parent, puzzle, engine, max_states, max_bytes) -> None:
    from polyfit.longsearch.workers import die_with

    die_with(parent)
    _WORKER["puzzle"] = puzzle
    _WORKER["taker"] = disassembler(puzzle, engine, max_states, max_bytes)


def _work(batch) -> Tally:
    total = Tally()
    for placements in batch:
        total.add(tally_one(_WORKER["puzzle"], placements, _WORKER["taker"]))
    return total


def count(puzzle, backend, jobs: int = 1, engine: str = "auto", max_states=None, max_bytes=None,
          on_progress=None):
    """Take every distinct solution of ``puzzle`` apart (found by ``backend``); returns the
    search's counts and the :class:`Tally`. ``jobs`` > 1 takes assemblies apart in that many
    processes while the search goes on; ``on_progress(tally)`` hears each batch done."""
    from polyfit.puzzle.solve import Counts

    counts = Counts()
    tally = Tally()
    solutions = (found.placements for found in puzzle.search(backend, counts) if found.canonical)
    if jobs <= 1:
        taker = disassembler(puzzle, engine, max_states, max_bytes)
        for placements in solutions:
            tally.add(tally_one(puzzle, placements, taker))
            if on_progress is not None:
                on_progress(tally)
        return counts, tally
    import multiprocessing

    context = multiprocessing.get_context("fork" if hasattr(os, "fork") else "spawn")
    batch, size = [], 16
    with context.Pool(jobs, _work_setup, (os.getpid(), puzzle, engine, max_states, max_bytes)) as pool:
        pending = []
        for placements in solutions:
            batch.append(placements)
            if len(batch) >= size:
                pending.append(pool.apply_async(_work, (batch,)))
                batch = []
        if batch:
            pending.append(pool.apply_async(_work, (batch,)))
        for job in pending:
            tally.add(job.get())
            if on_progress is not None:
                on_progress(tally)
    return counts, tally
