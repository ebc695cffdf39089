"""The exact ruler: the fewest moves to the first separation over every plan, in pure Python
(the reference twin of ``_motion``'s ``exact``, move for move).

Chen, Wang, Song and Bickel ("Computational Design of High-level Interlocking Puzzles",
SIGGRAPH 2022) put every state of an assembly and every move between them in one graph, the
*disassembly graph*; its *kernel* is the part before anything comes out, and the level is the
length of a shortest path through it to a state where a subassembly can be taken out, plus that
removal. Here a **move** slides any set of pieces, connected or not, along one axis by any
distance, through free space; as a move of a set and the opposite move of the rest give the same
state (states are offsets relative to the first piece), the moves from a state are, for each
axis, the sets that can slide its positive way:

- a set ``S`` can slide one step along an axis when no piece of ``S`` is blocked by a piece
  outside it: ``S`` is *closed* under "``i`` in ``S`` touches ``j`` ahead of it: ``j`` in
  ``S``". The closed sets are listed without trying every subset (:func:`closed_sets`);
- it slides ``1 .. m`` steps, ``m`` the least pair limit from a piece of ``S`` to a piece outside
  (:class:`polyfit.motion.search.Context` caches them); ``S`` is **removed** when ``m`` is
  infinite (every piece of ``S`` free of every piece outside, along that axis).

What the move list shows is the smaller side (or the lighter one: the heavier stays put, as in
BurrTools) moving.

The search is breadth first over every state (not only the nearest fronts), in a fixed order:
the states of one distance in the order they were met; from a state, the axes in order, the
closed sets in :func:`closed_sets`' order, the lengths from 1. :func:`separations` returns the
separations of the first distance (from a given one on) that has any: each a path from the
start to the state where a set comes out, and that set. :class:`ExactJob` tries them in that
order, taking the two parts apart the same way; the first whose parts both come apart (or may
stay together as a group) is the plan: when none does, the search goes on to the next distance,
so an assembly is "stuck" only when no plan at all takes it apart. The first number of the level
is thus exact over every plan; the later ones are exact for the parts as that first separation
leaves them.

BurrTools' own moves (:mod:`polyfit.motion.search`) are sets a push drags along and their
unions, tried in its order, and it takes the first separation it meets: where that plan works
its first number is the same (the same graph, searched breadth first), but where a part it
leaves is stuck it gives up, while here another plan may take the assembly apart.
"""

from __future__ import annotations

from polyfit.motion.plan import Separation, _Capped, _Job, split_at
from polyfit.motion.search import FREE, FOUND, REMOVE, STUCK, UNKNOWN, state_cost, state_key
from polyfit.motion.search import Context as PythonContext


def closed_sets(n: int, closure, above):
    """Every set of the ``n`` pieces (bits) that holds, with each piece ``i``, ``closure[i]``
    (the pieces ``i`` needs: itself and what blocks it, transitively); ``above[i]``: the pieces
    whose closure holds ``i``. Depth first over the pieces in order, "in" before "out"."""
    stack = [(0, 0, 0)]
    while stack:
        i, inside, outside = stack.pop()
        while i < n and (inside >> i & 1 or outside >> i & 1):
            i += 1
        if i == n:
            yield inside
            continue
        out = outside | above[i]
        if not out & inside:
            stack.append((i + 1, inside, out))
        into = inside | closure[i]
        if not into & outside:
            stack.append((i + 1, into, outside))


def closures(n: int, blocked) -> tuple[list, list]:
    """``blocked[i]``: the pieces right ahead of ``i`` (bits). The transitive closures (each
    with its piece) and, for each piece, the pieces whose closure holds it."""
    closure = []
    for i in range(n):
        seen = 1 << i
        todo = [i]
        while todo:
            j = todo.pop()
            new = blocked[j] & ~seen
            seen |= new
            todo.extend(k for k in range(n) if new >> k & 1)
        closure.append(seen)
    above = [sum(1 << j for j in range(n) if closure[j] >> i & 1) for i in range(n)]
    return closure, above


def shown(moving: int, full: int, weights) -> bool:
    """Is ``moving`` (bits), rather than the rest of ``full``, the side shown moving? The
    heavier side (by its heaviest piece) stays put; of equal weights the larger; of equal sizes
    the one with the first piece."""
    rest = full ^ moving
    heavy_moving = max(w for i, w in enumerate(weights) if moving >> i & 1)
    heavy_rest = max(w for i, w in enumerate(weights) if rest >> i & 1)
    if heavy_moving != heavy_rest:
        return heavy_moving < heavy_rest
    size_moving, size_rest = bin(moving).count("1"), bin(rest).count("1")
    if size_moving != size_rest:
        return size_moving < size_rest
    return not moving & 1


