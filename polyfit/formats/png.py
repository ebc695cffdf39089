"""PNG pictures of solutions: ``polyfit solve BOARD --output out.png`` and ``--png``.

The ``png`` exporter draws with :mod:`polyfit.render.pictures` (pillow), imported on the first
picture, so commands that draw nothing start without it.
"""

from __future__ import annotations

from polyfit.hookspecs import hookimpl


def export_png(solutions, path) -> None:
    from polyfit.render.pictures import save_png, solutions_image

    image = solutions_image(solutions.board_cells, solutions.pieces, solutions.solutions, fixed=solutions.fixed)
    save_png(image, path)


@hookimpl
def register_exporters(register):
    register("png", (".png",), export_png, "solutions as a picture (a contact sheet for several)")
