"""Opening-book kernels: a 6x7 Connect-4 position's book code (and its mirror's), and the lookup.

The code is the one of John Tromp's 8-ply database and of the
bitbully-databases books (:mod:`search.solve.book` reads their files): the
columns left to right, each from the bottom up, a stone as two bits (``10``
the first player's, ``11`` the second's) and a ``0`` closing every column
(a full column too), then one ``0`` of padding; the first bit is the top bit
of a 32-bit word.  A 12-stone position takes exactly ``2 * 12 + 7 + 1 = 32``
bits.  Worked example: ``4453`` (columns 1-based): column 3 holds a
second-player stone, column 4 a first-player stone under a second-player
one, column 5 a first-player stone, so by column and with the padding::

    0 0 110 10110 100 0 0 0  ->  0011 0101 1010 0000, then 16 zero bits

Bit layout of the position: :mod:`games._bits` (bit ``col * (rows + 1) + row``).

The book keeps one of the two mirror images of each position (whichever its
author stored), so a lookup tries the code of the position, then the code of
its mirror.  The table (``Connect4Book``) holds the codes sorted as unsigned
words (``keys``), their scores (``scores``) and, for every value of the top
16 bits, where its codes start (``index``, 65,537 entries): a lookup is a
binary search of a few dozen codes, one or two cache lines.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games._jit import JIT

BOOK_ROWS, BOOK_COLS = 6, 7
"""The only board the book codes describe (Connect-4 6x7)."""
INDEX_BITS = 16
"""The top bits of a code that select its bucket in ``index``."""
MISSING = 127
"""What ``_book_score`` returns for a position the book does not hold (no score is that large)."""

_ONE = np.uint64(1)
_ZERO = np.uint64(0)


@njit(**JIT)
def _book_codes(current: np.uint64, mask: np.uint64, ply: int) -> tuple[np.uint32, np.uint32]:
    """``(code, code of the mirror image)`` of a 6x7 position with ``ply`` stones (at most 12: longer codes overflow).

    current, mask : uint64 bitboards (the side to move's stones, every stone).
    """
    first = current if ply % 2 == 0 else current ^ mask  # the book names stones by player, not by turn
    code = np.uint64(0)
    mirror = np.uint64(0)
    at = 32  # bits not yet written, counted from the top of the word
    mirror_at = 32
    for rank in range(BOOK_COLS):
        for side in range(2):
            col = rank if side == 0 else BOOK_COLS - 1 - rank
            written = 0 if side == 0 else 1
            bits = _ZERO
            width = 0
            for row in range(BOOK_ROWS):
                cell = _ONE << np.uint64(col * (BOOK_ROWS + 1) + row)
                if mask & cell == _ZERO:
                    break
                bits = (bits << np.uint64(2)) | (np.uint64(2) if first & cell != _ZERO else np.uint64(3))
                width += 2
            bits <<= _ONE  # the column's closing 0
            width += 1
            if written == 0:
                at -= width
                code |= bits << np.uint64(at)
            else:
                mirror_at -= width
                mirror |= bits << np.uint64(mirror_at)
    return np.uint32(code), np.uint32(mirror)


@njit(**JIT)
def _book_find(code: np.uint32, keys: np.ndarray, index: np.ndarray) -> int:
    """Where ``code`` is in ``keys``, or -1.

    keys : uint32[n]  sorted codes; index : int64[2**INDEX_BITS + 1]  ``index[b]`` = first code whose top bits are ``b``.
    """
    bucket = int(code >> np.uint32(32 - INDEX_BITS))
    low, high = index[bucket], index[bucket + 1]  # the answer, if any, lies in keys[low:high]
    while low < high:
        middle = (low + high) >> 1
        here = keys[middle]
        if here == code:
            return middle
        if here < code:
            low = middle + 1
        else:
            high = middle
    return -1


@njit(**JIT)
def _book_score(current: np.uint64, mask: np.uint64, ply: int, keys: np.ndarray, scores: np.ndarray,
                index: np.ndarray) -> int:  # fmt: skip
    """The book's score of a position (side to move, benchmark convention), or ``MISSING``.

    keys : uint32[n], index : int64[65537] (see ``_book_find``); scores : int8[n] the score of each code's position.
    """
    code, mirror = _book_codes(current, mask, ply)
    at = _book_find(code, keys, index)
    if at < 0 and mirror != code:
        at = _book_find(mirror, keys, index)
    return MISSING if at < 0 else int(scores[at])
