"""An independent counter for small puzzles, to check polyfit against: no exact cover, no
dancing links, no shared code beyond the standard library.

It fills the first empty cell (in sorted order) with every piece orientation that fits there,
or leaves it empty when it is optional, so each solution is met exactly once, as a set of
``(piece name, cells)`` with copies unlabelled. Symmetry classes are counted by applying every
signed permutation of the axes that maps the board, its optional cells and its pre-placed
pieces onto themselves.
"""

import itertools


def _transforms(dim):
    for perm in itertools.permutations(range(dim)):
        for signs in itertools.product((1, -1), repeat=dim):
            inversions = sum(1 for i in range(dim) for j in range(i + 1, dim) if perm[i] > perm[j])
            proper = (inversions + signs.count(-1)) % 2 == 0  # determinant +1: a rotation
            yield (lambda c, perm=perm, signs=signs: tuple(signs[k] * c[perm[k]] for k in range(dim))), proper


def _normal(cells):
    cells = list(cells)
    low = [min(c[k] for c in cells) for k in range(len(cells[0]))]
    return tuple(sorted(tuple(x - m for x, m in zip(c, low)) for c in cells))


def shapes_of(cells, mirror):
    """The orientations of a piece: every rotation, and reflections when ``mirror``."""
    return {_normal(map(t, cells)) for t, proper in _transforms(len(cells[0])) if proper or mirror}


def solutions(board, pieces, optional=(), fixed=()):
    """Every solution. ``pieces``: ``(name, cells, mirror, lo, hi)``; ``fixed``: ``(name,
    cells)`` already placed (counted against the piece's ``lo``/``hi``)."""
    optional = set(optional)
    filled0 = {c for _, cells in fixed for c in cells}
    used = {name: 0 for name, *_ in pieces}
    for name, _ in fixed:
        used[name] += 1
    cells = sorted(c for c in board if c not in filled0)
    shapes = {name: shapes_of(cells_, mirror) for name, cells_, mirror, _, _ in pieces}
    bounds = {name: (lo, hi) for name, _, _, lo, hi in pieces}
    found = []
    chosen = [(name, frozenset(c)) for name, c in fixed]
    filled = set()

    def go(k):
        while k < len(cells) and cells[k] in filled:
            k += 1
        if k == len(cells):
            if all(bounds[n][0] <= used[n] <= bounds[n][1] for n in used):
                found.append(frozenset(chosen))
            return
        target = cells[k]
        for name, options in shapes.items():
            if used[name] >= bounds[name][1]:
                continue
            for shape in options:
                anchor = shape[0]
                placed = [tuple(x + t - a for x, t, a in zip(c, target, anchor)) for c in shape]
                if all(p in cells_set and p not in filled for p in placed):
                    filled.update(placed)
                    used[name] += 1
                    chosen.append((name, frozenset(placed)))
                    go(k + 1)
                    chosen.pop()
                    used[name] -= 1
                    filled.difference_update(placed)
        if target in optional:
            filled.add(target)
            go(k + 1)
            filled.discard(target)

    cells_set = set(cells)
    go(0)
    return found


def distinct(found, board, pieces, optional=(), fixed=()):
    """The number of symmetry classes among ``found`` (all solutions of the puzzle)."""
    board = list(board)
    dim = len(board[0])
    shapes = {name: shapes_of(cells, mirror) for name, cells, mirror, _, _ in pieces}
    counts = {name: (lo, hi) for name, _, _, lo, hi in pieces}
    group = []
    for t, _ in _transforms(dim):
        image = [t(c) for c in board]
        low = [min(c[k] for c in image) for k in range(dim)]
        base = [min(c[k] for c in board) for k in range(dim)]

        def g(c, t=t, low=low, base=base):
            return tuple(x - l + b for x, l, b in zip(t(c), low, base))

        if {g(c) for c in board} != set(board) or {g(c) for c in optional} != set(optional):
            continue
        rename = {}
        for name, cells, *_ in pieces:
            image_shape = _normal(g(c) for c in cells)
            targets = [n for n in shapes if image_shape in shapes[n] and counts[n] == counts[name]]
            if name in targets:
                rename[name] = name
            elif targets:
                rename[name] = targets[0]
        if len(rename) < len(pieces):
            continue
        fixed_set = {(n, frozenset(c)) for n, c in fixed}
        if {(rename[n], frozenset(g(x) for x in c)) for n, c in fixed} != fixed_set:
            continue
        group.append((g, rename))

    def key(solution):
        return sorted((n, sorted(c)) for n, c in solution)

    classes = set()
    for solution in found:
        images = [frozenset((r[n], frozenset(g(x) for x in c)) for n, c in solution) for g, r in group]
        classes.add(min(map(lambda s: repr(key(s)), images)))
    return len(classes)
