"""polyfit's C backends against exact cover solvers from PyPI, on the same problems.

    pip install '.[bench]' && python benchmarks/peers.py [--repeat 5]

The problems are the full ones (every placement, no symmetry breaking): the pentomino boxes
and the Soma cube. Each solver counts every solution; seconds are medians of --repeat runs of
the solve alone in CPU seconds (building each solver's input is not timed), the rounds
interleaved (each runs every solver once), and ratios are medians of each round's ratio to
polyfit's dlx-c. Peers that are not installed are skipped: pyxcc (Rust) and xcover (numba; its JIT
compilation is timed apart, on a tiny problem) from the ``bench`` extra, and miniexact (C)
when ``pip install ./plugins/polyfit-miniexact`` made it a backend.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from polyfit.formats.textart import read_text_board, read_voxel_text
from polyfit.xc.problem import SearchStats
from polyfit.puzzle.piece_sets import polyominoes, soma
from polyfit.plugins import get_plugin_manager
from polyfit.registry import Registry
from polyfit.puzzle.solve import Puzzle

ROOT = Path(__file__).resolve().parent.parent


def problems():
    yield "6x10", read_text_board(ROOT / "shapes/pentomino/6x10.txt"), polyominoes(5)
    yield "5x12", read_text_board(ROOT / "shapes/pentomino/5x12.txt"), polyominoes(5)
    yield "4x15", read_text_board(ROOT / "shapes/pentomino/4x15.txt"), polyominoes(5)
    yield "soma", read_voxel_text(ROOT / "shapes/soma/cube.vox"), soma()


def polyfit_counter(backend):
    def count(problem):
        return sum(1 for _ in backend.solutions(problem, SearchStats()))

    return count


def pyxcc_counter():
    import pyxcc

    def count(problem):
        names = problem.items
        n1 = len(problem.primary)
        options = [
            pyxcc.Option(f"o{k}", [names[i] for i in o if i < n1], [names[i] for i in o if i >= n1])
            for k, o in enumerate(problem.options)
        ]
        solver_input = pyxcc.Problem(list(problem.primary), list(problem.secondary), options)
        return solver_input, lambda: pyxcc.solve(solver_input, True).count()

    return count


def xcover_counter():
    import xcover

    list(xcover.covers([[0, 1], [0], [1]]))  # compile before timing

    def count(problem):
        options = [list(o) for o in problem.options]
        primary = list(range(len(problem.primary)))
        secondary = list(range(len(problem.primary), len(problem.items)))
        return options, lambda: sum(1 for _ in xcover.covers(options, primary=primary, secondary=secondary or None))

    return count


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    registry = Registry.from_plugins(get_plugin_manager())
    solvers = {}
    for name in ("dlx-c", "bitset-c", "miniexact"):
        backend = registry.backends.get(name)
        if backend is not None and backend.unavailable_reason() is None:
            counter = polyfit_counter(backend)
            solvers[name] = lambda problem, counter=counter: (None, lambda: counter(problem))
    for name, make in (("pyxcc", pyxcc_counter), ("xcover", xcover_counter)):
        try:
            start = time.perf_counter()
            solvers[name] = make()
            if name == "xcover":
                print(f"xcover: numba compilation took {time.perf_counter() - start:.2f} s (not counted below)")
        except ImportError:
            print(f"{name}: not installed, skipped")
    names = list(solvers)
    print(f"{args.repeat} interleaved rounds; median CPU seconds to count every solution "
          "(median ratio to dlx-c)\n")
    print(f"{'problem':8} {'solutions':>9}" + "".join(f" {n:>18}" for n in names))
    for label, board, pieces in problems():
        problem = Puzzle(board, pieces, prune=False, break_symmetry=False).cover.problem
        runs = {name: prepare(problem)[1] for name, prepare in solvers.items()}
        times, counts = {name: [] for name in names}, {}
        for _ in range(args.repeat):  # each round runs every solver once: load drifts hit all alike
            for name, run in runs.items():
                start = time.process_time()
                counts[name] = run()
                times[name].append(time.process_time() - start)
        assert len(set(counts.values())) == 1, counts
        base = times["dlx-c"]
        cells = []
        for name in names:
            ratio = statistics.median(t / b for t, b in zip(times[name], base))
            cells.append(f" {statistics.median(times[name]):>9.3f} ({ratio:>4.2f})")
        print(f"{label:8} {counts['dlx-c']:>9}" + "".join(cells), flush=True)


if __name__ == "__main__":
    main()
