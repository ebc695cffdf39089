"""``polyfit generate``: new boards with exactly the number of solutions a designer wants."""

from __future__ import annotations

import signal
import sys
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Optional

import typer

from polyfit.commands import EXIT_INTERRUPTED, guarded
from polyfit.errors import PolyfitError, plural


def outline_of(ctx, within: str):
    """``--within``: a box size (``8x8``, ``3x3x4``) or a board file."""
    from polyfit.puzzle.generate import box_cells

    cells = box_cells(within)
    if cells is not None:
        return cells
    return ctx.registry.read_shape(Path(within)).cells


def known_boards(ctx, out: Path) -> list:
    """The cells of the board files already in ``out`` (files that do not read are skipped)."""
    known = []
    for path in sorted(out.glob("*.txt")) + sorted(out.glob("*.vox")):
        try:
            known.append(ctx.registry.read_shape(path).cells)
        except PolyfitError:
            continue
    return known


def free_name(out: Path, number: int, suffix: str, force: bool) -> tuple[int, Path]:
    """The next board name ``board-NNN`` from ``number`` whose board and picture are free
    (with ``force``, ``number`` itself)."""
    while True:
        board = out / f"board-{number:03d}{suffix}"
        if force or not (board.exists() or board.with_suffix(".png").exists()):
            return number, board
        number += 1


def index_text(command: str, rows: list) -> str:
    lines = ["# Generated boards", "", f"Made by `{command}`.", "",
             "| board | solutions | difficulty | cells | picture |", "|---|---|---|---|---|"]
    for path, solutions, score, cells in rows:
        png = path.with_suffix(".png").name
        lines.append(f"| [{path.name}]({path.name}) | {solutions} | {score} | {cells} | ![{png}]({png}) |")
    return "\n".join(lines) + "\n"


