"""What the tests share: independent counters to check polyfit against, and small problems.

- a brute-force counter for small puzzles (no exact cover, no dancing links, nothing shared with
  polyfit beyond the standard library): :func:`solutions` and :func:`distinct`;
- :func:`brute_force`: every set of options of an exact cover problem meeting its rules;
- problem generators for Hypothesis (:func:`problems`, :func:`general_problems`), N-queens and
  Knuth's own examples;
- :func:`native`: a C backend for a test that is there to run it;
- :func:`burrtxt2`: BurrTools' own program on a copy of a puzzle (where it is built), and
  :func:`burrtools_count` its count; :func:`assert_tally_is_burrtools`: a disassembly count
  against BurrTools' recorded answer; :func:`assert_written_back`: a board and its solutions
  written for BurrTools and read back;
- :func:`group_alive`: is any process of a group still running? :func:`interrupt`: Ctrl-C to a
  command once it has got somewhere;
- :func:`bodies`: how many separate solids a mesh is;
- :func:`examples`: a Hypothesis test on a few examples in the quick suite, on many in the whole.

Test modules import this module, never each other.
"""

import itertools
import math
import os
from pathlib import Path

import pytest
from hypothesis import strategies as st

from polyfit.plugins import get_plugin_manager
from polyfit.registry import Registry
from polyfit.xc.problem import ExactCoverProblem

ROOT = Path(__file__).resolve().parent.parent  # the repository: shapes/ lives here
PLUGIN_PACKAGES = ["polyfit-classic-cubes", "polyfit-miniexact", "polyfit-classics"]  # in plugins/
BUILT_IN_BACKENDS = ("dlx-python", "dlx-c", "bitset-c", "bitset-python")
NATIVE = {"dlx-c", "bitset-c", "count-memo"}
BURRTXT2 = Path(os.environ.get("TMPDIR", "/tmp")) / "burrtools" / "burrTxt2"  # bash ../shared/burrtools/build.sh


def examples(quick: int, whole: int) -> list:
    """How many examples a Hypothesis test tries, as the values of its ``max_examples``
    parameter: ``quick`` in the quick suite (``pytest -m "not slow"``), and ``whole`` in a
    second run marked slow, which the whole suite makes too."""
    return [pytest.param(quick, id=f"{quick}-examples"),
            pytest.param(whole, id=f"{whole}-examples", marks=pytest.mark.slow)]


def _transforms(dim):
    for perm in itertools.permutations(range(dim)):
        for signs in itertools.product((1, -1), repeat=dim):
            inversions = sum(1 for i in range(dim) for j in range(i + 1, dim) if perm[i] > perm[j])
            proper = (inversions + signs.count(-1)) % 2 == 0  # determinant +1: a rotation
            yield (lambda c, perm=perm, signs=signs: tuple(signs[k] * c[perm[k]] for k in range(dim))), proper


def _normal(cells):
    cells = list(cells)
    low = [min(c[k] for c in cells) for k in range(len(cells[0]))]
    return tuple(sorted(tuple(x - m for x, m in zip(c, low)) for c in cells))


def shapes_of(cells, mirror):
    """The orientations of a piece: every rotation, and reflections when ``mirror``."""
    return {_normal(map(t, cells)) for t, proper in _transforms(len(cells[0])) if proper or mirror}


def solutions(board, pieces, optional=(), fixed=()):
    """Every solution. ``pieces``: ``(name, cells, mirror, lo, hi)``; ``fixed``: ``(name,
    cells)`` already placed (counted against the piece's ``lo``/``hi``)."""
    optional = set(optional)
    filled0 = {c for _, cells in fixed for c in cells}
    used = {name: 0 for name, *_ in pieces}
    for name, _ in fixed:
        used[name] += 1
    cells = sorted(c for c in board if c not in filled0)
    shapes = {name: shapes_of(cells_, mirror) for name, cells_, mirror, _, _ in pieces}
    bounds = {name: (lo, hi) for name, _, _, lo, hi in pieces}
    found = []
    chosen = [(name, frozenset(c)) for name, c in fixed]
    filled = set()

    def go(k):
        while k < len(cells) and cells[k] in filled:
            k += 1
        if k == len(cells):
            if all(bounds[n][0] <= used[n] <= bounds[n][1] for n in used):
                found.append(frozenset(chosen))
            return
        target = cells[k]
        for name, options in shapes.items():
            if used[name] >= bounds[name][1]:
                continue
            for shape in options:
                anchor = shape[0]
                placed = [tuple(x + t - a for x, t, a in zip(c, target, anchor)) for c in shape]
                if all(p in cells_set and p not in filled for p in placed):
                    filled.update(placed)
                    used[name] += 1
                    chosen.append((name, frozenset(placed)))
                    go(k + 1)
                    chosen.pop()
                    used[name] -= 1
                    filled.difference_update(placed)
        if target in optional:
            filled.add(target)
            go(k + 1)
            filled.discard(target)

    cells_set = set(cells)
    go(0)
    return found


def distinct(found, board, pieces, optional=(), fixed=()):
    """The number of symmetry classes among ``found`` (all solutions of the puzzle)."""
    board = list(board)
    dim = len(board[0])
    shapes = {name: shapes_of(cells, mirror) for name, cells, mirror, _, _ in pieces}
    counts = {name: (lo, hi) for name, _, _, lo, hi in pieces}
    group = []
    for t, _ in _transforms(dim):
        image = [t(c) for c in board]
        low = [min(c[k] for c in image) for k in range(dim)]
        base = [min(c[k] for c in board) for k in range(dim)]

        def g(c, t=t, low=low, base=base):
            return tuple(x - l + b for x, l, b in zip(t(c), low, base))

        if {g(c) for c in board} != set(board) or {g(c) for c in optional} != set(optional):
            continue
        rename = {}
        for name, cells, *_ in pieces:
            image_shape = _normal(g(c) for c in cells)
            targets = [n for n in shapes if image_shape in shapes[n] and counts[n] == counts[name]]
            if name in targets:
                rename[name] = name
            elif targets:
                rename[name] = targets[0]
        if len(rename) < len(pieces):
            continue
        fixed_set = {(n, frozenset(c)) for n, c in fixed}
        if {(rename[n], frozenset(g(x) for x in c)) for n, c in fixed} != fixed_set:
            continue
        group.append((g, rename))

    def key(solution):
        return sorted((n, sorted(c)) for n, c in solution)

    classes = set()
    for solution in found:
        images = [frozenset((r[n], frozenset(g(x) for x in c)) for n, c in solution) for g, r in group]
        classes.add(min(map(lambda s: repr(key(s)), images)))
    return len(classes)


