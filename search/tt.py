"""The transposition table shared by both search kernels.

Entries are 32 bytes, two per cache line, laid out as one structured
buffer; the kernels receive one strided view per field (key, score,
depth, bound flag, best move, stamp), so a probe or a store touches one
line.  Win scores are stored relative to their node (``search.alphabeta._negamax``).
"""

from __future__ import annotations

import os
import threading
from functools import lru_cache
from typing import Any, Optional

import numpy as np
import numpy.typing as npt

from games.checks import INT64_MAX, check_int, is_integer, shown
from search.errors import SearchError

_ENTRY = np.dtype([("key", np.uint64), ("score", np.float64), ("depth", np.int32), ("flag", np.int32),
                   ("move", np.int32), ("stamp", np.int32)])  # fmt: skip
"""One table entry, 32 bytes: two per 64-byte cache line, so a probe or a store touches one line."""
_LAST_GENERATION = 2**31 - 1
_GIB = 1 << 30


class TableSizeError(SearchError):
    """A table size that cannot be allocated (the message says how much memory it asked for and what is allowed)."""


@lru_cache(maxsize=None)
def physical_memory() -> int:
    """This machine's physical memory in bytes (2**62 if the system does not say).

    Tables are refused beyond it: Linux overcommits, so a larger ``np.zeros``
    may succeed and the process is killed later, when the pages are touched.
    """
    try:
        return int(os.sysconf("SC_PAGE_SIZE")) * int(os.sysconf("SC_PHYS_PAGES"))
    except (AttributeError, OSError, ValueError):  # not POSIX, or the names are unknown
        return 1 << 62


def max_slots(slot_bytes: int) -> int:
    """The largest power-of-two slot count whose table fits in :func:`physical_memory`."""
    return 1 << ((physical_memory() // slot_bytes).bit_length() - 1)


def check_table_size(name: str, size: object, slot_bytes: int, low: int = 1, high: Optional[int] = None) -> int:
    """``size`` (slots, an integer) rounded up to a power of two, if that table fits in memory.

    Args:
        name: the argument's name for the message (``tt_size``).
        size: the requested slot count.
        slot_bytes: bytes per slot.
        low, high: the allowed range before the memory check (``high``:
            default and cap :func:`max_slots`).

    Raises:
        TableSizeError: not an integer, below ``low``, or a table larger than
            ``high`` or this machine's memory; the message gives the bytes asked for.
    """
    fits = max_slots(slot_bytes)
    top = min(high or INT64_MAX, fits)
    limit = (f"{_gib(top * slot_bytes)}, the most that fits in this machine's {_gib(physical_memory())} of memory"
             if top == fits else f"{_gib(top * slot_bytes)}")  # fmt: skip
    if is_integer(size) and int(size) > top:  # type: ignore[call-overload]
        nbytes = (1 << (int(size) - 1).bit_length()) * slot_bytes  # type: ignore[call-overload]
        raise TableSizeError(f"{name}={shown(size)} asks for {nbytes} bytes ({_gib(nbytes)}) at {slot_bytes} bytes a slot: "
                             f"{name} must be an integer from {low} to {top} ({limit})")  # fmt: skip
    try:
        slots = check_int(name, size, low=low, high=top)
    except ValueError as exc:
        raise TableSizeError(f"{exc} ({limit})") from None
    return 1 << max(0, (slots - 1).bit_length())


def allocate(name: str, slots: int, dtype: npt.DTypeLike) -> np.ndarray:
    """``np.zeros(slots, dtype)``, a :class:`TableSizeError` naming ``name`` if the memory is not there.

    Raises:
        TableSizeError: the allocation failed (MemoryError), with the bytes asked for.
    """
    try:
        return np.zeros(slots, dtype=dtype)
    except MemoryError:
        nbytes = slots * np.dtype(dtype).itemsize
        raise TableSizeError(f"{name}: cannot allocate a table of {slots} slots: {nbytes} bytes ({_gib(nbytes)}) "
                             f"asked for, not available now (this machine has {_gib(physical_memory())})") from None  # fmt: skip


def _gib(nbytes: int) -> str:
    return f"{nbytes / _GIB:.3g} GiB"


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
        size: number of entries, rounded up to a power of two and at least 2
            (default 2**20, 32 MB); at most what fits in this machine's memory.

    Raises:
        TableSizeError: ``size`` is not a positive integer, or the table does
            not fit in memory (the message gives the bytes asked for and the limit).
    """

    def __init__(self, size: int = 1 << 20) -> None:
        # at least 2 slots: one slot's field views would be contiguous, which numba types as another array layout
        # (layout "C", not "A"): another signature, so the whole search would compile again for it
        self._allocate(max(check_table_size("tt_size", size, _ENTRY.itemsize), 2))
        self.generation = 1
        """Stamp of the valid entries; every stamp starts at 0."""

    def _allocate(self, size: int) -> None:
        """Zeroed entries aligned to a cache line, and the field views into them."""
        raw = allocate("tt_size", size * _ENTRY.itemsize + 64, np.uint8)
        start = -raw.ctypes.data % 64  # align the first entry to a cache line
        self._entries = raw[start : start + size * _ENTRY.itemsize].view(_ENTRY)
        self.keys = self._entries["key"]
        self.scores = self._entries["score"]
        self.depths = self._entries["depth"]
        self.flags = self._entries["flag"]
        self.moves = self._entries["move"]
        self.stamps = self._entries["stamp"]

    def __getstate__(self) -> dict[str, object]:
        """Pickled (and deep-copied) as its entries and generation.  Pickled one by one, each field view would
        come back a contiguous copy of its own: no longer the table's memory, and another array layout, for which
        the search kernels would compile again."""
        return {"entries": self._entries, "generation": self.generation}

    def __setstate__(self, state: dict[str, Any]) -> None:
        """The entries copied into a new aligned buffer, the field views made again."""
        entries = state["entries"]
        self._allocate(entries.size)
        self._entries[:] = entries
        self.generation = state["generation"]

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
