"""``polyfit check``: is a puzzle unique, ambiguous or impossible, and why (for designers)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

import typer

from polyfit import report
from polyfit.commands import guarded

def write_picture(result, path: Path, force: bool) -> str:
    """The picture that shows the verdict: the colouring, the marked cells, the two witnesses
    or the solution. Returns what was written (or why nothing was)."""
    from polyfit.files import check_writable
    from polyfit.render import diagnosis
    from polyfit.render.pictures import save_png, solution_image
    from polyfit.render.style import Style

    style = Style(labels=True)
    if result.verdict == "none":
        marked = next((r for r in result.reasons if r.kind in ("cell-uncoverable", "region")), None)
        if result.weights is not None:
            image = diagnosis.weights_image(result.weights, result.certificate.prime, style)
            what = f"the colouring, weights mod {result.certificate.prime}"
        elif marked is not None:
            bad = {tuple(c) for c in marked.extra["cells"]}
            cells = [c for c in result.board.cells if c not in result.board.fixed_cells]
            image = diagnosis.weights_image({c: int(c in bad) for c in cells}, 2, style)
            what = "the board, 1 on the cells no piece can cover"
        else:
            return f"no picture written: nothing to draw for '{result.reasons[0].kind}'"
    else:
        puzzle = result.puzzle
        solutions = [
            {label: puzzle.placements[i].cells for label, i in zip(puzzle.labels(w), w)}
            for w in result.witnesses
        ]
        if len(solutions) == 1:
            image = solution_image(result.board.cells, puzzle.pieces, solutions[0], style)
            what = "the solution"
        else:
            image = diagnosis.witnesses_image(result.board.cells, puzzle.pieces, *solutions, style)
            what = "two distinct solutions, the cells where they differ marked"
    check_writable(path, force)
    save_png(image, path, force=force)
    return f"wrote {path} ({what})"


def add_commands(app: typer.Typer, ctx) -> None:
    @app.command()
    @guarded
    def check(
        board: Path = typer.Argument(..., help="Board file (text art or voxels)."),
        pieces: Optional[str] = typer.Option(
            None, "--pieces", "-p", help="Piece set(s), as for solve. Default: the board's '; pieces:' line."
        ),
        as_json: bool = typer.Option(False, "--json", help="Print one JSON object."),
        png: Optional[Path] = typer.Option(None, "--png", help="Draw the colouring (none), the two witnesses (multiple) or the solution (unique)."),
        backend: str = typer.Option("auto", "--backend", "-b", help="Solver backend (polyfit backends lists them)."),
        mirror: bool = typer.Option(False, "--mirror", help="Let every piece be turned over."),
        forced_limit: int = typer.Option(2000, "--forced-limit", min=0, help="Find the forced placements when there are at most N distinct solutions (0: stop at the second)."),
        force: bool = typer.Option(False, "--force", help="Overwrite an existing --png file."),
    ):
        """Say whether a puzzle has one solution, several or none, and why.

        Lints the puzzle (area, placements per piece, pieces that fit nowhere, cells no piece
        covers, regions cut off), proves impossibility without search where it can (area,
        checkerboard parity, a colouring), else searches to the second distinct solution. With
        at most --forced-limit solutions it lists the placements they all share, and it rates
        the difficulty. Exit code 0 for every verdict.

        Example: polyfit check shapes/pentomino/scott.txt

        Example: polyfit check board.txt --pieces 21*trominoes:I --png why.png
        """
        from polyfit import api

        board_ = api.read_board(board, plugins=ctx.registry)
        result = api.check(board_, pieces or None, mirror=mirror, backend=backend, plugins=ctx.registry,
                           forced_limit=forced_limit)
        if png is not None:
            typer.echo(write_picture(result, png, force), err=True)
        if as_json:
            typer.echo(json.dumps(report.check_json(result)))
        else:
            typer.echo(report.check_text(result))
