"""Knuth's Algorithms M and C in the core: bounds on primary items, colours on secondary ones.

Every backend that claims the capabilities is checked against a brute force (tests/helpers.py), on
random problems (Hypothesis) and on hand-made ones; the two dancing-links backends are twins
(same solutions, same order, same node and update counts).
"""


import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from polyfit.dlx import build_layout
from polyfit.dlx.python import PythonDLX
from polyfit.dlx.python_mc import search_mc
from polyfit.errors import PolyfitError
from polyfit.xc.problem import ExactCoverProblem, SearchStats

from helpers import BUILT_IN_BACKENDS, built_in_registry

from helpers import brute_force, native
from helpers import general_problems as problems


def solve(backend, problem):
    stats = SearchStats()
    return list(backend.solutions(problem, stats)), stats


# The built-in backends that take these problems (the bitset ones take no colours).
GENERAL = [
    name
    for name in BUILT_IN_BACKENDS
    if {"multiplicities", "colours"} <= built_in_registry().backends[name].capabilities
]


@pytest.fixture(scope="module")
def dlx_c():
    return native("dlx-c")


def test_the_general_backends_are_the_dancing_links_ones():
    assert GENERAL == ["dlx-python", "dlx-c"]


# The backend fixture gives each backend in turn and keeps nothing between examples.
@pytest.mark.slow
@pytest.mark.parametrize("backend", GENERAL, indirect=True)
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(problem=problems())
def test_backends_find_exactly_the_brute_force_solutions(backend, problem):
    expected = brute_force(problem)
    solutions, _ = solve(backend, problem)
    assert len(solutions) == len(set(map(frozenset, solutions)))
    assert set(map(frozenset, solutions)) == expected


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(problem=problems())
def test_the_dlx_backends_are_twins_with_bounds_and_colours(dlx_c, problem):
    a, sa = solve(built_in_registry().backends["dlx-python"], problem)
    b, sb = solve(dlx_c, problem)
    assert a == b
    assert (sa.nodes, sa.updates, sa.solutions) == (sb.nodes, sb.updates, sb.solutions)


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 6), st.integers(0, 3), st.data())
def test_on_plain_problems_algorithm_m_makes_the_moves_of_plain_dancing_links(n1, n2, data):
    items = st.lists(st.integers(0, n1 + n2 - 1), unique=True, max_size=4)
    options = [tuple(o) for o in data.draw(st.lists(items, max_size=12))]
    problem = ExactCoverProblem([f"p{i}" for i in range(n1)], [f"s{i}" for i in range(n2)], options)
    plain, plain_stats = solve(PythonDLX(), problem)
    general_stats = SearchStats()
    general = list(search_mc(build_layout(problem).lists(), general_stats))
    assert general == plain
    assert (general_stats.nodes, general_stats.updates) == (plain_stats.nodes, plain_stats.updates)


def skip_unless_taken(backend, problem):
    """Skip a backend that does not take this problem, as ``auto`` would pass it over."""
    reason = getattr(backend, "problem_reason", lambda p: None)(problem)
    if not problem.needs <= backend.capabilities or reason is not None:
        pytest.skip(f"{backend.name} does not take this problem")


def test_copies_are_chosen_as_a_set_not_a_sequence(backend):
    """Item A may be covered twice: {x, y} is one solution, not two (x then y, y then x)."""
    problem = ExactCoverProblem(["A", "B", "C"], [], [(0, 1), (0, 2), (1, 2)], [(2, 2), (1, 1), (1, 1)])
    skip_unless_taken(backend, problem)
    solutions, stats = solve(backend, problem)
    assert [sorted(s) for s in solutions] == [[0, 1]]


def test_the_bounds_of_a_range(backend):
    """Four options each covering A alone: A in 1..3 has C(4,1)+C(4,2)+C(4,3) = 14 solutions."""
    problem = ExactCoverProblem(["A"], [], [(0,)] * 4, [(1, 3)])
    skip_unless_taken(backend, problem)
    solutions, _ = solve(backend, problem)
    assert len(solutions) == 14
    assert sorted(len(s) for s in solutions) == [1] * 4 + [2] * 6 + [3] * 4


def test_colours_let_agreeing_options_share_an_item(backend):
    problem = ExactCoverProblem(
        ["A", "B", "C"], ["X"], [(0, 3), (1, 3), (2, 3), (1, 3)], colours=[(0, 1), (0, 1), (0, 2), (0, 0)]
    )
    if not problem.needs <= backend.capabilities:
        pytest.skip(f"{backend.name} does not take colours")
    solutions, _ = solve(backend, problem)
    assert solutions == []  # C must take X with colour 2, which A's colour 1 forbids
    problem.colours[2] = (0, 1)
    solutions, _ = solve(backend, problem)
    assert [sorted(s) for s in solutions] == [[0, 1, 2]]


