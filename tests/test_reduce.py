"""Option reduction before the search: it removes only options no solution holds, the C pass and
its Python twin agree step for step, and no count changes."""

from __future__ import annotations

import random
from array import array

import pytest
from hypothesis import given, settings, strategies as st

import polyfit
from polyfit.puzzle.solve import Puzzle
from polyfit.xc.problem import ExactCoverProblem
from polyfit.xc.reduce import _reduce, item_roles, reduce, reduce_python

from helpers import ROOT, brute_force, examples, general_problems, native, problems, run_cli


def solutions_after(reduction):
    """The reduced problem's solutions, as sets of the original option indices."""
    return {frozenset(reduction.kept[k] for k in s) for s in brute_force(reduction.problem)}


@pytest.mark.parametrize("kind", [problems, general_problems], ids=["plain", "multiplicities-and-colours"])
@pytest.mark.parametrize("max_examples", examples(75, 300))
def test_reduction_keeps_every_solution(kind, max_examples):
    @settings(max_examples=max_examples, deadline=None)
    @given(kind())
    def check(problem):
        reduction = reduce(problem, native=False)
        assert solutions_after(reduction) == brute_force(problem)

    check()


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(general_problems())
def test_the_c_pass_is_the_python_twin(problem):
    native("dlx-c")  # the C extensions built (required under POLYFIT_REQUIRE_C=1)
    if _reduce is None:
        pytest.skip("the C extension polyfit.xc._reduce did not build")
    twin, c = reduce(problem, native=False), reduce(problem, native=True)
    assert (c.kept, c.rounds) == (twin.kept, twin.rounds)


@st.composite
def wide_problems(draw):
    """Problems of 65 to 260 options (two to five words of 64 options in the C pass) shaped like
    packing puzzles, so that many options go over several rounds: options are a piece's item
    and a run of cells (some cells secondary, some coloured there), and some options are any
    items; some pieces may be used twice."""
    pieces, cells = draw(st.integers(2, 6)), draw(st.integers(4, 24))
    spare = draw(st.integers(0, 3))  # the last cells are secondary items
    n1 = pieces + cells - spare
    rng = random.Random(draw(st.integers(0, 2**32)))
    sizes = [rng.randint(1, 4) for _ in range(pieces)]
    options, colours = [], []
    for _ in range(draw(st.integers(65, 260))):
        if rng.random() < 0.9:
            piece = rng.randrange(pieces)
            first = rng.randrange(cells - sizes[piece] + 1) if sizes[piece] <= cells else 0
            items = [piece] + [pieces + c for c in range(first, min(cells, first + sizes[piece]))]
        else:
            items = rng.sample(range(pieces + cells), rng.randint(1, 4))
        options.append(tuple(items))
        colours.append(tuple(rng.choice((0, 0, 1, 2)) if i >= n1 else 0 for i in items))
    bounds = [rng.choice([(1, 1)] * 4 + [(0, 1), (1, 2), (0, 2)]) for _ in range(pieces)] + [(1, 1)] * (cells - spare)
    coloured = draw(st.booleans())
    return ExactCoverProblem([f"p{i}" for i in range(n1)], [f"s{i}" for i in range(spare)], options,
                             bounds, colours if coloured else [], ["red", "blue"] if coloured else [])


@settings(max_examples=80, deadline=None)
@given(wide_problems())
def test_the_c_pass_is_the_python_twin_over_several_words(problem):
    """The C pass makes each word of an option's clash set when a test first needs it; over
    several words and rounds it keeps what the Python twin keeps, in as many rounds."""
    native("dlx-c")
    if _reduce is None:
        pytest.skip("the C extension polyfit.xc._reduce did not build")
    twin, c = reduce(problem, native=False), reduce(problem, native=True)
    assert (c.kept, c.rounds) == (twin.kept, twin.rounds)


@pytest.mark.parametrize("path", ["shapes/soma/castle.vox", "benchmarks/data/burrtools/frame-40.xmpuzzle",
                                  "benchmarks/data/burrtools/counts.xmpuzzle"])
