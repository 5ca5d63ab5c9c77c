"""Atomic writes for the scripts: a reader sees the old file or the new one, never half of one.

Every file a script writes goes through here, so that moving to the
library's shared helper is a change of this one module.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator


@contextmanager
def atomic_path(path: Path) -> Iterator[Path]:
    """Yield a temporary path beside ``path`` (same suffix) to write; rename it over ``path`` on success.

    The missing parent folders are created.  If the body raises, the
    temporary file is removed and ``path`` is left as it was.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=path.suffix or ".tmp", dir=path.parent)
    os.close(handle)
    try:
        yield Path(temp)
        os.chmod(temp, _mode(path))  # mkstemp creates 0600: give the file the mode a plain open() would
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


def _mode(path: Path) -> int:
    """The permission bits ``path`` keeps if it exists, else those of a new file under the current umask."""
    if path.exists():
        return path.stat().st_mode & 0o777
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def write_text_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` atomically (flushed to disk before the rename)."""
    with atomic_path(path) as temp, open(temp, "w", encoding="utf-8") as stream:
        stream.write(text)
        stream.flush()
        os.fsync(stream.fileno())


@contextmanager
def staged_folder(out: Path, name: str) -> Iterator[Path]:
    """Yield an empty hidden folder inside ``out`` to write a set of files; publish them only if the body succeeds.

    On success each file is renamed into ``out`` (atomic per file, replacing
    the previous version); if the body raises, or is interrupted, nothing in
    ``out`` changes.  The staging folder is always removed, and so is ``out``
    if this call created it and it stayed empty.
    """
    created = not out.exists()
    out.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{name}.", suffix=".staging", dir=out))
    try:
        yield staging
        for path in sorted(staging.iterdir()):
            os.replace(path, out / path.name)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
        if created and not any(out.iterdir()):
            out.rmdir()
