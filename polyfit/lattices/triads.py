"""Symmetries of the triangle and hex lattices, as maps of three coordinates.

Both lattices have the 12 symmetries of a regular hexagon. Written in three coordinates
``(a, b, c)`` (a cell's strips along the three directions of lattice lines), each symmetry
permutes the coordinates and may negate all three: a cyclic permutation turns by 120 degrees,
negation turns by 180 about a point, a swap of two coordinates is a reflection. So a transform is
a permutation and a flag; proper (a rotation) exactly when the permutation is even.

A lattice subclasses :class:`TriadTransform` with its change of coordinates (``to_triad``,
``from_triad``) and what negation is (``FLIP``): ``x -> -x`` around a hexagon's centre,
``x -> -1 - x`` around a triangle's vertex.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import permutations

try:
    from polyfit.lattices import _affine
except ImportError:  # the C extension did not build: the Python twin does the work
    _affine = None

Triad = tuple[int, int, int]


@dataclass(frozen=True, order=True)
class TriadTransform:
    perm: tuple[int, int, int]
    negate: bool

    FLIP = 0  # negation is x -> FLIP - x

    @staticmethod
    def to_triad(cell) -> Triad:
        raise NotImplementedError

    @staticmethod
    def from_triad(triad: Triad):
        raise NotImplementedError

    def triad(self, t: Triad) -> Triad:
        p = self.perm
        if self.negate:
            f = self.FLIP
            return (f - t[p[0]], f - t[p[1]], f - t[p[2]])
        return (t[p[0]], t[p[1]], t[p[2]])

    def __call__(self, cell):
        return self.from_triad(self.triad(self.to_triad(cell)))

    @property
    def affine(self):
        """``(maps, layers)`` for :func:`affine_images` (None when not affine)."""
        maps = affine_maps(self)
        return None if maps is None else (maps, 0)

    def apply(self, cells):
        affine = self.affine
        if affine is not None:  # one sum per coordinate and cell (see affine_maps)
            return affine_images(affine[0], cells, affine[1])
        to, back, (p, q, r) = self.to_triad, self.from_triad, self.perm
        if self.negate:
            f = self.FLIP
            return tuple([back((f - t[p], f - t[q], f - t[r])) for t in map(to, cells)])
        return tuple([back((t[p], t[q], t[r])) for t in map(to, cells)])

    def then(self, other: TriadTransform) -> TriadTransform:
        """The transform that applies ``self`` first and ``other`` second."""
        return type(self)(tuple(self.perm[p] for p in other.perm), self.negate != other.negate)

    @property
    def is_proper(self) -> bool:
        p = self.perm
        inversions = sum(1 for i in range(3) for j in range(i + 1, 3) if p[i] > p[j])
        return inversions % 2 == 0

    @property
    def is_identity(self) -> bool:
        return self.perm == (0, 1, 2) and not self.negate


_AFFINE: dict = {}


def affine_maps(transform: TriadTransform):
    """The transform as two affine maps, one for the cells (r, c) with r + c even and one for
    the odd ones, or None when it is not affine on them. Within a class a cell is
    ``(p + k·(0, 2) + r·(1, 1))`` for its row r, ``k = (c - p - r) / 2`` and its class p, and
    a symmetry of the lattice moves the cells of a class rigidly: so an image is the image of
    ``(0, p)`` plus r times the step of ``(1, 1)`` plus k times that of ``(0, 2)``, as
    ``(a, b, ar, br, ak, bk)``. Worked out from three cells per class and checked on a square of
    cells around the origin (a lattice whose coordinates behave otherwise keeps the triads)."""
    key = (type(transform), transform.perm, transform.negate)
    if key in _AFFINE:
        return _AFFINE[key]

    def exact(cell):
        t = transform.to_triad(cell)
        return transform.from_triad(transform.triad(t))

    maps = []
    for p in (0, 1):
        a, b = exact((0, p))
        (ar, br), (ak, bk) = [(x - a, y - b) for x, y in (exact((1, 1 + p)), exact((0, 2 + p)))]
        maps.append((a, b, ar, br, ak, bk))
    maps = tuple(maps)
    square = [(r, c) for r in range(-7, 8) for c in range(-7, 8)]
    _AFFINE[key] = maps = maps if affine_images(maps, square) == tuple(map(exact, square)) else None
    return maps


def affine_images(maps, cells, layers: int = 0, normal: bool = False, native: bool | None = None) -> tuple:
    """The images of cells ``(r, c)`` under a transform's :func:`affine_maps`; with
    ``layers`` (1 or -1), of cells ``(z, r, c)`` whose layer goes to ``layers * z``. In the
    order of ``cells``, or with ``normal`` moved to normal position (:func:`even_normal_shift`)
    and sorted. polyfit/lattices/_affine.c's ``affine_images`` when it built (``native``: that
    or the Python twin)."""
    if (_affine is not None) if native is None else native:
        return _affine.affine_images(maps, cells, layers, normal)
    images = _affine_images(maps, cells, layers)
    if not normal or not images:
        return images
    shift = even_normal_shift(images)
    return tuple(sorted([tuple(x + d for x, d in zip(cell, shift)) for cell in images]))


def normal_images(group, cells) -> list | None:
    """Each transform's image of the cells in normal position and sorted, as
    :meth:`~polyfit.lattices.base.Lattice.normal_images` makes them, from the transforms'
    affine maps (``affine``); None when some transform has none."""
    affine = [g.affine for g in group]
    if None in affine:
        return None
    cells = tuple(cells)
    return [affine_images(maps, cells, layers, normal=True) for maps, layers in affine]


class AffineImages:
    """For a lattice whose transforms have affine maps (``affine``): the normal forms of a
    shape's images all made at once by :func:`normal_images`."""

    def normal_images(self, cells, mirror: bool = True) -> list:
        found = normal_images(self.group(mirror), cells)
        return super().normal_images(cells, mirror) if found is None else found


