"""Output files: nothing the user has is replaced without --force, not even a file that
appears while polyfit searches; new files get the mode the umask gives."""

import errno
import json
import os
import shutil
import stat
import zipfile
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest

import polyfit.files
import polyfit.longsearch
from polyfit.errors import PolyfitError
from polyfit.files import output_file, write_output

from helpers import ROOT, run

BOARD_2D = ROOT / "shapes/pentomino/3x20.txt"
BOARD_3D = ROOT / "shapes/soma/cube.vox"
USERS = b"the user's own file\n"


@pytest.fixture
def umask_022():
    old = os.umask(0o022)
    yield
    os.umask(old)


def mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def leftovers(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir() if p.name.startswith("."))


# -- the helper ----------------------------------------------------------------------------


def test_write_output_creates_a_new_file_with_the_umasks_mode(tmp_path, umask_022):
    path = tmp_path / "out.txt"
    write_output(path, b"one")
    assert path.read_bytes() == b"one" and mode(path) == 0o644
    with pytest.raises(PolyfitError, match=rf"^{path} exists; use --force to overwrite it$"):
        write_output(path, b"two")
    assert path.read_bytes() == b"one"
    write_output(path, b"three", force=True)
    assert path.read_bytes() == b"three" and mode(path) == 0o644
    assert leftovers(tmp_path) == []


def test_the_second_of_two_writers_is_refused(tmp_path):
    # Two runs that both passed the early check: the first to write wins, the second is told.
    path = tmp_path / "out.png"
    write_output(path, b"first")
    with pytest.raises(PolyfitError, match="exists; use --force"):
        write_output(path, b"second")
    assert path.read_bytes() == b"first" and leftovers(tmp_path) == []


def test_write_output_without_hard_links_still_never_replaces(tmp_path, monkeypatch):
    def no_link(source, target):
        raise OSError(errno.EPERM, "Operation not permitted")

    monkeypatch.setattr(polyfit.files.os, "link", no_link)
    path = tmp_path / "out.txt"
    write_output(path, b"one")
    assert path.read_bytes() == b"one"
    with pytest.raises(PolyfitError, match="exists; use --force"):
        write_output(path, b"two")
    assert path.read_bytes() == b"one" and leftovers(tmp_path) == []


def test_write_output_errors_name_the_file(tmp_path):
    (tmp_path / "dir").mkdir()
    with pytest.raises(PolyfitError, match=rf"^cannot write {tmp_path / 'dir'}: Is a directory$"):
        write_output(tmp_path / "dir", b"x")
    with pytest.raises(PolyfitError, match=rf"^cannot write {tmp_path / 'dir'}: Is a directory$"):
        write_output(tmp_path / "dir", b"x", force=True)
    with pytest.raises(PolyfitError, match=r"^cannot write .*missing/x: No such file or directory$"):
        write_output(tmp_path / "missing" / "x", b"x")
    assert leftovers(tmp_path) == []


def test_output_file_puts_what_was_written_in_place(tmp_path, umask_022):
    path = tmp_path / "out.dat"
    with output_file(path) as staged:
        assert staged.name == "out.dat" and staged.parent.parent == tmp_path and not staged.exists()
        staged.write_bytes(b"one")
        (staged.parent / "extra").write_bytes(b"")
    assert path.read_bytes() == b"one" and mode(path) == 0o644
    with pytest.raises(PolyfitError, match="exists; use --force"):
        with output_file(path) as staged:
            staged.write_bytes(b"two")
    with output_file(path, force=True) as staged:
        staged.write_bytes(b"three")
    assert path.read_bytes() == b"three"
    with pytest.raises(PolyfitError, match=r"cannot write .*out.dat: nothing was written"):
        with output_file(path, force=True):
            pass
    with pytest.raises(RuntimeError):
        with output_file(tmp_path / "new.dat") as staged:
            staged.write_bytes(b"half")
            raise RuntimeError("the writer failed")
    assert not (tmp_path / "new.dat").exists()
    assert path.read_bytes() == b"three" and leftovers(tmp_path) == []


# -- every command: refused without --force, replaced with it ------------------------------


def solve_args(option, target):
    board = BOARD_3D if option in ("--stl", "--glb", "--3mf", "--obj") else BOARD_2D
    return ["solve", board, "--limit", "1", option, target]


SOLVE_OUTPUTS = [
    ("-o", "out.txt"), ("-o", "out.json"), ("-o", "out.png"), ("-o", "out.glb"),
    ("--png", "out.png"), ("--glb", "out.glb"), ("--3mf", "out.3mf"), ("--obj", "out.obj"),
    pytest.param("--animate", "out.gif", marks=pytest.mark.slow), ("--stl", "stl"), ("--svg", "out.svg"), ("--pdf", "out.pdf"),
]


