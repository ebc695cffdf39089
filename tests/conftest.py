"""Fixtures shared by the test modules; plain helpers are in helpers.py."""

import os
import sys
import tempfile

import pytest

# Where PYTHONDONTWRITEBYTECODE is set (the project's machines set it), every polyfit process a
# test starts would compile each polyfit module it imports from source again (0.3 to 0.4 s of
# CPU for a 'polyfit solve'), and each test worker would rewrite and compile every test module
# again: a quarter of the quick suite's time. The suite keeps the bytecode in a folder of its
# own outside the source tree instead (a module whose source changed is compiled again, as
# always), for this process and the processes it starts.
if sys.flags.dont_write_bytecode and not sys.pycache_prefix:
    sys.pycache_prefix = os.path.join(tempfile.gettempdir(), f"polyfit-tests-bytecode-{os.getuid()}")
    sys.dont_write_bytecode = False
    os.environ["PYTHONPYCACHEPREFIX"] = sys.pycache_prefix
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)

from helpers import BUILT_IN_BACKENDS, native
from polyfit.plugins import get_plugin_manager


# Under -n, pytest-xdist shares the tests out one at a time, so a module fixture is made once
# on each worker that runs a test of its module. The tests of these modules run on one worker
# instead, so that what their module fixtures make is made once: polyfit studio's server and
# Chromium (10 s of set-up), and a 6x10 split and checkpoint. (xdist's '--dist loadgroup' is
# meant for this, but under pytest 9.2 its mark has no effect: it renames the tests through an
# attribute pytest no longer reads.)
ONE_WORKER = {"tests/test_studio_browser.py", "tests/test_tampering.py"}


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    if config.getvalue("dist") != "load":
        return None  # another --dist asked for: xdist's own
    from xdist.scheduler import LoadScopeScheduling

    class Scheduling(LoadScopeScheduling):
        """xdist's 'load' (each test on its own), but a module of ONE_WORKER as one unit."""

        def _split_scope(self, nodeid):
            module = nodeid.split("::", 1)[0]
            return module if module in ONE_WORKER else nodeid

    return Scheduling(config, log)


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


@pytest.fixture(scope="session")
def plugin_packages(tmp_path_factory):
    """The plugin packages of plugins/, really installed by pip, once per test session, into
    a temporary folder of their own: ``{"PYTHONPATH": folder...}``, for the environment of the
    polyfit processes that should see them. The developer's environment is left as it was.

    pip builds each package in an isolated environment, which takes about a minute on a loaded
    2-core machine: the tests that use this fixture are marked slow. miniexact (the C solver
    polyfit-miniexact runs) is taken from this environment when it is there, else installed
    into the same folder."""
    import importlib.util
    import subprocess
    import sys

    from helpers import PLUGIN_PACKAGES, ROOT

    target = tmp_path_factory.mktemp("plugin-packages")

    def pip(*args):
        result = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--target", str(target), *args],
                                capture_output=True, text=True, timeout=900)
        assert result.returncode == 0, result.stderr

    pip("--no-deps", *[str(ROOT / "plugins" / name) for name in PLUGIN_PACKAGES])
    if importlib.util.find_spec("miniexact") is None:
        pip("miniexact>=1.6")
    import os

    return {"PYTHONPATH": os.pathsep.join(filter(None, [str(target), os.environ.get("PYTHONPATH")]))}
