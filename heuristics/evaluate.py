"""The public face of an evaluator: a named heuristic with weights, bound to one game.

Example:
    >>> from games import CONNECT4
    >>> h = Evaluator("square_values", CONNECT4)
    >>> h.evaluate(CONNECT4.position("4"))   # o to move; x holds the 7-window centre square
    -7.0
    >>> float(h.move_scores(CONNECT4.position())[3])
    7.0
"""

from __future__ import annotations

from typing import Any, Mapping, Optional

import numpy as np

from games import KInARow, Position
from games.errors import GameError
from heuristics._dispatch import _evaluate, _order_moves
from heuristics._lines import window_table
from heuristics.errors import UnsupportedGameError
from heuristics.registry import get_spec, kernel_id
from heuristics.spec import HeuristicSpec
from heuristics.weights import (
    PathLike,
    WeightFile,
    check_weights,
    load_weights,
)


class Evaluator:
    """A registered heuristic, its weights, and the game it scores.

    Args:
        heuristic: a registered name (see :data:`heuristics.NAMES`).
        game: the game whose positions it will score.
        weights: overrides of the default weights, by name (the rest keep
            their defaults).

    Raises:
        UnknownHeuristicError: ``heuristic`` is not registered.
        UnsupportedGameError: the heuristic's definition does not cover ``game``.
        WeightError: an unknown weight name, a non-finite value, or weights
            so large that an evaluation could reach the search's win-score
            band (see :mod:`heuristics.bounds`).
    """

    def __init__(self, heuristic: str, game: KInARow, weights: Optional[Mapping[str, float]] = None) -> None:
        self.spec: HeuristicSpec = get_spec(heuristic)
        reason = self.spec.refuse(game)
        if reason is not None:
            raise UnsupportedGameError(reason)
        self.game = game
        self.weights: dict[str, float] = check_weights(heuristic, {**self.spec.defaults, **(weights or {})}, game)
        self.weight_array = np.array(list(self.weights.values()), dtype=np.float64)
        self._kernel_id = kernel_id(heuristic)
        self.windows = window_table(game.rows, game.cols, game.k)

    def __setstate__(self, state: dict[str, object]) -> None:
        """Unpickled or deep-copied: the shared read-only window table again.  A copy comes back writable, a type
        the kernels were not compiled for: each would compile once more (a minute for a search)."""
        self.__dict__.update(state)
        self.windows = window_table(self.game.rows, self.game.cols, self.game.k)

    @property
    def kernel_id(self) -> int:
        """The registered kernel id the numba kernels switch on (read-only: no other id may reach a kernel)."""
        return self._kernel_id

    @property
    def name(self) -> str:
        """The heuristic's registered name."""
        return self.spec.name

    @classmethod
    def from_file(cls, path: PathLike, game: Optional[KInARow] = None) -> Evaluator:
        """Build the evaluator a weight file describes (checked against ``game`` if given)."""
        loaded = load_weights(path, game)
        return cls(loaded.heuristic, loaded.game, loaded.weights)

    def to_weight_file(self, search: Optional[Mapping[str, Any]] = None, provenance: Optional[dict] = None) -> WeightFile:  # type: ignore[type-arg]
        """These weights as a :class:`WeightFile` record (save it with :func:`heuristics.save_weights`).

        ``search`` is the file's search section, e.g. ``search.Limit(depth=5).to_dict()``.
        """
        return WeightFile(self.game, self.name, dict(self.weights), dict(search or {}), dict(provenance or {}))

    def evaluate(self, position: Position) -> float:
        """The heuristic score of ``position`` from the side to move's point of view."""
        self._check(position)
        return float(_evaluate(**self._kernel_args(position)))

    def move_scores(self, position: Position) -> np.ndarray:
        """Ordering scores over the action space for the side to move: ``-inf`` where illegal."""
        self._check(position)
        moves = np.array(position.legal_moves(), dtype=np.int64)
        scores = np.empty(moves.size, dtype=np.float64)
        _order_moves(**self._kernel_args(position), moves=moves, n=moves.size, out=scores)
        out = np.full(self.game.n_actions, -np.inf)
        out[moves] = scores
        return out

    def _kernel_args(self, position: Position) -> dict[str, Any]:
        """The game, position and weights, as both dispatch kernels take them."""
        return {
            "hid": self.kernel_id,
            "board": position._board,
            "heights": position._heights,
            "rows": self.game.rows,
            "cols": self.game.cols,
            "k": self.game.k,
            "gravity": self.game.gravity,
            "me": 1 + position.to_move,
            "weights": self.weight_array,
            "windows": self.windows,
        }

    def _check(self, position: Position) -> None:
        if position.game != self.game:
            raise GameError(f"{self.name} evaluator is bound to {self.game}; got a position of {position.game}")

    def __repr__(self) -> str:
        return f"Evaluator({self.name!r}, {self.game!r})"
