"""How pictures look: sizes (:class:`Style`), the ink and background colours, the font.

Piece colours are chosen in :mod:`polyfit.render.palette`; every renderer takes the rest from
here, so a change of look is made in one place.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from polyfit.render.palette import RGB

BACKGROUND: RGB = (255, 255, 255)
INK: RGB = (34, 34, 34)  # borders and captions
EMPTY_CELL: RGB = (236, 236, 236)  # a board cell no piece covers (yet)
EMPTY_GRID: RGB = (200, 200, 200)
BACKDROP: RGB = (246, 246, 246)  # the rest of a layer's box, so layers line up by eye
BACKDROP_GRID: RGB = (226, 226, 226)


@dataclass(frozen=True)
class Style:
    """How big things are drawn, in pixels."""

    cell: int = 32
    margin: int = 16
    labels: bool = False

    def __post_init__(self):
        if self.cell < 4:
            raise ValueError("cell size must be at least 4 pixels")
        if self.margin < 0:
            raise ValueError("margin must not be negative")

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
