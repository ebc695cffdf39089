"""The engine's model, measured: what a search, a solution and a memo state cost, and how well
``auto`` chooses.

    python benchmarks/engine.py [--repeat 3] [--quick]

For each puzzle of a mixed set (no repeated pieces and repeated ones, few solutions and very
many), in this process, medians over ``--repeat`` runs of the CPU time:

- one serial search on each C backend (``bitset-c``, ``dlx-c``): seconds, nodes, solutions;
- the memo counter (``count-memo``) where pieces repeat: seconds and states expanded;
- ``Puzzle.count()`` with ``auto`` on one process, and what the engine chose.

Then the fit: nodes per second of each backend and seconds per solution by least squares over
the searches (``seconds = nodes / rate + solutions * per_solution``), and seconds per memo
state, to compare with the constants in ``polyfit/engine.py``. Last, the regret of ``auto``:
its time over the best of the ways measured, per puzzle (1.00 is a perfect choice).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run from a checkout: the polyfit of this tree

import polyfit  # noqa: E402
from polyfit import engine  # noqa: E402
from polyfit.puzzle.solve import Counts  # noqa: E402


def box(rows, columns, layers=1):
    layer = "\n".join(["#" * columns] * rows)
    return polyfit.Board.from_text("\n\n".join([layer] * layers) + "\n", dim=3 if layers > 1 else 2)


def puzzles(quick: bool):
    shapes = ROOT / "shapes"
    rows = [
        ("6x10 pentominoes", lambda: polyfit.load(shapes / "pentomino/6x10.txt")),
        ("3x20 pentominoes", lambda: polyfit.load(shapes / "pentomino/3x20.txt")),
        ("8x8 corners, pentominoes", lambda: polyfit.load(shapes / "pentomino/8x8-corners.txt")),
        ("Soma cube", lambda: polyfit.load(shapes / "soma/cube.vox")),
        ("6x6 dominoes", lambda: polyfit.Puzzle(box(6, 6), "18*domino")),
        ("4x15 right trominoes", lambda: polyfit.Puzzle(box(4, 15), "trominoes:L=20")),
        ("4x18 right trominoes", lambda: polyfit.Puzzle(box(4, 18), "trominoes:L=24")),
        ("4x10 tetrominoes L S O", lambda: polyfit.Puzzle(box(4, 10), "tetrominoes:L=0..10,tetrominoes:S=0..10,tetrominoes:O=0..10")),
    ]
    if not quick:
        rows += [
            ("5x12 pentominoes", lambda: polyfit.load(shapes / "pentomino/5x12.txt")),
            ("4x8 dominoes", lambda: polyfit.Puzzle(box(4, 8), "16*domino")),
            ("4x24 right trominoes", lambda: polyfit.Puzzle(box(4, 24), "trominoes:L=32")),
            ("solid six-piece burrs", lambda: polyfit.load(shapes / "burrs/solid-six-piece-burrs.vox")),
        ]
    return rows


def timed(function, repeat):
    times, result = [], None
    for _ in range(repeat):
        start = time.process_time()  # CPU time: steadier than the clock on a loaded machine
        result = function()
        times.append(time.process_time() - start)
    return statistics.median(times), result


def search(puzzle, backend):
    counts = Counts()
    for _ in puzzle.search(backend, counts):
        pass
    return counts


def memo_count(puzzle, backend):
    counts = Counts()
    puzzle.count_memo(backend, counts)
    return counts


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="leave out the puzzles that take seconds")
    args = parser.parse_args()
    registry = polyfit.registry()
    backends = {name: registry.backends[name] for name in ("bitset-c", "dlx-c")}
    memo = engine.usable_memo(registry.backends)
    searches, memos, rows = [], [], []
    print(f"{'puzzle':<26} {'way':<10} {'seconds':>8} {'nodes':>10} {'solutions':>10}")
    for name, make in puzzles(args.quick):
        puzzle = make()
        ways = {}
        for backend_name, backend in backends.items():
            seconds, counts = timed(lambda: search(puzzle, backend), args.repeat)
            searches.append((backend_name, counts.nodes, counts.search.solutions, seconds))
            ways[backend_name] = seconds
            print(f"{name:<26} {backend_name:<10} {seconds:8.3f} {counts.nodes:>10} {counts.search.solutions:>10}")
        if memo is not None and engine.repeats(puzzle) and not puzzle.cover.problem.has_colours:
            seconds, counts = timed(lambda: memo_count(puzzle, memo), args.repeat)
            memos.append((counts.nodes, seconds))
            ways["count-memo"] = seconds
            print(f"{name:<26} {'count-memo':<10} {seconds:8.3f} {counts.nodes:>10} {'-':>10}")
        plan = puzzle.plan("count", jobs=1)
        seconds, _ = timed(lambda: puzzle.run(count=True, jobs=1).finish(), args.repeat)
        print(f"{name:<26} {'auto':<10} {seconds:8.3f}   {plan.why}")
        rows.append((name, seconds, min(ways.values())))

    import numpy

    print("\nfit: seconds = nodes / rate + solutions * per_solution")
    per_solution = []
    for backend_name in backends:
        data = [(n, s, t) for b, n, s, t in searches if b == backend_name]
        a = numpy.array([[n, s] for n, s, _ in data], dtype=float)
        y = numpy.array([t for _, _, t in data])
        (per_node, per_sol), *_ = numpy.linalg.lstsq(a, y, rcond=None)
        per_solution.append(per_sol)
        print(f"  {backend_name:<10} {1 / per_node:12,.0f} nodes/s (model {engine.NODE_RATE[backend_name]:,.0f}), "
              f"{per_sol * 1e6:.1f} us per solution (model {engine.SOLUTION_SECONDS * 1e6:.1f})")
    if memos:
        per_state = statistics.median(t / n for n, t in memos if n)
        print(f"  count-memo {per_state * 1e6:.1f} us per state (model {engine.MEMO_STATE_SECONDS * 1e6:.1f})")
    print("\nregret of auto (its time over the best way measured):")
    for name, auto, best in rows:
        print(f"  {name:<26} {auto / best:6.2f}  ({auto:.3f} s against {best:.3f} s)")


if __name__ == "__main__":
    main()
