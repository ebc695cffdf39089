"""Watching the search: the step trace makes the backends' choices, and the GIF shows it."""

from pathlib import Path

import numpy as np
import pytest
from PIL import Image
from typer.testing import CliRunner

from polyfit.render.animate import search_steps
from polyfit.xc.problem import ExactCoverProblem, SearchStats
from polyfit.render.palette import piece_colours
from polyfit.plugins import get_plugin_manager
from polyfit.registry import Registry
from polyfit.xc.trace import trace
from polyfit.puzzle.solve import Puzzle

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def registry():
    return Registry.from_plugins(get_plugin_manager(load_entrypoints=False))


def puzzle_of(registry, name):
    board = registry.read_shape(ROOT / "shapes" / name)
    from polyfit.formats.piece_specs import resolve_pieces

    return Puzzle(board, resolve_pieces(board.metadata["pieces"], registry.piece_set_builders()))


def test_trace_places_and_takes_back_one_option_at_a_time():
    # Items a b c; only option 3 covers all three. Options 0 and 1 each leave an item with
    # nothing left to cover it, so the search takes them back.
    problem = ExactCoverProblem(["a", "b", "c"], [], [(0, 1), (0, 2), (1, 2), (0, 1, 2)])
    steps = [(s.kind, s.option, s.chosen) for s in trace(problem)]
    assert steps == [
        ("place", 0, (0,)), ("remove", 0, ()),
        ("place", 1, (1,)), ("remove", 1, ()),
        ("place", 3, (3,)), ("solution", None, (3,)),
    ]


def test_trace_makes_the_same_choices_as_dancing_links(registry):
    for name in ("pentomino/3x20.txt", "soma/castle.vox"):
        puzzle = puzzle_of(registry, name)
        stats = SearchStats()
        first = next(registry.backends["dlx-python"].solutions(puzzle.cover.problem, stats))
        steps = list(trace(puzzle.cover.problem))
        assert steps[-1].kind == "solution" and steps[-1].chosen == first
        assert sum(1 for s in steps if s.kind == "place") == stats.nodes


def test_trace_of_an_impossible_problem_ends_without_a_solution():
    problem = ExactCoverProblem(["a", "b"], [], [(0,), (0, 1)])
    steps = list(trace(ExactCoverProblem(["a", "b", "c"], [], [(0, 1), (1, 2)])))
    assert steps and all(s.kind != "solution" for s in steps) and steps[-1].chosen == ()
    assert list(trace(problem))[-1].kind == "solution"


def test_search_steps_keeps_the_last_frames_ending_on_the_solution(registry):
    puzzle = puzzle_of(registry, "pentomino/3x20.txt")
    steps, total, solved = search_steps(puzzle, 30)
    assert solved and len(steps) == 30
    assert steps[-1][1].kind == "solution" and steps[-1][0] == total
    assert len(steps[-2][1].chosen) == 11 and len(steps[-1][1].chosen) == 12
    assert [n for n, _ in steps] == list(range(total - 29, total + 1))


def test_animate_gif_frames_are_real_search_states(app, registry, tmp_path):
    out = tmp_path / "search.gif"
    board = ROOT / "shapes/pentomino/3x20.txt"
    result = CliRunner().invoke(app, ["solve", str(board), "--limit", "1", "--animate", str(out),
                                      "--steps", "25", "--cell", "10", "--margin", "5"])
    assert result.exit_code == 0, result.output
    gif = Image.open(out)
    assert gif.n_frames == 25
    colours = set(piece_colours("FILNPTUVWXYZ").values())
    covered = []
    for k in range(gif.n_frames):
        gif.seek(k)
        frame = np.asarray(gif.convert("RGB"))
        caption = frame.shape[0] - (3 * 10 + 10)
        centres = [tuple(frame[caption + 5 + r * 10 + 5, 5 + c * 10 + 5]) for r in range(3) for c in range(20)]
        covered.append(sum(1 for colour in centres if colour in colours))
        last = centres
    # Each step places or takes back one pentomino: five cells more or fewer.
    assert all(abs(b - a) == 5 for a, b in zip(covered, covered[1:]))
    # The last frame is the first solution the backends find (which need not be the one
    # printed: polyfit prints one solution per symmetry class).
    puzzle = puzzle_of(registry, "pentomino/3x20.txt")
    first = next(registry.backends["dlx-python"].solutions(puzzle.cover.problem, SearchStats()))
    names = {}
    for option in first:
        placement = puzzle.placements[puzzle.cover.option_placement[option]]
        for cell in placement.cells:
            names[cell] = puzzle.pieces[placement.piece].name
    expected = [piece_colours("FILNPTUVWXYZ")[names[(r, c)]] for r in range(3) for c in range(20)]
    assert [tuple(int(v) for v in c) for c in last] == expected
    refused = CliRunner().invoke(app, ["solve", str(board), "--animate", str(out)])
    assert refused.exit_code == 2 and "--force" in refused.output


def test_animate_shows_pre_placed_pieces_and_refuses_piece_counts(app, tmp_path):
    out = tmp_path / "scott.gif"
    board = ROOT / "shapes/pentomino/scott.txt"  # the square tetromino pre-placed in the centre
    result = CliRunner().invoke(app, ["solve", str(board), "--limit", "1", "--animate", str(out),
                                      "--steps", "5", "--cell", "10", "--margin", "5"])
    assert result.exit_code == 0, result.output
    gif = Image.open(out)
    colour = piece_colours([*"FILNPTUVWXYZ", "O"])["O"]
    for k in range(gif.n_frames):
        gif.seek(k)
        frame = np.asarray(gif.convert("RGB"))
        caption = frame.shape[0] - (8 * 10 + 10)
        for r, c in ((3, 3), (3, 4), (4, 3), (4, 4)):
            assert tuple(frame[caption + 5 + r * 10 + 5, 5 + c * 10 + 5]) == colour, (k, r, c)
    counted = CliRunner().invoke(app, ["solve", str(ROOT / "shapes/pentomino/5x10-any-ten.txt"),
                                       "--animate", str(tmp_path / "x.gif")])
    assert counted.exit_code == 2 and "multiplicities" in counted.output
    assert not (tmp_path / "x.gif").exists()
