"""polyfit's backends side by side with Knuth's dlx1 on the same exact cover problems.

    python benchmarks/knuth_compare.py --dlx1 PATH/TO/dlx1 [--repeat 5]

Build dlx1 yourself from Knuth's dlx1.w (ctangle dlx1.w && gcc -O3 -o dlx1 dlx1.c, with
gb_flip from the Stanford GraphBase); polyfit does not ship it. The problems are the full ones,
every placement and no symmetry breaking, as Knuth's generators write them: the pentomino
boxes (9356, 4040 and 1472 solutions), the Soma cube (11520), N-queens 12 and 13 (rows and
columns primary, diagonals secondary: 14200 and 73712) and a 9x9 Sudoku. Both sides count every
solution and both are timed in CPU seconds: dlx1 as a whole process (its parsing takes
milliseconds), polyfit's backends by the search's CPU time that `polyfit xc --json` reports
(Python start-up and parsing excluded), and also as whole processes.

The runs are interleaved -- each round runs dlx1 and then every backend once -- so a change in
the machine's load hits both sides of a ratio alike. Times are medians over the rounds; ratios
are medians of each round's own ratio to dlx1.
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

from polyfit.formats.textart import read_text_board, read_voxel_text
from polyfit.xc.dlxformat import format_dlx
from polyfit.xc.problem import ExactCoverProblem
from polyfit.puzzle.piece_sets import polyominoes, soma
from polyfit.puzzle.solve import Puzzle

ROOT = Path(__file__).resolve().parent.parent
# Child processes run in this folder, never in the repository root: ``python -m polyfit`` puts
# its working directory first on sys.path, and there it would find the source tree (without
# its compiled backends) instead of the installed package.
OUTSIDE = Path(__file__).resolve().parent
def full_problem(board, pieces):
    return Puzzle(board, pieces, prune=False, break_symmetry=False).cover.problem


def queens(n: int) -> ExactCoverProblem:
    """Rows and columns primary, both kinds of diagonal secondary (Knuth's formulation)."""
    primary = [f"r{i}" for i in range(n)] + [f"c{j}" for j in range(n)]
    secondary = [f"a{k}" for k in range(2 * n - 1)] + [f"b{k}" for k in range(2 * n - 1)]
    options = [(i, n + j, 2 * n + i + j, 2 * n + 2 * n - 1 + i - j + n - 1) for i in range(n) for j in range(n)]
    return ExactCoverProblem(primary, secondary, options)


# A 9x9 Sudoku with 21 givens (Arto Inkala's, published 2012 as the hardest for people).
SUDOKU = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."


def sudoku(givens: str) -> ExactCoverProblem:
    """Cells, row-digit, column-digit and box-digit items; one option per allowed placement."""
    names = [f"p{r}{c}" for r in range(9) for c in range(9)] + [
        f"{kind}{a}{d}" for kind in "rcb" for a in range(9) for d in range(1, 10)
    ]
    index = {name: k for k, name in enumerate(names)}
    options = []
    for r in range(9):
        for c in range(9):
            given = givens[9 * r + c]
            for d in range(1, 10):
                if given != "." and int(given) != d:
                    continue
                box = 3 * (r // 3) + c // 3
                options.append((index[f"p{r}{c}"], index[f"r{r}{d}"], index[f"c{c}{d}"], index[f"b{box}{d}"]))
    return ExactCoverProblem(names, [], options)


CASES = [
    ("6x10", lambda: full_problem(read_text_board(ROOT / "shapes/pentomino/6x10.txt"), polyominoes(5))),
    ("5x12", lambda: full_problem(read_text_board(ROOT / "shapes/pentomino/5x12.txt"), polyominoes(5))),
    ("4x15", lambda: full_problem(read_text_board(ROOT / "shapes/pentomino/4x15.txt"), polyominoes(5))),
    ("soma", lambda: full_problem(read_voxel_text(ROOT / "shapes/soma/cube.vox"), soma())),
    ("queens12", lambda: queens(12)),
    ("queens13", lambda: queens(13)),
    ("sudoku", lambda: sudoku(SUDOKU)),
]


def child_cpu(command, stdin=None):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    result = subprocess.run(command, stdin=stdin, capture_output=True, text=True, check=True, cwd=OUTSIDE)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, result


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dlx1", required=True, help="path to a dlx1 binary")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--backends", default="dlx-c,bitset-c,bitset-python")
    parser.add_argument("--only", default=None, help="comma-separated problem names")
    args = parser.parse_args()
    backends = args.backends.split(",")
    print(f"{args.repeat} interleaved rounds; median CPU seconds (median ratio to dlx1)\n")
    print(f"{'problem':8} {'options':>7} {'solutions':>9} {'dlx1 cpu':>9}" + "".join(
        f" {b + ' search':>21} {b + ' process':>22}" for b in backends))
    with tempfile.TemporaryDirectory() as tmp:
        for name, make in CASES:
            if args.only and name not in args.only.split(","):
                continue
            problem = make()
            path = Path(tmp) / f"{name}.dlx"
            path.write_text(format_dlx(problem))
            knuth = []
            search = {b: [] for b in backends}
            process = {b: [] for b in backends}
            for _ in range(args.repeat):
                with open(path) as f:
                    cpu, result = child_cpu([args.dlx1], stdin=f)
                knuth.append(cpu)
                solutions = result.stderr.split("Altogether ")[1].split(" ")[0]
                for backend in backends:
                    cpu, result = child_cpu([sys.executable, "-m", "polyfit", "xc", str(path), "--count",
                                             "--json", "--backend", backend])
                    data = json.loads(result.stdout)
                    assert str(data["total"]) == solutions, (name, backend, data["total"], solutions)
                    search[backend].append(data["cpu_seconds"])
                    process[backend].append(cpu)
            base = statistics.median(knuth)
            line = f"{name:8} {len(problem.options):>7} {solutions:>9} {base:>9.3f}"
            for backend in backends:
                line += f" {column(search[backend], knuth)}    {column(process[backend], knuth)}"
            print(line, flush=True)


def column(times, knuth):
    """Median time and the median of the per-round ratios to dlx1."""
    ratio = statistics.median(t / k for t, k in zip(times, knuth))
    return f"{statistics.median(times):>9.3f} ({ratio:>5.2f}x)"


if __name__ == "__main__":
    main()
