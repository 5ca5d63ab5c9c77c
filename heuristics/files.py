"""Atomic file writes (the one helper every writer of the project uses: weight files, opening books, reports),
the one guarded reader of the files a user names (:func:`read_bytes_capped`, :func:`read_text_capped`: weight
files, reports, puzzle, opening, label and ladder files) and the one guarded JSON parser (:func:`parse_json`).

A file a user names is read only if it is a regular file of at most
:data:`MAX_INPUT_BYTES`: a folder, a named pipe (which would block the reader
until someone writes to it), a device (``/dev/zero`` never ends) or a socket
is refused by a one-line error before anything is read.

A reader sees the old file or the new one, never half of one: the data go
to a temporary file in the target's folder (same file system, so the rename
is atomic), are flushed to disk (``fsync``), and the temporary file is
renamed over the target (``os.replace``).  On any failure, an interrupt
included, the temporary file is removed and the target is left as it was.

The file gets the permissions an ordinary ``open(path, "w")`` would give,
``0o666`` minus the umask, not the ``0o600`` of :func:`tempfile.mkstemp`
(an exported weight file or report must be readable by the rest of the team).

Example:
    >>> import pathlib, tempfile
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> write_text_atomic(folder / "note.txt", "hello\\n").name
    'note.txt'
    >>> (folder / "note.txt").read_text()
    'hello\\n'
"""

from __future__ import annotations

import json
import os
import stat
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator, Optional, Union

PathLike = Union[str, "os.PathLike[str]"]

MAX_INPUT_BYTES = 64 * 1024 * 1024
"""The most bytes read from a file a user names (64 MiB).  The project's own files are far smaller: weight files and
puzzle sets are kilobytes, and a tournament report holding every move of every game (25 Bologna configurations, 4
games a pair, thousands of moves on 70x70) a few megabytes; a file over it is not one of them, and reading
``/dev/zero`` or a disk image by mistake must end in an error, not in a machine out of memory."""

_KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a named pipe (FIFO)"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))  # fmt: skip


def _not_regular(mode: int) -> str:
    """What a file of this mode is, if not a regular file (empty if it is one)."""
    if stat.S_ISREG(mode):
        return ""
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")


def read_bytes_capped(path: PathLike, error: type[ValueError] = ValueError, limit: Optional[int] = None) -> bytes:
    """The bytes of the regular file ``path``, refusing anything else before reading a byte.

    The path is checked twice: ``os.stat`` before opening it (a device is not
    even opened), and ``os.fstat`` on the opened descriptor (the file read is the
    file checked, even if the path was swapped in between).  It is opened
    non-blocking, so a named pipe cannot hang the opening; at most ``limit + 1``
    bytes are read, so a file growing meanwhile is caught too.

    Args:
        error: the exception class raised (a ``ValueError``: the caller's domain error), its one-line message
            starting with ``path``.
        limit: the most bytes accepted (None: :data:`MAX_INPUT_BYTES`, read at the call).

    Raises:
        ValueError: (``error``) a missing or unreadable file, a folder, a named pipe, a device or a socket, or a
            file over ``limit`` bytes.
    """
    where = os.fspath(path)
    limit = MAX_INPUT_BYTES if limit is None else limit
    allowed = f"only a regular file of at most {_size(limit)} is read"
    try:
        kind = _not_regular(os.stat(where).st_mode)
        if kind:
            raise error(f"{where}: {kind}, not a regular file: {allowed}")
        flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_BINARY", 0)
        fd = os.open(where, flags)
        with os.fdopen(fd, "rb") as stream:
            found = os.fstat(stream.fileno())
            kind = _not_regular(found.st_mode)
            if kind:
                raise error(f"{where}: {kind}, not a regular file: {allowed}")
            data = stream.read(limit + 1) if found.st_size <= limit else b""
            if found.st_size > limit or len(data) > limit:
                raise error(f"{where}: {_size(max(found.st_size, len(data)))} is too large: {allowed}")
    except OSError as exc:
        raise error(f"{where}: cannot read: {exc.strerror or exc}") from None
    return data


