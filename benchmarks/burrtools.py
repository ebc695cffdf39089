"""polyfit against BurrTools on BurrTools' own files, side by side in one run.

    python benchmarks/burrtools.py [--burrtools PATH/TO/burrTxt2] [--repeat 3] [--mirror]
                                   [--before PYTHON] [--timeout SECONDS] [FILE.xmpuzzle ...]

BurrTools (Andreas Röver and others, GPL-2) is the solver most puzzle designers use. Its
command-line solver burrTxt2 is not shipped with polyfit: give its path, or let this script
build it with ``../shared/burrtools/build.sh`` beside the project when that exists. The files
default to every ``.xmpuzzle`` in ``../shared/burrtools/puz/`` (the 6x10 pentominoes, the Soma
cube, the Bedlam cube and SolidSixPieceBurrs) and in ``benchmarks/data/burrtools/`` (one of
each kind designers make: colours, optional voxels, piece counts, big pieces, big boxes; see
``benchmarks/burrtools_files.py``).

Both programs read the same ``.xmpuzzle`` file and count its first problem, as whole
processes, timed in CPU seconds (user + system, from the operating system's accounting of
the child): ``burrTxt2 -R -c`` (its placement reduction on, count only, no disassembly) and
``polyfit solve FILE --count --jobs 1 --problem 1``. BurrTools' count is polyfit's
``distinct``; with ``--mirror`` BurrTools also counts once with ``-m`` (mirror images kept),
which is polyfit's ``distinct_rotations`` (its ``distinct`` on a flat puzzle, which BurrTools
turns over in space). Each round runs both on every file, so a change in the machine's load
hits both sides of a ratio alike. Times are medians over the rounds; ratios (polyfit /
BurrTools) are medians of each round's own ratio. polyfit's wall time is reported too (start-up
included), its search time alone, and its set-up alone in a process of its own (reading the
file and making the puzzle: placements, pruning, colours, symmetries, the exact cover problem
and its reduction; CPU seconds, start-up left out).

The target: where BurrTools needs 0.3 s of CPU or more, polyfit needs no more; elsewhere
polyfit answers in 0.3 s of wall time or less. The last column says whether it does. polyfit's
modules are compiled to bytecode first (as an installed package's are), so that no run pays
for compiling them.

``--before PYTHON``: also time the polyfit that another environment's Python runs (an older
version, say), in the same rounds, and print its CPU seconds beside (its counts are not
checked: an older polyfit may count colours differently).

``--timeout SECONDS`` (default 1800): a run that takes longer is stopped, and its file leaves
the table for a list of its own after it (which program ran over, and polyfit's count and
CPU seconds when it finished): a long search, not a set-up, and no count to compare. Files
made at random (``benchmarks/burrtools_files.py --random``) are run with a short one.
"""

from __future__ import annotations

import argparse
import json
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# ../shared/burrtools beside the checkout (or beside a folder of worktrees holding it)
SHARED = next((p / "shared" / "burrtools" for p in ROOT.parents if (p / "shared" / "burrtools").is_dir()),
              ROOT.parent / "shared" / "burrtools")
OURS = ROOT / "benchmarks" / "data" / "burrtools"
# Child processes run here, never in the repository root, where ``python -m polyfit`` would find
# the source tree (without its compiled backends) instead of the installed package.
OUTSIDE = Path(__file__).resolve().parent
TARGET = 0.3  # seconds: BurrTools' CPU above which polyfit must match it, else polyfit's wall


def child_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


class TooLong(Exception):
    """A run went over ``--timeout``."""


def run_burrtools(binary: Path, puzzle: Path, *flags: str, timeout: float = 1800) -> tuple[float, int]:
    """CPU seconds and assemblies of ``burrTxt2 -R -c``. It polls its standard input and stops
    at end of file, so the input is a pipe held open until it is done; it writes the count into
    FILE.xmpuzzlettt beside a copy of the file. :class:`TooLong` after ``timeout`` seconds."""
    with tempfile.TemporaryDirectory() as folder:
        copy = Path(folder) / "p.xmpuzzle"
        shutil.copy(puzzle, copy)
        before = child_cpu()
        process = subprocess.Popen([str(binary), "-R", "-c", *flags, str(copy)], stdin=subprocess.PIPE,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=folder)
        try:
            process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            raise TooLong from None
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()
            process.stdin.close()
        seconds = child_cpu() - before
        result = Path(folder) / "p.xmpuzzlettt"
        found = re.search(r'assemblies="(\d+)"', result.read_text(errors="replace")) if result.exists() else None
        if found is None:
            raise SystemExit(f"burrTxt2 wrote no count for {puzzle}")
        return seconds, int(found.group(1))


