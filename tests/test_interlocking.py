"""polyfit generate --interlocking (polyfit.design.interlocking): every puzzle written reads
back, in polyfit and in BurrTools (where it is built), with one assembly that comes apart at the
level written in the file."""

from __future__ import annotations

import os
import re
import sys
import time
from pathlib import Path

import pytest

import polyfit
from polyfit.motion import Disassembler
from polyfit.lattices.base import get
from polyfit.puzzle.generate import box_cells
from polyfit.design.interlocking import connected, search
from helpers import BURRTXT2, group_alive, interrupt, replay, run_cli

ROOT = Path(__file__).resolve().parent.parent
BENCHMARKS = ROOT / "benchmarks"


def cli(*args):
    return run_cli([str(a) for a in args])


def test_generated_puzzles_read_back_with_one_assembly_at_their_level(tmp_path):
    out = tmp_path / "puzzles"
    result = cli("generate", "--interlocking", "--within", "3x3x3", "--hole-count", "2", "--pieces-count", "3",
                 "--min-level", "2", "--count", "1", "--seed", "4", "--out", out, "--jobs", "1")
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
        assert burrtools_says(path) == (1, 1, level)


@pytest.mark.slow
def test_the_designs_are_the_same_for_any_number_of_jobs():
    outline = box_cells("3x3x3")
    one = next(search(outline, 3, 2, holes=2, seed=1, jobs=1))
    two = next(search(outline, 3, 2, holes=2, seed=1, jobs=2))
    assert (one.pieces, one.holes, one.level, one.climb) == (two.pieces, two.holes, two.level, two.climb)
    taken = Disassembler(get("cubic").motion_directions()).disassemble(one.pieces)
    assert int(taken.level.split(".")[0]) >= 2


@pytest.mark.parametrize("args, message", [
    (["--within", "5x5x5", "--min-level", "3"], "--interlocking needs --pieces-count K and --min-level L"),
    (["--within", "5x5x5", "--pieces-count", "5", "--min-level", "3", "--format", "stl"], "valid formats: vox, xmpuzzle"),
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


def burrtools_says(path):
    """burrTxt2 -R -d on ``path``: (assemblies, solutions, level of its separation tree)."""
    sys.path.insert(0, str(BENCHMARKS))
    try:
        from burrtools_levels import burrtxt2_run
        from interlocking import burrtools_level
    finally:
        sys.path.pop(0)
    answer, _ = burrtxt2_run(path, "-d")
    counts = [int(re.search(f'{key}="([0-9]+)"', answer).group(1)) for key in ("assemblies", "solutions")]
    return counts[0], counts[1], burrtools_level(answer)


def test_vox_puzzles_read_back_with_their_pieces_at_their_level(tmp_path):
    out = tmp_path / "puzzles"
    result = cli("generate", "--interlocking", "--within", "3x3x3", "--hole-count", "2", "--pieces-count", "3",
                 "--min-level", "2", "--seed", "4", "--out", out, "--jobs", "1", "--format", "vox")
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in out.iterdir()) == ["puzzle-001.pieces.vox", "puzzle-001.vox"]
    level = re.search(r"level ([0-9.]+)", result.output).group(1)
    path = out / "puzzle-001.vox"
    assert f"; interlocking: level {level} (" in path.read_text()
    puzzle = polyfit.load(path)
    assert [p.name for p in puzzle.pieces] == ["A", "B", "C"] and len(puzzle.board.cells) == 25
    counts = puzzle.count(disassemble=True, jobs=1)
    assert counts.distinct == 1 and counts.disassembly.levels == {level: 1}
    again = cli("generate", "--interlocking", "--within", "3x3x3", "--hole-count", "2", "--pieces-count", "3",
                "--min-level", "2", "--seed", "4", "--out", out, "--jobs", "1", "--format", "vox")
    assert again.exit_code == 0 and "puzzle-002.vox" in again.output  # the first is kept
    assert (out / "puzzle-002.pieces.vox").read_text() == (out / "puzzle-001.pieces.vox").read_text()


def test_generate_interlocking_in_code_gives_designs_that_write_and_read_back(tmp_path):
    designs = list(polyfit.generate_interlocking("3x3x3", pieces=3, min_level=2, holes=2, count=2, seed=4))
    assert len(designs) == 2 and designs[0].climb < designs[1].climb
    for number, design in enumerate(designs):
        assert len(design.holes) == 2 and sum(map(len, design.pieces)) == 25
        (path,) = design.write(tmp_path / f"p{number}.xmpuzzle")
        levels = polyfit.load(path).count(disassemble=True, jobs=1).disassembly.levels
        assert levels == {design.level: 1}
    with pytest.raises(polyfit.PolyfitError, match="box size"):
        next(polyfit.generate_interlocking("big", pieces=3, min_level=2))
    with pytest.raises(polyfit.PolyfitError, match="exists"):
        designs[0].write(tmp_path / "p0.xmpuzzle")


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(os, "killpg"), reason="needs process groups")
def test_ctrl_c_keeps_the_puzzles_written_and_leaves_no_worker(tmp_path):
    out = tmp_path / "out"
    args = ["generate", "--interlocking", "--within", "3x3x3", "--hole-count", "2", "--pieces-count", "3",
            "--min-level", "2", "--count", "1000", "--seed", "4", "--jobs", "2", "--out", str(out)]
    proc, stdout, stderr = interrupt(args, tmp_path, lambda: list(out.glob("*.xmpuzzle")))
    assert proc.returncode == 130, stderr
    assert "Traceback" not in stderr and stderr == "", stderr
    assert "(interrupted)" in stdout.splitlines()[-1]
    written = sorted(out.glob("*.xmpuzzle"))
    assert written and sorted(out.iterdir()) == written  # nothing half written left beside them
    for path in written:
        assert f"wrote {path.relative_to(tmp_path)}" in stdout or f"wrote {path}" in stdout
        level = re.search(r"level ([0-9.]+)", path.read_text()).group(1)
        counts = polyfit.load(path).count(disassemble=True, jobs=1)
        assert counts.distinct == 1 and counts.disassembly.levels == {level: 1}
    deadline = time.monotonic() + 10
    while group_alive(proc.pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not group_alive(proc.pid), "a worker outlived the command"


@pytest.mark.slow
@pytest.mark.skipif(not BURRTXT2.exists(), reason="BurrTools is not built at /tmp/burrtools")
def test_burrtools_finds_one_solution_at_the_level_polyfit_reports(tmp_path):
    """Live: every puzzle written, read back by burrTxt2 -R -d, has one assembly, one solution,
    and a separation tree of the level polyfit wrote in the file and printed."""
    out = tmp_path / "puzzles"
    runs = [("3x3x3", "2", "3", "2", "3"), ("4x4x4", "4", "4", "3", "1")]
    for within, holes, pieces, level, count in runs:
        result = cli("generate", "--interlocking", "--within", within, "--hole-count", holes, "--pieces-count",
                     pieces, "--min-level", level, "--count", count, "--seed", "4", "--out", out / within, "--jobs", "1")
        assert result.exit_code == 0, result.output
        reported = re.findall(r"wrote (\S+) \(level ([0-9.]+),", result.output)
        assert len(reported) == int(count)
        for path, level_said in reported:
            assert int(level_said.split(".")[0]) >= int(level)
            assert f"level {level_said} (" in Path(path).read_text()
            assert burrtools_says(path) == (1, 1, level_said), path
