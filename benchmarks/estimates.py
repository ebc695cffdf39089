"""Does ``polyfit estimate`` hold with its default settings? Every board in shapes/, estimated
as ``polyfit estimate BOARD`` does (adaptive probes, seed 0, the auto backend), against the
real number of nodes of the search itself, run to the end on the same backend.

    python benchmarks/estimates.py [--only SUBSTRING] [--skip SUBSTRING]

Prints one line per board (estimate, real nodes, their ratio, probes, whether the range
converged or the search was run instead, seconds of each) and exits 1 if any estimate is off by
more than a factor of 2, as the README promises it is not. Boards whose search enumeration
cannot finish (the 10x10 dominoes: 258 billion tilings) are skipped and said so.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import polyfit
from polyfit.xc.estimate import estimate_search
from polyfit.xc.problem import SearchStats

ROOT = Path(__file__).resolve().parent.parent
TOO_LONG = {"dominoes/10x10.txt": "258,584,046,368 tilings: enumeration takes days (count-memo counts them)"}
FACTOR = 2.0


def boards():
    for path in sorted((ROOT / "shapes").rglob("*")):
        if path.suffix in (".txt", ".vox") and ".pieces." not in path.name:
            yield path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default="", help="only boards whose path contains this")
    parser.add_argument("--skip", default=None, help="leave out boards whose path contains this")
    args = parser.parse_args()
    worst, failed = 1.0, []
    print(f"{'board':36} {'estimate':>12} {'real':>12} {'ratio':>6} {'probes':>7}  how        est s  search s")
    for path in boards():
        name = str(path.relative_to(ROOT / "shapes"))
        if args.only not in name or (args.skip and args.skip in name):
            continue
        if name in TOO_LONG:
            print(f"{name:36} skipped: {TOO_LONG[name]}")
            continue
        puzzle = polyfit.load(path)
        problem = puzzle.cover.problem
        if puzzle.impossible is not None or not problem.options:
            print(f"{name:36} no search: {puzzle.impossible or 'no options'}")
            continue
        engine = polyfit.backend("auto", problem)
        start = time.perf_counter()
        found = estimate_search(problem, engine)
        estimated = time.perf_counter() - start
        stats = SearchStats()
        start = time.perf_counter()
        for _ in engine.solutions(problem, stats):
            pass
        searched = time.perf_counter() - start
        nodes = found.estimate.nodes
        if stats.nodes == 0 or nodes == 0:
            ratio = 1.0 if stats.nodes == nodes else float("inf")
        else:
            ratio = max(nodes / stats.nodes, stats.nodes / nodes)
        how = "searched" if found.exact else ("converged" if found.estimate.converged else "budget")
        print(f"{name:36} {nodes:12,.0f} {stats.nodes:12,} {ratio:6.2f} {found.estimate.probes:7,}  {how:9} {estimated:6.2f} {searched:9.2f}")
        worst = max(worst, ratio)
        if ratio > FACTOR:
            failed.append(name)
    print(f"\nworst ratio {worst:.2f}; off by more than {FACTOR:g}x: {', '.join(failed) or 'none'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