# -- exact cover problems ----------------------------------------------------------------------


def queens(n):
    """Rows and columns primary, the diagonals secondary."""
    primary = [f"r{i}" for i in range(n)] + [f"c{i}" for i in range(n)]
    secondary = [f"a{i}" for i in range(2 * n - 1)] + [f"b{i}" for i in range(2 * n - 1)]
    options = [
        (r, n + c, 2 * n + r + c, 2 * n + 2 * n - 1 + r - c + n - 1)
        for r in range(n)
        for c in range(n)
    ]
    return ExactCoverProblem(primary, secondary, options)


KNUTH_DLX2 = """| A simple example of color controls
A B C | X Y
A B X:0 Y:0
A C X:1 Y:1
X:0 Y:1
B X:1
C Y:1
"""

KNUTH_DLX3 = """| A simple example of color controls
A B 2:3|C | X Y
A B X:0 Y:0
A C X:1 Y:1
C X:0
B X:1
C Y:1
"""


def pentomino_problem(path):
    """The full (not symmetry-broken) exact cover problem of a pentomino board."""
    from polyfit.formats.textart import read_text_board
    from polyfit.puzzle.piece_sets import polyominoes
    from polyfit.puzzle.solve import Puzzle

    return Puzzle(read_text_board(path), polyominoes(5), break_symmetry=False).cover.problem


def brute_force(problem):
    """Every set of options meeting the bounds and colour rules, by trying every subset."""
    n1 = len(problem.primary)
    n = n1 + len(problem.secondary)
    # Dancing links reaches options only through primary items: options with none are never used.
    usable = [k for k, option in enumerate(problem.options) if any(i < n1 for i in option)]
    found = set()
    for size in range(len(usable) + 1):
        for combo in itertools.combinations(usable, size):
            times = [0] * n
            colour_of = {}
            ok = True
            for k in combo:
                for position, i in enumerate(problem.options[k]):
                    times[i] += 1
                    if i >= n1:
                        c = problem.colours[k][position] if problem.colours else 0
                        if i in colour_of and (c == 0 or colour_of[i] != c):
                            ok = False
                        colour_of.setdefault(i, c)
            ok = ok and all(
                problem.bound(i)[0] <= times[i] <= problem.bound(i)[1] for i in range(n1)
            )
            if ok:
                found.add(frozenset(combo))
    return found


@st.composite
def problems(draw):
    n1 = draw(st.integers(0, 5))
    n2 = draw(st.integers(0, 3))
    items = st.lists(st.integers(0, n1 + n2 - 1), unique=True, max_size=4) if n1 + n2 else st.just([])
    options = draw(st.lists(items, max_size=9))
    return ExactCoverProblem(
        [f"p{i}" for i in range(n1)], [f"s{i}" for i in range(n2)], [tuple(o) for o in options]
    )


@st.composite
def general_problems(draw):
    n1 = draw(st.integers(1, 4))
    n2 = draw(st.integers(0, 3))
    options, colours = [], []
    for _ in range(draw(st.integers(0, 9))):
        items = draw(st.lists(st.integers(0, n1 + n2 - 1), unique=True, max_size=4))
        options.append(tuple(items))
        colours.append(tuple(draw(st.integers(0, 2)) if i >= n1 else 0 for i in items))
    bounds = []
    for _ in range(n1):
        lo = draw(st.integers(0, 2))
        bounds.append((lo, draw(st.integers(max(lo, 1), 3))))
    return ExactCoverProblem(
        [f"p{i}" for i in range(n1)], [f"s{i}" for i in range(n2)], options, bounds, colours
    )


def manifest(group):
    """The counts recorded beside a group of shipped boards: ``{file: {name, distinct, total,
    ...}}`` from ``shapes/GROUP/manifest.json``."""
    import json

    return json.loads((ROOT / "shapes" / group / "manifest.json").read_text())["figures"]


def check_manifest(app, group, skip=()):
    """Every board of the group is in its manifest, and ``polyfit solve --count`` counts what
    it records (but the boards in ``skip``)."""
    figures = manifest(group)
    assert {p.name for p in (ROOT / "shapes" / group).glob("*.txt") if not p.name.endswith(".pieces.txt")} == set(figures)
    for name, entry in figures.items():
        if name in skip:
            continue
        result = run(app, "solve", ROOT / "shapes" / group / name, "--count")
        assert result.exit_code == 0, result.output
        line = result.output.splitlines()[0]
        assert f": {entry['distinct']} distinct solution" in line and f"{entry['total']} in all" in line, line
    return figures


def first_solution_pictures(app, tmp_path, path, cell=40):
    """``polyfit solve BOARD --limit 1`` drawn as ``s.png`` and ``s.svg`` (``cell`` pixels a
    cell, no margin) and written as ``s.json``: the solution's JSON and the PNG, opened."""
    import json

    from PIL import Image

    result = run(app, "solve", path, "--limit", "1", "--png", tmp_path / "s.png", "--svg", tmp_path / "s.svg",
                 "--cell", str(cell), "--margin", "0", "--output", tmp_path / "s.json")
    assert result.exit_code == 0, result.output
    return json.loads((tmp_path / "s.json").read_text()), Image.open(tmp_path / "s.png").convert("RGB")


