"""``polyfit hint``: the fewest pieces to pre-place so that a puzzle has one solution."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

import typer

from polyfit.commands import guarded
from polyfit.errors import PolyfitError, plural
from polyfit.puzzle.cover import cell_name


def report(hint, label: str) -> list[str]:
    """What the hint found, in words (the board file itself is not part of it)."""
    if hint.status == "none":
        why = f" ({hint.reason})" if hint.reason else ""
        return [f"{label}: no solution{why}: nothing to pre-place"]
    before = (
        f"{label}: {plural(hint.solutions_before, 'distinct solution')}, "
        f"{hint.total_before} in all"
    )
    if hint.status == "unique":
        return [f"{before}: unique already, nothing to pre-place"]
    lines = [f"{before}; keeping solution {hint.solution}"]
    if hint.proven and hint.touching is not None:
        how = (
            f"proven smallest that text art can draw: every set of fewer pieces from solution "
            f"{hint.solution} leaves more than one distinct solution or has two copies of a piece touching"
        )
    elif hint.proven:
        how = f"proven smallest: every set of fewer pieces from solution {hint.solution} leaves more than one distinct solution"
    else:
        untried = plural(hint.ruled_out + 1, "piece")
        if hint.size - 1 > hint.ruled_out + 1:
            untried = f"{hint.ruled_out + 1} to {plural(hint.size - 1, 'piece')}"
        how = f"minimal, not proven smallest: leaving out any one piece makes it ambiguous again; sets of {untried} were not all tried"
    lines.append(f"pre-place {plural(hint.size, 'piece')} ({how}):")
    if hint.touching is not None:
        lines.append(
            f"  ({plural(hint.touching, 'piece')} would do, but two copies of a piece would touch and "
            "their letters read as one shape: such sets were passed over)"
        )
    for name, cells in hint.added:
        lines.append(f"  {name}: " + " ".join(cell_name(c) for c in cells))
    lines.append(
        f"with them: {plural(hint.solutions_after, 'distinct solution')} "
        f"(counted afresh; symmetry group of order {hint.symmetries_after})"
    )
    return lines


def as_json(hint, label: str, out: Optional[Path]) -> dict:
    return {
        "board": label,
        "status": hint.status,
        "solutions_before": hint.solutions_before,
        "total_before": hint.total_before,
        "solution": hint.solution,
        "size": hint.size,
        "proven": hint.proven,
        "ruled_out": hint.ruled_out,
        "touching": hint.touching,
        "pieces": [{"name": name, "cells": [list(c) for c in cells]} for name, cells in hint.added],
        "solutions_after": hint.solutions_after,
        "symmetries_after": hint.symmetries_after,
        "reason": hint.reason,
        "text": hint.text,
        "why_no_text": hint.why_no_text,
        "out": str(out) if out is not None and hint.text is not None and hint.status != "none" else None,
        "seconds": round(hint.seconds, 6),
    }


def add_commands(app: typer.Typer, ctx) -> None:
    @app.command()
    @guarded
    def hint(
        board: Path = typer.Argument(..., help="Board file (text art or voxel text)."),
        pieces: Optional[str] = typer.Option(
            None, "--pieces", "-p", help="Piece set(s), as polyfit solve takes them. Default: the board's '; pieces:' line."
        ),
        out: Optional[Path] = typer.Option(None, "--out", "-o", help="Write the new board here instead of printing it."),
        max_size: Optional[int] = typer.Option(None, "--max", min=0, help="Try every set of up to K pieces, no more; past that, settle for a minimal set."),
        solution: int = typer.Option(1, "--solution", min=1, help="Keep solution N, numbered as polyfit solve prints them."),
        json_: bool = typer.Option(False, "--json", help="Print one JSON object."),
        force: bool = typer.Option(False, "--force", help="Overwrite an existing --out file."),
        backend: str = typer.Option("auto", "--backend", "-b", help="Solver backend (polyfit backends lists them)."),
    ):
        """Find the fewest pieces to pre-place so that BOARD has exactly one solution.

        The pieces are taken from one solution (--solution N, default the first polyfit
        solve prints) and drawn on the board as their letters; the new board is printed, or
        written to --out FILE, and counted afresh: polyfit solve FILE --count says 1 distinct
        solution. The set is proven smallest when every smaller set of that solution's pieces
        was tried; else it is minimal (no piece of it can be left out). A puzzle with no
        solution, or one already unique, is reported with exit code 0 and nothing is written.

        Example: polyfit hint shapes/pentomino/scott.txt --out scott-unique.txt
        """
        from polyfit.files import check_writable, write_output_text
        from polyfit.puzzle.hint import hint as find_hint

        if out is not None:
            check_writable(out, force)
        puzzle = ctx.load_puzzle(board, pieces)
        engine = ctx.registry.backend(backend, puzzle.cover.problem)
        found = find_hint(puzzle, engine, max_size, solution, pieces_spec=pieces)
        label = puzzle.board.label
        writes = out is not None and found.status == "added"
        if writes and found.text is None:
            raise PolyfitError(f"cannot write {out}: {found.why_no_text}")
        if writes:
            write_output_text(out, found.text, force)
        if json_:
            data = as_json(found, label, out if writes else None)
            typer.echo(json.dumps(data))
            return
        for line in report(found, label):
            typer.echo(line)
        if found.status != "added":
            return
        if writes:
            typer.echo(f"wrote {out}")
        elif found.text is not None:
            typer.echo()
            typer.echo(found.text, nl=False)
        else:
            typer.echo(f"(not drawn: {found.why_no_text})")
