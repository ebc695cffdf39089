"""Watching an assembly come apart: its moves as an animated GIF (pillow), pieces sliding.

The solution is drawn in the isometric view, in the palette's colours; each move slides its
pieces a unit in a few frames, a removed set goes on sliding a little past where it is free
and stays there, and each frame is captioned with the move. The canvas fits every place a
piece reaches, so the picture does not jump.
"""

from __future__ import annotations

import io
from pathlib import Path

from PIL import Image, ImageDraw

from polyfit.errors import PolyfitError
from polyfit.files import write_output
from polyfit.render import flat, views3d
from polyfit.render.palette import solution_colours
from polyfit.render.pictures import compact
from polyfit.render.style import BACKGROUND, INK, Style

FRAMES_PER_UNIT = 2
PAST_FREE = 2  # units a removed set slides on past where it is free, more for each later one
FRAME_MS = 90
HOLD_MS = 1500


def _world(vector) -> tuple:
    z, row, col = vector
    return (col, row, z)


def keyframes(solution: dict, moves: list) -> list[tuple[dict, str]]:
    """The offsets of each piece (world vectors) frame by frame, with captions."""
    offset = {label: (0.0, 0.0, 0.0) for label in solution}
    frames = [(dict(offset), "assembled")]
    removals = 0
    for number, move in enumerate(moves, 1):
        by = list(move["by"])
        length = max(abs(v) for v in by)
        if move["removed"]:
            unit = [v / length for v in by]
            removals += 1
            length += PAST_FREE * removals  # so that sets taken out the same way stay apart
            by = [u * length for u in unit]
        caption = f"move {number}/{len(moves)}: {', '.join(move['pieces'])}" + (" out" if move["removed"] else "")
        step = _world(by)
        start = {label: offset[label] for label in move["pieces"]}
        count = max(1, round(length * FRAMES_PER_UNIT))
        for k in range(1, count + 1):
            for label in move["pieces"]:
                offset[label] = tuple(s + d * k / count for s, d in zip(start[label], step))
            frames.append((dict(offset), caption))
    return frames


def disassembly_gif(solution: dict, moves: list, pieces, style: Style = Style()) -> tuple[bytes, int]:
    """The GIF of ``moves`` (as ``Solution.disassemble().moves`` gives them) taking apart
    ``solution`` (``{label: cells}``, 3D); returns (bytes, frames)."""
    if any(len(c) != 3 for cells in solution.values() for c in cells):
        raise PolyfitError("disassembly animations are drawn for 3D puzzles (cubes)")
    cubes = {tuple(c): label for label, cells in solution.items() for c in cells}
    colours = solution_colours(pieces, [set(solution)])
    frames = keyframes(solution, moves)
    # the canvas: every cube at every whole step (the frames between lie inside)
    extent = set()
    for offsets, _ in frames:
        for cell, label in cubes.items():
            dx, dy, dz = offsets[label]
            extent.add((cell[0] + round(dz), cell[1] + round(dy), cell[2] + round(dx)))
    text_h = flat.caption_height(style)
    font = flat.font(round(max(12, style.cell * 0.45)))
    images = []
    for offsets, caption in frames:
        picture = views3d.draw_iso(cubes, colours, style, offsets=offsets, extent=sorted(extent))
        image = Image.new("RGB", (picture.width, picture.height + text_h), BACKGROUND)
        image.paste(picture, (0, text_h))
        ImageDraw.Draw(image).text((image.width / 2, text_h * 0.6), caption, fill=INK, font=font, anchor="mm")
        images.append(compact(image))
    durations = [HOLD_MS] + [FRAME_MS] * (len(images) - 2) + [HOLD_MS] if len(images) > 1 else [HOLD_MS]
    data = io.BytesIO()
    images[0].save(data, format="GIF", save_all=True, append_images=images[1:], duration=durations, loop=0,
                   optimize=False, disposal=1)
    return data.getvalue(), len(images)


def animate_disassembly(path: Path, solution: dict, moves: list, pieces, style: Style = Style(),
                        force: bool = False) -> int:
    """Write the GIF (over an existing file only with ``force``); returns the frames written."""
    data, count = disassembly_gif(solution, moves, pieces, style)
    write_output(path, data, force)
    return count
