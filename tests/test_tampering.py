"""Files polyfit writes for itself, read back after they were mixed up, edited or cut short.

A count polyfit prints must be right or not printed: a result of another split, a checkpoint
with a job that is not the split's, or a count that is not a whole number is refused with one
line naming the file and the field, never added up and never a traceback.
"""

import json
import os
import shutil
import stat

import pytest

from polyfit.files import write_json_atomically

from helpers import ROOT, run_cli

# Under -n one worker runs this module (conftest.py's ONE_WORKER): its module fixtures are made once.
BOARD = ROOT / "shapes" / "pentomino" / "6x10.txt"
RIGHT = "2339 distinct solutions, 9356 in all"


def refused(result, *words):
    """The command failed with one clear line (no traceback, no count) saying all ``words``."""
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output and "distinct solutions" not in result.output, result.output
    for word in words:
        assert word in result.output, result.output


def edit(path, change):
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data))


@pytest.fixture(scope="module")
def splits(tmp_path_factory):
    """6x10 split at depth 1 (every job run) and at depth 2 (its first three jobs run)."""
    base = tmp_path_factory.mktemp("splits")
    for depth in (1, 2):
        made = run_cli(["split", str(BOARD), "--depth", str(depth), "--out", str(base / f"d{depth}")])
        assert made.exit_code == 0, made.output
    for path in [*sorted((base / "d1").glob("job-*.json")), *sorted((base / "d2").glob("job-*.json"))[:3]]:
        ran = run_cli(["run-job", str(path)])
        assert ran.exit_code == 0, ran.output
    return base


@pytest.fixture
def split(splits, tmp_path):
    """A fresh copy of the depth-1 split, every result in place."""
    copy = tmp_path / "jobs"
    shutil.copytree(splits / "d1", copy)
    return copy


def merge(directory):
    return run_cli(["merge", str(directory)])


@pytest.mark.slow
def test_the_untouched_split_merges_to_the_serial_counts(split):
    result = merge(split)
    assert result.exit_code == 0 and RIGHT in result.output, result.output


# -- merge: results of another split, another job, or none ----------------------------------------


def test_results_of_the_same_problem_split_at_another_depth_are_refused(splits, split):
    """The reproducer: three depth-2 results in place of three depth-1 ones printed 1714."""
    for n in (1, 2, 3):
        shutil.copy(splits / "d2" / f"result-job-0{n}.json", split / f"result-job-{n}.json")
    refused(merge(split), str(split / "result-job-1.json"), "another split")


def test_a_result_whose_index_is_outside_the_split_is_refused(split):
    edit(split / "result-job-2.json", lambda d: d.update(index=9))
    refused(merge(split), f"{split / 'result-job-2.json'}: field index: must be at most 6, not 9")


def test_a_result_that_is_there_twice_is_refused(split):
    shutil.copy(split / "result-job-2.json", split / "result-job-2-again.json")
    refused(merge(split), "field index: job 2 already has a result")


def test_a_result_of_another_job_of_the_split_is_refused(split):
    first = json.loads((split / "result-job-1.json").read_text())["job"]
    edit(split / "result-job-2.json", lambda d: d.update(job=first))
    refused(merge(split), f"{split / 'result-job-2.json'}: field job: is not job 2 of the split")


def test_a_manifest_with_an_edited_job_list_is_refused(split):
    edit(split / "manifest.json", lambda d: d["job_list"][0].update(share=0.5))
    refused(merge(split), "field job_list: is not the job list of this split")


def test_missing_results_are_named_and_no_count_is_printed(split):
    (split / "result-job-2.json").unlink()
    (split / "result-job-5.json").unlink()
    refused(merge(split), "2 of 7 jobs have no result yet (jobs 2, 5)")


RESULT_FIELDS = ["index", "distinct", "total", "distinct_rotations", "nodes", "updates", "found", "seconds", "split", "jobs", "job"]


@pytest.mark.parametrize("field", RESULT_FIELDS)
def test_a_result_without_a_field_is_refused(split, field):
    path = split / "result-job-3.json"
    edit(path, lambda d: d.pop(field))
    refused(merge(split), f"{path}: field {field}: missing")


