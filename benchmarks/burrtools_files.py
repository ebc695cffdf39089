"""Write the ``.xmpuzzle`` files of ``benchmarks/data/burrtools/``: one of each kind designers make.

    python benchmarks/burrtools_files.py [--out benchmarks/data/burrtools]

Designers' BurrTools files are not ours to ship, so these are made the way such puzzles are:
a goal shape cut into connected pieces by growing them from seeds at random (seeded, so the
files come out the same every time), with colours, optional (variable, ``+``) voxels, piece
counts, big pieces and big boxes where the kind has them:

- ``colour-cube``: a 5x5x4 box whose voxels are coloured as a checkerboard, cut into 10
  pieces that carry their voxels' colours; the bitmap lets each colour sit on itself only.
- ``keys-in-a-box``: a 10x10x10 cube: a container (its shell, with holes) and 5 keys that
  fill the inside and reach out through the holes.
- ``cube-9``: a 4x4x4 cube in 9 pieces.
- ``burr-box-8``: an 8x8x8 box in 8 coloured pieces of about 64 voxels.
- ``cage-216``: an 8x8x8 cage: the shell must be filled, the 6x6x6 inside (216 voxels) may
  stay empty; 7 pieces, some reaching inside.
- ``cube-15``, ``cube-15-slow``, ``cube-16-colours``: 4x4x4 cubes in 15 and 16 pieces; the
  cube's voxels have colour 1 or 2 at random, and 80, 70 and 90 percent of the pieces' voxels
  carry their colour (the others are neutral), so that thousands of assemblies remain.
- ``counts``: a 3x3x3 cube with its 8 corners optional, from 6 kinds of tetracube used 0 to
  2 times each.
- ``counts-no-total``: ``counts`` with at most two corners left empty (``maxHoles``): no
  choice of the tetracubes' counts covers 25 to 27 voxels, a puzzle with no solution.
- ``max-holes``: a 4x3x2 box with 6 optional voxels, from at most one each of 6 tetracubes,
  2 trominoes and a domino, with at most 2 voxels left empty (``maxHoles``).
- ``frame-40``: the twelve edges of a 40x40x40 cube (456 voxels in a box of 64,000), in 8
  corner pieces.
- ``soma-marked-corner``, ``soma-two-coloured-t``, ``soma-coloured-mirror-pair``: the Soma cube
  with colours and no colour rule, which BurrTools counts all the same: one corner of the cube
  marked (only the 6 symmetries fixing it remain), one arm of the T marked (the T turned end
  for end is another placement), the mirror pieces A and B of two colours (no longer each
  other's mirror image).
- ``umlaut``: a small puzzle written as BurrTools writes it on a Western machine: plain XML
  in latin-1, with a designer's name with an umlaut in its comment and a problem name.
- ``spheres-500``, ``prisms-768``, ``tetra-octa-320``, ``rhombic-32``: one puzzle on each of
  BurrTools' other grids, big for its kind: a 10x10x10 box of spheres (500) in 10 pieces,
  6 layers of 128 triangular prisms in 8 pieces, 320 tetrahedra and octahedra's eighths in 8
  pieces, and 32 rhombic dodecahedra in 8 pieces of whole dodecahedra (1,536 sub-cells);
  written by polyfit's BurrTools writer; and two bigger than designers make them, where each
  placement has hundreds of cells: ``spheres-1372`` (a 14x14x14 box in 14 pieces) and
  ``prisms-2880`` (10 layers of 288 prisms in 12 pieces).

Every count polyfit's tests expect from these files was counted by BurrTools 0.7.1
(``burrTxt2 -R -c``, and ``-m`` for the count with mirror images kept).

``--random N --seed S --out DIR`` writes N puzzles made at random instead, as designers' files
we do not have (a seed makes the same ones again): on cubes, boxes of 2 to 7 a side cut into
pieces of 3 to 30 voxels, flat boards of one layer, an optional layer on top, pieces allowed
0 to 2 times with a tenth of the voxels optional, and big pieces (30 to 90 voxels) in boxes
up to 9 a side; on the other grids, boxes of prisms, spheres and tetra-octa cells, and
rhombic dodecahedra, cut into 2 to 14 pieces. ``benchmarks/burrtools.py --timeout 60 DIR/*``
compares the programs on them (many are long searches).
"""

from __future__ import annotations

import argparse
import gzip
import itertools
import random
from pathlib import Path

