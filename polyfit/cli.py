"""The ``polyfit`` command line: thin commands over the library.

Library code raises :class:`polyfit.errors.PolyfitError`; only here does it become a message on
stderr and exit code 2. Ctrl-C prints what was found so far and exits with 130.
"""

from __future__ import annotations

import gc
import sys
import warnings
from pathlib import Path
from typing import Optional

import typer

from polyfit import __version__
from polyfit.errors import PolyfitError, error_line
from polyfit.hookspecs import hookimpl
from polyfit.plugins import DEFAULT_PLUGINS, get_plugin_manager
from polyfit.registry import Registry
from polyfit.commands import EXIT_INTERRUPTED, EXIT_USAGE

class Context:
    """What every command needs: the plugin manager and, built on first use, the registry."""

    def __init__(self, pm):
        self.pm = pm
        self._registry = None
        self.commands_by_plugin: dict[str, list[str]] = {}
        self.problems: list[str] = []

    @property
    def registry(self) -> Registry:
        if self._registry is None:
            self._registry = Registry.from_plugins(self.pm)
            for problem in self.problems + self._registry.problems:
                typer.echo(f"polyfit: warning: {problem}", err=True)
        return self._registry

    def load_puzzle(self, board_path, pieces_spec=None, mirror: bool = False, select=None, break_symmetry: bool = True):
        """The puzzle of a board file and ``--pieces`` (or the board's '; pieces:' line, or the
        pieces the file holds), on this session's registry; ``select`` picks a board of a file
        with many."""
        from polyfit import api

        return api.load(board_path, pieces_spec or None, mirror, plugins=self.registry, select=select,
                        break_symmetry=break_symmetry)

    def resolve_pieces(self, spec: str, base=None):
        from polyfit.formats.piece_specs import resolve_pieces

        with self.registry.session():
            return resolve_pieces(spec, self.registry.piece_set_builders(), base)


def build_app(pm=None, argv=None) -> typer.Typer:
    """Build the CLI from a plugin manager (a fresh one by default), so tests can make their own.
    With ``argv`` (the arguments it will run), only the family of the built-in command they
    name is imported (start-up pays for one command, not all); every family otherwise."""
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
        plugins_dir: Optional[Path] = typer.Option(
            None, "--plugins-dir", help="Also load the plugin .py files in this directory."
        ),
    ):
        """Find, count and draw every way polyomino and polycube pieces fill a board.

        Example: polyfit solve shapes/pentomino/6x10.txt --count
        """

    if pm.get_plugin("polyfit.commands") is None:
        pm.register(BuiltinCommands(ctx, families_for(argv)), "polyfit.commands")
    add_plugin_commands(app, ctx)
    return app


# Each built-in command and the family (module of polyfit.commands) that adds it, in the order
# of ``polyfit --help``.
FAMILIES = {
    "solve": "solve", "check": "check", "hint": "hint", "generate": "generate", "atlas": "atlas",
    "estimate": "jobs", "split": "jobs", "run-job": "jobs", "merge": "jobs",
    "xc": "xc", "export-dlx": "xc", "pieces": "info", "backends": "info", "plugins": "info",
    "render": "render", "kit": "kit", "gallery": "gallery", "convert": "convert",
}


def families_for(argv) -> list[str]:
    """The families to import for these arguments: the one of the command they name (its
    first word that is not an option), none for ``--version`` before any command (it answers
    before a command is looked at), or all of them (no command, ``--help``, a plugin's
    command, a misspelt one)."""
    every = list(dict.fromkeys(FAMILIES.values()))
    if argv is None:
        return every
    words = iter(argv)
    for word in words:
        if word == "--plugins-dir":
            next(words, None)
        elif word == "--version":
            return []
        elif not word.startswith("-"):
            return [FAMILIES[word]] if word in FAMILIES else every
    return every


class BuiltinCommands:
    """The built-in commands, added through the same ``register_commands`` hook as a plugin's."""

    def __init__(self, ctx: Context, families=None):
        self.ctx = ctx
        self.families = families_for(None) if families is None else families

    @hookimpl
    def register_commands(self, app):
        import importlib

        for name in self.families:
            importlib.import_module(f"polyfit.commands.{name}").add_commands(app, self.ctx)


