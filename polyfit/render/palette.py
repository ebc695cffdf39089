"""Piece colours: a fixed colour-blind-safe palette, keyed by piece name.

The first twelve colours are Okabe and Ito's seven (black left out) and five of Paul Tol's
muted and light colours, ordered so that neighbouring slots differ in hue and lightness.
A piece's preferred slot comes from a checksum of its name, so a piece keeps its colour from
one picture to the next; when two pieces of a set want the same slot, the later name (in
sorted order) takes the next free one. Sets of more than twelve pieces get further colours
spread around the hue circle at alternating lightness: still distinct, no longer chosen for
colour-blind readers (the drawn borders and ``--labels`` keep them apart).
"""

from __future__ import annotations

import colorsys
import zlib

RGB = tuple[int, int, int]

SAFE_COLOURS: tuple[RGB, ...] = (
    (0x00, 0x72, 0xB2),  # blue
    (0xE6, 0x9F, 0x00),  # orange
    (0x00, 0x9E, 0x73),  # bluish green
    (0xCC, 0x79, 0xA7),  # reddish purple
    (0xF0, 0xE4, 0x42),  # yellow
    (0x88, 0x22, 0x55),  # wine
    (0x56, 0xB4, 0xE9),  # sky blue
    (0xD5, 0x5E, 0x00),  # vermilion
    (0x99, 0x99, 0x33),  # olive
    (0x33, 0x22, 0x88),  # indigo
    (0xFF, 0xAA, 0xBB),  # pink
    (0x11, 0x77, 0x33),  # green
)

GOLDEN_TURN = 0.381966  # hue steps of the golden angle keep generated colours apart


def extra_colour(k: int) -> RGB:
    """The ``k``-th colour after the safe ones (k = 0, 1, ...)."""
    hue = (0.07 + k * GOLDEN_TURN) % 1.0
    lightness = (0.42, 0.62, 0.52)[k % 3]
    r, g, b = colorsys.hls_to_rgb(hue, lightness, 0.65)
    return (round(r * 255), round(g * 255), round(b * 255))


def slot_colour(slot: int) -> RGB:
    if slot < len(SAFE_COLOURS):
        return SAFE_COLOURS[slot]
    return extra_colour(slot - len(SAFE_COLOURS))


def piece_colours(names) -> dict[str, RGB]:
    """A distinct colour for each piece name; the same names always get the same colours."""
    names = sorted(set(names))
    slots = max(len(SAFE_COLOURS), len(names))
    taken: set[int] = set()
    colours = {}
    for name in names:
        slot = zlib.crc32(name.encode("utf-8")) % slots
        while slot in taken:
            slot = (slot + 1) % slots
        taken.add(slot)
        colours[name] = slot_colour(slot)
    return colours


def solution_colours(pieces, solutions=()) -> dict[str, RGB]:
    """Colours for every piece name and every label the solutions use: when a solution has
    several copies of a piece they are labelled ``NAME#1``, ``NAME#2``... and each copy gets
    its own colour, so copies side by side stay apart."""
    names = {p.name for p in pieces}
    for solution in solutions:
        names.update(solution)
    return piece_colours(names)


def luminance(colour: RGB) -> float:
    """Relative luminance (0 black .. 1 white), to pick a readable label colour."""
    def linear(v):
        v /= 255
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(v) for v in colour)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def shade(colour: RGB, factor: float) -> RGB:
    """Darker (factor < 1) or lighter (factor > 1, towards white) version of a colour."""
    if factor <= 1:
        return tuple(round(v * factor) for v in colour)
    t = factor - 1
    return tuple(round(v + (255 - v) * t) for v in colour)
