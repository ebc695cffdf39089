"""Checkpoints of a long count: which jobs are done, and what each found.

A checkpoint is a small JSON file naming what it belongs to: the puzzle (``puzzle``: a digest
of each ingredient of its counts, see :mod:`polyfit.puzzle.digest`: the exact cover problem,
the symmetry group, how solutions are classified, the pieces, the board's cells, optional cells,
pre-placed pieces and rules) and the split (``split``: a digest of all of those and of the job
list, see :func:`polyfit.longsearch.planning.split_digest`), its number of jobs and, for each
finished job, its counts, sealed with a digest of them and of the split. Everything in it is
checked on resume: a checkpoint of another puzzle is refused naming what differs, and a job
that is not one of the split's, counts that are not whole numbers, disagree or were changed
after polyfit wrote them, are refused naming the file and the field.

It is written when the count starts (with no job done), then whole to a temporary file beside
the target and renamed over it, so a kill at any moment (even ``kill -9``) leaves either the old
or the new checkpoint, never half of one; a job that was running is simply run again on
resume. Only a temporary file can be left over by a kill; the next run with the same
checkpoint removes it.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from pathlib import Path

from polyfit.errors import PolyfitError
from polyfit.files import read_json, temporary_names, write_json_atomically
from polyfit.fields import Fields, sealed
from polyfit.longsearch.planning import split_digest
from polyfit.longsearch.workers import JobResult, check_classes
from polyfit.puzzle.digest import combined, differences, ingredients, read_ingredients

FORMAT = "polyfit-checkpoint-3"


@dataclass
class Checkpoint:
    path: Path
    digest: str  # of the split: the puzzle and its jobs
    jobs: int
    board: str = ""
    done: dict[int, JobResult] = field(default_factory=dict)
    every: float = 1.0  # seconds between saves
    written: bool = False  # is there a file to resume from (loaded, or saved at least once)?
    puzzle: dict = field(default_factory=dict)  # the digest of each ingredient of the puzzle
    _saved_at: float = 0.0

    @classmethod
    def load(cls, path: Path, digest: str, jobs: int, board: str, puzzle: dict) -> Checkpoint:
        """The checkpoint at ``path``, checked field by field and refused unless it is of the
        split ``digest`` (of the puzzle whose ingredients are ``puzzle``, and its ``jobs``
        jobs) and every job it has is one of them."""
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
        recorded = read_ingredients(fields)
        differ = differences(recorded, puzzle)
        if differ:
            other = f" ({of})" if of != board else ""
            raise PolyfitError(
                f"{path} is a checkpoint of another puzzle{other} than {board}: they differ in "
                f"{differ}, so its counts are not this puzzle's; start the count again with --checkpoint"
            )
        if fields.digest("split") != digest or fields.whole("jobs", 1) != jobs:
            raise PolyfitError(
                f"{path} is a checkpoint of {of} split otherwise (another --depth or --jobs); "
                "resume it with the options it was started with"
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
        return cls(Path(path), digest, jobs, board, done, written=True, puzzle=recorded)

    def record(self, result: JobResult, force: bool = False) -> None:
        self.done[result.index] = result
        if force or time.monotonic() - self._saved_at >= self.every:
            self.save()

    def check_complete(self, counts) -> None:
        """With every job done: refuse counts whose classes do not add up (see
        :func:`polyfit.longsearch.workers.check_classes`)."""
        if len(self.done) == self.jobs:
            check_classes(counts, str(self.path))

    def save(self) -> None:
        data = {
            "format": FORMAT,
            "board": self.board,
            "puzzle": self.puzzle,
            "split": self.digest,
            "jobs": self.jobs,
            "done": {str(k): sealed(r.to_json(), self.digest) for k, r in sorted(self.done.items())},
        }
        write_json_atomically(self.path, data)
        self.written = True
        self._saved_at = time.monotonic()


def open_checkpoint(puzzle, jobs: list, path, resume: bool) -> Checkpoint:
    """The checkpoint of these jobs of the puzzle at ``path``: loaded from it (and checked to
    be of this very puzzle and split) when ``resume``, else a new one, written at once (so
    that a kill in the first seconds leaves a checkpoint to resume)."""
    path = Path(path)
    remove_leftovers(path)
    parts = ingredients(puzzle)
    digest = split_digest(combined(parts), [job.to_json() for job in jobs])
    if resume:
        return Checkpoint.load(path, digest, len(jobs), puzzle.board.label, parts)
    checkpoint = Checkpoint(path, digest, len(jobs), puzzle.board.label, puzzle=parts)
    checkpoint.save()
    return checkpoint


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