def built_in_registry():
    return Registry.from_plugins(get_plugin_manager(load_entrypoints=False))


def native(name):
    """The built-in backend ``name``, for a test that is there to run it: a native one that did
    not build fails the test under POLYFIT_REQUIRE_C=1 (CI sets it: a silent fallback must not
    pass) and is skipped, saying why, otherwise."""
    engine = built_in_registry().backends[name]
    reason = engine.unavailable_reason()
    if reason is not None:
        if name in NATIVE and os.environ.get("POLYFIT_REQUIRE_C") == "1":
            pytest.fail(f"{name} is required (POLYFIT_REQUIRE_C=1) but {reason}")
        pytest.skip(reason)
    return engine


# -- the command line ----------------------------------------------------------------------


def run_cli(args):
    """Run the polyfit command line in-process with the built-in plugins only, built as
    ``polyfit`` builds it for these arguments (only the named command's family of commands:
    making click commands of every family costs 30 ms a call)."""
    from typer.testing import CliRunner

    from polyfit.cli import build_app

    args = [str(a) for a in args]
    return CliRunner().invoke(build_app(get_plugin_manager(load_entrypoints=False), args), args)


def run(app, *args):
    """Invoke the command line in-process; paths may be given as Path objects."""
    from typer.testing import CliRunner

    return CliRunner().invoke(app, [str(a) for a in args])


def built_in_set(name):
    """The pieces of a built-in set, straight from its registration."""
    from polyfit.puzzle.piece_sets import register_piece_sets

    sets = {}
    register_piece_sets(lambda n, build, summary="": sets.__setitem__(n, build))
    return sets[name]()


# -- triangles and hexagons, counted from plane geometry alone ----------------------------------

ROOT3 = 3**0.5


def plane_centre(lattice, cell):
    """A cell's centre in the plane: triangle (r, c) points up when r + c is even, in rows
    sqrt(3)/2 high; hexagon (r, c) (r + c even) at x = c/2, rows sqrt(3)/2 apart. Unit sides
    for triangles, unit distance between hexagon centres."""
    r, c = cell
    if lattice == "triangle":
        up = (r + c) % 2 == 0
        return complex((c + 1) / 2, (r + (2 / 3 if up else 1 / 3)) * ROOT3 / 2)
    return complex(c / 2, r * ROOT3 / 2)


def _plane_cells(lattice, reach=60):
    cells = [(r, c) for r in range(-reach, reach) for c in range(-2 * reach, 2 * reach)]
    if lattice == "hex":
        cells = [(r, c) for r, c in cells if (r + c) % 2 == 0]
    return {_point_key(plane_centre(lattice, cell)): cell for cell in cells}


def _point_key(z):
    return (round(z.real * 1000), round(z.imag * 1000))


def plane_motions(lattice):
    """The 12 motions fixing a lattice point (a triangle vertex, a hexagon centre) as
    functions of complex numbers: 6 rotations by 60 degrees, each also after a mirror."""
    centre = complex(0.5, 0) if lattice == "triangle" else 0
    turns = [complex(0.5, ROOT3 / 2) ** k for k in range(6)]
    return [
        (lambda z, t=t, m=m: centre + t * ((z - centre).conjugate() if m else (z - centre)))
        for t in turns
        for m in (False, True)
    ]


def plane_normal(lattice, cells):
    """Cells up to translation: their centres relative to the least cell's, and its kind."""
    cells = sorted(cells)
    first = plane_centre(lattice, cells[0])
    kind = (cells[0][0] + cells[0][1]) % 2 if lattice == "triangle" else 0
    return kind, tuple(sorted(_point_key(plane_centre(lattice, c) - first) for c in cells))


def plane_shapes(lattice, cells, mirror):
    """Each orientation of a piece as ``(r, c)`` cells (anchored anywhere)."""
    table = _plane_cells(lattice)
    motions = plane_motions(lattice)
    found = {}
    for k, motion in enumerate(motions):
        if k % 2 and not mirror:
            continue
        image = [table[_point_key(motion(plane_centre(lattice, c)))] for c in cells]
        found.setdefault(plane_normal(lattice, image), sorted(image))
    return list(found.values())


def plane_solutions(lattice, board, pieces):
    """Every tiling of ``board`` by ``pieces`` (``(name, cells, mirror)``, each used once), by
    a plain backtrack: the first empty cell is covered by the least cell of some piece."""
    cells = sorted(board)
    board_set = set(cells)
    shapes = {name: plane_shapes(lattice, c, m) for name, c, m in pieces}
    found, chosen, filled, used = [], [], set(), set()

    def go(k):
        while k < len(cells) and cells[k] in filled:
            k += 1
        if k == len(cells):
            found.append(frozenset(chosen))
            return
        target = cells[k]
        for name, options in shapes.items():
            if name in used:
                continue
            for shape in options:
                dr, dc = target[0] - shape[0][0], target[1] - shape[0][1]
                if (dr + dc) % 2:
                    continue  # would turn up triangles down: not a translation
                placed = [(r + dr, c + dc) for r, c in shape]
                if all(p in board_set and p not in filled for p in placed):
                    filled.update(placed)
                    used.add(name)
                    chosen.append((name, frozenset(placed)))
                    go(k + 1)
                    chosen.pop()
                    used.discard(name)
                    filled.difference_update(placed)

    go(0)
    return found


def plane_distinct(lattice, board, found):
    """Classes of tilings under the motions that map the board onto itself (free pieces)."""
    table = _plane_cells(lattice)
    board = sorted(board)
    target = plane_normal(lattice, board)
    maps = []
    for motion in plane_motions(lattice):
        image = {c: table[_point_key(motion(plane_centre(lattice, c)))] for c in board}
        if plane_normal(lattice, image.values()) != target:
            continue
        low = min(image.values())
        shift = plane_centre(lattice, board[0]) - plane_centre(lattice, low)
        maps.append({c: table[_point_key(plane_centre(lattice, i) + shift)] for c, i in image.items()})
    classes = set()
    for tiling in found:
        classes.add(min(
            tuple(sorted((name, tuple(sorted(m[c] for c in cells))) for name, cells in tiling)) for m in maps
        ))
    return len(classes), len(maps)


