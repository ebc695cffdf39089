"""What the edge lattices share: cells that are the unit segments of a grid.

Polysticks (:mod:`polyfit.lattices.sticks`) and polytwigs (:mod:`polyfit.lattices.twigs`) are
drawn in text art character by character: each segment is one character at its own place (a
cell ``(row, col)`` is line ``row``, character ``col``), so a cell's coordinates are where it is
drawn, and a lattice symmetry maps those places onto each other. Two segments are neighbours
when they share an end point. Each lattice gives its segments' end points (:meth:`ends`, as
integer keys) and their places in the plane (:meth:`segment`); from those this module derives
the neighbours, the flood-fill steps, connectivity and where a shape passes straight through a
point (:meth:`crossings`).

A segment's end points are keys ``(row, col)`` in the lattice's own units (on the square grid
the lattice point's own place in the art).
"""

from __future__ import annotations

from polyfit.lattices.base import Lattice


class EdgeLattice(Lattice):
    """A lattice whose cells are segments: subclasses give :meth:`kind`, :data:`STEPS` (the
    neighbour offsets of each kind of segment), :meth:`ends` and :meth:`segment`."""

    segments = True
    dim = 2
    degree = 0  # how many segments meet at a point
    STEPS: dict = {}  # kind -> neighbour offsets
    MARKS: dict = {}  # kind -> the character drawing a segment of that kind

    def kind(self, cell):
        """Which kind of segment a cell is (an orientation), or None when it is none."""
        raise NotImplementedError

    def is_cell(self, cell) -> bool:
        return self.kind(cell) is not None

    def neighbours(self, cell):
        r, c = cell
        for dr, dc in self.STEPS[self.kind(cell)]:
            yield (r + dr, c + dc)

    def flood_steps(self):
        kinds: dict = {}  # offset -> the kinds of segment it leads on from
        for kind, steps in self.STEPS.items():
            for step in steps:
                kinds.setdefault(step, set()).add(kind)
        every = set(self.STEPS)
        return [
            (step, None if found == every else (lambda cell, found=frozenset(found): self.kind(cell) in found))
            for step, found in sorted(kinds.items())
        ]

    def ends(self, cell) -> tuple:
        """The two end points of a segment, as integer keys."""
        raise NotImplementedError

    def art_char(self, cell):
        return self.MARKS[self.kind(cell)]

    def art_mark(self, char, cell):
        kind = self.kind(cell)
        if kind is not None and char == self.MARKS[kind]:
            return "#"
        return char

    def art_problem(self, cell):
        if self.is_cell(cell):
            return None
        return f"no segment of the {self.name} lattice is drawn here: " + self.where_segments

    where_segments = ""

    def polygon(self, cell):
        raise NotImplementedError(f"the {self.name} lattice's cells are segments, drawn by segment()")

