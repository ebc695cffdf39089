"""Lattices: the cells a board is made of, their neighbours, symmetries and polyforms.

:mod:`polyfit.lattices.base` is what a lattice provides and the table the ``register_lattices``
hook fills; :mod:`~polyfit.lattices.square` registers the square lattice (2D, cells
``(row, col)``) and the cubic one (3D, cells ``(z, row, col)``), whose cells and transforms are
:mod:`~polyfit.lattices.grid`; :mod:`~polyfit.lattices.triangle` and
:mod:`~polyfit.lattices.hexagon` the triangular and hexagonal ones, with their 12 symmetries in
:mod:`~polyfit.lattices.triads`. :mod:`polyfit.lattices.polyforms` enumerates polyforms of any
of them, :mod:`polyfit.lattices.textart` reads and draws their text art.
"""