# -- an independent replay of a disassembly's moves (shares no code with polyfit.motion) ------
#
# An independent check of a disassembly's move list: it shares no code with polyfit.motion.
#
# Pieces start where the assembly has them, all in one cluster (pieces that may touch). Each move
# slides a set of pieces, all of one cluster and not all of it, by a vector along one axis, one
# unit step at a time: no step may put a cell where a piece of the same cluster (not moving) is.
# A removal must leave the set free for ever: after its slide, no cell of the rest of the cluster
# lies ahead of any of its cells on the same line; the cluster then splits in two. At the end,
# each cluster is one piece or a set the groups let stay together.
#
# The level text is rebuilt from the moves alone: a cluster's moves come first, then those of the
# part that stayed, then those of the part removed; a level is the moves up to the removal, then,
# dotted, the levels of the two parts that need more than one move somewhere.


def replay(pieces, moves, together=(), prisms=False):
    """``pieces``: cells per piece; ``moves``: ``(pieces, by, removed)`` triples; ``together``:
    sets of pieces that may stay as a cluster; ``prisms``: the cells are triangular prisms
    ``(z, r, c)`` (see :func:`prism_slide`). Raises AssertionError at the first fault; returns
    the level text the moves make."""
    dim = len(pieces[0][0])
    offset = {p: (0,) * dim for p in range(len(pieces))}
    clusters = [frozenset(range(len(pieces)))]

    def cells_of(p, extra=(0,) * dim):
        return {tuple(c + o + e for c, o, e in zip(cell, offset[p], extra)) for cell in pieces[p]}

    for number, (moving, by, removed) in enumerate(moves, 1):
        moving = frozenset(moving)
        home = [c for c in clusters if moving <= c]
        assert home, f"move {number}: pieces {sorted(moving)} are not in one cluster"
        cluster = home[0]
        assert moving != cluster, f"move {number} moves a whole cluster"
        if prisms:
            rest = set().union(*(cells_of(p) for p in cluster - moving))
            mine = set().union(*(cells_of(p) for p in moving))
            prism_slide(mine, rest, by, removed, number)
            for p in moving:
                offset[p] = tuple(o + b for o, b in zip(offset[p], by))
            if removed:
                clusters.remove(cluster)
                clusters += [moving, cluster - moving]
            continue
        axes = [i for i, v in enumerate(by) if v]
        assert len(axes) == 1, f"move {number}: {by} is not along one axis"
        axis = axes[0]
        length = abs(by[axis])
        unit = tuple((1 if by[axis] > 0 else -1) if i == axis else 0 for i in range(dim))
        rest = set().union(*(cells_of(p) for p in cluster - moving))
        for step in range(1, length + 1):
            shift = tuple(step * u for u in unit)
            for p in moving:
                hit = cells_of(p, shift) & rest
                assert not hit, f"move {number}, step {step}: piece {p} runs into {sorted(hit)[0]}"
        for p in moving:
            offset[p] = tuple(o + b for o, b in zip(offset[p], by))
        if removed:
            lines = {}  # the rest's cells by the line along the axis they lie on
            for other in rest:
                lines.setdefault(other[:axis] + other[axis + 1:], []).append(other)
            for p in moving:
                for cell in cells_of(p):
                    for other in lines.get(cell[:axis] + cell[axis + 1:], ()):
                        ahead = (other[axis] - cell[axis]) * unit[axis] > 0
                        assert not ahead, f"move {number}: removed piece {p} is still blocked at {other}"
            clusters.remove(cluster)
            clusters += [moving, cluster - moving]
    for cluster in clusters:
        assert len(cluster) == 1 or any(cluster <= frozenset(g) for g in together), (
            f"pieces {sorted(cluster)} stay together but are not a group")
    tree = _level(frozenset(range(len(pieces))), [(frozenset(m), r) for m, _, r in moves], [0])
    return None if tree is None else level_text(tree)


# Prisms, from the triangles themselves: cell (z, r, c) is the triangle of side 1 in row r (rows
# run down, each sqrt(3)/2 high), pointing up when r + c is even, its left corner half a side per
# column along the row, raised to a prism from height z to z + 1. A move's ``by`` is a whole
# number of lattice translations (an even change of r + c); the set slides along the straight
# segment to ``by``, sampled finely (1/24 of a side), and no sample may make the inside of one
# of its prisms meet the inside of a prism of the rest (touching along a face or edge is fine).
# A removal then slides on, still sampled, until the two are beyond each other's reach.

_PRISM_ROW = math.sqrt(3) / 2


def _prism_triangle(r, c):
    left, top = c / 2, -r * _PRISM_ROW
    if (r + c) % 2 == 0:  # up
        return ((left, top - _PRISM_ROW), (left + 1, top - _PRISM_ROW), (left + 0.5, top))
    return ((left, top), (left + 1, top), (left + 0.5, top - _PRISM_ROW))


def _prism_point(vector):
    """A move ``(dz, dr, dc)`` as a shift in space ``(x, y, z)``."""
    dz, dr, dc = vector
    return (dc / 2, -dr * _PRISM_ROW, dz)


def _insides_meet(a, b) -> bool:
    """Do triangles ``a`` and ``b`` (corner lists) share inner points? (separating axes)"""
    for tri in (a, b):
        for k in range(3):
            (x1, y1), (x2, y2) = tri[k], tri[(k + 1) % 3]
            nx, ny = y2 - y1, x1 - x2
            pa = [nx * x + ny * y for x, y in a]
            pb = [nx * x + ny * y for x, y in b]
            if min(max(pa), max(pb)) - max(min(pa), min(pb)) < 1e-9:
                return False
    return True


