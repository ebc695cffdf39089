"""Taking a puzzle's solutions apart: every assembly through :mod:`polyfit.motion`, over processes.

A solution becomes an assembly as BurrTools orders it (the pieces in the order of the puzzle's
piece list, the copies of one piece by BurrTools' placement order) with the weights and groups
its file gives; :func:`count` takes every distinct assembly apart (over ``jobs`` processes)
and tallies the levels, as ``burrTxt2 -d`` counts its solutions (``-m``: classes under rotations
alone, a class and its mirror image apart).
"""

from __future__ import annotations

import os
from array import array
from dataclasses import dataclass, field
from itertools import chain

from polyfit.errors import PolyfitError
from polyfit.lattices import base as lattices
from polyfit.lattices.grid import lattice_group, normalize
from polyfit.motion import Disassembler, Disassembly, Groups
from polyfit.motion.disassembly import MAX_BYTES, MAX_STATES
from polyfit.motion.prisms import motion_rule
from polyfit.puzzle.cover import _classify


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


def _copy_order(numbers, cells, normal=None):
    """BurrTools sorts the copies of a piece by transformation number, then position (x, y,
    z); ``numbers``: {normalized orientation: BurrTools' number} from the file, when it has
    them; ``normal``: the cells' ``(shape, least corner)`` when known (see :func:`_normal`)."""
    if not numbers:
        return tuple(sorted(cells))
    shape, low = normal or _normal(cells)
    return (numbers.get(shape, len(numbers)), *reversed(low))


def _normal(cells, placement=None) -> tuple:
    """The cells moved to their least corner, sorted, and that corner: a generated
    ``placement`` of them knows both."""
    if placement is not None and placement.shape is not None:
        return tuple(placement.shape), tuple(placement.corner)
    low = tuple(min(c[i] for c in cells) for i in range(len(cells[0])))
    return tuple(sorted(tuple(a - b for a, b in zip(c, low)) for c in cells)), low


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


# -- BurrTools' choice among symmetric assemblies -------------------------------------------------
#
# BurrTools keeps, of the assemblies one symmetry of the result maps onto each other, the least
# by its placement order: piece slot by piece slot (the symmetry breaker's slot first), each
# placement by (transformation number, x, y, z); a slot left empty sorts last. The level text
# can depend on the orientation (it decides which of two equally near separations is met
# first), so the assembly taken apart is that one.


def _pivot(puzzle) -> int | None:
    """The slot BurrTools' assembler breaks the symmetry with (compared first), if any: a piece
    used exactly once, the rarest, sharing the fewest symmetries with the result."""
    pieces = puzzle.pieces
    if any(p.count[0] != p.count[1] for p in pieces) or len(puzzle.cover.symmetries) <= 1:
        return None
    board = frozenset(puzzle.board.cells)
    lattice = lattices.of(puzzle.board)
    if motion_rule(lattice) is None:  # cubes (and flat problems, cubes to BurrTools)
        group, normal = lattice_group(3, True), normalize
    else:  # prisms: the lattice's own 24
        group, normal = lattice.group(True), lattice.normalize

    def symmetries(cells):
        """The grid's symmetries (reflections too) that map the cells onto themselves, moved."""
        cells = set(cells)
        return {k for k, sym in enumerate(group) if normal(sym.apply(cells)) == normal(cells)}

    result = symmetries(board)
    best, best_count = 0, len(result & symmetries(pieces[0].cells))
    for k in range(1, len(pieces)):
        common = len(result & symmetries(pieces[k].cells))
        most, best_most = pieces[k].count[1], pieces[best].count[1]
        if most < best_most or (most == best_most and common < best_count):
            best, best_count = k, common
    if pieces[best].count[1] > 1:
        return None
    return sum(p.count[1] for p in pieces[:best])


