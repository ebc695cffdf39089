"""The one family of errors polyfit raises for bad input, and the words of its messages.

Library code raises these; only the CLI turns them into a stderr line and exit code 2.
"""


def plural(n: int, noun: str, nouns: str | None = None, spec: str = "") -> str:
    """A count and the noun that agrees with it: "1 piece", "2 pieces", "3 copies" (give
    ``nouns`` when adding an s is wrong); ``spec`` formats the number ("," or "4d")."""
    return f"{n:{spec}} {noun if n == 1 else nouns or noun + 's'}"


def install_hint(extra: str, packages: str) -> str:
    """How to install what an optional feature needs: the packages themselves, or polyfit's
    extra from the folder polyfit was installed from (``pip install 'polyfit[pdf]'`` would ask
    the package index for a project of that name, not this checkout)."""
    return f"pip install {packages} (or, in polyfit's folder: pip install '.[{extra}]')"


def one_line(message: str) -> str:
    """A message as one printable line: control characters (a newline in a file name, say)
    written as escapes, and what no terminal can print (a file name's undecodable bytes,
    which Python holds as lone surrogates) as backslash escapes, never an encoding error."""
    escaped = "".join(
        ch if ch.isprintable() or ch == " " or "\ud800" <= ch <= "\udfff" else ch.encode("unicode_escape").decode("ascii")
        for ch in message
    )
    try:  # the bytes of a file name as the system gave them (\xff), when they are that
        raw = escaped.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        raw = escaped.encode("utf-8", "backslashreplace")
    return raw.decode("utf-8", "backslashreplace")


def error_line(exc: BaseException) -> str:
    """What the command line prints for a library error: ``polyfit: error: ...``, one line."""
    return f"polyfit: error: {one_line(str(exc))}"


class PolyfitError(Exception):
    """Bad input or an impossible request, explained in words a user can act on."""


class OutputExistsError(PolyfitError):
    """A file the user has is where polyfit would write; the command line says ``--force``,
    the Python API ``overwrite=True``."""

    def __init__(self, path, message: str | None = None):
        self.path = path
        super().__init__(message or f"{path} exists; use --force to overwrite it")


class ParseError(PolyfitError):
    """A file could not be read; names the file, line and column (both 1-based)."""

    def __init__(self, path, line, column, message):
        self.path = str(path)
        self.line = line
        self.column = column
        self.message = message
        super().__init__(f"{self.path}:{line}:{column}: {message}")


class UnknownNameError(PolyfitError):
    """A name (piece set, piece, backend, ...) that does not exist; lists the valid ones."""

    def __init__(self, kind, name, valid, plural=None):
        self.kind = kind
        self.name = name
        self.valid = sorted(valid)
        plural = plural or f"{kind}s"
        guess = did_you_mean(name, self.valid)
        super().__init__(f"unknown {kind} {name!r}{guess}; valid {plural}: {', '.join(self.valid)}")


def did_you_mean(name, valid) -> str:
    """``" (did you mean 'pentominoes'?)"`` for a near miss among ``valid``, else ``""``."""
    import difflib

    if not isinstance(name, str):
        return ""
    folded = {v.lower(): v for v in valid if isinstance(v, str)}
    close = difflib.get_close_matches(name.lower(), list(folded), n=1, cutoff=0.75)
    return f" (did you mean {folded[close[0]]!r}?)" if close else ""
