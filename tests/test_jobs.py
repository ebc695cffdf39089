"""Long searches: jobs, parallel runs, checkpoints under real kills, Dask, job files, estimates."""

import json
import signal
import subprocess
import sys
import time

import pytest
from hypothesis import given, settings

from polyfit.formats.textart import read_text_board, read_voxel_text
from polyfit.xc.estimate import estimate
from polyfit.xc.problem import SearchStats
from polyfit.xc.jobs import restrict, split
from polyfit.longsearch import count_in_jobs, plan
from polyfit.puzzle.piece_sets import polyominoes, soma
from polyfit.puzzle.solve import Counts, Puzzle

from helpers import ROOT, built_in_registry, run_cli

from helpers import brute_force
from helpers import general_problems as problems

BOARDS = ROOT / "shapes" / "pentomino"


def polyfit_process(*args):
    return subprocess.Popen(
        [sys.executable, "-m", "polyfit", *map(str, args)],
        cwd=str(ROOT.parent), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )


# -- splitting -------------------------------------------------------------------------------------


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(problems())
def test_the_jobs_of_a_split_partition_the_solutions(problem):
    """With bounds and colours too: every solution is found by exactly one job."""
    python = built_in_registry().backends["dlx-python"]
    expected = brute_force(problem)
    for wanted in (1, 3, 20):
        found = []
        for job in split(problem, wanted):
            restricted = restrict(problem, job)
            if restricted is None:
                continue
            for solution in python.solutions(restricted.problem, SearchStats()):
                found.append(frozenset(job.forced + tuple(restricted.options[k] for k in solution)))
        assert len(found) == len(set(found))
        assert set(found) == expected


@pytest.mark.slow
def test_jobs_find_the_solutions_in_the_serial_order():
    """Jobs are the search's own branches, taken in its order: merged in job order, the
    solutions come out exactly as one serial search prints them, for any split."""
    registry = built_in_registry()
    puzzle = Puzzle(read_text_board(BOARDS / "3x20.txt"), polyominoes(5))
    for name in ("dlx-python", "dlx-c"):
        engine = registry.backends[name]
        serial = [f.placements for f in puzzle.search(engine, Counts())]
        for depth in (1, 2, 3):
            jobs = plan(puzzle, 1, depth)
            merged = []
            for index, job in enumerate(jobs):
                merged += [f.placements for f in puzzle.search_job(engine, job, Counts())]
            assert merged == serial, (name, depth)


@pytest.mark.slow
@pytest.mark.parametrize("processes", [1, 2])
def test_counts_in_jobs_equal_the_serial_counts(processes):
    registry = built_in_registry()
    cases = [
        (read_text_board(BOARDS / "5x12.txt"), polyominoes(5), (1010, 4040)),
        (read_voxel_text(ROOT / "shapes/soma/cube.vox"), soma(), (240, 11520)),
    ]
    for board, pieces, expected in cases:
        puzzle = Puzzle(board, pieces)
        engine = registry.backend("auto", puzzle.cover.problem)
        counts = count_in_jobs(puzzle, engine, plan(puzzle, processes), processes=processes)
        assert (counts.distinct, counts.total) == expected
        assert counts.complete


@pytest.mark.slow
def test_cli_jobs_give_the_same_solutions_in_the_same_order():
    board = str(BOARDS / "4x15.txt")
    outputs = []
    for jobs in ("1", "2", "3"):
        result = run_cli(["solve", board, "--jobs", jobs, "--limit", "40", "--json", "--backend", "dlx-c"])
        assert result.exit_code == 0, result.output
        outputs.append(json.loads(result.output)["solutions"])
    assert outputs[0] == outputs[1] == outputs[2] and len(outputs[0]) == 40
    counted = json.loads(run_cli(["solve", board, "--count", "--jobs", "2", "--json"]).output)
    assert (counted["distinct"], counted["total"], counted["jobs"] > 1) == (368, 1472, True)


# -- checkpoints -----------------------------------------------------------------------------------


def done_jobs(path):
    try:
        return len(json.loads(path.read_text())["done"])
    except (FileNotFoundError, ValueError, KeyError):
        return 0


