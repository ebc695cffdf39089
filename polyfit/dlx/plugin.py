"""The built-in backends, registered through the same hook as any third-party backend.

The C backends are registered as they are (the search starts with one of them); the
pure-Python twins and the memo counters are registered by name, and their module is
imported when something more is first asked of one of them."""

import importlib

from polyfit.hookspecs import hookimpl

# Each backend loaded on first use: its name, and its module and class.
DEFERRED = {
    "dlx-python": ("polyfit.dlx.python", "PythonDLX"),
    "bitset-python": ("polyfit.dlx.bitset_python", "PythonBitset"),
    "count-memo": ("polyfit.dlx.memo", "MemoBackend"),
    "count-memo-python": ("polyfit.dlx.memo", "PythonMemoBackend"),
}


class Deferred:
    """A built-in backend whose module is imported the first time something past its name is
    asked of it; then it is that backend in every respect."""

    def __init__(self, name: str):
        self.name = name
        self._backend = None

    def loaded(self):
        if self._backend is None:
            module, cls = DEFERRED[self.name]
            self._backend = getattr(importlib.import_module(module), cls)()
        return self._backend

    def solutions(self, problem, stats):
        return self.loaded().solutions(problem, stats)

    def __getattr__(self, attribute):
        if attribute.startswith("_"):  # not the backend's: also keeps unpickling from looping
            raise AttributeError(attribute)
        return getattr(self.loaded(), attribute)

    def __repr__(self):
        return repr(self._backend) if self._backend is not None else f"<backend {self.name} (not loaded yet)>"


@hookimpl
def register_backends(register):
    from polyfit.dlx.bitset import BitsetBackend
    from polyfit.dlx.native import NativeDLX

    register(Deferred("dlx-python"))
    register(NativeDLX())
    register(BitsetBackend())
    register(Deferred("bitset-python"))
    register(Deferred("count-memo"))
    register(Deferred("count-memo-python"))