def plant(tmp_path, option, name) -> Path:
    """The user's file where polyfit would write: for --stl, one piece's file."""
    if option == "--stl":
        (tmp_path / name).mkdir(exist_ok=True)
        path = tmp_path / name / "A.stl"
    else:
        path = tmp_path / name
    path.write_bytes(USERS)
    return path


@pytest.mark.parametrize("option,name", SOLVE_OUTPUTS)
def test_solve_outputs_are_refused_then_replaced_with_force(app, tmp_path, option, name):
    planted = plant(tmp_path, option, name)
    refused = run(app, *solve_args(option, tmp_path / name))
    assert refused.exit_code == 2 and "use --force to overwrite" in refused.output
    assert planted.read_bytes() == USERS
    forced = run(app, *solve_args(option, tmp_path / name), "--force")
    assert forced.exit_code == 0, forced.output
    assert planted.read_bytes() != USERS
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize("option,name", SOLVE_OUTPUTS)
def test_solve_keeps_a_file_that_appeared_during_the_search(app, tmp_path, monkeypatch, option, name):
    search = polyfit.longsearch.run
    if option == "--stl":
        (tmp_path / name).mkdir()

    def search_while_the_user_writes(*args, **kwargs):
        plant(tmp_path, option, name)  # after polyfit's early check
        return search(*args, **kwargs)

    monkeypatch.setattr(polyfit.longsearch, "run", search_while_the_user_writes)
    result = run(app, *solve_args(option, tmp_path / name))
    assert result.exit_code == 2, result.output
    assert "exists; use --force to overwrite it" in result.output
    planted = tmp_path / name / "A.stl" if option == "--stl" else tmp_path / name
    assert planted.read_bytes() == USERS
    assert leftovers(tmp_path) == []


def test_output_files_get_the_umasks_mode(app, tmp_path, umask_022):
    result = run(app, "solve", BOARD_2D, "--limit", "1", "-o", tmp_path / "s.json",
                 "--png", tmp_path / "s.png", "--animate", tmp_path / "s.gif", "--steps", "3")
    assert result.exit_code == 0, result.output
    result = run(app, "solve", BOARD_3D, "--limit", "1", "-o", tmp_path / "s.3mf", "--stl", tmp_path,
                 "--glb", tmp_path / "s.glb")
    assert result.exit_code == 0, result.output
    written = [p for p in tmp_path.iterdir() if p.is_file()]
    assert len(written) > 10
    assert {p.name: mode(p) for p in written} == {p.name: 0o644 for p in written}


@pytest.fixture
def solutions_json(app, tmp_path):
    path = tmp_path / "s.json"
    assert run(app, "solve", BOARD_3D, "--limit", "1", "-o", path).exit_code == 0
    return path


@pytest.mark.parametrize("option,name", [
    ("--png", "r.png"), ("--glb", "r.glb"), ("--3mf", "r.3mf"), ("--obj", "r.obj"), ("--stl", "stl"),
    ("--svg", "r.svg"), ("--pdf", "r.pdf"),
])
def test_render_outputs_are_refused_then_replaced_with_force(app, tmp_path, monkeypatch, solutions_json,
                                                             option, name):
    from polyfit.commands.outputs import Outputs

    planted = plant(tmp_path, option, name)
    refused = run(app, "render", solutions_json, option, tmp_path / name)
    assert refused.exit_code == 2 and "use --force to overwrite" in refused.output
    assert planted.read_bytes() == USERS
    forced = run(app, "render", solutions_json, option, tmp_path / name, "--force")
    assert forced.exit_code == 0, forced.output
    assert planted.read_bytes() != USERS
    # A file that appears after the check is kept too.
    if option == "--stl":
        shutil.rmtree(tmp_path / name)
        (tmp_path / name).mkdir()
    else:
        planted.unlink()
    check = Outputs.check

    def check_while_the_user_writes(self, *args):
        check(self, *args)
        plant(tmp_path, option, name)

    monkeypatch.setattr(Outputs, "check", check_while_the_user_writes)
    raced = run(app, "render", solutions_json, option, tmp_path / name)
    assert raced.exit_code == 2 and "exists; use --force" in raced.output
    assert planted.read_bytes() == USERS
    assert leftovers(tmp_path) == []