def _ranks(keys) -> list[int]:
    """Each key's place among the distinct keys, in order (equal keys, equal places)."""
    places = {key: k for k, key in enumerate(sorted(set(keys)))}
    return [places[key] for key in keys]


class _Images:
    """Symmetries' tables (each with the place of every image: see :class:`_Chooser`) and, per
    placement, the least place of its images and the tables that give it: the image of a
    solution with the least order starts with the least of these, so only the tables giving
    that one are sorted."""

    def __init__(self, tables):
        self.tables = tables
        ranks = [ranked for _, ranked in tables]
        self.low = list(map(min, zip(*ranks))) if ranks else []
        self.giving = [tuple(k for k, ranked in enumerate(ranks) if ranked[i] == low) for i, low in enumerate(self.low)]
        self.size = len(self.low)
        self.packed = array("i", [i for table, _ in tables for i in table])
        self.packed_ranks = array("i", [i for ranked in ranks for i in ranked])

    def least(self, placements, native: bool | None = None) -> tuple:
        """The image the first of the tables with the least order makes, and that order (a
        tuple). ``native``: the C twin (the default when it built) or the Python loop."""
        if (_classify is not None) if native is None else native:
            return _classify.least(tuple(placements), self.packed, self.packed_ranks, self.size)
        low, giving, tables = self.low, self.giving, self.tables
        first = min(map(low.__getitem__, placements))
        candidates = sorted({k for i in placements if low[i] == first for k in giving[i]})
        best = best_order = None
        for k in candidates:
            table, ranked = tables[k]
            order = sorted(map(ranked.__getitem__, placements))
            if best is None or order < best_order:
                best, best_order = table, order
        return tuple(map(best.__getitem__, placements)), tuple(best_order)


class _Chooser:
    """What choosing costs once per puzzle: each placement's place in BurrTools' order as a
    number, and each symmetry's table with the place of every image."""

    def __init__(self, puzzle):
        cover = puzzle.cover
        self.puzzle = puzzle
        self.pivot = _pivot(puzzle)
        pivot_piece = -1
        slot = 0
        for k, piece in enumerate(puzzle.pieces):
            if slot == self.pivot:
                pivot_piece = k
            slot += piece.count[1]
        rules = puzzle.board.motion
        numbers = [dict(rule[3]) if len(rule) > 3 else None for rule in rules]
        keys = []
        for placement in puzzle.placements:
            known = numbers[placement.piece]
            cells = placement.cells if not known or placement.shape is None else None
            keys.append((placement.piece, _copy_order(known, cells, known and _normal(cells, placement))))
        # An image's placements compare as its slots do: piece by piece, copies sorted, the
        # pivot's slot first. Its pieces' counts are a solution's (a symmetry maps a piece's
        # placements to its own or to an equal piece's), so images are alike in length and
        # compare as their sorted places.
        rank = _ranks([(piece != pivot_piece, piece, key) for piece, key in keys])
        proper = [cover.table(sym) for sym in cover.symmetries if sym.is_proper]
        mirrored = [cover.table(sym) for sym in cover.symmetries if not sym.is_proper]
        self.proper = _Images([(table, [rank[j] for j in table]) for table in proper])
        self.mirrored = _Images([(table, [rank[j] for j in table]) for table in mirrored])
        self._every = None

    @property
    def every(self) -> _Images:
        if self._every is None:
            self._every = _Images(self.proper.tables + self.mirrored.tables)
        return self._every

    @staticmethod
    def _least(images: _Images, placements) -> tuple:
        return images.least(placements)

    def choose(self, placements, rotations_only: bool) -> tuple:
        return self._least(self.proper if rotations_only else self.every, placements)[0]

    def choices(self, placements) -> tuple:
        """``choose(placements, False)``, ``choose(placements, True)`` and, when there are
        reflections, ``choose(mirror, True)`` for any mirror image of the placements (its
        rotations are this one's reflections), from one look at each symmetry."""
        proper, proper_order = self._least(self.proper, placements)
        if not self.mirrored.tables:
            return proper, proper, None
        mirrored, mirrored_order = self._least(self.mirrored, placements)
        return (mirrored if mirrored_order < proper_order else proper), proper, mirrored


