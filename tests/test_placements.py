"""Placement pruning: the local region test agrees with the whole-board one, and big boards
are prepared in time near linear in their size."""

from __future__ import annotations

import itertools
from array import array
import random

import pytest

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from polyfit.lattices import base as lattices
from polyfit.puzzle import placements as pl
from polyfit.puzzle.piece_sets import polyominoes
from polyfit.puzzle.pieces import Piece


def both_ways(cells, pieces, counts, optional):
    generated = pl.generate(cells, pieces, counts)
    sizes = [p.size for p in pieces]
    makeable = {}
    for i in {p.piece for p in generated}:
        others = [(0, hi - 1) if j == i else (0, hi) for j, (_, hi) in enumerate(counts)]
        makeable[i] = pl.reachable_areas(sizes, others)
    whole = pl._whole_board_regions(cells, optional, makeable)
    # A small cap makes the local test stop its fills early and take every path it has.
    local = pl._LocalRegions(cells, optional, makeable, max(sizes))
    local.cap = 3
    return [whole(p) for p in generated], [local(p) for p in generated]


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_the_local_region_test_equals_the_whole_board_one(data):
    dim = data.draw(st.sampled_from([2, 2, 3]))
    side = data.draw(st.integers(2, 7 if dim == 2 else 4))
    rng = random.Random(data.draw(st.integers(0, 10**6)))
    box = [(r, c) for r in range(side) for c in range(side + 2)] if dim == 2 else [
        (z, r, c) for z in range(side) for r in range(side) for c in range(side)
    ]
    cells = sorted(c for c in box if rng.random() < 0.8) or [box[0]]
    optional = frozenset(c for c in cells if rng.random() < 0.1)
    size = data.draw(st.integers(1, 4))
    pieces = [Piece(p.name, p.cells if dim == 2 else tuple((0,) + c for c in p.cells)) for p in polyominoes(size)]
    counts = [(0, data.draw(st.integers(1, 4))) for _ in pieces]
    whole, local = both_ways(cells, pieces, counts, optional)
    assert whole == local


def grown(lattice, start, size, rng) -> tuple:
    """A connected shape of ``size`` cells grown from ``start`` at random."""
    cells = [start]
    while len(cells) < size:
        near = [n for c in cells for n in lattice.neighbours(c) if n not in cells]
        cells.append(rng.choice(near))
    return tuple(cells)


def random_board(data, density: float):
    """A built-in lattice, a random number generator, and a board: that share of the lattice's
    cells in a box of random size."""
    lattice = lattices.get(data.draw(st.sampled_from(sorted(lattices.built_ins()))))
    rng = random.Random(data.draw(st.integers(0, 10**6)))
    span = range(data.draw(st.integers(3, 9 if lattice.dim == 2 else 7)))
    box = [c for c in itertools.product(span, repeat=lattice.dim) if lattice.is_cell(c)]
    return lattice, rng, sorted(c for c in box if rng.random() < density) or box[:1]


@pytest.mark.skipif(pl._regions is None, reason="the C flood fill is not built")
@settings(max_examples=60, deadline=None)
@given(st.data())
def test_the_c_graph_fill_answers_as_the_python_fills_on_every_lattice(data):
    """Area pruning on a lattice other than squares and cubes fills the board as a graph in C;
    its answer for each placement is the bit-grid fill's and the local fill's."""
    lattice, rng, cells = random_board(data, 0.8)
    optional = frozenset(c for c in cells if rng.random() < 0.1)
    sizes = [data.draw(st.integers(1, 4)) for _ in range(data.draw(st.integers(1, 3)))]
    pieces = [Piece(chr(65 + k), grown(lattice, rng.choice(cells), n, rng), lattice=lattice) for k, n in enumerate(sizes)]
    counts = [(0, data.draw(st.integers(1, 4))) for _ in pieces]
    generated = pl.generate(cells, pieces, counts)
    makeable = {}
    for i in {p.piece for p in generated}:
        others = [(0, hi - 1) if j == i else (0, hi) for j, (_, hi) in enumerate(counts)]
        makeable[i] = pl.reachable_areas(sizes, others)
    in_c = pl._graph_regions(cells, optional, makeable, lattice).many(generated)
    whole = pl._whole_board_regions(cells, optional, makeable, lattice)
    local = pl._LocalRegions(cells, optional, makeable, max(sizes), lattice)
    local.cap = 3
    assert in_c == [whole(p) for p in generated] == [local(p) for p in generated]


