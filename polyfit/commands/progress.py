"""A live progress bar for long searches (rich), on stderr, for terminals only.

The search runs as jobs (see polyfit.xc.jobs); the bar shows the fraction of the search tree done
(each job's share of the tree, as Knuth's dlx1 reckons progress from the positions in the top
levels), the elapsed time and an ETA, and, as far as the terminal is wide enough, the jobs done,
solutions so far and search nodes per second. The times never shrink: when the line would not
fit, the least useful columns are left out instead.
"""

from __future__ import annotations

import time

from rich.console import Console
from rich.measure import Measurement
from rich.progress import BarColumn, Progress, ProgressColumn, SpinnerColumn, TextColumn
from rich.table import Column, Table
from rich.text import Text

BAR_WIDTH = 10  # the narrowest bar worth showing


def clock(seconds: float | None) -> str:
    """``H:MM:SS``, or ``-:--:--`` when unknown."""
    if seconds is None:
        return "-:--:--"
    minutes, secs = divmod(int(max(0.0, seconds)), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}"


def short_number(value: float) -> str:
    """A rate in at most four digits and a unit: ``950``, ``12.3k``, ``2.7M``."""
    for unit, size in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if value >= size:
            return f"{value / size:.3g}{unit}"
    return f"{value:.0f}"


class TimeColumn(ProgressColumn):
    """Elapsed time or time left, counted on between the reports of the jobs."""

    def __init__(self, label: str, left: bool):
        super().__init__(table_column=Column(no_wrap=True))
        self.label = label
        self.left = left

    def render(self, task) -> Text:
        since = time.monotonic() - task.fields["reported"]
        if self.left:
            remaining = task.fields["remaining"]
            seconds = None if remaining is None else remaining - since
        else:
            seconds = task.fields["elapsed"] + since
        return Text(self.label + clock(seconds))


class FittingProgress(Progress):
    """A rich Progress that leaves out columns, least useful first, until the line fits the
    terminal, instead of letting rich cut every column (times included) short."""

    def __init__(self, *columns, droppable=(), **options):
        super().__init__(*columns, **options)
        self.droppable = list(droppable)

    def make_tasks_table(self, tasks) -> Table:
        if not tasks:  # rich renders once while it is built
            return super().make_tasks_table(tasks)
        shown = list(self.columns)
        for column in [None, *self.droppable]:
            if column is not None:
                shown.remove(column)
            if self._width(shown, tasks) <= self.console.width:
                break
        table = Table.grid(*(c.get_table_column().copy() for c in shown), padding=(0, 1), expand=self.expand)
        for task in tasks:
            if task.visible:
                table.add_row(*(c(task) for c in shown))
        return table

    def _width(self, columns, tasks) -> int:
        widest = 0
        for task in tasks:
            width = len(columns) - 1  # the spaces between columns
            for column in columns:
                if isinstance(column, BarColumn):
                    width += BAR_WIDTH
                else:
                    width += Measurement.get(self.console, self.console.options, column(task)).maximum
            widest = max(widest, width)
        return widest


def text(template: str) -> TextColumn:
    return TextColumn(template, table_column=Column(no_wrap=True))


class ProgressBar:
    def __init__(self, jobs: int, done_before: int = 0, console: Console | None = None):
        label = text("[bold]searching")
        rate = text("{task.fields[rate]} nodes/s")
        jobs_done = text("{task.fields[jobs]} jobs")
        solutions = text("{task.fields[solutions]} sol.")
        self._progress = FittingProgress(
            label,
            BarColumn(bar_width=None),
            text("{task.percentage:>3.0f}%"),
            jobs_done,
            solutions,
            rate,
            TimeColumn("", left=False),
            TimeColumn("ETA ", left=True),
            droppable=(label, rate, jobs_done, solutions),
            console=console or Console(stderr=True),
            transient=True,
        )
        self._task = self._progress.add_task(
            "search", total=1.0, completed=0.0, solutions=0, rate="-", jobs=f"{done_before}/{jobs}",
            elapsed=0.0, remaining=None, reported=time.monotonic(),
        )
        self._first = None  # (elapsed, fraction) at the first report: resumed jobs took no time
        self._started = self._stopped = False

    def __rich__(self):
        return self._progress.get_renderable()

    def start(self) -> None:
        """Show the bar (after any worker processes have started: its thread is not forked)."""
        if not self._started:
            self._started = True
            self._progress.start()

    def update(self, progress) -> None:
        if self._first is None:
            self._first = (progress.elapsed, progress.fraction)
        elapsed = progress.elapsed
        rate = progress.counts.search.nodes / elapsed if elapsed > 0 else 0
        took, since = elapsed - self._first[0], progress.fraction - self._first[1]
        remaining = took * (1.0 - progress.fraction) / since if since > 0 else None
        self._progress.update(
            self._task,
            completed=progress.fraction,
            jobs=f"{progress.done}/{progress.jobs}",
            solutions=f"{progress.counts.total:,}",
            rate=short_number(rate),
            elapsed=elapsed,
            remaining=remaining,
            reported=time.monotonic(),
        )

    def stop(self) -> None:
        if self._started and not self._stopped:
            self._stopped = True
            self._progress.stop()


class TallyBar:
    """The progress of ``--count --disassemble``: how many assemblies the search has met and
    taken apart so far, how many come apart, and the time (how many there will be is not known
    before the search ends, so there is no bar to fill)."""

    def __init__(self, console: Console | None = None):
        self._progress = Progress(
            SpinnerColumn(),
            text("[bold]taking apart"),
            text("{task.fields[assemblies]} assemblies, {task.fields[apart]} come apart"),
            TimeColumn("", left=False),
            console=console or Console(stderr=True),
            transient=True,
        )
        self._task = self._progress.add_task("disassembly", total=None, assemblies="0", apart="0",
                                             elapsed=0.0, reported=time.monotonic())
        self._began = time.monotonic()
        self._started = self._stopped = False

    def __rich__(self):
        return self._progress.get_renderable()

    def show(self, tally) -> None:
        """Called with the tally so far after each assembly or batch (see
        :meth:`polyfit.Puzzle.count`); the first call shows the line."""
        if not self._started:
            self._started = True
            self._progress.start()
        now = time.monotonic()
        self._progress.update(self._task, assemblies=f"{tally.assemblies:,}", apart=f"{tally.disassemblable:,}",
                              elapsed=now - self._began, reported=now)

    def stop(self) -> None:
        if self._started and not self._stopped:
            self._stopped = True
            self._progress.stop()
