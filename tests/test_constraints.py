"""The designer's constraints: piece counts and ranges, optional cells, pre-placed pieces.

Counts are checked three ways: against the literature (Scott's 65, Haselgrove's 16146,
Slothouber-Graatsma's single solution), against the independent counter in ``helpers.py``, and
against a second formulation (copies as separately named pieces, whose count is k! times
larger for k identical copies).
"""

import functools
import json
from dataclasses import replace
from math import factorial

import pytest

from polyfit.formats.textart import parse_board_text, parse_voxel_text
from polyfit.errors import ParseError, PolyfitError
from polyfit.puzzle.pieces import Piece
from polyfit.formats.pieces_file import parse_pieces_text
from polyfit.formats.piece_specs import resolve_pieces
from polyfit.puzzle.piece_sets import BUILT_IN, polyominoes
from polyfit.puzzle.solve import Counts, Puzzle

import helpers
from polyfit import api
from helpers import ROOT, run_cli

CHESSBOARD = "\n".join(["########"] * 8)
SCOTT_PREPLACED = "\n".join(["########"] * 3 + ["###OO###"] * 2 + ["########"] * 3)


def counts_of(puzzle, backend):
    counts = puzzle.count(backend)
    return counts.distinct, counts.total


def needs_capable(backend, puzzle):
    problem = puzzle.cover.problem
    if not problem.needs <= backend.capabilities:
        pytest.skip(f"{backend.name} does not take {sorted(problem.needs)}")
    reason = getattr(backend, "problem_reason", lambda p: None)(problem)
    if reason is not None:
        pytest.skip(f"{backend.name} does not take this problem: {reason}")


# -- Scott, Haselgrove, Slothouber-Graatsma, Conway ---------------------------------------------


def test_scotts_problem_with_the_square_pre_placed_in_the_centre(backend):
    board = parse_board_text(SCOTT_PREPLACED)
    assert [(name, cells) for name, cells, _ in board.fixed] == [("O", ((3, 3), (3, 4), (4, 3), (4, 4)))]
    puzzle = Puzzle(board, resolve_pieces("pentominoes,tetrominoes:O", BUILT_IN))
    assert len(puzzle.symmetries) == 8  # the centred square keeps every symmetry of the board
    if backend.name == "dlx-python":
        pytest.skip("covered by the faster backends; the count takes a while in pure Python")
    assert counts_of(puzzle, backend) == (65, 520)


def test_scotts_problem_as_a_board_with_a_hole():
    from polyfit.formats.textart import read_text_board

    registry = helpers.built_in_registry()
    board = read_text_board(ROOT / "shapes/pentomino/8x8-centre-hole.txt")
    puzzle = Puzzle(board, polyominoes(5))
    assert counts_of(puzzle, registry.backend("auto", puzzle.cover.problem)) == (65, 520)


@pytest.mark.slow
def test_the_square_anywhere_on_the_chessboard_in_one_search():
    """Haselgrove (1960): 16146 ways up to symmetry to pack the pentominoes and the square."""
    registry = helpers.built_in_registry()
    puzzle = Puzzle(parse_board_text(CHESSBOARD), resolve_pieces("pentominoes,tetrominoes:O", BUILT_IN))
    assert counts_of(puzzle, registry.backend("auto", puzzle.cover.problem)) == (16146, 16146 * 8)


SLOTHOUBER_GRAATSMA = "; count A: 6\n; count B: 3\nAA\nAA\n\nB\n"
CUBE3 = "\n\n".join(["###\n###\n###"] * 3)


def test_slothouber_graatsma_has_exactly_one_solution(backend):
    pieces = parse_pieces_text(SLOTHOUBER_GRAATSMA, dim=3)
    assert [(p.name, p.count) for p in pieces] == [("A", (6, 6)), ("B", (3, 3))]
    puzzle = Puzzle(parse_voxel_text(CUBE3), pieces)
    needs_capable(backend, puzzle)
    assert counts_of(puzzle, backend) == (1, 8)
    assert len(puzzle.cover.problem.items) == 2 + 27  # one item per piece, not per copy


CONWAY = "; count A: 13\n; count D: 3\nAAAA.BB.CC.DDD\nAAAA.BB.CC\n\n.....BB\n.....BB\n"
CUBE5 = "\n\n".join(["\n".join(["#####"] * 5)] * 5)