@settings(max_examples=80, deadline=None)
@given(st.data())
def test_placements_by_corners_are_those_by_sets_on_every_lattice(data):
    """Off squares and cubes the generator finds where a shape lies by the corners of a bit
    grid (in C when built), keeping the moves that are translations of the lattice; its twin
    intersects sets of moves. Both give the same placements in the same order."""
    lattice, rng, cells = random_board(data, 0.85)
    pieces = [Piece(chr(65 + k), grown(lattice, rng.choice(cells), data.draw(st.integers(1, 5)), rng),
                    mirror=data.draw(st.booleans()), lattice=lattice) for k in range(data.draw(st.integers(1, 3)))]
    counts = [(0, data.draw(st.integers(0, 2))) for _ in pieces]
    by_corners = pl._generate_by_corners(cells, pieces, counts, None, lattice)
    assert by_corners == pl._generate_by_sets(cells, pieces, counts, None, lattice)
    assert all(set(p.cells) <= set(cells) for p in by_corners)


def test_placements_by_corners_on_a_board_whose_last_row_is_nearly_empty():
    """A shape may reach past the board's last cell at its first corner: the board's bits
    are laid out over the whole grid, not up to its last cell."""
    lattice = lattices.get("triangle")
    cells = [(0, c) for c in range(40)] + [(1, 1)]
    pieces = [Piece("A", [(0, c) for c in range(30)] + [(1, 29)], lattice=lattice),
              Piece("B", [(0, 0), (0, 1), (1, 1)], lattice=lattice)]
    by_corners = pl._generate_by_corners(cells, pieces, None, None, lattice)
    assert by_corners == pl._generate_by_sets(cells, pieces, None, None, lattice)
    assert {p.piece for p in by_corners} == {0, 1}


@pytest.mark.skipif(pl._regions is None, reason="the C flood fill is not built")
def test_the_c_graph_fill_refuses_numbers_off_the_board():
    from array import array

    starts, neighbours, must = array("i", [0, 1, 2]), array("i", [1, 0]), b"\x01\x01"
    ok = ((1 << 1).to_bytes(1, "little"),)
    assert list(pl._regions.fits_graph(starts, neighbours, must, ok, array("i", [0, 1]), array("i", [0]),
                                       array("i", [0]))) == [1]
    for bad in (
        (array("i", [0, 1, 2]), array("i", [1, 2]), must, ok, array("i", [0, 1]), array("i", [0]), array("i", [0])),
        (array("i", [0, 2, 1]), array("i", [1, 0]), must, ok, array("i", [0, 1]), array("i", [0]), array("i", [0])),
        (starts, neighbours, must, ok, array("i", [0, 1]), array("i", [5]), array("i", [0])),
        (starts, neighbours, must, ok, array("i", [0, 1]), array("i", [0]), array("i", [1])),
        (starts, neighbours, must, ok, array("i", [0, 1]), array("i", [0]), array("i", [])),
        (array("i", [0, 1]), array("i", [1]), must, ok, array("i", [0, 1]), array("i", [0]), array("i", [0])),
        (starts, neighbours, must, ok, array("i", [0, 1]), b"\x00\x00\x00", array("i", [0])),
    ):
        with pytest.raises(ValueError):
            pl._regions.fits_graph(*bad)


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_numbered_placements_pick_sort_and_add_up_as_their_cells_do(data):
    """Off squares and cubes a generated placement is its cells' numbers on the sorted board:
    they name its cells; C's pick, sorted_images and sums answer as their Python twins."""
    lattice, rng, cells = random_board(data, 0.85)
    pieces = [Piece(chr(65 + k), grown(lattice, rng.choice(cells), data.draw(st.integers(1, 5)), rng), lattice=lattice)
              for k in range(data.draw(st.integers(1, 3)))]
    generated = pl.generate(cells, pieces)
    board = pl.numbered_on(generated)
    assume(board is not None)
    assert list(board) == cells
    for p in generated:
        assert p.cells == tuple(cells[n] for n in pl.int32s(p.numbers))
        assert list(pl.int32s(p.numbers)) == sorted(pl.int32s(p.numbers))
    starts, items = pl.concatenated(p.numbers for p in generated)
    weights = array("i", [rng.randint(-3, 3) for _ in cells])
    to = array("i", rng.sample(range(len(cells)), len(cells)))
    bases = array("i", [rng.randrange(len(cells)) for _ in range(5)])
    places = array("i", [rng.randrange(len(cells) - max(bases)) for _ in range(4)])
    assert pl.sums(weights, items, starts) == [sum(weights[cells.index(c)] for c in p.cells) for p in generated]
    images = pl.sorted_images(to, items, starts)
    assert [list(pl.int32s(images[4 * a:4 * b])) for a, b in zip(starts, starts[1:])] == \
        [sorted(to[cells.index(c)] for c in p.cells) for p in generated]
    native = pl._regions
    try:
        pl._regions = None  # the Python twins
        assert pl.sums(weights, items, starts) == native.sums(weights, items, starts)
        assert pl.sorted_images(to, items, starts) == native.sorted_images(to, items, starts)
        assert pl.pick(to, places, bases) == native.pick(to, places, bases)
    finally:
        pl._regions = native


