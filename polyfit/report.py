"""What a run says: the text and the JSON of counts, checks, estimates and solutions.

Every face (the command line, the studio, the gallery, the Python API's reprs) builds its words
and its JSON here, so two faces can never disagree about a count. Nothing here runs a search:
each function takes what a run found and says it.
"""

from __future__ import annotations

from polyfit.errors import plural

# -- solutions ----------------------------------------------------------------------------------


def solution_json(puzzle, placements) -> dict:
    """``{label: [[cell], ...]}`` for placement indices: the label is the piece's name, ``NAME#k``
    for its k-th copy."""
    return {
        label: [list(c) for c in puzzle.placements[i].cells]
        for label, i in zip(puzzle.labels(placements), placements)
    }


def solution_text(puzzle, placements) -> str:
    """A solution as text art, as ``polyfit solve`` prints it (3D: layer by layer)."""
    from polyfit.formats.textart import draw_solution

    chosen = [puzzle.placements[i] for i in placements]
    covered = {c for p in chosen for c in p.cells}
    empty = [c for c in puzzle.board.optional if c not in covered]
    return draw_solution(puzzle.pieces, chosen, puzzle.labels(placements), empty)


# -- counts -------------------------------------------------------------------------------------


def counts_text(puzzle, counts) -> str:
    """The count line: ``6x10 box: 2339 distinct solutions, 9356 in all (symmetry group of
    order 4)``; 3D boards add the count up to rotation alone when it differs."""
    text = f"{puzzle.board.label}: {plural(counts.distinct, 'distinct solution', 'distinct solutions')}"
    if puzzle.board.dim == 3 and counts.distinct_rotations != counts.distinct:
        # Soma books count up to rotation alone; in the plane, reflections are the custom.
        text += f" ({counts.distinct_rotations} up to rotation alone)"
    text += f", {counts.total} in all"
    if len(puzzle.symmetries) > 1:
        text += f" (symmetry group of order {len(puzzle.symmetries)})"
    if puzzle.impossible:
        text += f"\nno solution: {puzzle.impossible}"
    return text


def counts_json(puzzle, counts, backend, run=None) -> dict:
    """What ``polyfit solve --count --json`` prints: the counts, the pruning, the exact cover
    problem's size, the search's work and, given the ``run``, how it ran (jobs, processes)."""
    stats = puzzle.placement_stats
    cover = puzzle.cover
    data = {
        "board": puzzle.board.label,
        "pieces": len(puzzle.pieces),
        "distinct": counts.distinct,
        "distinct_rotations": counts.distinct_rotations,
        "total": counts.total,
        "complete": counts.complete,
        "symmetries": len(puzzle.symmetries),
        "placements": stats.generated,
        "reduced_first": stats.reduced,
        "pruned_area": stats.pruned_area,
        "pruned_parity": stats.pruned_parity,
        "options": len(cover.problem.options),
        "items": len(cover.problem.items),
        "nodes": counts.search.nodes,
        "updates": counts.search.updates,
        "backend": backend.name,
        "seconds": round(counts.seconds, 6),
    }
    if puzzle.impossible:
        data["impossible"] = puzzle.impossible
    if counts.memo is not None:
        data["cache"] = counts.memo
    if counts.fixed is not None:
        data["fixed"] = counts.fixed  # solutions each symmetry maps onto themselves (Burnside)
    if run is not None and run.split:
        data["jobs"] = run.jobs
        data["processes"] = run.processes
    return data


