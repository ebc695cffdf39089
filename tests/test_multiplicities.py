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


# The built-in backends that take these problems (the bitset ones take neither).
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
@pytest.mark.parametrize("backend", GENERAL, indirect=True)
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(problem=problems())
def test_backends_find_exactly_the_brute_force_solutions(backend, problem):
    expected = brute_force(problem)
    solutions, _ = solve(backend, problem)
    assert len(solutions) == len(set(map(frozenset, solutions)))
    assert set(map(frozenset, solutions)) == expected


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


def test_copies_are_chosen_as_a_set_not_a_sequence(backend):
    """Item A may be covered twice: {x, y} is one solution, not two (x then y, y then x)."""
    problem = ExactCoverProblem(["A", "B", "C"], [], [(0, 1), (0, 2), (1, 2)], [(2, 2), (1, 1), (1, 1)])
    if not problem.needs <= backend.capabilities:
        pytest.skip(f"{backend.name} does not take multiplicities")
    solutions, stats = solve(backend, problem)
    assert [sorted(s) for s in solutions] == [[0, 1]]


def test_the_bounds_of_a_range(backend):
    """Four options each covering A alone: A in 1..3 has C(4,1)+C(4,2)+C(4,3) = 14 solutions."""
    problem = ExactCoverProblem(["A"], [], [(0,)] * 4, [(1, 3)])
    if not problem.needs <= backend.capabilities:
        pytest.skip(f"{backend.name} does not take multiplicities")
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
    with pytest.raises(PolyfitError, match="does not support colours, multiplicities"):
        registry.backend("bitset-python", problem)


def test_bad_bounds_and_colours_are_refused():
    with pytest.raises(PolyfitError, match="bounds 3..1"):
        ExactCoverProblem(["A"], [], [(0,)], [(3, 1)]).validate()
    with pytest.raises(PolyfitError, match="only secondary items take colours"):
        ExactCoverProblem(["A"], ["X"], [(0, 1)], colours=[(1, 0)]).validate()
