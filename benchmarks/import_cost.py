"""What importing one module and running whole counts cost, in instructions.

    python benchmarks/import_cost.py [--before PYTHON] [--module polyfit.formats.burrtools]
                                     [--loaded polyfit.cli,polyfit.api,polyfit.commands.solve]
                                     [--runs 9] [FILE.xmpuzzle ...]

On a machine shared with other work a clock varies by more than one module costs to import,
so the figures here are instructions, counted by valgrind's callgrind (it must be installed),
with ``PYTHONHASHSEED=0``: the same from run to run, whatever else the machine does. For this
Python (and, with ``--before``, another environment's: an older polyfit, say):

- the module's import: instructions of ``import LOADED..., MODULE`` less those of ``import
  LOADED...``, the modules a command has loaded before it reads a file;
- each file's whole count, ``python -m polyfit solve FILE --count --jobs 1 --json`` (start-up
  included), with the count it printed;
- ``python -X importtime``'s cumulative microseconds for the module after the same modules: a
  clock, so the median of ``--runs`` runs, the Pythons taking turns.

Each Python's polyfit is compiled to bytecode first, as an installed package's is, so that no
run pays for compiling it. The files default to the latin-1 Soma-like file of
``benchmarks/data/burrtools/`` and the Soma cube of ``../shared/burrtools/puz/`` when it exists.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHARED = next((p / "shared" / "burrtools" for p in ROOT.parents if (p / "shared" / "burrtools").is_dir()),
              ROOT.parent / "shared" / "burrtools")
FILES = [ROOT / "benchmarks/data/burrtools/umlaut.xmpuzzle", SHARED / "puz/soma.xmpuzzle"]
# Run outside the checkout: there "import polyfit" would find the source tree first.
OUTSIDE = Path(__file__).resolve().parent
ENV = {**{k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}, "PYTHONHASHSEED": "0"}


def run(argv: list[str]) -> subprocess.CompletedProcess:
    return subprocess.run(argv, cwd=OUTSIDE, env=ENV, capture_output=True, text=True, timeout=600)


def instructions(python: str, *args: str) -> tuple[int, str]:
    """The instructions of a Python process (callgrind's count) and what it printed."""
    done = run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", python, *args])
    found = re.search(r"Collected : ([0-9]+)", done.stderr)
    if done.returncode != 0 or not found:
        sys.exit(f"{python} {' '.join(args)} failed under valgrind:\n{done.stderr[-2000:]}")
    return int(found.group(1)), done.stdout


def import_microseconds(python: str, loaded: list[str], module: str) -> int:
    done = run([python, "-X", "importtime", "-c", f"import {', '.join(loaded + [module])}"])
    rows = [line.split("|") for line in done.stderr.splitlines() if line.rstrip().endswith(f" {module}")]
    if done.returncode != 0 or not rows:
        sys.exit(f"{python}: no importtime line for {module}:\n{done.stderr[-2000:]}")
    return int(rows[-1][1])


def compile_polyfit(python: str) -> None:
    done = run([python, "-c", "import compileall, os, polyfit; compileall.compile_dir(os.path.dirname(polyfit.__file__), quiet=1)"])
    if done.returncode != 0:
        sys.exit(f"{python}: could not compile polyfit:\n{done.stderr[-2000:]}")


def measure(python: str, loaded: list[str], module: str, files: list[Path]) -> dict:
    compile_polyfit(python)
    base, _ = instructions(python, "-c", f"import {', '.join(loaded)}")
    both, _ = instructions(python, "-c", f"import {', '.join(loaded + [module])}")
    counts = {}
    for path in files:
        total, out = instructions(python, "-m", "polyfit", "solve", str(path), "--count", "--jobs", "1", "--json")
        counts[path.name] = (total, json.loads(out)["distinct"])
    return {"import": both - base, "counts": counts}


def millions(n: float) -> str:
    return f"{n / 1e6:.1f} M"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--before", help="another environment's Python, measured the same way")
    parser.add_argument("--module", default="polyfit.formats.burrtools")
    parser.add_argument("--loaded", default="polyfit.cli,polyfit.api,polyfit.commands.solve",
                        help="modules imported before the module, comma-separated")
    parser.add_argument("--runs", type=int, default=9, help="runs of -X importtime per Python")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is not installed (apt-get install valgrind): it counts the instructions")
    files = args.files or [p for p in FILES if p.exists()]
    loaded = args.loaded.split(",")
    pythons = {"this": sys.executable} | ({"before": args.before} if args.before else {})
    results = {name: measure(python, loaded, args.module, files) for name, python in pythons.items()}
    times: dict[str, list[int]] = {name: [] for name in pythons}
    for _ in range(args.runs):
        for name, python in pythons.items():
            times[name].append(import_microseconds(python, loaded, args.module))

    names = list(pythons)[::-1]  # before first
    print(f"| measure | {' | '.join(names)} |" + (" this / before |" if args.before else ""))
    print("|---" * (len(names) + 1 + bool(args.before)) + "|")

    def row(label: str, values: list[float], text) -> None:
        ratio = f" {values[1] / values[0]:.2f} |" if len(values) == 2 else ""
        print(f"| {label} | {' | '.join(text(v) for v in values)} |{ratio}")

    row(f"import {args.module} (instructions)", [results[n]["import"] for n in names], millions)
    for path in files:
        counted = {results[n]["counts"][path.name][1] for n in names}
        row(f"solve {path.name} --count --jobs 1 (instructions; distinct {', '.join(map(str, sorted(counted)))})",
            [results[n]["counts"][path.name][0] for n in names], millions)
    row(f"-X importtime {args.module} (cumulative, median of {args.runs})",
        [statistics.median(times[n]) for n in names], lambda v: f"{v / 1000:.1f} ms")


if __name__ == "__main__":
    main()
