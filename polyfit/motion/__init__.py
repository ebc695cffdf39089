"""Disassembly: which assemblies come apart, in how many moves, and the moves.

- :mod:`polyfit.motion.search`: the search for the first separation (pair limits, moves, states
  breadth first), in Python; ``_motion`` is its C twin (:mod:`polyfit.motion.native`);
- :mod:`polyfit.motion.disassembly`: the tree of separations, the level and the move list;
- :mod:`polyfit.motion.groups`: pieces that may stay together, as BurrTools has them.
- :mod:`polyfit.motion.prisms`: how pieces slide on triangular prisms (BurrTools' eight
  directions, the cells a step sweeps).

The lattice gives the directions of motion (``Lattice.motion_directions``); what counts as a
move and how a level is written follow BurrTools 0.7.1, so the answers can be compared.
"""

from polyfit.motion.disassembly import Disassembler, Disassembly, Move, Separation, Step
from polyfit.motion.groups import Groups

__all__ = ["Disassembler", "Disassembly", "Groups", "Move", "Separation", "Step"]