@pytest.mark.slow
def test_conways_puzzle():
    """Thirteen 1x2x4, one 2x2x2, one 1x2x2 and three 1x1x3 bricks in the 5x5x5 box.

    27456 = 572 x 48 solutions (no solution has a symmetry): the total was also found by the
    independent first-empty-cell counter of helpers.py in 215 s, too long to repeat here."""
    registry = helpers.built_in_registry()
    engine = registry.backends["dlx-c"]
    if engine.unavailable_reason():
        pytest.skip(engine.unavailable_reason())
    pieces = parse_pieces_text(CONWAY, dim=3)
    assert sorted((p.name, p.size, p.count) for p in pieces) == [
        ("A", 8, (13, 13)), ("B", 8, (1, 1)), ("C", 4, (1, 1)), ("D", 3, (3, 3))
    ]
    puzzle = Puzzle(parse_voxel_text(CUBE5), pieces)
    assert counts_of(puzzle, engine) == (572, 27456)
    # The parity argument of Winning Ways: one 1x1x3 rod in every slice, in every direction.
    for found in puzzle.search(engine, Counts()):
        rods = [puzzle.placements[i].cells for i in found.placements if puzzle.pieces[puzzle.placements[i].piece].name == "D"]
        for axis in range(3):
            layers = sorted(c[axis] for rod in rods for c in rod)
            assert len(set(layers)) >= 3
        break


# -- cross-checks against brute force and a second formulation ------------------------------------


TROMINOES = polyominoes(3)  # I L
DOMINO = polyominoes(2)[0]
SQUARE = next(p for p in polyominoes(4) if p.name == "O")


def as_brute(pieces):
    return [(p.name, list(p.cells), p.mirror, *p.count) for p in pieces]


def brute_counts(board, pieces):
    fixed = [(name, cells) for name, cells, _ in board.fixed]
    found = helpers.solutions(board.cells, as_brute(pieces), board.optional, fixed)
    return helpers.distinct(found, board.cells, as_brute(pieces), board.optional, fixed), len(found)


CASES = [
    # (board art, pieces: (piece, lo, hi))
    ("####\n####\n####", [(TROMINOES[0], 2, 2), (TROMINOES[1], 2, 2)]),
    ("#####\n#####\n#####", [(TROMINOES[0], 0, 5), (TROMINOES[1], 0, 5)]),
    ("####\n####\n####\n####", [(TROMINOES[0], 1, 3), (TROMINOES[1], 0, 4), (DOMINO, 0, 2)]),
    ("+##+\n####\n####\n+##+", [(TROMINOES[0], 0, 4), (TROMINOES[1], 0, 4)]),
    ("#####\n#+#+#\n#####", [(TROMINOES[1], 1, 4), (DOMINO, 0, 3)]),
    ("LL##\nL###\n####\n###I\n###I\n###I", [(TROMINOES[0], 1, 3), (TROMINOES[1], 1, 6), (DOMINO, 0, 1)]),
    ("##I##\n##I##\n##I##", [(TROMINOES[0], 1, 5), (TROMINOES[1], 0, 2)]),
    ("#D#\n#D#\n###\n###", [(TROMINOES[1], 2, 2), (DOMINO, 3, 3)]),
]


@pytest.mark.parametrize("art, spec", CASES)
def test_counts_match_the_independent_counter(backend, art, spec):
    board = parse_board_text(art)
    pieces = [Piece(p.name, p.cells, p.mirror, (lo, hi)) for p, lo, hi in spec]
    puzzle = Puzzle(board, pieces)
    needs_capable(backend, puzzle)
    expected = brute_counts(board, pieces)
    assert expected[1] > 0
    assert counts_of(puzzle, backend) == expected
    # With symmetry breaking off, every solution is found once.
    assert Puzzle(board, pieces, break_symmetry=False).count(backend).search.solutions == expected[1]


# -- at most so many optional cells left empty (BurrTools' maxHoles) ---------------------------


