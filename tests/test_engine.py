"""The one run: the engine decides what ``auto`` means, every face runs through
:meth:`polyfit.Puzzle.run`, and a puzzle keeps the registry it was made with."""

from __future__ import annotations

import json

import pytest

import polyfit
from polyfit import engine, report
from polyfit.hookspecs import hookimpl
from polyfit.plugins import get_plugin_manager
from polyfit.registry import Registry

from helpers import ROOT, native, run_cli


def box(rows, columns):
    return polyfit.Board.from_text(("#" * columns + "\n") * rows)


def test_auto_counts_4x24_right_trominoes_with_the_memo_counter():
    """The quick estimate of this search is noisy (0.3M to 2M nodes for 4.3M, and 318,000
    solutions no probe meets), and one threshold on it missed the memo counter: 60 s instead of
    a fraction of a second. The engine tries the memo counter within a budget instead."""
    native("count-memo")
    puzzle = polyfit.Puzzle(box(4, 24), "trominoes:L=32")
    plan = puzzle.plan("count")
    assert plan.counter is not None and plan.counter.name == "count-memo" and plan.node_limit > 0
    run = puzzle.run(count=True)
    counts = run.finish()
    assert (counts.distinct, counts.total) == (159590, 636368)  # OEIS A046984: 636,368 tilings
    assert run.summary()["backend"] == "count-memo"


def test_past_its_budget_the_memo_counter_gives_way_to_the_search_and_the_counts_agree():
    native("count-memo")
    puzzle = polyfit.Puzzle(box(6, 6), "18*domino")
    plan = puzzle.plan("count", jobs=1)
    assert plan.counter is not None
    plan.node_limit = 3  # far fewer states than this count needs
    run = polyfit.Run(puzzle, plan, count=True)
    counts = run.finish()
    assert (counts.total, counts.distinct) == (6728, 930) and counts.complete  # as count-memo counts it whole
    assert plan.counter is None and "searched" in plan.why
    assert run.summary()["backend"] == plan.backend.name


def test_no_repeated_piece_no_memo_counter():
    puzzle = polyfit.load(ROOT / "shapes" / "pentomino" / "6x10.txt")
    plan = puzzle.plan("count", jobs=1)
    assert plan.counter is None and plan.backend.name == "bitset-c" or plan.backend.name == "dlx-c"


def test_a_long_count_is_split_over_the_cores_and_a_short_one_is_not():
    puzzle = polyfit.load(ROOT / "shapes" / "pentomino" / "6x10.txt")
    long = puzzle.plan("count", cores=2)
    assert long.split and long.processes == 2 and "split over 2 processes" in long.why
    short = polyfit.load(ROOT / "shapes" / "pentomino" / "3x20.txt").plan("count", cores=2)
    assert not short.split and short.processes == 1
    assert not puzzle.plan("count", jobs=1, cores=2).split  # one process asked for


def test_the_tree_is_probed_only_when_a_decision_asks_how_long_the_search_is(monkeypatch):
    """One process asked for, no piece used twice, nobody watching: neither the memo counter
    nor a split depends on the estimate, so no probe is made; the count is unchanged. Without
    --jobs (the split), with repeated pieces (the memo counter) or watched, it is made."""
    import polyfit.xc.estimate

    probes = []
    real = polyfit.xc.estimate.estimate
    monkeypatch.setattr(polyfit.xc.estimate, "estimate", lambda *a, **k: probes.append(1) or real(*a, **k))
    puzzle = polyfit.load(ROOT / "shapes" / "pentomino" / "6x10.txt")
    plan = puzzle.plan("count", jobs=1, cores=2)
    assert plan.prediction is None and not plan.split and plan.counter is None and not probes
    assert puzzle.count(jobs=1).distinct == 2339 and not probes
    assert puzzle.plan("count", cores=2).prediction is not None and len(probes) == 1  # may split
    assert polyfit.load(ROOT / "shapes" / "pentomino" / "6x10.txt").plan(
        "count", jobs=1, cores=2, watched=True).prediction is not None and len(probes) == 2
    repeated = polyfit.Puzzle(box(6, 6), "18*domino")
    assert repeated.plan("count", jobs=1, cores=1).prediction is not None and len(probes) == 3  # the memo counter may


def test_the_model_predicts_more_for_a_bigger_search():
    small = polyfit.load(ROOT / "shapes" / "pentomino" / "3x20.txt")
    big = polyfit.load(ROOT / "shapes" / "pentomino" / "6x10.txt")
    backend = small.backend("bitset-python")
    assert engine.predict(small, backend).seconds < engine.predict(big, backend).seconds
    assert engine.predict(big, backend).seconds > engine.predict(big, big.backend("bitset-c")).seconds


