"""Vector files of solutions: SVG pictures, and SVG outlines for a laser cutter.

``svg`` draws what the PNG draws, in vectors (each piece one path, named in ``data-piece``;
options ``cell``, ``margin``, ``labels``, ``view`` as for PNG). ``cut-svg`` (suffix
``.cut.svg``, or ``--svg FILE --cut``) lays out the pieces the first solution uses as closed
outlines in millimetres (``unit`` a cell, 15 by default; ``kerf`` the laser's, half of it added
all round), for flat square pieces only.
"""

from __future__ import annotations

from polyfit.formats.export import register_table
from polyfit.formats.png import check_picture
from polyfit.hookspecs import hookimpl


def export_svg(solutions, path, *, cell: int = 32, margin: int = 16, labels: bool = False, view: str | None = None) -> None:
    from polyfit.render.pictures import picture_style
    from polyfit.render.svg import save_svg, solutions_svg

    text = solutions_svg(solutions.board_cells, solutions.pieces, solutions.solutions,
                         picture_style(cell, margin, labels), view, solutions.fixed, solutions.board)
    save_svg(text, path)


CUT_UNIT = 15.0  # mm: a cell's edge


def export_cut_svg(solutions, path, *, unit: float = CUT_UNIT, kerf: float = 0.0) -> str:
    from polyfit.errors import PolyfitError, plural
    from polyfit.render import cut
    from polyfit.render.svg import cut_shapes, cut_svg, save_svg

    if not solutions.solutions:
        raise PolyfitError("no solution to take the pieces from")
    shapes = cut_shapes(solutions.pieces, cut.copies_used(solutions.solutions[0]))
    save_svg(cut_svg(shapes, unit, kerf, f"{solutions.board}: pieces to cut"), path)
    return f"{plural(len(shapes), 'piece')} to cut, {unit:g} mm a cell, kerf {kerf:g} mm"


def check_cut_svg(solutions, unit: float = CUT_UNIT, kerf: float = 0.0) -> None:
    from polyfit.render.cut import check_sizes
    from polyfit.render.svg import cut_shapes

    check_sizes(unit, kerf)
    cut_shapes(solutions.pieces)


export_svg.check = check_picture
export_cut_svg.check = check_cut_svg

EXPORTERS = {
    "svg": ((".svg",), export_svg, "solutions as an SVG picture (a contact sheet for several)"),
    "cut-svg": ((".cut.svg", ".svg"), export_cut_svg, "the pieces as outlines for a laser cutter (SVG in mm)"),
}


@hookimpl
def register_exporters(register):
    register_table(register, EXPORTERS)
