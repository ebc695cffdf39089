"""Vector layout: what the SVG writer and the PDF sheet draw, decided once for both.

A :class:`Scene` is a list of plain shapes in painting order (filled or stroked polygons, line
segments, hatched areas, text) with coordinates in one unit (pixels for pictures to look at,
millimetres for cutting and printing). The painters (:mod:`polyfit.render.svg`,
:mod:`polyfit.render.sheet`) only turn shapes into their format's words.

The look follows the PNG renderer, whose geometry it reuses: the palette, which sides are thick
borders and which thin grid lines (:func:`polyfit.render.flat.grid_edges`), where labels go,
the contact sheet's columns, the isometric faces of :mod:`polyfit.render.views3d`. A piece is
one polygon, the union of its cells (:mod:`polyfit.render.outline`), filled in its colour and
stroked along its outline.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable, Optional

from polyfit.lattices import base as lattices
from polyfit.render import flat, views3d
from polyfit.render.outline import outline
from polyfit.render.palette import RGB, shade
from polyfit.render.segments import LABEL, segment_layout, stroke_widths
from polyfit.render.style import BACKDROP, BACKDROP_GRID, EMPTY_CELL, EMPTY_GRID, INK, Style

Point = tuple[float, float]


@dataclass
class Polygon:
    """Closed loops (holes run the other way round), filled and/or stroked."""

    loops: list[list[Point]]
    fill: Optional[RGB] = None
    stroke: Optional[RGB] = None
    width: float = 0.0
    kind: str = ""  # piece, empty, outline, face, cut, backdrop
    name: Optional[str] = None


@dataclass
class Segments:
    segments: list[tuple[Point, Point]]
    colour: RGB
    width: float
    kind: str = "cells"
    name: Optional[str] = None
    round: bool = False  # round ends (the edges of isometric faces)


@dataclass
class Hatch:
    """A pre-placed piece: its area covered with diagonal lines (``x + y = k * spacing``)."""

    loops: list[list[Point]]
    colour: RGB
    spacing: float
    width: float
    name: Optional[str] = None


@dataclass
class Text:
    x: float  # the text's centre
    y: float
    text: str
    size: float
    colour: RGB = INK
    kind: str = "label"


@dataclass
class Scene:
    width: float
    height: float
    items: list = field(default_factory=list)
    unit: str = "px"  # or "mm"


@dataclass(frozen=True)
class Measures:
    """Sizes in the scene's unit: a cell's edge, the pad around a grid, border and grid line
    widths, the caption size."""

    cell: float
    pad: float
    border: float
    thin: float
    caption: float
    labels: bool = False

    @classmethod
    def of(cls, style: Style) -> "Measures":
        """The PNG renderer's sizes, in pixels."""
        return cls(style.cell, style.pad, style.border, 1, round(max(12, style.cell * 0.5)), style.labels)

    @property
    def caption_height(self) -> float:
        return self.caption * 1.5


@dataclass
class Tile:
    """Something of a known size, drawn where :attr:`draw` is told (its top-left corner)."""

    width: float
    height: float
    draw: Callable[[Point], list]


def placed(loops, scale: float, at: Point) -> list[list[Point]]:
    return [[(at[0] + x * scale, at[1] + y * scale) for x, y in loop] for loop in loops]


# -- flat grids -----------------------------------------------------------------------------


def grid_tile(labels: dict, colours: dict, m: Measures, box=None, backdrop=False,
              marked=frozenset()) -> Tile:
    """One board, layer or piece (``{(row, col): name or None}``), as the PNG draws it: each
    piece one polygon in its colour, thin lines between its cells, its outline thick; the
    pieces in ``marked`` hatched."""
    box = box or flat.bounds(labels)
    r0, r1, c0, c1 = box
    s = m.cell

    def draw(at):
        origin = (at[0] + m.pad - c0 * s, at[1] + m.pad - r0 * s)

        def point(p):  # (row, col) corner -> scene (x, y)
            return origin[0] + p[1] * s, origin[1] + p[0] * s

        items = []
        if backdrop:
            rect = [[(c0, r0), (c1 + 1, r0), (c1 + 1, r1 + 1), (c0, r1 + 1)]]
            items.append(Polygon(placed(rect, s, origin), fill=BACKDROP, kind="backdrop"))
            lines = [(point((r, c0)), point((r, c1 + 1))) for r in range(r0 + 1, r1 + 1)]
            lines += [(point((r0, c)), point((r1 + 1, c))) for c in range(c0 + 1, c1 + 1)]
            items.append(Segments(lines, BACKDROP_GRID, m.thin, "backdrop"))
        regions: dict = {}
        for cell, name in labels.items():
            regions.setdefault(name, []).append(cell)
        order = sorted(regions, key=lambda n: (n is None, n or ""))
        shapes = {name: placed(outline(regions[name]), s, origin) for name in order}
        items.extend(piece_layers(order, shapes, flat.grid_edges(labels), colours, marked, m, point))
        if m.labels:
            items.extend(label_texts(labels, colours, m, point))
        return items

    return Tile((c1 - c0 + 1) * s + 2 * m.pad, (r1 - r0 + 1) * s + 2 * m.pad, draw)