def _prisms_meet(pairs, shift) -> tuple | None:
    sx, sy, sz = shift
    for cell, others in pairs:
        moved = [(x + sx, y + sy) for x, y in _prism_triangle(*cell[1:])]
        low = cell[0] + sz
        for other in others:
            if min(low, other[0]) + 1 - max(low, other[0]) < 1e-9:
                continue
            if _insides_meet(moved, _prism_triangle(*other[1:])):
                return cell, other
    return None


def _prism_pairs(mine, rest, start, end):
    """Each cell of ``mine`` with the cells of ``rest`` near its way from ``start`` to ``end``
    (shifts in space): the only ones it can meet."""
    pairs = []
    for cell in mine:
        corners = [(x + s[0], y + s[1]) for s in (start, end) for x, y in _prism_triangle(*cell[1:])]
        x0, x1 = min(p[0] for p in corners) - 1, max(p[0] for p in corners) + 1
        y0, y1 = min(p[1] for p in corners) - 1, max(p[1] for p in corners) + 1
        z0, z1 = cell[0] + min(start[2], end[2]) - 1, cell[0] + max(start[2], end[2]) + 1
        near = [o for o in rest if z0 <= o[0] <= z1 and all(
            x0 <= x <= x1 and y0 <= y <= y1 for x, y in _prism_triangle(*o[1:]))]
        pairs.append((cell, near))
    return pairs


def prism_slide(mine, rest, by, removed, number=0):
    """Slide the prisms ``mine`` by ``by`` past ``rest`` (see above), and on for ever when
    ``removed``; AssertionError where they meet."""
    assert (by[1] + by[2]) % 2 == 0, f"move {number}: {by} turns triangles over"
    end = _prism_point(by)
    length = math.sqrt(sum(v * v for v in end))
    assert length > 0, f"move {number} does not move"
    samples = max(1, math.ceil(length * 24))
    pairs = _prism_pairs(mine, rest, (0, 0, 0), end)
    for k in range(1, samples + 1):
        shift = tuple(v * k / samples for v in end)
        hit = _prisms_meet(pairs, shift)
        assert hit is None, f"move {number}: prism {hit[0]} runs into {hit[1]} at {k}/{samples} of {by}"
    if removed:
        every = list(mine) + list(rest)
        reach = 2 + max(max(c[i] for c in every) - min(c[i] for c in every) for i in range(3))
        unit = tuple(v / length for v in end)
        pairs = _prism_pairs(mine, rest, end, tuple(e + u * reach for e, u in zip(end, unit)))
        for k in range(1, math.ceil(reach * 24) + 1):
            shift = tuple(e + u * k / 24 for e, u in zip(end, unit))
            hit = _prisms_meet(pairs, shift)
            assert hit is None, f"move {number}: removed prism {hit[0]} is still blocked by {hit[1]}"


def _level(cluster, moves, at):
    """The level of ``cluster`` from the moves starting at ``at[0]`` (advanced past them), or
    None when the cluster has no moves of its own."""
    if at[0] >= len(moves) or not moves[at[0]][0] <= cluster:
        return None
    count = 0
    while True:
        moving, removed = moves[at[0]]
        at[0] += 1
        count += 1
        if removed:
            break
    left = _level(cluster - moving, moves, at)
    taken = _level(moving, moves, at)
    return (count, left, taken)


def level_text(tree) -> str:
    def multi(t):
        return t is not None and (t[0] > 1 or multi(t[1]) or multi(t[2]))

    def text(t):
        out = str(t[0])
        for part in (t[1], t[2]):
            if multi(part):
                out += "." + text(part)
        return out

    return text(tree)


# -- polysticks and polytwigs, counted from segments in the plane --------------------------------
#
# A segment is the frozenset of its two end points; nothing here knows polyfit's cells. Points
# are exact integer pairs: on the square grid (x, y) with lattice points at even x and y (as
# in text art, where '-' and '|' join the points on either side of them); on the honeycomb
# (u, v) for the point (u * sqrt(3) / 4, v / 4), its edges separating two hexagons whose
# centres sit at odd rows where row + column is 3 mod 4, each edge across the line between
# them. Motions are computed on complex numbers and rounded back to these exact pairs.

EDGE_TURNS = {"sticks": 4, "twigs": 6}  # rotations in the plane's symmetry group
VERTEX = {"sticks": 1j, "twigs": complex(-0.5, ROOT3 / 2)}  # from one edge at a point to the next
EDGE_SCALE = {"sticks": (1, 1), "twigs": (ROOT3 / 4, 1 / 4)}  # a point's (x, y) per unit


def _key(kind, z) -> tuple:
    sx, sy = EDGE_SCALE[kind]
    return (round(z.real / sx), round(z.imag / sy))


def _point(kind, key) -> complex:
    sx, sy = EDGE_SCALE[kind]
    return complex(key[0] * sx, key[1] * sy)


def edge_segment(kind, r, c, ch="") -> frozenset:
    """The segment drawn at row ``r``, column ``c`` of text art (on the honeycomb ``ch``, its
    mark, tells '/' from '\\'; on the square grid the place alone tells)."""
    if kind == "sticks":
        ends = ((c - 1, r), (c + 1, r)) if r % 2 == 0 else ((c, r - 1), (c, r + 1))
        return frozenset(ends)
    hexes = {"|": ((r, c - 2), (r, c + 2)), "/": ((r - 1, c - 1), (r + 1, c + 1)),
             "\\": ((r - 1, c + 1), (r + 1, c - 1))}[ch]
    h1, h2 = (complex(cc * ROOT3 / 4, rr * 3 / 4) for rr, cc in hexes)
    middle, half = (h1 + h2) / 2, 1j * (h2 - h1) / (2 * ROOT3)
    return frozenset((_key(kind, middle - half), _key(kind, middle + half)))


