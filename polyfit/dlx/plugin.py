"""The built-in backends, registered through the same hook as any third-party backend."""

from polyfit.hookspecs import hookimpl
from polyfit.dlx.python import PythonDLX


@hookimpl
def register_backends(register):
    from polyfit.dlx.bitset import BitsetBackend
    from polyfit.dlx.bitset_python import PythonBitset
    from polyfit.dlx.memo import MemoBackend, PythonMemoBackend
    from polyfit.dlx.native import NativeDLX

    register(PythonDLX())
    register(NativeDLX())
    register(BitsetBackend())
    register(PythonBitset())
    register(MemoBackend())
    register(PythonMemoBackend())
