"""``polyfit solve``: find, print and count the ways a piece set fills a board."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Optional

import typer

from polyfit.errors import PolyfitError, plural
from polyfit.formats.solution_set import SolutionSet
from polyfit.files import check_writable, output_file
from polyfit.puzzle.solve import Counts, Puzzle
from polyfit.formats.textart import draw_solution
from polyfit.commands import EXIT_INTERRUPTED, guarded
from polyfit.commands import outputs as out


def load_board(ctx, board_path: Path):
    from polyfit import api

    return api.read_board(board_path, plugins=ctx.registry)


def load_puzzle(ctx, board_path: Path, pieces_spec: Optional[str], mirror: bool = False, break_symmetry=True,
                select: Optional[str] = None):
    """The puzzle: the board file and ``--pieces`` (or the board's '; pieces:' line, or the
    pieces the file holds); ``select`` picks a board of a file with many."""
    from polyfit import api

    return api.load(board_path, pieces_spec or None, mirror, plugins=ctx.registry, break_symmetry=break_symmetry,
                    select=select)


def list_boards(ctx, board_path: Path) -> str:
    """``--list``: the boards of a file, numbered, as --problem and --figure pick them."""
    from polyfit import api

    boards = api.read_boards(board_path, plugins=ctx.registry)
    lines = [f"{board_path.name}: {len(boards)} board" + ("" if len(boards) == 1 else "s")]
    for number, board in enumerate(boards, start=1):
        optional = f" ({len(board.optional)} optional)" if board.optional else ""
        if board.pieces:
            pieces = ", ".join(p.name + ("" if p.count == (1, 1) else "=" + "..".join(dict.fromkeys(map(str, p.count)))) for p in board.pieces)
        else:
            pieces = board.metadata.get("pieces", "given with --pieces")
        fixed = f", {len(board.fixed)} pre-placed" if board.fixed else ""
        lines.append(f"{number:>3}  {board.label}: {board.dim}D, {len(board.cells)} cells{optional}{fixed}; pieces: {pieces}")
    return "\n".join(lines)


def count_all(ctx, board_path: Path, pieces_spec, mirror: bool, backend: str) -> tuple[str, list]:
    """``--count`` on a file with many boards: each one counted, as a table."""
    from polyfit import api

    rows = []
    for board in api.read_boards(board_path, plugins=ctx.registry):
        puzzle = api.Puzzle(board, pieces_spec or None, mirror=mirror, plugins=ctx.registry)
        counts = puzzle.count(backend)
        rows.append((board.label, counts))
    width = max(len(label) for label, _ in rows)
    lines = [f"{'board':<{width}}  {'distinct':>9}  {'rotations':>9}  {'in all':>9}"]
    for label, counts in rows:
        lines.append(f"{label:<{width}}  {counts.distinct:>9}  {counts.distinct_rotations:>9}  {counts.total:>9}")
    lines.append(f"{len(rows)} boards, {sum(1 for _, c in rows if c.distinct)} with solutions")
    return "\n".join(lines), rows


def summary(puzzle: Puzzle, counts: Counts, backend) -> dict:
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
    return data


def describe_counts(puzzle: Puzzle, counts: Counts) -> str:
    word = "solution" if counts.distinct == 1 else "solutions"
    text = f"{puzzle.board.label}: {counts.distinct} distinct {word}"
    if puzzle.board.dim == 3 and counts.distinct_rotations != counts.distinct:
        # Soma books count up to rotation alone; in the plane, reflections are the custom.
        text += f" ({counts.distinct_rotations} up to rotation alone)"
    text += f", {counts.total} in all"
    if len(puzzle.symmetries) > 1:
        text += f" (symmetry group of order {len(puzzle.symmetries)})"
    if puzzle.impossible:
        text += f"\nno solution: {puzzle.impossible}"
    return text


def no_solution_reasons(puzzle: Puzzle, counts: Counts) -> list[str]:
    """Why a search found nothing, as ``polyfit check`` says it: a piece that fits nowhere, a
    cell no piece covers, a region cut off, a colouring; else the search itself."""
    from polyfit.commands.check import reason_lines
    from polyfit.puzzle.check import explain

    explained = explain(puzzle.board, puzzle.pieces, puzzle=puzzle, certificates="always")
    if explained.reasons:
        return reason_lines(explained)
    return [f"no solution: exhaustive search, {counts.search.nodes} nodes"]


def describe_stats(puzzle: Puzzle, counts: Counts, backend) -> str:
    s = puzzle.placement_stats
    cover = puzzle.cover
    lines = [
        f"placements: {s.generated} generated, {s.pruned_area} pruned by area, "
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
        f"exact cover: {len(cover.problem.items)} items, {len(cover.problem.options)} options"
    )
    lines.append(
        f"search: {counts.search.nodes} nodes, {counts.search.updates} updates, "
        f"{counts.seconds:.3f} s on {backend.name}"
    )
    if counts.memo is not None:
        memo = counts.memo
        lines.append(
            f"cache: {memo.get('entries', 0)} entries, {memo.get('hits', 0)} hits, "
            f"{memo.get('evictions', 0)} evictions, {memo.get('bytes', 0) / 2**20:.1f} MiB"
        )
    return "\n".join(lines)


def solution_json(puzzle: Puzzle, placements) -> dict:
    """{label: cells}: the label is the piece's name, ``NAME#k`` for its k-th copy."""
    return {
        label: [list(c) for c in puzzle.placements[i].cells]
        for label, i in zip(puzzle.labels(placements), placements)
    }