def test_the_c_pass_is_the_python_twin_on_puzzles(path):
    """Puzzles' covers: 152 options in 3 words (castle: 60 go in 3 rounds), 169 (frame-40: 161
    go), 388 in 7 words with piece counts (counts: none go)."""
    native("dlx-c")
    if _reduce is None:
        pytest.skip("the C extension polyfit.xc._reduce did not build")
    loaded = polyfit.load(ROOT / path)
    problem = Puzzle(loaded.board, loaded.pieces, reduce=False).cover.problem
    twin, c = reduce(problem, native=False), reduce(problem, native=True)
    assert (c.kept, c.rounds, c.removed) == (twin.kept, twin.rounds, twin.removed)
    assert c.removed == {"castle.vox": 60, "frame-40.xmpuzzle": 161, "counts.xmpuzzle": 0}[path.rsplit("/", 1)[1]]


def test_a_starved_item_removes_the_option():
    # Choosing option 0 (a b) leaves c only options 1 (a c) and 3 (b c), which clash with it;
    # choosing option 3 leaves a only options 0 and 1, which clash with it.
    problem = ExactCoverProblem(["a", "b", "c"], [], [(0, 1), (0, 2), (1,), (1, 2)])
    reduction = reduce(problem)
    assert reduction.kept == [1, 2] and reduction.removed == 2
    assert brute_force(problem) == {frozenset({1, 2})}


def test_an_item_no_option_covers_leaves_nothing():
    problem = ExactCoverProblem(["a", "b"], [], [(0,), (0,)])
    assert reduce(problem).kept == [] and reduce(problem, native=False).kept == []


def test_roles_follow_bounds_and_colours():
    problem = ExactCoverProblem(["a", "b", "c"], ["x", "y"], [(0, 3), (1, 4), (2, 4)],
                                [(1, 1), (0, 1), (1, 3)], [(0, 0), (0, 1), (0, 1)], ["red"])
    exclusive, needed = item_roles(problem)
    assert list(exclusive) == [1, 1, 0, 1, 0]  # c may be covered thrice, y is coloured
    assert list(needed) == [1, 0, 1, 0, 0]


def test_the_c_pass_refuses_inconsistent_buffers():
    if _reduce is None:
        pytest.skip("the C extension polyfit.xc._reduce did not build")
    alive = bytearray(b"\x01\x01")
    with pytest.raises(ValueError):
        _reduce.reduce(2, array("i", [0, 1]), array("i", [0]), b"\x01\x01", b"\x01\x01", alive)
    with pytest.raises(ValueError):
        _reduce.reduce(2, array("i", [0, 1, 2]), array("i", [0, 5]), b"\x01\x01", b"\x01\x01", alive)
    with pytest.raises(ValueError):
        _reduce.reduce(2, array("i", [0, 2, 1]), array("i", [0, 1]), b"\x01\x01", b"\x01\x01", alive)



@settings(max_examples=100, deadline=None)
@given(general_problems())
def test_packing_in_c_gives_the_buffers_the_python_loop_gives(problem):
    """The options reach the C pass as two int32 buffers: packed in C, they are the bytes the
    Python loop builds (and a negative item or a list where a tuple belongs is refused)."""
    native("dlx-c")
    if _reduce is None:
        pytest.skip("the C extension polyfit.xc._reduce did not build")
    options = [tuple(option) for option in problem.options]
    starts, items = array("i", [0]), array("i")
    for option in options:
        items.extend(option)
        starts.append(len(items))
    assert _reduce.pack(options) == (starts.tobytes(), items.tobytes())
    with pytest.raises(ValueError, match="out of range"):
        _reduce.pack(options + [(0, -1)])
    with pytest.raises(TypeError, match="tuple"):
        _reduce.pack(options + [[0]])

