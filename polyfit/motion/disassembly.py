"""Taking an assembly apart: the tree of separations, its level and its moves.

The first separation of all the pieces is searched (:mod:`polyfit.motion.search`, or its C
twin); the two parts are then taken apart in turn, each from the places its pieces had just
before they came apart: first the part that stayed, then the part removed. A part is done when
it is one piece or may stay together as a group (:mod:`polyfit.motion.groups`); a part that is
stuck otherwise makes the whole assembly one that does not come apart (as in BurrTools, no
other first separation is tried).

The **level** is BurrTools' text: the moves up to the first separation (the removal counted),
then, dotted, the level of the part that stayed and of the part removed, each only where that
part or a part of it needs more than one move: ``98.2.4.2``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from polyfit.errors import PolyfitError
from polyfit.motion.exact import ExactJob
from polyfit.motion.groups import Groups
from polyfit.motion.search import STUCK as _STUCK, UNKNOWN as _UNKNOWN
from polyfit.motion.plan import Separation, Step, _Capped, tree_of  # noqa: F401 (Step: for polyfit.motion)

# Caps of one assembly's disassembly: reaching one makes its level unknown, never "stuck".
MAX_STATES = 10_000_000
MAX_BYTES = 2 * 1024**3


@dataclass(frozen=True)
class Move:
    """Pieces (their numbers) slid together by the vector ``by``; ``removed``: the set leaves
    its part for good, ``by`` then being how far it slides until nothing is in its way."""

    pieces: tuple[int, ...]
    by: tuple[int, ...]
    removed: bool = False


SEPARATES, STUCK, UNKNOWN = "separates", "stuck", "unknown"
_STATUS = {0: SEPARATES, _STUCK: STUCK, _UNKNOWN: UNKNOWN}  # the driver's status: what it says
RULERS = ("burrtools", "exact")  # what a level measures: BurrTools' plan, or the fewest moves (motion.exact)


@dataclass(frozen=True)
class Disassembly:
    """What taking one assembly apart found: ``status`` ``"separates"``, ``"stuck"`` or
    ``"unknown"`` (a cap was reached), the ``tree`` when it separates, and ``states``, the
    states the searches met. ``pieces`` and ``directions``: the cells taken apart and the
    lattice's directions of motion, for :attr:`moves`."""

    status: str
    tree: Separation | None = None
    states: int = 0
    reason: str = ""
    pieces: tuple = ()
    directions: tuple = ()
    ruler: str = "burrtools"
    motion: object = None  # the lattice's motion rule (polyfit.motion.prisms), None on cubes
    text: str | None = None  # the level text, when the driver gave it (with or without the tree)
    total_moves: int | None = None

    @property
    def separates(self) -> bool:
        return self.status == SEPARATES

    @property
    def level(self) -> str | None:
        """BurrTools' level text (``"98.2.4.2"``); ``"unknown"`` when a cap was reached; None
        when the assembly does not come apart."""
        if self.status == UNKNOWN:
            return "unknown"
        if self.text is not None:
            return self.text
        return self.tree.level() if self.tree is not None else None

    @cached_property
    def moves(self) -> list[Move]:
        """Every move in order (see :meth:`Separation.all_steps`), ``by`` a vector; a removal's
        ``by`` how far the set slides until nothing of its part is ahead of it."""
        if self.tree is None:
            if self.separates:
                raise PolyfitError("this assembly was taken apart without its moves (moves=False)")
            return []
        moves = []
        for part, step in self.tree.all_steps():
            sign = -1 if step.direction & 1 else 1
            unit = tuple(sign * v for v in self.directions[step.direction >> 1])
            amount = step.amount
            if amount is None:
                far = self.motion.distance_out if self.motion is not None else distance_out
                amount = far(self.pieces, part.pieces, step, unit)
            moves.append(Move(step.pieces, tuple(amount * v for v in unit), step.amount is None))
        return moves

    @property
    def total(self) -> int:
        if self.total_moves is not None:
            return self.total_moves
        return self.tree.total() if self.tree is not None else 0


