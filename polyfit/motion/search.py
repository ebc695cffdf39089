"""The search for the first separation of a set of pieces, in pure Python: the reference twin
of the C module ``_motion``, move for move.

The pieces of one puzzle are registered as shapes (cells in a normal frame) in a
:class:`Context`; a search gets, for each piece, its shape, its base point (where the shape's
frame sits in the assembly), its weight and its offset from there in the start state.

**Pair limits.** For two shapes at some offset, how far the first can slide along each axis,
in the positive direction, before it hits the second (``FREE`` when it never does). The value
is a gap along a line of cells, so it depends only on the two shapes and the offset between
their frames: it is cached by that triple for the whole puzzle. On lattices whose steps are
not unit steps along axes, a context of the lattice's own (:mod:`polyfit.motion.prisms`) gives
the pair limits and the steps (``Context.steps``); the search itself is the same.

**Moves** (what BurrTools 0.7.1 counts as one, in the order it tries them; the order decides
which separation is found first among those equally near, so it is part of the answer). From a
state, for each direction (each axis positive then negative) and each piece, the set a push of
that piece drags along is closed under "``i`` moves ``k``, ``j`` stands still, ``i`` can only
slide ``lim < k`` towards ``j``: ``j`` moves too":

1. a single piece that slides out for ever (the first found is the separation);
2. else a set of at most half the pieces that slides out for ever;
3. else for each direction and piece, steps ``k = 1, 2, ...`` while the dragged set has at most
   half the pieces: that move, then its union with every set already found in this direction
   with the same step (newest first), each state not seen in this direction yet.

A move whose moving set is heavier (largest weight) than the standing set is turned round: the
standing set moves the other way (the same relative state).

**States** are the offsets of the pieces relative to the first piece. The search is breadth
first, keeping three fronts (the last, this and the next distance) to tell new states from old
ones; the first state that separates ends it.
"""

from __future__ import annotations

from bisect import bisect_left

FREE = 32000  # the pair limit of two shapes that never meet along the line
REMOVE = 30000  # a push this long takes a set out for good
REMOVAL = 10000  # a move of at least this is a removal

FOUND, STUCK, UNKNOWN = 0, 1, 2  # how a search ended


class Node:
    """One state: the pieces' offsets (flat, ``dim`` numbers a piece), the state it was reached
    from, the direction (``2 * axis + 1`` for the negative one) and length of that move, the set
    that moved (a bit per piece) and, in a separating state, the set removed."""

    __slots__ = ("positions", "parent", "direction", "amount", "moved", "removed", "key")

    def __init__(self, positions, parent, direction, amount, moved, removed, key):
        self.positions = positions
        self.parent = parent
        self.direction = direction
        self.amount = amount
        self.moved = moved
        self.removed = removed
        self.key = key


def state_key(positions, dim):
    """The offsets relative to the first piece: states that differ by a shift of everything
    are one state."""
    first = positions[:dim]
    return tuple(p - first[i % dim] for i, p in enumerate(positions[dim:]))


class Context:
    """The shapes of one puzzle and their cached pair limits, for any number of searches."""

    def __init__(self, dim: int, axes):
        self.dim = dim
        self.axes = tuple(axes)  # the coordinate each direction of motion runs along
        # per direction, its step as (coordinate, change) pairs: one unit along an axis here;
        # other lattices' contexts (polyfit.motion.prisms) step along vectors
        self.steps = tuple(((axis, 1),) for axis in self.axes)
        self.lines = []  # per shape, per axis: {the other coordinates: sorted coordinates}
        self.cache = {}
        self.cache_bytes = 0

    def add_shape(self, cells) -> int:
        per_axis = []
        for axis in self.axes:
            lines = {}
            for cell in cells:
                lines.setdefault(cell[:axis] + cell[axis + 1:], []).append(cell[axis])
            per_axis.append({key: sorted(values) for key, values in lines.items()})
        self.lines.append(per_axis)
        return len(self.lines) - 1

    def pair_limits(self, first: int, second: int, offset) -> tuple:
        """How far shape ``first`` slides in each positive direction before it touches shape
        ``second``, whose frame sits ``offset`` from the first's."""
        key = (first, second, offset)
        found = self.cache.get(key)
        if found is not None:
            return found
        limits = []
        for k, axis in enumerate(self.axes):
            best = FREE
            shift = offset[axis]
            across = offset[:axis] + offset[axis + 1:]
            theirs = self.lines[second][k]
            for line, mine in self.lines[first][k].items():
                other = theirs.get(tuple(a - b for a, b in zip(line, across)))
                if other is None:
                    continue
                for value in other:
                    value += shift
                    at = bisect_left(mine, value)  # mine[at - 1] is the nearest cell behind
                    if at and value - mine[at - 1] - 1 < best:
                        best = value - mine[at - 1] - 1
            limits.append(best)
        found = tuple(limits)
        self.cache[key] = found
        self.cache_bytes += 64 + 8 * len(found)
        return found

    def separate(self, shapes, bases, weights, start, max_states, max_bytes):
        """Search from ``start`` (flat offsets) to the first state that separates the pieces.
        Returns ``(status, states, path)``: ``FOUND`` with the states from the start to the
        separating one as ``(positions, removed, direction, amount)``, ``STUCK`` when no move
        separates them, ``UNKNOWN`` when the search reached ``max_states`` states or about
        ``max_bytes`` of memory; ``states`` is the number of states it met."""
        return _Search(self, shapes, bases, weights, max_states, max_bytes).run(tuple(start))


