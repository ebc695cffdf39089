"""3D pictures: isometric faces, hidden faces, painter's order, exploded and layer views."""

from pathlib import Path

from PIL import Image

from polyfit.render import views3d
from polyfit.render.palette import piece_colours, shade
from polyfit.render.style import BACKGROUND, Style

from helpers import run

ROOT = Path(__file__).resolve().parent.parent
SOMA = ROOT / "shapes" / "soma"
RED = (200, 30, 30)
BLUE = (30, 60, 200)


def colours_in(image):
    return {colour for _, colour in image.convert("RGB").getcolors(1 << 20)}


def face_centre(image_size, style, cube_faces, point):
    """Where a world point lands in a picture of exactly these faces."""
    scale = style.cell * views3d.SUPERSAMPLE
    xs = [views3d.project(p, scale)[0] for f in cube_faces for p in f[0]]
    ys = [views3d.project(p, scale)[1] for f in cube_faces for p in f[0]]
    x, y = views3d.project(point, scale)
    pad = style.pad * views3d.SUPERSAMPLE
    return round((x - min(xs) + pad) / views3d.SUPERSAMPLE), round((y - min(ys) + pad) / views3d.SUPERSAMPLE)


def test_one_cube_shows_three_shaded_faces():
    style = Style(cell=40, margin=10)
    cubes = {(0, 0, 0): "A"}
    faces = views3d.iso_faces(cubes)
    assert len(faces) == 3
    image = views3d.draw_iso(cubes, {"A": RED}, style)
    # Width: a cube spans 2*cos(30) cells across; height: two cells (top diamond and a side).
    assert abs(image.width - (2 * 0.866 * 40 + 2 * 10)) <= 2
    assert abs(image.height - (2 * 40 + 2 * 10)) <= 2
    top = face_centre(image.size, style, faces, (0.5, 0.5, 1))
    right = face_centre(image.size, style, faces, (1, 0.5, 0.5))
    front = face_centre(image.size, style, faces, (0.5, 1, 0.5))
    assert image.getpixel(top) == RED
    assert image.getpixel(right) == shade(RED, 0.78)
    assert image.getpixel(front) == shade(RED, 0.60)
    assert image.getpixel((1, 1)) == BACKGROUND


def test_faces_between_cubes_are_not_drawn():
    stacked = views3d.iso_faces({(0, 0, 0): "A", (1, 0, 0): "A"})
    assert len(stacked) == 5  # the lower cube's top is covered
    edges = [thick for face in stacked for _, _, thick in face[3]]
    assert edges.count(False) == 4  # right and front sides run on flat from cube to cube (2 x 2 sides)
    # Two pieces side by side: faces between them hidden too, but the seam is a thick edge.
    two = views3d.iso_faces({(0, 0, 0): "A", (0, 0, 1): "B"})
    assert len(two) == 5 and all(thick for face in two for _, _, thick in face[3])


def test_soma_cube_shows_exactly_its_three_visible_sides():
    # Any 3x3x3 solution shows 9 faces on each of top, right and front.
    cubes = {(z, r, c): "ABCDEFG"[(z + r + c) % 7] for z in range(3) for r in range(3) for c in range(3)}
    faces = views3d.iso_faces(cubes)
    assert len(faces) == 27
    assert sorted({f[2] for f in faces}) == [0.6, 0.78, 1.0]  # the front's shade, the right's, the top's
    assert sum(1 for f in faces if all(p[2] == 3 for p in f[0])) == 9  # the top: 9 faces at height 3


def test_painters_order_nearer_cube_hides_the_one_behind():
    style = Style(cell=40, margin=10)
    # Cube B sits one step nearer along the viewing diagonal: it covers A's whole outline
    # except A's far corners.
    cubes = {(0, 0, 0): "A", (1, 1, 1): "B"}
    image = views3d.draw_iso(cubes, {"A": RED, "B": BLUE}, style)
    faces = views3d.iso_faces(cubes)
    assert [f[1] for f in faces][:3] == ["A"] * 3  # far cube first
    centre_of_a = face_centre(image.size, style, faces, (0.5, 0.5, 1))  # A's top face centre
    assert image.getpixel(centre_of_a) != RED
    assert image.getpixel(centre_of_a) in {BLUE, shade(BLUE, 0.78), shade(BLUE, 0.60)}


