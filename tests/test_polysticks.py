"""Edge polyforms: polysticks (the sticks lattice) and polytwigs (the twigs lattice).

Counts are checked against the segment brute force of ``tests/helpers.py``, which reads the art
by its own rules, grows its own pieces and forbids crossings itself, sharing nothing with
polyfit's lattices, exact cover or pruning; and against Polyform Puzzler's published counts
(D. Goodger's 1,795 tetrastick solutions of the 5x5 grid and their split by the piece left out,
his polystick and polytwig puzzles).
"""

import json
import math

import pytest
from PIL import Image

from helpers import (
    ROOT,
    check_manifest,
    edge_art,
    edge_distinct,
    edge_mark,
    edge_middle,
    edge_polyforms,
    edge_segment,
    edge_solutions,
    first_solution_pictures,
    manifest,
    run,
)
from polyfit.api import Puzzle as ApiPuzzle
from polyfit.cli import build_app
from polyfit.errors import ParseError
from polyfit.formats.pieces_file import parse_pieces_text
from polyfit.lattices import base as lattices
from polyfit.lattices.polyforms import fixed, free, one_sided
from polyfit.plugins import get_plugin_manager
from polyfit.puzzle.board import Board
from polyfit.puzzle.edge_sets import ONE_SIDED, SETS, polyforms, one_sided as one_sided_set
from polyfit.puzzle.pieces import Piece
from polyfit.puzzle.solve import Counts, Puzzle
from polyfit.registry import Registry
from polyfit.render.stick_cut import convex_parts, stick_loops

KINDS = ("sticks", "twigs")
ORDER = {"sticks": 8, "twigs": 12}


@pytest.fixture(scope="module")
def app():
    return build_app(get_plugin_manager(load_entrypoints=False))


@pytest.fixture(scope="module")
def registry():
    return Registry.from_plugins(get_plugin_manager(load_entrypoints=False))


def art_of(path) -> str:
    """A board file's art, without its metadata lines."""
    return "\n".join(line for line in path.read_text().split("\n") if not line.startswith(";"))


def segment_of(kind, cell) -> frozenset:
    """polyfit's cell as the brute force's segment: the cell is where the segment is drawn."""
    return edge_segment(kind, cell[0], cell[1], edge_mark(kind, *cell))


def as_segments(kind, cells) -> frozenset:
    return frozenset(segment_of(kind, c) for c in cells)


def polyfit_tilings(kind, puzzle, backend):
    """Every solution of a puzzle (symmetric copies too), as the brute force's segment sets."""
    cover = puzzle.cover
    found = set()
    for solution in puzzle.search(backend, Counts()):
        for copy in cover.orbit(solution.placements):
            found.add(frozenset((puzzle.pieces[puzzle.placements[i].piece].name,
                                 as_segments(kind, puzzle.placements[i].cells)) for i in copy))
    return found


# -- the lattices ------------------------------------------------------------------------------


def orientation(points) -> float:
    a, b, c = points
    return ((b - a).conjugate() * (c - a)).imag


@pytest.mark.parametrize("kind", KINDS)
def test_the_group_closes_keeps_neighbours_and_is_a_motion_with_its_handedness(kind):
    lattice = lattices.get(kind)
    group = lattice.group()
    assert len(set(group)) == ORDER[kind] and sum(g.is_proper for g in group) == ORDER[kind] // 2
    assert sum(g.is_identity for g in group) == 1
    assert set(lattice.group(mirror=False)) == {g for g in group if g.is_proper}
    assert all(g.then(h) in set(group) for g in group for h in group)
    cells = [(r, c) for r in range(-6, 7) for c in range(-8, 9) if lattice.is_cell((r, c))]
    assert cells and all(edge_mark(kind, *c) is not None for c in cells)  # the art's own rule
    near = [(r, c) for r in range(-4, 4) for c in range(-4, 4)]
    assert all(lattice.is_cell(c) == (edge_mark(kind, *c) is not None) for c in near)
    middle = {c: edge_middle(kind, segment_of(kind, c)) for c in cells}
    for g in group:
        for cell in cells:
            image = g(cell)
            assert lattice.is_cell(image)
            # neighbours share an end point, in the plane as in the lattice
            for n in lattice.neighbours(cell):
                assert len(segment_of(kind, cell) & segment_of(kind, n)) == 1
                assert g(n) in set(lattice.neighbours(image))
        for h in group:
            assert all(g.then(h)(c) == h(g(c)) for c in cells[:30])
        # a motion of the plane: distances between middles kept (about a moved centre)
        sample = cells[::7]
        for a in sample[:12]:
            for b in sample[:12]:
                d0 = abs(middle[a] - middle[b])
                d1 = abs(edge_middle(kind, segment_of(kind, g(a))) - edge_middle(kind, segment_of(kind, g(b))))
                assert d1 == pytest.approx(d0)
        three = sample[:3] if orientation([middle[c] for c in sample[:3]]) else sample[1:4]
        before = orientation([middle[c] for c in three])
        after = orientation([edge_middle(kind, segment_of(kind, g(c))) for c in three])
        assert (before * after > 0) == g.is_proper


