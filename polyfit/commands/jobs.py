"""``polyfit estimate``, and a search as job files: ``split``, ``run-job``, ``merge``.

``split`` writes one small JSON file per job (the board and pieces to rebuild the puzzle, a
digest of everything its counts depend on, and the job's path in the search tree) and a manifest;
``run-job`` runs one file anywhere the board and pieces can be read and writes its result
beside it; ``merge`` adds the results up into the counts a single ``solve --count`` prints.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

import typer

from polyfit.errors import PolyfitError
from polyfit.files import check_writable, write_output_text
from polyfit.commands import guarded
from polyfit import report


def add_commands(app: typer.Typer, ctx) -> None:
    @app.command()
    @guarded
    def estimate(
        board: Path = typer.Argument(..., help="Board file."),
        pieces: Optional[str] = typer.Option(None, "--pieces", "-p", help="Piece spec (default: the board's '; pieces:' line)."),
        probes: Optional[int] = typer.Option(None, "--probes", min=2, help="Exactly this many random probes (default: adaptive, until the 95% range is within 1.5x or about a second has gone)."),
        backend: str = typer.Option("auto", "--backend", "-b", help="Backend whose speed the time is for."),
        seed: int = typer.Option(0, "--seed", help="Seed of the random probes."),
        as_json: bool = typer.Option(False, "--json", help="Print JSON: nodes, solutions, seconds (and ranges)."),
        mirror: bool = typer.Option(False, "--mirror", help="Let every piece be turned over."),
    ):
        """Predict the size of a search before running it (Knuth's random probes, 1975).

        Each probe walks one random path down the search tree; the mean over the probes
        estimates the nodes the backend will visit and the solutions it will meet, and the
        backend's speed on small parts of this very tree turns nodes into seconds. By default
        it probes until the 95% range is within a factor of 1.5 or about a second has gone, and
        runs the search itself when that would be over sooner (then the numbers are exact).

        Example: polyfit estimate shapes/pentomino/6x10.txt
        """
        from polyfit.xc.estimate import estimate_search

        puzzle = ctx.load_puzzle(board, pieces, mirror)
        problem = puzzle.cover.problem
        engine = ctx.registry.backend(backend, problem)
        if puzzle.impossible is not None:
            raise PolyfitError(f"{puzzle.board.label}: no search needed: {puzzle.impossible}")
        found = estimate_search(problem, engine, probes, seed)
        if as_json:
            typer.echo(json.dumps(report.estimate_json(puzzle, engine, found)))
        else:
            typer.echo(report.estimate_text(puzzle, engine, found, probes_asked=probes is not None))

    @app.command()
    @guarded
    def split(
        board: Path = typer.Argument(..., help="Board file."),
        pieces: Optional[str] = typer.Option(None, "--pieces", "-p", help="Piece spec (default: the board's '; pieces:' line)."),
        depth: int = typer.Option(2, "--depth", min=1, max=12, help="Split into the branches at this depth of the search tree."),
        out: Path = typer.Option(..., "--out", help="Directory for the job files (created; must be empty)."),
        mirror: bool = typer.Option(False, "--mirror", help="Let every piece be turned over."),
    ):
        """Write a count as independent job files for any batch system.

        Run each with 'polyfit run-job FILE' (anywhere the board and pieces can be read), then
        add the results up with 'polyfit merge DIR'.

        Example: polyfit split shapes/pentomino/6x10.txt --depth 2 --out jobs/
        """
        puzzle = ctx.load_puzzle(board, pieces, mirror)
        source = {"board": str(board.resolve()), "pieces": pieces, "mirror": mirror}
        from polyfit.longsearch import jobfiles  # loaded when used, not at every start

        jobs = jobfiles.write_jobs(puzzle, depth, out, source)
        typer.echo(f"wrote {jobs} jobs to {out} (depth {depth}); run each with 'polyfit run-job FILE', then 'polyfit merge {out}'")

    @app.command("run-job")
    @guarded
    def run_job(
        file: Path = typer.Argument(..., help="A job file written by 'polyfit split'."),
        backend: str = typer.Option("auto", "--backend", "-b", help="Solver backend."),
        force: bool = typer.Option(False, "--force", help="Run it again over an existing result."),
    ):
        """Run one job file and write its counts beside it (result-FILE; an
        existing result is only replaced with --force).

        Example: polyfit run-job jobs/job-01.json
        """
        from polyfit.longsearch import jobfiles  # loaded when used, not at every start

        data = jobfiles.read_job(file)
        puzzle = ctx.load_puzzle(Path(data["board"]), data.get("pieces"), data.get("mirror", False))
        engine = ctx.registry.backend(backend, puzzle.cover.problem)
        result, target = jobfiles.run_job_file(file, data, puzzle, engine, force)
        typer.echo(f"job {data['index'] + 1} of {data['jobs']}: {result.total} solutions in all, {result.nodes} nodes; wrote {target}")

    @app.command()
    @guarded
    def merge(
        directory: Path = typer.Argument(..., help="The directory 'polyfit split' wrote."),
        as_json: bool = typer.Option(False, "--json", help="Print JSON."),
        output: Optional[Path] = typer.Option(None, "--output", "-o", help="Also write the JSON summary here."),
        force: bool = typer.Option(False, "--force", help="Overwrite an existing --output file."),
    ):
        """Add up the results of a split search: the counts 'solve --count' prints.

        Example: polyfit merge jobs/
        """
        if output is not None:
            check_writable(output, force)
        from polyfit.longsearch import jobfiles  # loaded when used, not at every start

        manifest, counts = jobfiles.merge_results(directory)
        puzzle = ctx.load_puzzle(Path(manifest["board"]), manifest.get("pieces"), manifest.get("mirror", False))
        jobfiles.check_puzzle(directory / jobfiles.MANIFEST, manifest, puzzle)
        summary = report.merged_json(puzzle, counts, manifest["jobs"])
        if output is not None:
            write_output_text(output, json.dumps(summary) + "\n", force)
        if as_json:
            typer.echo(json.dumps(summary))
        else:
            typer.echo(report.counts_text(puzzle, counts))