def draw(puzzle: Puzzle, placements) -> str:
    chosen = [puzzle.placements[i] for i in placements]
    covered = {c for p in chosen for c in p.cells}
    empty = [c for c in puzzle.board.optional if c not in covered]
    return draw_solution(puzzle.pieces, chosen, puzzle.labels(placements), empty)


def memo_engine(ctx, puzzle: Puzzle, engine, asked: str, count: bool, memory, sample, split: bool):
    """The backend to count or sample with: ``auto`` takes ``count-memo`` for a count the
    estimate calls long (and no jobs asked for) when pieces repeat, and for ``--sample``;
    ``--memory`` sizes its cache."""
    from polyfit.longsearch.planning import quick_estimate
    from polyfit.puzzle.burnside import auto_counter, parse_memory, usable_memo

    if asked == "auto":
        if sample is not None and not puzzle.cover.problem.has_colours:
            engine = usable_memo(ctx.registry.backends) or engine
        elif count and not split:
            engine = auto_counter(puzzle, ctx.registry.backends, lambda: quick_estimate(puzzle)) or engine
    if sample is not None and not getattr(engine, "memoizes", False):
        raise PolyfitError(f"--sample draws from the counts of a memoizing backend (count-memo, count-memo-python), not {engine.name}")
    if memory is not None:
        if not getattr(engine, "memoizes", False):
            raise PolyfitError(f"--memory sizes the cache of count-memo; backend {engine.name} has none")
        engine = engine.with_memory(parse_memory(memory))
    return engine


def print_sample(puzzle: Puzzle, engine, n: int, seed, as_json: bool, count: bool, limit) -> None:
    """``--sample N``: N solutions drawn uniformly at random, as text art or JSON."""
    if count or limit is not None:
        raise PolyfitError("--sample prints N random solutions; drop --count and --limit")
    drawn = puzzle.sample_placements(engine, n, seed)
    if as_json:
        typer.echo(json.dumps({
            "board": puzzle.board.label,
            "seed": seed,
            "backend": engine.name,
            "solutions": [solution_json(puzzle, p) for p in drawn],
        }))
        return
    for k, placements in enumerate(drawn, 1):
        typer.echo(f"Random solution {k}:")
        typer.echo(draw(puzzle, placements))
        typer.echo()
    if not drawn:
        typer.echo(f"{puzzle.board.label}: no solution to draw")


