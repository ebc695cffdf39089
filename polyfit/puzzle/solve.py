"""Solve a puzzle: board and pieces -> placements -> exact cover -> backend -> counted solutions."""

from __future__ import annotations

import time
from typing import Iterator

from polyfit.puzzle.board import Board
from polyfit.puzzle.cover import Cover, build_cover
from polyfit.errors import PolyfitError, plural
from polyfit.limits import check
from polyfit.xc.problem import SearchStats
from polyfit.xc.reduce import Reduction, reduce as reduce_options
from polyfit.puzzle.pieces import check_board_pieces
from polyfit.puzzle.placements import PlacementResult, PlacementStats, area_problem, place
from polyfit.puzzle.preplaced import preplace
from polyfit.puzzle.symmetry import configuration_symmetries, puzzle_symmetries
from polyfit.records import Record


def symmetric_part(placements, symmetries) -> list:
    """The placements all of whose symmetric images are among them. Pruning is sound and a
    symmetry maps solutions onto solutions, so a placement with an image pruned is in no
    solution either; what is left is closed under the symmetries, as their tables need."""
    known = {(p.piece, p.cells) for p in placements}
    return [
        p for p in placements
        if all((sym.piece_map[p.piece], tuple(sorted(sym(c) for c in p.cells))) in known for sym in symmetries)
    ]


class Found(Record):
    """A solution met by the search: ``placements`` (indices into Puzzle.placements, in the
    order chosen); is it ``canonical`` (the one solution printed for its symmetry class); its
    ``weight`` (how many solutions, counting symmetric copies, it stands for)."""

    __slots__ = ("placements", "canonical", "weight")

    def __init__(self, placements: tuple[int, ...], canonical: bool, weight: int):
        self.placements, self.canonical, self.weight = placements, canonical, weight


class Counts(Record):
    """What a run counted: ``distinct`` (classes under every symmetry of the puzzle), ``total``
    (every solution), ``distinct_rotations`` (classes under its proper rotations alone), the
    ``search``'s work, its ``seconds``, and whether it is ``complete`` (ran to its end).
    ``memo``: a memoizing backend's cache (entries, hits, evictions, bytes); ``fixed``: with a
    memoizing backend, the solutions fixed by each symmetry; ``disassembly``: with
    ``disassemble=True``, what taking them apart found (a Tally).

    What the counts are made of, so that counts added up from jobs can be checked to agree:
    ``classes``, (class size, classes it makes under rotations alone: 1 or 2; 0 for a rotation
    class BurrTools' mirror rule joins to its mirror class, counted there) -> distinct classes;
    ``weights``, weight -> solutions met standing for that many (see
    polyfit.longsearch.workers.JobResult)."""

    __slots__ = ("distinct", "total", "distinct_rotations", "search", "seconds", "complete", "memo", "fixed",
                 "disassembly", "classes", "weights")

    def __init__(self, distinct: int = 0, total: int = 0, distinct_rotations: int = 0,
                 search: SearchStats | None = None, seconds: float = 0.0, complete: bool = False,
                 memo: dict | None = None, fixed: list[int] | None = None, disassembly=None,
                 classes: dict[tuple[int, int], int] | None = None, weights: dict[int, int] | None = None):
        self.distinct, self.total, self.distinct_rotations = distinct, total, distinct_rotations
        self.search = SearchStats() if search is None else search
        self.seconds, self.complete, self.memo, self.fixed, self.disassembly = seconds, complete, memo, fixed, disassembly
        self.classes = {} if classes is None else classes
        self.weights = {} if weights is None else weights

    @property
    def nodes(self) -> int:
        """Search nodes visited (choices tried), as Knuth's programs count them."""
        return self.search.nodes

    @property
    def updates(self) -> int:
        """Link updates (dancing links) or option removals (bitsets) the search made."""
        return self.search.updates