@contextmanager
def interrupt_after():
    """Ctrl-C inside the block takes effect (as KeyboardInterrupt) when the block ends."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    pending = []
    previous = signal.signal(signal.SIGINT, lambda *_: pending.append(True))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if pending:
        raise KeyboardInterrupt


class GenerateBar:
    """A live line on stderr, for terminals: boards found of those wanted, shapes tried (read
    from the search's tally as it goes) and the time elapsed."""

    def __init__(self, count: int, tally):
        from rich.console import Console
        from rich.progress import BarColumn, Progress, ProgressColumn, TimeElapsedColumn
        from rich.text import Text

        from polyfit.commands.progress import text

        class Tried(ProgressColumn):
            def render(self, task) -> Text:
                return Text(f"{plural(tally.tried, 'shape')} tried")

        self._progress = Progress(
            text("[bold]generating"), BarColumn(bar_width=20), text("{task.completed}/{task.total} boards"),
            Tried(), TimeElapsedColumn(), console=Console(stderr=True), transient=True,
        )
        self._task = self._progress.add_task("generate", total=count, completed=0)
        self._progress.start()

    def found(self, boards: int) -> None:
        self._progress.update(self._task, completed=boards)

    def stop(self) -> None:
        self._progress.stop()


def add_commands(app: typer.Typer, ctx) -> None:
    @app.command()
    @guarded
    def generate(
        pieces: Optional[str] = typer.Option(None, "--pieces", "-p", help="Piece set(s), as polyfit solve takes them (not with --interlocking)."),
        out: Path = typer.Option(..., "--out", "-o", help="Directory for the boards, their pictures and README.md."),
        within: Optional[str] = typer.Option(None, "--within", help="Outline: a box such as 8x8 or 3x3x4 (rows x columns x layers), or a board file."),
        base: Optional[Path] = typer.Option(None, "--from", help="A board to change instead: --remove or --add cells (the pieces' area decides how many)."),
        remove: Optional[int] = typer.Option(None, "--remove", help="With --from: remove K cells of the board (the pieces cover its area minus K)."),
        add: Optional[int] = typer.Option(None, "--add", help="With --from: add K cells beside the board (the pieces cover its area plus K)."),
        solutions: str = typer.Option("1", "--solutions", help="Distinct solutions wanted: N or a range LO..HI."),
        count: int = typer.Option(1, "--count", min=1, help="Boards to find."),
        seed: int = typer.Option(0, "--seed", help="Random seed: the same seed gives the same boards in the same order (with --jobs 1)."),
        symmetric: Optional[str] = typer.Option(None, "--symmetric", help="Only shapes with a symmetry of the outline (of the board, with --from): mirror, rotation or any."),
        holes: bool = typer.Option(False, "--holes", help="Allow enclosed holes (empty cells that do not reach the outside)."),
        flat: bool = typer.Option(False, "--flat", help="3D: only figures that stand on their lowest layer (each cube on it, on a cube below, or held by a neighbour that stands)."),
        min_difficulty: Optional[float] = typer.Option(None, "--min-difficulty", help="Only boards at least this difficult, as polyfit check scores it (log10 of search nodes)."),
        jobs: int = typer.Option(1, "--jobs", "-j", min=1, help="Worker processes (see above for what stays reproducible; at most 4 a core, and at least 8 are allowed)."),
        time_budget: Optional[float] = typer.Option(None, "--time", min=0, help="Stop after this many seconds, keeping what was found."),
        force: bool = typer.Option(False, "--force", help="Overwrite files in --out (board-001... and README.md)."),
        quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar."),
        backend: str = typer.Option("auto", "--backend", "-b", help="Solver backend (polyfit backends lists them)."),
        interlocking: bool = typer.Option(False, "--interlocking", help="Design interlocking puzzles instead: cut --within (a box of cubes) into --pieces-count pieces with one assembly that comes apart at --min-level or more."),
        pieces_count: Optional[int] = typer.Option(None, "--pieces-count", help="With --interlocking: the number of pieces."),
        min_level: Optional[int] = typer.Option(None, "--min-level", help="With --interlocking: the least level (BurrTools' moves to the first separation)."),
        max_assemblies: int = typer.Option(1, "--max-assemblies", help="With --interlocking: the most assemblies in all (only one of them comes apart)."),
        hole_count: int = typer.Option(0, "--hole-count", help="With --interlocking: cells of the box left empty (moves need room: a full box has level 1 at most)."),
        file_format: str = typer.Option("xmpuzzle", "--format", help="With --interlocking: the file written (xmpuzzle: BurrTools' format, which polyfit reads too; vox: polyfit's voxel text, with the pieces in a .pieces.vox beside it)."),
    ):
        """Find boards that the pieces fill in exactly N distinct ways.

        The shapes have the pieces' total area, lie inside --within, are
        connected and have no holes (every empty cell of the outline reaches
        the outside) unless --holes allows them. --from BOARD changes a
        given board instead: --remove K takes K of its cells away, --add K
        adds K cells in its bounding box grown by one (the board's own holes
        may stay). The shape must have the pieces' area, so K is the
        difference between the board's area and the pieces' (given alone,
        --from works it out; a K that does not match is an error naming the
        right one).

        Each board found is written to --out as text art (.txt) or voxel
        text (.vox) with '; pieces:', '; solutions:', '; difficulty:' (as
        polyfit check scores it) and '; generated:' lines, its solution as a
        PNG beside it, and an index README.md. Boards congruent to one
        found, or to a board file already in --out, are skipped; no file is
        overwritten without --force. Ctrl-C keeps what was found (exit code
        130).

        --jobs N runs N worker processes: worker 0 tries the shapes that one
        process tries, the others their own (each from --seed, reproducibly),
        and the first boards to arrive are kept, so which boards and their
        order can vary between runs with more than one job.

        Example: polyfit generate --pieces soma --within 3x3x4 --count 5 --seed 1 --out figures

        Example: polyfit generate --pieces tetrominoes,tetrominoes:T=2 --from shapes/tetromino/4x5.txt --add 4 --out boards

        --interlocking designs interlocking puzzles instead: it cuts the box
        --within (less --hole-count cells) into --pieces-count connected
        pieces whose one assembly that comes apart has level --min-level or
        more (and at most --max-assemblies assemblies in all), each written
        as a BurrTools .xmpuzzle with its level in the comment.

        Example: polyfit generate --interlocking --within 5x5x5 --hole-count 6 --pieces-count 5 --min-level 3 --count 2 --out puzzles
        """
        if interlocking:
            from polyfit.commands.interlocking import run as design

            if pieces is not None or base is not None or within is None:
                raise PolyfitError("--interlocking cuts the box --within into pieces: give --within, not --pieces or --from")
            return design(outline_of(ctx, within), within, pieces_count, min_level, hole_count, max_assemblies,
                          count, seed, out, file_format, jobs, time_budget, force, quiet)
        if pieces is None:
            raise PolyfitError("give the pieces with --pieces (or --interlocking to design interlocking puzzles)")
        if (pieces_count, min_level, hole_count, max_assemblies, file_format) != (None, None, 0, 1, "xmpuzzle"):
            raise PolyfitError("--pieces-count, --min-level, --max-assemblies, --hole-count and --format go with --interlocking")
        from polyfit.files import path_exists, path_is_dir, write_output_text
        from polyfit.longsearch.workers import die_with
        from polyfit.puzzle.generate import Tally, changed_board, generate as search, parse_target
        from polyfit.puzzle.hint import board_text
        from polyfit.render.pictures import save_png, solution_image

        target = parse_target(solutions)
        chosen = ctx.resolve_pieces(pieces)
        if (within is None) == (base is None):
            raise PolyfitError("give the shapes' outline with --within, or a board to change with --from")
        if (remove is not None or add is not None) and base is None:
            raise PolyfitError("--remove and --add change the board given with --from")
        family = {}
        if base is not None:
            area = sum(p.size * p.count[0] for p in chosen)
            family = changed_board(ctx.registry.read_shape(base).cells, area, remove, add)
            outline = family.pop("outline")
        else:
            outline = outline_of(ctx, within)
        if path_exists(out, "write") and not path_is_dir(out, "write"):
            raise PolyfitError(f"--out {out} is a file, not a directory")
        readme = out / "README.md"
        if path_exists(readme, "write") and not force:
            raise PolyfitError(f"{readme} exists: choose another --out or use --force")
        wanted = solutions if ".." in solutions else str(target[0])
        where = f"--within {within}"
        if base is not None:
            where = f"--from {base}" + (f" --remove {remove}" if remove else f" --add {add}" if add else "")
        command = f"polyfit generate --pieces {pieces} {where} --solutions {wanted} --seed {seed}"
        for flag, on in (("--holes", holes), ("--flat", flat)):
            command += f" {flag}" if on else ""
        if symmetric:
            command += f" --symmetric {symmetric}"
        if min_difficulty is not None:
            command += f" --min-difficulty {min_difficulty:g}"
        if jobs > 1:
            command += f" --jobs {jobs}"
        suffix = ".txt" if len(outline[0]) == 2 else ".vox"
        tally = Tally()
        started = time.monotonic()
        deadline = None if time_budget is None else time.monotonic() + time_budget
        known = known_boards(ctx, out) if out.is_dir() else []
        boards = search(
            chosen, outline, lambda problem: ctx.registry.backend(backend, problem), target, count,
            seed, symmetric, known, {"pieces": pieces, "generated": command}, deadline, tally,
            holes=holes, flat=flat, min_difficulty=min_difficulty, jobs=jobs, worker_setup=die_with,
            **family,
        )
        rows, number, interrupted, bar = [], 1, False, None
        try:
            out.mkdir(parents=True, exist_ok=True)
            # Workers have started: the bar's thread is not forked with them.
            if not quiet and sys.stdout.isatty() and sys.stderr.isatty():
                bar = GenerateBar(count, tally)
            for found in boards:
                number, path = free_name(out, number, suffix, force)
                with interrupt_after():  # a board and its picture are written whole, and indexed
                    write_output_text(path, board_text(found.board), force)
                    image = solution_image(found.board.cells, chosen, found.solution)
                    save_png(image, path.with_suffix(".png"), force=force)
                    score = found.board.metadata.get("difficulty", "-")
                    rows.append((path, found.solutions, score, len(found.board.cells)))
                typer.echo(
                    f"wrote {path} ({plural(found.solutions, 'distinct solution')}, difficulty {score}; "
                    f"{plural(tally.tried, 'shape')} counted, {tally.seconds:.1f}s)"
                )
                if bar is not None:
                    bar.found(len(rows))
                number += 1
        except KeyboardInterrupt:
            interrupted = True
        finally:
            boards.close()
            if bar is not None:
                bar.stop()
        if rows:
            try:
                with interrupt_after():
                    write_output_text(readme, index_text(command, rows), force)
            except KeyboardInterrupt:
                interrupted = True
            typer.echo(f"wrote {readme}")
        from polyfit.puzzle.generate import GIVE_UP

        why = {"time": " (time is up)", "exhausted": f" (no new board in {GIVE_UP} fresh starts)"}.get(tally.stopped, "")
        why = " (interrupted)" if interrupted else why
        typer.echo(
            f"{plural(len(rows), 'board')} found of {count}{why}; {plural(tally.tried, 'shape')} counted, "
            f"{tally.rejected} ruled out before searching, {plural(tally.starts, 'fresh start')}, "
            f"{time.monotonic() - started:.1f}s"
        )
        if interrupted:
            raise typer.Exit(EXIT_INTERRUPTED)
