"""Solutions and piece sets become PNG pictures: the one place that picks a renderer.

2D boards are drawn flat (:mod:`polyfit.render.flat`; polysticks and polytwigs as strokes,
:mod:`polyfit.render.segments`); 3D boards in one of the views of :mod:`polyfit.render.views3d`
(isometric by default). Several solutions make one contact sheet, each captioned with its
number. Pre-placed pieces (on the board's ``fixed`` cells) are hatched. The ``png`` and ``gif``
exporters (:mod:`polyfit.formats.png`, :mod:`polyfit.formats.gif`) draw with these, and check
their options with :func:`check_picture` before a search.
"""

from __future__ import annotations

import io
from pathlib import Path

from PIL import Image

from polyfit.render import flat, segments, views3d
from polyfit.errors import PolyfitError
from polyfit.files import write_output
from polyfit.lattices import base as lattices
from polyfit.render.palette import piece_colours, solution_colours
from polyfit.render.style import Style


def check_view(dim: int, view: str | None, views=views3d.VIEWS) -> str:
    """The view to draw a board of dimension ``dim`` in; flat 2D boards have only one."""
    if view is None:
        return "flat" if dim == 2 else "iso"
    if dim == 2:
        raise PolyfitError(f"view {view!r} is for 3D boards; 2D boards are drawn flat")
    if view not in views:
        raise PolyfitError(f"unknown view {view!r}; choose one of {', '.join(views)}")
    return view


def default_view(lattice, view: str | None) -> str | None:
    """Lattices drawn in layers (prisms, spheres, sub-cells) are drawn layer by layer unless a
    view in space is asked for (:func:`polyfit.render.prism_views.in_space` says which have one)."""
    if lattice is None or lattice.flat_layers({}) is None:
        return view
    if view is None:
        return "layers"
    from polyfit.render.prism_views import in_space

    if not in_space(lattice) and view != "layers":
        raise PolyfitError(f"the {lattice.name} lattice is drawn layer by layer (--view layers); "
                           f"view {view!r} is not made for it yet")
    return view


def picture_style(cell: int = Style.cell, margin: int = Style.margin, labels: bool = Style.labels) -> Style:
    """The :class:`Style` of these sizes, or a PolyfitError saying which one is wrong."""
    try:
        return Style(cell=cell, margin=margin, labels=labels)
    except ValueError as exc:
        raise PolyfitError(str(exc)) from None


def check_picture(solutions, view=None, views=views3d.VIEWS, **sizes) -> None:
    """Before a search: can a picture of these options be drawn of this board?"""
    picture_style(**sizes)
    lattice = lattices.of(solutions.pieces[0]) if solutions.pieces else None
    check_view(len(solutions.board_cells[0]), default_view(lattice, view), views)


def solution_image(board_cells, pieces, solution: dict, style: Style = Style(), view=None,
                   colours=None, fixed=()):
    """One solution ``{piece name: cells}`` as a picture; the pieces on the pre-placed cells
    ``fixed`` are hatched."""
    colours = colours or solution_colours(pieces, [solution])
    dim = len(board_cells[0])
    lattice = lattices.of(pieces[0]) if pieces else None
    view = check_view(dim, default_view(lattice, view))
    marked = flat.preplaced(solution, fixed)
    if lattice is not None and lattice.flat_layers({}) is not None and view != "layers":  # prisms, balls in space
        from polyfit.render import prism_views

        cells = views3d.cubes_of(solution)
        offsets = prism_views.exploded_offsets(cells, lattice) if view == "exploded" else None
        return prism_views.draw_prisms(cells, colours, lattice, style, offsets, marked)
    if lattice is not None and lattice.flat_layers({}) is not None:  # prisms: layers side by side
        labels, lattice = lattice.flat_layers(flat.solution_labels(board_cells, solution))
        return flat.draw_polygons(labels, colours, style, lattice, marked)
    if lattice is not None and lattice.segments:
        return segments.draw_segments(flat.solution_labels(board_cells, solution), colours, style, lattice, marked)
    if lattice is not None and lattice.dim == 2 and lattice.name != "square":
        labels = flat.solution_labels(board_cells, solution)
        return flat.draw_polygons(labels, colours, style, lattice, marked)
    if dim == 2:
        return flat.draw_solution(board_cells, solution, colours, style, marked)
    return views3d.draw_solution(board_cells, solution, colours, style, view, marked)


