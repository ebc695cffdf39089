"""Printable solids of triangular prisms (polyfit.render.layered): watertight, the exact
volume, and each outer face gap/2 inside, checked against the definition of the erosion with
plain triangle geometry written here; the kit and the solution models on the prism lattice."""

import math
from pathlib import Path

import numpy as np
import pytest
import trimesh

import polyfit
from helpers import bodies, contains, run_cli
from polyfit.lattices.prisms import PRISMS
from polyfit.render.layered import layered_mesh

PRISM_DATA = Path(__file__).parent / "data" / "burrtools" / "prisms"
ROOT3 = math.sqrt(3)


def test_one_prism_is_its_triangle_moved_in_by_half_the_gap_on_every_face():
    for unit, gap in ((15.0, 0.0), (15.0, 0.2), (10.0, 1.5), (20.0, 6.0)):
        mesh = layered_mesh([(0, 0, 0)], PRISMS, unit, gap)
        assert mesh.is_watertight and mesh.is_volume
        inradius = unit / (2 * ROOT3)  # of the equilateral triangle of side unit
        side = (inradius - gap / 2) * 2 * ROOT3
        assert mesh.volume == pytest.approx(ROOT3 / 4 * side ** 2 * (unit - gap), rel=1e-9)
        assert mesh.bounds[1][2] - mesh.bounds[0][2] == pytest.approx(unit - gap)


@pytest.mark.parametrize("name", ["triprisms", "tetraprisms", "pentaprisms"])
def test_every_piece_is_one_watertight_solid_with_a_gap(name):
    for piece in polyfit.pieces(name):
        mesh = layered_mesh(piece.cells, PRISMS, 15, 0.2)
        assert mesh.is_watertight and mesh.is_volume, piece.name
        assert bodies(mesh) == 1, piece.name
        full = layered_mesh(piece.cells, PRISMS, 15, 0)
        assert full.volume == pytest.approx(len(piece.cells) * ROOT3 / 4 * 15 ** 3, rel=1e-9), piece.name
        assert mesh.volume < full.volume


def _triangle(r, c):
    """Triangle (r, c) of side 1, page y down: it points up when r + c is even."""
    h = ROOT3 / 2
    top, bottom = r * h, (r + 1) * h
    if (r + c) % 2 == 0:
        return [((c + 1) / 2, top), (c / 2 + 1, bottom), (c / 2, bottom)]
    return [(c / 2, top), (c / 2 + 1, top), ((c + 1) / 2, bottom)]


def _inside_eroded(point, cells, g):
    """The definition: the hexagonal prism of inradius g (its faces along the triangles'
    edges) and half-height g around ``point`` lies in the piece; that is, every cell it
    overlaps is the piece's. A cell is overlapped when the point is strictly inside the cell
    grown by g along each of the 6 edge normals and up and down."""
    x, y, z = point
    normals = [(0.0, 1.0), (ROOT3 / 2, 0.5), (ROOT3 / 2, -0.5)]
    layer = math.floor(z)
    row = math.floor(y / (ROOT3 / 2))
    column = math.floor(2 * x)
    for zz in range(layer - 1, layer + 2):
        if not zz - g < z < zz + 1 + g:
            continue
        for r in range(row - 2, row + 3):
            for c in range(column - 4, column + 5):
                corners = _triangle(r, c)
                reached = True
                for n in normals:
                    values = [px * n[0] + py * n[1] for px, py in corners]
                    here = x * n[0] + y * n[1]
                    if not min(values) - g < here < max(values) + g:
                        reached = False
                        break
                if reached and (zz, r, c) not in cells:
                    return False
    return True


@pytest.mark.parametrize("name, index", [("tetraprisms", 0)] + [pytest.param(*case, marks=pytest.mark.slow) for case in (
    ("tetraprisms", 7), ("pentaprisms", 12), ("pentaprisms", 40))])
