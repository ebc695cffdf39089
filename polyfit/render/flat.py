"""Flat pictures of boards and pieces (pillow): a solution, a contact sheet, a piece sheet.

Layout comes first and needs no pillow: :func:`grid_edges` decides, for every side of every
cell, whether a thick border (between two pieces, or around the board) or a thin grid line
(inside a piece) is drawn there. The painting functions then only fill cells and stroke lines.

Cells are ``(row, col)``; row 0 is drawn at the top, as in text art. Lattices whose cells are
not squares (triangles, hexagons) are drawn from each cell's polygon
(:meth:`polyfit.lattices.base.Lattice.polygon`): :func:`polygon_layout` and :func:`draw_polygons`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from PIL import Image, ImageDraw

from polyfit.render.palette import RGB, luminance, shade
from polyfit.render.style import (
    BACKDROP,
    BACKDROP_GRID,
    BACKGROUND,
    EMPTY_CELL,
    EMPTY_GRID,
    INK,
    Style,
    font,
    new_image,
)

# The four sides of a cell: (neighbour offset, corner A, corner B), corners as (row, col)
# offsets from the cell's top-left corner.
SIDES = (
    ((-1, 0), (0, 0), (0, 1)),  # top
    ((1, 0), (1, 0), (1, 1)),  # bottom
    ((0, -1), (0, 0), (1, 0)),  # left
    ((0, 1), (0, 1), (1, 1)),  # right
)


# -- layout ---------------------------------------------------------------------------------


def grid_edges(labels: dict) -> list[tuple[tuple, tuple, bool, object]]:
    """Every cell side to draw, once each: ``(corner_a, corner_b, thick, name)``.

    ``labels`` maps each board cell to its piece name, or to None where no piece covers it.
    A side is thick where the cells on its two sides belong to different pieces or one of
    them is off the board, and thin inside a piece (or between two uncovered cells);
    ``name`` is the piece (or None) on the side's cell.
    """
    edges = []
    for (r, c), name in labels.items():
        for (dr, dc), (ar, ac), (br, bc) in SIDES:
            neighbour = (r + dr, c + dc)
            if neighbour in labels and (dr, dc) in ((-1, 0), (0, -1)):
                continue  # an inner side is drawn once, from the cell below or right of it
            thick = neighbour not in labels or labels[neighbour] != name
            edges.append(((r + ar, c + ac), (r + br, c + bc), thick, name))
    return edges


def label_cells(labels: dict) -> dict[str, tuple]:
    """For each piece, the cell its name is written in: the one nearest the piece's centre."""
    cells: dict[str, list] = {}
    for cell, name in labels.items():
        if name is not None:
            cells.setdefault(name, []).append(cell)
    return {name: nearest_to_mean(group) for name, group in cells.items()}


def nearest_to_mean(points: list) -> tuple:
    """Of some 2D points, the one nearest their mean (the least of those on a tie)."""
    mx = sum(x for x, _ in points) / len(points)
    my = sum(y for _, y in points) / len(points)
    return min(points, key=lambda p: ((p[0] - mx) ** 2 + (p[1] - my) ** 2, p))


def bounds(cells) -> tuple[int, int, int, int]:
    rows = [c[0] for c in cells]
    cols = [c[1] for c in cells]
    return min(rows), max(rows), min(cols), max(cols)


def grid_size(box, style: Style) -> tuple[int, int]:
    r0, r1, c0, c1 = box
    return (c1 - c0 + 1) * style.cell + 2 * style.pad, (r1 - r0 + 1) * style.cell + 2 * style.pad


def cell_origin(cell, box, style: Style) -> tuple[int, int]:
    """Pixel position of a cell's top-left corner."""
    r0, _, c0, _ = box
    return style.pad + (cell[1] - c0) * style.cell, style.pad + (cell[0] - r0) * style.cell


# -- painting -------------------------------------------------------------------------------


def draw_grid(labels: dict, colours: dict, style: Style, box=None, backdrop=False,
              marked=frozenset()) -> Image.Image:
    """One board (or one layer, or one piece): cells filled, borders and grid lines drawn.

    ``box`` (row_min, row_max, col_min, col_max) fixes the drawn area, so that layers of one
    figure line up; by default it is the cells' bounding box. With ``backdrop``, the box's
    other cells are shaded faintly. The pieces named in ``marked`` (pre-placed ones) are
    hatched.
    """
    box = box or bounds(labels)
    image = new_image(*grid_size(box, style))
    draw = ImageDraw.Draw(image)
    if backdrop:
        r0, r1, c0, c1 = box
        for r in range(r0, r1 + 1):
            for c in range(c0, c1 + 1):
                x, y = cell_origin((r, c), box, style)
                draw.rectangle((x, y, x + style.cell, y + style.cell), fill=BACKDROP, outline=BACKDROP_GRID)
    paint_grid(draw, labels, colours, style, box, (0, 0), marked)
    return image


