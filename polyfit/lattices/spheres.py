"""Spheres: the face-centred cubic packing (BurrTools' grid type 2).

Cell ``(z, y, x)`` is the sphere centred at ``(x, y, z)`` of a cubic grid, where x + y + z is
even (the other grid points are holes between spheres). Spheres of diameter sqrt(2) touch
their 12 neighbours: the cells two of whose coordinates differ by 1 and the third by 0. Text
art draws layer z as rows y of characters x, bottom layer first, as for cubes; a layer's
spheres sit on every other character, like the dark squares of a checkerboard.

The symmetries fixing a sphere are the cube's 48 (signed permutations of the coordinates keep
x + y + z even), 24 of them rotations. A piece is a rigid body, though, and a flat piece lying in
a plane of closest packing (a plane x + y + z = constant, or one of its three images: a layer of
triangles) can also be turned by 60 degrees in that plane, which no symmetry of the packing
does: the half turn about the plane's normal moves that layer onto itself and the layers next to
it onto holes. So a piece's orientations (:meth:`SphereLattice.images`) are its images
under the 24 rotations, and, for a piece that is flat in such a plane, those turned by each half
turn about a normal ``(1, ±1, ±1)``: 120 turns in all, BurrTools' 120 transformations of
spheres. Boards keep the 48 symmetries, as in BurrTools (a flat board's turns by 60 degrees
do not make its solutions the same there either).
"""

from __future__ import annotations

from polyfit.hookspecs import hookimpl
from polyfit.lattices.base import Lattice
from polyfit.lattices.grid import lattice_group

STEPS = tuple((dz, dy, dx) for dz in (-1, 0, 1) for dy in (-1, 0, 1) for dx in (-1, 0, 1)
              if abs(dz) + abs(dy) + abs(dx) == 2)
# the normals of the four planes of closest packing, as (z, y, x)
NORMALS = ((1, 1, 1), (1, 1, -1), (1, -1, 1), (-1, 1, 1))


def half_turn(normal, vector):
    """``vector`` turned by half a turn about ``normal`` (one of :data:`NORMALS`): ``2 (v.n) n
    / 3 - v``, or None when that is not a whole vector (the vector leaves the plane through the
    origin by a distance that is not a multiple of three layers)."""
    dot = sum(a * b for a, b in zip(vector, normal))
    if dot % 3:
        return None
    k = 2 * dot // 3
    return tuple(k * n - v for n, v in zip(normal, vector))


class SphereLattice(Lattice):
    name = "spheres"
    dim = 3
    summary = "spheres in face-centred cubic packing (BurrTools' grid 2): cells (z, y, x), x + y + z even, 12 neighbours"
    origins = ((0, 0, 0),)
    parity_name = "even/odd layer"
    all_translations = False
    parity_symmetric = False  # a layer's parity along z is not kept when z changes place with x
    radius = 2 ** 0.5 / 2  # pictures in space draw each cell as a ball of this radius round its centre

    def centre(self, cell):
        """The sphere's centre in space, ``(x, y, z)``: y along the rows, as for cubes."""
        z, y, x = cell
        return (x, y, z)

    def neighbours(self, cell):
        z, y, x = cell
        for dz, dy, dx in STEPS:
            yield (z + dz, y + dy, x + dx)

    def is_cell(self, cell) -> bool:
        return sum(cell) % 2 == 0

    def is_translation(self, shift) -> bool:
        return sum(shift) % 2 == 0

    def coset(self, cell):
        return sum(cell) % 2

    def flood_steps(self):
        return [(step, None) for step in STEPS]

    def group(self, mirror: bool = True):
        return lattice_group(3, mirror)

    def normal_shift(self, cells):
        low = [min(axis) for axis in zip(*cells)]
        # x stops one short of its least value where x + y + z would change parity
        return (-low[0], -low[1], -low[2] + (sum(low) & 1))

    def images(self, cells, mirror: bool = True):
        """The images of ``cells`` under every turn of a rigid body that keeps them on spheres
        (and mirror images when ``mirror``), each with its cells in their order."""
        cells = list(cells)
        if not cells:
            return []
        group = self.group(mirror)
        images = [g.apply(cells) for g in group]
        first = cells[0]
        for normal in NORMALS:
            if any(sum((a - b) * n for a, b, n in zip(c, first, normal)) for c in cells):
                continue  # not flat across this normal: turning it leaves the packing
            # flat pieces are turned by the half turn (its images under the group are then every
            # turn by 60 degrees in the plane, and the plane's images in the other three)
            turned = [half_turn(normal, tuple(a - b for a, b in zip(c, first))) for c in cells]
            images += [g.apply(turned) for g in group]
        return images

    def canonical(self, cells, mirror: bool = True):
        return self.orientations(cells, mirror)[0]

    def parity_weight(self, cell) -> int:
        return 1 if cell[0] % 2 == 0 else -1

    def parity_story(self, cells) -> str:
        even = sum(1 for c in cells if c[0] % 2 == 0)
        return f"layer parity: the board has {even} spheres in even and {len(cells) - even} in odd layers (z)"

    def art_problem(self, cell):
        if sum(cell) % 2:
            return "spheres are where z + row + column is even (every other character of a layer)"
        return None

    def art_origin(self, row, col):
        return row, col - ((row + col) & 1)

    def flat_layers(self, labels: dict):
        """Pictures draw the layers side by side, bottom first, each sphere as the square (a
        diamond on the page) of the layer's points nearest to it, so that spheres touching in
        a layer share a side."""
        if not labels:
            return {}, SPHERE_LAYER
        low = min(c[2] for c in labels)
        width = max(c[2] for c in labels) - low + 1
        z0 = min(c[0] for c in labels)
        step = width + 2
        return {(y, x + (z - z0) * step): label for (z, y, x), label in labels.items()}, SPHERE_LAYER


class _SphereLayer(Lattice):
    """One layer of spheres in pictures: cell ``(y, x)`` drawn as a diamond round its centre."""

    name = "sphere-layer"
    dim = 2

    def neighbours(self, cell):
        y, x = cell
        for dy in (-1, 1):
            for dx in (-1, 1):
                yield (y + dy, x + dx)

    def polygon(self, cell):
        y, x = cell
        cx, cy = x + 0.5, y + 0.5
        return [(cx, cy - 1), (cx + 1, cy), (cx, cy + 1), (cx - 1, cy)]


SPHERE_LAYER = _SphereLayer()
SPHERES = SphereLattice()

@hookimpl
def register_lattices(register):
    register(SPHERES)