def solutions_image(board_cells, pieces, solutions: list, style: Style = Style(), view=None,
                    first_number: int = 1, fixed=()):
    """One solution alone, or several on a contact sheet captioned with their numbers."""
    if not solutions:
        raise PolyfitError("no solution to draw")
    colours = solution_colours(pieces, solutions)  # one colour per piece across the sheet
    if len(solutions) == 1:
        return solution_image(board_cells, pieces, solutions[0], style, view, colours, fixed)
    tiles = [solution_image(board_cells, pieces, s, style, view, colours, fixed) for s in solutions]
    captions = [f"Solution {k}" for k in range(first_number, first_number + len(tiles))]
    return flat.sheet(tiles, captions, style)


def pieces_image(pieces, style: Style = Style()):
    """A piece set on one sheet, each piece captioned with its name (3D pieces isometric)."""
    pieces = list(pieces)
    if not pieces:
        raise PolyfitError("no pieces to draw")
    colours = piece_colours(p.name for p in pieces)
    lattice = lattices.of(pieces[0])
    if lattice.flat_layers({}) is not None:  # prisms: each piece's layers side by side
        tiles = []
        for p in pieces:
            labels, plane = lattice.flat_layers({c: p.name for c in p.cells})
            tiles.append(flat.draw_polygons(labels, colours, style, plane))
        return flat.sheet(tiles, [flat.piece_caption(p) for p in pieces], style)
    if pieces[0].dim == 3:
        return views3d.draw_pieces(pieces, colours, style)
    lattice = lattices.of(pieces[0])
    if lattice.segments:
        return segments.draw_segment_pieces(pieces, colours, lattice, style)
    if lattice.name != "square":
        return flat.draw_polygon_pieces(pieces, colours, lattice, style)
    return flat.draw_pieces(pieces, colours, style)


def compact(image: Image.Image, colours: int | None = None) -> Image.Image:
    """A palette image with exactly the same pixels when it has at most 256 colours (a
    smaller file); with ``colours``, reduced to that many (for the committed gallery)."""
    if colours is not None:
        return image.quantize(colours, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    rgb = image.convert("RGB")
    found = rgb.getcolors(256)  # None when there are more
    if found is None:
        return image
    # Median cut into as many boxes as there are colours gives each colour a box of its own,
    # so nothing is approximated (checked all the same). The palette goes in colour order, so
    # the same picture always makes the same file.
    result = rgb.quantize(len(found), method=Image.Quantize.MEDIANCUT)
    palette = result.getpalette()[: 3 * len(found)]
    entries = [tuple(palette[3 * k : 3 * k + 3]) for k in range(len(found))]
    result = result.remap_palette(sorted(range(len(found)), key=entries.__getitem__))
    if result.convert("RGB").tobytes() != rgb.tobytes():
        return image
    return result


def save_png(image: Image.Image, path: Path, colours: int | None = None, force: bool = False) -> None:
    """Write the picture; an existing file is replaced only with ``force``."""
    data = io.BytesIO()
    compact(image, colours).save(data, format="PNG", optimize=True)
    write_output(path, data.getvalue(), force)


def gif_bytes(images: list[Image.Image], durations: list[int]) -> bytes:
    """An animated GIF that plays once round and again, each frame for its duration (ms)."""
    data = io.BytesIO()
    frames = [compact(image) for image in images]
    frames[0].save(data, format="GIF", save_all=True, append_images=frames[1:], duration=durations, loop=0,
                   optimize=False, disposal=1)
    return data.getvalue()
