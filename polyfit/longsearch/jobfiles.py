"""A search as job files for any batch system: write them, run one, merge the results.

:func:`write_jobs` writes one small JSON file per job (what rebuilds the puzzle: the board and
pieces as given; a digest of each ingredient of the puzzle's counts, see
:mod:`polyfit.puzzle.digest`, and one of the whole split; the number of jobs, and the job's
index and path in the search tree) and a manifest listing the jobs; :func:`run_job_file` runs
one and writes its result beside it; :func:`merge_results` adds the results up into the counts
of one serial search. Every file is checked field by field when it is read back; a result of
another split (another puzzle, or another depth) is refused, and so is a puzzle rebuilt from a
board that changed since the split (:func:`check_puzzle`). Rebuilding the puzzle from a file's
``board`` and ``pieces`` is the caller's (it knows the piece sets).
"""

from __future__ import annotations

import json
from pathlib import Path

from polyfit.errors import PolyfitError, plural
from polyfit.files import exists_error, path_exists, path_is_dir, path_is_file, read_json, write_json_atomically, write_output
from polyfit.xc.jobs import Job
from polyfit.fields import Fields, sealed
from polyfit.longsearch.planning import plan, split_digest
from polyfit.longsearch.workers import JobResult, check_classes, run_job
from polyfit.puzzle.digest import combined, differences, ingredients, read_ingredients
from polyfit.puzzle.solve import Counts

JOB_FORMAT = "polyfit-job-3"
RESULT_FORMAT = "polyfit-job-result-3"
MANIFEST_FORMAT = "polyfit-job-manifest-3"
MANIFEST = "manifest.json"
MAX_DEPTH = 12


def write_jobs(puzzle, depth: int, out: Path, source: dict) -> int:
    """Write the jobs of ``puzzle`` split at ``depth`` into the new or empty directory ``out``,
    each with ``source`` (how to rebuild the puzzle: board, pieces, mirror); their number.

    Every file names the puzzle (``puzzle``: a digest of each ingredient of its counts), the
    split (``split``: a digest of the puzzle and of the whole job list), the number of jobs and
    its own job's index; the manifest also lists the jobs, so that :func:`merge_results` can
    tell that each result is of this split's job of its index."""
    out = Path(out)
    if path_exists(out, "write") and (not path_is_dir(out, "write") or any(out.iterdir())):
        raise PolyfitError(f"{out} exists and is not an empty directory; choose a new --out")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise PolyfitError(f"cannot create {out}: {exc.strerror or exc}") from None
    jobs = [job.to_json() for job in plan(puzzle, 1, depth)]
    parts = ingredients(puzzle)
    split = split_digest(combined(parts), jobs)
    source = {**source, "puzzle": parts, "split": split, "jobs": len(jobs), "depth": depth}
    width = len(str(len(jobs)))
    for index, job in enumerate(jobs):
        data = {"format": JOB_FORMAT, **source, "index": index, "job": job}
        write_json_atomically(out / f"job-{index + 1:0{width}d}.json", data)
    write_json_atomically(out / MANIFEST, {"format": MANIFEST_FORMAT, **source, "job_list": jobs})
    return len(jobs)


def check_format(fields: Fields, wanted: str, what: str, how: str) -> None:
    """Refuse a file that is not of format ``wanted`` (saying so when it is of another version)."""
    written_as = fields.data.get("format")
    if written_as == wanted:
        return
    if isinstance(written_as, str) and written_as.rsplit("-", 1)[0] == wanted.rsplit("-", 1)[0]:
        raise PolyfitError(f"{fields.path} is a {what} of another version of polyfit ({written_as}); {how}")
    raise PolyfitError(f"{fields.path} is not a polyfit {what} ({how})")


def read_split(fields: Fields) -> dict:
    """The fields every file of a split has: how to rebuild the puzzle, and which split it is."""
    return {
        "board": fields.text("board"),
        "pieces": fields.optional_text("pieces"),
        "mirror": fields.flag("mirror", default=False),
        "puzzle": read_ingredients(fields),
        "split": fields.digest("split"),
        "jobs": fields.whole("jobs", 1),
        "depth": fields.whole("depth", 1, MAX_DEPTH),
    }


def read_job_fields(fields: Fields) -> Job:
    """A job (its path in the search tree) from its JSON; option and item numbers are checked
    against the problem by :func:`check_job`."""
    return Job(
        tuple(fields.wholes("forced")),
        tuple(fields.wholes("excluded")),
        tuple(fields.wholes("closed")),
        fields.number("share", 0.0, 1.0),
    )


def check_job(path: Path, job: Job, problem) -> None:
    """Refuse a job whose options or items are not the problem's."""
    options, items = len(problem.options), len(problem.primary)
    for name, numbers, most, kind in (
        ("forced", job.forced, options, "options"),
        ("excluded", job.excluded, options, "options"),
        ("closed", job.closed, items, "primary items"),
    ):
        if any(n >= most for n in numbers):
            raise PolyfitError(f"{path}: field job.{name}: {max(numbers)} is not one of the problem's {most} {kind}")


def read_job(path: Path) -> dict:
    """A job file, checked field by field (its ``board``, ``pieces`` and ``mirror`` rebuild the
    puzzle; ``job`` is a :class:`Job`)."""
    fields = Fields(read_json(path, "job file"), path)
    check_format(fields, JOB_FORMAT, "job file", "write them with 'polyfit split'")
    data = read_split(fields)
    data["index"] = fields.whole("index", 0, data["jobs"] - 1)
    data["job"] = read_job_fields(fields.part("job"))
    return data


