"""The built-in backends, registered through the same hook as any third-party backend."""

from ..hookspecs import hookimpl
from .python import PythonDLX


@hookimpl
def register_backends(register):
    register(PythonDLX())
    try:
        from .native import NativeDLX
    except ImportError:  # pragma: no cover - native.py ships with the package
        return
    register(NativeDLX())
