"""Record what BurrTools 0.7.1 answers on the disassembly test puzzles, for the tests (which run
where BurrTools is not: CI has neither it nor the shared folder).

For each ``tests/data/disassembly/*.xmpuzzle`` it runs

- ``burrTxt2 -R -d`` and ``burrTxt2 -R -d -m``: the counts (``assemblies=``, ``solutions=``);
- ``burrtools_all`` (``benchmarks/burrtools_all.cpp``, built here against BurrTools' library:
  burrTxt2's solve, keeping every disassemblable assembly instead of the ten with the most
  moves): each assembly's pieces and its level text,

and writes ``NAME.burrtools.json.gz`` beside the puzzle (gzip-compressed JSON)::

    {"default": {"assemblies": 588, "solutions": 179, "levels": {"1": 148, "1.2": 31},
                 "found": [{"level": "1.2", "moves": 3, "pieces": {"A": [[z, y, x], ...]}}, ...]},
     "mirror": {...the same with -m...}}

    bash ../shared/burrtools/build.sh        # BurrTools, once
    python benchmarks/burrtools_levels.py [FILE.xmpuzzle ...]
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

from polyfit.formats.burrtools import read_assemblies

HERE = Path(__file__).resolve().parent
DATA = HERE.parent / "tests" / "data" / "disassembly"
BUILD = Path(os.environ.get("TMPDIR", "/tmp")) / "burrtools"


def burrtxt2() -> Path:
    binary = BUILD / "burrTxt2"
    if not binary.exists():
        sys.exit(f"BurrTools is not built at {binary}: run bash ../shared/burrtools/build.sh first")
    return binary


def burrtools_all() -> Path:
    """Build benchmarks/burrtools_all.cpp against the library objects build.sh left."""
    binary = BUILD / "burrtools_all"
    source = HERE / "burrtools_all.cpp"
    if binary.exists() and binary.stat().st_mtime > source.stat().st_mtime:
        return binary
    objects = [str(o) for o in sorted((BUILD / "obj").glob("*.o")) if "burrTxt2" not in o.name]
    own = BUILD / "burrtools_all.o"
    subprocess.run(["g++", "-O2", "-std=c++11", "-w", f"-I{BUILD / 'src'}", "-c", str(source), "-o", str(own)],
                   check=True, cwd=BUILD)
    subprocess.run(["g++", "-O2", "-o", str(binary), str(own), *objects, "-lz", "-lpthread"], check=True, cwd=BUILD)
    return binary


def burrtxt2_run(path: Path, *options: str) -> tuple[str, float]:
    """``burrTxt2 -R OPTIONS`` on a copy of the puzzle: the .xmpuzzlettt it writes and its CPU
    seconds (user + system). burrTxt2 polls stdin and stops at its end, so it gets a FIFO held
    open."""
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / "p.xmpuzzle"
        shutil.copy(path, copy)
        fifo = Path(tmp) / "in"
        os.mkfifo(fifo)
        hold = os.open(fifo, os.O_RDWR)
        try:
            process = subprocess.Popen([str(burrtxt2()), "-R", *options, str(copy)], stdin=hold,
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=tmp)
            _, status, usage = os.wait4(process.pid, 0)
        finally:
            os.close(hold)
        if os.waitstatus_to_exitcode(status) != 0:
            sys.exit(f"burrTxt2 failed on {path}")
        return (Path(tmp) / "p.xmpuzzlettt").read_text(), usage.ru_utime + usage.ru_stime


def run_burrtxt2(path: Path, mirror: bool) -> dict:
    """burrTxt2 -R -d [-m]: its counts, ``assemblies`` and ``solutions``."""
    text, _ = burrtxt2_run(path, "-d", *(["-m"] if mirror else []))
    return {key: int(re.search(f'{key}="([0-9]+)"', text).group(1)) for key in ("assemblies", "solutions")}


def run_all(path: Path, mirror: bool) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / "p.xmpuzzle"
        shutil.copy(path, copy)
        out = subprocess.run([str(burrtools_all()), str(copy), *(["-m"] if mirror else [])],
                             capture_output=True, text=True, check=True, timeout=3600, cwd=tmp).stdout
        assemblies = read_assemblies(Path(tmp) / "p.xmpuzzlettt")
    lines = out.splitlines()
    numbers = dict(line.split() for line in lines if line.split()[0] in ("assemblies", "solutions"))
    levels = [line.split()[1:] for line in lines if line.startswith("level ")]
    if len(levels) != len(assemblies):
        sys.exit(f"{path}: {len(levels)} levels for {len(assemblies)} saved assemblies")
    found = [{"level": level, "moves": int(moves), "pieces": {k: [list(c) for c in v] for k, v in pieces.items()}}
             for (level, moves), pieces in zip(levels, assemblies)]
    return {
        "assemblies": int(numbers["assemblies"]),
        "solutions": int(numbers["solutions"]),
        "levels": dict(sorted(Counter(f["level"] for f in found).items())),
        "found": found,
    }


def record(path: Path) -> dict:
    answer = {}
    for key, mirror in (("default", False), ("mirror", True)):
        counted = run_burrtxt2(path, mirror)
        every = run_all(path, mirror)
        if (counted["assemblies"], counted["solutions"]) != (every["assemblies"], every["solutions"]):
            sys.exit(f"{path}: burrTxt2 counts {counted}, burrtools_all {every['assemblies']}/{every['solutions']}")
        if len(every["found"]) != every["solutions"]:
            sys.exit(f"{path}: {len(every['found'])} saved of {every['solutions']} solutions")
        answer[key] = every
    return answer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path)
    args = parser.parse_args()
    for path in args.files or sorted(DATA.glob("*.xmpuzzle")):
        answer = record(path)
        out = path.with_name(path.name.removesuffix(".xmpuzzle") + ".burrtools.json.gz")
        out.write_bytes(gzip.compress((json.dumps(answer, separators=(",", ":")) + "\n").encode(), mtime=0))
        d, m = answer["default"], answer["mirror"]
        print(f"{path.name}: {d['assemblies']} assemblies, {d['solutions']} solutions {d['levels']}; "
              f"-m {m['assemblies']}/{m['solutions']}")


if __name__ == "__main__":
    main()
