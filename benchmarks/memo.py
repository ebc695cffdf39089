"""The memoizing counter against plain enumeration, side by side in one run.

    python benchmarks/memo.py [--enumerate-limit 120] [--quick]

Each count runs as a new process (``polyfit solve BOARD --count --json --backend NAME --jobs 1``,
one core), timed from start to exit with its peak memory (max RSS). ``count-memo`` runs on every
board; enumeration by ``dlx-c`` and ``bitset-c`` where it is expected to finish within
``--enumerate-limit`` seconds; the others show ``-``. Every count is checked against the known value (OEIS A004003 for the domino squares,
A046984 for the right-tromino rectangles) or, without one, against the other backends. Then
``--sample 100`` on the 10x10 dominoes (258,584,046,368 tilings).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUTSIDE = Path(__file__).resolve().parent  # children run here, never in the source tree


def rectangle(rows, columns, pieces, name):
    text = f"; name: {name}\n; pieces: {pieces}\n" + "\n".join(["#" * columns] * rows) + "\n"
    path = Path(tempfile.gettempdir()) / f"polyfit-memo-{rows}x{columns}-{abs(hash(pieces))}.txt"
    path.write_text(text)
    return path


# (board, known total or None, which enumerations to try)
def boards(quick: bool):
    domino = lambda n: rectangle(n, n, f"{n * n // 2}*domino", f"{n}x{n} dominoes")  # noqa: E731
    trominoes = lambda n: rectangle(4, 3 * n, f"trominoes:L={4 * n}", f"4x{3 * n} right trominoes")  # noqa: E731
    rows = [
        (domino(6), 6728, ("dlx-c", "bitset-c")),
        (ROOT / "shapes/dominoes/8x8.txt", 12_988_816, ("dlx-c", "bitset-c")),
        (trominoes(5), 2672, ("dlx-c", "bitset-c")),
        (trominoes(8), 636_368, ("dlx-c", "bitset-c")),
        (ROOT / "shapes/pentomino/6x10.txt", 9356, ("dlx-c", "bitset-c")),
        (ROOT / "shapes/soma/cube.vox", 11520, ("dlx-c", "bitset-c")),
        (ROOT / "shapes/dominoes/10x10.txt", 258_584_046_368, ()),
        (domino(12), 53_060_477_521_960_000, ()),
        (trominoes(20), 3_793_872_862_974_976, ()),
    ]
    if not quick:
        rows += [
            (domino(14), 112_202_208_776_036_178_000_000, ()),
            (domino(16), 2_444_888_770_250_892_795_802_079_170_816, ()),
        ]
    return rows


def peak_mb_of(*args):
    """Run and measure: a child's own peak memory comes from wait4."""
    start = time.perf_counter()
    process = subprocess.Popen([sys.executable, "-m", "polyfit", *map(str, args)], cwd=OUTSIDE,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    out = process.stdout.read()
    err = process.stderr.read()
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    if status != 0:
        raise SystemExit(f"polyfit {' '.join(map(str, args))} failed: {err.strip()}")
    return out, wall, usage.ru_maxrss / 1024


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--enumerate-limit", type=float, default=120.0,
                        help="skip an enumeration that the estimate expects to take longer (seconds)")
    parser.add_argument("--quick", action="store_true", help="leave out the 14x14 and 16x16 dominoes")
    args = parser.parse_args()
    print(f"python {sys.version.split()[0]}; one process per count (--jobs 1); wall seconds from start to exit\n")
    header = f"{'board':28} {'total':>34} {'count-memo':>11} {'cache':>9} {'peak':>8} {'dlx-c':>9} {'bitset-c':>9}"
    print(header)
    bad = 0
    for board, known, enumerations in boards(args.quick):
        out, wall, peak = peak_mb_of("solve", board, "--count", "--json", "--backend", "count-memo")
        data = json.loads(out)
        total = data["total"]
        cells = {"dlx-c": "-", "bitset-c": "-"}
        for name in enumerations:
            estimate = json.loads(peak_mb_of("estimate", board, "--json", "--backend", name)[0])
            if estimate["seconds_high"] > args.enumerate_limit:
                cells[name] = f">{args.enumerate_limit:g}"
                continue
            enumerated, seconds, _ = peak_mb_of("solve", board, "--count", "--json", "--backend", name, "--jobs", "1")
            other = json.loads(enumerated)
            if (other["total"], other["distinct"]) != (total, data["distinct"]):
                print(f"  MISMATCH on {board}: {name} says {other['total']}, count-memo {total}")
                bad += 1
            cells[name] = f"{seconds:.2f}"
        if known is not None and total != known:
            print(f"  MISMATCH on {board}: count-memo says {total}, the literature {known}")
            bad += 1
        label = data["board"][:28]
        cache = f"{data['cache']['entries'] / 1e3:.0f}k"
        print(f"{label:28} {total:>34,} {wall:>10.2f}s {cache:>9} {peak:>6.0f}MB {cells['dlx-c']:>9} {cells['bitset-c']:>9}")
    out, wall, peak = peak_mb_of("solve", ROOT / "shapes/dominoes/10x10.txt", "--sample", "100", "--seed", "1", "--json")
    drawn = len(json.loads(out)["solutions"])
    print(f"\n--sample 100 on the 10x10 dominoes: {drawn} tilings in {wall:.2f} s (peak {peak:.0f} MB)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
