"""Start-up pays for what a command uses: a small solve loads no exporter, piece set, picture,
studio page or job machinery. These tests count the modules a whole command loads (in a
fresh process); they time nothing."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

from polyfit.cli import FAMILIES
from polyfit.dlx.plugin import DEFERRED
from polyfit.lattices.base import BUILT_IN, BUILT_IN_NAMES
from polyfit.plugins import BUILT_IN_HOOKS, DEFAULT_PLUGINS, BuiltIn, get_plugin_manager

ROOT = Path(__file__).resolve().parent.parent

# Run the command line in this process, then print the modules it loaded and what it printed.
PROBE = """
import contextlib, io, json, sys
sys.argv = ["polyfit", *sys.argv[1:]]
from polyfit.cli import main
out = io.StringIO()
code = 0
try:
    with contextlib.redirect_stdout(out):
        main()
except SystemExit as exc:
    code = exc.code
print(json.dumps({"code": code, "out": out.getvalue(), "modules": sorted(sys.modules)}))
"""

# Never needed to count or take apart the assemblies of a small file.
NEVER = [
    "numpy", "PIL", "trimesh", "rich", "rich.markdown", "multiprocessing", "ctypes",
    "polyfit.studio.app", "polyfit.studio.server", "polyfit.studio.tasks",
    "polyfit.atlases", "polyfit.design", "polyfit.design.interlocking", "polyfit.render",
    "polyfit.formats.png", "polyfit.formats.gif", "polyfit.formats.svg", "polyfit.formats.pdf",
    "polyfit.formats.models", "polyfit.formats.solutions_json",
    "polyfit.longsearch.workers", "polyfit.longsearch.checkpoint", "polyfit.longsearch.runner",
    "polyfit.longsearch.planning", "polyfit.xc.jobs",
    "polyfit.dlx.python", "polyfit.dlx.bitset_python", "polyfit.dlx.memo",
    "polyfit.commands.generate", "polyfit.commands.render", "polyfit.commands.atlas",
]


def probe(*args):
    # Run beside the checkout, not in it: there "import polyfit" would find the source tree
    # (without the C modules when polyfit was installed with "pip install .") first.
    result = subprocess.run([sys.executable, "-c", PROBE, *args], cwd=ROOT.parent, capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout.splitlines()[-1])
    assert report["code"] in (0, None), result.stderr
    return report["out"], set(report["modules"])


def test_a_small_disassembly_count_loads_only_what_it_uses():
    out, modules = probe("solve", str(ROOT / "tests/data/disassembly/lid-3.xmpuzzle"), "--count", "--disassemble",
                         "--jobs", "1", "--json")
    counts = json.loads(out)
    assert (counts["assemblies"], counts["disassemblable"]) == (136, 93)  # the answer is still there
    assert {"polyfit.motion.disassembly", "polyfit.formats.burrtools"} <= modules  # what it did use
    assert not modules & set(NEVER), sorted(modules & set(NEVER))
    assert not modules & {"polyfit.puzzle.piece_sets", "polyfit.puzzle.lattice_sets", "polyfit.puzzle.edge_sets"}


def test_a_small_count_loads_no_disassembler():
    out, modules = probe("solve", str(ROOT / "shapes/soma/castle.vox"), "--count")
    assert "3 distinct solutions" in out
    assert not modules & {*NEVER, "polyfit.motion", "polyfit.longsearch.disassembly"}, sorted(
        modules & {*NEVER, "polyfit.motion", "polyfit.longsearch.disassembly"})


# Not needed to count a BurrTools file (its pieces are in it, no file is written) on one
# process: no piece spec, no exporter, no solution set, no memo parser, no probes of the tree.
NOT_FOR_A_FILE_COUNT = [
    "polyfit.formats.piece_specs", "polyfit.formats.pieces_file", "polyfit.formats.export",
    "polyfit.formats.solution_set", "polyfit.puzzle.burnside", "polyfit.xc.estimate",
    # text art is read and drawn elsewhere; a shuffle is for seeded runs alone
    "polyfit.lattices.textart", "random",
]


def test_a_burrtools_count_on_one_process_loads_no_piece_spec_exporter_or_probe():
    out, modules = probe("solve", str(ROOT / "benchmarks/data/burrtools/soma-marked-corner.xmpuzzle"), "--count",
                         "--jobs", "1", "--json")
    counts = json.loads(out)
    assert (counts["distinct"], counts["total"]) == (1920, 11520)  # the answer is still there
    assert {"polyfit.formats.burrtools", "polyfit.dlx.bitset"} <= modules  # what it did use
    unwanted = {*NEVER, *NOT_FOR_A_FILE_COUNT, "polyfit.motion", "polyfit.longsearch.disassembly"}
    assert not modules & unwanted, sorted(modules & unwanted)


def test_a_cube_count_loads_no_other_lattice():
    """Only the module of the lattice a file names is loaded (the cubes), not the triangles,
    hexagons, sticks, twigs, prisms or the fine grids."""
    out, modules = probe("solve", str(ROOT / "benchmarks/data/burrtools/cube-9.xmpuzzle"), "--count", "--jobs", "1",
                         "--json")
    assert json.loads(out)["distinct"] == 1
    others = {m for m in BUILT_IN_NAMES if m not in ("polyfit.lattices.square", "polyfit.lattices.spheres")}
    assert "polyfit.lattices.square" in modules
    assert not modules & others, sorted(modules & others)


# Not needed to read a gzip BurrTools file of cubes without colours: zlib inflates it (gzip
# writes), and the other grids, the colours and the separation trees load with what needs them.
NOT_FOR_A_CUBE_FILE = [
    "gzip", "colorsys", "polyfit.formats.burrtools_spheres", "polyfit.formats.burrtools_separations",
    "polyfit.puzzle.colours",
]


def test_a_cube_file_without_colours_loads_only_the_reader_it_uses():
    path = ROOT / "benchmarks/data/burrtools/cube-9.xmpuzzle"
    assert path.read_bytes()[:2] == b"\x1f\x8b"  # gzip-compressed, as BurrTools writes it
    out, modules = probe("solve", str(path), "--count", "--jobs", "1", "--json")
    assert json.loads(out)["distinct"] == 1
    assert {"polyfit.formats.burrtools", "zlib"} <= modules
    assert not modules & set(NOT_FOR_A_CUBE_FILE), sorted(modules & set(NOT_FOR_A_CUBE_FILE))


def test_a_coloured_sphere_file_loads_the_parts_it_needs():
    """The other side of the test above: the parts left out load when a file needs them."""
    path = ROOT / "tests/data/burrtools/spheres/box-tetraspheres-coloured.xmpuzzle"
    out, modules = probe("solve", str(path), "--count", "--jobs", "1", "--json")
    assert json.loads(out)["distinct"] == 342  # BurrTools' count (spheres/counts.json)
    assert {"polyfit.formats.burrtools_spheres", "polyfit.puzzle.colours"} <= modules


@pytest.mark.parametrize("name", sorted(BUILT_IN_NAMES))
def test_each_built_in_lattice_plugin_registers_the_lattices_it_declares(name):
    registered = []
    importlib.import_module(name).register_lattices(lambda lattice: registered.append(lattice.name))
    assert tuple(registered) == BUILT_IN_NAMES[name]


def test_every_built_in_lattice_plugin_declares_its_lattices():
    assert set(BUILT_IN_NAMES) == {m for m, hooks in BUILT_IN_HOOKS.items() if "register_lattices" in hooks}
    assert tuple(BUILT_IN_NAMES) == BUILT_IN


def test_a_name_no_built_in_declares_still_finds_every_lattice():
    """Looking up an unknown name collects every lattice (the error lists them all); a known
    one after that is the same object."""
    from polyfit.errors import UnknownNameError
    from polyfit.lattices import base
    from polyfit.registry import Registry

    registry = Registry.from_plugins(get_plugin_manager(load_entrypoints=False))
    cubic = registry.lattices["cubic"]
    with registry.session():
        with pytest.raises(UnknownNameError, match="tetra-octa"):
            base.get("no-such-lattice")
        assert base.get("cubic") is cubic
    assert sorted(registry.lattice_plugins) == sorted(n for names in BUILT_IN_NAMES.values() for n in names)


def test_the_probes_still_run_when_a_decision_needs_them():
    """Without --jobs, whether to split over the cores is decided by the probes' estimate."""
    out, modules = probe("solve", str(ROOT / "benchmarks/data/burrtools/soma-marked-corner.xmpuzzle"), "--count",
                         "--json")
    assert json.loads(out)["distinct"] == 1920
    assert "polyfit.xc.estimate" in modules


