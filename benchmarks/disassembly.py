"""BurrTools 0.7.1 against polyfit on disassembly: whole processes, CPU seconds, interleaved.

For each puzzle, ``burrTxt2 -R -d FILE`` (assemble, take every assembly apart, keep those that
come apart) and ``polyfit solve FILE --count --disassemble --jobs 1`` run in turn, ``--rounds``
times; each side's CPU time (user + system, children included) is measured by the kernel
(``wait4``) and the medians are printed with their ratio, with polyfit's wall time. The two
must agree on the counts (assemblies and solutions), or the row says so.

    bash ../shared/burrtools/build.sh          # BurrTools, once
    python benchmarks/disassembly.py [FILE ...] [--rounds 5]

The issue's target: wherever BurrTools needs 0.3 s of CPU or more, polyfit needs no more;
elsewhere polyfit answers within 0.5 s of wall time.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATA = HERE.parent / "tests" / "data" / "disassembly"
# family-80 (benchmarks/data, made by disassembly_puzzles.py --family): 12,182 assemblies, as
# designers' piece families have; too slow for the tests. ranges-6 and family-12
# (tests/data/mirror) and the cubes (benchmarks/data, disassembly_puzzles.py --cubes): many
# small assemblies, nearly all of level 1, where the work per assembly is what counts;
# prism-tri-36 (benchmarks/data, prism_puzzles.py --benchmark) the same on triangular prisms.
DEFAULT = ["SolidSixPieceBurrs", "lid-4", "lid-3", "box-4", "burr-5", "group-6", "family-80",
           "ranges-6", "family-12", "cube-soma", "cube-tri", "cube-tetra", "cube-tri-235", "prism-tri-36"]
LARGE = HERE / "data"
MIRROR = HERE.parent / "tests" / "data" / "mirror"
BURRTXT2 = Path(os.environ.get("TMPDIR", "/tmp")) / "burrtools" / "burrTxt2"

from burrtools_levels import burrtxt2_run  # noqa: E402  (beside this file)


def timed(args, stdin=None, cwd=HERE):
    """Run a command; its CPU seconds (user + system), wall seconds, output and peak memory (KB)."""
    start = time.perf_counter()
    process = subprocess.Popen(args, stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=cwd)
    out = process.stdout.read()
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        sys.exit(f"{' '.join(map(str, args))} failed ({process.returncode})")
    return usage.ru_utime + usage.ru_stime, time.perf_counter() - start, out.decode(), usage.ru_maxrss


def burrtools(path: Path):
    text, cpu = burrtxt2_run(path, "-d")
    counts = tuple(int(re.search(f'{k}="([0-9]+)"', text).group(1)) for k in ("assemblies", "solutions"))
    return cpu, counts


def polyfit(path: Path):
    cpu, wall, out, rss = timed([sys.executable, "-m", "polyfit", "solve", str(path), "--count", "--disassemble",
                                 "--jobs", "1", "--json"])
    data = json.loads(out)
    return cpu, wall, (data["assemblies"], data["disassemblable"]), rss


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    if not BURRTXT2.exists():
        sys.exit(f"BurrTools is not built at {BURRTXT2}: run bash ../shared/burrtools/build.sh")
    files = args.files or [next(d for d in (DATA, MIRROR, LARGE) if (d / f"{name}.xmpuzzle").exists())
                           / f"{name}.xmpuzzle" for name in DEFAULT]
    print(f"{'puzzle':24} {'BurrTools CPU':>13} {'polyfit CPU':>11} {'ratio':>6} {'polyfit wall':>12} {'polyfit MB':>10}  counts")
    for path in files:
        bt, pf, pf_wall, pf_rss = [], [], [], []
        for _ in range(args.rounds):
            cpu, bt_counts = burrtools(path)
            bt.append(cpu)
            cpu, wall, pf_counts, rss = polyfit(path)
            pf.append(cpu)
            pf_wall.append(wall)
            pf_rss.append(rss / 1024)
        b, p, w = statistics.median(bt), statistics.median(pf), statistics.median(pf_wall)
        same = "equal" if bt_counts == pf_counts else f"DIFFER: BurrTools {bt_counts}, polyfit {pf_counts}"
        print(f"{path.stem:24} {b:13.3f} {p:11.3f} {p / b:6.2f} {w:12.3f} {max(pf_rss):10.0f}  "
              f"{bt_counts[0]}/{bt_counts[1]} {same}", flush=True)


if __name__ == "__main__":
    main()
