"""Exact counts without enumeration: a memoizing counter and Burnside's lemma.

A memoizing backend (``count-memo``, see :mod:`polyfit.dlx.memo`) counts the solutions of an
exact cover problem without visiting them, so it counts the *total* directly, on the problem
with no symmetry broken. The number of classes under the puzzle's group G then follows from
Burnside's lemma:

    distinct = (1 / |G|) * sum over g in G of fix(g),

where fix(g) is the number of solutions g maps onto themselves. A solution fixed by g is a
union of orbits of placements under the cyclic group <g>, so fix(g) is the count of a smaller
exact cover problem (:func:`symmetric_problem`): its items are the orbits of free cells under
<g> (each covered once) and the orbits of pieces under g's piece map; its options are the orbits
of placements whose placements do not overlap (nor cross, on polysticks: the crossing points an
orbit passes through are its secondary items, each at most once). An orbit of k placements of the pieces of a
piece orbit P covers each piece of P k/|P| times: the counter takes such *amounts*. Classes
under rotations alone are the same sum over the proper symmetries, divided by their number.

Both are exact: the sums are divided only when they divide, else it is a bug and says so.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from polyfit.errors import PolyfitError
from polyfit.puzzle.cover import HOLE, cell_name, crossing_name, items_problem
from polyfit.xc.problem import ExactCoverProblem


@dataclass
class FullProblem:
    """The puzzle's exact cover problem with no symmetry broken."""

    problem: ExactCoverProblem
    placement: list[int]  # option index -> placement index


def full_problem(puzzle) -> FullProblem:
    cover = puzzle.cover
    if cover.breaker is None:
        return FullProblem(cover.problem, list(cover.option_placement))
    problem = cover.problem
    item = {name: k for k, name in enumerate(problem.items)}
    searched = len(cover.placements) - len(cover.fixed)
    crossed = cover.crossings
    options, placement = [], []
    for index in range(searched):
        p = cover.placements[index]
        option = (item[puzzle.pieces[p.piece].name],) + tuple(item[cell_name(c)] for c in p.cells)
        if crossed is not None:
            if crossed.held[index] is None:
                continue  # it crosses a pre-placed piece
            option += tuple(item[crossing_name(crossed.points[k])] for k in crossed.held[index])
        options.append(option)
        placement.append(index)
    if cover.max_holes is not None:  # the hole options as the cover has them
        holes = [k for k, index in enumerate(cover.option_placement) if index == HOLE]
        options += [problem.options[k] for k in holes]
        placement += [HOLE] * len(holes)
    full = ExactCoverProblem(list(problem.primary), list(problem.secondary), options, list(problem.bounds))
    return FullProblem(full, placement)


def _cycle(step, start) -> list:
    """The cycle of a permutation (``step``: element -> its image) through ``start``."""
    cycle = [start]
    x = step(start)
    while x != start:
        cycle.append(x)
        x = step(x)
    return cycle


def _cycles(mapping: dict) -> dict:
    """For a permutation given as a dict: each element -> the least element of its cycle."""
    leader = {}
    for start in mapping:
        if start in leader:
            continue
        cycle = _cycle(mapping.__getitem__, start)
        least = min(cycle)
        for x in cycle:
            leader[x] = least
    return leader


def symmetric_problem(puzzle, sym) -> tuple[ExactCoverProblem, list[tuple[int, ...]]]:
    """The exact cover problem whose solutions are the solutions ``sym`` maps onto
    themselves, and the amounts of its options (see the module docstring)."""
    cover = puzzle.cover
    board = puzzle.board
    fixed_cells = board.fixed_cells
    free = [c for c in board.cells if c not in fixed_cells]
    cell_orbit = _cycles({c: sym(c) for c in free})
    orbits = sorted(set(cell_orbit.values()))
    required = [c for c in orbits if c not in cover.optional]
    spare = [c for c in orbits if c in cover.optional]
    limited = cover.max_holes is not None  # then the optional cells are primary, with hole options
    used = [i for i, (lo, hi) in enumerate(puzzle.counts) if hi > 0]
    piece_orbit = _cycles({i: sym.piece_map[i] for i in used})
    piece_leaders = sorted(set(piece_orbit.values()))
    orbit_size = {lead: sum(1 for i in used if piece_orbit[i] == lead) for lead in piece_leaders}
    n_pieces = len(piece_leaders)
    item_of_piece = {lead: k for k, lead in enumerate(piece_leaders)}
    item_of_cell = {c: n_pieces + k for k, c in enumerate(required + spare)}
    crossed = cover.crossings
    points = crossed.points if crossed is not None else []
    first_point = n_pieces + len(item_of_cell)
    problem = items_problem([f"piece{lead}" for lead in piece_leaders], [puzzle.counts[lead] for lead in piece_leaders],
                            required, spare, points, cover.max_holes)
    if limited:
        first_point += 1  # after the holes item
    table = cover.table(sym)
    searched = len(cover.placements) - len(cover.fixed)
    amounts = []
    seen = set()
    for start in range(searched):
        if start in seen:
            continue
        orbit = _cycle(table.__getitem__, start)
        seen.update(orbit)
        cells = [c for i in orbit for c in cover.placements[i].cells]
        if len(set(cells)) != len(cells):
            continue  # its placements overlap: never part of a symmetric solution
        through = []  # the crossing points its placements pass through (each a secondary item)
        if crossed is not None:
            if any(crossed.held[i] is None for i in orbit):
                continue  # it crosses a pre-placed piece
            through = [k for i in orbit for k in crossed.held[i]]
            if len(set(through)) != len(through):
                continue  # two of its placements would cross
        lead = piece_orbit[cover.placements[start].piece]
        times = len(orbit) // orbit_size[lead]
        option = (item_of_piece[lead],) + tuple(sorted({item_of_cell[cell_orbit[c]] for c in cells}))
        option += tuple(first_point + k for k in sorted(through))
        problem.options.append(option)
        amounts.append((times,) + (1,) * (len(option) - 1))
    if limited:  # a hole on each cell of an orbit: as many holes as the orbit has cells
        holes = len(problem.primary) - 1
        size = Counter(cell_orbit.values())  # each orbit's cells, by its least cell
        for c in spare:
            problem.options.append((holes, item_of_cell[c]))
            amounts.append((size[c], 1))
    return problem, amounts


