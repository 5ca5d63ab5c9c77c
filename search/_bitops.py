"""Bitboard primitives of the search kernel (``search._bitnegamax``): threat masks, columns, table slots, budgets.

Layout of ``games._bits`` (Pascal Pons' position): bit ``col * (rows + 1) +
row``, row 0 at the bottom, a sentinel bit on top of every column that is
never set.  Shifting a word by ``s`` moves every stone one step along a line:
``1`` up, ``H = rows + 1`` right, ``H + 1`` up-right, ``H - 1`` down-right;
a step off the board lands on a sentinel or falls out of the word.

Worked example (6x7, ``k = 4``): own stones on (col 1, row 0), (col 2, row 0)
and (col 3, row 0), bits 7, 14 and 21 (``H = 7``).  ``stones << 7`` has bits
14, 21, 28 and ``stones << 14`` bits 21, 28, 35: their AND with
``stones << 21`` (28, 35, 42) is bit 28, the square (col 4, row 0) with
three own stones behind it; the mirrored pattern finds bit 0, (col 0, row
0).  Those are the two squares that complete the row.

Every helper is inlined into its caller (``JIT_INLINE``) and takes scalars
only, so the search loop pays neither a call nor numba's reference counting.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games._jit import JIT_INLINE
from heuristics._c4_bits import _count
from search._negamax import _now

_ONE = np.uint64(1)
_ZERO = np.uint64(0)
_ALL = np.uint64(0xFFFFFFFFFFFFFFFF)
_HASH = np.uint64(0x9E3779B97F4A7C15)  # 2**64 / golden ratio: spreads Pons' keys over the table


@njit(**JIT_INLINE)
def _winning_squares(stones: np.uint64, rows: int, cols: int, k: int) -> np.uint64:
    """Every square (empty or not) where a stone would give ``stones`` k or more in a row.

    Along a line with shift ``s``, a square wins if it has ``a`` own stones
    right behind it and ``k - 1 - a`` right ahead, for some ``a``: an AND of
    shifted copies per ``a``.  Vertically only ``a = k - 1`` matters (with
    gravity nothing lies above an empty square).  Lines shorter than ``k``
    are skipped, which also keeps every shift below 64 (``(k - 1) * s`` fits
    the word when a line of ``k`` does).  The result has bits on sentinels
    and past the board too: callers AND it with the board's empty squares.  ``k == 4`` (Connect-4) takes the unrolled path of Pons'
    ``compute_winning_position``: six times faster than the loops.
    """
    height = rows + 1
    if k == 4 and rows >= 4 and cols >= 4:
        won = (stones << _ONE) & (stones << np.uint64(2)) & (stones << np.uint64(3))  # vertical: three below
        for s in (np.uint64(height), np.uint64(height + 1), np.uint64(height - 1)):
            s2, s3 = s + s, s + s + s
            pair = (stones << s) & (stones << s2)  # two behind
            won |= pair & ((stones << s3) | (stones >> s))  # OOO. and OO.O
            pair = (stones >> s) & (stones >> s2)  # two ahead
            won |= pair & ((stones >> s3) | (stones << s))  # .OOO and O.OO
        return won
    won = _ZERO
    if rows >= k:
        behind = _ALL
        for a in range(1, k):
            behind &= stones << np.uint64(a)
        won |= behind
    for d in range(3):
        if d == 0:
            s, length = height, cols  # horizontal
        elif d == 1:
            s, length = height + 1, min(rows, cols)  # diagonal up-right
        else:
            s, length = height - 1, min(rows, cols)  # diagonal down-right
        if length < k:
            continue
        behind = _ALL  # own stones on the a squares behind
        for a in range(k):
            ahead = _ALL  # and on the k - 1 - a squares ahead
            for b in range(1, k - a):
                ahead &= stones >> np.uint64(b * s)
            won |= behind & ahead
            if a + 1 < k:
                behind &= stones << np.uint64((a + 1) * s)
    return won


@njit(**JIT_INLINE)
def _column(rows: int, col: int) -> np.uint64:
    """Every playable square of ``col``."""
    return ((_ONE << np.uint64(rows)) - _ONE) << np.uint64(col * (rows + 1))


@njit(**JIT_INLINE)
def _first_column(squares: np.uint64, rows: int) -> int:
    """Column of the lowest set bit of ``squares`` (not 0)."""
    low = squares & (~squares + _ONE)
    return _count(low - _ONE) // (rows + 1)


@njit(**JIT_INLINE)
def _count_node(nodes: int, node_limit: int, check_time: bool, time_mask: int, deadline: float) -> tuple[int, bool]:
    """``(nodes, aborted)`` after counting one more node (``_negamax._budget_exhausted``'s rules).

    A node past the node budget is not counted, so the count never exceeds
    it; the clock is read every ``time_mask + 1`` nodes.
    """
    if node_limit > 0 and nodes >= node_limit:
        return nodes, True
    nodes += 1
    return nodes, check_time and (nodes & time_mask) == 0 and _now() > deadline


@njit(**JIT_INLINE)
def _tt_slot(key: np.uint64, size: int) -> int:
    """Table slot of ``key`` (``size`` a power of two); int64 so numba never mixes it with uint64 into float."""
    h = key * _HASH
    return np.int64((h ^ (h >> np.uint64(29))) & np.uint64(size - 1))


@njit(**JIT_INLINE)
def _clip(value: float, limit: float) -> float:
    """``value`` clipped to ``[-limit, limit]``."""
    return min(max(value, -limit), limit)


@njit(**JIT_INLINE)
def _time_mask(nodes: int, seconds: float) -> int:
    """A mask 2**j - 1 so that 2**j nodes take about half a millisecond at the measured rate (as ``engine._time_mask``)."""
    interval = np.int64(nodes / max(seconds, 1e-6) * 0.0005)
    j = -1  # bit_length(interval) - 1
    while interval > 0:
        interval >>= 1
        j += 1
    return (1 << max(0, min(10, j))) - 1