def piece_layers(order, shapes: dict, edges, colours: dict, marked, m: Measures, point) -> list:
    """A board's pieces as drawn, bottom layer first: each piece's fill (``None``: empty
    cells), the thin lines between its cells, the hatching of pre-placed ones (``marked``),
    then every outline."""
    s = m.cell
    items = []
    for name in order:
        if name is None:
            items.append(Polygon(shapes[name], fill=EMPTY_CELL, kind="empty"))
        else:
            items.append(Polygon(shapes[name], fill=colours[name], kind="piece", name=name))
    thin: dict = {}
    for a, b, thick, name in edges:
        if not thick:
            thin.setdefault(name, []).append((point(a), point(b)))
    for name in order:
        if name in thin:
            colour = EMPTY_GRID if name is None else flat.grid_line_colour(colours[name])
            items.append(Segments(thin[name], colour, m.thin, "cells", name))
    for name in order:
        if name is not None and name in marked:
            items.append(Hatch(shapes[name], flat.ink_on(colours[name]), flat.hatch_spacing(s), s / 24, name))
    for name in order:
        items.append(Polygon(shapes[name], stroke=INK, width=m.border, kind="outline", name=name))
    return items


def polygon_tile(labels: dict, colours: dict, m: Measures, lattice, marked=frozenset()) -> Tile:
    """:func:`grid_tile` for a lattice of polygon cells (triangles, hexagons), from
    :func:`polyfit.render.flat.polygon_layout`: each piece one polygon, thin lines between its
    cells, its outline thick."""
    shape = flat.polygon_layout(labels, lattice)
    s = m.cell
    lx, ly = shape.low

    def draw(at):
        origin = (at[0] + m.pad - lx * s, at[1] + m.pad - ly * s)

        def point(p):
            return origin[0] + p[0] * s, origin[1] + p[1] * s

        order = sorted(shape.loops, key=lambda n: (n is None, n or ""))
        loops = {name: placed(shape.loops[name], s, origin) for name in order}
        items = piece_layers(order, loops, shape.edges, colours, marked, m, point)
        if m.labels:
            k = LABEL_SCALE / m.cell
            for name, centre in flat.polygon_label_points(shape, labels).items():
                fitted = flat.fitted_label(name, LABEL_SCALE, LABEL_SCALE * flat.LABEL_ROOM)
                if fitted is not None:
                    x, y = point(centre)
                    items.append(Text(x, y, fitted[0], fitted[1].size / k, flat.ink_on(colours[name])))
        return items

    return Tile(shape.size[0] * s + 2 * m.pad, shape.size[1] * s + 2 * m.pad, draw)


LABEL_SCALE = 64  # labels are fitted with the PNG renderer's font at a 64-pixel cell


def label_texts(labels: dict, colours: dict, m: Measures, point) -> list[Text]:
    """Piece names where the PNG writes them (the cell nearest each piece's centre), at the
    size that fits inside the cell's borders; nothing where not even the name fits."""
    k = LABEL_SCALE / m.cell
    room = (m.cell - m.border) * k - 2
    texts = []
    for name, (r, c) in flat.label_cells(labels).items():
        fitted = flat.fitted_label(name, LABEL_SCALE, room)
        if fitted is None:
            continue
        text, font = fitted
        x, y = point((r + 0.5, c + 0.5))
        ink = flat.ink_on(colours[name])
        texts.append(Text(x, y, text, font.size / k, ink))
    return texts


# -- isometric pictures ---------------------------------------------------------------------


def iso_tile(cubes: dict, colours: dict, m: Measures, offsets=None, marked=frozenset()) -> Tile:
    """An isometric picture of cubes ``{(z, row, col): name}``: the faces of
    :func:`polyfit.render.views3d.iso_faces`, far to near, shaded as in the PNG."""
    return faces_tile(views3d.iso_faces(cubes, offsets), colours, m, marked)


