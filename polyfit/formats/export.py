"""Solutions into files: the one way an exporter is found, checked and run.

Each format's module ends with a small table of its exporters (``EXPORTERS``: name, suffixes,
writer, summary) and registers it through the ``register_exporters`` hook, as a plugin does;
the registry merges the tables into one. Everything that writes solutions comes here:
``polyfit solve --output FILE`` and its shorthands (``--png``, ``--svg``, ``--pdf`` ...),
``polyfit render``, the API (:func:`polyfit.export`, ``Solution.png()`` ...) and the studio.

An exporter is ``export(solutions, path, **options)``: it writes a
:class:`~polyfit.formats.solution_set.SolutionSet` to ``path`` (a new file in a private
folder; polyfit then puts it in place, never over the user's file unless asked to) and may
return a few words about what it wrote ("672x128", "2 pages, A4"). Its keyword parameters are
its options (``cell``, ``unit`` ...). It may carry ``export.check(solutions, **options)``,
called before any search with the board and pieces (the set's ``solutions`` may be empty), to
refuse what it cannot write while that costs nothing.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from polyfit.errors import PolyfitError, UnknownNameError
from polyfit.files import check_writable, output_file


def register_table(register, table: dict) -> None:
    """Register a format module's exporters: ``{name: (suffixes, export, summary)}``."""
    for name, (suffixes, export, summary) in table.items():
        register(name, suffixes, export, summary)


def _function(entry):
    """The exporter's own function (the registry wraps it to name the plugin on failure)."""
    return getattr(entry.export, "__wrapped__", entry.export)


def options_of(entry) -> dict | None:
    """The options an exporter takes, with their defaults: its parameters after
    ``(solutions, path)``; None when it takes any (``**options``)."""
    import inspect

    try:
        parameters = list(inspect.signature(_function(entry)).parameters.values())[2:]
    except (TypeError, ValueError):  # no signature to read: give it no options
        return {}
    if any(p.kind is p.VAR_KEYWORD for p in parameters):
        return None
    return {p.name: p.default for p in parameters if p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD)}


def suffix_match(entry, name: str) -> int:
    """How long a suffix of ``entry`` the file name ends with (0: none)."""
    name = name.lower()
    return max((len(s) for s in entry.suffixes if s and name.endswith(s.lower())), default=0)


def by_suffix(exporters: dict, name: str):
    """The exporter whose suffix the file name ends with, the longest one winning
    (``pieces.cut.svg`` before ``.svg``), the first registered on a tie; None if none."""
    best, length = None, 0
    for entry in exporters.values():
        found = suffix_match(entry, name)
        if found > length:
            best, length = entry, found
    return best


def known_suffixes(exporters: dict) -> str:
    return ", ".join(sorted({s for e in exporters.values() for s in e.suffixes}))


def choose(exporters: dict, path, name: str | None = None, *, asked_by: str | None = None,
           strict: bool = False, how: str = "--format"):
    """The exporter named, or the one the file's suffix calls for (``path`` may be None when
    ``name`` is given).

    A named exporter refuses a file whose suffix belongs to another format (``--png out.gif``
    would write PNG data under a GIF's name); ``strict`` (a shorthand such as ``--png``)
    refuses any suffix but its own. ``asked_by`` says how the exporter was asked for, in the
    messages; ``how`` how to name a format."""
    if name is None:
        path = Path(path)
        entry = by_suffix(exporters, path.name)
        if entry is None:
            suffix = path.suffix or "files without a suffix"
            raise PolyfitError(
                f"no exporter writes {suffix!r}; known suffixes: {known_suffixes(exporters)} "
                f"(or choose one with {how})"
            )
        return entry
    if name not in exporters:
        raise UnknownNameError("export format", name, exporters)
    entry = exporters[name]
    if path is None:  # no file: only the format matters
        return entry
    path = Path(path)
    if suffix_match(entry, path.name):
        return entry
    other = by_suffix(exporters, path.name)
    if other is None and not (strict and entry.suffixes):
        return entry
    asked_by = asked_by or f"format {name!r}"
    wanted = ", ".join(entry.suffixes)
    fix = f"name it {path.stem}{entry.suffixes[0]}" if entry.suffixes else "choose another name"
    if other is None:
        raise PolyfitError(f"{path}: {asked_by} writes {name} files ({wanted}); {fix}")
    found = max((s for s in other.suffixes if suffix_match(other, path.name) == len(s)), key=len)
    raise PolyfitError(f"{path}: {asked_by} writes {name} files ({wanted}), but the name says "
                       f"{other.name} ({found}); {fix}")


