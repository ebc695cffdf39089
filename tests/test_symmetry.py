from dataclasses import dataclass

from polyfit.formats.textart import parse_board_text
from polyfit.lattices.grid import lattice_group, normalize, orientations
from polyfit.puzzle.symmetry import board_symmetries, puzzle_symmetries


@dataclass(frozen=True)
class Shape:
    """A minimal piece for these tests: name, cells and whether it may be flipped."""

    name: str
    cells: tuple
    mirror: bool = True

    def orientations(self):
        return orientations(self.cells, lattice_group(len(self.cells[0]), self.mirror))


def box(*sizes):
    import itertools

    return list(itertools.product(*(range(n) for n in sizes)))


def test_board_symmetry_orders():
    assert len(board_symmetries(box(6, 10))) == 4
    assert len(board_symmetries(box(8, 8))) == 8
    assert len(board_symmetries(box(3, 3, 3))) == 48
    assert len(board_symmetries(box(2, 3, 4))) == 8
    assert len(board_symmetries(box(2, 2, 5))) == 16
    hole = parse_board_text("####\n#..#\n####\n").cells
    assert len(board_symmetries(hole)) == 4
    lopsided = parse_board_text("###\n#\n").cells
    assert len(board_symmetries(lopsided)) == 1


def test_symmetries_map_the_board_onto_itself_identity_first():
    cells = parse_board_text("########\n" * 3 + "###..###\n" * 2 + "########\n" * 3).cells
    syms = board_symmetries(cells)
    assert syms[0].is_identity
    for sym in syms:
        assert sorted(sym(c) for c in cells) == sorted(cells)


L = ((0, 0), (1, 0), (2, 0), (2, 1))
J = normalize((r, -c) for r, c in L)
I = ((0, 0), (1, 0), (2, 0), (3, 0))


def test_free_pieces_keep_every_board_symmetry():
    syms = puzzle_symmetries(box(4, 4), [Shape("L", L), Shape("I", I)])
    assert len(syms) == 8
    assert all(s.piece_map == (0, 1) for s in syms)


def test_one_sided_pieces_lose_reflections_unless_the_set_has_their_mirror():
    alone = puzzle_symmetries(box(4, 4), [Shape("L", L, False), Shape("I", I, False)])
    assert len(alone) == 4 and all(s.is_proper for s in alone)
    paired = puzzle_symmetries(
        box(4, 4), [Shape("L", L, False), Shape("J", J, False), Shape("I", I, False)]
    )
    assert len(paired) == 8
    for s in paired:
        assert s.piece_map == ((0, 1, 2) if s.is_proper else (1, 0, 2))
