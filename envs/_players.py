"""The players a ladder rates, all as agents (``select_move``, ``reset``, ``seed``): noisy agents and policies.

* :class:`NoisyAgent` plays a uniformly random legal move with probability
  ``eps`` and its inner agent's move otherwise: the rungs between random play
  and depth 1.
* :class:`PolicyAgent` asks a callable ``(observation, action_mask) -> action``
  (the envs' callable-opponent convention, :mod:`envs.opponents`): the
  observation is ``int8[2, rows, cols]`` from the side to move (plane 0 its
  stones), the mask ``int8[n_actions]``.
* :func:`sb3_policy` loads a MaskablePPO or PPO zip as such a callable, without
  running code from the file (:mod:`envs.models`).
"""

from __future__ import annotations

import os
from typing import Any, Callable, Optional

import numpy as np

from games import Action, IllegalMoveError, KInARow, Position
from games.checks import check_seed
from search.protocol import Agent

Policy = Callable[[np.ndarray, np.ndarray], Any]
"""``(observation int8[2, rows, cols], action_mask int8[n_actions]) -> action``."""


class NoisyAgent:
    """An agent that plays a uniformly random legal move with probability ``eps``.

    Args:
        inner: the agent whose moves it plays otherwise.
        eps: the chance of a random move, in [0, 1].
        seed: seeds the coin and the random moves (the inner agent is seeded from the same seed).
    """

    def __init__(self, inner: Agent, eps: float, seed: Optional[int] = None) -> None:
        if not (isinstance(eps, (int, float)) and 0.0 <= eps <= 1.0):
            raise ValueError(f"eps={eps!r} must be a probability within [0, 1]")
        self.inner, self.eps = inner, float(eps)
        self.name = f"eps{self.eps:g}-{inner.name}"
        self.last_result: Any = None
        self._rng = np.random.default_rng(check_seed(seed))

    def select_move(self, position: Position) -> Action:
        """A random legal move with probability ``eps``, else the inner agent's move."""
        if self._rng.random() < self.eps:
            moves = position.legal_moves()
            self.last_result = None
            return moves[int(self._rng.integers(len(moves)))]
        move = self.inner.select_move(position)
        self.last_result = getattr(self.inner, "last_result", None)
        return move

    def reset(self) -> None:
        """A new game for the inner agent."""
        self.inner.reset()

    def seed(self, seed: Optional[int]) -> None:
        """Reseed the coin and the inner agent."""
        self._rng = np.random.default_rng(check_seed(seed))
        self.inner.seed(None if seed is None else seed + 1)


class PolicyAgent:
    """A callable policy ``(observation, action_mask) -> action`` as an agent.

    Args:
        policy: the callable; it cannot be seeded, so a deterministic one rates reproducibly.
        game: the game it plays.
        name: a label for tables.
    """

    def __init__(self, policy: Policy, game: KInARow, name: Optional[str] = None) -> None:
        if not callable(policy):
            raise TypeError(f"policy {policy!r} is not callable (observation, action_mask) -> action")
        self.policy, self.game = policy, game
        self.name = name or str(getattr(policy, "__name__", type(policy).__name__))

    def select_move(self, position: Position) -> Action:
        """The policy's action, checked for legality.

        Raises:
            IllegalMoveError: the policy returned a non-integer or an illegal action.
        """
        mask = position.legal_mask()
        raw = self.policy(position.planes(), mask)
        try:
            action = int(np.asarray(raw).reshape(()).item()) if isinstance(raw, np.ndarray) else int(raw.__index__())
        except (AttributeError, TypeError, ValueError):
            raise IllegalMoveError(f"policy {self.name!r} returned {raw!r}, which is not an integer action") from None
        if not 0 <= action < mask.shape[0] or not mask[action]:
            raise IllegalMoveError(f"policy {self.name!r} chose the illegal action {action!r} in "
                                   f"{position.move_string()!r}; legal: {np.flatnonzero(mask).tolist()}")  # fmt: skip
        return action

    def reset(self) -> None:
        """Nothing to forget."""

    def seed(self, seed: Optional[int]) -> None:
        """A callable cannot be seeded: nothing to do."""


def sb3_policy(path: str | os.PathLike[str], deterministic: bool = True, trusted: bool = False) -> Policy:
    """A saved MaskablePPO (or plain PPO) model as a masked policy callable, loaded without running code from the
    file unless ``trusted`` (:func:`envs.models.load_policy`).

    Raises:
        envs.models.ModelError: a file that is no such model, one that cannot be loaded safely, or the rl extra missing.
    """
    from envs.models import load_policy

    return load_policy(path, deterministic=deterministic, trusted=trusted)
