"""Atlases: one run over a whole family of puzzles, its solutions grouped by member.

Two kinds: a **piece family** (a puzzle whose pieces may each be used a range of times, such as
BurrTools' SolidSix: 25 pieces, each 0 to 6 times), grouped by the piece set each assembly uses
(:mod:`.families`); and a **calendar** (one board, a target for each set of cells left uncovered,
such as A-Puzzle-A-Day's dates), grouped by target (:mod:`.calendars`). Both run the puzzle once,
through :meth:`polyfit.Puzzle.run`, so the engine decides how the search goes.
"""

from __future__ import annotations

import os

from polyfit.atlases.calendars import CalendarAtlas, Target, Targets, calendar_atlas, targets_of
from polyfit.atlases.families import FamilyAtlas, PieceSet, family_atlas, is_family
from polyfit.errors import PolyfitError


def atlas(source, pieces=None, *, disassemble: bool = False, jobs: int | None = None, backend: str = "auto",
          max_states: int | None = None, plugins=None, select: str | None = None):
    """The atlas of a family of puzzles, as ``polyfit atlas`` prints it.

    ``source``: a board file, a :class:`polyfit.Board` or a :class:`polyfit.Puzzle` (``pieces``,
    ``plugins`` and ``select`` as :func:`polyfit.load` takes them). A board with a ``; leave:``
    line gives a :class:`CalendarAtlas` (every target with its solutions); a puzzle whose pieces
    have ranges a :class:`FamilyAtlas` (every piece set with its assemblies and, with
    ``disassemble``, those that come apart and their levels). ``jobs``: processes for the run
    (and for taking apart); ``max_states``: the disassembler's cap per assembly. Either kind's
    ``rows(sort, unique, limit)`` sorts and filters."""
    from polyfit import api

    if isinstance(source, api.Puzzle):
        board, chosen, puzzle = source.board, source.pieces, source
    elif isinstance(source, (api.Board, str, os.PathLike)):
        board = source if isinstance(source, api.Board) else api.read_board(source, plugins=plugins, select=select)
        if pieces is None:
            chosen = api.board_pieces(board, plugins=plugins)
        else:
            chosen = api.pieces(pieces, plugins=plugins) if isinstance(pieces, str) else list(pieces)
        puzzle = None
    else:
        raise PolyfitError(f"an atlas is made of a board file, a Board or a Puzzle, not {type(source).__name__}")
    targets = targets_of(board)
    if targets is not None:
        if disassemble:
            raise PolyfitError("disassembly maps piece families; a calendar board ('; leave:') counts its targets")
        return calendar_atlas(board, chosen, targets, jobs=jobs, backend=backend, plugins=plugins)
    puzzle = puzzle or api.Puzzle(board, chosen, plugins=plugins)
    if not is_family(puzzle) and puzzle.board.optional:
        raise PolyfitError(
            f"{puzzle.board.label}: the board has '+' cells but no '; leave:' line to say which stay uncovered "
            "in a target (; leave: 2, or ; leave: 1 of A..B, 1 of C..D: see docs/atlas.md)"
        )
    return family_atlas(puzzle, disassemble=disassemble, jobs=jobs, backend=backend, max_states=max_states)


__all__ = ["CalendarAtlas", "FamilyAtlas", "PieceSet", "Target", "Targets", "atlas", "calendar_atlas",
           "family_atlas", "targets_of"]