def edge_mark(kind, r, c) -> str | None:
    """The mark text art draws at row ``r``, column ``c`` (None: no segment goes there)."""
    if (r + c) % 2 == 0:
        return None
    if kind == "sticks":
        return "-" if r % 2 == 0 else "|"
    if r % 2:
        return "|" if (r + c) % 4 == 1 else None
    return "/" if (r + c) % 4 == 1 else "\\"


def edge_art(kind, art) -> set:
    """The segments drawn in ``art`` (lines of text, no metadata): each '-', '|', '/', '\\'."""
    return {edge_segment(kind, r, c, ch)
            for r, line in enumerate(art.strip("\n").split("\n"))
            for c, ch in enumerate(line) if ch in "-|/\\"}


def edge_middle(kind, segment) -> complex:
    """A segment's middle in the plane (square grid: lattice points 2 apart)."""
    a, b = (_point(kind, k) for k in segment)
    return (a + b) / 2


def _moved(kind, segments, f) -> frozenset:
    return frozenset(frozenset(_key(kind, f(_point(kind, k))) for k in s) for s in segments)


def _shifted(segments, dx, dy) -> frozenset:
    return frozenset(frozenset((x + dx, y + dy) for x, y in s) for s in segments)


def _normal_segments(segments) -> frozenset:
    """Segments moved so that their least end point is at 0: equal exactly for translates."""
    x, y = min(p for s in segments for p in s)
    return _shifted(segments, -x, -y)


def edge_motions(kind):
    """The motions fixing a lattice point of the square grid or a hexagon's centre (the one
    drawn at row 1, column 2): rotations, then each after a mirror, on complex numbers."""
    n = EDGE_TURNS[kind]
    centre = 0 if kind == "sticks" else complex(ROOT3 / 2, 3 / 4)
    turns = [complex(math.cos(2 * math.pi * k / n), math.sin(2 * math.pi * k / n)) for k in range(n)]
    return [(lambda z, t=t, m=m: centre + t * ((z - centre).conjugate() if m else z - centre))
            for m in (False, True) for t in turns]


def _neighbours(kind, segment):
    a, b = (_point(kind, k) for k in segment)
    for p, q in ((a, b), (b, a)):
        step = q - p
        for _ in range(EDGE_TURNS[kind] - 1 if kind == "sticks" else 2):
            step *= VERTEX[kind]
            yield frozenset((_key(kind, p), _key(kind, p + step)))


def edge_polyforms(kind, n, mirror=True):
    """Every free (or one-sided) polystick or polytwig of ``n`` segments, as segment sets,
    grown one segment at a time from a single one."""
    start = ((0, 0), (2, 0)) if kind == "sticks" else ((0, 1), (0, 5))  # as drawn at row 1, column 0
    grown = {frozenset([frozenset(start)])}
    for _ in range(n - 1):
        grown = {shape | {s} for shape in grown for t in shape for s in _neighbours(kind, t) if s not in shape}
    classes = {}
    for shape in grown:
        images = [sorted(map(sorted, _normal_segments(i))) for i in _orientations(kind, shape, mirror)]
        classes.setdefault(repr(min(images)), shape)
    return list(classes.values())


def _orientations(kind, shape, mirror):
    found = {}
    for k, f in enumerate(edge_motions(kind)):
        if mirror or k < EDGE_TURNS[kind]:
            image = _normal_segments(_moved(kind, shape, f))
            found.setdefault(image, image)
    return list(found)


def _straight_points(segments) -> set:
    """The points a piece passes straight through: two of its segments meet there in line."""
    others = {}
    for s in segments:
        a, b = s
        others.setdefault(a, []).append(b)
        others.setdefault(b, []).append(a)
    return {p for p, ends in others.items()
            if any(a[0] + b[0] == 2 * p[0] and a[1] + b[1] == 2 * p[1] for i, a in enumerate(ends) for b in ends[i + 1:])}


def edge_solutions(kind, board, pieces, crossing=True):
    """Every way to cover the segments ``board`` with ``pieces`` (``(name, segments, mirror,
    lo, hi)``), no two pieces passing straight through one point (with ``crossing``), by a
    plain backtrack: the first uncovered segment (least end points first) is covered by the
    piece segment lying the same way whose end points are the least of the piece's."""
    order = sorted(board, key=sorted)
    # Each orientation: its least segment, its segments and the points it passes straight
    # through; a placement moves its least segment onto the target.
    shapes = {}
    for name, cells, mirror, _, _ in pieces:
        shapes[name] = []
        for shape in _orientations(kind, cells, mirror):
            first = min(shape, key=sorted)
            shapes[name].append((first, [tuple(s) for s in shape], _straight_points(shape)))
    bounds = {name: (lo, hi) for name, _, _, lo, hi in pieces}
    used = {name: 0 for name in shapes}
    covered, chosen, through, found = set(), [], set(), []

    def go(k):
        while k < len(order) and order[k] in covered:
            k += 1
        if k == len(order):
            if all(bounds[n][0] <= used[n] for n in used):
                found.append(frozenset(chosen))
            return
        target = sorted(order[k])
        for name, options in shapes.items():
            if used[name] >= bounds[name][1]:
                continue
            for first, segments, straight in options:
                # the target is the least uncovered segment, so the piece's least segment lies on it
                a, b = sorted(first)
                if (b[0] - a[0], b[1] - a[1]) != (target[1][0] - target[0][0], target[1][1] - target[0][1]):
                    continue
                dx, dy = target[0][0] - a[0], target[0][1] - a[1]
                placed = [frozenset(((p[0] + dx, p[1] + dy), (q[0] + dx, q[1] + dy))) for p, q in segments]
                if not all(p in board and p not in covered for p in placed):
                    continue
                points = {(x + dx, y + dy) for x, y in straight} if crossing else set()
                if points & through:
                    continue
                covered.update(placed)
                through.update(points)
                used[name] += 1
                chosen.append((name, frozenset(placed)))
                go(k + 1)
                chosen.pop()
                used[name] -= 1
                through.difference_update(points)
                covered.difference_update(placed)

    go(0)
    return found


