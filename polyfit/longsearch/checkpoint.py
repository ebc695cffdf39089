"""Checkpoints of a long count: which jobs are done, and what each found.

A checkpoint is a small JSON file naming the problem (a SHA-256 of its exact cover problem in
Knuth's format, and of the split) and, for each finished job, its counts. It is written whole
to a temporary file beside the target and renamed over it, so a kill at any moment (even
``kill -9``) leaves either the old or the new checkpoint, never half of one; a job that was
running is simply run again on resume. Only a temporary file can be left over by a kill; the
next run with the same checkpoint removes it.
"""

from __future__ import annotations

import hashlib
import json
import re
import time
from dataclasses import dataclass, field
from pathlib import Path

from polyfit.xc.dlxformat import format_dlx
from polyfit.errors import PolyfitError
from polyfit.files import read_json, write_json_atomically
from polyfit.longsearch.workers import JobResult

FORMAT = "polyfit-checkpoint-1"


def problem_digest(problem, jobs: list) -> str:
    text = format_dlx(problem) + json.dumps([j.to_json() for j in jobs])
    return hashlib.sha256(text.encode()).hexdigest()


@dataclass
class Checkpoint:
    path: Path
    digest: str
    jobs: int
    board: str = ""
    done: dict[int, JobResult] = field(default_factory=dict)
    every: float = 1.0  # seconds between saves
    written: bool = False  # is there a file to resume from (loaded, or saved at least once)?
    _saved_at: float = 0.0

    @classmethod
    def load(cls, path: Path, digest: str, jobs: int, board: str) -> Checkpoint:
        data = read_json(path, "checkpoint")
        if data.get("format") != FORMAT:
            raise PolyfitError(f"{path} is not a polyfit checkpoint")
        if data.get("problem") != digest or data.get("jobs") != jobs:
            raise PolyfitError(
                f"{path} is a checkpoint of another problem ({data.get('board') or 'unknown board'}); "
                f"it cannot resume {board} (same board, pieces, options and split needed)"
            )
        done = {int(k): JobResult.from_json(v) for k, v in data.get("done", {}).items()}
        return cls(Path(path), digest, jobs, board, done, written=True)

    def record(self, result: JobResult, force: bool = False) -> None:
        self.done[result.index] = result
        if force or time.monotonic() - self._saved_at >= self.every:
            self.save()

    def save(self) -> None:
        data = {
            "format": FORMAT,
            "board": self.board,
            "problem": self.digest,
            "jobs": self.jobs,
            "done": {str(k): r.to_json() for k, r in sorted(self.done.items())},
        }
        write_json_atomically(self.path, data)
        self.written = True
        self._saved_at = time.monotonic()


def open_checkpoint(puzzle, jobs: list, path, resume: bool) -> Checkpoint:
    """The checkpoint of these jobs of the puzzle at ``path``: loaded from it (and checked to
    be of this very problem and split) when ``resume``, else a new one, written on first save."""
    path = Path(path)
    remove_leftovers(path)
    digest = problem_digest(puzzle.cover.problem, jobs)
    if resume:
        return Checkpoint.load(path, digest, len(jobs), puzzle.board.label)
    return Checkpoint(path, digest, len(jobs), puzzle.board.label)


def remove_leftovers(path: Path) -> list[Path]:
    """Remove the temporary files of this checkpoint that a kill left behind (named
    ``.NAME.XXXXXXXX`` beside it by :func:`polyfit.files.write_json_atomically`), and only
    those; return them."""
    temporary = re.compile(r"\." + re.escape(path.name) + r"\.[a-z0-9_]{8}")
    removed = []
    try:
        candidates = list(path.parent.iterdir())
    except OSError:
        return removed  # no directory: nothing left over (and writing will say why)
    for leftover in candidates:
        if temporary.fullmatch(leftover.name) and leftover.is_file():
            leftover.unlink(missing_ok=True)
            removed.append(leftover)
    return removed
