"""Running a puzzle's jobs (see :mod:`polyfit.xc.jobs`) here, on local processes or on Dask.

Each job returns a :class:`JobResult`: its counts and, when asked, its solutions (placement
indices). Results come back in job order whatever ran them, so merged counts equal those of a
serial search and solutions print in the same order for any number of workers.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from dataclasses import dataclass, field
from typing import Iterable, Iterator

from polyfit.errors import PolyfitError
from polyfit.xc.jobs import Job
from polyfit.fields import Fields
from polyfit.puzzle.solve import Counts


@dataclass
class JobResult:
    index: int
    distinct: int = 0
    total: int = 0
    distinct_rotations: int = 0
    nodes: int = 0
    updates: int = 0
    seconds: float = 0.0
    found: int = 0  # solutions the search met (before symmetry weighting)
    solutions: list = field(default_factory=list)  # (placements, canonical, weight) when kept
    # What the counts are made of (see Counts.classes and Counts.weights): each count is also
    # the sum of one of these, and all jobs' classes hold all their solutions, so a count
    # changed alone no longer adds up (see check_classes).
    classes: dict = field(default_factory=dict)  # (class size, 0, 1 or 2) -> classes
    weights: dict = field(default_factory=dict)  # weight -> solutions met

    def add_to(self, counts: Counts) -> None:
        counts.distinct += self.distinct
        counts.total += self.total
        counts.distinct_rotations += self.distinct_rotations
        counts.search.nodes += self.nodes
        counts.search.updates += self.updates
        counts.search.solutions += self.found
        for key, number in self.classes.items():
            counts.classes[key] = counts.classes.get(key, 0) + number
        for weight, number in self.weights.items():
            counts.weights[weight] = counts.weights.get(weight, 0) + number

    def to_json(self) -> dict:
        return {
            "index": self.index,
            "distinct": self.distinct,
            "total": self.total,
            "distinct_rotations": self.distinct_rotations,
            "nodes": self.nodes,
            "updates": self.updates,
            "seconds": round(self.seconds, 6),
            "found": self.found,
            "classes": [[size, split, number] for (size, split), number in sorted(self.classes.items())],
            "weights": [[weight, number] for weight, number in sorted(self.weights.items())],
        }

    @classmethod
    def from_json(cls, fields: Fields, jobs: int) -> JobResult:
        """The result in ``fields`` (see :mod:`polyfit.fields`) of one of ``jobs``
        jobs, every count checked to be a whole number and the counts to agree."""
        values = {"index": fields.whole("index", 0, jobs - 1)}
        for key in ("distinct", "total", "distinct_rotations", "nodes", "updates", "found"):
            values[key] = fields.whole(key)
        values["seconds"] = fields.number("seconds")
        # Each class is counted at a solution the search met, which stands for at least one
        # solution; under rotations alone a class is one or two.
        fields.at_most("distinct", "distinct_rotations", values)
        fields.at_most("distinct_rotations", "distinct", values, factor=2)
        fields.at_most("distinct", "found", values)
        fields.at_most("found", "total", values)
        values["classes"] = _tally(fields, "classes", ((1, None), (0, 2)))
        values["weights"] = _tally(fields, "weights", ((1, None),))
        # (A class of split 0 is a rotation class counted with its mirror class: see Counts.)
        _sums_to(fields, "distinct", values, "classes", lambda key, n: n if key[1] else 0)
        _sums_to(fields, "distinct_rotations", values, "classes", lambda key, n: max(key[1], 1) * n)
        _sums_to(fields, "found", values, "weights", lambda weight, n: n)
        _sums_to(fields, "total", values, "weights", lambda weight, n: weight * n)
        return cls(**values)


def _tally(fields: Fields, name: str, ranges) -> dict:
    """A list of ``[key..., number]`` rows (each key part within its ``(low, high)`` range,
    ``high`` None for no bound; each number at least 1; no key twice) as a dict."""
    from polyfit.fields import LARGEST

    tally = {}
    for row, entry in enumerate(fields.listing(name)):
        where = f"{name}[{row}]"
        if not isinstance(entry, list) or len(entry) != len(ranges) + 1:
            raise fields.error(where, f"must be a list of {len(ranges) + 1} whole numbers")
        key = tuple(
            fields.check_whole(where, value, low, LARGEST if high is None else high)
            for value, (low, high) in zip(entry, ranges)
        )
        if key in tally:
            raise fields.error(where, f"{list(key)} is there twice")
        tally[key if len(key) > 1 else key[0]] = fields.check_whole(where, entry[-1], 1)
    return tally


def _sums_to(fields: Fields, name: str, values: dict, tally: str, term) -> None:
    """Refuse a count that is not the sum of its tally's terms: one of the two was changed."""
    made = sum(term(key, n) for key, n in values[tally].items())
    if made != values[name]:
        raise fields.error(name, f"{values[name]} is not what field {tally} adds up to ({made}): the counts disagree")