def paint_grid(draw, labels, colours, style: Style, box, offset, marked=frozenset()) -> None:
    ox, oy = offset
    size = style.cell

    def corner(rc):
        x, y = cell_origin(rc, box, style)
        return ox + x, oy + y

    for cell, name in labels.items():
        x, y = corner(cell)
        fill = colours[name] if name is not None else EMPTY_CELL
        draw.rectangle((x, y, x + size - 1, y + size - 1), fill=fill)
    edges = grid_edges(labels)
    for a, b, thick, name in edges:
        if not thick:
            (xa, ya), (xb, yb) = corner(a), corner(b)
            line_colour = EMPTY_GRID if name is None else grid_line_colour(colours[name])
            draw.line((xa, ya, xb, yb), fill=line_colour, width=1)
    for cell, name in labels.items():
        if name is not None and name in marked:
            x, y = corner(cell)
            square = [(x, y), (x + size - 1, y), (x + size - 1, y + size - 1), (x, y + size - 1)]
            for segment in hatch_lines(square, hatch_spacing(size)):
                draw.line(segment, fill=ink_on(colours[name]), width=hatch_width(size))
    half = style.border // 2
    for a, b, thick, _ in edges:
        if thick:
            (xa, ya), (xb, yb) = corner(a), corner(b)
            # A rectangle, not a line: square ends close the corners where borders meet.
            draw.rectangle(
                (min(xa, xb) - half, min(ya, yb) - half,
                 max(xa, xb) - half + style.border - 1, max(ya, yb) - half + style.border - 1),
                fill=INK,
            )
    if style.labels:
        room = size - style.border - 2  # inside the borders, a pixel clear of them
        for name, cell in label_cells(labels).items():
            fitted = fitted_label(name, size, room)
            if fitted is None:
                continue  # not even the piece's name fits: a label must not cover the borders
            text, text_font = fitted
            x, y = corner(cell)
            ink = ink_on(colours[name])
            draw.text((x + size / 2, y + size / 2), text, fill=ink, font=text_font, anchor="mm")


LABEL_SHARE = 0.55  # of the cell: the size labels are written at when they fit
SMALLEST_LABEL = 7  # pixels: smaller text is not worth writing


def fitted_label(name: str, cell: int, room: int):
    """``(text, font)`` for a piece's label inside a cell, or None when nothing fits in
    ``room`` x ``room`` pixels: the whole label at the largest size that fits, else the name
    without its copy number (``A`` for ``A#13``), else nothing."""
    texts = [name]
    if "#" in name:
        texts.append(name.rpartition("#")[0])
    for text in texts:
        for size in range(round(cell * LABEL_SHARE), SMALLEST_LABEL - 1, -1):
            left, top, right, bottom = font(size).getbbox(text, anchor="mm")
            if right - left <= room and bottom - top <= room:
                return text, font(size)
    return None


def hatch_spacing(cell: float) -> float:
    """Pre-placed pieces are hatched: diagonal lines this far apart (for a cell this big)."""
    return max(4, cell / 4)


def hatch_width(cell: float) -> int:
    return max(1, round(cell / 24))


def ink_on(fill: RGB) -> RGB:
    """Labels and hatching that show on a piece's colour: dark ink on light colours, white on
    dark ones."""
    return INK if luminance(fill) > 0.3 else BACKGROUND


def hatch_lines(polygon, spacing: float) -> list[tuple]:
    """The hatching of a convex polygon ``[(x, y), ...]``: pieces of the lines ``x + y = k *
    spacing`` (rising to the right on the page) inside it. The lines are the same for every
    polygon, so the hatching of neighbouring cells runs on unbroken."""
    sums = [x + y for x, y in polygon]
    segments = []
    k = math.ceil(min(sums) / spacing)
    while k * spacing <= max(sums):
        c = k * spacing
        xs = []  # where the line x + y = c crosses the polygon's sides
        for (xa, ya), (xb, yb) in zip(polygon, polygon[1:] + polygon[:1]):
            sa, sb = xa + ya - c, xb + yb - c
            if (sa <= 0 <= sb or sb <= 0 <= sa) and sa != sb:
                xs.append(xa + (xb - xa) * sa / (sa - sb))
        if xs and max(xs) > min(xs):
            segments.append((min(xs), c - min(xs), max(xs), c - max(xs)))
        k += 1
    return segments


def grid_line_colour(fill: RGB) -> RGB:
    """Thin lines inside a piece: a shade of its colour, visible but quieter than borders."""
    return shade(fill, 0.72) if luminance(fill) > 0.08 else shade(fill, 1.35)