class _State:
    __slots__ = ("positions", "parent", "direction", "amount", "key")

    def __init__(self, positions, parent, direction, amount, key):
        self.positions = positions
        self.parent = parent
        self.direction = direction
        self.amount = amount
        self.key = key


def separations(context, shapes, bases, weights, start, min_level, max_states, max_bytes):
    """The separations of the nearest level (moves to them, the removal counted) at or above
    ``min_level``: ``(FOUND, states, level, paths)``, each path from the start to the
    separating state as ``(positions, removed, direction, amount)`` (the last entry the removal:
    the set removed, its direction, ``REMOVE``); ``(STUCK, states, farthest, [])`` when the
    whole component has no more, ``farthest`` the moves to its farthest state;
    ``(UNKNOWN, states, 0, [])`` at a cap."""
    return _Exact(context, shapes, bases, weights, max_states, max_bytes).run(tuple(start), min_level)


class _Exact:
    def __init__(self, context, shapes, bases, weights, max_states, max_bytes):
        self.context = context
        self.dim = context.dim
        self.shapes, self.bases, self.weights = tuple(shapes), tuple(bases), tuple(weights)
        self.n = len(self.shapes)
        self.full = (1 << self.n) - 1
        self.max_states, self.max_bytes = max_states, max_bytes

    def limits(self, positions):
        """``table[k][i][j]``: how far piece ``i`` slides along axis ``k`` (positive) while
        ``j`` stands."""
        dim, n = self.dim, self.n
        where = [tuple(self.bases[i * dim + c] + positions[i * dim + c] for c in range(dim)) for i in range(n)]
        axes = len(self.context.axes)
        table = [[[FREE] * n for _ in range(n)] for _ in range(axes)]
        for i in range(n):
            for j in range(n):
                if i != j:
                    offset = tuple(b - a for a, b in zip(where[i], where[j]))
                    values = self.context.pair_limits(self.shapes[i], self.shapes[j], offset)
                    for k in range(axes):
                        table[k][i][j] = values[k]
        return table

    def sets(self, rows, below):
        """The sets closed under "``i`` in, ``rows[i][j] < below``: ``j`` in", but the empty
        and the full one."""
        n = self.n
        blocked = [sum(1 << j for j in range(n) if j != i and rows[i][j] < below) for i in range(n)]
        closure, above = closures(n, blocked)
        for moving in closed_sets(n, closure, above):
            if moving and moving != self.full:
                yield moving

    def shown(self, moving, direction):
        """The side shown moving (:func:`shown`)."""
        if shown(moving, self.full, self.weights):
            return moving, direction
        return moving ^ self.full, direction ^ 1

    def removals(self, state):
        """The sets that can leave the state, one per way of parting the pieces: ``(moving,
        direction)`` with the side shown moving."""
        table = self.limits(state.positions)
        found, parted = [], set()
        for axis, rows in enumerate(table):
            for moving in self.sets(rows, FREE):
                part = moving if not moving & 1 else moving ^ self.full
                if part in parted:
                    continue
                parted.add(part)
                found.append(self.shown(moving, 2 * axis))
        return found

    def moves(self, state):
        dim, n = self.dim, self.n
        table = self.limits(state.positions)
        for axis, rows in enumerate(table):
            coordinate = self.context.axes[axis]
            for moving in self.sets(rows, 1):
                most = min(rows[i][j] for i in range(n) if moving >> i & 1 for j in range(n) if not moving >> j & 1)
                if most >= FREE:
                    continue  # a removal, not a move
                for amount in range(1, most + 1):
                    shown, direction = self.shown(moving, 2 * axis)
                    delta = -amount if direction & 1 else amount
                    moved = list(state.positions)
                    for i in range(n):
                        if shown >> i & 1:
                            moved[i * dim + coordinate] += delta
                    moved = tuple(moved)
                    yield _State(moved, state, direction, amount, state_key(moved, dim))

    def run(self, start, min_level):
        root = _State(start, None, -1, 0, state_key(start, self.dim))
        seen = {root.key}
        layer = [root]
        states = 1
        cost = state_cost(self.n)
        level = 1  # the level of a separation from this layer
        while layer:
            if level >= min_level:
                paths = [_path(state, moving, direction)
                         for state in layer for moving, direction in self.removals(state)]
                if paths:
                    return FOUND, states, level, paths
            following = []
            for state in layer:
                for child in self.moves(state):
                    if child.key in seen:
                        continue
                    seen.add(child.key)
                    following.append(child)
                    states += 1
                    if states > self.max_states or states * cost > self.max_bytes:
                        return UNKNOWN, states, 0, []
            layer = following
            level += 1
        return STUCK, states, level - 2, []


