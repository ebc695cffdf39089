"""The printable puzzle sheet (PDF, drawn with reportlab: ``pip install 'polyfit[pdf]'``).

Page 1 is the puzzle at true size (the empty board and every piece to cut out, ``unit``
millimetres a cell: by default 15, or less so the board fits the page), then the solutions;
``paper`` is ``a4`` or ``letter``. Square and cubic boards only. The layout is
:mod:`polyfit.render.sheet`'s.
"""

from __future__ import annotations

from polyfit.formats.export import register_table
from polyfit.hookspecs import hookimpl

DEFAULT_UNIT = 15.0  # mm: the largest cell a sheet uses when no unit is given


def sheet_unit(solutions, unit: float | None, paper: str) -> float:
    """The cell edge in mm: ``unit``, checked to fit the page, or the largest that fits."""
    from polyfit.lattices.base import only_squares
    from polyfit.render.cut import check_sizes
    from polyfit.render.sheet import PAPERS, check_fits, fitting_unit, reportlab_canvas

    only_squares(solutions.pieces, "a PDF puzzle sheet")
    reportlab_canvas()  # installed? say so before the search
    if paper not in PAPERS:
        from polyfit.errors import UnknownNameError

        raise UnknownNameError("paper", paper, PAPERS)
    if unit is None:
        return fitting_unit(solutions.board_cells, DEFAULT_UNIT, paper, solutions.board)
    check_sizes(unit, 0.0)
    check_fits(solutions.board_cells, unit, paper, solutions.board)
    return unit


def export_pdf(solutions, path, *, unit: float | None = None, paper: str = "a4") -> str:
    from polyfit.errors import plural
    from polyfit.files import write_output
    from polyfit.render.sheet import sheet_pdf

    unit = sheet_unit(solutions, unit, paper)
    data, pages = sheet_pdf(solutions, unit, paper)
    write_output(path, data)
    return f"{plural(pages, 'page')}, {paper.upper() if paper == 'a4' else paper}, {unit:g} mm a cell"


def check_pdf(solutions, unit: float | None = None, paper: str = "a4") -> None:
    sheet_unit(solutions, unit, paper)


export_pdf.check = check_pdf

EXPORTERS = {
    "pdf": ((".pdf",), export_pdf, "a printable puzzle sheet: the puzzle at true size, then the solutions"),
}


@hookimpl
def register_exporters(register):
    register_table(register, EXPORTERS)
