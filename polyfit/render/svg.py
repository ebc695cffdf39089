"""Solutions and piece sets as SVG: the vector twin of the PNG pictures, and cut files.

:mod:`polyfit.render.scene` lays out what to draw; this module only writes it as SVG 1.1
elements, in painting order: each piece one ``<path class="piece">`` filled in its palette
colour (its cells' union, holes included), thin cell lines, hatching over pre-placed pieces
(a ``<pattern>``), the thick outlines (``class="outline"``) and labels. Every drawn element
names its piece in ``data-piece``, so a designer can pick a piece out in an editor.

A cut file (:func:`cut_svg`) holds only ``<path class="cut">`` outlines, one closed path per
piece, no fills, in millimetres (``width="..mm"`` and a viewBox in mm), ready for a laser
cutter's software.
"""

from __future__ import annotations

from pathlib import Path
from xml.sax.saxutils import escape, quoteattr

from polyfit.errors import PolyfitError
from polyfit.files import write_output_text
from polyfit.lattices import base as lattices
from polyfit.render import cut, scene as layout
from polyfit.render.outline import number, path_data
from polyfit.render.palette import RGB, hex_colour, piece_colours, solution_colours
from polyfit.render.scene import Hatch, Polygon, Scene, Segments, Text
from polyfit.render.stick_cut import StickShape
from polyfit.render.style import BACKGROUND, Style
from polyfit.render.pictures import check_view, default_view

FONT = "DejaVu Sans, Helvetica, Arial, sans-serif"


def attributes(**values) -> str:
    """XML attributes from keyword arguments (``data_piece`` is written ``data-piece``);
    None leaves one out."""
    return "".join(f" {k.rstrip('_').replace('_', '-')}={quoteattr(str(v))}" for k, v in values.items() if v is not None)


def loops_data(loops) -> str:
    return path_data(loops)


def segments_data(segments) -> str:
    return " ".join(f"M{number(a[0])},{number(a[1])} L{number(b[0])},{number(b[1])}" for a, b in segments)


def pattern_id(hatch: Hatch) -> str:
    return f"preplaced-{hex_colour(hatch.colour)[1:]}-{number(hatch.spacing).replace('.', '_')}"


def hatch_pattern(hatch: Hatch) -> str:
    """Diagonal lines ``x + y = k * spacing``, as the PNG hatches: vertical stripes turned 45
    degrees, one spacing apart measured along the x axis."""
    step = hatch.spacing / 2 ** 0.5  # the stripes' distance apart, across them
    return (
        f'<pattern id="{pattern_id(hatch)}" patternUnits="userSpaceOnUse" width="{number(step)}" '
        f'height="{number(step)}" patternTransform="rotate(45)">'
        f'<rect width="{number(hatch.width)}" height="{number(step)}" fill="{hex_colour(hatch.colour)}"/>'
        "</pattern>"
    )


def element(item) -> str:
    if isinstance(item, Polygon):
        return "<path" + attributes(
            class_=item.kind,
            data_piece=item.name,
            d=loops_data(item.loops),
            fill=hex_colour(item.fill) if item.fill else "none",
            fill_rule="evenodd" if item.fill else None,
            stroke=hex_colour(item.stroke) if item.stroke else None,
            stroke_width=number(item.width) if item.stroke else None,
            stroke_linejoin="miter" if item.stroke else None,
        ) + "/>"
    if isinstance(item, Segments):
        return "<path" + attributes(
            class_=item.kind,
            data_piece=item.name,
            d=segments_data(item.segments),
            fill="none",
            stroke=hex_colour(item.colour),
            stroke_width=number(item.width),
            stroke_linecap="round" if item.round else "square",
        ) + "/>"
    if isinstance(item, Hatch):
        return "<path" + attributes(
            class_="preplaced", data_piece=item.name, d=loops_data(item.loops), fill=f"url(#{pattern_id(item)})",
            fill_rule="evenodd",
        ) + "/>"
    if isinstance(item, Text):
        return (
            "<text" + attributes(
                class_=item.kind, x=number(item.x), y=number(item.y), font_size=number(item.size),
                fill=hex_colour(item.colour), text_anchor="middle", dominant_baseline="central",
            ) + f">{escape(item.text)}</text>"
        )
    raise TypeError(f"cannot draw {item!r}")


