"""Plugins: every hook with a throwaway plugin, the loading switches, broken plugins, name
collisions, the documentation, and the real plugin packages installed by pip (into a folder
of their own, once per test session: conftest's ``plugin_packages``)."""

import inspect
import json
import os
import shutil
import subprocess
import sys
import types
import warnings

import pytest

from polyfit import hookspecs
from polyfit.puzzle.board import Board
from polyfit.cli import build_app
from polyfit.dlx.python import PythonDLX
from polyfit.errors import ParseError
from polyfit.hookspecs import hookimpl
from polyfit.puzzle.pieces import Piece
from polyfit.plugins import get_plugin_manager
from polyfit.registry import Registry

from helpers import ROOT, run

HOOKS = sorted(n for n, f in vars(hookspecs).items() if n.startswith("register_") and callable(f))


def plugin(name, **hooks):
    """A throwaway plugin module holding the given hook implementations."""
    module = types.ModuleType(name)
    for hook_name, function in hooks.items():
        setattr(module, hook_name, hookimpl(function))
    return module


def app_with(*plugins):
    pm = get_plugin_manager(load_entrypoints=False)
    for p in plugins:
        pm.register(p, name=p.__name__)
    return build_app(pm), pm


def test_the_hooks_are_the_documented_six():
    assert HOOKS == [
        "register_backends",
        "register_commands",
        "register_exporters",
        "register_lattices",
        "register_piece_sets",
        "register_shape_readers",
    ]


def test_piece_set_hook(tmp_path):
    corner = plugin(
        "corner",
        register_piece_sets=lambda register: register(
            "corner-and-dot", lambda: [Piece("a", ((0, 0), (0, 1), (1, 0))), Piece("b", ((0, 0),))], "two"
        ),
    )
    app, _ = app_with(corner)
    assert "corner-and-dot" in run(app, "pieces").output
    board = tmp_path / "b.txt"
    board.write_text("; pieces: corner-and-dot\n##\n##\n")
    data = json.loads(run(app, "solve", board, "--count", "--json").output)
    assert (data["distinct"], data["total"]) == (1, 4)


def test_backend_hook():
    class Counting(PythonDLX):
        name = "counting"
        summary = "a test backend"

    app, _ = app_with(plugin("b", register_backends=lambda register: register(Counting())))
    assert "counting" in run(app, "backends").output
    board = ROOT / "shapes/pentomino/3x20.txt"
    data = json.loads(run(app, "solve", board, "--count", "--json", "--backend", "counting").output)
    assert data["backend"] == "counting" and data["total"] == 8


def test_shape_reader_hook(tmp_path):
    def read(path):
        text = path.read_text()
        if "x" in text:
            raise ParseError(path, 1, text.index("x") + 1, "no x here")
        n = int(text)
        return Board(tuple((0, c) for c in range(n)), "line", {"pieces": "domino"}, str(path))

    reader = plugin("r", register_shape_readers=lambda register: register("line", (".line",), read, None))
    app, _ = app_with(reader)
    (tmp_path / "two.line").write_text("2")
    data = json.loads(run(app, "solve", tmp_path / "two.line", "--count", "--json").output)
    assert data["total"] == 1
    (tmp_path / "bad.line").write_text("2x")
    result = run(app, "solve", tmp_path / "bad.line")
    assert result.exit_code == 2 and "bad.line:1:2: no x here" in result.output


def test_sniffing_reader_wins_over_suffix(tmp_path):
    def read(path):
        return Board(((0, 0), (0, 1)), "sniffed", {"pieces": "domino"}, str(path))

    reader = plugin("s", register_shape_readers=lambda register: register("magic", (), read, lambda head: head.startswith(b"MAGIC")))
    app, _ = app_with(reader)
    (tmp_path / "b.txt").write_bytes(b"MAGIC\n")
    data = json.loads(run(app, "solve", tmp_path / "b.txt", "--count", "--json").output)
    assert data["board"] == "sniffed" and data["total"] == 1


