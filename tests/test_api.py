"""The public API: docs/api.md is run as a doctest, and the API keeps its promises."""

from __future__ import annotations

import doctest
import subprocess
import sys
from pathlib import Path

import pytest

import polyfit

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow
def test_the_api_page_runs(monkeypatch):
    monkeypatch.chdir(ROOT)
    failures, tried = doctest.testfile(str(ROOT / "docs" / "api.md"), module_relative=False)
    assert tried > 20
    assert failures == 0


def test_the_package_docstring_runs(monkeypatch):
    monkeypatch.chdir(ROOT)
    failures, tried = doctest.testmod(polyfit)
    assert tried >= 3 and failures == 0


def test_every_exported_name_exists_and_is_documented():
    text = (ROOT / "docs" / "api.md").read_text()
    for name in polyfit.__all__:
        assert hasattr(polyfit, name), name
        if name != "__version__":
            assert f"polyfit.{name}" in text or f"`{name}`" in text or f"{name}(" in text, name


def test_the_readme_api_example_runs_in_a_fresh_interpreter(tmp_path):
    """The issue's example, as a new user types it after pip install."""
    code = (
        "import polyfit\n"
        "puzzle = polyfit.load('shapes/pentomino/6x10.txt')\n"
        "puzzle = polyfit.load('shapes/soma/castle.vox', pieces='soma', mirror=False)\n"
        "board = polyfit.Board.from_text('##########\\n' * 6, dim=2)\n"
        "p = polyfit.Puzzle(board, polyfit.pieces('pentominoes'))\n"
        "c = puzzle.count(backend='auto', jobs=None)\n"
        "print(c.distinct, c.distinct_rotations, c.total, c.nodes > 0)\n"
        "for s in puzzle.solutions(limit=3):\n"
        "    assert set(s.placements) == set('VLTZABP')\n"
        "    s.text(); assert s._repr_png_()[:4] == b'\\x89PNG'\n"
        "print(polyfit.hookimpl)\n"
    )
    # Run outside the source tree, so that the installed package (with its compiled backends)
    # is the one imported, as for a new user; the shapes are at hand through a link.
    (tmp_path / "shapes").symlink_to(ROOT / "shapes")
    result = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[0] == "3 6 6 True"


def test_errors_are_polyfit_errors_never_system_exit(tmp_path):
    with pytest.raises(polyfit.PolyfitError):
        polyfit.load(tmp_path / "missing.txt")
    with pytest.raises(polyfit.UnknownNameError):
        polyfit.pieces("no-such-set")
    with pytest.raises(polyfit.PolyfitError):
        polyfit.load("shapes/pentomino/6x10.txt").count(backend="nope")
    board = tmp_path / "b.txt"
    board.write_text("###\n")
    with pytest.raises(polyfit.PolyfitError, match="no pieces given"):
        polyfit.load(board)


def test_png_never_replaces_a_file(tmp_path):
    solution = next(polyfit.load("shapes/pentomino/3x20.txt").solutions())
    target = tmp_path / "s.png"
    solution.png(target)
    assert target.read_bytes()[:4] == b"\x89PNG"
    with pytest.raises(polyfit.PolyfitError, match="exists"):
        solution.png(target)


def test_solutions_all_gives_every_copy():
    puzzle = polyfit.load("shapes/pentomino/3x20.txt")
    assert len(list(puzzle.solutions())) == 2
    every = list(puzzle.solutions(all=True))
    assert len(every) == 8
    assert len({tuple(sorted(s.placements.items())) for s in every}) == 8
    assert len(list(puzzle.solutions(limit=3, all=True))) == 3


def test_the_readme_python_example_runs(tmp_path):
    text = (ROOT / "README.md").read_text()
    block = text.split("## From Python", 1)[1].split("```python\n", 1)[1].split("```", 1)[0]
    (tmp_path / "shapes").symlink_to(ROOT / "shapes")
    result = subprocess.run([sys.executable, "-c", block], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1] == "1"
    assert sorted(p.name for p in tmp_path.glob("*.png")) == ["6x10-1.png", "6x10-2.png", "6x10-3.png"]


def test_a_bad_pieces_line_is_an_error_at_its_line_and_column(tmp_path):
    board = tmp_path / "b.txt"
    board.write_text("; name: strip\n; pieces:  pentominos\n#####\n")
    with pytest.raises(polyfit.ParseError) as caught:
        polyfit.load(board)
    assert (caught.value.line, caught.value.column) == (2, 12)
    assert "unknown piece set 'pentominos'" in str(caught.value)


def test_the_registry_name_is_the_function_whatever_was_imported_first():
    """The module polyfit.registry must not take the public name polyfit.registry()."""
    code = ("import polyfit.registry, polyfit.puzzle.solve, polyfit\n"
            "assert callable(polyfit.registry) and 'dlx-c' in polyfit.registry().backends\n"
            "from polyfit.registry import Registry\n")
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT.parent, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
