"""The atlas of a calendar board: one board, a family of targets given by which cells stay
uncovered ("A-Puzzle-A-Day": the month and the day), every target counted in one run.

A board says it is a calendar with ``+`` cells (the cells that may stay uncovered) and a
``; leave:`` line (which of them stay uncovered in one target):

- ``; leave: 2``: any two of the ``+`` cells, and every other cell covered;
- ``; leave: 1 of Jan..Dec, 1 of 1..31``: one cell of each group. A group is a range
  ``A..B`` (the ``+`` cells from A to B in reading order) or names separated by spaces
  (``1 of Sun Mon Tue``); the groups do not overlap.

``; names:`` names the ``+`` cells in reading order (rows top to bottom, each left to right; 3D:
bottom layer first), one name per cell separated by spaces; without it a cell is named by its
place (``r0c5``).

Every target is counted in one run: the board is solved once with each group's cells left to a
piece of its own, a single cell that may lie on that group's cells only and is used as many times
as the group leaves cells (BurrTools would call it a hole). Every cell is then covered by a piece
or by such a hole, so the search prunes as well as for one target, and each solution is counted
for the target its holes show. Every placement counts (the run yields the symmetric copies too):
the board's labels make symmetric solutions different puzzles.
"""

from __future__ import annotations

import itertools
import math
import re
from collections import Counter
from dataclasses import dataclass, field, replace

from polyfit.errors import ParseError, PolyfitError
from polyfit.limits import check, number_problem
from polyfit.puzzle.cover import cell_name

SORTS = ("count", "name")
_GROUP = re.compile(r"\s*(\S+)\s+of\s+(\S.*?)\s*$")


@dataclass(frozen=True)
class Targets:
    """What a board's ``; leave:`` line says: ``groups`` of ``(how many stay uncovered,
    cells)`` (one group of every ``+`` cell for ``; leave: N``), the ``names`` of the cells and
    the line as written (``text``)."""

    groups: tuple
    names: dict
    text: str

    @property
    def count(self) -> int:
        """How many targets there are."""
        return math.prod(math.comb(len(cells), k) for k, cells in self.groups)

    def every(self):
        """Each target, as its cells group by group (each group's in reading order)."""
        for parts in itertools.product(*(itertools.combinations(cells, k) for k, cells in self.groups)):
            yield tuple(c for part in parts for c in part)

    def target(self, uncovered) -> tuple | None:
        """The target that leaving exactly the cells ``uncovered`` shows, or None."""
        target = []
        for k, cells in self.groups:
            left = [c for c in cells if c in uncovered]
            if len(left) != k:
                return None
            target += left
        return tuple(target) if len(target) == len(uncovered) else None

    def name(self, target) -> str:
        return " ".join(self.names[c] for c in target)


