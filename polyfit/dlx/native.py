"""``dlx-c``: the same dancing-links search as ``dlx-python``, its loop compiled in C.

Plain problems run in ``_dlxc``; those with multiplicities or colours in ``_dlxmc`` (Knuth's
Algorithms M and C, twin of :mod:`polyfit.dlx.python_mc`)."""

from __future__ import annotations

from typing import Iterator

from polyfit.xc.problem import ExactCoverProblem, SearchStats
from polyfit.dlx import Layout, build_layout, counted_batches, stream_batches

try:
    from polyfit.dlx import _dlxc, _dlxmc
except ImportError as exc:  # no compiler when polyfit was installed: the extension is optional
    _dlxc = _dlxmc = None
    _import_error = str(exc)
else:
    _import_error = None


class NativeDLX:
    name = "dlx-c"
    summary = "Knuth's dancing links (Algorithm X), search loop in C; twin of dlx-python"
    capabilities = frozenset({"secondary", "multiplicities", "colours"})

    def unavailable_reason(self):
        if _dlxc is None:
            return f"the C extensions polyfit.dlx._dlxc/_dlxmc did not build or load ({_import_error})"
        return None

    def solutions(self, problem: ExactCoverProblem, stats: SearchStats) -> Iterator[tuple[int, ...]]:
        general = problem.has_multiplicities or problem.has_colours
        yield from stream_batches(native_search(build_layout(problem), general), stats)

    def solution_batches(self, problem: ExactCoverProblem, stats: SearchStats) -> Iterator[list]:
        """The solutions in lists, as the C search hands them over (:func:`polyfit.dlx.batches`)."""
        general = problem.has_multiplicities or problem.has_colours
        yield from counted_batches(native_search(build_layout(problem), general), stats)


def native_search(layout: Layout, general: bool):
    """The C search object over a copy of ``layout``'s arrays: ``_dlxmc`` when ``general``
    (Algorithms M and C), else ``_dlxc``. Besides ``next_batch(k)`` it has ``sanity()``, for the
    tests (see :mod:`polyfit.dlx.sanity`)."""
    links = (layout.primary, layout.llink, layout.rlink, layout.top, layout.ulink, layout.dlink, layout.spacer_option)
    if general:
        return _dlxmc.Search(*links, layout.color, layout.bound, layout.slack)
    return _dlxc.Search(*links)
