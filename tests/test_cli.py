"""The command line as users and scripts see it: output, JSON, exit codes, error messages."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from polyfit import __version__

from helpers import run

ROOT = Path(__file__).resolve().parent.parent
BOARDS = str(ROOT / "shapes" / "pentomino") + "/"


def default_sigint():
    """In the child: Ctrl-C back to its default, even when the test run was started with it
    ignored (as a background job is), so that Python installs its KeyboardInterrupt."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def polyfit_process(*args, **kwargs):
    """``python -m polyfit`` run outside the source tree, so the installed package is the one
    imported (the source tree has no compiled extension)."""
    kwargs.setdefault("preexec_fn", default_sigint)
    return subprocess.Popen(
        [sys.executable, "-m", "polyfit", *args],
        cwd=str(ROOT.parent), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kwargs
    )


def process_tree_cpu(pid: int) -> float:
    """CPU seconds run so far by a process and all its descendants (the engine may hand the
    search to worker processes)."""
    clock = os.sysconf("SC_CLK_TCK")
    stats = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:  # gone meanwhile
                continue
            stats[int(entry)] = (int(fields[1]), (int(fields[11]) + int(fields[12])) / clock)
    tree: set[int] = set()
    grown = {pid}
    while grown:
        tree |= grown
        grown = {child for child, (parent, _) in stats.items() if parent in tree} - tree
    return sum(stats[member][1] for member in tree if member in stats)


def wait_for_cpu(proc, seconds: float, deadline: float = 120.0) -> None:
    """Wait until the child (with its workers) has run ``seconds`` of CPU time (start-up is
    well under one): a Ctrl-C then reaches the work itself, however loaded the machine is."""
    give_up = time.monotonic() + deadline
    while time.monotonic() < give_up and proc.poll() is None:
        if process_tree_cpu(proc.pid) >= seconds:
            return
        time.sleep(0.05)


def test_version(app):
    result = run(app, "--version")
    assert result.exit_code == 0 and __version__ in result.output


def test_a_built_in_command_that_fails_to_register_is_an_error_not_a_warning(monkeypatch):
    # A plugin's failing command is reported (test_plugin_failures); polyfit's own must not
    # vanish from the command line with a warning nobody sees.
    from polyfit.cli import build_app
    from polyfit.commands import atlas
    from polyfit.plugins import get_plugin_manager

    def broken(app, ctx):
        raise AttributeError("module 'polyfit.commands.disassembling' has no attribute 'MAX_STATES'")

    monkeypatch.setattr(atlas, "add_commands", broken)
    with pytest.raises(AttributeError, match="MAX_STATES"):
        build_app(get_plugin_manager(load_entrypoints=False))


def test_each_built_in_command_names_its_family():
    # The command line imports only the family of the command it runs: a command missing from
    # FAMILIES would be found only by a full import (and atlas once was).
    from polyfit.cli import FAMILIES, build_app
    from polyfit.plugins import get_plugin_manager

    pm = get_plugin_manager(load_entrypoints=False)
    build_app(pm)
    commands = pm.get_plugin("polyfit.commands").ctx.commands_by_plugin["polyfit.commands"]
    assert sorted(commands) == sorted(FAMILIES)


def test_every_command_has_help_with_an_example(app):
    for command in ("solve", "pieces", "backends", "plugins", "xc", "export-dlx"):
        result = run(app, command, "--help")
        assert result.exit_code == 0, command
        assert "Example: polyfit" in result.output, command


def test_solve_prints_a_solution_as_text_art(app):
    result = run(app, "solve", BOARDS + "6x10.txt", "--limit", "1")
    assert result.exit_code == 0
    grid = result.output.split("Solution 1:\n")[1].split("\n\n")[0].splitlines()
    assert len(grid) == 6 and all(len(row) == 10 for row in grid)
    text = "".join(grid)
    assert sorted(set(text)) == list("FILNPTUVWXYZ")
    assert all(text.count(letter) == 5 for letter in "FILNPTUVWXYZ")


def test_solve_prints_distinct_solutions_by_default_and_all_with_all(app):
    distinct = run(app, "solve", BOARDS + "3x20.txt")
    every = run(app, "solve", BOARDS + "3x20.txt", "--all")
    assert distinct.output.count("Solution ") == 2
    assert every.output.count("Solution ") == 8
    solutions = every.output.split("Solution ")[1:]
    assert len({s.split(":\n", 1)[1].split("\n\n")[0] for s in solutions}) == 8
    assert "2 distinct solutions, 8 in all" in every.output


def test_count_json_fields(app):
    result = run(app, "solve", BOARDS + "8x8-centre-hole.txt", "--count", "--json")
    data = json.loads(result.output)
    assert (data["distinct"], data["total"]) == (65, 520)
    for key in ("options", "items", "nodes", "backend", "seconds"):
        assert key in data
    assert data["items"] == 12 + 60
    assert data["complete"] is True


