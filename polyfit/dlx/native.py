"""``dlx-c``: the same dancing-links search as ``dlx-python``, its loop compiled in C."""

from __future__ import annotations

from typing import Iterator

from ..exactcover import ExactCoverProblem, SearchStats
from . import build_layout, stream_batches

try:
    from . import _dlxc
except ImportError as exc:  # no compiler when polyfit was installed: the extension is optional
    _dlxc = None
    _import_error = str(exc)
else:
    _import_error = None



class NativeDLX:
    name = "dlx-c"
    summary = "Knuth's dancing links (Algorithm X), search loop in C; twin of dlx-python"
    capabilities = frozenset({"secondary"})

    def unavailable_reason(self):
        if _dlxc is None:
            return f"the C extension polyfit.dlx._dlxc did not build or load ({_import_error})"
        return None

    def solutions(self, problem: ExactCoverProblem, stats: SearchStats) -> Iterator[tuple[int, ...]]:
        layout = build_layout(problem)
        search = _dlxc.Search(
            layout.primary,
            layout.llink,
            layout.rlink,
            layout.top,
            layout.ulink,
            layout.dlink,
            layout.spacer_option,
        )
        yield from stream_batches(search, stats)
