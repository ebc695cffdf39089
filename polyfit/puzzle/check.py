"""The designer's check: is a puzzle unique, ambiguous or impossible, and why.

In order, each step cheaper than the next and each able to end the check:

1. lint, before any search: the pieces' area against the board's, each piece's placements,
   pieces that fit nowhere, cells no placement covers, regions cut off whose area no choice of
   the pieces makes;
2. proofs without search: checkerboard parity (from pruning) and linear certificates
   (:mod:`polyfit.xc.certificate`), shown as a colouring of the cells;
3. a search that stops at the second distinct solution (distinct as ``solve --count`` counts:
   one per symmetry class), or proves there is none;
4. with few solutions, a bounded search for all of them and the placements they all share.

*Forced* placements are shared by every solution, every rotated and reflected copy included: on
a symmetric board a placement is forced only when the symmetries map it to itself (a piece in
the centre). Computed over one copy per class instead, the answer would depend on which copy
the search happened to keep.

*Difficulty* comes from the search itself: ``log10`` of the search nodes before the first
solution, with the branching that amounts to per level. It measures the solver's work, which
tracks a person's only roughly; it is meant for comparing puzzles with one another.

Pure logic: nothing here prints. The caller hands in a backend (``backend_for(problem)``).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

from polyfit.errors import plural
from polyfit.puzzle.cover import build_cover, cell_name
from polyfit.lattices import base as lattices
from polyfit.puzzle.pieces import check_board_pieces
from polyfit.puzzle.placements import BitGrid, area_problem, generate, reachable_areas, reaches
from polyfit.puzzle.preplaced import preplace
from polyfit.puzzle.solve import Counts, Puzzle
from polyfit.puzzle.symmetry import configuration_symmetries, puzzle_symmetries
from polyfit.xc.certificate import Certificate, find_certificate

CHEAP_CERTIFICATE = 5_000_000  # elimination work (items squared times options) done before searching
AFTER_SEARCH_CERTIFICATE = 50_000_000  # larger: no colouring is looked for (about 2 s)
FORCED_LIMIT = 2000  # distinct solutions up to which every one is found for the forced placements


@dataclass
class Reason:
    """One finding: ``kind`` is area, parity, colouring, piece-fits-nowhere, cell-uncoverable,
    region or search; ``extra`` holds its data (piece, cells, weights, prime, nodes)."""

    kind: str
    text: str
    extra: dict = field(default_factory=dict)

    def to_json(self) -> dict:
        return {"kind": self.kind, "text": self.text, **self.extra}


@dataclass
class Check:
    verdict: str  # "unique", "multiple" or "none"
    solutions: int  # exact when 0 or 1; 2 means at least 2
    reasons: list[Reason]
    pieces: dict[str, int]  # placements per piece (before pruning)
    symmetries: int
    witnesses: list[tuple[int, ...]] = field(default_factory=list)  # placement indices, at most 2
    forced: dict | None = None  # see :func:`forced_placements`
    difficulty: dict | None = None  # score, nodes to the first solution, depth, branching
    nodes: int = 0  # search nodes in all
    seconds: float = 0.0
    puzzle: Puzzle | None = None  # the pruned puzzle the witnesses index (None: never built)
    certificate: Certificate | None = None
    weights: dict | None = None  # cell -> weight mod prime, for a colouring
    certify: object = None  # the certificate left for after the search, when it is costly
    board: object = None
    preplaced: list[str] = field(default_factory=list)  # pieces every copy of which is drawn in
    forced_limit: int = FORCED_LIMIT

    @property
    def at_least(self) -> bool:
        return self.verdict == "multiple"

    def to_json(self) -> dict:
        data = {
            "verdict": self.verdict,
            "solutions": self.solutions,
            "reasons": [r.to_json() for r in self.reasons],
            "pieces": self.pieces,
            "symmetries": self.symmetries,
            "difficulty": self.difficulty,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
        }
        if self.at_least:
            data["at_least"] = True
        if self.forced is not None:
            data["forced"] = self.forced
        return data


def cells_text(cells, most: int = 8) -> str:
    names = [cell_name(c) for c in sorted(cells)]
    if len(names) > most:
        return " ".join(names[:most]) + f" ... ({len(names)} cells)"
    return " ".join(names)


def check(board, pieces, backend_for, *, puzzle: Puzzle | None = None,
          forced_limit: int = FORCED_LIMIT, certificates: bool = True) -> Check:
    """Check a puzzle (see the module's docstring). ``puzzle``: the pruned puzzle of this board
    and these pieces when already built; ``forced_limit``: find every solution when there are
    at most this many distinct ones (0: stop at the second)."""
    start = time.perf_counter()
    result = explain(board, pieces, puzzle=puzzle, certificates=certificates)
    result.forced_limit = forced_limit
    if not result.reasons:
        puzzle = result.puzzle
        _search(result, puzzle, backend_for(puzzle.cover.problem), forced_limit)
        if result.verdict == "none" and result.certify is not None:
            result.certify()  # a colouring reads better than a count of nodes: put it first
    return _done(result, start)


def explain(board, pieces, *, puzzle: Puzzle | None = None, certificates: bool = True) -> Check:
    """Everything :func:`check` finds without searching: the lint and a proof of impossibility,
    when one is found (then ``reasons`` is not empty and the verdict is ``none``).
    ``certificates``: False, True (when the elimination is cheap; else ``certify`` is left
    to call) or ``"always"``."""
    start = time.perf_counter()
    pieces = list(pieces)
    check_board_pieces(board, pieces)
    pre = preplace(board, pieces)
    free = [c for c in board.cells if c not in board.fixed_cells]
    counts = [(lo, max(lo, min(hi, len(free) // p.size))) for (lo, hi), p in zip(pre.counts, pieces)]
    generated = generate(free, pieces, counts)
    per_piece = {p.name: 0 for p in pieces}
    for placement in generated:
        per_piece[pieces[placement.piece].name] += 1
    reasons = lint(board, pieces, free, counts, generated)
    result = Check("none", 0, reasons, per_piece, 0, board=board)
    result.preplaced = [p.name for p, (_, hi) in zip(pieces, counts) if hi == 0]
    if reasons:
        result.symmetries = len(configuration_symmetries(puzzle_symmetries(board.cells, pieces), board, pieces))
        return _done(result, start)
    if puzzle is None:
        puzzle = Puzzle(board, pieces)
    result.puzzle = puzzle
    result.symmetries = len(puzzle.symmetries)
    if puzzle.impossible:
        reasons.append(Reason("parity", f"no solution: {puzzle.impossible}"))
        return _done(result, start)
    for name, kept in _kept_per_piece(puzzle).items():
        index = next(i for i, p in enumerate(pieces) if p.name == name)
        if kept == 0 and counts[index][0] > 0:
            reasons.append(Reason(
                "piece-fits-nowhere",
                f"no solution: piece {name} fits in {plural(per_piece[name], 'place')}, but placed in any "
                "of them it leaves a region the other pieces cannot fill",
                {"piece": name},
            ))
    if reasons or not certificates:
        return _done(result, start)
    problem = build_cover(free, pieces, generated, [], False, counts, board.optional).problem

    def certify() -> bool:
        certificate = find_certificate(problem)
        if certificate is not None:
            result.certificate = certificate
            reason, result.weights = colouring(problem, certificate, pieces, counts, free)
            reasons.insert(0, reason)
        return certificate is not None

    # A puzzle with a solution has no certificate, and the elimination costs about items
    # squared times options: a large one waits until the search has found nothing.
    work = len(problem.items) ** 2 * len(problem.options)
    if certificates == "always" or work <= CHEAP_CERTIFICATE:
        certify()
    elif work <= AFTER_SEARCH_CERTIFICATE:
        result.certify = certify
    return _done(result, start)


def _done(result: Check, start: float) -> Check:
    result.seconds = time.perf_counter() - start
    return result


def _kept_per_piece(puzzle: Puzzle) -> dict[str, int]:
    kept = {p.name: 0 for p in puzzle.pieces}
    searched = len(puzzle.placements) - len(puzzle.cover.fixed)
    for placement in puzzle.placements[:searched]:
        kept[puzzle.pieces[placement.piece].name] += 1
    return kept


def lint(board, pieces, free, counts, generated) -> list[Reason]:
    """The findings that need no pruning and no search; each one proves there is no solution."""
    reasons = []
    optional = board.optional
    sizes = [p.size for p in pieces]
    required = [c for c in free if c not in optional]
    problem = area_problem(len(required), len(free), sizes, counts)
    if problem is not None:
        left = " left after the pre-placed pieces" if board.fixed else ""
        reasons.append(Reason(
            "area", f"no solution: {board.label} has {plural(len(free), 'cell')}{left}; {problem}",
            {"cells": len(free), "required": len(required)},
        ))
    fits = [0] * len(pieces)
    covered = set()
    for placement in generated:
        fits[placement.piece] += 1
        covered.update(placement.cells)
    for k, piece in enumerate(pieces):
        if fits[k] == 0 and counts[k][0] > 0:
            reasons.append(Reason(
                "piece-fits-nowhere", f"no solution: piece {piece.name} fits nowhere on {board.label}",
                {"piece": piece.name},
            ))
    bare = sorted(c for c in required if c not in covered)
    if bare:
        reasons.append(Reason(
            "cell-uncoverable",
            f"no solution: no placement of any piece covers {plural(len(bare), 'cell')}: {cells_text(bare)}",
            {"cells": [list(c) for c in bare]},
        ))
    if problem is None and free:
        grid = BitGrid(free, lattices.of(board))
        regions = grid.regions(grid.mask(free))
        if len(regions) > 1:
            cell_of = {bit: c for c, bit in grid.bit.items()}
            any_part = reachable_areas(sizes, [(0, hi) for _, hi in counts])
            for region in regions:
                cells = [cell_of[region & -region]]
                rest = region & (region - 1)
                while rest:
                    cells.append(cell_of[rest & -rest])
                    rest &= rest - 1
                must = sum(1 for c in cells if c not in optional)
                if not reaches(any_part, must, len(cells)):
                    reasons.append(Reason(
                        "region",
                        f"no solution: the region of {plural(len(cells), 'cell')} at {cells_text(cells, 4)} "
                        f"is cut off, and no choice of the pieces covers exactly {plural(len(cells), 'cell')}",
                        {"cells": [list(c) for c in sorted(cells)]},
                    ))
    return reasons


def colouring(problem, certificate: Certificate, pieces, counts, free) -> tuple[Reason, dict]:
    """A certificate as a colouring: each cell's weight mod p, each piece's weight (what
    every placement of it weighs), the pieces' total and the board's."""
    p = certificate.prime
    by_name = {cell_name(c): c for c in free}
    piece_index = {piece.name: k for k, piece in enumerate(pieces)}
    weights = {c: 0 for c in free}
    piece_weight = {piece.name: 0 for k, piece in enumerate(pieces) if counts[k][1] > 0}
    for item, w in certificate.weights.items():
        name = problem.items[item]
        if item < len(piece_weight) and name in piece_index:
            piece_weight[name] = (-w) % p  # the piece's item weight cancels its cells'
        else:
            weights[by_name[name]] = w % p
    optional = set(problem.secondary)
    board_weight = sum(w for c, w in weights.items() if cell_name(c) not in optional) % p
    pieces_weight = sum(piece_weight[piece.name] * counts[k][0] for k, piece in enumerate(pieces)
                        if piece.name in piece_weight) % p
    each = ", ".join(f"{name} {w}" for name, w in piece_weight.items())
    if len(piece_weight) == 1:
        (name, w), = piece_weight.items()
        each = f"every placement of piece {name} weighs {w}"
    else:
        each = f"every placement of each piece weighs the same ({each})"
    text = (
        f"no solution: colour the cells with weights mod {p}{' (below)' if p <= 10 else ''}; "
        f"{each}, so the pieces weigh {pieces_weight} in all, but the board weighs {board_weight}"
    )
    extra = {
        "prime": p,
        "weights": [[*c, w] for c, w in sorted(weights.items()) if w],
        "piece_weights": piece_weight,
        "pieces_weight": pieces_weight,
        "board_weight": board_weight,
    }
    return Reason("colouring", text, extra), weights


def _search(result: Check, puzzle: Puzzle, backend, forced_limit: int) -> None:
    counts = Counts()
    found_any = None
    canonical: list[tuple[int, ...]] = []
    complete = False
    wanted = max(2, forced_limit + 1)
    search = puzzle.search(backend, counts)
    try:
        for found in search:
            if found_any is None:
                found_any = (counts.search.nodes, len(found.placements) - len(puzzle.cover.fixed))
            if found.canonical:
                canonical.append(found.placements)
                if len(canonical) >= wanted:
                    break
        else:
            complete = True
    finally:
        search.close()
    result.nodes = counts.search.nodes
    result.witnesses = canonical[:2]
    if not canonical:
        result.reasons.append(Reason(
            "search", f"no solution: exhaustive search, {plural(counts.search.nodes, 'node')}",
            {"nodes": counts.search.nodes},
        ))
        return
    result.verdict = "unique" if len(canonical) == 1 else "multiple"
    result.solutions = min(len(canonical), 2)
    result.difficulty = difficulty(*found_any)
    if complete:
        result.forced = forced_placements(puzzle, canonical)


def difficulty(nodes: int, depth: int) -> dict:
    """The difficulty of a puzzle whose search met its first solution after ``nodes`` nodes,
    ``depth`` placements deep (see the module's docstring)."""
    return {
        "score": round(math.log10(max(nodes, 1)), 2),
        "nodes_to_first": nodes,
        "depth": depth,
        "branching": round(max(nodes, 1) ** (1 / max(depth, 1)), 2),
    }


def forced_placements(puzzle: Puzzle, classes) -> dict:
    """The placements every solution shares, symmetric copies included (pre-placed pieces
    left out), from one solution per class."""
    cover = puzzle.cover
    fixed = set(cover.fixed)
    everything = [s for solution in classes for s in cover.orbit(solution)]
    shared = set(everything[0])
    for solution in everything[1:]:
        shared &= set(solution)
    shared -= fixed
    placements = []
    for i in sorted(shared, key=lambda i: (puzzle.placements[i].piece, puzzle.placements[i].cells)):
        placement = puzzle.placements[i]
        placements.append({"piece": puzzle.pieces[placement.piece].name,
                           "cells": [list(c) for c in placement.cells]})
    return {
        "classes": len(classes),
        "solutions": len(everything),
        "placements": placements,
    }
