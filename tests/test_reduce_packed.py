"""Packed options: the set-up's options held as two int32 buffers (PackedOptions) behave as the
list of tuples they stand for, the C helpers and their Python twins agree and refuse bad buffers,
and the reduction reads the buffers, so that only the options it keeps become tuples."""

from __future__ import annotations

import copy
import pickle
from array import array

import pytest
from hypothesis import given, settings, strategies as st

import polyfit
from polyfit.xc import problem as problem_module
from polyfit.xc.problem import ExactCoverProblem, PackedOptions, packed
from polyfit.xc.reduce import item_roles, reduce, reduce_native, reduce_python

from helpers import ROOT, brute_force, general_problems, native

OPTIONS = st.lists(st.lists(st.integers(0, 300), max_size=6).map(tuple), max_size=12)


def python_packing(options) -> tuple[bytes, bytes]:
    starts, items = array("i", [0]), array("i")
    for option in options:
        items.extend(option)
        starts.append(len(items))
    return starts.tobytes(), items.tobytes()


def c_helpers():
    native("dlx-c")  # the C extensions built (required under POLYFIT_REQUIRE_C=1)
    if problem_module._reduce is None:
        pytest.skip("the C extension polyfit.xc._reduce did not build")
    return problem_module._reduce


@settings(max_examples=200, deadline=None)
@given(OPTIONS, st.data())
def test_packed_options_are_the_list_of_tuples(options, data):
    starts, items = python_packing(options)
    held = PackedOptions(starts, items)
    assert len(held) == len(options)  # known without making a tuple
    assert held == options and options == held and list(held) == options
    if options:
        k = data.draw(st.integers(-len(options), len(options) - 1))
        assert held[k] == options[k]
    assert held[1:3] == options[1:3]
    chosen = data.draw(st.lists(st.integers(0, len(options) - 1), max_size=8)) if options else []
    assert held.take(chosen) == [options[k] for k in chosen]
    assert held.take(range(len(options))) == options
    assert pickle.loads(pickle.dumps(held)) == options
    assert copy.deepcopy(held) == options
    assert [bytes(b) for b in packed(held)] == [starts, items]
    assert [bytes(b) for b in PackedOptions(tuples=list(options)).buffers()] == [starts, items]


@settings(max_examples=200, deadline=None)
@given(OPTIONS, st.data())
def test_changing_packed_options_changes_them_as_a_list(options, data):
    """append, +=, item assignment and deletion work on the tuples as on a list, and the
    buffers packed afterwards are those of the changed list."""
    held, plain = PackedOptions(*python_packing(options)), list(options)
    for _ in range(data.draw(st.integers(1, 4))):
        change = data.draw(st.sampled_from(["append", "+=", "set", "del", "insert"]))
        new = data.draw(st.lists(st.integers(0, 9), max_size=3).map(tuple))
        if change == "append":
            held.append(new), plain.append(new)
        elif change == "+=":
            held += [new, new]
            plain += [new, new]
        elif change == "insert":
            held.insert(0, new), plain.insert(0, new)
        elif plain:
            k = data.draw(st.integers(0, len(plain) - 1))
            if change == "set":
                held[k] = plain[k] = new
            else:
                del held[k], plain[k]
    assert held == plain and len(held) == len(plain)
    assert [bytes(b) for b in held.buffers()] == list(python_packing(plain))


@settings(max_examples=200, deadline=None)
@given(OPTIONS, st.data())
def test_the_c_helpers_are_their_python_twins(options, data):
    helpers = c_helpers()
    starts, items = python_packing(options)
    assert helpers.unpack(starts, items) == problem_module._unpack_python(starts, items) == options
    chosen = data.draw(st.lists(st.integers(0, len(options) - 1), max_size=8)) if options else []
    assert helpers.take(starts, items, chosen) == tuple(
        b.tobytes() for b in problem_module._take_python(starts, items, chosen))


