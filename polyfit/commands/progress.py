"""A live progress bar for long searches (rich), on stderr, for terminals only.

The search runs as jobs (see polyfit.xc.jobs); the bar shows the fraction of the search tree done
(each job's share of the tree, as Knuth's dlx1 reckons progress from the positions in the top
levels), the jobs done, solutions so far, search nodes per second and an ETA.
"""

from __future__ import annotations

from rich.console import Console
from rich.progress import BarColumn, Progress, TaskProgressColumn, TextColumn, TimeElapsedColumn, TimeRemainingColumn


class ProgressBar:
    def __init__(self, jobs: int, done_before: int = 0):
        self._progress = Progress(
            TextColumn("[bold]searching"),
            BarColumn(),
            TaskProgressColumn(),
            TextColumn("{task.fields[jobs]} jobs"),
            TextColumn("{task.fields[solutions]} solutions, {task.fields[rate]} nodes/s"),
            TimeElapsedColumn(),
            TextColumn("ETA"),
            TimeRemainingColumn(),
            console=Console(stderr=True),
            transient=True,
        )
        self._task = self._progress.add_task(
            "search", total=1.0, completed=0.0, solutions=0, rate="-", jobs=f"{done_before}/{jobs}"
        )
        self._started = self._stopped = False

    def start(self) -> None:
        """Show the bar (after any worker processes have started: its thread is not forked)."""
        if not self._started:
            self._started = True
            self._progress.start()

    def update(self, progress) -> None:
        rate = progress.counts.search.nodes / progress.elapsed if progress.elapsed > 0 else 0
        self._progress.update(
            self._task,
            completed=progress.fraction,
            jobs=f"{progress.done}/{progress.jobs}",
            solutions=f"{progress.counts.total:,}",
            rate=f"{rate:,.0f}",
        )

    def stop(self) -> None:
        if self._started and not self._stopped:
            self._stopped = True
            self._progress.stop()
