"""Records: small classes of named fields with a repr and ``==`` by those fields.

What ``@dataclass`` gives, without its price at import. On Python 3.11 a dataclass compiles
its ``__init__``, ``__repr__`` and ``__eq__`` from source text when its module loads, about a
millisecond a class; the records on the way of every command (the plan of a run, the
registry's entries, the placement statistics, a BurrTools file's parts) write their
``__init__`` out and take the rest from here. Fields are the names in ``__slots__``; those
starting with ``_`` (a cache) are left out of the repr and of ``==``.
"""

from __future__ import annotations


class Record:
    __slots__ = ()

    def _fields(self):
        for cls in reversed(type(self).__mro__):
            for name in cls.__dict__.get("__slots__", ()):
                if not name.startswith("_"):
                    yield name

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._fields())
        return f"{type(self).__name__}({fields})"

    def __eq__(self, other):
        if type(other) is not type(self):
            return NotImplemented
        return all(getattr(self, name) == getattr(other, name) for name in self._fields())
