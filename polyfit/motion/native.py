"""The C twin of :mod:`polyfit.motion.search` (``_motion``), and the choice between the two.

The C module keeps the same pair-limit cache and runs the same search, move for move; without
a compiler at install time it is missing and the Python twin runs (unless it was asked for by
name: then the error says why it is missing)."""

from __future__ import annotations

from array import array
from functools import partial

from polyfit.errors import PolyfitError
from polyfit.motion.driver import level_of as python_level_of
from polyfit.motion.driver import take_apart as python_take_apart
from polyfit.motion.search import Context as PythonContext

try:
    import polyfit.motion._motion as _motion
except ImportError as exc:  # the extension is optional
    _motion = None
    _import_error = str(exc)
else:
    _import_error = None

ENGINES = ("auto", "c", "python")


def unavailable_reason() -> str | None:
    """Why the C twin cannot run here, or None."""
    if _motion is None:
        return f"the C extension polyfit.motion._motion did not build or load ({_import_error})"
    return None


class _Padded:
    """The C module works on three coordinates: fewer are padded with leading zeros."""

    def __init__(self, dim, axes):
        self.pad = 3 - dim
        self.dim = dim
        self.inner = _motion.Context(tuple(a + self.pad for a in axes))

    def add_shape(self, cells):
        return self.inner.add_shape([(0,) * self.pad + tuple(c) for c in cells])

    def separate(self, shapes, bases, weights, start, max_states, max_bytes):
        if self.pad:
            bases = _widen(bases, self.dim, self.pad)
            start = _widen(start, self.dim, self.pad)
        status, states, path = self.inner.separate(shapes, bases, weights, start, max_states, max_bytes)
        if self.pad and path is not None:
            path = [(_narrow(p, self.dim, self.pad), *rest) for p, *rest in path]
        return status, states, path

    def take_apart(self, shapes, bases, weights, group, max_states, max_bytes, moves, stuck):
        if self.pad:
            bases = _widen(bases, self.dim, self.pad)
        status, states, level, total, tree = self.inner.take_apart(shapes, bases, weights, group, max_states,
                                                                   max_bytes, moves, stuck)
        if self.pad and tree is not None:
            tree = self._narrow_tree(tree)
        return status, states, level, total, tree

    def _narrow_tree(self, tree):
        if tree is None:
            return None
        pieces, path, left, removed = tree
        path = [(_narrow(p, self.dim, self.pad), *rest) for p, *rest in path]
        return pieces, path, self._narrow_tree(left), self._narrow_tree(removed)

    def exact(self, shapes, bases, weights, start, min_level, max_states, max_bytes):
        if self.pad:
            bases = _widen(bases, self.dim, self.pad)
            start = _widen(start, self.dim, self.pad)
        status, states, level, paths = self.inner.exact(shapes, bases, weights, start, min_level, max_states, max_bytes)
        if self.pad:
            paths = [[(_narrow(p, self.dim, self.pad), *rest) for p, *rest in path] for path in paths]
        return status, states, level, paths


class _Stepped(_Padded):
    """The C twin of a Python context whose directions step along vectors (prisms): C runs the
    searches and keeps the pair limits, which the Python context's ``compute_limits`` works out
    once for each pair of shapes and offset."""

    def __init__(self, geometry):
        self.pad = 0
        self.dim = geometry.dim
        self.geometry = geometry
        steps = []
        for step in geometry.steps:
            vector = [0] * 3
            for coordinate, change in step:
                vector[coordinate] = change
            steps.append(tuple(vector))
        self.inner = _motion.Context(tuple(steps), geometry.compute_limits)

    def add_shape(self, cells):
        number = self.geometry.add_shape(cells)
        if self.inner.add_shape(cells) != number:
            raise PolyfitError("the C and Python contexts numbered a shape differently: a bug")
        return number


def stepped(geometry):
    """The C context over ``geometry``, a Python context stepping along vectors (see
    :class:`_Stepped`)."""
    return _Stepped(geometry)


def _widen(values, dim, pad):
    out = []
    for k in range(0, len(values), dim):
        out.extend((0,) * pad)
        out.extend(values[k:k + dim])
    return out


def _narrow(values, dim, pad):
    width = dim + pad
    return tuple(v for k in range(0, len(values), width) for v in values[k + pad:k + width])


def take_apart(context, shapes, bases, weights, group, max_states, max_bytes, moves, stuck):
    """One assembly taken apart by the twin ``context`` belongs to (see
    :mod:`polyfit.motion.driver`)."""
    return driver_of(context)(shapes, bases, weights, group, max_states, max_bytes, moves, stuck)


def level_table(context, place, shapes, bases, weights) -> tuple:
    """Per placement, what :func:`level_of` reads: its place in BurrTools' order, shape number,
    base (``context.dim`` numbers a placement, one after another) and weight, as the twin
    ``context`` belongs to reads them."""
    if isinstance(context, PythonContext):
        return list(place), list(shapes), list(bases), list(weights)
    if context.pad:
        bases = _widen(bases, context.dim, context.pad)
    return tuple(array("i", values) for values in (place, shapes, bases, weights))


def level_of(context, placements, table, max_states, max_bytes) -> tuple:
    """``(status, states, level)`` of the assembly of these placements (see
    :func:`polyfit.motion.driver.level_of`; ``table`` from :func:`level_table`)."""
    if isinstance(context, PythonContext):
        return python_level_of(context, placements, *table, max_states, max_bytes)
    return context.inner.level_of(tuple(placements), *table, max_states, max_bytes)


def driver_of(context):
    """The driver of the twin ``context`` belongs to, as a function of the rest of
    :func:`take_apart`'s arguments."""
    if isinstance(context, PythonContext):
        return partial(python_take_apart, context)
    return context.take_apart if context.pad else context.inner.take_apart


def context(engine: str, dim: int, axes, geometry=None):
    """A search context for ``engine`` (``auto``: C when it loaded, else Python): unit steps
    along ``axes``, or, with ``geometry`` (a Python context stepping along vectors, such as
    prisms'), that context or its C twin (:func:`stepped`)."""
    if engine not in ENGINES:
        from polyfit.errors import UnknownNameError

        raise UnknownNameError("disassembly engine", engine, ENGINES)
    if engine == "python" or (engine == "auto" and _motion is None) or dim > 3:
        if engine == "c":
            raise PolyfitError(f"the C disassembler handles at most 3 coordinates, not {dim}")
        return geometry if geometry is not None else PythonContext(dim, axes)
    if _motion is None:
        raise PolyfitError(unavailable_reason())
    return stepped(geometry) if geometry is not None else _Padded(dim, axes)
