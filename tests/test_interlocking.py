"""polyfit generate --interlocking (polyfit.design.interlocking): every puzzle written reads
back, in polyfit and in BurrTools (where it is built), with one assembly that comes apart at the
level written in the file."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pytest

import polyfit
from polyfit.motion import Disassembler
from polyfit.lattices.base import get
from polyfit.puzzle.generate import box_cells
from polyfit.design.interlocking import connected, search
from helpers import replay, run_cli

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"
BURRTXT2 = Path(os.environ.get("TMPDIR", "/tmp")) / "burrtools" / "burrTxt2"


def cli(*args):
    return run_cli([str(a) for a in args])


def test_generated_puzzles_read_back_with_one_assembly_at_their_level(tmp_path):
    out = tmp_path / "puzzles"
    result = cli("generate", "--interlocking", "--within", "3x3x3", "--hole-count", "2", "--pieces-count", "3",
                 "--min-level", "2", "--count", "1", "--seed", "2", "--out", out, "--jobs", "1")
    assert result.exit_code == 0, result.output
    (path,) = sorted(out.glob("*.xmpuzzle"))
    level = re.search(r"level ([0-9.]+)", result.output).group(1)
    assert int(level.split(".")[0]) >= 2
    text = path.read_bytes().decode("utf-8")
    assert f"level {level}" in text  # in the file's comment
    puzzle = polyfit.load(path)
    assert len(puzzle.pieces) == 3 and len(puzzle.board.cells) == 27 - 2
    counts = puzzle.count(disassemble=True, jobs=1)
    assert counts.disassembly.assemblies == 1 and counts.disassembly.levels == {level: 1}
    solution, taken = next(puzzle.disassemblies())
    cells = [[tuple(c) for c in cells] for cells in solution.to_json().values()]
    assert all(connected(p) for p in cells)
    moves = [([list(solution.to_json()).index(n) for n in m["pieces"]], m["by"], m["removed"]) for m in taken.moves]
    assert replay(cells, moves) == level
    if BURRTXT2.exists():
        sys.path.insert(0, str(BENCHMARKS))
        try:
            from burrtools_levels import burrtxt2_run
            from interlocking import burrtools_level
        finally:
            sys.path.pop(0)
        answer, _ = burrtxt2_run(path, "-d")
        assert 'assemblies="1"' in answer and 'solutions="1"' in answer
        assert burrtools_level(answer) == level


def test_the_designs_are_the_same_for_any_number_of_jobs():
    outline = box_cells("3x3x3")
    one = next(search(outline, 3, 2, holes=2, seed=2, jobs=1))
    two = next(search(outline, 3, 2, holes=2, seed=2, jobs=2))
    assert (one.pieces, one.holes, one.level, one.climb) == (two.pieces, two.holes, two.level, two.climb)
    taken = Disassembler(get("cubic").motion_directions()).disassemble(one.pieces)
    assert int(taken.level.split(".")[0]) >= 2


@pytest.mark.parametrize("args, message", [
    (["--within", "5x5x5", "--min-level", "3"], "--interlocking needs --pieces-count K and --min-level L"),
    (["--within", "5x5x5", "--pieces-count", "5", "--min-level", "3", "--format", "vox"], "valid formats: xmpuzzle"),
    (["--within", "5x5", "--pieces-count", "3", "--min-level", "2"], "made of cubes"),
    (["--within", "2x2x2", "--pieces-count", "3", "--min-level", "2"], "too few for 3 pieces"),
    (["--within", "5x5x5", "--pieces-count", "1", "--min-level", "2"], "two pieces or more"),
    (["--pieces", "soma", "--within", "3x3x3", "--pieces-count", "3", "--min-level", "2"], "not --pieces or --from"),
])
def test_generate_interlocking_refuses_what_does_not_fit(tmp_path, args, message):
    result = cli("generate", "--interlocking", *args, "--out", tmp_path / "out")
    assert result.exit_code == 2, result.output
    assert message in result.output


def test_interlocking_options_need_interlocking(tmp_path):
    result = cli("generate", "--pieces", "soma", "--within", "3x3x3", "--min-level", "2", "--out", tmp_path)
    assert result.exit_code == 2 and "go with --interlocking" in result.output
    result = cli("generate", "--within", "3x3x3", "--out", tmp_path)
    assert result.exit_code == 2 and "give the pieces with --pieces" in result.output
