"""Atlases: a piece family grouped by piece set, a calendar board grouped by target.

Checked against BurrTools 0.7.1 (its counts on the whole SolidSix family, every assembly it
keeps, and its answers on files restricted to one piece set, recorded by
benchmarks/atlas_burrtools.py), against a brute force that shares no code with the search or
the grouping (tests/helpers.py), against the published per-date counts of A-Puzzle-A-Day, and
against separate runs, one per target.
"""

from __future__ import annotations

import gzip
import json
from collections import Counter
from pathlib import Path

import pytest

import polyfit
from helpers import ROOT, run_cli, shapes_of, solutions

SOLIDSIX = ROOT / "shapes" / "burrtools" / "SolidSixPieceBurrs.xmpuzzle"
APAD = ROOT / "shapes" / "calendar" / "a-puzzle-a-day.txt"
WEEK = ROOT / "shapes" / "calendar" / "week.txt"
DATA = ROOT / "tests" / "data"


def cli(*args):
    return run_cli([str(a) for a in args])


@pytest.fixture(scope="module")
def solidsix():
    return polyfit.atlas(SOLIDSIX, disassemble=True, jobs=1)


# -- piece families: SolidSix against BurrTools ---------------------------------------------------


def test_solidsix_rows_add_up_to_burrtools_totals(solidsix):
    sets = solidsix.sets
    assert sum(s.assemblies for s in sets) == 588
    assert sum(s.assemblies_rotations for s in sets) == 1063
    assert sum(s.disassemblable for s in sets) == 179
    assert sum(s.disassemblable_rotations for s in sets) == 314  # Cutler's 314
    levels = Counter()
    for s in sets:
        levels.update(s.levels)
    assert levels == {"1": 148, "1.2": 31}
    # the run itself says the same
    assert (solidsix.counts.distinct, solidsix.counts.distinct_rotations) == (588, 1063)
    assert (solidsix.total.disassemblable, solidsix.total.disassemblable_rotations) == (179, 314)


def test_a_row_is_a_set_with_its_mirror_set(solidsix):
    puzzle = solidsix.puzzle
    mirror_of = {}
    for piece in puzzle.pieces:  # the mirror piece, found by reflecting the cells
        image = shapes_of([(-z, y, x) for z, y, x in piece.cells], mirror=False)
        mirror_of[piece.name] = next(p.name for p in puzzle.pieces if set(image) & shapes_of(p.cells, mirror=False))
    seen = set()
    for s in solidsix.sets:
        image = Counter()
        for name, n in s.pieces.items():
            image[mirror_of[name]] += n
        if s.mirror is None:
            assert image == Counter(s.pieces)
            assert s.assemblies <= s.assemblies_rotations <= 2 * s.assemblies
        else:
            assert image == Counter(s.mirror) != Counter(s.pieces)
            # each class has one member in each set: twice the classes up to rotation alone
            assert s.assemblies_rotations == 2 * s.assemblies
            assert s.disassemblable_rotations == 2 * s.disassemblable
        for member in (s.pieces, s.mirror):
            if member is not None:
                key = tuple(sorted(member.items()))
                assert key not in seen  # every set is in one row
                seen.add(key)


def answers():
    return json.loads(gzip.decompress((DATA / "disassembly" / "SolidSixPieceBurrs.burrtools.json.gz").read_bytes()))


def test_every_row_has_the_assemblies_burrtools_kept_for_its_sets(solidsix):
    """BurrTools' run of the whole family keeps every assembly that comes apart (with its
    pieces and level); grouped by piece set, they are each row's counts and levels."""
    row_of = {}
    for s in solidsix.sets:
        for member in (s.pieces, s.mirror):
            if member is not None:
                row_of[tuple(sorted(member.items()))] = s
    kept = {}
    for key in ("default", "mirror"):
        kept[key] = Counter()
        levels = Counter()
        for found in answers()[key]["found"]:
            pieces = tuple(sorted(Counter(label.split("#")[0] for label in found["pieces"]).items()))
            row = row_of[pieces]
            kept[key][id(row)] += 1
            levels[id(row), found["level"]] += 1
        if key == "default":
            for s in solidsix.sets:
                assert {level: n for (row, level), n in levels.items() if row == id(s)} == s.levels
    for s in solidsix.sets:
        assert kept["default"][id(s)] == s.disassemblable
        assert kept["mirror"][id(s)] == s.disassemblable_rotations


