"""The square-value heuristic, Kang et al.'s "Heuristics-2", the "online sample" (their 2019 JILSA paper, section 3.3.2).

What the paper says (section 3.3.2): the
heuristic looks at no features; every square has a value, larger near the
middle column and rows ("the values are corresponding to the square's
expansion space"), given for the 6x7 board as the matrix (top row first)::

    3 4  5  7  5 4 3
    4 6  8 10  8 6 4
    5 8 11 13 11 8 5
    5 8 11 13 11 8 5
    4 6  8 10  8 6 4
    3 4  5  7  5 4 3

Each stone scores the value of its square, own minus opponent's.

Decisions: the matrix is exactly the number of 4-in-a-row windows (in the four
directions) through each square, which :func:`square_value_table` computes
for any ``rows x cols`` and ``k`` (a test checks the 6x7, k=4 table against
the paper's matrix literally), so the heuristic covers every board, with or
without gravity.  One weight, ``scale``, multiplies the whole score (default
1, the paper's values); 0 switches the heuristic off.  ``_evaluate`` uses
"sum over stones of the windows through them = sum over windows of the stones
in them" and walks the window table; ``_order`` is the value of the square
(times ``scale``), counted in O(k).

Sizes refused: none.
"""

from __future__ import annotations

from typing import Mapping

import numpy as np
from numba import njit

from games import KInARow
from games._jit import JIT
from heuristics._lines import window_table
from heuristics.spec import HeuristicSpec, WeightSpec, any_game, n_windows

NAME = "square_values"


def _max_abs(game: KInARow, w: Mapping[str, float]) -> float:
    """The ``bound`` of SPEC (heuristics.bounds): ``|evaluate|`` never exceeds it on ``game``'s board."""
    # sum over windows of the stones in them: at most k stones in each window, both colours together
    return abs(w["scale"]) * n_windows(game) * game.k


SPEC = HeuristicSpec(
    name=NAME,
    summary="each stone scores the number of k-windows through its square, own minus opponent's",
    source="Kang, Wang, Hu 2019 (JILSA 11:15-31), section 3.3.2 Heuristics-2",
    weights=(WeightSpec("scale", 1.0, 0.01, 100.0, log=True, doc="multiplies every square value (the paper's matrix at 1)"),),
    refuse=any_game,
    bound=_max_abs,
)


def square_value_table(rows: int, cols: int, k: int) -> np.ndarray:
    """The value of every square: how many k-windows pass through it.

    Args:
        rows: board height.
        cols: board width.
        k: window length (stones in a row to win).

    Returns:
        ``int64[rows, cols]``, row 0 at the top.

    Example:
        >>> square_value_table(3, 3, 3).tolist()
        [[3, 2, 3], [2, 4, 2], [3, 2, 3]]
    """
    counts = np.bincount(window_table(rows, cols, k).ravel(), minlength=rows * cols)
    return counts.astype(np.int64).reshape(rows, cols)


@njit(**JIT)
def _windows_through(rows: int, cols: int, k: int, cell: int) -> int:
    """Number of k-windows through ``cell`` on a ``rows x cols`` board: O(k)."""
    r, c = cell // cols, cell % cols
    n = 0
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
        # Windows starting t squares back along (dr, dc) that fit on the board.
        for t in range(k):
            r0, c0 = r - t * dr, c - t * dc
            r1, c1 = r0 + (k - 1) * dr, c0 + (k - 1) * dc
            if 0 <= r0 < rows and 0 <= c0 < cols and 0 <= r1 < rows and 0 <= c1 < cols:
                n += 1
    return n


@njit(**JIT)
def _evaluate(board, heights, rows, cols, k, gravity, me, weights, windows):  # type: ignore[no-untyped-def]
    """``scale`` times the square values of ``me``'s stones minus the opponent's.

    board : int8[rows * cols]; weights : float64[1] (scale);
    windows : int32[n_windows, k], each window counts its own minus opponent stones.
    """
    total = 0
    for w in range(windows.shape[0]):
        for i in range(k):
            s = board[windows[w, i]]
            if s == me:
                total += 1
            elif s != 0:
                total -= 1
    return weights[0] * total


@njit(**JIT)
def _order(board, heights, rows, cols, k, gravity, me, weights, windows, cell):  # type: ignore[no-untyped-def]
    """``scale`` times the value of ``cell`` (the k-windows through it)."""
    return weights[0] * _windows_through(rows, cols, k, cell)
