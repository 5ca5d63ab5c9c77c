"""One numba entry point for every evaluator, switched on the kernel id.

Passing evaluator functions as arguments would force ``cache=False`` and a
recompile per evaluator in every caller; an integer switch keeps the search
kernels cacheable and costs one predictable branch.  The chains must be
literal (numba compiles one branch per evaluator; a chain built at run time
could not be cached), so they restate :data:`heuristics.registry.REGISTRY`:
``test_dispatch_chains_call_the_registered_kernels`` runs them as Python and
checks that each id reaches its registered module's kernels, and that an id
outside the registry fails the ``assert`` instead of being scored by some
evaluator.  Adding an evaluator adds one import pair and one branch to each
chain here (the assert moves to the new last id).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games._board import _action_cell, _count_heights
from games._jit import JIT
from heuristics._c4_features import _evaluate as _eval_c4_features
from heuristics._c4_features import _order as _order_c4_features
from heuristics._gomoku import _evaluate as _eval_gomoku
from heuristics._gomoku import _order as _order_gomoku
from heuristics._mics import _evaluate as _eval_mics
from heuristics._mics import _order as _order_mics
from heuristics._patterns import _evaluate as _eval_patterns
from heuristics._patterns import _order as _order_patterns
from heuristics._square_values import _evaluate as _eval_square_values
from heuristics._square_values import _order as _order_square_values
from heuristics._threats import _evaluate as _eval_threats
from heuristics._threats import _order as _order_threats
from heuristics._windows import _evaluate as _eval_windows
from heuristics._windows import _order as _order_windows


@njit(**JIT)
def _evaluate(hid, board, heights, rows, cols, k, gravity, me, weights, windows):  # type: ignore[no-untyped-def]
    """Score ``board`` for the side ``me`` with evaluator ``hid`` (see heuristics.spec for the arguments)."""
    if hid == 0:
        return _eval_c4_features(board, heights, rows, cols, k, gravity, me, weights, windows)
    if hid == 1:
        return _eval_square_values(board, heights, rows, cols, k, gravity, me, weights, windows)
    if hid == 2:
        return _eval_patterns(board, heights, rows, cols, k, gravity, me, weights, windows)
    if hid == 3:
        return _eval_windows(board, heights, rows, cols, k, gravity, me, weights, windows)
    if hid == 4:
        return _eval_mics(board, heights, rows, cols, k, gravity, me, weights, windows)
    if hid == 5:
        return _eval_threats(board, heights, rows, cols, k, gravity, me, weights, windows)
    # the last id: any other is no registered evaluator's, and must fail rather than be scored as this one
    assert hid == 6, "heuristic kernel id not in heuristics.registry.REGISTRY"
    return _eval_gomoku(board, heights, rows, cols, k, gravity, me, weights, windows)


@njit(**JIT)
def _order(hid, board, heights, rows, cols, k, gravity, me, weights, windows, cell):  # type: ignore[no-untyped-def]
    """Ordering score of ``me`` playing ``cell`` with evaluator ``hid`` (higher: search first)."""
    if hid == 0:
        return _order_c4_features(board, heights, rows, cols, k, gravity, me, weights, windows, cell)
    if hid == 1:
        return _order_square_values(board, heights, rows, cols, k, gravity, me, weights, windows, cell)
    if hid == 2:
        return _order_patterns(board, heights, rows, cols, k, gravity, me, weights, windows, cell)
    if hid == 3:
        return _order_windows(board, heights, rows, cols, k, gravity, me, weights, windows, cell)
    if hid == 4:
        return _order_mics(board, heights, rows, cols, k, gravity, me, weights, windows, cell)
    if hid == 5:
        return _order_threats(board, heights, rows, cols, k, gravity, me, weights, windows, cell)
    assert hid == 6, "heuristic kernel id not in heuristics.registry.REGISTRY"
    return _order_gomoku(board, heights, rows, cols, k, gravity, me, weights, windows, cell)


@njit(**JIT)
def _order_moves(hid, board, heights, rows, cols, k, gravity, me, weights, windows, moves, n, out):  # type: ignore[no-untyped-def]
    """Fill ``out[:n]`` with the ordering scores of actions ``moves[:n]`` (columns or cells)."""
    for i in range(n):
        action = moves[i]
        cell = _action_cell(action, heights, rows, cols, gravity)
        out[i] = _order(hid, board, heights, rows, cols, k, gravity, me, weights, windows, cell)


@njit(**JIT)
def _evaluate_many(hid, boards, rows, cols, k, gravity, plies, weights, windows, out):  # type: ignore[no-untyped-def]
    """Evaluate each board of ``boards`` (int8[n, cells]) for its side to move (from ``plies``)."""
    heights = np.zeros(cols, dtype=np.int32)
    for b in range(boards.shape[0]):
        _count_heights(boards[b], cols, heights)
        out[b] = _evaluate(hid, boards[b], heights, rows, cols, k, gravity, 1 + (plies[b] & 1), weights, windows)
