"""How pictures look: sizes (:class:`Style`), the ink and background colours, the font.

Piece colours are chosen in :mod:`polyfit.render.palette`; every renderer takes the rest from
here, so a change of look is made in one place.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache

from polyfit.render.palette import RGB

BACKGROUND: RGB = (255, 255, 255)
INK: RGB = (34, 34, 34)  # borders and captions
EMPTY_CELL: RGB = (236, 236, 236)  # a board cell no piece covers (yet)
EMPTY_GRID: RGB = (200, 200, 200)
BACKDROP: RGB = (246, 246, 246)  # the rest of a layer's box, so layers line up by eye
BACKDROP_GRID: RGB = (226, 226, 226)


MOST_CELL = 1000  # pixels: a cell this big is already a poster
MOST_MARGIN = 1000  # pixels


MOST_MM = 1000.0  # millimetres: no printer or cutter makes a cell (or a gap) of a metre


def check_millimetres(option: str, value, positive: bool = True) -> float:
    """A length in millimetres for a model, a cut file or a sheet: a finite number above 0
    (``positive``) or at least 0, and at most ``MOST_MM``; anything else (``inf``, ``nan``,
    ``null``, ``1e300``) is an error naming ``option``."""
    from polyfit.errors import PolyfitError

    low = "more than 0" if positive else "0"
    shown = "null" if value is None else repr(value) if isinstance(value, str) else f"{value}"
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) \
            or value < 0 or (positive and value == 0) or value > MOST_MM:
        raise PolyfitError(f"{option} must be a number of millimetres from {low} to {MOST_MM:,g}, not {shown}")
    return float(value)


@dataclass(frozen=True)
class Style:
    """How big things are drawn, in pixels: ``cell`` from 4 to ``MOST_CELL``, ``margin``
    from 0 to ``MOST_MARGIN`` (so that a mistyped size is an error, not an image that
    exhausts memory; a picture's size is also bounded, see :func:`new_image`)."""

    cell: int = 32
    margin: int = 16
    labels: bool = False

    def __post_init__(self):
        if self.cell < 4:
            raise ValueError("cell size must be at least 4 pixels")
        if self.cell > MOST_CELL:
            raise ValueError(f"cell size must be at most {MOST_CELL:,} pixels, not {self.cell:,}")
        if self.margin < 0:
            raise ValueError("margin must not be negative")
        if self.margin > MOST_MARGIN:
            raise ValueError(f"margin must be at most {MOST_MARGIN:,} pixels, not {self.margin:,}")

    @property
    def border(self) -> int:
        return max(2, round(self.cell / 9))

    @property
    def pad(self) -> int:
        """Space kept around a grid: the margin, and room for half a border at the least."""
        return max(self.margin, self.border)


@cache
def font(size: int):
    from PIL import ImageFont

    return ImageFont.load_default(size=max(6, size))


def new_image(width: int, height: int, colour: RGB = BACKGROUND):
    """A new RGB picture, refused (a :class:`polyfit.limits.LimitError`) when it would have
    more pixels than the ``pixels`` limit: a large board with large cells must not end in a
    ``MemoryError``."""
    from PIL import Image

    from polyfit.limits import check

    check("pixels", width * height, f"a picture of {width:,} x {height:,} pixels")
    return Image.new("RGB", (width, height), colour)
