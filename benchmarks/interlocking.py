"""What level ``polyfit generate --interlocking`` reaches in how long: a 5x5x5 box, 5 pieces.

Asks for puzzles of rising least level (2, 3, ...) one after the other within one time budget
(default 600 s, ``--jobs 2``), each search on a fresh seed, and prints, for each puzzle found,
its level, the seconds its search took, and what BurrTools 0.7.1 (``burrTxt2 -R -d``, where it
is built) says of the file: its assemblies, solutions and the level of its separation tree.

    python benchmarks/interlocking.py [--budget 600] [--holes 6] [--jobs 2] [--seed 0]

The search for least level L runs on seed ``--seed`` + L (so one run differs from another
only in time unless ``--seed`` does).

The results of a run, and where a search spends its time, are in docs/interlocking.md.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from burrtools_levels import BUILD, burrtxt2_run  # noqa: E402


def burrtools_level(text: str) -> str:
    """The level of the first separation tree in burrTxt2's answer (states less one per part)."""
    tree = ET.fromstring(text).find(".//separation")

    def moves(node):
        return len(node.findall("state")) - 1

    def multi(node):
        return node is not None and (moves(node) > 1 or any(multi(c) for c in node.findall("separation")))

    def level(node):
        parts = {c.get("type"): c for c in node.findall("separation")}
        out = str(moves(node))
        for kind in ("left", "removed"):
            if multi(parts.get(kind)):
                out += "." + level(parts[kind])
        return out

    return level(tree)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", type=float, default=600)
    parser.add_argument("--holes", type=int, default=6)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    start = time.monotonic()
    level = 2
    with tempfile.TemporaryDirectory() as tmp:
        while True:
            left = args.budget - (time.monotonic() - start)
            if left <= 1:
                break
            out = Path(tmp) / f"level-{level}"
            began = time.monotonic()
            result = subprocess.run(
                [sys.executable, "-m", "polyfit", "generate", "--interlocking", "--within", "5x5x5",
                 "--hole-count", str(args.holes), "--pieces-count", "5", "--min-level", str(level), "--count", "1",
                 "--seed", str(args.seed + level), "--jobs", str(args.jobs), "--time", f"{left:.0f}", "--out", str(out), "--quiet"],
                capture_output=True, text=True, cwd=tmp)
            seconds = time.monotonic() - began
            files = sorted(out.glob("*.xmpuzzle"))
            if not files:
                print(f"min level {level}: nothing within the {left:.0f} s left ({result.stdout.strip().splitlines()[-1]})")
                break
            found = re.search(r"level ([0-9.]+)", result.stdout).group(1)
            line = f"min level {level}: level {found} in {seconds:.1f} s (total {time.monotonic() - start:.1f} s)"
            if (BUILD / "burrTxt2").exists():
                text, _ = burrtxt2_run(files[0], "-d")
                counts = {k: int(re.search(f'{k}="([0-9]+)"', text).group(1)) for k in ("assemblies", "solutions")}
                line += f"; BurrTools: {counts['assemblies']} assembly, {counts['solutions']} solution, level {burrtools_level(text)}"
            print(line, flush=True)
            level = int(found.split(".")[0]) + 1


if __name__ == "__main__":
    main()
