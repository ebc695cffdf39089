"""BurrTools' two grids made of tetrahedral sub-cells on a fine cubic grid (grid types 3 and 4).

Both lattices take their cells as BurrTools stores them: the voxels ``(z, y, x)`` of a fine
cubic grid that are sub-cells (the others are no cells at all). Space is cut into cubic
*blocks*, each cut into a few tetrahedra, and a piece is any face-connected set of them;
larger solids are unions of sub-cells (:meth:`RhombicGrid.dodecahedron`,
:meth:`TetraOctaGrid.tetrahedron` and :meth:`TetraOctaGrid.octahedron`).

``rhombic`` (grid type 3): blocks of 5 x 5 x 5 voxels. A block is cut into the 24 tetrahedra
that join its centre to a quarter of one face (the triangle between a face's centre and one
of its edges). The voxel of a sub-cell is the one whose position in the block, each
coordinate folded by ``k -> 4 - k`` above 2, is a permutation of 0, 1, 2: the coordinate
folded to 0 says which face (0 the low side, 4 the high one), the one folded to 1 which edge
of that face (1 low, 3 high). A rhombic dodecahedron is a block's 24 sub-cells with the 4 of
each face-neighbour block that touch the shared face: 48 sub-cells.

``tetra-octa`` (grid type 4): blocks of 3 x 3 x 3 voxels, odd or even by the sum of their
block coordinates. A block is cut into a regular tetrahedron (the middle voxel, 1 1 1) and the
four corners cut off it: the corner voxels (0 or 2 in each coordinate) at the block's
vertices whose coordinates (in blocks) add up to an odd number. The eight corners around such
a vertex make a regular octahedron: the 2 x 2 x 2 voxels around the vertex.

The symmetries are the cube's 48 about a block's centre (a coordinate reflected is
``k -> 4 - k`` on the rhombic grid, ``k -> 5 - k`` on the tetra-octa grid), and a shape moves
only by whole blocks (the rhombic grid) or by blocks that keep a block's parity (tetra-octa):
BurrTools' rule of placing a turned shape only "on grid". The parity weight counts sub-cells
in even blocks against those in odd ones (rhombic) and the tetrahedra of even blocks against
those of odd ones, which point the other way (tetra-octa).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product

from polyfit.hookspecs import hookimpl
from polyfit.lattices.base import Lattice
from polyfit.lattices.grid import Transform, lattice_group


@dataclass(frozen=True, order=True)
class FineTransform:
    """A symmetry fixing a block's centre: ``linear`` (a signed permutation of the coordinates)
    about that centre, where a coordinate reflected is ``k -> reflect - k``."""

    linear: Transform
    reflect: int

    def __call__(self, cell):
        k = self.reflect
        return tuple(cell[p] if s > 0 else k - cell[p] for p, s in zip(self.linear.perm, self.linear.signs))

    def apply(self, cells):
        (p, q, r), (a, b, c), k = self.linear.perm, self.linear.signs, self.reflect
        u, v, w = (0 if a > 0 else k), (0 if b > 0 else k), (0 if c > 0 else k)
        return tuple((u + a * x[p], v + b * x[q], w + c * x[r]) for x in cells)

    def then(self, other: FineTransform) -> FineTransform:
        """The transform that applies ``self`` first and ``other`` second."""
        return FineTransform(self.linear.then(other.linear), self.reflect)

    @property
    def is_proper(self) -> bool:
        return self.linear.is_proper

    @property
    def is_identity(self) -> bool:
        return self.linear.is_identity


class FineGrid(Lattice):
    """What the two fine grids share: cells on a cubic grid of voxels, cut into blocks."""

    dim = 3
    all_translations = False
    block = 1  # voxels along a block's side
    reflect = 0  # a reflected coordinate k goes to reflect - k

    def __init__(self):
        group = [FineTransform(t, self.reflect) for t in lattice_group(3, True)]
        group.sort(key=lambda g: (not g.is_identity, g))
        self._groups = {True: tuple(group), False: tuple(g for g in group if g.is_proper)}

    def group(self, mirror: bool = True):
        return self._groups[bool(mirror)]

    def flood_steps(self):
        steps = {}
        for origin in self.origins:  # every kind of cell, and where its neighbours lie
            for n in self.neighbours(origin):
                steps.setdefault(tuple(a - b for a, b in zip(n, origin)), set()).add(origin)
        result = []
        for offset, kinds in sorted(steps.items()):
            # a cell is of one of these kinds when its coset is one of theirs
            kinds = frozenset(self.coset(k) for k in kinds)
            result.append((offset, lambda cell, kinds=kinds: self.coset(cell) in kinds))
        return result

    def kind(self, cell):
        """The cell of :attr:`origins` that this one is a translate of."""
        return self.normalize([cell])[0]

    def art_problem(self, cell):
        if self.is_cell(cell):
            return None
        return f"voxel (z, y, x) = {cell} is not a sub-cell of the {self.name} grid"

    def cell_corners(self, cell) -> tuple:
        """The four corners of the sub-cell's tetrahedron in space, ``(x, y, z)`` in blocks (a
        block is the unit cube ``[x, x + 1] x [y, y + 1] x [z, z + 1]`` of voxels ``block *
        (z, y, x)`` onwards), x along the voxels' columns, y along their rows, z up, as cubes
        are drawn."""
        block = [k // self.block for k in cell]
        local = [k % self.block for k in cell]
        corners = self._corners(block, local)
        return tuple((float(p[2]), float(p[1]), float(p[0])) for p in corners)

    def parity_story(self, cells) -> str:
        even = sum(1 for c in cells if self.parity_weight(c) > 0)
        odd = sum(1 for c in cells if self.parity_weight(c) < 0)
        return f"{self.parity_name} parity: the board has {even} {self.parity_cells} in even blocks and {odd} in odd ones"

    def flat_layers(self, labels: dict):
        """Pictures draw each layer of voxels from above, its sub-cells as separate squares
        (the voxels that are no cells left blank), the layers in rows of a few, bottom
        first, left to right."""
        if not labels:
            return {}, LAYER_SQUARES
        low = [min(c[i] for c in labels) for i in range(3)]
        high = [max(c[i] for c in labels) for i in range(3)]
        layers = high[0] - low[0] + 1
        across = max(1, round(layers ** 0.5))
        tall, wide = high[1] - low[1] + 4, high[2] - low[2] + 4
        placed = {}
        for (z, y, x), label in labels.items():
            row, column = divmod(z - low[0], across)
            placed[(y - low[1] + row * tall, x - low[2] + column * wide)] = label
        return placed, LAYER_SQUARES


class _LayerSquares(Lattice):
    """The plane a layer of sub-cells is drawn on: each voxel a square a little smaller than
    its place, so that sub-cells that only meet at an edge in space do not look joined."""

    name = "sub-cell layers"
    dim = 2

    def polygon(self, cell):
        r, c = cell
        inset = 0.12
        return [(c + inset, r + inset), (c + 1 - inset, r + inset), (c + 1 - inset, r + 1 - inset), (c + inset, r + 1 - inset)]


LAYER_SQUARES = _LayerSquares()


class RhombicGrid(FineGrid):
    name = "rhombic"
    summary = "rhombic dodecahedra of 48 tetrahedra: BurrTools' grid 3, cells (z, y, x) of 5x5x5 blocks, 48 symmetries"
    block = 5
    reflect = 4
    parity_name = "block"
    parity_cells = "sub-cells"
    origins = tuple(sorted(c for c in product(range(5), repeat=3)
                           if sorted(min(k, 4 - k) for k in c) == [0, 1, 2]))

    def is_cell(self, cell) -> bool:
        return sorted(min(k % 5, 4 - k % 5) for k in cell) == [0, 1, 2]

    def neighbours(self, cell):
        local = [k % 5 for k in cell]
        folded = [min(k, 4 - k) for k in local]
        a, b, c = folded.index(0), folded.index(1), folded.index(2)
        out = -1 if local[a] == 0 else 1  # the face: low or high side along axis a
        side = -1 if local[b] == 1 else 1  # the face's edge: low or high along axis b

        def moved(**steps):
            cell_ = list(cell)
            for axis, step in steps.items():
                cell_[{"a": a, "b": b, "c": c}[axis]] += step
            return tuple(cell_)

        yield moved(a=out)  # across the face, in the next block
        yield moved(b=-side, c=-1)  # the face's two quarters beside this one
        yield moved(b=-side, c=1)
        yield moved(a=-out, b=side)  # across the edge, on the neighbouring face

    def is_translation(self, shift) -> bool:
        return all(s % 5 == 0 for s in shift)

    def coset(self, cell):
        return (cell[0] % 5, cell[1] % 5, cell[2] % 5)

    def normal_shift(self, cells):
        return tuple(-5 * (min(axis) // 5) for axis in zip(*cells))

    def parity_weight(self, cell) -> int:
        return 1 if sum(k // 5 for k in cell) % 2 == 0 else -1

    @staticmethod
    def _corners(block, local):
        """The block's centre, the centre of the sub-cell's face, and the two ends of that
        face's edge (voxel order z, y, x)."""
        folded = [min(k, 4 - k) for k in local]
        a, b, c = folded.index(0), folded.index(1), folded.index(2)
        centre = [k + 0.5 for k in block]
        face = list(centre)
        face[a] = block[a] + (local[a] == 4)
        edge = list(face)
        edge[b] = block[b] + (local[b] == 3)
        ends = []
        for end in (0, 1):
            point = list(edge)
            point[c] = block[c] + end
            ends.append(point)
        return [centre, face, *ends]

    def dodecahedron(self, where):
        """The 48 sub-cells of the rhombic dodecahedron centred on block ``where``: its 24 and
        the 4 of each neighbouring block that lie on the shared face."""
        base = tuple(5 * b for b in where)
        cells = [tuple(a + b for a, b in zip(base, o)) for o in self.origins]
        for axis in range(3):
            for step, face in ((-1, 4), (1, 0)):
                for o in self.origins:
                    if o[axis] == face:
                        cells.append(tuple(b + k + (5 * step if i == axis else 0) for i, (b, k) in enumerate(zip(base, o))))
        return tuple(sorted(cells))


