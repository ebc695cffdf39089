"""``bitset-c``: Algorithm X on bitsets in C (see ``_bsx.c``), for problems of moderate size.

Python builds the bit arrays here: for each primary item the options that contain it, and for
each option the options it conflicts with (those sharing any item with it, primary or
secondary). The conflict table takes options² bits, so problems with more than
``MAX_OPTIONS`` options are left to the dancing-links backends (``auto`` falls back by itself).

``nodes`` counts options tried, as in the DLX backends; ``updates`` counts options killed.
"""

from __future__ import annotations

from array import array
from typing import Iterator

from ..exactcover import ExactCoverProblem, SearchStats
from . import stream_batches

try:
    from . import _bsx
except ImportError as exc:
    _bsx = None
    _import_error = str(exc)
else:
    _import_error = None

MAX_OPTIONS = 16384
MAX_PRIMARY = 4096


def _words(bits: int, count: int) -> bytes:
    return bits.to_bytes(count * 8, "little")


class BitsetBackend:
    name = "bitset-c"
    summary = "Algorithm X on bitsets in C: copies state instead of undoing it; up to 16384 options"
    capabilities = frozenset({"secondary"})

    def unavailable_reason(self):
        if _bsx is None:
            return f"the C extension polyfit.dlx._bsx did not build or load ({_import_error})"
        return None

    def problem_reason(self, problem: ExactCoverProblem) -> str | None:
        """Why this problem is too large for the bitset backend, or None."""
        if len(problem.options) > MAX_OPTIONS:
            return f"{len(problem.options)} options, more than the {MAX_OPTIONS} it handles"
        if len(problem.primary) > MAX_PRIMARY:
            return f"{len(problem.primary)} primary items, more than the {MAX_PRIMARY} it handles"
        return None

    def solutions(self, problem: ExactCoverProblem, stats: SearchStats) -> Iterator[tuple[int, ...]]:
        reason = self.problem_reason(problem)
        if reason is not None:
            raise ValueError(f"problem too large for {self.name}: {reason}")
        n_options = len(problem.options)
        n_primary = len(problem.primary)
        n_items = n_primary + len(problem.secondary)
        W = max(1, (n_options + 63) // 64)
        IW = max(1, (n_primary + 63) // 64)
        containing = [0] * n_items
        for k, option in enumerate(problem.options):
            for j in option:
                containing[j] |= 1 << k
        live = 0
        conflict = []
        opt_start = array("i", [0])
        opt_item = array("i")
        opt_mask = []
        for k, option in enumerate(problem.options):
            primary_items = [j for j in option if j < n_primary]
            row = 0
            if primary_items:  # options without primary items are never chosen
                live |= 1 << k
                for j in option:
                    row |= containing[j]
            conflict.append(_words(row, W))
            opt_item.extend(primary_items)
            opt_start.append(len(opt_item))
            mask = 0
            for j in primary_items:
                mask |= 1 << j
            opt_mask.append(_words(mask, IW))
        count = array("i", [bin(containing[j] & live).count("1") for j in range(n_primary)])
        search = _bsx.Search(
            n_options,
            n_primary,
            W,
            IW,
            len(opt_item),
            b"".join(_words(containing[j] & live, W) for j in range(n_primary)),
            b"".join(conflict),
            opt_start,
            opt_item,
            b"".join(opt_mask),
            _words(live, W),
            count,
        )
        yield from stream_batches(search, stats)