def test_kit_refuses_then_replaces_with_force(app, tmp_path, monkeypatch):
    import polyfit.render.meshes

    planted = tmp_path / "V.stl"
    planted.write_bytes(USERS)
    refused = run(app, "kit", "soma", "--stl", tmp_path)
    assert refused.exit_code == 2 and "use --force to overwrite" in refused.output
    assert planted.read_bytes() == USERS
    forced = run(app, "kit", "soma", "--stl", tmp_path, "--force")
    assert forced.exit_code == 0, forced.output
    assert planted.read_bytes() != USERS
    for path in tmp_path.glob("*.stl"):
        path.unlink()
    piece_mesh = polyfit.render.meshes.piece_mesh

    def mesh_while_the_user_writes(*args, **kwargs):
        if not planted.exists():
            planted.write_bytes(USERS)
        return piece_mesh(*args, **kwargs)

    monkeypatch.setattr(polyfit.render.meshes, "piece_mesh", mesh_while_the_user_writes)
    raced = run(app, "kit", "soma", "--stl", tmp_path)
    assert raced.exit_code == 2 and f"{planted} exists; use --force" in raced.output
    assert planted.read_bytes() == USERS and leftovers(tmp_path) == []


def test_pieces_png_refuses_then_replaces_with_force(app, tmp_path, monkeypatch):
    import polyfit.render.pictures

    path = tmp_path / "p.png"
    path.write_bytes(USERS)
    refused = run(app, "pieces", "tetrominoes", "--png", path)
    assert refused.exit_code == 2 and "use --force to overwrite" in refused.output
    assert path.read_bytes() == USERS
    assert run(app, "pieces", "tetrominoes", "--png", path, "--force").exit_code == 0
    assert path.read_bytes().startswith(b"\x89PNG")
    path.unlink()
    draw = polyfit.render.pictures.pieces_image

    def draw_while_the_user_writes(*args, **kwargs):
        path.write_bytes(USERS)
        return draw(*args, **kwargs)

    monkeypatch.setattr(polyfit.render.pictures, "pieces_image", draw_while_the_user_writes)
    raced = run(app, "pieces", "tetrominoes", "--png", path)
    assert raced.exit_code == 2 and "exists; use --force" in raced.output
    assert path.read_bytes() == USERS and leftovers(tmp_path) == []


def test_merge_output_refuses_then_replaces_with_force(app, tmp_path, monkeypatch):
    from polyfit.longsearch import jobfiles

    jobs = tmp_path / "jobs"
    assert run(app, "split", BOARD_2D, "--depth", "1", "--out", jobs).exit_code == 0
    for job in sorted(jobs.glob("job-*.json")):
        assert run(app, "run-job", job).exit_code == 0
    summary = tmp_path / "summary.json"
    summary.write_bytes(USERS)
    refused = run(app, "merge", jobs, "-o", summary)
    assert refused.exit_code == 2 and f"{summary} exists; use --force to overwrite it" in refused.output
    assert summary.read_bytes() == USERS
    forced = run(app, "merge", jobs, "-o", summary, "--force")
    assert forced.exit_code == 0, forced.output
    assert json.loads(summary.read_text())["total"] == 8
    summary.unlink()
    merge = jobfiles.merge_results

    def merge_while_the_user_writes(*args):
        summary.write_bytes(USERS)
        return merge(*args)

    monkeypatch.setattr(jobfiles, "merge_results", merge_while_the_user_writes)
    raced = run(app, "merge", jobs, "-o", summary)
    assert raced.exit_code == 2 and "exists; use --force" in raced.output
    assert summary.read_bytes() == USERS and leftovers(tmp_path) == []


def test_a_plugin_exporter_just_writes_its_path_and_polyfit_guards_the_output(tmp_path):
    import types

    from polyfit.cli import build_app
    from polyfit.hookspecs import hookimpl
    from polyfit.plugins import get_plugin_manager

    out = tmp_path / "out.sizes"
    user_writes_meanwhile = []

    def export(solutions, path):
        assert path.name == out.name and path.parent != tmp_path and not path.exists()
        if user_writes_meanwhile:
            out.write_bytes(USERS)
        with open(path, "w") as f:
            f.write(f"{len(solutions.solutions)} solutions\n")

    module = types.ModuleType("sizes")
    module.register_exporters = hookimpl(lambda register: register("sizes", (".sizes",), export, "sizes"))
    pm = get_plugin_manager(load_entrypoints=False)
    pm.register(module, name="sizes")
    app = build_app(pm)
    assert run(app, "solve", BOARD_2D, "-o", out).exit_code == 0
    assert out.read_text() == "2 solutions\n"
    refused = run(app, "solve", BOARD_2D, "-o", out, "--limit", "1")
    assert refused.exit_code == 2 and "use --force" in refused.output
    assert run(app, "solve", BOARD_2D, "-o", out, "--limit", "1", "--force").exit_code == 0
    assert out.read_text() == "1 solutions\n"
    out.unlink()
    user_writes_meanwhile.append(True)
    raced = run(app, "solve", BOARD_2D, "-o", out)
    assert raced.exit_code == 2 and f"{out} exists; use --force to overwrite it" in raced.output
    assert out.read_bytes() == USERS and leftovers(tmp_path) == []


