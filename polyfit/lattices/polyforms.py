"""Enumerate polyforms on the square and cubic lattices by Redelmeier's method.

Fixed polyforms (distinct under translation) are grown from an origin cell that stays the least
cell of every polyform grown from it: only cells after the origin in lexicographic order are
ever added. Each cell offered for growth sits in an "untried" set handed down the recursion;
once a branch has tried a cell, its later siblings never see it again. So each fixed polyform is
produced exactly once, with no table of those already seen (Redelmeier 1981, as in Knuth's
``polyenum``).

One-sided forms are the classes of fixed ones under rotations, free forms under rotations and
reflections; each class is represented by its least orientation (``geometry.canonical``).

``dim`` is 2 or 3 for squares and cubes (any dimension works), or a lattice's name
(``"triangle"``, ``"hex"``, a plugin's): the enumeration then asks that lattice
(:meth:`polyfit.lattices.base.Lattice.redelmeier`, its normal form and group).
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache

from polyfit.lattices import base
from polyfit.lattices.grid import Shape, lattice_group, neighbours, normalize, orientations


def redelmeier(n: int, dim: int | str = 2) -> Iterator[Shape]:
    """Yield every fixed ``n``-cell polyform once, grown from the origin (not normalized).

    The origin is the lexicographically least cell of each one, so no two are translates.
    """
    if isinstance(dim, str):
        yield from base.get(dim).redelmeier(n)
        return
    yield from base.grow_polyforms(n, (0,) * dim, neighbours)


@cache
def fixed(n: int, dim: int | str = 2) -> tuple[Shape, ...]:
    """Every fixed ``n``-cell polyform (distinct under translation), normalized, sorted."""
    norm = base.get(dim).normalize if isinstance(dim, str) else normalize
    return tuple(sorted(norm(p) for p in redelmeier(n, dim)))


def _classes(n: int, dim: int | str, mirror: bool) -> tuple[Shape, ...]:
    # All members of a class are marked seen when its first one is met, so the orbit of each
    # class is computed once rather than once per fixed polyform.
    if isinstance(dim, str):
        lattice = base.get(dim)

        def images_of(shape):
            return lattice.orientations(shape, mirror)
    else:
        group = lattice_group(dim, mirror)

        def images_of(shape):
            return orientations(shape, group)

    seen: set[Shape] = set()
    result = []
    for shape in fixed(n, dim):
        if shape in seen:
            continue
        images = images_of(shape)  # sorted: images[0] is the class's canonical shape
        seen.update(images)
        result.append(images[0])
    return tuple(sorted(result))


@cache
def one_sided(n: int, dim: int | str = 2) -> tuple[Shape, ...]:
    """One canonical shape per class under rotations (mirror images distinct), sorted.

    In 3D these are the polycubes distinct under proper rotations.
    """
    return _classes(n, dim, mirror=False)


@cache
def free(n: int, dim: int | str = 2) -> tuple[Shape, ...]:
    """One canonical shape per class under rotations and reflections, sorted."""
    return _classes(n, dim, mirror=True)
