"""Make the puzzles the disassembly tests compare with BurrTools: tests/data/disassembly/*.xmpuzzle.

Kinds, each from a seed (the same files every run):

- ``burr-*``: six-piece burrs on the 104-voxel knot of SolidSixPieceBurrs, each voxel where two
  sticks cross given to one of them at random, some left empty (holes give levels above 1);
- ``box-*``: a box cut into 3 to 7 random connected pieces;
- ``lid-*``: a heavy box (weight 10) with a rim over part of its opening, its inside cut into
  pieces (can they be moved into the box?);
- ``knot-*``: the burrs' pieces in the whole knot, its crossing voxels allowed to stay empty:
  a result with symmetries, where the level depends on which orientation is taken apart;
- ``group-*``: box cuts whose stuck pieces are put in groups (``group=`` on shapes, some with
  ``<group>`` counts), to exercise BurrTools' rules for pieces that may stay together.

``--family`` makes instead the benchmark's large puzzle, benchmarks/data/family-80.xmpuzzle:
SolidSixPieceBurrs' 25 solid pieces and 80 more, each a solid one with one or two more voxels
cut from its middle (and its mirror image), any six in the solid knot: about 11,000 assemblies,
as designers' piece families have (too slow for the tests: only benchmarks/disassembly.py runs it).

Only assemblies the polyfit disassembler finds interesting are kept (levels above 1, dotted
levels, stuck ones, groups), so the comparison with BurrTools covers more than level 1; the
answers themselves come from BurrTools (benchmarks/burrtools_levels.py).

    python benchmarks/disassembly_puzzles.py [--count N]
"""

from __future__ import annotations

import argparse
import random
from collections import Counter
from pathlib import Path

from polyfit.lattices.base import get
from polyfit.lattices.grid import is_connected
from polyfit.motion import Disassembler, Groups

OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "disassembly"
DIRECTIONS = get("cubic").motion_directions()

# the six sticks of a six-piece burr (z, y, x ranges), as in SolidSixPieceBurrs' knot
STICKS = (
    ((0, 5), (1, 2), (2, 3)), ((0, 5), (3, 4), (2, 3)),
    ((2, 3), (0, 5), (1, 2)), ((2, 3), (0, 5), (3, 4)),
    ((3, 4), (2, 3), (0, 5)), ((1, 2), (2, 3), (0, 5)),
)


def _score(level):
    if level in (None, "unknown"):
        return None
    numbers = [int(n) for n in level.split(".")]
    return numbers[0], len(numbers), sum(numbers)


def climb_burr(rng: random.Random, steps: int):
    """A six-piece burr grown towards a high level: start from a solid one that comes apart,
    then give crossing voxels to another stick or leave them empty, one at a time, keeping a
    change when the level does not drop."""
    owners = {}
    for index, box in enumerate(STICKS):
        for z in range(box[0][0], box[0][1] + 1):
            for y in range(box[1][0], box[1][1] + 1):
                for x in range(box[2][0], box[2][1] + 1):
                    owners.setdefault((z, y, x), []).append(index)
    crossing = sorted(c for c, o in owners.items() if len(o) > 1)

    def pieces_of(assign):
        pieces = [[] for _ in STICKS]
        for cell, o in owners.items():
            who = assign.get(cell, o[0])
            if who >= 0:
                pieces[who].append(cell)
        if not all(p and is_connected(p) for p in pieces):
            return None
        return [tuple(sorted(p)) for p in pieces]

    while True:
        assign = {c: rng.choice(owners[c]) for c in crossing}
        pieces = pieces_of(assign)
        if pieces is not None and _score(level_of(pieces)) is not None:
            break
    best = _score(level_of(pieces))
    for _ in range(steps):
        trial = dict(assign)
        cell = rng.choice(crossing)
        trial[cell] = rng.choice(owners[cell] + [-1])
        candidate = pieces_of(trial)
        if candidate is None:
            continue
        score = _score(level_of(candidate))
        if score is not None and score >= best:
            assign, pieces, best = trial, candidate, score
    return pieces, level_of(pieces)


def _box_cells(box):
    return [(z, y, x) for z in range(box[0][0], box[0][1] + 1) for y in range(box[1][0], box[1][1] + 1)
            for x in range(box[2][0], box[2][1] + 1)]


def _inside(cell, box):
    return all(lo <= c <= hi for c, (lo, hi) in zip(cell, box))