@pytest.mark.parametrize("field", ["index", "distinct", "total", "distinct_rotations", "nodes", "updates", "found", "jobs"])
@pytest.mark.parametrize("value", [1.5, True, "3", None, -1, [3]])
def test_a_count_that_is_not_a_whole_number_is_refused(split, field, value):
    path = split / "result-job-3.json"
    edit(path, lambda d: d.update({field: value}))
    refused(merge(split), f"{path}: field {field}: must be")


@pytest.mark.parametrize(
    "change, words",
    [
        (lambda d: d.update(distinct=d["total"] + 1), "field distinct: "),
        (lambda d: d.update(found=d["total"] + 1), "field found: "),
        (lambda d: d.update(distinct_rotations=3 * d["distinct"]), "field distinct_rotations: "),
        (lambda d: d.update(seconds="fast"), "field seconds: must be a number"),
        (lambda d: d.update(split="0" * 64), "another split"),
        (lambda d: d.update(split="not a digest"), "field split: must be a SHA-256"),
        (lambda d: d.update(jobs=8), "field jobs: must be 7"),
        (lambda d: d["job"].update(forced=["x"]), "field job.forced[0]: must be a whole number"),
        (lambda d: d.update(format="polyfit-job-result-1"), "another version of polyfit"),
        (lambda d: d.update(format="something"), "is not a polyfit job result"),
    ],
)
def test_counts_that_disagree_and_fields_of_the_wrong_kind_are_refused(split, change, words):
    edit(split / "result-job-4.json", change)
    refused(merge(split), str(split / "result-job-4.json"), words)


@pytest.mark.parametrize(
    "change",
    [
        lambda d: d.update(nodes=d["nodes"] + 1),
        lambda d: d.update(puzzle="0" * 64),
        lambda d: d.pop("digest"),
    ],
)
def test_a_result_changed_after_it_was_written_is_refused(split, change):
    """Fields changed by hand (or damaged) so that they still look right: the seal tells."""
    path = split / "result-job-4.json"
    edit(path, change)
    refused(merge(split), f"{path}: field digest: ")


def reseal(path, change):
    """Change a result and make its seal again, as someone who read polyfit's source could."""
    from polyfit.fields import sealed

    data = json.loads(path.read_text())
    change(data)
    data.pop("digest")
    path.write_text(json.dumps(sealed(data, data["split"])))


def bump(rows, *key):
    """One more in the row of ``key`` of a result's ``classes`` or ``weights``."""
    for row in rows:
        if row[:-1] == list(key):
            row[-1] += 1
            return
    rows.append([*key, 1])


@pytest.mark.parametrize(
    "change, words",
    [
        (lambda d: d.update(distinct=d["distinct"] + 1), "field distinct: "),
        (lambda d: d.update(distinct_rotations=d["distinct_rotations"] + 1), "field distinct_rotations: "),
        (lambda d: d.update(total=d["total"] + 4), "field total: "),
        (lambda d: d.update(found=d["found"] + 1), "field found: "),
        (lambda d: d.update(distinct=d["distinct"] + 1, found=d["found"] + 1, total=d["total"] + 4), "field distinct: "),
        (lambda d: d["classes"][0].__setitem__(0, 8), "the counts do not add up"),
        (lambda d: (bump(d["weights"], 4), d.update(found=d["found"] + 1, total=d["total"] + 4)), "the counts do not add up"),
    ],
)
def test_a_count_changed_with_its_seal_made_again_does_not_pass(split, change, words):
    """The seal is no secret (anyone can compute it again): each count is also a sum of what
    it is made of, and all the classes hold all the solutions, so a count changed alone, or
    with the fields it is the sum of, is still refused."""
    path = split / "result-job-4.json"
    reseal(path, change)
    refused(merge(split), words)


def test_a_count_changed_with_every_field_that_tells_does_pass_and_the_docs_say_so(split):
    """What the seal cannot see: every field changed together, consistently. This is the limit
    docs/long-searches.md states; the test keeps the statement true."""
    path = split / "result-job-4.json"

    def everything(d):
        bump(d["classes"], 4, 1)  # one more class of 4 solutions, not split under rotations
        bump(d["weights"], 4)  # met once, standing for its 4 solutions
        d.update(distinct=d["distinct"] + 1, distinct_rotations=d["distinct_rotations"] + 1)
        d.update(found=d["found"] + 1, total=d["total"] + 4)

    reseal(path, everything)
    result = merge(split)
    assert result.exit_code == 0 and "2340 distinct solutions, 9360 in all" in result.output, result.output
    assert "does not protect against" in (ROOT / "docs" / "long-searches.md").read_text()


