"""Planning a long search: its jobs, as many as its size calls for.

Whether to split a search at all, and over how many processes, is the engine's decision
(:func:`polyfit.engine.choose`); here the jobs are cut, sized by a quick estimate of the search
tree (Knuth's random probes).
"""

from __future__ import annotations

import json

from polyfit.xc.estimate import estimate
from polyfit.xc.jobs import Job, split

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


def plan(puzzle, processes: int, depth: int | None = None) -> list[Job]:
    """The jobs of a puzzle: the branches at ``depth``, or enough for ``processes`` to share
    evenly: two per process for a short search, more for a long one (about one per
    ``NODES_PER_JOB`` estimated nodes, up to 64 per process), as jobs vary in size."""
    problem = puzzle.cover.problem
    if depth is not None:
        return split(problem, jobs=10**9, max_depth=depth)
    wanted = round(quick_estimate(puzzle) / NODES_PER_JOB)
    return split(problem, jobs=max(2 * processes, min(64 * processes, wanted)))


def split_digest(puzzle: str, jobs: list[dict]) -> str:
    """A SHA-256 of one exact split: the puzzle's digest (of everything its counts depend on,
    :func:`polyfit.puzzle.digest.combined`) and its jobs (as JSON, in order). Job files,
    their results and checkpoints carry it, so that nothing of another split (of another
    puzzle, or of the same one at another depth) is ever added to their counts."""
    import hashlib  # here, not at every start

    text = puzzle + json.dumps(jobs, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()