@dataclass
class Disassembler:
    """Takes assemblies of one puzzle apart, keeping the pair limits of its shapes between
    them. ``directions``: the lattice's directions of motion (unit steps along axes);
    ``engine``: ``"c"``, ``"python"`` or ``"auto"`` (C when it built); ``ruler``:
    ``"burrtools"`` (its moves and its first separation) or ``"exact"`` (the fewest moves over
    every plan: :mod:`polyfit.motion.exact`); ``motion``: the lattice's rule where pieces do
    not slide by unit steps along axes (:class:`polyfit.motion.prisms.PrismMotion`), whose
    directions are then used."""

    directions: tuple
    engine: str = "auto"
    max_states: int = MAX_STATES
    max_bytes: int = MAX_BYTES
    ruler: str = "burrtools"
    motion: object = None
    _shapes: dict = field(default_factory=dict, repr=False)
    _seen: dict = field(default_factory=dict, repr=False)  # cells as given -> (shape, base)
    _context: object = field(default=None, repr=False)

    def __post_init__(self):
        from polyfit.motion.native import context, driver_of

        if self.ruler not in RULERS:
            from polyfit.errors import UnknownNameError

            raise UnknownNameError("ruler", self.ruler, RULERS)
        if self.motion is not None:
            if self.ruler == "exact":
                raise PolyfitError(f"the exact ruler slides pieces on cubes and squares only, not on {self.motion.name}: "
                                   "use the burrtools ruler")
            self.directions = self.motion.directions
            self.dim = len(self.directions[0])
            self._context = self.motion.context(self.engine, self.dim)
            self._take_apart = driver_of(self._context)
            return
        if not self.directions:
            raise PolyfitError("this lattice has no directions of motion: its assemblies cannot be taken apart yet")
        self.dim = len(self.directions[0])
        axes = []
        for d in self.directions:
            nonzero = [i for i, v in enumerate(d) if v]
            if len(nonzero) != 1 or d[nonzero[0]] != 1:
                raise PolyfitError(f"direction of motion {d} is not a unit step along an axis")
            axes.append(nonzero[0])
        self.axes = tuple(axes)
        self._context = context(self.engine, self.dim, self.axes)
        self._take_apart = driver_of(self._context)

    def shape(self, cells, normal=None) -> tuple:
        """The piece with these cells as the searches know it: ``(shape number, base)``;
        ``normal``: the cells moved to their least corner, sorted, and that corner, when known."""
        if normal is not None and self.motion is not None:
            normal = self.motion.frame(tuple(tuple(a + b for a, b in zip(c, normal[1])) for c in normal[0]))
        if normal is not None:
            shape, base = normal
            number = self._shapes.get(shape)
            if number is None:
                number = self._shapes[shape] = self._context.add_shape(shape)
            return number, base
        if not isinstance(cells, tuple):
            cells = tuple(tuple(c) for c in cells)
        known = self._seen.get(cells)
        if known is not None:
            return known
        if self.motion is not None:
            shape, base = self.motion.frame(cells)
        else:
            base = tuple(min(c[i] for c in cells) for i in range(self.dim))
            shape = tuple(sorted(tuple(v - b for v, b in zip(c, base)) for c in cells))
        number = self._shapes.get(shape)
        if number is None:
            number = self._shapes[shape] = self._context.add_shape(shape)
        self._seen[cells] = number, base
        return number, base

    def disassemble(self, pieces, weights=None, groups: Groups | None = None) -> Disassembly:
        """Take apart the assembly whose pieces have the cells ``pieces`` (one list of cells
        per piece, where the assembly has them). ``weights``: which part moves when two parts
        come apart (the heavier stays; all 1 when not given); ``groups``: which pieces may stay
        together."""
        if len(pieces) < 2:
            return Disassembly(STUCK, reason="fewer than two pieces")
        shapes, bases = [], []
        for cells in pieces:
            number, base = self.shape(cells)
            shapes.append(number)
            bases.append(base)
        return self.disassemble_shapes(shapes, bases, weights, groups, pieces)

    def disassemble_shapes(self, shapes, bases, weights, groups: Groups | None, pieces,
                           moves: bool = True) -> Disassembly:
        """:meth:`disassemble` with each piece's :meth:`shape` worked out already; ``moves``
        False: the level and the total only (no tree, no moves: quicker, for counts; ``pieces``
        may then be None)."""
        n = len(shapes)
        if n < 2:
            return Disassembly(STUCK, reason="fewer than two pieces")
        groups = groups or Groups.none(n)
        if self.ruler == "exact":
            return self._exact(shapes, bases, weights or (1,) * n, groups, pieces)
        return self.driven(shapes, [v for b in bases for v in b], weights or (1,) * n, groups, pieces, moves)

    def driven(self, shapes, flat, weights, groups: Groups, pieces=None, moves: bool = False) -> Disassembly:
        """BurrTools' plan for the pieces with these shapes, bases (``flat``: one after the
        other) and weights, by the driver (:mod:`polyfit.motion.driver`, or its C twin)."""
        status, states, level, total, found = self._take_apart(
            shapes, flat, weights, groups.numbers, self.max_states, self.max_bytes, moves,
            _Deal(groups) if groups.grouped else None)
        if status == _UNKNOWN:
            return Disassembly(UNKNOWN, states=states, reason=self._capped(states))
        if status == _STUCK:
            return Disassembly(STUCK, states=states)
        return Disassembly(SEPARATES, tree_of(found, self.dim) if moves else None, states,
                           pieces=tuple(pieces or ()), directions=self.directions, text=level, total_moves=total,
                           motion=self.motion)

    def level_only(self, shapes, flat, weights, groups: Groups) -> tuple:
        """:meth:`driven` without the moves, as a count wants it: ``(status, level, states)``
        (``level`` as :attr:`Disassembly.level`), with no objects made on the way."""
        if self.ruler == "exact":
            dim = self.dim
            found = self._exact(shapes, [flat[k:k + dim] for k in range(0, len(flat), dim)], weights, groups, None)
            return found.status, found.level, found.states
        status, states, level, _, _ = self._take_apart(shapes, flat, weights, groups.numbers, self.max_states,
                                                       self.max_bytes, False, _Deal(groups) if groups.grouped else None)
        return _STATUS[status], "unknown" if status == _UNKNOWN else level, states

    def level_table(self, place, shapes, bases, weights) -> tuple | None:
        """Per placement of a puzzle, what :meth:`level_of` reads (see
        :func:`polyfit.motion.native.level_table`; ``bases`` one after another); None when this
        disassembler has no such shortcut (the exact ruler)."""
        if self.ruler != "burrtools":
            return None
        from polyfit.motion.native import level_table

        return level_table(self._context, place, shapes, bases, weights)

    def level_of(self, placements, table) -> tuple:
        """:meth:`level_only` for the assembly of these placements with no groups (``table``
        from :meth:`level_table`): they are put in order by place and taken apart."""
        from polyfit.motion.native import level_of

        status, states, level = level_of(self._context, placements, table, self.max_states, self.max_bytes)
        return _STATUS[status], "unknown" if status == _UNKNOWN else level, states

    def _capped(self, states) -> str:
        return (f"the search met {states:,} states (cap {self.max_states:,}) "
                f"or reached its memory cap ({self.max_bytes:,} bytes)")

    def _exact(self, shapes, bases, weights, groups, pieces) -> Disassembly:
        job = ExactJob(self, shapes, bases, weights, groups, pieces)
        n = len(shapes)
        try:
            tree = job.part(tuple(range(n)), (0,) * (n * self.dim))
        except _Capped as capped:
            return Disassembly(UNKNOWN, states=job.states, reason=str(capped), ruler=self.ruler)
        if tree is None:
            return Disassembly(STUCK, states=job.states, ruler=self.ruler)
        return Disassembly(SEPARATES, tree, job.states, pieces=tuple(pieces or ()), directions=self.directions,
                           ruler=self.ruler, motion=self.motion)


