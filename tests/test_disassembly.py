"""Disassembly (polyfit.motion): hand-made assemblies, the C twin, the replay check, and
BurrTools 0.7.1 as the oracle (its answers recorded in tests/data/disassembly by
benchmarks/burrtools_levels.py; run live too where BurrTools is built)."""

from __future__ import annotations

import gzip
import json
import random
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import polyfit
from polyfit.lattices.base import get
from polyfit.longsearch import disassembly
from polyfit.motion import Disassembler, Groups
from helpers import BURRTXT2, assert_tally_is_burrtools, box, c_engine, cut_at_random, replay

DATA = Path(__file__).parent / "data" / "disassembly"
CUBIC = get("cubic").motion_directions()


@pytest.fixture(params=["python", "c"])
def engine(request):
    """Each test below runs on both twins (the C one required under POLYFIT_REQUIRE_C=1)."""
    return c_engine() if request.param == "c" else "python"


def as_burrtools_deals(groups):
    """The sets of pieces BurrTools' group rule 2 lets stay together: it files a part's group
    counts under its shape number but looks them up by the part's place (see
    polyfit.motion.groups), so a piece counts as in group g when a part whose shape number is
    the piece's part's place has g."""
    found = {}
    for piece, part in enumerate(groups.part_of):
        for other, key in enumerate(groups.keys):
            if key == part:
                for group, _ in groups.groups[other]:
                    found.setdefault(group, set()).add(piece)
    return [sorted(v) for v in found.values()]


def checked(result, pieces, groups=None):
    """Replay the moves and check the level text they make."""
    together = groups.lists() + as_burrtools_deals(groups) if groups is not None else ()
    moves = [(m.pieces, m.by, m.removed) for m in result.moves]
    assert replay(pieces, moves, together) == result.level
    return result


# -- hand-made assemblies ---------------------------------------------------------------------


def test_two_blocks_side_by_side_come_apart_in_one_move(engine):
    pieces = [box(1, 1, 2), box(1, 1, 2, (0, 0, 2))]
    result = checked(Disassembler(CUBIC, engine).disassemble(pieces), pieces)
    assert result.level == "1" and result.total == 1
    # +x is tried first: piece 0 is blocked that way, piece 1 is not (nothing is ahead of it,
    # so one step frees it)
    move = result.moves[0]
    assert move.removed and move.pieces == (1,) and move.by == (0, 0, 1)


def test_a_piece_in_a_cup_needs_two_moves(engine):
    # a cup open at the top (+z) with a lip over half of it; the piece inside goes sideways, up
    cup = [c for c in box(3, 3, 4) if not (c[0] >= 1 and c[1] == 1 and 1 <= c[2] <= 2)]
    cup = [c for c in cup if not (c[0] == 2 and c[1] == 1 and c[2] == 2)]
    inside = [(1, 1, 1), (1, 1, 2)]
    lid = [c for c in cup if c[0] == 2]
    body = [c for c in cup if c[0] < 2]
    pieces = [body + lid, inside]
    result = Disassembler(CUBIC, engine).disassemble(pieces)
    checked(result, pieces)
    assert result.level is not None


def test_two_rings_that_hold_each_other_do_not_come_apart(engine):
    # two square rings, linked: A in the plane z = 0 around (0, 1, 1), B in the plane y = 1
    # around A's cell (0, 1, 2), passing through A's hole
    ring_a = [(0, y, x) for y in range(3) for x in range(3) if (y, x) != (1, 1)]
    ring_b = [(z, 1, x) for z in range(-1, 2) for x in range(1, 4) if (z, x) != (0, 2)]
    pieces = [ring_a, ring_b]
    assert not set(ring_a) & set(ring_b)
    result = Disassembler(CUBIC, engine).disassemble(pieces)
    assert result.status == "stuck" and result.level is None and result.moves == []
    # ... unless they may stay together
    grouped = Disassembler(CUBIC, engine).disassemble(pieces, groups=Groups.of(2, [[0, 1]]))
    assert grouped.status == "stuck"  # a whole assembly that does not move is not "taken apart"
    third = box(1, 1, 1, (5, 5, 5))
    three = [ring_a, ring_b, third]
    assert Disassembler(CUBIC, engine).disassemble(three).status == "stuck"
    result = Disassembler(CUBIC, engine).disassemble(three, groups=Groups.of(3, [[0, 1]]))
    assert result.level == "1"
    checked(result, three, Groups.of(3, [[0, 1]]))


