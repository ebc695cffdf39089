"""Lattices as plugins: the hook, the triangle and hex lattices, their pieces, boards and pictures.

Counts on the new lattices are checked against the plane-geometry brute force of
``tests/helpers.py`` (it shares nothing with polyfit's lattices), and against the literature
(Polyform Puzzler's hexiamond counts; the OEIS polyiamond and polyhex counts).
"""

import itertools
import json
import random
import pytest
from PIL import Image

from helpers import ROOT, check_manifest, first_solution_pictures, plane_centre, plane_distinct, plane_solutions, run
from polyfit.cli import build_app
from polyfit.errors import ParseError, PolyfitError
from polyfit.formats.pieces_file import parse_pieces_text
from polyfit.lattices import base as lattices, triads
from polyfit.lattices.polyforms import fixed, free, one_sided
from polyfit.plugins import get_plugin_manager
from polyfit.puzzle.board import Board
from polyfit.puzzle.lattice_sets import one_sided as one_sided_set, polyforms
from polyfit.puzzle.pieces import Piece
from polyfit.puzzle.solve import Puzzle
from polyfit.registry import Registry

NEW = ("triangle", "hex")


@pytest.fixture(scope="module")
def app():
    return build_app(get_plugin_manager(load_entrypoints=False))


def count(board, pieces, **kw):
    counts = Puzzle(board, pieces, **kw).count(Registry.from_plugins(get_plugin_manager(load_entrypoints=False)).backend())
    return counts.distinct, counts.total


# -- the hook ----------------------------------------------------------------------------------


def test_plugins_lists_the_built_in_lattices(app):
    result = run(app, "plugins")
    assert result.exit_code == 0
    assert "polyfit.lattices.square" in result.output and "lattices: square, cubic" in result.output
    assert "lattices: triangle" in result.output and "lattices: hex" in result.output
    assert "lattices: sticks" in result.output and "lattices: twigs" in result.output
    assert "lattices: prisms" in result.output and "lattices: spheres" in result.output
    assert "lattices: rhombic, tetra-octa" in result.output
    registry = Registry.from_plugins(get_plugin_manager(load_entrypoints=False))
    assert sorted(registry.lattices) == ["cubic", "hex", "prisms", "rhombic", "spheres", "square", "sticks", "tetra-octa",
                                         "triangle", "twigs"]


def test_a_plugin_adds_a_lattice_and_boards_use_it(tmp_path):
    # A plugin's lattice: the square one under another name, so its counts are known.
    (tmp_path / "checkers.py").write_text(
        "from polyfit.hookspecs import hookimpl\n"
        "from polyfit.lattices.square import Orthogonal\n\n"
        "@hookimpl\n"
        "def register_lattices(register):\n"
        "    register(Orthogonal('checkers', 2, 'squares again'))\n"
    )
    pm = get_plugin_manager(load_entrypoints=False, plugins_dir=tmp_path)
    result = run(build_app(pm), "plugins")
    assert "checkers" in result.output and "lattices: checkers" in result.output
    registry = Registry.from_plugins(pm)
    path = tmp_path / "board.txt"
    path.write_text("; lattice: checkers\n####\n####\n")
    board = registry.read_shape(path)  # the registry's session knows its plugins' lattices
    assert board.lattice == "checkers" and board.lattice is registry.lattices["checkers"]
    with registry.session():
        dominoes = [Piece("D", ((0, 0), (0, 1)), count=(4, 4), lattice="checkers")]
    assert dominoes[0].lattice is board.lattice  # an object from here on, never looked up again
    assert count(board, dominoes) == count(Board.from_text("####\n####\n"), [Piece("D", ((0, 0), (0, 1)), count=(4, 4))])
    # Another session, without the plugin, does not know the name: one registry per session.
    with pytest.raises(PolyfitError, match="unknown lattice 'checkers'"):
        Registry.from_plugins(get_plugin_manager(load_entrypoints=False)).read_shape(path)


