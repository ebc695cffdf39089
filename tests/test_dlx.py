"""The exact cover backends: known counts, Knuth's example, and twins on random problems."""

import itertools

import pytest
from hypothesis import HealthCheck, given, settings

from polyfit.xc.problem import ExactCoverProblem, SearchStats

from helpers import ROOT, built_in_registry

from helpers import native, pentomino_problem, problems, queens

QUEENS = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680]


def solve(backend, problem):
    stats = SearchStats()
    return list(backend.solutions(problem, stats)), stats


@pytest.fixture(scope="module")
def dlx_c():
    return native("dlx-c")


@pytest.fixture(scope="module")
def bitset_c_backend():
    return native("bitset-c")


def test_queens_counts(backend):
    for n in range(1, 11):
        solutions, stats = solve(backend, queens(n))
        assert len(solutions) == QUEENS[n - 1], n
        assert stats.solutions == len(solutions)


@pytest.mark.parametrize("name", ["dlx-c", "bitset-c"])
def test_queens_11_on_the_c_backends(name):
    solutions, _ = solve(native(name), queens(11))
    assert len(solutions) == 2680


def test_knuths_example_from_dancing_links(backend):
    items = list("ABCDEFG")
    options = [(2, 4, 5), (0, 3, 6), (1, 2, 5), (0, 3), (1, 6), (3, 4, 6)]
    solutions, stats = solve(backend, ExactCoverProblem(items, [], options))
    assert solutions == [(3, 0, 4)]  # "A D", "C E F", "B G", in the order chosen
    assert stats.nodes == 5


def test_no_primary_items_has_the_empty_solution(backend):
    assert solve(backend, ExactCoverProblem([], ["s"], [(0,)]))[0] == [()]


def test_empty_options_are_never_chosen(backend):
    assert solve(backend, ExactCoverProblem(["a"], [], [(), (0,), ()]))[0] == [(1,)]


def test_closing_the_generator_stops_the_search(backend):
    stats = SearchStats()
    gen = backend.solutions(queens(8), stats)
    first = next(gen)
    gen.close()
    assert len(first) == 8 and stats.nodes < 1198


def brute_force(problem):
    n1 = len(problem.primary)
    found = set()
    # Dancing links reaches options only through primary items: options with none are never used.
    usable = [k for k, option in enumerate(problem.options) if any(i < n1 for i in option)]
    for size in range(len(usable) + 1):
        for combo in itertools.combinations(usable, size):
            covered = [i for k in combo for i in problem.options[k]]
            if len(covered) == len(set(covered)) and set(range(n1)) <= set(covered):
                found.add(frozenset(combo))
    return found


# The backend fixture gives each backend in turn and keeps nothing between examples.
@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(problem=problems())
def test_every_backend_finds_exactly_the_brute_force_solutions(backend, problem):
    expected = brute_force(problem)
    solutions, _ = solve(backend, problem)
    assert len(solutions) == len(set(map(frozenset, solutions)))
    assert set(map(frozenset, solutions)) == expected


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(problems())
def test_bitset_python_makes_the_choices_of_dlx_python(problem):
    """Same solutions, same order, same node counts (updates count other things)."""
    backends = built_in_registry().backends
    a, sa = solve(backends["dlx-python"], problem)
    c, sc = solve(backends["bitset-python"], problem)
    assert a == c and (sa.nodes, sa.solutions) == (sc.nodes, sc.solutions)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(problem=problems())
def test_the_dlx_backends_are_twins(dlx_c, problem):
    """dlx-python and dlx-c: same solutions, same order, same node and update counts."""
    a, sa = solve(built_in_registry().backends["dlx-python"], problem)
    b, sb = solve(dlx_c, problem)
    assert a == b
    assert (sa.nodes, sa.updates, sa.solutions) == (sb.nodes, sb.updates, sb.solutions)


def test_twins_on_a_real_puzzle(dlx_c):

    problem = pentomino_problem(ROOT / "shapes/pentomino/3x20.txt")
    backends = built_in_registry().backends
    a, sa = solve(backends["dlx-python"], problem)
    b, sb = solve(dlx_c, problem)
    c, sc = solve(backends["bitset-python"], problem)
    assert a == b == c and len(a) == 8
    assert (sa.nodes, sa.updates) == (sb.nodes, sb.updates)
    assert sc.nodes == sa.nodes


def bitset_c(problem, way):
    from polyfit.dlx import stream_batches
    from polyfit.dlx.bitset import bitset_search

    stats = SearchStats()
    return list(stream_batches(bitset_search(problem, way), stats)), stats


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(problem=problems())
def test_both_ways_of_the_c_bitset_search_match_the_python_one(bitset_c_backend, problem):
    """bitset-c finds its branching item by popcount or by kept counts; either way it makes the
    same choices as bitset-python: same solutions in the same order, same nodes and updates."""
    from polyfit.dlx.bitset import BY_COUNTS, BY_POPCOUNT

    expected, stats = solve(built_in_registry().backends["bitset-python"], problem)
    for way in (BY_COUNTS, BY_POPCOUNT):
        found, s = bitset_c(problem, way)
        assert found == expected
        assert (s.nodes, s.updates, s.solutions) == (stats.nodes, stats.updates, stats.solutions)


def test_the_c_bitset_search_takes_the_cheaper_way_and_both_count_right(bitset_c_backend):
    """Pentominoes, the Soma cube and a designer's 15-piece cube go by popcount, N-queens and
    Sudoku by kept counts (the cheaper, as timed); both ways give the known totals (BurrTools'
    294 assemblies for the cube) with the same nodes."""

    import polyfit
    from polyfit.formats.textart import read_voxel_text
    from polyfit.dlx.bitset import AUTO, BY_COUNTS, BY_POPCOUNT, bitset_search
    from polyfit.puzzle.piece_sets import soma
    from polyfit.puzzle.solve import Puzzle

    cube = Puzzle(read_voxel_text(ROOT / "shapes/soma/cube.vox"), soma(), break_symmetry=False).cover.problem
    # 12 queens and this cube look alike by the root's bound on reads (0.67 and 0.64 of the
    # decrements); the words the root's search reads with its early stop tell them apart
    fifteen = polyfit.Puzzle(polyfit.read_board(ROOT / "benchmarks/data/burrtools/cube-15.xmpuzzle")).cover.problem
    cases = [
        (fifteen, 294, BY_POPCOUNT),
        (pentomino_problem(ROOT / "shapes/pentomino/3x20.txt"), 8, BY_POPCOUNT),
        (cube, 11520, BY_POPCOUNT),
        (queens(12), 14200, BY_COUNTS),
        (sudoku_problem(), 1, BY_COUNTS),
    ]
    for problem, total, cheaper in cases:
        assert bitset_search(problem).way == cheaper
        runs = [bitset_c(problem, way) for way in (AUTO, BY_COUNTS, BY_POPCOUNT)]
        assert [len(found) for found, _ in runs] == [total] * 3
        assert len({(s.nodes, s.updates) for _, s in runs}) == 1


def sudoku_problem():
    """A 9x9 Sudoku with 21 givens (Inkala's): cell, row-digit, column-digit and box-digit items."""
    givens = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
    options = []
    for r, c, d in itertools.product(range(9), range(9), range(9)):
        if givens[9 * r + c] in (".", str(d + 1)):
            options.append((9 * r + c, 81 + 9 * r + d, 162 + 9 * c + d, 243 + 9 * (3 * (r // 3) + c // 3) + d))
    return ExactCoverProblem([f"i{k}" for k in range(324)], [], options)