def test_auto_picks_a_backend_that_takes_multiplicities_and_colours():
    registry = built_in_registry()
    problem = ExactCoverProblem(["A"], ["X"], [(0, 1)], [(0, 2)], [(0, 1)])
    assert problem.needs == {"secondary", "multiplicities", "colours"}
    chosen = registry.backend("auto", problem)
    assert problem.needs <= chosen.capabilities
    with pytest.raises(PolyfitError, match="does not support colours"):
        registry.backend("bitset-python", problem)


def test_bad_bounds_and_colours_are_refused():
    with pytest.raises(PolyfitError, match="bounds 3..1"):
        ExactCoverProblem(["A"], [], [(0,)], [(3, 1)]).validate()
    with pytest.raises(PolyfitError, match="only secondary items take colours"):
        ExactCoverProblem(["A"], ["X"], [(0, 1)], colours=[(1, 0)]).validate()


# -- Multiplicities on bitsets: Algorithm X over the exact items, the others as limits ---------

BOUNDS = [(1, 1), (1, 1), (0, 1), (0, 2), (1, 3), (2, 2)]


@st.composite
def capacity_problems(draw):
    """Problems with bounds where every option covers an item that must be covered exactly
    once (the shape of piece puzzles with piece counts: cells once, pieces up to k times)."""
    n1 = draw(st.integers(1, 6))
    n2 = draw(st.integers(0, 2))
    bounds = [draw(st.sampled_from(BOUNDS)) for _ in range(n1)]
    exact = [i for i, b in enumerate(bounds) if b == (1, 1)]
    if not exact:
        bounds[0] = (1, 1)
        exact = [0]
    options = []
    for _ in range(draw(st.integers(0, 10))):
        first = draw(st.sampled_from(exact))
        more = draw(st.lists(st.integers(0, n1 + n2 - 1), unique=True, max_size=3))
        options.append(tuple(dict.fromkeys([first, *more])))
    return ExactCoverProblem([f"p{i}" for i in range(n1)], [f"s{i}" for i in range(n2)], options, bounds)


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(problem=capacity_problems())
def test_the_bitset_backends_take_bounds_and_find_the_brute_force_solutions(problem):
    from polyfit.xc.branching import CapacityForm

    assert CapacityForm(problem).reason is None
    solutions, _ = solve(built_in_registry().backends["bitset-python"], problem)
    assert len(solutions) == len(set(map(frozenset, solutions)))
    assert set(map(frozenset, solutions)) == brute_force(problem)


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(problem=capacity_problems())
def test_bitset_c_is_the_twin_of_bitset_python_with_bounds(problem):
    from polyfit.dlx import stream_batches
    from polyfit.dlx.bitset import BY_COUNTS, BY_POPCOUNT, bitset_search

    native("bitset-c")
    expected, stats = solve(built_in_registry().backends["bitset-python"], problem)
    for way in (BY_COUNTS, BY_POPCOUNT):
        found_stats = SearchStats()
        found = list(stream_batches(bitset_search(problem, way), found_stats))
        assert found == expected
        assert (found_stats.nodes, found_stats.updates, found_stats.solutions) == (
            stats.nodes, stats.updates, stats.solutions)


def test_an_option_with_no_exact_item_goes_to_dancing_links():
    registry = built_in_registry()
    # Option 1 covers only B, which may be covered 0..2 times: Algorithm X over A cannot choose it.
    problem = ExactCoverProblem(["A", "B"], [], [(0, 1), (1,)], [(1, 1), (0, 2)])
    assert registry.backends["bitset-python"].problem_reason(problem).startswith("option 1 covers no item")
    assert registry.backend("auto", problem).name == "dlx-c" if native("dlx-c") else True
    with pytest.raises(PolyfitError, match="cannot take this problem: option 1"):
        registry.backend("bitset-c", problem)
    assert sorted(map(sorted, solve(registry.backends["dlx-python"], problem)[0])) == [[0], [0, 1]]


@pytest.mark.parametrize("path, distinct, total", [
    ("shapes/burrs/solid-six-piece-burrs.vox", 588, 12597),
    ("shapes/pentomino/5x10-any-ten.txt", 6951, 27804),
])
@pytest.mark.slow
def test_piece_counts_count_the_same_on_bitsets(path, distinct, total):
    import polyfit
    from helpers import ROOT

    puzzle = polyfit.load(ROOT / path)
    assert puzzle.problem.has_multiplicities
    assert puzzle.backend("auto").name == "bitset-c"
    for name in ("bitset-c", "dlx-c"):
        counts = puzzle.count(backend=native(name), jobs=1)
        assert (counts.distinct, counts.total) == (distinct, total), name
