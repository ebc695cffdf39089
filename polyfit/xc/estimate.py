"""How big is a search, before running it: Knuth's random probes (1975).

"Estimating the efficiency of backtrack programs" (Math. Comp. 29): walk one random path from
the root, choosing at each level as the search would (the primary item with the fewest
options; here with the same bounds rule as Algorithm M) and then one of its branches at random.
If the levels offer ``d1, d2, ...`` branches, then ``d1 + d1*d2 + ...`` is an unbiased estimate
of the number of nodes below the root (the ``nodes`` the backends count), and ``d1*d2*...*dk``
of the number of solutions when the path ends in one (0 when it dies). The mean over many
probes converges to the true values; the spread says how far to trust it.

A probe works on bit masks (Python integers): for each item the options containing it, and one
mask of live options, so a level is a few whole-mask operations.
"""

from __future__ import annotations

import contextlib
import math
import random
import signal
import threading
from dataclasses import dataclass

from polyfit.xc.branching import bits, fewest_branches, options_by_item
from polyfit.xc.problem import ExactCoverProblem


@dataclass
class Estimate:
    probes: int
    nodes: float  # mean estimate of search nodes
    solutions: float  # mean estimate of solutions found by the search
    nodes_low: float  # mean minus two standard errors (not below 0)
    nodes_high: float  # mean plus two standard errors
    solutions_low: float = 0.0
    solutions_high: float = 0.0
    seconds: float = 0.0  # spent probing
    converged: bool = False  # the 95% range came within the factor asked for


class Prober:
    """Random probes of the search tree of one exact cover problem."""

    def __init__(self, problem: ExactCoverProblem):
        self.n1 = n1 = len(problem.primary)
        n = n1 + len(problem.secondary)
        options, colours = problem.options, problem.colours
        self.with_item = with_item = options_by_item(options, n)  # item -> mask of options containing it
        # A multiple item is settled by its count (in probe), not by conflicts.
        multiple = {i for i in range(n1) if problem.bound(i)[1] > 1} if problem.bounds else set()
        self.conflicts = []  # option -> mask of options sharing an item with it (itself too)
        self.primary_of = []  # option -> its primary items
        for k, option in enumerate(options):
            mask = 1 << k
            painted = colours[k] if colours else ()
            for position, i in enumerate(option):
                if i in multiple:
                    continue
                c = painted[position] if painted else 0
                if c:
                    # Options agreeing on the colour may join it: only the others conflict.
                    for j in bits(with_item[i]):
                        if colours[j][options[j].index(i)] != c:
                            mask |= 1 << j
                else:
                    mask |= with_item[i]
            self.conflicts.append(mask)
            self.primary_of.append([i for i in option if i < n1])
        self.bounds = [problem.bound(i) for i in range(n1)]
        self.all_options = (1 << len(options)) - 1

    def probe(self, rng: random.Random) -> tuple[int, int]:
        """One random path: (nodes estimate, solutions estimate)."""
        live = self.all_options
        active = (1 << self.n1) - 1  # the primary items that may take more options
        low = [lo for lo, _ in self.bounds]
        high = [hi for _, hi in self.bounds]
        product, nodes = 1, 0
        while active:
            best, best_count = fewest_branches(active, self.with_item, live, low)
            if best_count <= 0:
                return nodes, 0
            product *= best_count
            nodes += product
            pick = rng.randrange(best_count)
            best_mask = self.with_item[best] & live
            choices = bits(best_mask)
            if pick >= len(choices):  # the null branch: the item takes no more options
                active &= ~(1 << best)
                live &= ~best_mask
                continue
            option = choices[pick]
            # Options before the chosen one in the item's list are the siblings tried first.
            for earlier in choices[:pick]:
                live &= ~(1 << earlier)
            live &= ~self.conflicts[option]
            for i in self.primary_of[option]:
                high[i] -= 1
                low[i] = max(0, low[i] - 1)
                if high[i] == 0:
                    active &= ~(1 << i)
                    live &= ~self.with_item[i]
        return nodes, product


def estimate(problem: ExactCoverProblem, probes: int = 1000, seed: int = 0) -> Estimate:
    prober = Prober(problem)
    rng = random.Random(seed)
    samples = [prober.probe(rng) for _ in range(probes)]
    mean, error = _mean_and_error([s[0] for s in samples])
    solutions, solutions_error = _mean_and_error([s[1] for s in samples])
    return Estimate(
        probes,
        mean,
        solutions,
        max(0.0, mean - 2 * error),
        mean + 2 * error,
        max(0.0, solutions - 2 * solutions_error),
        solutions + 2 * solutions_error,
    )


def summarize(samples, seconds: float = 0.0, spread: float | None = None) -> Estimate:
    """The estimate from probe samples ``(nodes, solutions)``: means and 95% ranges (two
    standard errors), and whether the nodes' range is within a factor ``spread`` of the mean."""
    mean, error = _mean_and_error([s[0] for s in samples])
    solutions, solutions_error = _mean_and_error([s[1] for s in samples])
    low, high = max(0.0, mean - 2 * error), mean + 2 * error
    converged = spread is not None and mean > 0 and high <= spread * mean and low * spread >= mean
    return Estimate(
        len(samples), mean, solutions, low, high,
        max(0.0, solutions - 2 * solutions_error), solutions + 2 * solutions_error,
        seconds, converged,
    )


