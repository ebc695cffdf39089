"""Disassembly on triangular prisms (BurrTools' grid type 1): the pair limits against the
triangles themselves, every move list replayed by the independent checker (``helpers.replay``
with ``prisms=True``: continuous slides of real triangles), and BurrTools 0.7.1's answers on the
puzzles ``benchmarks/prism_puzzles.py`` makes (recorded by ``benchmarks/burrtools_levels.py``,
and run live where BurrTools is built)."""

from __future__ import annotations

import gzip
import json
import random
import sys

import pytest

import polyfit
from helpers import BURRTXT2, ROOT, assert_tally_is_burrtools, prism_slide, replay, run_cli
from polyfit.errors import PolyfitError
from polyfit.formats import burrtools
from polyfit.lattices.prisms import PRISMS
from polyfit.longsearch import disassembly
from polyfit.motion import Disassembler
from polyfit.motion.prisms import DIRECTIONS, MOTION, SweptContext, frame
from polyfit.motion.search import FREE

DATA = ROOT / "tests" / "data" / "burrtools" / "prisms" / "disassembly"
FILES = sorted(DATA.glob("*.xmpuzzle"))
SLOW = {"box-6", "sym-1", "sym-5", "sym-3", "sym-7"}  # replaying every assembly takes 1.5 to 5 s each


def answers(path):
    return json.loads(gzip.decompress(path.with_name(path.stem + ".burrtools.json.gz").read_bytes()))


def random_piece(rng, size):
    cells = {(0, 0, 0)}
    while len(cells) < size:
        cells.add(rng.choice(list(PRISMS.neighbours(rng.choice(sorted(cells))))))
    return sorted(cells)


def test_pair_limits_are_how_far_the_triangles_slide():
    """For random pairs of small pieces, ``d`` steps along each direction slide free (the real
    triangles, sampled) and ``d + 1`` do not; ``FREE``: the piece slides on for ever."""
    rng = random.Random(7)
    context = SweptContext()
    checked, met = 0, [0] * len(DIRECTIONS)
    while checked < 120:
        a, b = random_piece(rng, rng.randint(1, 4)), random_piece(rng, rng.randint(1, 4))
        shift = (rng.randint(-1, 1), rng.randint(-2, 2), rng.randint(-3, 3))
        b = [tuple(x + s for x, s in zip(c, shift)) for c in b]
        if (shift[1] + shift[2]) % 2 or set(a) & set(b):
            continue
        checked += 1
        (sa, ba), (sb, bb) = frame(a), frame(b)
        limits = context.pair_limits(context.add_shape(sa), context.add_shape(sb),
                                     tuple(y - x for x, y in zip(ba, bb)))
        for k, (vector, limit) in enumerate(zip(DIRECTIONS, limits)):
            if limit == FREE:
                prism_slide(set(a), set(b), vector, True)
                continue
            met[k] += 1
            if limit:
                prism_slide(set(a), set(b), tuple(limit * v for v in vector), False)
            with pytest.raises(AssertionError):
                prism_slide(set(a), set(b), tuple((limit + 1) * v for v in vector), False)
    assert min(met) >= 3, met  # the pairs do meet, in every direction


def test_the_replay_checker_refuses_what_triangles_forbid():
    up, right = (0, 0, 0), (0, 0, 1)  # an up triangle and the down one beside it
    prism_slide({up}, {right}, (0, -1, -1), True)  # away to the upper left
    prism_slide({up}, {(0, 1, 0)}, (0, -1, 1), True)  # at 60 degrees, off the one below
    with pytest.raises(AssertionError, match="runs into"):
        prism_slide({up}, {right}, (0, -1, 1), False)  # at 60 degrees it crosses the one beside it
    with pytest.raises(AssertionError, match="runs into"):
        prism_slide({up}, {(0, 0, 2)}, (0, 0, 2), False)
    with pytest.raises(AssertionError, match="still blocked"):
        prism_slide({up}, {(0, 0, 4)}, (0, 0, 2), True)
    with pytest.raises(AssertionError, match="turns triangles over"):
        prism_slide({up}, set(), (0, 0, 1), False)


