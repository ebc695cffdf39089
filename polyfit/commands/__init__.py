"""The built-in commands, one module per family; each module has ``add_commands(app, ctx)``."""

from __future__ import annotations

import functools

import typer

from polyfit.errors import PolyfitError, error_line

EXIT_USAGE = 2
EXIT_INTERRUPTED = 130


def guarded(command):
    """Turn a library error into ``polyfit: error: ...`` on stderr and exit code 2."""

    @functools.wraps(command)
    def wrapper(*args, **kwargs):
        try:
            return command(*args, **kwargs)
        except PolyfitError as exc:
            typer.echo(error_line(exc), err=True)
            raise typer.Exit(EXIT_USAGE) from None

    return wrapper