HOLES_CASES = [
    ("+##+\n####\n####\n+##+", [(TROMINOES[0], 0, 4), (TROMINOES[1], 0, 4), (DOMINO, 0, 2)]),
    ("++###\n#####\n###++", [(TROMINOES[1], 0, 4), (DOMINO, 0, 3)]),
    ("D+##\nD###\n+##+", [(TROMINOES[0], 0, 3), (TROMINOES[1], 0, 3), (DOMINO, 1, 3)]),
    # one square tetromino breaks the symmetry
    ("+##+\n####\n####\n+##+", [(SQUARE, 1, 1), (TROMINOES[0], 0, 3), (TROMINOES[1], 0, 3), (DOMINO, 0, 2)]),
]


@functools.cache
def _brute_solutions(board, pieces):
    fixed = [(name, cells) for name, cells, _ in board.fixed]
    return helpers.solutions(board.cells, as_brute(pieces), board.optional, fixed)


@functools.cache
def brute_counts_with_holes(board, pieces, most):
    """:func:`brute_counts` of the solutions that leave at most ``most`` cells empty
    (``pieces`` a tuple; each answer kept for the next backend)."""
    fixed = [(name, cells) for name, cells, _ in board.fixed]
    kept = [s for s in _brute_solutions(board, pieces) if len(board.cells) - sum(len(cells) for _, cells in s) <= most]
    return helpers.distinct(kept, board.cells, as_brute(pieces), board.optional, fixed), len(kept)


@pytest.mark.parametrize("art, spec", HOLES_CASES)
def test_a_limit_on_holes_keeps_the_solutions_that_leave_that_many_empty_or_fewer(backend, art, spec):
    board = parse_board_text(art)
    pieces = tuple(Piece(p.name, p.cells, p.mirror, (lo, hi)) for p, lo, hi in spec)
    seen = set()
    for most in range(len(board.optional) + 1):
        expected = brute_counts_with_holes(board, pieces, most)
        seen.add(expected)
        limited = replace(board, max_holes=most)
        try:
            puzzle = Puzzle(limited, pieces)
        except PolyfitError as error:  # no choice of pieces covers enough cells
            assert expected == (0, 0) and "left empty" in str(error)
            continue
        needs_capable(backend, puzzle)
        assert counts_of(puzzle, backend) == expected, most
        assert Puzzle(limited, pieces, break_symmetry=False).count(backend).search.solutions == expected[1]
    assert len(seen) >= 3  # the limit decides something


@pytest.mark.parametrize("case", [0, 3])
def test_a_limit_on_holes_holds_in_every_way_of_running(case):
    """Burnside's counts (the memo counter), jobs, samples and the solutions shown all leave no
    more cells empty than the limit allows, with a piece breaking the symmetry (case 3) or none."""
    art, spec = HOLES_CASES[case]
    board = replace(parse_board_text(art), max_holes=2)
    pieces = tuple(Piece(p.name, p.cells, p.mirror, (lo, hi)) for p, lo, hi in spec)
    expected = brute_counts_with_holes(replace(board, max_holes=None), pieces, 2)
    puzzle = api.Puzzle(board, pieces)
    assert puzzle.cover.max_holes == 2 and (puzzle.cover.breaker is not None) == (case == 3)
    for counts in (puzzle.count("count-memo"), puzzle.count("count-memo-python"), puzzle.count("dlx-c", jobs=2)):
        assert (counts.distinct, counts.total) == expected
    shown = list(puzzle.solutions(all=True))
    assert len(shown) == expected[1]
    for solution in shown + puzzle.sample(20, seed=3):
        covered = sum(len(cells) for cells in solution.placements.values())
        assert len(board.cells) - 2 <= covered <= len(board.cells)


def test_a_limit_on_holes_is_read_and_written_with_the_board(tmp_path):
    path = tmp_path / "board.txt"
    path.write_text("; pieces: 0..4*trominoes,0..2*domino\n; max-holes: 1\n+##+\n####\n####\n+##+\n")
    result = run_cli(["solve", str(path), "--count", "--json"])
    assert result.exit_code == 0, result.output
    board = parse_board_text(path.read_text())
    assert board.max_holes == 1
    pieces = tuple(Piece(p.name, p.cells, p.mirror, (0, 4)) for p in TROMINOES) + (Piece(DOMINO.name, DOMINO.cells, DOMINO.mirror, (0, 2)),)
    data = json.loads(result.output)
    assert (data["distinct"], data["total"]) == brute_counts_with_holes(replace(board, max_holes=None), pieces, 1)
    for target in ("copy.xmpuzzle", "copy.txt"):
        assert run_cli(["convert", str(path), str(tmp_path / target)]).exit_code == 0
        again = json.loads(run_cli(["solve", str(tmp_path / target), "--count", "--json"]).output)
        assert (again["distinct"], again["total"]) == (data["distinct"], data["total"]), target
    listed = run_cli(["solve", str(tmp_path / "copy.xmpuzzle"), "--list"]).output
    assert "16 cells (4 optional, at most 1 left empty)" in listed
    path.write_text("; max-holes: two\n; pieces: 0..4*trominoes\n+##+\n")
    result = run_cli(["solve", str(path)])
    assert result.exit_code == 2
    assert "board.txt:1:14: max-holes must be a whole number" in result.output


