"""polyfit: find, count and draw every way polyomino and polycube pieces fill a board.

The public API (documented in docs/api.md): plugins, notebooks and the command line import
these names from ``polyfit`` itself, never from the packages below it.

>>> import polyfit
>>> puzzle = polyfit.load("shapes/pentomino/6x10.txt")      # the board and its '; pieces:'
>>> counts = puzzle.count()
>>> counts.distinct, counts.total
(2339, 9356)

Each name is loaded from its module on first use, so that ``import polyfit.cli`` (every start
of the command line) does not load what a given command does not need.
"""

from __future__ import annotations

import importlib

__version__ = "0.1.0"

# Every public name and the module that defines it.
_NAMES = {
    "atlas": "polyfit.atlases",
    "Puzzle": "polyfit.api",
    "Run": "polyfit.api",
    "Solution": "polyfit.api",
    "Plan": "polyfit.engine",
    "generate_interlocking": "polyfit.design.interlocking",
    "backend": "polyfit.api",
    "backends": "polyfit.api",
    "board_pieces": "polyfit.api",
    "check": "polyfit.api",
    "colours": "polyfit.api",
    "export": "polyfit.api",
    "generate": "polyfit.api",
    "load": "polyfit.api",
    "piece_sets": "polyfit.api",
    "pieces": "polyfit.api",
    "read_board": "polyfit.api",
    "read_boards": "polyfit.api",
    "registry": "polyfit.api",
    "ParseError": "polyfit.errors",
    "PolyfitError": "polyfit.errors",
    "UnknownNameError": "polyfit.errors",
    "parse_pieces_text": "polyfit.formats.pieces_file",
    "SolutionSet": "polyfit.formats.solution_set",
    "hookimpl": "polyfit.hookspecs",
    "Lattice": "polyfit.lattices.base",
    "get_plugin_manager": "polyfit.plugins",
    "Board": "polyfit.puzzle.board",
    "Piece": "polyfit.puzzle.pieces",
    "Counts": "polyfit.puzzle.solve",
    "format_dlx": "polyfit.xc.dlxformat",
    "parse_dlx": "polyfit.xc.dlxformat",
    "read_dlx": "polyfit.xc.dlxformat",
    "ExactCoverProblem": "polyfit.xc.problem",
    "PackedOptions": "polyfit.xc.problem",
    "SearchStats": "polyfit.xc.problem",
}

__all__ = sorted(_NAMES) + ["__version__"]


# The module polyfit.registry shares its name with the public function polyfit.registry().
# Importing a submodule binds it as an attribute of the package, once, when it is first loaded:
# load it here and drop that binding, so that the name always means the function.
importlib.import_module("polyfit.registry")
del registry  # noqa: F821 (bound by the import above)


def __getattr__(name: str):
    if name in _NAMES:
        value = getattr(importlib.import_module(_NAMES[name]), name)
        globals()[name] = value  # once loaded, an ordinary attribute
        return value
    raise AttributeError(f"module 'polyfit' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_NAMES))