def stats_text(puzzle, counts, backend) -> str:
    """``--stats``: placements and pruning, the symmetry breaker, the reduction, the exact cover
    problem, the search's work and the memo counter's cache."""
    s = puzzle.placement_stats
    cover = puzzle.cover
    first = f"{s.reduced} removed by the reduction first, " if s.reduced else ""
    lines = [
        f"placements: {s.generated} generated, {first}{s.pruned_area} pruned by area, "
        f"{s.pruned_parity} pruned by parity, {s.kept} kept",
    ]
    if cover.breaker is not None:
        name = puzzle.pieces[cover.breaker].name
        all_of_it = sum(1 for p in cover.placements if p.piece == cover.breaker)
        lines.append(
            f"symmetry: group of order {len(puzzle.symmetries)}; piece {name} keeps "
            f"{len(cover.orbit_sizes)} of its {all_of_it} placements (one per orbit)"
        )
    else:
        lines.append(f"symmetry: group of order {len(puzzle.symmetries)}; no piece restricted")
    reduction = puzzle.reduction
    if reduction is not None and reduction.removed:
        total = reduction.removed + len(reduction.kept)
        done = "removed" if reduction.pays else "left in: too few to pay"
        lines.append(
            f"reduction: {reduction.removed} of {total} options can be in no solution "
            f"({plural(reduction.rounds, 'round')}); {done}"
        )
    lines.append(
        f"exact cover: {plural(len(cover.problem.items), 'item')}, {plural(len(cover.problem.options), 'option')}"
    )
    lines.append(
        f"search: {plural(counts.search.nodes, 'node')}, {plural(counts.search.updates, 'update')}, "
        f"{counts.seconds:.3f} s on {backend.name}"
    )
    if counts.memo is not None:
        memo = counts.memo
        lines.append(
            f"cache: {plural(memo.get('entries', 0), 'entry', 'entries')}, {plural(memo.get('hits', 0), 'hit')}, "
            f"{plural(memo.get('evictions', 0), 'eviction')}, {memo.get('bytes', 0) / 2**20:.1f} MiB"
        )
    return "\n".join(lines)


def no_solution_lines(puzzle, counts) -> list[str]:
    """Why a search found nothing, as ``polyfit check`` says it: a piece that fits nowhere, a
    cell no piece covers, a region cut off, a colouring; else the search itself."""
    from polyfit.puzzle.check import explain

    explained = explain(puzzle.board, puzzle.pieces, puzzle=puzzle, certificates="always")
    if explained.reasons:
        return reason_lines(explained)
    return [f"no solution: exhaustive search, {plural(counts.search.nodes, 'node')}"]


def boards_table(rows) -> str:
    """``--count`` on a file with many boards: ``rows`` of ``(label, counts)`` as a table."""
    width = max([len("board")] + [len(label) for label, _ in rows])
    lines = [f"{'board':<{width}}  {'distinct':>9}  {'rotations':>9}  {'in all':>9}"]
    for label, counts in rows:
        lines.append(f"{label:<{width}}  {counts.distinct:>9}  {counts.distinct_rotations:>9}  {counts.total:>9}")
    solved = sum(1 for _, c in rows if c.distinct)
    lines.append(f"{plural(len(rows), 'board')}, {solved} with solutions")
    return "\n".join(lines)


def boards_json(rows) -> dict:
    return {"boards": [
        {"board": label, "distinct": c.distinct, "distinct_rotations": c.distinct_rotations, "total": c.total}
        for label, c in rows
    ]}


def merged_json(puzzle, counts, jobs: int) -> dict:
    """``polyfit merge --json``: the counts of a split search's results added up."""
    return {
        "board": puzzle.board.label,
        "distinct": counts.distinct,
        "distinct_rotations": counts.distinct_rotations,
        "total": counts.total,
        "jobs": jobs,
        "nodes": counts.search.nodes,
    }


def interrupted_text(run) -> str:
    """What a Ctrl-C prints: how far the search came, and how to go on."""
    counts = run.counts
    where = f"{plural(counts.search.nodes, 'node')} searched"
    if run.split:
        where = f"{run.done} of {plural(run.jobs, 'job')} done, {where}"
        if run.checkpoint is not None and run.checkpoint.written:
            where += f"; go on with --resume {run.checkpoint.path}"
    return (
        f"interrupted after {counts.seconds:.1f} s: {plural(counts.distinct, 'distinct solution')} "
        f"so far ({counts.total} in all), {where}"
    )


