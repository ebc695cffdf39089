"""Printable meshes: watertight pieces, volumes, internal faces removed, assemblies, trays,
and the STL/GLB/3MF/OBJ files and commands that write them."""

import io
import json
import zipfile
from pathlib import Path
from xml.etree import ElementTree as ET

import numpy as np
import pytest
import trimesh

from polyfit.errors import PolyfitError
from polyfit.lattices.grid import neighbours
from polyfit.render.meshes import Sizes, assembly, piece_mesh, tray_mesh
from polyfit.formats.models import threemf_bytes
from polyfit.render.palette import piece_colours

from helpers import bodies, built_in_set, run

ROOT = Path(__file__).resolve().parent.parent
UNIT = 15.0


def shared_faces(cells) -> int:
    cells = set(cells)
    return sum(1 for c in cells for n in neighbours(c) if n in cells) // 2


def exposed_faces(cells) -> int:
    return 6 * len(cells) - 2 * shared_faces(cells)


@pytest.mark.parametrize("set_name", ["soma", "tetracubes", "pentacubes"])
def test_solid_pieces_are_watertight_with_the_right_volume(set_name):
    sizes = Sizes(unit=UNIT, gap=0.2)
    for piece in built_in_set(set_name):
        n = len(piece.cells)
        mesh = piece_mesh(piece.cells, sizes)
        assert mesh.is_watertight and mesh.is_winding_consistent and mesh.is_volume, piece.name
        full = n * UNIT**3
        # Each exposed face moved in by half the gap takes at most a slab that thick.
        shaved = exposed_faces(piece.cells) * UNIT**2 * sizes.gap / 2
        assert full - shaved <= mesh.volume < full, piece.name
        assert bodies(mesh) == 1, piece.name


@pytest.mark.parametrize("set_name", ["soma", "pentominoes", "tetracubes"])
def test_without_gap_volume_is_exact_and_only_outer_faces_remain(set_name):
    for piece in built_in_set(set_name):
        mesh = piece_mesh(piece.cells, Sizes(unit=UNIT, gap=0.0, thickness=4.0))
        cells = [(0,) + c for c in piece.cells] if piece.dim == 2 else piece.cells
        n = len(cells)
        height = 4.0 if piece.dim == 2 else UNIT
        assert mesh.is_watertight, piece.name
        assert mesh.volume == pytest.approx(n * UNIT * UNIT * height)
        # Two triangles per unit face on the outside; one cube per cell would have 12 n.
        assert len(mesh.faces) == 2 * exposed_faces(cells), piece.name
        assert len(mesh.faces) < 12 * n


def test_face_counts_of_small_pieces():
    sizes = Sizes(unit=10, gap=1.0)
    cube = piece_mesh([(0, 0, 0)], sizes)
    assert len(cube.faces) == 12
    assert np.allclose(cube.bounds, [[0.5] * 3, [9.5] * 3])
    assert cube.volume == pytest.approx(9**3)
    domino = piece_mesh([(0, 0, 0), (0, 0, 1)], sizes)
    # The long sides are split where the cells meet (3 quads each), the ends are whole:
    # 4 * 3 + 2 = 14 quads. Nothing inside.
    assert len(domino.faces) == 28
    assert domino.volume == pytest.approx(19 * 9 * 9)


def test_pentomino_tiles_are_watertight_and_thickness_high():
    sizes = Sizes(unit=UNIT, gap=0.2, thickness=5)
    for piece in built_in_set("pentominoes") + built_in_set("hexominoes"):
        mesh = piece_mesh(piece.cells, sizes)
        assert mesh.is_watertight and mesh.is_volume, piece.name
        assert mesh.bounds[0][2] == 0 and mesh.bounds[1][2] == 5
        full = len(piece.cells) * UNIT * UNIT * 5
        perimeter = exposed_faces([(0,) + c for c in piece.cells]) - 2 * len(piece.cells)
        assert full - perimeter * UNIT * 5 * 0.1 <= mesh.volume < full, piece.name


