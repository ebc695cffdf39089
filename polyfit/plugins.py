"""The plugin manager: built-in plugins first, then those installed in the ``polyfit`` group."""

from __future__ import annotations

import pluggy

from . import hookspecs

DEFAULT_PLUGINS = (
    "polyfit.piece_sets",
    "polyfit.dlx.plugin",
    "polyfit.board",
    "polyfit.magicavoxel",
)


def get_plugin_manager(load_entrypoints: bool = True) -> pluggy.PluginManager:
    import importlib

    pm = pluggy.PluginManager("polyfit")
    pm.add_hookspecs(hookspecs)
    for name in DEFAULT_PLUGINS:
        pm.register(importlib.import_module(name), name)
    if load_entrypoints:
        pm.load_setuptools_entrypoints("polyfit")
    pm.check_pending()
    return pm
