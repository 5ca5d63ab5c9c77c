"""``windows``: the COMP 472 danger/goodness window heuristic, and the generic per-count window score.

Source: Huang and Li's COMP 472 report on the Double Card game (4 in a
row), section 2.3 "Heuristic 2".

What the report says.  Slide every window of ``k`` consecutive cells (k = 4 in
the report) along rows, columns and both diagonals and count the stones of
each kind in it ("occurrence times").  For a window holding ``c`` stones::

    maxAllowPerc = (k - 1) / k          PercWon = c / k
    dangerous    = PercWon * DANGER / maxAllowPerc         DANGER = 100
    goodness     = c**2 * GOOD / (k - 1)**2                GOOD = 50

A player's stones make "danger" for the other player and "goodness" for
itself; the four sums (danger and goodness of each side) are combined "with
a weight to each value" into ScoreAI and ScoreHuman, and the heuristic
returns ScoreAI - ScoreHuman.

Decisions where the report is vague:

* **Combination.** ScoreAI = a * goodness(AI) - b * danger(to AI), the danger
  to AI being made by the human's stones, and ScoreHuman mirrored.  Then
  ScoreAI - ScoreHuman = a * (good_own - good_opp) + b * (danger_by_own -
  danger_by_opp): each window scores ``phi(own) - phi(opp)``.  The report's
  unstated a and b are folded into the two weights ``good`` and ``danger``
  (defaults GOOD = 50 and DANGER = 100, i.e. a = b = 1).  The score is
  own minus opponent with the same weights for both, so it is antisymmetric
  in colour, as the report's ``ScoreAI - ScoreHuman`` already is.
* **Blocked windows.** The report counts a colour in every window, even one
  that also holds the other colour (in Double Card a card carries both a
  colour and a dot, so nothing "blocks").  The report terms of a window that
  also holds opponent stones are multiplied by ``blocked_scale``: 1 (the
  default) is the report, 0 scores open windows only.
* **The generic form** ("a weight per number of own stones in each k-window
  free of opponent stones").  A window with ``c >= 1`` own stones, no
  opponent stone and ``m = k - c >= 1`` empty cells adds ``missing_1``,
  ``missing_2`` or ``missing_3`` for m = 1, 2, 3, and ``missing_3 *
  missing_decay ** (m - 3)`` for m >= 4; complete windows (m = 0) add
  nothing (a win is the search's business).  These weights default to 0, so
  the default evaluator is exactly the report's heuristic 2; set ``good`` and
  ``danger`` to 0 and the missing weights on to get the pure generic form.
* One window scores, from a player's side, with own count ``c`` and
  opponent count ``o``::

      phi(c, o) = s * (good * c**2 / (k-1)**2 + danger * c / (k-1))   # s = blocked_scale if o else 1
                  + [o == 0 and 1 <= c < k] * w(k - c)
      window score = phi(c, o) - phi(o, c)

  and the evaluation is the sum over all windows.  Gravity is ignored.

Sizes: every board and every ``k >= 2``; nothing is refused.

Incremental state (in the spirit of the COMP 472 report's section 4.1, "solution 3": one
move changes only the windows through its cell, so do not rescan the board): :func:`_window_counts` gives the stone counts of each window for both
players, :func:`_cell_windows` the windows through each cell, :func:`_apply`
updates the counts for one play or undo and returns the score change, and
:func:`_score_from_counts` the score itself.  ``_order`` returns the exact
score change of playing a cell, in O(k^2) without those tables.
"""

# Kernels return elements of untyped NumPy arrays, which mypy reads as Any; numba types them itself.
# mypy: disable-error-code="no-any-return"
from __future__ import annotations

from typing import Mapping

import numpy as np
from numba import njit

from games import KInARow
from games._jit import JIT
from heuristics._lines import DIRECTIONS, _stones_in_window
from heuristics.spec import HeuristicSpec, WeightSpec, any_game, n_windows, power_or_inf

# Kernel indices into ``weights`` (the order of SPEC.weights).
_GOOD, _DANGER, _BLOCKED_SCALE, _MISSING_1, _MISSING_2, _MISSING_3, _MISSING_DECAY = 0, 1, 2, 3, 4, 5, 6


