"""Fixtures shared by the test modules; plain helpers are in helpers.py."""

import pytest

from helpers import BUILT_IN_BACKENDS, native
from polyfit.plugins import get_plugin_manager


@pytest.fixture(params=BUILT_IN_BACKENDS)
def backend(request):
    """Every built-in backend in turn. A native one that did not build is skipped, or fails
    the run when POLYFIT_REQUIRE_C=1 (CI sets it: a silent fallback must not pass)."""
    return native(request.param)


@pytest.fixture(scope="module")
def app():
    """The command line with the built-in plugins only, built once per test module."""
    from polyfit.cli import build_app

    return build_app(get_plugin_manager(load_entrypoints=False))
