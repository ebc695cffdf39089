"""The built-in backends, registered through the same hook as any third-party backend."""

from ..hookspecs import hookimpl
from .python import PythonDLX


@hookimpl
def register_backends(register):
    from .bitset import BitsetBackend
    from .bitset_python import PythonBitset
    from .native import NativeDLX

    register(PythonDLX())
    register(NativeDLX())
    register(BitsetBackend())
    register(PythonBitset())
