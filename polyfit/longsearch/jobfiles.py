"""A search as job files for any batch system: write them, run one, merge the results.

:func:`write_jobs` writes one small JSON file per job (what rebuilds the puzzle: the board and
pieces as given, a digest of its exact cover problem, and the job's path in the search tree)
and a manifest; :func:`run_job_file` runs one and writes its result beside it;
:func:`merge_results` adds the results up into the counts of one serial search. Rebuilding the
puzzle from a file's ``board`` and ``pieces`` is the caller's (it knows the piece sets).
"""

from __future__ import annotations

from pathlib import Path

from polyfit.errors import PolyfitError
from polyfit.files import read_json, write_json_atomically
from polyfit.xc.jobs import Job
from polyfit.longsearch.checkpoint import problem_digest
from polyfit.longsearch.planning import plan
from polyfit.longsearch.workers import JobResult, run_job
from polyfit.puzzle.solve import Counts

JOB_FORMAT = "polyfit-job-1"
RESULT_FORMAT = "polyfit-job-result-1"
MANIFEST = "manifest.json"


def write_jobs(puzzle, depth: int, out: Path, source: dict) -> int:
    """Write the jobs of ``puzzle`` split at ``depth`` into the new or empty directory ``out``,
    each with ``source`` (how to rebuild the puzzle: board, pieces, mirror); their number."""
    out = Path(out)
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise PolyfitError(f"{out} exists and is not an empty directory; choose a new --out")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise PolyfitError(f"cannot create {out}: {exc.strerror or exc}") from None
    jobs = plan(puzzle, 1, depth)
    source = {**source, "problem": problem_digest(puzzle.cover.problem, []), "jobs": len(jobs)}
    width = len(str(len(jobs)))
    for index, job in enumerate(jobs):
        data = {"format": JOB_FORMAT, **source, "index": index, "job": job.to_json()}
        write_json_atomically(out / f"job-{index + 1:0{width}d}.json", data)
    write_json_atomically(out / MANIFEST, {"format": JOB_FORMAT, **source, "depth": depth})
    return len(jobs)


def read_job(path: Path) -> dict:
    """A job file, checked to be one (its ``board``, ``pieces`` and ``mirror`` rebuild the puzzle)."""
    data = read_json(path, "job file")
    if data.get("format") != JOB_FORMAT or "job" not in data:
        raise PolyfitError(f"{path} is not a polyfit job file (write them with 'polyfit split')")
    return data


def run_job_file(path: Path, data: dict, puzzle, backend) -> tuple[JobResult, Path]:
    """Run the job ``data`` read from ``path`` on the puzzle rebuilt from it, and write its
    result beside it (``NAME.result.json``); the result and where it went."""
    path = Path(path)
    if problem_digest(puzzle.cover.problem, []) != data["problem"]:
        raise PolyfitError(
            f"{path} was split from another problem than {data['board']} now gives "
            "(the board, pieces or polyfit changed); split it again"
        )
    result = run_job(puzzle, backend, data["index"], Job.from_json(data["job"]))
    target = path.with_name(path.name.removesuffix(".json") + ".result.json")
    write_json_atomically(
        target, {"format": RESULT_FORMAT, "problem": data["problem"], "backend": backend.name, **result.to_json()}
    )
    return result, target


def merge_results(directory: Path) -> tuple[dict, Counts]:
    """The manifest of a split and the counts of all its jobs' results (all must be there)."""
    directory = Path(directory)
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
    return manifest, counts