def targets_of(board) -> Targets | None:
    """The targets a board's ``; leave:`` and ``; names:`` lines give (None without ``; leave:``);
    a mistake in them is a :class:`ParseError` at its place."""
    if "leave" not in board.metadata:
        if "names" in board.metadata:
            line, column = board.metadata_at.get("names", (1, 1))
            raise ParseError(board.path or board.label, line, column,
                             "'; names:' names the cells a '; leave:' line leaves uncovered; add one (see docs/atlas.md)")
        return None
    text = board.metadata["leave"]
    path = board.path or board.label
    line, column = board.metadata_at.get("leave", (1, 1))
    cells = tuple(sorted(board.optional))
    if not cells:
        raise ParseError(path, line, column, "'; leave:' needs target cells: mark the cells that may stay uncovered with '+'")
    names = _names(board, cells)
    position = {name: k for k, name in enumerate(names)}
    groups, used = [], set()
    if not text.strip():
        raise ParseError(path, line, column, "'; leave:' is empty: write a number (; leave: 2) or groups (; leave: 1 of Jan..Dec, 1 of 1..31)")
    if "of" not in text.split():
        how_many = _count(text, path, line, column, len(cells))
        groups.append((how_many, cells))
    else:
        base = column  # the column of each part's first character
        for part in text.split(","):
            at = base + len(part) - len(part.lstrip())
            match = _GROUP.fullmatch(part)
            if match is None:
                raise ParseError(path, line, at, f"{part.strip()!r}: write a group as 'K of A..B' or 'K of NAME NAME ...'")
            members = _members(match.group(2), names, position, path, line, base + match.start(2))
            base += len(part) + 1
            overlap = used & set(members)
            if overlap:
                raise ParseError(path, line, at, f"{part.strip()!r}: cell {names[min(overlap)]} is in an earlier group too")
            used |= set(members)
            how_many = _count(match.group(1), path, line, at, len(members))
            groups.append((how_many, tuple(cells[k] for k in sorted(members))))
        spare = [names[k] for k in range(len(cells)) if k not in used]
        if spare:
            raise ParseError(path, line, column, f"'+' cell {spare[0]} is in no group: a target covers it, so draw it "
                             "with '#' (or add it to a group)")
    found = Targets(tuple(groups), dict(zip(cells, names)), text.strip())
    check("targets", found.count, path)
    return found


def _names(board, cells) -> list[str]:
    if "names" not in board.metadata:
        return [cell_name(c) for c in cells]
    path = board.path or board.label
    line, column = board.metadata_at.get("names", (1, 1))
    text = board.metadata["names"]
    names = text.split()
    seen = {}
    for match in re.finditer(r"\S+", text):
        name = match.group()
        if ".." in name or "," in name:
            raise ParseError(path, line, column + match.start(), f"a cell's name may not hold '..' or ',': {name!r}")
        if name in seen:
            raise ParseError(path, line, column + match.start(), f"{name!r} names two cells; each name once")
        seen[name] = True
    if len(names) != len(cells):
        raise ParseError(path, line, column,
                         f"'; names:' gives {len(names)} names for the board's {len(cells)} '+' cells (one per cell, in reading order)")
    return names


def _members(text: str, names, position, path, line, column) -> list[int]:
    first, dots, last = text.partition("..")
    if dots:
        ends = []
        for end, at in ((first.strip(), column), (last.strip(), column + len(first) + 2)):
            if end not in position:
                raise ParseError(path, line, at, _unknown(end, names))
            ends.append(position[end])
        if ends[0] > ends[1]:
            raise ParseError(path, line, column, f"{text.strip()!r}: {first.strip()} comes after {last.strip()} in reading order")
        return list(range(ends[0], ends[1] + 1))
    members = []
    for match in re.finditer(r"\S+", text):
        if match.group() not in position:
            raise ParseError(path, line, column + match.start(), _unknown(match.group(), names))
        members.append(position[match.group()])
    return members


def _unknown(name: str, names) -> str:
    shown = " ".join(names[:6]) + (" ..." if len(names) > 6 else "")
    return f"no '+' cell is named {name!r} (the names, in reading order: {shown})"


def _count(text: str, path, line, column, most: int) -> int:
    problem = number_problem(text, 1, most)
    if problem is not None:
        raise ParseError(path, line, column, f"'; leave:' {text.strip()!r}: {problem} (of {most} cells)")
    return int(text)


@dataclass
class Target:
    """One target: its ``cells`` (group by group), ``name`` and the ``solutions`` leaving it."""

    cells: tuple
    name: str
    solutions: int = 0

    def to_json(self) -> dict:
        return {"target": self.name, "cells": [list(c) for c in self.cells], "solutions": self.solutions}


