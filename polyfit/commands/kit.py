"""``polyfit kit``: a piece set as printable STL files, with an optional tray for a 2D board."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from polyfit.errors import PolyfitError, plural
from polyfit.commands import guarded


def add_commands(app: typer.Typer, ctx) -> None:
    @app.command()
    @guarded
    def kit(
        pieces: str = typer.Argument(..., help="Piece set(s) or pieces file, as for --pieces."),
        stl: Path = typer.Option(..., "--stl", help="Existing directory to write one STL per piece into."),
        unit: float = typer.Option(15.0, "--unit", help="Cell edge in millimetres."),
        gap: float = typer.Option(0.2, "--gap", help="Clearance between pieces in millimetres: every outer face moves in by half of it."),
        thickness: float = typer.Option(5.0, "--thickness", help="Height of 2D tiles in millimetres (and depth of the tray)."),
        bevel: float = typer.Option(0.0, "--bevel", help="Cut every convex edge at 45 degrees, this many millimetres back on each face."),
        tray: Optional[Path] = typer.Option(None, "--tray", help="Also write tray.stl: a base with walls around this 2D board's shape, plus clearance."),
        wall: float = typer.Option(3.0, "--wall", help="Tray wall thickness in millimetres."),
        floor: float = typer.Option(2.0, "--floor", help="Tray floor thickness in millimetres."),
        force: bool = typer.Option(False, "--force", help="Overwrite STL files already in the directory."),
    ):
        """Write a printable kit: each piece one watertight solid with no internal faces.

        Sizes are in millimetres. 2D pieces become tiles --thickness high; with --tray BOARD,
        tray.stl holds them in the board's shape.

        Example: polyfit kit soma --stl kit/ --bevel 1

        Example: polyfit kit pentominoes --stl kit/ --tray shapes/pentomino/6x10.txt
        """
        from polyfit.render.meshes import Sizes, TraySizes, tray_mesh
        from polyfit.render.prisms import check_kit, tile_meshes
        from polyfit.formats.models import check_stl_directory, write_stls

        sizes = Sizes(unit=unit, gap=gap, thickness=thickness, bevel=bevel)
        piece_list = ctx.resolve_pieces(pieces)
        check_kit(piece_list, sizes, tray is not None)  # other lattices: no tray, no bevel yet
        names = [p.name for p in piece_list]
        board = None
        if tray is not None:
            board = ctx.registry.read_shape(tray)
            if board.dim != 2:
                raise PolyfitError(f"{tray}: a tray is made for 2D boards only")
            if piece_list[0].dim != 2:
                raise PolyfitError("a tray holds 2D tiles; these pieces are 3D")
            if "tray" in names:
                raise PolyfitError("a piece is named 'tray'; its STL would clash with tray.stl")
            names.append("tray")
        if min(wall, floor) <= 0:
            raise PolyfitError("--wall and --floor must be positive")
        paths = check_stl_directory(stl, names, force)
        meshes = tile_meshes(piece_list, sizes)  # triangles and hexagons: outlines extruded
        if board is not None:
            meshes["tray"] = tray_mesh(board.cells, sizes, TraySizes(wall, floor, thickness))  # not bevelled
        write_stls(meshes, paths, force)
        shape = "tile" if piece_list[0].dim == 2 else "solid"
        typer.echo(
            f"wrote {plural(len(meshes), 'STL file')} to {stl}: {plural(len(piece_list), shape)}"
            + (" and a tray" if board is not None else "")
            + f" (unit {unit:g} mm, gap {gap:g} mm"
            + (f", bevel {bevel:g} mm" if bevel else "")
            + (f", {thickness:g} mm thick)" if piece_list[0].dim == 2 else ")")
        )
        leaky = [name for name, mesh in meshes.items() if not mesh.is_watertight]
        if leaky:
            typer.echo(
                f"polyfit: warning: not watertight with --gap {gap:g}: {', '.join(leaky)} "
                "(cells meeting only along an edge); a positive --gap separates them",
                err=True,
            )
