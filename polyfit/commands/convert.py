"""``polyfit convert``: a board and its pieces from one format into another."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from polyfit.errors import PolyfitError
from polyfit.commands import guarded


def add_commands(app: typer.Typer, ctx) -> None:
    @app.command()
    @guarded
    def convert(
        source: Path = typer.Argument(..., help="A board file: text art, voxel text, MagicaVoxel, BurrTools .xmpuzzle, a Soma notation."),
        target: Path = typer.Argument(..., help="The file to write; its suffix says the format (.txt .vox .xmpuzzle .soma .std)."),
        pieces: Optional[str] = typer.Option(None, "--pieces", "-p", help="The pieces, when the board file does not name them."),
        problem: Optional[str] = typer.Option(None, "--problem", "--figure", help="Which board of a file with many (a number from 1, or a name)."),
        output_format: Optional[str] = typer.Option(None, "--format", help="The format to write, instead of the suffix: text, voxel-text, magicavoxel, xmpuzzle, yass, bundgaard."),
        solutions: int = typer.Option(0, "--solutions", min=0, help="Also save up to N solutions (one per symmetry class), as BurrTools assemblies."),
        disassemble: bool = typer.Option(False, "--disassemble", help="With --solutions: save only solutions that come apart, each with how (BurrTools' <separation> tree, which it animates)."),
        max_states: Optional[int] = typer.Option(None, "--max-states", min=1, help="With --disassemble: give up on an assembly after this many states (default 10,000,000)."),
        force: bool = typer.Option(False, "--force", help="Overwrite existing files."),
    ):
        """Convert a board and its pieces between the formats polyfit reads and writes.

        Text art (.txt), voxel text (.vox), MagicaVoxel (--format magicavoxel), BurrTools
        (.xmpuzzle, gzip XML), yass (.soma) and Bundgaard's notation (.std). Pieces that came
        with the file are written to a pieces file beside text art.

        Example: polyfit convert shapes/soma/castle.vox castle.xmpuzzle --solutions 3

        Example: polyfit convert shapes/burrtools/level-5-burr.xmpuzzle burr.xmpuzzle --solutions 2 --disassemble
        """
        from polyfit import api
        from polyfit.formats.interchange import Source, what_is_dropped, write_board

        board = api.read_board(source, plugins=ctx.registry, select=problem)
        spec = pieces or (None if board.pieces else board.metadata.get("pieces"))
        if pieces:
            chosen = api.pieces(pieces, plugins=ctx.registry)
        else:
            chosen = api.board_pieces(board, plugins=ctx.registry)
        found, separations = [], []
        if disassemble and not solutions:
            raise PolyfitError("--disassemble saves how solutions come apart: say how many with --solutions N")
        if max_states is not None and not disassemble:
            raise PolyfitError("--max-states bounds --disassemble's search: add --disassemble")
        if solutions:
            if output_format not in (None, "xmpuzzle") or (output_format is None and target.suffix.lower() != ".xmpuzzle"):
                raise PolyfitError("--solutions is for BurrTools files (.xmpuzzle): the other formats hold no solutions")
            puzzle = api.Puzzle(board, chosen, plugins=ctx.registry)
            if disassemble:
                if target.exists() and not force:
                    from polyfit.files import exists_error

                    raise exists_error(target)  # before a long search, not after it
                for solution, taken in puzzle.disassemblies(limit=solutions, max_states=max_states):
                    found.append(solution.placements)
                    separations.append((taken.assembly.labels, taken.result.tree, taken.result.directions))
            else:
                found = [s.placements for s in puzzle.solutions(limit=solutions)]
        source = Source(board, chosen, spec, found, separations)
        written = write_board(source, target, output_format, force)
        kind = " that come" + ("s" if len(found) == 1 else "") + " apart" if disassemble else ""
        saved = f" with {len(found)} solution" + ("" if len(found) == 1 else "s") + kind if solutions else ""
        typer.echo(f"wrote {', '.join(str(p) for p in written)}{saved}")
        dropped = what_is_dropped(source, written, output_format)
        if dropped:
            typer.echo(f"polyfit: note: {dropped}", err=True)
