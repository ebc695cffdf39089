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


# -- option groups shared by commands (see polyfit.commands.options) -------------------------------


def picture_options(
    png: Optional[Path] = PNG, view: Optional[str] = VIEW, cell: int = CELL, margin: int = MARGIN,
    labels: bool = LABELS, stl: Optional[Path] = STL, glb: Optional[Path] = GLB, threemf: Optional[Path] = THREEMF,
    obj: Optional[Path] = OBJ, unit: Optional[float] = UNIT, gap: float = GAP, svg: Optional[Path] = SVG,
    cut: bool = CUT, kerf: float = KERF, pdf: Optional[Path] = PDF, paper: str = PAPER,
) -> Outputs:
    return Outputs(png, view, cell, margin, labels, stl, glb, threemf, obj, unit, gap, False, svg, cut, kerf, pdf, paper)


@dataclass
class SearchOptions:
    """How a search runs, as ``solve`` takes it (see :meth:`polyfit.Puzzle.run`)."""

    backend: str = "auto"
    random: Optional[int] = None
    jobs: Optional[int] = None
    dask: Optional[str] = None
    checkpoint: Optional[Path] = None
    resume: Optional[Path] = None
    depth: Optional[int] = None
    quiet: bool = False
    memory: Optional[str] = None

    def run_options(self) -> dict:
        from polyfit.puzzle.burnside import parse_memory

        return dict(backend=self.backend, seed=self.random, jobs=self.jobs, dask=self.dask, checkpoint=self.checkpoint,
                    resume=self.resume, depth=self.depth,
                    memory=None if self.memory is None else parse_memory(self.memory))

    @property
    def serial_only(self) -> bool:
        """Do these options ask for jobs (which --random and --animate cannot follow)?"""
        return (self.jobs or 1) > 1 or any(x is not None for x in (self.dask, self.checkpoint, self.resume, self.depth))


def search_options(
    backend: str = typer.Option("auto", "--backend", "-b", help="Solver backend (polyfit backends lists them; auto: the engine chooses, --stats says which)."),
    random: Optional[int] = typer.Option(None, "--random", help="Try options in a random order from this seed."),
    jobs: Optional[int] = typer.Option(None, "--jobs", "-j", min=1, help="Split the search into jobs run on N local processes (default for --count: every core when the estimate says the search is long)."),
    dask: Optional[str] = typer.Option(None, "--dask", help="Run the jobs on the Dask cluster at this scheduler address (needs polyfit[dask])."),
    checkpoint: Optional[Path] = typer.Option(None, "--checkpoint", help="With --count: save finished jobs to FILE as the search goes (atomically)."),
    resume: Optional[Path] = typer.Option(None, "--resume", help="With --count: go on from the checkpoint FILE, skipping the jobs it has (and keep saving to it)."),
    depth: Optional[int] = typer.Option(None, "--depth", min=1, max=12, help="Split into the branches at this depth of the search tree (default: about 8 jobs per process)."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar."),
    memory: Optional[str] = typer.Option(None, "--memory", help="Cache size for count-memo (e.g. 500M, 2G; default a quarter of RAM): past it, entries are replaced, never a wrong count."),
) -> SearchOptions:
    return SearchOptions(backend, random, jobs, dask, checkpoint, resume, depth, quiet, memory)


@dataclass
class FileOptions:
    """The files a run writes: ``--output`` (any exporter, by suffix or ``--format``), the
    pictures and models, and ``--animate``; all checked before the search."""

    pictures: Outputs
    output: Optional[Path] = None
    output_format: Optional[str] = None
    animate: Optional[Path] = None
    steps: int = 200
    force: bool = False
    registry: object = None
    exporter: object = None

    def check(self, puzzle, count: bool, search: SearchOptions) -> None:
        """Refuse, before anything runs, what cannot be written or drawn."""
        from polyfit.files import check_writable

        pictures = self.pictures
        if pictures.wanted and count:
            raise PolyfitError("--count prints no solutions to draw; drop --count or use --limit N")
        if pictures.wanted or pictures.modifiers:
            board = puzzle.board
            pictures.check(board.dim, [p.name for p in puzzle.pieces], board.cells, board.label)
        if self.animate is not None:
            from polyfit.render.animate import check_animatable

            check_writable(self.animate, self.force)
            check_animatable(puzzle)
            pictures.style()
        if self.output is not None:
            self.exporter = puzzle.registry.exporter(self.output, self.output_format)
            check_writable(self.output, self.force)
        if (search.random is not None or self.animate is not None) and search.serial_only:
            raise PolyfitError("--random and --animate follow one serial search; drop --jobs, --dask, --checkpoint, --resume and --depth")

    def write(self, puzzle, solutions, counts=None, extra=None) -> None:
        """Write every file asked for, from ``solutions`` (:class:`polyfit.Solution`); ``counts``
        go into the exported file when the search ran to its end; ``extra``: more top-level
        JSON (disassemblies)."""
        from polyfit.files import output_file

        board = puzzle.board
        solution_set = SolutionSet(
            board.label, board.cells, puzzle.pieces, [s.to_json() for s in solutions],
            {} if counts is None else {"distinct": counts.distinct, "total": counts.total},
            tuple(sorted(board.fixed_cells)), extra or {},
        )
        if self.exporter is not None:
            # The exporter writes a new file of its own; polyfit puts it in place, over an
            # existing file only with --force.
            with output_file(self.output, self.force) as staged:
                self.exporter.export(solution_set, staged)
        if self.pictures.wanted:
            for line in self.pictures.write(solution_set):
                typer.echo(line, err=True)
        if self.animate is not None:
            from polyfit.render.animate import animate as write_animation

            frames, searched, solved = write_animation(puzzle, self.animate, self.steps, self.pictures.style(), self.force)
            ending = "ending on the first solution" if solved else "no solution"
            typer.echo(f"wrote {self.animate} ({frames} frames of {searched} search steps, {ending})", err=True)


def file_options(
    output: Optional[Path] = typer.Option(None, "--output", "-o", help="Also write the solutions to this file (format by suffix: .txt, .json, ...)."),
    output_format: Optional[str] = typer.Option(None, "--format", help="Exporter for --output, instead of the suffix."),
    force: bool = typer.Option(False, "--force", help="Overwrite existing output files (--output, --png, --stl, ...)."),
    animate: Optional[Path] = typer.Option(None, "--animate", help="Write an animated GIF of the search: placements and backtracks up to the first solution."),
    steps: int = typer.Option(200, "--steps", min=2, help="At most this many frames for --animate (the last steps before the solution)."),
    pictures: Outputs = None,
) -> FileOptions:
    pictures.force = force
    return FileOptions(pictures, output, output_format, animate, steps, force)


class LiveBar:
    """The progress bar of a long search, on stderr: shown when the jobs have started."""

    def __init__(self):
        self.bar = None

    def show(self, progress) -> None:
        if self.bar is None:
            from polyfit.commands.progress import ProgressBar

            self.bar = ProgressBar(progress.jobs, progress.done)
            self.bar.start()
        self.bar.update(progress)

    def stop(self) -> None:
        if self.bar is not None:
            self.bar.stop()
