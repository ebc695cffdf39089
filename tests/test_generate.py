"""polyfit generate: boards inside an outline with exactly N distinct solutions."""

import os
import re
import subprocess
import sys
import time

import pytest

import polyfit
from helpers import ROOT, group_alive, interrupt, run
from polyfit.lattices.grid import is_connected, neighbours
from polyfit.puzzle import generate as gen
from polyfit.puzzle.generate import box_cells, congruence_key, parse_target


def enclosed(cells, outline):
    """Empty outline cells that cannot reach a cell outside the outline (a flood fill)."""
    inside, shape = set(outline), set(cells)
    empty = inside - shape
    reached = [c for c in empty if any(n not in inside for n in neighbours(c))]
    seen = set(reached)
    while reached:
        for n in neighbours(reached.pop()):
            if n in empty and n not in seen:
                seen.add(n)
                reached.append(n)
    return empty - seen


@pytest.mark.slow
def test_same_seed_same_boards_in_the_same_order():
    first = [b.cells for b in polyfit.generate("soma", "3x3x4", count=3, seed=2)]
    again = [b.cells for b in polyfit.generate("soma", "3x3x4", count=3, seed=2)]
    assert first == again and len(first) == 3


@pytest.mark.slow
@pytest.mark.parametrize("pieces, within, area", [("pentominoes", "9x9", 60), ("soma", "3x3x4", 27)])
def test_boards_keep_the_family_rules_and_count_as_asked(pieces, within, area):
    outline = box_cells(within)
    boards = list(polyfit.generate(pieces, within, count=3, seed=1))
    mirror = gen.reflections_allowed(polyfit.pieces(pieces))
    assert len(boards) == 3 == len({congruence_key(b.cells, mirror) for b in boards})
    for board in boards:
        assert len(board.cells) == area
        assert set(board.cells) <= set(outline)
        assert is_connected(board.cells)
        assert not enclosed(board.cells, outline)
        assert polyfit.Puzzle(board, pieces).count(jobs=1).distinct == 1


def test_a_range_of_solutions():
    assert parse_target("1..3") == (1, 3) and parse_target("2") == (2, 2)
    with pytest.raises(polyfit.PolyfitError):
        parse_target("3..1")
    board = next(polyfit.generate("soma", "3x3x4", solutions="2..3", seed=1))
    assert 2 <= polyfit.Puzzle(board, "soma").count(jobs=1).distinct <= 3


@pytest.mark.slow
def test_congruent_shapes_are_one():
    shape = [(0, 0), (0, 1), (0, 2), (1, 0)]
    turned = [(c, -r) for r, c in shape]
    mirrored = [(r, -c) for r, c in shape]
    assert congruence_key(shape, False) == congruence_key(turned, False)
    assert congruence_key(shape, False) != congruence_key(mirrored, False)
    assert congruence_key(shape, True) == congruence_key(mirrored, True)
    # Boards already known are not found again.
    first = next(polyfit.generate("soma", "3x3x4", seed=1))
    other = next(polyfit.generate("soma", "3x3x4", seed=1, known=[first.cells]))
    assert congruence_key(other.cells, True) != congruence_key(first.cells, True)


