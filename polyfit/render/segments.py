"""Pictures of polysticks and polytwigs: each piece a thick stroke in its colour, round at the
joints.

Layout comes first and needs no pillow: :func:`segment_layout` puts each cell's segment in the
plane (:meth:`polyfit.lattices.base.Lattice.segment`, in units of a segment's length) and draws
it back a little at the piece's free ends, where only one of its segments reaches a point: two
pieces meeting at a point then stay apart by eye, while a piece's own joints close. The PNG
painter (:func:`draw_segments`) and the vector scene (:func:`polyfit.render.scene.segment_tile`,
for SVG) paint the
same layout: the board's segments thin and grey with its points as dots, then every piece
outlined in ink and stroked in its palette colour over it, each segment with round ends (so a
piece's joints are round), a white rail along pre-placed pieces, and with ``--labels`` each
piece's name on a disc of its colour.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from PIL import Image, ImageDraw

from polyfit.render.flat import fitted_label, ink_on, nearest_to_mean, piece_caption, sheet
from polyfit.render.style import BACKGROUND, EMPTY_GRID, INK, Style

WIDTH = 0.24  # a stick's width, of its length
GAP = 0.14  # how far a piece stops short of a point where it ends
DOT = 0.07  # the radius of a lattice point's dot
LABEL = 0.46  # the diameter of a label's disc
SUPERSAMPLE = 3  # pictures are drawn this many times larger and scaled down (smooth strokes)


def _key(point) -> tuple:
    return (round(point[0], 6), round(point[1], 6))


@dataclass
class SegmentLayout:
    """In segment units: each piece's strokes ``[(a, b)]`` (drawn back at its free ends), the
    board's segments no piece covers, its lattice points, where labels go, and the extent
    (``low`` corner and ``size``) of everything drawn, strokes' width included."""

    strokes: dict  # name -> [(a, b)]
    empty: list
    points: list
    labels: dict  # name -> (x, y)
    low: tuple[float, float]
    size: tuple[float, float]


def segment_layout(labels: dict, lattice) -> SegmentLayout:
    """Where everything goes, for ``{cell: piece name or None}`` on an edge lattice."""
    ends = {cell: lattice.segment(cell) for cell in labels}
    reach: dict = {}  # (name, point) -> how many of that piece's segments end there
    for cell, name in labels.items():
        for point in ends[cell]:
            reach[name, _key(point)] = reach.get((name, _key(point)), 0) + 1
    strokes: dict = {}
    empty = []
    middles: dict = {}
    for cell, name in sorted(labels.items()):
        a, b = ends[cell]
        if name is None:
            empty.append((a, b))
            continue
        dx, dy = b[0] - a[0], b[1] - a[1]
        length = math.hypot(dx, dy)
        ux, uy = dx / length, dy / length
        if reach[name, _key(a)] == 1:
            a = (a[0] + GAP * ux, a[1] + GAP * uy)
        if reach[name, _key(b)] == 1:
            b = (b[0] - GAP * ux, b[1] - GAP * uy)
        strokes.setdefault(name, []).append((a, b))
        middles.setdefault(name, []).append(((a[0] + b[0]) / 2, (a[1] + b[1]) / 2))
    points = sorted({_key(p) for pair in ends.values() for p in pair})
    xs = [x for x, _ in points]
    ys = [y for _, y in points]
    margin = WIDTH / 2 + 0.05
    low = (min(xs) - margin, min(ys) - margin)
    size = (max(xs) - min(xs) + 2 * margin, max(ys) - min(ys) + 2 * margin)
    where = {name: nearest_to_mean(found) for name, found in middles.items()}
    return SegmentLayout(strokes, empty, points, where, low, size)


def stroke_widths(cell: float, border: float) -> tuple[float, float, float]:
    """A stick's width, the same with its ink outline, and a dot's radius, in pixels."""
    width = max(3.0, cell * WIDTH)
    return width, width + border, max(1.5, cell * DOT)


# -- PNG ----------------------------------------------------------------------------------------


def draw_segments(labels: dict, colours: dict, style: Style, lattice, marked=frozenset(),
                  points: bool = True) -> Image.Image:
    """A board or piece of an edge lattice as a picture (see the module's docstring); without
    ``points``, no dots at the lattice points (a piece on its own)."""
    layout = segment_layout(labels, lattice)
    lx, ly = layout.low
    size = (math.ceil(layout.size[0] * style.cell) + 2 * style.pad, math.ceil(layout.size[1] * style.cell) + 2 * style.pad)
    # Drawn SUPERSAMPLE times larger and scaled down: strokes at any angle come out even and smooth.
    s, pad = style.cell * SUPERSAMPLE, style.pad * SUPERSAMPLE
    image = Image.new("RGB", (size[0] * SUPERSAMPLE, size[1] * SUPERSAMPLE), BACKGROUND)
    draw = ImageDraw.Draw(image)

    def point(p):
        return pad + (p[0] - lx) * s, pad + (p[1] - ly) * s

    def stroke(a, b, colour, width):
        # A rectangle and two discs of the same radius: pillow's wide lines are not centred
        # on their points to the pixel, and their ends would show past the discs.
        (xa, ya), (xb, yb) = point(a), point(b)
        r = max(0.5, width / 2)
        length = math.hypot(xb - xa, yb - ya)
        if length:
            nx, ny = (ya - yb) / length * r, (xb - xa) / length * r
            draw.polygon([(xa + nx, ya + ny), (xb + nx, yb + ny), (xb - nx, yb - ny), (xa - nx, ya - ny)], fill=colour)
        for x, y in ((xa, ya), (xb, yb)):
            draw.ellipse((x - r, y - r, x + r, y + r), fill=colour)

    width, outlined, dot = stroke_widths(s, style.border * SUPERSAMPLE)
    for a, b in layout.empty:
        stroke(a, b, EMPTY_GRID, max(SUPERSAMPLE, s / 16))
    for p in layout.points if points else ():
        x, y = point(p)
        draw.ellipse((x - dot, y - dot, x + dot, y + dot), fill=EMPTY_GRID)
    for name, pieces in sorted(layout.strokes.items()):
        for a, b in pieces:
            stroke(a, b, INK, outlined)
    for name, pieces in sorted(layout.strokes.items()):
        for a, b in pieces:
            stroke(a, b, colours[name], width)
        if name in marked:
            for a, b in pieces:
                stroke(a, b, ink_on(colours[name]), max(1, width / 5))
    if style.labels:
        for name, centre in layout.labels.items():
            fitted = fitted_label(name, s, s * LABEL * 0.8)
            if fitted is None:
                continue
            x, y = point(centre)
            r = s * LABEL / 2
            draw.ellipse((x - r, y - r, x + r, y + r), fill=colours[name], outline=INK, width=SUPERSAMPLE)
            draw.text((x, y), fitted[0], fill=ink_on(colours[name]), font=fitted[1], anchor="mm")
    return image.resize(size, Image.Resampling.BOX)


def draw_segment_pieces(pieces, colours: dict, lattice, style: Style = Style()) -> Image.Image:
    """Each piece of an edge lattice on its own, captioned, on a sheet."""
    tiles = [draw_segments({c: p.name for c in p.cells}, colours, style, lattice, points=False) for p in pieces]
    return sheet(tiles, [piece_caption(p) for p in pieces], style)
