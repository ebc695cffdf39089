"""``polyfit render``: pictures, sheets and models of solutions saved with ``--output FILE.json``."""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from polyfit.errors import PolyfitError
from polyfit.formats.solutions_json import read_solution_set
from polyfit.commands import guarded
from polyfit.commands import outputs as out


def add_commands(app: typer.Typer, ctx) -> None:
    @app.command()
    @guarded
    def render(
        solutions: Path = typer.Argument(..., help="A JSON file written by 'polyfit solve BOARD --output FILE.json'."),
        limit: Optional[int] = typer.Option(None, "--limit", min=1, help="Draw only the first N solutions."),
        output: Optional[List[Path]] = out.OUTPUT,
        output_format: Optional[str] = out.FORMAT,
        png: Optional[Path] = out.PNG,
        view: Optional[str] = out.VIEW,
        cell: int = out.CELL,
        margin: int = out.MARGIN,
        labels: bool = out.LABELS,
        stl: Optional[Path] = out.STL,
        glb: Optional[Path] = out.GLB,
        threemf: Optional[Path] = out.THREEMF,
        obj: Optional[Path] = out.OBJ,
        unit: Optional[float] = out.UNIT,
        gap: float = out.GAP,
        svg: Optional[Path] = out.SVG,
        cut: bool = out.CUT,
        kerf: float = out.KERF,
        pdf: Optional[Path] = out.PDF,
        paper: str = out.PAPER,
        force: bool = typer.Option(False, "--force", help="Overwrite existing output files."),
    ):
        """Draw or model solutions saved as JSON: --output FILE in any format by its suffix
        (.png .gif .svg .cut.svg .pdf .stl .glb .3mf .obj .txt .json), or --png, --svg, --pdf,
        --glb, --3mf, --obj FILE and --stl DIR.

        Example: polyfit render solutions.json --output solutions.svg --labels
        """
        outputs = out.Outputs(ctx.registry, output or [], output_format, png, svg, pdf, glb, threemf, obj, stl,
                              cut, view, cell, margin, labels, unit, gap, kerf, paper, force)
        if not outputs.wanted:
            raise PolyfitError("nothing to write: give --output FILE (or --png, --svg, --pdf, --glb, --3mf, "
                               "--obj FILE, --stl DIR)")
        solution_set = read_solution_set(solutions)
        if limit is not None:
            solution_set.solutions = solution_set.solutions[:limit]
        outputs.check(solution_set)
        for line in outputs.write(solution_set):
            typer.echo(line)