# -- the gallery -----------------------------------------------------------------------------


@pytest.fixture
def one_shape(tmp_path):
    shapes = tmp_path / "shapes"
    (shapes / "pentomino").mkdir(parents=True)
    shutil.copy(BOARD_2D, shapes / "pentomino")
    return shapes


def test_gallery_into_a_directory_of_other_files_refuses_without_force(app, tmp_path, one_shape):
    out = tmp_path / "mine"
    out.mkdir()
    (out / "README.md").write_bytes(USERS)
    (out / "pentomino-3x20.png").write_bytes(USERS)
    (out / "notes.txt").write_bytes(USERS)
    refused = run(app, "gallery", "--shapes", one_shape, "--out", out)
    assert refused.exit_code == 2
    assert f"{out} already has 2 files the gallery would replace" in refused.output
    assert "use --force to overwrite them" in refused.output
    assert {p.name: p.read_bytes() for p in out.iterdir()} == dict.fromkeys(
        ["README.md", "pentomino-3x20.png", "notes.txt"], USERS)
    forced = run(app, "gallery", "--shapes", one_shape, "--out", out, "--force")
    assert forced.exit_code == 0, forced.output
    assert (out / "README.md").read_text().startswith("# Gallery")
    assert (out / "notes.txt").read_bytes() == USERS  # not the gallery's: left alone


def test_gallery_rebuilds_its_own_files_and_keeps_the_users(app, tmp_path, one_shape, monkeypatch):
    import polyfit.gallery

    out = tmp_path / "gallery"
    assert run(app, "gallery", "--shapes", one_shape, "--out", out).exit_code == 0
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    again = run(app, "gallery", "--shapes", one_shape, "--out", out)  # a rebuild needs no --force
    assert again.exit_code == 0, again.output
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before
    # A shape added since: its picture is new, so a file of that name is the user's.
    shutil.copy(ROOT / "shapes/pentomino/4x15.txt", one_shape / "pentomino")
    (out / "pentomino-4x15.png").write_bytes(USERS)
    refused = run(app, "gallery", "--shapes", one_shape, "--out", out)
    assert refused.exit_code == 2 and "1 file the gallery would replace (pentomino-4x15.png)" in refused.output
    # ... also when it appears during the searches.
    (out / "pentomino-4x15.png").unlink()
    solve = polyfit.gallery.first_solution_and_counts

    def solve_while_the_user_writes(*args):
        if not (out / "pentomino-4x15.png").exists():
            (out / "pentomino-4x15.png").write_bytes(USERS)
        return solve(*args)

    monkeypatch.setattr(polyfit.gallery, "first_solution_and_counts", solve_while_the_user_writes)
    raced = run(app, "gallery", "--shapes", one_shape, "--out", out)
    assert raced.exit_code == 2 and "pentomino-4x15.png exists; use --force" in raced.output
    assert (out / "pentomino-4x15.png").read_bytes() == USERS and leftovers(out) == []


# -- 3MF piece names -------------------------------------------------------------------------


def test_threemf_names_with_characters_xml_cannot_hold_still_parse(tmp_path):
    pytest.importorskip("trimesh")
    from polyfit.formats.models import threemf_bytes, xml_name
    from polyfit.render.meshes import Sizes, piece_mesh

    names = ["A\x01", "B\x1f\x0b", "C\ud800", "D\ufffe", "E<&\">"]
    meshes = {name: piece_mesh(((0, 0, 0),), Sizes()) for name in names}
    colours = dict.fromkeys(names, (10, 20, 30))
    path = tmp_path / "odd.3mf"
    path.write_bytes(threemf_bytes(meshes, colours))
    with zipfile.ZipFile(path) as archive:
        model = ET.fromstring(archive.read("3D/3dmodel.model"))
    ns = {"m": "http://schemas.microsoft.com/3dmanufacturing/core/2015/02"}
    found = [base.get("name") for base in model.iterfind("m:resources/m:basematerials/m:base", ns)]
    assert found == ["A\\x01", "B\\x1f\\x0b", "C\\ud800", "D\\ufffe", "E<&\">"]
    objects = [obj.get("name") for obj in model.iterfind("m:resources/m:object", ns)]
    assert objects == [f"piece {name}" for name in found]
    assert xml_name("plain F'") == "plain F'" and xml_name("tab\tnewline\n") == "tab\tnewline\n"
