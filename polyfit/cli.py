"""The ``polyfit`` command line: thin commands over the library.

Library code raises :class:`polyfit.errors.PolyfitError`; only here does it become a message on
stderr and exit code 2. Ctrl-C prints what was found so far and exits with 130.
"""

from __future__ import annotations

import sys

import typer

from . import __version__
from .errors import PolyfitError
from .plugins import get_plugin_manager
from .registry import Registry
from .commands import EXIT_USAGE

class Context:
    """What every command needs: the plugin manager and, built on first use, the registry."""

    def __init__(self, pm):
        self.pm = pm
        self._registry = None

    @property
    def registry(self) -> Registry:
        if self._registry is None:
            self._registry = Registry.from_plugins(self.pm)
            for problem in self._registry.problems:
                typer.echo(f"polyfit: warning: {problem}", err=True)
        return self._registry

    def resolve_pieces(self, spec: str):
        from .pieces import resolve_pieces

        return resolve_pieces(spec, self.registry.piece_set_builders())


def build_app(pm=None) -> typer.Typer:
    """Build the CLI from a plugin manager (a fresh one by default), so tests can make their own."""
    if pm is None:
        pm = get_plugin_manager()
    ctx = Context(pm)
    app = typer.Typer(
        help="Find, count and draw every way polyomino and polycube pieces fill a board.",
        no_args_is_help=True,
        add_completion=False,
        pretty_exceptions_enable=False,
    )

    def version_callback(value: bool):
        if value:
            typer.echo(f"polyfit {__version__}")
            raise typer.Exit()

    @app.callback()
    def main_options(
        version: bool = typer.Option(
            False, "--version", callback=version_callback, is_eager=True, help="Show the version."
        ),
    ):
        """Find, count and draw every way polyomino and polycube pieces fill a board.

        Example: polyfit solve shapes/pentomino/6x10.txt --count
        """

    from .commands import info, solve, xc

    for family in (solve, xc, info):
        family.add_commands(app, ctx)
    pm.hook.register_commands(app=app)
    return app


def run(app: typer.Typer, args=None) -> int:
    """Run the app, turning library errors into a message and exit code 2."""
    try:
        app(args=args, standalone_mode=True)
    except PolyfitError as exc:
        typer.echo(f"polyfit: error: {exc}", err=True)
        return EXIT_USAGE
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    return 0


def main():
    sys.exit(run(build_app()))
