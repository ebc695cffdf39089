"""A printable puzzle sheet (PDF, drawn with reportlab): the puzzle, its pieces, its solutions.

Page 1 is the puzzle at true size: the empty board (pre-placed pieces drawn in and hatched)
and every piece to cut out, ``unit`` millimetres a cell, each in its colour with its name.
For a 3D figure it is the figure's layers, bottom first, at true size (a plan to build on
with cubes of that size), and its pieces drawn isometric. Pieces that do not fit go on to the
next page. Then the solutions, scaled to fit (3D figures layer by layer), as many pages as
they need.

The pages are laid out as :mod:`polyfit.render.scene` shapes in millimetres, the same shapes
the SVG writer draws; this module only paints them with reportlab's canvas, which puts no
transformation between a shape and the page: a point ``x`` mm from the left is at ``x * 72 /
25.4`` points.
"""

from __future__ import annotations

import io
import math
from dataclasses import dataclass

from polyfit.lattices.base import only_squares
from polyfit.errors import PolyfitError, install_hint, plural
from polyfit.render import cut, flat, scene as layout, views3d
from polyfit.render.palette import solution_colours
from polyfit.render.scene import Hatch, Measures, Polygon, Scene, Segments, Text, Tile

PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}  # mm
MARGIN = 12.0  # mm around each page
GAP = 4.0  # mm between pieces (and between solutions)
TITLE = 5.0  # mm: the page title's size
NOTE = 3.2  # mm: text under the title
SMALLEST_CELL = 3.0  # mm: solutions are not drawn smaller than this; they take more pages
POINT = 72 / 25.4  # points per millimetre
EVEN_ODD = 0  # reportlab's FILL_EVEN_ODD: holes stay holes


def measures(cell: float, labels: bool = True) -> Measures:
    return Measures(cell=cell, pad=0.0, border=0.5, thin=0.15, caption=3.5, labels=labels)


@dataclass
class Page:
    scene: Scene
    y: float  # where the next row goes, mm from the top
    used: bool = False  # holds more than its heading


class Pages:
    """Pages filled from the top down, things packed by :func:`polyfit.render.cut.pack`."""

    def __init__(self, paper: str, title: str):
        self.paper = paper
        self.size = PAPERS[paper]
        self.title = title
        self.pages: list[Page] = []

    def new_page(self, heading: str, note: str = "") -> Page:
        items = [Text(self.size[0] / 2, MARGIN + TITLE / 2, heading, TITLE, kind="title")]
        y = MARGIN + TITLE * 1.2
        if note:
            items.append(Text(self.size[0] / 2, y + NOTE, note, NOTE, kind="note"))
            y += NOTE * 2
        page = Page(Scene(self.size[0], self.size[1], items, "mm"), y)
        self.pages.append(page)
        return page

    def check(self, forms: list[Tile]) -> None:
        """Refuse a thing none of whose forms fits on a page."""
        width = self.size[0] - 2 * MARGIN
        height = self.size[1] - 2 * MARGIN - TITLE * 1.2 - NOTE * 2 - GAP
        if all(tile.width > width or tile.height > height for tile in forms):
            tile = forms[0]
            raise PolyfitError(
                f"{self.title}: a part of the sheet is {tile.width:.0f} x {tile.height:.0f} mm, but a page "
                f"holds {width:.0f} x {height:.0f} mm: use a smaller unit"
            )

    def flow(self, items: list[list[Tile]], heading: str, page: Page | None = None, note: str = "",
             continued: str = "", draw: bool = True) -> Page:
        """Place the items below what ``page`` holds (on a new page when None), each in the
        one of its forms (a piece, the piece turned) that packs highest, as high and then as far
        left as it goes; what does not fit goes on to new pages headed ``continued`` (else
        ``heading``)."""
        if page is None:
            page = self.new_page(heading, note)
        for forms in items:
            self.check(forms)
        left = list(items)
        while left:
            top = page.y + GAP
            area = (self.size[0] - 2 * MARGIN, self.size[1] - MARGIN - top)
            places = cut.pack([[(t.width, t.height) for t in forms] for forms in left], *area, GAP)
            if all(place is None for place in places):
                if not page.used:  # not even on an empty page (the check should have said so)
                    raise PolyfitError(f"{self.title}: the sheet does not fit the page: use a smaller unit")
                page = self.new_page(continued or heading)
                continue
            bottom = page.y
            for forms, place in zip(left, places):
                if place is not None:
                    choice, x, y = place
                    tile = forms[choice]
                    if draw:
                        page.scene.items.extend(tile.draw((MARGIN + x, top + y)))
                    bottom = max(bottom, top + y + tile.height)
            page.y = bottom
            page.used = True
            left = [forms for forms, place in zip(left, places) if place is None]
            if left:
                page = self.new_page(continued or heading)
        return page


