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
from polyfit.files import read_json, write_json_atomically, write_text
from polyfit.puzzle.solve import Counts
from polyfit.commands import guarded
from polyfit.commands.solve import describe_counts, load_puzzle

JOB_FORMAT = "polyfit-job-1"
RESULT_FORMAT = "polyfit-job-result-1"
MANIFEST = "manifest.json"


def add_commands(app: typer.Typer, ctx) -> None:
    @app.command()
    @guarded
    def estimate(
        board: Path = typer.Argument(..., help="Board file."),
        pieces: Optional[str] = typer.Option(None, "--pieces", "-p", help="Piece spec (default: the board's '; pieces:' line)."),
        probes: int = typer.Option(1000, "--probes", min=2, help="Random probes of the search tree."),
        backend: str = typer.Option("auto", "--backend", "-b", help="Backend whose speed the time is for."),
        seed: int = typer.Option(0, "--seed", help="Seed of the random probes."),
        as_json: bool = typer.Option(False, "--json", help="Print JSON: nodes, solutions, seconds (and ranges)."),
        mirror: bool = typer.Option(False, "--mirror", help="Let every piece be turned over."),
    ):
        """Predict the size of a search before running it (Knuth's random probes, 1975).

        Each probe walks one random path down the search tree; the mean over the probes
        estimates the nodes the backend will visit and the solutions it will meet, and the
        backend's speed on small parts of this very tree turns nodes into seconds.

        Example: polyfit estimate shapes/pentomino/6x10.txt
        """
        from polyfit.xc.estimate import estimate as probe, nodes_per_second

        puzzle = load_puzzle(ctx, board, pieces, mirror)
        problem = puzzle.cover.problem
        engine = ctx.registry.backend(backend, problem)
        if puzzle.impossible is not None:
            raise PolyfitError(f"{puzzle.board.label}: no search needed: {puzzle.impossible}")
        result = probe(problem, probes, seed)
        rate = nodes_per_second(problem, engine, seed=seed)
        seconds = result.nodes / rate if rate else 0.0
        low = result.nodes_low / rate if rate else 0.0
        high = result.nodes_high / rate if rate else 0.0
        if as_json:
            typer.echo(json.dumps({
                "board": puzzle.board.label,
                "probes": probes,
                "nodes": round(result.nodes),
                "nodes_low": round(result.nodes_low),
                "nodes_high": round(result.nodes_high),
                "solutions": round(result.solutions),
                "solutions_low": round(result.solutions_low),
                "solutions_high": round(result.solutions_high),
                "seconds": round(seconds, 3),
                "seconds_low": round(low, 3),
                "seconds_high": round(high, 3),
                "backend": engine.name,
                "nodes_per_second": round(rate or 0),
            }))
            return
        typer.echo(f"{puzzle.board.label}: estimate from {probes} random probes")
        typer.echo(f"  nodes:     {result.nodes:,.0f}  (95% range {result.nodes_low:,.0f} to {result.nodes_high:,.0f})")
        if result.solutions:
            typer.echo(
                f"  solutions: {result.solutions:,.0f}  (95% range {result.solutions_low:,.0f} to "
                f"{result.solutions_high:,.0f}) met by the search (symmetric copies are not searched)"
            )
        else:
            typer.echo("  solutions: no probe reached one (rare or none; more --probes tell)")
        typer.echo(f"  time:      {seconds:.3g} s on {engine.name} ({low:.2g} to {high:.2g} s, at {rate or 0:,.0f} nodes/s)")

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
        from polyfit.longsearch.checkpoint import problem_digest
        from polyfit.longsearch import plan

        puzzle = load_puzzle(ctx, board, pieces, mirror)
        if out.exists() and (not out.is_dir() or any(out.iterdir())):
            raise PolyfitError(f"{out} exists and is not an empty directory; choose a new --out")
        try:
            out.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise PolyfitError(f"cannot create {out}: {exc.strerror or exc}") from None
        jobs = plan(puzzle, 1, depth)
        source = {
            "board": str(board.resolve()),
            "pieces": pieces,
            "mirror": mirror,
            "problem": problem_digest(puzzle.cover.problem, []),
            "jobs": len(jobs),
        }
        width = len(str(len(jobs)))
        for index, job in enumerate(jobs):
            data = {"format": JOB_FORMAT, **source, "index": index, "job": job.to_json()}
            write_json_atomically(out / f"job-{index + 1:0{width}d}.json", data)
        write_json_atomically(out / MANIFEST, {"format": JOB_FORMAT, **source, "depth": depth})
        typer.echo(f"wrote {len(jobs)} jobs to {out} (depth {depth}); run each with 'polyfit run-job FILE', then 'polyfit merge {out}'")

    @app.command("run-job")
    @guarded
    def run_job(
        file: Path = typer.Argument(..., help="A job file written by 'polyfit split'."),
        backend: str = typer.Option("auto", "--backend", "-b", help="Solver backend."),
    ):
        """Run one job file and write its counts beside it (FILE with .result.json).

        Example: polyfit run-job jobs/job-01.json
        """
        from polyfit.longsearch.checkpoint import problem_digest
        from polyfit.xc.jobs import Job
        from polyfit.longsearch.workers import run_job as run

        data = read_json(file, "job file")
        if data.get("format") != JOB_FORMAT or "job" not in data:
            raise PolyfitError(f"{file} is not a polyfit job file (write them with 'polyfit split')")
        puzzle = load_puzzle(ctx, Path(data["board"]), data.get("pieces"), data.get("mirror", False))
        if problem_digest(puzzle.cover.problem, []) != data["problem"]:
            raise PolyfitError(
                f"{file} was split from another problem than {data['board']} now gives "
                "(the board, pieces or polyfit changed); split it again"
            )
        engine = ctx.registry.backend(backend, puzzle.cover.problem)
        result = run(puzzle, engine, data["index"], Job.from_json(data["job"]))
        target = file.with_name(file.name.removesuffix(".json") + ".result.json")
        write_json_atomically(
            target, {"format": RESULT_FORMAT, "problem": data["problem"], "backend": engine.name, **result.to_json()}
        )
        typer.echo(f"job {data['index'] + 1} of {data['jobs']}: {result.total} solutions in all, {result.nodes} nodes; wrote {target}")

    @app.command()
    @guarded
    def merge(
        directory: Path = typer.Argument(..., help="The directory 'polyfit split' wrote."),
        as_json: bool = typer.Option(False, "--json", help="Print JSON."),
        output: Optional[Path] = typer.Option(None, "--output", "-o", help="Also write the JSON summary here."),
    ):
        """Add up the results of a split search: the counts 'solve --count' prints.

        Example: polyfit merge jobs/
        """
        from polyfit.longsearch.workers import JobResult

        manifest = read_json(directory / MANIFEST, "job manifest")
        if manifest.get("format") != JOB_FORMAT:
            raise PolyfitError(f"{directory / MANIFEST} is not a polyfit job manifest")
        results: dict[int, JobResult] = {}
        for path in sorted(directory.glob("*.result.json")):
            data = read_json(path, "job result")
            if data.get("format") != RESULT_FORMAT or data.get("problem") != manifest["problem"]:
                raise PolyfitError(f"{path} is not a result of this split")
            results[data["index"]] = JobResult.from_json(data)
        missing = [i + 1 for i in range(manifest["jobs"]) if i not in results]
        if missing:
            shown = ", ".join(map(str, missing[:10])) + (", ..." if len(missing) > 10 else "")
            raise PolyfitError(
                f"{len(missing)} of {manifest['jobs']} jobs have no result yet (jobs {shown}); "
                "run them with 'polyfit run-job'"
            )
        counts = Counts()
        for index in sorted(results):
            results[index].add_to(counts)
        counts.complete = True
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
            write_text(output, json.dumps(summary) + "\n")
        if as_json:
            typer.echo(json.dumps(summary))
        else:
            typer.echo(describe_counts(puzzle, counts))
