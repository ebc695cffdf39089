"""polyfit.longsearch.run: one call runs a search serially or as jobs; checkpoints, interrupts,
leftovers of kills and workers that must not outlive their parent."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from polyfit import longsearch
from polyfit.errors import PolyfitError
from polyfit.formats.textart import read_text_board
from polyfit.puzzle.piece_sets import polyominoes
from polyfit.puzzle.solve import Puzzle
from polyfit.report import interrupted_text

from helpers import ROOT, built_in_registry, run_cli

BOARDS = ROOT / "shapes" / "pentomino"


def pentominoes(board="5x12.txt"):
    puzzle = Puzzle(read_text_board(BOARDS / board), polyominoes(5))
    return puzzle, built_in_registry().backends["dlx-c"]


# -- the one call ---------------------------------------------------------------------------------


@pytest.mark.slow
def test_run_gives_the_serial_counts_on_several_processes():
    puzzle, engine = pentominoes()
    serial = longsearch.run(puzzle, engine, jobs=1)  # one process, not split: no need
    assert not serial.split and serial.jobs == 0
    assert (serial.finish().distinct, serial.counts.total) == (1010, 4040)
    heard = []
    search = longsearch.run(puzzle, engine, jobs=2, on_progress=heard.append)
    assert search.split and search.jobs > 2 and search.processes == 2
    counts = search.finish()
    assert (counts.distinct, counts.total, counts.complete) == (1010, 4040, True)
    assert heard[0].done == 0 and heard[-1].done == search.jobs == search.done


def test_run_as_jobs_yields_the_solutions_in_the_serial_order():
    puzzle, engine = pentominoes("3x20.txt")
    serial = [f.placements for f in longsearch.run(puzzle, engine, count=False)]
    split = [f.placements for f in longsearch.run(puzzle, engine, count=False, jobs=2, depth=2)]
    assert split == serial and len(serial) == 4


def test_interrupted_reports_jobs_and_nodes_and_the_resume_hint(tmp_path):
    puzzle, engine = pentominoes()
    path = tmp_path / "c.json"
    untouched = longsearch.run(puzzle, engine, checkpoint=path)
    report = interrupted_text(untouched)
    assert f"0 of {untouched.jobs} jobs done" in report and "nodes searched" in report
    # The checkpoint is written when the count starts: even now there is one to go on from.
    assert report.endswith(f"; go on with --resume {path}")
    assert json.loads(path.read_text())["done"] == {}

    def ctrl_c_after_two_jobs(progress):
        if progress.done == 2:
            raise KeyboardInterrupt

    search = longsearch.run(puzzle, engine, checkpoint=path, on_progress=ctrl_c_after_two_jobs, force=True)
    with pytest.raises(KeyboardInterrupt):
        search.finish()
    report = interrupted_text(search)
    assert report.startswith("interrupted after ") and f"2 of {search.jobs} jobs done" in report
    assert report.endswith(f"; go on with --resume {path}")
    assert len(json.loads(path.read_text())["done"]) == 2


def test_the_checkpoint_is_written_when_the_count_starts(tmp_path):
    """Before any job is done, so a kill in the first seconds leaves a checkpoint to resume."""
    puzzle, engine = pentominoes("4x15.txt")  # 368 distinct tilings, 1472 in all
    path = tmp_path / "c.json"
    search = longsearch.run(puzzle, engine, checkpoint=path, jobs=1)
    assert json.loads(path.read_text())["done"] == {}
    search.close()
    resumed = longsearch.run(pentominoes("4x15.txt")[0], engine, resume=path, jobs=1).finish()
    assert (resumed.distinct, resumed.total) == (368, 1472)


def test_run_refuses_what_it_cannot_do(tmp_path):
    puzzle, engine = pentominoes("3x20.txt")
    with pytest.raises(PolyfitError, match="add --count"):
        longsearch.run(puzzle, engine, count=False, checkpoint=tmp_path / "c.json")
    with pytest.raises(PolyfitError, match="one serial search"):
        longsearch.run(puzzle, engine, jobs=2, seed=1)
    with pytest.raises(PolyfitError, match="keeps saving to FILE"):
        longsearch.run(puzzle, engine, checkpoint=tmp_path / "a.json", resume=tmp_path / "b.json")


# -- checkpoints ----------------------------------------------------------------------------------


@pytest.mark.slow
def test_the_same_file_as_checkpoint_and_resume_starts_it_then_resumes_it(tmp_path):
    """A script that always passes --checkpoint F --resume F: the first run starts F, the next
    go on from it (and keep saving to it)."""
    path = tmp_path / "c.json"
    args = ["solve", str(BOARDS / "5x12.txt"), "--count", "--json", "--checkpoint", str(path), "--resume", str(path)]
    for _ in range(2):
        result = run_cli(args)
        assert result.exit_code == 0, result.output
        data = json.loads(result.output)
        assert (data["distinct"], data["total"]) == (1010, 4040)
    assert len(json.loads(path.read_text())["done"]) == data["jobs"]
    puzzle, engine = pentominoes()
    search = longsearch.run(puzzle, engine, checkpoint=path, resume=path)
    assert search.done == search.jobs  # resumed: every job was done before
    assert search.finish().total == 4040 and search.counts.search.nodes == data["nodes"]


def test_a_kills_leftover_temporary_checkpoint_is_removed_on_the_next_run(tmp_path):
    """``kill -9`` during a save leaves ``.NAME.XXXXXXXX.part`` beside the checkpoint; the next
    run with that checkpoint removes it, and nothing else."""
    path = tmp_path / "count.json"
    leftover = tmp_path / ".count.json.3fa9c01b.part"
    leftover.write_bytes(b"")
    others = [tmp_path / ".count.json.backup-1", tmp_path / ".other.json.3fa9c01b.part",
              tmp_path / "count.json.3fa9c01b.part", tmp_path / ".count.json.3fa9c01b"]
    for other in others:
        other.write_text("keep")
    result = run_cli(["solve", str(BOARDS / "3x20.txt"), "--count", "--checkpoint", str(path)])
    assert result.exit_code == 0, result.output
    assert not leftover.exists() and path.exists()
    assert all(other.read_text() == "keep" for other in others)


# -- workers die with their parent ----------------------------------------------------------------


def children(pid: int) -> set[int]:
    """The living child processes of ``pid``, from /proc."""
    found = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[1]) == pid and fields[0] != "Z":
            found.add(int(stat.parent.name))
    return found


def alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return False


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc to find the workers")
def test_workers_exit_when_their_parent_is_killed():
    # Seven jobs of many seconds each: a worker cannot just finish its job and find the pipe
    # to its parent closed before the deadline.
    args = ["solve", BOARDS / "6x10.txt", "--count", "--jobs", "2", "--depth", "1", "--backend", "dlx-python", "--quiet"]
    proc = subprocess.Popen(
        [sys.executable, "-m", "polyfit", *map(str, args)], cwd=str(ROOT.parent),
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    workers: set[int] = set()
    try:
        deadline = time.monotonic() + 60
        while len(workers) < 2 and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
            workers = children(proc.pid)
        assert len(workers) >= 2 and proc.poll() is None, "the count never ran on two workers"
        time.sleep(0.3)  # well into their jobs
        proc.kill()
        proc.wait()
        deadline = time.monotonic() + 5
        while any(alive(w) for w in workers) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not [w for w in workers if alive(w)], "workers outlived the killed count"
    finally:
        proc.kill()
        for worker in workers:
            if alive(worker):
                os.kill(worker, signal.SIGKILL)


def test_jobs_are_capped_before_anything_is_planned_or_forked(monkeypatch):
    """The reproducer: ``--jobs 100000`` on the 6x10 box planned 200,000 jobs and forked
    thousands of processes. Now it is refused before any planning (which would fail here)."""
    from polyfit.limits import most_processes

    def no_planning(*args, **kwargs):
        raise AssertionError("planned jobs for a refused --jobs")

    monkeypatch.setattr(longsearch.planning, "plan", no_planning)  # run() takes it from there when it splits
    puzzle, engine = pentominoes("3x20.txt")
    most = most_processes()
    for jobs in (most + 1, 100_000, 0):
        with pytest.raises(PolyfitError, match=rf"--jobs takes 1 to {most} worker processes here .*, not {jobs}"):
            longsearch.run(puzzle, engine, jobs=jobs)
    import polyfit

    with pytest.raises(PolyfitError, match="--jobs takes 1 to"):
        polyfit.load(BOARDS / "3x20.txt").count(jobs=100_000)


def test_jobs_are_capped_on_the_command_line(tmp_path):
    for args in (
        ["solve", str(BOARDS / "6x10.txt"), "--count", "--jobs", "100000"],
        ["generate", "--pieces", "pentominoes", "--within", "6x10", "-o", str(tmp_path / "g"), "--jobs", "100000"],
    ):
        result = run_cli(args)
        assert result.exit_code == 2 and "--jobs takes 1 to" in result.output, result.output
        assert "Traceback" not in result.output
    assert not (tmp_path / "g").exists()
