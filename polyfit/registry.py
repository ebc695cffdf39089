"""What the plugins provide: piece sets, backends and shape readers, collected through the hooks.

The core owns the registries; each plugin's hook gets a ``register`` callback. Plugins are asked
in the order they were registered (built-ins first), so on a name collision the first one wins
and a warning names both.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from pathlib import Path

from polyfit.errors import PolyfitError, UnknownNameError
from polyfit.files import cannot, path_exists, path_is_dir
from polyfit.lattices import base as lattice_table
from polyfit.records import Record

AUTO_BACKEND_ORDER = ("bitset-c", "dlx-c", "bitset-python", "dlx-python")
# What a plugin may raise, besides PolyfitError, that must not end the program with a traceback:
# every error, and a plugin's own sys.exit().
PLUGIN_FAILURES = (Exception, SystemExit)


def guarded(function, what: str):
    """``function`` with any failure but a PolyfitError (and the user's Ctrl-C) turned into one
    PolyfitError that says ``what`` failed: a plugin's bug is one line naming the plugin, not
    a traceback."""

    def call(*args, **kwargs):
        try:
            return function(*args, **kwargs)
        except PolyfitError:
            raise
        except PLUGIN_FAILURES as exc:
            raise PolyfitError(f"{what} failed: {exc!r}") from None

    call.__name__ = getattr(function, "__name__", "call")
    call.__wrapped__ = function
    return call


def _read_all(entry):
    """A reader of files with many boards offers ``read.read_all(path)``, and takes
    ``read(path, select=...)``; other readers return None here."""
    return getattr(getattr(entry.read, "__wrapped__", entry.read), "read_all", None)


def is_built_in(plugin: str) -> bool:
    return plugin.startswith("polyfit.")


class PluginBackend:
    """A plugin's backend, with failures in its calls reported by name (the built-in backends
    are used as they are, with nothing between the search and its caller)."""

    def __init__(self, backend, plugin: str):
        self._backend = backend
        self._what = f"backend {getattr(backend, 'name', '?')!r} of plugin {plugin!r}"

    def __getattr__(self, name):
        return getattr(self._backend, name)

    def unavailable_reason(self):
        try:
            return self._backend.unavailable_reason()
        except PLUGIN_FAILURES as exc:
            return f"{self._what} failed to say whether it can run: {exc!r}"

    def problem_reason(self, problem):
        check = getattr(self._backend, "problem_reason", None)
        return guarded(check, self._what)(problem) if check is not None else None

    def solutions(self, problem, stats):
        try:
            for solution in self._backend.solutions(problem, stats):
                yield tuple(solution)
        except PolyfitError:
            raise
        except PLUGIN_FAILURES as exc:
            raise PolyfitError(f"{self._what} failed: {exc!r}") from None


def _too_large(backend, problem) -> str | None:
    """A backend may limit the problems it takes (``problem_reason``); most take any."""
    check = getattr(backend, "problem_reason", None)
    return check(problem) if check is not None else None


class PieceSetEntry(Record):
    """A registered piece set: ``build()`` makes its pieces (once, on first use); ``registry``
    is the registry it belongs to (what lattice names mean)."""

    __slots__ = ("name", "build", "summary", "plugin", "registry", "_pieces")

    def __init__(self, name: str, build, summary: str, plugin: str, registry=None):
        self.name, self.build, self.summary, self.plugin, self.registry = name, build, summary, plugin, registry
        self._pieces: list | None = None

    def pieces(self) -> list:
        if self._pieces is None:
            from polyfit.puzzle.pieces import Piece

            what = f"piece set {self.name!r} of plugin {self.plugin!r}"
            with self.registry.session() if self.registry is not None else lattice_table.using({}):
                pieces = guarded(lambda: list(self.build()), what)()
            if not pieces or not all(isinstance(p, Piece) for p in pieces):
                raise PolyfitError(f"{what} gave no pieces, or something that is not a polyfit.Piece")
            self._pieces = pieces
        return self._pieces


class ReaderEntry(Record):
    """A registered shape reader: the files it reads (``suffixes``, ``sniff``) and ``read``."""

    __slots__ = ("name", "suffixes", "read", "sniff", "plugin")

    def __init__(self, name: str, suffixes: tuple[str, ...], read, sniff, plugin: str):
        self.name, self.suffixes, self.read, self.sniff, self.plugin = name, suffixes, read, sniff, plugin


class ExporterEntry(Record):
    """A registered exporter: the files it writes (``suffixes``) and ``export``."""

    __slots__ = ("name", "suffixes", "export", "summary", "plugin")

    def __init__(self, name: str, suffixes: tuple[str, ...], export, summary: str, plugin: str):
        self.name, self.suffixes, self.export, self.summary, self.plugin = name, suffixes, export, summary, plugin


# Each hook and the tables its registrations fill.
HOOK_TABLES = {
    "register_piece_sets": ("piece_sets",),
    "register_backends": ("backends", "backend_plugins"),
    "register_shape_readers": ("readers",),
    "register_exporters": ("exporters",),
    "register_lattices": ("lattices", "lattice_plugins"),
}


def _table(name: str, hook: str):
    """A table of the registry, filled by its hook when it is first looked at."""

    def get(self) -> dict:
        self._collect(hook)
        return self._tables[name]

    def set(self, value) -> None:
        self._tables[name] = value
        self._pending.pop(hook, None)

    return property(get, set)


class _LatticesByName(Mapping):
    """The ``lattices`` table while only built-in plugins register lattices and none has been
    asked for all of them: looking up a name a built-in declares
    (``polyfit.lattices.base.BUILT_IN_NAMES``) calls that plugin's hook alone; anything else
    (every name, an unknown one) collects them all."""

    def __init__(self, registry: Registry, load_one):
        self._registry, self._load_one = registry, load_one
        self._owner = {name: plugin for plugin, names in lattice_table.BUILT_IN_NAMES.items() for name in names}

    def _table(self) -> dict:
        return self._registry._tables["lattices"]

    def _want(self, name) -> None:
        if "register_lattices" not in self._registry._pending:
            return
        owner = self._owner.get(name) if isinstance(name, str) else None
        if owner is None or not self._load_one(owner):
            self._registry._collect("register_lattices")

    def __getitem__(self, name):
        self._want(name)
        return self._table()[name]

    def __contains__(self, name) -> bool:
        self._want(name)
        return name in self._table()

    def __iter__(self):
        self._registry._collect("register_lattices")
        return iter(self._table())

    def __len__(self) -> int:
        self._registry._collect("register_lattices")
        return len(self._table())

    def __bool__(self) -> bool:
        return bool(self._owner) or len(self) > 0

    def __repr__(self) -> str:
        return repr(dict(self))


class Registry:
    """What the plugins registered, by kind: ``piece_sets``, ``backends`` (and
    ``backend_plugins``), ``readers``, ``exporters``, ``lattices`` (and ``lattice_plugins``),
    and ``problems`` (plugins that failed, with their error).

    A kind that only built-in plugins provide is collected the first time it is looked at
    (a command that reads no piece set imports none of their modules); a kind some other
    plugin provides is collected at once, so its warnings and failures show when it loads.
    """

    piece_sets = _table("piece_sets", "register_piece_sets")
    backends = _table("backends", "register_backends")
    backend_plugins = _table("backend_plugins", "register_backends")
    readers = _table("readers", "register_shape_readers")
    exporters = _table("exporters", "register_exporters")
    lattice_plugins = _table("lattice_plugins", "register_lattices")

    def __init__(self):
        self._tables = {name: {} for names in HOOK_TABLES.values() for name in names}
        self._pending: dict[str, object] = {}  # hook name -> its call, not yet made
        self._lattices_by_name: _LatticesByName | None = None  # while only built-ins register lattices
        self.problems: list[str] = []

    @property
    def lattices(self):
        if self._lattices_by_name is not None:
            return self._lattices_by_name
        self._collect("register_lattices")
        return self._tables["lattices"]

    @lattices.setter
    def lattices(self, value) -> None:
        self._tables["lattices"] = value
        self._lattices_by_name = None
        self._pending.pop("register_lattices", None)

    def _collect(self, hook: str) -> None:
        call = self._pending.pop(hook, None)
        if call is not None:
            call()

    @classmethod
    def from_plugins(cls, pm) -> Registry:
        registry = cls()
        tables = registry._tables
        report = getattr(pm, "polyfit_report", None)
        if report is not None:
            registry.problems.extend(report.problems)

        def add(table, name, entry, plugin):
            if name in table:
                first = getattr(table[name], "plugin", None) or tables["backend_plugins"].get(name)
                warnings.warn(
                    f"plugin {plugin!r} registers {name!r}, already registered by {first!r}; "
                    f"keeping the one from {first!r}",
                    stacklevel=2,
                )
                return False
            table[name] = entry
            return True

        trace = pm.trace.root.get("hook")  # prints only with POLYFIT_TRACE_PLUGINS set

        def call(hook_name, make_register):
            hook = getattr(pm.hook, hook_name)
            impls = hook.get_hookimpls()  # in registration order: built-ins first
            called: set = set()  # the plugins already asked (one at a time, see load_one)

            def ask(impl):
                plugin = impl.plugin_name
                called.add(plugin)
                trace(f"{hook_name}(register) -> plugin {plugin!r}")
                try:
                    impl.function(register=make_register(plugin))
                except PLUGIN_FAILURES as exc:  # a broken plugin must not take the CLI down
                    registry.problems.append(f"plugin {plugin!r} failed in {hook_name}: {exc!r}")

            def collect():
                for impl in impls:
                    if impl.plugin_name not in called:
                        ask(impl)

            def load_one(plugin) -> bool:
                """Ask one plugin alone; False when it is not one of this hook's."""
                impl = next((i for i in impls if i.plugin_name == plugin), None)
                if impl is None:
                    return False
                if plugin not in called:
                    ask(impl)
                return True

            if all(getattr(impl.plugin, "loads_on_first_call", False) for impl in impls):  # built-ins
                registry._pending[hook_name] = collect
                if hook_name == "register_lattices":
                    registry._lattices_by_name = _LatticesByName(registry, load_one)
            else:
                collect()

        call(
            "register_piece_sets",
            lambda plugin: lambda name, build, summary="": add(
                tables["piece_sets"], name, PieceSetEntry(name, build, summary, plugin, registry), plugin
            ),
        )

        def register_backend(plugin):
            def register(backend):
                name = getattr(backend, "name", None)
                if not isinstance(name, str) or not callable(getattr(backend, "solutions", None)):
                    raise PolyfitError(f"registered {backend!r}, which is not a backend (a name and solutions())")
                if not is_built_in(plugin):
                    backend = PluginBackend(backend, plugin)
                if add(tables["backends"], name, backend, plugin):
                    tables["backend_plugins"][name] = plugin

            return register

        call("register_backends", register_backend)
        call(
            "register_shape_readers",
            lambda plugin: lambda name, suffixes, read, sniff=None: add(
                tables["readers"],
                name,
                ReaderEntry(
                    name,
                    tuple(suffixes),
                    guarded(read, f"shape reader {name!r} of plugin {plugin!r}"),
                    sniff,
                    plugin,
                ),
                plugin,
            ),
        )
        call(
            "register_exporters",
            lambda plugin: lambda name, suffixes, export, summary="": add(
                tables["exporters"],
                name,
                ExporterEntry(
                    name, tuple(suffixes), guarded(export, f"exporter {name!r} of plugin {plugin!r}"), summary, plugin
                ),
                plugin,
            ),
        )

        def register_lattice(plugin):
            def register(lattice):
                lattice_table.check_lattice(lattice)
                lattices, owners = tables["lattices"], tables["lattice_plugins"]
                if lattice.name in lattices:
                    first = owners[lattice.name]
                    if lattices[lattice.name] is not lattice or first != plugin:
                        warnings.warn(
                            f"plugin {plugin!r} registers lattice {lattice.name!r}, already registered "
                            f"by {first!r}; keeping the one from {first!r}",
                            stacklevel=2,
                        )
                    return
                lattices[lattice.name] = lattice
                owners[lattice.name] = plugin

            return register

        call("register_lattices", register_lattice)
        return registry

    def session(self):
        """A ``with`` block in which lattice names mean this registry's lattices (reading files,
        building pieces)."""
        return lattice_table.using(self.lattices)

    def provided_by(self, plugin: str) -> dict[str, list[str]]:
        """What one plugin registered, by kind."""
        return {
            "piece sets": [n for n, e in self.piece_sets.items() if e.plugin == plugin],
            "backends": [n for n, p in self.backend_plugins.items() if p == plugin],
            "shape readers": [n for n, e in self.readers.items() if e.plugin == plugin],
            "exporters": [n for n, e in self.exporters.items() if e.plugin == plugin],
            "lattices": [n for n, p in self.lattice_plugins.items() if p == plugin],
        }

    # -- look-ups -------------------------------------------------------------------------

    def piece_set_builders(self) -> dict:
        return {name: (entry.pieces, entry.summary) for name, entry in self.piece_sets.items()}

    def backend(self, name: str = "auto", problem=None, problem_needs: frozenset = frozenset()):
        """The backend named, or with ``auto`` the fastest one that can run ``problem``."""
        if problem is not None:
            problem_needs = problem_needs | problem.needs
        if name == "auto":
            ranked = [n for n in AUTO_BACKEND_ORDER if n in self.backends]
            ranked += sorted(n for n in self.backends if n not in ranked)
            for candidate in ranked:
                backend = self.backends[candidate]
                if backend.unavailable_reason() is None and problem_needs <= backend.capabilities:
                    if problem is None or _too_large(backend, problem) is None:
                        return backend
            raise PolyfitError("no available backend supports this problem")
        if name not in self.backends:
            raise UnknownNameError("backend", name, list(self.backends) + ["auto"])
        backend = self.backends[name]
        reason = backend.unavailable_reason()
        if reason is not None:
            raise PolyfitError(f"backend {name!r} is not available: {reason}")
        missing = problem_needs - backend.capabilities
        if missing:
            raise PolyfitError(f"backend {name!r} does not support {', '.join(sorted(missing))}")
        if problem is not None and _too_large(backend, problem) is not None:
            raise PolyfitError(f"backend {name!r} cannot take this problem: {_too_large(backend, problem)}")
        return backend

    def exporter(self, path, name: str | None = None) -> ExporterEntry:
        """The exporter named, or the one whose suffix the output path has (the longest that
        matches); see :func:`polyfit.formats.export.choose`."""
        from polyfit.formats.export import choose

        return choose(self.exporters, path, name)

    def _sniffs(self, entry, head: bytes) -> bool:
        """Does a reader recognise these first bytes? A reader whose test fails is passed over
        (with a warning), so one broken plugin cannot stop every board from being read."""
        try:
            return bool(entry.sniff(head))
        except PLUGIN_FAILURES as exc:
            warnings.warn(
                f"shape reader {entry.name!r} of plugin {entry.plugin!r} failed to look at a file: {exc!r}",
                stacklevel=3,
            )
            return False

    def read_shape(self, path, select: str | None = None):
        """Read a board file with the reader its first bytes or its suffix call for;
        ``select`` picks one board (a number from 1, or a name) of a file that holds many."""
        entry = self.reader_for(path)
        if select is None:
            with self.session():
                return entry.read(Path(path))
        many = _read_all(entry)
        if many is None:
            raise PolyfitError(f"{path}: a {entry.name} file holds one board; there is none to pick")
        with self.session():
            return entry.read(Path(path), select=select)

    def read_shapes(self, path) -> list:
        """Every board of a file: the many of a file that holds many (BurrTools problems, Soma
        figures), or the one."""
        entry = self.reader_for(path)
        many = _read_all(entry)
        with self.session():
            if many is None:
                return [entry.read(Path(path))]
            return guarded(many, f"shape reader {entry.name!r} of plugin {entry.plugin!r}")(Path(path))

    def holds_many(self, path) -> bool:
        """Is the file of a kind that may hold many boards?"""
        return _read_all(self.reader_for(path)) is not None

    def reader_for(self, path) -> ReaderEntry:
        """The reader a board file's first bytes or its suffix call for."""
        path = Path(path)
        if not path_exists(path):
            raise PolyfitError(f"no such board file: {path}")
        if path_is_dir(path):
            raise PolyfitError(f"{path} is a directory, not a board file")
        try:
            with path.open("rb") as f:
                head = f.read(4096)  # enough for a sniffer to look past a header
        except OSError as exc:
            raise cannot("read", path, exc) from None
        for entry in self.readers.values():
            if entry.sniff is not None and self._sniffs(entry, head):
                return entry
        for entry in self.readers.values():
            if path.suffix.lower() in entry.suffixes:
                return entry
        suffixes = sorted({s for e in self.readers.values() for s in e.suffixes})
        raise PolyfitError(
            f"{path}: no reader for {path.suffix or 'files without a suffix'!r}; "
            f"known suffixes: {', '.join(suffixes)}"
        )