BOARDS = [
    ("shapes/soma/castle.vox", None, 3),
    ("shapes/pentomino/scott.txt", None, 65),
    ("shapes/pentomino/8x8-corners.txt", None, None),
    ("shapes/pentomino/3x20.txt", None, 2),
]


SLOW_BOARDS = {"shapes/pentomino/8x8-corners.txt"}  # 17,360 solutions listed twice


@pytest.mark.parametrize(
    "path, pieces, distinct",
    [pytest.param(*b, id=b[0], marks=[pytest.mark.slow] if b[0] in SLOW_BOARDS else []) for b in BOARDS],
)
def test_counts_are_the_same_with_and_without_reduction(path, pieces, distinct):
    loaded = polyfit.load(ROOT / path, pieces=pieces)
    plain = Puzzle(loaded.board, loaded.pieces, reduce=False)
    reduced = Puzzle(loaded.board, loaded.pieces)
    assert reduced.reduction.removed > 0
    backend = loaded.backend("dlx-c")
    a, b = plain.count(backend), reduced.count(backend)
    assert (a.distinct, a.distinct_rotations, a.total) == (b.distinct, b.distinct_rotations, b.total)
    if distinct is not None:
        assert b.distinct == distinct
    # The removed options are placements: no solution of the plain search uses one.
    gone = set(plain.cover.option_placement) - set(reduced.cover.option_placement)
    if reduced.reduction.pays:
        assert gone
    for found in plain.search(backend, type(a)()):
        assert not gone & set(found.placements)


def test_burr_pieces_with_multiplicities_keep_their_count():
    """SolidSixPieceBurrs, BurrTools' example: 25 burr pieces each used 0 to 6 times; the
    reduction removes four options of five and the count stays 588 distinct, 12597 in all."""
    shapes = ROOT / "shapes" / "burrs"
    puzzle = polyfit.load(shapes / "solid-six-piece-burrs.vox")
    assert puzzle.reduction.pays and puzzle.reduction.removed == 1221
    counts = puzzle.count(jobs=1)
    assert (counts.distinct, counts.total) == (588, 12597)


def test_stats_report_the_reduction():
    out = run_cli(["solve", str(ROOT / "shapes/soma/castle.vox"), "--count", "--stats"])
    assert out.exit_code == 0
    assert "reduction: 60 of 152 options can be in no solution (3 rounds); removed" in out.stdout
    assert "exact cover: 34 items, 92 options" in out.stdout


def test_xc_reduce_finds_the_same_solutions(tmp_path):
    # Choosing 'a b c' leaves d only options that clash with it: that option goes.
    text = "a b c d\na b c\na b\nc d\na c\nb d\na d\nb\nc\n"
    path = tmp_path / "small.dlx"
    path.write_text(text)
    plain = run_cli(["xc", str(path)])
    reduced = run_cli(["xc", str(path), "--reduce"])
    assert plain.exit_code == reduced.exit_code == 0
    def blocks(out):  # each solution as its sorted option lines
        return sorted(sorted(b.strip().split("\n")) for b in out.split("\n\n") if b.strip() and "solution" not in b)

    assert blocks(plain.stdout) == blocks(reduced.stdout)
    assert len(blocks(plain.stdout)) == 3
    assert "reduction: 1 of 8 options removed (2 rounds)" in reduced.output


# -- the reduction before the pruning (placements.reduce_first) ----------------------------------

REDUCE_FIRST_FILES = [
    "tests/data/burrtools/prisms/triangle-tower-tetraprisms.xmpuzzle",
    "tests/data/burrtools/prisms/parallelogram-tetraprisms-coloured.xmpuzzle",
    "tests/data/burrtools/spheres/flat-rhombus-four-by-four-coloured.xmpuzzle",
    "tests/data/burrtools/spheres/box-tetraspheres-painted.xmpuzzle",
    "tests/data/burrtools/finegrids/rd-ladder-rhombics-3.xmpuzzle",
    "tests/data/burrtools/finegrids/to-cube-threes-coloured.xmpuzzle",
]
REDUCE_FIRST_ART = [  # optional cells, a limit on holes, pieces by counts
    "; lattice: hex\n; pieces: 0..2*trihexes\n; max-holes: 1\n+ # # # +\n # # # # #\n  + # # # #",
    "; lattice: triangle\n; pieces: 0..3*tetriamonds\n+######\n #######\n  ######+",
    "; lattice: triangle\n; pieces: tetriamonds:T=0..2,tetriamonds:C=0..3,tetriamonds:I=1..3\n ########\n  ########",
]


