"""A short fuzz campaign through the command line (benchmarks/fuzz.py runs the long one).

Mutations of valid boards, voxel text, pieces files, piece specs, MagicaVoxel, BurrTools,
Bundgaard and yass files, DLX files,
checkpoints, job files, job results and saved solutions must each end in exit 0 or in one line
``polyfit: error: ...`` with exit 2: no traceback, no signal, no hang.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import fuzz  # noqa: E402

INPUTS = 1200


@pytest.mark.slow
def test_mutated_inputs_end_cleanly(tmp_path):
    report = fuzz.campaign(INPUTS, seed=2026, work=tmp_path)
    counts = report.counts()
    assert sum(counts.values()) == INPUTS
    assert counts["ok"] > 0 and counts["error"] > 0, dict(counts)  # both endings were reached
    kinds = {o.kind for o in report.outcomes}
    assert kinds == {"board", "voxel text", "pieces file", "piece spec", "magicavoxel", "dlx",
                     "checkpoint", "job file", "job result", "solutions", "xmpuzzle", "bundgaard", "yass"}
    shown = "\n\n".join(f"{f.result} ({f.kind}, {f.mutation}): {f.detail}" for f in report.failures()[:5])
    assert not report.failures(), f"{dict(counts)}\n{report.table()}\n\n{shown}"