OUT = Path(__file__).resolve().parent / "data" / "burrtools"
STEPS = ((1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1))


def box(sx, sy, sz):
    return [(x, y, z) for z in range(sz) for y in range(sy) for x in range(sx)]


def neighbours(cell):
    return [tuple(a + b for a, b in zip(cell, step)) for step in STEPS]


def dissect(cells, pieces: int, rng: random.Random, neighbours=neighbours) -> list[list]:
    """Cut ``cells`` (connected) into ``pieces`` connected parts of about equal size: seeds far
    apart, then the smallest part that can grow takes a free neighbour at random (the cubes'
    six unless ``neighbours`` says otherwise)."""
    cells = list(cells)
    free = set(cells)
    seeds = [rng.choice(cells)]
    while len(seeds) < pieces:  # the cell farthest (in steps) from every seed so far, ties at random
        far = max(sorted(free - set(seeds)), key=lambda c: (min(sum(abs(a - b) for a, b in zip(c, s)) for s in seeds), rng.random()))
        seeds.append(far)
    parts = [[s] for s in seeds]
    free -= set(seeds)
    while free:
        growing = [p for p in parts if any(n in free for c in p for n in neighbours(c))]
        part = min(growing, key=lambda p: (len(p), rng.random()))
        border = sorted({n for c in part for n in neighbours(c) if n in free})
        cell = rng.choice(border)
        part.append(cell)
        free.discard(cell)
    return parts


def checker(cell) -> int:
    return 1 + sum(cell) % 2


class Shape:
    """A voxel shape: cell -> (state, colour), with a name."""

    def __init__(self, voxels: dict, name: str = ""):
        low = [min(c[i] for c in voxels) for i in range(3)]
        self.voxels = {tuple(a - b for a, b in zip(c, low)): v for c, v in voxels.items()}
        self.size = [max(c[i] for c in self.voxels) + 1 for i in range(3)]
        self.name = name

    def xml(self) -> str:
        sx, sy, sz = self.size
        text = []
        for z in range(sz):
            for y in range(sy):
                for x in range(sx):
                    state, colour = self.voxels.get((x, y, z), ("_", 0))
                    text.append(state + (str(colour) if colour else ""))
        name = f' name="{self.name}"' if self.name else ""
        return f'<voxel x="{sx}" y="{sy}" z="{sz}" type="0"{name}>{"".join(text)}</voxel>'


def piece(cells, colour=None, name="") -> Shape:
    return Shape({c: ("#", colour(c) if colour else 0) for c in cells}, name)


def puzzle_xml(shapes, parts, result: int, name: str, colours: int = 0, pairs=(), comment: str = "",
               max_holes: int | None = None) -> str:
    """``parts``: (shape id, count) or (shape id, (min, max)); ``max_holes``: the problem's
    maxHoles."""
    lines = ['<?xml version="1.0"?>', '<puzzle version="2">', ' <gridType type="0"/>']
    palette = [(200, 40, 40), (40, 40, 200), (40, 160, 40)]
    lines.append(" <colors>" + "".join(f'<color red="{r}" green="{g}" blue="{b}"/>' for r, g, b in palette[:colours]) + "</colors>")
    lines.append(" <shapes>")
    lines += ["  " + s.xml() for s in shapes]
    lines.append(" </shapes>")
    lines.append(" <problems>")
    holes = "" if max_holes is None else f' maxHoles="{max_holes}"'
    lines.append(f'  <problem name="{name}"{holes}>')
    lines.append("   <shapes>")
    for shape, count in parts:
        if isinstance(count, tuple):
            lines.append(f'    <shape id="{shape}" min="{count[0]}" max="{count[1]}"/>')
        else:
            lines.append(f'    <shape id="{shape}" count="{count}"/>')
    lines.append("   </shapes>")
    lines.append(f'   <result id="{result}"/>')
    lines.append("   <bitmap>" + "".join(f'<pair piece="{p}" result="{r}"/>' for p, r in pairs) + "</bitmap>")
    lines.append("  </problem>")
    lines.append(" </problems>")
    lines.append(f" <comment>{comment}</comment>" if comment else " <comment/>")
    lines.append("</puzzle>")
    return "\n".join(lines) + "\n"