def test_rows_equal_burrtools_on_files_of_one_piece_set(solidsix):
    """burrTxt2 -R -d (and -m) on the puzzle restricted to exactly one set: for a set that is
    its own mirror image, the row's two conventions; for a set with a mirror set, that set
    alone has the row's assemblies up to rotation (as its mirror set has)."""
    recorded = json.loads((DATA / "atlas" / "SolidSixPieceBurrs.sets.json").read_text())["sets"]
    assert len(recorded) >= 8
    kinds = set()
    for answer in recorded:
        row = next(s for s in solidsix.sets if answer["pieces"] in (s.pieces, s.mirror))
        kinds.add((row.mirror is None, row.disassemblable > 0, row.assemblies_rotations > row.assemblies))
        assert answer["default"] == {"assemblies": row.assemblies, "solutions": row.disassemblable}
        if row.mirror is None:
            assert answer["mirror"] == {"assemblies": row.assemblies_rotations, "solutions": row.disassemblable_rotations}
        else:
            assert answer["mirror"] == answer["default"]
    assert len(kinds) >= 4, kinds  # self-mirror and paired sets, some that come apart and some not


def test_sorting_and_filtering(solidsix):
    rows = solidsix.rows()  # taken apart: highest level first
    assert rows[0].highest_level == "1.2" and rows[-1].highest_level is None
    assert [s.highest_level for s in rows] == sorted((s.highest_level for s in rows), key=lambda x: x or "", reverse=True)
    fewest = solidsix.rows("count")
    assert fewest[0].disassemblable == 1 and fewest[-1].disassemblable == 0
    unique = solidsix.rows(unique=True)
    assert unique and all(s.disassemblable == 1 for s in unique)
    assert len(unique) == sum(1 for s in solidsix.sets if s.disassemblable == 1)
    assert solidsix.rows("name", limit=3) == solidsix.sets[:3]
    with pytest.raises(polyfit.PolyfitError, match="the sorts are count, level, name"):
        solidsix.rows("size")


def test_atlas_json_on_the_command_line():
    result = cli("atlas", SOLIDSIX, "--disassemble", "--json", "--sort", "name")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert (data["assemblies"], data["assemblies_rotations"]) == (588, 1063)
    assert (data["disassemblable"], data["disassemblable_rotations"]) == (179, 314)
    assert data["levels"] == {"1": 148, "1.2": 31}
    assert len(data["sets"]) == data["rows"] == 451
    first = data["sets"][0]
    assert set(first) >= {"pieces", "mirror", "assemblies", "disassemblable", "disassemblable_rotations", "levels"}
    assert sum(s["disassemblable"] for s in data["sets"]) == 179
    assert sum(sum(s["levels"].values()) for s in data["sets"]) == 179


@pytest.mark.slow
def test_jobs_give_the_same_atlas(solidsix):
    split = polyfit.atlas(SOLIDSIX, disassemble=True, jobs=2)
    assert [s.to_json() for s in split.sets] == [s.to_json() for s in solidsix.sets]


# -- piece families: a brute force ----------------------------------------------------------------

