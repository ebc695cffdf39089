"""Reading and writing files, with one way of saying what went wrong.

Every reader and writer in polyfit goes through these helpers, so a missing file, a directory
where a file should be, or a disk that refuses a write is always one clear
:class:`~polyfit.errors.PolyfitError` naming the file ("cannot read FILE: reason"), never an
``OSError`` traceback; and nothing the user has is replaced without ``--force``.
"""

from __future__ import annotations

import errno
import json
import os
import re
import stat
from contextlib import contextmanager
from pathlib import Path

from polyfit.errors import OutputExistsError, ParseError, PolyfitError
from polyfit.limits import check, limit


def cannot(verb: str, path, exc: BaseException | str) -> PolyfitError:
    """The error for a failed file operation: ``cannot VERB PATH: reason``, the reason being
    the system's words for an ``OSError``, or given as text."""
    if isinstance(exc, str):
        reason = exc
    else:
        reason = getattr(exc, "strerror", None) or str(exc) or type(exc).__name__
    return PolyfitError(f"cannot {verb} {path}: {reason}")


def path_status(path, verb: str = "read") -> os.stat_result | None:
    """What the system knows of ``path`` (``os.stat``), or None when nothing is there (or a
    folder on the way is a file). Any other failure, a name longer than the system allows or a
    folder that cannot be searched, is ``cannot VERB PATH: reason``: pathlib's ``exists()``
    and ``is_dir()`` raise ``OSError`` for those."""
    try:
        return os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        return None
    except (OSError, ValueError) as exc:  # ValueError: a NUL in the name
        raise cannot(verb, path, exc) from None


def path_exists(path, verb: str = "read") -> bool:
    """Is there anything at ``path``? (Errors as :func:`path_status`.)"""
    return path_status(path, verb) is not None


def path_is_dir(path, verb: str = "read") -> bool:
    """Is ``path`` a folder? (Errors as :func:`path_status`.)"""
    found = path_status(path, verb)
    return found is not None and stat.S_ISDIR(found.st_mode)


def path_is_file(path, verb: str = "read") -> bool:
    """Is ``path`` a regular file? (Errors as :func:`path_status`.)"""
    found = path_status(path, verb)
    return found is not None and stat.S_ISREG(found.st_mode)


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
    """UTF-8 text, or a ParseError at the line and column of the first bad byte. A byte-order
    mark at the start (some editors write one) is not part of the text."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
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


def exists_error(path) -> OutputExistsError:
    return OutputExistsError(path)


def check_writable(path: Path, force: bool) -> None:
    """Refuse to replace an existing file unless forced, or to write where nothing can be.

    An early check, so a bad path fails before a long search; the write itself goes through
    :func:`write_output`, which checks again at the last moment."""
    path = Path(path)
    if path_exists(path, "write") and not force:
        raise exists_error(path)
    if path_is_dir(path, "write"):
        raise PolyfitError(f"{path} is a directory")
    if not path_is_dir(path.parent, "write"):
        raise cannot("write", path, f"directory {path.parent} does not exist")


def write_bytes(path, data: bytes) -> None:
    try:
        Path(path).write_bytes(data)
    except OSError as exc:
        raise cannot("write", path, exc) from None


def write_text(path, text: str) -> None:
    write_bytes(path, text.encode("utf-8"))


# -- output files: created whole, never over a file that appeared meanwhile -------------------

# link() is not offered everywhere (some network and FAT file systems): these say so.
NO_HARD_LINKS = {errno.EPERM, errno.EOPNOTSUPP, errno.ENOTSUP, errno.ENOSYS, errno.EXDEV}


def temporary_names(path: Path) -> re.Pattern:
    """The names of the temporary files :func:`_new_temporary` makes beside ``path`` (what a
    kill can leave behind)."""
    return re.compile(re.escape(f".{Path(path).name[:64]}.") + r"[0-9a-f]{8}\.part")


def _new_temporary(path: Path) -> tuple[int, Path]:
    """A new empty file beside ``path``, open for writing. Made with mode 0666 so the umask
    gives it the mode any new file gets (mkstemp's would be 0600)."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    while True:
        tmp = path.with_name(f".{path.name[:64]}.{os.urandom(4).hex()}.part")
        try:
            return os.open(tmp, flags, 0o666), tmp
        except FileExistsError:
            continue


def _copy_exclusively(tmp: Path, path: Path) -> None:
    """Where hard links are not offered: create ``path`` exclusively and copy into it."""
    import shutil  # here, not at the top: every start of the command line imports this module

    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o666)
    try:
        with os.fdopen(fd, "wb") as target, open(tmp, "rb") as source:
            shutil.copyfileobj(source, target)
    except BaseException:
        path.unlink(missing_ok=True)
        raise