def faces_tile(faces: list, colours: dict, m: Measures, marked=frozenset()) -> Tile:
    """Faces ``(polygon in world space, name, shade factor, edges)``, far to near, in the
    isometric view (:func:`polyfit.render.views3d.paint_faces` paints them as a PNG)."""
    points = [views3d.project(p, m.cell) for polygon, *_ in faces for p in polygon]
    min_x = min(x for x, _ in points)
    min_y = min(y for _, y in points)
    width = max(x for x, _ in points) - min_x + 2 * m.pad
    height = max(y for _, y in points) - min_y + 2 * m.pad

    def draw(at):
        items = []
        for polygon, name, factor, edges in faces:
            fill = shade(colours[name], factor)
            xy = [(at[0] + m.pad + x - min_x, at[1] + m.pad + y - min_y)
                  for x, y in (views3d.project(p, m.cell) for p in polygon)]
            items.append(Polygon([xy], fill=fill, kind="face", name=name))
            if name in marked:
                items.append(Hatch([xy], flat.ink_on(fill), flat.hatch_spacing(m.cell), m.cell / 24, name))
            thin = [(xy[a], xy[b]) for a, b, thick in edges if not thick]
            if thin:
                items.append(Segments(thin, flat.grid_line_colour(fill), m.thin, "cells", name))
            thick = [(xy[a], xy[b]) for a, b, is_thick in edges if is_thick]
            if thick:
                items.append(Segments(thick, INK, m.border * 0.8, "edges", name, round=True))
        return items

    return Tile(width, height, draw)


# -- sheets ---------------------------------------------------------------------------------