def test_random_assemblies_come_apart_as_their_moves_replay():
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        import prism_puzzles
    finally:
        sys.path.pop(0)
    rng = random.Random(3)
    taker = Disassembler((), motion=MOTION)
    levels = set()
    for k in range(30):
        box, inside = prism_puzzles.box_with_lid(rng, *((3, 4, 1), (2, 6, 1))[k % 2])
        boxed = [box] + prism_puzzles.random_cut(rng, inside, 3)
        block = prism_puzzles.random_cut(rng, prism_puzzles.block(2, 4, 2), 3)
        for pieces, weights in ((boxed, [10, 1, 1, 1]), (boxed, None), (block, None)):
            taken = taker.disassemble(pieces, weights)
            if taken.separates:
                moves = [(m.pieces, m.by, m.removed) for m in taken.moves]
                assert replay(pieces, moves, prisms=True) == taken.level
                levels.add(taken.level)
    assert "1" in levels and any("." in level for level in levels), levels


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_counts_and_levels_equal_burrtools(path):
    assert_tally_is_burrtools(polyfit.load(path), answers(path))


@pytest.mark.parametrize("engine", ["c", "python"])
def test_both_twins_count_and_level_as_burrtools(engine):
    """The C search (its pair limits asked of the Python geometry) and the Python one, each
    alone, on two boxes with lids and a symmetric one."""
    from helpers import native

    if engine == "c":
        native("dlx-c")  # the C extensions built (required under POLYFIT_REQUIRE_C=1)
    for name in ("box-2", "box-7", "sym-2"):
        path = DATA / f"{name}.xmpuzzle"
        puzzle = polyfit.load(path)
        counts, tally = disassembly.count(puzzle, puzzle.backend("auto"), engine=engine)
        expected = answers(path)["default"]
        assert (tally.assemblies, tally.disassemblable) == (expected["assemblies"], expected["solutions"]), name


def test_the_twins_take_random_prism_assemblies_apart_alike():
    """Random cuts of blocks and boxes with lids (weights too, caps met on the way): the C
    search and the Python one give the same status, states, level and moves, move for move."""
    from helpers import native

    native("dlx-c")
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        import prism_puzzles
    finally:
        sys.path.pop(0)
    rng = random.Random(11)
    levels = set()
    for k in range(40):
        box, inside = prism_puzzles.box_with_lid(rng, *((3, 4, 1), (2, 6, 1))[k % 2])
        boxed = [box] + prism_puzzles.random_cut(rng, inside, rng.randint(2, 4))
        block = prism_puzzles.random_cut(rng, prism_puzzles.block(2, 4, 2), rng.randint(2, 4))
        for pieces, weights in ((boxed, [10] + [1] * (len(boxed) - 1)), (boxed, None), (block, None)):
            cap = rng.choice([3, 50, 200_000])
            python, c = (Disassembler((), engine, max_states=cap, motion=MOTION).disassemble(pieces, weights)
                         for engine in ("python", "c"))
            assert (python.status, python.level, python.states) == (c.status, c.level, c.states)
            assert [(m.pieces, m.by, m.removed) for m in python.moves] == [(m.pieces, m.by, m.removed) for m in c.moves]
            levels.add(c.level)
    assert "1" in levels and any(level and "." in level for level in levels), levels


def test_an_error_in_the_pair_limits_reaches_the_caller():
    """The C search asks Python for each pair's limits: an error there comes back as it is."""
    from helpers import native
    from polyfit.motion.native import stepped

    native("dlx-c")
    geometry = SweptContext()

    def broken(first, second, offset):
        raise ValueError(f"asked about {first}, {second} at {offset}")

    geometry.compute_limits = broken
    context = stepped(geometry)
    a, b = frame([(0, 0, 0), (0, 0, 1)]), frame([(0, 0, 2), (0, 0, 3)])
    shapes = [context.add_shape(a[0]), context.add_shape(b[0])]
    with pytest.raises(ValueError, match="asked about 0, 1"):
        context.separate(shapes, [*a[1], *b[1]], [1, 1], [0] * 6, 1000, 2**31)


@pytest.mark.parametrize("path", [pytest.param(p, marks=pytest.mark.slow) if p.stem in SLOW else p for p in FILES],
                         ids=lambda p: p.stem)
def test_every_assembly_burrtools_took_apart_has_its_level_and_replays(path):
    puzzle = polyfit.load(path)
    for key in ("default", "mirror"):
        for found in answers(path)[key]["found"]:
            taken = disassembly.take_apart(puzzle, {k: [tuple(c) for c in v] for k, v in found["pieces"].items()})
            assert (taken.level, taken.total) == (found["level"], found["moves"])
            pieces = [tuple(map(tuple, cells)) for cells in taken.assembly.cells]
            moves = [(m.pieces, m.by, m.removed) for m in taken.result.moves]
            assert replay(pieces, moves, prisms=True) == taken.level


