"""The branching rule every search here shares, and the bit masks it works on.

Every search in polyfit branches the same way, Knuth's: on the primary item with the fewest
branches, the leftmost (lowest index) on ties, stopping at the first item with none, since the
node is then a dead end whatever comes after. The dancing-links backends (``dlx-python`` and
its C twins) read the lengths of their item lists; the searches written on bit masks (the
random probes of :mod:`polyfit.xc.estimate`, the job split of :mod:`polyfit.xc.jobs`, the trace
of :mod:`polyfit.xc.trace` and the ``bitset-python`` backend) use :func:`fewest_branches`, so
they all make the same choices.

A bit mask is a Python integer whose bit ``k`` stands for option ``k`` (or item ``k``): AND, OR
and popcount then work on a whole set at once, a machine word at a time.
"""

from __future__ import annotations

from typing import Iterable, Sequence


def bits(mask: int) -> list[int]:
    """The indices of the set bits of ``mask``, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def mask_of(indices: Iterable[int]) -> int:
    """The mask with the bits of ``indices`` set."""
    mask = 0
    for k in indices:
        mask |= 1 << k
    return mask


def options_by_item(options: Sequence[Sequence[int]], items: int) -> list[int]:
    """For each of ``items`` items, the mask of the options containing it."""
    containing = [0] * items
    for k, option in enumerate(options):
        bit = 1 << k
        for i in option:
            containing[i] |= bit
    return containing


def fewest_branches(
    items: int, containing: Sequence[int], live: int, needed: Sequence[int] | None = None
) -> tuple[int, int]:
    """The item to branch on: of the items in the mask ``items``, the one with the fewest
    branches, the lowest on ties; the scan stops at the first item with none (0 or fewer).

    Item ``i`` has ``(containing[i] & live).bit_count()`` live options. In an exact cover
    (``needed`` None) those are its branches. With multiplicities (Knuth's Algorithm M),
    ``needed[i]`` is how many more options ``i`` must take, and its branches are
    ``options + 1 - needed[i]``: one more (the branch taking no further option) when it needs
    none, and fewer the more it needs, since its options are chosen as a set.

    Returns ``(item, branches)``, or ``(-1, 0)`` when ``items`` is empty.
    """
    best, least = -1, 0
    while items:
        low = items & -items
        i = low.bit_length() - 1
        items ^= low
        count = (containing[i] & live).bit_count()
        if needed is not None:
            count += 1 - needed[i]
        if best < 0 or count < least:
            best, least = i, count
            if count <= 0:
                break
    return best, least


class CapacityForm:
    """A problem with multiplicities, as the bitset searches take it: Algorithm X over the items
    that must be covered exactly once, with the others as limits.

    Primary items with bounds ``1..1`` are *exact*: numbered first, the only ones branched on.
    Items ``0..1`` may be covered once: they join the secondary items (an option covering one
    rules out the others, and nothing branches on them). Items with ``hi > 1`` are *capacity*
    items, left out of the options: choosing an option uses each of its capacity items once;
    at ``hi`` uses the item's other options die, and a cover of the exact items is a solution
    when every capacity item has reached its ``lo``. This finds every solution once exactly
    when each option that can be chosen covers an exact item; ``reason`` says why not otherwise.
    """

    def __init__(self, problem):
        n_primary, n = len(problem.primary), len(problem.items)
        exact = [i for i in range(n_primary) if problem.bound(i) == (1, 1)]
        once = [i for i in range(n_primary) if problem.bound(i) == (0, 1)]
        capacity = [i for i in range(n_primary) if problem.bound(i)[1] > 1]
        order = exact + once + list(range(n_primary, n))
        number = {item: k for k, item in enumerate(order)}
        cap_number = {item: c for c, item in enumerate(capacity)}
        self.primary = len(exact)
        self.items = len(order)
        self.cap_lo = [problem.bound(i)[0] for i in capacity]
        self.cap_hi = [problem.bound(i)[1] for i in capacity]
        self.options: list[tuple[int, ...]] = []
        self.option_caps: list[tuple[int, ...]] = []
        self.reason: str | None = None
        for k, option in enumerate(problem.options):
            mapped = tuple(number[i] for i in option if i in number)
            if self.reason is None and any(i < n_primary for i in option) and not any(
                j < self.primary for j in mapped
            ):
                self.reason = (
                    f"option {k} covers no item that must be covered exactly once, "
                    "which Algorithm X over those items cannot choose"
                )
            self.options.append(mapped)
            self.option_caps.append(tuple(cap_number[i] for i in option if i in cap_number))
