"""Reading and writing files, with one way of saying what went wrong.

Every reader and writer in polyfit goes through these helpers, so a missing file, a directory
where a file should be, or a disk that refuses a write is always one clear
:class:`~polyfit.errors.PolyfitError` naming the file ("cannot read FILE: reason"), never an
``OSError`` traceback; and nothing the user has is replaced without ``--force``.
"""

from __future__ import annotations

import json
import os
import tempfile
import threading
from pathlib import Path

from polyfit.errors import ParseError, PolyfitError
from polyfit.limits import check, limit


def cannot(verb: str, path, exc: BaseException | str) -> PolyfitError:
    """The error for a failed file operation: ``cannot VERB PATH: reason``, the reason being
    the system's words for an ``OSError``, or given as text."""
    if isinstance(exc, str):
        reason = exc
    else:
        reason = getattr(exc, "strerror", None) or str(exc) or type(exc).__name__
    return PolyfitError(f"cannot {verb} {path}: {reason}")


def read_bytes(path, what: str | None = None) -> bytes:
    """A file's bytes, refusing files over the ``file-bytes`` limit (a device such as
    /dev/zero, which never ends, included) before reading them whole; a missing file is
    "no such WHAT: PATH" when ``what`` names its kind."""
    most = limit("file-bytes")
    try:
        with open(path, "rb") as f:
            data = f.read(most + 1)
    except FileNotFoundError as exc:
        if what is None:
            raise cannot("read", path, exc) from None
        raise PolyfitError(f"no such {what}: {path}") from None
    except (OSError, ValueError) as exc:  # ValueError: a NUL in the name
        raise cannot("read", path, exc) from None
    check("file-bytes", len(data), str(path))
    return data


def decode(data: bytes, path) -> str:
    """UTF-8 text, or a ParseError at the line and column of the first bad byte."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = data[: exc.start]
        line = before.count(b"\n") + 1
        column = exc.start - (before.rfind(b"\n") + 1) + 1
        raise ParseError(path, line, column, "the file is not UTF-8 text") from None


def read_text(path, what: str | None = None) -> str:
    """A UTF-8 text file's contents (``what``: as for :func:`read_bytes`)."""
    return decode(read_bytes(path, what), path)


def split_lines(text: str):
    """Yield ``(line_number, line)``, 1-based, without line endings (\\n, \\r\\n or \\r)."""
    for number, line in enumerate(text.splitlines(), start=1):
        yield number, line


def check_writable(path: Path, force: bool) -> None:
    """Refuse to replace an existing file unless forced, or to write where nothing can be."""
    path = Path(path)
    if path.exists() and not force:
        raise PolyfitError(f"{path} exists; use --force to overwrite it")
    if path.is_dir():
        raise PolyfitError(f"{path} is a directory")
    if not path.parent.is_dir():
        raise cannot("write", path, f"directory {path.parent} does not exist")


def write_bytes(path, data: bytes) -> None:
    try:
        Path(path).write_bytes(data)
    except OSError as exc:
        raise cannot("write", path, exc) from None


def write_text(path, text: str) -> None:
    write_bytes(path, text.encode("utf-8"))


def _unique_keys(pairs: list) -> dict:
    keys = [key for key, _ in pairs]
    if len(set(keys)) != len(keys):
        twice = next(key for key in keys if keys.count(key) > 1)
        raise ValueError(f"the key {twice!r} is there twice")
    return dict(pairs)


def read_json(path, what: str) -> dict:
    """A JSON object from a file polyfit wrote, or a clear error naming ``what`` it should be
    (a key given twice, of which JSON readers silently keep one, included). Its fields are
    the caller's to check (:mod:`polyfit.longsearch.fields`)."""
    raw = read_bytes(path, what)  # a missing, unreadable or huge file: its own clear error
    try:
        data = json.loads(raw.decode("utf-8"), object_pairs_hook=_unique_keys)
    except (ValueError, RecursionError) as exc:  # bad UTF-8 or JSON, numbers too long, nesting
        raise PolyfitError(f"{path} is not a polyfit {what} ({exc})") from None
    if not isinstance(data, dict):
        raise PolyfitError(f"{path} is not a polyfit {what}")
    return data


_umask_lock = threading.Lock()


def current_umask() -> int:
    """The process's umask, read without changing it where the system tells it (Linux's
    /proc/self/status), else by setting and restoring it under a lock."""
    try:
        with open("/proc/self/status", "rb") as f:
            for line in f:
                if line.startswith(b"Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    with _umask_lock:
        mask = os.umask(0o022)
        os.umask(mask)
    return mask


def write_json_atomically(path, data) -> None:
    """Write JSON to a temporary file beside ``path``, flush it to disk, then rename it over
    ``path``: a reader (or a kill at any moment) sees the old file or the new, never half.

    The file gets the mode the umask gives a new file (not the owner-only mode of a
    temporary file), so a batch system running as another user can read job files."""
    path = Path(path)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
        try:
            os.chmod(tmp, 0o666 & ~current_umask())
            with os.fdopen(fd, "w") as f:
                json.dump(data, f)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    except OSError as exc:
        raise cannot("write", path, exc) from None
