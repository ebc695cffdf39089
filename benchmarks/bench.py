"""Time polyfit on the standard boards and print medians and ratios between backends.

    python benchmarks/bench.py [--repeat 5] [--python-limit 30]

For each board (pentomino rectangles, Scott's 8x8, the Soma cube): placement generation (with
pruning and symmetry breaking), then every available backend on the same exact cover problem,
symmetry-broken as polyfit solves it: median seconds of --repeat runs to enumerate all its
solutions, nodes, and each backend's time as a ratio to dlx-c. Backends from installed plugins
(e.g. polyfit-miniexact) are timed too. The pure-Python backend runs only where one run takes
under --python-limit seconds. Then N-queens 10-12 through ``polyfit xc`` (rows and
columns primary, diagonals secondary), and the end-to-end wall time of
``polyfit solve shapes/pentomino/6x10.txt --count`` as a new process, start-up included, and
the memory of the largest shipped problem (its dancing-links arrays, and the peak of counting
it as a new process on each C backend).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from polyfit.formats.textart import read_text_board, read_voxel_text
from polyfit.dlx import build_layout
from polyfit.xc.problem import SearchStats
from polyfit.formats.piece_specs import resolve_pieces
from polyfit.plugins import get_plugin_manager
from polyfit.registry import Registry
from polyfit.puzzle.solve import Puzzle

ROOT = Path(__file__).resolve().parent.parent
# Child processes run in this folder, never in the repository root: ``python -m polyfit`` puts
# its working directory first on sys.path, and there it would find the source tree (without
# its compiled backends) instead of the installed package this benchmark is meant to time.
OUTSIDE = Path(__file__).resolve().parent
BOARDS = [
    ("pentomino", "3x20.txt"),
    ("pentomino", "4x15.txt"),
    ("pentomino", "5x12.txt"),
    ("pentomino", "6x10.txt"),
    ("pentomino", "8x8-centre-hole.txt"),
    ("soma", "cube.vox"),
]


def enumerate_all(backend, problem):
    stats = SearchStats()
    for _ in backend.solutions(problem, stats):
        pass
    return stats


def median_time(function, repeat):
    times, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = function()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def queens_dlx(n: int) -> str:
    lines = [" ".join([f"r{i}" for i in range(n)] + [f"c{i}" for i in range(n)]) + " | "
             + " ".join([f"a{i}" for i in range(2 * n - 1)] + [f"b{i}" for i in range(2 * n - 1)])]
    for r in range(n):
        for c in range(n):
            lines.append(f"r{r} c{c} a{r + c} b{r - c + n - 1}")
    return "\n".join(lines) + "\n"


def polyfit_command(*args):
    return [sys.executable, "-m", "polyfit", *args]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--python-limit", type=float, default=30.0)
    args = parser.parse_args()

    registry = Registry.from_plugins(get_plugin_manager())
    # The memoizing counters walk solutions only to print them: benchmarks/memo.py times them.
    backends = [b for b in registry.backends.values() if b.unavailable_reason() is None and not getattr(b, "memoizes", False)]
    names = [b.name for b in backends]
    print(f"python {sys.version.split()[0]}; backends: {', '.join(names)}; median of {args.repeat} runs\n")

    header = f"{'board':22} {'distinct':>8} {'total':>6} {'placements s':>12} {'nodes':>9}"
    header += "".join(f" {n + ' s':>12}" for n in names)
    header += "".join(f" {n + '/dlx-c':>19}" for n in names if n != "dlx-c")
    print(header)
    for folder, file in BOARDS:
        path = ROOT / "shapes" / folder / file
        board = read_text_board(path) if file.endswith(".txt") else read_voxel_text(path)
        pieces = registry.piece_sets[board.metadata["pieces"]].pieces()
        prep, puzzle = median_time(lambda: Puzzle(board, pieces), args.repeat)
        counts = puzzle.count(registry.backend("auto", puzzle.cover.problem))
        problem = puzzle.cover.problem
        row, nodes = {}, 0
        for backend in backends:
            repeat = args.repeat
            if backend.name == "dlx-python":
                once, _ = median_time(lambda: enumerate_all(backend, problem), 1)
                if once > args.python_limit:
                    row[backend.name] = None
                    continue
                repeat = max(1, min(args.repeat, int(args.python_limit * 3 // max(once, 1e-3))))
            seconds, stats = median_time(lambda: enumerate_all(backend, problem), repeat)
            row[backend.name] = seconds
            nodes = max(nodes, stats.nodes)
        line = f"{board.label[:22]:22} {counts.distinct:>8} {counts.total:>6} {prep:>12.3f} {nodes:>9}"
        line += "".join(f" {row[n]:>12.3f}" if row[n] is not None else f" {'skipped':>12}" for n in names)
        for n in names:
            if n != "dlx-c":
                ratio = row[n] / row["dlx-c"] if row[n] is not None and row.get("dlx-c") else None
                line += f" {ratio:>19.2f}" if ratio is not None else f" {'-':>19}"
        print(line, flush=True)

    print(f"\n{'N-queens (polyfit xc)':22} {'solutions':>9} {'nodes':>10}" + "".join(f" {n + ' s':>12}" for n in names))
    with tempfile.TemporaryDirectory() as tmp:
        for n in (10, 11, 12):
            path = Path(tmp) / f"queens{n}.dlx"
            path.write_text(queens_dlx(n))
            line, data = f"{n:<22}", None
            cells = []
            for backend in names:
                if backend == "dlx-python" and n > 11:
                    cells.append(f" {'skipped':>12}")
                    continue
                runs = []
                for _ in range(args.repeat if backend != "dlx-python" else 1):
                    out = subprocess.run(polyfit_command("xc", str(path), "--count", "--json", "--backend", backend),
                                         capture_output=True, text=True, check=True, cwd=OUTSIDE)
                    data = json.loads(out.stdout)
                    runs.append(data["seconds"])
                cells.append(f" {statistics.median(runs):>12.3f}")
            print(f"{line} {data['total']:>9} {data['nodes']:>10}" + "".join(cells), flush=True)

    runs = []
    for _ in range(args.repeat):
        start = time.perf_counter()
        subprocess.run(polyfit_command("solve", str(ROOT / "shapes/pentomino/6x10.txt"), "--count"),
                       capture_output=True, check=True, cwd=OUTSIDE)
        runs.append(time.perf_counter() - start)
    print(f"\nend to end: polyfit solve shapes/pentomino/6x10.txt --count: "
          f"median {statistics.median(runs):.3f} s wall (min {min(runs):.3f}, max {max(runs):.3f})")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # kilobytes on Linux
    print(f"peak memory of this benchmark process (every board, every backend): {peak / 1024:.0f} MiB")
    largest_problem_memory(names)


def peak_mib(command):
    """Peak resident memory of one child process, in MiB (Linux reports kilobytes)."""
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=OUTSIDE)
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        raise subprocess.CalledProcessError(child.returncode, command)
    return usage.ru_maxrss / 1024


def largest_problem_memory(names):
    """The largest shipped problem, the 3x4x5 box of flat pentacubes (2,440 options): the size of
    its dancing-links arrays, and the peak memory of counting it as a new process on each C
    backend (and of the interpreter with polyfit loaded, for scale)."""
    path = ROOT / "shapes/pentacube/3x4x5.vox"
    board = read_voxel_text(path)
    registry = Registry.from_plugins(get_plugin_manager())
    pieces = resolve_pieces(board.metadata["pieces"], registry.piece_set_builders(), path.parent)
    layout = build_layout(Puzzle(board, pieces).cover.problem)
    arrays = (layout.llink, layout.rlink, layout.top, layout.ulink, layout.dlink, layout.spacer_option)
    size = sum(a.itemsize * len(a) for a in arrays)
    print(f"\nlargest shipped problem, {path.relative_to(ROOT)}: {len(layout.top):,} dancing-links nodes "
          f"in 32-bit integers, {size / 1024:.0f} KiB of arrays")
    baseline = peak_mib(polyfit_command("--version"))
    for backend in (n for n in ("dlx-c", "bitset-c") if n in names):
        peak = peak_mib(polyfit_command("solve", str(path), "--count", "--jobs", "1", "--quiet", "--backend", backend))
        print(f"  peak memory counting it on {backend}: {peak:.0f} MiB (polyfit --version: {baseline:.0f} MiB)")


if __name__ == "__main__":
    main()