@pytest.mark.parametrize("kind", KINDS)
def test_translations_and_normal_forms(kind):
    lattice = lattices.get(kind)
    cells = [(r, c) for r in range(0, 6) for c in range(0, 8) if lattice.is_cell((r, c))]
    for shift in [(r, c) for r in range(-4, 5) for c in range(-4, 5)]:
        moved = [(r + shift[0], c + shift[1]) for r, c in cells]
        # a translation moves every segment onto one drawn the same way
        keeps = all(edge_mark(kind, *m) == edge_mark(kind, *c) for m, c in zip(moved, cells))
        assert lattice.is_translation(shift) == keeps, shift
        if keeps:
            assert lattice.normalize(moved) == lattice.normalize(cells)
    shape = cells[:5]
    assert lattice.is_translation(lattice.normal_shift(shape))


def test_two_pieces_may_touch_but_not_cross():
    sticks = lattices.get("sticks")
    plus = [(1, 2), (2, 1), (2, 3), (3, 2)]  # the four segments at the point (2, 2)
    assert sorted(sticks.crossings(plus)) == [((2, 2), 0), ((2, 2), 1)]
    assert list(sticks.crossings([(0, 1), (1, 2)])) == []  # a corner passes through nothing
    assert list(lattices.get("twigs").crossings([(0, 1), (1, 0), (0, 3)])) == []  # 120 degrees apart
    # Two I2 disticks cross at the centre of the 2x2 grid, or meet there end to end.
    board = Board.from_text("; lattice: sticks\n+-+-+\n| | |\n+-+-+\n| | |\n+-+-+\n")
    cross = Board(board.cells, lattice="sticks", fixed=())
    pieces = [Piece("I2", ((0, 1), (0, 3)), count=(6, 6), lattice="sticks")]
    counts = Puzzle(cross, pieces).count(Registry.from_plugins(get_plugin_manager(load_entrypoints=False)).backend("dlx-c"))
    brute = edge_solutions("sticks", edge_art("sticks", "+-+-+\n| | |\n+-+-+\n| | |\n+-+-+"),
                           [("I2", frozenset({frozenset({(0, 0), (2, 0)}), frozenset({(2, 0), (4, 0)})}), True, 6, 6)])
    crossing = edge_solutions("sticks", edge_art("sticks", "+-+-+\n| | |\n+-+-+\n| | |\n+-+-+"),
                              [("I2", frozenset({frozenset({(0, 0), (2, 0)}), frozenset({(2, 0), (4, 0)})}), True, 6, 6)],
                              crossing=False)
    assert counts.total == len(brute) < len(crossing)


# -- polyforms and piece sets ------------------------------------------------------------------


def test_the_enumerators_reproduce_the_published_counts():
    # OEIS A096267 (fixed polysticks), A019988 (free), A151537 (one-sided); polytwigs: Polyform
    # Puzzler's 3 tritwigs, 4 tetratwigs, 12 pentatwigs and 27 hexatwigs (4, 6, 19 one-sided).
    assert [len(fixed(n, "sticks")) for n in range(1, 7)] == [2, 6, 22, 88, 372, 1628]
    assert [len(free(n, "sticks")) for n in range(1, 7)] == [1, 2, 5, 16, 55, 222]
    assert [len(one_sided(n, "sticks")) for n in range(1, 6)] == [1, 2, 7, 25, 99]
    assert [len(free(n, "twigs")) for n in range(1, 7)] == [1, 1, 3, 4, 12, 27]
    assert [len(one_sided(n, "twigs")) for n in range(1, 6)] == [1, 1, 4, 6, 19]


