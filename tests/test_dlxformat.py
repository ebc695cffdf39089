import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyfit.dlxformat import format_dlx, parse_dlx, read_dlx
from polyfit.errors import ParseError, PolyfitError
from polyfit.exactcover import ExactCoverProblem

from conftest import ROOT


def pentomino_problem(path):
    """The full (not symmetry-broken) exact cover problem of a pentomino board."""
    from polyfit.board import read_text_board
    from polyfit.piece_sets import polyominoes
    from polyfit.solve import Puzzle

    return Puzzle(read_text_board(path), polyominoes(5), break_symmetry=False).cover.problem


def test_parse_items_options_comments_and_secondary():
    text = "| a comment\nA B C | x y\n\nA x\n  | another comment\nB C y\nC\n"
    problem, lines = parse_dlx(text)
    assert problem.primary == ["A", "B", "C"]
    assert problem.secondary == ["x", "y"]
    assert problem.options == [(0, 3), (1, 2, 4), (2,)]
    assert lines == ["A x", "B C y", "C"]


@pytest.mark.parametrize(
    "text, line, column, words",
    [
        ("", 1, 1, "no item line"),
        ("A B\nA Q\n", 2, 3, "unknown item 'Q'"),
        ("A B\nA B A\n", 2, 5, "appears twice"),
        ("A B A\n", 1, 5, "named twice"),
        ("A | B | C\n", 1, 7, "second '|'"),
        ("A B\nA:red B\n", 2, 1, "colours"),
        ("1:3|A B\n", 1, 1, "multiplicities"),
    ],
)
def test_errors_name_line_and_column(text, line, column, words):
    with pytest.raises(ParseError) as info:
        parse_dlx(text, "p.dlx")
    assert (info.value.line, info.value.column) == (line, column)
    assert words in str(info.value)


def test_round_trip_of_a_real_problem(tmp_path):
    problem = pentomino_problem(ROOT / "shapes/pentomino/3x20.txt")
    path = tmp_path / "p.dlx"
    path.write_text(format_dlx(problem, "3x20"))
    again, _ = read_dlx(path)
    assert again == problem


@settings(max_examples=300)
@given(st.text(alphabet=st.sampled_from("AB x|:\n \t1"), max_size=60))
def test_random_text_gives_a_problem_or_a_parse_error(text):
    try:
        problem, _ = parse_dlx(text)
    except ParseError as err:
        assert err.line >= 1 and err.column >= 1
    else:
        problem.validate()
        assert parse_dlx(format_dlx(problem))[0] == problem


@settings(max_examples=200)
@given(st.binary(max_size=60))
def test_random_bytes_give_a_problem_or_a_documented_error(tmp_path_factory, data):
    path = tmp_path_factory.mktemp("dlx") / "p.dlx"
    path.write_bytes(data)
    try:
        read_dlx(path)
    except PolyfitError:
        pass


def test_format_without_secondary_items():
    text = format_dlx(ExactCoverProblem(["a", "b"], [], [(0,), (1, 0)]))
    assert text == "a b\na\nb a\n"
