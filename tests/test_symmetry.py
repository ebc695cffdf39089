from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from polyfit.formats.textart import parse_board_text
from polyfit.lattices.grid import lattice_group, normalize, orientations
from polyfit.puzzle.symmetry import board_symmetries, puzzle_symmetries


@dataclass(frozen=True)
class Shape:
    """A minimal piece for these tests: name, cells and whether it may be flipped."""

    name: str
    cells: tuple
    mirror: bool = True

    def orientations(self):
        return orientations(self.cells, lattice_group(len(self.cells[0]), self.mirror))


def box(*sizes):
    import itertools

    return list(itertools.product(*(range(n) for n in sizes)))


def test_board_symmetry_orders():
    assert len(board_symmetries(box(6, 10))) == 4
    assert len(board_symmetries(box(8, 8))) == 8
    assert len(board_symmetries(box(3, 3, 3))) == 48
    assert len(board_symmetries(box(2, 3, 4))) == 8
    assert len(board_symmetries(box(2, 2, 5))) == 16
    hole = parse_board_text("####\n#..#\n####\n").cells
    assert len(board_symmetries(hole)) == 4
    lopsided = parse_board_text("###\n#\n").cells
    assert len(board_symmetries(lopsided)) == 1


def test_symmetries_map_the_board_onto_itself_identity_first():
    cells = parse_board_text("########\n" * 3 + "###..###\n" * 2 + "########\n" * 3).cells
    syms = board_symmetries(cells)
    assert syms[0].is_identity
    for sym in syms:
        assert sorted(sym(c) for c in cells) == sorted(cells)


L = ((0, 0), (1, 0), (2, 0), (2, 1))
J = normalize((r, -c) for r, c in L)
I = ((0, 0), (1, 0), (2, 0), (3, 0))


def test_free_pieces_keep_every_board_symmetry():
    syms = puzzle_symmetries(box(4, 4), [Shape("L", L), Shape("I", I)])
    assert len(syms) == 8
    assert all(s.piece_map == (0, 1) for s in syms)


def test_one_sided_pieces_lose_reflections_unless_the_set_has_their_mirror():
    alone = puzzle_symmetries(box(4, 4), [Shape("L", L, False), Shape("I", I, False)])
    assert len(alone) == 4 and all(s.is_proper for s in alone)
    paired = puzzle_symmetries(
        box(4, 4), [Shape("L", L, False), Shape("J", J, False), Shape("I", I, False)]
    )
    assert len(paired) == 8
    for s in paired:
        assert s.piece_map == ((0, 1, 2) if s.is_proper else (1, 0, 2))


# -- the breaker's choice: skipping candidates by their orbit bound changes nothing -------------

BURRTOOLS_DATA = Path(__file__).resolve().parent.parent / "benchmarks" / "data" / "burrtools"
TESTS_DATA = Path(__file__).resolve().parent / "data"


def _exhaustive_breaker(cover, pieces, counts):
    """The breaker as worked out before candidates were skipped and orbits followed under
    generators: every invariant piece used once, its orbits and stabilizers from the whole
    tables, the least (orbits, fixed, piece)."""
    from polyfit.puzzle.cover import _orbits

    group = cover.symmetries
    tables = [cover.table(sym) for sym in group]
    searched = len(cover.placements) - len(cover.fixed)
    best = None
    for piece in range(len(pieces)):
        if counts[piece] != (1, 1) or any(sym.piece_map[piece] != piece for sym in group):
            continue
        mine = [i for i in range(searched) if cover.placements[i].piece == piece]
        if not mine:
            continue
        orbits = _orbits(group, mine, tables)
        key = (len(orbits), sum(1 for size, _ in orbits.values() if size < len(group)), piece)
        if best is None or key < best[0]:
            stabilizers = {i: stab for i, (_, stab) in orbits.items() if stab}
            best = (key, piece, {i: size for i, (size, _) in orbits.items()}, stabilizers)
    return (None, {}, {}) if best is None else best[1:]


@pytest.mark.parametrize("name", ["keys-in-a-box", "cube-9", "colour-cube", "burr-box-8", "cage-216", "counts",
                                  "soma-two-coloured-t", "soma-marked-corner", "umlaut"])
def test_the_breaker_is_the_one_every_candidate_worked_out_gives(name):
    import polyfit

    puzzle = polyfit.Puzzle(polyfit.read_board(BURRTOOLS_DATA / f"{name}.xmpuzzle"))
    cover = puzzle.cover
    assert len(cover.symmetries) > 1  # a group to break
    piece, orbit_sizes, stabilizers = _exhaustive_breaker(cover, puzzle.pieces, puzzle.counts)
    assert (cover.breaker, cover.orbit_sizes, cover.stabilizers) == (piece, orbit_sizes, stabilizers)
    # A table made for one piece's placements agrees with the whole table on them.
    keys = cover._keys()
    mine = [i for i, p in enumerate(cover.placements) if p.piece == piece]
    for sym in cover.symmetries:
        partial, whole = keys.image(sym, piece), cover.table(sym)
        assert [partial[i] for i in mine] == [whole[i] for i in mine]


