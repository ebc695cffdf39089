"""Numbers and limits: one parser for every number polyfit reads, one limit per resource.

Every count, range, bound and size in every format goes through :func:`parse_number` (ASCII
digits only: ``²`` or ``٣`` are not numbers here, whatever ``str.isdigit`` says) with the range
it allows, so a bad or huge number is one clear error, never an ``OverflowError`` or a search
that cannot end.

Each resource has one documented limit, far beyond any real puzzle, so that a small hostile or
mistaken file cannot make polyfit work or allocate without bound. A limit is raised with its
environment variable; the error says which::

    POLYFIT_MAX_CELLS=5000000 polyfit solve huge.txt
"""

from __future__ import annotations

import os
import re

from polyfit.errors import PolyfitError


class LimitError(PolyfitError):
    """An input goes past one of polyfit's limits; names the limit and how to raise it."""


# name: (default, unit, what it limits)
LIMITS = {
    "file-bytes": (64 * 1024 * 1024, "bytes", "the size of a file polyfit reads"),
    "cells": (1_000_000, "cells", "the cells of a board or a piece"),
    "box": (10_000_000, "cells", "the box around a board: width times height (times depth in 3D)"),
    "placements": (5_000_000, "placements", "the placements of the pieces on a board"),
    "voxel-placements": (1_000_000, "voxels", "the voxels a MagicaVoxel scene graph places"),
    "items": (1_000_000, "items", "the items of an exact cover problem"),
    "options": (5_000_000, "options", "the options of an exact cover problem"),
    "number": (2**31 - 1, "", "the largest number in a file or a count"),
    "targets": (1_000_000, "targets", "the targets a calendar board's '; leave:' line names"),
    "request-bytes": (512 * 1024, "bytes", "the body of a request to polyfit studio"),
    "pixels": (100_000_000, "pixels", "the pixels of a picture polyfit draws"),
}


PROCESSES_PER_CORE = 4  # worker processes beyond this many a core run no faster


def cores() -> int:
    """The processors this process may run on."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def most_processes() -> int:
    """The most local worker processes ``--jobs`` may start: ``PROCESSES_PER_CORE`` a core,
    and at least 8 (a cluster is ``--dask``'s)."""
    return max(8, PROCESSES_PER_CORE * cores())


def check_processes(number: int, option: str = "--jobs") -> None:
    """Refuse more local worker processes than :func:`most_processes` (``--jobs 100000``
    forked thousands of processes), or fewer than 1."""
    most = most_processes()
    if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= most:
        raise LimitError(
            f"{option} takes 1 to {most} worker processes here ({PROCESSES_PER_CORE} a core, at least 8; "
            f"more run no faster), not {number}; a cluster runs jobs with --dask"
        )


def variable(name: str) -> str:
    return "POLYFIT_MAX_" + name.upper().replace("-", "_")


def limit(name: str) -> int:
    """The limit in force: the default, or the environment variable's value."""
    default, _, what = LIMITS[name]
    text = os.environ.get(variable(name))
    if text is None:
        return default
    if not re.fullmatch(r"[0-9]{1,18}", text.strip()):
        raise PolyfitError(f"{variable(name)} must be a whole number (it limits {what}), not {text!r}")
    return int(text)


def check(name: str, value: int, where: str) -> None:
    """Refuse ``value`` when it is over the limit ``name``; ``where`` says what has it."""
    most = limit(name)
    if value > most:
        _, unit, what = LIMITS[name]
        raise LimitError(
            f"{where}: {value:,} {unit}, over polyfit's limit of {most:,} on {what} "
            f"(raise it with {variable(name)}=N if you mean it)"
        )


_DIGITS = re.compile(r"[0-9]+")


def number_problem(text: str, low: int = 0, high: int | None = None) -> str | None:
    """What is wrong with ``text`` as a whole number from ``low`` to ``high`` (default: the
    ``number`` limit), or None."""
    text = text.strip()
    if high is None:
        high = limit("number")
    if not _DIGITS.fullmatch(text):
        return "write a whole number with the digits 0-9"
    if len(text) > 30 or int(text) > high:
        return f"at most {high:,} is allowed"
    if int(text) < low:
        return f"at least {low} is needed"
    return None


def parse_number(text: str, what: str, low: int = 0, high: int | None = None) -> int:
    """A whole number written in ASCII digits, from ``low`` to ``high`` (default: the
    ``number`` limit). Raises PolyfitError naming ``what`` it should be."""
    problem = number_problem(text, low, high)
    if problem is not None:
        raise PolyfitError(f"{what} {text.strip()[:40]!r}: {problem}")
    return int(text)


def parse_range(text: str, what: str, low: int = 0, high: int | None = None) -> tuple[int, int]:
    """``n`` or ``lo..hi`` as ``(lo, hi)``, each end a number from ``low`` to ``high``; the low
    end may not be above the high end."""
    first, dots, second = text.strip().partition("..")
    if not dots:
        second = first
    shown = text.strip()[:40]
    for end in (first, second):
        problem = number_problem(end, low, high)
        if problem is not None:
            if problem.startswith("write"):
                problem = "write a number n or a range lo..hi, with the digits 0-9"
            raise PolyfitError(f"{what} {shown!r}: {problem}")
    lo, hi = int(first), int(second)
    if lo > hi:
        raise PolyfitError(f"{what} {shown!r}: the low end {lo} is above the high end {hi}")
    return lo, hi