def _max_abs(game: KInARow, w: Mapping[str, float]) -> float:
    """The ``bound`` of SPEC (heuristics.bounds): ``|evaluate|`` never exceeds it on ``game``'s board."""
    k = game.k
    ratio = k / (k - 1)  # c / (k - 1) with c <= k stones
    report = max(1.0, abs(w["blocked_scale"])) * (abs(w["good"]) * ratio**2 + abs(w["danger"]) * ratio)
    generic = max(abs(w["missing_1"]), abs(w["missing_2"]), abs(w["missing_3"]))
    generic *= power_or_inf(max(1.0, abs(w["missing_decay"])), max(0, k - 4))
    return n_windows(game) * 2 * (report + generic)  # a window scores phi(own) - phi(opponent)


SPEC = HeuristicSpec(
    name="windows",
    summary="COMP 472 heuristic 2: danger/goodness of every k-window, plus per-count window weights, own minus opponent",
    source="COMP 472 report on the Double Card game (Huang, Li), section 2.3 (Heuristic 2)",
    weights=(
        WeightSpec("good", 50.0, 0.0, 500.0, doc="GOOD FACTOR: a window with c own stones adds good * c^2 / (k-1)^2"),
        WeightSpec("danger", 100.0, 0.0, 1_000.0, doc="DANGER FACTOR: a window with c own stones adds danger * c / (k-1)"),
        WeightSpec("blocked_scale", 1.0, 0.0, 1.0, doc="factor on the good/danger terms of windows that also hold opponent stones"),
        WeightSpec("missing_1", 0.0, 0.0, 2_000.0, doc="generic form: an opponent-free window one stone short of k"),
        WeightSpec("missing_2", 0.0, 0.0, 500.0, doc="generic form: an opponent-free window two stones short of k"),
        WeightSpec("missing_3", 0.0, 0.0, 200.0, doc="generic form: an opponent-free window three stones short of k"),
        WeightSpec("missing_decay", 0.5, 0.0, 1.0, doc="generic form: m >= 4 stones short scores missing_3 * missing_decay^(m-3)"),
    ),
    refuse=any_game,
    bound=_max_abs,
)


@njit(**JIT)
def _phi(c: int, o: int, k: int, weights: np.ndarray) -> float:
    """One window's value for a side with ``c`` stones in it, the other side having ``o``.

    weights : float64[7] in SPEC order.
    """
    if c == 0:
        return 0.0
    report = weights[_GOOD] * (c * c) / ((k - 1) * (k - 1)) + weights[_DANGER] * c / (k - 1)
    if o > 0:
        return weights[_BLOCKED_SCALE] * report
    m = k - c
    if m == 1:
        return report + weights[_MISSING_1]
    if m == 2:
        return report + weights[_MISSING_2]
    if m == 3:
        return report + weights[_MISSING_3]
    if m >= 4:
        return report + weights[_MISSING_3] * weights[_MISSING_DECAY] ** (m - 3)
    return report


@njit(**JIT)
def _pair(a: int, b: int, k: int, weights: np.ndarray) -> float:
    """A window's score for the first player (stone 1) holding ``a`` stones, the second ``b``."""
    return _phi(a, b, k, weights) - _phi(b, a, k, weights)


@njit(**JIT)
def _evaluate(board: np.ndarray, heights: np.ndarray, rows: int, cols: int, k: int, gravity: bool,
              me: int, weights: np.ndarray, windows: np.ndarray) -> float:
    """Sum over all k-windows of phi(own) - phi(opp) (heights and gravity unused).

    board : int8[rows * cols]; weights : float64[7]; windows : int32[n_windows, k].
    """
    assert me == 1 or me == 2
    # Summed through the histogram of window counts, not window by window: the
    # incremental search state keeps that histogram, and the same float sum
    # over it makes both values equal bit for bit (heuristics._incremental).
    hist = np.zeros((k + 1) * (k + 1), dtype=np.int64)
    for w in range(windows.shape[0]):
        a = 0
        b = 0
        for i in range(k):
            v = board[windows[w, i]]
            if v == 1:
                a += 1
            elif v == 2:
                b += 1
        hist[a * (k + 1) + b] += 1
    total = _histogram_score(hist, _pair_table(k, weights))
    return total if me == 1 else -total


