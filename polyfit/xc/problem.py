"""The exact cover problem, independent of any geometry.

Items are named; the first ``len(primary)`` must be covered exactly once, the secondary ones at
most once. Each option is a tuple of item indices into ``primary + secondary``. What an option
means (a piece placement, a queen) is kept by whoever built the problem, never here.

Two generalisations from Knuth's TAOCP 7.2.2.1 widen what "exactly once" means:

- *multiplicities* (Algorithm M): primary item ``k`` may carry bounds ``bounds[k] = (lo, hi)``,
  and is then covered by at least ``lo`` and at most ``hi`` chosen options;
- *colours* (Algorithm C): an option may give a secondary item a colour (``colours[k][j]`` is
  the colour of the ``j``-th item of option ``k``, 0 for none). Options that agree on the colour
  of a shared secondary item may both be chosen; an uncoloured mention still excludes all others.

The options are a list of tuples, or a :class:`PackedOptions`, which holds them as two int32
buffers and makes the tuples only when someone reads them.
"""

from __future__ import annotations

from array import array
from collections.abc import MutableSequence
from dataclasses import dataclass, field
from typing import Iterator, Protocol

from polyfit.errors import PolyfitError, plural

try:
    from polyfit.xc import _reduce  # pack, unpack and take in C
except ImportError:  # the C extension did not build: PackedOptions' Python twins do the work
    _reduce = None


class PackedOptions(MutableSequence):
    """Options held packed, as two int32 buffers, and made into tuples only when read.

    Option ``k`` is the tuple of ``items[starts[k]:starts[k + 1]]``: ``starts`` holds one offset
    more than there are options (the first 0), ``items`` the item indices of one option after
    another; both are int32 buffers in this machine's byte order (``array("i")`` or bytes),
    never written to. The set-up makes its options this way (:mod:`polyfit.puzzle.cover`), the
    reduction reads the buffers as they are (:meth:`buffers`) and keeps the few options it
    keeps with :meth:`take`, so the thousands it removes never become Python tuples.

    Otherwise it is a list of tuples: reading an option (indexing, iterating, comparing with a
    list) makes the tuples of all of them once and keeps them; changing it (``append``, ``+=``,
    item assignment) changes that list and drops the buffers, which :meth:`buffers` packs again
    when asked. Made from tuples (``PackedOptions(tuples=...)``), it packs them on first ask.
    """

    __slots__ = ("_starts", "_items", "_tuples")

    def __init__(self, starts=None, items=None, tuples: list | None = None):
        if (starts is None) != (items is None) or (starts is None and tuples is None):
            raise ValueError("PackedOptions needs both buffers (starts, items), or the tuples, or both")
        if starts is not None and memoryview(starts).nbytes < 4:
            raise ValueError("PackedOptions: starts needs one offset more than there are options")
        self._starts, self._items, self._tuples = starts, items, tuples

    def buffers(self) -> tuple:
        """``(starts, items)``, the int32 buffers, packed from the tuples if need be."""
        if self._starts is None:
            self._starts, self._items = _pack(self._tuples)
        return self._starts, self._items

    def take(self, chosen) -> PackedOptions:
        """The options at the indices ``chosen``, in that order (packed, when these are)."""
        n = len(self)
        chosen = list(chosen)
        for k in chosen:
            if not -n <= k < n:
                raise IndexError(f"option {k} out of range ({n} options)")
        chosen = [k % n for k in chosen]
        tuples = None if self._tuples is None else [self._tuples[k] for k in chosen]
        if self._starts is None:
            return PackedOptions(tuples=tuples)
        if len(chosen) == n and chosen == list(range(n)):
            return PackedOptions(self._starts, self._items, tuples)  # the buffers are never written to
        take = _reduce.take if _reduce is not None else _take_python
        return PackedOptions(*take(self._starts, self._items, chosen), tuples)

    def _list(self) -> list:
        if self._tuples is None:
            self._tuples = (_reduce.unpack if _reduce is not None else _unpack_python)(self._starts, self._items)
        return self._tuples

    def _changing(self) -> list:
        tuples = self._list()
        self._starts = self._items = None
        return tuples

    def __len__(self) -> int:
        if self._tuples is not None:
            return len(self._tuples)
        return memoryview(self._starts).nbytes // 4 - 1

    def __getitem__(self, k):
        return self._list()[k]

    def __iter__(self):
        return iter(self._list())

    def __setitem__(self, k, value) -> None:
        self._changing()[k] = value

    def __delitem__(self, k) -> None:
        del self._changing()[k]

    def insert(self, k, value) -> None:
        self._changing().insert(k, value)

    def __eq__(self, other) -> bool:
        if isinstance(other, PackedOptions):
            other = other._list()
        return self._list() == other if isinstance(other, list) else NotImplemented

    __hash__ = None  # a list of options is no key

    def __repr__(self) -> str:
        return f"PackedOptions({self._list()!r})"

    def __reduce__(self):
        if self._starts is not None:  # the buffers are smaller to send than the tuples
            return PackedOptions, (bytes(memoryview(self._starts)), bytes(memoryview(self._items)))
        return PackedOptions, (None, None, self._tuples)