@pytest.mark.slow
def test_the_command_writes_boards_that_solve_counts_once(app, tmp_path):
    out = tmp_path / "figures"
    result = run(app, "generate", "--pieces", "soma", "--within", "3x3x4", "--count", "3",
                 "--seed", "1", "--out", out)
    assert result.exit_code == 0, result.output
    boards = sorted(out.glob("*.vox"))
    assert [b.name for b in boards] == ["board-001.vox", "board-002.vox", "board-003.vox"]
    index = (out / "README.md").read_text()
    for board in boards:
        text = board.read_text()
        assert "; pieces: soma\n" in text and "; solutions: 1\n" in text
        assert "; generated: polyfit generate --pieces soma --within 3x3x4 --solutions 1 --seed 1\n" in text
        assert board.with_suffix(".png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert board.name in index
        counted = run(app, "solve", board, "--count")
        assert counted.exit_code == 0 and "1 distinct solution" in counted.output, counted.output

    # Nothing is overwritten without --force: the index is there, so the run is refused.
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    again = run(app, "generate", "--pieces", "soma", "--within", "3x3x4", "--count", "2",
                "--seed", "1", "--out", out)
    assert again.exit_code == 2 and "--force" in again.output
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before

    # Without the index, new boards go beside the old ones, none congruent to them.
    (out / "README.md").unlink()
    more = run(app, "generate", "--pieces", "soma", "--within", "3x3x4", "--count", "2",
               "--seed", "1", "--out", out)
    assert more.exit_code == 0, more.output
    for name, data in before.items():
        if name != "README.md":
            assert (out / name).read_bytes() == data
    keys = [congruence_key(polyfit.read_board(p).cells, True) for p in sorted(out.glob("*.vox"))]
    assert len(keys) == 5 == len(set(keys))


@pytest.mark.slow
def test_symmetric_shapes_have_a_symmetry(app, tmp_path):
    result = run(app, "generate", "--pieces", "pentominoes", "--within", "9x9", "--count", "2",
                 "--seed", "3", "--symmetric", "any", "--out", tmp_path)
    assert result.exit_code == 0, result.output
    for board in sorted(tmp_path.glob("*.txt")):
        counted = run(app, "solve", board, "--count")
        order = int(re.search(r"symmetry group of order (\d+)", counted.output).group(1))
        assert order > 1 and "1 distinct solution" in counted.output
    for kind in ("mirror", "rotation"):
        board = next(polyfit.generate("soma", "3x3x4", seed=1, symmetric=kind))
        assert len(polyfit.Puzzle(board, "soma").symmetries) > 1


@pytest.mark.slow
def test_ctrl_c_keeps_what_was_found(app, tmp_path, monkeypatch):
    real, calls = gen.count_capped, []

    def interrupted_later(*args):
        calls.append(1)
        if len(calls) > 120:
            raise KeyboardInterrupt
        return real(*args)

    monkeypatch.setattr(gen, "count_capped", interrupted_later)
    result = run(app, "generate", "--pieces", "soma", "--within", "3x3x4", "--count", "50",
                 "--seed", "1", "--out", tmp_path)
    assert result.exit_code == 130, result.output
    written = sorted(tmp_path.glob("*.vox"))
    assert written and "(interrupted)" in result.output
    assert all(p.name in (tmp_path / "README.md").read_text() for p in written)


def test_help_and_errors(app, tmp_path):
    result = run(app, "generate", "--help")
    assert result.exit_code == 0 and "Example: polyfit generate" in result.output
    small = run(app, "generate", "--pieces", "pentominoes", "--within", "6x6", "--out", tmp_path)
    assert small.exit_code == 2 and "outline has only 36" in small.output
    time_up = run(app, "generate", "--pieces", "pentominoes", "--within", "9x9", "--count", "3",
                  "--time", "0", "--out", tmp_path / "none")
    assert time_up.exit_code == 0 and "0 boards found of 3 (time is up)" in time_up.output


# -- the families: --flat, --holes, --from with --remove / --add -----------------------------


def test_every_shipped_soma_figure_stands_and_a_hanging_cube_does_not():
    figures = sorted((ROOT / "shapes" / "soma").glob("*.vox"))
    assert len(figures) == 42
    assert all(gen.stands(polyfit.read_board(p).cells) for p in figures)
    # An arch stands; take away the foot of one pillar and that pillar hangs from the top.
    arch = {(0, 0, 0), (1, 0, 0), (2, 0, 0), (2, 0, 1), (2, 0, 2), (1, 0, 2), (0, 0, 2)}
    assert gen.stands(arch) and not gen.stands(arch - {(0, 0, 2)})
    # A cube beside one that stands is held by it; the lowest layer need not be layer 0.
    assert gen.stands({(1, 0, 0), (1, 0, 1), (2, 0, 1), (2, 0, 2)})


@pytest.mark.slow
def test_flat_figures_stand_on_their_lowest_layer():
    boards = list(polyfit.generate("soma", "3x3x4", count=3, seed=4, flat=True))
    assert len(boards) == 3
    for board in boards:
        assert len(board.cells) == 27 and is_connected(board.cells) and gen.stands(board.cells)
    with pytest.raises(polyfit.PolyfitError, match="--flat is for 3D"):
        next(polyfit.generate("pentominoes", "9x9", flat=True))


@pytest.mark.slow
def test_holes_are_allowed_only_when_asked():
    family = gen.Family(box_cells("4x4"), 15, None, gen.random.Random(0))
    ring = frozenset(box_cells("4x4")) - {(1, 1)}
    assert not family.allowed(ring)
    assert gen.Family(box_cells("4x4"), 15, None, gen.random.Random(0), holes=True).allowed(ring)
    outline = box_cells("9x9")
    boards = list(polyfit.generate("pentominoes", "9x9", count=3, seed=1, holes=True))
    assert len(boards) == 3 and any(enclosed(b.cells, outline) for b in boards)
    for board in boards:
        assert len(board.cells) == 60 and is_connected(board.cells)
        assert polyfit.Puzzle(board, "pentominoes").count(jobs=1).distinct == 1


def test_from_a_board_with_cells_added(tmp_path):
    box = polyfit.read_board(ROOT / "shapes" / "tetromino" / "4x5.txt")
    pieces = "tetrominoes,tetrominoes:T=2"  # 24 cells: the 4x5 box and 4 more
    grown = {(r, c) for r in range(-1, 5) for c in range(-1, 6)}
    boards = list(polyfit.generate(pieces, base=box, add=4, count=3, seed=1))
    assert len(boards) == 3
    for board in boards:
        cells = set(board.cells)
        assert len(cells) == 24 and set(box.cells) < cells <= grown and is_connected(cells)
        assert not enclosed(cells, grown)
        assert polyfit.Puzzle(board, pieces).count(jobs=1).distinct == 1
    # K is the difference of the areas; a K that does not match says which one does.
    inferred = next(polyfit.generate(pieces, base=box, seed=1))
    assert inferred.cells == boards[0].cells
    with pytest.raises(polyfit.PolyfitError, match=r"--add 3 makes 23 cells .* cover 24 cells: .*use --add 4"):
        next(polyfit.generate(pieces, base=box, add=3))
    with pytest.raises(polyfit.PolyfitError, match="exactly"):
        next(polyfit.generate("tetrominoes", base=ROOT / "shapes" / "tetromino" / "4x5.txt"))


def test_from_a_board_with_cells_removed(app, tmp_path, monkeypatch):
    square = tmp_path / "5x5.txt"
    square.write_text("; name: 5x5\n" + "#####\n" * 5)
    out = tmp_path / "out"
    result = run(app, "generate", "--pieces", "tetrominoes", "--from", square, "--remove", "5",
                 "--count", "2", "--seed", "2", "--out", out)
    assert result.exit_code == 0, result.output
    written = sorted(out.glob("*.txt"))
    assert len(written) == 2
    for path in written:
        board = polyfit.read_board(path)
        assert len(board.cells) == 20 and set(board.cells) < set(box_cells("5x5"))
        assert is_connected(board.cells) and not enclosed(board.cells, box_cells("5x5"))
        assert f"; generated: polyfit generate --pieces tetrominoes --from {square} --remove 5 " in path.read_text()
        assert polyfit.Puzzle(board, "tetrominoes").count(jobs=1).distinct == 1
    wrong = run(app, "generate", "--pieces", "tetrominoes", "--from", square, "--remove", "1",
                "--out", tmp_path / "x")
    assert wrong.exit_code == 2 and "use --remove 5" in wrong.output
    both = run(app, "generate", "--pieces", "tetrominoes", "--from", square, "--within", "5x5",
               "--out", tmp_path / "x")
    assert both.exit_code == 2 and "--within" in both.output and not (tmp_path / "x").exists()
    # A family with no board to offer: the 5x5 square less one cell, with six tetrominoes.
    monkeypatch.setattr(gen, "GIVE_UP", 20)
    assert list(polyfit.generate("tetrominoes,tetrominoes:L=2", base=square, remove=1, count=2)) == []


@pytest.mark.slow
def test_min_difficulty_is_the_checks_difficulty(app, tmp_path):
    result = run(app, "generate", "--pieces", "soma", "--within", "3x3x4", "--count", "2", "--seed", "1",
                 "--min-difficulty", "1.7", "--out", tmp_path)
    assert result.exit_code == 0, result.output
    boards = sorted(tmp_path.glob("*.vox"))
    assert len(boards) == 2
    for path in boards:
        score = float(re.search(r"; difficulty: ([\d.]+)\n", path.read_text()).group(1))
        assert score >= 1.7
        assert polyfit.check(polyfit.read_board(path)).difficulty["score"] == score
    assert "--min-difficulty 1.7" in (tmp_path / "README.md").read_text()


# -- several processes ------------------------------------------------------------------------


@pytest.mark.slow
def test_jobs_find_valid_boards_and_worker_0_is_the_serial_search():
    assert gen.worker_seed(7, 0) == 7 and gen.worker_seed(7, 1) != gen.worker_seed(7, 2)
    boards = list(polyfit.generate("soma", "3x3x4", count=4, seed=1, jobs=2))
    keys = {congruence_key(b.cells, True) for b in boards}
    assert len(boards) == 4 == len(keys)
    for board in boards:
        assert len(board.cells) == 27 and is_connected(board.cells)
        assert polyfit.Puzzle(board, "soma").count(jobs=1).distinct == 1


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(os, "killpg"), reason="needs process groups")
def test_ctrl_c_with_jobs_keeps_the_boards_and_leaves_no_worker(tmp_path):
    out = tmp_path / "out"
    args = ["generate", "--pieces", "soma", "--within", "3x3x4", "--count", "100000", "--seed", "1",
            "--jobs", "2", "--time", "120", "--out", str(out)]
    proc, stdout, stderr = interrupt(args, ROOT.parent, lambda: len(list(out.glob("*.vox"))) >= 3, wait=90)
    assert proc.returncode == 130, stderr
    assert "Traceback" not in stderr and stderr == "", stderr
    assert "(interrupted)" in stdout
    written = sorted(out.glob("*.vox"))
    index = (out / "README.md").read_text()
    assert len(written) >= 3 and all(p.name in index for p in written)
    deadline = time.monotonic() + 10
    while group_alive(proc.pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not group_alive(proc.pid), "a worker outlived the command"


def test_the_shipped_generated_boards_are_what_their_lines_say():
    paths = sorted((ROOT / "shapes" / "generated").rglob("board-*.*"))
    boards = [p for p in paths if p.suffix in (".txt", ".vox")]
    assert len(boards) == 8
    for path in boards:
        board = polyfit.read_board(path)
        generated = board.metadata["generated"]
        assert generated.startswith("polyfit generate --pieces ") and "--symmetric mirror" in generated
        puzzle = polyfit.Puzzle(board, board.metadata["pieces"])
        assert puzzle.count(jobs=1).distinct == int(board.metadata["solutions"]) == 1
        assert len(puzzle.symmetries) > 1
        if board.dim == 3:
            assert "--flat" in generated and gen.stands(board.cells)
        assert path.with_suffix(".png").read_bytes()[:4] == b"\x89PNG"


def terminal_run(args) -> str:
    """A polyfit run with a terminal for stdout and stderr: everything it wrote there."""
    controller, terminal = os.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "polyfit", *map(str, args)], cwd=str(ROOT.parent),
                            stdout=terminal, stderr=terminal, env={**os.environ, "COLUMNS": "100"})
    os.close(terminal)
    chunks = []
    while True:
        try:
            data = os.read(controller, 4096)
        except OSError:  # the run ended and closed the terminal
            break
        if not data:
            break
        chunks.append(data)
    proc.wait(timeout=60)
    os.close(controller)
    return b"".join(chunks).decode(errors="replace")


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")
def test_a_progress_bar_on_terminals_only_and_not_with_quiet(tmp_path):
    args = ["generate", "--pieces", "soma", "--within", "3x3x4", "--seed", "1"]
    shown = terminal_run([*args, "--out", tmp_path / "a"])
    assert "generating" in shown and "shapes tried" in shown and "/1 boards" in shown
    assert "1 board found of 1" in shown
    quiet = terminal_run([*args, "--quiet", "--out", tmp_path / "b"])
    assert "generating" not in quiet and "1 board found of 1" in quiet
