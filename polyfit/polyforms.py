"""Enumerate polyforms on the square and cubic lattices by Redelmeier's method.

Fixed polyforms (distinct under translation) are grown from an origin cell, adding only cells
that come after the origin in lexicographic order, from an "untried" set passed down the
recursion: each fixed polyform is produced exactly once, with no table of those seen. One-sided
and free forms are the classes of fixed ones under rotations, or rotations and reflections.
"""

from __future__ import annotations

from functools import cache

from .geometry import Shape, lattice_group, neighbours, normalize


def _fixed_raw(n: int, dim: int):
    origin = (0,) * dim
    polyform: list = []
    seen = {origin}
    out = []

    def grow(untried: list):
        untried = list(untried)
        while untried:
            cell = untried.pop()
            polyform.append(cell)
            if len(polyform) == n:
                out.append(tuple(polyform))
            else:
                new = [c for c in neighbours(cell) if c > origin and c not in seen]
                seen.update(new)
                grow(untried + new)
                seen.difference_update(new)
            polyform.pop()

    grow([origin])
    return out


@cache
def fixed(n: int, dim: int = 2) -> tuple[Shape, ...]:
    """Every fixed n-cell polyform, normalized, sorted."""
    if n < 1:
        return ()
    return tuple(sorted(normalize(p) for p in _fixed_raw(n, dim)))


def _classes(n: int, dim: int, mirror: bool) -> tuple[Shape, ...]:
    # Each class is met once: all its fixed members are marked seen when the first one is.
    group = lattice_group(dim, mirror)
    seen = set()
    result = []
    for shape in fixed(n, dim):
        if shape in seen:
            continue
        images = {normalize(g.apply(shape)) for g in group}
        seen |= images
        result.append(min(images))
    return tuple(sorted(result))


@cache
def one_sided(n: int, dim: int = 2) -> tuple[Shape, ...]:
    """One representative per class under rotations (mirror images distinct), sorted."""
    return _classes(n, dim, mirror=False)


@cache
def free(n: int, dim: int = 2) -> tuple[Shape, ...]:
    """One representative per class under rotations and reflections, sorted."""
    return _classes(n, dim, mirror=True)