def test_exporter_hook(tmp_path):
    def export(solutions, path):
        lines = [";".join(f"{name}={len(cells)}" for name, cells in sorted(s.items())) for s in solutions.solutions]
        path.write_text("\n".join(lines))

    app, _ = app_with(plugin("e", register_exporters=lambda register: register("sizes", (".sizes",), export, "sizes")))
    out = tmp_path / "out.sizes"
    result = run(app, "solve", ROOT / "shapes/pentomino/3x20.txt", "--output", out)
    assert result.exit_code == 0
    assert out.read_text().splitlines()[0].startswith("F=5;I=5;L=5")
    out2 = tmp_path / "out.anything"
    assert run(app, "solve", ROOT / "shapes/pentomino/3x20.txt", "-o", out2, "--format", "sizes").exit_code == 0
    assert out2.exists()


def test_built_in_exporters_and_overwrite_guard(tmp_path):
    app, _ = app_with()
    out = tmp_path / "s.json"
    assert run(app, "solve", ROOT / "shapes/pentomino/3x20.txt", "--all", "-o", out).exit_code == 0
    data = json.loads(out.read_text())
    assert len(data["solutions"]) == 8 and data["total"] == 8
    before = out.read_text()
    result = run(app, "solve", ROOT / "shapes/pentomino/3x20.txt", "-o", out)
    assert result.exit_code == 2 and "--force" in result.output and out.read_text() == before
    result = run(app, "solve", ROOT / "shapes/pentomino/3x20.txt", "-o", tmp_path / "missing" / "s.txt")
    assert result.exit_code == 2 and "does not exist" in result.output
    result = run(app, "solve", ROOT / "shapes/pentomino/3x20.txt", "-o", tmp_path / "s.xyz")
    assert result.exit_code == 2 and "known suffixes" in result.output


def test_command_hook():
    def register_commands(app):
        @app.command()
        def hello():
            """Say hello."""
            print("hello from a plugin")

    app, _ = app_with(plugin("c", register_commands=register_commands))
    assert run(app, "hello").output.strip() == "hello from a plugin"
    assert "solve" in run(app, "--help").output


def test_name_collision_first_wins_and_warns():
    first = plugin("first", register_piece_sets=lambda register: register("dup", lambda: [Piece("a", ((0, 0),))], "first"))
    second = plugin("second", register_piece_sets=lambda register: register("dup", lambda: [Piece("b", ((0, 0),))], "second"))
    _, pm = app_with(first, second)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        registry = Registry.from_plugins(pm)
    assert registry.piece_sets["dup"].summary == "first"
    message = " ".join(str(w.message) for w in caught)
    assert "'first'" in message and "'second'" in message


def test_builtin_names_cannot_be_taken_over():
    thief = plugin("thief", register_piece_sets=lambda register: register("pentominoes", lambda: [], "fake"))
    _, pm = app_with(thief)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert len(Registry.from_plugins(pm).piece_sets["pentominoes"].pieces()) == 12


def test_a_plugin_raising_in_a_hook_is_reported_and_the_rest_works():
    def broken(register):
        raise RuntimeError("boom")

    app, _ = app_with(plugin("broken", register_piece_sets=broken))
    result = run(app, "pieces")
    assert result.exit_code == 0 and "pentominoes" in result.output
    assert "plugin 'broken' failed in register_piece_sets: RuntimeError('boom')" in result.output


def test_a_command_hook_raising_is_reported():
    def broken(app):
        raise ValueError("no commands today")

    app, _ = app_with(plugin("broken_cmd", register_commands=broken))
    result = run(app, "plugins")
    assert "broken_cmd" in result.output and "no commands today" in result.output


def write_plugin_dir(tmp_path):
    (tmp_path / "good.py").write_text(
        "from polyfit.hookspecs import hookimpl\n"
        "from polyfit.formats.piece_specs import Piece\n"
        "__version__ = '2.5'\n"
        "@hookimpl\n"
        "def register_piece_sets(register):\n"
        "    register('single', lambda: [Piece('m', ((0, 0),))], 'one cell')\n"
    )
    (tmp_path / "crashes.py").write_text("raise ImportError('missing dependency xyz')\n")
    (tmp_path / "typo.py").write_text(
        "from polyfit.hookspecs import hookimpl\n@hookimpl\ndef register_piecesets(register):\n    pass\n"
    )
    return tmp_path