ONE_SIDED = {  # as polyfit draws one-sided-tetrominoes: J and L, S and Z are mirror images
    "I": [(0, 0), (0, 1), (0, 2), (0, 3)], "J": [(0, 0), (0, 1), (0, 2), (1, 2)],
    "L": [(0, 0), (0, 1), (0, 2), (1, 0)], "O": [(0, 0), (0, 1), (1, 0), (1, 1)],
    "S": [(0, 1), (0, 2), (1, 0), (1, 1)], "T": [(0, 0), (0, 1), (0, 2), (1, 1)],
    "Z": [(0, 0), (0, 1), (1, 1), (1, 2)],
}


def brute_force_rows(n):
    """Each row of the n x n square tiled by one-sided tetrominoes (each 0..4 times), by a
    search and a grouping of its own: {frozenset of the row's piece sets: (classes under the
    square's 8 symmetries, classes under its 4 rotations)}."""
    board = [(r, c) for r in range(n) for c in range(n)]
    pieces = [(name, cells, False, 0, 4) for name, cells in ONE_SIDED.items()]
    found = solutions(board, pieces)
    maps = []
    for swap in (False, True):
        for flip_r in (False, True):
            for flip_c in (False, True):
                def g(cell, swap=swap, flip_r=flip_r, flip_c=flip_c):
                    r, c = (cell[1], cell[0]) if swap else cell
                    return (n - 1 - r if flip_r else r, n - 1 - c if flip_c else c)
                proper = (swap + flip_r + flip_c) % 2 == 0
                rename = {}
                for name, cells in ONE_SIDED.items():
                    image = shapes_of([g(c) for c in cells], mirror=False)
                    rename[name] = next(m for m, other in ONE_SIDED.items() if image & shapes_of(other, mirror=False))
                maps.append((g, rename, proper))

    def images(tiling, proper_only):
        return {frozenset((rename[name], frozenset(g(c) for c in cells)) for name, cells in tiling)
                for g, rename, proper in maps if proper or not proper_only}

    mirror = next(rename for _, rename, proper in maps if not proper)

    def row(tiling):  # the tiling's piece set with its mirror set
        used = Counter(name for name, _ in tiling)
        image = Counter({mirror[name]: n for name, n in used.items()})
        return frozenset(tuple(sorted(c.items())) for c in (used, image))

    rows = {}
    for proper_only in (False, True):
        classes = {frozenset(images(t, proper_only)) for t in found}
        for members in classes:
            counts = rows.setdefault(row(next(iter(members))), [0, 0])
            counts[proper_only] += 1
    return {sets: tuple(counts) for sets, counts in rows.items()}


def test_a_family_in_the_plane_equals_a_brute_force(tmp_path):
    board = tmp_path / "square.txt"
    board.write_text("; pieces: 0..4*one-sided-tetrominoes\n####\n####\n####\n####\n")
    found = polyfit.atlas(board)
    for piece in found.puzzle.pieces:  # the brute force's pieces are polyfit's
        assert shapes_of(piece.cells, False) == shapes_of(ONE_SIDED[piece.name], False)
    ours = {}
    for s in found.sets:
        members = {tuple(sorted(s.pieces.items()))}
        if s.mirror is not None:
            members.add(tuple(sorted(s.mirror.items())))
        ours[frozenset(members)] = (s.assemblies, s.assemblies_rotations)
    expected = brute_force_rows(4)
    assert ours == expected
    assert any(len(sets) == 2 for sets in expected) and any(len(sets) == 1 for sets in expected)


def test_a_puzzle_without_ranges_is_no_family(tmp_path):
    board = tmp_path / "b.txt"
    board.write_text("; pieces: tetrominoes\n#####\n#####\n#####\n#####\n")
    result = cli("atlas", board)
    assert result.exit_code == 2
    assert "one piece set" in result.output and "; leave:" in result.output


# -- calendars ------------------------------------------------------------------------------------