def _put_in_place(tmp: Path, path: Path, force: bool) -> None:
    """Give the finished file ``tmp`` the name ``path``: with ``force`` by an atomic rename
    over whatever is there; without, by a hard link, which the system refuses when ``path``
    exists, even if it appeared a moment ago (``tmp`` is left for the caller to remove)."""
    if force:
        os.replace(tmp, path)
        return
    try:
        os.link(tmp, path)
    except FileExistsError:
        if path.is_dir():
            raise cannot("write", path, os.strerror(errno.EISDIR)) from None
        raise exists_error(path) from None
    except OSError as exc:
        if exc.errno not in NO_HARD_LINKS:
            raise
        try:
            _copy_exclusively(tmp, path)
        except FileExistsError:
            raise exists_error(path) from None


def write_output(path, data: bytes, force: bool = False) -> None:
    """Write a file the user asked for, whole or not at all, and never over an existing file
    unless ``force``: the bytes go to a temporary file beside ``path``, which then takes its
    place (see :func:`_put_in_place`). Every output file polyfit writes comes here, or
    through :func:`output_file`."""
    path = Path(path)
    tmp = None
    try:
        fd, tmp = _new_temporary(path)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        _put_in_place(tmp, path, force)
    except OSError as exc:
        raise cannot("write", path, exc) from None
    finally:
        if tmp is not None:
            tmp.unlink(missing_ok=True)


def write_output_text(path, text: str, force: bool = False) -> None:
    write_output(path, text.encode("utf-8"), force)


@contextmanager
def output_file(path, force: bool = False):
    """For writers that want a path rather than bytes (exporters): yields a path of the same
    name in a private temporary directory beside ``path``; when the block ends without an
    error, the file written there is put at ``path`` as :func:`write_output` puts its bytes,
    and the directory goes, with anything else left in it."""
    import shutil
    import tempfile  # here, not at the top: every start of the command line imports this module

    path = Path(path)
    try:
        staging = Path(tempfile.mkdtemp(prefix=f".{path.name[:64]}.", suffix=".part", dir=path.parent))
    except OSError as exc:
        raise cannot("write", path, exc) from None
    try:
        staged = staging / path.name
        yield staged
        if not staged.is_file():
            raise cannot("write", path, "nothing was written")
        try:
            with open(staged, "rb") as f:
                os.fsync(f.fileno())
            _put_in_place(staged, path, force)
        except OSError as exc:
            raise cannot("write", path, exc) from None
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _unique_keys(pairs: list) -> dict:
    keys = [key for key, _ in pairs]
    if len(set(keys)) != len(keys):
        twice = next(key for key in keys if keys.count(key) > 1)
        raise ValueError(f"the key {twice!r} is there twice")
    return dict(pairs)


def read_json(path, what: str) -> dict:
    """A JSON object from a file polyfit wrote, or a clear error naming ``what`` it should be
    (a key given twice, of which JSON readers silently keep one, included). Its fields are
    the caller's to check (:mod:`polyfit.fields`)."""
    raw = read_bytes(path, what)  # a missing, unreadable or huge file: its own clear error
    try:
        data = json.loads(raw.decode("utf-8"), object_pairs_hook=_unique_keys)
    except (ValueError, RecursionError) as exc:  # bad UTF-8 or JSON, numbers too long, nesting
        raise PolyfitError(f"{path} is not a polyfit {what} ({exc})") from None
    if not isinstance(data, dict):
        raise PolyfitError(f"{path} is not a polyfit {what}")
    return data


def write_json_atomically(path, data) -> None:
    """Write JSON to a temporary file beside ``path``, flush it to disk, then rename it over
    ``path``: a reader (or a kill at any moment) sees the old file or the new, never half.

    The file gets the mode the umask gives a new file (not the owner-only mode of a
    temporary file), so a batch system running as another user can read job files."""
    path = Path(path)
    try:
        fd, tmp = _new_temporary(path)
        try:
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