def solution_labels(board_cells, solution: dict) -> dict:
    """``{cell: piece name or None}`` for every board cell, from ``{name: cells}``."""
    labels = {tuple(c): None for c in board_cells}
    for name, cells in solution.items():
        for c in cells:
            labels[tuple(c)] = name
    return labels


def preplaced(solution: dict, fixed) -> frozenset:
    """The labels of a solution's pre-placed pieces: those lying on the board's pre-placed
    cells ``fixed`` (no other piece can cover those cells)."""
    fixed = {tuple(c) for c in fixed}
    return frozenset(name for name, cells in solution.items() if cells and {tuple(c) for c in cells} <= fixed)


def draw_solution(board_cells, solution: dict, colours: dict, style: Style = Style(), marked=frozenset()):
    """A 2D solution: each piece in its colour, thick borders between pieces and around; the
    pieces named in ``marked`` (pre-placed) hatched."""
    return draw_grid(solution_labels(board_cells, solution), colours, style, marked=marked)


# -- sheets ---------------------------------------------------------------------------------


def caption_height(style: Style) -> int:
    return round(max(12, style.cell * 0.5) * 1.5)


def sheet_columns(n: int, tile_w: float, tile_h: float) -> int:
    """How many columns make a grid of ``n`` tiles closest to 4:3."""
    best = None
    for cols in range(1, n + 1):
        rows = math.ceil(n / cols)
        score = abs(math.log((cols * tile_w) / (rows * tile_h) / (4 / 3)))
        if best is None or score < best[0] - 1e-9:
            best = (score, cols)
    return best[1]


