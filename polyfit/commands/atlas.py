"""``polyfit atlas``: a whole family of puzzles in one run, grouped (piece sets or calendar targets).

The library computes (:func:`polyfit.atlas`) and :mod:`polyfit.report` words it; this parses and
prints."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

import typer

from polyfit import report
from polyfit.commands import EXIT_INTERRUPTED, guarded


def add_commands(app: typer.Typer, ctx) -> None:
    @app.command()
    @guarded
    def atlas(
        board: Path = typer.Argument(..., help="A puzzle whose pieces have ranges (a BurrTools .xmpuzzle with min < max, '; count X: lo..hi'), or a calendar board ('+' cells and a '; leave:' line)."),
        pieces: Optional[str] = typer.Option(None, "--pieces", "-p", help="Piece set(s), as solve takes them. Default: the board's own."),
        problem: Optional[str] = typer.Option(None, "--problem", help="A BurrTools .xmpuzzle's problem: its number (from 1) or name."),
        disassemble: bool = typer.Option(False, "--disassemble", help="Take every assembly apart: per piece set, those that come apart and their levels (BurrTools' rules)."),
        max_states: Optional[int] = typer.Option(None, "--max-states", min=1, help="With --disassemble: give up on an assembly after N states (its level is then unknown)."),
        sort: Optional[str] = typer.Option(None, "--sort", help="count: fewest first (assemblies that come apart with --disassemble; a calendar's hard days); level: highest level first (the default with --disassemble); name: in the file's order."),
        unique: bool = typer.Option(False, "--unique", help="Only piece sets with one assembly (one that comes apart, with --disassemble), or targets with one solution."),
        limit: Optional[int] = typer.Option(None, "--limit", min=1, help="Show at most N rows (the totals count them all)."),
        jobs: Optional[int] = typer.Option(None, "--jobs", "-j", min=1, help="Processes for the search (and for taking assemblies apart)."),
        backend: str = typer.Option("auto", "--backend", "-b", help="Solver backend (polyfit backends lists them; auto: the engine chooses)."),
        as_json: bool = typer.Option(False, "--json", help="Print JSON."),
    ):
        """Map a family of puzzles in one run: every piece set of a puzzle with piece ranges, or
        every target of a calendar board, with its assemblies or solutions.

        A piece set and its mirror image set (pieces that are each other's mirror images) share
        a row: counts are up to rotation and reflection, and up to rotation alone in brackets,
        so the rows add up to BurrTools' counts without and with -m.

        Example: polyfit atlas shapes/burrtools/SolidSixPieceBurrs.xmpuzzle --disassemble --limit 10

        Example: polyfit atlas shapes/calendar/a-puzzle-a-day.txt --limit 5 (the hardest days)
        """
        from polyfit.atlases import atlas as make_atlas

        if max_states is not None and not disassemble:
            from polyfit.errors import PolyfitError

            raise PolyfitError("--max-states goes with --disassemble")
        try:
            found = make_atlas(board, pieces or None, disassemble=disassemble, jobs=jobs, backend=backend,
                               max_states=max_states, plugins=ctx.registry, select=problem)
        except KeyboardInterrupt:
            typer.echo("interrupted: an atlas is shown when its run is complete", err=True)
            raise typer.Exit(EXIT_INTERRUPTED)
        matching = found.rows(sort, unique)
        rows = matching[:limit]
        typer.echo(json.dumps(report.atlas_json(found, rows)) if as_json else report.atlas_text(found, rows, len(matching), unique))
