"""Planning a long search: whether to split it into jobs, on how many processes, and the jobs.

Decisions rest on a quick estimate of the search tree (Knuth's random probes), so a short
search runs serially with no process set-up at all.
"""

from __future__ import annotations

import json

from polyfit.xc.dlxformat import format_dlx
from polyfit.xc.estimate import estimate
from polyfit.xc.jobs import Job, split
from polyfit.longsearch.workers import default_processes

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


def problem_digest(problem) -> str:
    """A SHA-256 of an exact cover problem, written in Knuth's format."""
    import hashlib  # here, not at every start

    return hashlib.sha256(format_dlx(problem).encode()).hexdigest()


def split_digest(problem: str, jobs: list[dict]) -> str:
    """A SHA-256 of one exact split: the problem's digest and its jobs (as JSON, in order).
    Job files, their results and checkpoints carry it, so that nothing of another split (of
    another problem, or of the same one at another depth) is ever added to their counts."""
    text = problem + json.dumps(jobs, sort_keys=True)
    import hashlib

    return hashlib.sha256(text.encode()).hexdigest()