@pytest.mark.slow
def test_a_puzzle_a_day_matches_the_published_count_of_every_date():
    """Every date of the year as published (a solver's count per date; 24,405 in all), in one
    run; the six dates no calendar has (Feb 30 ...) are targets too, each with solutions. Two
    dates also by a run of their own."""
    published = json.loads((DATA / "atlas" / "a-puzzle-a-day.literature.json").read_text())["solutions"]
    found = polyfit.atlas(APAD)
    ours = {t.name: t.solutions for t in found.targets}
    assert len(ours) == 12 * 31 and not found.unsolved
    assert {name: ours[name] for name in published} == published
    assert sum(published.values()) == 24405
    assert found.solutions == found.counts.total == 25061
    hardest = found.rows(limit=3)
    assert [(t.name, t.solutions) for t in hardest] == [("Oct 6", 7), ("Apr 6", 8), ("Jul 6", 12)]
    assert max(found.targets, key=lambda t: t.solutions).name == "Jan 25"
    text = APAD.read_text()
    for target in found.targets:
        if target.name in ("Oct 6", "Feb 30"):
            assert target.solutions == separate_count(text, set(target.cells), found.pieces)


def separate_count(board_text: str, target_cells, pieces) -> int:
    """The solutions of one target, by its own run: the target's cells removed, every other
    cell to be covered (``pieces``: a spec or a list)."""
    rows = [line for line in board_text.splitlines() if line and not line.startswith(";")]
    art = "\n".join(
        "".join("." if (r, c) in target_cells or ch == "." else ("#" if ch == "+" else ch) for c, ch in enumerate(row))
        for r, row in enumerate(rows))
    return polyfit.Puzzle(polyfit.Board.from_text(art), pieces).count(jobs=1).total


def test_each_target_of_a_small_calendar_equals_its_own_run():
    found = polyfit.atlas(WEEK, jobs=1)
    text = WEEK.read_text()
    assert [t.name for t in found.targets] == "Mon Tue Wed Thu Fri Sat Sun".split()
    for target in found.targets:
        assert target.solutions == separate_count(text, set(target.cells), found.pieces)


def test_each_target_of_a_calendar_with_parity_trouble_equals_a_brute_force():
    """The week with the five tetrominoes: a checkerboard colouring rules out four days. The
    brute force enumerates every filling with the top row optional and groups it itself."""
    found = polyfit.atlas(WEEK, "tetrominoes", jobs=1)
    board = [(r, c) for r in range(3) for c in range(7)]
    pieces = [(p.name, p.cells, True, 1, 1) for p in found.pieces]
    days = "Mon Tue Wed Thu Fri Sat Sun".split()
    expected = Counter()
    for filling in solutions(board, pieces, optional=[(0, c) for c in range(7)]):
        covered = {c for _, cells in filling for c in cells}
        left = [days[c] for r, c in board if (r, c) not in covered]
        expected[" ".join(left)] += 1
    assert {t.name: t.solutions for t in found.targets} == {d: expected[d] for d in days}
    assert sum(expected.values()) == found.solutions
    assert [t.name for t in found.unsolved] == ["Mon", "Wed", "Fri", "Sun"]


def test_any_two_cells_and_a_symmetric_board(tmp_path):
    """'; leave: 2': every pair of '+' cells is a target. The square's symmetries do not merge
    targets: each placement counts (compared with a run per target)."""
    pieces = "tetrominoes:L,tetrominoes:T,trominoes:L,trominoes:I"
    text = f"; pieces: {pieces}\n; leave: 2\n++++\n+##+\n+##+\n++++\n"
    board = tmp_path / "ring.txt"
    board.write_text(text)
    found = polyfit.atlas(board, jobs=1)
    assert len(found.targets) == 12 * 11 // 2
    assert found.targets[0].name == "r0c0 r0c1"
    for target in found.targets:
        assert target.solutions == separate_count(text, set(target.cells), pieces), target.name
    assert sum(t.solutions for t in found.targets) == found.counts.total
    assert len(found.puzzle.symmetries) == 8 and 0 < len(found.unsolved) < len(found.targets)


