"""What every exporter receives: plain data, with no reference to the search that found it."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class SolutionSet:
    board: str  # the board's name
    board_cells: tuple  # every cell of the board
    pieces: list  # polyfit.puzzle.pieces.Piece objects
    solutions: list[dict] = field(default_factory=list)  # each: {piece name: cells}
    counts: dict = field(default_factory=dict)  # e.g. distinct and total, when known
    fixed: tuple = ()  # the board's pre-placed cells: pictures mark the pieces on them
    extra: dict = field(default_factory=dict)  # more top-level JSON: disassemblies, groups

    @classmethod
    def of(cls, board, pieces, solutions=(), counts=None, extra=None) -> SolutionSet:
        """The solutions of a :class:`polyfit.Board` with these pieces (none yet: what an
        exporter's check looks at before the search)."""
        return cls(board.label, board.cells, list(pieces), list(solutions), dict(counts or {}),
                   tuple(sorted(board.fixed_cells)), dict(extra or {}))
