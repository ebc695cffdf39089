"""polyfit against BurrTools on BurrTools' own files, side by side in one run.

    python benchmarks/burrtools.py [--burrtools PATH/TO/burrTxt2] [--repeat 5] [FILE.xmpuzzle ...]

BurrTools (Andreas Röver and others, GPL-2) is the solver most puzzle designers use. Its
command-line solver burrTxt2 is not shipped with polyfit: give its path, or let this script
build it with ``../shared/burrtools/build.sh`` beside the project when that exists. The files
default to ``../shared/burrtools/puz/*.xmpuzzle`` (the 6x10 pentominoes, the Soma cube, the
Bedlam cube and SolidSixPieceBurrs), else polyfit's own ``shapes/burrtools/``.

Both programs read the same ``.xmpuzzle`` file and count its first problem, as whole
processes, timed in CPU seconds (user + system, from the operating system's accounting of
the child): ``burrTxt2 -R -c`` (its placement reduction on, count only, no disassembly) and
``polyfit solve FILE --count --jobs 1``. BurrTools' count is polyfit's ``distinct``. Each round
runs both on every file, so a change in the machine's load hits both sides of a ratio alike.
Times are medians over the rounds; ratios (polyfit / BurrTools) are medians of each round's
own ratio. polyfit's wall time is reported too (start-up included).
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
SHARED = ROOT.parent / "shared" / "burrtools"
# Child processes run here, never in the repository root, where ``python -m polyfit`` would find
# the source tree (without its compiled backends) instead of the installed package.
OUTSIDE = Path(__file__).resolve().parent


def child_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_burrtools(binary: Path, puzzle: Path) -> tuple[float, int]:
    """CPU seconds and assemblies of ``burrTxt2 -R -c``. It polls its standard input and stops
    at end of file, so the input is a pipe held open until it is done; it writes the count into
    FILE.xmpuzzlettt beside a copy of the file."""
    with tempfile.TemporaryDirectory() as folder:
        copy = Path(folder) / "p.xmpuzzle"
        shutil.copy(puzzle, copy)
        before = child_cpu()
        process = subprocess.Popen([str(binary), "-R", "-c", str(copy)], stdin=subprocess.PIPE,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=folder)
        try:
            process.wait(timeout=1800)
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


def run_polyfit(puzzle: Path) -> tuple[float, float, int]:
    """CPU seconds, wall seconds and the distinct count of ``polyfit solve --count --jobs 1``."""
    before, start = child_cpu(), time.perf_counter()
    result = subprocess.run([sys.executable, "-m", "polyfit", "solve", str(puzzle), "--count", "--jobs", "1",
                             "--json"], capture_output=True, text=True, cwd=OUTSIDE, timeout=1800)
    wall, seconds = time.perf_counter() - start, child_cpu() - before
    if result.returncode != 0:
        raise SystemExit(f"polyfit failed on {puzzle}: {result.stderr.strip()}")
    return seconds, wall, json.loads(result.stdout)["distinct"]


def find_burrtools(given: str | None) -> Path:
    if given:
        return Path(given)
    build = SHARED / "build.sh"
    if not build.exists():
        raise SystemExit("give --burrtools PATH/TO/burrTxt2 (no ../shared/burrtools/build.sh to build it)")
    built = subprocess.run(["bash", str(build)], capture_output=True, text=True, check=True, cwd=OUTSIDE)
    return Path(built.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--burrtools", help="path to burrTxt2 (default: build it with ../shared/burrtools/build.sh)")
    parser.add_argument("--repeat", type=int, default=5, help="rounds (default 5)")
    args = parser.parse_args()
    files = args.files or sorted((SHARED / "puz").glob("*.xmpuzzle")) or sorted((ROOT / "shapes/burrtools").glob("*.xmpuzzle"))
    binary = find_burrtools(args.burrtools)
    times = {f: {"burrtools": [], "polyfit": [], "wall": [], "ratio": []} for f in files}
    for round_number in range(args.repeat):
        for f in files:
            bt, bt_count = run_burrtools(binary, f)
            pf, wall, pf_count = run_polyfit(f)
            if bt_count != pf_count:
                raise SystemExit(f"{f.name}: BurrTools counts {bt_count}, polyfit {pf_count}")
            entry = times[f]
            entry["burrtools"].append(bt)
            entry["polyfit"].append(pf)
            entry["wall"].append(wall)
            entry["ratio"].append(pf / max(bt, 0.005))
            entry["count"] = pf_count
        print(f"round {round_number + 1} of {args.repeat} done", file=sys.stderr)
    print(f"| puzzle | distinct | BurrTools CPU | polyfit CPU | polyfit wall | polyfit / BurrTools |")
    print("|---|---|---|---|---|---|")
    for f, entry in times.items():
        median = statistics.median
        print(f"| {f.stem} | {entry['count']} | {median(entry['burrtools']):.2f} s | {median(entry['polyfit']):.2f} s "
              f"| {median(entry['wall']):.2f} s | {median(entry['ratio']):.2f} |")


if __name__ == "__main__":
    main()