@dataclass
class Output:
    """One file to write with one exporter: checked before the search, written after.
    ``path`` None: the file is made as bytes (:meth:`data`)."""

    entry: object  # a polyfit.registry.ExporterEntry
    path: Path | None
    options: dict = field(default_factory=dict)

    @property
    def name(self) -> str:
        return self.entry.name

    @property
    def writes_counts(self) -> bool:
        """Does the file say something without solutions (the counts of ``--count``)? An
        exporter says so with an attribute ``writes_counts = True`` on its function."""
        return bool(getattr(_function(self.entry), "writes_counts", False))

    def check(self, solutions, force: bool = False) -> None:
        """Refuse now what cannot be written later: a file in the way (unless ``force``), a
        folder that is not there, and whatever the exporter's own check refuses."""
        if self.path is not None:
            check_writable(self.path, force)
        check = getattr(_function(self.entry), "check", None)
        if check is None:
            return
        try:
            check(solutions, **self.options)
        except PolyfitError:
            raise
        except (Exception, SystemExit) as exc:  # a plugin's bug: one line naming it
            raise PolyfitError(f"exporter {self.name!r} of plugin {self.entry.plugin!r} failed: {exc!r}") from None

    def write(self, solutions, force: bool = False) -> str:
        """Write the file (over an existing one only with ``force``); one line saying so."""
        with output_file(self.path, force) as staged:
            note = self.entry.export(solutions, staged, **self.options)
        return f"wrote {self.path}" + (f" ({note})" if isinstance(note, str) and note else "")

    def data(self, solutions) -> bytes:
        """The file's bytes, written nowhere the user can see."""
        import tempfile

        with tempfile.TemporaryDirectory(prefix="polyfit-export-") as folder:
            staged = Path(folder) / ("solutions" + (self.entry.suffixes[0] if self.entry.suffixes else ""))
            self.entry.export(solutions, staged, **self.options)
            if not staged.is_file():
                raise PolyfitError(f"exporter {self.name!r} wrote nothing")
            return staged.read_bytes()


def output(exporters: dict, target, name: str | None = None, options: dict | None = None, *,
           asked_by: str | None = None, strict: bool = False, only_known_options: bool = False,
           how: str = "--format") -> Output:
    """The :class:`Output` for ``target``: a path, or None (with ``name``) for bytes.

    ``options`` the exporter does not take are an error that lists the ones it does, unless
    ``only_known_options`` (the command line, whose picture options are shared by every
    output): then they are left out."""
    if target is None and name is None:
        raise PolyfitError("give a file name, or a format to make the file's bytes in")
    entry = choose(exporters, target, name, asked_by=asked_by, strict=strict, how=how)
    options = {k: v for k, v in (options or {}).items() if v is not None}
    takes = options_of(entry)
    if takes is not None:
        unknown = sorted(set(options) - set(takes))
        if unknown and only_known_options:
            options = {k: v for k, v in options.items() if k in takes}
        elif unknown:
            offered = f"its options are {', '.join(takes)}" if takes else "it takes no options"
            raise PolyfitError(f"the {entry.name} exporter has no option {', '.join(unknown)}; {offered}")
    return Output(entry, None if target is None else Path(target), options)


def is_suffix(target) -> bool:
    """Is ``target`` a bare suffix such as ``".svg"`` (make bytes) rather than a file name?"""
    return isinstance(target, str) and target.startswith(".") and os.sep not in target and "/" not in target \
        and len(target) > 1
