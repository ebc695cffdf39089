"""Count the triangle and hex boards of shapes/ again, by plane geometry alone.

The brute force of ``tests/helpers.py`` (:func:`plane_solutions`) knows nothing of polyfit's
lattices, transforms or exact cover: it turns each piece by rotating cell centres in the complex
plane and tiles the board by plain backtracking. This script checks every total and distinct
count in ``shapes/polyiamond/manifest.json`` and ``shapes/polyhex/manifest.json`` against it
(pre-placed pieces are honoured by keeping the tilings that contain them). It is slow: about
6 minutes for the hexiamond rhombus, 4 for the one-sided tetrahexes, so it lives here and not
in the test suite, which checks the quick boards the same way.

    python benchmarks/lattice_counts.py [BOARD ...]
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from helpers import plane_distinct, plane_solutions  # noqa: E402

from polyfit.api import board_pieces, read_board  # noqa: E402


def count(path: Path) -> tuple[int, int]:
    """(distinct, total) of a board with its ``; pieces:`` set, by the plane brute force."""
    board = read_board(path)
    pieces = [(p.name, p.cells, p.mirror) for p in board_pieces(board)]
    fixed = {(name, frozenset(cells)) for name, cells, _ in board.fixed}
    found = plane_solutions(board.lattice, board.cells, pieces)
    found = [tiling for tiling in found if fixed <= tiling]
    if fixed:  # pre-placed pieces leave no symmetry to share
        return len(found), len(found)
    distinct, _ = plane_distinct(board.lattice, board.cells, found)
    return distinct, len(found)


def main(args) -> int:
    wrong = 0
    for group in ("polyiamond", "polyhex"):
        manifest = json.loads((ROOT / "shapes" / group / "manifest.json").read_text())["figures"]
        for name, entry in manifest.items():
            path = ROOT / "shapes" / group / name
            if args and not any(path.samefile(a) for a in args):
                continue
            start = time.perf_counter()
            distinct, total = count(path)
            ok = (distinct, total) == (entry["distinct"], entry["total"])
            wrong += not ok
            print(f"{group}/{name}: {distinct} distinct, {total} in all "
                  f"({'as the manifest' if ok else 'MANIFEST SAYS ' + str((entry['distinct'], entry['total']))}, "
                  f"{time.perf_counter() - start:.0f} s)", flush=True)
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