@pytest.mark.parametrize("leave, names, line, message", [
    ("1 of Mon..Sun, 1 of Sun", None, 3, "cell Sun is in an earlier group too"),
    ("1 of Mon..Fri, 1 of Sat..Mon", None, 3, "Sat..Mon"),
    ("1 of Mon..Xyz", None, 3, "no '+' cell is named 'Xyz' (the names, in reading order: Mon Tue"),
    ("8", None, 3, "at most 7 is allowed"),
    ("0", None, 3, "at least 1 is needed"),
    ("one of Mon..Sun", None, 3, "'; leave:' 'one': write a whole number"),
    ("1 Mon..Sun", None, 3, "write a whole number"),
    ("1 of Mon..Sun", "Mon Tue", 2, "gives 2 names for the board's 7 '+' cells"),
    ("1 of Mon..Sun", "Mon Mon Tue Wed Thu Fri Sat", 2, "'Mon' names two cells"),
])
def test_leave_mistakes_say_where(tmp_path, leave, names, line, message):
    lines = ["; pieces: pentominoes:L,pentominoes:N,pentominoes:P,pentominoes:V",
             f"; names: {names or 'Mon Tue Wed Thu Fri Sat Sun'}", f"; leave: {leave}", "+++++++", "#######", "#######"]
    board = tmp_path / "week.txt"
    board.write_text("\n".join(lines) + "\n")
    result = cli("atlas", board)
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert result.output.startswith(f"polyfit: error: {board}:{line}:")


def test_a_leave_mistake_points_at_its_column(tmp_path):
    board = tmp_path / "week.txt"
    board.write_text("; pieces: pentominoes:L,pentominoes:N,pentominoes:P,pentominoes:V\n"
                     "; names: Mon Tue Wed Thu Fri Sat Sun\n; leave: 1 of Mon..Fri, 1 of Sat..Xyz\n"
                     "+++++++\n#######\n#######\n")
    result = cli("atlas", board)
    line = "; leave: 1 of Mon..Fri, 1 of Sat..Xyz"
    assert f"{board}:3:{line.index('Xyz') + 1}: no '+' cell is named 'Xyz'" in result.output


def test_a_calendar_on_triangles_equals_a_run_per_target():
    """Up and down triangles alike: each group's hole piece lies on both kinds of cell."""
    board = polyfit.Board.from_text("; lattice: triangle\n; pieces: tetriamonds,diamond\n; leave: 1\n ++++++++\n  +++++++\n")
    found = polyfit.atlas(board, jobs=1)
    assert len(found.targets) == 15 and found.solutions > 0 and found.unsolved
    for target in found.targets:
        rest = polyfit.Board(tuple(c for c in board.cells if c not in target.cells), lattice=board.lattice)
        assert target.solutions == polyfit.Puzzle(rest, found.pieces).count(jobs=1).total, target.name


@pytest.mark.parametrize("text, message", [
    ("; names: a b c d\n; leave: 1 of a..b\n++++\n###.\n", "'+' cell c is in no group"),
    ("; leave: 1\n++++\n####\n", "a target leaves 7 of the 8 cells to the pieces, but they cover 6"),
    ("+##\n###\n", "no '; leave:' line"),
    ("; leave: 1\n###\n###\n", "mark the cells that may stay uncovered with '+'"),
    ("; names: a b\n++#\n###\n", "'; names:' names the cells a '; leave:' line leaves uncovered"),
])
def test_boards_that_are_no_calendar_say_why(tmp_path, text, message):
    board = tmp_path / "b.txt"
    board.write_text("; pieces: trominoes\n" + text)
    result = cli("atlas", board)
    assert result.exit_code == 2 and message in result.output, result.output