def edge_distinct(kind, board, pieces, found) -> int:
    """Classes of ``found`` under the motions mapping ``board`` onto itself; a mirrored piece
    takes the name of the piece of its shape (the mirror partner of a one-sided one)."""
    target = _normal_segments(board)
    low = min(p for s in board for p in s)
    maps = []
    for f in edge_motions(kind):
        image = _moved(kind, board, f)
        if _normal_segments(image) != target:
            continue
        x, y = min(p for s in image for p in s)
        maps.append((f, low[0] - x, low[1] - y))
    shapes = {name: set(_orientations(kind, cells, mirror)) for name, cells, mirror, _, _ in pieces}

    def renamed(name, segments):
        key = _normal_segments(segments)
        return name if key in shapes[name] else next(n for n, s in shapes.items() if key in s)

    classes = set()
    for solution in found:
        images = []
        for f, dx, dy in maps:
            moved = [(n, _shifted(_moved(kind, cells, f), dx, dy)) for n, cells in solution]
            images.append(sorted((renamed(n, c), sorted(map(sorted, c))) for n, c in moved))
        classes.add(repr(min(images)))
    return len(classes)


# -- An independent brute force of the exact level: it shares no code with polyfit.motion. ---------
#
# A state is where each piece of a part is (offsets from where the assembly has it). A move slides
# any set of the part's pieces, not all, along one axis, either way, by any distance: one unit step
# at a time, no step putting a cell where a piece of the rest is. A set that slides past every cell
# of the rest without meeting one is taken out (a removal, not a move). Every state of a part is
# found breadth first; a plan takes the part apart when both parts a removal leaves come apart in
# turn (one piece is apart). Of two sides, the heavier (by its heaviest piece) stays put, then the
# larger, then the one with the first piece. A plan ranks by its moves to its first removal, then by
# the ranks of the part that stayed and of the part removed, a part that needs one move everywhere
# ranking below all others; the exact level is the least plan's level text.


def exact_level(pieces, weights=None):
    """The exact level text of the assembly ``pieces`` (cells per piece), or None when no plan
    takes it apart."""
    weights = weights or [1] * len(pieces)
    dim = len(pieces[0][0])
    known = {}

    def cells(p, at):
        return {tuple(c + o for c, o in zip(cell, at)) for cell in pieces[p]}

    def stays(side, rest):
        key = lambda s: (max(weights[p] for p in s), len(s), min(s) == min(side | rest))
        return key(side) > key(rest)

    def least(part, start):
        """The least rank of a plan for ``part`` (sorted piece numbers) from ``start`` (offset per
        piece), with its tree ``(moves, left tree, removed tree)``; None when no plan."""
        if len(part) == 1:
            return (), None
        if (part, start) in known:
            return known[(part, start)]
        home = {p: k for k, p in enumerate(part)}
        start = tuple(tuple(o - b for o, b in zip(at, start[0])) for at in start)
        seen = {start}
        layer = [start]
        best = None
        distance = 0
        while layer and best is None:
            following, removals = [], []
            for state in layer:
                every = [c for p in part for c in cells(p, state[home[p]])]
                span = max(max(c[a] for c in every) - min(c[a] for c in every) for a in range(dim)) + 1
                for mask in range(1, 2 ** len(part) - 1):
                    moving = frozenset(p for p in part if mask >> home[p] & 1)
                    rest = set().union(*(cells(p, state[home[p]]) for p in part if p not in moving))
                    for axis in range(dim):
                        for sign in (1, -1):
                            step = 0
                            while step <= span:
                                shift = [0] * dim
                                shift[axis] = sign * (step + 1)
                                if any(cells(p, tuple(o + s for o, s in zip(state[home[p]], shift))) & rest
                                       for p in moving):
                                    break
                                step += 1
                            if step > span:
                                removals.append((state, moving))
                                continue
                            for amount in range(1, step + 1):
                                moved = tuple(tuple(o + (sign * amount if a == axis and p in moving else 0)
                                                    for a, o in enumerate(state[home[p]])) for p in part)
                                moved = tuple(tuple(o - b for o, b in zip(at, moved[0])) for at in moved)
                                if moved not in seen:
                                    seen.add(moved)
                                    following.append(moved)
            for state, moving in removals:
                rest = frozenset(part) - moving
                gone, left = (moving, rest) if not stays(moving, rest) else (rest, moving)
                parts = []
                for side in (left, gone):
                    side = tuple(sorted(side))
                    parts.append(least(side, tuple(state[home[p]] for p in side)))
                if None in parts:
                    continue
                rank = (distance + 1, parts[0][0], parts[1][0])
                if best is None or rank < best[0]:
                    best = (rank, (distance + 1, parts[0][1], parts[1][1]))
            layer = following
            distance += 1
        if best is not None and best[0] == (1, (), ()):
            best = ((), best[1])
        known[(part, start)] = best
        return best

    everything = tuple(range(len(pieces)))
    found = least(everything, tuple((0,) * dim for _ in pieces))
    if found is None:
        return None
    return level_text(found[1])


# -- disassembly tests: boxes of cells, and the C twin (required under POLYFIT_REQUIRE_C=1) ---------


def box(z, y, x, at=(0, 0, 0)):
    return [(at[0] + k, at[1] + j, at[2] + i) for k in range(z) for j in range(y) for i in range(x)]


def cut_at_random(rng, size, count: int, holes: float) -> list:
    """Pieces cut at random from a box of ``size`` (z, y, x) into at most ``count`` parts, each
    cell left empty with chance ``holes``; two unit cubes when fewer than two pieces come out."""
    pieces = [[] for _ in range(count)]
    for cell in box(*size):
        if rng.random() >= holes:
            pieces[rng.randrange(count)].append(cell)
    pieces = [p for p in pieces if p]
    if len(pieces) < 2:
        pieces = [box(1, 1, 1), box(1, 1, 1, (0, 0, 1))]
    return pieces