@pytest.mark.slow
def test_kill_9_and_resume_until_done_gives_the_uninterrupted_counts(tmp_path):
    """Real process kills (SIGKILL) between checkpoints, then resumes, until the count is done."""
    board = BOARDS / "8x8-square-anywhere.txt"
    checkpoint = tmp_path / "count.checkpoint"
    args = ["solve", board, "--count", "--json", "--jobs", "1", "--depth", "3", "--backend", "dlx-c", "--quiet"]
    proc = polyfit_process(*args, "--checkpoint", checkpoint)
    kills = 0
    while True:
        # Let it finish a few more jobs, then kill it without warning.
        seen = done_jobs(checkpoint)
        deadline = time.monotonic() + 60
        while proc.poll() is None and done_jobs(checkpoint) < seen + 40 and time.monotonic() < deadline:
            time.sleep(0.05)
        if proc.poll() is not None:
            break
        proc.kill()
        proc.wait()
        kills += 1
        proc = polyfit_process(*args, "--resume", checkpoint)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err
    data = json.loads(out)
    assert kills >= 2, "the search ended before it could be killed twice"
    assert (data["distinct"], data["total"]) == (16146, 16146 * 8)


@pytest.mark.slow
def test_kill_9_in_the_first_moments_leaves_a_checkpoint_to_resume(tmp_path):
    """The checkpoint is written as the count starts, before any job is done: a ``kill -9``
    then leaves a file that --resume takes (before, it said "no such checkpoint")."""
    board = BOARDS / "8x8-square-anywhere.txt"
    checkpoint = tmp_path / "count.checkpoint"
    args = ["solve", board, "--count", "--json", "--jobs", "1", "--depth", "1", "--backend", "dlx-c", "--quiet"]
    proc = polyfit_process(*args, "--checkpoint", checkpoint)
    deadline = time.monotonic() + 60
    while not checkpoint.exists() and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.01)
    proc.kill()
    proc.wait()
    assert json.loads(checkpoint.read_text())["done"] == {}  # written before any job was done
    resumed = run_cli([*map(str, args), "--resume", str(checkpoint)])
    data = json.loads(resumed.output)
    assert (data["distinct"], data["total"]) == (16146, 129168)


@pytest.mark.slow
def test_ctrl_c_saves_the_checkpoint_and_says_how_to_go_on(tmp_path):
    board = BOARDS / "8x8-square-anywhere.txt"
    checkpoint = tmp_path / "c.json"
    proc = polyfit_process(
        "solve", board, "--count", "--jobs", "2", "--depth", "3", "--backend", "dlx-c", "--checkpoint", checkpoint
    )
    deadline = time.monotonic() + 60
    while done_jobs(checkpoint) < 20 and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.05)
    started = time.monotonic()
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    assert time.monotonic() - started < 2
    assert proc.returncode == 130, err
    assert "jobs done" in err and f"--resume {checkpoint}" in err and "Traceback" not in err
    resumed = run_cli(["solve", str(board), "--count", "--json", "--depth", "3", "--backend", "dlx-c", "--resume", str(checkpoint)])
    data = json.loads(resumed.output)
    assert (data["distinct"], data["total"]) == (16146, 129168)


def test_a_checkpoint_of_another_problem_is_refused(tmp_path):
    checkpoint = tmp_path / "c.json"
    first = run_cli(["solve", str(BOARDS / "3x20.txt"), "--count", "--checkpoint", str(checkpoint)])
    assert first.exit_code == 0, first.output
    other = run_cli(["solve", str(BOARDS / "4x15.txt"), "--count", "--resume", str(checkpoint)])
    assert other.exit_code == 2
    assert "checkpoint of another puzzle (3x20 box) than 4x15 box" in other.output
    again = run_cli(["solve", str(BOARDS / "3x20.txt"), "--count", "--checkpoint", str(checkpoint)])
    assert again.exit_code == 2 and "--resume" in again.output  # never overwritten unasked
    printing = run_cli(["solve", str(BOARDS / "3x20.txt"), "--checkpoint", str(tmp_path / "x.json")])
    assert printing.exit_code == 2 and "add --count" in printing.output


# -- job files and Dask ---------------------------------------------------------------------------


