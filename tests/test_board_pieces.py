"""Pieces checked against the board, once, for every face: a board's dimension and lattice must
be its pieces'. 3D pieces on a flat board, or triangles on squares, are one clear error from
every command and from the API (the studio's /api/check calls the API), never a traceback and
never a verdict about a puzzle that cannot exist ("symmetry group of order 0")."""

import pytest

import polyfit
from polyfit import PolyfitError

from helpers import ROOT, run_cli

SHAPES = ROOT / "shapes"
FLAT = SHAPES / "pentomino" / "6x10.txt"
CUBE = SHAPES / "soma" / "cube.vox"

MISMATCHES = [
    (FLAT, "soma", "6x10 box is 2D but the pieces are 3D"),
    (CUBE, "tetriamonds", "Soma cube is 3D but the pieces are 2D"),
    (CUBE, "pentominoes", "Soma cube is 3D but the pieces are 2D"),
    (FLAT, "tetrahexes", "6x10 box is drawn on the square lattice but the pieces are on the hex lattice"),
    (FLAT, "pentominoes,tetrahexes", "6x10 box is drawn on the square lattice but 7 pieces (I4, J, O, P4, S, U4, ...) are on the hex lattice"),
]


def one_error(result, words):
    """Exit code 2 and one line, ``polyfit: error: WORDS...``."""
    assert result.exit_code == 2, result.output
    assert result.output.startswith(f"polyfit: error: {words}"), result.output
    assert result.output.count("\n") == 1, result.output


@pytest.mark.parametrize("board, pieces, words", MISMATCHES)
def test_check_refuses_pieces_that_are_not_of_the_board_s_dimension_or_lattice(board, pieces, words):
    """The reproducers: the first two were tracebacks, the next two exited 0 with a verdict
    and "symmetry group of order 0"."""
    one_error(run_cli(["check", str(board), "--pieces", pieces]), words)
    one_error(run_cli(["check", str(board), "--pieces", pieces, "--json"]), words)


@pytest.mark.parametrize(
    "command",
    [
        ["solve", "{board}", "--count"],
        ["solve", "{board}", "--limit", "1"],
        ["hint", "{board}"],
        ["estimate", "{board}"],
        ["export-dlx", "{board}"],
        ["split", "{board}", "--out", "{tmp}/jobs"],
        ["convert", "{board}", "{tmp}/copy{suffix}"],
    ],
)
@pytest.mark.parametrize("board, pieces, words", MISMATCHES[:4])
def test_every_command_says_the_same(tmp_path, command, board, pieces, words):
    args = [a.format(board=board, tmp=tmp_path, suffix=board.suffix) for a in command]
    one_error(run_cli([*args, "--pieces", pieces]), words)
    assert not list(tmp_path.iterdir())  # nothing written


def test_generate_says_it_of_its_outline(tmp_path):
    one_error(run_cli(["generate", "--pieces", "soma", "--within", "8x8", "-o", str(tmp_path / "g")]),
              "the outline is 2D but the pieces are 3D")
    one_error(run_cli(["generate", "--pieces", "tetriamonds", "--within", "3x3x3", "-o", str(tmp_path / "g")]),
              "the outline is 3D but the pieces are 2D")


@pytest.mark.parametrize("board, pieces, words", MISMATCHES)
def test_the_api_raises_the_same_error(board, pieces, words):
    read = polyfit.read_board(board)
    with pytest.raises(PolyfitError, match="^" + words.replace("(", r"\(").replace(")", r"\)")):
        polyfit.check(read, pieces)
    with pytest.raises(PolyfitError, match="^" + words.replace("(", r"\(").replace(")", r"\)")):
        polyfit.Puzzle(read, pieces)


def test_pieces_of_the_board_s_kind_still_check():
    result = run_cli(["check", str(CUBE), "--pieces", "soma", "--forced-limit", "0"])
    assert result.exit_code == 0 and "symmetry group of order 48" in result.output, result.output


@pytest.mark.parametrize("board, pieces, words", MISMATCHES[:4])
def test_the_studio_answers_400_with_the_same_words(tmp_path, board, pieces, words):
    """The studio's /api/check runs the API in a worker: the same error, as a 400 (it was a 500)."""
    pytest.importorskip("starlette", reason="polyfit studio needs pip install 'polyfit[studio]'")
    from starlette.testclient import TestClient

    from polyfit.studio.app import create_app

    with TestClient(create_app(tmp_path, 8765), base_url="http://127.0.0.1:8765") as client:
        answer = client.post("/api/check", json={"board": board.read_text(), "pieces": pieces, "dim": board_dim(board)})
    assert answer.status_code == 400, answer.text
    assert answer.json()["error"].startswith(words), answer.text


def board_dim(path):
    return 3 if path.suffix == ".vox" else 2
