"""``polyfit xc`` solves any exact cover problem in Knuth's format; ``export-dlx`` writes one."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Optional

import typer

from polyfit.xc.dlxformat import format_dlx, read_dlx
from polyfit.errors import PolyfitError, plural
from polyfit.files import check_writable, path_is_file, write_output_text
from polyfit.xc.problem import SearchStats
from polyfit.xc.reduce import reduce as reduce_options
from polyfit.commands import EXIT_INTERRUPTED, guarded


def add_commands(app: typer.Typer, ctx) -> None:
    @app.command()
    @guarded
    def xc(
        file: Path = typer.Argument(..., help="Exact cover problem in Knuth's DLX format."),
        count: bool = typer.Option(False, "--count", help="Count solutions instead of printing them."),
        limit: Optional[int] = typer.Option(None, "--limit", min=1, help="Stop after N solutions."),
        as_json: bool = typer.Option(False, "--json", help="Print JSON."),
        backend: str = typer.Option("auto", "--backend", "-b", help="Solver backend."),
        reduce: bool = typer.Option(False, "--reduce", help="First remove the options no solution can hold (same solutions; a different search tree)."),
    ):
        """Solve a generic exact cover problem (N-queens, Sudoku, ...) in Knuth's DLX format.

        Each solution is printed as its option lines, followed by a blank line.

        Example: polyfit xc queens8.dlx --count
        """
        if not path_is_file(file):
            raise PolyfitError(f"no such file: {file}")
        problem, lines = read_dlx(file)
        if reduce:
            reduction = reduce_options(problem)
            problem = reduction.problem
            lines = [lines[k] for k in reduction.kept]
            typer.echo(f"reduction: {reduction.removed} of {reduction.removed + len(reduction.kept)} options removed "
                       f"({plural(reduction.rounds, 'round')})", err=True)
        engine = ctx.registry.backend(backend, problem)
        stats = SearchStats()
        found = []
        start, start_cpu = time.perf_counter(), time.process_time()
        complete = False
        try:
            for solution in engine.solutions(problem, stats):
                if not count:
                    found.append(solution)
                    if not as_json:
                        typer.echo("\n".join(lines[k] for k in solution) + "\n")
                if limit is not None and stats.solutions >= limit:
                    break
            else:
                complete = True
        except KeyboardInterrupt:
            typer.echo(f"interrupted: {plural(stats.solutions, 'solution')} so far, {plural(stats.nodes, 'node')}", err=True)
            raise typer.Exit(EXIT_INTERRUPTED)
        seconds, cpu_seconds = time.perf_counter() - start, time.process_time() - start_cpu
        if as_json:
            data = {
                "total": stats.solutions,
                "complete": complete,
                "nodes": stats.nodes,
                "updates": stats.updates,
                "backend": engine.name,
                "seconds": round(seconds, 6),
                "cpu_seconds": round(cpu_seconds, 6),
            }
            if not count:
                data["solutions"] = [[lines[k] for k in s] for s in found]
            typer.echo(json.dumps(data))
            return
        word = "solution" if stats.solutions == 1 else "solutions"
        if complete:
            typer.echo(f"{stats.solutions} {word}, {plural(stats.nodes, 'node')}, {seconds:.3f} s on {engine.name}")
        else:
            typer.echo(f"(stopped after {stats.solutions} {word})")

    @app.command("export-dlx")
    @guarded
    def export_dlx(
        board: Path = typer.Argument(..., help="Board file."),
        pieces: Optional[str] = typer.Option(None, "--pieces", "-p", help="Piece spec (default: the board's '; pieces:' line)."),
        output: Optional[Path] = typer.Option(None, "--output", "-o", help="Write here instead of to stdout."),
        break_symmetry: bool = typer.Option(False, "--break-symmetry", help="Export the symmetry-broken problem polyfit solves (default: every placement)."),
        force: bool = typer.Option(False, "--force", help="Overwrite an existing output file."),
    ):
        """Write a board's exact cover problem in Knuth's DLX format (items: pieces, then cells).

        Example: polyfit export-dlx shapes/pentomino/6x10.txt -o 6x10.dlx
        """
        puzzle = ctx.load_puzzle(board, pieces, break_symmetry=break_symmetry)
        comment = f"{puzzle.board.label}: {plural(len(puzzle.pieces), 'piece')}, {plural(len(puzzle.cover.problem.options), 'placement')}"
        if break_symmetry and puzzle.cover.breaker is not None:
            comment += f"; piece {puzzle.pieces[puzzle.cover.breaker].name} restricted to one placement per symmetry orbit"
        text = format_dlx(puzzle.cover.problem, comment + "\n(written by polyfit export-dlx)")
        if output is None:
            typer.echo(text, nl=False)
        else:
            check_writable(output, force)
            write_output_text(output, text, force)