def test_the_heavier_part_stays_put(engine):
    pieces = [box(1, 1, 2), box(1, 1, 2, (0, 0, 2))]
    light = Disassembler(CUBIC, engine).disassemble(pieces, weights=[1, 1]).moves[0]
    heavy = Disassembler(CUBIC, engine).disassemble(pieces, weights=[1, 5]).moves[0]
    assert light.pieces == (1,) and light.by == (0, 0, 1)
    assert heavy.pieces == (0,) and heavy.by == (0, 0, -1)


def test_a_cap_on_states_makes_the_level_unknown_never_stuck(engine):
    path = DATA / "SolidSixPieceBurrs.xmpuzzle"
    found = json.loads(gzip.decompress((DATA / "SolidSixPieceBurrs.burrtools.json.gz").read_bytes()))
    deep = next(f for f in found["default"]["found"] if f["level"] == "1.2")
    pieces = [tuple(map(tuple, v)) for v in deep["pieces"].values()]
    assert Disassembler(CUBIC, engine).disassemble(pieces).level == "1.2"
    capped = Disassembler(CUBIC, engine, max_states=3).disassemble(pieces)
    assert capped.status == "unknown" and capped.level == "unknown" and capped.moves == []
    low_memory = Disassembler(CUBIC, engine, max_bytes=1000).disassemble(pieces)
    assert low_memory.level == "unknown"
    assert path.exists()


def test_an_unknown_engine_names_the_valid_ones():
    with pytest.raises(polyfit.PolyfitError, match="valid disassembly engines: auto, c, python"):
        Disassembler(CUBIC, "fortran")


def test_squares_slide_in_the_plane():
    pieces = [[(0, 0), (0, 1)], [(1, 0), (1, 1)]]
    result = Disassembler(get("square").motion_directions()).disassemble(pieces)
    assert result.level == "1"
    checked(result, pieces)


# -- the C twin -------------------------------------------------------------------------------


@st.composite
def assemblies(draw):
    """Pieces cut at random from a small box, some cells left empty, maybe weights and groups."""
    size = (draw(st.integers(1, 3)), draw(st.integers(2, 3)), draw(st.integers(2, 4)))
    count = draw(st.integers(2, 5))
    rng = random.Random(draw(st.integers(0, 10**9)))
    holes = draw(st.sampled_from([0.0, 0.15, 0.3]))
    pieces = cut_at_random(rng, size, count, holes)
    weights = [rng.choice((1, 1, 2, 5)) for _ in pieces] if draw(st.booleans()) else None
    groups = None
    if draw(st.booleans()):
        members = rng.sample(range(len(pieces)), rng.randint(2, len(pieces)))
        groups = Groups.of(len(pieces), [members])
    return pieces, weights, groups


@given(assemblies())
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_the_c_twin_takes_apart_as_the_python_one(found):
    c_engine()
    pieces, weights, groups = found
    results = [Disassembler(CUBIC, engine, max_states=20_000).disassemble(pieces, weights, groups)
               for engine in ("python", "c")]
    python, c = results
    assert (python.status, python.level, python.states) == (c.status, c.level, c.states)
    assert python.moves == c.moves
    if python.separates:
        checked(python, pieces, groups)


def drive(engine, pieces, weights, groups, max_states, moves):
    """The driver of one twin on an assembly, straight: its answer and the stuck parts it
    handed to the group dealer (rule 2), in order."""
    from polyfit.motion import native

    taker = Disassembler(CUBIC, engine)
    shapes, bases = zip(*(taker.shape(cells) for cells in pieces))
    dealer = groups.dealer()
    asked = []

    def stuck(members):
        asked.append(tuple(members))
        return dealer.deal(members)

    answer = native.take_apart(taker._context, list(shapes), [v for b in bases for v in b], weights,
                               groups.numbers, max_states, 2**31, moves, stuck)
    return answer, asked


@st.composite
def grouped_assemblies(draw):
    """Random assemblies with groups of every kind: a piece in no group, in one, or in
    several with counts (so that rule 2, the dealer, has parts to deal)."""
    pieces, weights, _ = draw(assemblies())
    rng = random.Random(draw(st.integers(0, 10**9)))
    n = len(pieces)
    pairs = tuple(tuple((g, rng.randint(1, 2)) for g in sorted(rng.sample(range(1, 4), rng.randint(0, 2))))
                  for _ in range(n))
    groups = Groups(tuple(range(n)), pairs, tuple(range(n)))
    return pieces, weights or (1,) * n, groups, draw(st.sampled_from([2, 5, 20_000]))