def list_boards_text(name: str, boards) -> str:
    """``--list``: the boards of a file, numbered, as ``--problem`` and ``--figure`` pick them."""
    lines = [f"{name}: {plural(len(boards), 'board')}"]
    for number, board in enumerate(boards, start=1):
        optional = f" ({len(board.optional)} optional)" if board.optional else ""
        if board.optional and board.max_holes is not None:
            optional = f" ({len(board.optional)} optional, at most {board.max_holes} left empty)"
        if board.pieces:
            pieces = ", ".join(
                p.name + ("" if p.count == (1, 1) else "=" + "..".join(dict.fromkeys(map(str, p.count))))
                for p in board.pieces
            )
        else:
            pieces = board.metadata.get("pieces", "given with --pieces")
        fixed = f", {len(board.fixed)} pre-placed" if board.fixed else ""
        lines.append(
            f"{number:>3}  {board.label}: {board.dim}D, {plural(len(board.cells), 'cell')}{optional}{fixed}; pieces: {pieces}"
        )
    return "\n".join(lines)


# -- checks -------------------------------------------------------------------------------------

VERDICTS = {
    "unique": "unique (exactly 1 distinct solution)",
    "multiple": "multiple (at least 2 distinct solutions)",
    "none": "none (no solution)",
}


def check_text(result) -> str:
    """``polyfit check``: verdict, reasons, placements, symmetry, forced, difficulty."""
    from polyfit.puzzle.cover import cell_name

    lines = [f"{result.board.label}: {VERDICTS[result.verdict]}", *reason_lines(result)]
    lines.append("placements: " + ", ".join(
        f"{name} pre-placed" if name in result.preplaced else f"{name} {n}" for name, n in result.pieces.items()
    ))
    lines.append(f"symmetry group of order {result.symmetries}")
    forced = result.forced
    if forced is not None:
        every = f"all {plural(forced['solutions'], 'solution')}, symmetric copies included"
        if forced["solutions"] == 1:
            every = "its one solution"
        if not forced["placements"]:
            lines.append(f"forced: no placement is in {every}")
        for placement in forced["placements"]:
            cells = " ".join(cell_name(tuple(c)) for c in placement["cells"])
            lines.append(f"forced: piece {placement['piece']} is always at {cells} ({every})")
    elif result.verdict == "multiple":
        lines.append(f"forced: not computed (more than {result.forced_limit} distinct solutions)")
    if result.difficulty:
        d = result.difficulty
        lines.append(
            f"difficulty: {d['score']} ({plural(d['nodes_to_first'], 'search node')} to the first solution, "
            f"{d['depth']} levels, branching {d['branching']} per level)"
        )
    return "\n".join(lines)


def check_json(result) -> dict:
    """``polyfit check --json`` and the studio's ``/api/check``."""
    return result.to_json()


def reason_lines(result) -> list[str]:
    """Each reason's text; a colouring mod a small prime drawn below its text."""
    from polyfit.formats.textart import draw_board_labels

    lines = []
    for reason in result.reasons:
        lines.append(reason.text)
        if reason.kind == "colouring" and reason.extra["prime"] < 10:
            lines.append(draw_board_labels(result.board, {c: str(w) for c, w in result.weights.items()}))
    return lines


# -- estimates ----------------------------------------------------------------------------------


def estimate_seconds(found) -> tuple[float, float, float] | None:
    """The search's predicted seconds and their 95% range (its own time when it was run), or
    None when its speed is unknown (no sampled subtree finished in the time allowed)."""
    result, rate = found.estimate, found.rate
    if found.exact:
        return found.seconds, found.seconds, found.seconds
    if not rate:
        return None
    return result.nodes / rate, result.nodes_low / rate, result.nodes_high / rate


