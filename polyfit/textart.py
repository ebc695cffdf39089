"""Solutions drawn as text: every cell shows the name of the piece covering it."""

from __future__ import annotations


def draw_cells(labels: dict, empty: str = " ") -> str:
    """Draw ``{cell: label}`` as text art; 3D cells are drawn as layers, bottom (z = 0) first."""
    if not labels:
        return ""
    width = max(len(label) for label in labels.values())
    sep = "" if width == 1 else " "
    dim = len(next(iter(labels)))
    if dim == 2:
        return _draw_layer(labels, width, sep, empty)
    empty = "." if empty == " " else empty  # in a layer, a blank would hide where cells are not
    layers = sorted({c[0] for c in labels})
    rows = [c[1] for c in labels]
    cols = [c[2] for c in labels]
    box = (min(rows), max(rows), min(cols), max(cols))
    parts = []
    for z in layers:
        layer = {c[1:]: label for c, label in labels.items() if c[0] == z}
        parts.append(f"z={z}\n" + _draw_layer(layer, width, sep, empty, box))
    return "\n\n".join(parts)


def _draw_layer(labels, width, sep, empty, box=None) -> str:
    if box is None:
        rows = [c[0] for c in labels]
        cols = [c[1] for c in labels]
        box = (min(rows), max(rows), min(cols), max(cols))
    r0, r1, c0, c1 = box
    lines = []
    for r in range(r0, r1 + 1):
        line = sep.join(labels.get((r, c), empty).ljust(width) for c in range(c0, c1 + 1))
        lines.append(line.rstrip())
    return "\n".join(lines)


def draw_solution(pieces, placements, names=None, empty_cells=()) -> str:
    """Draw a solution given as placements (objects with ``piece`` index and ``cells``).

    ``names`` label each placement (default: its piece's name); ``empty_cells`` are board
    cells left empty (optional ones), drawn as ``+``."""
    labels = {cell: "+" for cell in empty_cells}
    for k, placement in enumerate(placements):
        name = names[k] if names is not None else pieces[placement.piece].name
        for cell in placement.cells:
            labels[cell] = name
    return draw_cells(labels)