BUILT_IN = {"polyfit.commands", *DEFAULT_PLUGINS}


def add_plugin_commands(app: typer.Typer, ctx: Context) -> None:
    """Let each plugin add its commands, noting which it added; a failing plugin is reported."""
    impls = ctx.pm.hook.register_commands.get_hookimpls()  # registration order, the core's first
    for impl in sorted(impls, key=lambda impl: impl.plugin_name != "polyfit.commands"):
        before = {c.name or c.callback.__name__ for c in app.registered_commands}
        try:
            impl.function(app=app)
        except (Exception, SystemExit) as exc:
            if impl.plugin_name in BUILT_IN:
                raise  # polyfit's own bug: a command must not vanish with only a warning
            ctx.problems.append(f"plugin {impl.plugin_name!r} failed in register_commands: {exc!r}")
            continue
        after = {c.name or c.callback.__name__ for c in app.registered_commands}
        ctx.commands_by_plugin[impl.plugin_name] = sorted(after - before)


def plugins_dir_from(argv) -> str | None:
    """``--plugins-dir DIR`` must be known before the app is built: its plugins add commands."""
    for k, arg in enumerate(argv):
        if arg == "--plugins-dir" and k + 1 < len(argv):
            return argv[k + 1]
        if arg.startswith("--plugins-dir="):
            return arg.split("=", 1)[1]
    return None


def run(app: typer.Typer, args=None) -> int:
    """Run the app, turning library errors into a message and exit code 2."""
    for stream in (sys.stdout, sys.stderr):
        # A file name's undecodable bytes (held as lone surrogates) print as escapes, where a
        # UTF-8 locale's strict streams would end the run in an encoding error.
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")
    try:
        app(args=args, standalone_mode=True)
    except PolyfitError as exc:
        typer.echo(error_line(exc), err=True)
        return EXIT_USAGE
    except KeyboardInterrupt:  # before or after the command ran
        typer.echo("polyfit: interrupted", err=True)
        return EXIT_INTERRUPTED
    except SystemExit as exc:
        if unreported_ctrl_c(exc):
            typer.echo("polyfit: interrupted", err=True)
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    return 0


def unreported_ctrl_c(exc: BaseException) -> bool:
    """Did typer turn a Ctrl-C that no command caught into exit 130 (raising its exit *from*
    the interrupt)? A command that reports its own interrupt exits without that cause."""
    while exc is not None:
        if isinstance(exc.__cause__, KeyboardInterrupt):
            return True
        exc = exc.__context__
    return False


def show_warning(message, category, filename, lineno, file=None, line=None):
    """Warnings (a plugin that failed, a name registered twice) as one line each, like errors."""
    typer.echo(f"polyfit: warning: {message}", err=True)


# Young objects are collected after this many allocations (Python's default is 700). Setting
# up a puzzle makes hundreds of thousands of objects that live to the end (placements, their
# cells, options), so at 700 the collector ran 58 times on a 15-piece cube, scanning them again
# and again and freeing nothing; cycles are still collected, less often.
YOUNG_COLLECTION = 10_000


def tune_collector() -> None:
    """A command runs once and exits: what start-up loaded (modules, the app) lives as long as
    the process, so it is frozen out of the collector's scans, and the young generation is
    collected less often. The collector is on from here (``python -m polyfit`` and the
    ``polyfit`` command turn it off while the modules load)."""
    gc.freeze()
    gc.set_threshold(YOUNG_COLLECTION, *gc.get_threshold()[1:])
    gc.enable()


def main():
    tune_collector()
    warnings.showwarning = show_warning
    try:
        pm = get_plugin_manager(plugins_dir=plugins_dir_from(sys.argv[1:]))
        app = build_app(pm, sys.argv[1:])
    except KeyboardInterrupt:  # while the plugins and the commands load
        typer.echo("polyfit: interrupted", err=True)
        sys.exit(EXIT_INTERRUPTED)
    sys.exit(run(app))