class Puzzle:
    """A board and its pieces, with placements generated and pruned and the cover built."""

    def __init__(self, board: Board, pieces, *, prune=True, break_symmetry=True, reduce=True):
        check_board_pieces(board, pieces)
        self.board = board
        self.pieces = list(pieces)
        preplaced = preplace(board, self.pieces)
        fixed_cells = board.fixed_cells
        free = [c for c in board.cells if c not in fixed_cells]
        self.counts = preplaced.counts  # each piece's (lo, hi) left for the search
        no_total = self._check_area(free)
        # No more copies than fit in the free cells can be used, so a larger high end means the
        # same puzzle: cap it (0..10**9*monomino on four cells is 0..4).
        self.counts = [
            (lo, max(lo, min(hi, len(free) // piece.size)))
            for (lo, hi), piece in zip(self.counts, self.pieces)
        ]
        used = sum(1 for _, hi in self.counts if hi > 0)
        check("items", len(free) + used, f"{board.label}: its cells and pieces, as an exact cover problem")
        if no_total is None:
            result = place(free, self.pieces, prune, self.counts, board.optional, board.colours, reduce)
        else:  # no placement to make: no choice of the counts adds up
            result = PlacementResult([], PlacementStats(impossible=no_total))
        if board.colours is None and board.allowed:  # some pieces may only go some ways
            names = [p.name for p in self.pieces]
            result.placements = [
                p for p in result.placements
                if names[p.piece] not in board.allowed or p.cells in board.allowed[names[p.piece]]
            ]
        self.placement_stats: PlacementStats = result.stats
        self.symmetries = configuration_symmetries(
            puzzle_symmetries(board.cells, self.pieces, board.colours), board, self.pieces
        )
        if result.stats.pruned_parity and len(self.symmetries) > 1 and not board.lattice.parity_symmetric:
            kept = symmetric_part(result.placements, self.symmetries)
            result.stats.pruned_parity += len(result.placements) - len(kept)
            result.placements = kept
        self.cover: Cover = build_cover(
            free,
            self.pieces,
            result.placements,
            self.symmetries,
            break_symmetry,
            self.counts,
            board.optional,
            preplaced.placements,
            board.colours,
            board.max_holes,
        )
        # Every placement: the searched ones, then the pre-placed ones (cover.fixed).
        self.placements = self.cover.placements
        self._mirror_rule = None  # see mirror_rule
        self.reduction: Reduction | None = None
        if reduce:
            self.reduction = reduce_options(self.cover.problem)
            if self.reduction.pays:
                self.cover.problem = self.reduction.problem
                self.cover.option_placement = [self.cover.option_placement[k] for k in self.reduction.kept]

    def _check_area(self, free) -> str | None:
        """Refuse a puzzle whose pieces cannot cover the cells that must be filled, whatever
        their counts: too few or too many at the least or at the most. When the least and the
        most of the pieces' area straddle the cells but no choice of counts adds up (a
        domino 0 or 1 times on one cell), the puzzle is well made and has no solution, as
        BurrTools counts it: that reason is returned."""
        board, pieces = self.board, self.pieces
        optional = len(board.optional)
        empty = optional if board.max_holes is None else min(optional, board.max_holes)  # the most left empty
        sizes = [p.size for p in pieces]
        required = len(free) - empty
        problem = area_problem(required, len(free), sizes, self.counts)
        if problem is None:
            return None
        least = sum(size * lo for size, (lo, _) in zip(sizes, self.counts))
        most = sum(size * hi for size, (_, hi) in zip(sizes, self.counts))
        left = " left after the pre-placed pieces" if board.fixed else ""
        limit = "" if empty == optional else f" (at most {empty} left empty)"
        story = f"{board.label}: {plural(len(free), 'cell')}{left}, {optional} of them optional{limit}; {problem}"
        if least <= len(free) and most >= required:
            return story
        exact = all(p.count == (1, 1) for p in pieces) and not optional and not board.fixed
        if exact:
            piece_area = sum(sizes)
            have = "has" if len(pieces) == 1 else "have"
            raise PolyfitError(
                f"{board.label} has area {board.area} but the {plural(len(pieces), 'piece')} {have} "
                f"total area {piece_area}: every piece is used exactly once, so they must match"
            )
        raise PolyfitError(story)

    def labels(self, placements) -> list[str]:
        """A label per placement: the piece's name, numbered ``NAME#k`` when the solution
        uses several copies of the piece."""
        names = [self.pieces[self.placements[i].piece].name for i in placements]
        seen: dict[str, int] = {}
        result = []
        for name in names:
            if names.count(name) == 1:
                result.append(name)
            else:
                seen[name] = seen.get(name, 0) + 1
                result.append(f"{name}#{seen[name]}")
        return result

    @property
    def mirror_rule(self):
        """BurrTools' rule for the mirror images of some solutions when the group has no
        reflections (:class:`polyfit.puzzle.mirror.MirrorRule`), or None; made once."""
        if self._mirror_rule is None:
            from polyfit.puzzle.mirror import MirrorRule

            def make(board, pieces):
                return Puzzle(board, pieces, break_symmetry=False, reduce=False)

            self._mirror_rule = MirrorRule.of(self, make) or False
        return self._mirror_rule or None

    def mirror_of(self, placements: tuple[int, ...]) -> tuple[bool, tuple | None]:
        """For a solution canonical under the group: is it the one counted among its class and
        its mirror images (a class of the group, or two rotation classes BurrTools' mirror rule
        joins), and, when a reflection takes it to another rotation class, that mirror image
        (placement indices; None otherwise)."""
        cover = self.cover
        if cover.has_reflections:
            if cover.mirror_symmetric(placements):
                return True, None
            return True, tuple(map(cover.reflection_table().__getitem__, placements))
        rule = self.mirror_rule
        return rule.decide(placements) if rule else (True, None)

    @property
    def impossible(self) -> str | None:
        return self.placement_stats.impossible

    def search(self, backend, counts: Counts, seed: int | None = None, distinct_only: bool = False) -> Iterator[Found]:
        """Run the backend and yield each solution found, updating ``counts`` as it goes.

        With symmetry broken, found solutions are one per class up to the breaker's stabilizer;
        ``Found.canonical`` marks one per class and ``Found.weight`` the copies it stands for.
        ``distinct_only``: yield the canonical ones alone (the counts are the same), which spares
        the others a step through Python each when no piece breaks the symmetry.
        """
        problem, order = self.cover.problem, None
        if seed is not None:
            problem, order = problem.shuffled(seed)
        elif distinct_only and self.cover.breaker is None:
            yield from self._run_distinct(backend, problem, counts)
            return
        for found in self._run(backend, problem, counts, order):
            if found.canonical or not distinct_only:
                yield found

    def search_job(self, backend, job, counts: Counts) -> Iterator[Found]:
        """Like :meth:`search`, for the part of the search below one job (see polyfit.xc.jobs)."""
        from polyfit.xc.jobs import restrict

        restricted = restrict(self.cover.problem, job)
        if restricted is None:
            counts.complete = True
            return
        yield from self._run(backend, restricted.problem, counts, restricted.options, job.forced)

    def _run(self, backend, problem, counts, order=None, forced=()) -> Iterator[Found]:
        cover = self.cover
        start = time.perf_counter()
        try:
            if self.impossible is None:
                for options in backend.solutions(problem, counts.search):
                    if order is not None:
                        options = [order[k] for k in options]
                    if forced:
                        options = (*forced, *options)
                    yield self.classify(cover.placements_of(options), counts)
            counts.complete = True
        finally:
            counts.seconds = time.perf_counter() - start

    def _run_distinct(self, backend, problem, counts) -> Iterator[Found]:
        """:meth:`_run` for the canonical solutions alone, with no breaker (each solution stands
        for itself): the search's solutions are classified a batch at a time
        (:meth:`polyfit.puzzle.cover.Cover.canonical_batch`)."""
        cover = self.cover
        start = time.perf_counter()
        try:
            if self.impossible is None:
                weights = counts.weights
                # A C backend hands its solutions over in lists; any other, one to a list.
                by_batch = getattr(backend, "solution_batches", None)
                batches = by_batch(problem, counts.search) if by_batch is not None else \
                    ([solution] for solution in backend.solutions(problem, counts.search))
                for batch in batches:
                    counts.total += len(batch)
                    weights[1] = weights.get(1, 0) + len(batch)
                    for placements, fixed_by in cover.canonical_batch(batch):
                        found = self._record(placements, True, fixed_by, counts)
                        if found.canonical:  # (BurrTools' mirror rule may count its mirror class instead)
                            yield found
            counts.complete = True
        finally:
            counts.seconds = time.perf_counter() - start

    def classify(self, placements: tuple[int, ...], counts: Counts) -> Found:
        """Count a solution (searched placements) and say which class it stands for."""
        canonical, weight, fixed_by = self.cover.classify(placements)
        counts.total += weight
        counts.weights[weight] = counts.weights.get(weight, 0) + 1
        return self._record(placements, canonical, fixed_by, counts, weight)

    def _record(self, placements: tuple[int, ...], canonical: bool, fixed_by: int, counts: Counts,
                weight: int = 1) -> Found:
        """Count a classified solution's class (when it is canonical) and make its :class:`Found`."""
        cover = self.cover
        if canonical:
            # A class splits in two under rotations alone unless a reflection maps its
            # solutions onto themselves. Without reflections in the group, BurrTools' rule may
            # join a rotation class to its mirror class: only one of them is counted distinct
            # (split 0 marks the other in ``classes``).
            split = cover.has_reflections and not cover.mirror_symmetric(placements)
            if not cover.has_reflections and self.mirror_rule is not None:
                canonical = self.mirror_rule.decide(placements)[0]
                counts.distinct_rotations += 1
                kind = 1 if canonical else 0
            else:
                counts.distinct_rotations += 2 if split else 1
                kind = 2 if split else 1
            counts.distinct += canonical
            key = (len(cover.symmetries) // fixed_by, kind)
            counts.classes[key] = counts.classes.get(key, 0) + 1
        return Found(placements + tuple(cover.fixed) if cover.fixed else placements, canonical, weight)

    def count(self, backend, seed: int | None = None) -> Counts:
        counts = Counts()
        if getattr(backend, "memoizes", False) and seed is None:
            self.count_memo(backend, counts)
            return counts
        for _ in self.search(backend, counts, seed, distinct_only=True):
            pass
        return counts

    def count_memo(self, backend, counts: Counts, node_limit: int = 0) -> Counts:
        """Count with a memoizing backend (the total, then the distinct counts by Burnside's
        lemma: see :mod:`polyfit.puzzle.burnside`), visiting no solution. ``node_limit``: raise
        ``NodeLimit`` past that many states expanded (0: no limit)."""
        from polyfit.puzzle.burnside import count_by_burnside

        start = time.perf_counter()
        try:
            if self.impossible is None:
                count_by_burnside(self, backend, counts, node_limit)
            counts.complete = True
        finally:
            counts.seconds = time.perf_counter() - start
        return counts

    def sample_placements(self, backend, n: int, seed: int | None = None) -> list[tuple[int, ...]]:
        """``n`` solutions (placement indices) drawn independently and uniformly at random
        among all of them, symmetric copies included, with a memoizing backend; the same ones
        for the same ``seed``. Empty when there is none."""
        from polyfit.puzzle.burnside import sample

        if self.impossible is not None:
            return []
        return sample(self, backend, n, seed)
