"""Record what BurrTools 0.7.1 answers on single piece sets of a family, for the atlas tests
(CI has no BurrTools).

For a puzzle with piece ranges (default: SolidSixPieceBurrs), it makes polyfit's atlas, picks
some rows (the first of each kind: a set that is its own mirror image with one assembly, one
with several, a pair of mirror sets, a set of which nothing comes apart, a set with two levels,
the set with the most assemblies), and for each set of a row (and its mirror set) writes the
puzzle restricted to exactly that set (the same file, its problem's piece list replaced) and runs
``burrTxt2 -R -d`` and ``burrTxt2 -R -d -m`` on it. The answers go to
``tests/data/atlas/NAME.sets.json``::

    {"sets": [{"pieces": {"A": 1, ...}, "default": {"assemblies": 1, "solutions": 1},
               "mirror": {"assemblies": 1, "solutions": 1}}, ...]}

    bash ../shared/burrtools/build.sh          # BurrTools, once
    python benchmarks/atlas_burrtools.py [FILE.xmpuzzle]
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
OUT = ROOT / "tests" / "data" / "atlas"

from burrtools_levels import run_burrtxt2  # noqa: E402  (beside this file)


def restricted(xml: str, ids: dict[int, int]) -> str:
    """The puzzle's first problem with exactly ``ids`` (shape id -> copies) as its pieces, and
    no saved solutions or solve state."""
    start = xml.index("<problem ")
    head_end = xml.index(">", start)
    problem_head = re.sub(r'\s(state|assemblies|solutions|time)="[^"]*"', "", xml[start:head_end])
    shapes_start = xml.index("<shapes>", head_end)
    shapes_end = xml.index("</shapes>", shapes_start)
    pieces = "".join(f'\n        <shape id="{k}" count="{n}"/>' for k, n in sorted(ids.items()))
    text = xml[:start] + problem_head + xml[head_end:shapes_start] + "<shapes>" + pieces + "\n      " + xml[shapes_end:]
    return re.sub(r"<solutions>.*?</solutions>", "", text, flags=re.S)


def shape_ids(xml: str) -> list[int]:
    """The first problem's shape ids, in its order (the order of polyfit's pieces)."""
    problem = xml[xml.index("<problem "):xml.index("</problem>")]
    block = problem[problem.index("<shapes>"):problem.index("</shapes>")]
    return [int(k) for k in re.findall(r'<shape id="(\d+)"', block)]


def chosen_rows(found) -> list:
    """One row of each kind worth checking, in the order the docstring names them."""
    rows = found.sets
    picks = [
        next(s for s in rows if s.mirror is None and s.assemblies == 1),
        next(s for s in rows if s.mirror is None and s.assemblies > 1 and s.assemblies_rotations > s.assemblies),
        next(s for s in rows if s.mirror is not None and s.assemblies > 1),
        next(s for s in rows if s.disassemblable == 0),
        next(s for s in rows if len(s.levels) > 1),
        max(rows, key=lambda s: (s.assemblies, s.order)),
    ]
    return list({id(s): s for s in picks}.values())


def main() -> None:
    import polyfit

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", nargs="?", type=Path, default=ROOT / "shapes" / "burrtools" / "SolidSixPieceBurrs.xmpuzzle")
    args = parser.parse_args()
    xml = gzip.decompress(args.file.read_bytes()).decode("utf-8")
    puzzle = polyfit.load(args.file)
    ids = shape_ids(xml)
    if len(ids) != len(puzzle.pieces):
        sys.exit(f"{args.file}: {len(ids)} shapes in the problem, {len(puzzle.pieces)} pieces read")
    id_of = {piece.name: shape for piece, shape in zip(puzzle.pieces, ids)}
    found = polyfit.atlas(puzzle, disassemble=True, jobs=1)
    answers = []
    with tempfile.TemporaryDirectory() as tmp:
        for row in chosen_rows(found):
            for pieces in (row.pieces, row.mirror):
                if pieces is None:
                    continue
                path = Path(tmp) / "set.xmpuzzle"
                path.write_bytes(gzip.compress(restricted(xml, {id_of[n]: k for n, k in pieces.items()}).encode(), mtime=0))
                answer = {"pieces": pieces, "default": run_burrtxt2(path, False), "mirror": run_burrtxt2(path, True)}
                answers.append(answer)
                print(json.dumps(answer))
    OUT.mkdir(parents=True, exist_ok=True)
    out = OUT / (args.file.name.removesuffix(".xmpuzzle") + ".sets.json")
    out.write_text(json.dumps({"source": args.file.name, "sets": answers}, indent=1) + "\n")
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