def test_the_solid_is_the_erosion_of_the_piece_point_by_point(name, index):
    piece = polyfit.pieces(name)[index]
    cells = {tuple(c) for c in piece.cells}
    gap = 3.0  # mm on a unit of 10: g = 0.15 of a side, a clearly visible erosion
    mesh = layered_mesh(piece.cells, PRISMS, 10, gap)
    xs = [x for c in cells for x, _ in _triangle(*c[1:])]
    ys = [y for c in cells for _, y in _triangle(*c[1:])]
    zs = [c[0] for c in cells]
    rng = np.random.default_rng(7)
    points = np.column_stack([rng.uniform(min(xs) - 0.2, max(xs) + 0.2, 3000),
                              rng.uniform(min(ys) - 0.2, max(ys) + 0.2, 3000),
                              rng.uniform(min(zs) - 0.2, max(zs) + 1.2, 3000)])
    # the mesh's frame: x from the least x, y up from the largest page y, z from the lowest layer
    model = np.column_stack([(points[:, 0] - min(xs)) * 10, (max(ys) - points[:, 1]) * 10, (points[:, 2] - min(zs)) * 10])
    inside = contains(mesh, model)
    expected = np.array([_inside_eroded(p, cells, gap / 2 / 10) for p in points])
    assert inside.sum() > 100 and (~inside).sum() > 100
    assert (inside == expected).all(), points[inside != expected][:5]