def dissected(cells, count, seed, colour=None, result_states=None, name=""):
    """A puzzle: ``cells`` cut into ``count`` pieces; the result's voxels are ``#`` unless
    ``result_states`` says otherwise."""
    rng = random.Random(seed)
    parts = dissect(cells, count, rng)
    shapes = [piece(p, colour) for p in parts]
    states = result_states or {}
    result = Shape({c: (states.get(c, "#"), colour(c) if colour else 0) for c in cells}, name)
    return shapes, result


def simple(shapes, result, name, colours=0, pairs=(), comment=""):
    return puzzle_xml(shapes + [result], [(k, 1) for k in range(len(shapes))], len(shapes), name, colours, pairs, comment)


def colour_cube():
    shapes, result = dissected(box(5, 5, 4), 10, 7, checker, name="Colour cube")
    return simple(shapes, result, "Colour cube", 2, [(0, 0), (1, 1)])


def keys_in_a_box():
    rng = random.Random(11)
    n = 10
    cells = box(n, n, n)
    inside = [c for c in cells if all(0 < v < n - 1 for v in c)]
    shell = [c for c in cells if c not in set(inside)]
    keys = dissect(inside, 5, rng)
    taken = set()
    for key in keys:  # each key reaches out through two holes in the shell
        touching = sorted({s for c in key for s in neighbours(c) if s in set(shell) and s not in taken})
        for hole in rng.sample(touching, 2):
            key.append(hole)
            taken.add(hole)
    container = [c for c in shell if c not in taken]
    shapes = [piece(container)] + [piece(k) for k in keys]
    return simple(shapes, piece(cells, name="Keys in a box"), "Keys in a box")


def cube_9():
    shapes, result = dissected(box(4, 4, 4), 9, 3, name="Nine-piece cube")
    return simple(shapes, result, "Nine-piece cube")


def burr_box_8():
    shapes, result = dissected(box(8, 8, 8), 8, 5, checker, name="Burr box")
    return simple(shapes, result, "Burr box", 2, [(0, 0), (1, 1)])


def cage_216():
    rng = random.Random(13)
    cells = box(8, 8, 8)
    inside = {c for c in cells if all(0 < v < 7 for v in c)}
    shell = [c for c in cells if c not in inside]
    parts = dissect(shell, 7, rng)
    for part in parts[:4]:  # these reach inside with a bar of two or three voxels
        start = rng.choice(sorted({n for c in part for n in neighbours(c) if n in inside}))
        step = next(tuple(a - b for a, b in zip(start, c)) for c in part if start in neighbours(c))
        bar = [tuple(a + k * b for a, b in zip(start, step)) for k in range(rng.choice((2, 3)))]
        part.extend(c for c in bar if c in inside)
        inside_taken = set(bar)
        inside -= inside_taken
    states = {c: "+" for c in cells if all(0 < v < 7 for v in c)}
    shapes = [piece(p) for p in parts]
    result = Shape({c: (states.get(c, "#"), 0) for c in cells}, "Cage")
    return simple(shapes, result, "Cage")


def partly_coloured(pieces: int, share: float, seed: int, name: str) -> str:
    """A 4x4x4 cube whose voxels have colour 1 or 2 at random, cut into ``pieces`` pieces
    whose voxels carry their colour with probability ``share`` and are neutral otherwise."""
    rng = random.Random(100 + seed)
    cells = box(4, 4, 4)
    colour = {c: rng.randint(1, 2) for c in cells}
    kept = {c: rng.random() < share for c in cells}
    shapes, _ = dissected(cells, pieces, seed, lambda c: colour[c] if kept[c] else 0)
    result = Shape({c: ("#", colour[c]) for c in cells}, name)
    return simple(shapes, result, name, 2, [(0, 0), (1, 1)])


def cube_15():
    return partly_coloured(15, 0.8, 1, "Fifteen-piece cube")


def cube_15_slow():
    return partly_coloured(15, 0.7, 1, "Fifteen-piece cube, fewer colours")


def cube_16_colours():
    return partly_coloured(16, 0.9, 1, "Sixteen-piece cube")


TETRACUBES = {  # six of the eight tetracubes, as (x, y, z) cells
    "I": [(0, 0, 0), (1, 0, 0), (2, 0, 0), (3, 0, 0)],
    "O": [(0, 0, 0), (1, 0, 0), (0, 1, 0), (1, 1, 0)],
    "T": [(0, 0, 0), (1, 0, 0), (2, 0, 0), (1, 1, 0)],
    "L": [(0, 0, 0), (1, 0, 0), (2, 0, 0), (0, 1, 0)],
    "S": [(0, 0, 0), (1, 0, 0), (1, 1, 0), (2, 1, 0)],
    "B": [(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1)],
}


