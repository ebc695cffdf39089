"""Combining piece sets in a ``--pieces`` spec: pieces that share a name are renamed by their
size (``tetrominoes,pentominoes`` has ``I4`` and ``I5``), a ``SET:NAME=count`` token recounts
a set's piece in either order, and every other way two tokens can disagree is an error that
names both."""

import itertools

import pytest

from polyfit.errors import PolyfitError, UnknownNameError
from polyfit.formats.piece_specs import resolve_pieces
from polyfit.puzzle.piece_sets import BUILT_IN
from polyfit.puzzle.pieces import Piece
from polyfit.render.palette import piece_colours

from helpers import run_cli

TETRO_PENTO = ["I4", "L4", "O", "S", "T4", "F", "I5", "L5", "N", "P", "T5", "U", "V", "W", "X", "Y", "Z"]
BOX_8X10 = "\n".join(["#" * 10] * 8) + "\n"


def names(pieces):
    return [p.name for p in pieces]


def counts(pieces):
    return {p.name: p.count for p in pieces}


def line(n):
    return tuple((0, c) for c in range(n))


# -- renaming by size --------------------------------------------------------------------------


def test_tetrominoes_and_pentominoes_are_17_pieces_with_sizes_where_names_clash():
    pieces = resolve_pieces("tetrominoes,pentominoes", BUILT_IN)
    assert names(pieces) == TETRO_PENTO
    assert sum(p.size for p in pieces) == 80
    by_name = {p.name: p for p in pieces}
    assert by_name["I4"].cells == line(4) and by_name["I5"].cells == line(5)
    assert len(set(piece_colours(names(pieces)).values())) == 17  # one colour each, by new name


def test_renaming_is_the_same_every_time_and_only_touches_clashing_names():
    first = resolve_pieces("trominoes,tetrominoes,pentominoes", BUILT_IN)
    assert first == resolve_pieces("trominoes,tetrominoes,pentominoes", BUILT_IN)
    assert names(first)[:5] == ["I3", "L3", "I4", "L4", "O"]
    assert names(resolve_pieces("pentominoes,hexominoes", BUILT_IN))[:13] == list("FILNPTUVWXYZ") + ["H01"]
    assert names(resolve_pieces("pentominoes,tetrominoes:O", BUILT_IN))[-1] == "O"  # no clash, no rename


def test_3d_sets_are_renamed_by_cell_count_around_names_already_taken():
    got = names(resolve_pieces("tetracubes,pentacubes", BUILT_IN))
    # The pentacube L4 (Kadon's Superquints) keeps its name, so the two L's take a '-'.
    assert got[:8] == ["I4", "O", "T4", "L-4", "S", "P4", "A4", "B"]
    assert {"I5", "L-5", "P5", "T5", "A5", "L4"} <= set(got) and len(got) == len(set(got)) == 37
    assert names(resolve_pieces("tricubes,pentacubes", BUILT_IN))[:4] == ["I3", "V3", "F", "I5"]


def test_a_name_ending_in_a_digit_takes_a_dash_before_its_size():
    registry = dict(BUILT_IN, long=(lambda: [Piece("H01", line(7))], ""))
    got = names(resolve_pieces("hexominoes:H01,long", registry))
    assert got == ["H01-6", "H01-7"]


def test_renaming_that_would_give_two_pieces_one_name_is_an_error():
    odd = [Piece("A", line(4)), Piece("A4", line(3)), Piece("A-4", line(2))]
    registry = dict(BUILT_IN, odd=(lambda: odd, ""), five=(lambda: [Piece("A", line(5))], ""))
    with pytest.raises(PolyfitError, match="gives two pieces the name 'A-4'"):
        resolve_pieces("odd,five", registry)


def test_mixing_2d_and_3d_is_reported_before_any_renaming():
    with pytest.raises(PolyfitError, match="mixes 2D and 3D pieces"):
        resolve_pieces("pentominoes,soma", BUILT_IN)


# -- SET:NAME and counts with renamed sets -----------------------------------------------------


