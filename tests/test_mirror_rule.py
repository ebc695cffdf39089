"""BurrTools' mirror rule with piece ranges (polyfit.puzzle.mirror): where only some solutions
have a valid mirror image, the distinct counts are BurrTools' (burrTxt2 -R -c / -R -d) and the
counts up to rotation alone are its -m counts. The puzzles are 2x2x4 and 2x3x4 boxes of
tetracubes: S and Sm the two screws (each other's mirror image), the rest achiral, with ranges
that give S a partner for some solutions only (or none at all, ranges-2); family-12 is
SolidSixPieceBurrs' pieces (0 to 6 copies) and 12 more cut from them, some of them allowed one
copy only: there BurrTools pairs the copies of one-sided pieces in order, and stops pairing at
the first copy without a partner, so later pieces' mirror images are never valid. colours-1
and -2 are ranges-1 with colours on the box (in layers, in columns) and on one piece, so that
the colours decide which mirror images are valid too."""

import json
import sys
from pathlib import Path

import pytest

import polyfit
from helpers import BURRTXT2
from polyfit.longsearch import disassembly
from polyfit.longsearch.workers import JobResult

DATA = Path(__file__).parent / "data" / "mirror"
ANSWERS = json.loads((DATA / "burrtools.json").read_text())


def test_the_puzzles_have_the_ranges_recorded_and_burrtools_tells_mirrors_apart():
    for name, answer in ANSWERS.items():
        puzzle = polyfit.load(DATA / name)
        assert [list(p.count) for p in puzzle.pieces] == list(answer["pieces"].values())
        assert answer["default"]["assemblies"] < answer["mirror"]["assemblies"], name
        assert not puzzle.cover.has_reflections  # the group alone would count as -m does


@pytest.mark.parametrize("name, backend", [
    pytest.param(name, backend, marks=[pytest.mark.slow] if name.startswith("family") and backend == "count-memo" else [])
    for name in sorted(ANSWERS) for backend in ("dlx-c", "count-memo")
])
def test_counts_equal_burrtools_with_and_without_m(name, backend):
    puzzle = polyfit.load(DATA / name)
    counts = puzzle.count(backend=backend)
    assert counts.distinct == ANSWERS[name]["default"]["assemblies"]
    assert counts.distinct_rotations == ANSWERS[name]["mirror"]["assemblies"]


@pytest.mark.parametrize("name", sorted(ANSWERS))
def test_disassembly_counts_equal_burrtools(name):
    puzzle = polyfit.load(DATA / name)
    counts, tally = disassembly.count(puzzle, puzzle.backend("auto"))
    assert tally.assemblies == counts.distinct == ANSWERS[name]["default"]["assemblies"]
    assert tally.disassemblable == ANSWERS[name]["default"]["solutions"]
    assert tally.disassemblable_rotations == ANSWERS[name]["mirror"]["solutions"]
    assert sum(tally.levels.values()) == tally.disassemblable


def test_the_listed_solutions_are_the_distinct_ones_and_no_two_are_mirror_images():
    puzzle = polyfit.load(DATA / "ranges-1.xmpuzzle")
    listed = [s.indices for s in puzzle.run(backend="dlx-c")]
    assert len(listed) == ANSWERS["ranges-1.xmpuzzle"]["default"]["assemblies"]
    # Each listed class's mirror image (when valid and another class) is not listed.
    rotations = [puzzle.cover.table(s) for s in puzzle.cover.symmetries]

    def rotation_class(solution):
        return min(tuple(sorted(t[i] for i in solution)) for t in rotations)

    classes = {rotation_class(s) for s in listed}
    joined = [puzzle.mirror_of(s)[1] for s in listed]
    assert any(image is not None for image in joined)
    for image in joined:
        if image is not None:
            assert rotation_class(image) not in classes


def test_jobs_count_the_same_and_their_results_add_up():
    puzzle = polyfit.load(DATA / "ranges-6.xmpuzzle")
    counts = puzzle.count(backend="dlx-c", jobs=2)
    assert (counts.distinct, counts.distinct_rotations) == (1107, 1590)
    assert any(split == 0 for _, split in counts.classes)


def test_a_job_result_whose_distinct_count_was_changed_is_refused():
    from polyfit.fields import Fields

    good = {"index": 0, "distinct": 1, "total": 8, "distinct_rotations": 2, "nodes": 5, "updates": 9,
            "found": 2, "seconds": 0.1, "classes": [[4, 0, 1], [4, 1, 1]], "weights": [[4, 2]]}
    assert JobResult.from_json(Fields(good, "job.json"), 1).distinct == 1
    with pytest.raises(polyfit.PolyfitError, match="distinct"):
        JobResult.from_json(Fields(dict(good, distinct=2), "job.json"), 1)


@pytest.mark.skipif(not BURRTXT2.exists(), reason="BurrTools is not built here (bash ../shared/burrtools/build.sh)")
@pytest.mark.parametrize("name", [
    "ranges-1.xmpuzzle", "ranges-2.xmpuzzle", "colours-2.xmpuzzle", pytest.param("family-12.xmpuzzle", marks=pytest.mark.slow)
])
def test_burrtools_live_gives_the_recorded_counts(name):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
    try:
        from burrtools_levels import run_burrtxt2
    finally:
        sys.path.pop(0)
    assert run_burrtxt2(DATA / name, False) == ANSWERS[name]["default"]
    assert run_burrtxt2(DATA / name, True) == ANSWERS[name]["mirror"]


def test_copies_that_pair_with_two_pieces_of_one_shape_are_refused_with_the_reason(tmp_path):
    """split-pairs: two copies of the screw S, and its mirror shape listed twice as M and N (one
    copy each), so BurrTools pairs S's first copy with M and its second with N. Which copy of S
    is the first in an assembly is BurrTools' own order, so polyfit refuses to guess (BurrTools
    gives 10 assemblies, 18 with -m; polyfit's distinct_rotations, 18, is not refused)."""
    import subprocess

    puzzle = polyfit.load(DATA / "split-pairs.xmpuzzle")
    assert [(p.name, p.count) for p in puzzle.pieces] == [("S", (2, 2)), ("M", (1, 1)), ("N", (1, 1))]
    with pytest.raises(polyfit.PolyfitError, match=r"the copies of S pair with pieces of one shape listed apart \(M, N\)"):
        puzzle.count()
    result = subprocess.run([sys.executable, "-m", "polyfit", "solve", str(DATA / "split-pairs.xmpuzzle"), "--count"],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "cannot count their mirror images as BurrTools does" in result.stderr