def packed(options) -> tuple:
    """Options (a list of tuples or :class:`PackedOptions`) as ``(starts, items)`` int32 buffers."""
    return options.buffers() if isinstance(options, PackedOptions) else _pack(options)


def _pack(options) -> tuple:
    if _reduce is not None and type(options) is list and all(type(option) is tuple for option in options):
        return _reduce.pack(options)  # one pass in C (0.02 s in Python for 444,671 items)
    starts, items = array("i", [0]), array("i")
    for option in options:
        if any(i < 0 for i in option):
            raise ValueError("pack: an item index is out of range")
        items.extend(option)
        starts.append(len(items))
    return starts, items


def _ints(buffer) -> memoryview:
    """An int32 buffer (an array("i") or bytes) as a memoryview of ints."""
    view = memoryview(buffer)
    return view if view.format == "i" else view.cast("B").cast("i")


def _check_packed(starts, items) -> None:
    """The Python twin of the C side's check of packed options (check_packed in _reduce.c)."""
    if len(starts) < 1 or starts[0] != 0:
        raise ValueError("option offsets must start at 0")
    for a, b in zip(starts, starts[1:]):
        if not a <= b <= len(items):
            raise ValueError("option offsets out of range")
    if any(i < 0 for i in items):
        raise ValueError("item index out of range")


def _unpack_python(starts, items) -> list[tuple[int, ...]]:
    starts, items = _ints(starts), _ints(items)
    _check_packed(starts, items)
    return [tuple(items[starts[k]:starts[k + 1]]) for k in range(len(starts) - 1)]


def _take_python(starts, items, chosen) -> tuple[array, array]:
    starts, items = _ints(starts), _ints(items)
    _check_packed(starts, items)
    new_starts, new_items = array("i", [0]), array("i")
    for k in chosen:
        new_items.extend(items[starts[k]:starts[k + 1]])
        new_starts.append(len(new_items))
    return new_starts, new_items