class TetraOctaGrid(FineGrid):
    name = "tetra-octa"
    summary = "tetrahedra and octahedra (octahedra of 8 eighths): BurrTools' grid 4, cells (z, y, x) of 3x3x3 blocks, 48 symmetries"
    block = 3
    reflect = 5
    parity_name = "tetrahedron"
    parity_cells = "tetrahedra"

    def is_cell(self, cell) -> bool:
        local = [k % 3 for k in cell]
        if local == [1, 1, 1]:
            return True
        if 1 in local:
            return False
        # a corner at a vertex whose block coordinates add up to an odd number
        return (sum(k // 3 for k in cell) + sum(1 for k in local if k == 2)) % 2 == 1

    def neighbours(self, cell):
        local = [k % 3 for k in cell]
        if local == [1, 1, 1]:  # the tetrahedron: the four corners of its block
            for step in product((-1, 1), repeat=3):
                n = tuple(k + s for k, s in zip(cell, step))
                if self.is_cell(n):
                    yield n
            return
        yield tuple(k + 1 - l for k, l in zip(cell, local))  # the block's tetrahedron
        for axis in range(3):  # the eighths of the octahedron across each of its square faces
            n = list(cell)
            n[axis] += -1 if local[axis] == 0 else 1
            yield tuple(n)

    def is_translation(self, shift) -> bool:
        return all(s % 3 == 0 for s in shift) and sum(s // 3 for s in shift) % 2 == 0

    def coset(self, cell):
        # with equal remainders b - c = 3 * (b // 3 - c // 3), so the blocks' parities decide
        return (cell[0] % 3, cell[1] % 3, cell[2] % 3, (cell[0] // 3 + cell[1] // 3 + cell[2] // 3) % 2)

    def normal_shift(self, cells):
        low = [min(axis) // 3 for axis in zip(*cells)]
        if sum(low) % 2:
            low[2] -= 1
        return tuple(-3 * b for b in low)

    def parity_weight(self, cell) -> int:
        if [k % 3 for k in cell] != [1, 1, 1]:
            return 0
        return 1 if sum(k // 3 for k in cell) % 2 == 0 else -1

    @staticmethod
    def _corners(block, local):
        """The middle voxel: the block's corners whose coordinates add up to an even number. A
        corner voxel: the block's vertex it sits at and that vertex's three neighbours along the
        block's edges (voxel order z, y, x)."""
        if local == [1, 1, 1]:
            return [[b + e for b, e in zip(block, step)] for step in product((0, 1), repeat=3)
                    if (sum(block) + sum(step)) % 2 == 0]
        vertex = [b + k // 2 for b, k in zip(block, local)]
        corners = [vertex]
        for axis in range(3):
            point = list(vertex)
            point[axis] += 1 if local[axis] == 0 else -1
            corners.append(point)
        return corners

    def tetrahedron(self, where):
        """The tetrahedron of block ``where``: its middle voxel."""
        return (tuple(3 * b + 1 for b in where),)

    def octahedron(self, where):
        """The 8 eighths of the octahedron about vertex ``where`` (in blocks; its coordinates
        add up to an odd number): the 2 x 2 x 2 voxels about it."""
        if sum(where) % 2 == 0:
            raise ValueError(f"no octahedron about vertex {where}: its coordinates add up to an even number")
        return tuple(sorted(tuple(3 * v + d for v, d in zip(where, step)) for step in product((-1, 0), repeat=3)))


RHOMBIC = RhombicGrid()
TETRA_OCTA = TetraOctaGrid()
# one sub-cell of each kind: those of an even block and of the odd one beside it
TETRA_OCTA.origins = tuple(sorted(c for c in product(range(3), range(3), range(6)) if TETRA_OCTA.is_cell(c)))


@hookimpl
def register_lattices(register):
    register(RHOMBIC)
    register(TETRA_OCTA)