def largest_first(shapes: list) -> list:
    return sorted(shapes, key=lambda shape: -len(shape[1]))


def board_tiles(board_cells, start: dict, colours: dict, m: Measures, marked=frozenset()) -> list[list[Tile]]:
    """The empty board with the pre-placed pieces ``start`` drawn in: for a 2D board, the
    board as it is and turned a quarter (to fit the page); for a 3D figure, each layer
    (captioned) as it is."""
    if len(board_cells[0]) == 2:
        labels = flat.solution_labels(board_cells, start)
        turned = {(c, -r): name for (r, c), name in labels.items()}
        return [[layout.grid_tile(grid, colours, m, marked=marked) for grid in (labels, turned)]]
    box, grids = views3d.layer_labels(board_cells, views3d.cubes_of(start))
    return [[layout.sheet([layout.grid_tile(labels, colours, m, box, backdrop=True, marked=marked)], [caption], m)]
            for caption, labels in grids]


def check_fits(board_cells, unit: float, paper: str = "a4", title: str = "the board") -> None:
    """Refuse, before any work, a board (or layer) too big for the page at ``unit``."""
    pages = Pages(paper, title)
    for forms in board_tiles(board_cells, {}, {}, measures(unit)):
        pages.check(forms)


def fitting_unit(board_cells, most: float, paper: str = "a4", title: str = "the board") -> float:
    """The largest whole number of millimetres up to ``most`` at which the board (or each
    layer) fits the page; at least :data:`SMALLEST_CELL`."""
    unit = float(most)
    while True:
        try:
            check_fits(board_cells, unit, paper, title)
            return unit
        except PolyfitError:
            if math.floor(unit - 1) < SMALLEST_CELL:
                raise
            unit = float(math.ceil(unit) - 1)


def puzzle_pages(pages: Pages, solution_set, colours: dict, unit: float) -> None:
    """Page 1: the puzzle at true size, and its pieces."""
    board_cells = solution_set.board_cells
    first = solution_set.solutions[0]
    marked = flat.preplaced(first, solution_set.fixed)
    start = {name: first[name] for name in marked}  # the pre-placed pieces, drawn in
    m = measures(unit)
    shapes = cut.shapes(solution_set.pieces, cut.copies_used(first))  # as many as the first solution uses
    count = plural(len(shapes), "piece")
    board = board_tiles(board_cells, start, colours, m, marked)
    if len(board_cells[0]) == 2:
        note = f"True size: {unit:g} mm a cell. Cut out the {count} and fill the board."
        pieces = [[layout.grid_tile({tuple(c): name for c in form}, colours, m) for form in (cells, cut.turned(cells))]
                  for name, cells in largest_first(shapes)]
        pages.flow(board + pieces, solution_set.board, note=note, continued="Pieces (continued)")
        return
    note = f"Layer by layer, bottom first, true size: {unit:g} mm a cube. The {count} below."
    page = pages.flow(board, solution_set.board, note=note)
    small = measures(min(unit, 8.0))
    tiles = [[layout.sheet([layout.iso_tile({tuple(c): name for c in cells}, colours, small)], [name], small)]
             for name, cells in shapes]
    pages.flow(tiles, "", page, continued="Pieces (continued)")


def solution_pages(pages: Pages, solution_set, colours: dict, unit: float) -> None:
    """The solutions, as large as fits (at most true size), on as few pages as that allows."""
    solutions = solution_set.solutions
    heading = "Solution" if len(solutions) == 1 else f"Solutions 1 to {len(solutions)}"
    view = "layers" if len(solution_set.board_cells[0]) == 3 else None
    cell = unit
    while True:
        m = measures(cell, labels=cell >= 6)
        tiles = []
        for k, solution in enumerate(solutions, start=1):
            marked = flat.preplaced(solution, solution_set.fixed)
            tile = layout.solution_tile(solution_set.board_cells, solution, colours, m, view, marked)
            tiles.append([layout.sheet([tile], [f"Solution {k}" if len(solutions) > 1 else ""], m)])
        if cell * 0.9 < SMALLEST_CELL:
            break
        trial = Pages(pages.paper, pages.title)
        try:
            trial.flow(tiles, heading, draw=False)
        except PolyfitError:  # too big at this size
            trial.pages.append(None)
        if len(trial.pages) == 1:
            break
        cell *= 0.9
    pages.flow(tiles, heading, continued=heading + " (continued)")


