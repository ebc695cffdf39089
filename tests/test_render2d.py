"""Flat pictures: palette, solution images, contact sheets, piece sheets, and the CLI flags."""

import json
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageChops

from polyfit.render import flat
from polyfit.cli import build_app
from polyfit.errors import PolyfitError
import polyfit
from polyfit.render.palette import SAFE_COLOURS, copy_colour, hex_colour, piece_colours
from polyfit.render.pictures import compact, save_png
from polyfit.plugins import get_plugin_manager
from polyfit.render.style import INK, Style

from helpers import run, built_in_set

ROOT = Path(__file__).resolve().parent.parent
BOARDS = ROOT / "shapes" / "pentomino"


# The first 3x20 solution polyfit prints: every letter is one pentomino.
ROWS = ["UUXPPPLLLLFTTTWWZVVV",
        "UXXXPPLNNFFFTWWYZZZV",
        "UUXIIIIINNNFTWYYYYZV"]


def text_solution(rows):
    solution = {}
    for r, row in enumerate(rows):
        for c, name in enumerate(row):
            solution.setdefault(name, []).append((r, c))
    return solution


@pytest.fixture(scope="module")
def three_by_twenty(tmp_path_factory):
    """The 3x20 box, solved once through the CLI and saved as JSON."""
    out = tmp_path_factory.mktemp("json") / "s.json"
    app = build_app(get_plugin_manager(load_entrypoints=False))
    assert run(app, "solve", BOARDS / "3x20.txt", "--all", "-o", out).exit_code == 0
    return json.loads(out.read_text()), out


# -- palette --------------------------------------------------------------------------------


def test_palette_is_deterministic_distinct_and_keyed_by_name():
    names = [p.name for p in built_in_set("pentominoes")]
    colours = piece_colours(names)
    assert colours == piece_colours(reversed(names))  # order of the set does not matter
    assert len(set(colours.values())) == 12
    assert set(colours.values()) == set(SAFE_COLOURS)  # twelve pieces: the safe palette only
    for set_name in ("hexominoes", "heptominoes"):
        many = piece_colours(p.name for p in built_in_set(set_name))
        assert len(set(many.values())) == len(many)


def set_names(name: str) -> list[str]:
    return [p.name for p in polyfit.pieces(name)]


def test_a_piece_keeps_its_colour_in_every_set_and_every_set_is_distinct():
    # Made here, not when the module is collected: every built-in set's pieces take a second.
    all_sets = {name: set_names(name) for name in polyfit.piece_sets()}
    # The bug: crc32(name) % max(12, len(names)) made Z blue on 6x10 (12 pieces) and another
    # colour on Scott's board (13 pieces: the O tetromino too).
    seen: dict[str, tuple[str, tuple]] = {}
    for set_name, names in all_sets.items():
        colours = piece_colours(names)
        assert len(set(colours.values())) == len(names), set_name
        for name, colour in colours.items():
            first = seen.setdefault(name, (set_name, colour))
            assert colour == first[1], f"{name} in {set_name} and in {first[0]}"
    shared = [n for n in seen if sum(n in names for names in all_sets.values()) > 1]
    assert len(shared) >= 20  # F, I, L... are in many sets: the loop above compared them


def test_puzzle_colours_are_the_same_for_shared_pieces_on_every_board():
    six_by_ten = polyfit.load(BOARDS / "6x10.txt").colours()
    scott = polyfit.load(BOARDS / "scott.txt").colours()
    cube = polyfit.load(ROOT / "shapes/pentacube/3x4x5.vox").colours()  # the flat pentacubes
    assert sorted(scott) == sorted("FILNPTUVWXYZO")
    assert all(scott[name] == six_by_ten[name] == cube[name] for name in six_by_ten)
    assert six_by_ten["Z"] == "#0072b2" and scott["O"] not in six_by_ten.values()
    assert len(set(six_by_ten.values())) == 12 and len(set(scott.values())) == 13
    assert all(len(c) == 7 and c.startswith("#") and int(c[1:], 16) >= 0 for c in scott.values())
    # What the pictures paint is what colours() says.
    assert piece_colours("FILNPTUVWXYZO") == {n: tuple(int(c[k:k + 2], 16) for k in (1, 3, 5)) for n, c in scott.items()}


def test_other_names_keep_a_colour_that_does_not_depend_on_the_size_of_the_set():
    alone = piece_colours(["king"])["king"]
    for size in (2, 12, 13, 40):
        others = [f"piece{k}" for k in range(size)]
        colours = piece_colours(others + ["king"])
        if colours["king"] != alone:  # it may only move for a name that wants the same colour
            home = next(n for n in others if piece_colours([n])[n] == alone)
            assert home < "king"  # ... and comes first in sorted order
        assert len(set(colours.values())) == size + 1


