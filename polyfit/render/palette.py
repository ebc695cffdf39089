"""Piece colours: each piece name keeps its colour in every picture, sheet, model and the studio.

A name's colour does not depend on the set it comes in: the F pentomino is the same olive on
the 6x10 box as on Scott's board, on the 3D pentacube boxes and in the studio.

- The 26 single capital letters have colours of their own (:data:`LETTER_COLOURS`). The twelve
  pentomino letters F I L N P T U V W X Y Z take the colour-blind-safe colours (Okabe and
  Ito's seven, black left out, and five of Paul Tol's); the other fourteen letters (O and S of
  the tetrominoes, A and B of the Soma cubes, C E G H J of the hexiamonds...) take colours
  chosen to stand apart from those twelve in every built-in set they share.
- A letter with a prime (``F'``, a one-sided set's mirror image of F) has a colour of its own
  too (:data:`MIRROR_COLOURS`), chosen the same way.
- A name in a numbered series (``H07`` of the hexominoes, ``T12'``, ``L1``, ``V2``) has a
  colour by its letters and its number, from further colours spread around the hue circle: a
  block of them for each series, so no two of a series meet and ``L1`` never takes ``J1``'s.
- Any other name (``a``, a plugin's ``king``) has a home colour picked by a checksum of the
  name in a fixed palette of 64 (the letters' colours and generated ones), never by the size
  of the set.

Within one set every piece gets a different colour: when two names of a set want the same
one, the letters keep theirs and the other name, in sorted order, takes the next free colour
of the palette, so only such a name can look different in another set. Copies of one piece in
a solution (labelled ``NAME#1``, ``NAME#2``... as solutions print them) are variations of that
piece's colour, each one different: the same piece, told apart (a 3D figure's layers show which
cells belong to which copy).
"""

from __future__ import annotations

import colorsys
import re
import zlib

RGB = tuple[int, int, int]


def _rgb(text: str) -> RGB:
    return int(text[0:2], 16), int(text[2:4], 16), int(text[4:6], 16)


SAFE_COLOURS: tuple[RGB, ...] = tuple(map(_rgb, (
    "0072b2",  # blue
    "e69f00",  # orange
    "009e73",  # bluish green
    "cc79a7",  # reddish purple
    "f0e442",  # yellow
    "882255",  # wine
    "56b4e9",  # sky blue
    "d55e00",  # vermilion
    "999933",  # olive
    "332288",  # indigo
    "ffaabb",  # pink
    "117733",  # green
)))

# The pentomino letters on the safe colours (the colours the 6x10 box has always had), then
# the other letters, each apart from the letters it meets in a built-in set.
LETTER_COLOURS: dict[str, RGB] = {letter: _rgb(code) for letter, code in (
    ("Z", "0072b2"), ("I", "e69f00"), ("L", "009e73"), ("N", "cc79a7"), ("P", "f0e442"), ("T", "882255"),
    ("U", "56b4e9"), ("V", "d55e00"), ("F", "999933"), ("X", "332288"), ("W", "ffaabb"), ("Y", "117733"),
    ("O", "225555"), ("S", "a50026"), ("J", "dd7788"), ("A", "e7298a"), ("B", "cab2d6"), ("C", "aaddcc"),
    ("E", "33bbee"), ("G", "7570b3"), ("H", "aa4499"), ("Q", "8c564b"), ("D", "cc6677"), ("M", "ddcc77"),
    ("K", "fdbf6f"), ("R", "bbcc33"),
)}
# The mirror images in the one-sided sets (pentominoes, hexiamonds, tetrahexes...).
MIRROR_COLOURS: dict[str, RGB] = {letter: _rgb(code) for letter, code in (
    ("F", "ee3377"), ("G", "666633"), ("H", "1b9e77"), ("I", "c5b0d5"), ("J", "98df8a"), ("L", "9467bd"),
    ("N", "b2df8a"), ("P", "fee08b"), ("S", "843c39"), ("Y", "ee8866"), ("Z", "882200"),
)}
OWN_COLOURS = {**LETTER_COLOURS, **{f"{letter}'": colour for letter, colour in MIRROR_COLOURS.items()}}
PALETTE: tuple[RGB, ...] = tuple(dict.fromkeys(OWN_COLOURS.values()))  # the slots with names of their own
HOME_SLOTS = 64  # a checksum picks one of the first 64 slots: a fixed number, never the set's size
GOLDEN_TURN = 0.381966  # hue steps of the golden angle keep generated colours apart


def extra_colour(k: int) -> RGB:
    """The ``k``-th generated colour (k = 0, 1, ...), around the hue circle."""
    hue = (0.07 + k * GOLDEN_TURN) % 1.0
    lightness = (0.42, 0.62, 0.52)[k % 3]
    r, g, b = colorsys.hls_to_rgb(hue, lightness, 0.65)
    return (round(r * 255), round(g * 255), round(b * 255))