def estimate_json(puzzle, engine, found) -> dict:
    """What ``polyfit estimate --json`` prints for ``found`` (an ``estimate_search`` answer).
    What no probe could tell is ``null``, never 0: the solutions when no probe met one (they
    may be rare, not absent), the seconds when the backend's speed could not be measured."""
    result, rate = found.estimate, found.rate
    seconds, low, high = estimate_seconds(found) or (None, None, None)
    rounded = lambda value: None if value is None else round(value, 3)  # noqa: E731
    met = found.exact or result.solutions > 0
    return {
        "board": puzzle.board.label,
        "probes": result.probes,
        "exact": found.exact,
        "converged": result.converged,
        "nodes": round(result.nodes),
        "nodes_low": round(result.nodes_low),
        "nodes_high": round(result.nodes_high),
        "solutions": round(result.solutions) if met else None,
        "solutions_low": round(result.solutions_low) if met else None,
        "solutions_high": round(result.solutions_high) if met else None,
        "seconds": rounded(seconds),
        "seconds_low": rounded(low),
        "seconds_high": rounded(high),
        "backend": engine.name,
        "nodes_per_second": round(rate) if rate else None,
    }


def estimate_text(puzzle, engine, found, probes_asked: bool = False) -> str:
    """``polyfit estimate``: nodes, solutions and time, with their 95% ranges."""
    result, rate = found.estimate, found.rate
    timing = estimate_seconds(found)
    label = puzzle.board.label
    if found.exact:
        return "\n".join([
            f"{label}: searched in full, as that was quicker than estimating ({plural(result.probes, 'probe')} first)",
            f"  nodes:     {result.nodes:,.0f}  (exact)",
            f"  solutions: {result.solutions:,.0f}  met by the search (symmetric copies are not searched)",
            f"  time:      {timing[0]:.3g} s on {engine.name}",
        ])
    how = "range within 1.5x" if result.converged else f"{result.seconds:.1f} s of probing"
    if probes_asked:
        how = "as asked"
    lines = [
        f"{label}: estimate from {result.probes:,} random probes ({how})",
        f"  nodes:     {result.nodes:,.0f}  (95% range {result.nodes_low:,.0f} to {result.nodes_high:,.0f})",
    ]
    if result.solutions:
        lines.append(
            f"  solutions: {result.solutions:,.0f}  (95% range {result.solutions_low:,.0f} to "
            f"{result.solutions_high:,.0f}) met by the search (symmetric copies are not searched)"
        )
    else:
        lines.append("  solutions: unknown: no probe reached one (rare or none; more --probes tell)")
    if timing is None:
        lines.append(
            f"  time:      unknown on {engine.name}: no sample of the search finished in the time "
            "allowed to measure its speed"
        )
    else:
        seconds, low, high = timing
        lines.append(f"  time:      {seconds:.3g} s on {engine.name} ({low:.2g} to {high:.2g} s, at {rate:,.0f} nodes/s)")
    return "\n".join(lines)


# -- disassembly ----------------------------------------------------------------------------------


def disassembly_text(puzzle, tally) -> str:
    """``Solid Knot: 588 assemblies, 179 come apart (314 up to rotation alone)`` and the levels,
    easiest first; how many reached the state cap."""
    text = f"{puzzle.board.label}: {plural(tally.assemblies, 'assembly', 'assemblies')}, {tally.disassemblable} come apart"
    if tally.disassemblable_rotations != tally.disassemblable:
        text += f" ({tally.disassemblable_rotations} up to rotation alone)"
    levels = tally.sorted_levels()
    if levels:
        text += "\nlevels" + ("" if tally.ruler == "burrtools" else f" ({tally.ruler} ruler)") + ": " + ", ".join(f"{level}: {n}" for level, n in levels.items())
    if tally.unknown:
        text += f"\n{plural(tally.unknown, 'assembly', 'assemblies')} reached the state cap: level unknown"
    return text