def test_plugins_dir_loads_files_and_reports_broken_ones(tmp_path):
    pm = get_plugin_manager(load_entrypoints=False, plugins_dir=write_plugin_dir(tmp_path), environ={})
    app = build_app(pm)
    result = run(app, "plugins")
    assert "good 2.5" in result.output and "piece sets: single" in result.output
    assert "crashes.py failed to load" in result.output and "missing dependency xyz" in result.output
    assert "'typo' is not valid" in result.output and "register_piecesets" in result.output
    assert "single" in run(app, "pieces").output


def polyfit_process(*args, env=None):
    environment = dict(os.environ)
    environment.update(env or {})
    return subprocess.run(
        [sys.executable, "-m", "polyfit", *map(str, args)],
        capture_output=True, text=True, cwd=str(ROOT.parent), env=environment, timeout=120,
    )


def test_plugins_dir_option_and_environment(tmp_path):
    directory = write_plugin_dir(tmp_path)
    by_option = polyfit_process("--plugins-dir", directory, "pieces", "single")
    by_env = polyfit_process("pieces", "single", env={"POLYFIT_PLUGINS_DIR": str(directory)})
    assert by_option.returncode == by_env.returncode == 0
    assert by_option.stdout.strip() == by_env.stdout.strip() == "m"
    assert "failed to load" in by_option.stderr


def test_trace_prints_hook_calls():
    result = polyfit_process("pieces", env={"POLYFIT_TRACE_PLUGINS": "1"})
    assert "register_piece_sets" in result.stderr and "polyfit.puzzle.piece_sets" in result.stderr


def test_every_hook_is_documented_with_its_real_signature():
    docs = (ROOT / "docs" / "plugins.md").read_text()
    for name in HOOKS:
        signature = f"{name}{inspect.signature(getattr(hookspecs, name))}"
        assert f"### `{signature}`" in docs, signature


def test_documented_examples_are_the_tested_code():
    docs = (ROOT / "docs" / "plugins.md").read_text()
    for path in (
        "plugins/examples/tee_pieces.py",
        "plugins/polyfit-miniexact/polyfit_miniexact/__init__.py",
        "plugins/polyfit-miniexact/pyproject.toml",
        "plugins/polyfit-classics/polyfit_classics/__init__.py",
    ):
        assert (ROOT / path).read_text() in docs, path


def test_example_plugin_file():
    result = polyfit_process("--plugins-dir", ROOT / "plugins" / "examples", "pieces", "tees")
    assert result.returncode == 0 and result.stdout.count("a") == 4 and result.stdout.count("b") == 5


# -- the real packages, installed (once per session, into a folder of their own) -------------

# Each test here runs polyfit processes with ``env=installed``: the packages' folder on their
# PYTHONPATH. Installing them takes about a minute, hence the slow marker.


@pytest.fixture
def installed(plugin_packages):
    """The environment of a polyfit process that has the plugin packages installed."""
    return plugin_packages


@pytest.mark.slow
def test_installed_piece_sets_solve(installed):
    listing = polyfit_process("pieces", env=installed).stdout
    assert "bedlam" in listing and "diabolical" in listing
    import importlib
    importlib.invalidate_caches()
    def counts(name):
        shape = subprocess.run(
            [sys.executable, "-c", f"import polyfit_classic_cubes as m; print(m.shape_path({name!r}))"],
            capture_output=True, text=True, cwd=str(ROOT.parent), env=dict(os.environ, **installed),
        ).stdout.strip()
        data = json.loads(polyfit_process("solve", shape, "--count", "--json", env=installed).stdout)
        return data["distinct"], data["total"]

    assert counts("diabolical") == (13, 624)  # the Diabolical cube's 13 solutions
    assert counts("slothouber-graatsma") == (1, 8)  # the one solution, in 8 positions
    assert counts("conway") == (572, 27456)  # as in test_constraints
    pieces = polyfit_process("pieces", "bedlam", env=installed).stdout
    assert len(pieces.split(":\n")) == 14  # 13 pieces, each drawn under its name


@pytest.mark.slow
def test_installed_backend_agrees_with_ours(installed):
    board = ROOT / "shapes/pentomino/8x8-centre-hole.txt"
    theirs = json.loads(polyfit_process("solve", board, "--count", "--json", "--backend", "miniexact", env=installed).stdout)
    ours = json.loads(polyfit_process("solve", board, "--count", "--json", "--backend", "dlx-c").stdout)
    assert (theirs["distinct"], theirs["total"]) == (ours["distinct"], ours["total"]) == (65, 520)
    assert "miniexact" in polyfit_process("backends", env=installed).stdout