def slot_colour(slot: int) -> RGB:
    """Colour number ``slot``: the safe colours first, then generated ones (for pictures that
    colour numbers, not pieces)."""
    if slot < len(SAFE_COLOURS):
        return SAFE_COLOURS[slot]
    return extra_colour(slot - len(SAFE_COLOURS))


def palette_colour(slot: int) -> RGB:
    """Colour number ``slot`` of the piece palette: the named colours, then generated ones."""
    if slot < len(PALETTE):
        return PALETTE[slot]
    return extra_colour(slot - len(PALETTE))


NUMBERED = re.compile(r"[^\W\d_]+([0-9]+)('*)")  # H07, S012, L1, H02' (a series)
SERIES_DIGITS = 3  # numbers up to 999 in a series (the 108 heptominoes: S001..S108)
SERIES_SLOTS = 2585  # a block a series, > 2 * 999 + 1; 2584 (Fibonacci) golden turns are whole: each
# next block starts another golden turn round the hue circle, so series sharing numbers stand apart


def series_block(prefix: str) -> int:
    """The block of generated colours of the series whose names begin with ``prefix``: one for
    each capital letter (the H hexominoes, the L3 and T3 tristicks, the I2 and V2 disticks), a
    checksum's for longer prefixes; after the checksum names' slots (block 0 holds those)."""
    if len(prefix) == 1 and "A" <= prefix <= "Z":
        return 1 + ord(prefix) - ord("A")
    return 27 + zlib.crc32(prefix.encode("utf-8", "surrogatepass")) % 1000


def home_slot(name: str) -> int:
    """The palette slot a name asks for: its own colour's; for a name in a numbered series
    (``H07``, ``T12'``) a generated colour by its series and number, so no two names of the
    built-in sets meet; for any other name a checksum's."""
    own = OWN_COLOURS.get(name)
    if own is not None:
        return PALETTE.index(own)
    numbered = NUMBERED.fullmatch(name)
    if numbered:
        number = 2 * int(numbered.group(1)[-SERIES_DIGITS:]) + len(numbered.group(2)) % 2
        return len(PALETTE) + SERIES_SLOTS * series_block(name[: numbered.start(1)]) + number
    return zlib.crc32(name.encode("utf-8", "surrogatepass")) % HOME_SLOTS


COPY = re.compile(r"(.+)#([1-9][0-9]*)")


def piece_of(label: str) -> tuple[str, int]:
    """``(piece name, copy number)`` of a label: ``"L#2"`` is the second L; a plain name is
    copy 1."""
    match = COPY.fullmatch(label)
    return (match.group(1), int(match.group(2))) if match else (label, 1)


def piece_colours(names) -> dict[str, RGB]:
    """A colour for each name or label, distinct within the set; see the module's notes."""
    labels = set(names)
    pieces = {piece_of(label)[0] for label in labels}
    own = sorted(name for name in pieces if name in OWN_COLOURS)
    others = sorted(name for name in pieces if name not in OWN_COLOURS)
    taken: set[int] = set()
    colours: dict[str, RGB] = {}
    for name in own + others:  # names with a colour of their own never give it up
        slot = home_slot(name)
        while slot in taken:
            slot += 1
        taken.add(slot)
        colours[name] = palette_colour(slot)
    result = {}
    used = set(colours.values())
    for label in sorted(labels, key=piece_of):
        name, copy = piece_of(label)
        colour = copy_colour(colours[name], copy)
        while copy > 1 and colour in used:  # never two copies alike, however many there are
            colour = shade(colour, 0.97)
        used.add(colour)
        result[label] = colour
    return result


def copy_colour(colour: RGB, copy: int) -> RGB:
    """The colour of copy number ``copy`` (from 1) of a piece whose colour is ``colour``: the
    first has it, the others are turned a little around the hue circle, alternately darker and
    lighter, a little further for each pair of copies."""
    if copy == 1:
        return colour
    h, lightness, s = colorsys.rgb_to_hls(*(v / 255 for v in colour))
    pair = copy // 2  # copies 2 and 3 are the first pair, 4 and 5 the second...
    h = (h + 0.045 * pair * (1 if pair % 2 else -1)) % 1.0
    change = -0.14 if copy % 2 == 0 else 0.14
    if not 0.16 <= lightness + change <= 0.86:
        change = -change
    r, g, b = colorsys.hls_to_rgb(h, lightness + change, max(s, 0.35))
    return (round(r * 255), round(g * 255), round(b * 255))


def solution_colours(pieces, solutions=()) -> dict[str, RGB]:
    """Colours for every piece name and every label the solutions use (``NAME#k`` for the
    k-th copy of a piece: a variation of the piece's colour)."""
    names = {p.name for p in pieces}
    for solution in solutions:
        names.update(solution)
    return piece_colours(names)


def hex_colour(colour: RGB) -> str:
    """``"#rrggbb"``: how SVG, the studio and :meth:`polyfit.Puzzle.colours` write a colour."""
    return "#{:02x}{:02x}{:02x}".format(*colour)


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
