"""polyfit: find, count and draw every way polyomino and polycube pieces fill a board.

The public API (documented in docs/api.md): plugins, notebooks and the command line import
these names from ``polyfit`` itself, never from the packages below it.

>>> import polyfit
>>> puzzle = polyfit.load("shapes/pentomino/6x10.txt")      # the board and its '; pieces:'
>>> counts = puzzle.count()
>>> counts.distinct, counts.total
(2339, 9356)
"""

__version__ = "0.1.0"

from polyfit.api import (  # noqa: E402
    Puzzle,
    Solution,
    backend,
    backends,
    load,
    piece_sets,
    pieces,
    read_board,
    registry,
)
from polyfit.errors import ParseError, PolyfitError, UnknownNameError  # noqa: E402
from polyfit.formats.pieces_file import parse_pieces_text  # noqa: E402
from polyfit.formats.solution_set import SolutionSet  # noqa: E402
from polyfit.hookspecs import hookimpl  # noqa: E402
from polyfit.plugins import get_plugin_manager  # noqa: E402
from polyfit.puzzle.board import Board  # noqa: E402
from polyfit.puzzle.pieces import Piece  # noqa: E402
from polyfit.puzzle.solve import Counts  # noqa: E402
from polyfit.xc.dlxformat import format_dlx, parse_dlx, read_dlx  # noqa: E402
from polyfit.xc.problem import ExactCoverProblem, SearchStats  # noqa: E402

__all__ = [
    "Board",
    "Counts",
    "ExactCoverProblem",
    "ParseError",
    "Piece",
    "PolyfitError",
    "Puzzle",
    "SearchStats",
    "Solution",
    "SolutionSet",
    "UnknownNameError",
    "__version__",
    "backend",
    "backends",
    "format_dlx",
    "get_plugin_manager",
    "hookimpl",
    "load",
    "parse_dlx",
    "parse_pieces_text",
    "piece_sets",
    "pieces",
    "read_board",
    "read_dlx",
    "registry",
]
