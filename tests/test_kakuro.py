r"""polyfit kakuro (plugins/polyfit-classics): the grid format, the exact cover encoding checked
against brute force on small grids, a published puzzle, and the command's messages.

The plugin is imported from its source folder and registered on a fresh plugin manager, so
these tests need no installation (tests/test_plugins.py installs it)."""

import importlib
import random
import sys
from itertools import permutations, product

import pytest

from polyfit import ParseError, SearchStats, get_plugin_manager
from polyfit.cli import build_app

from helpers import ROOT, run

DIGITS = range(1, 10)

# The example in Wikipedia's Kakuro article ("An easy Kakuro puzzle", Kakuro black box.svg).
PUBLISHED = r"""
#    23\  30\  #     #     27\  12\  16\
\16  .    .    #     17\24 .    .    .
\17  .    .    15\29 .     .    .    .
\35  .    .    .     .     .    12\  #
#    \7   .    .     7\8   .    .    7\
#    11\  10\16 .    .     .    .    .
\21  .    .    .     .     \5   .    .
\6   .    .    .     #     \3   .    .
"""


@pytest.fixture(scope="module")
def classics():
    """The polyfit_classics package from plugins/, imported without installing it."""
    folder = str(ROOT / "plugins" / "polyfit-classics")
    sys.path.insert(0, folder)
    try:
        yield importlib.import_module("polyfit_classics")
    finally:
        sys.path.remove(folder)
        for name in [n for n in sys.modules if n == "polyfit_classics" or n.startswith("polyfit_classics.")]:
            del sys.modules[name]


@pytest.fixture(scope="module")
def kakuro_app(classics):
    pm = get_plugin_manager(load_entrypoints=False)
    pm.register(classics, name="classics")
    return build_app(pm)


# -- an independent reading of the rules, for the checks ------------------------------------


def runs_of(rows):
    """Every run as (way, clue, cells): maximal lines of '.' across and down, and the clue
    number written before each (None when there is none)."""
    runs = []
    for grid, flip in ((rows, False), ([list(col) for col in zip(*rows)], True)):
        for r, row in enumerate(grid):
            c = 0
            while c < len(row):
                if row[c] != ".":
                    c += 1
                    continue
                start = c
                while c < len(row) and row[c] == ".":
                    c += 1
                before = row[start - 1] if start else "#"
                parts = before.split("\\") if "\\" in before else ["", ""]
                number = parts[0] if flip else parts[1]
                cells = [(k, r) if flip else (r, k) for k in range(start, c)]
                runs.append(("down" if flip else "across", int(number) if number else None, cells))
    return runs


def obeys_the_rules(rows, digits):
    return all(
        all(1 <= digits[cell] <= 9 for cell in cells)
        and len({digits[cell] for cell in cells}) == len(cells)
        and sum(digits[cell] for cell in cells) == clue
        for _, clue, cells in runs_of(rows)
    )


def brute_force(rows):
    """Every solution: each run across filled with different digits adding up to its clue, in
    every combination, kept when every run down obeys the rules too."""
    across = [(clue, cells) for way, clue, cells in runs_of(rows) if way == "across"]
    fillings = [
        [dict(zip(cells, p)) for p in permutations(DIGITS, len(cells)) if sum(p) == clue]
        for clue, cells in across
    ]
    found = set()
    for choice in product(*fillings):
        digits = {cell: d for part in choice for cell, d in part.items()}
        if obeys_the_rules(rows, digits):
            found.add(tuple(sorted(digits.items())))
    return found


def random_grid(rng):
    """A small grid: a black first row and column, white cells at random, clues from a random
    filling (one that obeys the all-different rule when a few tries find one), and sometimes
    one clue nudged so that the filling no longer fits."""
    height, width = rng.randint(3, 5), rng.randint(3, 5)
    white = {(r, c) for r in range(1, height) for c in range(1, width) if rng.random() < 0.6}
    rows = [["." if (r, c) in white else "#" for c in range(width)] for r in range(height)]
    runs = runs_of(rows)
    for _ in range(20):
        filling = {cell: rng.randint(1, 9) for cell in white}
        if all(len({filling[cell] for cell in cells}) == len(cells) for _, _, cells in runs):
            break
    nudged = rng.randrange(len(runs)) if runs and rng.random() < 0.3 else None
    down, right = {}, {}
    for k, (way, _, cells) in enumerate(runs):
        r, c = cells[0]
        total = sum(filling[cell] for cell in cells) + (rng.choice((-2, -1, 1, 2)) if k == nudged else 0)
        if way == "down":
            down[r - 1, c] = max(1, total)
        else:
            right[r, c - 1] = max(1, total)
    for cell in set(down) | set(right):
        rows[cell[0]][cell[1]] = f"{down.get(cell, '')}\\{right.get(cell, '')}"
    return rows


def solve_all(kakuro, rows, engine):
    grid = kakuro.parse_kakuro("\n".join(" ".join(row) for row in rows))
    problem, meaning = kakuro.kakuro_problem(grid)
    solutions = engine.solutions(problem, SearchStats())
    return {tuple(sorted(kakuro.solution_digits(s, meaning).items())) for s in solutions}


@pytest.fixture(scope="module")
def small_grids():
    """Random small grids with their brute-force solutions, made once for every backend."""
    rng = random.Random(7)
    grids = [random_grid(rng) for _ in range(60)]
    return [(rows, brute_force(rows)) for rows in grids if any("." in row for row in rows)]


