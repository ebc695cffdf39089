"""Drawing and modelling solutions: pictures (pillow) and printable solids (trimesh).

These modules draw; the files are written by the exporters of :mod:`polyfit.formats`.

- :mod:`polyfit.render.style` and :mod:`polyfit.render.palette`: sizes, ink and piece colours;
- :mod:`polyfit.render.flat`: flat pictures of 2D boards and pieces;
- :mod:`polyfit.render.views3d`: isometric, exploded and layer views of 3D boards;
- :mod:`polyfit.render.pictures`: the one place that picks a renderer for a solution;
- :mod:`polyfit.render.animate`: the search at work, and solutions put together piece by
  piece, as animated GIFs;
- :mod:`polyfit.render.meshes`, :mod:`polyfit.render.boxgrid` and :mod:`polyfit.render.bevel`:
  watertight, bevelled solids and trays for printing (the box grid's surface is
  :mod:`~polyfit.render.boxgrid`'s, shared by the other two); :mod:`polyfit.render.solids`
  picks the solids of the other space lattices (prisms: :mod:`~polyfit.render.layered`;
  rhombic and tetra-octa sub-cells: :mod:`~polyfit.render.subcells`; spheres:
  :mod:`~polyfit.render.balls`);
- :mod:`polyfit.render.outline`, :mod:`polyfit.render.scene`, :mod:`polyfit.render.svg`:
  vector pictures (each piece one polygon) drawn from the same layout as the PNGs;
- :mod:`polyfit.render.cut` and :mod:`polyfit.render.sheet`: pieces laid out for a laser
  cutter, and the printable puzzle sheet (PDF, reportlab).
"""
