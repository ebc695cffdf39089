"""A calendar's targets in one run, against one run per target; a family's atlas against its
count: CPU seconds, interleaved.

Three ways to count every target of a calendar board (default: A-Puzzle-A-Day, 372 targets):

- ``atlas``: ``polyfit.atlas(board, jobs=1)``, one run with a hole piece per group of targets
  (what ``polyfit atlas`` does);
- ``optional``: one run with the target cells optional (``+`` as ``polyfit solve`` reads it),
  every solution grouped by the cells it leaves uncovered, non-targets dropped;
- ``per target``: one ``Puzzle.count(jobs=1)`` per target, its cells removed from the board.

Each runs in this process, ``--rounds`` times in turn; the CPU time of each (``process_time``)
is measured and the medians printed with their ratios. The three must agree on every target.

A piece family (``--family``, default SolidSix: 25 pieces, each 0 to 6 times) two ways, both
taking every assembly apart in this process: ``atlas``, ``polyfit.atlas(puzzle,
disassemble=True, jobs=1)``, against ``count``, ``Puzzle.count(disassemble=True, jobs=1)`` (the
same run and disassembly, not grouped): what the grouping by piece set costs. Their totals must
agree.

    python benchmarks/atlas.py [BOARD] [--rounds 3]
    python benchmarks/atlas.py --family [FILE] [--rounds 3]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter
from pathlib import Path

import polyfit

ROOT = Path(__file__).resolve().parent.parent


def by_atlas(board) -> dict:
    return {t.cells: t.solutions for t in polyfit.atlas(board, jobs=1).targets}


def by_optional_cells(board) -> dict:
    from polyfit.atlases import targets_of

    targets = targets_of(board)
    puzzle = polyfit.Puzzle(board)
    optional = board.optional
    left = Counter()
    for solution in puzzle.run(all=True, jobs=1):
        covered = {c for cells in solution.placements.values() for c in cells}
        left[frozenset(optional - covered)] += 1
    found = {target: 0 for target in targets.every()}
    for cells, n in left.items():
        target = targets.target(cells)
        if target is not None:
            found[target] += n
    return found


def by_target(board) -> dict:
    from polyfit.atlases import targets_of

    pieces = polyfit.board_pieces(board)
    found = {}
    for target in targets_of(board).every():
        rest = polyfit.Board(tuple(c for c in board.cells if c not in target), lattice=board.lattice)
        found[target] = polyfit.Puzzle(rest, pieces).count(jobs=1).total
    return found


WAYS = {"atlas": by_atlas, "optional": by_optional_cells, "per target": by_target}


def family_by_atlas(puzzle) -> tuple:
    found = polyfit.atlas(puzzle, disassemble=True, jobs=1)
    return (found.assemblies, found.assemblies_rotations, found.total.disassemblable,
            found.total.disassemblable_rotations, tuple(found.total.sorted_levels().items()))


def family_by_count(puzzle) -> tuple:
    counts = puzzle.count(disassemble=True, jobs=1)
    tally = counts.disassembly
    return (counts.distinct, counts.distinct_rotations, tally.disassemblable, tally.disassemblable_rotations,
            tuple(tally.sorted_levels().items()))


FAMILY_WAYS = {"atlas": family_by_atlas, "count": family_by_count}


def measure(ways: dict, subject, rounds: int) -> tuple[dict, dict]:
    """Each way ``rounds`` times, in turn: CPU seconds and the last answer of each."""
    seconds = {name: [] for name in ways}
    answers = {}
    for _ in range(rounds):
        for name, way in ways.items():
            start = time.process_time()
            answers[name] = way(subject)
            seconds[name].append(time.process_time() - start)
    return seconds, answers


def print_times(seconds: dict) -> None:
    base = statistics.median(seconds["atlas"])
    for name, times in seconds.items():
        median = statistics.median(times)
        print(f"{name:<11} {median:7.2f} s CPU (median of {len(times)})  {median / base:5.1f}x the atlas")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("board", nargs="?", type=Path)
    parser.add_argument("--family", action="store_true", help="a piece family (default: SolidSix), not a calendar")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    if args.family:
        puzzle = polyfit.load(args.board or ROOT / "shapes" / "burrtools" / "SolidSixPieceBurrs.xmpuzzle")
        seconds, answers = measure(FAMILY_WAYS, puzzle, args.rounds)
        found = answers["atlas"]
        print(f"{puzzle.board.label}: {found[0]} assemblies ({found[1]} up to rotation alone), {found[2]} come apart "
              f"({found[3]}), levels {dict(found[4])}; atlas and count {'agree' if len(set(answers.values())) == 1 else 'DISAGREE'}")
        print_times(seconds)
        return
    board = polyfit.read_board(args.board or ROOT / "shapes" / "calendar" / "a-puzzle-a-day.txt")
    seconds, answers = measure(WAYS, board, args.rounds)
    agree = len({tuple(sorted(a.items())) for a in answers.values()}) == 1
    targets = len(answers["atlas"])
    print(f"{board.label}: {targets} targets, {sum(answers['atlas'].values()):,} solutions; "
          f"the three ways {'agree' if agree else 'DISAGREE'} on every target")
    print_times(seconds)


if __name__ == "__main__":
    main()