def test_assembly_fills_the_board_bounding_box(app, tmp_path):
    gap = 0.4
    cells = [(z, r, c) for z in range(3) for r in range(3) for c in range(3)]
    result = run(app, "solve", ROOT / "shapes/soma/cube.vox", "--limit", "1", "--json")
    solution = json.loads(result.output)["solutions"][0]
    meshes = assembly(solution, cells, Sizes(unit=UNIT, gap=gap))
    assert sorted(meshes) == sorted("VLTZABP")
    merged = trimesh.util.concatenate(list(meshes.values()))
    assert np.allclose(merged.bounds, [[gap / 2] * 3, [3 * UNIT - gap / 2] * 3])
    total = sum(m.volume for m in meshes.values())
    shaved = sum(exposed_faces([tuple(c) for c in cells]) for cells in solution.values()) * UNIT**2 * gap / 2
    assert 27 * UNIT**3 - shaved <= total < 27 * UNIT**3
    # Pieces are in their places: each one's box is its cells' box, shrunk by half the gap
    # (x along columns, y up from the front row, z up through the layers).
    for name, mesh in meshes.items():
        zs, rows, cols = zip(*solution[name])
        low = [min(cols) * UNIT, (2 - max(rows)) * UNIT, min(zs) * UNIT]
        high = [(max(cols) + 1) * UNIT, (3 - min(rows)) * UNIT, (max(zs) + 1) * UNIT]
        assert np.allclose(mesh.bounds, [np.add(low, gap / 2), np.subtract(high, gap / 2)]), name


def test_assembly_of_a_2d_board_matches_its_size():
    board = [(r, c) for r in range(3) for c in range(20)]
    rows = ["UUXPPPLLLLFTTTWWZVVV", "UXXXPPLNNFFFTWWYZZZV", "UUXIIIIINNNFTWYYYYZV"]
    solution = {}
    for r, row in enumerate(rows):
        for c, name in enumerate(row):
            solution.setdefault(name, []).append((r, c))
    meshes = assembly(solution, board, Sizes(unit=10, gap=0.2, thickness=3))
    merged = trimesh.util.concatenate(list(meshes.values()))
    assert np.allclose(merged.bounds, [[0.1, 0.1, 0], [199.9, 29.9, 3]])
    # Row 0 of the art is at the back (largest y): U's cell (0, 0) is at the top left.
    u = meshes["U"]
    assert u.bounds[1][1] == pytest.approx(29.9) and u.bounds[0][0] == pytest.approx(0.1)


def test_tray_cavity_is_the_board_plus_clearance():
    board = [(r, c) for r in range(6) for c in range(10)]
    sizes = Sizes(unit=UNIT, gap=0.2, thickness=5)
    tray = tray_mesh(board, sizes)
    assert tray.is_watertight and tray.is_volume
    outer = (150 + 6) * (90 + 6) * (2 + 5)
    cavity = (150 + 0.2) * (90 + 0.2) * 5
    assert tray.volume == pytest.approx(outer - cavity)
    assert np.allclose(tray.bounds, [[-3, -3, -2], [153, 93, 5]])
    # An L-shaped board: the cavity follows the shape, and the tray is still one solid.
    ell = tray_mesh([(0, 0), (1, 0), (1, 1)], sizes)
    assert ell.is_watertight and bodies(ell) == 1
    with pytest.raises(PolyfitError):
        tray_mesh([(0, 0, 0)], sizes)


