"""Printable solids of spheres (polyfit.render.balls) and of the rhombic and tetra-octa grids'
sub-cells (polyfit.render.subcells): watertight single bodies with the volumes of their
formulas, pieces of a solution at least the gap apart, files that open again, and the kit."""

import math
import zipfile
from pathlib import Path
from xml.etree import ElementTree

import numpy as np
import pytest
import trimesh

import polyfit
from helpers import bodies, contains, run_cli
from polyfit.lattices.finegrids import RHOMBIC, TETRA_OCTA
from polyfit.lattices.spheres import SPHERES
from polyfit.render.balls import ball_mesh, directions
from polyfit.render.subcells import subcell_mesh

DATA = Path(__file__).parent / "data" / "burrtools"
ROOT2, ROOT3 = math.sqrt(2), math.sqrt(3)


def _distance(points, mesh) -> np.ndarray:
    """Each point's distance to the mesh's surface: the least over its triangles of the distance
    to the triangle's plane (where the foot falls inside it) and to its three sides. Points go
    a block at a time against every triangle at once."""
    tri = mesh.vertices[mesh.faces]  # (t, 3, 3)
    a, b, c = tri[:, 0], tri[:, 1], tri[:, 2]
    normal = np.cross(b - a, c - a)
    normal /= np.linalg.norm(normal, axis=1)[:, None]
    out = []
    for start in range(0, len(points), 64):
        p = np.asarray(points[start:start + 64])[:, None, :]  # (block, 1, 3) against (t, 3)
        height = ((p - a) * normal).sum(axis=2)  # (block, t)
        foot = p - height[:, :, None] * normal
        inside = np.ones(height.shape, dtype=bool)
        for u, v in ((a, b), (b, c), (c, a)):
            inside &= (np.cross(v - u, foot - u) * normal).sum(axis=2) >= 0
        best = np.where(inside, np.abs(height), np.inf)
        for u, v in ((a, b), (b, c), (c, a)):
            t = np.clip(((p - u) * (v - u)).sum(axis=2) / ((v - u) * (v - u)).sum(axis=1), 0, 1)
            best = np.minimum(best, np.linalg.norm(p - (u + t[:, :, None] * (v - u)), axis=2))
        out.append(best.min(axis=1))
    return np.concatenate(out) if out else np.zeros(0)


def _apart(meshes, gap) -> float:
    """The least distance found from a vertex or surface sample of one mesh to another mesh
    (to its triangles that come near those points: within twice the gap and a longest edge)."""
    least = np.inf
    rng = np.random.default_rng(11)
    for i, mesh in enumerate(meshes):
        points = np.concatenate([mesh.vertices, trimesh.sample.sample_surface(mesh, 300, seed=rng.integers(1 << 30))[0]])
        for j, other in enumerate(meshes):
            if i == j:
                continue
            edges = other.vertices[other.edges_unique]
            reach = 2 * gap + np.linalg.norm(edges[:, 0] - edges[:, 1], axis=1).max()
            v = other.vertices
            squares = (points ** 2).sum(axis=1)[:, None] + (v ** 2).sum(axis=1)[None] - 2 * points @ v.T
            gaps = np.sqrt(np.maximum(squares, 0))  # (points, vertices)
            near_points = points[gaps.min(axis=1) < reach]
            if not len(near_points):
                continue
            near_vertices = gaps.min(axis=0) < reach
            faces = other.faces[near_vertices[other.faces].any(axis=1)]
            least = min(least, _distance(near_points, trimesh.Trimesh(other.vertices, faces, process=False)).min())
    return least


# -- sub-cells ------------------------------------------------------------------------------


@pytest.mark.parametrize("gap", [0.2, pytest.param(0.0, marks=pytest.mark.slow), pytest.param(3.0, marks=pytest.mark.slow)])
def test_convex_pieces_of_sub_cells_are_their_shape_moved_in_by_half_the_gap(gap):
    """A rhombic dodecahedron (inradius unit / sqrt 2, its block a cube of side unit), an
    octahedron and a tetrahedron of the tetra-octa grid (edge unit sqrt 2, inradii unit / sqrt 3
    and unit / (2 sqrt 3)) are convex: their erosion by gap / 2 is the same shape scaled about
    its centre, and so is the solid, even where other sub-cells touch it at a corner only."""
    unit, g = 15.0, gap / 2
    for cells, volume, inradius in ((RHOMBIC.dodecahedron((0, 0, 0)), 2 * unit ** 3, unit / ROOT2),
                                    (TETRA_OCTA.octahedron((1, 0, 0)), 4 / 3 * unit ** 3, unit / ROOT3),
                                    (TETRA_OCTA.tetrahedron((0, 0, 0)), unit ** 3 / 3, unit / (2 * ROOT3))):
        lattice = RHOMBIC if len(cells) == 48 else TETRA_OCTA
        mesh = subcell_mesh(cells, lattice, unit, gap)
        assert mesh.is_watertight and mesh.is_volume and bodies(mesh) == 1
        assert mesh.volume == pytest.approx(volume * ((inradius - g) / inradius) ** 3, rel=1e-9)


