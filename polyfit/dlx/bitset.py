"""``bitset-c``: Algorithm X on bitsets in C (see ``_bsx.c``), for problems of moderate size.

Python hands the options over as flat lists of items; the C module builds the bit arrays: for
each primary item the options that contain it, and for each option the options it conflicts
with (those sharing any item with it, primary or secondary). The conflict table takes options²
bits, so problems with more than ``MAX_OPTIONS`` options are left to the dancing-links backends
(``auto`` falls back by itself).

The branching item is found one of two ways, chosen per problem by their cost at the root
(``AUTO``): by popcount of each item's live options, stopping early (``BY_POPCOUNT``), or from
counts kept up to date as options are killed (``BY_COUNTS``). Both make the same choices.

Multiplicities (Algorithm M's bounds) are taken as :class:`polyfit.xc.branching.CapacityForm`
says: Algorithm X over the items covered exactly once, the items allowed several times as
limits, when every option covers an item of the first kind (pieces used up to k times on cells
covered once: burr sets, "any ten of twelve" boards). Other problems go to ``dlx-c``.

``nodes`` counts options tried, as in the DLX backends; ``updates`` counts options killed.
``bitset-python`` is its semantic twin (same choices, solutions, order and counts; different
code), not a line-by-line one.
"""

from __future__ import annotations

from array import array
from typing import Iterator

from polyfit.xc.branching import CapacityForm
from polyfit.xc.problem import ExactCoverProblem, SearchStats
from polyfit.dlx import counted_batches, stream_batches

try:
    from polyfit.dlx import _bsx
except ImportError as exc:
    _bsx = None
    _import_error = str(exc)
else:
    _import_error = None

MAX_OPTIONS = 16384
MAX_PRIMARY = 4096
AUTO, BY_COUNTS, BY_POPCOUNT = -1, 0, 1  # how _bsx finds the branching item


class BitsetBackend:
    name = "bitset-c"
    summary = "Algorithm X on bitsets in C: copies state instead of undoing it; up to 16384 options"
    capabilities = frozenset({"secondary", "multiplicities"})

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
        if problem.has_multiplicities:
            return CapacityForm(problem).reason
        return None

    def solutions(self, problem: ExactCoverProblem, stats: SearchStats) -> Iterator[tuple[int, ...]]:
        yield from stream_batches(self._search(problem), stats)

    def solution_batches(self, problem: ExactCoverProblem, stats: SearchStats) -> Iterator[list]:
        """The solutions in lists, as the C search hands them over (:func:`polyfit.dlx.batches`)."""
        yield from counted_batches(self._search(problem), stats)

    def _search(self, problem: ExactCoverProblem):
        reason = self.problem_reason(problem)
        if reason is not None:
            raise ValueError(f"problem too large for {self.name}: {reason}")
        return bitset_search(problem)


def csr(lists) -> tuple[array, array]:
    """Lists of ints as two arrays: where each list starts (and the end), and their items."""
    start, flat = array("i", [0]), array("i")
    for entry in lists:
        flat.extend(entry)
        start.append(len(flat))
    return start, flat


def bitset_search(problem: ExactCoverProblem, way: int = AUTO):
    """The C search object for a problem, finding branching items the given way."""
    if not problem.has_multiplicities:
        opt_start, opt_items = csr(problem.options)
        return _bsx.Search(len(problem.primary), len(problem.items), opt_start, opt_items, way)
    form = CapacityForm(problem)
    opt_start, opt_items = csr(form.options)
    cap_start, cap_items = csr(form.option_caps)
    return _bsx.Search(form.primary, form.items, opt_start, opt_items, way,
                       array("i", form.cap_lo), array("i", form.cap_hi), cap_start, cap_items)
