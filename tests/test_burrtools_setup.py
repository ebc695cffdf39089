"""BurrTools files as designers make them: counts as BurrTools counts them (colours included),
latin-1 files, huge declared boxes refused before anything is built, and the set-up's fast
paths (placements from bits, symmetry tables by orientation) giving what the plain ways give.

The recorded counts are burrTxt2 0.7.1's (``burrTxt2 -R -c``, and ``-m`` for the count that
keeps mirror images, polyfit's ``distinct_rotations``) on the files of
benchmarks/data/burrtools/, made by benchmarks/burrtools_files.py.
"""

from __future__ import annotations

import gzip
import itertools
from array import array
import os
import random
import subprocess
import sys
import tracemalloc

import pytest
from hypothesis import given, settings, strategies as st

import polyfit
from helpers import ROOT, examples, run
from polyfit.formats import burrtools
from polyfit.limits import LimitError
from polyfit.puzzle import placements as placement_module
from polyfit.puzzle.cover import PlacementKeys
from polyfit.puzzle.orientations import PieceForms
from polyfit.puzzle.placements import Placement, generate

FILES = ROOT / "benchmarks" / "data" / "burrtools"

# file: (BurrTools' count, its count with -m)
BURRTOOLS = {
    "burr-box-8": (1, 1),
    "cage-216": (1, 1),
    "colour-cube": (1, 1),
    "counts": (3082, 6164),
    "max-holes": (19819, 39638),
    "counts-no-total": (0, 0),  # no choice of counts adds up: no solution, no error
    "cube-15": (294, 294),
    "cube-16-colours": (4052, 4052),
    "cube-9": (1, 1),
    "frame-40": (1, 1),
    "keys-in-a-box": (1, 1),
    "umlaut": (31, 31),
    "soma-marked-corner": (1920, 3840),
    "soma-two-coloured-t": (480, 960),
    "soma-coloured-mirror-pair": (480, 480),
    # BurrTools' other grids
    "spheres-500": (1, 1),
    "prisms-768": (1, 1),
    "tetra-octa-320": (1, 1),
    "rhombic-32": (57, 57),
    "spheres-1372": (1, 1),
    "prisms-2880": (1, 1),
}
SLOW = {"cube-15-slow": (4354, 4354)}  # a search of several seconds


@pytest.mark.parametrize("name", sorted(BURRTOOLS))
def test_counts_are_burrtools_counts(name):
    counts = polyfit.load(FILES / f"{name}.xmpuzzle").count()
    assert (counts.distinct, counts.distinct_rotations) == BURRTOOLS[name]


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(SLOW))
def test_counts_are_burrtools_counts_on_a_long_search(name):
    counts = polyfit.load(FILES / f"{name}.xmpuzzle").count()
    assert (counts.distinct, counts.distinct_rotations) == SLOW[name]


def test_every_file_made_has_its_burrtools_count_here():
    made = {path.stem for path in FILES.glob("*.xmpuzzle")}
    assert made == set(BURRTOOLS) | set(SLOW)


def test_puzzles_made_at_random_are_the_same_from_a_seed_and_each_is_a_dissection(tmp_path):
    """``burrtools_files.py --random`` makes designers' files we do not have: from one seed
    the same files again; each is read as a BurrTools file of its grid, its pieces fill the
    goal (they were cut from it) and the puzzle is made."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import burrtools_files

    rng = random.Random(3)
    made = [burrtools_files.random_puzzle(rng, number) for number in range(14)]
    assert burrtools_files.random_puzzle(random.Random(3), 0) == made[0]
    assert len({name for name, _ in made}) == 14
    kinds = set()
    for name, data in made:
        path = tmp_path / name
        path.write_bytes(data)
        board = polyfit.read_board(path)
        kinds.add(board.lattice.name)
        puzzle = polyfit.load(path)
        area = sum(p.size * p.count[0] for p in puzzle.pieces)
        assert len(board.cells) - len(board.optional) <= sum(p.size * p.count[1] for p in puzzle.pieces)
        assert area <= len(board.cells) and puzzle.placement_stats.kept >= len(puzzle.pieces) > 1
    assert len(kinds) >= 3  # cubes and other grids


def test_colours_are_part_of_the_shapes_as_in_burrtools():
    """Colours with no rule still count: a marked corner of the cube leaves only the 6
    symmetries that fix it; a T with one marked arm has twice the placements (turned end for
    end it shows its colour elsewhere); the mirror pieces A and B in two colours are no
    longer each other's mirror image, so no reflection is a symmetry."""
    corner = polyfit.load(FILES / "soma-marked-corner.xmpuzzle")
    assert len(corner.symmetries) == 6 and corner.board.allowed == {}
    t = polyfit.load(FILES / "soma-two-coloured-t.xmpuzzle")
    plain = polyfit.load(FILES / "soma-coloured-mirror-pair.xmpuzzle")  # the same T, uncoloured

    def placements_of_t(puzzle):
        return [p for p in puzzle.placements if puzzle.pieces[p.piece].name == "T"]

    assert len(placements_of_t(t)) == 2 * len(placements_of_t(plain))
    assert {p.cells for p in placements_of_t(t)} == {p.cells for p in placements_of_t(plain)}
    pair = polyfit.load(FILES / "soma-coloured-mirror-pair.xmpuzzle")
    assert len(pair.symmetries) == 24 and all(s.is_proper for s in pair.symmetries)
    assert pair.count().total == 11520  # the same tilings: only the classes change