SPREAD = 1.5  # probe until the 95% range is within this factor of the estimate ...
BUDGET = 1.0  # ... or this many seconds have gone
MIN_PROBES = 200  # a range from fewer probes is not trusted (heavy tails hide in small samples)
MAX_PROBES = 1_000_000


def adaptive_estimate(problem: ExactCoverProblem, seed: int = 0, spread: float = SPREAD, budget: float = BUDGET,
                      stop=None) -> Estimate:
    """Probe in growing batches until the 95% range of the nodes is within a factor
    ``spread`` of the estimate (after at least ``MIN_PROBES`` probes), ``budget`` seconds have
    gone, or ``stop(estimate)`` says so (say, because the search itself would be done by now).
    ``estimate.converged`` says which."""
    import time

    prober = Prober(problem)
    rng = random.Random(seed)
    samples = []
    start = time.perf_counter()
    batch = 50
    while True:
        samples.extend(prober.probe(rng) for _ in range(batch))
        result = summarize(samples, time.perf_counter() - start, spread)
        if len(samples) >= MIN_PROBES and (result.converged or result.nodes == 0):
            return result
        stopped = len(samples) >= MIN_PROBES and stop is not None and stop(result)
        if result.seconds >= budget or len(samples) >= MAX_PROBES or stopped:
            result.converged = False
            return result
        batch = min(2 * batch, 1600)  # a fixed schedule: the same seed stops at the same probe


def _mean_and_error(values) -> tuple[float, float]:
    """The mean and its standard error."""
    # Written out rather than with the statistics module, which costs every start of the
    # command line about 10 ms of imports (decimal, fractions).
    n = len(values)
    mean = math.fsum(values) / n
    if n < 2:
        return mean, mean
    variance = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, math.sqrt(variance / n)


def nodes_per_second(problem: ExactCoverProblem, backend, budget: float = 0.25, seed: int = 0) -> float | None:
    """How fast ``backend`` searches this problem: it solves a few random subtrees small
    enough to finish at once (found by walking down a random path until the probe estimate of
    what is below drops under ``SMALL`` nodes), timed for about ``budget`` seconds in all."""
    import time

    from polyfit.xc.problem import SearchStats
    from polyfit.xc.jobs import Job, branches, restrict

    rng = random.Random(seed)
    nodes, seconds = 0, 0.0
    for _ in range(25):
        if seconds >= budget:
            break
        job = Job()
        restricted = restrict(problem, job)
        for _ in range(64):
            if restricted is None or estimate(restricted.problem, 16, rng.randrange(1 << 30)).nodes <= SMALL:
                break
            children = branches(problem, job)
            if not children:
                break
            job = rng.choice(children)
            restricted = restrict(problem, job)
        if restricted is None:
            continue
        stats = SearchStats()
        start = time.perf_counter()
        # A subtree the probes called small may be huge: stop it when the time is up (and
        # leave it out, its nodes unknown) instead of searching it to the end.
        try:
            with time_limit(max(budget - seconds, 0.05)):
                for _ in backend.solutions(restricted.problem, stats):
                    pass
        except Overtime:
            seconds = budget
            continue
        seconds += time.perf_counter() - start
        nodes += stats.nodes
    if nodes == 0 or seconds == 0:
        return None
    return nodes / seconds


class Overtime(Exception):
    """Raised in the searching thread when a time limit set by :func:`time_limit` is up."""


@contextlib.contextmanager
def time_limit(seconds: float):
    """Raise ``Overtime`` in this thread after ``seconds``, also inside a C search, which looks
    at pending signals every few thousand nodes; catch it around the ``with``, since it may come
    as the block ends. Only the main thread can take signals: elsewhere there is no limit."""
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "setitimer"):
        yield
        return

    def expire(signum, frame):
        raise Overtime

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


SMALL = 20_000


@dataclass
class SearchEstimate:
    """What ``polyfit estimate`` found: the estimate (exact when the search was run), the
    backend's speed, and the search's own time when it ran."""

    estimate: Estimate
    rate: float | None
    exact: bool = False
    seconds: float = 0.0


def estimate_search(problem: ExactCoverProblem, backend, probes: int | None = None, seed: int = 0) -> SearchEstimate:
    """Estimate a search on ``backend``: ``probes`` random probes, or (``None``) adaptively
    (:func:`adaptive_estimate`), stopping early and running the search itself when its
    predicted time (the high end of the range) is under the time spent so far: the nodes
    and solutions are then exact."""
    import time

    from polyfit.xc.problem import SearchStats

    start = time.perf_counter()
    rate = nodes_per_second(problem, backend, budget=0.1, seed=seed)
    if probes is not None:
        result = estimate(problem, probes, seed)
        return SearchEstimate(result, rate)

    def short(result: Estimate) -> bool:
        return bool(rate) and result.nodes_high / rate < time.perf_counter() - start

    result = adaptive_estimate(problem, seed, stop=short)
    if not short(result):
        return SearchEstimate(result, rate)
    stats = SearchStats()
    began = time.perf_counter()
    for _ in backend.solutions(problem, stats):
        pass
    took = time.perf_counter() - began
    exact = Estimate(result.probes, stats.nodes, stats.solutions, stats.nodes, stats.nodes,
                     stats.solutions, stats.solutions, result.seconds, True)
    return SearchEstimate(exact, stats.nodes / took if took else rate, True, took)
