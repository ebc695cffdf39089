"""What the counts of a puzzle depend on, as digests: what checkpoints, job files and results
are bound to.

The backends search an exact cover problem, but the numbers polyfit prints depend on more:
two puzzles can share the problem and differ in the rest. The 3x6 box with two pre-placed
dominoes on top (mirror images of each other) and the same box with those four cells left out
search the very same problem, yet the first has a symmetry group of order 2 and 26 distinct
solutions, the second a group of order 4 and 14. So a count is bound to a digest of each
*ingredient* of its answer:

- ``problem``: the exact cover problem as the backends search it (Knuth's format: items,
  multiplicities, colours, options in order);
- ``placements``: every placement (piece and cells), which option is which placement, and the
  pre-placed ones: how a solution becomes pieces on cells;
- ``symmetries``: the group, each symmetry as the images of the board's cells, the piece map
  and whether it is a rotation;
- ``classes``: how found solutions are classified and weighed: the breaker piece, and the orbit
  size and stabilizer of each of its placements;
- ``pieces``: each piece's name, lattice, shape (its orientations), whether it may be turned
  over, its count as given and as left for the search;
- ``cells``: the board's lattice and cells; ``optional``: its optional cells; ``preplaced``:
  its pre-placed pieces; ``rules``: where some pieces may go (BurrTools' colour rules).

The board's name and file are not ingredients: renaming a board changes no count. Everything
polyfit derives is hashed as derived (orbit sizes, not the rule that made them), so a version
of polyfit that classifies otherwise makes another digest.
"""

from __future__ import annotations

import json

VERSION = 1  # of what is hashed: a change makes every older digest another puzzle's

# Each ingredient, and the words an error uses when it differs.
INGREDIENTS = {
    "problem": "the exact cover problem",
    "placements": "the placements",
    "symmetries": "the symmetry group",
    "classes": "how solutions are classified",
    "pieces": "the pieces",
    "cells": "the board's cells or lattice",
    "optional": "the optional cells",
    "preplaced": "the pre-placed pieces",
    "rules": "the placement rules",
}
BATCH = 4096  # placements hashed at a time


class _Hash:
    """A SHA-256 fed with JSON values, one after another (no large text is ever built)."""

    def __init__(self, name: str):
        import hashlib  # here, not at every start of the command line (OpenSSL is large)

        self._sha = hashlib.sha256(f"polyfit-puzzle-{VERSION}:{name}\n".encode())

    def add(self, value) -> None:
        self._sha.update(json.dumps(value, separators=(",", ":")).encode())
        self._sha.update(b"\n")

    def hexdigest(self) -> str:
        return self._sha.hexdigest()


def _problem(puzzle) -> str:
    from polyfit.xc.dlxformat import format_dlx

    digest = _Hash("problem")
    digest.add(format_dlx(puzzle.cover.problem))
    return digest.hexdigest()


def _placements(puzzle) -> str:
    cover = puzzle.cover
    digest = _Hash("placements")
    placements = cover.placements
    digest.add(len(placements))
    for start in range(0, len(placements), BATCH):
        digest.add([[p.piece, p.cells] for p in placements[start:start + BATCH]])
    digest.add(cover.option_placement)
    digest.add(cover.fixed)
    return digest.hexdigest()


def _symmetries(puzzle) -> str:
    cells = puzzle.board.cells
    digest = _Hash("symmetries")
    for group in (puzzle.cover.symmetries, puzzle.symmetries):
        digest.add(len(group))
        for sym in group:
            digest.add([[sym(c) for c in cells], sym.piece_map, sym.is_proper])
    return digest.hexdigest()


def _classes(puzzle) -> str:
    cover = puzzle.cover
    position = {sym: k for k, sym in enumerate(cover.symmetries)}
    digest = _Hash("classes")
    digest.add(cover.breaker)
    for placement in sorted(cover.orbit_sizes):
        stabilizer = [position.get(sym, -1) for sym in cover.stabilizers.get(placement, [])]
        digest.add([placement, cover.orbit_sizes[placement], stabilizer])
    return digest.hexdigest()


def _pieces(puzzle) -> str:
    digest = _Hash("pieces")
    digest.add(len(puzzle.pieces))
    for piece, left in zip(puzzle.pieces, puzzle.counts):
        shapes = [list(shape) for shape in piece.orientations()]
        digest.add([piece.name, piece.lattice.name, piece.mirror, list(piece.count), list(left), shapes])
    return digest.hexdigest()


def _one(name: str, value) -> str:
    digest = _Hash(name)
    digest.add(value)
    return digest.hexdigest()


def _cells(puzzle) -> str:
    return _one("cells", [puzzle.board.lattice.name, puzzle.board.cells])


def _optional(puzzle) -> str:
    return _one("optional", sorted(puzzle.board.optional))


def _preplaced(puzzle) -> str:
    return _one("preplaced", sorted([name, sorted(cells)] for name, cells, _ in puzzle.board.fixed))


def _rules(puzzle) -> str:
    allowed = puzzle.board.allowed
    return _one("rules", sorted([name, sorted(sorted(p) for p in ways)] for name, ways in allowed.items()))


_MAKERS = {
    "problem": _problem,
    "placements": _placements,
    "symmetries": _symmetries,
    "classes": _classes,
    "pieces": _pieces,
    "cells": _cells,
    "optional": _optional,
    "preplaced": _preplaced,
    "rules": _rules,
}


def ingredients(puzzle) -> dict[str, str]:
    """A SHA-256 of each ingredient of the puzzle's counts (see the module's docstring)."""
    return {name: make(puzzle) for name, make in _MAKERS.items()}


def combined(parts: dict[str, str]) -> str:
    """One SHA-256 of all the ingredients' digests."""
    digest = _Hash("puzzle")
    digest.add([[name, parts.get(name)] for name in INGREDIENTS])
    return digest.hexdigest()


def differences(recorded: dict, now: dict[str, str]) -> str:
    """What differs between the ingredients ``recorded`` in a file and those of a puzzle ``now``,
    in words (``"the symmetry group and the pre-placed pieces"``); empty when nothing does."""
    differ = [INGREDIENTS[name] for name in INGREDIENTS if recorded.get(name) != now.get(name)]
    if len(differ) <= 1:
        return "".join(differ)
    return ", ".join(differ[:-1]) + " and " + differ[-1]


def read_ingredients(fields, name: str = "puzzle") -> dict[str, str]:
    """The ingredients' digests in field ``name`` of a file polyfit wrote (a
    :class:`polyfit.fields.Fields`), each checked to be a digest."""
    part = fields.part(name)
    return {key: part.digest(key) for key in INGREDIENTS}
