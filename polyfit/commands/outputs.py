"""Pictures and models asked for on the command line (``--png``, ``--stl DIR``, ``--glb`` ...).

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
    unit: float = 15.0
    gap: float = 0.2
    force: bool = False

    @property
    def models(self) -> dict:
        return {k: p for k, p in (("glb", self.glb), ("3mf", self.threemf), ("obj", self.obj)) if p}

    @property
    def wanted(self) -> bool:
        return bool(self.png or self.stl or self.models)

    def style(self) -> Style:
        from polyfit.render.style import Style

        try:
            return Style(cell=self.cell, margin=self.margin, labels=self.labels)
        except ValueError as exc:
            raise PolyfitError(str(exc)) from None

    def sizes(self) -> Sizes:
        from polyfit.render.meshes import Sizes

        return Sizes(unit=self.unit, gap=self.gap)

    def check(self, dim: int, piece_names) -> None:
        """Fail before searching: bad options, unwritable paths, files that exist."""
        from polyfit.formats.models import check_stl_directory
        from polyfit.render.pictures import check_view

        self.style()
        if self.stl or self.models:  # Sizes lives with the meshes: numpy and trimesh
            self.sizes()
        if self.png:
            check_view(dim, self.view)
            check_writable(self.png, self.force)
        elif self.view is not None:
            raise PolyfitError("--view chooses how --png draws a 3D board; add --png FILE")
        for kind, path in self.models.items():
            check_writable(path, self.force)
        if self.stl:
            check_stl_directory(self.stl, piece_names, self.force)

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
                solutions.board_cells, solutions.pieces, solutions.solutions, self.style(), self.view
            )
            save_png(image, self.png, force=self.force)
            done.append(f"wrote {self.png} ({image.width}x{image.height})")
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
UNIT = typer.Option(15.0, "--unit", help="Cell edge in millimetres for the models.")
GAP = typer.Option(0.2, "--gap", help="Clearance between pieces in millimetres (each face moves in by half).")