def test_set_name_picks_a_piece_by_its_own_name_and_gets_the_new_one():
    got = resolve_pieces("tetrominoes:I=2,pentominoes", BUILT_IN)
    assert names(got) == ["I4"] + list("F") + ["I5"] + list("LNPTUVWXYZ")
    assert counts(got)["I4"] == (2, 2) and counts(got)["I5"] == (1, 1)
    assert names(resolve_pieces("tetrominoes:I,pentominoes:I", BUILT_IN)) == ["I4", "I5"]
    with pytest.raises(UnknownNameError, match="unknown piece of pentominoes 'I5'"):
        resolve_pieces("tetrominoes,pentominoes:I5", BUILT_IN)  # names in a spec are the set's


def test_counts_on_renamed_sets():
    got = counts(resolve_pieces("2*tetrominoes,0..1*pentominoes", BUILT_IN))
    assert got["I4"] == got["O"] == (2, 2) and got["I5"] == got["F"] == (0, 1)
    got = counts(resolve_pieces("2*tetrominoes,pentominoes,tetrominoes:O=1,pentominoes:I=0..3", BUILT_IN))
    assert (got["O"], got["I4"], got["I5"], got["L5"]) == ((1, 1), (2, 2), (0, 3), (1, 1))


# -- a spec means the same in any order --------------------------------------------------------


@pytest.mark.parametrize(
    "first, second",
    [
        ("pentominoes:F=0..2,pentominoes", "pentominoes,pentominoes:F=0..2"),
        ("tetrominoes:O=3,2*tetrominoes", "2*tetrominoes,tetrominoes:O=3"),
        ("pentominoes:I=0..1,tetrominoes,pentominoes", "tetrominoes,pentominoes,pentominoes:I=0..1"),
        ("soma:A=2,soma", "soma,soma:A=2"),
    ],
)
def test_a_recount_gives_the_same_pieces_before_or_after_its_set(first, second):
    assert resolve_pieces(first, BUILT_IN) == resolve_pieces(second, BUILT_IN)  # names, counts, order


def test_a_recount_may_stand_anywhere_among_the_sets():
    sets = ["tetrominoes", "pentominoes"]
    expected = resolve_pieces("tetrominoes,pentominoes,tetrominoes:T=0..1", BUILT_IN)
    assert counts(expected)["T4"] == (0, 1) and names(expected) == TETRO_PENTO
    for k in range(3):
        tokens = sets[:k] + ["tetrominoes:T=0..1"] + sets[k:]
        assert resolve_pieces(",".join(tokens), BUILT_IN) == expected


def test_the_spec_tokens_commute_when_only_recounts_move():
    tokens = ["2*tetrominoes", "tetrominoes:O=1", "pentominoes:X=0..1"]
    specs = [",".join(order) + ",pentominoes" for order in itertools.permutations(tokens)]
    results = {tuple(resolve_pieces(spec, BUILT_IN)) for spec in specs}
    assert len(results) == 1
    got = counts(results.pop())
    assert (got["O"], got["T4"], got["X"], got["I5"]) == ((1, 1), (2, 2), (0, 1), (1, 1))


# -- clashes and double namings ----------------------------------------------------------------