def _grown_cells_hold(points, lattice, cells, g) -> np.ndarray:
    """The definition, straight: a point (in blocks) is solid when it is in one of the piece's
    sub-cells and in no other sub-cell grown by g along each of the face normals."""
    corners = {c: np.array(lattice.cell_corners(c)) for c in cells}
    normals = []
    for c in lattice.origins:
        p = np.array(lattice.cell_corners(c))
        for k in range(4):
            a, b, d = (p[j] for j in range(4) if j != k)
            n = np.cross(b - a, d - a)
            n /= np.linalg.norm(n)
            if not any(abs(n @ m) > 1 - 1e-9 for m in normals):
                normals.append(n)
    normals = np.array(normals)
    block = lattice.block
    low = np.floor(points.min(axis=0)).astype(int) - 1
    high = np.floor(points.max(axis=0)).astype(int) + 1
    others = [(z, y, x) for z in range(block * low[2], block * (high[2] + 1)) for y in range(block * low[1], block * (high[1] + 1))
              for x in range(block * low[0], block * (high[0] + 1)) if lattice.is_cell((z, y, x)) and (z, y, x) not in corners]
    inside = np.zeros(len(points), dtype=bool)
    for p in corners.values():
        weights = np.linalg.solve((p[1:] - p[0]).T, (points - p[0]).T).T
        inside |= (weights > 0).all(axis=1) & (weights.sum(axis=1) < 1)
    heights = points @ normals.T
    for c in others:
        span = np.array(lattice.cell_corners(c)) @ normals.T
        inside &= ~((heights > span.min(axis=0) - g) & (heights < span.max(axis=0) + g)).all(axis=1)
    return inside


@pytest.mark.parametrize("lattice, index", [pytest.param(RHOMBIC, 2, marks=pytest.mark.slow), (TETRA_OCTA, 0)],
                         ids=["rhombic", "tetra-octa"])
def test_the_solid_is_the_definition_point_by_point(lattice, index):
    if lattice is RHOMBIC:
        piece = polyfit.pieces("rhombics-3")[index]
    else:  # a tetrahedron with an octahedron on one face
        piece = type("P", (), {"cells": TETRA_OCTA.tetrahedron((0, 0, 0)) + TETRA_OCTA.octahedron((1, 0, 0))})
    cells = {tuple(c) for c in piece.cells}
    unit, gap = 10.0, 2.0  # g = 0.1 of a block: clearly visible
    mesh = subcell_mesh(cells, lattice, unit, gap)
    assert mesh.is_watertight and mesh.is_volume and bodies(mesh) == 1
    corners = np.array([p for c in cells for p in lattice.cell_corners(c)])
    low, high = corners.min(axis=0) - 0.1, corners.max(axis=0) + 0.1
    points = np.random.default_rng(4).uniform(low, high, (1500, 3))
    x0, y0, z0 = corners[:, 0].min(), corners[:, 1].max(), corners[:, 2].min()
    model = np.column_stack([(points[:, 0] - x0) * unit, (y0 - points[:, 1]) * unit, (points[:, 2] - z0) * unit])
    inside = contains(mesh, model)
    expected = _grown_cells_hold(points, lattice, cells, gap / 2 / unit)
    assert inside.sum() > 100 and (~inside).sum() > 100
    assert (inside == expected).all(), points[inside != expected][:5]


# -- spheres --------------------------------------------------------------------------------


