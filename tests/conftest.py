import os
from pathlib import Path

import pytest

from polyfit.plugins import get_plugin_manager
from polyfit.registry import Registry

ROOT = Path(__file__).resolve().parent.parent  # the repository: shapes/ lives here
BUILT_IN_BACKENDS = ("dlx-python", "dlx-c", "bitset-c", "bitset-python")
NATIVE = {"dlx-c", "bitset-c"}


def built_in_registry():
    return Registry.from_plugins(get_plugin_manager(load_entrypoints=False))


@pytest.fixture(params=BUILT_IN_BACKENDS)
def backend(request):
    """Every built-in backend in turn. A native one that did not build is skipped, or fails
    the run when POLYFIT_REQUIRE_C=1 (CI sets it: a silent fallback must not pass)."""
    engine = built_in_registry().backends[request.param]
    reason = engine.unavailable_reason()
    if reason is not None:
        if request.param in NATIVE and os.environ.get("POLYFIT_REQUIRE_C") == "1":
            pytest.fail(f"{request.param} is required (POLYFIT_REQUIRE_C=1) but {reason}")
        pytest.skip(reason)
    return engine


def run_cli(args):
    """Run the polyfit command line in-process with the built-in plugins only."""
    from typer.testing import CliRunner

    from polyfit.cli import build_app

    return CliRunner().invoke(build_app(get_plugin_manager(load_entrypoints=False)), list(args))


@pytest.fixture(scope="module")
def app():
    """The command line with the built-in plugins only, built once per test module."""
    from polyfit.cli import build_app

    return build_app(get_plugin_manager(load_entrypoints=False))


def run(app, *args):
    """Invoke the command line in-process; paths may be given as Path objects."""
    from typer.testing import CliRunner

    return CliRunner().invoke(app, [str(a) for a in args])


def built_in_set(name):
    """The pieces of a built-in set, straight from its registration."""
    from polyfit.puzzle.piece_sets import register_piece_sets

    sets = {}
    register_piece_sets(lambda n, build, summary="": sets.__setitem__(n, build))
    return sets[name]()