def disassembly_json(data: dict, tally) -> dict:
    """``--count --disassemble --json``: the counts' JSON with ``assemblies``, ``disassemblable``,
    ``disassemblable_rotations``, ``levels`` (and ``unknown`` when a cap was reached)."""
    data = dict(data, assemblies=tally.assemblies, disassemblable=tally.disassemblable,
                disassemblable_rotations=tally.disassemblable_rotations, levels=tally.sorted_levels(),
                ruler=tally.ruler)
    if tally.unknown:
        data["unknown"] = tally.unknown
    return data


def moves_text(taken) -> str:
    """A disassembly's moves, one a line: ``3. A, B by (0, 0, -2)``, ``..., out`` for a removal."""
    lines = []
    for k, move in enumerate(taken.moves, 1):
        by = "(" + ", ".join(str(v) for v in move["by"]) + ")"
        out = ", out" if move["removed"] else ""
        lines.append(f"{k:3}. {', '.join(move['pieces'])} by {by}{out}")
    return "\n".join(lines)


# -- piece sets ---------------------------------------------------------------------------------


def pieces_json(pieces) -> dict:
    """What ``polyfit pieces SET --json`` prints: ``{"pieces": {name: [[cell], ...]}}``, in
    the set's order, and the lattice when it is not squares or cubes (as solutions files)."""
    pieces = list(pieces)
    data: dict = {"pieces": {p.name: [list(c) for c in p.cells] for p in pieces}}
    lattice = pieces[0].lattice.name if pieces else ""
    if lattice not in ("", "square", "cubic"):
        data["lattice"] = lattice
    counts = {p.name: list(p.count) for p in pieces if p.count != (1, 1)}
    if counts:
        data["counts"] = counts
    return data


def piece_sets_json(entries) -> dict:
    """What ``polyfit pieces --json`` prints: each set's name, size and summary."""
    return {"sets": {name: {"pieces": size, "summary": summary} for name, size, summary in entries}}


# -- atlases --------------------------------------------------------------------------------------


def atlas_text(found, rows, matching: int | None = None, unique: bool = False) -> str:
    """``polyfit atlas``: the totals, then a family's piece sets or a calendar's targets
    (``rows``, as ``found.rows()`` sorted and filtered them); ``matching``: how many rows the
    filter (``unique``) let through before a limit cut them to ``rows``."""
    text = family_atlas_text(found, rows) if found.kind == "family" else calendar_atlas_text(found, rows)
    return "\n".join([text, *_shown(found, rows, len(rows) if matching is None else matching, unique)])


def _shown(found, rows, matching: int, unique: bool) -> list[str]:
    """What the rows shown are of all: the filter and the limit in words."""
    every = len(found.sets) if found.kind == "family" else len(found.targets)
    noun = "row" if found.kind == "family" else "target"
    lines = []
    if unique:
        what = "one solution" if found.kind != "family" else (
            "one assembly that comes apart" if found.disassembled else "one assembly")
        lines.append(f"{matching} of {plural(every, noun)} with {what}")
        every = matching
    if len(rows) < every:
        lines.append(f"({len(rows)} of {every} shown)")
    return lines


def atlas_json(found, rows) -> dict:
    """``polyfit atlas --json``: the totals and ``sets`` (a family) or ``targets`` (a calendar)."""
    return family_atlas_json(found, rows) if found.kind == "family" else calendar_atlas_json(found, rows)


def piece_set_text(pieces: dict | None) -> str:
    """A piece set in words: each name as often as it is used (``D G I I S Y``), ``I x4`` past 3."""
    if pieces is None:
        return "itself"
    return " ".join(" ".join([name] * n) if n <= 3 else f"{name} x{n}" for name, n in pieces.items())