def _ball_volume(cells, unit, gap) -> float:
    """Balls of radius R = (unit - gap) / 2 and necks of radius r = 0.4 R between touching
    ones: each neck adds its cylinder less the two parts of it inside its balls (half of a ball
    less its napkin ring of half-height h = sqrt(R^2 - r^2), each)."""
    radius = (unit - gap) / 2
    neck = 0.4 * radius
    h = math.sqrt(radius ** 2 - neck ** 2)
    cells = {tuple(c) for c in cells}
    bonds = sum(1 for c in cells for n in SPHERES.neighbours(c) if n in cells) // 2
    return len(cells) * 4 / 3 * math.pi * radius ** 3 + bonds * (math.pi * neck ** 2 * unit - 4 / 3 * math.pi * (radius ** 3 - h ** 3))


@pytest.mark.parametrize("name, gap", [("monosphere", 0.2), ("dispheres", 0.2), ("trispheres", 2.0),
                                       pytest.param("tetraspheres", 0.2, marks=pytest.mark.slow)])
def test_every_polysphere_is_one_watertight_solid_just_inside_its_balls_and_necks(name, gap):
    for piece in polyfit.pieces(name):
        mesh = ball_mesh(piece.cells, SPHERES, 15, gap)
        assert mesh.is_watertight and mesh.is_volume and bodies(mesh) == 1, piece.name
        # inscribed in the exact solid: a little less, never more
        assert 0.985 < mesh.volume / _ball_volume(piece.cells, 15, gap) < 1, piece.name


def test_necks_of_other_pieces_keep_the_gap_by_construction():
    """The sizes the design rests on, over the packing: two bonds that share no sphere are at
    least unit / sqrt 2 apart (room for two necks and the gap), a sphere that is neither end of a
    bond at least unit sqrt 3 / 2 from it (room for a ball, a neck and the gap)."""
    unit = 1.0
    centres = [np.array(d) * unit for d in directions()] + [np.zeros(3)]
    bonds = [(p, q) for i, p in enumerate(centres) for q in centres[i + 1:] if abs(np.linalg.norm(p - q) - unit) < 1e-9]

    steps = np.linspace(0, 1, 201)[:, None]

    def segment(p, q):
        return p + steps * (q - p)

    def least(a, b):
        return np.sqrt(((a[:, None] - b[None]) ** 2).sum(axis=2)).min()

    least_bonds = min(least(segment(*s), segment(*t)) for i, s in enumerate(bonds) for t in bonds[i + 1:]
                      if not any(np.allclose(u, v) for u in s for v in t))
    least_ball = min(least(segment(*s), c[None]) for s in bonds for c in centres if not any(np.allclose(c, u) for u in s))
    assert least_bonds == pytest.approx(unit / ROOT2, abs=1e-3)
    assert least_ball == pytest.approx(unit * ROOT3 / 2, abs=1e-3)
    for gap in (0.0, 0.2, 7.4):  # up to just under half the unit, as Sizes allows
        radius = (15 - gap) / 2
        assert 2 * 0.4 * radius + gap < 15 / ROOT2 and radius + 0.4 * radius + gap < 15 * ROOT3 / 2


# -- solutions ------------------------------------------------------------------------------


@pytest.mark.parametrize("source", [pytest.param(DATA / "spheres" / "pyramid-trispheres-tetraspheres.xmpuzzle", marks=pytest.mark.slow),
                                    pytest.param(DATA / "finegrids" / "rd-four-by-two.xmpuzzle", marks=pytest.mark.slow),
                                    DATA / "finegrids" / "to-octahedron.xmpuzzle"], ids=lambda p: p.stem)
def test_a_solution_model_has_every_piece_in_its_place_gap_apart(source, tmp_path):
    solution = next(polyfit.load(source).solutions(limit=1))
    assert solution.placements
    gap = 1.0
    args = ["solve", str(source), "--limit", "1", "--gap", str(gap)]
    for suffix in ("glb", "3mf"):
        result = run_cli(args + ["--output", str(tmp_path / f"model.{suffix}")])
        assert result.exit_code == 0, result.output
    scene = trimesh.load(tmp_path / "model.glb")
    meshes = list(scene.geometry.values())
    assert len(meshes) == len(solution.placements)
    assert all(m.is_watertight and m.is_volume and bodies(m) == 1 for m in meshes)
    with zipfile.ZipFile(tmp_path / "model.3mf") as archive:  # (trimesh reads 3MF only with networkx)
        model = ElementTree.fromstring(archive.read("3D/3dmodel.model"))
    triangles = model.findall(".//{*}object/{*}mesh/{*}triangles")
    assert [len(t) for t in triangles] == [len(m.faces) for m in meshes]
    assert _apart(meshes, gap) >= gap - 1e-4  # (a GLB holds its vertices as 32-bit floats)