def sheet(tiles: list[Tile], captions: list[str], m: Measures, columns=None) -> Tile:
    """Tiles in a grid, each captioned above, with the PNG contact sheet's columns."""
    tile_w = max(t.width for t in tiles)
    tile_h = max(t.height for t in tiles)
    text_h = m.caption_height if any(captions) else 0
    columns = columns or flat.sheet_columns(len(tiles), tile_w, tile_h + text_h)
    rows = math.ceil(len(tiles) / columns)

    def draw(at):
        items = []
        for k, (tile, caption) in enumerate(zip(tiles, captions)):
            x = at[0] + (k % columns) * tile_w
            y = at[1] + (k // columns) * (tile_h + text_h)
            if caption:
                items.append(Text(x + tile_w / 2, y + text_h * 0.6, caption, m.caption, kind="caption"))
            items.extend(tile.draw((x + (tile_w - tile.width) / 2, y + text_h + (tile_h - tile.height) / 2)))
        return items

    return Tile(columns * tile_w, rows * (tile_h + text_h), draw)


def scene(tile: Tile, unit: str = "px") -> Scene:
    return Scene(tile.width, tile.height, tile.draw((0, 0)), unit)


def solution_tile(board_cells, solution: dict, colours: dict, m: Measures, view=None,
                  marked=frozenset(), lattice=None) -> Tile:
    """One solution: a 2D board flat; a 3D board in ``view`` (iso, exploded or layers); a
    board of another ``lattice`` than squares from its cells' polygons."""
    if lattice is not None and lattice.flat_layers({}) is not None and view not in (None, "layers"):  # in space
        from polyfit.render import prism_views

        cells = views3d.cubes_of(solution)
        offsets = prism_views.exploded_offsets(cells, lattice) if view == "exploded" else None
        return faces_tile(prism_views.faces_in_space(cells, lattice, offsets), colours, m, marked)
    if lattice is not None and lattice.flat_layers({}) is not None:  # prisms: layers side by side
        labels, plane = lattice.flat_layers(flat.solution_labels(board_cells, solution))
        return polygon_tile(labels, colours, m, plane, marked)
    if lattice is not None and lattice.segments:

        return segment_tile(flat.solution_labels(board_cells, solution), colours, m, lattice, marked)
    if lattice is not None and lattice.name != "square" and lattice.dim == 2:
        return polygon_tile(flat.solution_labels(board_cells, solution), colours, m, lattice, marked)
    if len(board_cells[0]) == 2:
        return grid_tile(flat.solution_labels(board_cells, solution), colours, m, marked=marked)
    cubes = views3d.cubes_of(solution)
    if view == "layers":
        return layers_tile(board_cells, cubes, colours, m, marked)
    offsets = views3d.exploded_offsets(cubes, 1.8) if view == "exploded" else None
    return iso_tile(cubes, colours, m, offsets, marked)


def layers_tile(board_cells, cubes: dict, colours: dict, m: Measures, marked=frozenset()) -> Tile:
    """A 3D board's layers side by side, bottom first, as the PNG 'layers' view."""
    box, grids = views3d.layer_labels(board_cells, cubes)
    tiles = [grid_tile(labels, colours, m, box, backdrop=True, marked=marked) for _, labels in grids]
    return sheet(tiles, [caption for caption, _ in grids], m, views3d.layer_columns(len(tiles)))


def solutions_tile(board_cells, solutions: list, colours: dict, m: Measures, view=None, fixed=(),
                   first_number: int = 1, lattice=None) -> Tile:
    """One solution alone, or several on a sheet captioned with their numbers."""
    tiles = [solution_tile(board_cells, s, colours, m, view, flat.preplaced(s, fixed), lattice) for s in solutions]
    if len(tiles) == 1:
        return tiles[0]
    return sheet(tiles, [f"Solution {k}" for k in range(first_number, first_number + len(tiles))], m)


def pieces_tile(pieces, colours: dict, m: Measures) -> Tile:
    """A piece set, each captioned with its name: 2D pieces flat in a shared square box, 3D
    pieces isometric, as the PNG piece sheets."""
    lattice = lattices.of(pieces[0])
    if lattice.flat_layers({}) is not None:  # prisms: each piece's layers side by side
        tiles = []
        for p in pieces:
            labels, plane = lattice.flat_layers({c: p.name for c in p.cells})
            tiles.append(polygon_tile(labels, colours, m, plane))
    elif pieces[0].dim == 3:
        tiles = [iso_tile({c: p.name for c in p.cells}, colours, m) for p in pieces]
    elif lattice.segments:

        tiles = [segment_tile({c: p.name for c in p.cells}, colours, m, lattice, points=False) for p in pieces]
    elif lattice.name != "square":
        tiles = [polygon_tile({c: p.name for c in p.cells}, colours, m, lattice) for p in pieces]
    else:
        tiles = [grid_tile(labels, colours, m, box) for labels, box in flat.piece_boxes(pieces)]
    return sheet(tiles, [flat.piece_caption(p) for p in pieces], m)


# -- vector scene -----------------------------------------------------------------------------


def segment_tile(labels: dict, colours: dict, m, lattice, marked=frozenset(), points: bool = True):
    """:func:`polyfit.render.segments.draw_segments` as a :class:`Tile` (the SVG's picture of
    polysticks and polytwigs)."""
    layout = segment_layout(labels, lattice)
    s = m.cell
    lx, ly = layout.low
    width, outlined, dot = stroke_widths(s, m.border)

    def draw(at):
        origin = (at[0] + m.pad - lx * s, at[1] + m.pad - ly * s)

        def point(p):
            return origin[0] + p[0] * s, origin[1] + p[1] * s

        def placed(pairs):
            return [(point(a), point(b)) for a, b in pairs]

        items = []
        if layout.empty:
            items.append(Segments(placed(layout.empty), EMPTY_GRID, max(1, s / 16), "empty", round=True))
        if points:
            dots = [(p, p) for p in layout.points]  # a round cap on nothing is a dot
            items.append(Segments(placed(dots), EMPTY_GRID, 2 * dot, "points", round=True))
        for name, pieces in sorted(layout.strokes.items()):
            items.append(Segments(placed(pieces), INK, outlined, "outline", name, round=True))
        for name, pieces in sorted(layout.strokes.items()):
            items.append(Segments(placed(pieces), colours[name], width, "piece", name, round=True))
            if name in marked:
                items.append(Segments(placed(pieces), flat.ink_on(colours[name]), max(1, width / 5), "preplaced", name,
                                      round=True))
        if m.labels:
            k = LABEL_SCALE / s
            for name, centre in layout.labels.items():
                fitted = flat.fitted_label(name, LABEL_SCALE, LABEL_SCALE * LABEL * 0.8)
                if fitted is not None:
                    x, y = point(centre)
                    items.append(Segments([((x, y), (x, y))], colours[name], s * LABEL, "label-disc", name,
                                          round=True))
                    items.append(Text(x, y, fitted[0], fitted[1].size / k, flat.ink_on(colours[name])))
        return items

    return Tile(layout.size[0] * s + 2 * m.pad, layout.size[1] * s + 2 * m.pad, draw)
