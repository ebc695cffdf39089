"""The Soma notations: Bundgaard's (by content) and yass's .soma (by suffix), read and written;
the shipped figures keep their counts through both, pieces placed in advance are read from
the letters, and bad files are one clear error each."""

from __future__ import annotations

import json

import pytest

import polyfit
from helpers import ROOT, run, solutions
from polyfit.errors import ParseError, PolyfitError
from polyfit.formats import soma_notation

SOMA = ROOT / "shapes" / "soma"
MANIFEST = json.loads((SOMA / "manifest.json").read_text())["figures"]
FIGURES = ["castle.vox", "bathtub.vox", "battleship.vox", "steps.vox", "arch.vox", "skew.vox", "cross.vox"]


@pytest.mark.parametrize("figure", FIGURES)
def test_shipped_figures_keep_their_counts_through_both_notations(tmp_path, figure):
    board = polyfit.read_board(SOMA / figure)
    expected = MANIFEST[figure]["distinct"], MANIFEST[figure]["distinct_rotations"]
    yass = tmp_path / "figure.soma"
    yass.write_text(soma_notation.yass_text(board))
    bundgaard = tmp_path / "figure.txt"  # Bundgaard's notation is known by its content
    bundgaard.write_text(soma_notation.bundgaard_text([board]))
    for path in (yass, bundgaard):
        again = polyfit.read_board(path)
        assert again.cells == board.cells and again.name == board.name
        counts = polyfit.Puzzle(again).count()
        assert (counts.distinct, counts.distinct_rotations) == expected


def test_a_file_of_many_figures_is_counted_as_a_table(app):
    result = run(app, "solve", SOMA / "figures.std", "--count")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].split() == ["board", "distinct", "rotations", "in", "all"]
    rows = {line[:16].strip(): line[16:].split() for line in lines[1:-1]}
    for name, file in [("Soma cube", "cube.vox"), ("Castle", "castle.vox"), ("Bathtub", "bathtub.vox"),
                       ("Battleship", "battleship.vox"), ("Steps", "steps.vox"), ("Tower", "tower.vox")]:
        entry = MANIFEST[file]
        assert rows[name] == [str(entry["distinct"]), str(entry["distinct_rotations"]), str(entry["total"])]
    assert rows["Castle, solved"] == rows["Castle"]  # a figure drawn solved is solved afresh
    assert lines[-1] == "7 boards, 7 with solutions"


def test_bundgaard_is_known_by_content_after_a_long_preamble(tmp_path):
    path = tmp_path / "collection.txt"
    path.write_text("Figures from my notebook, in Bundgaard's notation; two sets of pieces not needed.\n\n"
                    + (SOMA / "figures.std").read_text())
    assert [b.name for b in polyfit.read_boards(path)][:2] == ["Soma cube", "Castle"]


def test_figures_are_picked_by_number_name_or_soma_number(app):
    for pick in ("2", "Castle", "002", "SOMA002"):
        result = run(app, "solve", SOMA / "figures.std", "--figure", pick, "--count")
        assert result.output.startswith("Castle: 3 distinct solutions"), (pick, result.output)
    result = run(app, "solve", SOMA / "figures.std", "--figure", "Dog")
    assert result.exit_code == 2 and "unknown figure 'Dog'; valid figures: 1, 2, 3" in result.output


def test_bundgaard_digits_name_the_pieces_and_plain_cells_make_them_pre_placed(tmp_path):
    solved = polyfit.read_board(SOMA / "figures.std", select="Castle, solved")
    assert solved.fixed == ()  # every cell named: a solution shown, not pieces placed
    text = "/SOMA100\n;Castle, three placed\n/5...7/55177\n/...../35117\n/...../33###\n/...../3####\n/#..../####.\n"
    path = tmp_path / "castle.txt"
    path.write_text(text)
    board = polyfit.read_board(path)
    assert sorted(name for name, _, _ in board.fixed) == ["A", "P", "T", "V"]  # 5, 7, 3 and 1
    assert polyfit.read_board(path).cells == polyfit.read_board(SOMA / "castle.vox").cells

    pieces = [(p.name, p.cells, p.mirror, 1, 1) for p in polyfit.pieces("soma")]
    found = solutions(board.cells, pieces, fixed=[(name, cells) for name, cells, _ in board.fixed])
    assert polyfit.Puzzle(board).count().total == len(found) == 2  # by brute force too


def test_yass_letters_pre_place_pieces_with_yass_names():
    board = polyfit.read_board(SOMA / "cube-t-placed.soma")
    assert board.name == "Soma cube, T placed"
    assert [name for name, _, _ in board.fixed] == ["T"]
    counts = polyfit.Puzzle(board).count()
    assert counts.distinct == 240  # as yass's own README finds: every cube solution has T so


def test_the_screws_keep_their_hands():
    """Bundgaard's 5 and yass's n are polyfit's A, 6 and p its B (the two are mirror images,
    so a screw drawn in one hand is only ever one of them)."""
    from polyfit.lattices.grid import normalize

    shapes = {p.name: set(p.orientations()) for p in polyfit.pieces("soma")}
    screw = "..\nx.\n\nxx\nx.\n"  # top slice first: a cube above an end of a V, in A's hand
    board = soma_notation.parse_yass(screw.replace("x", "n"), "screw.soma")
    (placed, cells, _), = board.fixed
    assert placed == "A" and normalize(cells) in shapes["A"]
    (placed, cells, _), = soma_notation.parse_yass(screw.replace("x", "p"), "screw.soma").fixed
    assert placed == "B" and normalize(cells) not in shapes["B"]  # the other hand: refused by a solve
    board = soma_notation.parse_bundgaard("/SOMA1\n;screw\n/../55\n/5./5.\n/../#.\n", "s.std")
    (placed, cells, _), = board.fixed
    assert placed == "A" and normalize(cells) in shapes["A"]


BAD = {
    "ragged layers": ("/SOMA001\n;x\n/###/###\n/###\n", ".std", "4:1: this row has 1 layers, the figure's first row 2"),
    "no rows": ("/SOMA001\n;empty\n", ".std", "1:1: figure 001 has no rows"),
    "tab": ("ooo\n\too\n", ".soma", "2:1: a tab"),
    "nothing": ("# only a comment\n", ".soma", "the file draws no figure"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_files_are_one_clear_error(app, tmp_path, case):
    text, suffix, message = BAD[case]
    path = tmp_path / f"bad{suffix}"
    path.write_text(text)
    result = run(app, "solve", path, "--count")
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"polyfit: error: {path}:"), result.output
    assert message in lines[0]


def test_writing_refuses_what_the_notations_cannot_say():
    with pytest.raises(PolyfitError, match="is 2D"):
        soma_notation.yass_text(polyfit.read_board(ROOT / "shapes/pentomino/6x10.txt"))
    cube5 = polyfit.read_board(ROOT / "shapes/bricks/cube5.vox")
    with pytest.raises(PolyfitError, match="for the seven Soma pieces"):
        soma_notation.bundgaard_text([cube5], polyfit.pieces("tetracubes"))


def test_a_parse_error_has_line_and_column():
    with pytest.raises(ParseError) as caught:
        soma_notation.parse_bundgaard("/SOMA001\n;x\n/#\x01#/###\n", "f.std")
    assert (caught.value.line, caught.value.column) == (3, 3)