@given(grouped_assemblies())
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_the_twin_drivers_take_apart_alike(found):
    """The whole take-apart, call for call: status, states, level text, total, the tree of
    paths (when asked for), and the stuck parts handed to the dealer; without the moves the
    same answer but no tree."""
    from polyfit.motion.plan import tree_of

    c_engine()
    pieces, weights, groups, cap = found
    python, asked = drive("python", pieces, weights, groups, cap, True)
    assert drive("c", pieces, weights, groups, cap, True) == (python, asked)
    bare = (*python[:4], None)
    assert drive("c", pieces, weights, groups, cap, False) == (bare, asked)
    assert drive("python", pieces, weights, groups, cap, False) == (bare, asked)
    status, _, level, total, tree = python
    if status == 0:
        separation = tree_of(tree, 3)
        assert (level, total) == (separation.level(), separation.total())
    else:
        assert (level, total, tree) == (None, 0, None)


@given(assemblies(), st.integers(0, 10**9), st.sampled_from([2, 5, 20_000]), st.sampled_from([2, 3]))
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_the_twins_take_placements_apart_alike(found, seed, cap, dim):
    """``level_of`` (a count's shortcut: placements by index into per-placement tables, put in
    order by place, no groups) answers in C as in Python, and as the whole take-apart of the
    pieces in that order does; on squares too (the C module pads them to three coordinates)."""
    from polyfit.motion import native

    c_engine()
    pieces, weights, _ = found
    if dim == 2:
        pieces = [[c[1:] for c in cells if c[0] == 0] for cells in pieces]
        pieces = [cells for cells in pieces if cells]
        if len(pieces) < 2:
            return
    rng = random.Random(seed)
    weights = list(weights or [1] * len(pieces))[:len(pieces)]
    place = [rng.randint(0, 3) for _ in pieces]  # ties are kept in the placements' order
    chosen = tuple(rng.sample(range(len(pieces)), len(pieces)))
    directions = CUBIC if dim == 3 else get("square").motion_directions()
    answers = []
    for engine in ("python", "c"):
        taker = Disassembler(directions, engine, max_states=cap)
        shapes, bases = zip(*(taker.shape(cells) for cells in pieces))
        table = taker.level_table(place, shapes, [v for b in bases for v in b], weights)
        order = sorted(chosen, key=place.__getitem__)
        whole = taker.level_only([shapes[i] for i in order], [v for i in order for v in bases[i]],
                                 [weights[i] for i in order], Groups.none(len(order)))
        answers.append(taker.level_of(chosen, table))
        assert answers[-1] == whole
        states = answers[-1][2]
        assert native.level_of(taker._context, chosen, table, cap, 2**31)[1] == states
    assert answers[0] == answers[1]


def test_an_error_in_the_group_dealer_reaches_the_caller(engine):
    """Two rings that hold each other, in a box: the rings are a stuck part handed to the
    dealer, whose error comes back as it is."""
    from polyfit.motion import native

    ring_a = [(0, y, x) for y in range(3) for x in range(3) if (y, x) != (1, 1)]  # as in the test above
    ring_b = [(z, 1, x) for z in range(-1, 2) for x in range(1, 4) if (z, x) != (0, 2)]
    loose = box(1, 1, 1, (5, 5, 5))
    taker = Disassembler(CUBIC, engine)
    shapes, bases = zip(*(taker.shape(cells) for cells in (loose, ring_a, ring_b)))

    def stuck(members):
        raise ValueError(f"dealer asked about {members}")

    with pytest.raises(ValueError, match=r"dealer asked about \(1, 2\)"):
        native.take_apart(taker._context, list(shapes), [v for b in bases for v in b], [1, 1, 1],
                          Groups.none(3).numbers, 10_000, 2**31, False, stuck)


# -- BurrTools as the oracle --------------------------------------------------------------------


def recorded():
    """The puzzles with BurrTools' answers; the big one marked slow."""
    return [pytest.param(p, marks=pytest.mark.slow) if p.name.startswith("SolidSix") else p
            for p in sorted(DATA.glob("*.burrtools.json.gz"))]


def answers(path):
    return json.loads(gzip.decompress(path.read_bytes()))


def puzzle_of(path):
    return DATA / path.name.replace(".burrtools.json.gz", ".xmpuzzle")