@pytest.mark.parametrize("kind,n", [("sticks", n) for n in range(1, 5)] + [("twigs", n) for n in range(1, 6)])
def test_the_pieces_are_the_brute_force_classes(kind, n):
    """polyfit's piece sets, drawn in the plane, are exactly the shapes the brute force grows."""
    from helpers import _normal_segments, _orientations

    def classes(shapes, mirror):
        return {min(sorted(map(sorted, o)) for o in _orientations(kind, s, mirror)).__repr__() for s in shapes}

    mine = [as_segments(kind, p.cells) for p in polyforms(kind, n)]
    assert classes(mine, True) == classes(edge_polyforms(kind, n), True)
    assert len(mine) == len(edge_polyforms(kind, n))
    sided = [as_segments(kind, p.cells) for p in one_sided_set(kind, n)]
    assert classes(sided, False) == classes(edge_polyforms(kind, n, mirror=False), False)
    assert len(sided) == len(edge_polyforms(kind, n, mirror=False))
    assert all(_normal_segments(s) for s in mine)


def test_polyform_puzzler_names():
    sets = {p.name: p for n in (2, 3, 4) for p in polyforms("sticks", n)}
    sticks = lattices.get("sticks")

    def degrees(cells):
        ends = [e for c in cells for e in sticks.ends(c)]
        return sorted(ends.count(e) for e in set(ends))

    assert degrees(sets["X"].cells) == [1, 1, 1, 1, 4]  # the plus
    assert degrees(sets["O"].cells) == [2, 2, 2, 2]  # the square
    assert degrees(sets["I"].cells) == [1, 1, 2, 2, 2] and not any(r % 2 for r, _ in sets["I"].cells)
    assert degrees(sets["T3"].cells) == [1, 1, 1, 3] and degrees(sets["V2"].cells) == [1, 1, 2]
    twigs = {p.name: p for n in (3, 4) for p in polyforms("twigs", n)}
    ends = [e for c in twigs["Y3"].cells for e in lattices.get("twigs").ends(c)]
    assert max(ends.count(e) for e in ends) == 3  # three edges at one point
    assert [p.name for p in one_sided_set("twigs", 4)] == ["C4", "P4", "P4'", "W4", "Y4", "Y4'"]
    for name, (kind, n, summary) in {**SETS, **ONE_SIDED}.items():
        pieces = (one_sided_set if name.startswith("one-sided") else polyforms)(kind, n)
        assert str(len(pieces)) in summary or len(pieces) == 1, name


