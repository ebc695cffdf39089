"""``polyfit estimate``, and a search as job files: ``split``, ``run-job``, ``merge``.

``split`` writes one small JSON file per job (the board and pieces to rebuild the puzzle, a
digest of its exact cover problem, and the job's path in the search tree) and a manifest;
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
from polyfit.commands.solve import describe_counts, load_puzzle


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

        puzzle = load_puzzle(ctx, board, pieces, mirror)
        problem = puzzle.cover.problem
        engine = ctx.registry.backend(backend, problem)
        if puzzle.impossible is not None:
            raise PolyfitError(f"{puzzle.board.label}: no search needed: {puzzle.impossible}")
        found = estimate_search(problem, engine, probes, seed)
        if as_json:
            typer.echo(json.dumps(estimate_json(puzzle, engine, found)))
            return
        result, rate = found.estimate, found.rate
        timing = estimate_seconds(found)
        if found.exact:
            typer.echo(f"{puzzle.board.label}: searched in full, as that was quicker than estimating ({result.probes} probes first)")
            typer.echo(f"  nodes:     {result.nodes:,.0f}  (exact)")
            typer.echo(f"  solutions: {result.solutions:,.0f}  met by the search (symmetric copies are not searched)")
            typer.echo(f"  time:      {timing[0]:.3g} s on {engine.name}")
            return
        how = "range within 1.5x" if result.converged else f"{result.seconds:.1f} s of probing"
        if probes is not None:
            how = "as asked"
        typer.echo(f"{puzzle.board.label}: estimate from {result.probes:,} random probes ({how})")
        typer.echo(f"  nodes:     {result.nodes:,.0f}  (95% range {result.nodes_low:,.0f} to {result.nodes_high:,.0f})")
        if result.solutions:
            typer.echo(
                f"  solutions: {result.solutions:,.0f}  (95% range {result.solutions_low:,.0f} to "
                f"{result.solutions_high:,.0f}) met by the search (symmetric copies are not searched)"
            )
        else:
            typer.echo("  solutions: no probe reached one (rare or none; more --probes tell)")
        if timing is None:
            typer.echo(f"  time:      unknown on {engine.name}: no sample of the search finished in the time allowed to measure its speed")
        else:
            seconds, low, high = timing
            typer.echo(f"  time:      {seconds:.3g} s on {engine.name} ({low:.2g} to {high:.2g} s, at {rate:,.0f} nodes/s)")

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
        puzzle = load_puzzle(ctx, board, pieces, mirror)
        source = {"board": str(board.resolve()), "pieces": pieces, "mirror": mirror}
        from polyfit.longsearch import jobfiles  # loaded when used, not at every start

        jobs = jobfiles.write_jobs(puzzle, depth, out, source)
        typer.echo(f"wrote {jobs} jobs to {out} (depth {depth}); run each with 'polyfit run-job FILE', then 'polyfit merge {out}'")

    @app.command("run-job")
    @guarded
    def run_job(
        file: Path = typer.Argument(..., help="A job file written by 'polyfit split'."),
        backend: str = typer.Option("auto", "--backend", "-b", help="Solver backend."),
    ):
        """Run one job file and write its counts beside it (FILE with .result.json).

        Example: polyfit run-job jobs/job-01.json
        """
        from polyfit.longsearch import jobfiles  # loaded when used, not at every start

        data = jobfiles.read_job(file)
        puzzle = load_puzzle(ctx, Path(data["board"]), data.get("pieces"), data.get("mirror", False))
        engine = ctx.registry.backend(backend, puzzle.cover.problem)
        result, target = jobfiles.run_job_file(file, data, puzzle, engine)
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
        puzzle = load_puzzle(ctx, Path(manifest["board"]), manifest.get("pieces"), manifest.get("mirror", False))
        summary = {
            "board": puzzle.board.label,
            "distinct": counts.distinct,
            "distinct_rotations": counts.distinct_rotations,
            "total": counts.total,
            "jobs": manifest["jobs"],
            "nodes": counts.search.nodes,
        }
        if output is not None:
            write_output_text(output, json.dumps(summary) + "\n", force)
        if as_json:
            typer.echo(json.dumps(summary))
        else:
            typer.echo(describe_counts(puzzle, counts))


def estimate_seconds(found) -> tuple[float, float, float] | None:
    """The search's predicted seconds and their 95% range (its own time when it was run), or
    None when its speed is unknown (no sampled subtree finished in the time allowed)."""
    result, rate = found.estimate, found.rate
    if found.exact:
        return found.seconds, found.seconds, found.seconds
    if not rate:
        return None
    return result.nodes / rate, result.nodes_low / rate, result.nodes_high / rate


def estimate_json(puzzle, engine, found) -> dict:
    """What ``polyfit estimate --json`` prints for ``found`` (an ``estimate_search`` answer)."""
    result, rate = found.estimate, found.rate
    seconds, low, high = estimate_seconds(found) or (None, None, None)
    rounded = lambda value: None if value is None else round(value, 3)  # noqa: E731
    return {
        "board": puzzle.board.label,
        "probes": result.probes,
        "exact": found.exact,
        "converged": result.converged,
        "nodes": round(result.nodes),
        "nodes_low": round(result.nodes_low),
        "nodes_high": round(result.nodes_high),
        "solutions": round(result.solutions),
        "solutions_low": round(result.solutions_low),
        "solutions_high": round(result.solutions_high),
        "seconds": rounded(seconds),
        "seconds_low": rounded(low),
        "seconds_high": rounded(high),
        "backend": engine.name,
        "nodes_per_second": round(rate) if rate else None,
    }
