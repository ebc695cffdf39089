"""``polyfit generate --interlocking``: interlocking puzzles that come apart at a level."""

from __future__ import annotations

import sys
import time
from contextlib import contextmanager
from pathlib import Path

import typer

from polyfit.commands import EXIT_INTERRUPTED
from polyfit.errors import PolyfitError, plural

class Bar:
    """A live line on stderr: puzzles found, climbs, the best level met, the time."""

    def __init__(self, count: int, tally):
        from rich.console import Console
        from rich.progress import BarColumn, Progress, ProgressColumn, TimeElapsedColumn
        from rich.text import Text

        from polyfit.commands.progress import text

        class Work(ProgressColumn):
            def render(self, task) -> Text:
                return Text(f"{plural(tally.climbs, 'climb')}, best level {tally.best}")

        self._progress = Progress(
            text("[bold]designing"), BarColumn(bar_width=20), text("{task.completed}/{task.total} puzzles"),
            Work(), TimeElapsedColumn(), console=Console(stderr=True), transient=True,
        )
        self._task = self._progress.add_task("interlocking", total=count, completed=0)
        self._progress.start()

    def found(self, puzzles: int) -> None:
        self._progress.update(self._task, completed=puzzles)

    def stop(self) -> None:
        self._progress.stop()


@contextmanager
def ctrl_c_held():
    """Ctrl-C inside the block is held back (the signal blocked) until the block ends."""
    import signal

    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def run(outline, within: str, pieces_count, min_level, holes: int, max_assemblies: int, count: int,
        seed: int, out: Path, file_format: str, jobs: int, time_budget, force: bool, quiet: bool) -> None:
    from polyfit.design.interlocking import FORMATS, Tally, search, validate

    if pieces_count is None or min_level is None:
        raise PolyfitError("--interlocking needs --pieces-count K and --min-level L")
    if file_format not in FORMATS:
        from polyfit.errors import UnknownNameError

        raise UnknownNameError("format", file_format, FORMATS)
    validate(outline, pieces_count, min_level, holes, max_assemblies)
    if out.exists() and not out.is_dir():
        raise PolyfitError(f"--out {out} is a file, not a directory")
    command = (f"polyfit generate --interlocking --within {within} --hole-count {holes} --pieces-count {pieces_count} "
               f"--min-level {min_level} --max-assemblies {max_assemblies} --seed {seed}")
    tally = Tally()
    started = time.monotonic()
    deadline = None if time_budget is None else started + time_budget
    designs = search(outline, pieces_count, min_level, holes, max_assemblies, seed, jobs, tally=tally, deadline=deadline)
    found, number, interrupted, bar, why = 0, 1, False, None, ""
    try:
        out.mkdir(parents=True, exist_ok=True)
        if not quiet and sys.stderr.isatty():
            bar = Bar(count, tally)
        while found < count:
            design = next(designs, None)
            if design is None:
                why = " (time is up)"
                break
            suffix = ".xmpuzzle" if file_format == "xmpuzzle" else ".vox"
            while not force and any((out / f"puzzle-{number:03d}{s}").exists() for s in (suffix, ".pieces" + suffix)):
                number += 1
            path = out / f"puzzle-{number:03d}{suffix}"
            with ctrl_c_held():  # a puzzle is written whole (with its pieces file) or not at all
                design.write(path, file_format, force, f"made by {command} (climb {design.climb})")
            found += 1
            number += 1
            typer.echo(f"wrote {path} (level {design.level}, {plural(design.moves, 'move')}, "
                       f"{plural(design.assemblies, 'assembly', 'assemblies')}; climb {design.climb}, "
                       f"{time.monotonic() - started:.1f}s)")
            if bar is not None:
                bar.found(found)
    except KeyboardInterrupt:
        interrupted, why = True, " (interrupted)"
    finally:
        designs.close()
        if bar is not None:
            bar.stop()
    typer.echo(f"{plural(found, 'puzzle')} found of {count}{why}; {plural(tally.climbs, 'climb')}, "
               f"{plural(tally.tried, 'design')} taken apart, {tally.checked} counted, best level met {tally.best}, "
               f"{time.monotonic() - started:.1f}s")
    if interrupted:
        raise typer.Exit(EXIT_INTERRUPTED)
