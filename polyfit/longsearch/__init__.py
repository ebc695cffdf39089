"""Long searches: split into jobs, run on every core or a cluster, checkpointed, watched.

:func:`run` is the one call: it runs one serial search or jobs (as the options or the engine's
choice say, on how many processes), opens or resumes the checkpoint, and hands back a :class:`LongSearch` that yields the solutions, keeps the live counts and says how
far it came when interrupted. The jobs come from :func:`polyfit.xc.jobs.split`; their results
merge in job order, so the counts equal those of one serial search.

Modules: ``planning`` (the jobs), ``runner`` (running jobs and merging
their counts), ``workers`` (local processes and Dask), ``checkpoint`` (the checkpoint file),
``jobfiles`` (a search as job files for any batch system), ``search`` (:func:`run`).
"""

from __future__ import annotations

from polyfit.longsearch.checkpoint import Checkpoint, open_checkpoint
from polyfit.longsearch.planning import plan, quick_estimate
from polyfit.longsearch.runner import Progress, count_in_jobs, run_jobs
from polyfit.longsearch.search import LongSearch, asks_for_jobs, run

__all__ = [
    "Checkpoint",
    "LongSearch",
    "Progress",
    "asks_for_jobs",
    "count_in_jobs",
    "open_checkpoint",
    "plan",
    "quick_estimate",
    "run",
    "run_jobs",
]