@pytest.mark.slow
def test_split_run_job_merge(tmp_path):
    out = tmp_path / "jobs"
    result = run_cli(["split", str(BOARDS / "5x12.txt"), "--depth", "1", "--out", str(out)])
    assert result.exit_code == 0, result.output
    files = sorted(out.glob("job-*.json"))
    assert len(files) > 3
    early = run_cli(["merge", str(out)])
    assert early.exit_code == 2 and f"{len(files)} of {len(files)} jobs have no result yet" in early.output
    for path in files:
        assert run_cli(["run-job", str(path)]).exit_code == 0
    merged = json.loads(run_cli(["merge", str(out), "--json"]).output)
    assert (merged["distinct"], merged["total"], merged["jobs"]) == (1010, 4040, len(files))
    again = run_cli(["split", str(BOARDS / "5x12.txt"), "--out", str(out)])
    assert again.exit_code == 2 and "not an empty directory" in again.output


def test_a_loop_over_the_job_files_never_meets_a_result(tmp_path):
    """docs/long-searches.md's ``for f in jobs/job-*.json`` run a second time (after a crash, say) met the
    ``job-NN.result.json`` files and ran them as jobs; results are ``result-job-NN.json``."""
    out = tmp_path / "jobs"
    assert run_cli(["split", str(BOARDS / "3x20.txt"), "--depth", "1", "--out", str(out)]).exit_code == 0
    jobs = sorted(out.glob("job-*.json"))
    for path in jobs:
        assert run_cli(["run-job", str(path)]).exit_code == 0
    assert sorted(out.glob("job-*.json")) == jobs
    assert sorted(out.glob("result-*.json")) == [out / f"result-{path.name}" for path in jobs]
    for path in sorted(out.glob("job-*.json")):  # the loop again: each is a job, and its result is there
        again = run_cli(["run-job", str(path)])
        assert again.exit_code == 2 and f"result-{path.name} exists; use --force" in again.output
    merged = json.loads(run_cli(["merge", str(out), "--json"]).output)
    assert (merged["distinct"], merged["jobs"]) == (2, len(jobs))


@pytest.mark.slow
def test_dask_local_cluster_gives_identical_counts():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        result = run_cli(["solve", str(BOARDS / "4x15.txt"), "--count", "--json", "--dask", cluster.scheduler_address])
        assert result.exit_code == 0, result.output
        data = json.loads(result.output)
        assert (data["distinct"], data["total"]) == (368, 1472) and data["jobs"] > 1
        listed = run_cli(["solve", str(BOARDS / "3x20.txt"), "--json", "--dask", cluster.scheduler_address])
        serial = run_cli(["solve", str(BOARDS / "3x20.txt"), "--json", "--jobs", "1"])
        assert json.loads(listed.output)["solutions"] == json.loads(serial.output)["solutions"]


@pytest.mark.slow  # the connection attempt waits about 5 s
def test_dask_without_a_scheduler_is_a_clear_error():
    pytest.importorskip("distributed")
    result = run_cli(["solve", str(BOARDS / "3x20.txt"), "--count", "--dask", "tcp://127.0.0.1:9"])
    assert result.exit_code == 2 and "cannot reach the Dask scheduler" in result.output


# -- estimates --------------------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize(
    "board, pieces",
    [(BOARDS / "4x15.txt", polyominoes(5)), (BOARDS / "3x20.txt", polyominoes(5)), (ROOT / "shapes/soma/cube.vox", soma())],
)
def test_the_estimate_is_within_a_factor_of_two_of_the_real_node_count(board, pieces):
    shape = read_voxel_text(board) if board.suffix == ".vox" else read_text_board(board)
    puzzle = Puzzle(shape, pieces)
    real = puzzle.count(built_in_registry().backends["dlx-c"]).search.nodes
    guess = estimate(puzzle.cover.problem, 4000, seed=3)
    assert real / 2 <= guess.nodes <= real * 2, (guess.nodes, real)


def test_estimate_command_json():
    result = run_cli(["estimate", str(BOARDS / "4x15.txt"), "--json", "--probes", "500"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert {"nodes", "solutions", "seconds"} <= set(data)
    assert data["nodes"] > 0 and data["seconds"] > 0