def random_burr(rng: random.Random, holes: float):
    cells = {}
    for box in STICKS:
        for z in range(box[0][0], box[0][1] + 1):
            for y in range(box[1][0], box[1][1] + 1):
                for x in range(box[2][0], box[2][1] + 1):
                    cells.setdefault((z, y, x), []).append(STICKS.index(box))
    pieces = [[] for _ in STICKS]
    for cell, owners in cells.items():
        if len(owners) > 1 and rng.random() < holes:
            continue
        pieces[rng.choice(owners)].append(cell)
    if not all(p and is_connected(p) for p in pieces):
        return None
    return [tuple(sorted(p)) for p in pieces]


def random_cut(rng: random.Random, size, count: int, cells=None):
    """``cells`` (default: the box ``size``) cut into ``count`` connected pieces grown from
    random seeds."""
    if cells is None:
        cells = [(z, y, x) for z in range(size[0]) for y in range(size[1]) for x in range(size[2])]
    free = set(cells)
    seeds = rng.sample(sorted(free), count)
    pieces = [[s] for s in seeds]
    free -= set(seeds)
    while free:
        k = rng.randrange(count)
        edge = [(c[0] + dz, c[1] + dy, c[2] + dx) for c in pieces[k]
                for dz, dy, dx in ((1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1))]
        edge = [c for c in edge if c in free]
        if edge:
            cell = rng.choice(edge)
            pieces[k].append(cell)
            free.discard(cell)
    return [tuple(sorted(p)) for p in pieces]


def box_with_rim(rng: random.Random, inside):
    """A box around ``inside`` (z, y, x) open at the top, a rim over part of the opening."""
    hz, hy, hx = inside
    box = []
    for z in range(hz + 2):
        for y in range(hy + 2):
            for x in range(hx + 2):
                wall = z == 0 or y in (0, hy + 1) or x in (0, hx + 1)
                top = z == hz + 1
                if top and not wall:
                    continue
                if wall or top:
                    box.append((z, y, x))
    rim = [(hz + 1, y, x) for y in range(1, hy + 1) for x in range(1, hx + 1) if rng.random() < 0.35]
    full = {(hz + 1, y, x) for y in range(1, hy + 1) for x in range(1, hx + 1)}
    if len(rim) >= len(full) - 1:
        rim = rim[:1]
    inner = [(z, y, x) for z in range(1, hz + 2) for y in range(1, hy + 1) for x in range(1, hx + 1)
             if (z, y, x) not in set(rim) and z <= hz]
    return tuple(sorted(box + rim)), inner


def xml(pieces, names, result_cells, groups=None, weights=None, counts=None, variable=()) -> str:
    """A BurrTools puzzle: the result first (shape 0, as BurrTools itself writes them), then
    the pieces; ``groups``: per piece ``int`` (group=) or a list of ``(group, count)``."""
    def voxel(cells, name, weight=1, variable=()):
        every = list(cells) + list(variable)
        low = [min(c[i] for c in every) for i in range(3)]
        high = [max(c[i] for c in every) for i in range(3)]
        size = [h - l + 1 for h, l in zip(high, low)]
        have = {tuple(c[i] - low[i] for i in range(3)): "#" for c in cells}
        have.update({tuple(c[i] - low[i] for i in range(3)): "+" for c in variable})
        text = "".join(have.get((z, y, x), "_")
                       for z in range(size[0]) for y in range(size[1]) for x in range(size[2]))
        w = f' weight="{weight}"' if weight != 1 else ""
        return f'    <voxel x="{size[2]}" y="{size[1]}" z="{size[0]}" type="0" name="{name}"{w}>{text}</voxel>'

    lines = ['<?xml version="1.0"?>', '<puzzle version="2">', '  <gridType type="0"/>', "  <colors/>", "  <shapes>"]
    lines.append(voxel(result_cells, "result", 1, variable))
    for k, cells in enumerate(pieces):
        lines.append(voxel(cells, names[k], (weights or {}).get(k, 1)))
    lines += ["  </shapes>", "  <problems>", '    <problem name="p">', "      <shapes>"]
    for k in range(len(pieces)):
        count = (counts or {}).get(k, 1)
        group = (groups or {}).get(k)
        if isinstance(group, int):
            lines.append(f'        <shape id="{k + 1}" count="{count}" group="{group}"/>')
        elif group:
            lines.append(f'        <shape id="{k + 1}" count="{count}">')
            for g, c in group:
                lines.append(f'          <group group="{g}" count="{c}"/>')
            lines.append("        </shape>")
        else:
            lines.append(f'        <shape id="{k + 1}" count="{count}"/>')
    lines += ["      </shapes>", '      <result id="0"/>', "      <bitmap/>", "    </problem>",
              "  </problems>", "  <comment/>", "</puzzle>", ""]
    return "\n".join(lines)


