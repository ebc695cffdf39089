"""Make the prism puzzles the disassembly tests compare with BurrTools:
tests/data/burrtools/prisms/disassembly/*.xmpuzzle (grid type 1).

Kinds, each from a seed (the same files every run):

- ``cut-*``: a block of prisms (some rows, columns and layers) cut at random into 3 or 4
  connected pieces, kept whatever its level (such cuts nearly always come apart in one move,
  and their other assemblies may not come apart at all);
- ``box-*``: a heavy box (weight 10) on the prism grid with a lid over part of its opening, its
  inside cut into pieces (can they be moved into the box?);
- ``sym-*``: the same with an odd number of columns, so that the result (the box and its inside)
  has a symmetry (a half turn about a horizontal axis across the rows): BurrTools then keeps one
  assembly of each symmetric pair, and which one it takes apart is part of the answer.

Of ``--tries`` random cuts each, the one the polyfit disassembler takes apart with the highest
level is kept (cut from a block without a box, prisms nearly always come apart in one move), so
the comparison covers levels above 1; the answers
themselves come from BurrTools (``benchmarks/burrtools_levels.py FILE...``).

    python benchmarks/prism_puzzles.py [--count N]
    python benchmarks/prism_puzzles.py --benchmark   # benchmarks/data/prism-tri-36.xmpuzzle

``--benchmark`` writes, instead, a puzzle with many assemblies for benchmarks/disassembly.py: a
block of 2 rows, 6 columns and 3 layers of prisms filled with 12 copies of one bent triprism
(468 assemblies in BurrTools and polyfit, every one of level 1).
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

from polyfit.lattices.prisms import PRISMS
from polyfit.motion.prisms import MOTION
from polyfit.motion import Disassembler

OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "burrtools" / "prisms" / "disassembly"


def block(rows: int, columns: int, layers: int):
    return [(z, r, c) for z in range(layers) for r in range(rows) for c in range(columns)]


def connected(cells) -> bool:
    cells = set(cells)
    todo = [next(iter(cells))]
    seen = {todo[0]}
    while todo:
        for n in PRISMS.neighbours(todo.pop()):
            if n in cells and n not in seen:
                seen.add(n)
                todo.append(n)
    return len(seen) == len(cells)


def random_cut(rng: random.Random, cells, count: int):
    """``cells`` cut into ``count`` connected pieces of two cells or more, grown from seeds."""
    cells = list(cells)
    while True:
        owner = {c: k for k, c in enumerate(rng.sample(cells, count))}
        free = set(cells) - set(owner)
        while free:
            edge = [(c, owner[n]) for n in owner for c in PRISMS.neighbours(n) if c in free]
            if not edge:
                break
            cell, k = rng.choice(edge)
            owner[cell] = k
            free.discard(cell)
        if free:
            continue
        pieces = [sorted(c for c in owner if owner[c] == k) for k in range(count)]
        if all(len(p) >= 2 for p in pieces):
            return pieces


def box_with_lid(rng: random.Random, rows: int, columns: int, layers: int):
    """A box around a ``rows`` x ``columns`` x ``layers`` block (a floor, walls a row or two
    columns thick) with a lid along one side of its opening: ``(box cells, inside cells)``."""
    inside = [(z + 1, r + 1, c + 2) for z, r, c in block(rows, columns, layers)]
    top = layers + 1
    side = rng.choice((1, rows))
    lid = {(top, r, c) for _, r, c in inside if r == side}
    inner = set(inside)
    box = [c for c in block(rows + 2, columns + 4, layers + 2)
           if c not in inner and (c[0] != top or c in lid or (top - 1, c[1], c[2]) not in inner)]
    return sorted(box), sorted(inside)


def voxel_of(cell):
    z, r, c = cell
    return (c, -r, z)


def xml(pieces, names, result, weights=None) -> str:
    """A BurrTools puzzle on the prism grid: the result first, then the pieces (each once)."""
    def voxel(cells, name, weight=1):
        voxels = [voxel_of(c) for c in cells]
        low = [min(v[i] for v in voxels) for i in range(3)]
        low[0] -= (low[0] + low[1]) & 1  # keep each triangle pointing its way
        high = [max(v[i] for v in voxels) for i in range(3)]
        size = [h - lo + 1 for h, lo in zip(high, low)]
        have = {tuple(v[i] - low[i] for i in range(3)) for v in voxels}
        text = "".join("#" if (x, y, z) in have else "_"
                       for z in range(size[2]) for y in range(size[1]) for x in range(size[0]))
        w = f' weight="{weight}"' if weight != 1 else ""
        return f'    <voxel x="{size[0]}" y="{size[1]}" z="{size[2]}" type="0" name="{name}"{w}>{text}</voxel>'

    lines = ['<?xml version="1.0"?>', '<puzzle version="2">', '  <gridType type="1"/>', "  <colors/>", "  <shapes>",
             voxel(result, "result")]
    lines += [voxel(cells, names[k], (weights or {}).get(k, 1)) for k, cells in enumerate(pieces)]
    lines += ["  </shapes>", "  <problems>", '    <problem name="p">', "      <shapes>"]
    lines += [f'        <shape id="{k + 1}" count="1"/>' for k in range(len(pieces))]
    lines += ["      </shapes>", '      <result id="0"/>', "      <bitmap/>", "    </problem>",
              "  </problems>", "  <comment/>", "</puzzle>", ""]
    return "\n".join(lines)


def level_of(pieces, weights=None):
    taker = Disassembler((), max_states=200_000, motion=MOTION)
    return taker.disassemble(pieces, weights=weights).level


def _score(level):
    if level in (None, "unknown"):
        return (-1,)
    numbers = [int(n) for n in level.split(".")]
    return numbers[0], len(numbers), sum(numbers)


def best_of(rng, tries, make):
    """Of ``tries`` puzzles ``make(rng)`` returns (pieces, result, weights), the one whose cut
    has the highest level (None if none needs more than one move)."""
    best = None
    for _ in range(tries):
        pieces, result, weights = make(rng)
        level = level_of(pieces, weights)
        if level not in (None, "unknown", "1") and (best is None or _score(level) > _score(best[0])):
            best = (level, pieces, result, weights)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=8, help="puzzles of each kind")
    parser.add_argument("--tries", type=int, default=80, help="random cuts tried per puzzle")
    parser.add_argument("--benchmark", action="store_true", help="write the benchmark's prism puzzle instead")
    args = parser.parse_args()
    if args.benchmark:
        cells = block(2, 6, 3)
        bent = [(0, 0, 0), (0, 0, 1), (0, 1, 1)]
        text = xml([bent], "T", cells).replace('count="1"', f'count="{len(cells) // len(bent)}"')
        (Path(__file__).resolve().parent / "data" / "prism-tri-36.xmpuzzle").write_text(text)
        return
    OUT.mkdir(parents=True, exist_ok=True)
    names = "ABCDEFGHIJ"
    for n in range(args.count // 2):
        rng = random.Random(f"cut-{n}")
        shape, count = ((2, 6, 2), (3, 4, 2), (2, 4, 3), (2, 8, 2))[n % 4], 3 + n % 2
        cells = block(*shape)
        pieces = random_cut(rng, cells, count)
        (OUT / f"cut-{n}.xmpuzzle").write_text(xml(pieces, names, cells))
        print(f"cut-{n}: {len(pieces)} pieces, level {level_of(pieces)}")
    kinds = (("box", ((3, 4, 1), (2, 6, 1), (3, 6, 1), (3, 4, 2)), (3, 3, 4, 3)),
             ("sym", ((2, 5, 1), (3, 5, 1), (3, 3, 1), (2, 7, 1)), (3, 4, 3, 4)))
    for kind, insides, counts in kinds:
        for n in range(args.count):
            rng = random.Random(f"{kind}-{n}")
            inside, count = insides[n % 4], counts[n % 4]

            def boxed(rng, inside=inside, count=count):
                box, cells = box_with_lid(rng, *inside)
                pieces = [box] + random_cut(rng, cells, count)
                return pieces, box + cells, [10] + [1] * count

            found = best_of(rng, args.tries, boxed)
            if found:
                level, pieces, result, weights = found
                (OUT / f"{kind}-{n}.xmpuzzle").write_text(xml(pieces, "X" + names, result, {0: 10}))
                print(f"{kind}-{n}: {len(pieces)} pieces (the box X), level {level}")


if __name__ == "__main__":
    main()