@dataclass
class CalendarAtlas:
    """Every target of a calendar board (``targets``, in the order of :meth:`Targets.every`)
    with its solutions; ``pieces``: the board's pieces (``puzzle`` has a hole piece per group
    besides); ``counts`` and ``plan``: the run's."""

    puzzle: object
    pieces: list
    leave: Targets
    targets: list[Target]
    counts: object
    plan: object = None
    kind: str = field(default="calendar", init=False)

    @property
    def solutions(self) -> int:
        return sum(t.solutions for t in self.targets)

    @property
    def unsolved(self) -> list[Target]:
        return [t for t in self.targets if t.solutions == 0]

    def rows(self, sort: str | None = None, unique: bool = False, limit: int | None = None) -> list[Target]:
        """The targets, sorted: ``"count"`` (the default) fewest solutions first, the hard days;
        ``"name"`` in the board's order. ``unique``: only those with one solution."""
        sort = sort or "count"
        if sort not in SORTS:
            raise PolyfitError(f"unknown sort {sort!r} for a calendar: the sorts are {', '.join(SORTS)}")
        rows = [t for t in self.targets if t.solutions == 1] if unique else list(self.targets)
        if sort == "count":
            rows.sort(key=lambda t: t.solutions)  # stable: ties in the board's order
        return rows if limit is None else rows[:limit]


def holes(board, pieces, targets: Targets) -> tuple[object, list]:
    """The board with every cell to be covered and each group's cells open to a piece of its
    own (a single cell, as many copies as the group leaves uncovered), and those pieces."""
    from polyfit.puzzle.pieces import Piece

    lattice = board.lattice
    names = {p.name for p in pieces}
    made, allowed = [], {}
    for k, (how_many, cells) in enumerate(targets.groups, start=1):
        name = f"+{k}"
        while name in names:
            name = "+" + name
        hole = Piece(name, (cells[0],), count=(how_many, how_many), lattice=lattice)
        shapes = set(hole.orientations())
        odd = [c for c in cells if lattice.normalize((c,)) not in shapes]
        if odd:
            raise PolyfitError(f"{board.label}: on the {lattice.name} lattice cell {targets.names[odd[0]]} is not "
                               f"of the kind of cell {targets.names[cells[0]]}; keep a group to one kind of cell")
        made.append(hole)
        allowed[name] = {(c,) for c in cells}
    area = len(board.cells) - sum(k for k, _ in targets.groups)
    low, high = (sum(p.size * p.count[end] for p in pieces) for end in (0, 1))
    if not low <= area <= high:
        have = f"{low}" if low == high else f"{low} to {high}"
        raise PolyfitError(f"{board.label}: a target leaves {area} of the {len(board.cells)} cells to the pieces, "
                           f"but they cover {have}")
    return replace(board, optional=frozenset(), allowed={**board.allowed, **allowed}), made


def calendar_atlas(board, pieces, targets: Targets, *, jobs: int | None = None, backend="auto",
                   plugins=None) -> CalendarAtlas:
    """Solve the board once with a hole piece per group (:func:`holes`; :meth:`polyfit.Puzzle.run`,
    every solution with its symmetric copies, ``jobs`` processes) and count the solutions by
    the target their holes show."""
    from polyfit.api import Puzzle

    covered, made = holes(board, pieces, targets)
    puzzle = Puzzle(covered, list(pieces) + made, plugins=plugins)
    group_of = {len(pieces) + k: k for k in range(len(made))}
    placements = puzzle.placements
    left = Counter()
    run = puzzle.run(all=True, jobs=jobs, backend=backend)
    try:
        for solution in run:
            shown = [[] for _ in made]
            for i in solution.indices:
                group = group_of.get(placements[i].piece)
                if group is not None:
                    shown[group].append(placements[i].cells[0])
            left[tuple(c for cells in shown for c in sorted(cells))] += 1
    finally:
        run.close()
    found = [Target(target, targets.name(target), left.pop(target, 0)) for target in targets.every()]
    if left:  # every hole lies on its group's cells: each solution shows a target
        raise AssertionError(f"solutions that show no target: {sorted(left)[:3]}")
    return CalendarAtlas(puzzle, list(pieces), targets, found, run.counts, run.plan)
