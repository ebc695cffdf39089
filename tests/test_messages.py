"""What polyfit says: file errors in one form ("cannot VERB FILE: reason"), and counts in
words that agree with their number ("1 piece", never "1 pieces")."""

import shutil
from pathlib import Path

import pytest

from polyfit.errors import PolyfitError
from polyfit.files import check_writable, cannot

from conftest import built_in_set, run

ROOT = Path(__file__).resolve().parent.parent


# -- cannot read / write FILE: reason -------------------------------------------------------


def test_cannot_gives_the_systems_reason_or_the_one_given():
    assert str(cannot("read", "a.txt", FileNotFoundError(2, "No such file or directory"))) == (
        "cannot read a.txt: No such file or directory"
    )
    assert str(cannot("write", "b.png", "the disk is full")) == "cannot write b.png: the disk is full"
    assert str(cannot("read", "c", ValueError("embedded null byte"))) == "cannot read c: embedded null byte"


def test_writing_into_a_missing_directory(tmp_path):
    with pytest.raises(PolyfitError, match=r"^cannot write .*x.png: directory .*nope does not exist$"):
        check_writable(tmp_path / "nope" / "x.png", force=False)


def test_a_gif_that_cannot_be_written(tmp_path):
    from polyfit.formats.piece_specs import resolve_pieces
    from polyfit.formats.textart import read_text_board
    from polyfit.puzzle.solve import Puzzle
    from polyfit.render.animate import animate

    board = read_text_board(ROOT / "shapes/pentomino/3x20.txt")
    puzzle = Puzzle(board, resolve_pieces("pentominoes", {"pentominoes": (lambda: built_in_set("pentominoes"), "")}))
    (tmp_path / "file").write_text("")
    with pytest.raises(PolyfitError, match=r"^cannot write .*file/x.gif: Not a directory$"):
        animate(puzzle, tmp_path / "file" / "x.gif", frames=3)


def test_a_gallery_whose_readme_cannot_be_written(app, tmp_path):
    shapes = tmp_path / "shapes"
    shapes.mkdir()
    shutil.copy(ROOT / "shapes/pentomino/3x20.txt", shapes)
    out = tmp_path / "gallery"
    (out / "README.md").mkdir(parents=True)
    result = run(app, "gallery", "--shapes", shapes, "--out", out)
    assert result.exit_code == 2
    assert f"cannot write {out / 'README.md'}: Is a directory" in result.output
    (tmp_path / "file").write_text("")
    result = run(app, "gallery", "--shapes", shapes, "--out", tmp_path / "file" / "g")
    assert result.exit_code == 2 and f"cannot create {tmp_path / 'file' / 'g'}: Not a directory" in result.output


def test_a_solutions_file_that_is_not_text(app, tmp_path):
    path = tmp_path / "s.json"
    path.write_bytes(b"\xff\xfe{")
    result = run(app, "render", path, "--png", tmp_path / "r.png")
    assert result.exit_code == 2 and "is not a JSON solutions file" in result.output