def counts():
    shapes = [piece(cells, name=name) for name, cells in TETRACUBES.items()]
    corners = {(x, y, z) for x in (0, 2) for y in (0, 2) for z in (0, 2)}
    result = Shape({c: ("+" if c in corners else "#", 0) for c in box(3, 3, 3)}, "Corners optional")
    parts = [(k, (0, 2)) for k in range(len(shapes))]
    return puzzle_xml(shapes + [result], parts, len(shapes), "Corners optional")


def counts_no_total():
    """``counts`` with at most two corners left empty (maxHoles): 25 to 27 voxels to fill, and
    tetracubes cover a multiple of 4, so no choice of counts adds up; BurrTools counts 0
    assemblies."""
    shapes = [piece(cells, name=name) for name, cells in TETRACUBES.items()]
    corners = {(x, y, z) for x in (0, 2) for y in (0, 2) for z in (0, 2)}
    result = Shape({c: ("+" if c in corners else "#", 0) for c in box(3, 3, 3)}, "No total adds up")
    parts = [(k, (0, 2)) for k in range(len(shapes))]
    return puzzle_xml(shapes + [result], parts, len(shapes), "No total adds up", max_holes=2)


def max_holes():
    """A 4x3x2 box with six optional voxels, filled with at most one each of six tetracubes,
    two trominoes and a domino, leaving at most two voxels empty (maxHoles): pieces of three
    sizes, so the limit is no limit on how many pieces are used."""
    shapes = [piece(cells, name=name) for name, cells in TETRACUBES.items()]
    shapes += [piece([(0, 0, 0), (1, 0, 0), (0, 1, 0)], name="V"), piece([(0, 0, 0), (1, 0, 0), (2, 0, 0)], name="I3"),
               piece([(0, 0, 0), (1, 0, 0)], name="D")]
    optional = {(0, 0, 0), (3, 0, 0), (0, 2, 0), (3, 2, 0), (1, 1, 1), (2, 1, 1)}
    result = Shape({c: ("+" if c in optional else "#", 0) for c in box(4, 3, 2)}, "Two holes at most")
    parts = [(k, (0, 1)) for k in range(len(shapes))]
    return puzzle_xml(shapes + [result], parts, len(shapes), "Two holes at most", max_holes=2)


def frame_40():
    rng = random.Random(17)
    n = 40
    top = n - 1
    corners = [(x, y, z) for x in (0, top) for y in (0, top) for z in (0, top)]
    parts = {c: [c] for c in corners}
    for a in corners:
        for axis in range(3):
            if a[axis] != 0:
                continue
            b = tuple(top if i == axis else v for i, v in enumerate(a))
            cut = rng.randrange(3, n - 4)  # voxels 1..cut go to a's piece, the rest to b's
            for k in range(1, top):
                cell = tuple(k if i == axis else v for i, v in enumerate(a))
                parts[a if k <= cut else b].append(cell)
    cells = [c for p in parts.values() for c in p]
    shapes = [piece(p) for p in parts.values()]
    return simple(shapes, piece(cells, name="Frame"), "Frame")


SOMA = {  # the Soma pieces as (x, y, z) cells
    "V": [(0, 0, 0), (1, 0, 0), (0, 1, 0)],
    "L": [(0, 0, 0), (1, 0, 0), (2, 0, 0), (0, 1, 0)],
    "T": [(0, 0, 0), (1, 0, 0), (2, 0, 0), (1, 1, 0)],
    "Z": [(0, 0, 0), (1, 0, 0), (1, 1, 0), (2, 1, 0)],
    "A": [(0, 0, 0), (1, 0, 0), (1, 1, 0), (1, 1, 1)],
    "B": [(0, 0, 0), (1, 0, 0), (1, 1, 0), (0, 0, 1)],
    "P": [(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1)],
}


def soma(name: str, piece_colours=None, cube_colours=None) -> str:
    """The Soma cube with some colours and no rule (an empty bitmap): colours that restrict no
    placement still count, as in BurrTools. ``piece_colours``: name -> {cell: colour}."""
    shapes = [Shape({c: ("#", (piece_colours or {}).get(n, {}).get(c, 0)) for c in cells}, n) for n, cells in SOMA.items()]
    cube = Shape({c: ("#", (cube_colours or {}).get(c, 0)) for c in box(3, 3, 3)}, name)
    return simple(shapes, cube, name, 2)


