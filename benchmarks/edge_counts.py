"""Count the polystick and polytwig boards of shapes/ and time each count.

    python benchmarks/edge_counts.py [--repeat 5] [BOARD ...]

For each board of ``shapes/polysticks`` and ``shapes/polytwigs`` (or those named): ``polyfit
solve BOARD --count --json`` as a new process, start-up included, ``--repeat`` times; prints the
counts next to the manifest's (Polyform Puzzler's published count) and the median wall seconds
with the spread, and the search nodes. Then the tetrasticks on the 5x5 grid once for each piece
left out (``--pieces`` the other 15), Goodger's split of his 1,795.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Child processes run here, never in the repository root, where ``python -m polyfit`` would put
# the source tree first on sys.path instead of the installed package.
OUTSIDE = Path(__file__).resolve().parent
TETRASTICKS = "FHIJLNOPRTUVWXYZ"


def timed_count(board: Path, repeat: int, pieces: str | None = None) -> tuple[dict, list[float]]:
    command = [sys.executable, "-m", "polyfit", "solve", str(board), "--count", "--json"]
    if pieces:
        command += ["--pieces", pieces]
    seconds, data = [], {}
    for _ in range(repeat):
        start = time.perf_counter()
        done = subprocess.run(command, cwd=OUTSIDE, capture_output=True, text=True, check=True)
        seconds.append(time.perf_counter() - start)
        data = json.loads(done.stdout)
    return data, seconds


def spread(seconds: list[float]) -> str:
    return f"{statistics.median(seconds):7.2f} s (min {min(seconds):.2f}, max {max(seconds):.2f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("boards", nargs="*", type=Path)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    boards = args.boards or sorted((ROOT / "shapes/polysticks").glob("*.txt")) + sorted(
        (ROOT / "shapes/polytwigs").glob("*.txt"))
    boards = [b.resolve() for b in boards if not b.name.endswith(".pieces.txt")]
    for board in boards:
        recorded = json.loads((board.parent / "manifest.json").read_text())["figures"].get(board.name, {})
        data, seconds = timed_count(board, args.repeat)
        print(f"{board.parent.name}/{board.name}: {data['distinct']} distinct (published "
              f"{recorded.get('published', '?')}), {data['total']} in all, {data['nodes']:,} nodes, "
              f"{spread(seconds)} over {args.repeat} runs")
    if args.boards:
        return
    board = ROOT / "shapes/polysticks/tetrasticks-5x5.txt"
    for left_out in "HJLNY":
        pieces = ",".join(f"tetrasticks:{name}" for name in TETRASTICKS if name != left_out)
        data, seconds = timed_count(board, args.repeat, pieces)
        print(f"tetrasticks 5x5 without {left_out}: {data['distinct']} distinct, {data['nodes']:,} nodes, "
              f"{spread(seconds)}")


if __name__ == "__main__":
    main()