def sheet(tiles: list[Image.Image], captions: list[str], style: Style, columns=None):
    """Tiles in a grid, each captioned above; the grid is chosen to be about 4:3."""
    if not tiles:
        raise ValueError("nothing to put on a sheet")
    tile_w = max(t.width for t in tiles)
    tile_h = max(t.height for t in tiles)
    text_h = caption_height(style) if any(captions) else 0
    n = len(tiles)
    columns = columns or sheet_columns(n, tile_w, tile_h + text_h)
    rows = math.ceil(n / columns)
    image = new_image(columns * tile_w, rows * (tile_h + text_h))
    draw = ImageDraw.Draw(image)
    text_font = font(round(max(12, style.cell * 0.5)))
    for k, (tile, caption) in enumerate(zip(tiles, captions)):
        x = (k % columns) * tile_w
        y = (k // columns) * (tile_h + text_h)
        if caption:
            draw.text((x + tile_w / 2, y + text_h * 0.6), caption, fill=INK, font=text_font, anchor="mm")
        image.paste(tile, (x + (tile_w - tile.width) // 2, y + text_h + (tile_h - tile.height) // 2))
    return image


def piece_caption(piece) -> str:
    """A piece's name, with how many copies a solution uses when that is not exactly one."""
    lo, hi = getattr(piece, "count", (1, 1))
    if (lo, hi) == (1, 1):
        return piece.name
    return f"{piece.name} x{lo}" if lo == hi else f"{piece.name} ({lo}..{hi})"


def piece_boxes(pieces) -> list[tuple[dict, tuple]]:
    """``(labels, box)`` for each 2D piece: its cells labelled with its name, centred in a
    square box that all the pieces share, so a sheet of them reads as a set."""
    height = max(max(c[0] for c in p.cells) for p in pieces) + 1
    width = max(max(c[1] for c in p.cells) for p in pieces) + 1
    side = max(height, width)
    boxes = []
    for piece in pieces:
        rows = max(c[0] for c in piece.cells) + 1
        cols = max(c[1] for c in piece.cells) + 1
        r0 = -((side - rows) // 2)
        c0 = -((side - cols) // 2)
        boxes.append(({c: piece.name for c in piece.cells}, (r0, r0 + side - 1, c0, c0 + side - 1)))
    return boxes


def draw_pieces(pieces, colours: dict, style: Style = Style()):
    """Each 2D piece on its own, captioned with its name, laid out in a grid."""
    tiles = [draw_grid(labels, colours, style, box) for labels, box in piece_boxes(pieces)]
    return sheet(tiles, [piece_caption(p) for p in pieces], style)


# -- other lattices: cells as polygons ---------------------------------------------------------


def _key(point) -> tuple[float, float]:
    return (round(point[0], 6), round(point[1], 6))


@dataclass
class PolygonLayout:
    """A board (or piece) on a lattice whose cells are polygons (triangles, hexagons), in cell
    units: each cell's polygon, which sides are thick (between pieces, around the board) and
    which thin, each piece's outline loops, and the picture's extent."""

    polygons: dict  # cell -> [(x, y)], clockwise on the page
    edges: list  # (a, b, thick, name): every side once
    loops: dict  # name (or None) -> [[(x, y)]] its cells' union (holes run the other way)
    low: tuple[float, float]
    size: tuple[float, float]


def polygon_layout(labels: dict, lattice) -> PolygonLayout:
    """:func:`grid_edges` for any 2D lattice, from :meth:`Lattice.polygon`."""
    polygons = {cell: lattice.polygon(cell) for cell in labels}
    sides: dict = {}  # undirected side -> [(cell, directed side)]
    for cell, poly in polygons.items():
        for a, b in zip(poly, poly[1:] + poly[:1]):
            sides.setdefault(frozenset((_key(a), _key(b))), []).append((cell, (a, b)))
    edges = []
    directed: dict = {}  # name -> {start: end} of its boundary sides
    for owners in sides.values():
        names = {labels[cell] for cell, _ in owners}
        thick = len(owners) == 1 or len(names) > 1
        cell, (a, b) = owners[0]
        edges.append((a, b, thick, labels[cell]))
        if thick:
            for cell, (a, b) in owners:
                # a list: a piece's outline may pass one corner twice (cells touching only there)
                directed.setdefault(labels[cell], {}).setdefault(_key(a), []).append(_key(b))
    loops = {}
    for name, step in directed.items():
        loops[name] = []
        while step:
            start = next(iter(step))
            loop = [start]
            point = _next_corner(step, start)
            while point != start:
                loop.append(point)
                point = _next_corner(step, point)
            loops[name].append(loop)
    xs = [x for poly in polygons.values() for x, _ in poly]
    ys = [y for poly in polygons.values() for _, y in poly]
    return PolygonLayout(polygons, edges, loops, (min(xs), min(ys)), (max(xs) - min(xs), max(ys) - min(ys)))


def _next_corner(step: dict, point):
    """Take one side of an outline from ``point`` (``{start: [ends]}``) and give its end."""
    ends = step[point]
    end = ends.pop()
    if not ends:
        del step[point]
    return end


def polygon_label_points(layout: PolygonLayout, labels: dict) -> dict[str, tuple[float, float]]:
    """Where each piece's name is written: the centre of its cell nearest the piece's centre."""
    centres = {cell: (sum(x for x, _ in p) / len(p), sum(y for _, y in p) / len(p)) for cell, p in layout.polygons.items()}
    groups: dict = {}
    for cell, name in labels.items():
        if name is not None:
            groups.setdefault(name, []).append(centres[cell])
    return {name: nearest_to_mean(points) for name, points in groups.items()}


LABEL_ROOM = 0.42  # of a unit: the square a label may fill inside a triangle or hexagon


def draw_polygons(labels: dict, colours: dict, style: Style, lattice, marked=frozenset()) -> Image.Image:
    """:func:`draw_grid` for a lattice of polygon cells: each cell filled in its piece's
    colour, thin lines inside pieces, thick borders between them and around the board."""
    layout = polygon_layout(labels, lattice)
    s = style.cell
    lx, ly = layout.low
    width = math.ceil(layout.size[0] * s) + 2 * style.pad
    height = math.ceil(layout.size[1] * s) + 2 * style.pad
    image = new_image(width, height)
    draw = ImageDraw.Draw(image)

    def point(p):
        return style.pad + (p[0] - lx) * s, style.pad + (p[1] - ly) * s

    for cell, poly in layout.polygons.items():
        name = labels[cell]
        fill = colours[name] if name is not None else EMPTY_CELL
        draw.polygon([point(p) for p in poly], fill=fill)
    for a, b, thick, name in layout.edges:
        if not thick:
            colour = EMPTY_GRID if name is None else grid_line_colour(colours[name])
            draw.line((point(a), point(b)), fill=colour, width=1)
    for cell, poly in layout.polygons.items():
        name = labels[cell]
        if name is not None and name in marked:
            for segment in hatch_lines([point(p) for p in poly], hatch_spacing(s)):
                draw.line(segment, fill=ink_on(colours[name]), width=hatch_width(s))
    radius = style.border / 2
    for a, b, thick, _ in layout.edges:
        if thick:
            (xa, ya), (xb, yb) = point(a), point(b)
            draw.line((xa, ya, xb, yb), fill=INK, width=style.border)
            for x, y in ((xa, ya), (xb, yb)):  # round joints where borders meet
                draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=INK)
    if style.labels:
        room = s * LABEL_ROOM
        for name, centre in polygon_label_points(layout, labels).items():
            fitted = fitted_label(name, s, room)
            if fitted is not None:
                text, text_font = fitted
                draw.text(point(centre), text, fill=ink_on(colours[name]), font=text_font, anchor="mm")
    return image


def draw_polygon_pieces(pieces, colours: dict, lattice, style: Style = Style()):
    """Each piece of a polygon lattice on its own, captioned, on a sheet."""
    tiles = [draw_polygons({c: p.name for c in p.cells}, colours, style, lattice) for p in pieces]
    return sheet(tiles, [piece_caption(p) for p in pieces], style)
