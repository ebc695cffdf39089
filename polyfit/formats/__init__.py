"""File formats: one module per format, each ending with the hooks that register it.

Readers turn files into boards and pieces; exporters write solutions
(:class:`polyfit.formats.solution_set.SolutionSet`) to files:

- :mod:`polyfit.formats.textart`: the text-art grammar; 2D boards, voxel text, text solutions;
- :mod:`polyfit.formats.pieces_file` and :mod:`polyfit.formats.piece_specs`: pieces files and
  the ``--pieces`` spec;
- :mod:`polyfit.formats.magicavoxel`: binary MagicaVoxel ``.vox`` files;
- :mod:`polyfit.formats.burrtools`: BurrTools ``.xmpuzzle`` puzzles (problems with their pieces),
  read and written with assemblies (its XML read safely by ``burrtools_xml``; the sphere grid's
  numbers in ``burrtools_spheres`` and the separation trees in ``burrtools_separations``, each
  loaded when a file needs it);
- :mod:`polyfit.formats.soma_notation`: Soma figures in Bundgaard's notation and yass's ``.soma``;
- :mod:`polyfit.formats.interchange`: a board and its pieces written in each of those formats
  (``polyfit convert``);
- :mod:`polyfit.formats.export`: the one way solutions become files: the exporter table
  (each format's module below ends with its own, registered through the same hook as a
  plugin's), looked up by suffix, checked before a search, written after;
- :mod:`polyfit.formats.solutions_json`: solutions as JSON, written and read back;
- :mod:`polyfit.formats.png`, :mod:`polyfit.formats.gif`, :mod:`polyfit.formats.svg` (also the
  laser-cut outlines), :mod:`polyfit.formats.pdf` (the puzzle sheet) and
  :mod:`polyfit.formats.models` (STL, GLB, 3MF, OBJ): pictures, sheets and 3D models, whose
  libraries load only when a file is written.
"""