def _path(state, removed, direction):
    path = [(state.positions, removed, direction, REMOVE)]
    while state is not None:
        path.append((state.positions, 0, state.direction, state.amount))
        state = state.parent
    path.reverse()
    return path


def exact_search(context, shapes, bases, weights, start, min_level, max_states, max_bytes):
    """:func:`separations` on the twin ``context`` belongs to (Python, or C's ``exact``)."""
    if isinstance(context, PythonContext):
        return separations(context, shapes, bases, weights, start, min_level, max_states, max_bytes)
    return context.exact(shapes, bases, weights, start, min_level, max_states, max_bytes)


class ExactJob(_Job):
    """One assembly taken apart with the exact ruler (see the module): each part by the least
    plan, compared by :func:`rank`."""

    def __init__(self, *args):
        super().__init__(*args)
        self.done = {}  # (pieces, offsets) -> (rank, tree), or None when no plan takes it apart

    def part(self, pieces, start):
        found = self.least(tuple(pieces), tuple(start))
        return None if found is None else found[1]

    def least(self, pieces, start):
        """``(rank, tree)`` of the least plan that takes the part apart from ``start``, or None."""
        key = (pieces, start)
        if key in self.done:
            return self.done[key]
        owner = self.owner
        shapes = [self.shapes[p] for p in pieces]
        bases = [v for p in pieces for v in self.bases[p]]
        weights = [self.weights[p] for p in pieces]
        level, best = 1, None
        while best is None:
            left_states = max(owner.max_states - self.states, 1)
            status, met, level, paths = exact_search(owner._context, shapes, bases, weights, start, level,
                                                     left_states, owner.max_bytes)
            self.states += met
            if status == UNKNOWN:
                raise _Capped(owner._capped(self.states))
            if status == STUCK:
                break
            for path in paths:
                found = self.plan(pieces, path)
                if found is not None and (best is None or found[0] < best[0]):
                    best = found
                    if found[0][1:] == ((), ()):
                        break  # nothing after it: no plan from this distance is less
            level += 1
        self.done[key] = best
        return best

    def plan(self, pieces, path):
        """``(rank, tree)`` when the separation ``path`` ends in leaves parts that come apart,
        each by its least plan; else None."""
        before, stayed, gone = split_at(pieces, path)
        left = self.subpart(pieces, stayed, before)
        if left is None:
            return None
        taken = self.subpart(pieces, gone, before)
        if taken is None:
            return None
        steps = self.steps(pieces, path)
        return (len(steps), left[0], taken[0]), Separation(pieces, steps, left[1], taken[1])

    def subpart(self, pieces, members, positions):
        """``(rank, tree)`` of a part: ``((), None)`` when it is done as it is (one piece, or
        pieces the groups let stay together, held against them on its own), None when no plan
        takes it apart."""
        if len(members) == 1 or self.groups.one_group(members) or self.groups.dealer().deal(members):
            return (), None
        dim = self.owner.dim
        place = {p: k for k, p in enumerate(pieces)}
        start = tuple(v for p in members for v in positions[place[p] * dim:(place[p] + 1) * dim])
        found = self.least(members, start)
        if found is None:
            return None
        return rank(found), found[1]


def rank(found) -> tuple:
    """How a part's plan compares as a part of a larger one: ``()`` (less than any other) when
    it and all its parts need one move each, as the level text leaves it out; else
    ``(moves to its first separation, rank of the part that stayed, rank of the part
    removed)``. Tuples compare number by number, so a plan whose parts are no worse is no
    worse."""
    key = found[0]
    return () if key == (1, (), ()) else key


def nearest_separations(taker, pieces):
    """For a designer's search: ``(moves, separations, states)`` of the assembly ``pieces`` (cells per
    piece) by the exact ruler: the fewest moves to its first separation (the removal counted)
    and the ``(state, set)`` separations that take that many, as sets of piece numbers (a list
    of frozensets), and the states met on the way; ``(0, [], states)`` when nothing comes apart
    (``states``: the states the pieces can reach), None when a cap was reached. ``taker``: a
    :class:`polyfit.motion.Disassembler`, whose caps and pair limits are used."""
    shapes, bases = [], []
    for cells in pieces:
        number, base = taker.shape(cells)
        shapes.append(number)
        bases.extend(base)
    n = len(pieces)
    status, states, level, paths = exact_search(taker._context, shapes, bases, (1,) * n, (0,) * (n * taker.dim), 1,
                                           taker.max_states, taker.max_bytes)
    if status == STUCK:
        return 0, [], states
    if status != FOUND:
        return None
    return level, [frozenset(k for k in range(n) if path[-1][1] >> k & 1) for path in paths], states
