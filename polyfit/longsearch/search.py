"""One call for a search of any length: :func:`run` decides how to run it and runs it.

It checks the checkpoint options, plans jobs when the search is long or they are asked for,
runs them here, on local processes or on Dask (or runs one serial search), and hands back a
:class:`LongSearch` to iterate. Nothing here prints or exits: the command line and the Python
API show what they like of it.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterator

from polyfit.errors import PolyfitError
from polyfit.files import check_writable, path_exists
from polyfit.limits import check_processes
from polyfit.puzzle.solve import Counts, Found

if TYPE_CHECKING:
    from polyfit.longsearch.checkpoint import Checkpoint
    from polyfit.longsearch.runner import Progress


def asks_for_jobs(jobs=None, dask=None, checkpoint=None, resume=None, depth=None) -> bool:
    """Do these options make a search run as jobs, however short it is?"""
    return (jobs or 1) > 1 or any(x is not None for x in (dask, checkpoint, resume, depth))


class LongSearch:
    """A search under way. Iterate over it for the solutions found (:class:`Found`, none for a
    count); ``counts`` grows as it goes. ``jobs`` is the number of jobs (0 for one serial
    search), ``processes`` how many local processes run them (None on Dask)."""

    def __init__(self, founds, counts: Counts, jobs: int, processes: int | None, checkpoint: Checkpoint | None):
        self._founds = founds
        self.counts = counts
        self.jobs = jobs
        self.processes = processes
        self.checkpoint = checkpoint
        self.done = len(checkpoint.done) if checkpoint is not None else 0  # jobs done so far
        self._start = time.perf_counter()

    @property
    def split(self) -> bool:
        return self.jobs > 0

    def __iter__(self) -> Iterator[Found]:
        try:
            yield from self._founds
        finally:
            self.close()

    def finish(self) -> Counts:
        """Run to the end; the counts."""
        for _ in self:
            pass
        return self.counts

    def close(self) -> None:
        """Stop the search (its workers too) and save the checkpoint; the counts stay."""
        close = getattr(self._founds, "close", None)
        if close is not None:
            close()
        if not self.counts.seconds:
            self.counts.seconds = time.perf_counter() - self._start

    def _heard(self, progress: Progress) -> None:
        self.done = progress.done


def _memo_count(puzzle, backend, counts: Counts) -> Iterator[Found]:
    """A count by a memoizing backend, as a search that finds no solution to yield."""
    puzzle.count_memo(backend, counts)
    yield from ()


def run(
    puzzle,
    backend,
    *,
    count: bool = True,
    jobs: int | None = None,
    split: bool = False,
    dask: str | None = None,
    checkpoint: Path | str | None = None,
    resume: Path | str | None = None,
    depth: int | None = None,
    seed: int | None = None,
    force: bool = False,
    on_progress: Callable[[Progress], None] | None = None,
) -> LongSearch:
    """Start a search of ``puzzle`` on ``backend``, as one serial search or as jobs.

    ``count`` is for counting only (no solutions kept from jobs). The search runs as jobs on
    ``jobs`` processes when an option asks for jobs (``jobs`` above 1, ``dask``, a checkpoint,
    ``depth``) or ``split`` is set (the engine's choice: :func:`polyfit.engine.choose`).
    ``dask`` is a scheduler address to run the jobs on; ``checkpoint`` a file to save finished
    jobs to (refused if it exists, unless ``force``), ``resume`` one to go on from and keep
    saving to (the same file as ``checkpoint`` resumes it if it exists); ``depth`` splits at
    that depth of the search tree; ``seed`` tries options in a random order (one serial
    search). ``on_progress`` hears when the jobs have started and after each one.

    Library errors (:class:`PolyfitError`) come before anything runs, except those of a Dask
    cluster, which come on iterating."""
    if jobs is not None:
        check_processes(jobs)
    checkpoint = Path(checkpoint) if checkpoint is not None else None
    resume = Path(resume) if resume is not None else None
    asked = asks_for_jobs(jobs, dask, checkpoint, resume, depth)
    if (checkpoint is not None or resume is not None) and not count:
        raise PolyfitError("--checkpoint and --resume keep counts, not solutions: add --count")
    if asked and seed is not None:
        raise PolyfitError("a random order (--random) is one serial search; drop --jobs, --dask, --checkpoint, --resume and --depth")
    if checkpoint is not None and resume is not None:
        if checkpoint.resolve() != resume.resolve():
            raise PolyfitError("--resume FILE keeps saving to FILE; give --checkpoint only for a new search")
        # The same file twice, as a script that always passes both does: go on from it if
        # it is there, else start it.
        if path_exists(resume):
            checkpoint = None
        else:
            resume = None
    if checkpoint is not None and path_exists(checkpoint, "write") and not force:
        raise PolyfitError(f"{checkpoint} exists; resume from it with --resume {checkpoint}, or use --force to start over")
    if checkpoint is not None:
        check_writable(checkpoint, True)

    counts = Counts()
    if count and getattr(backend, "memoizes", False):
        if asked or seed is not None:
            raise PolyfitError(f"{backend.name} counts in one process without a search to split or shuffle; drop --jobs, --dask, --checkpoint, --resume, --depth and --random")
        return LongSearch(_memo_count(puzzle, backend, counts), counts, 0, 1, None)
    processes = jobs or 1
    split_up = (asked or split) and seed is None and puzzle.impossible is None
    if not split_up:
        return LongSearch(puzzle.search(backend, counts, seed=seed), counts, 0, 1, None)
    # The jobs' modules, loaded only for a search split into jobs.
    from polyfit.longsearch.checkpoint import open_checkpoint
    from polyfit.longsearch.planning import plan
    from polyfit.longsearch.runner import run_jobs

    job_list = plan(puzzle, processes, depth)
    saved = None
    if checkpoint is not None or resume is not None:
        saved = open_checkpoint(puzzle, job_list, resume or checkpoint, resume is not None)
    search = LongSearch(None, counts, len(job_list), processes if dask is None else None, saved)

    def heard(progress: Progress) -> None:
        search._heard(progress)
        if on_progress is not None:
            on_progress(progress)

    search._founds = run_jobs(
        puzzle, backend, job_list, counts, processes=processes, dask=dask,
        checkpoint=saved, keep_solutions=not count, on_progress=heard,
    )
    return search
