"""``polyfit pieces`` and ``polyfit backends``: what this installation can use."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from polyfit.commands import guarded
from polyfit.errors import PolyfitError, plural


def add_commands(app: typer.Typer, ctx) -> None:
    @app.command()
    @guarded
    def pieces(
        name: Optional[str] = typer.Argument(None, help="A piece set (or spec) to draw."),
        png: Optional[Path] = typer.Option(None, "--png", help="Draw the pieces to this PNG file instead (3D pieces in isometric view)."),
        cell: int = typer.Option(32, "--cell", min=4, help="Cell size in pixels for --png."),
        margin: int = typer.Option(16, "--margin", min=0, help="Margin around each piece in pixels."),
        svg: Optional[Path] = typer.Option(None, "--svg", help="Draw the pieces to this SVG file (as --png; with --cut, for a laser cutter)."),
        cut: bool = typer.Option(False, "--cut", help="Make --svg a laser-cutting file: each piece one closed outline in millimetres, laid apart."),
        unit: float = typer.Option(15.0, "--unit", help="Cell edge in millimetres for --cut."),
        kerf: float = typer.Option(0.0, "--kerf", help="With --cut: the laser's kerf in millimetres; outlines move out by half of it."),
        force: bool = typer.Option(False, "--force", help="Overwrite an existing --png or --svg file."),
        as_json: bool = typer.Option(False, "--json", help='Print JSON: {"pieces": {NAME: cells}} for a set, the sets without one.'),
    ):
        """List the piece sets, or draw the pieces of one (as text, or a picture with --png).

        Sets combine with commas; different pieces that share a name
        then take their size after it (tetrominoes,pentominoes: I4 and
        I5, L4 and L5, T4 and T5). SET:NAME picks one piece by its
        set's own name (tetrominoes:I); SET:NAME=N gives it a count,
        also next to its whole set, in either order
        (pentominoes:F=0..2,pentominoes).

        Example: polyfit pieces pentominoes

        Example: polyfit pieces tetrominoes,pentominoes

        Example: polyfit pieces soma --png soma.png

        Example: polyfit pieces pentominoes --svg cut.svg --cut --unit 20 --kerf 0.2

        Example: polyfit pieces tetrasticks --json
        """
        import json

        from polyfit.formats.textart import draw_pieces
        from polyfit.report import piece_sets_json, pieces_json

        registry = ctx.registry
        if as_json:
            if png is not None or svg is not None or cut or kerf:
                raise PolyfitError("--json prints the pieces; draw them with --png or --svg in another run")
            if name is not None:
                typer.echo(json.dumps(pieces_json(ctx.resolve_pieces(name))))
            else:
                entries = [(n, len(e.pieces()), e.summary) for n, e in registry.piece_sets.items()]
                typer.echo(json.dumps(piece_sets_json(entries)))
            return
        if svg is not None or cut or kerf:
            write_pieces_svg(ctx, name, svg, cut, unit, kerf, cell, margin, force)
            if png is None:
                return
        if png is not None:
            from polyfit.files import check_writable
            from polyfit.render.pictures import pieces_image, save_png
            from polyfit.render.style import Style

            if name is None:
                raise PolyfitError("--png draws one piece set: name it, e.g. polyfit pieces pentominoes --png pieces.png")
            check_writable(png, force)
            image = pieces_image(ctx.resolve_pieces(name), Style(cell=cell, margin=margin))
            save_png(image, png, force=force)
            typer.echo(f"wrote {png} ({image.width}x{image.height})")
            return
        if name is None:
            width = max(len(n) for n in registry.piece_sets)
            for set_name, entry in registry.piece_sets.items():
                try:
                    count = plural(len(entry.pieces()), "piece", spec="4d")
                except PolyfitError as exc:  # a broken plugin's set: say so, list the others
                    typer.echo(f"polyfit: warning: {exc}", err=True)
                    count = "  (failed)"
                typer.echo(f"{set_name.ljust(width)}  {count:11}  {entry.summary}")
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

    add_plugin_listing(app, ctx)


def write_pieces_svg(ctx, name, svg, cut: bool, unit: float, kerf: float, cell: int, margin: int,
                     force: bool) -> None:
    """``polyfit pieces SET --svg FILE [--cut]``: the piece sheet, or the pieces to cut."""
    from polyfit.files import check_writable
    from polyfit.render.cut import check_sizes
    from polyfit.render.style import Style
    from polyfit.render.svg import cut_shapes, cut_svg, pieces_svg, save_svg

    if svg is None:
        raise PolyfitError("--cut and --kerf make the --svg file a laser-cutting file; add --svg FILE")
    if kerf and not cut:
        raise PolyfitError("--kerf sets the laser's kerf for --cut; add --cut")
    if name is None:
        raise PolyfitError("--svg draws one piece set: name it, e.g. polyfit pieces pentominoes --svg pieces.svg")
    if cut:
        check_sizes(unit, kerf)
    check_writable(svg, force)
    pieces = ctx.resolve_pieces(name)
    if cut:
        shapes = cut_shapes(pieces)
        save_svg(cut_svg(shapes, unit, kerf, f"{name}: pieces to cut"), svg, force)
        typer.echo(f"wrote {svg} ({plural(len(shapes), 'piece')} to cut, {unit:g} mm a cell, kerf {kerf:g} mm)")
    else:
        save_svg(pieces_svg(pieces, Style(cell=cell, margin=margin), name), svg, force)
        typer.echo(f"wrote {svg}")


def describe_plugins(ctx) -> str:
    registry = ctx.registry
    report = ctx.pm.polyfit_report
    lines = []
    plugins = list(report.plugins)
    if ctx.pm.get_plugin("polyfit.commands") is not None:
        from polyfit import __version__
        from polyfit.plugins import PluginInfo

        plugins.insert(0, PluginInfo("polyfit.commands", __version__, "built-in"))
    for info in plugins:
        provided = registry.provided_by(info.name)
        commands = ctx.commands_by_plugin.get(info.name)
        if commands:
            provided["commands"] = commands
        what = "; ".join(f"{kind}: {', '.join(names)}" for kind, names in provided.items() if names)
        lines.append(f"{info.name} {info.version} ({info.origin})\n    {what or 'nothing registered'}")
    for problem in report.problems + registry.problems + ctx.problems:
        lines.append(f"problem: {problem}")
    return "\n".join(lines)


def add_plugin_listing(app: typer.Typer, ctx) -> None:
    @app.command()
    @guarded
    def plugins():
        """List every plugin, built-in ones included, with its version and what it provides.

        Example: polyfit plugins
        """
        typer.echo(describe_plugins(ctx))
