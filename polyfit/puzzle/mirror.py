"""BurrTools' rule for mirror images when only some solutions have one.

A puzzle's symmetry group (:mod:`polyfit.puzzle.symmetry`) holds the board's reflections only
when the whole piece set maps onto itself, counts and all. A BurrTools file with piece ranges
often does not: a one-sided piece without its partner, or a partner allowed a different number
of copies. BurrTools still identifies an assembly with its mirror image whenever that image,
each mirrored piece swapped for its partner, is a valid assembly: every piece it uses is its own
mirror image or has a partner, and the swapped counts fit the ranges (``assembly_c::transform``
with its mirror information, then ``validSolution``). Its mirror information pairs the copies
of one-sided pieces in order and stops at the first copy without a partner (:func:`_paired`):
a piece has as many swappable copies as were paired.

Those solutions are exactly the solutions of the *narrowed* puzzle: each one-sided piece's range
cut to its paired copies and its partner's least count, pieces with no paired copy left out. That puzzle's group has the
reflections, so a rotation class of the puzzle whose solutions are the narrowed puzzle's meets
its mirror class there; of two such classes, the one holding the least image (in the narrowed
puzzle's placement order) is the one counted as distinct. ``distinct_rotations`` is unchanged.
"""

from __future__ import annotations

from dataclasses import replace

from polyfit.errors import PolyfitError


class MirrorRule:
    """The narrowed puzzle of a puzzle whose group lacks reflections its board has, and what
    it says of each solution (:meth:`decide`)."""

    def __init__(self, puzzle, narrow):
        self.puzzle = puzzle
        self._last = None  # (placements, decide's answer)
        self.narrow = narrow  # the narrowed puzzle (a polyfit.puzzle.solve.Puzzle)
        names = [p.name for p in puzzle.pieces]
        narrow_names = [p.name for p in narrow.pieces]
        counts = {p.name: p.count for p in narrow.pieces}
        self.limits = [counts.get(name) for name in names]  # per piece: its narrowed range or None
        self.piece_of = [p.piece for p in puzzle.placements]
        index = {(narrow_names[p.piece], p.cells): k for k, p in enumerate(narrow.placements)}
        # Each placement's index in the narrowed puzzle (-1: a piece the narrowed puzzle has not)
        self.to_narrow = [index.get((names[p.piece], p.cells), -1) for p in puzzle.placements]
        back = {(names[p.piece], p.cells): k for k, p in enumerate(puzzle.placements)}
        self.back = [back.get((narrow_names[p.piece], p.cells), -1) for p in narrow.placements]
        cover = narrow.cover
        self.rotations = [cover.table(s) for s in cover.symmetries if s.is_proper]
        self.reflections = [cover.table(s) for s in cover.symmetries if not s.is_proper]

    @staticmethod
    def of(puzzle, make) -> MirrorRule | None:
        """The rule for ``puzzle`` (a :class:`polyfit.puzzle.solve.Puzzle`), or None where it
        changes nothing: not a BurrTools puzzle, a group with its reflections already, a board
        without any, or no solution whose mirror image is valid. ``make(board, pieces)``
        builds the narrowed puzzle, without symmetry breaking."""
        from polyfit.puzzle.symmetry import mirror_partners

        board = puzzle.board
        if not board.motion or puzzle.cover.has_reflections:
            return None
        partners = mirror_partners(board.cells, puzzle.pieces, board.colours)
        if partners is None:
            return None
        paired = _paired(puzzle.pieces, partners, board.label)
        pieces = []
        for k, (piece, partner) in enumerate(zip(puzzle.pieces, partners)):
            lo, hi = piece.count
            if partner != k:  # one-sided: as many copies as BurrTools paired, no fewer than its partner's least
                hi = paired[k]
                if hi:
                    lo = max(lo, puzzle.pieces[partner].count[0])
            if hi == 0 or lo > hi:
                if piece.count[0] > 0 or lo > hi:
                    return None  # every solution uses a piece its mirror image cannot
                continue
            pieces.append(replace(piece, count=(lo, hi)))
        if not pieces:
            return None
        try:
            narrow = make(board, pieces)
        except PolyfitError:  # the narrowed counts cannot fill the board: no solution is mirrored
            return None
        if not narrow.cover.has_reflections:
            return None
        return MirrorRule(puzzle, narrow)

    def decide(self, placements) -> tuple[bool, tuple | None]:
        """For a solution (the puzzle's placement indices): is its rotation class the one
        counted, and the mirror image (placement indices) when that is another rotation
        class (None when it is not, or is no solution). The last answer is kept: a count asks
        about each solution twice (the search, then the disassembly)."""
        if self._last is not None and self._last[0] == placements:
            return self._last[1]
        answer = self._decide(placements)
        self._last = (placements, answer)
        return answer

    def _decide(self, placements) -> tuple[bool, tuple | None]:
        used = [0] * len(self.limits)
        piece_of = self.piece_of
        for i in placements:
            used[piece_of[i]] += 1
        fixed = self.puzzle.cover.fixed
        if fixed:  # pre-placed copies count too (a solution may hold them already)
            for i in set(fixed).difference(placements):
                used[piece_of[i]] += 1
        for n, limit in zip(used, self.limits):
            if (n if limit is None else not limit[0] <= n <= limit[1]):
                return True, None  # the mirror image is no valid solution
        to_narrow = self.to_narrow
        mine = [to_narrow[i] for i in placements]
        if -1 in mine:
            raise PolyfitError("a solution's placement is not in the narrowed puzzle: a bug")
        least = min(sorted(table[i] for i in mine) for table in self.rotations)
        mirrored = min(sorted(table[i] for i in mine) for table in self.reflections)
        if least == mirrored:  # a reflection maps the class onto itself
            return True, None
        image = tuple(self.back[self.reflections[0][i]] for i in mine)
        if -1 in image:
            raise PolyfitError("a mirrored solution uses a placement the puzzle has not: a bug")
        return least < mirrored, image


def _paired(pieces, partners, label) -> list[int]:
    """How many copies of each piece BurrTools can swap for a partner's (0 for a piece that is
    its own mirror image). BurrTools numbers the copies piece by piece (each piece its most
    copies), and pairs each copy of a one-sided piece with the first later unpaired copy of
    its mirror shape; at the first copy with none it stops pairing, so no copy after it
    pairs. A solution uses the first copies of each piece."""
    def mirrors(k, j):
        return partners[k] is not None and partners[j] is not None and partners[partners[j]] == partners[k]

    slots = [k for k, piece in enumerate(pieces) for _ in range(piece.count[1])]
    mate: list = [None] * len(slots)
    for i, k in enumerate(slots):
        if mate[i] is not None or partners[k] == k:
            continue
        j = next((j for j in range(i + 1, len(slots)) if mate[j] is None and mirrors(k, slots[j])), None)
        if j is None:
            break
        mate[i], mate[j] = j, i
    paired = [0] * len(pieces)
    with_piece: list = [set() for _ in pieces]
    for i, k in enumerate(slots):
        if mate[i] is not None:
            paired[k] += 1
            with_piece[k].add(slots[mate[i]])
    for k, others in enumerate(with_piece):
        if len(others) > 1:
            names = ", ".join(sorted(pieces[j].name for j in others))
            raise PolyfitError(
                f"{label}: the copies of {pieces[k].name} pair with pieces of one shape listed apart "
                f"({names}); polyfit cannot count their mirror images as BurrTools does"
            )
    return paired