def check_classes(counts: Counts, where: str) -> None:
    """Refuse the added-up counts of a whole split whose classes do not hold exactly all their
    solutions: each class is counted once, in one job, and its solutions (found in any job)
    are its size, so the sizes of all classes add up to the total. A count changed in one
    result, however well its seal was made again, breaks this or one of the sums checked on
    reading; ``where`` names the files."""
    held = sum(size * n for (size, _), n in counts.classes.items())
    if held != counts.total:
        raise PolyfitError(
            f"{where}: the counts do not add up: the classes of solutions hold {held} "
            f"solutions, but the totals say {counts.total}; a result was changed after polyfit wrote it"
        )


def run_job(puzzle, backend, index: int, job: Job, keep_solutions: bool = False) -> JobResult:
    """Search below one job; what a worker runs."""
    counts = Counts()
    kept = []
    for found in puzzle.search_job(backend, job, counts):
        if keep_solutions:
            kept.append((found.placements, found.canonical, found.weight))
    return JobResult(
        index,
        counts.distinct,
        counts.total,
        counts.distinct_rotations,
        counts.search.nodes,
        counts.search.updates,
        counts.seconds,
        counts.search.solutions,
        kept,
        dict(counts.classes),
        dict(counts.weights),
    )


# A forked worker finds the puzzle here instead of receiving it with every job.
_WORKER_STATE: dict = {}


def _run_in_worker(task):
    index, job, keep = task
    return run_job(_WORKER_STATE["puzzle"], _WORKER_STATE["backend"], index, job, keep)


def run_local(puzzle, backend, jobs: Iterable[tuple[int, Job]], processes: int, keep_solutions=False) -> Iterator[JobResult]:
    """Run jobs here (``processes`` 1) or on that many local processes, results in job order.

    The worker processes start before this returns (so that threads the caller starts later,
    a progress bar's say, are not forked with them)."""
    tasks = [(index, job, keep_solutions) for index, job in jobs]
    if processes <= 1 or len(tasks) <= 1:
        return (run_job(puzzle, backend, index, job, keep) for index, job, keep in tasks)
    import multiprocessing  # here: a search on one process does without it (0.03 s to import)

    forking = "fork" in multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if forking else "spawn")
    if forking:
        _WORKER_STATE.update(puzzle=puzzle, backend=backend)  # inherited: nothing to pickle
        initargs = (None, None)
    else:
        initargs = (puzzle, backend)
    pool = context.Pool(min(processes, len(tasks)), _init_worker, (os.getpid(), *initargs))
    return PoolResults(pool, tasks)


class PoolResults:
    """The results of jobs on a pool of processes, in job order; ``close()`` (also at the end,
    or on an error) stops the workers."""

    def __init__(self, pool, tasks):
        self._pool = pool
        self._results = pool.imap(_run_in_worker, tasks, chunksize=1)

    def __iter__(self):
        return self

    def __next__(self) -> JobResult:
        try:
            return next(self._results)
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.terminate()
            pool.join()


def _init_worker(parent: int, puzzle, backend):
    # Ctrl-C reaches the whole process group: the parent stops the workers, they stay quiet.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    die_with(parent)
    if puzzle is not None:
        _WORKER_STATE.update(puzzle=puzzle, backend=backend)


PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>


def die_with(parent: int) -> None:
    """End this process when ``parent`` dies, even by ``kill -9`` (which it cannot pass on):
    a worker of a killed count must not go on computing for nobody.

    Linux sends the signal asked for with ``prctl(PR_SET_PDEATHSIG)`` when the parent (the
    thread that forked us) exits; elsewhere a thread watches for the parent to change."""
    if sys.platform.startswith("linux"):
        try:
            import ctypes  # in the worker, not in every start of polyfit

            libc = ctypes.CDLL(None, use_errno=True)
            asked = libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0
        except (OSError, AttributeError):
            asked = False
        if asked:
            if os.getppid() != parent:  # it died before the request took effect
                os._exit(1)
            return
    threading.Thread(target=_watch_parent, args=(parent,), name="polyfit-parent-watch", daemon=True).start()


def _watch_parent(parent: int, every: float = 0.5) -> None:
    while os.getppid() == parent:
        time.sleep(every)
    os._exit(1)


def run_dask(address: str, puzzle, backend, jobs: Iterable[tuple[int, Job]], keep_solutions=False) -> Iterator[JobResult]:
    """Run jobs on a Dask distributed cluster (``polyfit[dask]``), results in job order."""
    from polyfit.errors import PolyfitError, install_hint

    try:
        from distributed import Client
    except ImportError:
        raise PolyfitError(f"--dask needs Dask distributed: {install_hint('dask', 'distributed')}") from None
    try:
        client = Client(address, timeout=5)
    except (OSError, TimeoutError) as exc:
        raise PolyfitError(f"cannot reach the Dask scheduler at {address}: {exc}") from None
    try:
        remote_puzzle = client.scatter(puzzle, broadcast=True)
        futures = [
            client.submit(run_job, remote_puzzle, backend, index, job, keep_solutions, pure=False)
            for index, job in jobs
        ]
        for future in futures:
            yield future.result()
    finally:
        client.close()


def default_processes() -> int:
    from polyfit.limits import cores

    return cores()