def test_unknown_and_mismatched_lattices_are_clear_errors():
    with pytest.raises(ParseError) as error:
        Board.from_text("; lattice: penrose\n##\n", path="b.txt")
    assert "b.txt:1:12: unknown lattice 'penrose'; valid lattices:" in str(error.value)
    assert all(name in str(error.value) for name in ("cubic", "hex", "square", "triangle"))
    with pytest.raises(ParseError, match="the cubic lattice is 3D but this file is 2D"):
        Board.from_text("; lattice: cubic\n##\n")
    with pytest.raises(ParseError) as error:
        Board.from_text("; lattice: hex\n# # #\n# # #\n", path="h.txt")
    assert "h.txt:3:1" in str(error.value) and "staggered" in str(error.value)
    board = Board.from_text("; lattice: triangle\n######\n")
    with pytest.raises(PolyfitError, match="triangle lattice but the pieces are on the square lattice"):
        Puzzle(board, [Piece("I", ((0, 0), (0, 1), (0, 2)), count=(2, 2))])


def test_commands_that_handle_squares_only_say_so(app, tmp_path):
    board = ROOT / "shapes/polyiamond/rhombus-6x6.txt"
    for args in (
        ("kit", "hexiamonds", "--stl", tmp_path, "--tray", board),
        ("solve", board, "--limit", "1", "--svg", tmp_path / "c.svg", "--cut"),
        ("solve", board, "--limit", "1", "--pdf", tmp_path / "s.pdf"),
        ("solve", board, "--limit", "1", "--output", tmp_path / "s.stl"),
    ):
        result = run(app, *args)
        assert result.exit_code == 2, (args, result.output)
        assert "does not handle the triangle lattice yet" in result.output
    assert not list(tmp_path.iterdir())


# -- the groups --------------------------------------------------------------------------------


def orientation(points) -> float:
    a, b, c = points
    return ((b - a).conjugate() * (c - a)).imag  # > 0 one way round, < 0 the other


@pytest.mark.parametrize("name", NEW)
def test_the_group_has_12_motions_closes_and_keeps_neighbours(name):
    lattice = lattices.get(name)
    group = lattice.group()
    assert len(set(group)) == 12 and sum(g.is_proper for g in group) == 6
    assert group[0].is_identity and set(lattice.group(mirror=False)) == {g for g in group if g.is_proper}
    assert all(g.then(h) in set(group) for g in group for h in group)
    cells = [(r, c) for r in range(-5, 6) for c in range(-7, 8) if lattice.is_cell((r, c))]
    for g in group:
        for cell in cells:
            for n in lattice.neighbours(cell):
                assert g(n) in set(lattice.neighbours(g(cell)))
            # a motion of the plane: distances between centres are kept
            for other in cells[:20]:
                d0 = abs(plane_centre(name, cell) - plane_centre(name, other))
                d1 = abs(plane_centre(name, g(cell)) - plane_centre(name, g(other)))
                assert d1 == pytest.approx(d0)
        for h in group:
            assert all(g.then(h)(c) == h(g(c)) for c in cells[:30])
        # proper motions keep the turning sense of three centres, reflections reverse it
        three = [(0, 0), (0, 2), (2, 2)] if name == "hex" else [(0, 0), (0, 3), (3, 1)]
        before = orientation([plane_centre(name, c) for c in three])
        after = orientation([plane_centre(name, g(c)) for c in three])
        assert (before * after > 0) == g.is_proper


@pytest.mark.parametrize("name", sorted(lattices.built_ins()))
def test_a_transform_applied_to_many_cells_moves_each_as_it_moves_one(name):
    """``apply`` takes the fast ways (the triangle, hex and prism transforms as affine maps on
    the two classes of cells, worked out once): it moves every cell, far from the origin too,
    where the transform moves it alone."""
    lattice = lattices.get(name)
    rng = random.Random(7)
    cells = [c for c in (tuple(rng.randint(-60, 60) for _ in range(lattice.dim)) for _ in range(4000))
             if lattice.is_cell(c)][:400]
    assert len(cells) >= 20
    for g in lattice.group():
        assert tuple(g.apply(cells)) == tuple(g(c) for c in cells)