def to_svg(picture: Scene, title: str | None = None, background: RGB | None = BACKGROUND) -> str:
    """The SVG document of a scene; in millimetres when its unit is mm."""
    unit = "mm" if picture.unit == "mm" else ""
    w, h = number(picture.width), number(picture.height)
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{w}{unit}" height="{h}{unit}" '
        f'viewBox="0 0 {w} {h}" font-family={quoteattr(FONT)}>',
    ]
    if title:
        lines.append(f"<title>{escape(title)}</title>")
    patterns = {pattern_id(i): hatch_pattern(i) for i in picture.items if isinstance(i, Hatch)}
    if patterns:
        lines.append("<defs>" + "".join(patterns.values()) + "</defs>")
    if background is not None:
        lines.append(f'<rect class="background" width="{w}" height="{h}" fill="{hex_colour(background)}"/>')
    lines.extend(element(item) for item in picture.items)
    lines.append("</svg>")
    return "\n".join(lines) + "\n"


def solutions_svg(board_cells, pieces, solutions: list, style: Style = Style(), view=None,
                  fixed=(), title: str | None = None) -> str:
    """One solution, or several on a contact sheet, as the PNG draws them (``view`` for 3D:
    iso, exploded or layers)."""
    if not solutions:
        raise PolyfitError("no solution to draw")
    lattice = lattices.of(pieces[0]) if pieces else None
    view = check_view(len(board_cells[0]), default_view(lattice, view))
    colours = solution_colours(pieces, solutions)
    tile = layout.solutions_tile(board_cells, solutions, colours, layout.Measures.of(style), view, fixed,
                                 lattice=lattice)
    return to_svg(layout.scene(tile), title)


def pieces_svg(pieces, style: Style = Style(), title: str | None = None) -> str:
    """A piece set, each piece captioned with its name (3D pieces isometric)."""
    pieces = list(pieces)
    if not pieces:
        raise PolyfitError("no pieces to draw")
    colours = piece_colours(p.name for p in pieces)
    return to_svg(layout.scene(layout.pieces_tile(pieces, colours, layout.Measures.of(style))), title)


def cut_shapes(pieces, copies=None) -> list[tuple[str, tuple]]:
    """The flat pieces to cut (see :func:`polyfit.render.cut.shapes`); 3D pieces are refused.
    Polysticks and polytwigs are cut as sticks (:mod:`polyfit.render.stick_cut`)."""
    lattice = lattices.of(pieces[0]) if pieces else None
    if lattice is not None and lattice.segments:
        made = [(name, StickShape(lattice, cells)) for name, cells in cut.shapes(pieces, copies)]
        if not made:
            raise PolyfitError("no pieces to cut")
        return made
    lattices.only_squares(pieces, "a laser-cut file")
    for piece in pieces:
        if piece.dim != 2:
            raise PolyfitError(
                f"a laser-cut file holds flat pieces; piece {piece.name} is 3D (an STL file makes printable solids)"
            )
    made = cut.shapes(pieces, copies)
    if not made:
        raise PolyfitError("no pieces to cut")
    return made


def cut_svg(shapes: list[tuple[str, tuple]], unit: float, kerf: float = 0.0, title: str | None = None) -> str:
    """The pieces ``[(label, cells)]`` laid apart for a laser cutter: each one closed path,
    stroked as a hairline, no fill, in millimetres (``unit`` a cell, or a stick's length),
    grown by half the kerf."""
    width, height, placed = cut.layout(shapes, unit, kerf)
    items = [Polygon(loops, stroke=(0, 0, 0), width=cut.CUT_STROKE, kind="cut", name=name) for name, loops in placed]
    return to_svg(Scene(width, height, items, "mm"), title, background=None)


def save_svg(text: str, path: Path, force: bool = False) -> None:
    """Write an SVG document; an existing file is replaced only with ``force``."""
    write_output_text(path, text, force)
