"""Pictures of 3D solutions and pieces (pillow only): isometric, exploded and layer by layer.

The isometric view looks from above, front and right. A cell ``(z, row, col)`` is the unit
cube ``[col, col+1] x [row, row+1] x [z, z+1]`` in world ``(x, y, z)``: rows run towards the
viewer (3D art puts the first row at the back) and z is up. Only the three faces turned to the
viewer can be seen (top, front, right), and only where no other cube covers them; cubes are
painted far to near (painter's order: increasing ``x + y + z``), so nearer ones hide the rest.

Each face is shaded from its piece's colour: the top keeps the colour itself, the right side
is darker, the front darker still. Face edges are drawn thick where the surface turns or
another piece begins, and thin where it runs on flat into another cube of the same piece.
"""

from __future__ import annotations

import math

from PIL import Image, ImageDraw

from polyfit.render import flat
from polyfit.render.palette import shade
from polyfit.render.style import INK, Style, new_image

VIEWS = ("iso", "exploded", "layers")
SUPERSAMPLE = 3  # drawn three times larger and scaled down: smooth slanted edges
COS30 = math.cos(math.pi / 6)

# The visible faces: (normal, shade factor, corners as offsets from the cube's low corner).
FACES = (
    ((0, 0, 1), 1.0, ((0, 0, 1), (1, 0, 1), (1, 1, 1), (0, 1, 1))),  # top
    ((1, 0, 0), 0.78, ((1, 0, 0), (1, 1, 0), (1, 1, 1), (1, 0, 1))),  # right
    ((0, 1, 0), 0.60, ((0, 1, 0), (1, 1, 0), (1, 1, 1), (0, 1, 1))),  # front
)


def project(point, scale: float) -> tuple[float, float]:
    """World ``(x, y, z)`` to image ``(x, y)`` in the isometric view, before shifting."""
    x, y, z = point
    return (x - y) * COS30 * scale, ((x + y) * 0.5 - z) * scale


def world(cell) -> tuple[int, int, int]:
    z, row, col = cell
    return col, row, z


# -- layout ---------------------------------------------------------------------------------


def iso_faces(cubes: dict, offsets: dict | None = None) -> list:
    """The faces to paint, far to near: ``(polygon corners in world space, colour name,
    shade factor, edges)`` where edges are ``(corner index a, corner index b, thick)``.

    ``cubes`` maps a cell ``(z, row, col)`` to its piece name. ``offsets`` moves each piece
    by a world vector (the exploded view); faces between cubes of one piece stay hidden, and
    without offsets faces between any two cubes do.
    """
    offsets = offsets or {}
    filled = {world(c): name for c, name in cubes.items()}

    def covered(point, name):
        other = filled.get(point)
        return other is not None and (not offsets or other == name)

    faces = []
    for position, name in filled.items():
        dx, dy, dz = offsets.get(name, (0, 0, 0))
        base = (position[0] + dx, position[1] + dy, position[2] + dz)
        depth = base[0] + base[1] + base[2]
        for normal, factor, corners in FACES:
            beyond = tuple(p + n for p, n in zip(position, normal))
            if covered(beyond, name):
                continue
            edges = []
            for k in range(4):
                a, b = corners[k], corners[(k + 1) % 4]
                # The in-plane step from this cube across the edge.
                step = tuple(
                    (a[i] + b[i]) - 1 if normal[i] == 0 else 0 for i in range(3)
                )
                step = tuple(0 if normal[i] else step[i] for i in range(3))
                across = tuple(p + s for p, s in zip(position, step))
                across_beyond = tuple(p + n for p, n in zip(across, normal))
                flat = filled.get(across) == name and not covered(across_beyond, name)
                edges.append((k, (k + 1) % 4, not flat))
            polygon = [tuple(b + c for b, c in zip(base, corner)) for corner in corners]
            faces.append((depth, normal != (0, 0, 1), polygon, name, factor, edges))
    faces.sort(key=lambda f: f[:2])
    return [f[2:] for f in faces]


def exploded_offsets(cubes: dict, spread: float = 1.0) -> dict:
    """Each piece moved away from the figure's centre along the line through its own centre."""
    by_piece: dict[str, list] = {}
    for cell, name in cubes.items():
        by_piece.setdefault(name, []).append(world(cell))
    everything = [p for cells in by_piece.values() for p in cells]
    centre = [sum(p[i] for p in everything) / len(everything) for i in range(3)]
    offsets = {}
    for name, cells in by_piece.items():
        own = [sum(p[i] for p in cells) / len(cells) for i in range(3)]
        offsets[name] = tuple((own[i] - centre[i]) * spread for i in range(3))
    return offsets


# -- painting -------------------------------------------------------------------------------


def draw_iso(cubes: dict, colours: dict, style: Style = Style(), offsets=None, extent=None,
             marked=frozenset()):
    """An isometric picture of cubes ``{(z, row, col): piece name}``.

    ``extent`` (cells) fixes the canvas to fit those cells instead, so that pictures of a
    figure being built all have the figure's size. The pieces named in ``marked`` (pre-placed
    ones) are hatched.
    """
    corners = None
    if extent is not None:
        corners = [(x + dx, y + dy, z + dz) for x, y, z in map(world, extent)
                   for dx in (0, 1) for dy in (0, 1) for dz in (0, 1)]
    return paint_faces(iso_faces(cubes, offsets), colours, style, corners, marked)


