"""``polyfit solve --disassemble``: which solutions come apart, their levels and moves.

The library computes (:meth:`polyfit.Puzzle.disassemblies`, ``Puzzle.count(disassemble=True)``)
and :mod:`polyfit.report` words it; this parses and prints."""

from __future__ import annotations

import json
import sys
from typing import Optional

import typer

from polyfit import report
from polyfit.errors import PolyfitError, plural
from polyfit.records import Record

class Disassembly(Record):
    """What ``solve`` was asked about disassembly."""

    __slots__ = ("wanted", "moves", "max_states", "ruler")

    def __init__(self, wanted: bool = False, moves: bool = False, max_states: Optional[int] = None,
                 ruler: str = "burrtools"):
        self.wanted, self.moves, self.max_states, self.ruler = wanted, moves, max_states, ruler

    def check(self) -> None:
        if not self.wanted and (self.moves or self.max_states is not None or self.ruler != "burrtools"):
            raise PolyfitError("--moves, --max-states and --ruler go with --disassemble")
        if self.ruler == "burrtools":
            return  # the default: no need to load the disassembler to know it
        from polyfit.motion.disassembly import RULERS

        if self.ruler not in RULERS:
            from polyfit.errors import UnknownNameError

            raise UnknownNameError("ruler", self.ruler, RULERS)


def options(
    disassemble: bool = typer.Option(False, "--disassemble", help="Only solutions that come apart (BurrTools' moves), with their level; with --count, count them."),
    moves: bool = typer.Option(False, "--moves", help="With --disassemble: print each solution's moves."),
    max_states: Optional[int] = typer.Option(None, "--max-states", min=1, help="With --disassemble: give up on an assembly after N states (its level is then unknown)."),
    ruler: str = typer.Option("burrtools", "--ruler", help="With --disassemble: what a level measures: burrtools (its plan, as BurrTools prints it) or exact (the fewest moves over every plan; never above BurrTools')."),
) -> Disassembly:
    return Disassembly(disassemble, moves, max_states, ruler)


def refuse(**given) -> None:
    """--disassemble takes one solution per class from one search: some options do not fit."""
    wrong = [name for name, value in given.items() if value not in (None, False)]
    if wrong:
        raise PolyfitError(f"--disassemble does not go with {', '.join(wrong)}; drop {'it' if len(wrong) == 1 else 'them'}")


def run(puzzle, asked: Disassembly, count: bool, limit, as_json: bool, search, files, all_, sample) -> None:
    moves, max_states, ruler = asked.moves, asked.max_states, asked.ruler
    refuse(**{"--all": all_, "--random": search.random, "--sample": sample,
              "--dask": search.dask, "--checkpoint": search.checkpoint, "--resume": search.resume,
              "--depth": search.depth})
    if count and files.pictures.output:
        raise PolyfitError("--count prints no solutions to write; drop --count or use --limit N")
    if count and files.animate is not None:
        raise PolyfitError("--animate with --disassemble draws the first solution coming apart; drop --count")
    if files.animate is not None and puzzle.board.dim != 3:
        raise PolyfitError("disassembly animations are drawn for 3D puzzles (cubes)")
    if count:
        bar = None
        if not search.quiet and not as_json and sys.stderr.isatty():
            from polyfit.commands.progress import TallyBar

            bar = TallyBar()
        try:
            counts = puzzle.count(search.backend, jobs=search.jobs or 1, disassemble=True, max_states=max_states,
                                  on_progress=None if bar is None else bar.show, ruler=ruler)
        finally:
            if bar is not None:
                bar.stop()
        if as_json:
            engine = puzzle.plan("solutions", search.backend).backend
            typer.echo(json.dumps(report.disassembly_json(report.counts_json(puzzle, counts, engine), counts.disassembly)))
        else:
            typer.echo(report.disassembly_text(puzzle, counts.disassembly))
        return
    shown, taken_apart, groups, looked, stopped = [], [], [], 0, False
    for solution, taken in puzzle.disassemblies(backend=search.backend, max_states=max_states, every=True,
                                                       ruler=ruler):
        looked += 1
        groups = taken.groups
        if not taken.separates:
            continue
        if limit is not None and len(shown) >= limit:
            stopped = True
            break
        shown.append(solution)
        taken_apart.append(taken)
        if not as_json:
            by = "" if ruler == "burrtools" else f" by the {ruler} ruler"
            typer.echo(f"Solution {len(shown)} (level {taken.level}{by}, {plural(taken.total, 'move')}):")
            typer.echo(solution.text())
            if moves:
                typer.echo(report.moves_text(taken))
            typer.echo()
    extra = {"disassemblies": [t.to_json() for t in taken_apart], "groups": groups}
    animate, files.animate = files.animate, None  # --animate: the first one coming apart, not the search
    files.write(puzzle, shown, extra=extra)
    if animate is not None and taken_apart:
        from polyfit.render.disassembly import animate_disassembly
        from polyfit.render.pictures import picture_style

        style = picture_style(files.pictures.cell, files.pictures.margin, files.pictures.labels)
        frames = animate_disassembly(animate, shown[0].to_json(), taken_apart[0].moves, puzzle.pieces,
                                     style, files.force)
        typer.echo(f"wrote {animate} ({frames} frames: solution 1 coming apart)", err=True)
    if as_json:
        typer.echo(json.dumps({"board": puzzle.board.label, "solutions": [s.to_json() for s in shown], **extra}))
    elif stopped:
        verb = "comes" if len(shown) == 1 else "come"
        typer.echo(f"(stopped after {plural(len(shown), 'solution')} that {verb} apart; --count counts them all)")
    else:
        typer.echo(f"{puzzle.board.label}: {len(shown)} of {plural(looked, 'assembly', 'assemblies')} come apart")