def run_polyfit(puzzle: Path, python: str = sys.executable, timeout: float = 1800) -> tuple[float, float, dict]:
    """CPU seconds, wall seconds and the JSON summary of ``polyfit solve --count --jobs 1
    --problem 1`` (an ``error`` instead when polyfit refuses the file). burrTxt2 solves a file's
    first problem only, so polyfit is asked for that one (without ``--problem`` it counts them
    all). :class:`TooLong` after ``timeout`` seconds."""
    before, start = child_cpu(), time.perf_counter()
    try:
        result = subprocess.run([python, "-m", "polyfit", "solve", str(puzzle), "--count", "--jobs", "1",
                                 "--problem", "1", "--json"], capture_output=True, text=True, cwd=OUTSIDE,
                                timeout=timeout)
    except subprocess.TimeoutExpired:
        raise TooLong from None
    wall, seconds = time.perf_counter() - start, child_cpu() - before
    if result.returncode != 0:
        return seconds, wall, {"error": result.stderr.strip(), "distinct": None, "distinct_rotations": None, "seconds": 0.0}
    return seconds, wall, json.loads(result.stdout)


# Set-up alone, in a process of its own: reading the file (a second time: the first imports the
# readers) and making the puzzle (placements, pruning, colours, symmetries, the exact cover
# problem and its reduction), in CPU seconds.
SETUP = """
import json, sys, time
import polyfit
polyfit.read_board(sys.argv[1])  # once untimed: the readers' plugins are imported on first use
start = time.process_time()
board = polyfit.read_board(sys.argv[1])
polyfit.Puzzle(board)
print(json.dumps({"setup": time.process_time() - start}))
"""


def run_setup(puzzle: Path, python: str = sys.executable) -> float | None:
    """CPU seconds polyfit takes to read ``puzzle`` and make it ready to search (None when it
    refuses the file)."""
    result = subprocess.run([python, "-c", SETUP, str(puzzle)], capture_output=True, text=True, cwd=OUTSIDE,
                            timeout=1800)
    return json.loads(result.stdout)["setup"] if result.returncode == 0 else None


def find_burrtools(given: str | None) -> Path:
    if given:
        return Path(given)
    build = SHARED / "build.sh"
    if not build.exists():
        raise SystemExit("give --burrtools PATH/TO/burrTxt2 (no ../shared/burrtools/build.sh to build it)")
    built = subprocess.run(["bash", str(build)], capture_output=True, text=True, check=True, cwd=OUTSIDE)
    return Path(built.stdout.strip().splitlines()[-1])


def compile_polyfit(python: str = sys.executable) -> None:
    """Bytecode for every polyfit module, as ``pip install`` writes it, so that runs under
    ``PYTHONDONTWRITEBYTECODE`` do not compile the package each time."""
    code = "import compileall, pathlib, polyfit; compileall.compile_dir(pathlib.Path(polyfit.__file__).parent, quiet=1)"
    subprocess.run([python, "-c", code], check=True, cwd=OUTSIDE, capture_output=True)


def default_files() -> list[Path]:
    return sorted((SHARED / "puz").glob("*.xmpuzzle")) + sorted(OURS.glob("*.xmpuzzle"))


def is_flat(board) -> bool:
    """Does the board lie in one plane (a 2D board, or the cells of a 3D lattice in one plane,
    such as a layer of spheres)?"""
    if board.lattice.dim == 2:
        return True
    import numpy

    first = board.cells[0]
    return numpy.linalg.matrix_rank(numpy.array([[a - b for a, b in zip(c, first)] for c in board.cells])) <= 2


def verdict(bt: float, pf: float, wall: float) -> str:
    if bt >= TARGET:
        return "yes" if pf <= bt else "no"
    return "yes" if wall <= TARGET else "no"