def sheet_pages(solution_set, unit: float = 15.0, paper: str = "a4") -> list[Scene]:
    """The pages of the sheet, as scenes in millimetres."""
    if not solution_set.solutions:
        raise PolyfitError("no solution was found, so there is no sheet to print")
    if paper not in PAPERS:
        raise PolyfitError(f"unknown paper {paper!r}; choose one of {', '.join(PAPERS)}")
    cut.check_sizes(unit, 0.0)
    pages = Pages(paper, solution_set.board)
    colours = solution_colours(solution_set.pieces, solution_set.solutions)
    puzzle_pages(pages, solution_set, colours, unit)
    solution_pages(pages, solution_set, colours, unit)
    return [page.scene for page in pages.pages]


def reportlab_canvas():
    try:
        from reportlab.pdfgen import canvas
    except ImportError:
        raise PolyfitError(
            f"a PDF sheet needs reportlab, which is not installed: {install_hint('pdf', 'reportlab')}"
        ) from None
    return canvas


def paint(pdf, page: Scene) -> None:
    height = page.height

    def xy(p):
        return p[0] * POINT, (height - p[1]) * POINT

    def outline_path(loops):
        path = pdf.beginPath()
        for loop in loops:
            path.moveTo(*xy(loop[0]))
            for p in loop[1:]:
                path.lineTo(*xy(p))
            path.close()
        return path

    for item in page.items:
        if isinstance(item, Polygon):
            if item.fill:
                pdf.setFillColorRGB(*(v / 255 for v in item.fill))
            if item.stroke:
                pdf.setStrokeColorRGB(*(v / 255 for v in item.stroke))
                pdf.setLineWidth(item.width * POINT)
                pdf.setLineJoin(0)
            pdf.drawPath(outline_path(item.loops), stroke=int(bool(item.stroke)), fill=int(bool(item.fill)),
                         fillMode=EVEN_ODD)
        elif isinstance(item, Segments):
            pdf.setStrokeColorRGB(*(v / 255 for v in item.colour))
            pdf.setLineWidth(item.width * POINT)
            pdf.setLineCap(1 if item.round else 2)
            pdf.lines([(*xy(a), *xy(b)) for a, b in item.segments])
        elif isinstance(item, Hatch):
            pdf.saveState()
            pdf.clipPath(outline_path(item.loops), stroke=0, fill=0, fillMode=EVEN_ODD)
            points = [p for loop in item.loops for p in loop]
            pdf.setStrokeColorRGB(*(v / 255 for v in item.colour))
            pdf.setLineWidth(item.width * POINT)
            lines = flat.hatch_lines([(min(x for x, _ in points), min(y for _, y in points)),
                                      (max(x for x, _ in points), min(y for _, y in points)),
                                      (max(x for x, _ in points), max(y for _, y in points)),
                                      (min(x for x, _ in points), max(y for _, y in points))], item.spacing)
            pdf.lines([(*xy((x0, y0)), *xy((x1, y1))) for x0, y0, x1, y1 in lines])
            pdf.restoreState()
        elif isinstance(item, Text):
            font = "Helvetica-Bold" if item.kind == "title" else "Helvetica"
            pdf.setFillColorRGB(*(v / 255 for v in item.colour))
            pdf.setFont(font, item.size * POINT)
            x, y = xy((item.x, item.y + item.size * 0.35))  # centred on y, like the SVG
            pdf.drawCentredString(x, y, item.text)


def sheet_pdf(solution_set, unit: float = 15.0, paper: str = "a4") -> tuple[bytes, int]:
    """The sheet as a PDF file's bytes, and its number of pages."""
    only_squares(solution_set.pieces, "a PDF puzzle sheet")
    canvas = reportlab_canvas()
    pages = sheet_pages(solution_set, unit, paper)
    data = io.BytesIO()
    pdf = canvas.Canvas(data, pagesize=(pages[0].width * POINT, pages[0].height * POINT), invariant=1,
                        pageCompression=1)
    pdf.setTitle(f"{solution_set.board}: puzzle and solutions")
    pdf.setCreator("polyfit")
    for page in pages:
        paint(pdf, page)
        pdf.showPage()
    pdf.save()
    return data.getvalue(), len(pages)
