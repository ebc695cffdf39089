"""Names and sizes that cannot be honoured: one clear error, never a traceback, never a
``MemoryError`` and never a file of NaNs.

- a file name longer than the system allows, read or written by any command (pathlib's
  ``exists()`` and ``is_dir()`` raise for it: every look goes through polyfit.files);
- picture sizes: ``--cell`` and ``--margin`` have bounds, and a picture has a pixel limit;
- lengths in millimetres: finite, above 0 where they must be, and at most a metre.
"""

import sys

import pytest

import polyfit
from polyfit import PolyfitError

from helpers import ROOT, run_cli

sys.path.insert(0, str(ROOT / "benchmarks"))

import fuzz  # noqa: E402  (the fuzz campaign's commands: one list)

BOARD = ROOT / "shapes" / "pentomino" / "3x20.txt"
LONG = "a" * 300  # over the 255 bytes a name may have on Linux file systems


def one_error(result, *words):
    assert result.exit_code == 2, result.output
    assert result.output.startswith("polyfit: error: ") and result.output.count("\n") == 1, result.output
    for word in words:
        assert word in result.output, result.output


@pytest.mark.parametrize("command", fuzz.LONG_NAME_COMMANDS, ids=" ".join)
def test_a_file_name_longer_than_the_system_allows_is_one_error(tmp_path, monkeypatch, command):
    """The reproducers: reading or writing a file of such a name was an ``OSError: [Errno 36]
    File name too long`` traceback (the fuzz campaign tries the same commands)."""
    monkeypatch.chdir(tmp_path)
    name = str(tmp_path / LONG)
    args = [a.replace("{board}", str(BOARD)).replace("{dir}", str(tmp_path)).replace("{}", name) for a in command]
    result = run_cli(args)
    one_error(result)
    assert "File name too long" in result.output or "unknown piece set" in result.output, result.output


def test_the_api_says_it_too():
    with pytest.raises(PolyfitError, match="^cannot read a{300}.txt: File name too long$"):
        polyfit.read_board(LONG + ".txt")


def test_a_piece_spec_too_long_to_be_a_file_is_an_unknown_set():
    one_error(run_cli(["solve", str(BOARD), "--pieces", LONG]), "unknown piece set")


@pytest.mark.parametrize(
    "option, value, words",
    [
        ("--cell", "100000", "cell size must be at most 1,000 pixels, not 100,000"),
        ("--margin", "10000000", "margin must be at most 1,000 pixels, not 10,000,000"),
    ],
)
def test_picture_sizes_have_bounds_named_in_the_error(tmp_path, option, value, words):
    """The reproducers: both ended in a MemoryError traceback after the search."""
    result = run_cli(["solve", str(BOARD), "--limit", "1", "--png", str(tmp_path / "x.png"), option, value])
    one_error(result, words)
    assert not (tmp_path / "x.png").exists()


def test_a_picture_over_the_pixel_limit_is_refused_naming_the_limit(tmp_path, monkeypatch):
    monkeypatch.setenv("POLYFIT_MAX_PIXELS", "100000")
    result = run_cli(["solve", str(BOARD), "--limit", "1", "--png", str(tmp_path / "x.png"), "--cell", "100"])
    # The solution is printed, then its picture is refused (its size is known once drawn).
    assert result.exit_code == 2 and "Traceback" not in result.output, result.output
    last = result.output.splitlines()[-1]
    assert last.startswith("polyfit: error: a picture of ") and "pixels, over polyfit's limit of 100,000" in last
    assert "POLYFIT_MAX_PIXELS" in last
    assert not (tmp_path / "x.png").exists()


def test_the_api_bounds_picture_sizes_too():
    solution = next(polyfit.load(BOARD).solutions(limit=1))
    with pytest.raises(PolyfitError, match="cell size must be at most 1,000 pixels, not 100,000"):
        solution.png(cell=100000)


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    path = tmp_path_factory.mktemp("saved") / "s.json"
    made = run_cli(["solve", str(BOARD), "--limit", "1", "--output", str(path)])
    assert made.exit_code == 0, made.output
    return path


@pytest.mark.parametrize("value", ["inf", "-inf", "nan", "1e300", "1001", "0"])
@pytest.mark.parametrize("output", ["--glb", "--obj", "--3mf", "--stl"])
def test_a_unit_that_is_not_a_length_is_refused(tmp_path, saved, value, output):
    """The reproducer: ``render --glb --unit inf`` exited 0 and wrote NaN vertices."""
    target = tmp_path / ("kit" if output == "--stl" else "model" + output.replace("--", "."))
    if output == "--stl":
        target.mkdir()
    words = ("unit (a cell's edge) must be a positive number of millimetres" if value in ("nan", "-inf", "0")
             else "--unit must be a number of millimetres from more than 0 to 1,000")
    one_error(run_cli(["render", str(saved), output, str(target), "--unit", value]), words)
    assert not target.is_file() and not (target.is_dir() and any(target.iterdir()))


@pytest.mark.parametrize(
    "args, words",
    [
        (["--gap", "inf"], "gap must be at least 0 and less than half the unit (7.5 mm)"),
        (["--unit", "1e300", "--gap", "1e299"], "--unit must be a number of millimetres from more than 0 to 1,000, not 1e+300"),
        (["--svg", "{tmp}/c.svg", "--cut", "--unit", "inf"], "unit (a cell's edge) must be a positive number of millimetres, not inf"),
        (["--svg", "{tmp}/c.svg", "--cut", "--unit", "1e300"], "--unit must be a number of millimetres from more than 0 to 1,000"),
        (["--svg", "{tmp}/c.svg", "--cut", "--kerf", "nan"], "kerf must be at least 0 and less than the cell (unit 15 mm), not nan"),
    ],
)
def test_other_lengths_are_refused_alike(tmp_path, saved, args, words):
    extra = [a.format(tmp=tmp_path) for a in args]
    if "--svg" not in extra:
        extra = ["--glb", str(tmp_path / "m.glb"), *extra]
    one_error(run_cli(["render", str(saved), *extra]), words)
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize("option", ["--unit", "--gap", "--thickness", "--bevel", "--wall", "--floor"])
def test_kit_lengths_are_refused_alike(tmp_path, option):
    args = ["kit", "pentominoes", "--stl", str(tmp_path), "--tray", str(BOARD), option, "inf"]
    words = "gap must be at least 0 and less than half the unit" if option == "--gap" else f"{option} must be a number of millimetres"
    one_error(run_cli(args), words)
    assert not list(tmp_path.iterdir())


def test_a_good_unit_still_makes_a_model(tmp_path, saved):
    result = run_cli(["render", str(saved), "--glb", str(tmp_path / "m.glb"), "--unit", "20"])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "m.glb").stat().st_size > 1000


@pytest.mark.parametrize("name, shown", [("x\ny.txt", "x\\ny.txt"), ("x\udcffy.txt", "x\\xffy.txt"), ("x\ty.txt", "x\\ty.txt")])
def test_an_error_naming_an_odd_file_is_still_one_printable_line(tmp_path, capfd, name, shown):
    """A newline in a file name split the error over two lines; a byte that is not UTF-8
    (Python holds it as a lone surrogate) was an encoding error under a strict UTF-8 locale."""
    from polyfit.cli import build_app, run

    assert run(build_app(), ["solve", str(tmp_path / name)]) == 2
    err = capfd.readouterr().err
    assert err == f"polyfit: error: no such board file: {tmp_path}/{shown}\n"
