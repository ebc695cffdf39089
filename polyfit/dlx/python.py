"""``dlx-python``: Knuth's Algorithm X with dancing links in pure Python, the reference backend.

A line-by-line twin of the C backend: the same layout (see :mod:`polyfit.dlx`), the same
choice of item (the primary item with the fewest options, leftmost on ties, stopping at the
first empty one), the same order of options, so both yield the same solutions in the same order
with the same counts:

- ``nodes``: options tried, at any level of the search;
- ``updates``: option nodes removed from their item lists by ``hide`` (each one is one
  ``dlink``/``ulink`` pair of writes; unhiding undoes them and is not counted).

The search is an explicit loop over the ``choice`` stack, no recursion. Covering walks the
item's list as Knuth's does and records every node it takes out (and the item header, as
``-item``) on a trail; uncovering replays the trail backwards, putting each node back between
the neighbours it still points to. That is the same dance in the same order, without walking
the lists a second time.
"""

from __future__ import annotations

from typing import Iterator

from polyfit.xc.problem import ExactCoverProblem, SearchStats
from polyfit.dlx import Layout, build_layout
from polyfit.dlx.python_mc import search_mc


class PythonDLX:
    name = "dlx-python"
    summary = "Knuth's dancing links (Algorithm X) in pure Python; the reference backend"
    capabilities = frozenset({"secondary", "multiplicities", "colours"})

    def unavailable_reason(self):
        return None

    def solutions(self, problem: ExactCoverProblem, stats: SearchStats) -> Iterator[tuple[int, ...]]:
        links = build_layout(problem).lists()
        if problem.has_multiplicities or problem.has_colours:
            yield from search_mc(links, stats)
        else:
            yield from search_x(links, stats)


def search_x(links: Layout, stats: SearchStats) -> Iterator[tuple[int, ...]]:
    """Algorithm X over the lists of ``links`` (from :meth:`Layout.lists`), updating them in
    place: when the search ends, or stops at a solution, they hold its state."""
    llink, rlink = links.llink, links.rlink
    top, ulink, dlink = links.top, links.ulink, links.dlink
    spacer_option = links.spacer_option

    def option_index(node):
        while top[node] > 0:
            node += 1
        return spacer_option[-top[node]]

    trail = []  # removed nodes in order of removal; -i for the header of item i

    def cover(i):
        nonlocal updates
        p = dlink[i]
        while p != i:
            q = p + 1
            while q != p:
                x = top[q]
                if x <= 0:
                    q = ulink[q]
                else:
                    u = ulink[q]
                    d = dlink[q]
                    dlink[u] = d
                    ulink[d] = u
                    top[x] -= 1
                    updates += 1
                    trail.append(q)
                    q += 1
            p = dlink[p]
        l = llink[i]
        r = rlink[i]
        rlink[l] = r
        llink[r] = l
        trail.append(-i)

    def undo(mark):
        """Put back everything covered since the trail was ``mark`` long, last first."""
        while len(trail) > mark:
            q = trail.pop()
            if q > 0:
                dlink[ulink[q]] = q
                ulink[dlink[q]] = q
                top[top[q]] += 1
            else:
                rlink[llink[-q]] = -q
                llink[rlink[-q]] = -q

    updates = 0
    nodes = 0
    choice = []
    marks = []  # per level: trail length before and after covering its item
    try:
        while True:
            # Forward: a solution when no primary item is left, else branch on the best item.
            if rlink[0] == 0:
                stats.nodes, stats.updates = nodes, updates
                stats.solutions += 1
                yield tuple(option_index(p) for p in choice)
                i = -1  # nothing covered at this level
            else:
                i = rlink[0]
                best = top[i]
                k = rlink[i]
                while k != 0 and best:
                    if top[k] < best:
                        best = top[k]
                        i = k
                    k = rlink[k]
                marks.append(len(trail))
                cover(i)
                marks.append(len(trail))
                choice.append(dlink[i])
            # Advance, or back up until a level has another option to try.
            while True:
                if i >= 0:
                    p = choice[-1]
                    if p != i:
                        nodes += 1
                        q = p + 1
                        while q != p:
                            j = top[q]
                            if j <= 0:
                                q = ulink[q]
                            else:
                                cover(j)
                                q += 1
                        break
                    marks.pop()
                    undo(marks.pop())  # uncover i
                    choice.pop()
                if not choice:
                    return
                # Undo the option chosen at the level below, then try its successor.
                p = choice[-1]
                undo(marks[-1])
                i = top[p]
                choice[-1] = dlink[p]
    finally:
        stats.nodes, stats.updates = nodes, updates
