"""Solution counts from the literature, distinct (up to board symmetry) and in total."""

import pytest

from polyfit.board import read_text_board
from polyfit.plugins import get_plugin_manager
from polyfit.registry import Registry
from polyfit.solve import Puzzle

SHAPES = "shapes/pentomino/"


@pytest.fixture(scope="module")
def registry():
    return Registry.from_plugins(get_plugin_manager(load_entrypoints=False))


def puzzle(registry, board, spec=None):
    from polyfit.pieces import resolve_pieces

    board = read_text_board(SHAPES + board)
    return Puzzle(board, resolve_pieces(spec or board.metadata["pieces"], registry.piece_set_builders()))


@pytest.mark.parametrize(
    "board, distinct, total",
    [("3x20.txt", 2, 8), ("8x8-centre-hole.txt", 65, 520), ("4x15.txt", 368, 1472)],
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
    from polyfit.solve import Puzzle

    board = read_text_board(SHAPES + "3x20.txt")
    from polyfit.pieces import resolve_pieces

    pieces = resolve_pieces("pentominoes", registry.piece_set_builders())
    broken = Puzzle(board, pieces).count(backend)
    full = Puzzle(board, pieces, break_symmetry=False).count(backend)
    assert full.total == broken.total == 8
    assert full.distinct == broken.distinct == 2
    assert broken.search.nodes < full.search.nodes


def test_self_symmetric_solutions_are_counted_exactly(registry, backend):
    # A 4x4 square of four L tetrominoes... and the dominoes of a 2x4 box: small boards whose
    # solutions include symmetric ones, counted by brute force over the full search.
    from polyfit.board import parse_board_text
    from polyfit.pieces import resolve_pieces

    pieces = resolve_pieces("tetrominoes", registry.piece_set_builders())
    board = parse_board_text("#####\n#####\n##########\n")  # 20 cells, one symmetry
    assert board.area == 20
    full = Puzzle(board, pieces, break_symmetry=False)
    broken = Puzzle(board, pieces)
    a, b = full.count(backend), broken.count(backend)
    assert (a.distinct, a.total) == (b.distinct, b.total)