def check_puzzle(path: Path, data: dict, puzzle) -> None:
    """Refuse a puzzle rebuilt from the ``board`` and ``pieces`` of a file of a split
    (``data``, read from ``path``) that is not the puzzle split: the board or its pieces
    changed since (or polyfit did), naming what differs."""
    differ = differences(data["puzzle"], ingredients(puzzle))
    if differ:
        raise PolyfitError(
            f"{path} was split from another puzzle than {data['board']} now gives: they differ in "
            f"{differ} (the board, its pieces or polyfit changed since); split it again"
        )


def check_against_manifest(path: Path, data: dict) -> None:
    """Refuse a job file that is not the job of its index in the manifest beside it (when
    there is one): it was edited, or comes from another split."""
    manifest_path = path.parent / MANIFEST
    if not path_is_file(manifest_path) or path.resolve() == manifest_path.resolve():
        return
    manifest = read_manifest(manifest_path)
    if manifest["split"] != data["split"] or manifest["puzzle"] != data["puzzle"]:
        raise PolyfitError(f"{path} is a job of another split than {manifest_path}; keep each split's files in its own directory")
    if manifest["job_list"][data["index"]] != data["job"]:
        raise PolyfitError(
            f"{path}: field job: is not job {data['index'] + 1} of the split in {manifest_path} "
            "(the file was changed); split it again"
        )


RESULT_PREFIX = "result-"


def result_path(path: Path) -> Path:
    """Where the result of the job file ``path`` goes: beside it, ``result-NAME`` (the result
    of ``job-07.json`` is ``result-job-07.json``), a name no ``job-*.json`` matches, so that a
    loop over the job files never runs a result as a job."""
    return path.with_name(RESULT_PREFIX + path.name)


def run_job_file(path: Path, data: dict, puzzle, backend, force: bool = False) -> tuple[JobResult, Path]:
    """Run the job ``data`` read from ``path`` (by :func:`read_job`) on the puzzle rebuilt
    from it, and write its result beside it (``result-NAME``, replaced only when
    ``force``); the result and where it went."""
    path = Path(path)
    check_puzzle(path, data, puzzle)
    check_job(path, data["job"], puzzle.cover.problem)
    check_against_manifest(path, data)
    target = result_path(path)
    if path_exists(target, "write") and not force:
        raise exists_error(target)
    result = run_job(puzzle, backend, data["index"], data["job"])
    written = {
        "format": RESULT_FORMAT,
        "puzzle": combined(data["puzzle"]),
        "split": data["split"],
        "jobs": data["jobs"],
        "job": data["job"].to_json(),
        "backend": backend.name,
        **result.to_json(),
    }
    # Whole or not at all, and (without force) never over a result written meanwhile, by the
    # same job run twice at once.
    write_output(target, json.dumps(sealed(written, data["split"])).encode(), force)
    return result, target


def read_manifest(path: Path) -> dict:
    """The manifest of a split, checked: its job list must be the one its digest names."""
    fields = Fields(read_json(path, "job manifest"), path)
    check_format(fields, MANIFEST_FORMAT, "job manifest", "'polyfit split' writes one with the jobs")
    manifest = read_split(fields)
    listed = fields.listing("job_list")
    if len(listed) != manifest["jobs"]:
        raise fields.error("job_list", f"has {plural(len(listed), 'job')}, not the {manifest['jobs']} of field jobs")
    jobs = [read_job_fields(Fields(job, path, f"job_list[{index}]")) for index, job in enumerate(listed)]
    if split_digest(combined(manifest["puzzle"]), listed) != manifest["split"]:
        raise fields.error("job_list", "is not the job list of this split (its digest differs: the file was changed)")
    manifest["job_list"] = jobs
    return manifest


def read_result(path: Path, manifest: dict, manifest_path: Path) -> JobResult:
    """One job's result, checked to be of this very split and of the job of its index."""
    fields = Fields(read_json(path, "job result"), path)
    check_format(fields, RESULT_FORMAT, "job result", "write them with 'polyfit run-job'")
    if fields.digest("split") != manifest["split"]:
        raise PolyfitError(
            f"{path} is a result of another split (of another problem, or at another depth) "
            f"than {manifest_path}; it cannot be merged with its results"
        )
    jobs = fields.whole("jobs", 1)
    if jobs != manifest["jobs"]:
        raise fields.error("jobs", f"must be {manifest['jobs']}, the jobs of {manifest_path}, not {jobs}")
    result = JobResult.from_json(fields, jobs)
    job = read_job_fields(fields.part("job"))
    if job != manifest["job_list"][result.index]:
        raise fields.error("job", f"is not job {result.index + 1} of the split in {manifest_path}")
    fields.check_seal(manifest["split"], "run the job again with 'polyfit run-job'")
    return result


def merge_results(directory: Path) -> tuple[dict, Counts]:
    """The manifest of a split and the counts of all its jobs' results (all must be there,
    each once, each of this very split: anything else is refused, never added up)."""
    directory = Path(directory)
    manifest_path = directory / MANIFEST
    manifest = read_manifest(manifest_path)
    results: dict[int, JobResult] = {}
    found_in: dict[int, Path] = {}
    for path in sorted(directory.glob(RESULT_PREFIX + "*.json")):
        result = read_result(path, manifest, manifest_path)
        if result.index in results:
            raise PolyfitError(
                f"{path}: field index: job {result.index + 1} already has a result ({found_in[result.index]}); "
                "remove the one that does not belong"
            )
        results[result.index] = result
        found_in[result.index] = path
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
    check_classes(counts, f"the results in {directory}")
    counts.complete = True
    return manifest, counts