def test_threemf_has_one_coloured_object_per_piece():
    meshes = {"A": piece_mesh([(0, 0, 0)]), "B": piece_mesh([(0, 0, 0), (0, 0, 1)])}
    colours = piece_colours("AB")
    data = threemf_bytes(meshes, colours)
    assert data == threemf_bytes(meshes, colours)  # deterministic
    archive = zipfile.ZipFile(io.BytesIO(data))
    assert {"[Content_Types].xml", "_rels/.rels", "3D/3dmodel.model"} <= set(archive.namelist())
    ns = {"m": "http://schemas.microsoft.com/3dmanufacturing/core/2015/02"}
    model = ET.fromstring(archive.read("3D/3dmodel.model"))
    assert model.get("unit") == "millimeter"
    bases = model.findall("m:resources/m:basematerials/m:base", ns)
    assert [b.get("displaycolor") for b in bases] == [
        "#%02X%02X%02XFF" % colours[name] for name in ("A", "B")
    ]
    objects = model.findall("m:resources/m:object", ns)
    assert [o.get("name") for o in objects] == ["piece A", "piece B"]
    for obj, name, index in zip(objects, "AB", (0, 1)):
        assert obj.get("pindex") == str(index)
        assert len(obj.findall("m:mesh/m:triangles/m:triangle", ns)) == len(meshes[name].faces)
        assert len(obj.findall("m:mesh/m:vertices/m:vertex", ns)) == len(meshes[name].vertices)
    assert len(model.findall("m:build/m:item", ns)) == 2


def test_solve_writes_stl_glb_3mf_obj(app, tmp_path):
    stl = tmp_path / "stl"
    stl.mkdir()
    glb, threemf, obj = tmp_path / "a.glb", tmp_path / "a.3mf", tmp_path / "a.obj"
    result = run(app, "solve", ROOT / "shapes/soma/cube.vox", "--limit", "1", "--stl", stl,
                 "--glb", glb, "--3mf", threemf, "--obj", obj, "--unit", "10")
    assert result.exit_code == 0, result.output
    files = sorted(p.name for p in stl.iterdir())
    assert files == sorted(f"{n}.stl" for n in "VLTZABP")
    merged = []
    for path in stl.iterdir():
        mesh = trimesh.load(path, file_type="stl")
        assert mesh.is_watertight, path.name
        merged.append(mesh)
    assert np.allclose(trimesh.util.concatenate(merged).bounds, [[0.1] * 3, [29.9] * 3])
    scene = trimesh.load(glb, file_type="glb")
    assert len(scene.geometry) == 7
    colours = piece_colours("VLTZABP")
    for name, mesh in scene.geometry.items():
        piece = name.split()[-1]
        assert tuple(mesh.visual.vertex_colors[0][:3]) == colours[piece]
    assert zipfile.ZipFile(threemf).read("3D/3dmodel.model").count(b"<object ") == 7
    text = obj.read_text()
    assert text.count("\no ") + text.startswith("o ") == 7
    # Everything refuses to overwrite without --force, and names the way out.
    again = run(app, "solve", ROOT / "shapes/soma/cube.vox", "--limit", "1", "--stl", stl)
    assert again.exit_code == 2 and "--force" in again.output
    again = run(app, "solve", ROOT / "shapes/soma/cube.vox", "--limit", "1", "--glb", glb)
    assert again.exit_code == 2 and "--force" in again.output
    assert run(app, "solve", ROOT / "shapes/soma/cube.vox", "--limit", "1", "--stl", stl, "--force").exit_code == 0
    missing = run(app, "solve", ROOT / "shapes/soma/cube.vox", "--stl", tmp_path / "nope")
    assert missing.exit_code == 2 and "does not exist" in missing.output


def test_output_exporters_by_suffix(app, tmp_path):
    for suffix in ("glb", "3mf", "obj", "stl", "png"):
        out = tmp_path / f"castle.{suffix}"
        result = run(app, "solve", ROOT / "shapes/soma/castle.vox", "--limit", "1", "-o", out)
        assert result.exit_code == 0, (suffix, result.output)
        assert out.stat().st_size > 0
    stl = trimesh.load(tmp_path / "castle.stl", file_type="stl")
    # 27 cells, each face shaved by at most half the default 0.2 mm gap
    assert 27 * UNIT**3 - 27 * 6 * UNIT**2 * 0.1 <= stl.volume < 27 * UNIT**3


