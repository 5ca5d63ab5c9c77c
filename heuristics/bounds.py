"""How large an evaluation can get: the bound that keeps heuristic values out of the search's win-score band.

The search (:mod:`search.protocol`) scores a forced win ``WIN_SCORE - plies``
and treats any score beyond ``EVALUATION_LIMIT`` as a forced result.  A
heuristic value at or past that limit would be clipped to it (all such
positions then look alike), and a weight like ``1e308`` makes the kernels
overflow to ``inf`` or ``nan``, which the search reads as a forced win or
loss: a silently wrong move.  So weights are refused, when an
:class:`~heuristics.Evaluator` or a weight file is built for a game, unless

    max_abs_evaluation(heuristic, game, weights) < EVALUATION_LIMIT

``max_abs_evaluation`` is an upper bound on ``|evaluate(position)|`` over
every position of the board, from each heuristic's definition: (the most
times a feature can occur on the board) x (its weight), summed, for both
players.  The bounds are loose (a factor of a few to a hundred above what
real positions reach), which costs nothing in practice: the defaults and the
whole tuning ranges pass on Connect-4, tic-tac-toe and gomoku with orders of
magnitude to spare (a test checks it), and a weight large enough to be
refused would drown every other feature anyway.

Example:
    >>> from games import CONNECT4
    >>> max_abs_evaluation("square_values", CONNECT4, {"scale": 1.0})   # 69 windows x 4 stones
    276.0
"""

from __future__ import annotations

import math
from typing import Callable, Mapping

from games import KInARow

WIN_SCORE = 1e15
"""The search's score of winning now (re-exported by :mod:`search.protocol`); exact in float64 minus any ply count."""
EVALUATION_LIMIT = WIN_SCORE / 10
"""Heuristic values stay strictly inside ``+-EVALUATION_LIMIT``; ``(EVALUATION_LIMIT, WIN_SCORE]`` holds win scores."""

_Bound = Callable[[KInARow, Mapping[str, float]], float]


def n_windows(game: KInARow) -> int:
    """The number of k-windows (runs of k cells in the four directions) on the board."""
    across, down = max(0, game.cols - game.k + 1), max(0, game.rows - game.k + 1)
    return game.rows * across + game.cols * down + 2 * across * down


def _power(base: float, exponent: int) -> float:
    """``base ** exponent``, ``inf`` instead of OverflowError."""
    try:
        return float(base**exponent)
    except OverflowError:
        return math.inf


def _square_values(game: KInARow, w: Mapping[str, float]) -> float:
    # sum over windows of the stones in them: at most k stones in each window, both colours together
    return abs(w["scale"]) * n_windows(game) * game.k


def _c4_features(game: KInARow, w: Mapping[str, float]) -> float:
    # Per player and feature: F1 and the broken three count windows (<= n_windows), F2/F3 count maximal runs
    # (<= one per cell and direction: 4 cells), F4 lone stones (<= cells); f3_two_side counts up to 2 squares.
    per_feature = n_windows(game) + 4 * game.n_cells
    return 2 * per_feature * (sum(abs(v) for v in w.values()) + abs(w["f3_two_side"]))


def _patterns(game: KInARow, w: Mapping[str, float]) -> float:
    # Per player, direction and shape: at most 2 occurrences (a shape and its mirror) per cell of a padded line,
    # and a padded line has at most 3 cells per board cell; the double-shape bonuses count once per stone.
    return 2 * 2 * 4 * 3 * game.n_cells * sum(abs(v) for v in w.values())


def _windows(game: KInARow, w: Mapping[str, float]) -> float:
    k = game.k
    ratio = k / (k - 1)  # c / (k - 1) with c <= k stones
    report = max(1.0, abs(w["blocked_scale"])) * (abs(w["good"]) * ratio**2 + abs(w["danger"]) * ratio)
    generic = max(abs(w["missing_1"]), abs(w["missing_2"]), abs(w["missing_3"]))
    generic *= _power(max(1.0, abs(w["missing_decay"])), max(0, k - 4))
    return n_windows(game) * 2 * (report + generic)  # a window scores phi(own) - phi(opponent)


def _mics(game: KInARow, w: Mapping[str, float]) -> float:
    k = game.k
    # The raw tier-3 value of a cell, per player: 4 directions x (<= k windows, <= 2(k - 1) friendly stones,
    # <= k best windows x mics_base ** (<= k)).  The kernel clamps it from above only (to tier_double / 32),
    # so it bounds the value when a weight is negative, and it must not overflow either way (inf * 0 is nan).
    terms = ("window_mult", "my_cell_mult", "mics_mult", "mics_base")
    raw = 4 * (abs(w["window_mult"]) * k + abs(w["my_cell_mult"]) * 2 * (k - 1)
               + abs(w["mics_mult"]) * k * _power(max(1.0, abs(w["mics_base"])), k))  # fmt: skip
    if not raw < 1e300:
        return math.inf
    cell = max(abs(w["tier_finish"]), abs(w["tier_double"]), raw if any(w[t] < 0 for t in terms) else 0.0)
    return game.n_cells * 2 * cell * max(1.0, abs(w["unplayable_mult"]))  # own minus opponent, per empty cell


def _threats(game: KInARow, w: Mapping[str, float]) -> float:
    # Every term is a count, own minus opponent: window classes count windows (<= n_windows), "squares" counts
    # stones x windows through them (<= k x n_windows), threat, fork, parity and centre terms count cells
    # (<= n_cells), open runs count runs per cell and direction (<= 4 x n_cells), tempo is one.  So k x n_windows
    # + 4 x n_cells bounds any single count, per player.
    return 2 * (game.k * n_windows(game) + 4 * game.n_cells) * sum(abs(v) for v in w.values())


_BOUNDS: dict[str, _Bound] = {
    "c4_features": _c4_features, "square_values": _square_values, "patterns": _patterns, "windows": _windows,
    "mics": _mics, "threats": _threats,
}  # fmt: skip


def max_abs_evaluation(heuristic: str, game: KInARow, weights: Mapping[str, float]) -> float:
    """An upper bound on ``|evaluate|`` for ``heuristic`` with these (complete, finite) weights on ``game``'s board.

    ``inf`` when an intermediate value could overflow.
    """
    return _BOUNDS[heuristic](game, weights)
