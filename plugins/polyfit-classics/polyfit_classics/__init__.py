"""``polyfit queens N``, ``polyfit sudoku GRID`` and ``polyfit kakuro FILE``: exact cover
beyond packing, as a plugin.

Each builds a :class:`polyfit.ExactCoverProblem` and runs it on any polyfit backend; Kakuro's
grid format and its encoding are in :mod:`polyfit_classics.kakuro`.
"""

from __future__ import annotations

import json
import time

import typer

import polyfit
from polyfit import ExactCoverProblem, SearchStats, hookimpl
from polyfit_classics.kakuro import kakuro_problem, read_kakuro, solution_digits

__version__ = "0.1.0"


def queens_problem(n: int) -> ExactCoverProblem:
    """Rows and columns primary (one queen each); diagonals secondary (at most one queen)."""
    primary = [f"r{i}" for i in range(n)] + [f"c{i}" for i in range(n)]
    secondary = [f"a{i}" for i in range(2 * n - 1)] + [f"b{i}" for i in range(2 * n - 1)]
    options = [
        (r, n + c, 2 * n + r + c, 2 * n + 2 * n - 1 + r - c + n - 1)
        for r in range(n)
        for c in range(n)
    ]
    return ExactCoverProblem(primary, secondary, options)


def sudoku_problem(grid: str) -> tuple[ExactCoverProblem, list[tuple[int, int, int]]]:
    """Cells, row-digits, column-digits and box-digits as primary items; the given digits as
    the only options of their cells. Returns the problem and each option's (row, col, digit)."""
    primary = [f"p{r}{c}" for r in range(9) for c in range(9)]
    primary += [f"r{r}{d}" for r in range(9) for d in range(1, 10)]
    primary += [f"c{c}{d}" for c in range(9) for d in range(1, 10)]
    primary += [f"b{b}{d}" for b in range(9) for d in range(1, 10)]
    index = {name: k for k, name in enumerate(primary)}
    options, meaning = [], []
    for r in range(9):
        for c in range(9):
            given = grid[9 * r + c]
            digits = [int(given)] if given in "123456789" else range(1, 10)
            for d in digits:
                box = 3 * (r // 3) + c // 3
                names = (f"p{r}{c}", f"r{r}{d}", f"c{c}{d}", f"b{box}{d}")
                options.append(tuple(index[n] for n in names))
                meaning.append((r, c, d))
    return ExactCoverProblem(primary, [], options), meaning


def first_two(engine, problem) -> list:
    """The first two solutions, or fewer: enough to print one and say whether it is unique."""
    found = []
    for solution in engine.solutions(problem, SearchStats()):
        found.append(solution)
        if len(found) == 2:
            break
    return found


@hookimpl
def register_commands(app):
    @app.command()
    def queens(
        n: int = typer.Argument(..., min=1, max=20, help="Board size."),
        count: bool = typer.Option(False, "--count", help="Only count the solutions."),
        as_json: bool = typer.Option(False, "--json", help="Print JSON."),
        backend: str = typer.Option("auto", "--backend", "-b", help="Solver backend."),
    ):
        """Place N queens on an NxN board so that none attacks another.

        Example: polyfit queens 8 --count
        """
        problem = queens_problem(n)
        engine = polyfit.backend(backend, problem)
        stats = SearchStats()
        start = time.perf_counter()
        for solution in engine.solutions(problem, stats):
            if not count and not as_json:
                cols = {o // n: o % n for o in solution}
                typer.echo("\n".join("".join("Q" if cols[r] == c else "." for c in range(n)) for r in range(n)) + "\n")
        seconds = time.perf_counter() - start
        if as_json:
            typer.echo(json.dumps({"n": n, "total": stats.solutions, "nodes": stats.nodes, "backend": engine.name, "seconds": round(seconds, 6)}))
        else:
            typer.echo(f"{n} queens: {stats.solutions} solutions")

    @app.command()
    def sudoku(
        grid: str = typer.Argument(..., help="81 characters, row by row: digits, and '.' or '0' for empty cells."),
        backend: str = typer.Option("auto", "--backend", "-b", help="Solver backend."),
    ):
        """Solve a 9x9 Sudoku and say whether its solution is unique.

        Example: polyfit sudoku 53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79
        """
        grid = grid.strip()
        if len(grid) != 81 or any(ch not in "123456789.0" for ch in grid):
            typer.echo("polyfit: error: a Sudoku grid is 81 characters: digits 1-9, and '.' or '0' for empty cells", err=True)
            raise typer.Exit(2)
        problem, meaning = sudoku_problem(grid)
        engine = polyfit.backend(backend, problem)
        found = first_two(engine, problem)
        if not found:
            typer.echo("no solution")
            return
        cells = [[0] * 9 for _ in range(9)]
        for k in found[0]:
            r, c, d = meaning[k]
            cells[r][c] = d
        for r in range(9):
            typer.echo(" ".join(str(d) for d in cells[r]))
        typer.echo("the solution is unique" if len(found) == 1 else "the solution is not unique")

    @app.command()
    def kakuro(
        grid_file: str = typer.Argument(..., metavar="FILE", help="The grid: rows of '.', '#', clues like 16\\23."),
        backend: str = typer.Option("auto", "--backend", "-b", help="Solver backend."),
    ):
        """Solve a Kakuro (cross sums) and say whether its solution is unique.

        The grid file has one row per line: '.' a white cell, '#' a black one,
        'd\\r' a black cell with clues: d the sum of the run below it, r of the
        run to its right (or just one: '16\\', '\\17').

        Example: polyfit kakuro puzzle.txt
        """
        try:
            grid = read_kakuro(grid_file)
            problem, meaning = kakuro_problem(grid)
            engine = polyfit.backend(backend, problem)
        except polyfit.PolyfitError as exc:
            typer.echo(f"polyfit: error: {exc}", err=True)
            raise typer.Exit(2) from None
        found = first_two(engine, problem)
        if not found:
            typer.echo("no solution")
            return
        typer.echo(grid.text(solution_digits(found[0], meaning)))
        typer.echo("the solution is unique" if len(found) == 1 else "the solution is not unique")
