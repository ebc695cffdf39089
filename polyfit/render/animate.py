"""Watching the search: the partial boards it visits, as an animated GIF (pillow).

Frames come from :func:`polyfit.xc.trace.trace`, which searches the puzzle's own exact
cover problem (symmetry broken, as ``polyfit solve`` searches it) one placement or backtrack at
a time. When the search takes more steps than frames allowed, the GIF shows the last ones,
ending on the first solution; each frame is captioned with its step number.
"""

from __future__ import annotations

import io
from collections import deque
from pathlib import Path

from PIL import Image, ImageDraw

from polyfit.lattices.base import only_squares
from polyfit.render import flat, views3d
from polyfit.errors import PolyfitError, plural
from polyfit.files import write_output
from polyfit.render.palette import solution_colours
from polyfit.render.pictures import compact
from polyfit.render.style import INK, BACKGROUND, Style
from polyfit.xc.trace import trace

MAX_SEARCH_STEPS = 1_000_000  # beyond this the trace (plain Python sets) takes minutes
FRAME_MS = 150
LAST_FRAME_MS = 2500


def check_animatable(puzzle) -> None:
    """The step tracer follows plain exact cover (secondary items included); piece counts and
    colours need the backends' Algorithms M and C, which it does not imitate."""
    only_squares([puzzle.board], "--animate")
    needs = puzzle.cover.problem.needs - {"secondary"}
    if needs:
        raise PolyfitError(
            f"--animate follows plain exact cover searches; this puzzle needs {', '.join(sorted(needs))}"
        )


def search_steps(puzzle, frames: int, max_steps: int = MAX_SEARCH_STEPS):
    """The last ``frames`` steps up to the first solution, the number of steps taken, and
    whether a solution was reached."""
    if frames < 1:
        raise PolyfitError("--steps must be at least 1")
    check_animatable(puzzle)
    kept = deque(maxlen=frames)
    count = 0
    solved = False
    for step in trace(puzzle.cover.problem):
        if step.kind == "solution":
            solved = True
            break
        count += 1
        kept.append((count, step))
        if count >= max_steps:
            raise PolyfitError(
                f"the search takes more than {plural(max_steps, 'step', spec=',')} before its first solution; "
                "too many to animate"
            )
    if solved and kept:
        # The last placement completed the board: its frame becomes the solution frame.
        kept[-1] = (count, step)
    elif solved:
        kept.append((0, step))  # nothing to place: the board is already covered
    return list(kept), count, solved


def step_cells(puzzle, chosen) -> dict:
    """``{cell: label}`` for the placements on the board, pre-placed pieces included; copies
    of one piece are labelled ``NAME#k`` as in printed solutions."""
    cover = puzzle.cover
    placements = [cover.option_placement[option] for option in chosen] + list(cover.fixed)
    cells = {}
    for label, index in zip(puzzle.labels(placements), placements):
        for cell in puzzle.placements[index].cells:
            cells[cell] = label
    return cells


def caption_for(puzzle, number, step, total, solved) -> str:
    if step.kind == "solution":
        return f"solution after {plural(total, 'step')}"
    placement = puzzle.placements[puzzle.cover.option_placement[step.option]]
    name = puzzle.pieces[placement.piece].name
    verb = "place" if step.kind == "place" else "take back"
    return f"step {number}/{total}: {verb} {name}"


def frame_image(puzzle, cells: dict, colours, style: Style, caption: str) -> Image.Image:
    board = puzzle.board
    if board.dim == 2:
        labels = {c: cells.get(c) for c in board.cells}
        picture = flat.draw_grid(labels, colours, style)
    else:
        picture = views3d.draw_iso(cells, colours, style, extent=board.cells)
    text_h = flat.caption_height(style)
    image = Image.new("RGB", (picture.width, picture.height + text_h), BACKGROUND)
    image.paste(picture, (0, text_h))
    font = flat.font(round(max(12, style.cell * 0.45)))
    ImageDraw.Draw(image).text((image.width / 2, text_h * 0.6), caption, fill=INK, font=font, anchor="mm")
    return image


def animate(puzzle, path: Path, frames: int = 200, style: Style = Style(),
            force: bool = False) -> tuple[int, int, bool]:
    """Write the GIF (over an existing file only with ``force``); returns (frames written,
    steps searched, solved)."""
    steps, total, solved = search_steps(puzzle, frames)
    boards = [step_cells(puzzle, step.chosen) for _, step in steps]
    colours = solution_colours(puzzle.pieces, [set(b.values()) for b in boards])
    images = []
    for (number, step), cells in zip(steps, boards):
        caption = caption_for(puzzle, number, step, total, solved)
        images.append(compact(frame_image(puzzle, cells, colours, style, caption)))
    if not images:  # no step at all: a piece with nowhere to go
        empty = step_cells(puzzle, ())
        images.append(compact(frame_image(puzzle, empty, colours, style, "no solution: nothing fits")))
    elif not solved:
        last = frame_image(puzzle, boards[-1], colours, style,
                           f"no solution: {plural(total, 'step')} searched")
        images.append(compact(last))
    durations = [FRAME_MS] * (len(images) - 1) + [LAST_FRAME_MS]
    data = io.BytesIO()
    images[0].save(data, format="GIF", save_all=True, append_images=images[1:],
                   duration=durations, loop=0, optimize=False, disposal=1)
    write_output(path, data.getvalue(), force)
    return len(images), total, solved
