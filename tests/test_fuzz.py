"""A short fuzz campaign through the command line (benchmarks/fuzz.py runs the long one).

Mutations of valid boards, voxel text, pieces files, piece specs, MagicaVoxel, BurrTools,
Bundgaard and yass files, DLX files,
checkpoints, job files, job results and saved solutions must each end in exit 0 or in one line
``polyfit: error: ...`` with exit 2: no traceback, no signal, no hang. So must look-alike
boards resumed from (or merged with) the original's checkpoint or job files, which must also
never print a count other than a fresh count's; exact cover problems with one very long
option; file names longer than the system allows; and gzipped BurrTools files declaring huge boxes.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import fuzz  # noqa: E402

INPUTS = 1200
READERS = {"board", "voxel text", "pieces file", "piece spec", "magicavoxel", "dlx", "checkpoint", "job file",
           "job result", "solutions", "xmpuzzle", "bundgaard", "yass", "separations"}
HOSTILE = {"look-alike", "long option", "long name", "huge box"}
HOSTILE_INPUTS = 150


def check(report, inputs, kinds):
    counts = report.counts()
    assert sum(counts.values()) == inputs
    assert counts["ok"] > 0 and counts["error"] > 0, dict(counts)  # both endings were reached
    assert {o.kind for o in report.outcomes} == kinds
    shown = "\n\n".join(f"{f.result} ({f.kind}, {f.mutation}): {f.detail}" for f in report.failures()[:5])
    assert not report.failures(), f"{dict(counts)}\n{report.table()}\n\n{shown}"


@pytest.mark.slow
def test_mutated_inputs_end_cleanly(tmp_path):
    check(fuzz.campaign(INPUTS, seed=2026, work=tmp_path, kinds=READERS), INPUTS, READERS)


@pytest.mark.slow
def test_look_alikes_long_options_and_long_names_end_cleanly_and_never_in_a_wrong_count(tmp_path):
    report = fuzz.campaign(HOSTILE_INPUTS, seed=2026, work=tmp_path, kinds=HOSTILE)
    check(report, HOSTILE_INPUTS, HOSTILE)
    look_alikes = [o for o in report.outcomes if o.kind == "look-alike"]
    # Some changed boards are the same puzzle (a new name): those resume to the right count.
    assert any(o.result == "ok" for o in look_alikes) and any(o.result == "error" for o in look_alikes)
