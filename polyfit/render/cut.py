"""Pieces laid out apart, true size in millimetres: for a laser cutter and the printed sheet.

Each piece is one closed path: the outline of its cells (:mod:`polyfit.render.outline`) scaled
to ``unit`` millimetres a cell and grown by half the ``kerf`` (the width of material the beam
burns away), so that the pieces come out their true size. Pieces stand ``SPACING`` mm apart,
so no two share an edge: the cutter cuts every line once, each piece in one go, and nothing
falls out before its outline is finished. A piece with a hole has a second loop in its path.
"""

from __future__ import annotations

import math
from collections import Counter

from polyfit.errors import PolyfitError
from polyfit.render.outline import offset, outline
from polyfit.render.style import check_millimetres

SPACING = 3.0  # mm between the outlines of neighbouring pieces
MARGIN = 5.0  # mm around the layout
CUT_STROKE = 0.1  # mm: a hairline, which cutters read as "cut here"


def piece_loops(cells, unit: float, kerf: float = 0.0) -> list[list[tuple[float, float]]]:
    """The outline of a 2D piece's cells in millimetres, grown by half the kerf, moved so its
    bounding box starts at (0, 0)."""
    loops = [offset([(x * unit, y * unit) for x, y in loop], kerf / 2) for loop in outline(cells)]
    left = min(x for loop in loops for x, _ in loop)
    top = min(y for loop in loops for _, y in loop)
    return [[(x - left, y - top) for x, y in loop] for loop in loops]


def copies_used(solution: dict) -> Counter:
    """How many copies of each piece a solution uses (its labels are ``NAME`` or ``NAME#k``)."""
    return Counter(label.rpartition("#")[0] or label for label in solution)


def shapes(pieces, copies=None) -> list[tuple[str, tuple]]:
    """``(label, cells)`` for each piece to make: ``copies[name]`` of each (default: its
    smallest count, at least one), copies labelled ``NAME#k`` as in solutions."""
    made = []
    for piece in pieces:
        n = copies.get(piece.name, 0) if copies is not None else max(1, getattr(piece, "count", (1, 1))[0])
        made.extend((piece.name if n == 1 else f"{piece.name}#{k}", piece.cells) for k in range(1, n + 1))
    return made


def check_sizes(unit: float, kerf: float) -> None:
    if not unit > 0 or not math.isfinite(unit):
        raise PolyfitError(f"unit (a cell's edge) must be a positive number of millimetres, not {unit:g}")
    if not 0 <= kerf < unit:
        raise PolyfitError(f"kerf must be at least 0 and less than the cell (unit {unit:g} mm), not {kerf:g}")
    check_millimetres("--unit", unit)  # and no more than a sheet can hold


def pack(items: list[list[tuple[float, float]]], width: float, height: float = math.inf,
         gap: float = SPACING, taken=()) -> list:
    """Places for boxes in a ``width`` x ``height`` area, ``gap`` apart, each as low and then
    as far left as it goes (the bottom-left rule, from the top of the page down), in the given
    order. Each item lists the sizes it may take (a piece and the piece turned a quarter); its
    place is ``(choice, x, y)``, or None when it does not fit. ``taken``: boxes ``(x, y, w,
    h)`` already there."""
    boxes = list(taken)
    places = []
    for sizes in items:
        best = None
        xs = sorted({0.0} | {x + w + gap for x, _, w, _ in boxes})
        ys = sorted({0.0} | {y + h + gap for _, y, _, h in boxes})
        for choice, (w, h) in enumerate(sizes):
            for y in ys:
                if best is not None and y + h >= best[0][0]:
                    break
                if y + h > height:
                    break
                spot = next((x for x in xs if x + w <= width and free(boxes, x, y, w, h, gap)), None)
                if spot is not None:
                    best = ((y + h, spot), (choice, spot, y))
                    break
        places.append(None if best is None else best[1])
        if best is not None:
            choice, x, y = best[1]
            boxes.append((x, y, *sizes[choice]))
    return places


def free(boxes, x, y, w, h, gap) -> bool:
    return all(x >= bx + bw + gap or bx >= x + w + gap or y >= by + bh + gap or by >= y + h + gap
               for bx, by, bw, bh in boxes)


def turned(cells) -> tuple:
    """2D cells turned a quarter (a rotation, never a reflection: one-sided pieces stay so)."""
    return tuple(sorted((c, -r) for r, c in cells))


def layout(shapes: list[tuple[str, tuple]], unit: float, kerf: float = 0.0):
    """``(width, height, [(name, loops placed in mm)])`` for the pieces ``[(name, cells)]``,
    packed into a roughly square sheet, largest first, each piece as it is or turned a
    quarter, whichever packs better."""
    check_sizes(unit, kerf)
    choices = [(name, forms(cells, unit, kerf)) for name, cells in shapes]
    sizes = [[extent(loops) for loops in options] for _, options in choices]
    area = sum((w + SPACING) * (h + SPACING) for (w, h), _ in sizes)
    width = max(max(min(w, h) for (w, h), _ in sizes), math.sqrt(area) * 1.2)
    order = sorted(range(len(shapes)), key=lambda k: (-len(shapes[k][1]), k))
    places = pack([sizes[k] for k in order], width)
    placed = [None] * len(shapes)
    for k, (choice, x, y) in zip(order, places):
        name, options = choices[k]
        placed[k] = (name, [[(MARGIN + x + px, MARGIN + y + py) for px, py in loop] for loop in options[choice]],
                     (x, y, *sizes[k][choice]))
    right = max(x + w for _, _, (x, _, w, _) in placed)
    bottom = max(y + h for _, _, (_, y, _, h) in placed)
    return right + 2 * MARGIN, bottom + 2 * MARGIN, [(name, loops) for name, loops, _ in placed]


def forms(cells, unit: float, kerf: float) -> list:
    """A piece's outline in millimetres as it is and turned a quarter: from its square cells,
    or from the shape itself when it is not made of squares (polysticks and polytwigs:
    :class:`polyfit.render.stick_cut.StickShape`)."""
    if hasattr(cells, "forms"):
        return cells.forms(unit, kerf)
    return [piece_loops(cells, unit, kerf), piece_loops(turned(cells), unit, kerf)]


def extent(loops) -> tuple[float, float]:
    return max(x for loop in loops for x, _ in loop), max(y for loop in loops for _, y in loop)
