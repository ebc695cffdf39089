"""A piece's orientations on squares and cubes, numbered once (polyfit.puzzle.orientations), are
the ones made cell by cell: every image of the piece under the lattice's group, normalized and
sorted, with its colours, found in the same order, with the same turns."""

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from helpers import examples
from polyfit.lattices.grid import lattice_group
from polyfit.puzzle.orientations import group, normal, oriented, turned


@st.composite
def pieces(draw):
    """Normalized cells (2D or 3D, spanning up to 6 along an axis), maybe with colours."""
    dim = draw(st.sampled_from([2, 3]))
    cells = draw(st.sets(st.tuples(*[st.integers(0, 5)] * dim), min_size=1, max_size=14))
    cells = sorted(cells)
    coloured = draw(st.booleans())
    colours = tuple(draw(st.integers(1, 2)) for _ in cells) if coloured else ()
    return normal(cells, colours)


def plain(cells, colours, mirror):
    """The orientations made cell by cell: {(shape, colouring): first transform number}."""
    transforms, number, _ = group(len(cells[0]))
    found = {}
    for g in lattice_group(len(cells[0]), mirror):
        key = normal(g.apply(cells), colours)
        found.setdefault(key, number[g])
    return found


@pytest.mark.parametrize("max_examples", examples(50, 200))
def test_orientations_numbered_are_the_orientations_made_cell_by_cell(max_examples):
    @settings(max_examples=max_examples, deadline=None)
    @given(pieces(), st.booleans(), pieces())
    @example((((0, 0), (1, 0)), ()), False, (((0, 0), (0, 2)), ()))  # numbered in the domino's base, (0, 2) is (1, 0)
    def check(piece, mirror, other):
        cells, colours = piece
        form = oriented(cells, mirror, colours)
        found = plain(cells, colours, mirror)
        keys = sorted(found)
        assert list(zip(form.shapes, form.colourings)) == keys
        assert form.turns == tuple(found[k] for k in keys)
        assert form.index == {k: i for i, k in enumerate(keys)}
        assert form.extents == tuple(tuple(max(c[i] for c in shape) + 1 for i in range(len(cells[0])))
                                     for shape in form.shapes)
        transforms = group(len(cells[0]))[0]
        # Where each transform of the whole group turns this piece, another one, and images of it.
        images = [normal(g.apply(cells), colours) for g in transforms[::7]]
        for source in [piece, other] + images:
            if len(source[0][0]) != len(cells[0]):
                continue
            expected = tuple(form.index.get(normal(g.apply(source[0]), source[1]), -1) for g in transforms)
            assert turned(source[0], source[1], form) == expected

    check()


@settings(max_examples=100, deadline=None)
@given(pieces(), st.booleans(), st.integers(1, 40), st.integers(1, 40))
def test_an_orientations_places_are_its_cells_times_the_strides(piece, mirror, a, b):
    """In C (from the cells' numbers) and in Python (a table of them, or cell by cell)."""
    from array import array

    from polyfit.puzzle import orientations

    cells, colours = piece
    form = oriented(cells, mirror, colours)
    strides = (a * b + b + 1, b + 1, 1)[3 - len(cells[0]):]
    for number, shape in enumerate(form.shapes):
        expected = [sum(c * s for c, s in zip(cell, strides)) for cell in shape]
        form.grid_places.clear()
        assert list(array("i", bytes(orientations.places(form, number, strides)))) == expected
        saved = orientations._regions
        try:
            orientations._regions = None
            form.grid_places.clear()
            assert list(orientations.places(form, number, strides)) == expected
        finally:
            orientations._regions = saved


@settings(max_examples=200, deadline=None)
@given(pieces(), st.booleans())
def test_the_images_numbered_in_c_are_those_numbered_in_python(piece, mirror):
    from polyfit.puzzle import orientations

    if orientations._regions is None:
        return  # (under POLYFIT_REQUIRE_C=1 the C flood fill's tests fail instead)
    cells, colours = piece
    transforms = lattice_group(len(cells[0]), mirror)
    radix = max(max(c) for c in cells) + 1
    for base in (radix, radix + 3):  # the piece's own base, or another's larger one
        found = orientations.numbered_images(cells, colours, transforms, base, native=True)
        assert found == orientations.numbered_images(cells, colours, transforms, base, native=False)


def test_the_images_in_c_refuse_what_they_cannot_number():
    from polyfit.puzzle import orientations

    if orientations._regions is None:
        return
    images = orientations._regions.images
    identity = (((0, 1), (1, 1)),)
    assert images(((0, 0), (0, 2)), (), identity, 3) == [((0, 2), ())]
    for cells, colours, transforms, radix in [(((0, 0), (0, 3)), (), identity, 3), (((0, -1),), (), identity, 3),
                                             ((), (), identity, 3), (((0, 0),), (1, 2), identity, 3),
                                             (((0, 0),), (), (((0, 0), (1, 1)),), 3), (((0, 0),), (), identity, 0),
                                             (((0, 0),), (), (((0, 1), (1, 2)),), 3), (((0, 0, 0),), (), identity, 3),
                                             (((0, 1), (0, 1)), (), identity, 3), (((0, 1), (0, 1)), (), identity, 99)]:
        with pytest.raises(ValueError):
            images(cells, colours, transforms, radix)
