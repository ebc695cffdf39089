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

import polyfit
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


# -- one output system: every exporter, reached by suffix, writes a file its reader opens ------

BOARD_HEX = ROOT / "shapes/polyhex/tetrahexes-4x7.txt"
BUILT_IN_EXPORTERS = ("text", "json", "png", "gif", "svg", "cut-svg", "pdf", "stl", "glb", "3mf", "obj")


def printed_solutions(output: str) -> list[str]:
    """The text art of each solution ``polyfit solve`` printed."""
    return [block.split(":\n", 1)[1].strip("\n") for block in output.split("\n\n") if block.startswith("Solution ")]


def open_model(path: Path) -> list:
    """The meshes of a model file, read back with trimesh (each piece one mesh); a 3MF's
    model part is read here from its XML, as trimesh's reader needs packages polyfit does not."""
    import trimesh

    if path.suffix == ".3mf":
        with zipfile.ZipFile(path) as archive:
            root = ET.fromstring(archive.read("3D/3dmodel.model"))
        ns = {"m": "http://schemas.microsoft.com/3dmanufacturing/core/2015/02"}
        meshes = []
        for obj in root.iterfind("m:resources/m:object", ns):
            vertices = [[float(v.get(k)) for k in "xyz"] for v in obj.iterfind("m:mesh/m:vertices/m:vertex", ns)]
            faces = [[int(t.get(k)) for k in ("v1", "v2", "v3")] for t in obj.iterfind("m:mesh/m:triangles/m:triangle", ns)]
            meshes.append(trimesh.Trimesh(vertices, faces))
        return meshes
    loaded = trimesh.load(path, process=True) if path.suffix != ".obj" else trimesh.load(path, process=False, split_object=True)
    if isinstance(loaded, trimesh.Scene):
        return [trimesh.Trimesh(g.vertices, g.faces) for g in loaded.geometry.values()]
    return [trimesh.Trimesh(loaded.vertices, loaded.faces)]


def check_file(path: Path, solutions: list[str], cells: int) -> None:
    """``path`` holds what its format says, of these solutions (text art) on a board of
    ``cells`` cells; fails otherwise."""
    from PIL import Image

    name = path.name
    if name.endswith(".txt"):
        assert printed_solutions(path.read_text()) == solutions
    elif name.endswith(".json"):
        data = json.loads(path.read_text())
        assert len(data["solutions"]) == len(solutions) and len(data["cells"]) == cells
    elif name.endswith(".png"):
        with Image.open(path) as image:
            assert image.format == "PNG" and image.width > 50 and image.height > 50
    elif name.endswith(".gif"):
        with Image.open(path) as image:
            assert image.format == "GIF" and image.n_frames >= len(solutions) * 2
    elif name.endswith(".cut.svg"):
        root = ET.parse(path).getroot()
        assert root.tag.endswith("svg") and root.get("width").endswith("mm")
        assert len([e for e in root.iter() if e.get("class") == "cut"]) >= 3
    elif name.endswith(".svg"):
        root = ET.parse(path).getroot()
        named = {e.get("data-piece") for e in root.iter() if e.get("data-piece")}
        assert root.tag.endswith("svg") and len(named) >= 3
    elif name.endswith(".pdf"):
        from pypdf import PdfReader

        assert len(PdfReader(path).pages) >= 2  # the puzzle, then the solutions
    else:
        meshes = open_model(path)
        assert meshes and all(mesh.is_watertight for mesh in meshes)
        unit, gap = 15.0, 0.2
        volume = sum(mesh.volume for mesh in meshes)
        assert cells * (unit - gap) ** 3 * 0.98 < volume < cells * unit**3  # every piece, shrunk by the gap