@pytest.mark.parametrize("path", recorded(), ids=lambda p: p.name.split(".")[0] if isinstance(p, Path) else None)
def test_every_assembly_burrtools_took_apart_has_its_level_here(path):
    """BurrTools' own assemblies (its orientation, its piece order): the same level text and
    total moves, and every move list replays."""
    board = polyfit.read_board(puzzle_of(path))
    taker = Disassembler(CUBIC)
    for key in ("default", "mirror"):
        for found in answers(path)[key]["found"]:
            puzzle_pieces = {p.name: k for k, p in enumerate(board.pieces)}
            labels = list(found["pieces"])
            pieces = [tuple(map(tuple, found["pieces"][label])) for label in labels]
            rules = board.motion
            part_of = tuple(puzzle_pieces[label.split("#")[0]] for label in labels)
            groups = Groups(part_of, tuple(r[1] for r in rules), tuple(r[2] for r in rules))
            weights = [rules[k][0] for k in part_of]
            result = taker.disassemble(pieces, weights, groups)
            assert (result.level, result.total) == (found["level"], found["moves"]), labels
            checked(result, pieces, groups)


@pytest.mark.parametrize("path", recorded(), ids=lambda p: p.name.split(".")[0] if isinstance(p, Path) else None)
def test_polyfit_counts_and_levels_equal_burrtools(path):
    assert_tally_is_burrtools(polyfit.load(puzzle_of(path)), answers(path))


def _least_image(puzzle, placements, rotations_only):
    """BurrTools' choice written out plainly, as a reference: every image of the solution under
    the symmetries, its placements as (piece, copy order) keys, the symmetry breaker's piece
    first, sorted; the least (the first symmetry on a tie)."""
    cover, rules = puzzle.cover, puzzle.board.motion
    pivot = disassembly._pivot(puzzle)
    pivot_piece = -1 if pivot is None else next(
        k for k in range(len(puzzle.pieces)) if sum(p.count[1] for p in puzzle.pieces[:k]) == pivot)

    def key(i):
        placement = puzzle.placements[i]
        rule = rules[placement.piece]
        order = disassembly._copy_order(rule[3] if len(rule) > 3 else None, placement.cells)
        return (placement.piece != pivot_piece, placement.piece, order)

    best = None
    for sym in cover.symmetries:
        if rotations_only and not sym.is_proper:
            continue
        image = tuple(cover.table(sym)[i] for i in placements)
        order = sorted(key(i) for i in image)
        if best is None or order < best[0]:
            best = (order, image)
    return best[1]


@pytest.mark.parametrize("name", ["SolidSixPieceBurrs", "knot-1", "group-3"])
def test_the_count_takes_each_assembly_apart_as_a_listing_does(name):
    """The count's short cut (each placement's order, shape and weight worked out once, the
    symmetries looked at once per solution) meets each assembly in the orientation BurrTools
    keeps and in the piece order the listing's path (labels, cells) gives, with its result."""
    puzzle = polyfit.load(DATA / f"{name}.xmpuzzle")
    taker = disassembly.disassembler(puzzle)
    fast = disassembly._pieces(puzzle, taker)
    chooser = disassembly._chooser(puzzle)
    met = 0
    for found in puzzle.search(puzzle.backend("auto"), polyfit.Counts()):
        if not found.canonical:
            continue
        placements = found.placements
        every, proper, mirrored = chooser.choices(placements)
        assert every == _least_image(puzzle, placements, rotations_only=False)
        assert proper == _least_image(puzzle, placements, rotations_only=True)
        image = disassembly.mirror_image(puzzle, placements)
        if image is not None:
            assert frozenset(mirrored) == frozenset(_least_image(puzzle, image, rotations_only=True))
        for chosen in (every, proper):
            slow = disassembly.disassemble(puzzle, disassembly._labelled(puzzle, chosen), taker=taker)[1]
            quick = fast.take_apart(chosen, taker, moves=True)
            assert (quick.status, quick.level, quick.total, quick.states) == (slow.status, slow.level, slow.total, slow.states)
            assert quick.moves == slow.moves
            bare = fast.take_apart(chosen, taker, moves=False)  # no tree, no moves
            assert (bare.status, bare.level, bare.total, bare.states) == (slow.status, slow.level, slow.total, slow.states)
            assert bare.tree is None
            assert fast.level(chosen, taker) == (slow.status, slow.level, slow.states)  # as the count takes it
        met += 1
        if met == 80:
            break
    assert met > 0