def count_by_burnside(puzzle, backend, counts, node_limit: int = 0) -> None:
    """Fill ``counts`` (a :class:`polyfit.puzzle.solve.Counts`) with the total and the
    distinct counts of ``puzzle``, counted by ``backend`` (a memoizing one). ``node_limit``:
    states the counts may expand in all before ``NodeLimit`` is raised (0: no limit)."""
    if counts.memo is None:
        counts.memo = {}
    memo = counts.memo
    start = counts.search.nodes

    def left() -> dict:  # the limit is passed only when there is one (a plugin's counter may take none)
        if not node_limit:
            return {}
        return {"node_limit": max(1, node_limit - (counts.search.nodes - start))}

    full = full_problem(puzzle)
    total = backend.count(full.problem, counts.search, memo=memo, **left())
    group = puzzle.symmetries
    fixed = []
    for sym in group:
        if sym.is_identity:
            fixed.append(total)
        else:
            problem, amounts = symmetric_problem(puzzle, sym)
            fixed.append(backend.count(problem, counts.search, amounts, memo=memo, **left()))
    proper = [f for sym, f in zip(group, fixed) if sym.is_proper]
    if sum(fixed) % len(group) or sum(proper) % len(proper):
        raise PolyfitError(f"Burnside's sum {sum(fixed)} is not a multiple of the group order {len(group)}: a bug")
    counts.total = total
    counts.distinct = sum(fixed) // len(group)
    counts.distinct_rotations = sum(proper) // len(proper)
    rule = getattr(puzzle, "mirror_rule", None)
    if rule is not None:
        # BurrTools' mirror rule (polyfit.puzzle.mirror): the solutions whose mirror images
        # are valid are the narrowed puzzle's, whose group has the reflections; each of its
        # rotation classes joined to another is counted once, not twice.
        narrow = type(counts)(memo=counts.memo, search=counts.search)
        count_by_burnside(rule.narrow, backend, narrow, node_limit and max(1, node_limit - (counts.search.nodes - start)))
        counts.distinct = counts.distinct_rotations - narrow.distinct_rotations + narrow.distinct
        counts.search.solutions = total
    counts.search.solutions = total
    counts.fixed = fixed


def sample(puzzle, backend, n: int, seed: int | None) -> list[tuple[int, ...]]:
    """``n`` solutions (placement indices in reading order, pre-placed ones last) drawn independently and
    uniformly at random among all solutions (symmetric copies included), reproducibly for a
    given ``seed``, with the counts of a memoizing ``backend``."""
    full = full_problem(puzzle)
    fixed = tuple(puzzle.cover.fixed)

    def reading_order(i):  # copies of a piece are then labelled in reading order
        return min(puzzle.placements[i].cells)

    drawn = backend.sample(full.problem, n, seed)
    return [tuple(sorted((full.placement[o] for o in options if full.placement[o] != HOLE), key=reading_order)) + fixed
            for options in drawn]


def parse_memory(text: str) -> int:
    """Bytes from ``500M``, ``2G``, ``1.5g``, ``65536`` (``K``, ``M``, ``G``, ``T``: powers of 1024)."""
    units = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}
    value = text.strip().upper().removesuffix("B").removesuffix("I")
    unit = value[-1:] if value[-1:] in units else ""
    try:
        number = float(value[: len(value) - len(unit)])
    except ValueError:
        raise PolyfitError(f"--memory {text!r}: give bytes, or a size such as 500M or 2G") from None
    if not number > 0 or number * units[unit] < 1 or number * units[unit] > 1 << 50:
        raise PolyfitError(f"--memory {text!r}: give bytes, or a size such as 500M or 2G")
    return int(number * units[unit])