def test_kit_command_writes_a_printable_set_and_tray(app, tmp_path):
    kit = tmp_path / "kit"
    kit.mkdir()
    result = run(app, "kit", "pentominoes", "--stl", kit, "--tray", ROOT / "shapes/pentomino/6x10.txt",
                 "--unit", "12", "--thickness", "4")
    assert result.exit_code == 0, result.output
    assert sorted(p.stem for p in kit.iterdir()) == sorted(list("FILNPTUVWXYZ") + ["tray"])
    for path in kit.iterdir():
        mesh = trimesh.load(path, file_type="stl")
        assert mesh.is_watertight, path.name
        if path.stem != "tray":
            assert 5 * 144 * 4 * 0.95 < mesh.volume < 5 * 144 * 4
    refused = run(app, "kit", "pentominoes", "--stl", kit)
    assert refused.exit_code == 2 and "--force" in refused.output
    solids = tmp_path / "soma"
    solids.mkdir()
    assert run(app, "kit", "soma", "--stl", solids, "--gap", "0").exit_code == 0
    for path in solids.iterdir():
        mesh = trimesh.load(path, file_type="stl")
        assert mesh.is_watertight
        cells = 3 if path.stem == "V" else 4
        assert mesh.volume == pytest.approx(cells * UNIT**3)
    bad_tray = run(app, "kit", "soma", "--stl", solids, "--tray", ROOT / "shapes/soma/cube.vox", "--force")
    assert bad_tray.exit_code == 2 and "2D boards only" in bad_tray.output
    bad_gap = run(app, "kit", "soma", "--stl", solids, "--gap", "9", "--force")
    assert bad_gap.exit_code == 2 and "gap must be at least 0 and less than half the unit (7.5 mm)" in bad_gap.output


# -- bevel ----------------------------------------------------------------------------------


def chamfered_box_volume(side, bevel):
    """A box with every edge cut at 45 degrees: the smaller box grown by an octahedron."""
    a = side - 2 * bevel
    return a**3 + 6 * a * a * bevel + 6 * a * bevel**2 + 4 / 3 * bevel**3


def test_bevelled_cube_is_the_chamfered_box():
    mesh = piece_mesh([(0, 0, 0)], Sizes(unit=10, gap=0.2, bevel=2))
    assert mesh.is_watertight and mesh.is_volume
    assert mesh.volume == pytest.approx(chamfered_box_volume(9.8, 2))
    assert np.allclose(mesh.bounds, [[0.1] * 3, [9.9] * 3])
    # Six faces, twelve chamfers, eight corner triangles: every face normal is one of those.
    normals = {tuple(np.round(n * np.sqrt(np.count_nonzero(np.round(n, 6))), 6)) for n in mesh.face_normals}
    kinds = sorted({np.count_nonzero(n) for n in normals})
    assert kinds == [1, 2, 3] and len(normals) == 6 + 12 + 8


def inside_bevelled(points, cells, sizes):
    """Exactly the points of the ideal bevelled piece: within L1 distance ``bevel`` of the piece
    shrunk by half the gap plus the bevel (an independent description of the same solid)."""
    from polyfit.render.meshes import cell_frame, occupancy, slab_planes, spread_axis

    frame = cell_frame(cells)
    solid = occupancy(cells, frame)
    planes = []
    for axis in range(3):
        planes.append(slab_planes(solid.shape[axis], sizes.unit, sizes.gap / 2 + sizes.bevel))
        solid = spread_axis(solid, axis, np.logical_and)
    best = np.full(len(points), np.inf)
    for i, j, k in np.argwhere(solid):
        low = np.array([planes[0][i], planes[1][j], planes[2][k]])
        high = np.array([planes[0][i + 1], planes[1][j + 1], planes[2][k + 1]])
        if np.all(high > low):
            best = np.minimum(best, np.maximum(0, np.maximum(low - points, points - high)).sum(axis=1))
    return best <= sizes.bevel