BAD = [
    (array("i", []), array("i", [])),  # no offset at all
    (array("i", [1, 1]), array("i", [0])),  # not from 0
    (array("i", [0, 2, 1]), array("i", [0, 1])),  # falling
    (array("i", [0, 3]), array("i", [0, 1])),  # past the items
    (array("i", [0, 1]), array("i", [-1])),  # a negative item
    (b"\x00\x00\x00", array("i", [])),  # not int32
]


@pytest.mark.parametrize("starts, items", BAD)
def test_bad_buffers_are_a_value_error_in_c_and_in_python(starts, items):
    helpers = c_helpers()
    with pytest.raises(ValueError):
        helpers.unpack(starts, items)
    with pytest.raises(ValueError):
        helpers.take(starts, items, [])
    if len(starts) >= 1 and isinstance(starts, array):
        with pytest.raises(ValueError):
            problem_module._unpack_python(starts, items)
        with pytest.raises(ValueError):
            problem_module._take_python(starts, items, [])


def test_the_largest_item_index_unpacks():
    helpers = c_helpers()
    starts, items = array("i", [0, 2]), array("i", [2**31 - 1, 0])
    assert helpers.unpack(starts, items) == problem_module._unpack_python(starts, items) == [(2**31 - 1, 0)]


def test_taking_an_option_that_is_not_there_is_an_index_error():
    helpers = c_helpers()
    starts, items = python_packing([(0, 1), (2,)])
    for k in (2, -1, 2**40):
        with pytest.raises((IndexError, OverflowError)):
            helpers.take(starts, items, [k])
    with pytest.raises(TypeError):
        helpers.take(starts, items, ["0"])
    held = PackedOptions(starts, items)
    assert held.take([-1, 0]) == [(2,), (0, 1)]
    with pytest.raises(IndexError):
        held.take([2])
    with pytest.raises(ValueError):
        PackedOptions(starts, None)


@settings(max_examples=150, deadline=None)
@given(general_problems())
def test_a_packed_problem_reduces_and_solves_as_the_list(problem):
    """The same problem with its options packed: the same reduction by both twins, the same
    solutions, and the problem is equal to the one of tuples."""
    held = ExactCoverProblem(problem.primary, problem.secondary, PackedOptions(*python_packing(problem.options)),
                             problem.bounds, problem.colours, problem.colour_names)
    assert held == problem
    held.validate()
    exclusive, needed = item_roles(held)
    assert (exclusive, needed) == item_roles(problem)
    n = len(problem.items)
    twin = reduce_python(held.options, n, exclusive, needed)
    assert twin == reduce_python(problem.options, n, exclusive, needed)
    if problem_module._reduce is not None:
        assert reduce_native(held.options, n, exclusive, needed) == twin
    reduction = reduce(held)
    assert isinstance(reduction.problem.options, PackedOptions)
    assert reduction.problem == reduce(problem).problem
    shuffled, order = held.shuffled(7)
    assert shuffled.options == [problem.options[k] for k in order]
    assert brute_force(held) == brute_force(problem)


def test_the_set_up_makes_tuples_only_of_the_options_it_keeps(monkeypatch):
    """keys-in-a-box: 4,225 options (444,671 items in all) made packed, 6 kept by the
    reduction; only those 6 become tuples, when the search reads them, and the count is
    BurrTools' (1)."""
    helpers = c_helpers()
    unpacked = []

    class Counting:
        def __getattr__(self, name):
            return getattr(helpers, name)

        def unpack(self, starts, items):
            options = helpers.unpack(starts, items)
            unpacked.append(len(options))
            return options

    monkeypatch.setattr(problem_module, "_reduce", Counting())
    board = polyfit.read_board(ROOT / "benchmarks" / "data" / "burrtools" / "keys-in-a-box.xmpuzzle")
    puzzle = polyfit.Puzzle(board)
    reduction = puzzle.reduction
    assert (len(reduction.kept), reduction.removed) == (6, 4219)
    assert unpacked == []
    assert puzzle.count(jobs=1).distinct == 1
    assert unpacked == [6]
