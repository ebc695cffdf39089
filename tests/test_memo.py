"""count-memo and its Python twin: counts against brute force and the other backends, with
multiplicities, secondary items and a cache too small to hold anything; distinct counts by
Burnside's lemma against enumeration; tilings counted in the OEIS."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from helpers import ROOT, brute_force, built_in_registry, general_problems, native, problems, queens, run_cli

from polyfit.dlx.memo import PythonMemoBackend, prepare
from polyfit.puzzle.burnside import parse_memory
from polyfit.errors import PolyfitError
from polyfit.formats.textart import parse_board_text, read_text_board
from polyfit.puzzle.solve import Puzzle
from polyfit.xc.problem import ExactCoverProblem, SearchStats

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


@pytest.fixture
def memo_c():
    return native("count-memo")


def counted(backend, problem):
    stats = SearchStats()
    return backend.count(problem, stats), stats.nodes


def without_colours(problem):
    return replace(problem, colours=[], colour_names=[])


@SETTINGS
@given(problems())
def test_the_twins_count_what_brute_force_finds(memo_c, problem):
    expected = len(brute_force(problem))
    python = PythonMemoBackend()
    assert counted(python, problem) == counted(memo_c, problem)
    assert counted(python, problem)[0] == expected
    found = [frozenset(s) for s in memo_c.solutions(problem, SearchStats())]
    assert len(found) == len(set(found)) and set(found) == brute_force(problem)


@pytest.mark.slow
@SETTINGS
@given(general_problems())
def test_multiplicities_count_as_algorithm_m_does(memo_c, problem):
    problem = without_colours(problem)
    expected = len(brute_force(problem))
    python = PythonMemoBackend()
    assert counted(python, problem) == counted(memo_c, problem)
    assert counted(memo_c, problem)[0] == expected
    dlx = built_in_registry().backends["dlx-python"]
    assert sum(1 for _ in dlx.solutions(problem, SearchStats())) == expected


@SETTINGS
@given(general_problems(), st.integers(1, 4000))
def test_a_tiny_cache_changes_the_work_never_the_count(memo_c, problem, memory):
    problem = without_colours(problem)
    expected = len(brute_force(problem))
    assert counted(memo_c.with_memory(memory), problem)[0] == expected
    assert counted(PythonMemoBackend(memory), problem)[0] == expected


def test_a_full_cache_evicts_and_still_counts_dominoes_exactly(memo_c):
    puzzle = Puzzle(read_text_board(ROOT / "shapes/dominoes/8x8.txt"), _dominoes(32))
    roomy = puzzle.count(memo_c)
    small = puzzle.count(memo_c.with_memory(16000))
    assert roomy.total == small.total == 12_988_816
    assert roomy.memo["evictions"] == 0 and small.memo["evictions"] > 0
    assert small.memo["bytes"] <= 16000 < roomy.memo["bytes"]
    assert small.nodes > roomy.nodes


def test_queens_on_both_twins(memo_c):
    for n, expected in [(6, 4), (8, 92), (10, 724)]:
        assert counted(memo_c, queens(n))[0] == expected
    assert counted(PythonMemoBackend(), queens(8)) == counted(memo_c, queens(8))


def test_counts_beyond_64_bits_are_exact_in_c_and_python(memo_c):
    # 70 independent items, each covered by one of 3 options: 3**70 > 2**110 solutions.
    problem = ExactCoverProblem([f"i{k}" for k in range(70)], [], [(k,) for k in range(70) for _ in range(3)])
    assert counted(memo_c, problem)[0] == 3**70 == counted(PythonMemoBackend(), problem)[0]
    # 3**90 > 2**128: the C counter refuses rather than wrap; the Python twin counts it.
    bigger = ExactCoverProblem([f"i{k}" for k in range(90)], [], [(k,) for k in range(90) for _ in range(3)])
    with pytest.raises(PolyfitError, match="2\\*\\*128"):
        counted(memo_c, bigger)
    assert counted(PythonMemoBackend(), bigger)[0] == 3**90


def test_amounts_cover_an_item_several_times(memo_c):
    # Item A must be covered 4 times: by options of amount 1 or 2 on A, each with its own B item.
    problem = ExactCoverProblem(["A", "B1", "B2", "B3"], [], [(0, 1), (0, 2), (0, 3), (0, 1)], [(4, 4), (1, 1), (1, 1), (1, 1)])
    amounts = [(2, 1), (1, 1), (1, 1), (1, 1)]
    # {0 (A twice), 1, 2}: A = 4; option 3 takes B1 like option 0, with A once: 3 + 1 + 1 < 4.
    for engine in (memo_c, PythonMemoBackend()):
        assert engine.count(problem, SearchStats(), amounts) == 1
    assert prepare(problem, [(2, 2), (1, 1), (1, 1), (1, 1)]).kept == [1, 2, 3]


def test_colours_are_refused_with_a_clear_error(memo_c):
    problem = ExactCoverProblem(["A"], ["X"], [(0, 1)], colours=[(0, 1)], colour_names=["red"])
    with pytest.raises(PolyfitError, match="colours"):
        counted(memo_c, problem)


def test_memory_sizes_parse():
    assert parse_memory("500M") == 500 << 20
    assert parse_memory("2g") == 2 << 30
    assert parse_memory("1.5G") == 3 << 29
    assert parse_memory("65536") == 65536
    for bad in ("", "lots", "-1G", "0"):
        with pytest.raises(PolyfitError, match="--memory"):
            parse_memory(bad)


def _dominoes(n):
    from polyfit.puzzle.piece_sets import polyominoes

    return [replace(p, count=(n, n)) for p in polyominoes(2)]


# -- Burnside: distinct counts against enumeration -----------------------------------------


BOARDS = [
    ("shapes/pentomino/3x20.txt", None),
    ("shapes/tetromino/4x5.txt", None),
    ("shapes/soma/cube.vox", None),
]

SMALL = [
    # (board text, pieces): symmetric boards with repeated pieces, optional cells, pre-placed
    # pieces, one-sided pieces (a reflection swaps them) and multiplicity ranges.
    ("####\n####\n####\n####\n", "0..8*domino,0..5*trominoes"),
    ("#####\n#####\n#####\n#####\n", "tetrominoes:L=0..5,tetrominoes:S=0..5,tetrominoes:O=0..5"),
    ("######\n######\n######\n", "3*domino,0..9*trominoes:L,0..9*trominoes:I"),
    ("######\n##++##\n######\n", "0..9*domino,0..9*trominoes:L"),
    ("DD####\n######\n######\n####DD\n", "0..12*domino"),
    ("########\n########\n", "0..4*one-sided-tetrominoes"),
    ("#####\n#####\n#####\n", "0..4*trominoes,0..1*tetrominoes:T"),
]


def _same_counts(puzzle, memo_c):
    enumerated = puzzle.count(built_in_registry().backends["dlx-c"])
    counted_ = puzzle.count(memo_c)
    assert (counted_.distinct, counted_.distinct_rotations, counted_.total) == (
        enumerated.distinct,
        enumerated.distinct_rotations,
        enumerated.total,
    )
    return counted_


@pytest.mark.parametrize("board", SMALL)
def test_burnside_gives_the_distinct_counts_of_enumeration(memo_c, board):
    from polyfit import api

    text, spec = board
    puzzle = Puzzle(parse_board_text(text, "board"), api.pieces(spec))
    counts = _same_counts(puzzle, memo_c)
    assert counts.total > 0 and len(puzzle.symmetries) > 1
    assert sum(counts.fixed) == counts.distinct * len(puzzle.symmetries)


@pytest.mark.parametrize("path", [b for b, _ in BOARDS if (ROOT / b).exists()])
def test_burnside_on_shipped_boards(memo_c, path):
    from polyfit import api

    _same_counts(api.load(ROOT / path), memo_c)


# -- OEIS ----------------------------------------------------------------------------------


def rectangle(rows, columns):
    return "\n".join(["#" * columns] * rows) + "\n"


OEIS = [
    # A004003: domino tilings of the 2n x 2n square.
    (rectangle(6, 6), "18*domino", 6728),
    (rectangle(8, 8), "32*domino", 12_988_816),
    # A046984: tilings of the 4 x 3n rectangle with right (L) trominoes.
    (rectangle(4, 9), "trominoes:L=12", 88),
    (rectangle(4, 15), "trominoes:L=20", 2672),
    (rectangle(4, 30), "trominoes:L=40", 26_579_488),
    # A242636: tilings of the 4 x n rectangle with L, Z (S here) and O tetrominoes.
    (rectangle(4, 10), "tetrominoes:L=0..10,tetrominoes:S=0..10,tetrominoes:O=0..10", 26411),
    # A233266: tilings of the 4 x n rectangle with L, T and Z tetrominoes.
    (rectangle(4, 10), "tetrominoes:L=0..10,tetrominoes:T=0..10,tetrominoes:S=0..10", 27902),
]


@pytest.mark.parametrize("text, spec, total", OEIS)
def test_tilings_counted_in_the_oeis(memo_c, text, spec, total):
    from polyfit import api

    puzzle = Puzzle(parse_board_text(text, "rectangle"), api.pieces(spec))
    assert puzzle.count(memo_c).total == total


def test_the_domino_boards_shipped_count_as_a004003(memo_c):
    from polyfit import api

    assert api.load(ROOT / "shapes/dominoes/10x10.txt").count(memo_c).total == 258_584_046_368


# -- the command line ----------------------------------------------------------------------


def test_solve_count_with_count_memo_reports_the_cache():
    result = run_cli(["solve", str(ROOT / "shapes/dominoes/8x8.txt"), "--count", "--backend", "count-memo", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert (data["total"], data["backend"]) == (12_988_816, "count-memo")
    assert data["distinct"] * 8 == sum(data["fixed"])
    assert data["cache"]["entries"] > 0 and data["cache"]["hits"] > 0


def test_auto_picks_count_memo_for_a_long_count_with_repeated_pieces():
    result = run_cli(["solve", str(ROOT / "shapes/dominoes/10x10.txt"), "--count", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["backend"] == "count-memo" and data["total"] == 258_584_046_368
    # Pieces used once each: enumeration stays the default.
    short = json.loads(run_cli(["solve", str(ROOT / "shapes/pentomino/3x20.txt"), "--count", "--json"]).output)
    assert short["backend"] != "count-memo"


def test_memory_option_and_its_errors():
    board = str(ROOT / "shapes/dominoes/8x8.txt")
    small = run_cli(["solve", board, "--count", "--backend", "count-memo", "--memory", "4K", "--json"])
    assert small.exit_code == 0, small.output
    assert json.loads(small.output)["total"] == 12_988_816
    assert json.loads(small.output)["cache"]["evictions"] > 0
    bad = run_cli(["solve", board, "--count", "--memory", "plenty"])
    assert bad.exit_code == 2 and "--memory" in bad.output
    jobs = run_cli(["solve", board, "--count", "--backend", "count-memo", "--jobs", "2"])
    assert jobs.exit_code == 2 and "one process" in jobs.output
