"""benchmarks/sanitize.sh builds every C module pyproject.toml declares under the sanitizers.

It listed its modules by hand and missed ``polyfit.xc._reduce``; it now reads them from
pyproject.toml, so a module added there is sanitized too. This builds them (with
``--build-only``: the sanitized test run itself is the script's job) and checks that each
declared module was built and imported from the sanitized copy.
"""

import shutil
import subprocess
import tomllib

import pytest

from helpers import ROOT


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc (with libasan) to build the modules")
def test_every_declared_c_module_is_built_under_the_sanitizers():
    with open(ROOT / "pyproject.toml", "rb") as f:
        declared = [m["name"] for m in tomllib.load(f)["tool"]["setuptools"]["ext-modules"]]
    assert "polyfit.xc._reduce" in declared
    done = subprocess.run(
        ["bash", str(ROOT / "benchmarks" / "sanitize.sh"), "--build-only"],
        capture_output=True, text=True, timeout=600,
    )
    assert done.returncode == 0, done.stderr
    built = [line.split()[1] for line in done.stdout.splitlines() if line.startswith("sanitized: ")]
    assert built == declared, done.stdout
