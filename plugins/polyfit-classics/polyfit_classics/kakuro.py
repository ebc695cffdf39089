r"""Kakuro (cross sums) as an exact cover problem.

A grid file has one row of the puzzle per line, its cells separated by spaces:

- ``.`` a white cell, to fill with a digit from 1 to 9;
- ``#`` a black cell without clues;
- ``d\r`` a black cell with clues: ``d`` is the sum of the white cells below it (down to the
  next black cell), ``r`` the sum of those to its right; leave out the one it does not have:
  ``16\`` (down only), ``\17`` (across only).

Lines that are blank or start with ``;`` are comments. Every white cell belongs to one run
across and one run down, each starting right after its clue; the digits of a run are all
different and add up to the clue. A grid and its one solution::

    #   4\  3\           # 4\ 3\
    \3  .   .           \3  1  2
    \4  .   .           \4  3  1
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path

from polyfit import ExactCoverProblem, ParseError, PolyfitError

DIGITS = range(1, 10)
CLUE = re.compile(r"([0-9]*)\\([0-9]*)")  # group 1 the sum down, group 2 across
# each way: its name, the step from a clue along its run, the clue's group, where the clue is
WAYS = (("across", (0, 1), 2, "to its left"), ("down", (1, 0), 1, "above it"))

Cell = tuple[int, int]


@dataclass(frozen=True)
class Run:
    """White cells summing to a clue: ``way`` is ``"across"`` or ``"down"``, ``clue`` the
    black cell holding it."""

    way: str
    clue: Cell
    total: int
    cells: tuple[Cell, ...]

    @property
    def name(self) -> str:
        return f"{self.way[0].upper()}{self.clue[0]}_{self.clue[1]}"


@dataclass(frozen=True)
class KakuroGrid:
    tokens: tuple[tuple[str, ...], ...]  # the cells as written, row by row
    white: tuple[Cell, ...]  # row by row
    runs: tuple[Run, ...]

    def text(self, digits: dict[Cell, int] | None = None) -> str:
        """The grid as written, with ``digits`` in its white cells; columns aligned."""
        digits = digits or {}
        rows = [
            [str(digits.get((r, c), token)) if token == "." else token for c, token in enumerate(row)]
            for r, row in enumerate(self.tokens)
        ]
        widths = [max(len(row[c]) for row in rows) for c in range(len(rows[0]))]
        return "\n".join(" ".join(t.rjust(w) for t, w in zip(row, widths)).rstrip() for row in rows)


def read_kakuro(path: str | Path) -> KakuroGrid:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise PolyfitError(f"cannot read {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise PolyfitError(f"{path}: not a text file (UTF-8)") from None
    return parse_kakuro(text, path)


def parse_kakuro(text: str, path: str | Path = "<kakuro>") -> KakuroGrid:
    """Read a grid (the format is in this module's docstring); errors name line and column."""
    rows, where = [], []  # where[r][c]: (line, column) of the cell, for messages
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.lstrip().startswith(";"):
            continue
        tokens = [(m.group(), m.start() + 1) for m in re.finditer(r"\S+", line)]
        if rows and len(tokens) != len(rows[0]):
            # point at the first cell too many, or just past the row's end
            column = tokens[len(rows[0])][1] if len(tokens) > len(rows[0]) else len(line.rstrip()) + 1
            raise ParseError(path, number, column, f"this row has {len(tokens)} cells, the first has {len(rows[0])}")
        for token, column in tokens:
            clue = CLUE.fullmatch(token)
            if token not in (".", "#") and clue is None:
                message = f"{token!r} is not a cell: write '.', '#' or clues such as 16\\23"
                raise ParseError(path, number, column, message)
            for part in clue.groups() if clue else ():
                if part and not 1 <= int(part) <= 45:
                    raise ParseError(path, number, column, f"a clue is a sum from 1 to 45, not {int(part)}")
        rows.append(tuple(t for t, _ in tokens))
        where.append([(number, column) for _, column in tokens])
    if not rows:
        raise ParseError(path, 1, 1, "no grid: write one row of cells per line: '.', '#', clues such as 16\\23")
    white = tuple((r, c) for r, row in enumerate(rows) for c, t in enumerate(row) if t == ".")
    if not white:
        raise ParseError(path, *where[0][0], "the grid has no white cells ('.') to fill")
    return KakuroGrid(tuple(rows), white, _runs(rows, white, where, path))


def _runs(rows, white, where, path) -> tuple[Run, ...]:
    """The run after each clue; every white cell must be in one run each way."""
    runs = []
    for way, (dr, dc), group, before in WAYS:
        in_a_run = set()
        for r, row in enumerate(rows):
            for c, token in enumerate(row):
                clue = CLUE.fullmatch(token)
                if not (clue and clue.group(group)):
                    continue
                cells, (rr, cc) = [], (r + dr, c + dc)
                while rr < len(rows) and cc < len(row) and rows[rr][cc] == ".":
                    cells.append((rr, cc))
                    rr, cc = rr + dr, cc + dc
                if not cells:
                    raise ParseError(path, *where[r][c], f"a clue {way} with no white cells to sum")
                if len(cells) > 9:
                    message = f"a run of {len(cells)} white cells; at most 9 hold different digits"
                    raise ParseError(path, *where[r][c], message)
                runs.append(Run(way, (r, c), int(clue.group(group)), tuple(cells)))
                in_a_run.update(cells)
        for r, c in white:  # row by row, so the first one left out starts its run
            if (r, c) not in in_a_run:
                message = f"this white cell starts a run {way} but has no {way} clue {before}"
                raise ParseError(path, *where[r][c], message)
    return tuple(runs)


def kakuro_problem(grid: KakuroGrid) -> tuple[ExactCoverProblem, list[tuple[Cell, int] | None]]:
    """The grid as exact cover, and what each option means: ``(cell, digit)``, or None.

    Primary items: one per white cell (it takes one digit), and per run one item for each digit
    1-9 plus one for the run itself. A cell taking digit ``d`` covers ``d`` in its run across and
    in its run down, so no digit repeats in a run. The digits a run of ``k`` cells leaves out
    are covered by one more option: a set of ``9 - k`` different digits adding up to ``45 -
    total`` (with the run's own item, so exactly one such set is chosen). The cells then hold
    the other ``k`` digits, which add up to ``total``: both rules are exact cover constraints.
    """
    primary = [f"c{r}_{c}" for r, c in grid.white]
    index = {cell: k for k, cell in enumerate(grid.white)}
    run_item, digit_item = {}, {}
    for run in grid.runs:
        run_item[run.name] = len(primary)
        primary.append(run.name)
        for d in DIGITS:
            digit_item[run.name, d] = len(primary)
            primary.append(f"{run.name}d{d}")
    run_of = {(run.way, cell): run for run in grid.runs for cell in run.cells}
    options, meaning = [], []
    for cell in grid.white:
        across, down = run_of["across", cell], run_of["down", cell]
        for d in DIGITS:
            options.append((index[cell], digit_item[across.name, d], digit_item[down.name, d]))
            meaning.append((cell, d))
    for run in grid.runs:
        for missing in combinations(DIGITS, 9 - len(run.cells)):
            if sum(missing) == 45 - run.total:
                options.append((run_item[run.name],) + tuple(digit_item[run.name, d] for d in missing))
                meaning.append(None)
    return ExactCoverProblem(primary, [], options), meaning


def solution_digits(solution, meaning) -> dict[Cell, int]:
    """The digit in each white cell, from a solution's option indices."""
    return dict(meaning[k] for k in solution if meaning[k] is not None)