@pytest.mark.parametrize("name", ["triangle", "hex", "prisms"])
def test_the_affine_images_in_c_and_in_python_are_the_transforms_images(name):
    """The triangle, hex and prism lattices turn a shape every way at once (``normal_images``,
    from each transform's affine maps, in C or its Python twin): each image, moved to normal
    position and sorted, is the one the transform and ``normalize`` make cell by cell."""
    lattice = lattices.get(name)
    rng = random.Random(11)
    cells = [c for c in (tuple(rng.randint(-40, 40) for _ in range(lattice.dim)) for _ in range(3000))
             if lattice.is_cell(c)][:200]
    group = lattice.group()
    expected = [lattice.normalize(g(c) for c in cells) for g in group]
    assert lattice.normal_images(cells) == expected
    assert lattice.orientations(cells) == tuple(sorted(set(expected)))
    assert lattice.canonical(cells) == min(expected)
    for g in group:
        maps, layers = g.affine
        for normal in (False, True):
            python = triads.affine_images(maps, cells, layers, normal, native=False)
            assert python == (lattice.normalize(g(c) for c in cells) if normal else tuple(g(c) for c in cells))
            if triads._affine is not None:
                assert triads.affine_images(maps, cells, layers, normal, native=True) == python
    assert triads.affine_images(group[1].affine[0], [], group[1].affine[1], True) == ()


@pytest.mark.skipif(triads._affine is None, reason="the C helpers are not built")
def test_the_c_affine_images_refuse_what_is_not_cells_and_maps():
    _affine = triads._affine
    maps = ((0, 0, 1, 1, 0, 2), (0, 1, 1, 1, 0, 2))
    assert _affine.affine_images(maps, [(0, 0), (0, 1)], 0, False) == ((0, 0), (0, 1))
    for args in (
        (maps[:1], [(0, 0)], 0, False),
        (((0, 0, 1, 1, 0),) * 2, [(0, 0)], 0, False),
        (((0, 0, 1, 1, 0, 1 << 40),) * 2, [(0, 0)], 0, False),
        (maps, [(0, 0, 0)], 0, False),
        (maps, [(0, 0)], 1, False),
        (maps, [(0, 0)], 2, False),
        (maps, [(0, 1 << 31)], 0, False),
        (maps, [[0, 0]], 0, False),
    ):
        with pytest.raises(ValueError):
            _affine.affine_images(*args)
    with pytest.raises(TypeError):
        _affine.affine_images(maps, 5, 0, False)
    with pytest.raises(TypeError):
        _affine.affine_images(maps, [("a", 0)], 0, False)