def umlaut() -> bytes:
    shapes, result = dissected(box(3, 3, 3), 6, 19, name="Würfel")
    text = simple(shapes, result, "Würfel für Jürgen", comment="Entworfen von Jürgen Müller, Köln")
    return text.encode("latin-1")


def on_lattice(name: str, lattice_name: str, cells, count: int, seed: int) -> bytes:
    """A puzzle on one of BurrTools' other grids: ``cells`` of the lattice cut at random into
    ``count`` pieces, written by polyfit's BurrTools writer, whose files burrTxt2 reads (the
    tests check it on every grid)."""
    from polyfit.lattices import base as lattices

    lattice = lattices.get(lattice_name)
    cells = sorted(cells)
    return written(name, lattice, cells, dissect(cells, count, random.Random(seed), lattice.neighbours))


def written(name: str, lattice, cells, parts) -> bytes:
    from polyfit.formats.burrtools import xmpuzzle_bytes
    from polyfit.puzzle.board import Board
    from polyfit.puzzle.pieces import Piece

    board = Board(tuple(cells), name=name, lattice=lattice)
    pieces = [Piece(chr(65 + k), tuple(part), mirror=False, lattice=lattice) for k, part in enumerate(parts)]
    return xmpuzzle_bytes(board, pieces, name=name)


def rhombic_dodecahedra(name: str, blocks: int, count: int, seed: int) -> bytes:
    """The rhombic dodecahedra about the blocks of a cube of ``blocks`` blocks a side whose
    coordinates add up to an even number (they pack face to face), cut at random into
    ``count`` pieces of whole dodecahedra, as designers of such puzzles make them."""
    from polyfit.lattices.finegrids import RHOMBIC

    centres = [b for b in itertools.product(range(blocks), repeat=3) if sum(b) % 2 == 0]
    steps = [s for s in itertools.product((-1, 0, 1), repeat=3) if sorted(map(abs, s)) == [0, 1, 1]]

    def touching(b):  # the dodecahedra sharing a face with this one
        return [tuple(x + y for x, y in zip(b, s)) for s in steps]

    parts = dissect(centres, count, random.Random(seed), touching)
    cells = sorted({c for b in centres for c in RHOMBIC.dodecahedron(b)})
    return written(name, RHOMBIC, cells, [[c for b in part for c in RHOMBIC.dodecahedron(b)] for part in parts])


def lattice_box(lattice_name: str, sides) -> list:
    from polyfit.lattices import base as lattices

    lattice = lattices.get(lattice_name)
    return [c for c in itertools.product(*map(range, sides)) if lattice.is_cell(c)]


def other_grids() -> dict[str, bytes]:
    """One puzzle on each of BurrTools' other grids, big for its kind."""
    return {
        "spheres-500": on_lattice("spheres-500", "spheres", lattice_box("spheres", (10, 10, 10)), 10, 2),
        "prisms-768": on_lattice("prisms-768", "prisms", lattice_box("prisms", (6, 8, 16)), 8, 3),
        "tetra-octa-320": on_lattice("tetra-octa-320", "tetra-octa", lattice_box("tetra-octa", (12, 12, 12)), 8, 4),
        "rhombic-32": rhombic_dodecahedra("rhombic-32", 4, 8, 5),
        # bigger than designers make them: placements of hundreds of cells each
        "spheres-1372": on_lattice("spheres-1372", "spheres", lattice_box("spheres", (14, 14, 14)), 14, 7),
        "prisms-2880": on_lattice("prisms-2880", "prisms", lattice_box("prisms", (10, 12, 24)), 12, 8),
    }