def _affine_images(maps, cells, layers: int = 0) -> tuple:
    """:func:`affine_images` in Python, in the order of ``cells``."""
    (a0, b0, ar0, br0, ak0, bk0), (a1, b1, ar1, br1, ak1, bk1) = maps
    images = []
    add = images.append
    if layers:
        for z, r, c in cells:
            if (r + c) & 1:
                k = (c - 1 - r) >> 1
                add((layers * z, a1 + r * ar1 + k * ak1, b1 + r * br1 + k * bk1))
            else:
                k = (c - r) >> 1
                add((layers * z, a0 + r * ar0 + k * ak0, b0 + r * br0 + k * bk0))
        return tuple(images)
    for r, c in cells:
        if (r + c) & 1:
            k = (c - 1 - r) >> 1
            add((a1 + r * ar1 + k * ak1, b1 + r * br1 + k * bk1))
        else:
            k = (c - r) >> 1
            add((a0 + r * ar0 + k * ak0, b0 + r * br0 + k * bk0))
    return tuple(images)


def triad_group(kind: type[TriadTransform], mirror: bool) -> tuple[TriadTransform, ...]:
    """The 12 symmetries (the 6 rotations without ``mirror``), sorted: the identity first."""
    group = [kind(perm, negate) for perm in permutations(range(3)) for negate in (False, True)]
    return tuple(sorted(g for g in group if mirror or g.is_proper))


def even_normal_shift(cells) -> tuple[int, ...]:
    """Move the least row to 0 and the least column to 0 (or 1: a translation of the triangle
    and hex lattices moves row + column by an even number); cells of three coordinates (z, r, c)
    also have their least layer moved to 0."""
    low = [min(axis) for axis in zip(*cells)]
    dr, dc = -low[-2], -low[-1]
    if (dr + dc) % 2:
        dc += 1
    return (-low[0], dr, dc) if len(low) == 3 else (dr, dc)
