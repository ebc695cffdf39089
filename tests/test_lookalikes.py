"""Look-alike puzzles: the same exact cover problem, another answer.

The backends search an exact cover problem, but the numbers polyfit prints also depend on the
symmetry group, on how found solutions are classified, on the pieces and on the board's
options. Two boards can share the problem and differ in the rest: the 3x6 box with two
pre-placed dominoes on top, mirror images of each other, and the same box with those four cells
left out search the same problem; the first has a symmetry group of order 2 (26 distinct
solutions), the second of order 4 (14), 41 in all for both. A checkpoint, a job file or a
result of one must never finish the count of the other.
"""

import json
import shutil
from dataclasses import replace

import pytest

from polyfit import PolyfitError
from polyfit.formats.textart import read_text_board
from polyfit.longsearch import run
from polyfit.puzzle.piece_sets import polyominoes
from polyfit.puzzle.solve import Puzzle

from helpers import ROOT, built_in_registry, run_cli

PREPLACED = "; pieces: 11*domino\nDD..DD\n######\n######\n######\n"
LEFT_OUT = "; pieces: 9*domino\n......\n######\n######\n######\n"


def board_file(tmp_path, text, name="board.txt"):
    path = tmp_path / name
    path.write_text(text)
    return path


def count(*args):
    result = run_cli(["solve", *map(str, args), "--count", "--json", "--backend", "dlx-c"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def refused(result, *words):
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output and "distinct solutions" not in result.output, result.output
    for word in words:
        assert word in result.output, result.output


def test_the_two_boards_search_the_same_problem_and_have_different_answers(tmp_path):
    with_dominoes = read_text_board(board_file(tmp_path, PREPLACED, "a.txt"))
    without = read_text_board(board_file(tmp_path, LEFT_OUT, "b.txt"))
    from polyfit.api import Puzzle as ApiPuzzle

    a, b = ApiPuzzle(with_dominoes), ApiPuzzle(without)
    assert a.cover.problem == b.cover.problem
    assert (len(a.symmetries), len(b.symmetries)) == (2, 4)
    assert [count(tmp_path / name)["distinct"] for name in ("a.txt", "b.txt")] == [26, 14]
    assert [count(tmp_path / name)["total"] for name in ("a.txt", "b.txt")] == [41, 41]


@pytest.mark.parametrize("first, then", [(PREPLACED, LEFT_OUT), (LEFT_OUT, PREPLACED)])
def test_a_checkpoint_of_the_look_alike_board_is_refused(tmp_path, first, then):
    """The reproducer: resuming the board without the dominoes from the checkpoint of the one
    with them printed 26 distinct solutions where the truth is 14."""
    checkpoint = tmp_path / "count.json"
    board = board_file(tmp_path, first)
    made = run_cli(["solve", str(board), "--count", "--jobs", "1", "--depth", "2", "--checkpoint", str(checkpoint)])
    assert made.exit_code == 0, made.output
    board.write_text(then)
    resumed = run_cli(["solve", str(board), "--count", "--jobs", "1", "--depth", "2", "--resume", str(checkpoint)])
    refused(resumed, str(checkpoint), "symmetry group")


def test_run_job_and_merge_refuse_a_board_edited_while_its_jobs_run(tmp_path):
    """The reproducer: two jobs run on the board with the dominoes, the third after the board
    was edited, and merge printed 21 distinct solutions (26 for one board, 14 for the other)."""
    board = board_file(tmp_path, PREPLACED)
    jobs = tmp_path / "jobs"
    made = run_cli(["split", str(board), "--depth", "2", "--out", str(jobs)])
    assert made.exit_code == 0, made.output
    files = sorted(jobs.glob("job-*.json"))
    assert len(files) == 3
    for path in files[:2]:
        assert run_cli(["run-job", str(path)]).exit_code == 0
    board.write_text(LEFT_OUT)
    refused(run_cli(["run-job", str(files[2])]), str(files[2]), "symmetry group")
    assert not files[2].with_name("result-job-3.json").exists()
    # A third result written before the edit: every result is there, and still the board is
    # not the one split.
    board.write_text(PREPLACED)
    assert run_cli(["run-job", str(files[2])]).exit_code == 0
    board.write_text(LEFT_OUT)
    refused(run_cli(["merge", str(jobs)]), "symmetry group", "split it again")
    board.write_text(PREPLACED)
    merged = run_cli(["merge", str(jobs)])
    assert merged.exit_code == 0 and "26 distinct solutions, 41 in all" in merged.output, merged.output


def test_a_pre_placed_piece_and_a_hole_of_its_shape_are_not_the_same_puzzle(tmp_path):
    """Scott's board with the square drawn in, and with a hole there: the same problem, the
    same group, the same counts, and still two puzzles (the board differs), so each refuses
    the other's checkpoint rather than trust that nothing else differs."""
    checkpoint = tmp_path / "count.json"
    boards = ROOT / "shapes" / "pentomino"
    made = run_cli(["solve", str(boards / "scott.txt"), "--count", "--depth", "1", "--checkpoint", str(checkpoint)])
    assert made.exit_code == 0, made.output
    resumed = run_cli(["solve", str(boards / "8x8-centre-hole.txt"), "--count", "--depth", "1", "--resume", str(checkpoint)])
    refused(resumed, "pre-placed")


# -- one test per ingredient of the seal --------------------------------------------------------
#
# A puzzle is built, its count checkpointed, then one ingredient of a fresh copy is changed and
# nothing else (not the exact cover problem, unless that is the ingredient): resuming must be
# refused, naming what differs.


def fresh(tmp_path):
    return Puzzle(read_text_board(board_file(tmp_path, PREPLACED)), [replace(p, count=(11, 11)) for p in polyominoes(2)])


def pentominoes(tmp_path):
    return Puzzle(read_text_board(ROOT / "shapes" / "pentomino" / "3x20.txt"), polyominoes(5))


def checkpointed(tmp_path, puzzle):
    engine = built_in_registry().backends["dlx-python"]
    path = tmp_path / "count.json"
    counts = run(puzzle, engine, checkpoint=path, depth=1).finish()
    assert counts.complete and path.exists()
    return engine, path


def resume_refused(puzzle, engine, path, *words):
    with pytest.raises(PolyfitError) as caught:
        run(puzzle, engine, resume=path, depth=1).finish()
    for word in words:
        assert word in str(caught.value)


def test_the_untouched_puzzle_resumes(tmp_path):
    engine, path = checkpointed(tmp_path, fresh(tmp_path))
    counts = run(fresh(tmp_path), engine, resume=path, depth=1).finish()
    assert (counts.distinct, counts.total) == (26, 41)


def test_ingredient_the_exact_cover_problem(tmp_path):
    engine, path = checkpointed(tmp_path, fresh(tmp_path))
    other = fresh(tmp_path)
    other.cover.problem.options[0], other.cover.problem.options[1] = other.cover.problem.options[1], other.cover.problem.options[0]
    resume_refused(other, engine, path, "exact cover problem")


def test_ingredient_the_symmetry_group(tmp_path):
    engine, path = checkpointed(tmp_path, fresh(tmp_path))
    other = fresh(tmp_path)
    other.symmetries = other.cover.symmetries = other.cover.symmetries[:1]
    resume_refused(other, engine, path, "symmetry group")


def test_ingredient_a_symmetry_mapping_the_pieces_otherwise(tmp_path):
    puzzle = pentominoes(tmp_path)
    engine, path = checkpointed(tmp_path, puzzle)
    other = pentominoes(tmp_path)
    last = other.cover.symmetries[-1]
    swapped = list(range(len(other.pieces)))
    swapped[0], swapped[1] = 1, 0
    other.cover.symmetries[-1] = replace(last, piece_map=tuple(swapped))
    resume_refused(other, engine, path, "symmetry group")


def test_ingredient_how_solutions_are_classified(tmp_path):
    puzzle = pentominoes(tmp_path)
    assert puzzle.cover.breaker is not None
    engine, path = checkpointed(tmp_path, puzzle)
    other = pentominoes(tmp_path)
    first = min(other.cover.orbit_sizes)
    other.cover.orbit_sizes[first] *= 2
    resume_refused(other, engine, path, "classified")


def test_ingredient_the_placements_solutions_are_drawn_with(tmp_path):
    engine, path = checkpointed(tmp_path, fresh(tmp_path))
    other = fresh(tmp_path)
    other.cover.option_placement[0], other.cover.option_placement[1] = other.cover.option_placement[1], other.cover.option_placement[0]
    resume_refused(other, engine, path, "placements")


@pytest.mark.parametrize(
    "change",
    [
        lambda p: replace(p, name="E"),
        lambda p: replace(p, mirror=not p.mirror),
        lambda p: replace(p, count=(10, 11)),
        lambda p: replace(p, cells=((0, 0), (0, 1), (0, 2))),
    ],
    ids=["name", "mirror", "count", "cells"],
)
def test_ingredient_the_pieces(tmp_path, change):
    engine, path = checkpointed(tmp_path, fresh(tmp_path))
    other = fresh(tmp_path)
    other.pieces[0] = change(other.pieces[0])
    resume_refused(other, engine, path, "pieces")


def test_ingredient_the_counts_left_after_the_pre_placed_pieces(tmp_path):
    engine, path = checkpointed(tmp_path, fresh(tmp_path))
    other = fresh(tmp_path)
    other.counts = [(8, 9)]
    resume_refused(other, engine, path, "pieces")


@pytest.mark.parametrize(
    "change, words",
    [
        (lambda b: replace(b, optional=frozenset({(3, 0)})), "optional cells"),
        (lambda b: replace(b, fixed=b.fixed[:1]), "pre-placed"),
        (lambda b: replace(b, cells=b.cells[:-1]), "board's cells"),
        (lambda b: replace(b, lattice="triangle"), "lattice"),
    ],
    ids=["optional", "pre-placed", "cells", "lattice"],
)
def test_ingredient_the_board(tmp_path, change, words):
    engine, path = checkpointed(tmp_path, fresh(tmp_path))
    other = fresh(tmp_path)
    other.board = change(other.board)
    resume_refused(other, engine, path, words)


def test_ingredient_the_board_s_placement_rules(tmp_path):
    engine, path = checkpointed(tmp_path, fresh(tmp_path))
    other = fresh(tmp_path)
    other.board = replace(other.board, allowed={"D": {((1, 0), (1, 1))}})
    resume_refused(other, engine, path, "placement rules")
