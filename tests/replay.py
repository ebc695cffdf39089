"""An independent check of a disassembly's move list: it shares no code with polyfit.motion.

Pieces start where the assembly has them, all in one cluster (pieces that may touch). Each move
slides a set of pieces, all of one cluster and not all of it, by a vector along one axis, one
unit step at a time: no step may put a cell where a piece of the same cluster (not moving) is.
A removal must leave the set free for ever: after its slide, no cell of the rest of the cluster
lies ahead of any of its cells on the same line; the cluster then splits in two. At the end,
each cluster is one piece or a set the groups let stay together.

The level text is rebuilt from the moves alone: a cluster's moves come first, then those of the
part that stayed, then those of the part removed; a level is the moves up to the removal, then,
dotted, the levels of the two parts that need more than one move somewhere.
"""

from __future__ import annotations


def replay(pieces, moves, together=()):
    """``pieces``: cells per piece; ``moves``: ``(pieces, by, removed)`` triples; ``together``:
    sets of pieces that may stay as a cluster. Raises AssertionError at the first fault;
    returns the level text the moves make."""
    dim = len(pieces[0][0])
    offset = {p: (0,) * dim for p in range(len(pieces))}
    clusters = [frozenset(range(len(pieces)))]

    def cells_of(p, extra=(0,) * dim):
        return {tuple(c + o + e for c, o, e in zip(cell, offset[p], extra)) for cell in pieces[p]}

    for number, (moving, by, removed) in enumerate(moves, 1):
        moving = frozenset(moving)
        home = [c for c in clusters if moving <= c]
        assert home, f"move {number}: pieces {sorted(moving)} are not in one cluster"
        cluster = home[0]
        assert moving != cluster, f"move {number} moves a whole cluster"
        axes = [i for i, v in enumerate(by) if v]
        assert len(axes) == 1, f"move {number}: {by} is not along one axis"
        axis = axes[0]
        length = abs(by[axis])
        unit = tuple((1 if by[axis] > 0 else -1) if i == axis else 0 for i in range(dim))
        rest = set().union(*(cells_of(p) for p in cluster - moving))
        for step in range(1, length + 1):
            shift = tuple(step * u for u in unit)
            for p in moving:
                hit = cells_of(p, shift) & rest
                assert not hit, f"move {number}, step {step}: piece {p} runs into {sorted(hit)[0]}"
        for p in moving:
            offset[p] = tuple(o + b for o, b in zip(offset[p], by))
        if removed:
            lines = {}  # the rest's cells by the line along the axis they lie on
            for other in rest:
                lines.setdefault(other[:axis] + other[axis + 1:], []).append(other)
            for p in moving:
                for cell in cells_of(p):
                    for other in lines.get(cell[:axis] + cell[axis + 1:], ()):
                        ahead = (other[axis] - cell[axis]) * unit[axis] > 0
                        assert not ahead, f"move {number}: removed piece {p} is still blocked at {other}"
            clusters.remove(cluster)
            clusters += [moving, cluster - moving]
    for cluster in clusters:
        assert len(cluster) == 1 or any(cluster <= frozenset(g) for g in together), (
            f"pieces {sorted(cluster)} stay together but are not a group")
    tree = _level(frozenset(range(len(pieces))), [(frozenset(m), r) for m, _, r in moves], [0])
    return None if tree is None else level_text(tree)


def _level(cluster, moves, at):
    """The level of ``cluster`` from the moves starting at ``at[0]`` (advanced past them), or
    None when the cluster has no moves of its own."""
    if at[0] >= len(moves) or not moves[at[0]][0] <= cluster:
        return None
    count = 0
    while True:
        moving, removed = moves[at[0]]
        at[0] += 1
        count += 1
        if removed:
            break
    left = _level(cluster - moving, moves, at)
    taken = _level(moving, moves, at)
    return (count, left, taken)


def level_text(tree) -> str:
    def multi(t):
        return t is not None and (t[0] > 1 or multi(t[1]) or multi(t[2]))

    def text(t):
        out = str(t[0])
        for part in (t[1], t[2]):
            if multi(part):
                out += "." + text(part)
        return out

    return text(tree)