def test_the_recorded_answers_cover_deep_and_dotted_levels():
    levels = {level for path in DATA.glob("*.burrtools.json.gz") for level in answers(path)["default"]["levels"]}
    assert "1.2" in levels
    assert any(int(level.split(".")[0]) >= 3 for level in levels), levels
    assert sum("." in level for level in levels) >= 4, levels




@pytest.mark.skipif(not BURRTXT2.exists(), reason="BurrTools is not built here (bash ../shared/burrtools/build.sh)")
def test_burrtools_live_agrees_on_a_small_puzzle():
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
    try:
        from burrtools_levels import run_burrtxt2
    finally:
        sys.path.pop(0)
    path = DATA / "lid-1.xmpuzzle"
    puzzle = polyfit.load(path)
    _, tally = disassembly.count(puzzle, puzzle.backend("auto"))
    assert run_burrtxt2(path, False) == {"assemblies": tally.assemblies, "solutions": tally.disassemblable}


# -- the command line ----------------------------------------------------------------------------


def cli(*args):
    from helpers import run_cli

    return run_cli([str(a) for a in args])


def test_solve_disassemble_count_json_equals_burrtools():
    path = DATA / "lid-3.xmpuzzle"
    answer = answers(DATA / "lid-3.burrtools.json.gz")
    result = cli("solve", path, "--disassemble", "--count", "--json", "--jobs", "1")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["assemblies"] == answer["default"]["assemblies"] == data["distinct"]
    assert data["disassemblable"] == answer["default"]["solutions"]
    assert data["disassemblable_rotations"] == answer["mirror"]["solutions"]
    assert data["levels"] == answer["default"]["levels"]
    assert list(data["levels"]) == sorted(data["levels"], key=lambda lv: [int(n) for n in lv.split(".")])


def test_solve_disassemble_with_jobs_counts_the_same():
    path = DATA / "lid-4.xmpuzzle"
    one = json.loads(cli("solve", path, "--disassemble", "--count", "--json", "--jobs", "1").output)
    two = json.loads(cli("solve", path, "--disassemble", "--count", "--json", "--jobs", "2").output)
    for key in ("assemblies", "disassemblable", "disassemblable_rotations", "levels"):
        assert one[key] == two[key]


def test_solve_disassemble_output_replays(tmp_path):
    """Every move list the JSON holds replays on its solution, and makes its level."""
    path = DATA / "lid-1.xmpuzzle"
    out = tmp_path / "lid.json"
    result = cli("solve", path, "--disassemble", "--limit", "5", "--output", out)
    assert result.exit_code == 0, result.output
    assert result.output.count("Solution ") == 5 and "(level 1." in result.output
    data = json.loads(out.read_text())
    assert len(data["solutions"]) == len(data["disassemblies"]) == 5
    assert data["groups"] == []
    for solution, taken in zip(data["solutions"], data["disassemblies"]):
        labels = list(solution)
        pieces = [[tuple(c) for c in solution[label]] for label in labels]
        moves = [([labels.index(n) for n in m["pieces"]], m["by"], m["removed"]) for m in taken["moves"]]
        assert replay(pieces, moves) == taken["level"]
    expected = answers(DATA / "lid-1.burrtools.json.gz")["default"]["levels"]
    assert {t["level"] for t in data["disassemblies"]} <= set(expected)


def test_solve_disassemble_moves_and_groups_in_json():
    result = cli("solve", DATA / "group-6.xmpuzzle", "--disassemble", "--moves", "--json")
    data = json.loads(result.output)
    assert [t["level"] for t in data["disassemblies"]] == ["1"]
    assert data["groups"] == [["D"], ["B", "D"]]  # group 1: D; group 2: B and D
    shown = cli("solve", DATA / "burr-5.xmpuzzle", "--disassemble", "--moves", "--limit", "1")
    assert "(level 5.2.2.2, 12 moves)" in shown.output
    assert "  5. C by (0, 0, -1), out" in shown.output


def test_solve_disassemble_state_cap_says_unknown():
    result = cli("solve", DATA / "burr-5.xmpuzzle", "--disassemble", "--count", "--max-states", "2")
    assert result.exit_code == 0, result.output
    assert "0 come apart" in result.output
    assert "2 assemblies reached the state cap: level unknown" in result.output


@pytest.mark.parametrize("args, message", [
    (["--moves"], "--moves, --max-states and --ruler go with --disassemble"),
    (["--disassemble", "--all"], "--disassemble does not go with --all"),
    (["--disassemble", "--count", "--png", "x.png"], "--count prints no solutions to draw"),
    (["--disassemble", "--count", "--output", "x.json"], "--count prints no solutions to write"),
])
def test_solve_disassemble_refuses_what_does_not_fit(args, message):
    result = cli("solve", DATA / "lid-2.xmpuzzle", *args)
    assert result.exit_code == 2
    assert message in result.output


