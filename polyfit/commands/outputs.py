"""Pictures and models asked for on the command line (``--png``, ``--svg``, ``--pdf``, ``--stl DIR``,
``--glb`` ...).

``polyfit solve`` and ``polyfit render`` share these options. Every output path is checked
before any work is done, so a bad path fails fast, and an existing file is only replaced with
``--force``: checked again as each file is written, so a file that appeared during the search
is not replaced either.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Optional

import typer

from polyfit.errors import PolyfitError, plural
from polyfit.formats.solution_set import SolutionSet
from polyfit.files import check_writable

if TYPE_CHECKING:  # imported where used: models need numpy and trimesh, pictures do not
    from polyfit.render.meshes import Sizes
    from polyfit.render.style import Style


@dataclass
class Outputs:
    png: Optional[Path] = None
    view: Optional[str] = None
    cell: int = 32
    margin: int = 16
    labels: bool = False
    stl: Optional[Path] = None
    glb: Optional[Path] = None
    threemf: Optional[Path] = None
    obj: Optional[Path] = None
    unit: Optional[float] = None  # mm; None: the default (a --pdf sheet: the largest that fits)
    gap: float = 0.2
    force: bool = False
    svg: Optional[Path] = None
    cut: bool = False
    kerf: float = 0.0
    pdf: Optional[Path] = None
    paper: str = "a4"
    sheet_unit: Optional[float] = None  # the --pdf cell edge chosen to fit the page

    @property
    def models(self) -> dict:
        return {k: p for k, p in (("glb", self.glb), ("3mf", self.threemf), ("obj", self.obj)) if p}

    @property
    def wanted(self) -> bool:
        return bool(self.png or self.svg or self.pdf or self.stl or self.models)

    def style(self) -> Style:
        from polyfit.render.style import Style

        try:
            return Style(cell=self.cell, margin=self.margin, labels=self.labels)
        except ValueError as exc:
            raise PolyfitError(str(exc)) from None

    def sizes(self) -> Sizes:
        from polyfit.render.meshes import Sizes

        return Sizes(unit=self.mm, gap=self.gap)

    @property
    def mm(self) -> float:
        """The cell edge for models and cut files."""
        return DEFAULT_UNIT if self.unit is None else self.unit

    @property
    def modifiers(self) -> bool:
        """Options that change how a picture is made: an error without the picture."""
        return bool(self.cut or self.kerf or self.view is not None)

    def check(self, dim: int, piece_names, board_cells=None, title: str = "the board") -> None:
        """Fail before searching: bad options, unwritable paths, files that exist, a board
        too big for the --pdf page."""
        from polyfit.formats.models import check_stl_directory
        from polyfit.render.pictures import check_view

        self.style()
        if self.stl or self.models:  # Sizes lives with the meshes: numpy and trimesh
            self.sizes()
        self.check_vector(dim)
        if self.pdf and board_cells is not None:
            from polyfit.render.sheet import check_fits, fitting_unit

            if self.unit is None:
                self.sheet_unit = fitting_unit(board_cells, DEFAULT_UNIT, self.paper, title)
            else:
                check_fits(board_cells, self.unit, self.paper, title)
        if self.png:
            check_view(dim, self.view)
            check_writable(self.png, self.force)
        elif self.view is not None and not (self.svg and not self.cut):
            raise PolyfitError("--view chooses how --png or --svg draws a 3D board; add --png FILE or --svg FILE")
        for kind, path in self.models.items():
            check_writable(path, self.force)
        if self.stl:
            check_stl_directory(self.stl, piece_names, self.force)

    def check_vector(self, dim: int) -> None:
        """--svg, --cut, --kerf, --pdf and --paper: consistent, and their files writable."""
        from polyfit.render.cut import check_sizes
        from polyfit.render.pictures import check_view

        if self.cut and not self.svg:
            raise PolyfitError("--cut makes the --svg file a laser-cutting file; add --svg FILE")
        if self.kerf and not self.cut:
            raise PolyfitError("--kerf sets the laser's kerf for --cut; add --svg FILE --cut")
        if self.svg:
            if self.cut:
                if dim != 2:
                    raise PolyfitError("--cut draws flat pieces for a laser cutter; these are 3D (--stl makes printable solids)")
                check_sizes(self.mm, self.kerf)
            else:
                check_view(dim, self.view)
            check_writable(self.svg, self.force)
        if self.pdf:
            from polyfit.render.sheet import PAPERS, reportlab_canvas

            reportlab_canvas()  # installed? say so before the search
            check_sizes(self.mm, 0.0)
            if self.paper not in PAPERS:
                raise PolyfitError(f"unknown paper {self.paper!r} for --paper; choose one of {', '.join(PAPERS)}")
            check_writable(self.pdf, self.force)

    def write_vector(self, solutions: SolutionSet) -> list[str]:
        from polyfit.render import cut
        from polyfit.render.svg import cut_shapes, cut_svg, save_svg, solutions_svg

        done = []
        if self.svg and self.cut:
            shapes = cut_shapes(solutions.pieces, cut.copies_used(solutions.solutions[0]))
            text = cut_svg(shapes, self.mm, self.kerf, f"{solutions.board}: pieces to cut")
            save_svg(text, self.svg, self.force)
            done.append(f"wrote {self.svg} ({plural(len(shapes), 'piece')} to cut, {self.mm:g} mm a cell, "
                        f"kerf {self.kerf:g} mm)")
        elif self.svg:
            text = solutions_svg(solutions.board_cells, solutions.pieces, solutions.solutions, self.style(),
                                 self.view, solutions.fixed, solutions.board)
            save_svg(text, self.svg, self.force)
            done.append(f"wrote {self.svg}")
        if self.pdf:
            from polyfit.render.sheet import fitting_unit, write_sheet

            unit = self.unit if self.unit is not None else (
                self.sheet_unit or fitting_unit(solutions.board_cells, DEFAULT_UNIT, self.paper))
            pages = write_sheet(solutions, self.pdf, unit, self.paper, self.force)
            paper = self.paper.upper() if self.paper == "a4" else self.paper
            done.append(f"wrote {self.pdf} ({plural(pages, 'page')}, {paper}, {unit:g} mm a cell)")
        return done

    def write(self, solutions: SolutionSet) -> list[str]:
        """Write what was asked for; returns one line per file written, for the user."""
        from polyfit.formats.models import (
            check_stl_directory,
            solution_meshes,
            write_model,
            write_stls,
        )
        from polyfit.render.palette import solution_colours
        from polyfit.render.pictures import save_png, solutions_image

        if not solutions.solutions:
            raise PolyfitError("no solution was found, so there is nothing to draw or model")
        done = []
        if self.png:
            image = solutions_image(
                solutions.board_cells, solutions.pieces, solutions.solutions, self.style(), self.view,
                fixed=solutions.fixed,
            )
            save_png(image, self.png, force=self.force)
            done.append(f"wrote {self.png} ({image.width}x{image.height})")
        done.extend(self.write_vector(solutions))
        if self.stl or self.models:
            meshes = solution_meshes(solutions, 0, self.sizes())
            if self.stl:
                paths = check_stl_directory(self.stl, meshes, True)
                write_stls(meshes, paths, self.force)
                done.append(f"wrote {plural(len(paths), 'STL file')} to {self.stl}")
            colours = solution_colours(solutions.pieces, solutions.solutions[:1])
            for kind, path in self.models.items():
                write_model(kind, meshes, colours, path, self.force)
                done.append(f"wrote {path}")
        return done


DEFAULT_UNIT = 15.0  # mm

# Shared option declarations, so solve and render describe them in the same words.
PNG = typer.Option(None, "--png", help="Draw the solutions to this PNG file (several make a contact sheet).")
VIEW = typer.Option(None, "--view", help="How --png draws a 3D board: iso (default), exploded or layers.")
CELL = typer.Option(32, "--cell", min=4, help="Cell size in pixels for --png.")
MARGIN = typer.Option(16, "--margin", min=0, help="Margin around each picture in pixels.")
LABELS = typer.Option(False, "--labels", help="Write piece names on flat pictures (2D boards, layers).")
STL = typer.Option(None, "--stl", help="Write one STL per piece of the first solution into this existing directory.")
GLB = typer.Option(None, "--glb", help="Write the first solution as a coloured assembly (glTF binary).")
THREEMF = typer.Option(None, "--3mf", help="Write the first solution as a coloured assembly (3MF).")
OBJ = typer.Option(None, "--obj", help="Write the first solution as OBJ with vertex colours.")
UNIT = typer.Option(None, "--unit", help="Cell edge in millimetres for the models and --cut (default 15) and --pdf (default: 15, or less to fit the page).")
GAP = typer.Option(0.2, "--gap", help="Clearance between pieces in millimetres (each face moves in by half).")
SVG = typer.Option(None, "--svg", help="Draw the solutions to this SVG file, as --png does (with --cut: the pieces for a laser cutter).")
CUT = typer.Option(False, "--cut", help="Make --svg a laser-cutting file: each piece one closed outline in millimetres (--unit a cell), laid apart.")
KERF = typer.Option(0.0, "--kerf", help="With --cut: the laser's kerf in millimetres; outlines move out by half of it, so pieces come out true size.")
PDF = typer.Option(None, "--pdf", help="Write a printable puzzle sheet: the board and pieces at true size (--unit a cell), then the solutions (needs polyfit[pdf]).")
PAPER = typer.Option("a4", "--paper", help="Paper size for --pdf: a4 or letter.")
