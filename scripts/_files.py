"""Atomic writes for the scripts: a reader sees the old file or the new one, never half of one.

Every file a script writes goes through here, over the library's one
helper (:mod:`heuristics.files`); what this adds is creating missing output
folders and publishing a whole experiment's files at once.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from heuristics import files


@contextmanager
def atomic_path(path: Path) -> Iterator[Path]:
    """:func:`heuristics.files.atomic_path`, after creating ``path``'s missing parent folders."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with files.atomic_path(path) as temp:
        yield temp


def write_text_atomic(path: Path, text: str) -> None:
    """:func:`heuristics.files.write_text_atomic`, after creating ``path``'s missing parent folders."""
    path.parent.mkdir(parents=True, exist_ok=True)
    files.write_text_atomic(path, text)


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
