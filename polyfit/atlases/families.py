"""The atlas of a piece family: every assembly of a puzzle whose pieces may be used a range of
times, grouped by the multiset of pieces it uses.

Mirror images. In 3D a reflection maps a piece to its mirror piece, which may be another piece
of the family (BurrTools' SolidSix has six such pairs), so an assembly and its mirror image may
use two different piece sets, M and its mirror set M'. BurrTools counts them as one assembly
(without ``-m``) or as two (``-m``, "up to rotation alone"). A row of the atlas is therefore a
piece set *together with its mirror set*: ``pieces`` is one of them (the one whose pieces come
first in the puzzle's order) and ``mirror`` the other, or None when the set is its own mirror
image (every piece its own mirror image, or with its partner in the set). In a row:

- ``assemblies``: classes under rotations and reflections (BurrTools' count without ``-m``);
  for a row with a mirror set, this is also the number of assemblies of ``pieces`` alone up to
  rotation (each class has exactly one member in each of the two sets);
- ``assemblies_rotations``: classes under rotations alone, in both sets (BurrTools' ``-m``);
- ``disassemblable``, ``disassemblable_rotations``, ``levels``: the same for the assemblies that
  come apart, with the levels of the first convention (one per class, taken apart in the
  orientation BurrTools keeps).

Each class of the whole puzzle lies in exactly one row, so the columns add up to the puzzle's
counts: for SolidSix 588 and 1063 assemblies, 179 and 314 that come apart.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from polyfit.errors import PolyfitError
from polyfit.longsearch import disassembly
from polyfit.longsearch.disassembly import Tally, level_key

SORTS = ("count", "level", "name")


@dataclass
class PieceSet:
    """One row of a family atlas: a piece set (``pieces``: name -> copies, in the puzzle's
    piece order), its ``mirror`` set when that is another one, and what was found with them
    (see the module's words on mirror images)."""

    pieces: dict
    mirror: dict | None
    order: tuple  # the piece indices with repeats: the row's place in the puzzle's order
    assemblies: int = 0
    assemblies_rotations: int = 0
    disassembly: Tally | None = None

    @property
    def disassemblable(self) -> int | None:
        return None if self.disassembly is None else self.disassembly.disassemblable

    @property
    def disassemblable_rotations(self) -> int | None:
        return None if self.disassembly is None else self.disassembly.disassemblable_rotations

    @property
    def levels(self) -> dict | None:
        """``{level: assemblies}``, easiest first (with ``disassemble``)."""
        return None if self.disassembly is None else self.disassembly.sorted_levels()

    @property
    def highest_level(self) -> str | None:
        """The highest level of an assembly that comes apart (None: none does, or not taken apart)."""
        known = [level for level in (self.disassembly.levels if self.disassembly else {}) if level != "unknown"]
        return max(known, key=level_key) if known else None

    @property
    def found(self) -> int:
        """What ``count`` sorts and ``unique`` asks: the assemblies, or, taken apart, those that
        come apart (the others cannot be put together)."""
        return self.assemblies if self.disassembly is None else self.disassembly.disassemblable

    @property
    def unique(self) -> bool:
        """One assembly (up to rotation and reflection); taken apart: one that comes apart."""
        return self.found == 1

    def to_json(self) -> dict:
        data = {"pieces": dict(self.pieces), "mirror": None if self.mirror is None else dict(self.mirror),
                "assemblies": self.assemblies, "assemblies_rotations": self.assemblies_rotations}
        if self.disassembly is not None:
            data.update(disassemblable=self.disassemblable, disassemblable_rotations=self.disassemblable_rotations,
                        levels=self.levels)
            if self.disassembly.unknown:
                data["unknown"] = self.disassembly.unknown
        return data


@dataclass
class FamilyAtlas:
    """Every piece set of a puzzle with piece ranges that has an assembly (``sets``, in the
    puzzle's piece order), with the run's ``counts`` and, when taken apart, the ``total``
    :class:`Tally`. :meth:`rows` sorts and filters."""

    puzzle: object
    sets: list[PieceSet]
    counts: object
    total: Tally | None = None
    plan: object = None
    kind: str = field(default="family", init=False)

    @property
    def disassembled(self) -> bool:
        return self.total is not None

    @property
    def assemblies(self) -> int:
        return sum(s.assemblies for s in self.sets)

    @property
    def assemblies_rotations(self) -> int:
        return sum(s.assemblies_rotations for s in self.sets)

    def rows(self, sort: str | None = None, unique: bool = False, limit: int | None = None) -> list[PieceSet]:
        """The sets, sorted: ``"count"`` fewest assemblies first (taken apart: fewest that come
        apart, sets of which none does last), ``"level"`` highest level first (taken apart
        only), ``"name"`` in the puzzle's piece order; default ``level`` when taken apart, else
        ``count``. ``unique``: only sets with one assembly (one that comes apart); ``limit``:
        at most that many."""
        sort = sort or ("level" if self.disassembled else "count")
        if sort not in SORTS:
            raise PolyfitError(f"unknown sort {sort!r}: the sorts are {', '.join(SORTS)}")
        if sort == "level" and not self.disassembled:
            raise PolyfitError("sorting by level needs the assemblies taken apart (--disassemble)")
        rows = [s for s in self.sets if s.unique] if unique else list(self.sets)  # in piece order
        if sort == "count":  # fewest first; sets of which nothing comes apart last
            rows.sort(key=lambda s: (s.found == 0, s.found))
        elif sort == "level":  # a stable sort: equal levels stay in piece order
            rows.sort(key=lambda s: level_key(s.highest_level) if s.highest_level else (), reverse=True)
        return rows if limit is None else rows[:limit]


def is_family(puzzle) -> bool:
    """Does some piece have a range of counts (a family of piece sets)?"""
    return any(lo != hi for lo, hi in (p.count for p in puzzle.pieces))


def mirror_map(puzzle) -> tuple[int, ...]:
    """Piece index -> the index of its mirror piece, under the puzzle's reflections (every
    reflection maps the pieces alike); each piece to itself when the puzzle has none."""
    for sym in puzzle.cover.symmetries:
        if not sym.is_proper:
            return tuple(sym.piece_map)
    return tuple(range(len(puzzle.pieces)))


def family_atlas(puzzle, *, disassemble: bool = False, jobs: int | None = None, backend="auto",
                 max_states: int | None = None) -> FamilyAtlas:
    """Run ``puzzle`` once (:meth:`polyfit.Puzzle.run`: the engine chooses how, ``jobs``
    processes) and group its distinct assemblies by piece set; ``disassemble``: take each
    apart too (``jobs`` processes, ``max_states`` per assembly)."""
    if not is_family(puzzle):
        raise PolyfitError(
            f"{puzzle.board.label}: every piece is used a fixed number of times, so there is one piece set; "
            "an atlas maps a family (pieces used lo..hi times) or a calendar board ('; leave:')"
        )
    mirrored = mirror_map(puzzle)
    run = puzzle.run(jobs=jobs, backend=backend)
    solutions = (solution.indices for solution in run)
    if disassemble:
        taken = disassembly.tallies(puzzle, solutions, jobs or 1, max_states=max_states)
    else:
        taken = ((placements, None) for placements in solutions)
    rows: dict[tuple, PieceSet] = {}
    total = Tally() if disassemble else None
    try:
        for placements, tally in taken:
            used = sorted(puzzle.placements[i].piece for i in placements)
            image = sorted(mirrored[k] for k in used)
            first, other = min(used, image), max(used, image)
            row = rows.get(tuple(first))
            if row is None:
                row = rows[tuple(first)] = PieceSet(
                    _named(puzzle, first), None if other == first else _named(puzzle, other), tuple(first),
                    disassembly=Tally() if disassemble else None)
            row.assemblies += 1
            # A class splits in two under rotations alone when a reflection (or BurrTools' mirror
            # rule: polyfit.puzzle.mirror) takes it to another rotation class.
            row.assemblies_rotations += 2 if puzzle.mirror_of(placements)[1] is not None else 1
            if tally is not None:
                row.disassembly.add(tally)
                total.add(tally)
    finally:
        taken.close()  # the processes taking assemblies apart, then the search
        run.close()
    return FamilyAtlas(puzzle, sorted(rows.values(), key=lambda s: s.order), run.counts, total, run.plan)


def _named(puzzle, indices) -> dict:
    counted = Counter(indices)
    return {puzzle.pieces[k].name: counted[k] for k in sorted(counted)}