def test_a_latin1_file_with_an_umlaut_reads_as_burrtools_wrote_it():
    path = FILES / "umlaut.xmpuzzle"
    data = path.read_bytes()
    assert data[:2] != b"\x1f\x8b" and "ü".encode("latin-1") in data
    with pytest.raises(UnicodeDecodeError):
        data.decode("utf-8")
    board = polyfit.read_board(path)
    assert board.name == "Würfel für Jürgen"
    assert polyfit.load(path).count().distinct == 31
    # The same file in UTF-8, saying so or not, reads the same.
    text = data.decode("latin-1")
    for header in ('<?xml version="1.0"?>', '<?xml version="1.0" encoding="UTF-8"?>'):
        again = burrtools.parse_puzzle(text.replace('<?xml version="1.0"?>', header).encode("utf-8"), "u.xmpuzzle")
        assert burrtools.problem_names(again) == ["Würfel für Jürgen"]


def huge(n: int) -> bytes:
    """A small gzip file whose goal is an n x n x n box of filled voxels, with a domino."""
    xml = (f'<?xml version="1.0"?><puzzle version="2"><gridType type="0"/><colors/><shapes>'
           f'<voxel x="2" y="1" z="1" type="0">##</voxel><voxel x="{n}" y="{n}" z="{n}" type="0">{"#" * n**3}</voxel>'
           f'</shapes><problems><problem><shapes><shape id="0" min="0" max="{n**3}"/></shapes><result id="1"/>'
           f'<bitmap/></problem></problems></puzzle>')
    return gzip.compress(xml.encode(), 9)


