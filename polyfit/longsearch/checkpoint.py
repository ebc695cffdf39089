"""Checkpoints of a long count: which jobs are done, and what each found.

A checkpoint is a small JSON file naming the split it belongs to (``problem``: a SHA-256 of
the exact cover problem in Knuth's format and of the job list, see
:func:`polyfit.longsearch.planning.split_digest`), its number of jobs and, for each finished
job, its counts, sealed with a digest of them and of the split. Everything in it is checked on
resume: a job that is not one of the split's, counts that are not whole numbers, disagree or
were changed after polyfit wrote them, are refused naming the file and the field.

It is written whole to a temporary file beside the target and renamed over it, so a kill at
any moment (even ``kill -9``) leaves either the old or the new checkpoint, never half of one;
a job that was running is simply run again on resume. Only a temporary file can be left over by a kill; the
next run with the same checkpoint removes it.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from pathlib import Path

from polyfit.errors import PolyfitError
from polyfit.files import read_json, temporary_names, write_json_atomically
from polyfit.fields import Fields, sealed
from polyfit.longsearch.planning import problem_digest, split_digest
from polyfit.longsearch.workers import JobResult

FORMAT = "polyfit-checkpoint-2"


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
        """The checkpoint at ``path``, checked field by field and refused unless it is of the
        split ``digest`` (the problem and its ``jobs`` jobs) and every job it has is one of them."""
        fields = Fields(read_json(path, "checkpoint"), path)
        written_as = fields.data.get("format")
        if written_as != FORMAT:
            if isinstance(written_as, str) and written_as.startswith("polyfit-checkpoint-"):
                raise PolyfitError(
                    f"{path} is a checkpoint of another version of polyfit ({written_as}); "
                    "start the count again with --checkpoint"
                )
            raise PolyfitError(f"{path} is not a polyfit checkpoint")
        of = fields.optional_text("board") or "unknown board"
        if fields.digest("problem") != digest or fields.whole("jobs", 1) != jobs:
            raise PolyfitError(
                f"{path} is a checkpoint of another problem ({of}); "
                f"it cannot resume {board} (same board, pieces, options and split needed)"
            )
        finished = fields.part("done")
        done = {}
        for key in finished.data:
            if not re.fullmatch(r"0|[1-9][0-9]{0,17}", key) or int(key) >= jobs:
                raise finished.error(key, f"is not one of the {jobs} jobs of this split (0 to {jobs - 1})")
            entry = finished.part(key)
            result = JobResult.from_json(entry, jobs)
            if result.index != int(key):
                raise entry.error("index", f"must be {key}, the job it is filed under, not {result.index}")
            entry.check_seal(digest, f"remove done.{key} to run job {int(key) + 1} again")
            done[result.index] = result
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
            "done": {str(k): sealed(r.to_json(), self.digest) for k, r in sorted(self.done.items())},
        }
        write_json_atomically(self.path, data)
        self.written = True
        self._saved_at = time.monotonic()


def open_checkpoint(puzzle, jobs: list, path, resume: bool) -> Checkpoint:
    """The checkpoint of these jobs of the puzzle at ``path``: loaded from it (and checked to
    be of this very problem and split) when ``resume``, else a new one, written on first save."""
    path = Path(path)
    remove_leftovers(path)
    digest = split_digest(problem_digest(puzzle.cover.problem), [job.to_json() for job in jobs])
    if resume:
        return Checkpoint.load(path, digest, len(jobs), puzzle.board.label)
    return Checkpoint(path, digest, len(jobs), puzzle.board.label)


def remove_leftovers(path: Path) -> list[Path]:
    """Remove the temporary files of this checkpoint that a kill left behind (named
    ``.NAME.XXXXXXXX.part`` beside it by :func:`polyfit.files.write_json_atomically`), and only
    those; return them."""
    temporary = temporary_names(path)
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
