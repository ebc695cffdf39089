"""Animated GIFs of solutions: each one put together piece by piece, then shown whole.

``polyfit solve BOARD --limit 3 --output build.gif``, ``Solution.gif()`` and
``polyfit.export(solutions, "build.gif")`` come here; the frames are
:func:`polyfit.render.animate.assembly_frames`. Options as for PNG (``cell``, ``margin``,
``labels``), and ``view`` ``iso`` or ``layers`` for 3D boards. (``polyfit solve --animate``
shows the search instead: it needs the puzzle, not only its solutions.)
"""

from __future__ import annotations

from polyfit.formats.export import register_table
from polyfit.hookspecs import hookimpl


def export_gif(solutions, path, *, cell: int = 32, margin: int = 16, labels: bool = False, view: str | None = None) -> str:
    from polyfit.errors import plural
    from polyfit.files import write_output
    from polyfit.render.animate import assembly_frames
    from polyfit.render.pictures import gif_bytes, picture_style

    images, durations = assembly_frames(solutions, picture_style(cell, margin, labels), view)
    write_output(path, gif_bytes(images, durations))
    return f"{plural(len(images), 'frame')}, {images[0].width}x{images[0].height}"


def check_gif(solutions, **options) -> None:
    from polyfit.render.animate import BUILD_VIEWS
    from polyfit.render.pictures import check_picture

    check_picture(solutions, views=BUILD_VIEWS, **options)


export_gif.check = check_gif

EXPORTERS = {
    "gif": ((".gif",), export_gif, "solutions put together piece by piece, as an animated GIF"),
}


@hookimpl
def register_exporters(register):
    register_table(register, EXPORTERS)