def polyfit_alone(puzzle: Path, timeout: float) -> str:
    """What polyfit makes of a file BurrTools went over the time limit on: its CPU seconds and
    count, or that it went over too."""
    try:
        seconds, _, summary = run_polyfit(puzzle, timeout=timeout)
    except TooLong:
        return " and polyfit"
    count = summary["distinct"]
    return f" (polyfit: {seconds:.2f} s, {'error' if count is None else format(count, ',')})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--burrtools", help="path to burrTxt2 (default: build it with ../shared/burrtools/build.sh)")
    parser.add_argument("--repeat", type=int, default=3, help="rounds (default 3)")
    parser.add_argument("--mirror", action="store_true", help="also count with burrTxt2 -m once per file")
    parser.add_argument("--before", help="a Python whose polyfit to time too (another environment)")
    parser.add_argument("--timeout", type=float, default=1800,
                        help="seconds a run may take before its file leaves the table (default 1800)")
    args = parser.parse_args()
    files = [f.resolve() for f in args.files] or default_files()
    binary = find_burrtools(args.burrtools)
    compile_polyfit()
    if args.before:
        compile_polyfit(args.before)
    times = {f: {"burrtools": [], "polyfit": [], "wall": [], "search": [], "ratio": [], "before": [],
                 "setup": [], "before setup": []} for f in files}
    wrong = []
    too_long: dict = {}  # file -> what went over the time limit
    for round_number in range(args.repeat):
        for f in files:
            if f in too_long:
                continue
            try:
                bt, bt_count = run_burrtools(binary, f, timeout=args.timeout)
            except TooLong:
                too_long[f] = "BurrTools" + polyfit_alone(f, args.timeout)
                continue
            try:
                pf, wall, summary = run_polyfit(f, timeout=args.timeout)
            except TooLong:
                too_long[f] = "polyfit"
                continue
            entry = times[f]
            entry["setup"].append(run_setup(f))
            if args.before:
                old, _, old_summary = run_polyfit(f, args.before)
                entry["before"].append(old)
                entry["before count"] = old_summary["distinct"]
                entry["before setup"].append(run_setup(f, args.before))
            if "error" in summary:
                wrong.append(f"{f.name}: polyfit refuses it: {summary['error']}")
            elif bt_count != summary["distinct"]:
                wrong.append(f"{f.name}: BurrTools counts {bt_count}, polyfit {summary['distinct']}")
            entry["burrtools"].append(bt)
            entry["polyfit"].append(pf)
            entry["wall"].append(wall)
            entry["search"].append(summary["seconds"])
            entry["ratio"].append(pf / max(bt, 0.005))
            entry["count"] = bt_count
            entry["summary"] = summary
        print(f"round {round_number + 1} of {args.repeat} done", file=sys.stderr)
    for f in too_long:
        del times[f]
    if args.mirror:
        import polyfit

        for f in times:
            _, mirrored = run_burrtools(binary, f, "-m")
            # BurrTools turns a flat puzzle over in space, so for it a flat piece's mirror image
            # is a rotation: -m keeps no more, and polyfit (which reads the puzzle as a board in
            # the plane) counts it as distinct, not distinct_rotations
            flat = is_flat(polyfit.read_board(f, select="1"))
            name = "distinct" if flat else "distinct_rotations"
            if mirrored != times[f]["summary"][name]:
                wrong.append(f"{f.name}: BurrTools -m counts {mirrored}, polyfit's {name} is {times[f]['summary'][name]}")
            times[f]["mirrored"] = mirrored
    median = statistics.median

    def seconds(values, digits=2) -> str:
        known = [v for v in values if v is not None]
        return f"{median(known):.{digits}f} s" if len(known) == len(values) and known else "error"

    before = "| set-up before | polyfit before (count) " if args.before else ""
    print(f"| file | BurrTools count | polyfit distinct | BurrTools CPU {before}| polyfit set-up | polyfit CPU "
          "| polyfit wall | polyfit search | polyfit / BurrTools | target met |")
    print("|---" * (12 if args.before else 10) + "|")
    for f, entry in times.items():
        bt, pf, wall = median(entry["burrtools"]), median(entry["polyfit"]), median(entry["wall"])
        distinct = entry["summary"]["distinct"]
        shown = "error" if distinct is None else f"{distinct:,}"
        old = ""
        if args.before:
            count = entry["before count"]
            old = (f"| {seconds(entry['before setup'])} "
                   f"| {median(entry['before']):.2f} s ({'error' if count is None else f'{count:,}'}) ")
        print(f"| {f.stem} | {entry['count']:,} | {shown} | {bt:.2f} s {old}| {seconds(entry['setup'], 3)} "
              f"| {pf:.2f} s | {wall:.2f} s | {median(entry['search']):.3f} s | {median(entry['ratio']):.2f} "
              f"| {verdict(bt, pf, wall)} |")
    for f, which in too_long.items():
        print(f"over {args.timeout:g} s: {f.stem}: {which}")
    for line in dict.fromkeys(wrong):
        print(f"COUNTS DIFFER: {line}", file=sys.stderr)
    if wrong:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
