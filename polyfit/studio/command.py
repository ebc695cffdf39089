"""``polyfit studio``: the designer's page in the browser, served from this machine.

The studio adds its command through the ``register_commands`` hook, as a plugin would: the
command line does not import the studio, and the studio does not import the command line.
"""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from polyfit.errors import PolyfitError, install_hint
from polyfit.hookspecs import hookimpl
from polyfit.files import path_is_dir

DEFAULT_PORT = 8765
INSTALL = f"polyfit studio needs Starlette and uvicorn: {install_hint('studio', 'starlette uvicorn')}"


def listening_socket(port: Optional[int]):
    """A socket listening on 127.0.0.1: ``port``, or the default port (a free one when it is
    taken)."""
    import socket  # here: every start of the command line imports this module

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(("127.0.0.1", DEFAULT_PORT if port is None else port))
    except OSError as exc:
        if port is not None:
            sock.close()
            raise PolyfitError(f"cannot listen on 127.0.0.1:{port}: {exc.strerror}; choose another --port") from None
        sock.bind(("127.0.0.1", 0))
    sock.listen(64)
    return sock


@hookimpl
def register_commands(app: typer.Typer) -> None:
    @app.command()
    def studio(
        folder: Path = typer.Argument(Path("."), help="The folder whose board and pieces files the studio opens and saves."),
        port: Optional[int] = typer.Option(None, "--port", min=0, max=65535, help=f"Port on 127.0.0.1 (default {DEFAULT_PORT}, or a free one when it is taken)."),
        no_browser: bool = typer.Option(False, "--no-browser", help="Do not open the page in a browser."),
    ):
        """Design puzzles in the browser: draw a board, check it, count it, browse solutions.

        Starts a server on this machine (127.0.0.1 only) and opens its page. The studio opens
        and saves files in FOLDER only. Stop it with Ctrl-C. Needs polyfit's studio extra (pip install '.[studio]' in polyfit's folder).

        Example: polyfit studio shapes --port 8765
        """
        try:
            import uvicorn  # noqa: F401

            from polyfit.studio.server import serve
        except ImportError:
            raise PolyfitError(INSTALL) from None
        if not path_is_dir(folder):
            raise PolyfitError(f"{folder} is not a folder")
        sock = listening_socket(port)
        url = f"http://127.0.0.1:{sock.getsockname()[1]}/"
        typer.echo(f"polyfit studio: {url} (files in {folder.resolve()}; Ctrl-C stops it)", err=True)
        if not no_browser:
            import webbrowser

            webbrowser.open(url)
        try:
            serve(folder, sock)
        except KeyboardInterrupt:  # Ctrl-C is how the studio is stopped: not an error
            pass
        finally:
            sock.close()
        typer.echo("polyfit studio: stopped", err=True)
