"""polyfit's backends side by side with Knuth's dlx1 on the same exact cover problems.

    python benchmarks/knuth_compare.py --dlx1 PATH/TO/dlx1 [--repeat 5]

Build dlx1 yourself from Knuth's dlx1.w (ctangle dlx1.w && gcc -O3 -o dlx1 dlx1.c, with
gb_flip from the Stanford GraphBase); polyfit does not ship it. The problems are the full ones,
every placement and no symmetry breaking, as Knuth's generators write them: the pentomino
boxes (9356, 4040 and 1472 solutions) and the Soma cube (11520). Both sides count every
solution; dlx1 is timed as a whole process (CPU seconds of the child), polyfit's backends by
the search time `polyfit xc --json` reports (parsing and start-up excluded), and also as whole
processes. Medians of --repeat runs; ratios are to dlx1.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from polyfit.board import read_text_board, read_voxel_text
from polyfit.dlxformat import format_dlx
from polyfit.piece_sets import polyominoes, soma
from polyfit.solve import Puzzle

ROOT = Path(__file__).resolve().parent.parent
CASES = [
    ("6x10", lambda: (read_text_board(ROOT / "shapes/pentomino/6x10.txt"), polyominoes(5))),
    ("5x12", lambda: (read_text_board(ROOT / "shapes/pentomino/5x12.txt"), polyominoes(5))),
    ("4x15", lambda: (read_text_board(ROOT / "shapes/pentomino/4x15.txt"), polyominoes(5))),
    ("soma", lambda: (read_voxel_text(ROOT / "shapes/soma/cube.vox"), soma())),
]


def child_cpu(command, stdin=None):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    result = subprocess.run(command, stdin=stdin, capture_output=True, text=True, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, result


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dlx1", required=True, help="path to a dlx1 binary")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--backends", default="dlx-c,bitset-c,bitset-python")
    args = parser.parse_args()
    backends = args.backends.split(",")
    print(f"median of {args.repeat} runs; seconds; ratio = polyfit / dlx1\n")
    print(f"{'problem':8} {'options':>7} {'solutions':>9} {'dlx1 cpu':>9}" + "".join(
        f" {b + ' search':>21} {b + ' process':>22}" for b in backends))
    with tempfile.TemporaryDirectory() as tmp:
        for name, make in CASES:
            board, pieces = make()
            problem = Puzzle(board, pieces, prune=False, break_symmetry=False).cover.problem
            path = Path(tmp) / f"{name}.dlx"
            path.write_text(format_dlx(problem))
            knuth = []
            for _ in range(args.repeat):
                with open(path) as f:
                    cpu, result = child_cpu([args.dlx1], stdin=f)
                knuth.append(cpu)
            solutions = result.stderr.split("Altogether ")[1].split(" ")[0]
            base = statistics.median(knuth)
            line = f"{name:8} {len(problem.options):>7} {solutions:>9} {base:>9.3f}"
            for backend in backends:
                search, process = [], []
                for _ in range(args.repeat):
                    cpu, result = child_cpu([sys.executable, "-m", "polyfit", "xc", str(path), "--count",
                                             "--json", "--backend", backend])
                    data = json.loads(result.stdout)
                    assert str(data["total"]) == solutions, (name, backend, data["total"], solutions)
                    search.append(data["seconds"])
                    process.append(cpu)
                s, p = statistics.median(search), statistics.median(process)
                line += f" {s:>9.3f} ({s / base:>5.2f}x)    {p:>9.3f} ({p / base:>5.2f}x)"
            print(line, flush=True)


if __name__ == "__main__":
    main()
