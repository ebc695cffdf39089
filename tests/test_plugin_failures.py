"""A broken plugin is one line naming it, never a traceback, and everything else keeps working."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

BROKEN = '''
from polyfit import hookimpl

class Boom:
    name = "boom"
    summary = "fails"
    capabilities = frozenset()
    def unavailable_reason(self):
        return None
    def solutions(self, problem, stats):
        raise RuntimeError("kaput")
        yield

class Shy:
    name = "shy"
    summary = "cannot say"
    capabilities = frozenset()
    def unavailable_reason(self):
        raise OSError("no idea")
    def solutions(self, problem, stats):
        yield ()

@hookimpl
def register_piece_sets(register):
    register("badset", lambda: 1 / 0, "a set whose builder fails")
    register("notpieces", lambda: ["x"], "a set of strings")

@hookimpl
def register_backends(register):
    register(Boom())
    register(Shy())

@hookimpl
def register_shape_readers(register):
    def sniff(head):
        raise ValueError("cannot look")
    register("sniffy", (".zzz",), lambda path: 1 / 0, sniff)

@hookimpl
def register_exporters(register):
    register("badout", (".bad",), lambda solutions, path: 1 / 0, "fails")
'''


@pytest.fixture(scope="module")
def plugins(tmp_path_factory):
    folder = tmp_path_factory.mktemp("broken")
    (folder / "bad.py").write_text(BROKEN)
    (folder / "exits.py").write_text("import sys\nsys.exit(3)\n")
    (folder / "interrupts.py").write_text("raise KeyboardInterrupt\n")
    (folder / "fails_in_hook.py").write_text(
        "import sys\nfrom polyfit import hookimpl\n\n@hookimpl\ndef register_piece_sets(register):\n    sys.exit(4)\n"
    )
    return folder


def polyfit(plugins, *args, cwd=ROOT.parent):
    result = subprocess.run(
        [sys.executable, "-m", "polyfit", "--plugins-dir", str(plugins), *args],
        cwd=cwd, capture_output=True, text=True, timeout=120,
    )
    assert "Traceback" not in result.stderr, result.stderr
    return result


def test_plugins_that_exit_or_interrupt_at_import_are_reported(plugins):
    result = polyfit(plugins, "solve", str(ROOT / "shapes/pentomino/3x20.txt"), "--count")
    assert result.returncode == 0
    assert "2 distinct solutions, 8 in all" in result.stdout
    assert "exits.py failed to load: SystemExit(3)" in result.stderr
    assert "interrupts.py failed to load: KeyboardInterrupt()" in result.stderr
    assert "'fails_in_hook' failed in register_piece_sets: SystemExit(4)" in result.stderr
    # A reader whose test of a file fails is passed over, with one line saying so.
    assert "polyfit: warning: shape reader 'sniffy' of plugin 'bad' failed to look at a file" in result.stderr


@pytest.mark.slow
def test_a_broken_piece_set_is_named_and_the_others_are_listed(plugins):
    result = polyfit(plugins, "pieces")
    assert result.returncode == 0
    assert "pentominoes" in result.stdout and "badset" in result.stdout
    assert "piece set 'badset' of plugin 'bad' failed: ZeroDivisionError" in result.stderr
    used = polyfit(plugins, "solve", str(ROOT / "shapes/pentomino/3x20.txt"), "--pieces", "badset")
    assert used.returncode == 2
    assert used.stderr.strip().splitlines()[-1].startswith("polyfit: error: piece set 'badset' of plugin 'bad'")
    wrong = polyfit(plugins, "pieces", "notpieces")
    assert wrong.returncode == 2 and "not a polyfit.Piece" in wrong.stderr


def test_a_failing_backend_is_named(plugins):
    result = polyfit(plugins, "solve", str(ROOT / "shapes/pentomino/3x20.txt"), "--count", "--backend", "boom")
    assert result.returncode == 2
    assert "polyfit: error: backend 'boom' of plugin 'bad' failed: RuntimeError('kaput')" in result.stderr
    listing = polyfit(plugins, "backends")
    assert listing.returncode == 0 and "shy" in listing.stdout and "no idea" in listing.stdout


@pytest.mark.slow
def test_a_failing_reader_and_exporter_are_named(plugins, tmp_path):
    board = tmp_path / "b.zzz"
    board.write_text("x")
    result = polyfit(plugins, "solve", str(board), "--pieces", "monomino")
    assert result.returncode == 2
    assert "shape reader 'sniffy' of plugin 'bad' failed: ZeroDivisionError" in result.stderr
    out = polyfit(plugins, "solve", str(ROOT / "shapes/pentomino/3x20.txt"), "--limit", "1", "-o", str(tmp_path / "x.bad"))
    assert out.returncode == 2
    assert "exporter 'badout' of plugin 'bad' failed: ZeroDivisionError" in out.stderr