def every_solution(puzzle) -> set:
    """Every solution, each the set of its pieces' names and cells."""
    placements, pieces = puzzle.placements, puzzle.pieces
    return {frozenset((pieces[placements[i].piece].name, placements[i].cells) for i in s.indices)
            for s in puzzle.solutions(all=True)}


@pytest.mark.parametrize("case", REDUCE_FIRST_FILES + REDUCE_FIRST_ART)
def test_the_reduction_before_the_pruning_keeps_every_solution(case, monkeypatch):
    """Off squares and cubes the reduction may go before the pruning (on placements holding many
    cells, when it removes at least half): forced to go first on every one of these small
    puzzles (colours, painted cells, optional cells, a limit on holes, counts), it removes some
    placements and every solution, every count, is the one found without it."""
    from polyfit.puzzle import placements

    native("dlx-c")
    board = polyfit.read_board(ROOT / case) if case.endswith(".xmpuzzle") else polyfit.Board.from_text(case)
    monkeypatch.setattr(placements, "REDUCE_FIRST_CELLS", 10**12)
    plain = polyfit.Puzzle(board)
    before = every_solution(plain)
    assert plain.placement_stats.reduced == 0
    monkeypatch.setattr(placements, "REDUCE_FIRST_CELLS", 0)
    monkeypatch.setattr(placements, "REDUCE_FIRST_SHARE", 0)
    first = polyfit.Puzzle(board)
    after = every_solution(first)
    stats = first.placement_stats
    assert stats.reduced > 0 and stats.kept == len(first.placements) - len(first.cover.fixed)
    assert after == before and before
    assert (first.count().total, first.count().distinct) == (plain.count().total, plain.count().distinct)


def test_the_reduction_goes_first_where_large_pieces_fit_few_ways_and_says_so(monkeypatch):
    """On prisms-768 (8 pieces of about 96 prisms) the placements hold over 50,000 cells and
    the reduction removes all but 16 of 1494 before the pruning; ``--stats`` and ``--json``
    say so. On squares and cubes it never goes first (their area pruning is cheap), nor where
    it would remove every placement (the pruning says why there is no solution)."""
    from polyfit.puzzle import placements

    path = ROOT / "benchmarks/data/burrtools/prisms-768.xmpuzzle"
    stats = polyfit.load(path).placement_stats
    assert (stats.generated, stats.reduced, stats.kept) == (1494, 1478, 16)
    result = run_cli(["solve", str(path), "--count", "--stats"])
    assert "placements: 1494 generated, 1478 removed by the reduction first, 0 pruned by area" in result.stdout
    assert '"reduced_first": 1478' in run_cli(["solve", str(path), "--count", "--json"]).stdout
    monkeypatch.setattr(placements, "REDUCE_FIRST_CELLS", 0)
    monkeypatch.setattr(placements, "REDUCE_FIRST_SHARE", 0)
    burrs = polyfit.load(ROOT / "shapes/burrs/solid-six-piece-burrs.vox")
    assert burrs.placement_stats.reduced == 0 and burrs.reduction.removed == 1221  # all done later
    board = polyfit.Board.from_text("; lattice: triangle\n; pieces: tetriamonds\n ######\n  ######")
    hopeless = polyfit.Puzzle(board)  # 12 cells and 3 tetriamonds, but no tiling
    assert hopeless.placement_stats.reduced == 0 and hopeless.count().total == 0
