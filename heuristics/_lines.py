"""Shared kernels: the k-windows of a board (which cells are playable now is ``games._board._playable``).

A *window* is a run of ``k`` consecutive cells along one of the four
directions (horizontal, vertical, and both diagonals).  Every k-in-a-row
evaluator in the seeds is a sum over windows or over lines, so the window
table is computed once per board size and passed to the kernels.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from numba import njit

from games._jit import JIT

DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))
"""(row step, col step): horizontal, vertical, down-right diagonal, down-left diagonal."""


@njit(**JIT)
def _count_windows(rows: int, cols: int, k: int) -> int:
    """Number of k-windows on a ``rows x cols`` board."""
    n = 0
    for r in range(rows):
        for c in range(cols):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                r_end, c_end = r + (k - 1) * dr, c + (k - 1) * dc
                if 0 <= r_end < rows and 0 <= c_end < cols:
                    n += 1
    return n


@njit(**JIT)
def _fill_windows(rows: int, cols: int, k: int, out: np.ndarray) -> None:
    """Write every k-window's cells, in line order, into ``out`` (int32[n_windows, k])."""
    n = 0
    for r in range(rows):
        for c in range(cols):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                r_end, c_end = r + (k - 1) * dr, c + (k - 1) * dc
                if 0 <= r_end < rows and 0 <= c_end < cols:
                    for i in range(k):
                        out[n, i] = (r + i * dr) * cols + c + i * dc
                    n += 1


@lru_cache(maxsize=64)
def window_table(rows: int, cols: int, k: int) -> np.ndarray:
    """All k-windows of the board as a read-only ``int32[n_windows, k]`` array of cells."""
    table = np.empty((_count_windows(rows, cols, k), k), dtype=np.int32)
    _fill_windows(rows, cols, k, table)
    table.setflags(write=False)
    return table