def test_exploded_view_moves_pieces_apart_along_their_offsets():
    cubes = {(0, 0, 0): "A", (0, 0, 1): "B"}
    offsets = views3d.exploded_offsets(cubes, spread=2.0)
    assert offsets["A"] == (-1.0, 0.0, 0.0) and offsets["B"] == (1.0, 0.0, 0.0)
    faces = views3d.iso_faces(cubes, offsets)
    assert len(faces) == 6  # apart, each cube shows all three faces
    style = Style(cell=20)
    assembled = views3d.draw_iso(cubes, {"A": RED, "B": BLUE}, style)
    exploded = views3d.draw_exploded(cubes, {"A": RED, "B": BLUE}, style, spread=2.0)
    assert exploded.width > assembled.width
    # Each top face shows its piece's colour where the offsets put it, with background between.
    a_top = face_centre(exploded.size, style, faces, (0.5 - 1.0, 0.5, 1))
    b_top = face_centre(exploded.size, style, faces, (1.5 + 1.0, 0.5, 1))
    between = face_centre(exploded.size, style, faces, (1.0, 0.5, 1))
    assert exploded.getpixel(a_top) == RED
    assert exploded.getpixel(b_top) == BLUE
    assert exploded.getpixel(between) == BACKGROUND


def test_layers_view_one_grid_per_layer_bottom_first():
    board = [(z, r, c) for z in range(2) for r in range(2) for c in range(2)]
    solution = {"A": [(0, 0, 0), (0, 0, 1), (0, 1, 0), (0, 1, 1)], "B": [(1, 0, 0), (1, 0, 1), (1, 1, 0), (1, 1, 1)]}
    style = Style(cell=20, margin=10)
    image = views3d.draw_solution(board, solution, {"A": RED, "B": BLUE}, style, "layers")
    tile = 2 * 20 + 2 * 10
    assert image.width == 2 * tile
    caption = image.height - tile
    assert caption > 0
    assert image.getpixel((10 + 10, caption + 10 + 10)) == RED  # left grid: z = 0
    assert image.getpixel((tile + 10 + 10, caption + 10 + 10)) == BLUE  # right grid: z = 1


def test_cli_views_of_a_soma_solution(app, tmp_path):
    colours = piece_colours("VLTZABP")
    sizes = {}
    for view in ("iso", "exploded", "layers"):
        out = tmp_path / f"{view}.png"
        result = run(app, "solve", SOMA / "castle.vox", "--limit", "1", "--png", out, "--view", view)
        assert result.exit_code == 0, result.output
        image = Image.open(out)
        sizes[view] = image.size
        found = colours_in(image)
        # Every piece shows its own colour somewhere (a top face, or a cell of a layer).
        visible = {name for name, colour in colours.items() if colour in found}
        assert visible == set("VLTZABP"), view
    assert sizes["exploded"][0] > sizes["iso"][0]
    default = tmp_path / "default.png"
    assert run(app, "solve", SOMA / "castle.vox", "--limit", "1", "--png", default).exit_code == 0
    assert Image.open(default).size == sizes["iso"]
    bad = run(app, "solve", SOMA / "castle.vox", "--png", tmp_path / "x.png", "--view", "top")
    assert bad.exit_code == 2 and "unknown view" in bad.output


def test_pieces_png_of_a_3d_set_is_isometric(app, tmp_path):
    out = tmp_path / "soma.png"
    assert run(app, "pieces", "soma", "--png", out).exit_code == 0
    found = colours_in(Image.open(out))
    for name, colour in piece_colours("VLTZABP").items():
        assert colour in found and shade(colour, 0.60) in found, name
