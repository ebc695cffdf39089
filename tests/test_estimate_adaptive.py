"""Estimates that hold by default: adaptive probes until the 95% range is within 1.5x or the
time budget is spent, and the search itself when it would be over sooner (exact numbers)."""

from __future__ import annotations

import json

import pytest

from helpers import ROOT, built_in_registry, queens, run_cli

from polyfit.xc.estimate import MIN_PROBES, adaptive_estimate, estimate_search
from polyfit.xc.problem import SearchStats


def real_nodes(problem, name="dlx-c"):
    stats = SearchStats()
    for _ in built_in_registry().backends[name].solutions(problem, stats):
        pass
    return stats


def test_probes_go_on_until_the_range_is_within_the_factor():
    problem = queens(9)
    result = adaptive_estimate(problem, seed=0, spread=1.5, budget=30)
    assert result.converged and result.probes >= MIN_PROBES
    assert result.nodes_high <= 1.5 * result.nodes and result.nodes_low * 1.5 >= result.nodes
    real = real_nodes(problem).nodes
    assert real / 2 <= result.nodes <= 2 * real


def test_a_spent_budget_stops_the_probes_and_says_the_range_did_not_converge():
    result = adaptive_estimate(queens(9), seed=0, spread=1.0001, budget=0.05)
    assert not result.converged and 50 <= result.probes < 100_000


def test_a_short_search_is_run_instead_and_the_numbers_are_exact():
    problem = queens(8)
    engine = built_in_registry().backends["dlx-c"]
    found = estimate_search(problem, engine)
    assert found.exact
    stats = real_nodes(problem)
    assert (found.estimate.nodes, found.estimate.solutions) == (stats.nodes, stats.solutions) == (stats.nodes, 92)


@pytest.mark.slow
def test_the_estimate_command_says_when_it_searched_and_when_it_probed():
    board = str(ROOT / "shapes/pentomino/3x20.txt")
    result = run_cli(["estimate", board])
    assert result.exit_code == 0, result.output
    assert "searched in full" in result.output and "2,418  (exact)" in result.output
    data = json.loads(run_cli(["estimate", board, "--json"]).output)
    assert data["exact"] and data["nodes"] == 2418 and data["probes"] >= MIN_PROBES
    fixed = json.loads(run_cli(["estimate", board, "--json", "--probes", "300"]).output)
    assert fixed["probes"] == 300 and not fixed["exact"]
    probed = run_cli(["estimate", board, "--probes", "300"])
    assert "estimate from 300 random probes (as asked)" in probed.output


@pytest.mark.slow
def test_a_huge_subtree_the_probes_called_small_cannot_hold_up_the_estimate(tmp_path):
    """The 18 one-sided pentominoes in a 9x10 box: the speed measurement once searched a
    subtree the probes had called small to its end, for minutes. Now it is cut off when its
    time is up, and the estimate says what it could not measure."""
    import subprocess
    import sys
    import time

    board = tmp_path / "one-sided.txt"
    board.write_text("; pieces: one-sided-pentominoes\n" + "\n".join(["#" * 10] * 9) + "\n")
    start = time.monotonic()
    result = subprocess.run([sys.executable, "-m", "polyfit", "estimate", str(board), "--json"],
                            cwd=ROOT.parent, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["nodes"] > 10**8 and not data["exact"]
    assert (data["seconds"] is None) == (data["nodes_per_second"] is None)
    assert time.monotonic() - start < 60