def test_copies_are_variations_of_their_piece_and_mirror_images_have_their_own_colour():
    colours = piece_colours(["L#1", "L#2", "L#3", "O"])
    assert colours["L#1"] == piece_colours(["L"])["L"]
    assert len({colours["L#1"], colours["L#2"], colours["L#3"], colours["O"]}) == 4
    assert colours["L#2"] == copy_colour(colours["L#1"], 2)
    many = piece_colours([f"D#{k}" for k in range(1, 51)] + list("FILNPTUVWXYZ"))
    assert len(set(many.values())) == 62
    one_sided = piece_colours(set_names("one-sided-pentominoes"))
    assert one_sided["F"] == piece_colours(["F"])["F"] and one_sided["F'"] != one_sided["F"]
    dominoes = polyfit.load(ROOT / "shapes/dominoes/8x8.txt").colours()
    assert len(dominoes) == 33 and dominoes["D"] == dominoes["D#1"] == hex_colour(piece_colours(["D"])["D"])
    assert dominoes["D#2"] == hex_colour(copy_colour(piece_colours(["D"])["D"], 2))


# -- one solution ---------------------------------------------------------------------------


def test_solution_image_dimensions_and_cell_colours():
    solution = text_solution(ROWS)
    colours = piece_colours(solution)
    style = Style(cell=20, margin=10)
    board = [(r, c) for r in range(3) for c in range(20)]
    image = flat.draw_solution(board, solution, colours, style)
    assert image.size == (20 * 20 + 2 * 10, 3 * 20 + 2 * 10)
    for r, row in enumerate(ROWS):
        for c, name in enumerate(row):
            centre = (10 + c * 20 + 10, 10 + r * 20 + 10)
            assert image.getpixel(centre) == colours[name], (r, c, name)
    # The border between U (col 0) and X (col 1) on row 1 is drawn in ink, and so is the
    # board's outline; inside a piece (U's cells (0,0) and (1,0)) the line is thin and not ink.
    assert image.getpixel((10 + 20, 10 + 20 + 10)) == INK
    assert image.getpixel((10, 10 + 10)) == INK
    inside = image.getpixel((10 + 10, 10 + 20))
    assert inside != INK and inside != colours["U"]
    assert image.getpixel((1, 1)) == flat.BACKGROUND


def test_edges_thick_between_pieces_and_around_the_board_thin_inside():
    labels = {(0, 0): "A", (0, 1): "A", (1, 0): "B"}
    edges = {(a, b): thick for a, b, thick, _ in flat.grid_edges(labels)}
    assert edges[((0, 1), (1, 1))] is False  # between the two A cells
    assert edges[((1, 0), (1, 1))] is True  # A above B
    assert edges[((0, 0), (0, 1))] is True  # the board's top edge
    assert len(edges) == 10  # 3 cells: 12 sides, two of them shared


def test_labels_write_piece_names_in_readable_ink():
    solution = {"X": [(0, 1), (1, 0), (1, 1), (1, 2), (2, 1)], "Y": [(0, 0)]}
    board = [c for cells in solution.values() for c in cells]
    colours = piece_colours(solution)
    plain = flat.draw_solution(board, solution, colours, Style(cell=30))
    labelled = flat.draw_solution(board, solution, colours, Style(cell=30, labels=True))
    assert plain.size == labelled.size
    pad = Style(cell=30).pad
    centre_cell = (pad + 34, pad + 34, pad + 56, pad + 56)  # inside X's centre cell: its label
    assert plain.crop(centre_cell).getcolors() == [(22 * 22, colours["X"])]
    assert len(labelled.crop(centre_cell).getcolors()) > 2


# -- the command line -----------------------------------------------------------------------


def test_solve_png_one_solution_has_the_printed_colours(app, tmp_path):
    out = tmp_path / "one.png"
    result = run(app, "solve", BOARDS / "3x20.txt", "--limit", "1", "--png", out, "--cell", "10", "--margin", "5")
    assert result.exit_code == 0, result.output
    printed = result.output.split("Solution 1:\n")[1].split("\n\n")[0].splitlines()
    image = Image.open(out).convert("RGB")
    assert image.size == (20 * 10 + 10, 3 * 10 + 10)
    colours = piece_colours("FILNPTUVWXYZ")
    for r, row in enumerate(printed):
        for c, name in enumerate(row):
            assert image.getpixel((5 + c * 10 + 5, 5 + r * 10 + 5)) == colours[name]
    assert Image.open(out).mode == "P"  # few colours: saved as a palette image


