"""What polyfit says: file errors in one form ("cannot VERB FILE: reason"), and counts in
words that agree with their number ("1 piece", never "1 pieces")."""

import shutil
from pathlib import Path

import pytest

from polyfit.errors import PolyfitError
from polyfit.files import check_writable, cannot

from helpers import built_in_set, run

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


# -- counts in words ------------------------------------------------------------------------


def test_plural_agrees_with_the_count():
    from polyfit.errors import plural

    assert plural(1, "piece") == "1 piece"
    assert plural(0, "piece") == "0 pieces"
    assert plural(2, "copy", "copies") == "2 copies"
    assert plural(1, "copy", "copies") == "1 copy"
    assert plural(1200, "step", spec=",") == "1,200 steps"
    assert plural(1, "piece", spec="4d") == "   1 piece"


def board_file(tmp_path, art):
    path = tmp_path / "board.txt"
    path.write_text(art)
    return path


@pytest.mark.parametrize(
    "art, pieces, words",
    [
        ("##", "monomino", "area 2 but the 1 piece has total area 1"),
        ("####", "0..1*domino", "board.txt: 4 cells, 0 of them optional; the pieces cover between 0 and 2"),
        ("#++", "domino=2", "the pieces cover 4 cells, but the board needs 1 to 3"),
        ("##+", "monomino", "the pieces cover 1 cell, but the board needs 2 to 3"),
        ("L###", "tetrominoes", "board.txt:1:1: the 1 cell marked 'L' is not the shape of piece L (4 cells)"),
        ("MM", "monomino,domino", "board.txt:1:1: the 2 cells marked 'M' are not the shape of piece M (1 cell)"),
    ],
)
def test_messages_with_a_count_of_one(app, tmp_path, art, pieces, words):
    result = run(app, "solve", board_file(tmp_path, art), "--pieces", pieces)
    assert result.exit_code == 2
    text = " ".join(result.output.replace(str(tmp_path) + "/", "").split())
    assert words in text


@pytest.mark.parametrize("art, pieces, why", [
    ("#", "0..1*domino", "board.txt: 1 cell, 0 of them optional; the pieces cover between 0 and 2 cells "
                         "depending on the counts, but no choice of them covers 1"),
    ("#####", "0..2*domino,tetrominoes:O=0..1", "board.txt: 5 cells, 0 of them optional; the pieces cover "
                                                  "between 0 and 8 cells depending on the counts, but no choice "
                                                  "of them covers 5"),
])
def test_counts_that_straddle_the_board_but_never_add_up_give_no_solution(app, tmp_path, art, pieces, why):
    """Not an error: the least and the most the pieces cover straddle the board, so the
    puzzle is sound; no choice of counts adds up, so it has no solution (BurrTools counts 0
    assemblies), and polyfit says why without a search."""
    for count in ("--count",), ():
        result = run(app, "solve", board_file(tmp_path, art), "--pieces", pieces, *count)
        assert result.exit_code == 0, result.output
        text = " ".join(result.output.replace(str(tmp_path) + "/", "").split())
        assert "0 distinct solutions, 0 in all" in text and f"no solution: {why}" in text
    result = run(app, "check", board_file(tmp_path, art), "--pieces", pieces)
    assert "none (no solution)" in result.output


def test_one_stl_file_and_one_tile(app, tmp_path):
    kit = tmp_path / "kit"
    kit.mkdir()
    result = run(app, "kit", "monomino", "--stl", kit)
    assert result.exit_code == 0 and "wrote 1 STL file to " in result.output and ": 1 tile (" in result.output
    result = run(app, "solve", board_file(tmp_path, "#"), "--pieces", "monomino", "--stl", kit, "--force")
    assert result.exit_code == 0 and "wrote 1 STL file to " in result.output


def test_the_piece_set_list_says_1_piece(app):
    lines = run(app, "pieces").output.splitlines()
    monomino = next(line for line in lines if line.startswith("monomino "))
    assert " 1 piece " in monomino and "1 pieces" not in monomino
    # The summaries still line up after the singular.
    tetrominoes = next(line for line in lines if line.startswith("tetrominoes "))
    assert monomino.index("the single") == tetrominoes.index("the 5 free")


def test_a_solution_after_1_step():
    from types import SimpleNamespace

    from polyfit.formats.textart import parse_board_text
    from polyfit.puzzle.solve import Puzzle
    from polyfit.render.animate import caption_for

    puzzle = Puzzle(parse_board_text("#"), built_in_set("monomino"))
    assert caption_for(puzzle, 1, SimpleNamespace(kind="solution"), 1, True) == "solution after 1 step"


def test_a_truncated_vox_needs_1_more_byte():
    from polyfit.errors import ParseError
    from polyfit.formats.magicavoxel import _Reader

    with pytest.raises(ParseError, match="needs 1 more byte, 0 left$"):
        _Reader(b"", "x.vox").take(1)
