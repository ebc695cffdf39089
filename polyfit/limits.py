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
}


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


def parse_number(text: str, what: str, low: int = 0, high: int | None = None) -> int:
    """A whole number written in ASCII digits, from ``low`` to ``high`` (default: the
    ``number`` limit). Raises PolyfitError saying ``what`` it should be."""
    text = text.strip()
    if high is None:
        high = limit("number")
    if not _DIGITS.fullmatch(text):
        raise PolyfitError(f"{what} must be a whole number written with the digits 0-9, not {text!r}")
    if len(text) > 30 or int(text) > high:
        raise PolyfitError(f"{what} is {text[:30]}{'...' if len(text) > 30 else ''}: at most {high:,} is allowed")
    value = int(text)
    if value < low:
        raise PolyfitError(f"{what} is {value}: at least {low} is needed")
    return value