def test_several_solutions_make_a_captioned_contact_sheet(app, tmp_path, three_by_twenty):
    data, _ = three_by_twenty
    one = tmp_path / "one.png"
    sheet = tmp_path / "sheet.png"
    assert run(app, "solve", BOARDS / "3x20.txt", "--limit", "1", "--png", one).exit_code == 0
    assert run(app, "solve", BOARDS / "3x20.txt", "--all", "--png", sheet).exit_code == 0
    tile = Image.open(one).size
    image = Image.open(sheet).convert("RGB")
    caption = flat.caption_height(Style())
    columns, rows = image.width // tile[0], image.height // (tile[1] + caption)
    assert (image.width, image.height) == (columns * tile[0], rows * (tile[1] + caption))
    assert columns * rows >= 8 > (columns - 1) * rows
    colours = piece_colours("FILNPTUVWXYZ")
    pad = Style().pad
    for k, solution in enumerate(data["solutions"]):  # the eight solutions, in order
        x0 = (k % columns) * tile[0] + pad
        y0 = (k // columns) * (tile[1] + caption) + caption + pad
        for name, cells in solution.items():
            r, c = cells[0]
            assert image.getpixel((x0 + c * 32 + 16, y0 + r * 32 + 16)) == colours[name]
        # The caption above each tile has ink in it.
        strip = image.crop((x0, y0 - caption - pad, x0 + tile[0] - 2 * pad, y0 - pad))
        assert np.asarray(strip.convert("L")).min() < 128


def test_render_json_matches_solve_png(app, tmp_path, three_by_twenty):
    _, saved = three_by_twenty
    direct = tmp_path / "direct.png"
    rendered = tmp_path / "rendered.png"
    assert run(app, "solve", BOARDS / "3x20.txt", "--all", "--png", direct, "--labels").exit_code == 0
    result = run(app, "render", saved, "--png", rendered, "--labels")
    assert result.exit_code == 0, result.output
    assert np.array_equal(np.asarray(Image.open(direct).convert("RGB")), np.asarray(Image.open(rendered).convert("RGB")))
    limited = tmp_path / "two.png"
    assert run(app, "render", saved, "--png", limited, "--limit", "1").exit_code == 0
    assert Image.open(limited).size[0] < Image.open(direct).size[0]


def test_pieces_png_draws_every_piece_in_its_colour(app, tmp_path):
    out = tmp_path / "pieces.png"
    result = run(app, "pieces", "pentominoes", "--png", out)
    assert result.exit_code == 0, result.output
    found = {colour for _, colour in Image.open(out).convert("RGB").getcolors(10000)}
    assert set(piece_colours("FILNPTUVWXYZ").values()) <= found


def test_output_paths_are_checked_before_solving(app, tmp_path):
    board = BOARDS / "3x20.txt"
    missing = run(app, "solve", board, "--png", tmp_path / "nowhere" / "x.png")
    assert missing.exit_code == 2 and "does not exist" in missing.output
    existing = tmp_path / "x.png"
    existing.write_bytes(b"keep me")
    refused = run(app, "solve", board, "--png", existing)
    assert refused.exit_code == 2 and "--force" in refused.output
    assert existing.read_bytes() == b"keep me"
    forced = run(app, "solve", board, "--png", existing, "--force")
    assert forced.exit_code == 0 and existing.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    flat = run(app, "solve", board, "--png", tmp_path / "y.png", "--view", "iso")
    assert flat.exit_code == 2 and "3D boards" in flat.output
    counted = run(app, "solve", board, "--count", "--png", tmp_path / "z.png")
    assert counted.exit_code == 2 and "--count" in counted.output
    pieces_refused = run(app, "pieces", "pentominoes", "--png", existing)
    assert pieces_refused.exit_code == 2 and "--force" in pieces_refused.output
    assert run(app, "render", tmp_path / "none.json", "--png", tmp_path / "r.png").exit_code == 2
    bad_json = tmp_path / "bad.json"
    bad_json.write_text('{"cells": []}')
    result = run(app, "render", bad_json, "--png", tmp_path / "r.png")
    assert result.exit_code == 2 and "not a solutions file" in result.output


def test_unwritable_png_is_a_clear_error(tmp_path, monkeypatch):
    import polyfit.files

    def refuse(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(polyfit.files.os, "open", refuse)
    with pytest.raises(PolyfitError, match="cannot write .*x.png: Permission denied"):
        save_png(Image.new("RGB", (4, 4)), tmp_path / "x.png")
    monkeypatch.undo()
    (tmp_path / "file").write_text("")
    with pytest.raises(PolyfitError, match="cannot write .*file/x.png: Not a directory"):
        save_png(Image.new("RGB", (4, 4)), tmp_path / "file" / "x.png")


def test_new_commands_have_help_with_an_example(app):
    for command in ("render", "kit", "gallery"):
        result = run(app, command, "--help")
        assert result.exit_code == 0, command
        assert "Example: polyfit" in result.output, command


def test_copies_of_a_piece_get_their_own_colours(app, tmp_path):
    from polyfit.render.palette import solution_colours

    out = tmp_path / "s.json"
    result = run(app, "solve", ROOT / "shapes/bricks/cube5.vox", "--limit", "1", "-o", out, "--json")
    assert result.exit_code == 0, result.output
    solution = json.loads(out.read_text())["solutions"][0]
    assert sum(1 for label in solution if label.startswith("A#")) == 13
    from polyfit.formats.solutions_json import read_solution_set

    colours = solution_colours(read_solution_set(out).pieces, [solution])
    assert len({colours[label] for label in solution}) == len(solution) == 18
    picture = tmp_path / "cube5.png"
    assert run(app, "render", out, "--png", picture, "--view", "layers").exit_code == 0
    found = {c for _, c in Image.open(picture).convert("RGB").getcolors(1 << 16)}
    assert {colours[label] for label in solution} <= found


def test_compact_keeps_every_pixel_of_up_to_256_colours():
    import random

    rnd = random.Random(5)
    for n in (1, 2, 255, 256, 257):
        colours = set()
        while len(colours) < n:
            colours.add(tuple(rnd.randrange(256) for _ in range(3)))
        pixels = sorted(colours) * 2
        rnd.shuffle(pixels)
        image = Image.new("RGB", (len(pixels), 1))
        image.putdata(pixels)
        small = compact(image)
        assert small.mode == ("P" if n <= 256 else "RGB"), n
        assert small.convert("RGB").tobytes() == image.tobytes(), n
    # Nearly equal colours stay apart, and the palette is in colour order.
    image = Image.new("RGB", (3, 1))
    image.putdata([(10, 10, 11), (10, 10, 10), (11, 10, 10)])
    small = compact(image)
    assert small.getpalette()[:9] == [10, 10, 10, 10, 10, 11, 11, 10, 10]
    assert [small.getpixel((x, 0)) for x in range(3)] == [1, 0, 2]


def test_a_png_run_imports_neither_numpy_nor_trimesh(tmp_path):
    """Pictures need pillow only: numpy and trimesh load when a model is made."""
    import subprocess
    import sys

    script = (
        "import sys\n"
        "from polyfit.cli import main\n"
        "sys.argv = ['polyfit'] + sys.argv[1:]\n"
        "try:\n"
        "    main()\n"
        "except SystemExit as exc:\n"
        "    assert exc.code == 0, exc.code\n"
        "print(sorted(m for m in ('numpy', 'trimesh') if m in sys.modules))\n"
    )
    out = tmp_path / "x.png"
    result = subprocess.run(
        [sys.executable, "-c", script, "solve", str(BOARDS / "6x10.txt"), "--limit", "1", "--png", str(out)],
        capture_output=True, text=True, cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1] == "[]"
    assert out.exists()


@pytest.mark.parametrize("cell", [8, 12, 16, 24, 32, 48])
def test_labels_stay_inside_their_cells(cell):
    """Thirteen copies of a monomino in a row, each cell labelled M#1 .. M#13: a label shrinks
    (or loses its #k) to fit, and no pixel of it lands outside its cell's borders."""
    labels = {(0, k): f"M#{k + 1}" for k in range(13)}
    colours = piece_colours(labels.values())
    style = Style(cell=cell, margin=4)
    plain = flat.draw_grid(labels, colours, style).convert("L")
    labelled = flat.draw_grid(labels, colours, replace(style, labels=True)).convert("L")
    changed = ImageChops.difference(plain, labelled).point(lambda v: 255 if v else 0)
    inside = Image.new("L", plain.size, 0)
    half = style.border // 2
    for row, col in labels:
        x, y = flat.cell_origin((row, col), flat.bounds(labels), style)
        inside.paste(255, (x + style.border - half, y + style.border - half, x + cell - half, y + cell - half))
    outside = ImageChops.subtract(changed, inside)
    assert outside.getbbox() is None, f"label pixels outside their cells at cell size {cell}"
    written = [changed.crop((x, 0, x + cell, plain.height)).getbbox() is not None
               for x in (flat.cell_origin(c, flat.bounds(labels), style)[0] for c in labels)]
    assert all(written) if cell >= 12 else not any(written)