@pytest.mark.slow  # the brute force of small_grids takes seconds
def test_encoding_matches_brute_force(classics, backend, small_grids):
    """On random small grids the exact cover solutions are exactly the brute-force ones."""
    for rows, expected in small_grids:
        assert solve_all(classics.kakuro, rows, backend) == expected, rows
    sizes = [len(expected) for _, expected in small_grids]
    assert 0 in sizes and 1 in sizes and max(sizes) > 1  # the grids cover every outcome


def test_a_full_run_of_nine_must_sum_to_45(classics, backend):
    row = ["\\45"] + ["."] * 9
    top = ["#"] + [f"{d}\\" for d in DIGITS]
    nine = [top, row]
    assert len(solve_all(classics.kakuro, nine, backend)) == 1  # each cell its down clue's digit
    nine[1][0] = "\\44"
    assert solve_all(classics.kakuro, nine, backend) == set()


def test_published_puzzle_unique_and_checked(kakuro_app, tmp_path):
    (tmp_path / "wikipedia.txt").write_text(PUBLISHED)
    result = run(kakuro_app, "kakuro", tmp_path / "wikipedia.txt")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[-1] == "the solution is unique"
    given = [line.split() for line in PUBLISHED.strip().splitlines()]
    solved = [line.split() for line in lines[:-1]]
    assert len(solved) == len(given)
    digits = {}
    for r, (was, now) in enumerate(zip(given, solved)):
        assert len(now) == len(was)
        for c, (before, after) in enumerate(zip(was, now)):
            if before == ".":
                digits[r, c] = int(after)
            else:
                assert after == before
    assert len(digits) == 36 and obeys_the_rules(given, digits)
    assert all(clue is not None for _, clue, _ in runs_of(given))


def test_no_solution_and_not_unique(kakuro_app, tmp_path):
    (tmp_path / "none.txt").write_text("#  1\\ 1\\\n\\2 .  .\n")  # 1 + 1 repeats a digit
    result = run(kakuro_app, "kakuro", tmp_path / "none.txt")
    assert result.exit_code == 0 and result.output == "no solution\n"
    (tmp_path / "two.txt").write_text("#  3\\ 3\\\n\\3 .  .\n\\3 .  .\n")
    result = run(kakuro_app, "kakuro", tmp_path / "two.txt")
    assert result.exit_code == 0 and result.output.splitlines()[-1] == "the solution is not unique"


def test_documented_example(classics, kakuro_app, tmp_path):
    """The small grid in docs/plugins.md and the module's docstring, and what it prints."""
    grid = "#   4\\  3\\\n\\3  .   .\n\\4  .   .\n"
    (tmp_path / "small.txt").write_text(grid)
    result = run(kakuro_app, "kakuro", tmp_path / "small.txt")
    assert result.output == " # 4\\ 3\\\n\\3  1  2\n\\4  3  1\nthe solution is unique\n"
    docs = (ROOT / "docs" / "plugins.md").read_text()
    assert f"```\n{grid}```" in docs and f"```\n{result.output}```" in docs
    assert " # 4\\ 3\\\n    \\3  .   .           \\3  1  2" in classics.kakuro.__doc__


@pytest.mark.parametrize(
    "text, line, column, message",
    [
        ("", 1, 1, "no grid"),
        ("# #\n# #\n", 1, 1, "no white cells"),
        ("# 3\\\n\\3 x\n", 2, 4, "'x' is not a cell"),
        ("; a comment\n\n# 3\\\n\\46 .\n", 4, 1, "from 1 to 45, not 46"),
        ("# 3\\\n\\0 .\n", 2, 1, "from 1 to 45, not 0"),
        ("# 3\\ #\n\\3 .\n", 2, 5, "this row has 2 cells, the first has 3"),
        ("# 3\\\n\\3 . .\n", 2, 6, "this row has 3 cells, the first has 2"),
        (". #\n", 1, 1, "starts a run across but has no across clue to its left"),
        ("# #\n\\3 .\n", 2, 4, "starts a run down but has no down clue above it"),
        ("# 3\\ #\n\\3 . \\4\n", 2, 6, "a clue across with no white cells to sum"),
        ("# 3\\ 5\\\n\\3 . #\n", 1, 6, "a clue down with no white cells to sum"),
        ("\\45" + " ." * 10 + "\n", 1, 1, "a run of 10 white cells"),
    ],
)
def test_parse_errors_name_line_and_column(classics, text, line, column, message):
    with pytest.raises(ParseError) as caught:
        classics.kakuro.parse_kakuro(text, "g.txt")
    assert (caught.value.line, caught.value.column) == (line, column)
    assert message in caught.value.message


def test_bad_input_is_one_line_and_exit_2(kakuro_app, tmp_path):
    (tmp_path / "bad.txt").write_text("# 3\\\n\\3 x\n")
    result = run(kakuro_app, "kakuro", tmp_path / "bad.txt")
    assert result.exit_code == 2
    message = "'x' is not a cell: write '.', '#' or clues such as 16\\23"
    assert result.output == f"polyfit: error: {tmp_path / 'bad.txt'}:2:4: {message}\n"
    missing = run(kakuro_app, "kakuro", tmp_path / "missing.txt")
    assert missing.exit_code == 2 and missing.output.startswith("polyfit: error: cannot read")
    assert len(missing.output.splitlines()) == 1
