"""``polyfit pieces`` and ``polyfit backends``: what this installation can use."""

from __future__ import annotations

from typing import Optional

import typer

from . import guarded


def add_commands(app: typer.Typer, ctx) -> None:
    @app.command()
    @guarded
    def pieces(
        name: Optional[str] = typer.Argument(None, help="A piece set (or spec) to draw."),
    ):
        """List the piece sets, or draw the pieces of one.

        Example: polyfit pieces pentominoes
        """
        from ..pieces import draw_pieces

        registry = ctx.registry
        if name is None:
            width = max(len(n) for n in registry.piece_sets)
            for set_name, entry in registry.piece_sets.items():
                count = len(entry.pieces())
                typer.echo(f"{set_name.ljust(width)}  {count:4d} pieces  {entry.summary}")
            return
        typer.echo(draw_pieces(ctx.resolve_pieces(name)))

    @app.command()
    @guarded
    def backends():
        """List the solver backends and whether each can run here.

        Example: polyfit backends
        """
        registry = ctx.registry
        width = max(len(n) for n in registry.backends)
        for backend_name, backend in registry.backends.items():
            reason = backend.unavailable_reason()
            status = "available" if reason is None else f"unavailable: {reason}"
            caps = ", ".join(sorted(backend.capabilities)) or "-"
            typer.echo(f"{backend_name.ljust(width)}  {status}; supports: {caps}; {backend.summary}")
