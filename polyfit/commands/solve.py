"""``polyfit solve``: find, print and count the ways a piece set fills a board.

The command parses, calls the library once (:meth:`polyfit.Puzzle.run`, which chooses the
engine) and prints what :mod:`polyfit.report` says; it decides nothing about how to search.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Optional

import typer

from polyfit import report
from polyfit.commands import EXIT_INTERRUPTED, guarded
from polyfit.commands import disassembling, outputs as out
from polyfit.commands.options import takes
from polyfit.errors import PolyfitError, plural


def add_commands(app: typer.Typer, ctx) -> None:
    @app.command()
    @guarded
    @takes(disassembly=disassembling.options, search=out.search_options, pictures=out.picture_options, files=out.file_options)
    def solve(
        board: Path = typer.Argument(..., help="Board file (text art, voxel text, MagicaVoxel, BurrTools .xmpuzzle, Soma notations)."),
        pieces: Optional[str] = typer.Option(None, "--pieces", "-p", help="Piece set(s): a set name, 'set,set:piece,...' or a pieces file. Default: the board's '; pieces:' line."),
        count: bool = typer.Option(False, "--count", help="Count solutions instead of printing them."),
        limit: Optional[int] = typer.Option(None, "--limit", min=1, help="Print at most N solutions."),
        all_: bool = typer.Option(False, "--all", help="Print every solution, not one per symmetry class."),
        as_json: bool = typer.Option(False, "--json", help="Print JSON."),
        stats: bool = typer.Option(False, "--stats", help="Report placements, pruning, items, search nodes and the engine chosen."),
        mirror: bool = typer.Option(False, "--mirror", help="Let every piece be turned over (placed as its mirror image)."),
        problem: Optional[str] = typer.Option(None, "--problem", help="A BurrTools .xmpuzzle's problem: its number (from 1) or name (default: the first; --count counts them all)."),
        figure: Optional[str] = typer.Option(None, "--figure", help="A Soma file's figure: its number (from 1) or name (default: the first; --count counts them all)."),
        list_: bool = typer.Option(False, "--list", help="List the boards of the file (BurrTools problems, Soma figures) and stop."),
        sample: Optional[int] = typer.Option(None, "--sample", min=1, help="Print N solutions drawn independently and uniformly at random among all of them (symmetric copies included)."),
        seed: Optional[int] = typer.Option(None, "--seed", help="Seed for --sample: the same seed draws the same solutions."),
        disassembly=None,
        search=None,
        pictures=None,
        files=None,
    ):
        """Find every way the pieces fill BOARD; print them, or count them with --count.

        Counts are exact: 'distinct' is one per symmetry class of the board (the number the
        literature quotes), 'in all' counts every rotated and reflected copy.

        Files: --output FILE writes the printed solutions in the format its suffix names (.txt
        .json .png .gif .svg .cut.svg .pdf .stl .glb .3mf .obj); --png, --svg, --pdf, --glb,
        --3mf, --obj and --stl DIR are shorthands; --animate FILE.gif shows the search at work.

        Example: polyfit solve shapes/pentomino/6x10.txt --count

        Example: polyfit solve shapes/soma/castle.vox --limit 1 --png castle.png

        Example: polyfit solve puzzle.xmpuzzle --list (then --problem N or NAME)

        Example: polyfit solve burr.xmpuzzle --disassemble --moves (levels as BurrTools gives them)
        """
        from polyfit import api

        if problem is not None and figure is not None:
            raise PolyfitError("give --problem or --figure, not both")
        select = problem if problem is not None else figure
        if list_:
            return typer.echo(report.list_boards_text(board.name, api.read_boards(board, plugins=ctx.registry)))
        if count and select is None and ctx.registry.holds_many(board):
            boards = api.read_boards(board, plugins=ctx.registry)  # read once
            if len(boards) > 1:
                return count_every_board(ctx, boards, pieces, mirror, search.backend, as_json)
            select = boards[0]
        bar, stage = out.LiveBar(), "placements"
        try:
            puzzle = (api.Puzzle(select, pieces or None, mirror=mirror, plugins=ctx.registry) if isinstance(select, api.Board)
                      else ctx.load_puzzle(board, pieces, mirror, select))
            files.check(puzzle, count, search)
            disassembly.check()
            if disassembly.wanted:
                return disassembling.run(puzzle, disassembly, count, limit, as_json, search, files, all_, sample)
            if sample is not None:
                return print_sample(puzzle, sample, seed, search.backend, as_json, files, count or limit is not None)
            watched, stage = not search.quiet and not as_json and sys.stderr.isatty(), "planning the jobs"
            run = puzzle.run(count=count, limit=limit, all=all_, on_progress=bar.show if watched else None,
                             force=files.force, **search.run_options())
        except KeyboardInterrupt:
            typer.echo(f"interrupted while preparing the puzzle ({stage})", err=True)
            raise typer.Exit(EXIT_INTERRUPTED)
        printed = print_solutions(run, as_json, bar)
        files.write(puzzle, printed, None if run.stopped_early else run.counts)
        print_run(run, printed, as_json, stats)


def print_solutions(run, as_json: bool, bar) -> list:
    """Run the search, printing each solution as it comes (unless ``--json``); on Ctrl-C, what
    was found and where it stopped."""
    printed = []
    try:
        for solution in run:
            printed.append(solution)
            if not as_json:
                typer.echo(f"Solution {solution.number}:\n{solution.text()}\n")
    except KeyboardInterrupt:
        bar.stop()
        typer.echo(run.interrupted(), err=True)
        if as_json:
            typer.echo(json.dumps(run.summary()))
        raise typer.Exit(EXIT_INTERRUPTED)
    finally:
        run.close()
        bar.stop()
    return printed


def count_every_board(ctx, boards, pieces, mirror: bool, backend: str, as_json: bool) -> None:
    """``--count`` on a file with many boards (BurrTools problems, Soma figures): each counted."""
    from polyfit import api

    rows = [(b.label, api.Puzzle(b, pieces or None, mirror=mirror, plugins=ctx.registry).count(backend)) for b in boards]
    typer.echo(json.dumps(report.boards_json(rows)) if as_json else report.boards_table(rows))


def print_sample(puzzle, n: int, seed, backend: str, as_json: bool, files, counted: bool) -> None:
    """``--sample N``: N solutions drawn uniformly at random, printed (text or JSON) and written
    to every file asked for, as solutions found are."""
    if counted:
        raise PolyfitError("--sample prints N random solutions; drop --count and --limit")
    solutions = puzzle.sample(n, seed, backend)
    if as_json:
        typer.echo(json.dumps({"board": puzzle.board.label, "seed": seed, "backend": puzzle.plan("sample", backend).backend.name,
                               "solutions": [s.to_json() for s in solutions]}))
    else:
        for solution in solutions:
            typer.echo(f"Random solution {solution.number}:\n{solution.text()}\n")
        if not solutions:
            typer.echo(f"{puzzle.board.label}: no solution to draw")
    if solutions:
        files.write(puzzle, solutions)


def print_run(run, printed, as_json: bool, stats: bool) -> None:
    """What ``solve`` prints after the solutions: the counts (or that the limit stopped it),
    why there is no solution, and with ``--stats`` the work done."""
    puzzle, counts = run.puzzle, run.counts
    if as_json:
        data = run.summary()
        if not run.count:
            data["solutions"] = [s.to_json() for s in printed]
        if run.stopped_early:
            for key in ("distinct", "distinct_rotations", "total"):
                data.pop(key)
        typer.echo(json.dumps(data))
        return
    if run.stopped_early:
        typer.echo(f"(stopped after {plural(len(printed), 'solution')}; --count counts them all)")
    else:
        typer.echo(report.counts_text(puzzle, counts))
        if counts.complete and counts.distinct == 0 and not puzzle.impossible:
            for line in report.no_solution_lines(puzzle, counts):
                typer.echo(line)
    if stats:
        typer.echo(report.stats_text(puzzle, counts, run.plan.counter or run.plan.backend))
        typer.echo(f"engine: {run.plan.why}")
