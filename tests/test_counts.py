"""Solution counts from the literature, distinct (up to board symmetry) and in total."""

import pytest

from polyfit.formats.textart import read_text_board
from polyfit.plugins import get_plugin_manager
from polyfit.registry import Registry
from polyfit.puzzle.solve import Puzzle

from helpers import BUILT_IN_BACKENDS, ROOT

SHAPES = str(ROOT / "shapes" / "pentomino") + "/"


@pytest.fixture(scope="module")
def registry():
    return Registry.from_plugins(get_plugin_manager(load_entrypoints=False))


def puzzle(registry, board, spec=None):
    from polyfit.formats.piece_specs import resolve_pieces

    board = read_text_board(SHAPES + board)
    return Puzzle(board, resolve_pieces(spec or board.metadata["pieces"], registry.piece_set_builders()))


PURE_PYTHON = {"dlx-python", "bitset-python"}


@pytest.mark.parametrize(
    "backend, board, distinct, total",
    [
        # the pure-Python backends on the bigger boards take many seconds: slow
        pytest.param(name, board, distinct, total, id=f"{name}-{board}",
                     marks=[pytest.mark.slow] if name in PURE_PYTHON and board != "3x20.txt" else [])
        for board, distinct, total in [("3x20.txt", 2, 8), ("8x8-centre-hole.txt", 65, 520), ("4x15.txt", 368, 1472)]
        for name in BUILT_IN_BACKENDS
    ],
    indirect=["backend"],
)
def test_pentomino_counts(registry, backend, board, distinct, total):
    counts = puzzle(registry, board).count(backend)
    assert (counts.distinct, counts.total) == (distinct, total)
    assert counts.complete


@pytest.mark.parametrize(
    "board, distinct, total",
    [("5x12.txt", 1010, 4040), ("6x10.txt", 2339, 9356), ("8x8-corners.txt", 2170, 17360)],
)
def test_large_pentomino_counts_on_the_fastest_backend(registry, board, distinct, total):
    counts = puzzle(registry, board).count(registry.backend("auto"))
    assert (counts.distinct, counts.total) == (distinct, total)


def test_symmetry_breaking_gives_the_same_total_as_the_full_search(registry, backend):
    from polyfit.puzzle.solve import Puzzle

    board = read_text_board(SHAPES + "3x20.txt")
    from polyfit.formats.piece_specs import resolve_pieces

    pieces = resolve_pieces("pentominoes", registry.piece_set_builders())
    broken = Puzzle(board, pieces).count(backend)
    full = Puzzle(board, pieces, break_symmetry=False).count(backend)
    assert full.total == broken.total == 8
    assert full.distinct == broken.distinct == 2
    assert broken.search.nodes < full.search.nodes


def brute_force_counts(board, pieces, backend):
    """Total and distinct counts computed apart from polyfit's symmetry code: every solution
    of the full search, classes found by applying each board symmetry to the cell sets."""
    from polyfit.puzzle.solve import Counts
    from polyfit.puzzle.symmetry import board_symmetries

    puzzle = Puzzle(board, pieces, break_symmetry=False)
    solutions = {
        frozenset(puzzle.placements[i].cells for i in found.placements)
        for found in puzzle.search(backend, Counts())
    }
    symmetries = board_symmetries(board.cells)
    classes = {
        min(tuple(sorted(tuple(sorted(g(c) for c in cells)) for cells in s)) for g in symmetries)
        for s in solutions
    }
    return len(classes), len(solutions)


@pytest.mark.parametrize(
    "rows, spec, expected",
    [
        # V in a corner (4 ways), L and the monomino in the 2x2 left (4 ways): 16 in all. The
        # diagonal mirror fixes V; it fixes the monomino on the diagonal (2 ways) and swaps
        # the other two: 3 classes.
        ("###\n###\n###", "monomino,trominoes:L,pentominoes:V", (3, 16)),  # 8 self-symmetric
        ("####\n####\n####", "trominoes:I,tetrominoes:T,pentominoes:U", (3, 8)),
        ("###\n###\n###", "tetrominoes:O,pentominoes:V", (1, 4)),
        ("#####\n#####\n#####", "pentominoes:I,pentominoes:L,pentominoes:P", None),
    ],
)
def test_self_symmetric_solutions_are_counted_exactly(registry, backend, rows, spec, expected):
    from polyfit.formats.textart import parse_board_text
    from polyfit.formats.piece_specs import resolve_pieces

    board = parse_board_text(rows)
    pieces = resolve_pieces(spec, registry.piece_set_builders())
    counts = Puzzle(board, pieces).count(backend)
    independent = brute_force_counts(board, pieces, backend)
    assert (counts.distinct, counts.total) == independent
    if expected is not None:
        assert independent == expected


def test_a_board_with_every_piece_pre_placed_has_its_one_solution(registry, backend):
    """Nothing left to search: the empty search's one solution is the board as drawn (it was
    an IndexError when the solution was classified)."""
    from polyfit.formats.piece_specs import resolve_pieces
    from polyfit.puzzle.board import Board

    board = Board.from_text("DD..DD\n")
    counts = Puzzle(board, resolve_pieces("2*domino", registry.piece_set_builders())).count(backend)
    assert (counts.distinct, counts.total, counts.distinct_rotations) == (1, 1, 1)
    assert counts.classes == {(1, 1): 1}  # a class of one, fixed by all 4 symmetries


def test_the_classes_hold_every_solution(registry):
    """The sizes of the distinct solutions' classes add up to the total (what lets a count
    from jobs be checked to agree), on boards with a breaker piece and without (dominoes)."""
    from polyfit.formats.piece_specs import resolve_pieces
    from polyfit.puzzle.board import Board

    dlx = registry.backends["dlx-c"]
    if dlx.unavailable_reason() is not None:
        dlx = registry.backends["dlx-python"]
    boards = [puzzle(registry, name) for name in ("3x20.txt", "scott.txt", "8x8-centre-hole.txt")]
    for art, spec in [("DD..DD\n######\n######\n######\n", "11*domino"), ("######\n######\n######\n", "9*domino")]:
        boards.append(Puzzle(Board.from_text(art), resolve_pieces(spec, registry.piece_set_builders())))
    for p in boards:
        counts = p.count(dlx)
        assert counts.total > 0
        assert sum(size * n for (size, _), n in counts.classes.items()) == counts.total
        assert sum(n for n in counts.classes.values()) == counts.distinct
        assert sum(split * n for (_, split), n in counts.classes.items()) == counts.distinct_rotations
        assert sum(w * n for w, n in counts.weights.items()) == counts.total
        assert sum(counts.weights.values()) == counts.search.solutions
