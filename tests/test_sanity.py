"""Knuth's sanity(): every link of the dancing-links backends checked after their searches.

The Python searches update the lists of ``Layout.lists()`` in place, so the check reads them
where the search stopped; the C search objects (``_dlxc``, ``_dlxmc``) have their own
``sanity()``, twin of the Python one, called between batches. Both run after full searches and
after searches stopped at each solution, on plain problems and on problems with multiplicities
and colours; and a link broken on purpose must be reported, the same way by both.
"""

import itertools

import pytest
from hypothesis import given, settings

from polyfit.dlx import build_layout
from polyfit.dlx.native import native_search
from polyfit.dlx.python import search_x
from polyfit.dlx.python_mc import search_mc
from polyfit.dlx.sanity import sanity
from polyfit.xc.dlxformat import parse_dlx
from polyfit.xc.problem import ExactCoverProblem, SearchStats

from helpers import KNUTH_DLX2, KNUTH_DLX3, native, problems, queens
from helpers import general_problems


KNUTH = ExactCoverProblem(list("ABCDEFG"), [], [(2, 4, 5), (0, 3, 6), (1, 2, 5), (0, 3), (1, 6), (3, 4, 6)])
# Item A may be covered twice; items 1..3 of four options covering A alone.
TWICE = ExactCoverProblem(["A", "B", "C"], [], [(0, 1), (0, 2), (1, 2)], [(2, 2), (1, 1), (1, 1)])
RANGE = ExactCoverProblem(["A"], [], [(0,)] * 4, [(1, 3)])
COLOURS = ExactCoverProblem(
    ["A", "B", "C"], ["X"], [(0, 3), (1, 3), (2, 3), (1, 3)], colours=[(0, 1), (0, 1), (0, 1), (0, 0)]
)
PROBLEMS = {
    "knuth": KNUTH,
    "queens6": queens(6),
    "queens8": queens(8),
    "twice": TWICE,
    "range": RANGE,
    "colours": COLOURS,
    "dlx2": parse_dlx(KNUTH_DLX2)[0],
    "dlx3": parse_dlx(KNUTH_DLX3)[0],
}


@pytest.fixture(scope="module")
def dlx_c():
    return native("dlx-c")


def is_general(problem):
    return problem.has_multiplicities or problem.has_colours


def python_sanity_at_each_solution(problem, general):
    """Run a Python search, checking the links at every solution and at the end; the links
    must then be as built. Returns the solutions."""
    built = build_layout(problem)
    links = built.lists()
    search = search_mc if general else search_x
    found = []
    for solution in search(links, SearchStats()):
        assert sanity(links) == [], (solution, len(found))
        found.append(solution)
    assert sanity(links) == []
    assert as_built(links, built)
    return found


def as_built(links, built):
    """Every array as built, but the colours of the item headers (where purifying notes the
    colour an item took, and which nothing reads once it is unpurified)."""
    headers = links.items + 1
    expected = built.lists()
    return (links.color[headers:], links.top, links.ulink, links.dlink, links.llink, links.rlink, links.bound) == (
        expected.color[headers:], expected.top, expected.ulink, expected.dlink, expected.llink, expected.rlink, expected.bound
    )


def c_sanity_at_each_solution(problem, general):
    """The same on the C search: one solution per batch, sanity() between batches."""
    search = native_search(build_layout(problem), general)
    found, done = [], False
    while not done:
        batch, _, _, done = search.next_batch(1)
        assert search.sanity() == [], len(found)
        found.extend(batch)
    return found


def searches(problem):
    """Algorithms M and C take every problem; plain Algorithm X only those without bounds and
    colours."""
    return [True] if is_general(problem) else [False, True]


@pytest.mark.parametrize("name", PROBLEMS)
def test_the_python_links_are_sane_at_each_solution_and_restored_at_the_end(name):
    problem = PROBLEMS[name]
    for general in searches(problem):
        assert python_sanity_at_each_solution(problem, general)  # checked at a solution at least


@pytest.mark.parametrize("name", PROBLEMS)
def test_the_c_links_are_sane_at_each_solution_and_at_the_end(dlx_c, name):
    problem = PROBLEMS[name]
    for general in searches(problem):
        assert c_sanity_at_each_solution(problem, general) == python_sanity_at_each_solution(problem, general)


