import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyfit.xc.dlxformat import format_dlx, parse_dlx, read_dlx
from polyfit.errors import ParseError, PolyfitError
from polyfit.xc.problem import ExactCoverProblem

from helpers import ROOT

from helpers import KNUTH_DLX2, KNUTH_DLX3, pentomino_problem


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
        ("A B\nA:red B\n", 2, 1, "only secondary items (after '|') take a colour"),
        ("A | X\nA X:\n", 2, 3, "no colour after ':'"),
        ("A | 2|X\n", 1, 5, "only primary items (before '|') take multiplicities"),
        ("3:1|A\n", 1, 1, "need lo <= hi"),
        ("x:2|A\n", 1, 1, "whole number with the digits 0-9"),
        ("A B:C\n", 1, 3, "bad item name"),
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


# Knuth's own small examples, from the introductions of his programs dlx2 and dlx3.
def test_knuths_dlx2_and_dlx3_examples_parse_to_colours_and_bounds():
    problem, lines = parse_dlx(KNUTH_DLX2)
    assert problem.colour_names == ["0", "1"] and problem.bounds == []
    assert problem.colours[0] == (0, 0, 1, 1) and problem.colours[2] == (1, 2)
    problem, _ = parse_dlx(KNUTH_DLX3)
    assert problem.bounds == [(1, 1), (1, 1), (2, 3)]
    assert problem.needs == {"secondary", "colours", "multiplicities"}
    again, _ = parse_dlx(format_dlx(problem))
    assert (again.primary, again.secondary, again.options) == (problem.primary, problem.secondary, problem.options)
    assert (again.bounds, again.colours, again.colour_names) == (problem.bounds, problem.colours, problem.colour_names)


@pytest.mark.parametrize(
    "text, expected",
    [
        # "The unique solution consists of rows A C X:1 Y:1 and B X:1." (dlx2)
        (KNUTH_DLX2, [["A C X:1 Y:1", "B X:1"]]),
        # "The unique solution consists of rows A C X:1 Y:1, B X:1, C Y:1." (dlx3)
        (KNUTH_DLX3, [["A C X:1 Y:1", "B X:1", "C Y:1"]]),
    ],
)
def test_polyfit_xc_reproduces_knuths_published_solutions(tmp_path, text, expected):
    from helpers import run_cli

    path = tmp_path / "example.dlx"
    path.write_text(text)
    for backend in ("dlx-python", "dlx-c", "auto"):
        result = run_cli(["xc", str(path), "--json", "--backend", backend])
        assert result.exit_code == 0, result.output
        data = json.loads(result.output)
        assert [sorted(s) for s in data["solutions"]] == [sorted(s) for s in expected]
        assert data["total"] == 1 and data["complete"]


def test_one_long_option_is_read_in_time_near_its_length():
    """The reproducer: each item of an option was looked for in the option so far, so one
    option of n items took time n squared (20,000 items: 3.2 s; 50,000: over a minute). A
    watchdog, not a timing: 100,000 items take about a second now, and would take many
    minutes (far past the minute allowed) read the old way. benchmarks/long_options.py times
    it."""
    import signal

    names = [f"i{k}" for k in range(100_000)]
    text = " ".join(names) + "\n" + " ".join(reversed(names)) + "\n"

    def too_slow(signum, frame):
        raise TimeoutError("reading one option of 100,000 items took over a minute")

    old = signal.signal(signal.SIGALRM, too_slow)
    signal.alarm(60)
    try:
        problem, _ = parse_dlx(text)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    assert problem.options == [tuple(range(99_999, -1, -1))]
    with pytest.raises(ParseError, match="'i0' appears twice in this option"):
        parse_dlx(" ".join(names) + "\n" + " ".join(names) + " i0\n")
