"""Dancing links backends and the one memory layout they share.

The layout follows Knuth's ``dlx1``: item headers 1..N share their index with the head of their
list of option nodes; primary items are linked in a circular list through ``llink``/``rlink``
from the root 0, secondary ones in their own list from the root N+1 (so they are never chosen
for branching). Options are stored one after another with a spacer node between them: a
spacer's ``top`` is minus its number, its ``ulink`` points to the first node of the option
before it and its ``dlink`` to the last node of the option after it, so an option is walked with
no left/right links. ``top`` of an item header holds the length of its list.

For Knuth's Algorithms M and C (multiplicities and colours) the layout adds ``color`` per node
(0 for none; colours are numbered from 1) and, per item header, ``bound`` (how many more options
may still cover the item: its upper bound ``hi``) and ``slack`` (``hi - lo``, fixed): the item
still needs ``max(0, bound - slack)`` options.

Python builds these arrays once (here); the Python and C searches only walk them.
"""

from __future__ import annotations

from array import array

from polyfit.records import Record
from polyfit.xc.problem import ExactCoverProblem


class Layout(Record):
    """The arrays of dancing links: ``primary`` (items 1..primary are primary) of ``items``
    items N; ``llink``, ``rlink``: the item headers 0..N+1; per node ``top`` (its item for an
    option node, the length for a header, minus the spacer's number for a spacer), ``ulink``,
    ``dlink``; ``spacer_option[k]``: the option (index) that spacer number k (k >= 1) ends;
    ``color`` per node (its colour on option nodes of secondary items, else 0); per item header
    ``bound`` (upper bound hi, 1 for secondary items) and ``slack`` (hi - lo)."""

    __slots__ = ("primary", "items", "llink", "rlink", "top", "ulink", "dlink", "spacer_option", "color", "bound",
                 "slack")

    def __init__(self, primary: int, items: int, llink, rlink, top, ulink, dlink, spacer_option, color, bound,
                 slack):
        self.primary, self.items = primary, items
        self.llink, self.rlink, self.top, self.ulink, self.dlink = llink, rlink, top, ulink, dlink
        self.spacer_option, self.color, self.bound, self.slack = spacer_option, color, bound, slack

    def lists(self) -> Layout:
        """A copy with Python lists for arrays: the Python searches index them faster, and update
        them in place (so that :func:`polyfit.dlx.sanity.sanity` can check them afterwards)."""
        copied = [getattr(self, name) for name in self.__slots__]
        return Layout(*[list(v) if isinstance(v, array) else v for v in copied])


def build_layout(problem: ExactCoverProblem) -> Layout:
    """Dancing-links arrays for a problem; options without items are left out (never chosen)."""
    n1 = len(problem.primary)
    n = n1 + len(problem.secondary)
    llink = array("i", [0] * (n + 2))
    rlink = array("i", [0] * (n + 2))
    # Primary items: root 0 <-> 1 <-> ... <-> n1 <-> root.
    for k in range(1, n1 + 1):
        llink[k] = k - 1
        rlink[k - 1] = k
    llink[0] = n1
    rlink[n1] = 0
    # Secondary items: root n+1 <-> n1+1 <-> ... <-> n <-> root n+1.
    root2 = n + 1
    prev = root2
    for k in range(n1 + 1, n + 1):
        llink[k] = prev
        rlink[prev] = k
        prev = k
    llink[root2] = prev
    rlink[prev] = root2

    size = n + 2 + sum(len(o) + 1 for o in problem.options if o)
    color = array("i", [0] * size)
    bound = array("i", [1] * (n + 2))
    slack = array("i", [0] * (n + 2))
    if problem.bounds:
        # No item can be covered more often than options hold it, so bounds beyond that mean
        # the same problem: cap them (a bound of 600,000,000 would size the search's stack).
        held = [0] * n1
        for option in problem.options:
            for i in option:
                if i < n1:
                    held[i] += 1
        for k, (lo, hi) in enumerate(problem.bounds):
            lo = min(lo, held[k] + 1)  # still more than can be met, when it was
            hi = max(lo, min(hi, held[k]), 1)
            bound[k + 1] = hi
            slack[k + 1] = hi - lo
    colours = problem.colours
    top = array("i", [0] * size)
    ulink = array("i", [0] * size)
    dlink = array("i", [0] * size)
    for k in range(1, n + 1):
        ulink[k] = dlink[k] = k
    spacer_option = array("i", [-1])
    spacer = n + 1  # the first spacer; it has number 0
    top[spacer] = 0
    node = spacer
    for index, option in enumerate(problem.options):
        if not option:
            continue
        first = node + 1
        for position, item in enumerate(option):
            node += 1
            x = item + 1
            top[node] = x
            if colours:
                color[node] = colours[index][position]
            top[x] += 1
            last = ulink[x]
            ulink[node] = last
            dlink[node] = x
            dlink[last] = node
            ulink[x] = node
        dlink[spacer] = node  # the previous spacer points down to this option's last node
        node += 1
        spacer_option.append(index)
        top[node] = -(len(spacer_option) - 1)
        ulink[node] = first
        spacer = node
    dlink[spacer] = 0
    return Layout(n1, n, llink, rlink, top, ulink, dlink, spacer_option, color, bound, slack)


def batches(search, stats, largest: int = 1024):
    """Yield the solutions of a C search object in lists: the first alone, at once, then in
    lists doubling up to ``largest`` so that Python's share of the work stays small. ``stats``
    counts the nodes and updates; the solutions are counted as they are taken (see
    :func:`stream_batches`)."""
    done = False
    wanted = 1
    while not done:
        batch, stats.nodes, stats.updates, done = search.next_batch(wanted)
        wanted = min(2 * wanted, largest)
        if batch:
            yield batch


def stream_batches(search, stats, largest: int = 1024):
    """Yield the solutions of a C search object one by one, fetched as :func:`batches` does."""
    for batch in batches(search, stats, largest):
        for solution in batch:
            stats.solutions += 1
            yield solution


def counted_batches(search, stats, largest: int = 1024):
    """:func:`batches`, each list counted in ``stats.solutions`` as it is handed on whole."""
    for batch in batches(search, stats, largest):
        stats.solutions += len(batch)
        yield batch