@pytest.mark.parametrize("sizes", [(2, 3, 4), (3, 3, 4), (3, 3, 3), (2, 5), (4, 4)])
def test_a_few_generators_make_the_whole_group(sizes):
    """The breaker's orbits are followed under generators: they make every symmetry (their
    products, closed), and no generator is a product of those before it."""
    import itertools

    from polyfit.puzzle.cover import _generators
    from polyfit.puzzle.symmetry import board_symmetries

    box = list(itertools.product(*(range(n) for n in sizes)))
    group = board_symmetries(box)
    chosen = _generators(group)
    made = {sym.transform for sym in group if sym.is_identity}
    for k in chosen:  # each adds something new (in the order chosen)
        assert group[k].transform not in made
        while True:
            more = {a.then(group[g].transform) for a in made for g in chosen[:chosen.index(k) + 1]} - made
            if not more:
                break
            made |= more
    assert made == {sym.transform for sym in group}
    assert 2 ** len(chosen) <= len(group)  # each at least doubles what those before it make


@settings(max_examples=100, deadline=None)
@given(st.integers(2, 3).flatmap(lambda dim: st.tuples(
    st.lists(st.integers(1, 4), min_size=dim, max_size=dim), st.randoms(use_true_random=False))))
def test_cells_kept_by_a_symmetry_are_found_as_cell_by_cell(case):
    """Coloured or optional cells a board symmetry keeps (every cell to a cell of its value):
    found by turning their numbers in C as one checking each cell does, on patterns some
    symmetry keeps (painted along its orbits) and others."""
    import itertools

    from polyfit.puzzle.symmetry import _keeps, board_symmetries

    sizes, rng = case
    low = [rng.randrange(-2, 3) for _ in sizes]
    box = [tuple(a + b for a, b in zip(c, low)) for c in itertools.product(*(range(n) for n in sizes))]
    group = board_symmetries(box)
    chosen = rng.choice(group)
    values = {}
    for cell in box:  # one value along each orbit of the chosen symmetry, some cells left out
        if cell in values or rng.random() < 0.3:
            continue
        value, image = rng.randrange(3), cell
        while image not in values:
            values[image] = value
            image = chosen(image)
    keeps = _keeps(values)
    for sym in group:
        assert keeps(sym) == all(values.get(sym(c)) == v for c, v in values.items())
    assert keeps(chosen)


@pytest.mark.parametrize("path", ["prisms/hexagon-tower-triprisms.xmpuzzle", "prisms/triangle-tower-tetraprisms.xmpuzzle",
                                  "spheres/tetrahedron-tetraspheres.xmpuzzle", "spheres/flat-hexagon.xmpuzzle",
                                  "finegrids/to-cube-threes-coloured.xmpuzzle", "finegrids/rd-octahedral-six.xmpuzzle"])
def test_symmetry_tables_of_numbered_placements_send_each_placement_to_its_image(path):
    """Off squares and cubes placements are their cells' numbers, and a symmetry sends them all
    in one C call (sorted_images): each lands on the placement of its image's piece, cells
    and colours, worked out cell by cell."""
    import polyfit
    from polyfit.puzzle.placements import numbered_on

    puzzle = polyfit.Puzzle(polyfit.read_board(TESTS_DATA / "burrtools" / path), break_symmetry=False)
    cover = puzzle.cover
    assert numbered_on(cover.placements) is not None and len(cover.symmetries) > 1
    where = {(p.piece, p.cells, p.colours): k for k, p in enumerate(cover.placements)}
    for sym in cover.symmetries:
        plain = []
        for p in cover.placements:
            moved = sorted(zip((sym(c) for c in p.cells), p.colours or [()] * len(p.cells)))
            cells, colours = zip(*moved)
            plain.append(where[sym.piece_map[p.piece], cells, colours if p.colours else ()])
        assert cover.table(sym) == plain


@settings(max_examples=80, deadline=None)
@given(st.data())
def test_board_symmetries_off_squares_and_cubes_are_every_transform_whose_image_is_a_translate(data):
    """Off squares and cubes a board's symmetries are found from its corners (its cells with
    the fewest neighbours on it): they are every transform of the lattice whose image, put in
    normal position, is the board in normal position, each with the translation between."""
    import itertools

    from polyfit.lattices import base as lattices
    from polyfit.puzzle.orientations import translated

    name = data.draw(st.sampled_from([n for n in sorted(lattices.built_ins()) if n not in ("square", "cubic")]))
    lattice = lattices.get(name)
    span = range(data.draw(st.integers(1, 7 if lattice.dim == 2 else 5)))
    box = [c for c in itertools.product(span, repeat=lattice.dim) if lattice.is_cell(c)]
    assume(box)
    g = data.draw(st.sampled_from(lattice.group()))
    kind = data.draw(st.sampled_from(["box", "box and an image", "some"]))
    if kind == "box":
        cells = box
    elif kind == "box and an image":  # often symmetric in a few ways
        cells = set(box) | set(lattice.normalize(g.apply(box)))
    else:
        cells = [c for c in box if data.draw(st.booleans())] or box[:1]
    cells = tuple(sorted(cells))
    board, shift = set(cells), lattice.normal_shift(cells)
    expected = []
    for h in lattice.group():
        image = h.apply(cells)
        offset = tuple(a - b for a, b in zip(lattice.normal_shift(image), shift))
        if board.issuperset(translated(image, offset)):
            expected.append((h, offset))
    found = [(s.transform, s.offset) for s in board_symmetries(cells, lattice)]
    assert sorted(found, key=repr) == sorted(expected, key=repr)