def test_a_search_stopped_early_leaves_sane_links(dlx_c):
    """Closing the Python search, or leaving the C one, after a few solutions of 8 queens."""
    problem = queens(8)
    for general in (False, True):
        links = build_layout(problem).lists()
        search = (search_mc if general else search_x)(links, SearchStats())
        assert len(list(itertools.islice(search, 5))) == 5
        search.close()
        assert sanity(links) == []
        assert not as_built(links, build_layout(problem))  # stopped mid-search: items still covered
        c_search = native_search(build_layout(problem), general)
        batch, _, _, done = c_search.next_batch(5)
        assert len(batch) == 5 and not done
        assert c_search.sanity() == []


@settings(max_examples=150, deadline=None)
@given(problem=problems())
def test_sane_links_on_random_plain_problems(dlx_c, problem):
    for general in (False, True):
        assert c_sanity_at_each_solution(problem, general) == python_sanity_at_each_solution(problem, general)


@settings(max_examples=150, deadline=None)
@given(problem=general_problems())
def test_sane_links_on_random_problems_with_bounds_and_colours(dlx_c, problem):
    assert c_sanity_at_each_solution(problem, True) == python_sanity_at_each_solution(problem, True)


def break_link(layout, kind):
    """Knuth's example with one link broken on purpose; the messages sanity() must give. Its
    items A..G are 1..7 and spacer 0 is node 8; option "C E F" is nodes 9-11, then a spacer,
    "A D G" 13-15, "B C F" 17-19, "A D" 21-22, "B G" 24-25, "D E G" 27-29."""
    if kind == "ulink":
        layout.ulink[22] = 21  # the node of item D in option "A D" (nodes 21, 22)
        return ["list of item 4: ulink[22] is 21, expected 14"]
    if kind == "dlink":
        layout.dlink[9] = 3  # item C's first node skips its second (18), back to the header
        return ["list of item 3: ulink[3] is 18, expected 9", "item 3: length field 2, but 1 nodes in its list"]
    if kind == "top":
        layout.top[22] = 5
        return ["list of item 4: top[22] is 5"]
    if kind == "length":
        layout.top[1] = 3
        return ["item 1: length field 3, but 2 nodes in its list"]
    if kind == "ring":
        layout.llink[2] = 0
        return ["item ring: llink[2] is 0, expected 1"]
    if kind == "spacer":
        layout.ulink[16] = 14  # the spacer after "A D G" (nodes 13 to 15)
        return ["spacer at node 16: ulink is 14, expected 13"]
    raise ValueError(kind)


KINDS = ["ulink", "dlink", "top", "length", "ring", "spacer"]


@pytest.mark.parametrize("kind", KINDS)
def test_a_broken_link_is_reported(kind):
    layout = build_layout(KNUTH)
    assert sanity(layout) == []
    expected = break_link(layout, kind)
    assert sanity(layout) == expected


@pytest.mark.parametrize("kind", KINDS)
def test_the_c_sanity_reports_a_broken_link_as_the_python_one_does(dlx_c, kind):
    """The C check has the Python one's words; the constructors run it and refuse the arrays,
    naming the first problem."""
    layout = build_layout(KNUTH)
    expected = break_link(layout, kind)
    for general in (False, True):
        with pytest.raises(ValueError) as refused:
            native_search(layout, general)
        assert str(refused.value) == f"inconsistent dancing-links arrays: {expected[0]}"


def test_a_link_broken_in_the_middle_of_a_search_is_reported():
    problem = queens(6)
    links = build_layout(problem).lists()
    search = search_x(links, SearchStats())
    next(search)  # at the first solution: the primary items are covered, some secondary ones not
    assert sanity(links) == []
    root = len(problem.items) + 1
    item = links.rlink[root]
    links.llink[item] = item
    assert sanity(links) == [f"item ring: llink[{item}] is {item}, expected {root}"]
    search.close()


@pytest.mark.parametrize("general", [False, True])
@pytest.mark.parametrize("array, index, value", [
    ("dlink", 1, 10**6), ("ulink", 1, -5), ("top", -2, 999), ("rlink", 0, 77), ("dlink", -1, 3),
])
def test_the_c_searches_refuse_corrupted_links_instead_of_crashing(general, array, index, value):
    """The constructors check every link (Knuth's sanity() on the fresh layout), so arrays
    handed in from Python cannot make the search read or write outside them."""
    from polyfit.dlx import build_layout
    from polyfit.dlx.native import native_search

    native("dlx-c")
    layout = build_layout(queens(5))
    getattr(layout, array)[index] = value
    with pytest.raises(ValueError, match="inconsistent dancing-links arrays"):
        native_search(layout, general)