def _table(header, lines) -> list[str]:
    widths = [max(len(str(row[k])) for row in [header, *lines]) for k in range(len(header))]
    return ["  ".join(f"{str(cell):<{w}}" for cell, w in zip(row, widths)).rstrip() for row in [header, *lines]]


def family_atlas_text(found, rows) -> str:
    sets = found.sets
    many = sum(2 if s.mirror is not None else 1 for s in sets)
    label = found.puzzle.board.label
    paired = many > len(sets)  # some set has another set as its mirror image
    head = f"{label}: {plural(many, 'piece set')} with an assembly"
    if paired:
        head += f", in {plural(len(sets), 'row')} (a set and its mirror image set share one)"
    lines = [head]
    counted = f"{plural(found.assemblies, 'assembly', 'assemblies')} ({found.assemblies_rotations} up to rotation alone)"
    if found.disassembled:
        total = found.total
        counted += f", {total.disassemblable} come apart ({total.disassemblable_rotations} up to rotation alone)"
    lines.append(counted)
    if found.disassembled:
        levels = found.total.sorted_levels()
        if levels:
            lines.append("levels: " + ", ".join(f"{level}: {n}" for level, n in levels.items()))
        if found.total.unknown:
            lines.append(f"{plural(found.total.unknown, 'assembly', 'assemblies')} reached the state cap: level unknown")
    if not rows:
        return "\n".join(lines)
    header = ["pieces", "mirror image", "assemblies"] if paired else ["pieces", "assemblies"]
    if found.disassembled:
        header += ["come apart", "levels"]
    table = []
    for s in rows:
        line = [piece_set_text(s.pieces), piece_set_text(s.mirror)] if paired else [piece_set_text(s.pieces)]
        line.append(f"{s.assemblies} ({s.assemblies_rotations})")
        if found.disassembled:
            line += [f"{s.disassemblable} ({s.disassemblable_rotations})",
                     ", ".join(f"{level}: {n}" for level, n in s.levels.items()) or "-"]
        table.append(line)
    lines.append("counts: up to rotation and reflection (up to rotation alone)")
    lines += _table(header, table)
    return "\n".join(lines)


def family_atlas_json(found, rows) -> dict:
    sets = found.sets
    data = {"board": found.puzzle.board.label, "piece_sets": sum(2 if s.mirror is not None else 1 for s in sets),
            "rows": len(sets), "assemblies": found.assemblies, "assemblies_rotations": found.assemblies_rotations}
    if found.disassembled:
        data = disassembly_json(data, found.total)
    data["sets"] = [s.to_json() for s in rows]
    return data


def calendar_atlas_text(found, rows) -> str:
    targets = found.targets
    unsolved = found.unsolved
    label = found.puzzle.board.label
    head = f"{label}: {plural(len(targets), 'target')} (leave {found.leave.text})"
    if not unsolved:
        head += ", every one with a solution" if len(targets) > 1 else ", with a solution"
    else:
        names = ", ".join(t.name for t in unsolved[:10]) + (", ..." if len(unsolved) > 10 else "")
        head += f", {len(unsolved)} without a solution: {names}"
    lines = [head]
    if targets:
        def which(n):  # the targets with n solutions, a few by name
            named = [t.name for t in targets if t.solutions == n]
            return f"{n} ({', '.join(named[:4])}{', ...' if len(named) > 4 else ''})"

        counts = [t.solutions for t in targets]
        lines.append(f"fewest solutions: {which(min(counts))}; most: {which(max(counts))}")
    lines.append(f"{plural(found.solutions, 'solution', spec=',')} in all")
    if rows:
        lines += _table(["target", "solutions"], [[t.name, t.solutions] for t in rows])
    return "\n".join(lines)


def calendar_atlas_json(found, rows) -> dict:
    return {"board": found.puzzle.board.label, "leave": found.leave.text, "count": len(found.targets),
            "unsolved": [t.name for t in found.unsolved], "solutions": found.solutions,
            "targets": [t.to_json() for t in rows]}
