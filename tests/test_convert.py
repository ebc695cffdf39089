"""``polyfit convert``: every format polyfit reads into every other that can hold the board,
and back, with the same counts; pieces that come with a file go into a pieces file beside
text art; nothing is overwritten without --force."""

from __future__ import annotations

import pytest

import polyfit
from helpers import ROOT, run
from polyfit.formats import burrtools

BURR = ROOT / "shapes" / "burrtools"
DATA = ROOT / "tests" / "data" / "burrtools"
CASTLE = ROOT / "shapes" / "soma" / "castle.vox"
SOMA_FORMATS = [("c.vox", None), ("c.xmpuzzle", None), ("c.soma", None), ("c.std", None),
                ("c-magica.vox", "magicavoxel")]


def convert(app, *args):
    result = run(app, "convert", *args)
    assert result.exit_code == 0, result.output
    return result.output


def counts(path, **kwargs):
    c = polyfit.load(path, **kwargs).count()
    return c.distinct, c.distinct_rotations, c.total


@pytest.mark.parametrize("first", SOMA_FORMATS, ids=lambda f: f[1] or f[0])
@pytest.mark.parametrize("second", SOMA_FORMATS, ids=lambda f: f[1] or f[0])
def test_a_soma_figure_goes_through_every_pair_of_formats(app, tmp_path, first, second):
    """castle.vox -> first -> second -> voxel text: the same cells and the castle's 3 (6, 6)."""
    a = tmp_path / ("a-" + first[0])
    convert(app, CASTLE, a, *(["--format", first[1]] if first[1] else []))
    b = tmp_path / ("b-" + second[0])
    convert(app, a, b, *(["--pieces", "soma"] if first[1] else []), *(["--format", second[1]] if second[1] else []))
    back = tmp_path / "back.vox"
    convert(app, b, back, *(["--pieces", "soma"] if second[1] else []))
    assert polyfit.read_board(back).cells == polyfit.read_board(CASTLE).cells
    pieces = "soma" if second[1] else None
    assert counts(back, pieces=pieces) == counts(b, pieces=pieces) == (3, 6, 6)


def test_text_art_with_optional_cells_and_ranges_goes_to_burrtools_and_back(app, tmp_path):
    source = DATA / "optional.txt"
    burr = tmp_path / "optional.xmpuzzle"
    assert convert(app, source, burr).strip() == f"wrote {burr}"
    text = tmp_path / "again.txt"
    assert convert(app, burr, text).strip() == f"wrote {text}, {tmp_path / 'again.pieces.txt'}"
    assert "; pieces: again.pieces.txt" in text.read_text()
    assert "; count I: 0..2" in (tmp_path / "again.pieces.txt").read_text()
    board = polyfit.read_board(text)
    original = polyfit.read_board(source)
    assert (board.cells, board.optional) == (original.cells, original.optional)
    assert counts(text) == counts(burr) == counts(source) == (312, 624, 2496)


def test_burrtools_pentominoes_become_text_art_with_a_pieces_file(app, tmp_path):
    text = tmp_path / "6x10.txt"
    convert(app, BURR / "pentominoes-6x10.xmpuzzle", text)
    assert text.read_text().splitlines()[-6:] == ["#" * 10] * 6
    assert counts(text) == (2339, 4678, 9356)


def test_solutions_are_saved_as_assemblies_that_read_back_as_polyfits(app, tmp_path):
    out = tmp_path / "castle.xmpuzzle"
    assert convert(app, CASTLE, out, "--solutions", "5").strip() == f"wrote {out} with 3 solutions"
    saved = burrtools.read_assemblies(out)
    mine = [s.placements for s in polyfit.load(CASTLE).solutions()]
    assert [sorted((k, tuple(sorted(v))) for k, v in s.items()) for s in saved] == [
        sorted((k, tuple(sorted(v))) for k, v in s.items()) for s in mine]
    result = run(app, "convert", CASTLE, tmp_path / "castle.txt", "--solutions", "1")
    assert result.exit_code == 2 and "--solutions is for BurrTools files" in result.output


def test_a_bundgaard_figure_is_picked_from_a_file_of_many(app, tmp_path):
    out = tmp_path / "bathtub.soma"
    convert(app, ROOT / "shapes/soma/figures.std", out, "--figure", "Bathtub")
    assert counts(out) == (79, 158, 316)


def test_nothing_is_overwritten_without_force(app, tmp_path):
    out = tmp_path / "castle.soma"
    out.write_text("mine")
    result = run(app, "convert", CASTLE, out)
    assert result.exit_code == 2 and "exists; use --force" in result.output
    assert out.read_text() == "mine"
    convert(app, CASTLE, out, "--force")
    assert out.read_text().startswith("# name: Castle")


@pytest.mark.parametrize("target, options, message", [
    ("x.soma", [], "draws Soma figures, in 3D"),
    ("x.png", [], "no board writer for '.png'"),
    ("x.vox", ["--format", "magicavoxel"], "MagicaVoxel files are 3D"),
    ("x.txt", ["--format", "svg"], "unknown board format 'svg'"),
])
def test_what_cannot_be_written_is_one_clear_error(app, tmp_path, target, options, message):
    result = run(app, "convert", ROOT / "shapes/pentomino/6x10.txt", tmp_path / target, *options)
    assert result.exit_code == 2
    assert len(result.output.strip().splitlines()) == 1 and message in result.output, result.output


def test_magicavoxel_says_what_it_cannot_hold_and_how_to_solve_it_all_the_same(app, tmp_path):
    # It used to write the cells and drop the pieces without a word.
    out = tmp_path / "c.vox"
    result = run(app, "convert", CASTLE, out, "--format", "magicavoxel")
    assert result.exit_code == 0
    assert result.output == (
        f"wrote {out}\npolyfit: note: {out} is a MagicaVoxel file, which holds cells only: the pieces (soma), "
        "the board's name (Castle) and its '; source:' line are not in it; solve it with --pieces soma\n")
    assert counts(out, pieces="soma") == (3, 6, 6)
    held = tmp_path / "s.vox"
    result = run(app, "convert", BURR / "soma.xmpuzzle", held, "--format", "magicavoxel")
    assert result.exit_code == 0 and f"solve it with --pieces {tmp_path / 's.pieces.vox'}\n" in result.output
    assert "the pieces (they are in s.pieces.vox beside it)" in result.output
    assert polyfit.load(held, str(tmp_path / "s.pieces.vox")).count().total > 0
    assert "note" not in run(app, "convert", CASTLE, tmp_path / "c.soma").output  # yass keeps the pieces
