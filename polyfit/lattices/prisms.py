"""Triangular prisms: the triangle lattice stacked in layers (BurrTools' grid type 1).

Cell ``(z, r, c)`` is the prism standing on triangle ``(r, c)`` of layer z
(:mod:`polyfit.lattices.triangle`: it points up when r + c is even), one unit tall. Its five
neighbours share a face: ``(z, r, c -+ 1)`` and the triangle across its horizontal side in
the same layer, and ``(z -+ 1, r, c)`` above and below. Text art draws the layers as the
triangle lattice draws one (line r, character c), bottom layer first, a blank line between
layers, as for cubes.

The 24 symmetries fixing a point are the triangle lattice's 12 (turns by 60 degrees and
reflections in a vertical plane) with or without turning the layers upside down
(``z -> -z``); a symmetry is proper (a rotation in space) when it keeps the plane's turning
sense and the layers' order, or reverses both (a half turn about a horizontal axis).
"""

from __future__ import annotations

from dataclasses import dataclass

from polyfit.hookspecs import hookimpl
from polyfit.lattices.base import Lattice
from polyfit.lattices.triads import AffineImages, affine_images, affine_maps, even_normal_shift
from polyfit.lattices.triangle import TRIANGLE, TriangleTransform, is_up


@dataclass(frozen=True, order=True)
class PrismTransform:
    """A symmetry of the prism lattice: ``upside_down`` negates z, ``plane`` moves each layer
    (a :class:`~polyfit.lattices.triangle.TriangleTransform`). Sorted, the identity first."""

    upside_down: bool
    plane: TriangleTransform

    def __call__(self, cell):
        z = -cell[0] if self.upside_down else cell[0]
        return (z,) + self.plane(cell[1:])

    @property
    def affine(self):
        """``(maps, layers)`` for :func:`~polyfit.lattices.triads.affine_images` (None when
        the plane's transform is not affine)."""
        maps = affine_maps(self.plane)
        return None if maps is None else (maps, -1 if self.upside_down else 1)

    def apply(self, cells):
        affine = self.affine
        if affine is not None:  # each layer's plane and the layers in one pass
            return affine_images(affine[0], cells, affine[1])
        cells = list(cells)
        layers = [-c[0] if self.upside_down else c[0] for c in cells]
        return tuple([(z,) + flat for z, flat in zip(layers, self.plane.apply([c[1:] for c in cells]))])

    def then(self, other: PrismTransform) -> PrismTransform:
        """The transform that applies ``self`` first and ``other`` second."""
        return PrismTransform(self.upside_down != other.upside_down, self.plane.then(other.plane))

    @property
    def is_proper(self) -> bool:
        return self.plane.is_proper != self.upside_down

    @property
    def is_identity(self) -> bool:
        return not self.upside_down and self.plane.is_identity


def _group(mirror: bool) -> tuple[PrismTransform, ...]:
    plane = TRIANGLE.group(True)
    every = [PrismTransform(flip, g) for flip in (False, True) for g in plane]
    return tuple(sorted(g for g in every if mirror or g.is_proper))


_GROUPS = {True: _group(True), False: _group(False)}

# A layer up, a triangle's side along a row, one up at 60 and at 120 degrees (rows run down).
MOTION_DIRECTIONS = ((1, 0, 0), (0, 0, 2), (0, -1, 1), (0, -1, -1))


def _up(cell) -> bool:
    return is_up(cell[1:])


class PrismLattice(AffineImages, Lattice):
    name = "prisms"
    dim = 3
    summary = "triangular prisms: the triangle lattice in layers, cells (z, r, c), 24 symmetries"
    origins = ((0, 0, 0), (0, 0, 1))  # on an up and on a down triangle
    parity_name = "up/down"
    all_translations = False
    plane = TRIANGLE  # each layer is the triangle lattice (solids are built from it)

    def neighbours(self, cell):
        z, r, c = cell
        yield (z, r, c - 1)
        yield (z, r, c + 1)
        yield (z, r + 1, c) if (r + c) % 2 == 0 else (z, r - 1, c)
        yield (z - 1, r, c)
        yield (z + 1, r, c)

    def is_translation(self, shift) -> bool:
        return (shift[1] + shift[2]) % 2 == 0

    def coset(self, cell):
        return (cell[1] + cell[2]) % 2

    def flood_steps(self):
        return [
            ((-1, 0, 0), None),
            ((1, 0, 0), None),
            ((0, 0, -1), None),
            ((0, 0, 1), None),
            ((0, 1, 0), _up),
            ((0, -1, 0), lambda cell: not _up(cell)),
        ]

    def group(self, mirror: bool = True):
        return _GROUPS[bool(mirror)]

    def motion_directions(self):
        # BurrTools' four lines (polyfit.motion.prisms: the cells a step sweeps)
        return MOTION_DIRECTIONS

    def normal_shift(self, cells):
        return even_normal_shift(cells)

    def art_origin(self, row, col):
        return TRIANGLE.art_origin(row, col)

    def parity_weight(self, cell) -> int:
        return 1 if _up(cell) else -1

    def parity_story(self, cells) -> str:
        up = sum(1 for c in cells if _up(c))
        return f"up/down parity: the board has {up} prisms on up and {len(cells) - up} on down triangles"

    def polygon(self, cell):
        """The outline of the prism's triangle (its layer's drawing)."""
        return TRIANGLE.polygon(cell[-2:])

    def flat_layers(self, labels: dict):
        """Pictures draw the layers as triangles side by side, bottom first, a triangle's side
        apart (an even shift of columns keeps each triangle pointing its way)."""
        if not labels:
            return {}, TRIANGLE
        low = min(c[2] for c in labels)
        width = max(c[2] for c in labels) - low + 1
        step = width + 2 + width % 2
        z0 = min(c[0] for c in labels)
        return {(r, c + (z - z0) * step): label for (z, r, c), label in labels.items()}, TRIANGLE


PRISMS = PrismLattice()


@hookimpl
def register_lattices(register):
    register(PRISMS)

