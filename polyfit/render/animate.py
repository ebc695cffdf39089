"""Animated GIFs (pillow): the search at work, and solutions put together piece by piece.

The search (``polyfit solve --animate``): frames come from :func:`polyfit.xc.trace.trace`,
which searches the puzzle's own exact cover problem (symmetry broken, as ``polyfit solve``
searches it) one placement or backtrack at a time. When the search takes more steps than frames
allowed, the GIF shows the last ones, ending on the first solution; each frame is captioned
with its step number.

Solutions (the ``gif`` exporter): each solution starts from its board, pre-placed pieces
already in, and gains one piece a frame in the order one would build it, from the top row down
on a flat board and from the bottom layer up in 3D (the piece whose first cell comes first);
the whole solution stays longer. Several solutions follow one another, each captioned with its
number. A 3D figure is drawn isometric in a frame the size of the whole figure (or layer by
layer), so nothing moves from one frame to the next.
"""

from __future__ import annotations

from collections import deque
from pathlib import Path

from PIL import Image, ImageDraw

from polyfit.lattices.base import only_squares
from polyfit.render import flat, views3d
from polyfit.errors import PolyfitError, plural
from polyfit.files import write_output
from polyfit.render.palette import solution_colours
from polyfit.render.pictures import gif_bytes
from polyfit.render.style import INK, Style, new_image
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
    return captioned(picture, caption, style)


def captioned(picture: Image.Image, caption: str, style: Style) -> Image.Image:
    """The picture with a line of text above it."""
    text_h = flat.caption_height(style)
    image = new_image(picture.width, picture.height + text_h)
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
        images.append(frame_image(puzzle, cells, colours, style, caption))
    if not images:  # no step at all: a piece with nowhere to go
        empty = step_cells(puzzle, ())
        images.append(frame_image(puzzle, empty, colours, style, "no solution: nothing fits"))
    elif not solved:
        images.append(frame_image(puzzle, boards[-1], colours, style, f"no solution: {plural(total, 'step')} searched"))
    durations = [FRAME_MS] * (len(images) - 1) + [LAST_FRAME_MS]
    write_output(path, gif_bytes(images, durations), force)
    return len(images), total, solved


# -- solutions put together -------------------------------------------------------------------

MAX_FRAMES = 2000  # a GIF of more is megabytes and minutes to make: draw fewer solutions
PIECE_MS = 450
FIRST_MS = 800
WHOLE_MS = 2000
BUILD_VIEWS = ("iso", "layers")  # an exploded view has no fixed frame to build in


def build_order(solution: dict, marked) -> list[str]:
    """The labels of a solution in building order: pre-placed pieces first, then each piece by
    its first cell (2D: reading order; 3D: bottom layer first)."""
    return sorted(solution, key=lambda label: (label not in marked, min(tuple(c) for c in solution[label]), label))


def assembly_frames(solutions, style: Style = Style(), view=None) -> tuple[list[Image.Image], list[int]]:
    """The frames of the solutions of a :class:`~polyfit.formats.solution_set.SolutionSet`
    put together, and how long each is shown (ms)."""
    from polyfit.render.pictures import check_view, solution_image

    if not solutions.solutions:
        raise PolyfitError("no solution to draw")
    board_cells = solutions.board_cells
    view = check_view(len(board_cells[0]), view, BUILD_VIEWS)
    frames = sum(len(s) + 1 for s in solutions.solutions)
    if frames > MAX_FRAMES:
        raise PolyfitError(f"the GIF would have {frames} frames, more than {MAX_FRAMES}: draw fewer solutions")
    colours = solution_colours(solutions.pieces, solutions.solutions)
    many = len(solutions.solutions) > 1
    images, durations = [], []
    for number, solution in enumerate(solutions.solutions, 1):
        marked = flat.preplaced(solution, solutions.fixed)
        order = build_order(solution, marked)
        start = sum(1 for label in order if label in marked)
        heading = f"Solution {number}: " if many else ""
        for placed in range(start, len(order) + 1):
            if placed == 0 and view == "iso":
                continue  # an empty 3D figure is a blank frame
            shown = {label: solution[label] for label in order[:placed]}
            if view == "iso":
                cubes = views3d.cubes_of(shown)
                picture = views3d.draw_iso(cubes, colours, style, extent=board_cells, marked=marked)
            else:
                picture = solution_image(board_cells, solutions.pieces, shown, style, None if view == "flat" else view,
                                         colours, solutions.fixed)
            whole = placed == len(order)
            if whole:
                text = "all pieces in place"
            elif placed == start:
                text = f"the board, {plural(start, 'piece')} pre-placed" if start else "the board"
            else:
                text = f"{placed} of {len(order)} pieces"
            images.append(captioned(picture, heading + text, style))
            durations.append(WHOLE_MS if whole else FIRST_MS if placed == start else PIECE_MS)
    return images, durations
