"""The plugin manager: built-in plugins first, then those installed in the ``polyfit`` group.

- ``POLYFIT_LOAD_PLUGINS``: a comma-separated list of installed plugins (distribution or entry
  point names) to load; set but empty, none are loaded. Built-ins always load.
- ``POLYFIT_PLUGINS_DIR`` or ``--plugins-dir DIR``: plain ``.py`` files loaded as plugins.
- ``POLYFIT_TRACE_PLUGINS=1``: print every hook call and its result to stderr.

A plugin that fails to import is reported by name with its error, and everything else keeps
working; hook-name typos in a plugin are caught by ``check_pending``.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys
from pathlib import Path

import pluggy

from polyfit import hookspecs
from polyfit.records import Record

DEFAULT_PLUGINS = (
    "polyfit.lattices.square",
    "polyfit.lattices.triangle",
    "polyfit.lattices.hexagon",
    "polyfit.lattices.sticks",
    "polyfit.lattices.twigs",
    "polyfit.lattices.prisms",
    "polyfit.lattices.spheres",
    "polyfit.lattices.finegrids",
    "polyfit.puzzle.piece_sets",
    "polyfit.puzzle.lattice_sets",
    "polyfit.puzzle.fine_sets",
    "polyfit.puzzle.edge_sets",
    "polyfit.dlx.plugin",
    "polyfit.formats.textart",
    "polyfit.formats.magicavoxel",
    "polyfit.formats.burrtools",
    "polyfit.formats.soma_notation",
    "polyfit.formats.solutions_json",
    "polyfit.formats.png",
    "polyfit.formats.gif",
    "polyfit.formats.svg",
    "polyfit.formats.pdf",
    "polyfit.formats.models",
    "polyfit.studio.command",
)
GROUP = "polyfit"

# The hooks each built-in plugin implements. A built-in is registered as a light stand-in
# (:class:`BuiltIn`) that imports its module when one of these hooks is first called, so a
# command pays only for the plugins it asks for (tests/test_startup.py checks this table
# against the modules). A built-in missing here is imported and registered as it is.
BUILT_IN_HOOKS = {
    "polyfit.lattices.square": ("register_lattices",),
    "polyfit.lattices.triangle": ("register_lattices",),
    "polyfit.lattices.hexagon": ("register_lattices",),
    "polyfit.lattices.sticks": ("register_lattices",),
    "polyfit.lattices.twigs": ("register_lattices",),
    "polyfit.lattices.prisms": ("register_lattices",),
    "polyfit.lattices.spheres": ("register_lattices",),
    "polyfit.lattices.finegrids": ("register_lattices",),
    "polyfit.puzzle.piece_sets": ("register_piece_sets",),
    "polyfit.puzzle.lattice_sets": ("register_piece_sets",),
    "polyfit.puzzle.fine_sets": ("register_piece_sets",),
    "polyfit.puzzle.edge_sets": ("register_piece_sets",),
    "polyfit.dlx.plugin": ("register_backends",),
    "polyfit.formats.textart": ("register_shape_readers", "register_exporters"),
    "polyfit.formats.magicavoxel": ("register_shape_readers",),
    "polyfit.formats.burrtools": ("register_shape_readers",),
    "polyfit.formats.soma_notation": ("register_shape_readers",),
    "polyfit.formats.solutions_json": ("register_exporters",),
    "polyfit.formats.png": ("register_exporters",),
    "polyfit.formats.gif": ("register_exporters",),
    "polyfit.formats.svg": ("register_exporters",),
    "polyfit.formats.pdf": ("register_exporters",),
    "polyfit.formats.models": ("register_exporters",),
    "polyfit.studio.command": ("register_commands",),
}


class BuiltIn:
    """A built-in plugin module, registered under its name with the hooks it implements; the
    module is imported the first time one of them is called."""

    loads_on_first_call = True  # the registry may then wait to call its hooks

    def __init__(self, module: str, hooks: tuple[str, ...]):
        self.__name__ = module
        self._hooks = tuple(hooks)
        for hook in hooks:
            setattr(self, hook, self._deferred(hook))

    def __dir__(self):
        """Only the hooks: pluggy looks at each name ``dir`` gives to find the implementations."""
        return list(self._hooks)

    def module(self):
        return importlib.import_module(self.__name__)

    def _deferred(self, hook: str):
        if hook == "register_commands":

            def impl(app):
                return getattr(self.module(), hook)(app=app)
        else:

            def impl(register):
                return getattr(self.module(), hook)(register=register)

        impl.__name__ = impl.__qualname__ = hook
        return hookspecs.hookimpl(impl)

    def __repr__(self):
        return f"<built-in plugin {self.__name__}>"


def built_in(name: str):
    """What is registered for a built-in plugin: its stand-in, or the module itself."""
    hooks = BUILT_IN_HOOKS.get(name)
    return BuiltIn(name, hooks) if hooks is not None else importlib.import_module(name)


class PluginInfo(Record):
    """A loaded plugin; its ``origin`` is "built-in", "installed (DISTRIBUTION)" or a file path."""

    __slots__ = ("name", "version", "origin")

    def __init__(self, name: str, version: str, origin: str):
        self.name, self.version, self.origin = name, version, origin


class LoadReport(Record):
    """The plugins loaded, and the problems met loading them."""

    __slots__ = ("plugins", "problems")

    def __init__(self, plugins: list[PluginInfo] | None = None, problems: list[str] | None = None):
        self.plugins = [] if plugins is None else plugins
        self.problems = [] if problems is None else problems


def _may_have_plugins() -> bool:
    """Could any installed distribution declare a ``polyfit`` entry point? A quick look at the
    ``entry_points.txt`` files on ``sys.path``, so that a run with no plugins installed skips
    ``importlib.metadata`` (about 0.02 s of start-up). Anything it cannot look into counts as
    a yes."""
    marker = f"[{GROUP}]"
    for entry in sys.path:
        folder = entry or "."
        if not os.path.isdir(folder):
            if os.path.exists(folder):
                return True  # a zip or egg file: let importlib.metadata look
            continue
        try:
            names = os.listdir(folder)
        except OSError:
            return True
        for name in names:
            if name.endswith((".dist-info", ".egg-info")):
                try:
                    with open(os.path.join(folder, name, "entry_points.txt"), encoding="utf-8") as f:
                        if marker in f.read():
                            return True
                except OSError:
                    continue
    return False


def _installed(pm, report: LoadReport, only: set[str] | None):
    if not _may_have_plugins():
        return
    import importlib.metadata

    for ep in importlib.metadata.entry_points(group=GROUP):
        dist = getattr(ep, "dist", None)
        dist_name = dist.metadata["Name"] if dist is not None else ep.name
        version = dist.version if dist is not None else "?"
        if only is not None and ep.name not in only and dist_name not in only:
            continue
        if pm.get_plugin(ep.name) is not None or pm.is_blocked(ep.name):
            continue
        try:
            plugin = ep.load()
            pm.register(plugin, name=ep.name)
        except (Exception, SystemExit, KeyboardInterrupt) as exc:  # sys.exit() in a plugin too
            report.problems.append(f"plugin {ep.name!r} ({dist_name}) failed to load: {exc!r}")
            continue
        report.plugins.append(PluginInfo(ep.name, version, f"installed ({dist_name})"))


def _from_directory(pm, report: LoadReport, directory: Path):
    if not os.path.isdir(directory):  # nor anything the system cannot look at
        report.problems.append(f"plugins directory {directory} does not exist")
        return
    for path in sorted(directory.glob("*.py")):
        name = f"polyfit_dir_plugin_{path.stem}"
        try:
            spec = importlib.util.spec_from_file_location(name, path)
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
            pm.register(module, name=path.stem)
        except (Exception, SystemExit, KeyboardInterrupt) as exc:  # sys.exit() in a plugin too
            report.problems.append(f"plugin file {path} failed to load: {exc!r}")
            continue
        report.plugins.append(PluginInfo(path.stem, getattr(module, "__version__", "-"), str(path)))


def get_plugin_manager(
    load_entrypoints: bool = True, plugins_dir: str | os.PathLike | None = None, environ=None
) -> pluggy.PluginManager:
    """A new plugin manager with the built-ins, installed plugins and any plugin files.

    The load report (plugins with versions, and problems) is kept on ``pm.polyfit_report``.
    """
    environ = os.environ if environ is None else environ
    from polyfit import __version__

    pm = pluggy.PluginManager("polyfit")
    pm.add_hookspecs(hookspecs)
    report = LoadReport()
    for name in DEFAULT_PLUGINS:
        pm.register(built_in(name), name)
        report.plugins.append(PluginInfo(name, __version__, "built-in"))
    if load_entrypoints:
        only = None
        if "POLYFIT_LOAD_PLUGINS" in environ:
            only = {n.strip() for n in environ["POLYFIT_LOAD_PLUGINS"].split(",") if n.strip()}
        _installed(pm, report, only)
    directory = plugins_dir or environ.get("POLYFIT_PLUGINS_DIR")
    if directory:
        _from_directory(pm, report, Path(directory))
    try:
        pm.check_pending()
    except pluggy.PluginValidationError as exc:
        bad = getattr(exc, "plugin", None)
        name = pm.get_name(bad) if bad is not None else "?"
        report.problems.append(f"plugin {name!r} is not valid: {exc}")
        if bad is not None:
            pm.unregister(bad)
            report.plugins = [p for p in report.plugins if p.name != name]
    if environ.get("POLYFIT_TRACE_PLUGINS") not in (None, "", "0"):
        pm.trace.root.setwriter(lambda text: sys.stderr.write(text))
        pm.enable_tracing()
    pm.polyfit_report = report
    return pm
