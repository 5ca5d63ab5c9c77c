"""Where the tuner keeps what it can make again but should not have to: openings and label sets, per board and rule.

Private to :mod:`tuning`.  The folder is ``$ALPHABETA_GYM_CACHE`` when set, else
``$XDG_CACHE_HOME/alphabeta-gym``, else ``~/.cache/alphabeta-gym`` (the XDG
base-directory convention pip and numba follow too).  Every file in it is
written atomically (a temporary file renamed over the target), so a run
killed while writing leaves the old file or none, never half of one, and two
runs writing the same entry leave one of the two whole.  Deleting the folder
is always safe: whatever is missing is made again.
"""

from __future__ import annotations

import os
from pathlib import Path

CACHE_ENV = "ALPHABETA_GYM_CACHE"
"""The environment variable that moves the cache (tests point it at a temporary folder)."""


def cache_dir() -> Path:
    """The cache folder (it may not exist yet)."""
    explicit = os.environ.get(CACHE_ENV)
    if explicit:
        return Path(explicit).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base).expanduser() / "alphabeta-gym"
