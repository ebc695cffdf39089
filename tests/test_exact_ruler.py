"""The exact ruler (``ruler="exact"``, polyfit.motion.exact): the fewest moves over every plan.
Checked against a brute force that shares no code with polyfit.motion (helpers.exact_level),
against BurrTools' ruler (never above it), and its C twin against the Python one."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import polyfit
from polyfit.lattices.base import get
from polyfit.motion import Disassembler
from helpers import c_engine, cut_at_random, exact_level, replay, run_cli

CUBIC = get("cubic").motion_directions()
DATA = Path(__file__).parent / "data" / "disassembly"


def cli(*args):
    return run_cli([str(a) for a in args])


def rank(tree):
    """A plan's rank as a tuple (see polyfit.motion.exact.rank), from its level text's tree."""
    if tree is None:
        return ()
    own = (len(tree.steps), rank(tree.left), rank(tree.removed))
    return () if own == (1, (), ()) else own


@st.composite
def small_assemblies(draw):
    """Pieces cut at random from a box small enough for the brute force; maybe weights."""
    size = (draw(st.integers(1, 2)), draw(st.integers(2, 3)), draw(st.integers(2, 3)))
    count = draw(st.integers(2, 4))
    rng = random.Random(draw(st.integers(0, 10**9)))
    holes = draw(st.sampled_from([0.0, 0.15, 0.3]))
    pieces = cut_at_random(rng, size, count, holes)
    weights = [rng.choice((1, 1, 2)) for _ in pieces] if draw(st.booleans()) else None
    return pieces, weights


@given(small_assemblies())
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_the_exact_ruler_agrees_with_a_brute_force_and_never_exceeds_burrtools(found):
    pieces, weights = found
    exact = Disassembler(CUBIC, "python", ruler="exact").disassemble(pieces, weights)
    assert exact.ruler == "exact"
    assert exact.level == exact_level(pieces, weights)
    burrtools = Disassembler(CUBIC, "python").disassemble(pieces, weights)
    assert burrtools.ruler == "burrtools"
    if burrtools.separates:
        assert exact.separates
        assert len(exact.tree.steps) <= len(burrtools.tree.steps)
        assert rank(exact.tree) <= rank(burrtools.tree)
    if exact.separates:
        moves = [(m.pieces, m.by, m.removed) for m in exact.moves]
        assert replay(pieces, moves, ()) == exact.level


@given(small_assemblies())
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_the_c_twin_of_the_exact_ruler_moves_as_the_python_one(found):
    c_engine()
    pieces, weights = found
    python, c = (Disassembler(CUBIC, engine, ruler="exact", max_states=20_000).disassemble(pieces, weights)
                 for engine in ("python", "c"))
    assert (python.status, python.level, python.states) == (c.status, c.level, c.states)
    assert python.moves == c.moves


# A 2x3x3 block in four pieces: BurrTools' first separation leaves a part that needs 1.2,
# while another separation after one move leaves parts needing 2 at most.
SEED_11 = [[(0, 1, 1), (0, 1, 2), (0, 2, 2), (1, 1, 2), (1, 2, 1)],
           [(0, 0, 0), (0, 0, 2), (0, 2, 1), (1, 0, 1), (1, 1, 0)],
           [(1, 1, 1), (1, 2, 0), (1, 2, 2)],
           [(0, 0, 1), (0, 2, 0), (1, 0, 2)]]


@pytest.mark.parametrize("engine", ["python", "c"])
def test_the_exact_ruler_finds_a_better_plan_than_burrtools(engine):
    if engine == "c":
        c_engine()
    burrtools = Disassembler(CUBIC, engine).disassemble(SEED_11)
    exact = Disassembler(CUBIC, engine, ruler="exact").disassemble(SEED_11)
    assert (burrtools.level, exact.level) == ("1.1.2", "1.2")
    assert exact_level(SEED_11) == "1.2"
    assert replay(SEED_11, [(m.pieces, m.by, m.removed) for m in exact.moves], ()) == "1.2"


def test_an_unknown_ruler_names_the_valid_ones():
    with pytest.raises(polyfit.PolyfitError, match="valid rulers: burrtools, exact"):
        Disassembler(CUBIC, ruler="shortest")


# -- the command line and the API ----------------------------------------------------------------

BURR_5 = DATA / "burr-5.xmpuzzle"


def test_solve_disassemble_ruler_exact_reports_its_ruler():
    burrtools = json.loads(cli("solve", BURR_5, "--disassemble", "--count", "--json", "--jobs", "1").output)
    exact = cli("solve", BURR_5, "--disassemble", "--count", "--json", "--jobs", "1", "--ruler", "exact")
    assert exact.exit_code == 0, exact.output
    exact = json.loads(exact.output)
    assert (burrtools["ruler"], exact["ruler"]) == ("burrtools", "exact")
    assert burrtools["levels"] == {"5.2": 1, "5.2.2.2": 1}
    assert exact["levels"] == {"5.2": 1, "5.2.2": 1}
    text = cli("solve", BURR_5, "--disassemble", "--count", "--jobs", "1", "--ruler", "exact").output
    assert "levels (exact ruler): 5.2: 1, 5.2.2: 1" in text
    listed = cli("solve", BURR_5, "--disassemble", "--ruler", "exact", "--moves", "--json")
    data = json.loads(listed.output)
    assert sorted(t["level"] for t in data["disassemblies"]) == ["5.2", "5.2.2"]
    assert {t["ruler"] for t in data["disassemblies"]} == {"exact"}
    for solution, taken in zip(data["solutions"], data["disassemblies"]):
        labels = list(solution)
        pieces = [[tuple(c) for c in solution[label]] for label in labels]
        moves = [([labels.index(n) for n in m["pieces"]], m["by"], m["removed"]) for m in taken["moves"]]
        assert replay(pieces, moves) == taken["level"] == exact_level(pieces)


def test_solve_disassemble_refuses_an_unknown_ruler():
    result = cli("solve", BURR_5, "--disassemble", "--ruler", "shortest")
    assert result.exit_code == 2
    assert "valid rulers: burrtools, exact" in result.output
    result = cli("solve", BURR_5, "--ruler", "exact")
    assert result.exit_code == 2 and "--ruler go with --disassemble" in result.output


def test_the_api_takes_a_ruler():
    puzzle = polyfit.load(BURR_5)
    counts = puzzle.count(disassemble=True, ruler="exact", jobs=1)
    assert counts.disassembly.ruler == "exact" and counts.disassembly.levels == {"5.2": 1, "5.2.2": 1}
    solution, taken = next(puzzle.disassemblies(ruler="exact"))
    again = solution.disassemble(ruler="exact")
    assert again.ruler == "exact" and again.level == taken.level
