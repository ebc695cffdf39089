"""polyfit generate: boards inside an outline with exactly N distinct solutions."""

import re

import pytest

import polyfit
from helpers import run
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


def test_same_seed_same_boards_in_the_same_order():
    first = [b.cells for b in polyfit.generate("soma", "3x3x4", count=3, seed=2)]
    again = [b.cells for b in polyfit.generate("soma", "3x3x4", count=3, seed=2)]
    assert first == again and len(first) == 3


@pytest.mark.parametrize("pieces, within, area", [("pentominoes", "9x9", 60), ("soma", "3x3x4", 27)])
def test_boards_keep_the_family_rules_and_count_as_asked(pieces, within, area):
    outline = box_cells(within)
    boards = list(polyfit.generate(pieces, within, count=2, seed=1))
    assert len(boards) == 2
    mirror = gen.reflections_allowed(polyfit.pieces(pieces))
    assert congruence_key(boards[0].cells, mirror) != congruence_key(boards[1].cells, mirror)
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