def state_cost(pieces: int) -> int:
    """What the cap on memory counts a kept state as costing, here and in the C twin alike."""
    return 80 + 24 * pieces


class _Search:
    def __init__(self, context, shapes, bases, weights, max_states, max_bytes):
        self.context = context
        self.dim = context.dim
        self.shapes = tuple(shapes)
        self.bases = tuple(bases)
        self.weights = tuple(weights)
        self.n = len(self.shapes)
        self.full = (1 << self.n) - 1
        self.max_states = max_states
        self.max_bytes = max_bytes
        self.states = 0

    # -- the moves from one state ----------------------------------------------------------

    def limits(self, positions):
        """``table[k][i][j]``: how far piece ``i`` slides along direction ``k`` (positive)
        while piece ``j`` stands."""
        dim, n, bases, shapes = self.dim, self.n, self.bases, self.shapes
        where = [tuple(bases[i * dim + c] + positions[i * dim + c] for c in range(dim)) for i in range(n)]
        axes = len(self.context.steps)
        table = [[[0] * n for _ in range(n)] for _ in range(axes)]
        for i in range(n):
            for j in range(n):
                if i != j:
                    offset = tuple(b - a for a, b in zip(where[i], where[j]))
                    values = self.context.pair_limits(shapes[i], shapes[j], offset)
                    for k in range(axes):
                        table[k][i][j] = values[k]
        return table

    def dragged(self, table, piece, direction, step, most):
        """The set a push of ``piece`` by ``step`` along ``direction`` drags along, as bits, or
        None when it has more than ``most`` pieces."""
        rows = table[direction >> 1]
        negative = direction & 1
        moving = 1 << piece
        count = 1
        todo = [piece]
        while todo:
            i = todo.pop()
            for j in range(self.n):
                if moving >> j & 1:
                    continue
                room = rows[j][i] if negative else rows[i][j]
                if step > room:
                    count += 1
                    if count > most:
                        return None
                    moving |= 1 << j
                    todo.append(j)
        return moving

    def child(self, node, moving, direction, amount):
        """The state after ``moving`` goes ``amount`` along ``direction`` (turned round when
        the moving set is the heavier)."""
        heaviest_moving = heaviest_standing = 0
        for i in range(self.n):
            w = self.weights[i]
            if moving >> i & 1:
                heaviest_moving = max(heaviest_moving, w)
            else:
                heaviest_standing = max(heaviest_standing, w)
        if heaviest_standing < heaviest_moving:
            moving ^= self.full
            direction ^= 1
        positions = node.positions
        if amount >= REMOVAL:
            return Node(positions, node, direction, amount, moving, moving, None)
        dim = self.dim
        delta = -amount if direction & 1 else amount
        moved = list(positions)
        steps = self.context.steps[direction >> 1]  # one (axis, 1) on cubes
        for i in range(self.n):
            if moving >> i & 1:
                for coordinate, change in steps:
                    moved[i * dim + coordinate] += delta * change
        moved = tuple(moved)
        return Node(moved, node, direction, amount, moving, 0, state_key(moved, dim))

    def merged(self, node, first, second, direction):
        """Both sets of two moves in the same direction by the same amount at once, when that
        is a third move."""
        if first.amount != second.amount:
            return None
        a = first.moved if first.direction == direction else first.moved ^ self.full
        b = second.moved if second.direction == direction else second.moved ^ self.full
        union = a | b
        if union == 0 or union == self.full or union == a or union == b:
            return None
        return self.child(node, union, direction, first.amount)

    def moves(self, node):
        n = self.n
        table = self.limits(node.positions)
        directions = 2 * len(self.context.steps)
        for most in (1, n // 2):  # a single piece out, then a set out
            for direction in range(directions):
                for piece in range(n):
                    moving = self.dragged(table, piece, direction, REMOVE, most)
                    if moving is not None:
                        yield self.child(node, moving, direction, REMOVE)
        for direction in range(directions):
            seen = set()
            found = []  # the moves of this direction, oldest first
            for piece in range(n):
                step = 1
                while True:
                    moving = self.dragged(table, piece, direction, step, n // 2)
                    if moving is None:
                        break
                    step += 1
                    new = self.child(node, moving, direction, step - 1)
                    if new.key in seen:
                        continue
                    seen.add(new.key)
                    earlier = found[::-1]
                    found.append(new)
                    yield new
                    for other in earlier:
                        both = self.merged(node, new, other, direction)
                        if both is not None and both.key not in seen:
                            seen.add(both.key)
                            found.append(both)
                            yield both

    # -- breadth first --------------------------------------------------------------------

    def run(self, start):
        dim = self.dim
        root = Node(start, None, -1, 0, 0, 0, state_key(start, dim))
        old, current, new = set(), {root.key}, set()
        queue, following = [root], []
        self.states = 1
        cost = state_cost(self.n)
        while queue:
            for node in queue:
                for child in self.moves(node):
                    if child.removed:
                        return FOUND, self.states, _path(child)
                    key = child.key
                    if key in old or key in current or key in new:
                        continue
                    new.add(key)
                    following.append(child)
                    self.states += 1
                    if self.states > self.max_states or self.states * cost > self.max_bytes:
                        return UNKNOWN, self.states, None
            old, current, new = current, new, set()
            queue, following = following, []
        return STUCK, self.states, None


def _path(node):
    path = []
    while node is not None:
        path.append((node.positions, node.removed, node.direction, node.amount))
        node = node.parent
    path.reverse()
    return path