class _Deal:
    """Rule 2 of the groups for one assembly: its dealer, made when a part first gets stuck."""

    def __init__(self, groups: Groups):
        self.groups = groups
        self.dealer = None

    def __call__(self, members) -> bool:
        if self.dealer is None:
            self.dealer = self.groups.dealer()
        return self.dealer.deal(members)


def distance_out(cells, pieces, step, unit) -> int:
    """How far the removed set of ``step`` slides along ``unit`` before nothing of the rest of
    its part is ahead of it on any line (at least 1)."""
    dim = len(unit)
    ahead = {}  # a line along unit -> (the moving set's rearmost, the rest's foremost)
    moving = set(step.pieces)
    for k, p in enumerate(pieces):
        offset = step.offsets[k * dim:(k + 1) * dim]
        mine = p in moving
        for cell in cells[p]:
            at = [c + o for c, o in zip(cell, offset)]
            value = sum(a * u for a, u in zip(at, unit))
            line = tuple(a - value * u for a, u in zip(at, unit))
            low, high = ahead.get(line, (None, None))
            if mine:
                low = value if low is None or value < low else low
            else:
                high = value if high is None or value > high else high
            ahead[line] = (low, high)
    far = 1
    for low, high in ahead.values():
        if low is not None and high is not None and high >= low:
            far = max(far, high - low + 1)
    return far