def test_stats(app):
    result = run(app, "solve", BOARDS + "3x20.txt", "--count", "--stats")
    assert "1236 generated, 508 pruned by area, 0 pruned by parity, 728 kept" in result.output
    assert "72 items" in result.output and "nodes" in result.output


def test_random_order_is_reproducible_and_varied(app):
    a = run(app, "solve", BOARDS + "6x10.txt", "--random", "7", "--limit", "3").output
    b = run(app, "solve", BOARDS + "6x10.txt", "--random", "7", "--limit", "3").output
    c = run(app, "solve", BOARDS + "6x10.txt", "--random", "8", "--limit", "3").output
    plain = run(app, "solve", BOARDS + "6x10.txt", "--limit", "3").output
    assert a == b
    assert a != c and a != plain


def test_random_order_counts_the_same(app):
    data = json.loads(run(app, "solve", BOARDS + "3x20.txt", "--count", "--json", "--random", "3").output)
    assert (data["distinct"], data["total"]) == (2, 8)


def test_every_backend_by_name(app):
    for name in ("dlx-python", "dlx-c", "bitset-c", "bitset-python"):
        data = json.loads(run(app, "solve", BOARDS + "3x20.txt", "--count", "--json", "--backend", name).output)
        assert data["backend"] == name and data["total"] == 8


def test_pieces_lists_and_draws(app):
    listing = run(app, "pieces").output
    assert "pentominoes" in listing and "soma" in listing and "one-sided-hexominoes" in listing
    drawing = run(app, "pieces", "tetrominoes").output
    assert drawing.count("O") == 4


@pytest.mark.parametrize(
    "args, words",
    [
        (["solve", "nope.txt"], "no such board file"),
        (["solve", BOARDS + "6x10.txt", "--pieces", "pentominos"], "valid piece sets: diamond, dihex, diprisms, dispheres, disticks, ditwig"),
        (["solve", BOARDS + "6x10.txt", "--pieces", "tetrominoes"], "area 60 but the 5 pieces have total area 20"),
        (["solve", BOARDS + "6x10.txt", "--backend", "fast"], "valid backends:"),
        (["solve", BOARDS + "6x10.txt", "--pieces", "pentominoes:Q"], "valid pieces of pentominoes: F, I, L"),
        (["pieces", "hexomino"], "unknown piece set"),
        (["xc", "missing.dlx"], "no such file"),
    ],
)
def test_usage_errors_exit_2_with_a_message(app, args, words):
    result = run(app, *args)
    assert result.exit_code == 2
    assert words in result.output
    assert "Traceback" not in result.output


def test_parse_error_names_file_line_and_column(app, tmp_path):
    board = tmp_path / "b.txt"
    board.write_text("; pieces: pentominoes\n#####\n##@##\n")
    result = run(app, "solve", str(board))
    assert result.exit_code == 2
    assert f"{board}:3:3: unexpected character '@'" in result.output


def test_board_without_pieces_says_how_to_give_them(app, tmp_path):
    board = tmp_path / "b.txt"
    board.write_text("#####\n")
    result = run(app, "solve", str(board))
    assert result.exit_code == 2 and "--pieces" in result.output


def test_bad_option_values_exit_2(app):
    assert run(app, "solve", BOARDS + "6x10.txt", "--limit", "0").exit_code == 2
    assert run(app, "solve").exit_code == 2


def test_impossible_board_by_parity_without_search(app):
    # T covers 3 cells of one colour and 1 of the other; I, O, L, S cover 2 and 2.
    result = run(app, "solve", str(ROOT / "shapes/tetromino/4x5.txt"), "--count", "--json")
    data = json.loads(result.output)
    assert result.exit_code == 0
    assert (data["distinct"], data["total"], data["nodes"]) == (0, 0, 0)
    assert "checkerboard parity" in data["impossible"]
    text = run(app, "solve", str(ROOT / "shapes/tetromino/4x5.txt"), "--count").output
    assert "no solution: checkerboard parity: the board has 10 dark and 10 light cells" in text


def test_export_refuses_to_overwrite(app, tmp_path):
    out = tmp_path / "p.dlx"
    assert run(app, "export-dlx", BOARDS + "3x20.txt", "-o", str(out)).exit_code == 0
    first = out.read_text()
    result = run(app, "export-dlx", BOARDS + "3x20.txt", "-o", str(out), "--break-symmetry")
    assert result.exit_code == 2 and "--force" in result.output
    assert out.read_text() == first
    assert run(app, "export-dlx", BOARDS + "3x20.txt", "-o", str(out), "--break-symmetry", "--force").exit_code == 0
    assert out.read_text() != first


def test_exported_problem_solves_with_xc(app, tmp_path):
    out = tmp_path / "p.dlx"
    run(app, "export-dlx", BOARDS + "3x20.txt", "-o", str(out))
    data = json.loads(run(app, "xc", str(out), "--count", "--json").output)
    assert data["total"] == 8
    assert {"total", "nodes", "backend", "seconds", "cpu_seconds"} <= set(data)
    assert 0 <= data["cpu_seconds"] < 60