_CHOICE: dict = {}  # id(puzzle) -> its chooser (which holds the puzzle: ids are not reused)


def burrtools_choice(puzzle, placements: tuple, rotations_only: bool) -> tuple:
    """The image of a solution (placement indices) under the puzzle's symmetries (rotations
    only when ``rotations_only``) that BurrTools keeps."""
    if len(puzzle.cover.symmetries) <= 1 or not puzzle.board.motion:
        return placements
    return _chooser(puzzle).choose(placements, rotations_only)


def _chooser(puzzle) -> _Chooser | None:
    """The puzzle's chooser, None when BurrTools' choice is the solution as it is."""
    if len(puzzle.cover.symmetries) <= 1 or not puzzle.board.motion:
        return None
    chooser = _CHOICE.get(id(puzzle))
    if chooser is None or chooser.puzzle is not puzzle:
        _CHOICE.clear()
        chooser = _CHOICE[id(puzzle)] = _Chooser(puzzle)
    return chooser


class _Pieces:
    """What :func:`assembly` works out per solution, once per placement for a count: its place
    in BurrTools' piece order, its shape and base in the disassembler, its piece's weight;
    the groups by the pieces a solution uses."""

    def __init__(self, puzzle, taker: Disassembler):
        board, pieces = puzzle.board, puzzle.pieces
        rules = board.motion if len(board.motion) == len(pieces) else ()
        self.rules = rules
        self.count = len(pieces)
        numbers = [dict(rule[3]) if len(rule) > 3 else None for rule in rules] or [None] * len(pieces)
        keys, self.shapes, self.weights = [], [], []
        for placement in puzzle.placements:
            piece = placement.piece
            normal = _normal(None, placement) if placement.shape is not None else None
            cells = placement.cells if normal is None or not numbers[piece] else None
            keys.append((piece, _copy_order(numbers[piece], cells, normal)))
            self.shapes.append(taker.shape(cells, normal))
            self.weights.append(rules[piece][0] if rules else 1)
        self.place = _ranks(keys)
        self.numbers = [number for number, _ in self.shapes]
        self.flat = [tuple(base) for _, base in self.shapes]
        self.placements = puzzle.placements
        self.piece = [placement.piece for placement in puzzle.placements]
        if rules:
            self.part_groups, self.keys = tuple(r[1] for r in rules), tuple(r[2] for r in rules)
        else:
            self.part_groups, self.keys = ((),) * len(pieces), tuple(range(len(pieces)))

        self._groups = {}
        # With no groups, the disassembler may take a solution's placements as they are.
        self.table = None if any(self.part_groups) else taker.level_table(
            self.place, self.numbers, list(chain.from_iterable(self.flat)), self.weights)

    def groups(self, part_of: tuple) -> Groups:
        """The groups of a solution whose pieces are of these parts (most solutions of a puzzle
        share one)."""
        found = self._groups.get(part_of)
        if found is None:
            found = self._groups[part_of] = Groups(part_of, self.part_groups, self.keys)
        return found

    def take_apart(self, placements, taker: Disassembler, moves: bool = True) -> Disassembly:
        """As ``taker.disassemble(*assembly(...))`` would, with no work per cell."""
        order = sorted(placements, key=self.place.__getitem__)  # stable: as assembly() sorts
        shapes = self.shapes
        return taker.disassemble_shapes([shapes[i][0] for i in order], [shapes[i][1] for i in order],
                                        [self.weights[i] for i in order],
                                        self.groups(tuple([self.piece[i] for i in order])),
                                        [self.placements[i].cells for i in order] if moves else None, moves)

    def level(self, placements, taker: Disassembler) -> tuple:
        """What a count wants of :meth:`take_apart`: ``(status, level, states)``
        (:meth:`Disassembler.level_only`, or :meth:`Disassembler.level_of` when no piece is in a
        group)."""
        if self.table is not None:
            return taker.level_of(placements, self.table)
        order = sorted(placements, key=self.place.__getitem__)
        return taker.level_only(list(map(self.numbers.__getitem__, order)),
                                list(chain.from_iterable(map(self.flat.__getitem__, order))),
                                list(map(self.weights.__getitem__, order)),
                                self.groups(tuple(map(self.piece.__getitem__, order))))