@pytest.mark.parametrize("board, suffix", [
    (BOARD_2D, ".txt"), (BOARD_2D, ".json"), (BOARD_2D, ".png"), (BOARD_2D, ".gif"), (BOARD_2D, ".svg"),
    (BOARD_2D, ".cut.svg"), (BOARD_2D, ".pdf"), (BOARD_3D, ".stl"), (BOARD_3D, ".glb"), (BOARD_3D, ".3mf"),
    (BOARD_3D, ".obj"), (BOARD_3D, ".png"), (BOARD_3D, ".gif"), (BOARD_3D, ".svg"), (BOARD_3D, ".pdf"),
    (BOARD_HEX, ".png"), (BOARD_HEX, ".gif"), (BOARD_HEX, ".svg"), (BOARD_HEX, ".txt"),
], ids=lambda v: v if isinstance(v, str) else v.stem)
def test_output_writes_every_format_by_its_suffix(app, tmp_path, board, suffix):
    out = tmp_path / f"out{suffix}"
    result = run(app, "solve", board, "--limit", "2", "--output", out)
    assert result.exit_code == 0, result.output
    assert f"wrote {out}" in result.output
    cells = len(polyfit.read_board(board).cells)
    check_file(out, printed_solutions(result.output), cells)


@pytest.mark.parametrize("suffix", [".png", ".txt", ".svg", ".stl"])
def test_count_refuses_an_output_that_needs_solutions_before_the_search(app, tmp_path, suffix):
    out = tmp_path / f"out{suffix}"
    result = run(app, "solve", BOARD_2D, "--count", "--stats", "--output", out)
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert f"--count prints no solutions to write to {out}" in result.output
    assert "solutions" not in result.output.split("error:")[0]  # refused before counting
    assert not out.exists()


def test_count_writes_the_counts_to_json(app, tmp_path):
    out = tmp_path / "counts.json"
    result = run(app, "solve", BOARD_2D, "--count", "--output", out)
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    assert data["solutions"] == [] and data["total"] == polyfit.load(BOARD_2D).count().total >= data["distinct"] > 0


def test_the_built_in_exporters_are_one_table_and_each_is_tested():
    exporters = polyfit.registry().exporters
    assert tuple(exporters) == BUILT_IN_EXPORTERS
    tested = {".txt", ".json", ".png", ".gif", ".svg", ".cut.svg", ".pdf", ".stl", ".glb", ".3mf", ".obj"}
    assert {entry.suffixes[0] for entry in exporters.values()} == tested
    assert polyfit.registry().exporter(None, "glb") is exporters["glb"]  # by name alone, as the studio asks
    assert polyfit.registry().exporter("a/pieces.CUT.SVG") is exporters["cut-svg"]
    assert polyfit.registry().exporter("a/pieces.svg") is exporters["svg"]
    plugins = {entry.plugin for entry in exporters.values()}
    assert all(p.startswith("polyfit.formats.") for p in plugins) and len(plugins) == 7  # a module per format (3D models share one)


def test_render_reaches_every_exporter_from_saved_solutions(app, tmp_path):
    saved = tmp_path / "s.json"
    result = run(app, "solve", BOARD_3D, "--limit", "2", "-o", saved)
    assert result.exit_code == 0, result.output
    solutions = printed_solutions(result.output)
    outs = [tmp_path / f"r{s}" for s in (".txt", ".png", ".gif", ".svg", ".pdf", ".stl", ".glb", ".3mf", ".obj")]
    result = run(app, "render", saved, *[arg for out in outs for arg in ("-o", out)])
    assert result.exit_code == 0, result.output
    assert [line.split(" ")[1] for line in result.output.splitlines()] == [str(o) for o in outs]
    for out in outs:
        check_file(out, solutions, 27)


