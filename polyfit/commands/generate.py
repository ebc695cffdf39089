"""``polyfit generate``: new boards with exactly the number of solutions a designer wants."""

from __future__ import annotations

import time
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
             "| board | solutions | cells | picture |", "|---|---|---|---|"]
    for path, solutions, cells in rows:
        png = path.with_suffix(".png").name
        lines.append(f"| [{path.name}]({path.name}) | {solutions} | {cells} | ![{png}]({png}) |")
    return "\n".join(lines) + "\n"


def add_commands(app: typer.Typer, ctx) -> None:
    @app.command()
    @guarded
    def generate(
        pieces: str = typer.Option(..., "--pieces", "-p", help="Piece set(s), as polyfit solve takes them."),
        within: str = typer.Option(..., "--within", help="Outline: a box such as 8x8 or 3x3x4 (rows x columns x layers), or a board file."),
        out: Path = typer.Option(..., "--out", "-o", help="Directory for the boards, their pictures and README.md."),
        solutions: str = typer.Option("1", "--solutions", help="Distinct solutions wanted: N or a range LO..HI."),
        count: int = typer.Option(1, "--count", min=1, help="Boards to find."),
        seed: int = typer.Option(0, "--seed", help="Random seed: the same seed gives the same boards in the same order."),
        symmetric: Optional[str] = typer.Option(None, "--symmetric", help="Only shapes with a symmetry of the outline: mirror, rotation or any."),
        time_budget: Optional[float] = typer.Option(None, "--time", min=0, help="Stop after this many seconds, keeping what was found."),
        force: bool = typer.Option(False, "--force", help="Overwrite files in --out (board-001... and README.md)."),
        backend: str = typer.Option("auto", "--backend", "-b", help="Solver backend (polyfit backends lists them)."),
    ):
        """Find boards inside an outline that the pieces fill in exactly N distinct ways.

        The shapes have the pieces' total area, lie inside --within, are connected and have
        no holes (every empty cell of the outline reaches the outside). Each board found is
        written to --out as text art (.txt) or voxel text (.vox) with '; pieces:',
        '; solutions:' and '; generated:' lines, its solution as a PNG beside it, and an
        index README.md. Boards congruent to one found, or to a board file already in
        --out, are skipped; no file is overwritten without --force. Ctrl-C keeps what was
        found (exit code 130).

        Example: polyfit generate --pieces soma --within 3x3x4 --count 5 --seed 1 --out figures
        """
        from polyfit.files import write_output_text
        from polyfit.puzzle.generate import Tally, generate as search, parse_target
        from polyfit.puzzle.hint import board_text
        from polyfit.render.pictures import save_png, solution_image

        target = parse_target(solutions)
        chosen = ctx.resolve_pieces(pieces)
        outline = outline_of(ctx, within)
        if out.exists() and not out.is_dir():
            raise PolyfitError(f"--out {out} is a file, not a directory")
        readme = out / "README.md"
        if readme.exists() and not force:
            raise PolyfitError(f"{readme} exists: choose another --out or use --force")
        out.mkdir(parents=True, exist_ok=True)
        wanted = solutions if ".." in solutions else str(target[0])
        command = f"polyfit generate --pieces {pieces} --within {within} --solutions {wanted} --seed {seed}"
        if symmetric:
            command += f" --symmetric {symmetric}"
        suffix = ".txt" if len(outline[0]) == 2 else ".vox"
        tally = Tally()
        started = time.monotonic()
        deadline = None if time_budget is None else time.monotonic() + time_budget
        rows, number, interrupted = [], 1, False
        boards = search(
            chosen, outline, lambda problem: ctx.registry.backend(backend, problem), target, count,
            seed, symmetric, known_boards(ctx, out), {"pieces": pieces, "generated": command},
            deadline, tally,
        )
        try:
            for found in boards:
                number, path = free_name(out, number, suffix, force)
                write_output_text(path, board_text(found.board), force)
                image = solution_image(found.board.cells, chosen, found.solution)
                save_png(image, path.with_suffix(".png"), force=force)
                rows.append((path, found.solutions, len(found.board.cells)))
                typer.echo(
                    f"wrote {path} ({plural(found.solutions, 'distinct solution')}; "
                    f"{plural(tally.tried, 'shape')} counted, {tally.seconds:.1f}s)"
                )
                number += 1
        except KeyboardInterrupt:
            interrupted = True
        finally:
            boards.close()
        if rows:
            write_output_text(readme, index_text(command, rows), force)
            typer.echo(f"wrote {readme}")
        why = " (interrupted)" if interrupted else " (time is up)" if tally.stopped == "time" else ""
        typer.echo(
            f"{plural(len(rows), 'board')} found of {count}{why}; {plural(tally.tried, 'shape')} counted, "
            f"{tally.rejected} ruled out before searching, {plural(tally.starts, 'fresh start')}, "
            f"{time.monotonic() - started:.1f}s"
        )
        if interrupted:
            raise typer.Exit(EXIT_INTERRUPTED)
