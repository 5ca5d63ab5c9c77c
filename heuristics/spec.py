"""What every evaluator declares: its name, weights with defaults and tuning bounds, and the sizes it covers.

An evaluator module (``heuristics/c4_features.py`` and its siblings) exposes
``SPEC``, a :class:`HeuristicSpec` (names, defaults and tuning ranges of its
weights, the boards it refuses, and ``bound``: how large an evaluation can get,
see :mod:`heuristics.bounds`), and two numba kernels with one shared
signature, so the search can call any of them through one dispatcher::

    _evaluate(board, heights, rows, cols, k, gravity, me, weights, windows) -> float
    _order(board, heights, rows, cols, k, gravity, me, weights, windows, cell) -> float

- board : int8[rows * cols], row 0 at the top, 0 empty, 1/2 stones (games._board layout)
- heights : int32[cols], stones per column (gravity: the next stone of column c lands on
  row ``rows - 1 - heights[c]``)
- me : the stone value (1 or 2) of the side to move; scores are from its point of view
- weights : float64[n_weights], in the order of ``SPEC.weights``
- windows : int32[n_windows, k] from :func:`heuristics._lines.window_table`, every run of
  k cells in the four directions (cells in line order)
- cell : an empty, playable cell; ``_order`` scores putting ``me``'s stone there
  (higher = search it first); it must be cheap, O(k) to O(k^2), never a full evaluation.

Contract shared by all evaluators (the property tests check it for each one):
``_evaluate`` is antisymmetric in colour (swap all stones, keep ``me``: the score
negates, with the weights mapped by ``SPEC.colour_dual``, the identity for every
evaluator whose features ignore who moves and who moved first) and symmetric
under a left-right mirror; it does not detect the end of the game (the search
scores wins and draws itself).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Mapping, Optional

from games import KInARow

Bound = Callable[[KInARow, Mapping[str, float]], float]
"""``bound(game, weights)``: an upper bound on ``|_evaluate|`` over every position of ``game``'s board
(``inf`` where an intermediate value could overflow); see :mod:`heuristics.bounds`."""


def every_game(game: KInARow) -> bool:
    """The default ``WeightSpec.applies``: the weight matters on every board."""
    return True


@dataclass(frozen=True)
class WeightSpec:
    """One tunable weight: its name, default, and the range a tuner may search."""

    name: str
    default: float
    low: float
    high: float
    log: bool = False
    """Search the range on a log scale (needs ``low > 0``)."""
    doc: str = ""
    applies: Callable[[KInARow], bool] = every_game
    """Whether the weight can change an evaluation on this game (a gravity-only feature cannot on m,n,k):
    a tuner leaves the others out of its search space.  A module-level function, so specs pickle."""

    def __post_init__(self) -> None:
        if not (self.low <= self.default <= self.high) or (self.log and self.low <= 0):
            raise ValueError(f"weight {self.name!r}: default {self.default} outside [{self.low}, {self.high}] or bad log range")
        if not all(math.isfinite(x) for x in (self.default, self.low, self.high)):
            raise ValueError(f"weight {self.name!r}: default and bounds must be finite")


def gravity_only(game: KInARow) -> bool:
    """``WeightSpec.applies`` of a feature that exists only with gravity (Connect-4's parity terms)."""
    return game.gravity


def free_only(game: KInARow) -> bool:
    """``WeightSpec.applies`` of a feature that exists only without gravity (gomoku's open runs)."""
    return not game.gravity


def k_at_least_5(game: KInARow) -> bool:
    """``WeightSpec.applies`` of a feature of windows missing four or more stones."""
    return game.k >= 5


def same_weights(weights: dict[str, float]) -> dict[str, float]:
    """The default ``HeuristicSpec.colour_dual``: a colour swap needs no change of weights.

    A module-level function, not a lambda, so specs (and the agents holding them) pickle.
    """
    return dict(weights)


@dataclass(frozen=True)
class HeuristicSpec:
    """A registered evaluator: name, source, weights, and which games it refuses."""

    name: str
    summary: str
    source: str
    """The paper or project, and its section, that it implements."""
    weights: tuple[WeightSpec, ...]
    refuse: Callable[[KInARow], Optional[str]]
    """Returns why ``game`` is not covered, or None if it is."""
    bound: Bound
    """An upper bound on ``|evaluate|`` for complete, finite weights (a module-level function, so specs pickle)."""
    colour_dual: Callable[[dict[str, float]], dict[str, float]] = same_weights
    """Weights ``w'`` with ``_evaluate(colour-swapped board, me, w) == -_evaluate(board, me, w')``.

    The identity unless features tell the side to move from the other side or
    stone 1 from stone 2 (``threats``' tempo and parity terms)."""

    @property
    def weight_names(self) -> tuple[str, ...]:
        """The weight names, in kernel order."""
        return tuple(w.name for w in self.weights)

    @property
    def defaults(self) -> dict[str, float]:
        """The default weights by name."""
        return {w.name: w.default for w in self.weights}


def any_game(game: KInARow) -> Optional[str]:
    """A ``refuse`` for evaluators defined on every board."""
    return None


def n_windows(game: KInARow) -> int:
    """The number of k-windows (runs of k cells in the four directions) on the board: a bound's usual unit.

    Example:
        >>> from games import CONNECT4
        >>> n_windows(CONNECT4)   # 24 across, 21 down, 12 + 12 diagonal
        69
    """
    across, down = max(0, game.cols - game.k + 1), max(0, game.rows - game.k + 1)
    return game.rows * across + game.cols * down + 2 * across * down


def power_or_inf(base: float, exponent: int) -> float:
    """``base ** exponent`` for a bound, ``inf`` instead of OverflowError."""
    try:
        return float(base**exponent)
    except OverflowError:
        return math.inf