_PIECES: dict = {}  # id(taker) -> (puzzle, its _Pieces)


def _pieces(puzzle, taker: Disassembler) -> _Pieces:
    known = _PIECES.get(id(taker))
    if known is None or known[0] is not puzzle:
        _PIECES.clear()
        known = _PIECES[id(taker)] = (puzzle, _Pieces(puzzle, taker), taker)
    return known[1]


def disassembler(puzzle, engine: str = "auto", max_states: int | None = None,
                 max_bytes: int | None = None, ruler: str = "burrtools") -> Disassembler:
    """A disassembler for the puzzle's lattice (its pair limits are kept between assemblies);
    ``ruler``: ``"burrtools"`` or ``"exact"`` (:mod:`polyfit.motion.exact`)."""
    lattice = lattices.of(puzzle.board)
    directions = lattice.motion_directions()
    if not directions:
        raise PolyfitError(f"disassembly is not available on the {lattice.name} lattice yet "
                           "(cubes, squares and triangular prisms have it)")
    return Disassembler(directions, engine, max_states or MAX_STATES, max_bytes or MAX_BYTES, ruler,
                        motion=motion_rule(lattice))


def disassemble(puzzle, placements: dict, engine: str = "auto", max_states=None, max_bytes=None,
                taker: Disassembler | None = None, ruler: str = "burrtools") -> tuple[Assembly, Disassembly]:
    """One solution taken apart."""
    found = assembly(puzzle, placements)
    taker = taker or disassembler(puzzle, engine, max_states, max_bytes, ruler)
    return found, taker.disassemble(found.cells, found.weights, found.groups)


@dataclass
class Tally:
    """What :func:`count` found: ``assemblies`` (distinct), ``disassemblable`` (distinct ones
    that come apart), ``disassemblable_rotations`` (classes under rotations alone that come
    apart), ``levels`` (level text -> distinct assemblies), ``unknown`` (a cap was reached);
    ``ruler``: what measured the levels (``"burrtools"`` or ``"exact"``)."""

    assemblies: int = 0
    disassemblable: int = 0
    disassemblable_rotations: int = 0
    levels: dict = field(default_factory=dict)
    unknown: int = 0
    states: int = 0
    ruler: str = "burrtools"

    def add(self, other: Tally) -> None:
        self.assemblies += other.assemblies
        self.disassemblable += other.disassemblable
        self.disassemblable_rotations += other.disassemblable_rotations
        self.unknown += other.unknown
        self.states += other.states
        levels = self.levels
        for level, number in other.levels.items():
            levels[level] = levels.get(level, 0) + number

    def sorted_levels(self) -> dict:
        """The levels, easiest first (by each number in turn)."""
        return dict(sorted(self.levels.items(), key=lambda kv: level_key(kv[0])))


def level_key(level: str) -> tuple:
    """A level text as numbers to compare: ``"5.2.2"`` is (5, 2, 2); ``"unknown"`` above all."""
    if level == "unknown":
        return (float("inf"),)
    return tuple(int(n) for n in level.split("."))


def mirror_image(puzzle, placements: tuple) -> tuple | None:
    """The solution's image under a reflection of the puzzle (or BurrTools' mirror rule:
    polyfit.puzzle.mirror), when that is another rotation class (None when a reflection maps
    the solution onto itself, or there is none)."""
    return puzzle.mirror_of(placements)[1]


