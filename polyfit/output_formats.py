"""The built-in picture and model exporters, registered without importing their libraries.

``png`` (:mod:`polyfit.pictures`, pillow) and ``stl``, ``glb``, ``3mf``, ``obj``
(:mod:`polyfit.models`, trimesh and numpy) register here through ``register_exporters``; the
module that does the work is imported on the first export, so commands that write no picture
or model start without loading pillow, numpy or trimesh.
"""

from __future__ import annotations

import importlib

from .hookspecs import hookimpl


def _deferred(module: str, function: str, *args):
    def export(solutions, path):
        target = getattr(importlib.import_module(module), function)
        return (target(*args) if args else target)(solutions, path)

    export.__name__ = f"{function}{args[0] if args else ''}"
    return export


@hookimpl
def register_exporters(register):
    register("png", (".png",), _deferred("polyfit.pictures", "export_png"), "solutions as a picture (a contact sheet for several)")
    register("stl", (".stl",), _deferred("polyfit.models", "export_stl"), "the first solution's pieces in place, as one STL (no colours)")
    register("glb", (".glb",), _deferred("polyfit.models", "model_exporter", "glb"), "the first solution as a coloured glTF assembly")
    register("3mf", (".3mf",), _deferred("polyfit.models", "model_exporter", "3mf"), "the first solution as a coloured 3MF assembly")
    register("obj", (".obj",), _deferred("polyfit.models", "model_exporter", "obj"), "the first solution as OBJ with vertex colours")