QUEENS = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712]


@pytest.mark.slow
def test_installed_queens_command(installed):
    for n in range(1, 14):
        data = json.loads(polyfit_process("queens", n, "--json", env=installed).stdout)
        assert data["total"] == QUEENS[n - 1], n


@pytest.mark.slow
def test_installed_sudoku_command(installed):
    puzzle = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
    result = polyfit_process("sudoku", puzzle, env=installed)
    assert result.stdout.splitlines()[0] == "5 3 4 6 7 8 9 1 2"
    assert "unique" in result.stdout and "not unique" not in result.stdout
    open_grid = polyfit_process("sudoku", "." * 81, env=installed)
    assert "the solution is not unique" in open_grid.stdout
    bad = polyfit_process("sudoku", "123", env=installed)
    assert bad.returncode == 2 and "81 characters" in bad.stderr


@pytest.mark.slow
def test_installed_kakuro_command(installed, tmp_path):
    (tmp_path / "small.txt").write_text("#   4\\  3\\\n\\3  .   .\n\\4  .   .\n")
    result = polyfit_process("kakuro", tmp_path / "small.txt", env=installed)
    assert result.returncode == 0
    assert result.stdout.splitlines() == [" # 4\\ 3\\", "\\3  1  2", "\\4  3  1", "the solution is unique"]
    (tmp_path / "none.txt").write_text("#  1\\ 1\\\n\\2 .  .\n")
    assert polyfit_process("kakuro", tmp_path / "none.txt", env=installed).stdout == "no solution\n"
    (tmp_path / "bad.txt").write_text("# 3\\\n\\3 x\n")
    bad = polyfit_process("kakuro", tmp_path / "bad.txt", env=installed)
    assert bad.returncode == 2 and bad.stderr.startswith(f"polyfit: error: {tmp_path / 'bad.txt'}:2:4: 'x' is not a cell")
    assert len(bad.stderr.splitlines()) == 1


@pytest.mark.slow
def test_load_plugins_switch(installed):
    only = polyfit_process("plugins", env={**installed, "POLYFIT_LOAD_PLUGINS": "classics"}).stdout
    assert "classics" in only and "classic_cubes" not in only and "miniexact 0.1.0" not in only
    none = polyfit_process("plugins", env={**installed, "POLYFIT_LOAD_PLUGINS": ""}).stdout
    assert "installed" not in none and "polyfit.puzzle.piece_sets" in none


@pytest.mark.slow
def test_uninstalling_removes_the_plugin(installed, tmp_path):
    """A copy of the installed folder loses polyfit-classic-cubes as pip uninstalls a
    distribution (every file its RECORD lists), and polyfit no longer offers its pieces."""
    folder = tmp_path / "site"
    shutil.copytree(installed["PYTHONPATH"].split(os.pathsep)[0], folder)
    env = {**installed, "PYTHONPATH": str(folder)}
    assert "bedlam" in polyfit_process("pieces", env=env).stdout
    (record,) = folder.glob("polyfit_classic_cubes-*.dist-info/RECORD")
    for line in record.read_text().splitlines():
        (folder / line.split(",")[0]).unlink(missing_ok=True)
    shutil.rmtree(record.parent)
    listing = polyfit_process("pieces", env=env).stdout
    assert "bedlam" not in listing and "pentominoes" in listing


def test_plugins_import_only_the_public_api():
    """Every plugin in plugins/ imports names from ``polyfit`` itself, never from a module
    below it: those may move, the public API (docs/api.md) does not."""
    import ast

    checked, offenders = 0, []
    for path in sorted((ROOT / "plugins").rglob("*.py")):
        if "build" in path.relative_to(ROOT / "plugins").parts:
            continue
        checked += 1
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module or ""]
            else:
                continue
            offenders += [
                f"{path.relative_to(ROOT)}:{node.lineno}: {name}" for name in names if name.startswith("polyfit.")
            ]
    assert checked >= 4 and not offenders, offenders