@pytest.mark.skipif(pl._regions is None, reason="the C helpers are not built")
def test_the_c_helpers_of_numbered_placements_refuse_numbers_off_their_tables():
    table, ok = array("i", [5, 6, 7]), array("i", [0, 2])
    assert list(pl.int32s(pl._regions.pick(table, ok, array("i", [0])))) == [5, 7]
    assert pl._regions.sums(table, ok, array("i", [0, 1, 2])) == [5, 7]
    for call, args in (
        ("pick", (table, array("i", [0, 3]), array("i", [0]))),
        ("pick", (table, ok, array("i", [1]))),
        ("pick", (table, b"\x00\x00", array("i", [0]))),
        ("sums", (table, array("i", [3]), array("i", [0, 1]))),
        ("sums", (table, ok, array("i", [0, 1]))),
        ("sorted_images", (table, ok, array("i", [1, 2]))),
        ("sorted_images", (table, ok, array("i", [0, 2, 1, 2]))),
        ("sorted_images", (table, array("i", [-1]), array("i", [0, 1]))),
    ):
        with pytest.raises(ValueError):
            getattr(pl._regions, call)(*args)


@pytest.mark.slow
def test_a_big_board_of_monominoes_is_prepared_quickly():
    """100,000 cells: the whole-board fill would take minutes (cells times placements)."""
    import time

    cells = [(r, c) for r in range(250) for c in range(400)]
    start = time.process_time()
    result = pl.place(cells, [Piece("M", ((0, 0),), count=(0, len(cells)))], counts=[(0, len(cells))])
    assert len(result.placements) == len(cells)
    assert time.process_time() - start < 60  # a bound on runaway work, not a benchmark


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sets(st.integers(-6, 6), min_size=1, max_size=4), min_size=1, max_size=4),
       st.integers(0, 5))
def test_totals_are_every_sum(sets, copies):
    expected = {0}
    for values in sets:
        expected = {a + b for a in expected for b in values}
    total = pl.Totals()
    for values in sets:
        total = total + pl.Totals.of(values)
    assert set(total.values()) == expected
    repeated = {0}
    for _ in range(copies):
        repeated = {a + b for a in repeated for b in sets[0]}
    assert set(pl.Totals.of(sets[0]).times(copies).values()) == repeated


@pytest.mark.slow
def test_many_copies_of_one_piece_are_pruned_by_parity_quickly():
    """Exact counts of 40,000 monominoes: parity takes the copies together, not pairwise."""
    import time

    cells = [(r, c) for r in range(200) for c in range(200)]
    start = time.process_time()
    result = pl.place(cells, [Piece("M", ((0, 0),), count=(len(cells), len(cells)))], counts=[(len(cells), len(cells))])
    assert len(result.placements) == len(cells) and result.stats.impossible is None
    assert time.process_time() - start < 60  # a bound on runaway work, not a benchmark


def test_runs_are_the_placements_of_one_orientation_of_one_piece_or_one_made_otherwise():
    shape = ((0, 0),)
    made = [pl.Placement(0, None, (), 1, (0, 0), shape), pl.Placement(0, None, (), 1, (0, 1), shape),
            pl.Placement(1, None, (), 1, (0, 0), shape), pl.Placement(1, ((2, 2),)), pl.Placement(1, ((3, 3),)),
            pl.Placement(1, None, (), 0, (0, 0), shape), pl.Placement(1, None, (), 0, (1, 0), shape)]
    assert pl.runs(made) == [(0, 2), (2, 3), (3, 4), (4, 5), (5, 7)]
    assert pl.runs([]) == []
