"""``polyfit hint`` and ``Puzzle.hint()``: the fewest pieces to pre-place for one solution.

Every board the hint writes is counted again by ``polyfit solve FILE --count``, as a user
would, and must have exactly one distinct solution.
"""

import json
from itertools import combinations
from pathlib import Path

import pytest

import polyfit
from helpers import run
from polyfit.puzzle import hint as hints

ROOT = Path(__file__).resolve().parent.parent
SCOTT = ROOT / "shapes" / "pentomino" / "scott.txt"
BOX_3X20 = ROOT / "shapes" / "pentomino" / "3x20.txt"


def solve_count(app, path) -> dict:
    result = run(app, "solve", path, "--count", "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def hint_json(app, *args) -> dict:
    result = run(app, "hint", *args, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


@pytest.mark.parametrize("board, before", [(SCOTT, 65), (BOX_3X20, 2)])
def test_the_written_board_has_one_distinct_solution(app, tmp_path, board, before):
    out = tmp_path / "unique.txt"
    data = hint_json(app, board, "--out", out)
    assert data["status"] == "added" and data["solutions_before"] == before
    assert data["solutions_after"] == 1 and data["out"] == str(out)
    assert solve_count(app, out)["distinct"] == 1
    checked = run(app, "check", out, "--json")
    assert checked.exit_code == 0 and json.loads(checked.stdout)["verdict"] == "unique"
    # The pieces named are drawn in the file as their letters, in the cells named.
    text = out.read_text()
    art = [line for line in text.splitlines() if not line.startswith(";")]
    for piece in data["pieces"]:
        assert all(art[r][c] == piece["name"] for r, c in piece["cells"])
    assert "; pieces: " in text and data["text"] == text


def test_scott_report_and_board(app):
    result = run(app, "hint", SCOTT)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].endswith(": 65 distinct solutions, 520 in all; keeping solution 1")
    assert lines[1].startswith("pre-place 1 piece (proven smallest:")
    assert "with them: 1 distinct solution" in result.stdout
    assert "###OO##N" in lines  # the centre square stays, the N is drawn in


def test_the_kept_solution_is_the_one_solve_prints(app, tmp_path):
    printed = run(app, "solve", SCOTT, "--limit", "3", "--json")
    solutions = json.loads(printed.stdout)["solutions"]
    for number in (1, 3):
        data = hint_json(app, SCOTT, "--solution", number)
        kept = {name: sorted(map(tuple, cells)) for name, cells in solutions[number - 1].items()}
        for piece in data["pieces"]:
            assert sorted(map(tuple, piece["cells"])) == kept[piece["name"]]
        assert data["solution"] == number
    # and the file of solution 3 solves to solution 3
    out = tmp_path / "third.txt"
    hint_json(app, SCOTT, "--solution", 3, "--out", out)
    again = json.loads(run(app, "solve", out, "--json").stdout)["solutions"]
    assert again == [solutions[2]]


def test_another_solution_gives_another_board(app):
    first = hint_json(app, SCOTT)
    second = hint_json(app, SCOTT, "--solution", 2)
    assert first["text"] != second["text"]
    assert second["solution"] == 2 and second["solutions_after"] == 1


def test_proven_smallest_against_brute_force():
    """Every set of fewer pieces from the kept solution, pre-placed and counted afresh,
    leaves more than one distinct solution."""
    puzzle = polyfit.load(SCOTT)
    found = puzzle.hint(solution=2)
    assert found.proven and found.size == 2 and found.ruled_out == 1
    kept = next(s for s in puzzle.solutions() if s.number == 2)
    free = [i for i in kept.indices if i not in puzzle.cover.fixed]
    for size in range(found.size):
        for chosen in combinations(free, size):
            board = hints.new_board(puzzle, [puzzle.placements[i] for i in chosen])
            counts = polyfit.Puzzle(board, puzzle.pieces).count(jobs=1)
            assert counts.distinct > 1, chosen


def test_minimal_when_max_stops_the_exhaustive_search(app):
    data = hint_json(app, SCOTT, "--solution", 2, "--max", 0)
    assert data["proven"] is False and data["ruled_out"] == 0 and data["size"] >= 2
    assert data["solutions_after"] == 1
    result = run(app, "hint", SCOTT, "--solution", 2, "--max", 0)
    assert "minimal, not proven smallest: leaving out any one piece makes it ambiguous again" in result.stdout
    # minimal: leaving out any one piece of it leaves several distinct solutions
    puzzle = polyfit.load(SCOTT)
    found = puzzle.hint(max=0, solution=2)
    index = {(puzzle.pieces[p.piece].name, p.cells): p for p in puzzle.placements}
    chosen = [index[(name, cells)] for name, cells in found.added]
    for left_out in range(len(chosen)):
        board = hints.new_board(puzzle, chosen[:left_out] + chosen[left_out + 1:])
        assert polyfit.Puzzle(board, puzzle.pieces).count(jobs=1).distinct > 1


def test_proven_when_max_is_one_below_the_greedy_size():
    found = polyfit.load(SCOTT).hint(max=1, solution=2)
    assert found.proven and found.size == 2 and found.ruled_out == 1


def test_a_unique_puzzle_needs_nothing(app, tmp_path):
    out = tmp_path / "unique.txt"
    hint_json(app, SCOTT, "--out", out)
    result = run(app, "hint", out)
    assert result.exit_code == 0
    assert result.stdout.endswith(": 1 distinct solution, 1 in all: unique already, nothing to pre-place\n")
    data = hint_json(app, out, "--out", tmp_path / "again.txt")
    assert data["status"] == "unique" and data["size"] == 0 and data["pieces"] == []
    assert data["out"] is None and not (tmp_path / "again.txt").exists()


def test_no_solution_is_exit_0_and_writes_nothing(app, tmp_path):
    strip = tmp_path / "strip.txt"
    strip.write_text("; pieces: pentominoes\n" + ("#" * 30 + "\n") * 2)
    out = tmp_path / "out.txt"
    result = run(app, "hint", strip, "--out", out)
    assert result.exit_code == 0
    assert result.stdout == "strip.txt: no solution (exhaustive search): nothing to pre-place\n"
    assert not out.exists()
    data = hint_json(app, strip)
    assert data["status"] == "none" and data["solutions_before"] == 0 and data["out"] is None


def test_output_is_not_overwritten_without_force(app, tmp_path):
    out = tmp_path / "unique.txt"
    out.write_text("keep me\n")
    result = run(app, "hint", BOX_3X20, "--out", out)
    assert result.exit_code == 2 and "exists; use --force" in result.output
    assert out.read_text() == "keep me\n"
    result = run(app, "hint", BOX_3X20, "--out", out, "--force")
    assert result.exit_code == 0 and result.stdout.endswith(f"wrote {out}\n")
    assert solve_count(app, out)["distinct"] == 1


def test_json_fields(app):
    data = hint_json(app, BOX_3X20)
    assert set(data) >= {"status", "pieces", "proven", "size", "solutions_before", "total_before",
                         "solutions_after", "ruled_out", "text", "out", "seconds"}
    assert data["solutions_before"] == 2 and data["total_before"] == 8
    assert data["size"] == len(data["pieces"]) == 1 and data["proven"] is True
    piece = data["pieces"][0]
    assert set(piece) == {"name", "cells"} and len(piece["cells"]) == 5


def test_solution_out_of_range_is_an_error(app):
    result = run(app, "hint", BOX_3X20, "--solution", 3)
    assert result.exit_code == 2 and "has 2 distinct solutions: there is no solution 3" in result.output


def test_too_many_solutions_are_refused_with_the_count():
    with pytest.raises(polyfit.PolyfitError, match=r"more than 100 solutions .*polyfit hint works from"):
        polyfit.load(SCOTT).hint(limit=100)


def test_touching_copies_are_passed_over(app, tmp_path):
    """Two horizontal dominoes side by side would read as one straight tetromino."""
    board = tmp_path / "dominoes.txt"
    board.write_text("; pieces: 6*domino\n####\n####\n####\n")
    out = tmp_path / "out.txt"
    data = hint_json(app, board, "--out", out)
    assert data["touching"] == 2 and data["size"] == 3 and data["proven"] is True
    assert solve_count(app, out)["distinct"] == 1
    for number in range(2, 6):
        data = hint_json(app, board, "--solution", number, "--out", tmp_path / f"{number}.txt")
        assert solve_count(app, tmp_path / f"{number}.txt")["distinct"] == 1


def test_names_text_art_cannot_draw(app, tmp_path):
    board = tmp_path / "hex.txt"
    board.write_text("; pieces: hexominoes:H01=0..3,hexominoes:H12=0..3\n######\n######\n######\n")
    data = hint_json(app, board)
    assert data["status"] == "added" and data["solutions_after"] == 1 and data["text"] is None
    assert "H01 cannot be drawn in text art" in data["why_no_text"]
    out = tmp_path / "out.txt"
    result = run(app, "hint", board, "--out", out)
    assert result.exit_code == 2 and "cannot write" in result.output and not out.exists()


def test_a_3d_board(tmp_path):
    found = polyfit.load(ROOT / "shapes" / "soma" / "cube.vox").hint()
    assert found.solutions_before == 240 and found.solutions_after == 1 and found.proven
    board = polyfit.Board.from_text(found.text, 3)
    assert polyfit.Puzzle(board, "soma").count(jobs=1).distinct == 1


def test_pieces_option_goes_on_the_pieces_line(app, tmp_path):
    board = tmp_path / "box.txt"
    board.write_text("".join(line + "\n" for line in BOX_3X20.read_text().splitlines() if "pieces" not in line))
    out = tmp_path / "out.txt"
    hint_json(app, board, "--pieces", "pentominoes", "--out", out)
    assert "; pieces: pentominoes\n" in out.read_text()
    assert solve_count(app, out)["distinct"] == 1


def test_help_has_an_example(app):
    result = run(app, "hint", "--help")
    assert result.exit_code == 0 and "Example: polyfit hint" in result.output


def test_pieces_drawn_over_optional_cells(app, tmp_path):
    """A pre-placed piece may cover '+' cells: the new board has fewer optional cells, and
    its symmetry group is the one of that board."""
    board = tmp_path / "optional.txt"
    board.write_text("; pieces: pentominoes:L,pentominoes:N,pentominoes:V,pentominoes:I\n" + "+####+\n" * 4)
    assert solve_count(app, board)["distinct"] == 9
    for number in range(1, 10):
        out = tmp_path / f"{number}.txt"
        data = hint_json(app, board, "--solution", number, "--out", out)
        assert data["solutions_after"] == 1 and solve_count(app, out)["distinct"] == 1