def test_the_kits_of_spheres_and_sub_cells_are_printable_solids(tmp_path):
    for name, count in (("trispheres", 4), ("rhombics-2", 1)):
        folder = tmp_path / name
        folder.mkdir()
        result = run_cli(["kit", name, "--stl", str(folder)])
        assert result.exit_code == 0, result.output
        assert f"wrote {count} STL file" in result.output and "warning" not in result.output
        paths = sorted(folder.glob("*.stl"))
        assert len(paths) == count
        for path in paths:
            mesh = trimesh.load(path)
            assert mesh.is_watertight and mesh.is_volume and bodies(mesh) == 1, path.name
    rhombics2 = trimesh.load(tmp_path / "rhombics-2" / next(p.name for p in (tmp_path / "rhombics-2").glob("*.stl")))
    # two dodecahedra sharing a face: each outer face gap/2 in; no more than two whole ones, near that
    assert 0.95 * 4 * 15 ** 3 < rhombics2.volume < 4 * 15 ** 3


# -- pictures in space ----------------------------------------------------------------------


def _seen_area(faces) -> float:
    """The faces' area as seen along the line of sight (1, 1, 1)."""
    view = np.ones(3) / ROOT3
    total = 0.0
    for points, *_ in faces:
        a, b, c = (np.array(p) for p in points)
        total += abs(np.cross(b - a, c - a) @ view) / 2
    return total


def test_a_rhombic_dodecahedron_shows_three_rhombi_and_an_octahedron_four_triangles():
    """Seen along (1, 1, 1), a convex solid's faces turned to the viewer cover its outline once,
    and they all lie on its surface (none between two of its sub-cells): the dodecahedron's three
    rhombi (diagonals 1 and sqrt 2, each seen at cos = 2 / sqrt 6) make sqrt 3; the octahedron's
    outline is a regular hexagon of side sqrt(2/3), area sqrt 3 too."""
    from polyfit.render.prism_views import faces_in_space

    cells = {c: "A" for c in RHOMBIC.dodecahedron((0, 0, 0))}
    faces = faces_in_space(cells, RHOMBIC)
    assert _seen_area(faces) == pytest.approx(ROOT3)
    for points, *_ in faces:  # on the surface |x - c|_i + |x - c|_j = 1 for some two axes
        d = np.abs(np.array(points) - 0.5)
        assert np.isclose(np.array([d[:, 0] + d[:, 1], d[:, 0] + d[:, 2], d[:, 1] + d[:, 2]]).max(axis=0), 1).all()
    octahedron = {c: "B" for c in TETRA_OCTA.octahedron((1, 0, 0))}
    faces = faces_in_space(octahedron, TETRA_OCTA)
    assert len(faces) == 4  # the four faces turned to the viewer, one eighth's each
    assert _seen_area(faces) == pytest.approx(3 * ROOT3 / 2 * (2 / 3))
    assert all(all(thick for *_, thick in edges) for *_, edges in faces)


def test_pieces_of_sub_cells_hide_faces_between_them_unless_moved_apart(tmp_path):
    from PIL import Image

    from polyfit.render.prism_views import exploded_offsets, faces_in_space

    source = DATA / "finegrids" / "rd-four-by-two.xmpuzzle"
    solution = next(polyfit.load(source).solutions(limit=1))
    cells = {c: name for name, placed in solution.placements.items() for c in placed}
    together = faces_in_space(cells, RHOMBIC)
    apart = faces_in_space(cells, RHOMBIC, exploded_offsets(cells, RHOMBIC))
    assert len(apart) > len(together)
    alone = sum(len(faces_in_space({c: n for c, n in cells.items() if n == name}, RHOMBIC)) for name in solution.placements)
    assert len(apart) == alone  # moved apart, each piece shows what it shows alone
    for view in ("iso", "exploded"):
        result = run_cli(["solve", str(source), "--limit", "1", "--png", str(tmp_path / f"{view}.png"), "--view", view])
        assert result.exit_code == 0, result.output
        result = run_cli(["solve", str(source), "--limit", "1", "--output", str(tmp_path / f"{view}.svg"), "--view", view])
        assert result.exit_code == 0, result.output
    svg = (tmp_path / "iso.svg").read_text()
    assert svg.count('class="face"') == len(together)
    iso, exploded = (Image.open(tmp_path / f"{view}.png").size for view in ("iso", "exploded"))
    assert exploded[0] * exploded[1] > iso[0] * iso[1]