def level_of(pieces, weights=None, groups=None):
    d = Disassembler(DIRECTIONS, max_states=200_000)
    return d.disassemble(pieces, weights=weights, groups=groups).level


NAMES = "ABCDEFGHIJ"


def _normalized(cells):
    low = [min(c[i] for c in cells) for i in range(3)]
    return tuple(sorted(tuple(c[i] - low[i] for i in range(3)) for c in cells))


def _kind(cells):
    """The cells up to rotation (the least of their 24 turns)."""
    from polyfit.formats.burrtools import PROPER, ROTATIONS

    return min(_normalized([tuple(sum(m[i][k] * c[k] for k in range(3)) for i in range(3)) for c in cells])
               for m in ROTATIONS[:PROPER])


def piece_family(extra: int, seed: int):
    """SolidSixPieceBurrs' pieces and ``extra`` more (in mirror pairs) cut from them, each a
    piece with one or two voxels of its middle 2x2x2 taken away; and the knot they fill."""
    import polyfit

    solid = polyfit.load(OUT / "SolidSixPieceBurrs.xmpuzzle")
    rng = random.Random(seed)
    pieces = [tuple(sorted(p.cells)) for p in solid.pieces]
    kinds = {_kind(p) for p in pieces}
    while len(pieces) < 25 + extra:
        cells = rng.choice(pieces[:25])
        extent = [max(c[i] for c in cells) - min(c[i] for c in cells) + 1 for i in range(3)]
        middle = [c for c in cells if c[extent.index(6)] in (2, 3)]
        cut = set(rng.sample(middle, rng.choice((1, 2))))
        rest = tuple(c for c in cells if c not in cut)
        if not is_connected(rest) or _kind(rest) in kinds:
            continue
        for shape in (rest, _normalized([(z, y, -x) for z, y, x in rest])):
            if _kind(shape) not in kinds:
                kinds.add(_kind(shape))
                pieces.append(shape)
    return pieces, sorted(solid.board.cells)


# Cubes from many small pieces (``--cubes``): many assemblies, nearly all of level 1, where what
# counts is the work per assembly. Cells as (z, y, x); counts per piece. BurrTools 0.7.1
# (burrTxt2 -R -d) counts assemblies / solutions: cube-soma 240 / 240, cube-tri 623 / 623,
# cube-tri-235 11,073 / 11,073, cube-tetra 94 / 94 (benchmarks/disassembly.py checks them live).
def _cells(rows):
    return [(0, y, x) for y, row in enumerate(rows) for x, c in enumerate(row) if c == "#"]


SOMA = [_cells(["##", "#_"]), _cells(["###", "#__"]), _cells(["###", "_#_"]), _cells(["##_", "_##"]),
        [(0, 0, 0), (0, 0, 1), (0, 1, 0), (1, 0, 0)], [(0, 0, 0), (0, 0, 1), (0, 1, 1), (1, 0, 0)],
        [(0, 0, 0), (0, 0, 1), (0, 1, 0), (1, 0, 1)]]