def test_the_version_loads_no_command():
    out, modules = probe("--version")
    assert out.strip().startswith("polyfit ")
    families = {f"polyfit.commands.{name}" for name in FAMILIES.values()}
    assert not modules & families, sorted(modules & families)


def test_listing_pieces_loads_no_solver():
    out, modules = probe("pieces", "pentominoes")
    assert set("FILNPTUVWXYZ") <= set(out)  # the twelve pieces, drawn
    assert not modules & {*NEVER, "polyfit.puzzle.cover", "polyfit.motion", "polyfit.dlx.plugin"}


@pytest.mark.parametrize("name", DEFAULT_PLUGINS)
def test_each_built_in_plugin_is_described_by_the_hooks_it_implements(name):
    """The stand-in registered for a built-in plugin offers exactly the hooks of its module."""
    module = importlib.import_module(name)
    implemented = {attr for attr in dir(module) if hasattr(getattr(module, attr), "polyfit_impl")}
    assert set(BUILT_IN_HOOKS[name]) == implemented


def test_every_built_in_is_registered_as_a_stand_in_in_order():
    pm = get_plugin_manager(load_entrypoints=False)
    names = [name for name, plugin in pm.list_name_plugin() if isinstance(plugin, BuiltIn)]
    assert names == list(DEFAULT_PLUGINS)


@pytest.mark.parametrize("name", sorted(DEFERRED))
def test_each_deferred_backend_is_the_class_it_names(name):
    module, cls = DEFERRED[name]
    assert getattr(importlib.import_module(module), cls).name == name


def test_a_command_freezes_what_start_up_loaded_and_collects_young_objects_less_often():
    """The collector scanned the long-lived objects of start-up and set-up dozens of times a
    count (58 collections on a 15-piece cube, freeing nothing); a command freezes the former
    and collects the young generation every YOUNG_COLLECTION allocations."""
    script = PROBE + "import gc; print(json.dumps([gc.get_threshold()[0], gc.get_freeze_count()]))\n"
    result = subprocess.run([sys.executable, "-c", script, "solve", str(ROOT / "shapes/soma/castle.vox"), "--count"],
                            cwd=ROOT.parent, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    threshold, frozen = json.loads(result.stdout.splitlines()[-1])
    from polyfit.cli import YOUNG_COLLECTION

    assert threshold == YOUNG_COLLECTION > 700 and frozen > 1000
