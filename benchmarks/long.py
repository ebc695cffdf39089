"""Long-search figures: how good the estimate is, and what a second core buys.

    python benchmarks/long.py [--repeat 3] [--probes 1000,10000]

1. Estimate accuracy: for each board, the real number of search nodes (one serial count on
   dlx-c, symmetry broken as polyfit solves) against the mean of Knuth's random probes, as a
   ratio estimate / real (the target: within a factor of 2).
2. Parallel speed-up: `polyfit solve BOARD --count` as a whole process with `--jobs 1` and
   `--jobs 2`, wall seconds, median of --repeat runs, and the ratio jobs-2 / jobs-1.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from polyfit.formats.textart import read_text_board, read_voxel_text
from polyfit.xc.estimate import estimate
from polyfit.formats.piece_specs import resolve_pieces
from polyfit.plugins import get_plugin_manager
from polyfit.registry import Registry
from polyfit.puzzle.solve import Puzzle

ROOT = Path(__file__).resolve().parent.parent
# Child processes run in this folder, never in the repository root: ``python -m polyfit`` puts
# its working directory first on sys.path, and there it would find the source tree (without
# its compiled backends) instead of the installed package.
OUTSIDE = Path(__file__).resolve().parent
BOARDS = [
    "shapes/pentomino/4x15.txt",
    "shapes/pentomino/5x12.txt",
    "shapes/pentomino/6x10.txt",
    "shapes/pentomino/8x8-centre-hole.txt",
    "shapes/pentomino/8x8-square-anywhere.txt",
    "shapes/soma/cube.vox",
    "shapes/bricks/cube5.vox",
    "shapes/pentacube/3x4x5.vox",
]
PARALLEL = [
    "shapes/pentomino/6x10.txt",
    "shapes/pentomino/8x8-square-anywhere.txt",
    "shapes/bricks/cube5.vox",
    "shapes/pentacube/3x4x5.vox",
]


def puzzle_of(path: Path, registry) -> Puzzle:
    board = read_voxel_text(path) if path.suffix == ".vox" else read_text_board(path)
    pieces = resolve_pieces(board.metadata["pieces"], registry.piece_set_builders(), path.parent)
    return Puzzle(board, pieces)


def wall(command) -> float:
    start = time.perf_counter()
    subprocess.run(command, check=True, capture_output=True, cwd=OUTSIDE)
    return time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--probes", default="1000,10000")
    args = parser.parse_args()
    probes = [int(p) for p in args.probes.split(",")]
    registry = Registry.from_plugins(get_plugin_manager())
    engine = registry.backends["dlx-c"]

    print("1. estimate / real search nodes (dlx-c, symmetry broken); mean of N probes\n")
    print(f"{'board':32} {'real nodes':>11}" + "".join(f" {f'{n} probes':>22}" for n in probes))
    for name in BOARDS:
        puzzle = puzzle_of(ROOT / name, registry)
        real = puzzle.count(engine).search.nodes
        cells = []
        for n in probes:
            guess = estimate(puzzle.cover.problem, n, seed=1)
            cells.append(f"{guess.nodes:>12,.0f} ({guess.nodes / real:4.2f}x)")
        print(f"{Path(name).stem:32} {real:>11,}" + "".join(f" {c:>22}" for c in cells))

    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    print(f"\n2. polyfit solve BOARD --count, whole process, wall seconds, median of {args.repeat} ({cores} cores)\n")
    print(f"{'board':32} {'--jobs 1':>9} {'--jobs 2':>9} {'ratio':>6}")
    for name in PARALLEL:
        times = {1: [], 2: []}
        for _ in range(args.repeat):
            for jobs in (1, 2):
                command = [sys.executable, "-m", "polyfit", "solve", str(ROOT / name), "--count", "--quiet", "--jobs", str(jobs)]
                times[jobs].append(wall(command))
        one, two = statistics.median(times[1]), statistics.median(times[2])
        print(f"{Path(name).stem:32} {one:9.3f} {two:9.3f} {two / one:6.2f}")


if __name__ == "__main__":
    main()
