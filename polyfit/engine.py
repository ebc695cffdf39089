"""Which engine runs a puzzle: the one place that decides what ``auto`` means.

A count can run three ways: one search on a backend (``bitset-c`` first), the same search split
into jobs over every core, or the memo counter (``count-memo``), which counts without visiting
every solution and wins by orders of magnitude when pieces repeat. :func:`choose` predicts what
the search would cost from random probes of its tree (Knuth's estimate) and a model of each
backend's speed, and decides; every face (the command line, the Python API, the studio, the
gallery) asks it and nothing else decides.

The model's constants were measured by ``benchmarks/engine.py`` (CPU time, medians of three runs,
on this project's 2-core development machine, 2026-11-25; the script prints the fit): a search costs ``nodes / NODE_RATE[backend] +
solutions * SOLUTION_SECONDS`` (each solution found is classified under the board's symmetries
in Python), and the memo counter about ``MEMO_STATE_SECONDS`` per state it expands. How many
states the memo counter needs cannot be told in advance, so it is *tried* within a budget of
states (a share of the predicted search time, with a floor): when it finishes, that is the
count; when it does not, the search runs as if it had not been tried. Its cost is then bounded
by a fraction of what the search costs anyway, whatever the probes got wrong.
"""

from __future__ import annotations

from polyfit.errors import PolyfitError
from polyfit.records import Record

# Search nodes per second of each built-in backend, and what a backend not listed is taken to do.
NODE_RATE = {
    "bitset-c": 2.6e6,
    "dlx-c": 5.0e5,
    "bitset-python": 9.0e4,
    "dlx-python": 6.0e3,
    "count-memo": 1.5e5,
    "count-memo-python": 1.5e4,
}
UNKNOWN_NODE_RATE = 1.0e5
SOLUTION_SECONDS = 1.0e-5  # classifying one solution found (its symmetry class), in Python
MEMO_STATE_SECONDS = 4.6e-6  # the memo counter, per state expanded (count-memo, in C)

MEMO_SECONDS = 0.02  # a search predicted shorter than this is not worth trying the memo counter
MEMO_SHARE = 0.3  # the memo counter may spend this share of the predicted search time ...
MEMO_FLOOR = 5_000  # ... and at least this many states (about 25 ms)
PARALLEL_SECONDS = 0.1  # from about this predicted time, a count runs on every core
WATCHED_SECONDS = 0.7  # a count this long shows a progress bar even on one process
PROBES = 64  # random probes of the search tree for a prediction (a few milliseconds)
# With this many options or fewer, a search visits at most 2**options nodes (each node is a set
# of disjoint options): that bound is the prediction, and no probe is made (on a big box with
# few pieces, probes scanning a thousand items each cost more than the search).
FEW_OPTIONS = 10


class Prediction(Record):
    """What a search of the puzzle would cost on one backend: estimated ``nodes`` and
    ``solutions`` met (one per class the symmetry breaking leaves), and ``seconds``."""

    __slots__ = ("nodes", "solutions", "seconds", "backend")

    def __init__(self, nodes: float, solutions: float, seconds: float, backend: str):
        self.nodes, self.solutions, self.seconds, self.backend = nodes, solutions, seconds, backend


class Plan(Record):
    """How a run goes. ``backend`` searches (or counts, when it memoizes); ``counter`` is a
    memoizing backend to count with first, within ``node_limit`` states (0: no limit);
    ``split`` runs the search as jobs on ``processes`` local processes (or on Dask); ``why`` says
    in words what was chosen, for ``--stats`` and ``--json``."""

    __slots__ = ("backend", "counter", "node_limit", "split", "processes", "prediction", "why")

    def __init__(self, backend, counter=None, node_limit: int = 0, split: bool = False, processes: int = 1,
                 prediction: Prediction | None = None, why: str = ""):
        self.backend, self.counter, self.node_limit, self.split = backend, counter, node_limit, split
        self.processes, self.prediction, self.why = processes, prediction, why

    @property
    def engine(self) -> str:
        """The name of what counts first: the counter when there is one, else the backend."""
        return (self.counter or self.backend).name


def node_rate(backend) -> float:
    return NODE_RATE.get(getattr(backend, "name", ""), UNKNOWN_NODE_RATE)


def predict(puzzle, backend) -> Prediction:
    """The cost of one search of ``puzzle`` on ``backend``, from :data:`PROBES` random probes
    (kept on the puzzle: several decisions ask), or from the bound ``2**options`` when there
    are :data:`FEW_OPTIONS` or fewer (1,024 nodes: under :data:`MEMO_SECONDS`)."""
    from polyfit.xc.estimate import estimate

    key = getattr(backend, "name", "")
    known = getattr(puzzle, "_predictions", None)
    if known is None:
        known = puzzle._predictions = {}
    if key not in known:
        problem = puzzle.cover.problem
        if puzzle.impossible is not None or not problem.options:
            nodes = solutions = 0.0
        elif len(problem.options) <= FEW_OPTIONS:
            nodes = solutions = float(2 ** len(problem.options))
        else:
            found = estimate(problem, PROBES, seed=1)
            # The upper end of the 95% range: a long search taken for short costs far more
            # than the other way round (and solutions are rare on random paths).
            nodes, solutions = found.nodes_high, found.solutions_high
        seconds = nodes / node_rate(backend) + solutions * SOLUTION_SECONDS
        known[key] = Prediction(nodes, solutions, seconds, key)
    return known[key]