def c_engine():
    import os

    import pytest

    from polyfit.motion import native

    reason = native.unavailable_reason()
    if reason is not None:
        if os.environ.get("POLYFIT_REQUIRE_C") == "1":
            pytest.fail(f"the C disassembler is required (POLYFIT_REQUIRE_C=1) but {reason}")
        pytest.skip(reason)
    return "c"


def burrtxt2(path: Path, work: Path, *options: str, timeout: float = 300) -> Path:
    """burrTxt2 OPTIONS on a copy of ``path`` in the folder ``work``; the file it writes."""
    import shutil
    import subprocess

    copy = work / "p.xmpuzzle"
    shutil.copy(path, copy)
    fifo = work / "in"
    os.mkfifo(fifo)
    hold = os.open(fifo, os.O_RDWR)  # burrTxt2 polls stdin and stops at its end
    try:
        done = subprocess.run([str(BURRTXT2), *options, str(copy)], stdin=hold, capture_output=True, text=True,
                              cwd=work, timeout=timeout)
    finally:
        os.close(hold)
    assert done.returncode == 0, done.stdout + done.stderr
    return work / "p.xmpuzzlettt"


def burrtools_count(path: Path, work: Path, *options: str) -> int:
    """The assemblies ``burrTxt2 -R -c OPTIONS`` counts on a copy of ``path``."""
    import gzip
    import re

    written = burrtxt2(path, work, "-R", "-c", *options, timeout=120).read_bytes()
    text = gzip.decompress(written) if written[:2] == b"\x1f\x8b" else written
    return int(re.search(rb'assemblies="(\d+)"', text).group(1))


def assert_tally_is_burrtools(puzzle, answer) -> None:
    """polyfit's disassembly count of ``puzzle`` is BurrTools' ``answer`` (as
    benchmarks/burrtools_levels.py records ``-R -d`` and ``-R -d -m``): its assemblies,
    solutions and levels, and with mirror images kept its classes and solutions."""
    from polyfit.longsearch import disassembly

    counts, tally = disassembly.count(puzzle, puzzle.backend("auto"))
    assert tally.assemblies == answer["default"]["assemblies"]
    assert tally.disassemblable == answer["default"]["solutions"]
    assert tally.levels == answer["default"]["levels"]
    assert tally.disassemblable_rotations == answer["mirror"]["solutions"]
    assert counts.distinct_rotations == answer["mirror"]["assemblies"]


def assert_written_back(board, solutions, work: Path, grid: int, count: int, ordered: bool = True) -> None:
    """``board`` with its pieces and ``solutions`` written as an ``.xmpuzzle`` of BurrTools'
    ``grid`` type reads back as the same board on the same lattice, with ``count`` distinct
    solutions and the solutions as its assemblies (copies of a piece numbered in BurrTools'
    order when read back, so compared by piece; in order unless ``ordered`` is False)."""
    import polyfit
    from polyfit.formats import burrtools

    text = burrtools.xmpuzzle_text(board, board.pieces, solutions)
    assert f'<gridType type="{grid}"/>' in text
    target = work / "again.xmpuzzle"
    target.write_text(text)
    again = polyfit.read_board(target)
    assert sorted(again.cells) == sorted(board.cells) and again.lattice == board.lattice
    assert polyfit.Puzzle(again).count().distinct == count

    def tiling(solution):
        return sorted((label.split("#")[0], sorted(map(tuple, cells))) for label, cells in solution.items())
    back = [tiling(s) for s in burrtools.read_assemblies(target)]
    wrote = [tiling(s) for s in solutions]
    assert back == wrote if ordered else sorted(back) == sorted(wrote)


def group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    return True


def interrupt(args, cwd, ready, wait: float = 120):
    """Run ``polyfit ARGS`` in a session of its own (so that Ctrl-C reaches the whole group,
    as a terminal sends it), send SIGINT once ``ready()`` holds (or ``wait`` seconds have
    passed), and return the process with its stdout and stderr."""
    import signal
    import subprocess
    import sys
    import time

    proc = subprocess.Popen([sys.executable, "-m", "polyfit", *args], cwd=str(cwd), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        deadline = time.monotonic() + wait
        while not ready() and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.05)
        assert proc.poll() is None, proc.communicate()
        os.killpg(proc.pid, signal.SIGINT)
        stdout, stderr = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    return proc, stdout, stderr


def bodies(mesh) -> int:
    """Connected parts of a mesh (triangles sharing vertices), without scipy."""
    parent = list(range(len(mesh.vertices)))

    def root(v):
        while parent[v] != v:
            parent[v] = parent[parent[v]]
            v = parent[v]
        return v

    for a, b, c in mesh.faces:
        parent[root(b)] = root(a)
        parent[root(c)] = root(a)
    return len({root(v) for v in set(mesh.faces.flatten())})


def contains(mesh, points):
    """Which points are inside the closed mesh: a ray from each, in a direction no face or
    edge runs along, crosses its surface an odd number of times (Moller-Trumbore)."""
    import numpy as np

    direction = np.array([0.5773, 0.3391, 0.7431])
    triangles = mesh.vertices[mesh.faces]
    a, e1, e2 = triangles[:, 0], triangles[:, 1] - triangles[:, 0], triangles[:, 2] - triangles[:, 0]
    p = np.cross(direction, e2)
    det = np.einsum("ij,ij->i", e1, p)
    inside = []
    for point in points:
        t = point - a
        u = np.einsum("ij,ij->i", t, p) / det
        q = np.cross(t, e1)
        v = q @ direction / det
        w = np.einsum("ij,ij->i", e2, q) / det
        hits = (u >= 0) & (v >= 0) & (u + v <= 1) & (w > 0)
        inside.append(hits.sum() % 2 == 1)
    return np.array(inside)
