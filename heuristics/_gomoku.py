"""``gomoku``: the pattern-table evaluation of the gomoku engine, as a named, tunable weight set.

Source: the pattern evaluation of classical Gomocup engines (Rapfi, Embryo, Yixin, as their authors
describe them publicly) over the line patterns of :mod:`heuristics._gomoku_lines`: every empty cell is
scored, for each colour, by the patterns it would make in its four lines (weights ``weak`` .. ``open_four``)
plus a bonus for its combination (``double_three``, ``four_three``, ``double_four``: an open four or two
fours is a sure win next move); the position is the side to move's sum minus the opponent's.  ``defence``
is the move ordering's share of the opponent's value of a cell (playing it blocks the opponent).

The weights are used by the gomoku engine (:class:`search.gomoku.GomokuEngine`), which keeps them
incrementally; fives and fours are the engine's business (a five-cell is a win or a forced reply), so they
have no weight.  Boards: ``4 <= k <= 15``; the engine plays free boards only (on a gravity board the evaluator
scores the stones as if free, for the generic search).
"""

# Kernels return elements of untyped NumPy arrays, which mypy reads as Any; numba types them itself.
# mypy: disable-error-code="no-any-return"
from __future__ import annotations

import math
from typing import Mapping, Optional

import numpy as np
from numba import njit

from games import KInARow
from games._jit import JIT
from heuristics._gomoku_lines import FIVE, FOUR, OPEN_FOUR, OPEN_THREE, THREE, WEAK, _scan_code
from heuristics.spec import HeuristicSpec, WeightSpec, n_windows

_DIRS = np.array([[0, 1], [1, 0], [1, 1], [1, -1]], dtype=np.int64)
MAX_K = 15
"""The longest line the engine's 64-bit segment keys hold (2 bits per cell, 2k cells under exact-k)."""


def refuse_game(game: KInARow) -> Optional[str]:
    """Why the gomoku engine does not play ``game`` (gravity, k < 4 or k > 15), or None."""
    if game.gravity:
        return "it needs a board without gravity"
    return _refuse(game)


def _refuse(game: KInARow) -> Optional[str]:
    """The evaluator's own refusal: lines of 4 to 15 (it scores gravity boards as if free, like ``patterns``)."""
    if not 4 <= game.k <= MAX_K:
        return f"the gomoku evaluator needs 4 <= k <= {MAX_K}, got k={game.k}"
    return None


def _max_abs(game: KInARow, weights: Mapping[str, float]) -> float:
    """Each empty cell scores at most 4 patterns plus one bonus per colour."""
    patterns = max(abs(weights[name]) for name in ("weak", "two", "open_two", "three", "open_three", "four", "open_four"))
    bonus = max(abs(weights[name]) for name in ("double_three", "four_three", "double_four"))
    total = 2.0 * game.n_cells * (4 * patterns + bonus)
    return total if math.isfinite(total) and n_windows(game) >= 0 else math.inf


SPEC = HeuristicSpec(
    name="gomoku",
    summary="pattern table of the gomoku engine: per-cell line patterns and combinations, own minus opponent",
    source="Gomocup engines' pattern evaluation (Rapfi, Embryo, Yixin, as publicly described); Allis 1994 for the threats",
    weights=(
        WeightSpec("weak", 1.0, 0.0, 20.0, doc="a cell sharing a live window with another own stone, 4+ short"),
        WeightSpec("two", 3.0, 0.0, 50.0, doc="a cell making a closed two (three short of k)"),
        WeightSpec("open_two", 10.0, 0.0, 100.0, doc="a cell making an open two"),
        WeightSpec("three", 12.0, 0.0, 200.0, doc="a cell making a closed three (two short of k)"),
        WeightSpec("open_three", 45.0, 0.0, 500.0, doc="a cell making an open three"),
        WeightSpec("four", 50.0, 0.0, 1000.0, doc="a cell making a four (one short, one completing cell)"),
        WeightSpec("open_four", 300.0, 0.0, 5000.0, doc="a cell making an open four (two completing cells)"),
        WeightSpec("double_three", 120.0, 0.0, 2000.0, doc="bonus of a cell making two open threes"),
        WeightSpec("four_three", 250.0, 0.0, 5000.0, doc="bonus of a cell making a four and an open three"),
        WeightSpec("double_four", 300.0, 0.0, 5000.0, doc="bonus of a cell that wins next move (open four or two fours)"),
        WeightSpec("defence", 0.8, 0.0, 2.0, doc="move ordering: share of the opponent's value of a cell"),
    ),
    refuse=_refuse,
    bound=_max_abs,
)


@njit(**JIT)
def _cell_value(board: np.ndarray, rows: int, cols: int, k: int, stone: int, weights: np.ndarray, cell: int) -> float:
    """Value of ``cell`` (empty) for ``stone`` (1 or 2) from scratch: its four freestyle patterns by scan, plus its class bonus.

    board : int8[rows * cols]; weights : float64[11] in SPEC order.
    """
    half = k - 1
    row, col = cell // cols, cell % cols
    value, fives, open_fours, fours, threes, low = 0.0, 0, 0, 0, 0, 0
    for d in range(4):
        dr, dc = _DIRS[d, 0], _DIRS[d, 1]
        key = np.int64(0)
        for j in range(-half, half + 1):
            if j == 0:
                continue
            r, c = row + j * dr, col + j * dc
            digit = 3 if r < 0 or r >= rows or c < 0 or c >= cols else board[r * cols + c]
            if digit == 1 or digit == 2:
                digit = 1 if digit == stone else 2
            key |= np.int64(digit) << np.int64(2 * (j + half if j < 0 else j + half - 1))
        code = _scan_code(key, half, k, False)
        if 1 <= code <= 7:
            value += weights[code - 1]
        fives += code == FIVE
        open_fours += code == OPEN_FOUR
        fours += code == FOUR
        threes += code == OPEN_THREE
        low += WEAK <= code < OPEN_THREE or code == THREE
    if fives == 0:
        if open_fours or fours >= 2:
            value += weights[9]
        elif fours and threes:
            value += weights[8]
        elif not fours and threes >= 2:
            value += weights[7]
    return value


@njit(**JIT)
def _evaluate(board: np.ndarray, heights: np.ndarray, rows: int, cols: int, k: int, gravity: bool,
              me: int, weights: np.ndarray, windows: np.ndarray) -> float:  # fmt: skip
    """Own minus opponent sum of the empty cells' values (freestyle patterns; heights, gravity, windows unused).

    board : int8[rows * cols]; weights : float64[11] in SPEC order.  The gomoku engine keeps the same sum
    incrementally under the game's own rule (exact-k included).
    """
    total = 0.0
    for cell in range(rows * cols):
        if board[cell] == 0:
            total += _cell_value(board, rows, cols, k, me, weights, cell)
            total -= _cell_value(board, rows, cols, k, 3 - me, weights, cell)
    return total


@njit(**JIT)
def _order(board: np.ndarray, heights: np.ndarray, rows: int, cols: int, k: int, gravity: bool,
           me: int, weights: np.ndarray, windows: np.ndarray, cell: int) -> float:  # fmt: skip
    """Ordering score of ``me`` playing ``cell``: its value for ``me`` plus ``defence`` times its value for the
    opponent (the engine's ordering without its table, killers and history); O(k^2) per call."""
    own = _cell_value(board, rows, cols, k, me, weights, cell)
    return own + weights[10] * _cell_value(board, rows, cols, k, 3 - me, weights, cell)