def files() -> dict[str, bytes]:
    made = {
        "colour-cube": colour_cube(),
        "keys-in-a-box": keys_in_a_box(),
        "cube-9": cube_9(),
        "burr-box-8": burr_box_8(),
        "cage-216": cage_216(),
        "cube-15": cube_15(),
        "cube-15-slow": cube_15_slow(),
        "cube-16-colours": cube_16_colours(),
        "counts": counts(),
        "max-holes": max_holes(),
        "counts-no-total": counts_no_total(),
        "frame-40": frame_40(),
        # Colours that restrict nothing, as BurrTools counts them:
        "soma-marked-corner": soma("A marked corner", cube_colours={(0, 0, 0): 1}),
        "soma-two-coloured-t": soma("A two-coloured T", piece_colours={"T": {(0, 0, 0): 1}}),
        "soma-coloured-mirror-pair": soma("Mirror pieces of two colours", piece_colours={
            "A": {c: 1 for c in SOMA["A"]}, "B": {c: 2 for c in SOMA["B"]}}),
    }
    result = {f"{name}.xmpuzzle": gzip.compress(text.encode("ascii"), mtime=0) for name, text in made.items()}
    result["umlaut.xmpuzzle"] = umlaut()  # plain XML, as BurrTools writes it uncompressed
    result.update({f"{name}.xmpuzzle": data for name, data in other_grids().items()})
    return result


CUBE_KINDS = ("box", "flat", "optional", "counts", "big")
OTHER_KINDS = ("prisms", "spheres", "tetra-octa", "rhombic")


def random_puzzle(rng: random.Random, number: int) -> tuple[str, bytes]:
    """One puzzle made at random (see the module docstring): its file name and its bytes."""
    kind = rng.choice(CUBE_KINDS + OTHER_KINDS)
    if kind == "rhombic":
        blocks, count = rng.randint(3, 4), rng.randint(3, 8)
        return f"{number:03d}-rhombic-{blocks}-{count}p.xmpuzzle", rhombic_dodecahedra(f"r{number}", blocks, count, rng.randrange(1 << 30))
    if kind in OTHER_KINDS:
        sides = {"prisms": (rng.randint(1, 6), rng.randint(2, 8), rng.randint(4, 16)),
                 "spheres": tuple(rng.randint(3, 10) for _ in range(3)),
                 "tetra-octa": tuple(rng.randint(4, 10) for _ in range(3))}[kind]
        cells = lattice_box(kind, sides)
        count = max(2, min(14, len(cells) // rng.randint(4, 40)))
        name = f"{number:03d}-{kind}-{'x'.join(map(str, sides))}-{count}p.xmpuzzle"
        return name, on_lattice(name, kind, cells, count, rng.randrange(1 << 30))
    if kind == "flat":
        sides = (rng.randint(4, 10), rng.randint(4, 10), 1)
    elif kind == "big":
        sides = (rng.randint(5, 9), rng.randint(5, 9), rng.randint(4, 8))
    else:
        sides = (rng.randint(2, 7), rng.randint(2, 7), rng.randint(2, 7))
    cells = box(*sides)
    size = rng.randint(30, 90) if kind == "big" else rng.randint(3, 30)
    parts = dissect(cells, max(2, min(16, len(cells) // size)), rng)
    result = {c: ("#", 0) for c in cells}
    counts = [(k, 1) for k in range(len(parts))]
    if kind == "optional":  # a layer on top, half of it there, that may stay empty
        sx, sy, sz = sides
        result.update({(x, y, sz): ("+", 0) for x in range(sx) for y in range(sy) if rng.random() < 0.5})
    if kind == "counts":  # each piece 0 to 2 times, a tenth of the voxels optional
        counts = [(k, (0, 2)) for k in range(len(parts))]
        result.update({c: ("+", 0) for c in rng.sample(cells, max(1, len(cells) // 10))})
    shapes = [piece(p, name=chr(65 + k)) for k, p in enumerate(parts)] + [Shape(result, "result")]
    name = f"{number:03d}-{kind}-{'x'.join(map(str, sides))}-{len(parts)}p.xmpuzzle"
    return name, puzzle_xml(shapes, counts, len(parts), name).encode("ascii")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--random", type=int, metavar="N", help="write N puzzles made at random instead")
    parser.add_argument("--seed", type=int, default=1, help="the seed of --random (default 1)")
    args = parser.parse_args()
    if args.random is not None:
        if args.out == OUT:
            parser.error("--random writes into a folder of its own: give --out DIR")
        args.out.mkdir(parents=True, exist_ok=True)
        rng = random.Random(args.seed)
        for number in range(args.random):
            name, data = random_puzzle(rng, number)
            (args.out / name).write_bytes(data)
            print(args.out / name)
        return
    args.out.mkdir(parents=True, exist_ok=True)
    for name, data in files().items():
        (args.out / name).write_bytes(data)
        print(f"{args.out / name}: {len(data):,} bytes")


if __name__ == "__main__":
    main()
