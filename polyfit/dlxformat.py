"""Knuth's DLX text format for exact cover problems, as read and written by his dlx programs.

The first line names the items, separated by spaces; a ``|`` among them separates the primary
items (before it) from the secondary ones (after it). Every further line is an option: the
names of its items. Lines whose first non-blank character is ``|`` are comments; blank lines
are skipped. Knuth's extensions, ``item:colour`` (dlx2) and ``lo:hi|item`` multiplicities
(dlx3), are recognised and refused with a clear message until polyfit's core supports them.
"""

from __future__ import annotations

from pathlib import Path

from .board import decode, read_bytes, split_lines
from .errors import ParseError
from .exactcover import ExactCoverProblem


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
    lines: list[str] = []
    for number, line in split_lines(text):
        stripped = line.strip()
        if not stripped or stripped.startswith("|"):
            continue
        if problem is None:
            problem = _parse_items(line, number, path, index)
            continue
        option = []
        for column, token in _tokens(line):
            if ":" in token:
                raise ParseError(path, number, column, f"item colours ({token!r}) are not supported yet")
            if token not in index:
                raise ParseError(path, number, column, f"unknown item {token!r}")
            if index[token] in option:
                raise ParseError(path, number, column, f"item {token!r} appears twice in this option")
            option.append(index[token])
        problem.options.append(tuple(option))
        lines.append(stripped)
    if problem is None:
        raise ParseError(path, 1, 1, "no item line: the first line must name the items")
    return problem, lines


def _parse_items(line, number, path, index) -> ExactCoverProblem:
    primary: list[str] = []
    secondary: list[str] = []
    current = primary
    for column, token in _tokens(line):
        if token == "|":
            if current is secondary:
                raise ParseError(path, number, column, "a second '|' in the item line")
            current = secondary
            continue
        if "|" in token or ":" in token:
            what = "multiplicities (lo:hi|item)" if "|" in token else "item names with ':'"
            raise ParseError(path, number, column, f"{what} are not supported yet: {token!r}")
        if token in index:
            raise ParseError(path, number, column, f"item {token!r} is named twice")
        index[token] = len(index)
        current.append(token)
    if not primary and not secondary:
        raise ParseError(path, number, 1, "the item line names no items")
    # Indices so far run over primary then secondary in reading order; that is the model's order
    # only if all primary items came first, which the single '|' guarantees.
    return ExactCoverProblem(primary, secondary, [])


def read_dlx(path) -> tuple[ExactCoverProblem, list[str]]:
    path = Path(path)
    return parse_dlx(decode(read_bytes(path), path), path)


def format_dlx(problem: ExactCoverProblem, comment: str | None = None) -> str:
    names = problem.items
    out = []
    if comment:
        out += [f"| {line}" for line in comment.splitlines()]
    head = " ".join(problem.primary)
    if problem.secondary:
        head += " | " + " ".join(problem.secondary)
    out.append(head)
    for option in problem.options:
        out.append(" ".join(names[i] for i in option))
    return "\n".join(out) + "\n"
