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
every position of the board, from each heuristic's definition (its
``SPEC.bound``, next to its kernels in ``heuristics/_<name>.py``): (the most
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

from typing import Mapping

from games import KInARow
from heuristics.registry import get_spec

WIN_SCORE = 1e15
"""The search's score of winning now (re-exported by :mod:`search.protocol`); exact in float64 minus any ply count."""
EVALUATION_LIMIT = WIN_SCORE / 10
"""Heuristic values stay strictly inside ``+-EVALUATION_LIMIT``; ``(EVALUATION_LIMIT, WIN_SCORE]`` holds win scores."""


def max_abs_evaluation(heuristic: str, game: KInARow, weights: Mapping[str, float]) -> float:
    """An upper bound on ``|evaluate|`` for ``heuristic`` with these (complete, finite) weights on ``game``'s board.

    ``inf`` when an intermediate value could overflow.
    """
    return get_spec(heuristic).bound(game, weights)