def test_calendar_text_and_json_on_the_command_line():
    result = cli("atlas", WEEK)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "A week: 7 targets (leave 1 of Mon..Sun), every one with a solution"
    table = lines[lines.index("target  solutions") + 1:]
    counts = [int(line.split()[1]) for line in table]
    assert counts == sorted(counts) and len(counts) == 7  # the hard days first
    data = json.loads(cli("atlas", WEEK, "--json", "--sort", "name").output)
    assert [t["target"] for t in data["targets"]] == "Mon Tue Wed Thu Fri Sat Sun".split()
    assert data["count"] == 7 and data["unsolved"] == []
    assert data["solutions"] == sum(t["solutions"] for t in data["targets"])
    unique = json.loads(cli("atlas", WEEK, "--json", "--unique").output)["targets"]
    assert unique and all(t["solutions"] == 1 for t in unique)
    assert len(json.loads(cli("atlas", WEEK, "--json", "--limit", "2").output)["targets"]) == 2


@pytest.mark.parametrize("args, message", [
    (["--disassemble"], "a calendar board ('; leave:') counts its targets"),
    (["--sort", "level"], "the sorts are count, name"),
    (["--max-states", "10"], "--max-states goes with --disassemble"),
])
def test_calendar_refuses_what_does_not_fit(args, message):
    result = cli("atlas", WEEK, *args)
    assert result.exit_code == 2 and message in result.output


def test_level_sort_needs_disassembly(tmp_path):
    board = tmp_path / "square.txt"
    board.write_text("; pieces: 0..4*one-sided-tetrominoes\n####\n####\n")
    result = cli("atlas", board, "--sort", "level")
    assert result.exit_code == 2 and "needs the assemblies taken apart (--disassemble)" in result.output


def test_jobs_split_a_calendar_the_same_way():
    one = polyfit.atlas(WEEK, "tetrominoes", jobs=1)
    two = polyfit.atlas(WEEK, "tetrominoes", jobs=2)
    assert [(t.name, t.solutions) for t in one.targets] == [(t.name, t.solutions) for t in two.targets]
    assert two.counts.total == one.counts.total


def test_the_docs_python_example_runs(monkeypatch, capsys):
    text = (ROOT / "docs" / "atlas.md").read_text()
    code = text.split("```python\n", 1)[1].split("```", 1)[0]
    monkeypatch.chdir(ROOT)
    exec(compile(code, "docs/atlas.md", "exec"), {})
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "{'A': 1, 'G': 1, 'J': 1, 'S': 2, 'Y': 1} None 1 {'1.2': 1}"
    assert lines[-1] == "[('Wed', 1), ('Fri', 1), ('Thu', 2), ('Mon', 5), ('Tue', 5), ('Sat', 5), ('Sun', 5)]"


def _children(pid: int) -> set[int]:
    kids = set()
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            kids.update(int(k) for k in (task / "children").read_text().split())
        except OSError:  # the thread ended
            pass
    return kids


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads child processes from /proc")
def test_ctrl_c_while_searching_and_taking_apart_leaves_no_process():
    """Ctrl-C with the search's processes and the disassembly's both running: exit 130, the
    message, and every child process gone when the command has exited."""
    import signal
    import subprocess
    import sys
    import time

    proc = subprocess.Popen(
        [sys.executable, "-m", "polyfit", "atlas", str(SOLIDSIX), "--disassemble", "--jobs", "2"],
        cwd=str(ROOT.parent), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        seen: set[int] = set()
        deadline = time.monotonic() + 60
        while len(seen) < 4 and proc.poll() is None and time.monotonic() < deadline:
            seen = _children(proc.pid)  # 2 searching, then 2 more taking apart
            time.sleep(0.02)
        assert len(seen) >= 4, f"never saw both pools running (children: {seen}, exit: {proc.poll()})"
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 130 and out == ""
    assert err == "interrupted: an atlas is shown when its run is complete\n", err
    deadline = time.monotonic() + 5
    while any(Path(f"/proc/{k}").exists() for k in seen) and time.monotonic() < deadline:
        time.sleep(0.05)
    left = [k for k in seen if Path(f"/proc/{k}").exists()]
    assert not left, f"child processes outlived the command: {left}"
