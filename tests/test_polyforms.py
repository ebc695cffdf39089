"""The polyform enumerator: published counts, exactly-once growth, and the class reductions."""

import pytest

from polyfit.lattices.grid import canonical, is_connected, lattice_group, normalize, orientations
from polyfit.lattices.polyforms import fixed, free, one_sided, redelmeier

# OEIS A001168, A000988, A000105 (polyominoes); A001931, A000162, A038119 (polycubes).
POLYOMINOES = {
    "fixed": [1, 2, 6, 19, 63, 216, 760, 2725, 9910],
    "one_sided": [1, 1, 2, 7, 18, 60, 196, 704, 2500],
    "free": [1, 1, 2, 5, 12, 35, 108, 369, 1285],
}
POLYCUBES = {
    "fixed": [1, 3, 15, 86, 534, 3481, 23502],
    "one_sided": [1, 1, 2, 8, 29, 166, 1023],  # up to proper rotations
    "free": [1, 1, 2, 7, 23, 112, 607],  # up to rotations and mirroring
}
ENUMERATORS = {"fixed": fixed, "one_sided": one_sided, "free": free}


@pytest.mark.parametrize("kind", sorted(POLYOMINOES))
def test_polyomino_counts(kind):
    got = [len(ENUMERATORS[kind](n, 2)) for n in range(1, 10)]
    assert got == POLYOMINOES[kind]


@pytest.mark.parametrize("kind", sorted(POLYCUBES))
def test_polycube_counts(kind):
    got = [len(ENUMERATORS[kind](n, 3)) for n in range(1, 8)]
    assert got == POLYCUBES[kind]


def naive_fixed(n, dim):
    """Grow every fixed (k-1)-form by each neighbouring cell and drop duplicates with a set."""
    forms = {((0,) * dim,)}
    for _ in range(n - 1):
        bigger = set()
        for form in forms:
            cells = set(form)
            for cell in form:
                for i in range(dim):
                    for step in (-1, 1):
                        new = cell[:i] + (cell[i] + step,) + cell[i + 1 :]
                        if new not in cells:
                            bigger.add(normalize(cells | {new}))
        forms = bigger
    return sorted(forms)


@pytest.mark.parametrize("n, dim", [(n, 2) for n in range(1, 8)] + [(n, 3) for n in range(1, 6)])
def test_each_fixed_polyform_exactly_once(n, dim):
    raw = list(redelmeier(n, dim))
    shapes = [normalize(p) for p in raw]
    assert len(set(shapes)) == len(raw)  # no polyform is grown twice
    assert sorted(shapes) == naive_fixed(n, dim)  # and none is missed
    origin = (0,) * dim
    for p in raw:
        assert len(set(p)) == n and min(p) == origin and is_connected(p)


@pytest.mark.parametrize("dim", [2, 3])
def test_results_are_sorted_normalized_and_stable(dim):
    for enumerate_ in (fixed, one_sided, free):
        shapes = enumerate_(5, dim)
        assert list(shapes) == sorted(shapes)
        assert all(shape == normalize(shape) for shape in shapes)
        assert enumerate_.__wrapped__(5, dim) == shapes  # the same without the cache


@pytest.mark.parametrize("mirror", [False, True])
@pytest.mark.parametrize("n, dim", [(6, 2), (4, 3), (5, 3)])
def test_classes_partition_the_fixed_polyforms(n, dim, mirror):
    group = lattice_group(dim, mirror)
    representatives = (free if mirror else one_sided)(n, dim)
    orbits = [set(orientations(shape, group)) for shape in representatives]
    assert all(canonical(shape, group) == shape for shape in representatives)
    assert sum(len(orbit) for orbit in orbits) == len(fixed(n, dim))
    assert set().union(*orbits) == set(fixed(n, dim))


def test_small_and_degenerate_sizes():
    assert fixed(0) == () and list(redelmeier(0, 2)) == []
    assert fixed(1, 3) == (((0, 0, 0),),)
    assert [len(fixed(n, 1)) for n in range(1, 6)] == [1, 1, 1, 1, 1]  # the lattice is generic
    assert free(2) == (((0, 0), (0, 1)),)
    assert one_sided(3) == (((0, 0), (0, 1), (0, 2)), ((0, 0), (0, 1), (1, 0)))