@dataclass
class ExactCoverProblem:
    primary: list[str]
    secondary: list[str] = field(default_factory=list)
    options: list[tuple[int, ...]] | PackedOptions = field(default_factory=list)
    bounds: list[tuple[int, int]] = field(default_factory=list)  # per primary item; [] = (1, 1)
    colours: list[tuple[int, ...]] = field(default_factory=list)  # per option; [] = uncoloured
    colour_names: list[str] = field(default_factory=list)  # colour k is colour_names[k - 1]

    @property
    def items(self) -> list[str]:
        return self.primary + self.secondary

    @property
    def has_multiplicities(self) -> bool:
        return any(b != (1, 1) for b in self.bounds)

    @property
    def has_colours(self) -> bool:
        return any(any(c) for c in self.colours)

    @property
    def needs(self) -> frozenset[str]:
        """The backend capabilities this problem calls for."""
        needs = set()
        if self.secondary:
            needs.add("secondary")
        if self.has_multiplicities:
            needs.add("multiplicities")
        if self.has_colours:
            needs.add("colours")
        return frozenset(needs)

    def bound(self, item: int) -> tuple[int, int]:
        return self.bounds[item] if self.bounds else (1, 1)

    def validate(self) -> None:
        n = len(self.primary) + len(self.secondary)
        names = self.items
        if len(set(names)) != len(names):
            raise PolyfitError("exact cover problem has duplicate item names")
        for k, option in enumerate(self.options):
            if len(set(option)) != len(option):
                raise PolyfitError(f"option {k} names an item twice")
            for i in option:
                if not 0 <= i < n:
                    raise PolyfitError(f"option {k} names item {i}, but there {'is' if n == 1 else 'are'} {plural(n, 'item')}")
        if self.bounds and len(self.bounds) != len(self.primary):
            raise PolyfitError("exact cover problem needs one (lo, hi) bound per primary item")
        for k, (lo, hi) in enumerate(self.bounds):
            if not 0 <= lo <= hi or hi < 1:
                raise PolyfitError(f"item {names[k]!r} has bounds {lo}..{hi}; need 0 <= lo <= hi, hi >= 1")
        if self.colours:
            if len(self.colours) != len(self.options):
                raise PolyfitError("exact cover problem needs one colour tuple per option")
            for k, (option, colours) in enumerate(zip(self.options, self.colours)):
                if len(colours) != len(option):
                    raise PolyfitError(f"option {k} has {plural(len(option), 'item')} but {plural(len(colours), 'colour')}")
                for i, c in zip(option, colours):
                    if c and i < len(self.primary):
                        raise PolyfitError(f"option {k} colours primary item {names[i]!r}; only secondary items take colours")
                    if c < 0 or c > len(self.colour_names) and self.colour_names:
                        raise PolyfitError(f"option {k} has an unknown colour {c}")

    def shuffled(self, seed: int) -> tuple[ExactCoverProblem, list[int]]:
        """The same problem with options in a seeded random order.

        Returns the new problem and ``order``, where ``order[k]`` is the original index of new
        option ``k``: a backend then tries options in a different but reproducible order.
        """
        order = list(range(len(self.options)))
        import random  # only a seeded run shuffles

        random.Random(seed).shuffle(order)
        return self.with_options(order), order

    def with_options(self, chosen: list[int]) -> "ExactCoverProblem":
        """The same items with the options ``chosen`` (indices), in that order."""
        options = self.options
        return ExactCoverProblem(
            list(self.primary),
            list(self.secondary),
            options.take(chosen) if isinstance(options, PackedOptions) else [options[k] for k in chosen],
            list(self.bounds),
            [self.colours[k] for k in chosen] if self.colours else [],
            list(self.colour_names),
        )


@dataclass
class SearchStats:
    """Work counted as Knuth counts it: search-tree nodes and link updates."""

    nodes: int = 0
    updates: int = 0
    solutions: int = 0


class Backend(Protocol):
    """What every solver backend provides (registered through the ``register_backends`` hook)."""

    name: str
    summary: str
    capabilities: frozenset[str]  # of "secondary", "multiplicities", "colours"

    def unavailable_reason(self) -> str | None:
        """None if the backend can run here, else why not (e.g. the C extension did not build)."""

    def solutions(self, problem: ExactCoverProblem, stats: SearchStats) -> Iterator[tuple[int, ...]]:
        """Yield every solution as a tuple of option indices, in the order they were chosen.

        ``stats`` is updated as the search runs. Closing the iterator stops the search.
        """