def test_pieces_json_lists_names_and_cells(app):
    result = run(app, "pieces", "tetrasticks", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["lattice"] == "sticks" and "".join(data["pieces"]) == "FHIJLNOPRTUVWXYZ"
    assert {name: [tuple(c) for c in cells] for name, cells in data["pieces"].items()} == {
        p.name: list(p.cells) for p in polyforms("sticks", 4)}
    data = json.loads(run(app, "pieces", "tetrominoes,monomino=2", "--json").output)
    assert sorted(data["pieces"]) == ["I", "L", "M", "O", "S", "T"] and "lattice" not in data
    assert data["counts"] == {"M": [2, 2]}
    sets = json.loads(run(app, "pieces", "--json").output)["sets"]
    assert sets["pentatwigs"]["pieces"] == 12 and sets["one-sided-tetrasticks"]["pieces"] == 25
    result = run(app, "pieces", "tetrasticks", "--json", "--png", "x.png")
    assert result.exit_code == 2 and "--json" in result.output


# -- text art ----------------------------------------------------------------------------------


GRID_5X5 = "\n".join(["+-+-+-+-+-+", "| | | | | |"] * 5 + ["+-+-+-+-+-+"])


def test_boards_are_drawn_with_their_segments():
    board = Board.from_text("; lattice: sticks\n" + GRID_5X5)
    assert board.area == 60 and board.lattice == "sticks"
    assert as_segments("sticks", board.cells) == edge_art("sticks", GRID_5X5)
    # '#' draws a segment too; '+' on a segment's place an optional one; a letter a pre-placed one
    board = Board.from_text("; lattice: sticks\n+#+-+\n|   +\n+-+A+A+\n")
    assert board.optional == {(1, 4)} and board.fixed[0][0] == "A" and len(board.fixed[0][1]) == 2
    # art may start on a row of '|': it is read where such a row belongs
    upright = Board.from_text("; lattice: sticks\n| |\n+-+\n")
    assert upright.cells == ((1, 0), (1, 2), (2, 1))
    twigs = Board.from_text("; lattice: twigs\n|   |\n \\ /\n")  # a hexagon's lower half
    hexagon = edge_art("twigs", " / \\\n|   |\n \\ /")
    assert as_segments("twigs", twigs.cells) == hexagon - edge_art("twigs", " / \\")


@pytest.mark.parametrize("art,where,words", [
    ("+-+\n-\n", "b.txt:3:1", "unexpected character '-'"),  # '-' where a '|' goes
    ("+-+\n |\n", "b.txt:3:2", "not a cell"),  # inside a square
    ("+-+-+\n| * |\n", "b.txt:3:3", "'+' is a lattice point"),
    ("+=+\n", "b.txt:2:2", "unexpected character '='"),
])
def test_art_errors_name_file_line_and_column(art, where, words):
    with pytest.raises(ParseError) as error:
        Board.from_text("; lattice: sticks\n" + art, path="b.txt")
    assert where in str(error.value) and words in str(error.value)


def test_twig_art_errors_and_pieces_files():
    with pytest.raises(ParseError) as error:
        Board.from_text("; lattice: twigs\n / /\n", path="t.txt")  # '/' where '\' goes
    assert "t.txt:2:4" in str(error.value) and "'/' and '\\' are the slanted edges" in str(error.value)
    with pytest.raises(ParseError) as error:
        Board.from_text("; lattice: twigs\n / \\\n  |\n", path="t.txt")  # no edge under an apex
    assert "t.txt:3:3" in str(error.value) and "rows of slanted edges" in str(error.value)
    pieces = parse_pieces_text("; lattice: sticks\n+A+A+ +B+\n    B   B\n    +B+B+\n")
    assert [(p.name, p.size) for p in pieces] == [("A", 2), ("B", 5)]
    assert pieces[1].lattice == "sticks" and pieces[1].cells in {p.cells for p in polyforms("sticks", 5)} | {
        lattices.get("sticks").normalize(g.apply(pieces[1].cells)) for g in lattices.get("sticks").group()}
    with pytest.raises(ParseError, match="not connected"):
        parse_pieces_text("; lattice: sticks\n+A+ +A+\n")


def test_solutions_read_back_as_boards(app, tmp_path):
    result = run(app, "solve", ROOT / "shapes/polysticks/tetrasticks-5x5.txt", "--limit", "1", "--output", tmp_path / "s.txt")
    assert result.exit_code == 0, result.output
    art = (tmp_path / "s.txt").read_text().split("\n", 1)[1]
    again = Board.from_text("; lattice: sticks\n" + art)
    assert set(again.cells) == set(Board.from_text("; lattice: sticks\n" + GRID_5X5).cells)
    assert len(again.fixed) == 15  # every piece, by its letter


# -- counts ------------------------------------------------------------------------------------


CLIPPED = {  # Polyform Puzzler's 4x4 grids with clipped corners (the 8 pieces of 1 to 3 segments)
    "opposite": ("+-+-+ +\n| | |\n+-+-+-+\n| | | |\n+-+-+-+\n  | | |\n+ +-+-+", 21, 84, 200),
    "top": ("+ +-+ +\n  | |\n+-+-+-+\n| | | |\n+-+-+-+\n| | | |\n+-+-+-+", 132, 264, 474),
}


@pytest.mark.parametrize("name", sorted(CLIPPED))
def test_polysticks_agree_with_the_brute_force_and_polyform_puzzler(registry, name):
    art, distinct, total, uncrossed = CLIPPED[name]
    board = Board.from_text("; lattice: sticks\n" + art)
    pieces = list(polyforms("sticks", 1) + polyforms("sticks", 2) + polyforms("sticks", 3))
    counts = Puzzle(board, pieces).count(registry.backend("dlx-c"))
    assert (counts.distinct, counts.total) == (distinct, total)
    segments = edge_art("sticks", art)
    brute_pieces = [(f"{n}.{k}", s, True, 1, 1) for n in (1, 2, 3) for k, s in enumerate(edge_polyforms("sticks", n))]
    found = edge_solutions("sticks", segments, brute_pieces)
    assert len(found) == total and edge_distinct("sticks", segments, brute_pieces, found) == distinct
    # Crossing pieces would make more: the rule is what the count rests on.
    assert len(edge_solutions("sticks", segments, brute_pieces, crossing=False)) == uncrossed > total


@pytest.mark.parametrize("backend", ["dlx-python", "dlx-c", "bitset-c", "bitset-python", "count-memo"])
def test_repeated_sticks_on_every_backend_and_the_memo_counter(registry, backend):
    """Copies of pieces, so the memo counter's Burnside problems carry the crossing points."""
    art = "+-+-+-+\n| | | |\n+-+-+-+\n| | | |\n+-+-+-+"
    board = Board.from_text("; lattice: sticks\n" + art)
    copies = {"I3": 1, "T3": 2, "L3": 2}
    pieces = [Piece(p.name, p.cells, True, (copies[p.name],) * 2, "sticks") for p in polyforms("sticks", 3) if p.name in copies]
    pieces.append(Piece("I2", polyforms("sticks", 2)[0].cells, True, (1, 1), "sticks"))
    counts = Puzzle(board, pieces).count(registry.backend(backend))
    segments = edge_art("sticks", art)
    brute = [(p.name, as_segments("sticks", p.cells), True, *p.count) for p in pieces]
    found = edge_solutions("sticks", segments, brute)
    assert counts.total == len(found) > 0
    assert counts.distinct == edge_distinct("sticks", segments, brute, found)


TWIG_BOARDS = {  # Polyform Puzzler's counts
    "tetratwigs-arch.txt": ("tetratwigs", 2, 4),
    "tetratwigs-row.txt": ("tetratwigs", 0, 0),
    "polytwigs123-triangle.txt": ("monotwig,ditwig,one-sided-tritwigs", 3, 18),
}


@pytest.mark.parametrize("name", sorted(TWIG_BOARDS))
def test_polytwigs_agree_with_the_brute_force_and_polyform_puzzler(app, registry, name):
    spec, distinct, total = TWIG_BOARDS[name]
    path = ROOT / "shapes/polytwigs" / name
    result = run(app, "solve", path, "--count")
    assert f"{distinct} distinct solution" in result.output and f"{total} in all" in result.output
    puzzle = ApiPuzzle(Board.from_text(path.read_text(), path=str(path)), spec)
    segments = edge_art("twigs", art_of(path))
    assert as_segments("twigs", puzzle.board.cells) == segments
    brute = [(p.name, as_segments("twigs", p.cells), p.mirror, *p.count) for p in puzzle.pieces]
    found = edge_solutions("twigs", segments, brute)
    assert len(found) == total and edge_distinct("twigs", segments, brute, found) == distinct
    if found:
        assert polyfit_tilings("twigs", puzzle, registry.backend("dlx-c")) == set(found)


def test_a_preplaced_stick_blocks_crossings(registry):
    # A passes straight through the point at row 2, column 2: no piece may cross it there.
    art = "+-+-+-+\n| | | |\n+A+A+-+\n| | | |\n+-+-+-+"
    board = Board.from_text("; lattice: sticks\n" + art)
    shapes = {"A": ((0, 1), (0, 3)), "I2": ((0, 1), (0, 3)), "V2": ((0, 1), (1, 0)), "L3": ((1, 4), (2, 1), (2, 3))}
    copies = {"A": 1, "I2": 3, "V2": 3, "L3": 1}
    pieces = [Piece(name, cells, True, (copies[name],) * 2, "sticks") for name, cells in shapes.items()]
    counts = Puzzle(board, pieces).count(registry.backend("dlx-c"))
    full = edge_art("sticks", art.replace("A", "-"))
    a = frozenset({frozenset({(0, 2), (2, 2)}), frozenset({(2, 2), (4, 2)})})
    brute = [(p.name, a if p.name == "A" else as_segments("sticks", p.cells), True, *p.count) for p in pieces]
    found = [s for s in edge_solutions("sticks", full, brute) if ("A", a) in s]
    crossing = [s for s in edge_solutions("sticks", full, brute, crossing=False) if ("A", a) in s]
    assert counts.total == len(found) == 2 and len(crossing) == 12


@pytest.mark.parametrize("group", ["polysticks", "polytwigs"])
def test_shipped_boards_count_as_polyform_puzzler_published(app, group):
    figures = check_manifest(app, group, skip={"tetrasticks-5x5.txt"})  # the slow test below counts it
    assert all(entry["distinct"] == entry["published"] for entry in figures.values())


def test_parity_of_horizontal_and_vertical_segments_proves_without_search(app, tmp_path):
    path = tmp_path / "strip.txt"
    path.write_text("; lattice: sticks\n+-+-+-+\n| | | |\n+-+-+-+\n")
    result = run(app, "check", path, "--pieces", "disticks:V2=2,tristicks:I3=2")
    assert "horizontal/vertical parity: the board has 6 horizontal segments and 4 vertical (difference 2)" in result.output
    assert "exhaustive search" not in result.output


def test_symmetric_hex_boards_prune_parity_without_breaking_symmetry(registry):
    # Three colours of hexagons are permuted by a turn: parity pruning kept some placements
    # whose symmetric images it dropped, and the symmetry tables raised KeyError.
    cells = [(r, c) for r in range(-2, 3) for c in range(-4, 5)
             if (r + c) % 2 == 0 and abs(r) + max(0, (abs(c) - abs(r)) // 2) <= 2]
    board = Board(tuple(sorted(cells)), lattice="hex")
    from polyfit.puzzle.lattice_sets import polyforms as hex_forms

    pieces = [p for p in hex_forms("hex", 4) if p.name in "JOPY"] + [hex_forms("hex", 3)[0]]
    pruned = Puzzle(board, pieces)
    assert pruned.placement_stats.pruned_parity > 0
    backend = registry.backend("dlx-c")
    a, b = pruned.count(backend), Puzzle(board, pieces, prune=False).count(backend)
    assert (a.distinct, a.total) == (b.distinct, b.total)


@pytest.mark.slow
def test_tetrasticks_on_the_5x5_grid_make_goodgers_1795():
    puzzle = ApiPuzzle(Board.from_text((ROOT / "shapes/polysticks/tetrasticks-5x5.txt").read_text()))
    left_out = {}
    for solution in puzzle.solutions():
        (missing,) = set("HJLNY") - set(solution.placements)
        left_out[missing] = left_out.get(missing, 0) + 1
    assert sum(left_out.values()) == 1795 == manifest("polysticks")["tetrasticks-5x5.txt"]["published"]
    assert left_out == {"H": 72, "J": 382, "L": 607, "N": 530, "Y": 204}


# -- pictures ----------------------------------------------------------------------------------


@pytest.mark.parametrize("board", ["polysticks/tetrasticks-5x5.txt", "polytwigs/pentatwigs-triangle.txt"])
def test_pictures_stroke_each_piece_in_its_colour(app, tmp_path, board):
    data, image = first_solution_pictures(app, tmp_path, ROOT / "shapes" / board)
    lattice = lattices.get(data["lattice"])
    solution = {name: [tuple(c) for c in cells] for name, cells in data["solutions"][0].items()}
    ends = [p for cells in solution.values() for c in cells for p in lattice.segment(c)]
    low = (min(x for x, _ in ends), min(y for _, y in ends))
    pad = (image.width - (max(x for x, _ in ends) - low[0]) * 40) / 2
    seen = {}
    for name, cells in solution.items():
        for cell in cells:
            (xa, ya), (xb, yb) = lattice.segment(cell)
            x, y = ((xa + xb) / 2 - low[0]) * 40 + pad, ((ya + yb) / 2 - low[1]) * 40 + pad
            seen.setdefault(name, set()).add(image.getpixel((round(x), round(y))))
    assert all(len(colours) == 1 for colours in seen.values())  # each segment's middle in its piece's colour
    assert len({next(iter(c)) for c in seen.values()}) == len(seen)
    svg = (tmp_path / "s.svg").read_text()
    assert svg.count('<path class="piece"') == len(solution) == svg.count('<path class="outline"')
    assert 'stroke-linecap="round"' in svg and "<polygon" not in svg


def test_piece_sheets_and_the_empty_board(app, tmp_path):
    for name in ("tetrasticks", "pentatwigs", "one-sided-tetratwigs"):
        result = run(app, "pieces", name, "--png", tmp_path / f"{name}.png")
        assert result.exit_code == 0, result.output
        assert Image.open(tmp_path / f"{name}.png").width > 300
    result = run(app, "pieces", "tetratwigs")
    assert result.output.startswith("C4") and "/ \\" in result.output and "|" in result.output
    from polyfit.gallery import empty_board_image

    image = empty_board_image(Board.from_text("; lattice: sticks\n" + GRID_5X5))
    colours = {c for _, c in image.getcolors(65536)}
    assert image.width > 100 and all(r == g == b for r, g, b in colours)  # grey segments and points on white


@pytest.mark.parametrize("kind,n", [("sticks", 4), ("twigs", 5)])
def test_cut_outlines_are_closed_sticks_of_the_right_area(kind, n):
    lattice = lattices.get(kind)
    width = 0.24
    inset = width / (2 * math.tan(math.pi / lattice.degree))
    for piece in polyforms(kind, n):
        loops = stick_loops(lattice, piece.cells, width)
        area = sum(sum(a[0] * b[1] - b[0] * a[1] for a, b in zip(loop, loop[1:] + loop[:1])) / 2 for loop in loops)
        parts = convex_parts(lattice, piece.cells, width)
        assert area == pytest.approx(sum(abs(sum(a[0] * b[1] - b[0] * a[1] for a, b in zip(p, p[1:] + p[:1]))) / 2
                                         for p in parts))
        sticks = n * width * (1 - 2 * inset)
        assert area > sticks  # the sticks and the joints between them
        # one outline around each piece; the O tetrastick has its hole too
        assert len(loops) == (2 if piece.name == "O" else 1), piece.name


def test_cut_files_of_sticks_and_twigs(app, tmp_path):
    result = run(app, "pieces", "tetrasticks", "--svg", tmp_path / "cut.svg", "--cut", "--unit", "20", "--kerf", "0.2")
    assert result.exit_code == 0 and "16 pieces to cut" in result.output, result.output
    svg = (tmp_path / "cut.svg").read_text()
    assert svg.count('class="cut"') == 16 and svg.count(" Z") == 17  # the O's hole
    result = run(app, "solve", ROOT / "shapes/polytwigs/tetratwigs-arch.txt", "--limit", "1",
                 "--svg", tmp_path / "arch.svg", "--cut")
    assert result.exit_code == 0, result.output
    assert (tmp_path / "arch.svg").read_text().count('class="cut"') == 4


def test_convert_writes_the_marks_and_refuses_burrtools(app, tmp_path):
    for board in ("polytwigs/tetratwigs-arch.txt", "polysticks/polysticks123-clipped-top.txt"):
        source = ROOT / "shapes" / board
        result = run(app, "convert", source, tmp_path / "b.txt", "--force")
        assert result.exit_code == 0, result.output
        again = Board.from_text((tmp_path / "b.txt").read_text())
        assert again.cells == Board.from_text(source.read_text()).cells
        assert again.lattice == {"polytwigs": "twigs", "polysticks": "sticks"}[source.parent.name]
        assert "|" in (tmp_path / "b.txt").read_text()  # drawn with the lattice's marks
    result = run(app, "convert", ROOT / "shapes/polytwigs/tetratwigs-arch.txt", tmp_path / "b.xmpuzzle")
    assert result.exit_code == 2 and "BurrTools has no such grid" in result.output
    assert not (tmp_path / "b.xmpuzzle").exists()