def test_solve_writes_moves_in_prism_coordinates_that_replay(tmp_path):
    out = tmp_path / "box.json"
    result = run_cli(["solve", str(DATA / "box-6.xmpuzzle"), "--disassemble", "--limit", "8", "--output", str(out)])
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    assert len(data["solutions"]) == len(data["disassemblies"]) == 8
    bys = set()
    for solution, taken in zip(data["solutions"], data["disassemblies"]):
        labels = list(solution)
        pieces = [[tuple(c) for c in solution[label]] for label in labels]
        moves = [([labels.index(n) for n in m["pieces"]], m["by"], m["removed"]) for m in taken["moves"]]
        assert replay(pieces, moves, prisms=True) == taken["level"]
        bys |= {tuple(m["by"]) for m in taken["moves"]}
    assert {(0, -1, 1), (0, -1, -1), (1, 0, 0)} <= bys  # slides at 60 and 120 degrees, and up
    assert sorted({t["level"] for t in data["disassemblies"]}) == sorted(answers(DATA / "box-6.xmpuzzle")["default"]["levels"])


def test_separation_trees_of_prisms_read_back_and_replay(tmp_path):
    target = tmp_path / "out.xmpuzzle"
    result = run_cli(["convert", str(DATA / "box-2.xmpuzzle"), str(target), "--solutions", "4", "--disassemble"])
    assert result.exit_code == 0 and "with 4 solutions that come apart" in result.output
    levels = []
    for (_, tree), cells in zip(burrtools.read_separations(target), burrtools.read_assemblies(target)):
        pieces = [list(map(tuple, p)) for p in cells.values()]
        moves = []
        _prism_moves(tree, moves)
        assert replay(pieces, moves, prisms=True) == tree.level()
        levels.append(tree.level())
    assert sorted(levels) == sorted(found["level"] for found in answers(DATA / "box-2.xmpuzzle")["default"]["found"])


def _prism_moves(tree, out):
    """A tree's moves as ``(pieces, by in cells (z, r, c), removed)``: BurrTools' voxel steps
    ``(x, y, z)`` are cells' ``(z, -y, x)``; a removed piece stands 20000 steps out."""
    where = [list(zip(*state)) for state in tree.states]
    for before, after in zip(where, where[1:]):
        moved = [k for k in range(len(before)) if before[k] != after[k]]
        diffs = {tuple(b - a for a, b in zip(before[k], after[k])) for k in moved}
        assert len(diffs) == 1
        dx, dy, dz = next(iter(diffs))
        removed = max(map(abs, (dx, dy, dz))) > 10000
        if removed:
            dx, dy, dz = dx // 20000, dy // 20000, dz // 20000
        out.append(([tree.pieces[k] for k in moved], (dz, -dy, dx), removed))
    for part in (tree.left, tree.removed):
        if part is not None:
            _prism_moves(part, out)


def test_the_exact_ruler_says_it_does_not_slide_prisms():
    puzzle = polyfit.load(DATA / "box-0.xmpuzzle")
    with pytest.raises(PolyfitError, match="exact ruler"):
        disassembly.disassembler(puzzle, ruler="exact")
    result = run_cli(["solve", str(DATA / "box-0.xmpuzzle"), "--disassemble", "--count", "--ruler", "exact"])
    assert result.exit_code == 2 and "exact ruler" in result.output and "Traceback" not in result.output


@pytest.mark.slow
@pytest.mark.skipif(not BURRTXT2.exists(), reason="BurrTools is not built here (bash ../shared/burrtools/build.sh)")
@pytest.mark.parametrize("path", [DATA / "box-2.xmpuzzle", DATA / "box-6.xmpuzzle"], ids=lambda p: p.stem)
def test_burrtools_live_agrees(path):
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        from burrtools_levels import run_burrtxt2
    finally:
        sys.path.pop(0)
    puzzle = polyfit.load(path)
    _, tally = disassembly.count(puzzle, puzzle.backend("auto"))
    assert run_burrtxt2(path, False) == {"assemblies": tally.assemblies, "solutions": tally.disassemblable}
    assert run_burrtxt2(path, False) == {k: answers(path)["default"][k] for k in ("assemblies", "solutions")}


def test_recorded_files_are_the_ones_the_generator_makes():
    assert FILES and all(path.with_name(path.stem + ".burrtools.json.gz").exists() for path in FILES)
    assert {p.stem for p in FILES} == ({f"box-{n}" for n in (0, 2, 3, 4, 5, 6, 7)} | {f"sym-{n}" for n in range(8)}
                                       | {f"cut-{n}" for n in range(4)})