CUBES = {
    # the Soma cube: its seven pieces in 3x3x3
    "cube-soma": (SOMA, [1] * 7, (3, 3, 3)),
    # 3x3x3 from three straight and six bent trominoes
    "cube-tri": ([_cells(["###"]), _cells(["##", "#_"])], [3, 6], (3, 3, 3)),
    # 2x3x5 from two straight and eight bent trominoes
    "cube-tri-235": ([_cells(["###"]), _cells(["##", "#_"])], [2, 8], (2, 3, 5)),
    # 2x4x4 from two each of four tetracubes (L, T, S, square)
    "cube-tetra": ([_cells(["###", "#__"]), _cells(["###", "_#_"]), _cells(["##_", "_##"]), _cells(["##", "##"])],
                   [2, 2, 2, 2], (2, 4, 4)),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=6, help="puzzles of each kind")
    parser.add_argument("--only", help="make only the puzzles whose names start so")
    parser.add_argument("--family", action="store_true", help="make the benchmark's large puzzle only")
    parser.add_argument("--cubes", action="store_true", help="make the benchmark's cubes of many small pieces only")
    args = parser.parse_args()
    if args.cubes:
        for name, (pieces, counts, size) in CUBES.items():
            box = [(z, y, x) for z in range(size[0]) for y in range(size[1]) for x in range(size[2])]
            text = xml(pieces, [f"P{k}" for k in range(len(pieces))], box, counts=dict(enumerate(counts)))
            path = Path(__file__).resolve().parent / "data" / f"{name}.xmpuzzle"
            path.write_text(text)
            print(path)
        return
    if args.family:
        pieces, knot = piece_family(80, 5)
        text = xml(pieces, [f"P{k}" for k in range(len(pieces))], knot)
        path = Path(__file__).resolve().parent / "data" / "family-80.xmpuzzle"
        path.parent.mkdir(exist_ok=True)
        path.write_text(text.replace('count="1"/>', 'min="0" max="6"/>'))  # any six, as SolidSix
        print(path)
        return
    OUT.mkdir(parents=True, exist_ok=True)
    made = []

    def keep(name, text, level):
        if args.only and not name.startswith(args.only):
            return
        (OUT / f"{name}.xmpuzzle").write_text(text)
        made.append((name, level))

    rng = random.Random(27)
    for k in range(args.count):
        pieces, level = climb_burr(rng, 400 + 200 * k if k < args.count - 2 else 6000)
        union = sorted({c for p in pieces for c in p})
        keep(f"burr-{k + 1}", xml(pieces, NAMES, union), level)
        if k % 2 == 0:  # the same pieces in the knot whose crossing voxels may stay empty ('+'):
            # a result with the knot's symmetries, so the orientation BurrTools keeps matters
            owners = Counter(c for box in STICKS for c in _box_cells(box))
            crossing = {c for c, n in owners.items() if n > 1}
            keep(f"knot-{k + 1}", xml(pieces, NAMES, sorted(set(owners) - crossing), variable=sorted(crossing)), level)

    rng = random.Random(2027)
    for k in range(args.count):
        size = rng.choice(((3, 3, 3), (2, 3, 4), (3, 3, 4), (2, 4, 4)))
        count = rng.randint(3, 7)
        for _ in range(500):
            pieces = random_cut(rng, size, count)
            if all(is_connected(p) for p in pieces):
                level = level_of(pieces)
                if level not in ("1", "unknown"):
                    break
        union = sorted({c for p in pieces for c in p})
        keep(f"box-{k + 1}", xml(pieces, NAMES, union), level)

    rng = random.Random(327)
    for k in range(args.count):
        inside = rng.choice(((2, 2, 3), (2, 3, 3), (3, 2, 3)))
        for _ in range(500):
            box, inner = box_with_rim(rng, inside)
            pieces = random_cut(rng, None, rng.randint(2, 4), inner)
            if not all(is_connected(p) for p in pieces) or not is_connected(box):
                continue
            level = level_of([box] + pieces, weights=[10] + [1] * len(pieces))
            if level not in (None, "unknown", "1"):
                break
        union = sorted(set(box) | {c for p in pieces for c in p})
        keep(f"lid-{k + 1}", xml([box] + pieces, NAMES, union, weights={0: 10}), level)

    rng = random.Random(4027)
    made_groups = 0
    while made_groups < args.count:
        size = rng.choice(((3, 3, 3), (2, 3, 4), (3, 3, 4)))
        pieces = random_cut(rng, size, rng.randint(4, 7))
        if not all(is_connected(p) for p in pieces) or level_of(pieces) is not None:
            continue
        chosen = rng.sample(range(len(pieces)), rng.randint(2, len(pieces) - 1))
        if made_groups % 3 == 2:  # counted groups: each chosen piece in group 1 or 2
            groups = {p: [(1 + (i % 2), 1)] for i, p in enumerate(chosen)}
            groups[chosen[0]] = [(1, 1), (2, 1)]
        else:
            groups = {p: 1 for p in chosen}
        part_groups = tuple(tuple(groups[p]) if isinstance(groups.get(p), list) else
                            ((groups[p], 1),) if p in groups else () for p in range(len(pieces)))
        level = level_of(pieces, groups=Groups(tuple(range(len(pieces))), part_groups, tuple(range(1, len(pieces) + 1))))
        made_groups += 1
        union = sorted({c for p in pieces for c in p})
        keep(f"group-{made_groups}", xml(pieces, NAMES, union, groups=groups), level)

    for name, level in made:
        print(f"{name}: {level}")


if __name__ == "__main__":
    main()
