"""The hooks polyfit offers to plugins. Each docstring is that hook's reference documentation.

Every hook has one job and one shape: the core hands in a ``register`` callback and owns the
registry. Built-in piece sets, backends, readers and exporters register through these same hooks.
"""

import pluggy

hookspec = pluggy.HookspecMarker("polyfit")
hookimpl = pluggy.HookimplMarker("polyfit")


@hookspec
def register_piece_sets(register):
    """Register piece sets.

    Call ``register(name, build, summary)`` once per set: ``name`` is what users type after
    ``--pieces``, ``build`` a function of no arguments returning a list of
    :class:`polyfit.puzzle.pieces.Piece`, ``summary`` a one-line description for ``polyfit pieces``.
    """


@hookspec
def register_backends(register):
    """Register exact cover solver backends.

    Call ``register(backend)`` with an object following :class:`polyfit.xc.problem.Backend`:
    attributes ``name``, ``summary``, ``capabilities`` and methods ``unavailable_reason()`` and
    ``solutions(problem, stats)``.
    """


@hookspec
def register_shape_readers(register):
    """Register readers of board files.

    Call ``register(name, suffixes, read, sniff)``: ``suffixes`` a tuple like ``(".txt",)``,
    ``read(path) -> polyfit.puzzle.board.Board`` raising :class:`polyfit.errors.ParseError` on bad
    input, and ``sniff(head: bytes) -> bool`` (or None) to recognise a file by its first bytes.
    A reader of files that hold many boards (BurrTools problems, Soma figures) also takes
    ``read(path, select=...)`` (a number from 1, or a name) and carries ``read.read_all(path)``
    returning every board; the board may hold its pieces in :attr:`Board.pieces`.
    """


@hookspec
def register_commands(app):
    """Add commands to the ``polyfit`` command line; ``app`` is the Typer application."""


@hookspec
def register_exporters(register):
    """Register writers of solutions to files.

    Call ``register(name, suffixes, export, summary)``: ``suffixes`` a tuple like ``(".json",)``
    (the longest one a file name ends with chooses the exporter: ``.cut.svg`` before ``.svg``),
    ``summary`` a one-line description. ``export(solutions, path, **options)`` writes a
    :class:`polyfit.SolutionSet` to ``path`` (a :class:`pathlib.Path` with the output's name
    in a private folder beside it: polyfit then puts the file in place, never over the user's
    files without ``--force`` or ``overwrite=True``) and may return a few words about what it
    wrote, shown after "wrote FILE". Its keyword parameters with defaults are its options
    (``polyfit.export(..., cell=20)``; the command line passes those of ``--cell``,
    ``--margin``, ``--labels``, ``--view``, ``--unit``, ``--gap``, ``--kerf``, ``--paper`` it
    takes). ``export.check(solutions, **options)``, if the function carries one, is called
    before any search with the board and pieces (``solutions.solutions`` may be empty) and
    raises :class:`polyfit.PolyfitError` for what the exporter cannot write.
    """


@hookspec
def register_lattices(register):
    """Register lattices: the grids boards and pieces are drawn on.

    Call ``register(lattice)`` with a :class:`polyfit.lattices.base.Lattice`: its ``name`` is
    what a board or pieces file gives in ``; lattice: NAME``; it provides the cells' neighbours,
    the symmetry group as transforms of coordinates (each with ``is_proper``), normal forms,
    a parity weight for pruning, text-art checks, each cell's polygon for pictures, and
    polyform enumeration. docs/plugins.md lists every method.
    """
