"""Knuth's Algorithms M and C in pure Python: dancing links with multiplicities and colours.

The reference for problems whose primary items carry bounds ``lo..hi`` or whose options colour
secondary items (see :mod:`polyfit.xc.problem`); its twin in C is ``_dlxmc.c``. On a problem
with neither it makes exactly the moves of the plain search in :mod:`polyfit.dlx.python`.

How a level branches on a primary item ``i`` (chosen to minimise the number of branches,
``len(i) + 1 - still_needed(i)``, leftmost on ties):

- ``bound(i)`` drops by one for the option this level adds. If that was the last option ``i``
  may take (``bound`` reaches 0), ``i`` is covered as in plain dancing links and each option of
  its list is tried in turn.
- Otherwise ``i`` stays active, and each option ``x`` of its list is *tweaked* before it is
  tried: hidden from every other item and taken off ``i``'s list, where it stays off while this
  level tries later options. So the options covering ``i`` are chosen as a set, in list order,
  never as a sequence: identical choices in another order are not searched again.
- When the list is used up and ``i`` needs no more options, one more branch (the *null* branch)
  leaves ``i`` with what it has.

A colour on a secondary item ``j`` *purifies* ``j`` when its option is chosen: the options
giving ``j`` another colour (or none) are hidden, those agreeing are marked (colour -1) so that
choosing them later does nothing to ``j``; hiding skips marked nodes.

Covering records the nodes it removes on a trail, and uncovering replays it backwards, as in
:mod:`polyfit.dlx.python`; purifying and tweaking walk their lists both ways.

``nodes`` counts branches tried (options and null branches); ``updates`` counts option nodes
removed from their lists.
"""

from __future__ import annotations

from typing import Iterator

from polyfit.xc.problem import SearchStats
from polyfit.dlx import Layout