@pytest.mark.parametrize("name", sorted(lattices.built_ins()))
def test_cells_share_a_coset_exactly_when_a_translation_moves_one_onto_the_other(name):
    """The placement generator tries a shape's cell only on the board cells of its coset: a
    lattice's formula, and the default that learns the classes one by one, must both agree
    with is_translation on every pair."""
    import copy

    lattice = lattices.get(name)
    span = range(-7, 8) if lattice.dim == 2 else range(-6, 7)
    cells = [c for c in itertools.product(span, repeat=lattice.dim) if lattice.is_cell(c)]
    cells = cells[::max(1, len(cells) // 300)]
    learner = copy.copy(lattice)  # the default, on a copy that keeps the classes it has met
    learner.__dict__.pop("_cosets_met", None)
    keys = {c: lattice.coset(c) for c in cells}
    learned = {c: lattices.Lattice.coset(learner, c) for c in cells}
    classes = set()
    for b in cells:
        for c in cells:
            moves = lattice.is_translation(tuple(x - y for x, y in zip(b, c)))
            assert (keys[b] == keys[c]) == moves, (b, c)
            assert (learned[b] == learned[c]) == moves, (b, c)
        classes.add(keys[b])
    # the fine grids' sub-cells fall into as many classes as they have kinds of cell
    assert len(classes) == {"rhombic": 24, "tetra-octa": 10}.get(name, len(classes))


@pytest.mark.parametrize("name", NEW)
def test_polygons_tile_the_plane_edge_to_edge(name):
    lattice = lattices.get(name)
    for cell in [(r, c) for r in range(-3, 4) for c in range(-4, 5) if lattice.is_cell((r, c))]:
        poly = lattice.polygon(cell)
        centre = sum(complex(x, y) for x, y in poly) / len(poly)
        scale = 1 if name == "triangle" else 1  # plane_centre and polygons share units
        assert centre == pytest.approx(plane_centre(name, cell) * scale if name == "triangle" else centre)
        for n in lattice.neighbours(cell):
            shared = {(round(x, 6), round(y, 6)) for x, y in poly} & {
                (round(x, 6), round(y, 6)) for x, y in lattice.polygon(n)
            }
            assert len(shared) == 2  # neighbours share a side


# -- polyforms and piece sets ------------------------------------------------------------------


def test_the_enumerators_reproduce_the_published_counts():
    # OEIS A001420 / A000577 (polyiamonds, fixed / free) and A001207 / A000228 (polyhexes).
    assert [len(fixed(n, "triangle")) for n in range(1, 9)] == [2, 3, 6, 14, 36, 94, 250, 675]
    assert [len(free(n, "triangle")) for n in range(1, 10)] == [1, 1, 1, 3, 4, 12, 24, 66, 160]
    assert [len(fixed(n, "hex")) for n in range(1, 7)] == [1, 3, 11, 44, 186, 814]
    assert [len(free(n, "hex")) for n in range(1, 8)] == [1, 1, 3, 7, 22, 82, 333]
    assert [len(one_sided(n, "triangle")) for n in range(4, 8)] == [4, 6, 19, 43]
    assert [len(one_sided(n, "hex")) for n in range(3, 6)] == [3, 10, 33]


@pytest.mark.parametrize("name,n", [("triangle", n) for n in range(1, 8)] + [("hex", n) for n in range(1, 6)])
def test_each_set_is_the_enumerators_classes(name, n):
    lattice = lattices.get(name)
    pieces = polyforms(name, n)
    assert sorted(lattice.canonical(p.cells) for p in pieces) == list(free(n, name))
    assert all(p.lattice == name and p.size == n for p in pieces)
    sided = one_sided_set(name, n)
    assert sorted(lattice.canonical(p.cells, False) for p in sided) == list(one_sided(n, name))


def test_hexiamond_and_tetrahex_names():
    triangle, hex_ = lattices.get("triangle"), lattices.get("hex")

    def symmetric(lattice, pieces):
        return {p.name for p in pieces if lattice.canonical(lattice.mirrored(p.cells), False) == lattice.canonical(p.cells, False)}

    hexiamonds = polyforms("triangle", 6)
    assert [p.name for p in hexiamonds] == sorted("IPJEVHSXCGFO")
    assert symmetric(triangle, hexiamonds) == set("EVXCO")  # crown, lobster, butterfly, chevron, hexagon
    by_name = {p.name: p for p in hexiamonds}
    assert len(triangle.orientations(by_name["O"].cells)) == 1  # the hexagon
    assert len(triangle.orientations(by_name["I"].cells)) == 6  # the bar
    assert len(one_sided_set("triangle", 6)) == 19
    tetrahexes = {p.name: p for p in polyforms("hex", 4)}
    assert symmetric(hex_, tetrahexes.values()) == set("IOUY")
    assert len(hex_.orientations(tetrahexes["Y"].cells)) == 2  # the propeller
    assert len(hex_.orientations(tetrahexes["I"].cells)) == 3  # the bar


def test_pieces_files_on_the_new_lattices():
    pieces = parse_pieces_text("; lattice: triangle\nAAB\n.BB\n")
    assert [p.lattice for p in pieces] == ["triangle", "triangle"]
    assert [p.size for p in pieces] == [2, 3]
    hexes = parse_pieces_text("; lattice: hex\na a b\n a b b\n")
    assert [p.size for p in hexes] == [3, 3] and hexes[0].lattice == "hex"
    with pytest.raises(ParseError, match=r"<text>:3:1: 'a' here is not a cell"):
        parse_pieces_text("; lattice: hex\na a\na\n")
    with pytest.raises(ParseError, match="not connected"):
        parse_pieces_text("; lattice: triangle\n.A\n.A\n")  # a down triangle and the up one below meet at a point
    assert parse_pieces_text("; lattice: triangle\nA\nA\n")[0].size == 2  # an up triangle and the one below share a side


# -- boards and counts -------------------------------------------------------------------------


@pytest.mark.parametrize("group", ["polyiamond", "polyhex"])
def test_shipped_boards_count_as_their_manifest(app, group):
    check_manifest(app, group)


def test_tetrahexes_4x7_agree_with_the_plane_brute_force(app):
    board = Board.from_text((ROOT / "shapes/polyhex/tetrahexes-4x7.txt").read_text())
    pieces = polyforms("hex", 4)
    found = plane_solutions("hex", board.cells, [(p.name, p.cells, True) for p in pieces])
    assert plane_distinct("hex", board.cells, found) == (9, 2)
    assert count(board, pieces) == (9, len(found)) == (9, 18)
    # The same board with the bee pre-placed: the tilings holding it.
    bee = Board.from_text((ROOT / "shapes/polyhex/tetrahexes-4x7-bee.txt").read_text())
    (name, cells, _), = bee.fixed
    held = [t for t in found if (name, frozenset(cells)) in t]
    assert count(bee, pieces) == (len(held), len(held)) == (8, 8)


def triangle_board(text):
    return Board.from_text("; lattice: triangle\n" + text)


# The tetriamonds and pentiamonds, named apart (both sets have an I and a C).
TRIANGLES_4_AND_5 = [
    Piece(f"{p.name}{n}", p.cells, lattice="triangle") for n in (4, 5) for p in polyforms("triangle", n)
]


@pytest.mark.parametrize("art,counts", [
    (" ################\n  ################\n", (2, 4)),  # tetriamonds and pentiamonds, 2x8
    (" ########\n  ########\n   ########\n    ########\n", (68, 272)),  # 4x4
])
def test_triangle_boards_agree_with_the_plane_brute_force(art, counts):
    board = triangle_board(art)
    found = plane_solutions("triangle", board.cells, [(p.name, p.cells, True) for p in TRIANGLES_4_AND_5])
    distinct, _ = plane_distinct("triangle", board.cells, found)
    assert count(board, TRIANGLES_4_AND_5) == (distinct, len(found)) == counts


@pytest.mark.slow
def test_optional_cells_and_counts_on_triangles_agree_with_the_brute_force():
    # The 2x8 parallelogram and two optional cells, with a diamond that may be used or not:
    # the tilings of the 34 cells with the diamond, and of the 32 without it.
    board = triangle_board("+################\n  ################+\n")
    assert len(board.optional) == 2
    diamond = Piece("D", ((0, 0), (0, 1)), count=(0, 1), lattice="triangle")
    every = [(p.name, p.cells, True) for p in TRIANGLES_4_AND_5]
    inner = set(board.cells) - board.optional
    expected = len(plane_solutions("triangle", inner, every))
    expected += len(plane_solutions("triangle", board.cells, every + [("D", diamond.cells, True)]))
    _, total = count(board, TRIANGLES_4_AND_5 + [diamond])
    assert total == expected > 4


def test_the_hexiamond_rhombus_counts_156_as_polyform_puzzler(app):
    result = run(app, "solve", ROOT / "shapes/polyiamond/rhombus-6x6.txt", "--count")
    assert result.output.splitlines()[0] == (
        "Hexiamonds in a 6x6 rhombus: 156 distinct solutions, 624 in all (symmetry group of order 4)"
    )


def test_parity_proves_an_impossible_triangle_board_without_search():
    # 12 up and 10 down triangles cannot hold 11 diamonds: each covers one of each.
    board = triangle_board("########\n########\n########\n")
    lop = Board(tuple(c for c in board.cells if c not in {(1, 2), (1, 6)}), lattice="triangle")
    pieces = [Piece("D", ((0, 0), (0, 1)), count=(11, 11), lattice="triangle")]
    puzzle = Puzzle(lop, pieces)
    assert puzzle.impossible.startswith("up/down parity: the board has 12 up and 10 down triangles")
    assert puzzle.placement_stats.pruned_parity > 0


# -- output ------------------------------------------------------------------------------------


def test_solutions_read_back_as_the_same_lattice(app, tmp_path):
    board = ROOT / "shapes/polyiamond/rhombus-6x6.txt"
    result = run(app, "solve", board, "--limit", "1", "--output", tmp_path / "s.txt")
    art = (tmp_path / "s.txt").read_text().split("\n", 1)[1]
    again = Board.from_text("; lattice: triangle\n" + art.replace("\n\n", "\n"))
    assert set(again.cells) == set(Board.from_text(board.read_text()).cells)  # up stays up
    assert result.exit_code == 0
    run(app, "solve", board, "--limit", "1", "--output", tmp_path / "s.json")
    data = json.loads((tmp_path / "s.json").read_text())
    assert data["lattice"] == "triangle"
    result = run(app, "render", tmp_path / "s.json", "--png", tmp_path / "r.png")
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("board", ["polyiamond/rhombus-6x6.txt", "polyhex/tetrahexes-4x7-bee.txt"])
def test_pictures_draw_true_triangles_and_hexagons(app, tmp_path, board):
    data, image = first_solution_pictures(app, tmp_path, ROOT / "shapes" / board)
    lattice = lattices.get(data["lattice"])
    solution = data["solutions"][0]
    # Each cell's centre is painted in its piece's colour: pieces differ where labels differ.
    cells = {tuple(c): name for name, cs in solution.items() for c in cs}
    low = [min(x for c in cells for x, _ in lattice.polygon(c)), min(y for c in cells for _, y in lattice.polygon(c))]
    seen = {}
    for cell, name in cells.items():
        poly = lattice.polygon(cell)
        x = (sum(p[0] for p in poly) / len(poly) - low[0]) * 40
        y = (sum(p[1] for p in poly) / len(poly) - low[1]) * 40
        pad = (image.width - (max(p[0] for c in cells for p in lattice.polygon(c)) - low[0]) * 40) / 2
        seen.setdefault(name, set()).add(image.getpixel((round(x + pad), round(y + pad))))
    assert all(len(colours) == 1 for colours in seen.values())
    assert len({next(iter(c)) for c in seen.values()}) == len(seen)
    svg = (tmp_path / "s.svg").read_text()
    assert svg.count('<path class="piece"') == len(solution)
    if lattice.name == "triangle":
        assert "L" in svg and "," in svg  # polygon outlines, not rectangles
    drawn = svg.split("</defs>")[-1].split("</title>")[-1].replace('<rect class="background"', "")
    assert "<rect" not in drawn  # no square anywhere


def test_piece_sheets_of_the_new_sets(app, tmp_path):
    for name in ("hexiamonds", "pentahexes", "one-sided-hexiamonds"):
        result = run(app, "pieces", name, "--png", tmp_path / f"{name}.png")
        assert result.exit_code == 0, result.output
    assert Image.open(tmp_path / "hexiamonds.png").width > 200
    result = run(app, "pieces", "hexiamonds")
    assert "OOO" in result.output and "IIIIII" in result.output


@pytest.mark.parametrize("name", ["hexiamonds", "tetrahexes"])
def test_kits_of_extruded_tiles(app, tmp_path, name):
    import trimesh

    result = run(app, "kit", name, "--stl", tmp_path, "--gap", "0", "--unit", "10", "--thickness", "4")
    assert result.exit_code == 0, result.output
    pieces = {p.name: p for p in (polyforms("triangle", 6) if name == "hexiamonds" else polyforms("hex", 4))}
    lattice = lattices.get(next(iter(pieces.values())).lattice)
    poly = lattice.polygon((0, 0))
    cell_area = abs(sum(a[0] * b[1] - b[0] * a[1] for a, b in zip(poly, poly[1:] + poly[:1]))) / 2
    assert sorted(p.stem for p in tmp_path.glob("*.stl")) == sorted(pieces)
    for piece in pieces.values():
        mesh = trimesh.load(tmp_path / f"{piece.name}.stl")
        assert mesh.is_watertight and mesh.is_winding_consistent
        assert mesh.volume == pytest.approx(cell_area * piece.size * 100 * 4)
        assert mesh.extents[2] == pytest.approx(4)
    (tmp_path / "gap").mkdir()
    shrunk = run(app, "kit", name, "--stl", tmp_path / "gap", "--gap", "1", "--unit", "10")
    assert shrunk.exit_code == 0, shrunk.output
    small = trimesh.load(tmp_path / "gap" / "I.stl")
    assert small.is_watertight and small.volume < trimesh.load(tmp_path / "I.stl").volume * 5 / 4
