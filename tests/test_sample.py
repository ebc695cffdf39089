"""Uniform random solutions (``--sample N --seed S``, ``Puzzle.sample``): valid, reproducible,
and uniform by a chi-square test."""

from __future__ import annotations

import json
import math
import random
from collections import Counter

import pytest

from helpers import ROOT, native, run_cli

import polyfit
from polyfit.errors import PolyfitError
from polyfit.puzzle.burnside import full_problem

DOMINO_3X6 = "######\n######\n######\n"  # 41 domino tilings (A001835: 1, 3, 11, 41, ...)


def puzzle_of(text, spec):
    return polyfit.Puzzle(polyfit.Board.from_text(text), spec)


def chi_square_p_value(statistic: float, freedom: int) -> float:
    """P(X >= statistic) for X chi-square with ``freedom`` degrees: the regularized upper
    incomplete gamma Q(k/2, x/2), by the series of the lower one below x = a + 1 and by a
    continued fraction (Lentz's method) above."""
    a, x = freedom / 2, statistic / 2
    front = math.exp(a * math.log(x) - x - math.lgamma(a))
    if x < a + 1:
        term = total = 1 / a
        n = 0
        while term > 1e-16 * total:
            n += 1
            term *= x / (a + n)
            total += term
        return 1 - front * total
    tiny = 1e-300
    b = x + 1 - a
    c, d = 1 / tiny, 1 / b
    h = d
    for i in range(1, 1000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        h *= d * c
        if abs(d * c - 1) < 1e-15:
            break
    return front * h


def test_the_p_value_function_matches_known_quantiles():
    # The 95% quantiles of chi-square with 1, 10 and 40 degrees of freedom.
    assert chi_square_p_value(3.841, 1) == pytest.approx(0.05, abs=1e-3)
    assert chi_square_p_value(18.307, 10) == pytest.approx(0.05, abs=1e-3)
    assert chi_square_p_value(55.758, 40) == pytest.approx(0.05, abs=1e-3)
    assert chi_square_p_value(20.0, 40) == pytest.approx(0.9963, abs=1e-3)
    assert chi_square_p_value(2000.0, 40) < 1e-100


def test_samples_are_uniform_by_a_chi_square_test():
    native("count-memo")
    puzzle = puzzle_of(DOMINO_3X6, "9*domino")
    assert puzzle.count("count-memo").total == 41
    draws = 41 * 60
    seen = Counter(frozenset(s.indices) for s in puzzle.sample(draws, seed=2024))
    assert len(seen) == 41  # every tiling came up
    expected = draws / 41
    statistic = sum((k - expected) ** 2 / expected for k in seen.values())
    # Uniform draws fail this 1% test once in a hundred seeds; this seed is fixed, so the test
    # is deterministic, and a sampler biased towards some tilings fails it by far.
    assert chi_square_p_value(statistic, 40) > 0.01


@pytest.mark.slow
def test_a_biased_sampler_fails_the_same_test():
    # Weighting each branch equally (as a plain random descent would) is not uniform: the
    # test must tell. Tilings of 3x6 reached by a coin at each branch have unequal chances.
    puzzle = puzzle_of(DOMINO_3X6, "9*domino")
    engine = puzzle.backend("count-memo-python")
    full_counter = engine.counter(full_problem(puzzle).problem)
    rng = random.Random(2024)
    seen = Counter()
    for _ in range(41 * 60):
        taken, closed = [], []
        while True:
            leaf, children = full_counter.weighted(taken, closed)
            children = [c for c in children if c[1] > 0]
            if not children:
                break
            choice = rng.choice(children)[0]
            (taken if choice >= 0 else closed).append(choice if choice >= 0 else -1 - choice)
        seen[frozenset(taken)] += 1
    expected = 41 * 60 / 41
    statistic = sum((seen.get(k, 0) - expected) ** 2 / expected for k in seen) + expected * (41 - len(seen))
    assert chi_square_p_value(statistic, 40) < 1e-6


def test_samples_are_solutions_and_reproducible():
    puzzle = puzzle_of("######\n##++##\n######\n", "0..8*domino,0..4*trominoes:L")
    first = puzzle.sample(30, seed=7)
    assert [s.indices for s in first] == [s.indices for s in puzzle.sample(30, seed=7)]
    assert [s.indices for s in first] != [s.indices for s in puzzle.sample(30, seed=8)]
    required = set(puzzle.board.cells) - set(puzzle.board.optional)
    for solution in first:
        cells = [c for cells in solution.placements.values() for c in cells]
        assert len(cells) == len(set(cells)) and required <= set(cells) <= set(puzzle.board.cells)
    # Both twins draw the same solutions from the same seed: the counts, not the code, decide.
    python = puzzle.sample(30, seed=7, backend="count-memo-python")
    assert [s.indices for s in python] == [s.indices for s in first]


def test_a_puzzle_without_solutions_samples_nothing():
    assert puzzle_of(".#.\n###\n.#.\n", "0..1*trominoes:I,0..1*domino").sample(3, seed=1) == []


def test_sample_needs_a_memoizing_backend():
    with pytest.raises(PolyfitError, match="memoizing"):
        puzzle_of(DOMINO_3X6, "9*domino").sample(1, backend="dlx-python")


def test_solve_sample_on_the_command_line():
    board = str(ROOT / "shapes/dominoes/10x10.txt")
    result = run_cli(["solve", board, "--sample", "3", "--seed", "5"])
    assert result.exit_code == 0, result.output
    assert result.output.count("Random solution") == 3
    again = run_cli(["solve", board, "--sample", "3", "--seed", "5"])
    assert again.output == result.output
    data = json.loads(run_cli(["solve", board, "--sample", "2", "--seed", "5", "--json"]).output)
    assert len(data["solutions"]) == 2
    for solution in data["solutions"]:
        assert len(solution) == 50 and sorted(c for cells in solution.values() for c in map(tuple, cells)) == [
            (r, c) for r in range(10) for c in range(10)
        ]
    bad = run_cli(["solve", board, "--sample", "2", "--count"])
    assert bad.exit_code == 2 and "--sample" in bad.output
    wrong = run_cli(["solve", board, "--sample", "2", "--backend", "dlx-c"])
    assert wrong.exit_code == 2 and "memoizing" in wrong.output