@pytest.mark.parametrize("name", ["V", "L", "A"])
def test_bevelled_soma_pieces_match_the_ideal_solid(name):
    """Monte Carlo (seeded): the mesh's volume is the ideal bevelled solid's, concave corners
    and mitres included, within four standard errors."""
    piece = next(p for p in built_in_set("soma") if p.name == name)
    sizes = Sizes(unit=10, gap=0.2, bevel=2)
    mesh = piece_mesh(piece.cells, sizes)
    assert mesh.is_watertight and mesh.is_winding_consistent
    low, high = mesh.bounds
    n = 1_000_000
    points = low + (high - low) * np.random.default_rng(7).random((n, 3))
    share = inside_bevelled(points, piece.cells, sizes).mean()
    box = np.prod(high - low)
    error = box * np.sqrt(share * (1 - share) / n)
    assert abs(share * box - mesh.volume) < 4 * error
    assert mesh.volume < piece_mesh(piece.cells, Sizes(unit=10, gap=0.2)).volume - 100


@pytest.mark.parametrize("set_name", ["pentacubes", "pentominoes", "hexominoes"])
def test_every_bevelled_piece_is_a_clean_solid(set_name):
    for piece in built_in_set(set_name):
        sizes = Sizes(unit=15, gap=0.2, thickness=5, bevel=1.5)
        mesh = piece_mesh(piece.cells, sizes)
        plain = piece_mesh(piece.cells, Sizes(unit=15, gap=0.2, thickness=5))
        assert mesh.is_watertight and mesh.is_winding_consistent and mesh.is_volume, piece.name
        assert np.allclose(mesh.bounds, plain.bounds), piece.name
        assert 0.8 * plain.volume < mesh.volume < plain.volume, piece.name


def test_bevel_limits_and_kit_flag(app, tmp_path):
    with pytest.raises(PolyfitError, match="^bevel must be at least 0"):
        Sizes(unit=10, gap=0.2, bevel=4.9)
    thin = Sizes(unit=15, gap=0.2, thickness=2, bevel=1)  # too thin for tiles, not for solids
    with pytest.raises(PolyfitError, match="^bevel .* a tile's thickness"):
        piece_mesh([(0, 0), (0, 1)], thin)
    assert piece_mesh([(0, 0, 0), (0, 0, 1)], thin).is_watertight
    kit = tmp_path / "kit"
    kit.mkdir()
    result = run(app, "kit", "soma", "--stl", kit, "--bevel", "1")
    assert result.exit_code == 0 and "bevel 1 mm" in result.output
    for path in kit.iterdir():
        mesh = trimesh.load(path, file_type="stl")
        assert mesh.is_watertight, path.name
        cells = 3 if path.stem == "V" else 4
        assert cells * UNIT**3 * 0.9 < mesh.volume < cells * UNIT**3


def test_the_tile_thickness_does_not_limit_the_bevel_of_solids(app, tmp_path):
    """--thickness is the height of 2D tiles: a 3D piece's bevel is limited by its cells only."""
    solids = tmp_path / "soma"
    solids.mkdir()
    result = run(app, "kit", "soma", "--stl", solids, "--bevel", "3")
    assert result.exit_code == 0, result.output
    for path in solids.iterdir():
        assert trimesh.load(path, file_type="stl").is_watertight, path.name
    tiles = tmp_path / "tiles"
    tiles.mkdir()
    refused = run(app, "kit", "pentominoes", "--stl", tiles, "--bevel", "3")
    assert refused.exit_code == 2 and "less than 2.5 mm" in refused.output
    assert list(tiles.iterdir()) == []
    too_deep = run(app, "kit", "soma", "--stl", solids, "--bevel", "7.4", "--force")
    assert too_deep.exit_code == 2 and "less than 7.4 mm" in too_deep.output
