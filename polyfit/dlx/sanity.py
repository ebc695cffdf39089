"""Knuth's ``sanity()`` for the dancing-links layout: every link checked, for the tests.

A search in progress keeps the layout consistent between its steps, and a finished search
leaves it as it was built. This checks what must hold at any such moment (the layout itself is
described in :mod:`polyfit.dlx`):

- each item ring (the primary items from root 0, the secondary ones from root N+1): ``llink``
  undoes ``rlink`` all the way round, and each item sits in the ring of its kind;
- the list of each item still in a ring: ``ulink`` undoes ``dlink`` all the way round, each node
  names the item in ``top``, and the item's length field (``top`` of its header) counts them;
- the spacers: one after every option, numbered in order, each pointing up to the first node
  of the option before it and down to the last node of the option after it (0 after the last),
  each with an option index, and every option node naming an item.

Items taken out of their ring (covered) are not checked: their lists are left as they were
when they were covered, as in Knuth's.

``_dlxc.c`` and ``_dlxmc.c`` have the same check as a ``sanity()`` method of their search
objects, line by line, with the same messages: the tests run it after searches on both.
"""

from __future__ import annotations

from polyfit.dlx import Layout


def sanity(layout: Layout) -> list[str]:
    """What is wrong with the links of ``layout`` (built, or updated in place by a Python search
    after :meth:`Layout.lists`), one message each; an empty list when all is well."""
    primary, items = layout.primary, layout.items
    llink, rlink, top = layout.llink, layout.rlink, layout.top
    ulink, dlink, spacer_option = layout.ulink, layout.dlink, layout.spacer_option
    problems: list[str] = []
    size = len(top)
    if size < items + 2:
        return [f"{size} nodes, fewer than the {items + 1} item headers and the first spacer"]

    def check_list(i: int) -> None:
        qq, pp, k = i, dlink[i], 0
        while True:
            if not 0 <= pp < size:
                problems.append(f"list of item {i}: dlink[{qq}] is {pp}, out of range")
                return
            if ulink[pp] != qq:
                problems.append(f"list of item {i}: ulink[{pp}] is {ulink[pp]}, expected {qq}")
            if pp == i:
                break
            if top[pp] != i:
                problems.append(f"list of item {i}: top[{pp}] is {top[pp]}")
            k += 1
            if k > size:
                problems.append(f"list of item {i} does not come back to its header")
                return
            qq, pp = pp, dlink[pp]
        if top[i] != k:
            problems.append(f"item {i}: length field {top[i]}, but {k} nodes in its list")

    def check_ring(root: int, first: int, last: int) -> None:
        q, p = root, rlink[root]
        for _ in range(items + 2):
            if not 0 <= p < items + 2:
                problems.append(f"item ring: rlink[{q}] is {p}, out of range")
                return
            if llink[p] != q:
                problems.append(f"item ring: llink[{p}] is {llink[p]}, expected {q}")
            if p == root:
                return
            if first <= p <= last:
                check_list(p)
            else:
                problems.append(f"item {p} is in the ring of root {root}")
            q, p = p, rlink[p]
        problems.append(f"the ring of root {root} does not come back to it")

    check_ring(0, 1, primary)
    check_ring(items + 1, primary + 1, items)

    p, number = items + 1, 0  # spacer 0
    if top[p] != 0:
        problems.append(f"spacer 0 at node {p}: top is {top[p]}, expected 0")
    while True:
        q = p + 1
        while q < size and top[q] > 0:
            if top[q] > items:
                problems.append(f"node {q}: top is {top[q]}, not an item")
            q += 1
        if q == size:
            if q - 1 > p:
                problems.append(f"nodes {p + 1} to {q - 1} have no spacer after them")
            elif dlink[p] != 0:
                problems.append(f"spacer at node {p}: dlink is {dlink[p]}, expected 0")
            break
        number += 1
        if q == p + 1:
            problems.append(f"spacer at node {q}: an empty option before it")
        if top[q] != -number:
            problems.append(f"spacer {number} at node {q}: top is {top[q]}, expected {-number}")
        if dlink[p] != q - 1:
            problems.append(f"spacer at node {p}: dlink is {dlink[p]}, expected {q - 1}")
        if ulink[q] != p + 1:
            problems.append(f"spacer at node {q}: ulink is {ulink[q]}, expected {p + 1}")
        p = q
    if len(spacer_option) != number + 1:
        problems.append(f"{number} spacers after options, but {len(spacer_option) - 1} option indices")
    return problems

