"""Linear certificates: impossible puzzles proved so by a colouring, found by elimination."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import polyfit
from polyfit.puzzle.solve import Puzzle
from polyfit.xc.certificate import find_certificate
from polyfit.xc.problem import ExactCoverProblem


def unpruned(rows, spec):
    board = polyfit.Board.from_text("\n".join(rows) + "\n")
    return Puzzle(board, polyfit.pieces(spec), prune=False, break_symmetry=False)


def assert_proves(problem, certificate):
    """Every option weighs 0 and the target does not, mod the prime: so no solution."""
    p = certificate.prime
    for option in problem.options:
        assert certificate.weight_of(option) == 0
    fixed = [k for k in range(len(problem.primary)) if problem.bound(k)[0] == problem.bound(k)[1]]
    target = sum(certificate.weights.get(k, 0) * problem.bound(k)[0] for k in fixed) % p
    assert target == certificate.target % p != 0
    assert all(k in fixed for k in certificate.weights)


@pytest.mark.parametrize("rows, spec", [
    (["." + "#" * 7] + ["#" * 8] * 7, "21*trominoes:I"),  # 8x8 less a corner
    (["#" * 10] * 10, "25*tetrominoes:I"),
    (["." + "#" * 7] + ["#" * 8] * 6 + ["#" * 7 + "."], "31*domino"),  # the mutilated chessboard
])
def test_literature_impossibilities_have_certificates(rows, spec):
    puzzle = unpruned(rows, spec)
    certificate = find_certificate(puzzle.cover.problem)
    assert certificate is not None
    assert_proves(puzzle.cover.problem, certificate)


def test_the_tromino_board_less_another_cell_has_none():
    """8x8 less the cell at row 2, column 2 (counting from 0) can be tiled: no certificate."""
    rows = ["#" * 8] * 2 + ["##." + "#" * 5] + ["#" * 8] * 5
    puzzle = unpruned(rows, "21*trominoes:I")
    assert find_certificate(puzzle.cover.problem) is None
    assert polyfit.Puzzle(puzzle.board, "21*trominoes:I").count(jobs=1).total > 0


def brute_force_has_solution(problem) -> bool:
    n = len(problem.primary)
    for size in range(len(problem.options) + 1):
        for chosen in itertools.combinations(range(len(problem.options)), size):
            cover = [0] * len(problem.items)
            for k in chosen:
                for i in problem.options[k]:
                    cover[i] += 1
            if all(problem.bound(i)[0] <= cover[i] <= problem.bound(i)[1] for i in range(n)) and all(
                c <= 1 for c in cover[n:]
            ):
                return True
    return False


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 10**6))
def test_a_certificate_is_never_found_for_a_solvable_problem(seed):
    rng = random.Random(seed)
    n = rng.randint(1, 6)
    options = [tuple(sorted(rng.sample(range(n), rng.randint(1, n)))) for _ in range(rng.randint(0, 7))]
    bounds = [(1, 1) if rng.random() < 0.8 else (0, 2) for _ in range(n)]
    problem = ExactCoverProblem([f"i{k}" for k in range(n)], [], list(dict.fromkeys(options)), bounds)
    certificate = find_certificate(problem)
    if certificate is not None:
        assert_proves(problem, certificate)
        assert not brute_force_has_solution(problem)