def test_identical_copies_count_once_not_k_factorial_times(backend):
    """2 I + 2 L trominoes in 3x4: naming the copies apart multiplies the count by 2! x 2!."""
    board = parse_board_text("####\n####\n####")
    I, L = TROMINOES
    copies = Puzzle(board, [Piece("I", I.cells, count=(2, 2)), Piece("L", L.cells, count=(2, 2))])
    named = Puzzle(
        board, [Piece("I", I.cells), Piece("i", I.cells), Piece("L", L.cells), Piece("l", L.cells)]
    )
    needs_capable(backend, copies)
    total_copies = copies.count(backend).total
    total_named = named.count(backend).total
    assert total_copies > 0
    assert total_named == total_copies * factorial(2) * factorial(2)


@pytest.mark.slow
def test_pentominoes_any_ten_of_twelve_on_a_5x10_box():
    """'0..1*pentominoes' on 50 cells: a second formulation sums over the 66 pairs left out."""
    from itertools import combinations

    registry = helpers.built_in_registry()
    board = parse_board_text("\n".join(["#####"] * 10))
    ranged = Puzzle(board, resolve_pieces("0..1*pentominoes", BUILT_IN))
    engine = registry.backend("auto", ranged.cover.problem)
    got = ranged.count(engine)
    total = 0
    pieces = polyominoes(5)
    for left_out in combinations(range(12), 2):
        chosen = [p for k, p in enumerate(pieces) if k not in left_out]
        puzzle = Puzzle(board, chosen)
        if puzzle.impossible is None:
            total += puzzle.count(registry.backend("auto", puzzle.cover.problem)).total
    assert got.total == total and total > 0


# -- the spec, the files and the errors ------------------------------------------------------------


def test_spec_counts_and_ranges():
    named = {p.name: p.count for p in resolve_pieces("2*tetrominoes", BUILT_IN)}
    assert named == dict.fromkeys("ILOST", (2, 2))
    named = {p.name: p.count for p in resolve_pieces("pentominoes,pentominoes:F=0..2", BUILT_IN)}
    assert named["F"] == (0, 2) and named["X"] == (1, 1) and len(named) == 12
    assert [p.count for p in resolve_pieces("0..1*pentominoes", BUILT_IN)] == [(0, 1)] * 12


@pytest.mark.parametrize(
    "spec, words",
    [
        ("3..1*pentominoes", "bad count '3..1': the low end 3 is above the high end 1"),
        ("x*pentominoes", "bad count 'x'"),
        ("0*pentominoes", "leave the piece out"),
        ("pentominoes:Q=2", "unknown piece of pentominoes 'Q'; valid pieces of pentominoes: F, I"),
        ("2*nosuchset", "unknown piece set 'nosuchset'; valid piece sets: domino"),
        ("2*pentominoes=3", "two counts"),
    ],
)
def test_bad_specs_give_clear_errors(spec, words):
    with pytest.raises(PolyfitError) as info:
        resolve_pieces(spec, BUILT_IN)
    assert words in str(info.value)


def test_bad_count_lines_in_pieces_files_name_line_and_column():
    with pytest.raises(ParseError) as info:
        parse_pieces_text("; count Q: 2\nAA\n", "p.txt")
    assert (info.value.line, info.value.column) == (1, 9) and "names no piece" in str(info.value)
    with pytest.raises(ParseError) as info:
        parse_pieces_text("AA\n; count A: 2..1\n", "p.txt")
    assert (info.value.line, info.value.column) == (2, 12) and "low end" in str(info.value)


