"""The unifier: the fewest pieces to pre-place so that a puzzle has exactly one solution.

Every solution of the puzzle is listed once (each symmetry class expanded to all its copies),
up to :data:`SOLUTION_LIMIT`. Pre-placing a set S of placements taken from the kept solution X
leaves exactly the listed solutions that contain S, and the new puzzle counts them up to its
own symmetry group G_S: the board's symmetries that map the pre-placed pieces (old and new)
onto themselves, as :func:`polyfit.puzzle.symmetry.configuration_symmetries` finds them for
the new board. Every image of X under G_S contains S, so S makes the puzzle unique exactly when
the solutions containing S are as many as X's images under G_S. No new search is needed to
decide that; the answer is checked at the end by building the new board and counting it.

Sets are tried by size, smallest first, over every subset of X's placements (so a set found
that way is *proven* smallest among sets taken from X); when that would try too many subsets,
or ``max_size`` stops it, a greedy set (each step the placement leaving fewest solutions) is
made *minimal*: no piece of it can be dropped.

The new board is written as text art, each pre-placed piece drawn with its name: only names
of one ASCII letter or digit can be drawn, and two copies of a piece drawn side by side would
read as one shape, so such sets are passed over when a drawable one exists.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from polyfit.errors import PolyfitError, plural
from polyfit.lattices import base as lattices
from polyfit.puzzle.board import Board
from polyfit.puzzle.cover import image
from polyfit.puzzle.solve import Counts, Puzzle
from polyfit.puzzle.symmetry import configuration_symmetries, puzzle_symmetries

SOLUTION_LIMIT = 20_000  # solutions listed (symmetric copies included) before giving up
SUBSET_LIMIT = 500_000  # subsets tried exhaustively before settling for a minimal set


@dataclass
class Hint:
    """What :func:`hint` found. ``status``: ``"added"`` (pieces to pre-place found),
    ``"unique"`` (the puzzle has one solution already: nothing to add) or ``"none"`` (it has
    no solution)."""

    status: str
    board: Board  # the new board (the old one when nothing is added)
    solutions_before: int = 0  # distinct solutions of the puzzle as given
    total_before: int = 0  # every solution, symmetric copies included
    solution: int = 1  # the solution kept, numbered as `polyfit solve` prints them
    added: list = field(default_factory=list)  # (piece name, cells) pre-placed, board order
    proven: bool = False  # every smaller set of the kept solution's pieces was ruled out
    ruled_out: int = -1  # every set of at most this many pieces was tried and failed
    # Fewest pieces of a set that would do but was passed over because two copies of a piece
    # touch (their letters would read as one shape): "smallest" is among the drawable sets.
    touching: int | None = None
    solutions_after: int = 0  # distinct solutions of the new board, counted afresh
    symmetries_after: int = 1  # the order of the new board's symmetry group
    text: str | None = None  # the new board as text art, None when it cannot be drawn
    why_no_text: str | None = None
    reason: str | None = None  # why there is no solution, when the puzzle says
    seconds: float = 0.0

    @property
    def size(self) -> int:
        return len(self.added)


def drawable_name(name: str) -> bool:
    """Can text art draw a piece of this name? Only a single ASCII letter or digit marks one."""
    return len(name) == 1 and name.isascii() and name.isalnum()


def list_solutions(puzzle: Puzzle, backend, limit: int) -> tuple[list, list]:
    """The canonical solutions in the order `polyfit solve` prints them, and every solution
    (each a frozenset of placement indices, pre-placed ones included); an error past ``limit``."""
    canonical, every = [], []
    counts = Counts()
    search = puzzle.search(backend, counts)
    try:
        for found in search:
            if not found.canonical:
                continue
            canonical.append(found.placements)
            every.extend(frozenset(s) for s in puzzle.cover.orbit(found.placements))
            if len(every) > limit:
                raise PolyfitError(
                    f"{puzzle.board.label} has more than {limit:,} solutions (counting rotated and "
                    f"reflected copies; {len(canonical)} distinct found so far): polyfit hint works "
                    "from the full list of solutions. Pre-place a piece or two by hand (draw their "
                    "letters on the board) and ask again"
                )
    finally:
        search.close()
    return canonical, every


class _Sets:
    """Decide, for sets of placements from the kept solution, whether pre-placing them leaves
    one distinct solution, from the list of solutions."""

    def __init__(self, puzzle: Puzzle, kept: tuple[int, ...], every: list):
        self.puzzle = puzzle
        self.kept = kept
        self.base = puzzle_symmetries(puzzle.board.cells, puzzle.pieces)
        fixed = set(puzzle.cover.fixed)
        self.candidates = sorted((i for i in kept if i not in fixed), key=lambda i: puzzle.placements[i].cells)
        self.bits = {i: 0 for i in self.candidates}
        for k, solution in enumerate(every):
            for i in solution:
                if i in self.bits:
                    self.bits[i] |= 1 << k
        self.everything = (1 << len(every)) - 1
        names = [puzzle.pieces[puzzle.placements[i].piece].name for i in self.candidates]
        names += [name for name, _, _ in puzzle.board.fixed]
        self.drawable = all(drawable_name(n) for n in names)
        self.touching: int | None = None  # fewest pieces of a set passed over: copies touch

    def left(self, chosen) -> int:
        """The solutions (as a bitset over the list) that contain every chosen placement."""
        mask = self.everything
        for i in chosen:
            mask &= self.bits[i]
        return mask

    def board(self, chosen) -> Board:
        return new_board(self.puzzle, [self.puzzle.placements[i] for i in chosen])

    def group(self, chosen) -> list:
        return configuration_symmetries(self.base, self.board(chosen), self.puzzle.pieces)

    def unique(self, chosen, mask: int | None = None) -> bool:
        if mask is None:
            mask = self.left(chosen)
        left = mask.bit_count()
        if left > len(self.base):  # more than the kept solution's images can be
            return False
        if left > 1:
            placements = [self.puzzle.placements[i] for i in self.kept]
            images = {frozenset(image(sym, p) for p in placements) for sym in self.group(chosen)}
            if len(images) != left:
                return False
        if not self.drawable or self.draws_apart(chosen):
            return True
        if self.touching is None or len(chosen) < self.touching:
            self.touching = len(chosen)
        return False

    def draws_apart(self, chosen) -> bool:
        """Does each pre-placed piece read back as itself: no two copies of a letter touch?"""
        letters: dict[str, list] = {}
        for name, cells, _ in self.puzzle.board.fixed:
            letters.setdefault(name, []).append(cells)
        for i in chosen:
            p = self.puzzle.placements[i]
            letters.setdefault(self.puzzle.pieces[p.piece].name, []).append(p.cells)
        for groups in letters.values():
            touching = lattices.of(self.puzzle.board).components([c for g in groups for c in g])
            if len(groups) > 1 and len(touching) != len(groups):
                return False
        return True

    def smallest(self, max_size: int, budget: int):
        """The first set of fewest placements that is unique, by size up to ``max_size``;
        ``(set or None, largest size ruled out)``."""
        n = len(self.candidates)
        tried = 0
        for size in range(0, min(max_size, n) + 1):
            ways = _binomial(n, size)
            if tried + ways > budget:
                return None, size - 1
            tried += ways
            found = self._of_size(size)
            if found is not None:
                return found, size - 1
        return None, min(max_size, n)

    def _of_size(self, size: int):
        candidates = self.candidates

        def walk(start, chosen, mask):
            if len(chosen) == size:
                return list(chosen) if self.unique(chosen, mask) else None
            for k in range(start, len(candidates) - (size - len(chosen)) + 1):
                i = candidates[k]
                chosen.append(i)
                found = walk(k + 1, chosen, mask & self.bits[i])
                chosen.pop()
                if found is not None:
                    return found
            return None

        return walk(0, [], self.everything)

    def greedy(self) -> list:
        """Add the placement leaving fewest solutions until unique; then drop what is not needed."""
        chosen: list = []
        while not self.unique(chosen):
            rest = [i for i in self.candidates if i not in chosen]
            if not rest:
                break
            chosen.append(min(rest, key=lambda i: (self.left(chosen + [i]).bit_count(), rest.index(i))))
        if not self.unique(chosen):  # every piece placed and still ambiguous: cannot happen
            raise PolyfitError("no set of pieces from this solution leaves it alone")
        dropped = True
        while dropped:
            dropped = False
            for i in list(chosen):
                fewer = [j for j in chosen if j != i]
                if self.unique(fewer):
                    chosen, dropped = fewer, True
                    break
        return sorted(chosen, key=self.candidates.index)


def _binomial(n: int, k: int) -> int:
    from math import comb

    return comb(n, k)


def new_board(puzzle: Puzzle, placements, pieces_spec: str | None = None) -> Board:
    """The puzzle's board with ``placements`` drawn in as pre-placed pieces (and its
    ``; pieces:`` line set to ``pieces_spec`` when given)."""
    board = puzzle.board
    metadata = dict(board.metadata)
    if pieces_spec:
        metadata["pieces"] = pieces_spec
    fixed = list(board.fixed)
    covered = set()
    for p in placements:
        fixed.append((puzzle.pieces[p.piece].name, tuple(sorted(p.cells)), (0, 0)))
        covered.update(p.cells)
    return Board(board.cells, board.name, metadata, board.path,
                 frozenset(c for c in board.optional if c not in covered), tuple(fixed),
                 dict(board.metadata_at), board.lattice, pieces=board.pieces, allowed=board.allowed,
                 colours=board.colours, max_holes=board.max_holes)


def board_text(board: Board, comment: str = "") -> str:
    """The board as a text-art file: its metadata lines, ``comment``, then the art, pre-placed
    pieces as their letters (voxel layers, bottom first, for a 3D board)."""
    for name, _, _ in board.fixed:
        if not drawable_name(name):
            raise PolyfitError(
                f"piece {name!r} cannot be drawn in text art: a pre-placed piece is marked by its "
                "name, and only names of one ASCII letter or digit can be"
            )
    lines = [f"; {key}: {value}" for key, value in board.metadata.items()]
    lattice = lattices.of(board)
    if lattice.name != lattices.default_name(board.dim) and "lattice" not in board.metadata:
        lines.append(f"; lattice: {lattice.name}")  # a board read from a BurrTools file of another grid
    if board.max_holes is not None and "max-holes" not in board.metadata:
        lines.append(f"; max-holes: {board.max_holes}")  # a board read from a BurrTools file with maxHoles
    if comment:
        lines.append(f"; {comment}")
    marks = {c: "#" for c in board.cells}
    marks.update({c: "+" for c in board.optional})
    for name, cells, _ in board.fixed:
        marks.update({c: name for c in cells})
    if board.dim == 2:
        lines += _layer(marks, board.cells, lattices.of(board))
    else:
        layers = sorted({c[0] for c in board.cells})
        if layers != list(range(layers[0], layers[-1] + 1)):
            raise PolyfitError(f"{board.label} has an empty layer between its cells: voxel text cannot draw it")
        for z in layers:
            if z != layers[0]:
                lines.append("")
            lines += _layer({c[1:]: m for c, m in marks.items() if c[0] == z}, [c[1:] for c in board.cells], lattices.of(board))
    return "\n".join(lines) + "\n"


def _layer(marks, box_cells, lattice=None) -> list[str]:
    rows = [c[0] for c in box_cells]
    cols = [c[1] for c in box_cells]
    # Start where read back each cell keeps its kind (up or down triangle), as text art does.
    top, left = lattice.art_origin(min(rows), min(cols)) if lattice is not None else (min(rows), min(cols))
    return [
        "".join(marks.get((r, c), ".") for c in range(left, max(cols) + 1))
        for r in range(top, max(rows) + 1)
    ]


def hint(puzzle: Puzzle, backend, max_size: int | None = None, solution: int = 1,
         limit: int = SOLUTION_LIMIT, subsets: int = SUBSET_LIMIT, pieces_spec: str | None = None) -> Hint:
    """The fewest pieces of solution number ``solution`` to pre-place so that the puzzle has
    one distinct solution (see the module's docstring); ``max_size`` bounds the sets tried
    exhaustively; ``pieces_spec`` goes on the new board's ``; pieces:`` line (default: the
    board's own line). The new board is counted afresh on ``backend`` before it is returned."""
    start = time.perf_counter()
    if solution < 1:
        raise PolyfitError(f"--solution counts from 1, not {solution}")
    if max_size is not None and max_size < 0:
        raise PolyfitError(f"--max is a number of pieces, 0 or more, not {max_size}")
    if puzzle.impossible:
        return Hint("none", puzzle.board, reason=puzzle.impossible, seconds=time.perf_counter() - start)
    canonical, every = list_solutions(puzzle, backend, limit)
    result = Hint("none", puzzle.board, len(canonical), len(every), solution)
    if not canonical:
        result.reason = "exhaustive search"
        result.seconds = time.perf_counter() - start
        return result
    if solution > len(canonical):
        raise PolyfitError(
            f"{puzzle.board.label} has {plural(len(canonical), 'distinct solution')}: "
            f"there is no solution {solution} to keep"
        )
    sets = _Sets(puzzle, canonical[solution - 1], every)
    chosen, result.ruled_out = sets.smallest(len(sets.candidates) if max_size is None else max_size, subsets)
    if chosen is None:
        chosen = sets.greedy()
    result.proven = len(chosen) == result.ruled_out + 1
    if sets.touching is not None and sets.touching < len(chosen):
        result.touching = sets.touching
    result.status = "added" if chosen else "unique"
    placements = [puzzle.placements[i] for i in chosen]
    result.added = [(puzzle.pieces[p.piece].name, p.cells) for p in placements]
    board = new_board(puzzle, placements, pieces_spec)
    if sets.drawable and (not chosen or sets.draws_apart(chosen)):
        try:
            result.text = board_text(board, _comment(result))
        except PolyfitError as exc:
            result.why_no_text = str(exc)
    else:
        bad = sorted({n for n, _ in result.added + [(n, c) for n, c, _ in puzzle.board.fixed] if not drawable_name(n)})
        result.why_no_text = (
            f"{plural(len(bad), 'piece')} named {', '.join(bad)} cannot be drawn in text art (a pre-placed "
            "piece is marked by its name, and only names of one ASCII letter or digit can be; a pieces file can give them such names)"
            if bad else "two copies of one piece touch: their letters would read as one shape"
        )
    if result.text is not None:
        # Count the board the file holds, as `polyfit solve FILE --count` will.
        board = Board.from_text(result.text, board.dim, board.path or "<hint>")
    result.board = board
    check = Puzzle(board, puzzle.pieces)
    counts = check.count(backend)
    result.solutions_after = counts.distinct
    result.symmetries_after = len(check.symmetries)
    if counts.distinct != 1:  # a bug in the reasoning above, never the user's doing
        raise PolyfitError(
            f"internal error: the board with {plural(len(chosen), 'piece')} pre-placed has "
            f"{plural(counts.distinct, 'distinct solution')}, not 1"
        )
    result.seconds = time.perf_counter() - start
    return result


def _comment(result: Hint) -> str:
    if not result.added:
        return "polyfit hint: one solution already, nothing pre-placed"
    how = "proven smallest" if result.proven else "minimal"
    return (
        f"polyfit hint: {plural(result.size, 'piece')} pre-placed ({how}) from solution "
        f"{result.solution} of {result.solutions_before}"
    )