def test_a_search_of_few_options_is_bounded_without_probes(monkeypatch):
    """Six keys in a big box leave six options over a thousand items: 64 probes scanning every
    item at every step cost more than the search. With ``FEW_OPTIONS`` or fewer, the prediction
    is the bound ``2**options`` and no probe is made; the count is unchanged."""
    import polyfit.xc.estimate

    puzzle = polyfit.Puzzle(polyfit.read_board(ROOT / "benchmarks" / "data" / "burrtools" / "keys-in-a-box.xmpuzzle"))
    options = len(puzzle.cover.problem.options)
    assert 0 < options <= engine.FEW_OPTIONS

    def no_probes(*args, **kwargs):
        raise AssertionError("probed a search of few options")

    monkeypatch.setattr(polyfit.xc.estimate, "estimate", no_probes)
    backend = puzzle.backend("bitset-python")
    prediction = engine.predict(puzzle, backend)
    assert prediction.nodes == 2**options and prediction.seconds < engine.MEMO_SECONDS
    assert puzzle.count(jobs=1).distinct == 1

    many = polyfit.Puzzle(box(3, 20), "pentominoes")
    assert len(many.cover.problem.options) > engine.FEW_OPTIONS
    with pytest.raises(AssertionError, match="probed"):
        engine.predict(many, backend)


def test_a_puzzle_keeps_the_registry_it_was_loaded_with():
    """``polyfit.load(path, plugins=reg).count(...)`` used the global registry: a backend only
    ``reg`` has was unknown."""
    calls = []

    class Recording:
        name = "recording"
        capabilities = frozenset({"secondary", "multiplicities", "colours"})

        def unavailable_reason(self):
            return None

        def solutions(self, problem, stats):
            calls.append(len(problem.options))
            yield from polyfit.registry().backends["dlx-python"].solutions(problem, stats)

    class Plugin:
        @hookimpl
        def register_backends(self, register):
            register(Recording())

    pm = get_plugin_manager(load_entrypoints=False)
    pm.register(Plugin(), "recording-plugin")
    reg = Registry.from_plugins(pm)
    puzzle = polyfit.load(ROOT / "shapes" / "pentomino" / "3x20.txt", plugins=reg)
    assert puzzle.count(backend="recording", jobs=1).distinct == 2
    assert calls and "recording" not in polyfit.registry().backends


def test_every_face_reports_the_same_counts(tmp_path):
    """The command line's JSON, the API's run summary and the studio's count come from one
    report."""
    path = ROOT / "shapes" / "pentomino" / "5x12.txt"
    result = run_cli(["solve", str(path), "--count", "--json", "--jobs", "1"])
    assert result.exit_code == 0, result.output
    cli = json.loads(result.output)
    run = polyfit.load(path).run(count=True, jobs=1)
    run.finish()
    api = run.summary()
    for key in ("board", "distinct", "distinct_rotations", "total", "options", "items", "backend"):
        assert cli[key] == api[key], key


def test_an_estimate_that_met_no_solution_says_unknown_not_zero():
    """3x4x5 pentacubes have 3940 solutions, but short random probes meet none: the JSON says
    null and the text says unknown, never 'solutions 0 (95% range 0 to 0)'."""
    from polyfit.xc.estimate import Estimate, SearchEstimate

    puzzle = polyfit.load(ROOT / "shapes" / "pentomino" / "6x10.txt")
    none_met = Estimate(probes=200, nodes=1e6, solutions=0.0, nodes_low=5e5, nodes_high=2e6,
                        solutions_low=0.0, solutions_high=0.0, seconds=0.5, converged=False)
    found = SearchEstimate(none_met, rate=1e6, exact=False, seconds=0.5)
    data = report.estimate_json(puzzle, puzzle.backend("bitset-c"), found)
    assert data["solutions"] is None and data["solutions_low"] is None and data["solutions_high"] is None
    assert data["nodes"] == 1000000
    text = report.estimate_text(puzzle, puzzle.backend("bitset-c"), found)
    assert "solutions: unknown" in text and "0 to 0" not in text


def test_misspelled_names_get_a_suggestion():
    result = run_cli(["solve", str(ROOT / "shapes" / "pentomino" / "6x10.txt"), "--pieces", "pentominos", "--count"])
    assert result.exit_code == 2
    assert "unknown piece set 'pentominos' (did you mean 'pentominoes'?)" in result.output
    result = run_cli(["solve", str(ROOT / "shapes" / "pentomino" / "6x10.txt"), "--backend", "bitset", "--count"])
    assert "(did you mean 'bitset-c'?)" in result.output


def test_counts_of_one_are_singular_in_stats():
    board = box(1, 2)
    puzzle = polyfit.Puzzle(board, "domino")
    counts = puzzle.count()
    text = report.stats_text(puzzle, counts, puzzle.backend("auto"))
    assert "1 option," in text or "1 option\n" in text or text.count("1 options") == 0
    assert "1 nodes" not in text and "1 options" not in text and "1 items" not in text


def test_the_hex_error_counts_board_rows_not_file_lines(tmp_path):
    path = tmp_path / "hex.txt"
    path.write_text("; lattice: hex\n; pieces: tetrahexes\n\n# # #\n # # \n#  # #\n")
    result = run_cli(["solve", str(path)])
    assert result.exit_code == 2
    assert f"{path}:6:4:" in result.output  # the file's line and column, where the error is
    assert "this is row 2, column 3" in result.output  # the rule's own numbers: board rows


def test_sample_goes_through_the_engine_and_refuses_a_plain_backend():
    puzzle = polyfit.Puzzle(box(4, 6), "trominoes:L=8")
    assert len(puzzle.sample(3, seed=1)) == 3
    with pytest.raises(polyfit.PolyfitError, match="memoizing backend"):
        puzzle.sample(3, seed=1, backend="dlx-python")
