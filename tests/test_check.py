"""``polyfit check`` and ``Puzzle.check()``: the literature's impossible and unique puzzles."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import polyfit
from polyfit import api
from polyfit.cli import build_app

ROOT = Path(__file__).resolve().parent.parent
CHESS_LESS_CORNER = ["." + "#" * 7] + ["#" * 8] * 7


def board(rows):
    return polyfit.Board.from_text("\n".join(rows) + "\n")


def check(rows, spec, **options):
    return api.check(board(rows), spec, **options)


def kinds(result):
    return [r.kind for r in result.reasons]


def test_mutilated_chessboard_is_parity():
    rows = ["." + "#" * 7] + ["#" * 8] * 6 + ["#" * 7 + "."]
    result = check(rows, "31*domino")
    assert result.verdict == "none" and result.solutions == 0
    assert kinds(result) == ["parity"]
    assert result.nodes == 0  # no search


def test_parity_message_shows_the_step():
    result = check(["#" * 10] * 10, "25*tetrominoes:T")
    assert kinds(result) == ["parity"]
    assert "they can make differences -50, -46, ..., 50 (steps of 4)" in result.reasons[0].text


def assert_colouring_proves(result):
    """Every placement of each piece weighs what the reason says; the board does not add up."""
    reason = result.reasons[0]
    p = reason.extra["prime"]
    weights = result.weights
    puzzle = polyfit.Puzzle(result.board, "21*trominoes:I" if "I" in reason.extra["piece_weights"] else None)
    for placement in puzzle.placements:  # pruned ones are a subset; fine as a spot check
        name = puzzle.pieces[placement.piece].name
        assert sum(weights[c] for c in placement.cells) % p == reason.extra["piece_weights"][name]
    assert sum(weights.values()) % p == reason.extra["board_weight"] != reason.extra["pieces_weight"]


def test_trominoes_on_the_board_less_a_corner_are_a_colouring():
    result = check(CHESS_LESS_CORNER, "21*trominoes:I")
    assert result.verdict == "none"
    assert kinds(result) == ["colouring"]
    assert result.nodes == 0
    assert_colouring_proves(result)
    assert result.reasons[0].text.startswith("no solution: colour the cells with weights mod ")


def test_trominoes_on_the_board_less_row_2_column_2_are_possible():
    rows = ["#" * 8] * 2 + ["##." + "#" * 5] + ["#" * 8] * 5
    result = check(rows, "21*trominoes:I")
    assert result.verdict in ("unique", "multiple")
    assert result.verdict == "multiple" and result.solutions == 2 and result.at_least
    assert result.forced["classes"] == polyfit.Puzzle(result.board, "21*trominoes:I").count(jobs=1).distinct


def test_straight_tetrominoes_on_10x10_are_a_colouring():
    result = check(["#" * 10] * 10, "25*tetrominoes:I")
    assert result.verdict == "none" and kinds(result) == ["colouring"]


def test_an_isolated_cell_cannot_be_covered():
    rows = ["#" * 10] * 5 + ["#" * 9 + ".", "", "#"]
    result = check(rows, "pentominoes")
    assert result.verdict == "none"
    assert "cell-uncoverable" in kinds(result) and "region" in kinds(result)
    bare = next(r for r in result.reasons if r.kind == "cell-uncoverable")
    assert bare.extra["cells"] == [[7, 0]] and "r7c0" in bare.text


def test_pentominoes_in_a_2x30_strip_x_fits_nowhere():
    result = check(["#" * 30] * 2, "pentominoes")
    assert result.verdict == "none"
    nowhere = {r.extra["piece"] for r in result.reasons if r.kind == "piece-fits-nowhere"}
    assert "X" in nowhere and nowhere == {"F", "T", "V", "W", "X", "Z"}
    assert result.pieces["X"] == 0


def test_area_mismatch_is_a_verdict_not_an_error():
    result = check(["#" * 10] * 6 + ["#"], "pentominoes")
    assert result.verdict == "none" and kinds(result) == ["area"]


def test_a_soma_figure_with_one_solution_is_unique():
    manifest = json.loads((ROOT / "shapes/soma/manifest.json").read_text())["figures"]
    assert manifest["battleship.vox"]["distinct"] == 1
    result = polyfit.load(ROOT / "shapes/soma/battleship.vox").check()
    assert result.verdict == "unique" and result.solutions == 1
    # Its two solutions are mirror images; the T piece lies in the mirror plane.
    assert result.forced["solutions"] == 2
    assert [p["piece"] for p in result.forced["placements"]] == ["T"]
    assert result.difficulty["nodes_to_first"] > 0


def test_scotts_board_is_multiple_and_nothing_is_forced():
    result = polyfit.load(ROOT / "shapes/pentomino/scott.txt").check()
    assert result.verdict == "multiple" and result.solutions == 2
    assert len(result.witnesses) == 2
    assert result.forced == {"classes": 65, "solutions": 520, "placements": []}
    assert "O" in result.preplaced


def test_a_unique_asymmetric_puzzle_forces_every_placement():
    # 2x5 with two P pentominoes, one-sided: a board whose only tiling is unique up to symmetry.
    puzzle = polyfit.Puzzle(board(["#####", "#####"]), "2*pentominoes:P")
    result = puzzle.check()
    count = puzzle.count(jobs=1)
    assert result.verdict == ("unique" if count.distinct == 1 else "multiple")
    if count.total == 1:
        assert len(result.forced["placements"]) == 2


def test_forced_limit_zero_stops_at_the_second_solution():
    puzzle = polyfit.load(ROOT / "shapes/pentomino/6x10.txt")
    result = puzzle.check(forced_limit=0)
    assert result.verdict == "multiple" and result.forced is None
    assert result.nodes < puzzle.count(jobs=1).nodes / 10


def test_exhaustive_search_says_so():
    result = polyfit.load(ROOT / "shapes/soma/bench.vox").check()
    assert result.verdict == "none" and kinds(result) == ["search"]
    assert result.reasons[0].text == f"no solution: exhaustive search, {result.nodes} nodes"


def run(*args):
    result = CliRunner().invoke(build_app(), list(args))
    return result.exit_code, result.output


def test_command_json(tmp_path):
    path = tmp_path / "corner.txt"
    path.write_text("\n".join(CHESS_LESS_CORNER) + "\n")
    code, output = run("check", str(path), "--pieces", "21*trominoes:I", "--json")
    assert code == 0
    data = json.loads(output)
    assert data["verdict"] == "none" and data["solutions"] == 0
    assert data["reasons"][0]["kind"] == "colouring" and data["reasons"][0]["prime"] >= 2
    assert set(data) >= {"verdict", "solutions", "reasons", "pieces", "symmetries", "difficulty", "seconds"}
    code, output = run("check", str(ROOT / "shapes/pentomino/scott.txt"), "--json")
    data = json.loads(output)
    assert code == 0 and data["verdict"] == "multiple" and data["solutions"] == 2 and data["at_least"] is True


def test_command_bad_input_exits_2(tmp_path):
    code, _ = run("check", str(tmp_path / "missing.txt"), "--pieces", "pentominoes")
    assert code == 2
    code, _ = run("check", str(ROOT / "shapes/pentomino/6x10.txt"), "--pieces", "no-such-set")
    assert code == 2


@pytest.mark.parametrize("spec, rows, expect", [
    ("21*trominoes:I", CHESS_LESS_CORNER, "the colouring"),
    ("21*trominoes:I", ["#" * 8] * 2 + ["##." + "#" * 5] + ["#" * 8] * 5, "two distinct solutions"),
    ("pentominoes", ["#" * 10] * 5 + ["#" * 9 + ".", "", "#"], "no piece can cover"),
])
def test_command_png(tmp_path, spec, rows, expect):
    path = tmp_path / "board.txt"
    path.write_text("\n".join(rows) + "\n")
    png = tmp_path / "out.png"
    code, output = run("check", str(path), "--pieces", spec, "--png", str(png))
    assert code == 0 and expect in output
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_solve_says_why_there_is_no_solution(tmp_path):
    path = tmp_path / "strip.txt"
    path.write_text(("#" * 30 + "\n") * 2)
    code, output = run("solve", str(path), "--pieces", "pentominoes", "--count")
    assert code == 0
    assert "no solution: piece X fits nowhere on strip.txt" in output
    code, output = run("solve", str(ROOT / "shapes/soma/bench.vox"), "--count")
    assert "no solution: exhaustive search, " in output


@pytest.mark.parametrize("name", ["pentomino/6x10.txt", "pentomino/scott.txt", "soma/cube.vox", "soma/arch.vox"])
def test_check_searches_no_more_than_the_count_does(name):
    """Quick where the count is: the check's search, witnesses and forced placements included,
    visits no more nodes than one full count (work counted in nodes, not seconds)."""
    puzzle = polyfit.load(ROOT / "shapes" / name)
    result = puzzle.check(backend="bitset-c")
    counted = puzzle.count(backend="bitset-c", jobs=1)
    assert 0 < result.nodes <= counted.nodes
