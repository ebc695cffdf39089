"""Running a puzzle's jobs, skipping those a checkpoint has, and adding their counts up.

The jobs come from :func:`polyfit.longsearch.planning.plan`; their results come back and merge
in job order whatever ran them, so the counts (and solutions) equal those of one serial search.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Iterator

from polyfit.xc.jobs import Job
from polyfit.longsearch.workers import run_dask, run_local
from polyfit.puzzle.solve import Counts, Found

if TYPE_CHECKING:
    from polyfit.longsearch.checkpoint import Checkpoint


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
    on_progress: Callable[[Progress], None] | None = None,
) -> Iterator[Found]:
    """Run the jobs not yet done in ``checkpoint``, adding their counts to ``counts`` (with
    those of the jobs done before) and yielding their solutions when ``keep_solutions``.

    ``on_progress`` hears once when the workers have started (so that a thread it starts, a
    progress bar's say, is not forked with them) and again after each job."""
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

    def report():
        if on_progress is not None:
            elapsed = time.perf_counter() - start
            on_progress(Progress(done, len(jobs), counts, elapsed, min(1.0, fraction)))

    try:
        report()
        for result in results:
            result.add_to(counts)
            done += 1
            fraction += jobs[result.index].share
            if checkpoint is not None:
                checkpoint.record(result, force=done == len(jobs))
            report()
            for placements, canonical, weight in result.solutions:
                yield Found(tuple(placements), canonical, weight)
        if checkpoint is not None:
            checkpoint.check_complete(counts)
        counts.complete = True
    finally:
        counts.seconds = time.perf_counter() - start
        results.close()  # stops the workers of an unfinished run
        if checkpoint is not None and checkpoint.done:
            checkpoint.save()


def count_in_jobs(puzzle, backend, jobs: list[Job], **options) -> Counts:
    """Run the jobs and return the merged counts."""
    counts = Counts()
    for _ in run_jobs(puzzle, backend, jobs, counts, **options):
        pass
    return counts