def _labelled(puzzle, placements) -> dict:
    return {label: puzzle.placements[i].cells for label, i in zip(puzzle.labels(placements), placements)}


def tally_one(puzzle, placements, taker: Disassembler) -> Tally:
    """One distinct solution (placement indices): its class taken apart as BurrTools keeps it,
    and for ``disassemblable_rotations`` its classes under rotations alone (itself and, when
    that is another class, its mirror image)."""
    tally = Tally()
    tally_into(tally, puzzle, placements, taker)
    return tally


def tally_into(tally: Tally, puzzle, placements, taker: Disassembler) -> None:
    """:func:`tally_one`, added to ``tally``."""
    pieces = _pieces(puzzle, taker)
    tally.assemblies += 1
    # BurrTools identifies mirror images where its mirror check can (every piece its own mirror
    # image or with a partner); polyfit's symmetries of the puzzle have reflections then. Without
    # them, BurrTools' mirror rule (polyfit.puzzle.mirror) may still join this class to its
    # mirror class: BurrTools keeps the least image of both.
    chooser = _chooser(puzzle)
    every, proper, mirrored = chooser.choices(placements) if chooser else (placements, placements, None)
    image = mirror_image(puzzle, placements)
    if image is not None and not puzzle.cover.has_reflections:  # joined by the mirror rule
        mirrored = image
        if chooser:
            proper_order = chooser._least(chooser.proper, placements)[1]
            mirrored, mirrored_order = chooser._least(chooser.proper, image)
            every = mirrored if mirrored_order < proper_order else proper
    first = pieces.level(every, taker)
    status, level, states = first
    tally.states += states
    if status == "separates":
        tally.disassemblable += 1
    elif status == "unknown":
        tally.unknown += 1
        level = "unknown"
    if status != "stuck":
        tally.levels[level] = tally.levels.get(level, 0) + 1
    # The classes under rotations alone: this one as BurrTools keeps it, and its mirror class
    # (each taken apart once: either may be the image taken apart above).
    chosen = frozenset(every)
    for other in (proper, (image if mirrored is None else mirrored) if image is not None else None):
        if other is None:
            continue
        if other is every or frozenset(other) == chosen:
            found = first
        else:
            found = pieces.level(other, taker)
            tally.states += found[2]
        tally.disassemblable_rotations += found[0] == "separates"


# -- the count, over processes -------------------------------------------------------------------

_WORKER: dict = {}


def _work_setup(parent, puzzle, engine, max_states, max_bytes, ruler) -> None:
    from polyfit.longsearch.workers import die_with

    die_with(parent)
    _WORKER["puzzle"] = puzzle
    _WORKER["taker"] = disassembler(puzzle, engine, max_states, max_bytes, ruler)


def _work(batch) -> list[Tally]:
    return [tally_one(_WORKER["puzzle"], placements, _WORKER["taker"]) for placements in batch]


def tallies(puzzle, solutions, jobs: int = 1, engine: str = "auto", max_states=None, max_bytes=None,
            ruler: str = "burrtools"):
    """Each of ``solutions`` (distinct solutions as placement indices, from any search of
    ``puzzle``) with its :class:`Tally`, as ``(placements, tally)`` in their order. ``jobs`` > 1
    takes them apart in that many processes while ``solutions`` is still being produced;
    ``ruler``: ``"burrtools"`` or ``"exact"``."""
    if jobs <= 1:
        taker = disassembler(puzzle, engine, max_states, max_bytes, ruler)
        for placements in solutions:
            yield placements, tally_one(puzzle, placements, taker)
        return
    import multiprocessing

    context = multiprocessing.get_context("fork" if hasattr(os, "fork") else "spawn")
    batch, size = [], 16
    with context.Pool(jobs, _work_setup, (os.getpid(), puzzle, engine, max_states, max_bytes, ruler)) as pool:
        pending = []
        for placements in solutions:
            batch.append(placements)
            if len(batch) >= size:
                pending.append((batch, pool.apply_async(_work, (batch,))))
                batch = []
            while pending and pending[0][1].ready():  # hand on what is done, in order
                done, job = pending.pop(0)
                yield from zip(done, job.get())
        if batch:
            pending.append((batch, pool.apply_async(_work, (batch,))))
        for done, job in pending:
            yield from zip(done, job.get())