def test_auto_falls_back_when_the_bitset_backend_cannot_take_a_problem(app, tmp_path):
    from polyfit.dlx.bitset import MAX_OPTIONS

    big = tmp_path / "big.dlx"
    big.write_text("a b\n" + "a\n" * MAX_OPTIONS + "b\n")  # one more option than bitset-c takes
    data = json.loads(run(app, "xc", str(big), "--count", "--json").output)
    assert data["backend"] == "dlx-c" and data["total"] == MAX_OPTIONS
    small = json.loads(run(app, "solve", BOARDS + "3x20.txt", "--count", "--json").output)
    assert small["backend"] == "bitset-c"
    result = run(app, "xc", str(big), "--count", "--backend", "bitset-c")
    assert result.exit_code == 2 and "cannot take this problem" in result.output


def test_main_module_runs():
    out, _ = polyfit_process("--version").communicate(timeout=60)
    assert __version__ in out


def test_ctrl_c_prints_partial_counts_and_exits_130():
    proc = polyfit_process("solve", BOARDS + "6x10.txt", "--count", "--backend", "dlx-python")
    wait_for_cpu(proc, 2.0)
    started = time.monotonic()
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    assert time.monotonic() - started < 5
    assert proc.returncode == 130
    assert "interrupted after" in err and "nodes searched" in err
    assert "Traceback" not in err


@pytest.mark.slow
def test_ctrl_c_stops_the_c_backend_promptly(tmp_path):
    # A long search in C: the full (not symmetry-broken) 6x10 problem, about 4 s.
    path = tmp_path / "6x10.dlx"
    out, _ = polyfit_process("export-dlx", BOARDS + "6x10.txt", "-o", str(path)).communicate(timeout=60)
    proc = polyfit_process("xc", str(path), "--count", "--backend", "dlx-c")
    wait_for_cpu(proc, 1.5)
    started = time.monotonic()
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    assert time.monotonic() - started < 2
    assert proc.returncode == 130 and "interrupted" in err, err


def test_benchmarks_run_polyfit_outside_the_repository_root():
    """``python -m polyfit`` puts its working directory first on sys.path: from the repository
    root it would run the source tree (no compiled backends), not the installed package. Every
    child process the benchmarks start runs elsewhere (benchmarks/, or a temporary folder)."""
    import ast

    for path in sorted((ROOT / "benchmarks").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and ast.unparse(node.func) in ("subprocess.run", "subprocess.Popen"):
                cwd = {k.arg: ast.unparse(k.value) for k in node.keywords}.get("cwd")
                assert cwd is not None and "ROOT" not in cwd, f"{path.name}:{node.lineno} runs in {cwd or 'the current directory'}"


def test_ctrl_c_while_preparing_the_puzzle_says_so(tmp_path):
    # Placements of any number of the twelve pentominoes on a 40x40 board: several seconds
    # to prepare (well past start-up), and no search can start before the interrupt.
    board = tmp_path / "big.txt"
    board.write_text("; pieces: 0..320*pentominoes\n" + "\n".join(["#" * 40] * 40) + "\n")
    proc = polyfit_process("solve", str(board), "--count")
    try:
        wait_for_cpu(proc, 1.5)
        started = time.monotonic()
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:  # never leave it running (it would go on to start workers)
            proc.kill()
            proc.communicate()
    assert time.monotonic() - started < 5
    assert proc.returncode == 130
    assert err == "interrupted while preparing the puzzle (placements)\n"


def test_ctrl_c_in_a_command_that_does_not_report_it_still_says_interrupted(tmp_path):
    board = tmp_path / "big.txt"
    board.write_text("; pieces: 0..320*pentominoes\n" + "\n".join(["#" * 40] * 40) + "\n")
    proc = polyfit_process("estimate", str(board))
    wait_for_cpu(proc, 1.5)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 130 and err == "polyfit: interrupted\n"


@pytest.mark.parametrize("width", [80, 60, 40, 120])
def test_the_progress_bar_fits_the_terminal_with_whole_times(width):
    from rich.console import Console

    from polyfit.commands.progress import ProgressBar
    from polyfit.longsearch import Progress
    from polyfit.puzzle.solve import Counts

    bar = ProgressBar(1024, 0, console=Console(width=width))
    counts = Counts()
    bar.update(Progress(0, 1024, counts, 0.0, 0.0))
    counts.total, counts.search.nodes = 123_456_789, 10**10
    bar.update(Progress(500, 1024, counts, 3723.0, 0.4))  # 1:02:03 for 40%: 1:33:04 to go
    console = Console(width=width, record=True)
    console.print(bar)
    line = console.export_text().rstrip("\n")
    assert "\n" not in line and len(line) <= width
    assert "…" not in line and "..." not in line
    assert " 40% " in line and " 1:02:0" in line and "ETA 1:33:0" in line
    if width >= 80:
        assert "123,456,789 sol." in line and "500/1024 jobs" in line
    if width >= 120:
        assert "2.69M nodes/s" in line and line.startswith("searching ")