def test_disassembly_on_a_lattice_without_directions_is_a_clear_error(tmp_path):
    board = tmp_path / "tri.txt"
    board.write_text("; lattice: triangle\n; pieces: 2*moniamond\n##\n")
    result = cli("solve", board, "--disassemble")
    assert result.exit_code == 2, result.output
    assert "disassembly is not available on the triangle lattice yet" in result.output


def test_the_replay_check_catches_bad_moves():
    pieces = [box(1, 1, 2), box(1, 1, 2, (0, 0, 2))]
    assert replay(pieces, [((1,), (0, 0, 1), True)]) == "1"
    with pytest.raises(AssertionError, match="runs into"):
        replay(pieces, [((0,), (0, 0, 1), True)])
    with pytest.raises(AssertionError, match="still blocked"):
        replay([box(1, 1, 1), box(1, 1, 1, (0, 0, 2))], [((0,), (0, 0, 1), True)])
    with pytest.raises(AssertionError, match="stay together but are not a group"):
        replay(pieces + [box(1, 1, 1, (3, 3, 3))], [((2,), (1, 0, 0), True)])
    with pytest.raises(AssertionError, match="not along one axis"):
        replay(pieces, [((1,), (0, 1, 1), True)])


def test_docs_python_example_holds():
    puzzle = polyfit.load(Path(__file__).resolve().parent.parent / "shapes/burrtools/level-5-burr.xmpuzzle")
    solution, taken = next(puzzle.disassemblies(limit=1))
    assert (taken.level, taken.total) == ("5.2.2.2", 12)
    assert taken.moves[0] == {"pieces": ["A", "F"], "by": [0, 0, 1], "removed": False}
    assert puzzle.count(disassemble=True).disassembly.levels == {"5.2.2.2": 1, "5.2": 1}
    assert solution.disassemble().level == "5.2.2.2"


def test_solve_disassemble_animate_writes_the_first_coming_apart(tmp_path):
    from PIL import Image

    gif = tmp_path / "box.gif"
    result = cli("solve", DATA / "lid-2.xmpuzzle", "--disassemble", "--animate", gif, "--cell", "12")
    assert result.exit_code == 0, result.output
    assert "frames: solution 1 coming apart" in result.output
    with Image.open(gif) as image:
        assert image.n_frames > 5  # the 5 moves, each over several frames
        image.seek(0)
        first = image.convert("RGB").tobytes()
        image.seek(image.n_frames - 1)
        assert image.convert("RGB").tobytes() != first
    again = cli("solve", DATA / "lid-2.xmpuzzle", "--disassemble", "--animate", gif)
    assert again.exit_code == 2 and "exists" in again.output
    refused = cli("solve", DATA / "lid-2.xmpuzzle", "--disassemble", "--count", "--animate", tmp_path / "x.gif")
    assert refused.exit_code == 2 and "drop --count" in refused.output


def test_solve_disassemble_draws_the_solutions_that_come_apart(tmp_path):
    picture = tmp_path / "apart.png"
    result = cli("solve", DATA / "burr-5.xmpuzzle", "--disassemble", "--limit", "1", "--png", picture)
    assert result.exit_code == 0, result.output
    from PIL import Image

    with Image.open(picture) as image:
        assert image.format == "PNG" and image.width > 50


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_disassembly_count_reports_its_progress(jobs):
    from rich.console import Console

    from polyfit.commands.progress import TallyBar

    puzzle = polyfit.load(Path(__file__).resolve().parent.parent / "shapes/burrtools/SolidSixPieceBurrs.xmpuzzle")
    heard = []
    bar = TallyBar(console=Console(width=100, force_terminal=False))

    def hear(tally):
        heard.append((tally.assemblies, tally.disassemblable))
        bar.show(tally)

    counts = puzzle.count(jobs=jobs, disassemble=True, on_progress=hear)
    bar.stop()
    assert (counts.disassembly.assemblies, counts.disassembly.disassemblable) == (588, 179)  # BurrTools' counts
    assert heard[-1] == (588, 179) and heard == sorted(heard) and len(heard) > 1  # growing, to the end
    console = Console(width=100, record=True)
    console.print(bar)
    line = console.export_text()
    assert "taking apart 588 assemblies, 179 come apart" in line
