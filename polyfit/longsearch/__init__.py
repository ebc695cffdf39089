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

import importlib

# Each name and the module that defines it, loaded on first use: taking assemblies apart
# (polyfit.longsearch.disassembly) needs none of the jobs, workers and checkpoints.
_NAMES = {
    "Checkpoint": "checkpoint",
    "open_checkpoint": "checkpoint",
    "plan": "planning",
    "quick_estimate": "planning",
    "Progress": "runner",
    "count_in_jobs": "runner",
    "run_jobs": "runner",
    "LongSearch": "search",
    "asks_for_jobs": "search",
    "run": "search",
}

__all__ = sorted(_NAMES)
MODULES = ("checkpoint", "disassembly", "jobfiles", "planning", "runner", "search", "workers")


def __getattr__(name: str):
    if name in _NAMES:
        value = getattr(importlib.import_module(f"{__name__}.{_NAMES[name]}"), name)
        globals()[name] = value
        return value
    if name in MODULES:  # ``polyfit.longsearch.search`` as an attribute, imported or not
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_NAMES))