def usable_memo(backends: dict):
    """The ``count-memo`` backend among ``backends`` (name -> backend) when it can run here."""
    memo = backends.get("count-memo")
    return memo if memo is not None and memo.unavailable_reason() is None else None


def memo_or_twin(backends: dict):
    """``count-memo``, or its pure-Python twin without the C extension (for sampling)."""
    memo = usable_memo(backends)
    if memo is None:
        memo = backends.get("count-memo-python")
    if memo is None:
        raise PolyfitError("no memoizing backend (count-memo) is registered")
    return memo


def repeats(puzzle) -> bool:
    """Is some piece usable more than once? Then states of the search repeat, and the memo
    counter counts them once."""
    return any(hi > 1 for lo, hi in puzzle.counts)


def choose(
    puzzle,
    registry,
    *,
    task: str = "count",
    backend="auto",
    jobs: int | None = None,
    asked_for_jobs: bool = False,
    shuffled: bool = False,
    watched: bool = False,
    memory: int | None = None,
    cores: int | None = None,
) -> Plan:
    """How to run ``task`` (``"count"``, ``"solutions"`` or ``"sample"``) on ``puzzle`` with the
    backends of ``registry``: ``backend`` is a name (``"auto"`` lets this choose) or a backend;
    ``jobs`` processes asked for (None: choose); ``asked_for_jobs``: the search must run as
    jobs (``--jobs`` above 1, Dask, a checkpoint, a depth); ``shuffled``: options in a random
    order (one serial search); ``watched``: someone watches the progress of a count;
    ``memory``: the memo counter's cache in bytes; ``cores``: local processes available."""
    from polyfit.limits import cores as default_processes  # as the workers count them

    problem = puzzle.cover.problem
    named = not isinstance(backend, str) or backend != "auto"
    if isinstance(backend, str):
        engine = registry.backend(backend, problem)
    else:
        engine = backend
    memoizes = getattr(engine, "memoizes", False)

    if task == "sample":
        if named and not memoizes:
            raise PolyfitError(f"--sample draws from the counts of a memoizing backend (count-memo), not {engine.name}")
        if not named:
            if problem.has_colours:
                raise PolyfitError("--sample draws from the counts of count-memo, which does not take colour constraints")
            engine = memo_or_twin(registry.backends)
        return Plan(_with_memory(engine, memory), why=f"{engine.name} draws uniformly from its counts")

    if memoizes:  # a memoizing backend asked for by name
        if task == "count" and (asked_for_jobs or shuffled):
            raise PolyfitError(
                f"{engine.name} counts in one process without a search to split or shuffle; drop "
                "--jobs, --dask, --checkpoint, --resume, --depth and --random"
            )
        engine = _with_memory(engine, memory)
        return Plan(engine, counter=engine if task == "count" else None, why=f"{engine.name}, as asked")
    if memory is not None:
        if named or task != "count":
            raise PolyfitError(f"--memory sizes the cache of count-memo; backend {engine.name} has none")

    plan = Plan(engine, processes=jobs or 1, why=f"{engine.name}" + (", as asked" if named else ""))
    if puzzle.impossible is not None:
        plan.why = "no search: " + puzzle.impossible
        return plan
    if task != "count" or shuffled:
        plan.split = asked_for_jobs
        return plan

    cores = default_processes() if cores is None else cores
    may_split = jobs is None and cores > 1 and len(problem.options) >= 64
    may_memo = (not named and not asked_for_jobs and jobs in (None, 1) and repeats(puzzle)
                and not problem.has_colours)
    if asked_for_jobs or not (may_memo or may_split or watched):
        # No decision below asks how long the search would take: no probes (64 random paths
        # down the tree cost 5-20 ms, more than many a whole search).
        if memory is not None:
            raise PolyfitError("--memory sizes the cache of count-memo, which this count does not use (give --backend count-memo)")
        plan.split = asked_for_jobs
        return plan
    prediction = plan.prediction = predict(puzzle, engine)
    wants_memo = may_memo and prediction.seconds >= MEMO_SECONDS
    counter = usable_memo(registry.backends) if wants_memo else None  # its module loads when it may count
    if counter is not None:
        plan.counter = _with_memory(counter, memory)
        plan.node_limit = max(MEMO_FLOOR, round(MEMO_SHARE * prediction.seconds / MEMO_STATE_SECONDS))
        plan.why = (
            f"count-memo first (pieces repeat; the search would take about {prediction.seconds:.2g} s on "
            f"{engine.name}), within {plan.node_limit:,} states"
        )
    elif memory is not None:
        raise PolyfitError("--memory sizes the cache of count-memo, which this count does not use (give --backend count-memo)")

    if may_split and prediction.seconds >= PARALLEL_SECONDS:
        plan.split, plan.processes = True, cores
        plan.why += f"; split over {cores} processes (about {prediction.seconds:.2g} s of search)"
    elif watched and prediction.seconds >= WATCHED_SECONDS:
        plan.split = True  # jobs on one process: progress after each
    return plan


def _with_memory(engine, memory: int | None):
    if memory is None:
        return engine
    if not getattr(engine, "memoizes", False):
        raise PolyfitError(f"--memory sizes the cache of count-memo; backend {engine.name} has none")
    return engine.with_memory(memory)
