"""Files asked for on the command line: ``--output FILE`` (any exporter, by its suffix or
``--format``) and its shorthands ``--png``, ``--svg`` (with ``--cut``: for a laser cutter),
``--pdf``, ``--glb``, ``--3mf`` and ``--obj``; and ``--stl DIR``, one STL per piece.

``polyfit solve`` and ``polyfit render`` share these options. Each file becomes one
:class:`polyfit.formats.export.Output`, the same the API and the studio use: checked before
any search (a path that cannot be written, a suffix of another format, a board the format
cannot draw, a sheet too big for the paper), written after, and never over a file the user has
without ``--force`` (checked again as each file is written, so a file that appeared during the
search is kept too).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, List, Optional

import typer

from polyfit.errors import PolyfitError
from polyfit.records import Record

if TYPE_CHECKING:  # loaded when a file is asked for: a count without one needs neither
    from polyfit.formats.export import Output
    from polyfit.formats.solution_set import SolutionSet

# The shorthands: (attribute, flag, exporter).
SHORTHANDS = (("png", "--png", "png"), ("svg", "--svg", "svg"), ("pdf", "--pdf", "pdf"),
              ("glb", "--glb", "glb"), ("threemf", "--3mf", "3mf"), ("obj", "--obj", "obj"))


class Outputs(Record):
    """The pictures and files a command writes: ``--output`` (as often as given) and its
    shorthands, with the drawing options. ``registry``: the command line's
    :class:`polyfit.registry.Registry`; ``stl`` is a folder (one STL per piece); ``unit`` in mm
    (None: each format's own; a PDF: the largest that fits)."""

    __slots__ = ("registry", "output", "format", "png", "svg", "pdf", "glb", "threemf", "obj", "stl", "cut", "view",
                 "cell", "margin", "labels", "unit", "gap", "kerf", "paper", "force", "_planned")

    def __init__(self, registry, output: list[Path] | None = None, format: Optional[str] = None,
                 png: Optional[Path] = None, svg: Optional[Path] = None, pdf: Optional[Path] = None,
                 glb: Optional[Path] = None, threemf: Optional[Path] = None, obj: Optional[Path] = None,
                 stl: Optional[Path] = None, cut: bool = False, view: Optional[str] = None, cell: int = 32,
                 margin: int = 16, labels: bool = False, unit: Optional[float] = None, gap: float = 0.2,
                 kerf: float = 0.0, paper: str = "a4", force: bool = False):
        self.registry, self.output, self.format = registry, [] if output is None else output, format
        self.png, self.svg, self.pdf, self.glb, self.threemf, self.obj, self.stl = png, svg, pdf, glb, threemf, obj, stl
        self.cut, self.view, self.cell, self.margin, self.labels = cut, view, cell, margin, labels
        self.unit, self.gap, self.kerf, self.paper, self.force = unit, gap, kerf, paper, force
        self._planned: Optional[list] = None

    def options(self) -> dict:
        return {"cell": self.cell, "margin": self.margin, "labels": self.labels, "view": self.view,
                "unit": self.unit, "gap": self.gap, "kerf": self.kerf, "paper": self.paper}

    def planned(self) -> list[Output]:
        """Every file to write, in the order given: --output files, then the shorthands."""
        if self._planned is None:
            wanted = self.output or any(getattr(self, attribute) is not None for attribute, _, _ in SHORTHANDS)
            exporters = self.registry.exporters if wanted else {}  # no exporter loads for none
            if wanted:
                from polyfit.formats.export import output
            if self.format is not None and len(self.output) != 1:
                raise PolyfitError("--format names the format of one --output file; give exactly one --output")
            if self.cut and not self.svg:
                raise PolyfitError("--cut makes the --svg file a laser-cutting file; add --svg FILE "
                                   "(or give --output a FILE.cut.svg)")
            planned = [output(exporters, path, self.format, self.options(), only_known_options=True)
                       for path in self.output]
            for attribute, flag, name in SHORTHANDS:
                path = getattr(self, attribute)
                if path is None:
                    continue
                if attribute == "svg" and self.cut:
                    name, flag = "cut-svg", "--svg --cut"
                planned.append(output(exporters, path, name, self.options(), asked_by=flag, strict=True,
                                      only_known_options=True))
            self._planned = planned
        return self._planned

    @property
    def drawn(self) -> bool:
        """Is a picture or a model asked for by its own flag (they need solutions)?"""
        return self.stl is not None or any(getattr(self, attribute) for attribute, _, _ in SHORTHANDS)

    @property
    def wanted(self) -> bool:
        return bool(self.output) or self.drawn

    @property
    def modifiers(self) -> bool:
        """Options that change how a file is made: an error without such a file."""
        return bool(self.cut or self.kerf or self.view is not None or self.format is not None)

    def check(self, solutions: SolutionSet) -> None:
        """Fail before any search: bad options, unwritable paths, files in the way, a
        format that cannot take this board. ``solutions``: the board and pieces, no solutions."""
        planned = self.planned()
        if self.view is not None and not any("view" in o.options for o in planned):
            raise PolyfitError("--view chooses how a picture of a 3D board is drawn; add --png FILE or --svg FILE")
        if self.kerf and not any("kerf" in o.options for o in planned):
            raise PolyfitError("--kerf sets the laser's kerf for --cut; add --svg FILE --cut")
        for planned_output in planned:
            planned_output.check(solutions, self.force)
        if self.stl is not None:
            from polyfit.formats.models import check_model, check_stl_directory

            check_model(solutions, **self.model_options())
            check_stl_directory(self.stl, [p.name for p in solutions.pieces], self.force)

    def model_options(self) -> dict:
        return {"gap": self.gap, **({} if self.unit is None else {"unit": self.unit})}

    def write(self, solutions: SolutionSet) -> list[str]:
        """Write every file asked for; one line per file written, for the user."""
        done = [planned_output.write(solutions, self.force) for planned_output in self.planned()]
        if self.stl is not None:
            from polyfit.formats.models import write_piece_stls

            done.append(write_piece_stls(solutions, self.stl, force=self.force, **self.model_options()))
        return done


# Shared option declarations, so solve and render describe them in the same words.
OUTPUT = typer.Option(None, "--output", "-o", help="Write the solutions to FILE, in the format its suffix names (.txt .json .png .gif .svg .cut.svg .pdf .stl .glb .3mf .obj; 'polyfit plugins' lists exporters); may be given more than once.")
FORMAT = typer.Option(None, "--format", help="The exporter for --output, instead of its suffix.")
PNG = typer.Option(None, "--png", help="Draw the solutions to this PNG file (several make a contact sheet).")
VIEW = typer.Option(None, "--view", help="How a picture of a 3D board is drawn: iso (default), exploded or layers.")
CELL = typer.Option(32, "--cell", min=4, help="Cell size in pixels for pictures.")
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
PDF = typer.Option(None, "--pdf", help="Write a printable puzzle sheet: the board and pieces at true size (--unit a cell), then the solutions (needs reportlab: polyfit's pdf extra).")
PAPER = typer.Option("a4", "--paper", help="Paper size for --pdf: a4 or letter.")


# -- option groups shared by commands (see polyfit.commands.options) -------------------------------


def picture_options(
    png: Optional[Path] = PNG, view: Optional[str] = VIEW, cell: int = CELL, margin: int = MARGIN,
    labels: bool = LABELS, stl: Optional[Path] = STL, glb: Optional[Path] = GLB, threemf: Optional[Path] = THREEMF,
    obj: Optional[Path] = OBJ, unit: Optional[float] = UNIT, gap: float = GAP, svg: Optional[Path] = SVG,
    cut: bool = CUT, kerf: float = KERF, pdf: Optional[Path] = PDF, paper: str = PAPER,
) -> Outputs:
    """The picture and model options; the files (``--output``, ``--format``, ``--force``) and
    the registry are added by :func:`file_options` and :meth:`FileOptions.check`."""
    return Outputs(None, [], None, png, svg, pdf, glb, threemf, obj, stl, cut, view, cell, margin, labels, unit, gap,
                   kerf, paper)


class SearchOptions(Record):
    """How a search runs, as ``solve`` takes it (see :meth:`polyfit.Puzzle.run`)."""

    __slots__ = ("backend", "random", "jobs", "dask", "checkpoint", "resume", "depth", "quiet", "memory")

    def __init__(self, backend: str = "auto", random: Optional[int] = None, jobs: Optional[int] = None,
                 dask: Optional[str] = None, checkpoint: Optional[Path] = None, resume: Optional[Path] = None,
                 depth: Optional[int] = None, quiet: bool = False, memory: Optional[str] = None):
        self.backend, self.random, self.jobs, self.dask = backend, random, jobs, dask
        self.checkpoint, self.resume, self.depth, self.quiet, self.memory = checkpoint, resume, depth, quiet, memory

    def run_options(self) -> dict:
        memory = None
        if self.memory is not None:
            from polyfit.puzzle.burnside import parse_memory

            memory = parse_memory(self.memory)
        return dict(backend=self.backend, seed=self.random, jobs=self.jobs, dask=self.dask, checkpoint=self.checkpoint,
                    resume=self.resume, depth=self.depth, memory=memory)

    @property
    def serial_only(self) -> bool:
        """Do these options ask for jobs (which --random and --animate cannot follow)?"""
        return (self.jobs or 1) > 1 or any(x is not None for x in (self.dask, self.checkpoint, self.resume, self.depth))


def search_options(
    backend: str = typer.Option("auto", "--backend", "-b", help="Solver backend (polyfit backends lists them; auto: the engine chooses, --stats says which)."),
    random: Optional[int] = typer.Option(None, "--random", help="Try options in a random order from this seed."),
    jobs: Optional[int] = typer.Option(None, "--jobs", "-j", min=1, help="Split the search into jobs run on N local processes (default for --count: every core when the estimate says the search is long; at most 4 a core, and at least 8 are allowed)."),
    dask: Optional[str] = typer.Option(None, "--dask", help="Run the jobs on the Dask cluster at this scheduler address (needs Dask distributed: polyfit's dask extra)."),
    checkpoint: Optional[Path] = typer.Option(None, "--checkpoint", help="With --count: save finished jobs to FILE as the search goes (atomically)."),
    resume: Optional[Path] = typer.Option(None, "--resume", help="With --count: go on from the checkpoint FILE, skipping the jobs it has (and keep saving to it)."),
    depth: Optional[int] = typer.Option(None, "--depth", min=1, max=12, help="Split into the branches at this depth of the search tree (default: about 8 jobs per process)."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar."),
    memory: Optional[str] = typer.Option(None, "--memory", help="Cache size for count-memo (e.g. 500M, 2G; default a quarter of RAM): past it, entries are replaced, never a wrong count."),
) -> SearchOptions:
    return SearchOptions(backend, random, jobs, dask, checkpoint, resume, depth, quiet, memory)


class FileOptions(Record):
    """The files a run writes: ``--output`` (any exporter, by suffix or ``--format``) and its
    shorthands (:class:`Outputs`), and ``--animate``; all checked before the search."""

    __slots__ = ("pictures", "animate", "steps", "force")

    def __init__(self, pictures: Outputs, animate: Optional[Path] = None, steps: int = 200, force: bool = False):
        self.pictures, self.animate, self.steps, self.force = pictures, animate, steps, force

    def check(self, puzzle, count: bool, search: SearchOptions) -> None:
        """Refuse, before anything runs, what cannot be written or drawn."""
        from polyfit.files import check_writable

        pictures = self.pictures
        pictures.registry = puzzle.registry
        if pictures.drawn and count:
            raise PolyfitError("--count prints no solutions to draw; drop --count or use --limit N")
        empty = [o for o in pictures.planned() if count and not o.writes_counts]
        if empty:
            raise PolyfitError(f"--count prints no solutions to write to {empty[0].path}; drop --count, use --limit N, "
                               "or write the counts to a .json file")
        if pictures.wanted or pictures.modifiers:
            from polyfit.formats.solution_set import SolutionSet

            pictures.check(SolutionSet.of(puzzle.board, puzzle.pieces))
        if self.animate is not None:
            from polyfit.render.animate import check_animatable
            from polyfit.render.pictures import picture_style

            check_writable(self.animate, self.force)
            check_animatable(puzzle)
            picture_style(pictures.cell, pictures.margin, pictures.labels)  # bad sizes: said now
        if (search.random is not None or self.animate is not None) and search.serial_only:
            raise PolyfitError("--random and --animate follow one serial search; drop --jobs, --dask, --checkpoint, --resume and --depth")

    def write(self, puzzle, solutions, counts=None, extra=None) -> None:
        """Write every file asked for, from ``solutions`` (:class:`polyfit.Solution`); ``counts``
        go into the exported file when the search ran to its end; ``extra``: more top-level
        JSON (disassemblies)."""
        if self.pictures.wanted:
            from polyfit.formats.solution_set import SolutionSet

            solution_set = SolutionSet.of(puzzle.board, puzzle.pieces, [s.to_json() for s in solutions],
                                          None if counts is None else {"distinct": counts.distinct, "total": counts.total},
                                          extra)
            for line in self.pictures.write(solution_set):
                typer.echo(line, err=True)
        if self.animate is not None:
            from polyfit.render.animate import animate as write_animation
            from polyfit.render.pictures import picture_style

            style = picture_style(self.pictures.cell, self.pictures.margin, self.pictures.labels)
            frames, searched, solved = write_animation(puzzle, self.animate, self.steps, style, self.force)
            ending = "ending on the first solution" if solved else "no solution"
            typer.echo(f"wrote {self.animate} ({frames} frames of {searched} search steps, {ending})", err=True)


def file_options(
    output: Optional[List[Path]] = OUTPUT,
    output_format: Optional[str] = FORMAT,
    force: bool = typer.Option(False, "--force", help="Overwrite existing output files (--output, --png, --stl, ...)."),
    animate: Optional[Path] = typer.Option(None, "--animate", help="Write an animated GIF of the search: placements and backtracks up to the first solution."),
    steps: int = typer.Option(200, "--steps", min=2, help="At most this many frames for --animate (the last steps before the solution)."),
    pictures: Outputs = None,
) -> FileOptions:
    pictures.output, pictures.format, pictures.force = list(output or []), output_format, force
    return FileOptions(pictures, animate, steps, force)


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