@njit(**JIT)
def _order(board: np.ndarray, heights: np.ndarray, rows: int, cols: int, k: int, gravity: bool,
           me: int, weights: np.ndarray, windows: np.ndarray, cell: int) -> float:
    """The exact change of ``_evaluate`` (for ``me``) if ``me`` plays ``cell``: O(k^2), no table.

    board : int8[rows * cols], ``board[cell]`` empty.
    """
    assert board[cell] == 0
    row, col = cell // cols, cell % cols
    change = 0.0
    for dr, dc in DIRECTIONS:
        for s in range(k):
            own, opp = _stones_in_window(board, rows, cols, k, me, row, col, dr, dc, s)
            if own >= 0:  # on the board
                change += (_phi(own + 1, opp, k, weights) - _phi(opp, own + 1, k, weights)) - (
                    _phi(own, opp, k, weights) - _phi(opp, own, k, weights)
                )
    return change


@njit(**JIT)
def _window_counts(board: np.ndarray, windows: np.ndarray) -> np.ndarray:
    """Stones of each player in each window: int32[2, n_windows], row 0 for stone 1, row 1 for stone 2.

    board : int8[n_cells]; windows : int32[n_windows, k].
    """
    counts = np.zeros((2, windows.shape[0]), dtype=np.int32)
    for w in range(windows.shape[0]):
        for i in range(windows.shape[1]):
            v = board[windows[w, i]]
            if v != 0:
                counts[v - 1, w] += 1
    return counts


@njit(**JIT)
def _cell_windows(windows: np.ndarray, n_cells: int) -> np.ndarray:
    """The windows through each cell: int32[n_cells, max windows per cell], padded with -1.

    windows : int32[n_windows, k].
    """
    per_cell = np.zeros(n_cells, dtype=np.int32)
    for w in range(windows.shape[0]):
        for i in range(windows.shape[1]):
            per_cell[windows[w, i]] += 1
    width = per_cell.max() if n_cells > 0 else 0
    table = np.full((n_cells, width), -1, dtype=np.int32)
    per_cell[:] = 0
    for w in range(windows.shape[0]):
        for i in range(windows.shape[1]):
            cell = windows[w, i]
            table[cell, per_cell[cell]] = w
            per_cell[cell] += 1
    return table


@njit(**JIT)
def _apply(counts: np.ndarray, cell_windows: np.ndarray, cell: int, player_index: int, sign: int,
           k: int, me: int, weights: np.ndarray) -> float:
    """Add (sign = 1, a play) or remove (sign = -1, an undo) a stone; return the score change for ``me``.

    counts : int32[2, n_windows] from ``_window_counts``, updated in place;
    cell_windows : int32[n_cells, width] from ``_cell_windows``;
    player_index : 0 for stone 1, 1 for stone 2.
    """
    assert sign == 1 or sign == -1
    change = 0.0
    for j in range(cell_windows.shape[1]):
        w = cell_windows[cell, j]
        if w < 0:
            break
        before = _pair(counts[0, w], counts[1, w], k, weights)
        counts[player_index, w] += sign
        change += _pair(counts[0, w], counts[1, w], k, weights) - before
    return change if me == 1 else -change


@njit(**JIT)
def _score_from_counts(counts: np.ndarray, k: int, me: int, weights: np.ndarray) -> float:
    """``_evaluate`` from the window counts. counts : int32[2, n_windows]."""
    total = 0.0
    for w in range(counts.shape[1]):
        total += _pair(counts[0, w], counts[1, w], k, weights)
    return total if me == 1 else -total


@njit(**JIT)
def _pair_table(k: int, weights: np.ndarray) -> np.ndarray:
    """``_pair(a, b)`` for every pair of counts: float64[(k + 1) ** 2], index ``a * (k + 1) + b`` (0 where a + b > k)."""
    table = np.zeros((k + 1) * (k + 1), dtype=np.float64)
    for a in range(k + 1):
        for b in range(k + 1 - a):
            table[a * (k + 1) + b] = _pair(a, b, k, weights)
    return table


@njit(**JIT)
def _histogram_score(hist: np.ndarray, table: np.ndarray) -> float:
    """The score for stone 1 from the number of windows of each count pair, summed in index order.

    hist : int64[(k + 1) ** 2], windows per ``a * (k + 1) + b``; table : float64[(k + 1) ** 2] from ``_pair_table``.
    O(k^2), whatever the board size.
    """
    total = 0.0
    for i in range(hist.shape[0]):
        if hist[i] != 0:
            total += hist[i] * table[i]
    return total