@pytest.mark.parametrize("name", ["result-job-4.json", "manifest.json"])
def test_a_truncated_file_is_refused(split, name):
    path = split / name
    text = path.read_text()
    path.write_text(text[: len(text) // 2])
    refused(merge(split), f"{path} is not a polyfit job")


def test_a_key_given_twice_is_refused(split):
    path = split / "result-job-4.json"
    path.write_text(path.read_text().replace('"distinct":', '"distinct": 0, "distinct":'))
    refused(merge(split), "the key 'distinct' is there twice")


# -- run-job: job files -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "change, words",
    [
        (lambda d: d.pop("board"), "field board: missing"),
        (lambda d: d.update(board=7), "field board: must be text, not 7"),
        (lambda d: d.update(pieces=["P"]), "field pieces: must be text"),
        (lambda d: d.update(mirror="yes"), "field mirror: must be true or false"),
        (lambda d: d.pop("index"), "field index: missing"),
        (lambda d: d.update(index=7), "field index: must be at most 6, not 7"),
        (lambda d: d.update(index=0.0), "field index: must be a whole number, not 0.0"),
        (lambda d: d.update(jobs=False), "field jobs: must be a whole number, not false"),
        (lambda d: d.pop("split"), "field split: missing"),
        (lambda d: d.update(depth=40), "field depth: must be at most 12"),
        (lambda d: d.pop("job"), "field job: missing"),
        (lambda d: d.update(job=[1548]), "field job: must be an object, not a list"),
        (lambda d: d["job"].pop("forced"), "field job.forced: missing"),
        (lambda d: d["job"].update(forced=[10**6]), "field job.forced: 1000000 is not one of the problem's"),
        (lambda d: d["job"].update(closed=[-1]), "field job.closed[0]: must be at least 0"),
        (lambda d: d["job"].update(share=2), "field job.share: must be from 0 to 1"),
        (lambda d: d["puzzle"].update(symmetries="0" * 64), "split from another puzzle than"),
        (lambda d: d["puzzle"].update(symmetries="x"), "field puzzle.symmetries: must be a SHA-256"),
        (lambda d: d.update(puzzle=None), "field puzzle: must be an object, not null"),
    ],
)
def test_a_job_file_with_a_field_missing_or_wrong_is_refused(split, change, words):
    path = split / "job-2.json"
    edit(path, change)
    result = run_cli(["run-job", str(path)])
    refused(result, str(path), words)
    assert "wrote" not in result.output


def test_run_job_never_replaces_a_result_without_force(split):
    """The reproducer: a job file edited to another job of the split ran and replaced the
    good result beside it."""
    path, result_path = split / "job-2.json", split / "result-job-2.json"
    good = result_path.read_text()
    refused(run_cli(["run-job", str(path)]), f"{result_path} exists; use --force to overwrite it")
    assert result_path.read_text() == good
    again = run_cli(["run-job", str(path), "--force"])
    assert again.exit_code == 0 and "wrote" in again.output, again.output
    assert json.loads(result_path.read_text())["total"] == json.loads(good)["total"]


def test_a_job_file_edited_to_another_job_of_its_split_is_refused(split):
    path = split / "job-2.json"
    first = json.loads((split / "job-1.json").read_text())["job"]
    edit(path, lambda d: d.update(job=first))
    good = (split / "result-job-2.json").read_text()
    for args in ([], ["--force"]):
        refused(run_cli(["run-job", str(path), *args]), f"{path}: field job: is not job 2 of the split")
    assert (split / "result-job-2.json").read_text() == good
    assert merge(split).exit_code == 0


def test_the_manifest_is_not_a_job_file(split):
    refused(run_cli(["run-job", str(split / "manifest.json")]), "is not a polyfit job file")


# -- checkpoints ------------------------------------------------------------------------------------


COUNT = ["solve", str(BOARD), "--count", "--depth", "1", "--backend", "dlx-c"]


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    path = tmp_path_factory.mktemp("checkpoint") / "count.json"
    made = run_cli([*COUNT, "--checkpoint", str(path)])
    assert made.exit_code == 0 and RIGHT in made.output, made.output
    return json.loads(path.read_text())


def resume(tmp_path, saved, change):
    data = json.loads(json.dumps(saved))
    change(data)
    path = tmp_path / "count.json"
    path.write_text(json.dumps(data))
    return path, run_cli([*COUNT, "--resume", str(path)])


@pytest.mark.slow
def test_an_untouched_checkpoint_resumes_to_the_serial_counts(tmp_path, saved):
    _, result = resume(tmp_path, saved, lambda d: d["done"].pop("3"))
    assert result.exit_code == 0 and RIGHT in result.output, result.output


def test_a_checkpoint_with_a_job_that_is_not_the_splits_is_refused(tmp_path, saved):
    """The reproducer: an extra finished job "99" made --resume print 2728 / 10912."""
    path, result = resume(tmp_path, saved, lambda d: d["done"].update({"99": dict(d["done"]["0"], index=99)}))
    refused(result, f"{path}: field done.99: is not one of the 7 jobs of this split")


def test_a_fractional_count_in_a_checkpoint_is_refused(tmp_path, saved):
    """The reproducer: "distinct": 1.5 printed "1951.5 distinct solutions"."""
    path, result = resume(tmp_path, saved, lambda d: d["done"]["2"].update(distinct=1.5))
    refused(result, f"{path}: field done.2.distinct: must be a whole number, not 1.5")


@pytest.mark.parametrize(
    "change, words",
    [
        (lambda d: d.update(done=[]), "field done: must be an object, not a list"),
        (lambda d: d.pop("done"), "field done: missing"),
        (lambda d: d.update(jobs="7"), "field jobs: must be a whole number"),
        (lambda d: d.update(puzzle=None), "field puzzle: must be an object, not null"),
        (lambda d: d["puzzle"].pop("classes"), "field puzzle.classes: missing"),
        (lambda d: d.update(split=None), "field split: must be text, not null"),
        (lambda d: d["done"].update({"03": d["done"].pop("3")}), "field done.03: is not one of the 7 jobs"),
        (lambda d: d["done"].update({"-1": d["done"].pop("3")}), "field done.-1: is not one of the 7 jobs"),
        (lambda d: d["done"]["3"].update(index=4), "field done.3.index: must be 3"),
        (lambda d: d["done"]["3"].pop("nodes"), "field done.3.nodes: missing"),
        (lambda d: d["done"]["3"].update(total=-5), "field done.3.total: must be at least 0"),
        (lambda d: d["done"]["3"].update(total=True), "field done.3.total: must be a whole number, not true"),
        (lambda d: d["done"].update({"3": 12}), "field done.3: must be an object, not 12"),
        (lambda d: d.update(format="polyfit-checkpoint-1"), "another version of polyfit"),
    ],
)
def test_a_checkpoint_with_a_field_missing_or_wrong_is_refused(tmp_path, saved, change, words):
    path, result = resume(tmp_path, saved, change)
    refused(result, str(path), words)


def test_a_checkpoint_entry_changed_after_it_was_written_is_refused(tmp_path, saved):
    path, result = resume(tmp_path, saved, lambda d: d["done"]["5"].update(nodes=d["done"]["5"]["nodes"] + 1))
    refused(result, f"{path}: field done.5.digest: does not match the other fields", "remove done.5")


def test_a_checkpoint_count_changed_with_its_seal_made_again_does_not_pass(tmp_path, saved):
    from polyfit.fields import sealed

    def more(d):
        entry = d["done"]["5"]
        entry.pop("digest")
        bump(entry["weights"], 4)  # one more solution met, standing for 4
        entry.update(found=entry["found"] + 1, total=entry["total"] + 4)
        d["done"]["5"] = sealed(entry, d["split"])

    path, result = resume(tmp_path, saved, more)
    refused(result, str(path), "the counts do not add up")


def test_a_truncated_checkpoint_is_refused(tmp_path, saved):
    path = tmp_path / "count.json"
    path.write_text(json.dumps(saved)[:100])
    refused(run_cli([*COUNT, "--resume", str(path)]), f"{path} is not a polyfit checkpoint")


# -- saved solutions ----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def solutions(tmp_path_factory):
    path = tmp_path_factory.mktemp("solutions") / "six.json"
    made = run_cli(["solve", str(BOARD), "--limit", "2", "--output", str(path)])
    assert made.exit_code == 0, made.output
    return json.loads(path.read_text())


@pytest.mark.parametrize(
    "change, words",
    [
        (lambda d: d["cells"].__setitem__(0, [1, "x"]), "field cells[0]: must be a whole number, not 'x'"),
        (lambda d: d["cells"].__setitem__(0, [1, 2, 3]), "field cells[1]: has 2 numbers, but the board's cells have 3"),
        (lambda d: d["cells"].__setitem__(5, [0, 0, 0]), "field cells[5]: has 3 numbers, but the board's cells have 2"),
        (lambda d: d["cells"].__setitem__(0, [10**9, 2]), "field cells: 10,000,000,010 cells, over polyfit's limit"),
        (lambda d: d["cells"].__setitem__(0, [10**40, 2]), "field cells[0]: must be at most"),
        (lambda d: d["cells"].__setitem__(0, [1.0, 2]), "field cells[0]: must be a whole number, not 1.0"),
        (lambda d: d["cells"].__setitem__(0, 7), "field cells[0]: must be a cell such as [1, 2], not 7"),
        (lambda d: d["cells"].append(d["cells"][0]), "field cells: has a cell twice"),
        (lambda d: d.update(cells=[]), "field cells: has no cells"),
        (lambda d: d.update(pieces={}), "field pieces: has no pieces"),
        (lambda d: d["pieces"].update(F=[[0, 0, 0]]), "field pieces.F[0]: has 3 numbers"),
        (lambda d: d["pieces"].update(F=[[0, 0], [0, 10**8]]), "field pieces.F: 100,000,001 cells, over polyfit's limit"),
        (lambda d: d.update(solutions={}), "field solutions: must be a list"),
        (lambda d: d["solutions"].append([]), "field solutions[2]: must be an object, not a list"),
        (lambda d: d["solutions"][0].update(Q=[[0, 0]]), "field solutions[0].Q: is not one of the pieces"),
        (lambda d: d["solutions"][0].update({"F#x": [[0, 0]]}), "field solutions[0].F#x: is not one of the pieces"),
        (lambda d: d["solutions"][1].update(F=[[99, 99]]), "field solutions[1].F: has a cell that is not on the board"),
        (lambda d: d.update(board=["6x10"]), "field board: must be text"),
        (lambda d: d.update(distinct=1.5), "field distinct: must be a whole number, not 1.5"),
        (lambda d: d.update(distinct=5, total=4), "field distinct: 5 is more than total (4)"),
    ],
)
def test_a_solutions_file_with_a_field_missing_or_wrong_is_refused(tmp_path, solutions, change, words):
    data = json.loads(json.dumps(solutions))
    change(data)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    result = run_cli(["render", str(path), "--png", str(tmp_path / "out.png")])
    refused(result, f"{path}: {words}")
    assert not (tmp_path / "out.png").exists()


@pytest.mark.parametrize("field", ["cells", "pieces", "solutions"])
def test_a_solutions_file_without_a_field_is_refused(tmp_path, solutions, field):
    data = {k: v for k, v in solutions.items() if k != field}
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    result = run_cli(["render", str(path), "--png", str(tmp_path / "out.png")])
    refused(result, f"{path} is not a solutions file", f"(field {field}: missing)")


def test_a_solutions_file_with_a_number_too_long_for_json_is_refused(tmp_path, solutions):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(solutions).replace('"cells": [[0, 0]', '"cells": [[' + "9" * 5000 + ", 0]", 1))
    refused(run_cli(["render", str(path), "--png", str(tmp_path / "out.png")]), f"{path} is not a JSON solutions file")


def test_an_untouched_solutions_file_renders(tmp_path, solutions):
    path = tmp_path / "good.json"
    path.write_text(json.dumps(solutions))
    result = run_cli(["render", str(path), "--png", str(tmp_path / "out.png")])
    assert result.exit_code == 0, result.output


# -- file modes -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("umask, mode", [(0o022, 0o644), (0o027, 0o640), (0o077, 0o600)])
def test_files_written_for_batch_systems_get_the_mode_of_the_umask(tmp_path, umask, mode):
    """Job files read by a batch system running as another user: not the 0600 of a temporary file."""
    old = os.umask(umask)
    try:
        write_json_atomically(tmp_path / "one.json", {"a": 1})
        made = run_cli(["split", str(BOARD), "--depth", "1", "--out", str(tmp_path / "jobs")])
        assert made.exit_code == 0, made.output
    finally:
        os.umask(old)
    written = [tmp_path / "one.json", *(tmp_path / "jobs").iterdir()]
    assert {stat.S_IMODE(p.stat().st_mode) for p in written} == {mode}
