"""Long counts: split into jobs, run on every core or a cluster, checkpointed, watched.

The command line asks :func:`how_to_run` and then calls :func:`run_jobs` when a search should
use several processes, a Dask cluster, a checkpoint, or a progress bar; the jobs come from :func:`polyfit.xc.jobs.split` and
their results merge in job order, so the counts equal those of one serial search.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Iterator

from polyfit.xc.estimate import estimate
from polyfit.xc.jobs import Job, split
from polyfit.longsearch.workers import JobResult, default_processes, run_dask, run_local
from polyfit.puzzle.solve import Counts, Found

if TYPE_CHECKING:
    from polyfit.longsearch.checkpoint import Checkpoint

PARALLEL_NODES = 300_000  # from about this many estimated nodes, more processes pay off
WATCHED_NODES = 2_000_000  # a count this long shows a progress bar even on one process
NODES_PER_JOB = 200_000  # jobs much smaller than this cost more to set up than they save


def quick_estimate(puzzle, probes: int = 32) -> float:
    """Search nodes by a few random probes (a few milliseconds): enough to plan with. Kept
    on the puzzle, as several decisions ask for it."""
    known = getattr(puzzle, "_quick_estimate", None)
    if known is None:
        if puzzle.impossible is not None or not puzzle.cover.problem.options:
            known = 0.0
        else:
            known = estimate(puzzle.cover.problem, probes, seed=1).nodes
        puzzle._quick_estimate = known
    return known


def worth_parallel(puzzle) -> bool:
    """Does a quick estimate say the search is long enough to use every core?"""
    return len(puzzle.cover.problem.options) >= 64 and quick_estimate(puzzle) >= PARALLEL_NODES


def how_to_run(puzzle, jobs: int | None, asked_for_jobs: bool, count: bool, watched: bool) -> tuple[bool, int]:
    """Whether to run the search as jobs, and on how many processes.

    Jobs when asked for (``asked_for_jobs``: --jobs above 1, --dask, --checkpoint, --resume or
    --depth); for a count, also on every core when ``jobs`` is unset and the estimate says the
    search is long, or on one process for the progress bar of a long count on a terminal
    (``watched``)."""
    processes = jobs or 1
    if asked_for_jobs or not count or puzzle.impossible is not None:
        return asked_for_jobs, processes
    cores = default_processes()
    if jobs is None and cores > 1 and worth_parallel(puzzle):
        return True, cores
    return watched and quick_estimate(puzzle) >= WATCHED_NODES, processes


def plan(puzzle, processes: int, depth: int | None = None) -> list[Job]:
    """The jobs of a puzzle: the branches at ``depth``, or enough for ``processes`` to share
    evenly: two per process for a short search, more for a long one (about one per
    ``NODES_PER_JOB`` estimated nodes, up to 64 per process), as jobs vary in size."""
    problem = puzzle.cover.problem
    if depth is not None:
        return split(problem, jobs=10**9, max_depth=depth)
    wanted = round(quick_estimate(puzzle) / NODES_PER_JOB)
    return split(problem, jobs=max(2 * processes, min(64 * processes, wanted)))


@dataclass
class Progress:
    done: int
    jobs: int
    counts: Counts
    elapsed: float
    fraction: float  # of the search tree done, by the jobs' shares (as dlx1 reckons it)


def run_jobs(
    puzzle,
    backend,
    jobs: list[Job],
    counts: Counts,
    *,
    processes: int = 1,
    dask: str | None = None,
    checkpoint: Checkpoint | None = None,
    keep_solutions: bool = False,
    on_result: Callable[[JobResult, Progress], None] | None = None,
    on_start: Callable[[], None] | None = None,
) -> Iterator[Found]:
    """Run the jobs not yet done in ``checkpoint``, adding their counts to ``counts`` (with
    those of the jobs done before) and yielding their solutions when ``keep_solutions``."""
    start = time.perf_counter()
    done = 0
    pending = list(enumerate(jobs))
    fraction = 1.0 - sum(job.share for job in jobs)  # dead ends the split already ruled out
    if checkpoint is not None:
        for result in checkpoint.done.values():
            result.add_to(counts)
        done = len(checkpoint.done)
        fraction += sum(jobs[i].share for i in checkpoint.done if i < len(jobs))
        pending = [(i, job) for i, job in pending if i not in checkpoint.done]
    if dask is not None:
        results = run_dask(dask, puzzle, backend, pending, keep_solutions)
    else:
        results = run_local(puzzle, backend, pending, processes, keep_solutions)
    if on_start is not None:
        on_start()
    try:
        for result in results:
            result.add_to(counts)
            done += 1
            fraction += jobs[result.index].share
            if checkpoint is not None:
                checkpoint.record(result, force=done == len(jobs))
            if on_result is not None:
                elapsed = time.perf_counter() - start
                on_result(result, Progress(done, len(jobs), counts, elapsed, min(1.0, fraction)))
            for placements, canonical, weight in result.solutions:
                yield Found(tuple(placements), canonical, weight)
        counts.complete = True
    finally:
        counts.seconds = time.perf_counter() - start
        if checkpoint is not None and checkpoint.done:
            checkpoint.save()


def count_in_jobs(puzzle, backend, jobs: list[Job], **options) -> Counts:
    """Run the jobs and return the merged counts."""
    counts = Counts()
    for _ in run_jobs(puzzle, backend, jobs, counts, **options):
        pass
    return counts


def open_checkpoint(puzzle, jobs, path, resume: bool) -> Checkpoint:
    from polyfit.longsearch.checkpoint import Checkpoint, problem_digest

    digest = problem_digest(puzzle.cover.problem, jobs)
    if resume:
        return Checkpoint.load(path, digest, len(jobs), puzzle.board.label)
    return Checkpoint(path, digest, len(jobs), puzzle.board.label)

