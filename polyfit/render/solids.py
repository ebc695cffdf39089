"""Printable solids of the space lattices other than cubes: one place picks how a lattice's
pieces are built (cubes come from :mod:`polyfit.render.meshes`).

- layers of polygons (triangular prisms): :mod:`polyfit.render.layered`, ``unit`` a cell's side
  and height;
- tetrahedral sub-cells (the rhombic and tetra-octa grids): :mod:`polyfit.render.subcells`,
  ``unit`` a block's side (a rhombic dodecahedron is two blocks across);
- spheres: :mod:`polyfit.render.balls`, ``unit`` between the centres of touching spheres.

Each builds a piece as one watertight solid, ``(cells, lattice, unit, gap, origin)``, and says
where a board's frame puts 0 (``frame_origin(lattice, board cells)``), so that the pieces of a
solution, each built on its own, stand in their places ``gap`` apart.
"""

from __future__ import annotations

from polyfit.errors import PolyfitError
from polyfit.lattices.base import of


def builder(lattice):
    """``(mesh, frame_origin)`` for the lattice's solids, or None when it has none here."""
    if lattice.plane is not None:
        from polyfit.render import layered

        return layered.layered_mesh, layered.frame_origin
    if hasattr(lattice, "cell_corners"):
        from polyfit.render import subcells

        return subcells.subcell_mesh, subcells.frame_origin
    if hasattr(lattice, "centre"):
        from polyfit.render import balls

        return balls.ball_mesh, balls.frame_origin
    return None


def has_solids(lattice) -> bool:
    """Are this lattice's pieces made as printable solids (cubes and squares aside)?"""
    return lattice.plane is not None or hasattr(lattice, "cell_corners") or hasattr(lattice, "centre")


def piece_solids(pieces, lattice, sizes) -> dict:
    """Each piece (cells of ``lattice``) as a solid at its own corner, ``{name: mesh}``."""
    mesh, _ = builder(lattice)
    return {p.name: mesh(p.cells, lattice, sizes.unit, sizes.gap) for p in pieces}


def placed_solids(placements: dict, board_cells, lattice, sizes) -> dict:
    """A solution ``{name: cells}`` as solids, each piece in its place in the board's frame."""
    mesh, frame_origin = builder(lattice)
    origin = frame_origin(lattice, board_cells)
    return {name: mesh(cells, lattice, sizes.unit, sizes.gap, origin) for name, cells in placements.items()}


def only_solids(things, what: str) -> None:
    """Refuse, in one line, a 3D model of boards or pieces on a lattice with no solids here:
    squares (as tiles), cubes, and those of :func:`has_solids` have them."""
    for thing in things:
        lattice = of(thing)
        if lattice.name not in ("square", "cubic") and not has_solids(lattice):
            raise PolyfitError(
                f"{what} is made for squares, cubes, prisms, spheres and the rhombic and tetra-octa grids; "
                f"it does not handle the {lattice.name} lattice yet (solve, --count, check, hint, estimate, --png and --svg do)"
            )
