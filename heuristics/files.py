"""Atomic file writes (the one helper every writer of the project uses: weight files, opening books, reports),
and the one guarded JSON reader (weight files, rating ladders).

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
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator, Union

PathLike = Union[str, "os.PathLike[str]"]


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