@pytest.mark.parametrize(
    "spec, words",
    [
        (
            "pentominoes:F=2,pentominoes:F=0..2",
            "piece 'F' is given two different counts, by 'pentominoes:F=2' and 'pentominoes:F=0..2'",
        ),
        ("pentominoes,pentominoes:F=0..2,pentominoes:F=1", "by 'pentominoes:F=0..2' and 'pentominoes:F=1'"),
        ("pentominoes:F,pentominoes:F=1", "'F' is named twice, by 'pentominoes:F' and 'pentominoes:F=1'"),
        ("tetrominoes:O,tetrominoes:O", "'tetrominoes:O' is named twice, so its piece 'O' would be used"),
        ("tetrominoes:O,tetrominoes", "piece 'O' is in both 'tetrominoes:O' and 'tetrominoes'"),
        ("tetrominoes,tetrominoes:O", "give the single piece a count (tetrominoes:O=N)"),
        ("pentominoes,pentominoes", "'pentominoes' is named twice"),
        ("soma,tetracubes", "piece 'L' is in both 'soma' and 'tetracubes', so it would be used twice"),
        ("tetrominoes,one-sided-tetrominoes", "'I' is in both 'tetrominoes' and 'one-sided-tetrominoes'"),
        (
            "one-sided-tetrominoes:L,tetrominoes",
            "'one-sided-tetrominoes:L' and 'tetrominoes' both have a piece named 'L' of 4 cells, and they "
            "are different pieces; pick single pieces with SET:NAME",
        ),
    ],
)
def test_clashes_are_errors_that_name_both_tokens(spec, words):
    with pytest.raises(PolyfitError) as info:
        resolve_pieces(spec, BUILT_IN)
    assert words in str(info.value)


def test_a_pieces_file_piece_named_like_a_set_piece(tmp_path):
    path = tmp_path / "mine.txt"
    path.write_text("LLL\nL..\nL..\n")  # an L of 5 cells, the V pentomino's shape
    with pytest.raises(PolyfitError) as info:
        resolve_pieces(f"pentominoes,{path}", BUILT_IN)
    assert f"'pentominoes' and '{path}' both have a piece named 'L' of 5 cells" in str(info.value)
    assert "rename one in its pieces file" in str(info.value)
    path.write_text("FFF.\n.F..\n")  # a T tetromino, here called F
    assert names(resolve_pieces(f"pentominoes,{path}", BUILT_IN)) == ["F5"] + list("ILNPTUVWXYZ") + ["F4"]
    path.write_text(".X.\nXXX\n.X.\n")  # the X pentomino itself
    with pytest.raises(PolyfitError, match="piece 'X' is in both 'pentominoes' and"):
        resolve_pieces(f"pentominoes,{path}", BUILT_IN)


# -- on the command line -----------------------------------------------------------------------


def test_the_17_pieces_fill_an_8x10_box_and_print_with_their_new_names(tmp_path):
    board = tmp_path / "8x10.txt"
    board.write_text(BOX_8X10)
    result = run_cli(["solve", str(board), "--pieces", "tetrominoes,pentominoes", "--limit", "1"])
    assert result.exit_code == 0, result.output
    rows = [row.split() for row in result.output.split("\n\n")[0].splitlines()[1:]]
    assert len(rows) == 8 and all(len(row) == 10 for row in rows)
    cells = [name for row in rows for name in row]
    sizes = {p.name: p.size for p in resolve_pieces("tetrominoes,pentominoes", BUILT_IN)}
    assert {name: cells.count(name) for name in set(cells)} == sizes


def test_polyfit_pieces_draws_the_renamed_pieces():
    result = run_cli(["pieces", "tetrominoes,pentominoes"])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("I4 I4 I4 I4   L4 L4 L4")
    assert result.output.count("I5") == 5 and result.output.count("T4") == 4


def test_a_board_pre_places_pieces_by_one_character_names_only(tmp_path):
    # A board marks a pre-placed piece with one character: the O keeps its name and can be
    # drawn in; the renamed I4 and I5 cannot, and the error lists the names there are.
    board = tmp_path / "o.txt"
    board.write_text("OO########\nOO########\n" + "\n".join(["#" * 10] * 6) + "\n")
    result = run_cli(["solve", str(board), "--pieces", "tetrominoes,pentominoes", "--limit", "1"])
    assert result.exit_code == 0, result.output
    assert [row.split()[:2] for row in result.output.splitlines()[1:3]] == [["O", "O"], ["O", "O"]]
    board.write_text(BOX_8X10.replace("#####", "IIIII", 1))
    result = run_cli(["solve", str(board), "--pieces", "tetrominoes,pentominoes", "--limit", "1"])
    assert result.exit_code != 0
    assert "no piece is named 'I' (the pieces: I4, L4, O, S, T4, F, I5," in result.output

