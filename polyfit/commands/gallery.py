"""``polyfit gallery``: regenerate the gallery of pictures from the shapes directory."""

from __future__ import annotations

from pathlib import Path

import typer

from polyfit.commands import guarded


def add_commands(app: typer.Typer, ctx) -> None:
    @app.command()
    @guarded
    def gallery(
        shapes: Path = typer.Option(Path("shapes"), "--shapes", help="Directory of board files to draw."),
        out: Path = typer.Option(Path("gallery"), "--out", help="Directory to write the gallery into (created if missing)."),
        force: bool = typer.Option(False, "--force", help="Overwrite files in --out that an earlier gallery did not write."),
    ):
        """Regenerate the gallery: a picture of each shape's first solution, piece-set sheets
        and a README.md listing them with their solution counts.

        A rebuild replaces the files an earlier gallery wrote (those its README.md names); other
        files in the way are refused before any search, unless --force.

        Example: polyfit gallery --shapes shapes --out gallery
        """
        from polyfit.gallery import build_gallery

        for line in build_gallery(ctx.registry, ctx.resolve_pieces, shapes, out, force):
            typer.echo(line)
