"""Knuth's DLX text format for exact cover problems, as read and written by his dlx programs.

The first line names the items, separated by spaces; a ``|`` among them separates the primary
items (before it) from the secondary ones (after it). Every further line is an option: the
names of its items. Lines whose first non-blank character is ``|`` are comments; blank lines
are skipped. Knuth's two extensions are read and written too:

- colours (dlx2): in an option, ``X:c`` gives secondary item ``X`` the colour ``c`` (any
  non-blank text without spaces); options agreeing on ``X``'s colour may be chosen together;
- multiplicities (dlx3): in the item line, ``lo:hi|A`` lets primary item ``A`` be covered
  between ``lo`` and ``hi`` times, ``n|A`` exactly ``n`` times.
"""

from __future__ import annotations

from pathlib import Path

from polyfit.files import decode, read_bytes, split_lines
from polyfit.errors import ParseError
from polyfit.limits import check, limit, number_problem
from polyfit.xc.problem import ExactCoverProblem


def _tokens(line: str):
    """Yield ``(column, token)`` for the space-separated tokens of a line (1-based columns)."""
    col = 0
    n = len(line)
    while col < n:
        while col < n and line[col].isspace():
            col += 1
        start = col
        while col < n and not line[col].isspace():
            col += 1
        if col > start:
            yield start + 1, line[start:col]


def parse_dlx(text: str, path="<text>") -> tuple[ExactCoverProblem, list[str]]:
    """The problem, and each option's line as written (for printing solutions back)."""
    problem = None
    index: dict[str, int] = {}
    colour_index: dict[str, int] = {}
    lines: list[str] = []
    most_options = limit("options")
    for number, line in split_lines(text):
        stripped = line.strip()
        if not stripped or stripped.startswith("|"):
            continue
        if problem is None:
            problem = _parse_items(line, number, path, index)
            continue
        if len(problem.options) >= most_options:
            check("options", len(problem.options) + 1, f"{path}:{number}")
        option, colours = [], []
        seen = set()  # the option's items so far: a list would make a long option quadratic
        for column, token in _tokens(line):
            name, colon, colour = token.partition(":")
            if name not in index:
                raise ParseError(path, number, column, f"unknown item {name!r}")
            if index[name] in seen:
                raise ParseError(path, number, column, f"item {name!r} appears twice in this option")
            seen.add(index[name])
            if colon:
                if index[name] < len(problem.primary):
                    message = f"{token!r}: only secondary items (after '|') take a colour"
                    raise ParseError(path, number, column, message)
                if not colour:
                    raise ParseError(path, number, column, f"{token!r}: no colour after ':'")
                colours.append(colour_index.setdefault(colour, len(colour_index) + 1))
            else:
                colours.append(0)
            option.append(index[name])
        problem.options.append(tuple(option))
        problem.colours.append(tuple(colours))
        lines.append(stripped)
    if problem is None:
        raise ParseError(path, 1, 1, "no item line: the first line must name the items")
    if not any(any(c) for c in problem.colours):
        problem.colours = []
    problem.colour_names = list(colour_index)
    if all(b == (1, 1) for b in problem.bounds):
        problem.bounds = []
    return problem, lines


def _parse_items(line, number, path, index) -> ExactCoverProblem:
    primary: list[str] = []
    secondary: list[str] = []
    bounds: list[tuple[int, int]] = []
    current = primary
    for column, token in _tokens(line):
        if token == "|":
            if current is secondary:
                raise ParseError(path, number, column, "a second '|' in the item line")
            current = secondary
            continue
        bound = (1, 1)
        if "|" in token:
            if current is secondary:
                message = f"{token!r}: only primary items (before '|') take multiplicities"
                raise ParseError(path, number, column, message)
            spec, _, token = token.rpartition("|")
            bound = _bounds(spec, path, number, column)
        if not token or ":" in token or "|" in token:
            message = f"bad item name {token!r}: names are non-blank and have no ':' or '|'"
            raise ParseError(path, number, column, message)
        if token in index:
            raise ParseError(path, number, column, f"item {token!r} is named twice")
        index[token] = len(index)
        current.append(token)
        if current is primary:
            bounds.append(bound)
    if not primary and not secondary:
        raise ParseError(path, number, 1, "the item line names no items")
    check("items", len(primary) + len(secondary), f"{path}:{number}")
    # Indices so far run over primary then secondary in reading order; that is the model's order
    # only if all primary items came first, which the single '|' guarantees.
    return ExactCoverProblem(primary, secondary, [], bounds)


def _bounds(spec: str, path, number: int, column: int) -> tuple[int, int]:
    """``lo:hi`` or ``n`` (meaning ``n:n``) before an item's ``|``."""
    low, colon, high = spec.partition(":")
    if not colon:
        low = high = spec
    if number_problem(low) is not None or number_problem(high) is not None:
        problem = number_problem(low) or number_problem(high)
        raise ParseError(path, number, column, f"multiplicity {spec!r} must be 'lo:hi' or 'n': {problem}")
    lo, hi = int(low), int(high)
    if lo > hi or hi == 0:
        raise ParseError(path, number, column, f"multiplicity {spec!r}: need lo <= hi and hi >= 1")
    return lo, hi


def read_dlx(path) -> tuple[ExactCoverProblem, list[str]]:
    path = Path(path)
    return parse_dlx(decode(read_bytes(path), path), path)


def format_dlx(problem: ExactCoverProblem, comment: str | None = None) -> str:
    names = problem.items
    out = []
    if comment:
        out += [f"| {line}" for line in comment.splitlines()]
    head = " ".join(
        _bounded(name, problem.bound(k)) for k, name in enumerate(problem.primary)
    )
    if problem.secondary:
        head += " | " + " ".join(problem.secondary)
    out.append(head)
    colour_names = problem.colour_names or [str(c) for c in range(1, 1 + _max_colour(problem))]
    for k, option in enumerate(problem.options):
        colours = problem.colours[k] if problem.colours else (0,) * len(option)
        out.append(
            " ".join(
                names[i] + (f":{colour_names[c - 1]}" if c else "") for i, c in zip(option, colours)
            )
        )
    return "\n".join(out) + "\n"


def _bounded(name: str, bound: tuple[int, int]) -> str:
    lo, hi = bound
    if (lo, hi) == (1, 1):
        return name
    return f"{hi}|{name}" if lo == hi else f"{lo}:{hi}|{name}"


def _max_colour(problem: ExactCoverProblem) -> int:
    return max((c for colours in problem.colours for c in colours), default=0)