def count(puzzle, backend, jobs: int = 1, engine: str = "auto", max_states=None, max_bytes=None,
          on_progress=None, ruler: str = "burrtools"):
    """Take every distinct solution of ``puzzle`` apart (found by ``backend``); returns the
    search's counts and the :class:`Tally`. ``jobs`` > 1 takes assemblies apart in that many
    processes while the search goes on; ``on_progress(tally)`` hears each assembly done."""
    from polyfit.puzzle.solve import Counts

    counts = Counts()
    tally = Tally(ruler=ruler)
    solutions = (found.placements for found in puzzle.search(backend, counts, distinct_only=True))
    if jobs <= 1:  # each assembly added to the tally as it is taken apart
        taker = disassembler(puzzle, engine, max_states, max_bytes, ruler)
        for placements in solutions:
            tally_into(tally, puzzle, placements, taker)
            if on_progress is not None:
                on_progress(tally)
        return counts, tally
    for _, one in tallies(puzzle, solutions, jobs, engine, max_states, max_bytes, ruler):
        tally.add(one)
        if on_progress is not None:
            on_progress(tally)
    return counts, tally


# -- one solution at a time, for listings --------------------------------------------------------


@dataclass(frozen=True)
class Taken:
    """One solution taken apart, in the words of its puzzle: ``status``, ``level`` (BurrTools'
    text, ``"unknown"`` at a cap, None when it does not come apart), ``total`` moves, and
    ``moves``: ``{"pieces": [labels], "by": [...], "removed": bool}`` with ``by`` in the cells'
    coordinate order; ``groups``: the labels of each group that may stay together."""

    assembly: Assembly
    result: Disassembly

    @property
    def status(self) -> str:
        return self.result.status

    @property
    def level(self) -> str | None:
        return self.result.level

    @property
    def total(self) -> int:
        return self.result.total

    @property
    def ruler(self) -> str:
        return self.result.ruler

    @property
    def separates(self) -> bool:
        return self.result.separates

    @property
    def moves(self) -> list[dict]:
        labels = self.assembly.labels
        return [{"pieces": [labels[p] for p in m.pieces], "by": list(m.by), "removed": m.removed}
                for m in self.result.moves]

    @property
    def groups(self) -> list[list[str]]:
        return self.assembly.group_lists()

    def to_json(self) -> dict:
        return {"level": self.level, "ruler": self.ruler, "moves": self.moves}



def take_apart(puzzle, placements: dict, taker: Disassembler | None = None, **options) -> Taken:
    """A solution given as ``{label: cells}``, taken apart as it stands (``options``: engine,
    max_states, max_bytes)."""
    found, result = disassemble(puzzle, placements, taker=taker, **options)
    return Taken(found, result)


def disassemblies(puzzle, backend, engine: str = "auto", max_states=None, max_bytes=None, ruler: str = "burrtools"):
    """Each distinct solution, in the orientation BurrTools keeps, with what taking it apart
    found: ``(placement indices, Taken)`` in the order the search finds them."""
    from polyfit.puzzle.solve import Counts

    taker = disassembler(puzzle, engine, max_states, max_bytes, ruler)
    for found in puzzle.search(backend, Counts()):
        if found.canonical:
            chosen = burrtools_choice(puzzle, found.placements, rotations_only=False)
            yield chosen, take_apart(puzzle, _labelled(puzzle, chosen), taker)
