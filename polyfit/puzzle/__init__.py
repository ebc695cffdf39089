"""A puzzle: board and pieces -> placements -> symmetry -> exact cover -> counted solutions.

- :mod:`polyfit.puzzle.board` and :mod:`polyfit.puzzle.pieces`: the data (readers for files
  are in :mod:`polyfit.formats`); :mod:`polyfit.puzzle.piece_sets`: the built-in sets;
- :mod:`polyfit.puzzle.preplaced`: pieces drawn into the board, checked and taken off the counts;
- :mod:`polyfit.puzzle.placements`: every placement of every piece, pruned by area and parity;
- :mod:`polyfit.puzzle.symmetry`: the puzzle's symmetry group;
- :mod:`polyfit.puzzle.cover`: placements become an exact cover problem, symmetry broken;
- :mod:`polyfit.puzzle.solve`: a backend runs it and every solution is counted exactly.
"""
