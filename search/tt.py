"""The transposition table shared by both search kernels.

Entries are 32 bytes, two per cache line, laid out as one structured
buffer; the kernels receive one strided view per field (key, score,
depth, bound flag, best move, stamp), so a probe or a store touches one
line.  Win scores are stored relative to their node (``search._negamax``).
"""

from __future__ import annotations

import threading
from typing import Optional

import numpy as np

_ENTRY = np.dtype([("key", np.uint64), ("score", np.float64), ("depth", np.int32), ("flag", np.int32),
                   ("move", np.int32), ("stamp", np.int32)])  # fmt: skip
"""One table entry, 32 bytes: two per 64-byte cache line, so a probe or a store touches one line."""
_LAST_GENERATION = 2**31 - 1


class TranspositionTable:
    """Fixed-size arrays of (key, score, depth, bound, move), one entry per slot, slots chosen by the key.

    Keep one per game (entries stay valid across its moves); :meth:`clear`
    between games.  Always-replace: the newest entry takes the slot.  The
    fields are strided views (``keys``, ``scores``, ``depths``, ``flags``,
    ``moves``, ``stamps``) into one buffer of 32-byte entries aligned to
    cache lines: a probe reads one line instead of five.  An entry is
    valid only if its stamp is the table's ``generation``, so
    :meth:`forget` empties the table with one increment.

    Args:
        size: number of entries, rounded up to a power of two (default 2**20,
            32 MB).
    """

    def __init__(self, size: int = 1 << 20) -> None:
        if isinstance(size, bool) or not isinstance(size, int) or size < 1:
            raise ValueError(f"tt size={size!r} must be a positive integer")
        size = 1 << max(0, (size - 1).bit_length())
        raw = np.zeros(size * _ENTRY.itemsize + 64, dtype=np.uint8)
        start = -raw.ctypes.data % 64  # align the first entry to a cache line
        self._entries = raw[start : start + size * _ENTRY.itemsize].view(_ENTRY)
        self.keys = self._entries["key"]
        self.scores = self._entries["score"]
        self.depths = self._entries["depth"]
        self.flags = self._entries["flag"]
        self.moves = self._entries["move"]
        self.stamps = self._entries["stamp"]
        self.generation = 1
        """Stamp of the valid entries; every stamp starts at 0."""

    @property
    def size(self) -> int:
        """Number of slots."""
        return int(self.keys.size)

    def clear(self) -> None:
        """Empty every slot (a new game)."""
        self.keys[:] = 0
        self.forget()

    def forget(self) -> None:
        """Make every entry invalid without touching it: a new generation, so no stamp matches (O(1))."""
        self.generation += 1
        if self.generation == _LAST_GENERATION:  # after two billion of these: start over from zeros
            self._entries.fill(0)
            self.generation = 1


_SCRATCH = threading.local()


def _scratch_table() -> TranspositionTable:
    """An empty table of 2**16 entries for a search given none: this thread's, emptied by ``forget``.

    Forgetting costs nothing (a new generation); allocating a fresh 2 MB table
    costs its page faults on first touch, up to a millisecond, more than a
    whole depth-8 Connect-4 search.
    """
    table: Optional[TranspositionTable] = getattr(_SCRATCH, "table", None)
    if table is None:
        table = _SCRATCH.table = TranspositionTable(1 << 16)
    else:
        table.forget()
    return table