@pytest.mark.parametrize(
    "art, words",
    [
        ("##Q\n###", "board.txt:1:3: 'Q' marks a pre-placed piece, but no piece is named 'Q'"),
        ("LLL\n###\n###", "board.txt:1:1: the 3 cells marked 'L' are not the shape of piece L"),
        ("LL#LL\nL###L\n#####", "2 copies of piece L are pre-placed, but the pieces allow at most 1"),
    ],
)
def test_bad_pre_placed_pieces_name_the_letter_and_line(tmp_path, art, words):
    path = tmp_path / "board.txt"
    path.write_text(art)
    result = run_cli(["solve", str(path), "--pieces", "trominoes,domino=0..3"])
    assert result.exit_code == 2
    assert words in result.output.replace(str(tmp_path) + "/", "")


def test_area_that_no_choice_of_counts_can_fill(tmp_path):
    path = tmp_path / "board.txt"
    path.write_text("####\n####\n")
    result = run_cli(["solve", str(path), "--pieces", "3*trominoes:I"])
    assert result.exit_code == 2
    assert "the pieces cover 9 cells, but the board needs 8" in result.output


# -- the command line -----------------------------------------------------------------------------


def test_cli_counts_prints_copies_apart_and_optional_cells_left_empty(tmp_path):
    path = tmp_path / "board.txt"
    path.write_text("; pieces: 2*trominoes,domino\n+###\n####\n####\n###+\n")
    result = run_cli(["solve", str(path), "--count", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    board = parse_board_text(path.read_text())
    pieces = [Piece(p.name, p.cells, p.mirror, (2, 2)) for p in TROMINOES] + [DOMINO]
    assert (data["distinct"], data["total"]) == brute_counts(board, pieces) == (14, 56)
    result = run_cli(["solve", str(path), "--limit", "1"])
    art = result.output.splitlines()[1:5]
    assert sum(line.count("+") for line in art) == 2  # 16 cells, 14 covered
    assert any("I#1" in line for line in art) or any("L#1" in line for line in art)


def test_cli_scott_from_a_board_file_with_the_square_drawn_in(tmp_path):
    path = tmp_path / "scott.txt"
    path.write_text("; pieces: pentominoes,tetrominoes:O\n" + SCOTT_PREPLACED + "\n")
    result = run_cli(["solve", str(path), "--count", "--json", "--backend", "dlx-c"])
    data = json.loads(result.output)
    assert (data["distinct"], data["total"]) == (65, 520)
    result = run_cli(["solve", str(path), "--limit", "1", "--json"])
    solution = json.loads(result.output)["solutions"][0]
    assert sorted(map(tuple, solution["O"])) == [(3, 3), (3, 4), (4, 3), (4, 4)]


def test_a_boards_pieces_file_is_found_next_to_the_board(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # far from shapes/bricks
    result = run_cli(["solve", str(ROOT / "shapes/bricks/cube5.vox"), "--count", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert (data["distinct"], data["total"]) == (572, 27456)


def test_3d_optional_cells_and_a_pre_placed_piece_match_the_independent_counter(backend):
    board = parse_voxel_text("B##\n###\n\n##+\n###\n\n###\n##+\n")
    pieces = [
        Piece("A", ((0, 0, 0), (0, 0, 1), (0, 1, 0), (0, 1, 1)), False, (0, 4)),
        Piece("B", ((0, 0, 0),), False, (1, 3)),
        Piece("I", ((0, 0, 0), (0, 0, 1), (0, 0, 2)), False, (0, 2)),
    ]
    puzzle = Puzzle(board, pieces)
    needs_capable(backend, puzzle)
    expected = brute_counts(board, pieces)
    assert expected[1] > 0
    assert counts_of(puzzle, backend) == expected


def test_export_dlx_writes_multiplicities_that_xc_solves_to_the_same_total(tmp_path):
    board = tmp_path / "board.txt"
    board.write_text("; pieces: 2*trominoes,domino\n+###\n####\n####\n###+\n")
    out = tmp_path / "board.dlx"
    assert run_cli(["export-dlx", str(board), "-o", str(out)]).exit_code == 0
    head = out.read_text().splitlines()[2]
    assert head.startswith("2|I 2|L D ") and head.endswith("| r0c0 r3c3")
    result = run_cli(["xc", str(out), "--count", "--json"])
    assert json.loads(result.output)["total"] == 56
