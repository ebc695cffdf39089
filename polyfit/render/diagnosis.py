"""Pictures for ``polyfit check``: a colouring that proves a board impossible, and two solutions
side by side with the cells where they differ marked.

Both draw on :mod:`polyfit.render.flat`; a 3D board is drawn layer by layer (layer ``z`` is the
first coordinate), each layer a flat grid, so that every cell and its weight stay visible.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from polyfit.render import flat
from polyfit.render.palette import luminance, slot_colour
from polyfit.render.pictures import solution_image
from polyfit.render.palette import solution_colours
from polyfit.render.style import BACKGROUND, EMPTY_CELL, INK, Style, font

MARK = (220, 20, 60)  # crimson: the cells where two solutions differ


def _layers(cells) -> dict:
    """``{z: [(row, col), ...]}`` for 3D cells; ``{None: cells}`` for 2D ones."""
    if len(next(iter(cells))) == 2:
        return {None: list(cells)}
    layers: dict = {}
    for z, r, c in cells:
        layers.setdefault(z, []).append((r, c))
    return dict(sorted(layers.items()))


def weights_image(weights: dict, prime: int, style: Style = Style()) -> Image.Image:
    """Every cell coloured by its weight mod ``prime`` and, when the prime is small, the weight
    written in it (weight 0 stays pale)."""
    style = Style(style.cell, style.margin, labels=False)  # a number in every cell instead
    values = sorted(set(weights.values()))
    colours = {str(w): (EMPTY_CELL if w == 0 else slot_colour(k)) for k, w in enumerate(values)}
    layers = _layers(weights)
    box = flat.bounds([c for layer in layers.values() for c in layer])
    tiles, captions = [], []
    for z, layer in layers.items():
        labels = {rc: str(weights[rc if z is None else (z, *rc)]) for rc in layer}
        image = flat.draw_grid(labels, colours, style, box)
        if prime < 100:
            draw = ImageDraw.Draw(image)
            size = max(7, round(style.cell * 0.45))
            for rc, text in labels.items():
                x, y = flat.cell_origin(rc, box, style)
                ink = INK if luminance(colours[text]) > 0.3 else BACKGROUND
                draw.text((x + style.cell / 2, y + style.cell / 2), text, fill=ink, font=font(size), anchor="mm")
        tiles.append(image)
        captions.append("" if z is None else f"layer {z}")
    if len(tiles) == 1:
        return tiles[0]
    return flat.sheet(tiles, captions, style, columns=len(tiles))


def differing_cells(first: dict, second: dict) -> set:
    """The cells covered by a different placement (piece and cells) in the two solutions."""
    def owner(solution):
        return {tuple(c): (name.partition("#")[0], tuple(map(tuple, cells)))
                for name, cells in solution.items() for c in cells}

    a, b = owner(first), owner(second)
    return {c for c in a if a[c] != b.get(c)}


def witnesses_image(board_cells, pieces, first: dict, second: dict, style: Style = Style()) -> Image.Image:
    """Two solutions ``{label: cells}`` side by side; on a 2D board, a frame inside each cell
    where they differ."""
    colours = solution_colours(pieces, [first, second])
    tiles = [solution_image(board_cells, pieces, s, style, None, colours) for s in (first, second)]
    if len(board_cells[0]) == 2:
        box = flat.bounds(board_cells)
        inset, width = style.border, max(2, style.cell // 10)
        for tile in tiles:
            draw = ImageDraw.Draw(tile)
            for cell in differing_cells(first, second):
                x, y = flat.cell_origin(cell, box, style)
                draw.rectangle((x + inset, y + inset, x + style.cell - 1 - inset, y + style.cell - 1 - inset),
                               outline=MARK, width=width)
    return flat.sheet(tiles, ["Solution 1", "Solution 2"], style, columns=2)