def add_commands(app: typer.Typer, ctx) -> None:
    @app.command()
    @guarded
    def solve(
        board: Path = typer.Argument(..., help="Board file (text art, voxel text, MagicaVoxel, BurrTools .xmpuzzle, Soma notations)."),
        pieces: Optional[str] = typer.Option(
            None, "--pieces", "-p", help="Piece set(s): a set name, 'set,set:piece,...' or a pieces file. Default: the board's '; pieces:' line."
        ),
        count: bool = typer.Option(False, "--count", help="Count solutions instead of printing them."),
        limit: Optional[int] = typer.Option(None, "--limit", min=1, help="Print at most N solutions."),
        all_: bool = typer.Option(False, "--all", help="Print every solution, not one per symmetry class."),
        as_json: bool = typer.Option(False, "--json", help="Print JSON."),
        stats: bool = typer.Option(False, "--stats", help="Report placements, pruning, items and search nodes."),
        backend: str = typer.Option("auto", "--backend", "-b", help="Solver backend (polyfit backends lists them)."),
        random: Optional[int] = typer.Option(None, "--random", help="Try options in a random order from this seed."),
        output: Optional[Path] = typer.Option(None, "--output", "-o", help="Also write the solutions to this file (format by suffix: .txt, .json, ...)."),
        output_format: Optional[str] = typer.Option(None, "--format", help="Exporter for --output, instead of the suffix."),
        force: bool = typer.Option(False, "--force", help="Overwrite existing output files (--output, --png, --stl, ...)."),
        mirror: bool = typer.Option(False, "--mirror", help="Let every piece be turned over (placed as its mirror image)."),
        png: Optional[Path] = out.PNG,
        view: Optional[str] = out.VIEW,
        cell: int = out.CELL,
        margin: int = out.MARGIN,
        labels: bool = out.LABELS,
        stl: Optional[Path] = out.STL,
        glb: Optional[Path] = out.GLB,
        threemf: Optional[Path] = out.THREEMF,
        obj: Optional[Path] = out.OBJ,
        unit: Optional[float] = out.UNIT,
        gap: float = out.GAP,
        svg: Optional[Path] = out.SVG,
        cut: bool = out.CUT,
        kerf: float = out.KERF,
        pdf: Optional[Path] = out.PDF,
        paper: str = out.PAPER,
        animate: Optional[Path] = typer.Option(None, "--animate", help="Write an animated GIF of the search: placements and backtracks up to the first solution."),
        steps: int = typer.Option(200, "--steps", min=2, help="At most this many frames for --animate (the last steps before the solution)."),
        jobs: Optional[int] = typer.Option(None, "--jobs", "-j", min=1, help="Split the search into jobs run on N local processes (default for --count: every core when the estimate says the search is long)."),
        dask: Optional[str] = typer.Option(None, "--dask", help="Run the jobs on the Dask cluster at this scheduler address (needs polyfit[dask])."),
        checkpoint: Optional[Path] = typer.Option(None, "--checkpoint", help="With --count: save finished jobs to FILE as the search goes (atomically)."),
        resume: Optional[Path] = typer.Option(None, "--resume", help="With --count: go on from the checkpoint FILE, skipping the jobs it has (and keep saving to it)."),
        depth: Optional[int] = typer.Option(None, "--depth", min=1, max=12, help="Split into the branches at this depth of the search tree (default: about 8 jobs per process)."),
        quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar."),
        problem: Optional[str] = typer.Option(None, "--problem", help="A BurrTools .xmpuzzle's problem: its number (from 1) or name (default: the first)."),
        figure: Optional[str] = typer.Option(None, "--figure", help="A Soma file's figure: its number (from 1) or name (default: the first; --count counts them all)."),
        list_: bool = typer.Option(False, "--list", help="List the boards of the file (BurrTools problems, Soma figures) and stop."),
        memory: Optional[str] = typer.Option(None, "--memory", help="Cache size for count-memo (e.g. 500M, 2G; default a quarter of RAM): past it, entries are replaced, never a wrong count."),
        sample: Optional[int] = typer.Option(None, "--sample", min=1, help="Print N solutions drawn independently and uniformly at random among all of them (symmetric copies included)."),
        seed: Optional[int] = typer.Option(None, "--seed", help="Seed for --sample: the same seed draws the same solutions."),
    ):
        """Find every way the pieces fill BOARD; print them, or count them with --count.

        Counts are exact: 'distinct' is one per symmetry class of the board (the number the
        literature quotes), 'in all' counts every rotated and reflected copy.

        Pictures and models: --png FILE draws the printed solutions (--limit N or --all make a
        contact sheet; 3D boards in --view iso, exploded or layers), --svg FILE the same in
        vectors (--svg FILE --cut: the pieces for a laser cutter, --unit mm a cell, --kerf);
        --pdf FILE a printable puzzle sheet; --stl DIR, --glb, --3mf and --obj model the first
        one; --animate FILE.gif shows the search at work.

        Example: polyfit solve shapes/pentomino/6x10.txt --count

        Example: polyfit solve shapes/soma/castle.vox --limit 1 --png castle.png

        Example: polyfit solve puzzle.xmpuzzle --list (then --problem N or NAME)
        """
        from polyfit import longsearch  # loaded when a solve runs, not at every start

        if problem is not None and figure is not None:
            raise PolyfitError("give --problem or --figure, not both")
        select = problem if problem is not None else figure
        if list_:
            typer.echo(list_boards(ctx, board))
            return
        if count and select is None and ctx.registry.holds_many(board):
            from polyfit import api

            if len(api.read_boards(board, plugins=ctx.registry)) > 1:
                table, rows = count_all(ctx, board, pieces, mirror, backend)
                if as_json:
                    typer.echo(json.dumps({"boards": [
                        {"board": label, "distinct": c.distinct, "distinct_rotations": c.distinct_rotations, "total": c.total}
                        for label, c in rows]}))
                else:
                    typer.echo(table)
                return
        stage = "placements"
        try:
            puzzle = load_puzzle(ctx, board, pieces, mirror, select=select)
            pictures = out.Outputs(png, view, cell, margin, labels, stl, glb, threemf, obj, unit, gap, force,
                                   svg, cut, kerf, pdf, paper)
            if pictures.wanted and count:
                raise PolyfitError("--count prints no solutions to draw; drop --count or use --limit N")
            if pictures.wanted or pictures.modifiers:
                pictures.check(puzzle.board.dim, [p.name for p in puzzle.pieces], puzzle.board.cells,
                               puzzle.board.label)
            if animate is not None:
                from polyfit.render.animate import check_animatable

                check_writable(animate, force)
                check_animatable(puzzle)
                pictures.style()
            engine = ctx.registry.backend(backend, puzzle.cover.problem)
            engine = memo_engine(ctx, puzzle, engine, backend, count, memory, sample, longsearch.asks_for_jobs(jobs, dask, checkpoint, resume, depth) or random is not None)
            if sample is not None:
                print_sample(puzzle, engine, sample, seed, as_json, count, limit)
                return
            exporter = None
            if output is not None:
                exporter = ctx.registry.exporter(output, output_format)
                check_writable(output, force)
            if (random is not None or animate is not None) and longsearch.asks_for_jobs(jobs, dask, checkpoint, resume, depth):
                raise PolyfitError("--random and --animate follow one serial search; drop --jobs, --dask, --checkpoint, --resume and --depth")
            stage = "planning the jobs"
            watched = not quiet and not as_json and sys.stderr.isatty()
            bar = []  # the progress bar, shown when the jobs have started

            def show(progress):
                if not bar:
                    from polyfit.commands.progress import ProgressBar

                    bar.append(ProgressBar(progress.jobs, progress.done))
                    bar[0].start()
                bar[0].update(progress)

            search = longsearch.run(
                puzzle, engine, count=count, jobs=jobs, dask=dask, checkpoint=checkpoint, resume=resume,
                depth=depth, seed=random, force=force, watched=watched, on_progress=show if watched else None,
            )
        except KeyboardInterrupt:
            typer.echo(f"interrupted while preparing the puzzle ({stage})", err=True)
            raise typer.Exit(EXIT_INTERRUPTED)
        printed = []
        stopped_early = False
        try:
            for found in search:
                if count or not found.canonical:
                    continue  # each class is printed once, from its canonical solution
                batch = puzzle.cover.orbit(found.placements) if all_ else [found.placements]
                for placements in batch:
                    if limit is not None and len(printed) >= limit:
                        break
                    printed.append(placements)
                    if not as_json:
                        typer.echo(f"Solution {len(printed)}:")
                        typer.echo(draw(puzzle, placements))
                        typer.echo()
                if limit is not None and len(printed) >= limit:
                    stopped_early = True
                    break
        except KeyboardInterrupt:
            for progress in bar:
                progress.stop()
            typer.echo(search.interrupted(), err=True)
            if as_json:
                typer.echo(json.dumps(summary(puzzle, search.counts, engine)))
            raise typer.Exit(EXIT_INTERRUPTED)
        finally:
            search.close()
            for progress in bar:
                progress.stop()
        counts = search.counts

        solution_set = SolutionSet(
            puzzle.board.label,
            puzzle.board.cells,
            puzzle.pieces,
            [solution_json(puzzle, p) for p in printed],
            {} if stopped_early else {"distinct": counts.distinct, "total": counts.total},
            tuple(sorted(puzzle.board.fixed_cells)),
        )
        if exporter is not None:
            # The exporter writes a new file of its own; polyfit puts it in place, over an
            # existing file only with --force.
            with output_file(output, force) as staged:
                exporter.export(solution_set, staged)
        if pictures.wanted:
            for line in pictures.write(solution_set):
                typer.echo(line, err=True)
        if animate is not None:
            from polyfit.render.animate import animate as write_animation

            frames, searched, solved = write_animation(puzzle, animate, steps, pictures.style(), force)
            ending = "ending on the first solution" if solved else "no solution"
            typer.echo(f"wrote {animate} ({frames} frames of {searched} search steps, {ending})", err=True)
        if as_json:
            data = summary(puzzle, counts, engine)
            if search.split:
                data["jobs"] = search.jobs
                data["processes"] = search.processes
            if not count:
                data["solutions"] = [solution_json(puzzle, p) for p in printed]
            if stopped_early:
                for key in ("distinct", "distinct_rotations", "total"):
                    data.pop(key)
            typer.echo(json.dumps(data))
            return
        if stopped_early:
            shown = f"{len(printed)} solution" + ("" if len(printed) == 1 else "s")
            typer.echo(f"(stopped after {shown}; --count counts them all)")
        else:
            typer.echo(describe_counts(puzzle, counts))
            if counts.complete and counts.distinct == 0 and not puzzle.impossible:
                for line in no_solution_reasons(puzzle, counts):
                    typer.echo(line)
        if stats:
            typer.echo(describe_stats(puzzle, counts, engine))
