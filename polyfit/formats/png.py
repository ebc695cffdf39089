"""PNG pictures of solutions: one solution, or a contact sheet of several.

``polyfit solve BOARD --output out.png`` (or ``--png out.png``), ``Solution.png()`` and
``polyfit.export(solutions, "out.png")`` come here. It draws with :mod:`polyfit.render.pictures`
(pillow), imported on the first picture, so commands that draw nothing start without it.
Options: ``cell`` and ``margin`` in pixels, ``labels`` (piece names on flat pictures) and
``view`` for 3D boards (``iso``, ``exploded`` or ``layers``).
"""

from __future__ import annotations

from polyfit.formats.export import register_table
from polyfit.hookspecs import hookimpl


def export_png(solutions, path, *, cell: int = 32, margin: int = 16, labels: bool = False, view: str | None = None) -> str:
    from polyfit.render.pictures import picture_style, save_png, solutions_image

    style = picture_style(cell, margin, labels)
    image = solutions_image(solutions.board_cells, solutions.pieces, solutions.solutions, style, view,
                            fixed=solutions.fixed)
    save_png(image, path)
    return f"{image.width}x{image.height}"


def check_picture(solutions, **options) -> None:
    """The pictures' check before a search (sizes, view), loading pillow only then."""
    from polyfit.render import pictures

    pictures.check_picture(solutions, **options)


export_png.check = check_picture

EXPORTERS = {
    "png": ((".png",), export_png, "solutions as a picture (a contact sheet for several)"),
}


@hookimpl
def register_exporters(register):
    register_table(register, EXPORTERS)
