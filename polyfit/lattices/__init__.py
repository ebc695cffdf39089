"""Lattices: the cells a board is made of, their neighbours, symmetries and polyforms.

:mod:`polyfit.lattices.grid` is the square lattice (2D, cells ``(row, col)``) and the cubic one
(3D, cells ``(z, row, col)``); :mod:`polyfit.lattices.polyforms` enumerates their polyforms.
"""