def test_the_kit_of_tetraprisms_is_13_printable_solids(tmp_path):
    result = run_cli(["kit", "tetraprisms", "--stl", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "wrote 13 STL files" in result.output and "13 solids" in result.output
    assert "warning" not in result.output
    for path in sorted(tmp_path.glob("*.stl")):
        mesh = trimesh.load(path)
        assert mesh.is_watertight and mesh.is_volume, path.name
    assert len(list(tmp_path.glob("*.stl"))) == 13


def test_a_prism_solution_model_has_each_piece_in_its_place_and_no_two_overlap(tmp_path):
    source = PRISM_DATA / "parallelogram-tetraprisms.xmpuzzle"
    result = run_cli(["solve", str(source), "--limit", "1", "--output", str(tmp_path / "first.glb")])
    assert result.exit_code == 0, result.output
    scene = trimesh.load(tmp_path / "first.glb")
    solution = next(polyfit.load(source).solutions(limit=1))
    assert len(scene.geometry) == len(solution.placements)
    meshes = list(scene.geometry.values())
    assert all(m.is_watertight for m in meshes)
    board = polyfit.read_board(source)
    area = ROOT3 / 4 * 15 ** 3 * len(board.cells)
    total = sum(m.volume for m in meshes)
    assert 0.9 * area < total < area
    # no point of one piece inside another: points inside each are inside no other
    rng = np.random.default_rng(3)
    for k, mesh in enumerate(meshes):
        low, high = mesh.bounds
        points = rng.uniform(low, high, (400, 3))
        points = points[contains(mesh, points)]
        assert len(points) > 50
        assert not any(contains(other, points).any() for j, other in enumerate(meshes) if j != k)


# -- pictures in space ----------------------------------------------------------------------


def test_one_prism_shows_its_top_its_front_and_its_right_side():
    from polyfit.render import prism_views

    up = prism_views.prism_faces({(0, 0, 0): "A"}, PRISMS)
    # its front (normal +y, shaded as a cube's front), its right side turned a little back
    # (normal (cos 30, -sin 30): lighter than a cube's right), its top
    assert sorted(round(f[2], 3) for f in up) == [0.6, round(0.6 + 0.18 * (1 + 3 ** 0.5 / 2 + 0.5) / 2, 3), 1.0]
    down = prism_views.prism_faces({(0, 0, 1): "A"}, PRISMS)  # points down: its front is its right-front side
    assert sorted(round(f[2], 3) for f in down) == [round(0.6 + 0.18 * (1 + 3 ** 0.5 / 2 - 0.5) / 2, 3), 1.0]
    assert all(thick for f in up + down for _, _, thick in f[3])  # every edge a piece's outline


def test_a_full_tower_shows_its_top_layer_and_the_sides_turned_to_the_viewer():
    """The triangle of side 3, 4 layers high: 9 tops, and per layer the 3 front and 3 right
    faces of its outline (the left side faces away); nothing inside is painted."""
    from polyfit.render import prism_views

    board = polyfit.read_board(PRISM_DATA / "triangle-tower-tetraprisms.xmpuzzle")
    solution = next(polyfit.load(PRISM_DATA / "triangle-tower-tetraprisms.xmpuzzle").solutions(limit=1))
    cells = {c: name for name, placed in solution.placements.items() for c in placed}
    assert set(cells) == set(board.cells)
    faces = prism_views.prism_faces(cells, PRISMS)
    tops = [f for f in faces if f[2] == 1.0]
    assert len(tops) == 9 and all(p[2] == 4 for f in tops for p in f[0])
    assert len(faces) == 9 + 4 * 6
    # thin edges only where one piece's faces run on in one plane
    thin = sum(1 for f in faces for _, _, thick in f[3] if not thick)
    assert 0 < thin < sum(len(f[3]) for f in faces)


def test_solve_draws_prisms_in_layers_by_default_and_in_space_when_asked(tmp_path):
    from PIL import Image

    source = str(PRISM_DATA / "triangle-tower-tetraprisms.xmpuzzle")
    for view in (None, "layers", "iso", "exploded"):
        args = ["solve", source, "--limit", "1", "--png", str(tmp_path / f"{view}.png")]
        result = run_cli(args + (["--view", view] if view else []))
        assert result.exit_code == 0, result.output
    size = {view: Image.open(tmp_path / f"{view}.png").size for view in (None, "layers", "iso", "exploded")}
    assert size[None] == size["layers"] and size[None][0] > size[None][1]  # four layers side by side
    assert size["iso"][1] > size["iso"][0]  # one tower, taller than wide
    assert size["exploded"][0] > size["iso"][0] and size["exploded"][1] > size["iso"][1]
    result = run_cli(["solve", source, "--limit", "1", "--output", str(tmp_path / "iso.svg"), "--view", "iso"])
    assert result.exit_code == 0, result.output
    svg = (tmp_path / "iso.svg").read_text()
    assert svg.count('class="face"') == 9 + 4 * 6


def test_what_is_still_not_made_on_the_space_lattices_is_refused_in_one_line(tmp_path):
    """Spheres and the fine grids have solids and views in space now; bevels and trays are for
    squares and cubes, and a 3D lattice that gives no cell geometry has neither solids nor views
    in space: refused before any search, exit 2, never drawn as something else."""
    from polyfit.lattices.base import Lattice
    from polyfit.render.pictures import default_view
    from polyfit.render.solids import only_solids

    result = run_cli(["kit", "rhombics-2", "--stl", str(tmp_path), "--bevel", "1"])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert "polyfit kit --tray and --bevel is made for squares and cubes; it does not handle the rhombic lattice" in result.output
    assert not list(tmp_path.iterdir())

    class Bare(Lattice):  # a plugin's 3D lattice drawn in layers but with no shapes in space
        name = "bare"
        dim = 3

        def flat_layers(self, labels):
            return {}, None

    thing = type("Thing", (), {"lattice": Bare(), "cells": ((0, 0, 0),)})
    with pytest.raises(polyfit.PolyfitError, match="^a 3D model of a solution is made for squares, cubes, prisms, spheres "
                       "and the rhombic and tetra-octa grids; it does not handle the bare lattice"):
        only_solids([thing], "a 3D model of a solution")
    with pytest.raises(polyfit.PolyfitError, match=r"^the bare lattice is drawn layer by layer \(--view layers\); "
                       "view 'iso' is not made for it yet"):
        default_view(Bare(), "iso")
    assert default_view(Bare(), None) == "layers"


def test_spheres_are_drawn_in_space_as_balls_nearer_ones_over_farther_ones(tmp_path):
    from PIL import Image

    from polyfit.render import prism_views

    source = Path(__file__).parent / "data" / "burrtools" / "spheres" / "pyramid-trispheres-tetraspheres.xmpuzzle"
    solution = next(polyfit.load(source).solutions(limit=1))
    cells = {c: name for name, placed in solution.placements.items() for c in placed}
    lattice = polyfit.read_board(source).lattice
    faces = prism_views.faces_in_space(cells, lattice)
    assert len(faces) == 2 * len(cells) == 28  # each ball: its outline, its highlight
    outlines = [f[0] for f in faces if f[3]]  # the highlights have no outline
    assert len(outlines) == len(cells)
    centres = [np.mean(outline, axis=0) for outline in outlines]
    depths = [c.sum() for c in centres]
    assert all(b > a - 1e-9 for a, b in zip(depths, depths[1:]))  # far to near along the line of sight (1, 1, 1)
    for outline in outlines:  # a circle of the ball's radius across the line of sight
        middle = np.mean(outline, axis=0)
        assert np.allclose(np.linalg.norm(np.array(outline) - middle, axis=1), 2 ** 0.5 / 2)
        assert np.allclose((np.array(outline) - middle) @ np.ones(3), 0)
    for view in ("iso", "exploded"):
        result = run_cli(["solve", str(source), "--limit", "1", "--png", str(tmp_path / f"{view}.png"), "--view", view])
        assert result.exit_code == 0, result.output
    iso, exploded = (Image.open(tmp_path / f"{view}.png").size for view in ("iso", "exploded"))
    assert exploded[0] > iso[0] and exploded[1] > iso[1]