def search_mc(links: Layout, stats: SearchStats) -> Iterator[tuple[int, ...]]:
    """Algorithms M and C over the lists of ``links`` (from :meth:`Layout.lists`), updating
    them in place: when the search ends, or stops at a solution, they hold its state."""
    n1, n = links.primary, links.items
    llink, rlink = links.llink, links.rlink
    top, ulink, dlink = links.top, links.ulink, links.dlink
    color = links.color
    bound, slack = links.bound, links.slack
    spacer_option = links.spacer_option
    updates = 0
    nodes = 0

    def option_index(node):
        while top[node] > 0:
            node += 1
        return spacer_option[-top[node]]

    trail = []  # nodes removed by cover(), in order; -i for the header of item i

    def hide(p, record=False):
        """Take the other nodes of p's option out of their lists (skipping purified ones); with
        ``record``, put each one removed on the trail."""
        nonlocal updates
        q = p + 1
        while q != p:
            x = top[q]
            if x <= 0:
                q = ulink[q]
            else:
                if color[q] >= 0:
                    u = ulink[q]
                    d = dlink[q]
                    dlink[u] = d
                    ulink[d] = u
                    top[x] -= 1
                    updates += 1
                    if record:
                        trail.append(q)
                q += 1

    def unhide(p):
        q = p - 1
        while q != p:
            x = top[q]
            if x <= 0:
                q = dlink[q]
            else:
                if color[q] >= 0:
                    u = ulink[q]
                    d = dlink[q]
                    dlink[u] = q
                    ulink[d] = q
                    top[x] += 1
                q -= 1

    def cover(i):
        """hide() each option of i's list, recording the nodes removed; then unlink i."""
        p = dlink[i]
        while p != i:
            hide(p, True)
            p = dlink[p]
        l = llink[i]
        r = rlink[i]
        rlink[l] = r
        llink[r] = l
        trail.append(-i)

    def uncover(i):
        """Undo the latest cover(), which covered i, last removal first."""
        trail.pop()  # -i
        l = llink[i]
        r = rlink[i]
        rlink[l] = i
        llink[r] = i
        while trail and trail[-1] > 0:
            q = trail.pop()
            dlink[ulink[q]] = q
            ulink[dlink[q]] = q
            top[top[q]] += 1

    def purify(p):
        c = color[p]
        i = top[p]
        color[i] = c
        q = dlink[i]
        while q != i:
            if color[q] == c:
                color[q] = -1
            else:
                hide(q)
            q = dlink[q]

    def unpurify(p):
        i = top[p]
        c = color[i]
        q = ulink[i]
        while q != i:
            if color[q] < 0:
                color[q] = c
            else:
                unhide(q)
            q = ulink[q]

    def commit(p):
        """Settle the items of p's option other than p's own: it has been chosen."""
        q = p + 1
        while q != p:
            j = top[q]
            if j <= 0:
                q = ulink[q]
                continue
            if j <= n1:
                bound[j] -= 1
                if bound[j] == 0:
                    cover(j)
            elif color[q] == 0:
                cover(j)
            elif color[q] > 0:
                purify(q)
            q += 1

    def uncommit(p):
        q = p - 1
        while q != p:
            j = top[q]
            if j <= 0:
                q = dlink[q]
                continue
            if j <= n1:
                if bound[j] == 0:
                    uncover(j)
                bound[j] += 1
            elif color[q] == 0:
                uncover(j)
            elif color[q] > 0:
                unpurify(q)
            q -= 1

    def choose():
        """The active primary item with fewest branches, and that number."""
        best_item, best = -1, 0
        k = rlink[0]
        while k != 0:
            needed = bound[k] - slack[k]
            branches = top[k] + 1 - (needed if needed > 0 else 0)
            if best_item < 0 or branches < best:
                best_item, best = k, branches
                if branches <= 0:
                    break
            k = rlink[k]
        return best_item, best

    def finish_level(i):
        """Restore item i as it was before this level branched on it, and leave the level."""
        if bound[i] == 0:
            uncover(i)
        else:
            base = tweak_base[-1]
            while len(tweaks) > base:
                x = tweaks.pop()
                d = dlink[x]
                dlink[i] = x
                ulink[d] = x
                top[i] += 1
                unhide(x)
        bound[i] += 1
        items_at.pop()
        tried_at.pop()
        tweak_base.pop()

    items_at: list[int] = []  # the item each level branches on
    tried_at: list[int] = []  # the node tried at each level (the item itself: the null branch)
    tweak_base: list[int] = []  # where each level's tweaks start on the tweaks stack
    tweaks: list[int] = []
    try:
        entering = True
        while True:
            if entering:
                if rlink[0] == 0:
                    stats.nodes, stats.updates = nodes, updates
                    stats.solutions += 1
                    yield tuple(option_index(x) for x in tried_at if x > n)
                    entering = False
                    continue
                i, branches = choose()
                if branches <= 0:
                    entering = False
                    continue
                bound[i] -= 1
                if bound[i] == 0:
                    cover(i)
                items_at.append(i)
                tried_at.append(dlink[i])
                tweak_base.append(len(tweaks))
            else:
                # Back from the level above: undo what this level's branch did, take the next.
                if not items_at:
                    return
                i = items_at[-1]
                x = tried_at[-1]
                if x == i:  # the null branch was the last
                    if bound[i] > 0:
                        l = llink[i]
                        r = rlink[i]
                        rlink[l] = i
                        llink[r] = i
                    finish_level(i)
                    entering = False
                    continue
                uncommit(x)
                tried_at[-1] = dlink[x]
            # Try the branch tried_at[-1] of this level, or finish the level.
            i = items_at[-1]
            x = tried_at[-1]
            if x == i:
                if bound[i] + 1 - slack[i] > 0:  # i still needs options: no null branch
                    finish_level(i)
                    entering = False
                    continue
                if bound[i] > 0:
                    l = llink[i]
                    r = rlink[i]
                    rlink[l] = r
                    llink[r] = l
                nodes += 1
                entering = True
                continue
            if bound[i] > 0:
                hide(x)
                d = dlink[x]
                dlink[i] = d
                ulink[d] = i
                top[i] -= 1
                tweaks.append(x)
                if top[i] < bound[i] - slack[i]:  # too few options left for what i needs
                    finish_level(i)
                    entering = False
                    continue
            nodes += 1
            commit(x)
            entering = True
    finally:
        stats.nodes, stats.updates = nodes, updates
