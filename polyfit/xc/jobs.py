"""A search split into independent jobs: the branches of its top levels.

A :class:`Job` is a path from the root of the search tree: the options it has chosen
(``forced``), the options its earlier siblings took away (``excluded``: when an item may be
covered several times, its options are chosen as a set, in list order, as in Knuth's Algorithm
M) and the items it closed with fewer options than their upper bound (``closed``). The jobs of a
split partition the solutions: every solution is found by exactly one job, so counts add up.

:func:`restrict` turns a job into the smaller exact cover problem left below it, which any
backend solves; :func:`split` branches on the item with the fewest options, level by level, until
there are enough jobs. Jobs run anywhere (this process, local processes, a Dask cluster, a
batch system through files) and their results merge in job order, so the output is the same
whatever ran them.
"""

from __future__ import annotations

from dataclasses import dataclass

from polyfit.xc.branching import bits, fewest_branches, options_by_item
from polyfit.xc.problem import ExactCoverProblem


@dataclass(frozen=True)
class Job:
    forced: tuple[int, ...] = ()
    excluded: tuple[int, ...] = ()
    closed: tuple[int, ...] = ()  # primary items that take no more options
    # The job's share of the search tree as dlx1 reckons progress: each node's children split
    # its share evenly. The shares of the jobs still to run tell how much of the tree is left.
    share: float = 1.0

    def to_json(self) -> dict:
        return {
            "forced": list(self.forced),
            "excluded": list(self.excluded),
            "closed": list(self.closed),
            "share": self.share,
        }

    @classmethod
    def from_json(cls, data: dict) -> Job:
        return cls(tuple(data["forced"]), tuple(data["excluded"]), tuple(data["closed"]), data.get("share", 1.0))


@dataclass
class Restricted:
    problem: ExactCoverProblem
    options: list[int]  # option index in the restricted problem -> index in the original


def restrict(problem: ExactCoverProblem, job: Job) -> Restricted | None:
    """The problem left below a job, or None when the job's choices already conflict."""
    n1 = len(problem.primary)
    n = n1 + len(problem.secondary)
    colours = problem.colours
    taken = [0] * n  # how many forced options cover each item
    colour_of: dict[int, int] = {}  # secondary item -> colour the forced options gave it
    for k in job.forced:
        for position, i in enumerate(problem.options[k]):
            taken[i] += 1
            if i >= n1:
                c = colours[k][position] if colours else 0
                if i in colour_of and (c == 0 or colour_of[i] != c):
                    return None
                colour_of[i] = c
    closed = set(job.closed)
    bounds = {}
    for i in range(n1):
        lo, hi = problem.bound(i)
        hi -= taken[i]
        lo = max(0, lo - taken[i])
        if hi < 0 or (i in closed and lo > 0):
            return None
        if hi > 0 and i not in closed:
            bounds[i] = (lo, hi)
    gone = set(job.forced) | set(job.excluded)
    kept_items = [i for i in range(n1) if i in bounds] + [
        i for i in range(n1, n) if colour_of.get(i, 0) != 0 or i not in colour_of
    ]
    new_index = {i: k for k, i in enumerate(kept_items)}
    options, option_colours, origin = [], [], []
    for k, option in enumerate(problem.options):
        if k in gone:
            continue
        keep = True
        items, cols = [], []
        for position, i in enumerate(option):
            c = colours[k][position] if colours else 0
            if i < n1:
                if i not in bounds:
                    keep = False
                    break
            elif i in colour_of:
                if colour_of[i] == 0 or c != colour_of[i]:
                    keep = False
                    break
                continue  # the item's colour is settled and this option agrees: no constraint
            items.append(new_index[i])
            cols.append(c)
        if keep:
            options.append(tuple(items))
            option_colours.append(tuple(cols))
            origin.append(k)
    primary = [problem.primary[i] for i in kept_items if i < n1]
    secondary = [problem.items[i] for i in kept_items if i >= n1]
    sub = ExactCoverProblem(primary, secondary, options)
    if any(bounds[i] != (1, 1) for i in bounds):
        sub.bounds = [bounds[i] for i in kept_items if i < n1]
    if colours and any(any(c) for c in option_colours):
        sub.colours = option_colours
        sub.colour_names = list(problem.colour_names)
    return Restricted(sub, origin)


def branches(problem: ExactCoverProblem, job: Job) -> list[Job] | None:
    """The children of a job in the search tree (None when it is a leaf: nothing to branch on)."""
    restricted = restrict(problem, job)
    if restricted is None:
        return []
    sub = restricted.problem
    n1 = len(sub.primary)
    if n1 == 0:
        return None
    containing = options_by_item(sub.options, len(sub.items))
    needed = [sub.bound(i)[0] for i in range(n1)]
    every_option = (1 << len(sub.options)) - 1
    best, best_branches = fewest_branches((1 << n1) - 1, containing, every_option, needed)
    if best_branches <= 0:
        return []
    lo, hi = sub.bound(best)
    origin = restricted.options
    item = problem.primary.index(sub.primary[best])
    paths = []  # (forced, excluded, closed) of each child
    before: list[int] = []
    for k in bits(containing[best]):
        o = origin[k]
        if hi == 1:
            paths.append((job.forced + (o,), job.excluded, job.closed))
        else:
            paths.append((job.forced + (o,), job.excluded + tuple(before), job.closed))
            before.append(o)
    if lo == 0:
        paths.append((job.forced, job.excluded + tuple(before), job.closed + (item,)))
    return [Job(*path, job.share / len(paths)) for path in paths]


def split(problem: ExactCoverProblem, jobs: int, max_depth: int = 6) -> list[Job]:
    """At least ``jobs`` jobs (when the tree is that wide), in search order: the branches of
    the top levels, one level deeper each round until there are enough."""
    frontier = [Job()]
    for _ in range(max_depth):
        if len(frontier) >= jobs:
            break
        deeper = []
        grew = False
        for job in frontier:
            children = branches(problem, job)
            if children is None:
                deeper.append(job)  # a solution already: nothing below
            else:
                deeper.extend(children)
                grew = True
        frontier = deeper
        if not grew:
            break
    return frontier