def test_a_huge_declared_box_is_refused_before_its_voxels_are_made(tmp_path, app):
    """215^3 voxels in a 9.9 KB file: the cells are counted against the limit before any is
    made (it was 1.9 GB and a MemoryError); memory stays at the size of the text."""
    path = tmp_path / "huge.xmpuzzle"
    path.write_bytes(huge(215))
    assert path.stat().st_size < 12_000
    tracemalloc.start()
    try:
        with pytest.raises(LimitError, match=r"shape 1: 9,938,375 cells, over polyfit's limit of 1,000,000 on the cells"):
            polyfit.read_board(path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 120_000_000  # the decompressed text (10 MB) and a few copies of it, no voxel
    result = run(app, "solve", path, "--count")
    assert result.exit_code == 2 and "POLYFIT_MAX_CELLS" in result.output


def test_a_board_over_the_items_limit_is_refused_before_placements_are_made(tmp_path, monkeypatch):
    """Within the cells limit but over the items one (a box of 100^3 voxels is 1,000,001
    items with its piece): refused before any placement is generated."""
    path = tmp_path / "big.xmpuzzle"
    path.write_bytes(huge(20))
    monkeypatch.setenv("POLYFIT_MAX_ITEMS", "5000")

    def never(*args, **kwargs):
        raise AssertionError("placements were generated")

    monkeypatch.setattr(placement_module, "generate", never)
    with pytest.raises(LimitError, match="8,001 items, over polyfit's limit of 5,000 on the items"):
        polyfit.load(path)


def test_placements_are_counted_against_the_limit_before_they_are_made(tmp_path, monkeypatch):
    path = tmp_path / "big.xmpuzzle"
    path.write_bytes(huge(12))  # 1,728 cells: 3 * 11 * 12 * 12 = 4,752 domino placements
    monkeypatch.setenv("POLYFIT_MAX_PLACEMENTS", "4000")
    made = []
    real = placement_module.Placement

    def counted(*args, **kwargs):
        made.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(placement_module, "Placement", counted)
    with pytest.raises(LimitError, match="4,752 placements, over polyfit's limit of 4,000"):
        polyfit.load(path)
    assert not made


# -- the fast paths against the plain ways --------------------------------------------------


def plain_generate(cells, pieces):
    """Every placement by trying every shift of every orientation."""
    board = set(cells)
    found = set()
    for index, piece in enumerate(pieces):
        for shape in piece.orientations():
            for cell in board:
                shift = tuple(a - b for a, b in zip(cell, shape[0]))
                placed = tuple(tuple(a + b for a, b in zip(c, shift)) for c in shape)
                if board.issuperset(placed):
                    found.add((index, placed))
    return found


POLYCUBES = [
    ((0, 0, 0), (0, 0, 1), (0, 0, 2)),
    ((0, 0, 0), (0, 0, 1), (0, 1, 0)),
    ((0, 0, 0), (0, 0, 1), (0, 0, 2), (0, 1, 1)),
    ((0, 0, 0), (0, 0, 1), (0, 1, 1), (1, 1, 1)),
    ((0, 0, 0), (0, 0, 1), (0, 1, 0), (1, 0, 0)),
    ((0, 0, 0), (0, 0, 1), (0, 1, 1), (0, 1, 2)),
]


@st.composite
def puzzles(draw):
    """A box of up to 4x4x3 (or a rectangle) with some cells taken out, and a few pieces that
    may or may not be turned over, some used more than once."""
    dim = draw(st.sampled_from([2, 3]))
    sizes = [draw(st.integers(2, 4)) for _ in range(dim)]
    cells = sorted(itertools.product(*(range(n) for n in sizes)))
    holes = draw(st.sets(st.sampled_from(cells), max_size=len(cells) // 3))
    cells = [c for c in cells if c not in holes]
    shapes = draw(st.lists(st.sampled_from(POLYCUBES), min_size=1, max_size=4))
    pieces = []
    for k, shape in enumerate(shapes):
        cells_of = tuple(c[3 - dim:] for c in shape) if dim == 2 else shape
        if len(set(cells_of)) != len(cells_of):
            continue
        mirror = draw(st.booleans())
        count = draw(st.sampled_from([(1, 1), (0, 2)]))
        pieces.append(polyfit.Piece(f"p{k}", cells_of, mirror, count))
    return cells, pieces


@settings(max_examples=60, deadline=None)
@given(puzzles())
def test_placements_from_bits_are_every_placement(puzzle):
    cells, pieces = puzzle
    if not cells or not pieces:
        return
    made = generate(cells, pieces)
    assert {(p.piece, p.cells) for p in made} == plain_generate(cells, pieces)
    assert len(made) == len({(p.piece, p.cells) for p in made})
    saved = placement_module._regions
    try:  # the Python twin of the C search for corners makes the same placements in the same order
        placement_module._regions = None
        assert [(p.piece, p.cells) for p in generate(cells, pieces)] == [(p.piece, p.cells) for p in made]
    finally:
        placement_module._regions = saved


def differences_by_cells_and_by_orientation(cells, pieces, colours=None) -> tuple[list, list]:
    from polyfit.lattices import base as lattices

    made = generate(cells, pieces, [p.count for p in pieces], colours)
    by_cells = [placement_module._checkerboard(p.cells) for p in made]
    forms = placement_module._forms(pieces, colours)
    return by_cells, placement_module._differences(made, lattices.of(pieces[0]), cells, forms)


@settings(max_examples=60, deadline=None)
@given(puzzles())
def test_colour_differences_by_orientation_are_the_differences_counted_cell_by_cell(puzzle):
    cells, pieces = puzzle
    if not cells or not pieces:
        return
    by_cells, by_orientation = differences_by_cells_and_by_orientation(cells, pieces)
    assert by_orientation == by_cells


@pytest.mark.parametrize("name", ["colour-cube", "soma-two-coloured-t", "soma-coloured-mirror-pair", "cube-9"])
def test_colour_differences_by_orientation_on_coloured_pieces(name):
    """Coloured pieces (BurrTools colours) have more orientations than shapes: each one's
    difference is still its piece's, turned."""
    board = polyfit.read_board(FILES / f"{name}.xmpuzzle")
    by_cells, by_orientation = differences_by_cells_and_by_orientation(board.cells, board.pieces, board.colours)
    assert by_orientation == by_cells and any(d != 0 for d in by_cells)


@settings(max_examples=40, deadline=None)
@given(puzzles())
def test_symmetry_tables_by_orientation_are_the_tables_by_cells(puzzle):
    """What classifies each solution: where each symmetry sends each placement. The tables
    made from orientations and corners are the ones made cell by cell, and the counts with
    symmetry broken are the counts without."""
    cells, pieces = puzzle
    if not cells or not pieces:
        return
    board = polyfit.Board(tuple(cells))
    try:
        puzzle = polyfit.Puzzle(board, pieces, break_symmetry=False)
    except polyfit.PolyfitError:
        return  # no choice of the pieces has the board's area
    placements = puzzle.cover.placements
    by_orientation = PlacementKeys(placements, puzzle.pieces, [()] * len(puzzle.pieces))
    by_cells = PlacementKeys(placements)
    for sym in puzzle.symmetries:
        assert by_orientation.image(sym) == by_cells.image(sym)
    if len(placements) <= 400:
        broken = polyfit.Puzzle(board, pieces).count()
        whole = puzzle.count()
        assert (broken.distinct, broken.distinct_rotations, broken.total) == (whole.distinct, whole.distinct_rotations, whole.total)


@settings(max_examples=40, deadline=None)
@given(puzzles(), st.data())
def test_the_options_gathered_in_c_are_the_options_made_one_by_one(puzzle, data):
    """The cover's options, a run of one orientation's placements per C call, are those made a
    placement at a time in Python: in order, for any choice of placements (as symmetry breaking
    leaves them), pre-placed-style placements that know no shape among them."""
    from helpers import native
    from polyfit.puzzle import cover as cover_module

    native("dlx-c")  # the C extensions built (required under POLYFIT_REQUIRE_C=1)
    if cover_module._cover is None:
        pytest.skip("the C option gatherer did not build")
    cells, pieces = puzzle
    if not cells or not pieces:
        return
    made = generate(cells, pieces)
    if not made:
        return
    # some placements as the generator makes them, some rebuilt from their cells alone
    placements = [p if data.draw(st.booleans()) else Placement(p.piece, p.cells) for p in made]
    indices = sorted(data.draw(st.sets(st.integers(0, len(placements) - 1))))
    # the shapes' places made here, or those the generator made (and keeps for the cover)
    forms = PieceForms(pieces) if data.draw(st.booleans()) else None
    items = cover_module._CellItems({c: 3 + k for k, c in enumerate(sorted(cells))}, forms)
    piece_item = {i: i for i in range(len(pieces))}
    gathered = items.options(placements, indices, piece_item, native=True)
    assert gathered == items.options(placements, indices, piece_item, native=False)
    assert gathered == [(placements[i].piece,) + tuple(3 + sorted(cells).index(c) for c in placements[i].cells)
                        for i in indices]


def test_an_option_off_the_board_is_an_error_in_c_not_a_wrong_item():
    from helpers import native
    from polyfit.puzzle import cover as cover_module

    native("dlx-c")
    if cover_module._cover is None:
        pytest.skip("the C option gatherer did not build")
    from polyfit.xc.problem import PackedOptions

    def options(*args):
        return PackedOptions(*cover_module._cover.options(*args))

    items, shapes = array("i", [5, 6, -1, 7]), (array("i", [0, 1]),)
    assert options(items, shapes, array("i", [0, 0, 1]), [(10,)], (10,), (1,)) == [(0, 5, 6)]
    # runs of no placements, then two of piece item 3 (corners 10 and 10 again)
    assert options(items, shapes, array("i", [4, 0, 0, 3, 0, 2]), [(10,), (10,)], (10,), (1,)) == [(3, 5, 6)] * 2
    # packed: piece item 4 as shape 0 at 10, then piece item 2 as shape 1 (cells 0 and 3) at 10
    both = shapes + (array("i", [0, 3]),)
    assert cover_module._cover.options(items, both, array("i", [4, 0, 1, 2, 1, 1]), [(10,), (10,)], (10,), (1,)) == (
        array("i", [0, 3, 6]).tobytes(), array("i", [4, 5, 6, 2, 5, 7]).tobytes())
    for corner in (11, 13, 9):  # a hole, off the end, below the board
        with pytest.raises(ValueError):
            options(items, shapes, array("i", [0, 0, 1]), [(corner,)], (10,), (1,))
    for runs, corners in [(array("i", [0, 1, 1]), [(10,)]), (array("i", [0, 0, 2]), [(10,)]), (array("i", [0, 0]), []),
                          (array("i", [0, 0, 1]), [(10, 0)]), (array("i", [0, 0, 1]), [10])]:
        with pytest.raises(ValueError):
            options(items, shapes, runs, corners, (10,), (1,))


@settings(max_examples=40, deadline=None)
@given(puzzles())
def test_the_c_classifier_answers_as_the_python_one(puzzle):
    """Each solution found is canonical (or not) and mirror-symmetric (or not) alike in C and
    in Python, with the breaker's stabilizers and without a breaker."""
    from helpers import native

    native("dlx-c")  # the C extensions built (required under POLYFIT_REQUIRE_C=1)
    from polyfit.puzzle import cover as cover_module

    if cover_module._classify is None:
        pytest.skip("the C classifier did not build")
    cells, pieces = puzzle
    if not cells or not pieces:
        return
    for break_symmetry in (True, False):
        try:
            made = polyfit.Puzzle(polyfit.Board(tuple(cells)), pieces, break_symmetry=break_symmetry)
        except polyfit.PolyfitError:
            return
        if len(made.placements) > 400:
            return
        cover = made.cover
        for found in itertools.islice(made.search(made.backend("dlx-c"), polyfit.Counts()), 200):
            searched = found.placements[: len(found.placements) - len(cover.fixed)]
            assert cover.classify(searched, native=True) == cover.classify(searched, native=False)
            assert cover.mirror_symmetric(searched, native=True) == cover.mirror_symmetric(searched, native=False)
        if cover.breaker is None:  # a batch of the search's solutions, classified at once
            batch = list(itertools.islice(made.backend("dlx-c").solutions(cover.problem, polyfit.Counts().search), 200))
            expected = []
            for options in batch:
                placements = tuple(cover.option_placement[k] for k in options)
                canonical, weight, fixed_by = cover.classify(placements, native=False)
                assert weight == 1
                if canonical:
                    expected.append((placements, fixed_by))
            assert cover.canonical_batch(batch, native=True) == expected
            assert cover.canonical_batch(batch, native=False) == expected


def test_a_count_of_distinct_solutions_alone_counts_as_the_whole_search():
    """``distinct_only`` yields the canonical solutions alone, classified a batch at a time, and
    leaves the counts as the search of every solution does: with and without reflections in
    the group, and with BurrTools' mirror rule (the mirror class counted instead)."""
    for path in (ROOT / "shapes" / "soma" / "castle.vox", ROOT / "benchmarks" / "data" / "cube-tri.xmpuzzle",
                 ROOT / "tests" / "data" / "mirror" / "colours-1.xmpuzzle"):
        puzzle = polyfit.load(path, break_symmetry=False)
        backend = puzzle.backend("bitset-c")
        whole, alone = polyfit.Counts(), polyfit.Counts()
        every = [f.placements for f in puzzle.search(backend, whole) if f.canonical]
        distinct = [f.placements for f in puzzle.search(backend, alone, distinct_only=True)]
        assert distinct == every and len(every) == whole.distinct > 0
        for key in ("distinct", "distinct_rotations", "total", "classes", "weights"):
            assert getattr(alone, key) == getattr(whole, key), (path, key)
        assert alone.search.solutions == whole.search.solutions == whole.total


@pytest.mark.parametrize("max_examples", examples(50, 200))
def test_the_c_classifier_on_any_tables(max_examples):
    @settings(max_examples=max_examples, deadline=None)
    @given(st.integers(1, 12).flatmap(lambda n: st.tuples(
        st.just(n),
        st.lists(st.permutations(range(n)), max_size=5),
        st.sets(st.integers(0, n - 1), min_size=1).map(lambda s: tuple(sorted(s, reverse=True))),
    )))
    def check(case):
        from array import array

        from polyfit.puzzle import cover as cover_module

        if cover_module._classify is None:
            pytest.skip("the C classifier did not build")
        n, tables, solution = case
        packed = array("i", [i for table in tables for i in table])
        key = sorted(solution)
        images = [sorted(table[i] for i in solution) for table in tables]
        canonical = all(image >= key for image in images)
        fixed_by = 1 + sum(image == key for image in images) if canonical else 0
        assert cover_module._classify.canonical(solution, packed, n) == fixed_by
        assert cover_module._classify.symmetric(solution, packed, n) == any(image == key for image in images)
        if tables:  # the least image by places: each table's places a permutation of its own
            from polyfit.longsearch.disassembly import _Images

            rng = random.Random(n * 7919 + len(tables))
            ranked = [[rng.randint(0, 3) for _ in range(n)] for _ in tables]
            images = _Images(list(zip(tables, ranked)))
            assert images.least(solution, native=True) == images.least(solution, native=False)
            best = min(range(len(tables)), key=lambda k: (sorted(ranked[k][i] for i in solution), k))
            assert images.least(solution, native=True) == (tuple(tables[best][i] for i in solution),
                                                           tuple(sorted(ranked[best][i] for i in solution)))

    check()


# -- area pruning's flood fill in C against the Python one -------------------------------------


def regions_module():
    from helpers import native

    native("dlx-c")  # the C extensions built (required under POLYFIT_REQUIRE_C=1)
    if placement_module._regions is None:
        if os.environ.get("POLYFIT_REQUIRE_C") == "1":
            pytest.fail("polyfit.puzzle._regions is required (POLYFIT_REQUIRE_C=1) but did not build")
        pytest.skip("the C flood fill did not build")
    return placement_module._regions


@pytest.mark.parametrize("max_examples", examples(75, 300))
def test_the_c_flood_fill_finds_the_regions_the_python_one_finds(max_examples):
    """Any cells of a box left free, any of them to be filled, any areas makeable: the C test
    says yes exactly when every region the Python flood fill finds has a makeable area between
    its cells to fill and all its cells."""
    @settings(max_examples=max_examples, deadline=None)
    @given(st.integers(2, 3).flatmap(lambda dim: st.tuples(
        st.lists(st.integers(1, 6), min_size=dim, max_size=dim),
        st.randoms(use_true_random=False),
        st.integers(0, 2**40),
    )))
    def check(case):
        regions = regions_module()
        sizes, rng, areas = case
        box = list(itertools.product(*(range(n) for n in sizes)))
        grid = placement_module.BitGrid(box)
        free = grid.mask(c for c in box if rng.random() < 0.6)
        must = free & grid.mask(c for c in box if rng.random() < 0.8)
        expected = all(placement_module.reaches(areas, (r & must).bit_count(), r.bit_count()) for r in grid.regions(free))
        size = (grid.mask(box).bit_length() + 7) // 8
        found = regions.fits(free.to_bytes(size, "little"), must.to_bytes(size, "little"), tuple(grid.strides),
                             areas.to_bytes((areas.bit_length() + 7) // 8, "little"))
        assert found == expected

    check()


@pytest.mark.parametrize("max_examples", examples(25, 100))
def test_the_batched_c_flood_fill_answers_each_placement_as_the_python_one(max_examples):
    """fits_many (a shape moved to each corner, areas per placement, filled a word at a time)
    says yes for a placement exactly when the Python flood fill finds every region it leaves
    makeable."""
    @settings(max_examples=max_examples, deadline=None)
    @given(st.integers(2, 3).flatmap(lambda dim: st.tuples(
        st.lists(st.integers(1, 7), min_size=dim, max_size=dim),
        st.randoms(use_true_random=False),
        st.lists(st.integers(0, 2**40), min_size=1, max_size=3),
    )))
    def check(case):
        regions = regions_module()
        sizes, rng, oks = case
        box = list(itertools.product(*(range(n) for n in sizes)))
        grid = placement_module.BitGrid(box)
        board = [c for c in box if rng.random() < 0.8]
        everything = grid.mask(board)
        must = everything & grid.mask(c for c in box if rng.random() < 0.8)
        shapes = [grid.mask(c for c in box if rng.random() < 0.3) for _ in range(3)]
        size = (grid.mask(box).bit_length() + 7) // 8
        runs, corners, expected = array("i"), [], []
        for _ in range(8):  # runs of a shape and its areas at a few corners
            shape, ok, count = rng.randrange(len(shapes)), rng.randrange(len(oks)), rng.randrange(4)
            runs.extend((shape, ok, count))
            for _ in range(count):
                shift = rng.randrange(size * 8)
                corners.append(corner_of(shift, grid))
                free = everything & ~(shapes[shape] << shift)
                expected.append(all(placement_module.reaches(oks[ok], (r & must).bit_count(), r.bit_count())
                                    for r in grid.regions(free)))
        found = regions.fits_many(everything.to_bytes(size, "little"), must.to_bytes(size, "little"), tuple(grid.strides),
                                  tuple(ok.to_bytes((ok.bit_length() + 7) // 8, "little") for ok in oks),
                                  tuple(array("i", places(s)) for s in shapes), runs, corners, tuple(grid.low))
        assert [bool(a) for a in found] == expected

    check()


def corner_of(place: int, grid) -> tuple:
    """The coordinates of a place in a bit grid (a spare place's too)."""
    coordinates = []
    for stride, low in zip(grid.strides, grid.low):
        coordinates.append(place // stride + low)
        place %= stride
    return tuple(coordinates)


def places(bits: int) -> list[int]:
    """The numbers of the set bits."""
    return [k for k in range(bits.bit_length()) if bits >> k & 1]


@pytest.mark.parametrize("path", [
    # 127 cells winding through a 15 x 15 box: a round of sweeps runs along a row or two
    [(y, x) for y in range(0, 15, 2) for x in range(15)] + [(y, 14 if y % 4 == 1 else 0) for y in range(1, 15, 2)],
    # a staircase of 79 cells across a 40 x 40 box: a round of sweeps climbs a step or two, so
    # after 3 rounds (the board's cells per word of its box) the fill goes on cell by cell
    sorted({(i, i) for i in range(40)} | {(i, i + 1) for i in range(39)}),
])
def test_the_batched_c_flood_fill_follows_a_long_winding_region_to_its_end(path):
    """A placement on one cell of a long winding path leaves two regions whose areas decide."""
    regions = regions_module()
    grid = placement_module.BitGrid(path)
    everything = grid.mask(path)
    size = (everything.bit_length() + 7) // 8
    ok = (1 << 200) - 1 - (1 << 30)  # any area but 30
    expected = []
    for cell in path:
        free = everything & ~grid.bit[cell]
        expected.append(all(r.bit_count() != 30 for r in grid.regions(free)))
    assert not all(expected) and any(expected)
    found = regions.fits_many(everything.to_bytes(size, "little"), everything.to_bytes(size, "little"),
                              tuple(grid.strides), (ok.to_bytes(25, "little"),), (array("i", [0]),),
                              array("i", [0, 0, len(path)]), list(path), tuple(grid.low))
    assert [bool(a) for a in found] == expected


@pytest.mark.parametrize("max_examples", examples(50, 200))
def test_the_corners_found_in_c_are_the_corners_found_in_python(max_examples):
    """Where a shape lies on a board, its cells on the board cells of their colours: C and its
    Python twin find the same corners in the same order, and they are the corners where every
    cell of the shape, moved there, is on a cell its colour may cover."""
    @settings(max_examples=max_examples, deadline=None)
    @given(st.integers(2, 3).flatmap(lambda dim: st.tuples(
        st.lists(st.integers(1, 7), min_size=dim, max_size=dim),
        st.randoms(use_true_random=False),
        st.integers(1, 3),
    )))
    def check(case):
        regions = regions_module()
        sizes, rng, colours = case
        box = list(itertools.product(*(range(n) for n in sizes)))
        low = tuple(rng.randrange(-3, 4) for _ in sizes)
        grid = placement_module.BitGrid([tuple(a + b for a, b in zip(c, low)) for c in box])
        board = [c for c in box if rng.random() < 0.85]
        allowed = [board] + [[c for c in board if rng.random() < 0.7] for _ in range(colours - 1)]
        size = grid.length // 8 + 1
        masks = tuple(grid.mask([tuple(a + b for a, b in zip(c, low)) for c in cells]).to_bytes(size, "little")
                      for cells in allowed)
        shape = sorted(c for c in box if rng.random() < 0.3) or [box[0]]
        shape = [tuple(a - b for a, b in zip(c, shape[0])) for c in shape]
        shape = [tuple(a - m for a, m in zip(c, map(min, zip(*shape)))) for c in shape]  # normalized
        painted = array("i", [rng.randrange(colours) for _ in shape]) if colours > 1 else array("i")
        extent = [max(c[i] for c in shape) + 1 for i in range(len(sizes))]
        limits = tuple(n - e for n, e in zip(sizes, extent))
        places = array("i", grid.numbers(shape, grid.low))
        strides = tuple(grid.strides)
        found = regions.corners(masks, places, painted, strides, limits, tuple(grid.low))
        assert found == placement_module._corners(masks, places, painted, strides, limits, tuple(grid.low))
        # as places: each corner's place in the grid, in the same order
        as_places = regions.corners(masks, places, painted, strides, limits, tuple(grid.low), True)
        assert list(placement_module.int32s(as_places)) == grid.numbers(found)
        assert as_places == placement_module._corners(masks, places, painted, strides, limits, tuple(grid.low), True)
        on = [set(cells) for cells in allowed]
        expected = [tuple(a + b for a, b in zip(corner, low)) for corner in box
                    if all(tuple(a + b for a, b in zip(corner, c)) in on[painted[k] if painted else 0]
                           for k, c in enumerate(shape))]
        assert found == expected

    check()


def test_the_corners_and_places_in_c_refuse_bad_input():
    regions = regions_module()
    masks = (b"\xff", b"\x0f")
    with pytest.raises(ValueError, match="off the board"):
        regions.corners(masks, array("i", [64]), b"", (1,), (7,), (0,))
    with pytest.raises(ValueError, match="colour"):
        regions.corners(masks, array("i", [0]), array("i", [2]), (1,), (7,), (0,))
    with pytest.raises(ValueError, match="per place"):
        regions.corners(masks, array("i", [0, 1]), array("i", [1]), (1,), (7,), (0,))
    with pytest.raises(ValueError, match="negative"):
        regions.places((3, -1), 10, (11, 1))
    with pytest.raises(OverflowError, match="int32"):
        regions.places((99,), 10, (2**30, 1))
    assert list(array("i", regions.places((0, 99, 100), 10, (11, 1)))) == [0, 108, 110]  # 100: (10, 0)
    found = regions.corners(masks, array("i", [0, 1]), array("i", [1, 0]), (1,), (6,), (10,))
    assert found == [(10,), (11,), (12,), (13,)]


def test_the_c_flood_fill_refuses_bad_strides():
    regions = regions_module()
    with pytest.raises(ValueError, match="positive"):
        regions.fits(b"\x01", b"", (0,), b"\x02")
    with pytest.raises(ValueError, match="strides"):
        regions.fits(b"\x01", b"", (), b"\x02")


def test_the_batched_c_flood_fill_refuses_a_shape_off_the_board():
    regions = regions_module()
    run = array("i", [0, 0, 1])
    for shape in (array("i", [64]), array("i", [-1]), array("h", [0])):
        with pytest.raises(ValueError, match="place|int32"):
            regions.fits_many(b"\xff", b"\xff", (1,), (b"\xff",), (shape,), run, [(0,)], (0,))
    for runs, corners in [(array("i", [0, 0, 2]), [(0,)]), (array("i", [1, 0, 1]), [(0,)]), (run, [(-1,)]),
                          (run, [(65,)]), (run, [(0, 0)]), (array("i", [0, 0]), [])]:
        with pytest.raises(ValueError):
            regions.fits_many(b"\xff", b"\xff", (1,), (b"\xff",), (array("i", [0]),), runs, corners, (0,))
    assert list(regions.fits_many(b"\xff", b"\xff", (1,), (b"\xff",), (array("i", [7]),), run, [(0,)], (0,))) == [1]
    assert list(regions.fits_many(b"\xff", b"\xff", (1,), (b"\xff",), (array("i", [0]),), run, [(12,)], (5,))) == [1]


@settings(max_examples=60, deadline=None)
@given(puzzles(), st.randoms(use_true_random=False))
def test_area_pruning_in_c_keeps_what_the_python_pruning_keeps(puzzle, rng):
    regions_module()
    cells, pieces = puzzle
    if not cells or not pieces:
        return
    optional = frozenset(c for c in cells if rng.random() < 0.2)
    made = generate(cells, pieces)
    counts = [p.count for p in pieces]
    kept = {}
    for native in (True, False):
        stats = placement_module.PlacementStats()
        saved = placement_module._regions
        try:
            if not native:
                placement_module._regions = None
            kept[native] = [(p.piece, p.cells) for p in placement_module.prune_area(cells, pieces, made, stats, counts, optional)]
        finally:
            placement_module._regions = saved
    assert kept[True] == kept[False]


def test_a_count_on_one_process_imports_no_multiprocessing(tmp_path):
    """Start-up: a serial count does without the process pool's module (0.03 s to import)."""
    result = subprocess.run([sys.executable, "-X", "importtime", "-m", "polyfit", "solve",
                             str(FILES / "soma-marked-corner.xmpuzzle"), "--count", "--jobs", "1"],
                            capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert result.returncode == 0, result.stderr
    assert "1920 distinct solutions" in result.stdout
    imported = [line.rsplit("|", 1)[-1].strip() for line in result.stderr.splitlines() if line.startswith("import time:")]
    assert "polyfit.api" in imported and "multiprocessing" not in imported
