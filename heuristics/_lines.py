"""Shared kernels: the k-windows of a board (which cells are playable now is ``games._board._playable``).

A *window* is a run of ``k`` consecutive cells along one of the four
directions (horizontal, vertical, and both diagonals).  Every k-in-a-row
evaluator of the sources is a sum over windows or over lines, so the window
table is computed once per board size and passed to the kernels.  A move
changes only the windows through its cell: :func:`_stones_in_window` walks
those (at most ``4 k``) for the evaluators' O(k^2) ordering kernels.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from numba import njit

from games._jit import JIT, JIT_INLINE

DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))
"""(row step, col step): horizontal, vertical, down-right diagonal, down-left diagonal."""


@njit(**JIT)
def _fill_windows(rows: int, cols: int, k: int, out: np.ndarray) -> int:
    """Write every k-window's cells, in line order, into ``out`` (int32[>= n_windows, k]); return n_windows."""
    n = 0
    for r in range(rows):
        for c in range(cols):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                r_end, c_end = r + (k - 1) * dr, c + (k - 1) * dc
                if 0 <= r_end < rows and 0 <= c_end < cols:
                    for i in range(k):
                        out[n, i] = (r + i * dr) * cols + c + i * dc
                    n += 1
    return n


@lru_cache(maxsize=64)
def window_table(rows: int, cols: int, k: int) -> np.ndarray:
    """All k-windows of the board as a read-only ``int32[n_windows, k]`` array of cells."""
    room = np.empty((4 * rows * cols, k), dtype=np.int32)  # at most one window starts per cell and direction
    table = room[: _fill_windows(rows, cols, k, room)].copy()
    table.setflags(write=False)
    return table


@njit(**JIT_INLINE)  # takes arrays: see games._jit.JIT_INLINE
def _stones_in_window(board, rows, cols, k, me, row, col, dr, dc, s):  # type: ignore[no-untyped-def]
    """Stones of ``me`` and of the other side in one k-window through cell (row, col): ``(own, opp)``, ``(-1, -1)`` off the board.

    The window runs along direction ``(dr, dc)`` (one of :data:`DIRECTIONS`)
    and starts ``s`` steps before the cell, so every direction and ``s`` in
    range(k) walk every window through it.  The caller splits the cell into
    row and column and picks the direction outside the loop over ``s``: done
    here, per window, they cost the ordering kernels a quarter of their time.
    board : int8[rows * cols], 0 empty, 1/2 stones; ``me`` is 1 or 2.
    """
    r0, c0 = row - s * dr, col - s * dc
    r1, c1 = r0 + (k - 1) * dr, c0 + (k - 1) * dc
    if not (0 <= r0 < rows and 0 <= c0 < cols and 0 <= r1 < rows and 0 <= c1 < cols):
        return -1, -1
    start, step = r0 * cols + c0, dr * cols + dc  # a straight line is an arithmetic run of flat indices
    own, opp = 0, 0
    for i in range(k):
        v = board[start + i * step]
        if v == me:
            own += 1
        elif v != 0:
            opp += 1
    return own, opp