def no_search(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("searched before refusing")

    monkeypatch.setattr(polyfit.longsearch, "run", refuse)


@pytest.mark.parametrize("board, args, message", [
    (BOARD_2D, ["--png", "{tmp}/out.gif"], "{tmp}/out.gif: --png writes png files (.png), but the name says gif (.gif); name it out.png"),
    (BOARD_2D, ["--png", "{tmp}/out.jpg"], "{tmp}/out.jpg: --png writes png files (.png); name it out.png"),
    (BOARD_2D, ["--pdf", "{tmp}/out.png"], "{tmp}/out.png: --pdf writes pdf files (.pdf), but the name says png (.png); name it out.pdf"),
    (BOARD_3D, ["--glb", "{tmp}/out.obj"], "{tmp}/out.obj: --glb writes glb files (.glb), but the name says obj (.obj); name it out.glb"),
    (BOARD_2D, ["-o", "{tmp}/out.gif", "--format", "png"],
     "{tmp}/out.gif: format 'png' writes png files (.png), but the name says gif (.gif); name it out.png"),
    (BOARD_2D, ["-o", "{tmp}/out.xyz"], "no exporter writes '.xyz'; known suffixes: .3mf, .cut.svg, .gif, .glb, .json, "
     ".obj, .pdf, .png, .stl, .svg, .txt (or choose one with --format)"),
    (BOARD_2D, ["-o", "{tmp}/a.txt", "-o", "{tmp}/b.txt", "--format", "json"],
     "--format names the format of one --output file; give exactly one --output"),
    (BOARD_HEX, ["--pdf", "{tmp}/out.pdf"], "a PDF puzzle sheet is made for squares and cubes; it does not handle the "
     "hex lattice yet (solve, --count, check, hint, estimate, --png and --svg do)"),
    (BOARD_HEX, ["-o", "{tmp}/out.pdf"], "a PDF puzzle sheet is made for squares and cubes; it does not handle the "
     "hex lattice yet (solve, --count, check, hint, estimate, --png and --svg do)"),
    (BOARD_HEX, ["-o", "{tmp}/out.stl"], "a 3D model of a solution is made for squares, cubes, prisms, spheres and the rhombic and tetra-octa grids; "
     "it does not handle the hex lattice yet (solve, --count, check, hint, estimate, --png and --svg do)"),
    (BOARD_2D, ["-o", "{tmp}/out.svg", "--view", "iso"], "view 'iso' is for 3D boards; 2D boards are drawn flat"),
    (BOARD_3D, ["-o", "{tmp}/out.gif", "--view", "exploded"], "unknown view 'exploded'; choose one of iso, layers"),
])
def test_bad_outputs_are_refused_before_the_search(app, tmp_path, monkeypatch, board, args, message):
    no_search(monkeypatch)
    result = run(app, "solve", board, "--limit", "1", *[a.format(tmp=tmp_path) for a in args])
    assert result.exit_code == 2
    assert result.output == f"polyfit: error: {message.format(tmp=tmp_path)}\n"
    assert list(tmp_path.iterdir()) == []


def test_format_writes_any_name_but_the_suffix_of_another_format(app, tmp_path):
    out = tmp_path / "solutions.data"
    assert run(app, "solve", BOARD_2D, "-o", out, "--format", "json").exit_code == 0
    assert len(json.loads(out.read_text())["solutions"]) == 2
    cut = tmp_path / "pieces.svg"
    assert run(app, "solve", BOARD_2D, "--limit", "1", "-o", cut, "--format", "cut-svg").exit_code == 0
    assert {e.get("class") for e in ET.parse(cut).getroot().iter()} >= {"cut"}


def test_sample_writes_the_solutions_it_draws_to_every_output(app, tmp_path):
    # It used to print them and write nothing, exiting 0.
    board = BOARD_2D
    files = [tmp_path / n for n in ("s.json", "s.png", "s.svg", "s.gif", "s.txt")]
    result = run(app, "solve", board, "--sample", "3", "--seed", "7", "-o", files[0], "--png", files[1],
                 "--svg", files[2], "-o", files[3], "-o", files[4])
    assert result.exit_code == 0, result.output
    drawn = [block.split(":\n", 1)[1].strip("\n") for block in result.output.split("\n\n")
             if block.startswith("Random solution ")]
    assert len(drawn) == 3
    for path in files:
        check_file(path, drawn, 60)
    saved = json.loads(files[0].read_text())["solutions"]
    art = [["." * 20 for _ in range(3)] for _ in saved]
    for k, solution in enumerate(saved):
        rows = [list(row) for row in art[k]]
        for name, cells in solution.items():
            for r, c in cells:
                rows[r][c] = name
        art[k] = "\n".join("".join(row) for row in rows)
    assert art == drawn
    models = tmp_path / "c.glb"
    result = run(app, "solve", ROOT / "shapes/soma/castle.vox", "--sample", "1", "--seed", "1", "--glb", models,
                 "--stl", tmp_path)
    assert result.exit_code == 0, result.output
    check_file(models, [], 27)
    assert len(list(tmp_path.glob("*.stl"))) == 7
    refused = run(app, "solve", board, "--sample", "1", "--png", files[1])
    assert refused.exit_code == 2 and "use --force to overwrite" in refused.output


def test_a_plugin_exporter_gets_its_options_and_is_checked_before_the_search(tmp_path, monkeypatch):
    import types

    from polyfit.cli import build_app
    from polyfit.hookspecs import hookimpl
    from polyfit.plugins import get_plugin_manager

    heard = []

    def export(solutions, path, *, cell=1, unit=None):
        heard.append(("export", cell, unit))
        path.write_text(f"{len(solutions.solutions)} {cell} {unit}\n")
        return "in sizes"

    def check(solutions, **options):
        heard.append(("check", options, len(solutions.solutions)))
        if options.get("cell") == 99:
            raise PolyfitError("99 is too big")

    export.check = check
    module = types.ModuleType("sizes")
    module.register_exporters = hookimpl(lambda register: register("sizes", (".sizes",), export, "sizes"))
    pm = get_plugin_manager(load_entrypoints=False)
    pm.register(module, name="sizes")
    app = build_app(pm)
    out = tmp_path / "out.sizes"
    result = run(app, "solve", BOARD_2D, "-o", out, "--cell", "7", "--kerf", "0")
    assert result.exit_code == 0, result.output
    assert f"wrote {out} (in sizes)" in result.output and out.read_text() == "2 7 None\n"
    assert heard == [("check", {"cell": 7}, 0), ("export", 7, None)]
    registry = polyfit.registry()  # the API's own registry has no such plugin
    with pytest.raises(PolyfitError, match="^unknown export format 'sizes'"):
        polyfit.export(polyfit.load(BOARD_2D).solutions(limit=1), ".x", format="sizes", plugins=registry)
    no_search(monkeypatch)
    result = run(app, "solve", BOARD_2D, "-o", tmp_path / "big.sizes", "--cell", "99")
    assert result.exit_code == 2 and result.output == "polyfit: error: 99 is too big\n"


def test_the_api_writes_and_returns_every_format_and_speaks_its_own_words(tmp_path):
    puzzle = polyfit.load(BOARD_2D)
    first = next(puzzle.solutions())
    assert first.png()[:8] == b"\x89PNG\r\n\x1a\n" and first.gif()[:6] == b"GIF89a"
    assert first.svg().startswith(b"<?xml") and first.pdf()[:5] == b"%PDF-"
    assert polyfit.export(first, ".txt").decode() == f"Solution 1:\n{first.text()}\n"
    assert polyfit.export(puzzle.solutions(), ".cut.svg") == polyfit.export(first, None, "cut-svg")
    cube = next(polyfit.load(BOARD_3D).solutions())
    for method, suffix in (("stl", ".stl"), ("glb", ".glb"), ("threemf", ".3mf"), ("obj", ".obj")):
        path = tmp_path / f"cube{suffix}"
        assert getattr(cube, method)(path) is None
        check_file(path, [], 27)
        assert path.read_bytes() == getattr(cube, method)() or method == "glb"  # same model, as bytes
    # Item 6: the API overwrites when asked, and its errors name no command-line flag.
    picture = tmp_path / "first.png"
    first.png(picture, cell=10)
    small = picture.read_bytes()
    with pytest.raises(PolyfitError) as refused:
        first.png(picture)
    assert str(refused.value) == f"{picture} exists; pass overwrite=True to replace it"
    assert picture.read_bytes() == small and leftovers(tmp_path) == []
    first.png(picture, overwrite=True)
    assert picture.read_bytes() != small
    with pytest.raises(PolyfitError, match="^the png exporter has no option unit; its options are cell, margin, labels, view$"):
        first.png(unit=3)
    with pytest.raises(PolyfitError, match="^cell size must be at least 4 pixels$"):
        first.gif(cell=2)
    with pytest.raises(PolyfitError, match="^view 'iso' is for 3D boards"):
        first.svg(view="iso")
    with pytest.raises(PolyfitError, match="format=..."):
        polyfit.export(first, tmp_path / "first.xyz")
