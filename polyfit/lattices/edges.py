"""What the edge lattices share: cells that are the unit segments of a grid.

Polysticks (:mod:`polyfit.lattices.sticks`) and polytwigs (:mod:`polyfit.lattices.twigs`) are
drawn in text art character by character: each segment is one character at its own place (a
cell ``(row, col)`` is line ``row``, character ``col``), so a cell's coordinates are where it is
drawn, and a lattice symmetry maps those places onto each other. Each lattice tells the kinds
of segment apart by their places (:meth:`EdgeLattice.kind`, an orientation, with the mark that
draws it) and gives, per kind, the steps to the segments sharing an end point: from those this
module derives the neighbours, the flood-fill steps, the cell checks and the reading of the
marks. A lattice also gives each segment's end points as integer keys (:meth:`ends`) and in the
plane (:meth:`segment`, for pictures and cut outlines).
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

