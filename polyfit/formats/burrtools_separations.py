"""BurrTools' ``<separation>`` trees, how a saved solution comes apart: read from an
``.xmpuzzle`` file (:func:`separation_tree`, for
:func:`polyfit.formats.burrtools.read_separations`) and written into one
(:func:`separation_lines`, for :func:`polyfit.formats.burrtools.xmpuzzle_text`). Only these
load this module: a count does not. Its names are reachable from
:mod:`polyfit.formats.burrtools` too.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from polyfit.errors import ParseError
from polyfit.formats.burrtools_xml import Node, int_attribute


@dataclass(frozen=True)
class BurrSeparation:
    """A ``<separation>`` as BurrTools saves one: the ``pieces`` of a part (BurrTools' piece
    numbers), its ``states`` (``(dx, dy, dz)``: each piece's position, one tuple per axis),
    from the start to the removal, where the removed pieces stand more than 10000 out; the
    trees of the part ``left`` and the part ``removed`` (None: one piece, or a group)."""

    pieces: tuple
    states: tuple
    left: BurrSeparation | None = None
    removed: BurrSeparation | None = None

    def moves(self) -> int:
        return len(self.states) - 1

    def multi(self) -> bool:
        return self.moves() > 1 or any(p is not None and p.multi() for p in (self.left, self.removed))

    def level(self) -> str:
        """BurrTools' level text: this part's moves, then the left part's and the removed
        part's levels where they need more than one move."""
        text = str(self.moves())
        for part in (self.left, self.removed):
            if part is not None and part.multi():
                text += "." + part.level()
        return text

    def total(self) -> int:
        return self.moves() + sum(p.total() for p in (self.left, self.removed) if p is not None)


def _numbers(node: Node, path, count: int, negative: bool) -> tuple:
    tokens = node.text.split()
    pattern = r"-?[0-9]{1,9}" if negative else r"[0-9]{1,9}"
    if len(tokens) != count or not all(re.fullmatch(pattern, t) for t in tokens):
        what = "numbers" if negative else "numbers of 0 or more"
        raise ParseError(path, node.line, node.column, f"<{node.tag}> needs {count} {what}, one per piece of its part; it has {node.text.strip()[:60]!r}")
    return tuple(int(t) for t in tokens)


def separation_tree(node: Node, path, count: int, depth: int = 0) -> BurrSeparation:
    """A ``<separation>`` of ``count`` pieces, checked as BurrTools checks it when it loads one."""
    if depth > 60:
        raise ParseError(path, node.line, node.column, "the <separation> tree is nested too deeply")
    lists = node.find("pieces")
    if len(lists) != 1:
        raise ParseError(path, node.line, node.column, "a <separation> needs one <pieces count=...> list")
    given = int_attribute(lists[0], "count", path, 0, 10_000)
    if given != count:
        raise ParseError(path, lists[0].line, lists[0].column, f"<pieces count=\"{given}\">: this part has {count} pieces")
    pieces = _numbers(lists[0], path, count, False)
    states = []
    for state in node.find("state"):
        axes = []
        for axis in ("dx", "dy", "dz"):
            found = state.find(axis)
            if len(found) != 1:
                raise ParseError(path, state.line, state.column, f"a <state> needs one <{axis}>")
            axes.append(_numbers(found[0], path, count, True))
        states.append(tuple(axes))
    if not states:
        raise ParseError(path, node.line, node.column, "a <separation> needs at least one <state>")
    out = [any(abs(axis[k]) > 10000 for axis in states[-1]) for k in range(count)]
    parts = {"left": None, "removed": None}
    for sub in node.find("separation"):
        kind = sub.attrs.get("type", "")
        if kind not in parts:
            raise ParseError(path, sub.line, sub.column, f"a <separation> inside another has type \"left\" or \"removed\", not {kind[:20]!r}")
        if parts[kind] is not None:
            raise ParseError(path, sub.line, sub.column, f"a second {kind} part in one <separation>")
        size = sum(out) if kind == "removed" else count - sum(out)
        if sum(out) == 0 or sum(out) == count:
            raise ParseError(path, sub.line, sub.column, "the last state before a part's tree must remove some pieces and leave others")
        parts[kind] = separation_tree(sub, path, size, depth + 1)
    return BurrSeparation(pieces, tuple(states), parts["left"], parts["removed"])


# BurrTools writes a removed piece this far out along the way it left (|coordinate| > 10000
# marks it removed when the tree is read).
REMOVED_AT = 20000


def separation_lines(tree, places, directions, vector, indent: str = "", kind: str | None = None) -> list[str]:
    """A tree of separations as BurrTools' ``<separation>`` XML: ``places[p]`` is piece
    ``p``'s ``(BurrTools number, (x, y, z))`` in the assembly, ``vector`` turns a vector of
    cells (the disassembler's offsets and directions) into ``(x, y, z)``. Each part lists its
    pieces (by number), then one ``<state>`` per position of them (``<dx> <dy> <dz>``: where
    each piece is, the assembly's place plus its offset) from the start to the removal, where
    the removed pieces stand :data:`REMOVED_AT` out along their way; then the trees of the part
    removed and of the part left (none for a part that is one piece or a group)."""
    order = sorted(range(len(tree.pieces)), key=lambda k: places[tree.pieces[k]][0])
    dim = len(directions[0])

    def state(offsets, out=frozenset(), away=(0, 0, 0)):
        where = []
        for k in order:
            p = tree.pieces[k]
            moved = vector(offsets[k * dim:(k + 1) * dim])
            gone = REMOVED_AT if p in out else 0
            where.append(tuple(a + b + gone * c for a, b, c in zip(places[p][1], moved, away)))
        pad = indent + "  "
        return [f"{pad}<state>"] + [
            f"{pad}  <d{axis}>{' '.join(str(w[i]) for w in where)}</d{axis}>" for i, axis in enumerate("xyz")
        ] + [f"{pad}</state>"]

    head = f'{indent}<separation type="{kind}">' if kind else f"{indent}<separation>"
    numbers = " ".join(str(places[tree.pieces[k]][0]) for k in order)
    lines = [head, f'{indent}  <pieces count="{len(order)}">{numbers}</pieces>']
    for step in tree.steps:
        lines += state(step.offsets)
    last = tree.steps[-1]
    sign = -1 if last.direction & 1 else 1
    away = vector(tuple(sign * v for v in directions[last.direction >> 1]))
    lines += state(last.offsets, frozenset(last.pieces), away)
    for part, name in ((tree.removed, "removed"), (tree.left, "left")):
        if part is not None:
            lines += separation_lines(part, places, directions, vector, indent + "  ", name)
    lines.append(f"{indent}</separation>")
    return lines