def paint_faces(faces: list, colours: dict, style: Style = Style(), corners=None, marked=frozenset()):
    """Faces ``(polygon in world space, piece name, shade factor, edges)``, far to near (as
    :func:`iso_faces` gives them), painted in the isometric view; ``corners`` (world points)
    fix the canvas to fit them instead of the faces."""
    big = style.cell * SUPERSAMPLE
    points = [project(p, big) for p in corners] if corners is not None else [
        project(p, big) for polygon, *_ in faces for p in polygon]
    if not points:
        raise ValueError("nothing to draw")
    pad = style.pad * SUPERSAMPLE
    min_x = min(x for x, _ in points)
    min_y = min(y for _, y in points)
    width = math.ceil(max(x for x, _ in points) - min_x) + 2 * pad
    height = math.ceil(max(y for _, y in points) - min_y) + 2 * pad
    # Keep the size a multiple of the supersampling factor, so scaling down is exact.
    width += -width % SUPERSAMPLE
    height += -height % SUPERSAMPLE
    image = new_image(width, height)
    draw = ImageDraw.Draw(image)
    thick = max(2, round(style.border * SUPERSAMPLE * 0.8))
    thin = max(1, SUPERSAMPLE // 2 + 1)
    for polygon, name, factor, edges in faces:
        fill = shade(colours[name], factor)
        xy = [(x - min_x + pad, y - min_y + pad) for x, y in (project(p, big) for p in polygon)]
        draw.polygon(xy, fill=fill)
        if name in marked:
            for segment in flat.hatch_lines(xy, flat.hatch_spacing(big)):
                draw.line(segment, fill=flat.ink_on(fill), width=flat.hatch_width(big))
        for a, b, is_thick in edges:
            if not is_thick:
                draw.line((xy[a], xy[b]), fill=flat.grid_line_colour(fill), width=thin)
        for a, b, is_thick in edges:
            if is_thick:
                draw.line((xy[a], xy[b]), fill=INK, width=thick)
                for corner in (xy[a], xy[b]):  # round joints where thick edges meet
                    r = thick / 2
                    draw.ellipse((corner[0] - r, corner[1] - r, corner[0] + r, corner[1] + r), fill=INK)
    return image.resize((width // SUPERSAMPLE, height // SUPERSAMPLE), Image.Resampling.LANCZOS)


def draw_exploded(cubes: dict, colours: dict, style: Style = Style(), spread: float = 1.8,
                  marked=frozenset()):
    """The pieces of a 3D solution moved apart from its centre, each along its own offset."""
    return draw_iso(cubes, colours, style, exploded_offsets(cubes, spread), marked=marked)


def layer_labels(board_cells, cubes: dict) -> tuple[tuple, list]:
    """The layers of a 3D board, bottom first, as flat grids sharing one box: ``(box,
    [(caption, {(row, col): piece name or None}), ...])``."""
    board = [tuple(c) for c in board_cells]
    box = flat.bounds([c[1:] for c in board])
    layers = sorted({c[0] for c in board})
    grids = []
    for z in layers:
        caption = f"z={z}" + (" (bottom)" if z == layers[0] and len(layers) > 1 else "")
        grids.append((caption, {c[1:]: cubes.get(c) for c in board if c[0] == z}))
    return box, grids


def layer_columns(layers: int):
    """Layers side by side in one row, up to five; more make a sheet."""
    return layers if layers <= 5 else None


def draw_layers(board_cells, cubes: dict, colours: dict, style: Style = Style(), marked=frozenset()):
    """One flat grid per z-layer, bottom first, left to right, as Soma books print them."""
    box, grids = layer_labels(board_cells, cubes)
    tiles = [flat.draw_grid(labels, colours, style, box, backdrop=True, marked=marked) for _, labels in grids]
    return flat.sheet(tiles, [caption for caption, _ in grids], style, columns=layer_columns(len(tiles)))


def cubes_of(solution: dict) -> dict:
    return {tuple(c): name for name, cells in solution.items() for c in cells}


def draw_solution(board_cells, solution: dict, colours: dict, style: Style = Style(), view="iso",
                  marked=frozenset()):
    """A 3D solution in one of :data:`VIEWS`; the pieces named in ``marked`` hatched."""
    cubes = cubes_of(solution)
    if view == "iso":
        return draw_iso(cubes, colours, style, marked=marked)
    if view == "exploded":
        return draw_exploded(cubes, colours, style, marked=marked)
    if view == "layers":
        return draw_layers(board_cells, cubes, colours, style, marked)
    raise ValueError(f"unknown view {view!r}")


def draw_pieces(pieces, colours: dict, style: Style = Style()):
    """Each 3D piece in isometric view, captioned with its name."""
    tiles = [draw_iso({c: p.name for c in p.cells}, colours, style) for p in pieces]
    return flat.sheet(tiles, [flat.piece_caption(p) for p in pieces], style)