def read_text_capped(path: PathLike, error: type[ValueError] = ValueError, limit: Optional[int] = None) -> str:
    """:func:`read_bytes_capped`, decoded as UTF-8 (text that is not UTF-8 raises ``error`` too)."""
    data = read_bytes_capped(path, error, limit)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise error(f"{os.fspath(path)}: not UTF-8 text: {exc}") from None


def _size(count: int) -> str:
    """A byte count for a message: ``64 MiB``, ``1.5 KiB``, ``12 bytes``."""
    for unit, scale in (("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if count >= scale:
            return f"{count / scale:.4g} {unit}"
    return f"{count} bytes"


def _umask() -> int:
    """The process umask, read without changing it where the system allows (``os.umask`` can only set it)."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:  # Linux: no window where another thread sees 0
            for line in status:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


@contextmanager
def atomic_path(path: PathLike) -> Iterator[Path]:
    """Yield a temporary path beside ``path`` for a writer that needs a file name (``savefig``, a library's
    ``save``); on success give it mode ``0o666 & ~umask`` and rename it over ``path``, else remove it.

    The temporary name keeps ``path``'s suffix, since some writers choose the format from it.
    """
    target = Path(path)
    handle, temp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=target.suffix or ".tmp", dir=target.parent)
    os.close(handle)
    try:
        yield Path(temp)
        os.chmod(temp, 0o666 & ~_umask())
        os.replace(temp, target)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


def write_bytes_atomic(path: PathLike, data: bytes) -> Path:
    """Write ``data`` to ``path`` atomically, with mode ``0o666 & ~umask``; return the path.

    Raises:
        OSError: the folder does not exist or is not writable, the disk is
            full, ...; no temporary file is left behind.
    """
    target = Path(path)
    handle, temp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(handle, "wb") as stream:
            if hasattr(os, "fchmod"):  # POSIX (Windows has no such modes to fix)
                os.fchmod(stream.fileno(), 0o666 & ~_umask())
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temp, target)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
    return target


def write_text_atomic(path: PathLike, text: str) -> Path:
    """Write ``text`` (UTF-8) to ``path`` atomically, as :func:`write_bytes_atomic`; return the path."""
    return write_bytes_atomic(path, text.encode("utf-8"))


def parse_json(text: str, source: PathLike, error: type[ValueError] = ValueError) -> Any:
    """The JSON document in ``text`` (read from ``source``), refusing what ``json.loads`` lets through or dies on.

    Args:
        error: the exception class raised (a ``ValueError``), its message starting with ``source``.

    Raises:
        ValueError: (``error``) bad JSON, a key repeated in one object
            (``json`` keeps the last silently: a value given twice must not
            pass), an integer over Python's digit limit, or nesting too deep
            for the parser (a RecursionError otherwise).
    """

    def unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        seen: dict[str, Any] = {}
        for key, value in pairs:
            if key in seen:
                raise error(f"{source}: key {key!r} appears twice in one JSON object")
            seen[key] = value
        return seen

    try:
        return json.loads(text, object_pairs_hook=unique)
    except RecursionError:
        raise error(f"{source}: JSON nested too deeply to read") from None
    except ValueError as exc:  # JSONDecodeError, and an integer over Python's digit limit (4300)
        if isinstance(exc, error) and str(exc).startswith(f"{source}: key "):
            raise
        raise error(f"{source}: not valid JSON: {exc}") from None


def describe_json(value: Any) -> str:
    """A parsed JSON value for an error message: a short repr of a scalar, the kind of a container (whose repr
    could be megabytes long, or nested too deeply to print).

    Example:
        >>> describe_json("h8"), describe_json([1, 2]), describe_json({"a": 1}), describe_json(None)
        ("'h8'", 'a list', 'an object', 'null')
    """
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    text = "null" if value is None else "true" if value is True else "false" if value is False else repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
