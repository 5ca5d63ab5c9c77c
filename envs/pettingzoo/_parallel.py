"""The PettingZoo parallel environment behind ``connect4_v0.parallel_env`` and ``mnk_v0.parallel_env``.

Why not ``pettingzoo.utils.aec_to_parallel(connect4_v0.env())``: that
wrapper steps every agent once per parallel step, each choosing its action
before seeing the other's move of the same step, which turns a turn-based
game into a simultaneous one; PettingZoo guards against it with the AEC
metadata ``is_parallelizable`` (False for :class:`envs.pettingzoo.KInARowAEC`,
rightly: its state changes in the middle of a cycle).  The AEC env is not at
fault, so this is a native parallel env: both agents send an action every
step and only the one to move is played.
"""

from __future__ import annotations

from typing import Any, Optional

import numpy as np
from pettingzoo import ParallelEnv

from envs.core import as_action
from envs.pettingzoo._aec import AGENTS, TwoLearners
from envs.render import RENDER_MODES
from games import IllegalMoveError, KInARow


class KInARowParallel(TwoLearners, ParallelEnv):  # type: ignore[misc]  # PettingZoo is untyped
    """A k-in-a-row game for two learners in PettingZoo's parallel API: each step, the agent to move plays.

    ## Description

    ``player_0`` (first) and ``player_1`` alternate on one board of ``game``;
    the rules come from :mod:`games`.  Every ``step`` takes a dict of actions
    for the live agents; only the action of the agent to move is played, the
    other agent's is ignored (it may be left out).  Self-play loops that batch
    both seats (one policy, two observations) use this form.

    ## Observation Space

    ``{"observation": Box(0, 1, (2, rows, cols), int8), "action_mask": Box(0, 1, (n_actions,), int8)}``
    per agent, from its own side (plane 0 its stones), row 0 on top.  The
    mask marks the legal actions of the agent to move and is all zeros for
    the waiting agent (whose action is ignored: nothing to sample from it)
    and once the game is over.  ``infos[agent]["to_move"]`` says who acts.

    ## Action Space

    ``Discrete(cols)`` (Connect-4: a column) or ``Discrete(rows * cols)``
    (m,n,k: the cell ``row * cols + col``).

    ## Starting State

    An empty board, ``player_0`` to move.  No randomness.

    ## Rewards

    +1 to the winner and -1 to the loser on a win, 0 otherwise; an illegal
    action with ``illegal_action="lose"`` gives ``illegal_reward`` to its
    player, 0 to the other, and ``infos[agent]["illegal_action"]`` is True.

    ## Episode End

    Both agents terminate when someone has ``k`` in a row, the board is full
    or an illegal action loses; ``agents`` is then empty.  Nothing truncates.

    ## Arguments

    ```python
    from envs.pettingzoo import connect4_v0, mnk_v0

    env = connect4_v0.parallel_env(rows=6, cols=7, k=4, illegal_action="lose", illegal_reward=-1.0)
    env = mnk_v0.parallel_env()                        # tic-tac-toe
    ```

    * ``illegal_action``: ``"lose"`` (default) or ``"raise"`` (``IllegalMoveError``);
      an action outside the action space always raises ``ValueError``.
    * ``render_mode``: ``"ansi"``, ``"rgb_array"`` or ``"human"``.

    ## Version History

    * v0: initial release.
    """

    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES), "name": "kinarow_v0", "render_fps": 4}
    _maker = "parallel_env()"

    def __init__(self, game: KInARow, *, name: str = "kinarow_v0", illegal_action: str = "lose",
                 illegal_reward: float = -1.0, render_mode: Optional[str] = None) -> None:  # fmt: skip
        self._setup(game, name, illegal_action, illegal_reward, render_mode)
        self.agents: list[str] = []

    def reset(self, seed: Optional[int] = None, options: Optional[dict[str, Any]] = None) -> tuple[dict[str, Any], dict[str, Any]]:
        """A new game with ``player_0`` to move; ``seed`` only seeds ``np_random`` (the game has no randomness)."""
        self._new_game(seed, options)
        self.agents = list(AGENTS)
        if self._human is not None:
            self.render()
        return self._observations(), self._infos(illegal=None)

    def step(self, actions: dict[str, Any]) -> tuple[dict[str, Any], dict[str, float], dict[str, bool], dict[str, bool],
                                                     dict[str, Any]]:  # fmt: skip
        """Play the action of the agent to move (the other agent's action is ignored).

        Raises:
            ValueError: no game in progress, the mover's action missing or outside the action space, or a key
                that names no agent.
            IllegalMoveError: an illegal action with ``illegal_action="raise"``.
        """
        if not self.agents:
            raise ValueError("the game is over (or never started): call reset() before step()")
        mover = AGENTS[self._position.to_move]
        if not isinstance(actions, dict) or mover not in actions:
            raise ValueError(f"{mover} is to move: step() needs a dict holding its action, got {actions!r}")
        unknown = [key for key in actions if key not in self.agents]
        if unknown:
            raise ValueError(f"step() got action(s) for {', '.join(map(repr, unknown))}: the agents are "
                             f"{', '.join(map(repr, self.agents))}")  # fmt: skip
        move = as_action(actions[mover], self.game.n_actions)
        rewards = {agent: 0.0 for agent in AGENTS}
        illegal = None
        if not self._position.is_legal(move):
            if self.illegal_action == "raise":
                self._position.play(move)  # raises IllegalMoveError with the game core's reason
                raise IllegalMoveError(f"move {move} is illegal")  # unreachable
            rewards[mover], illegal = self.illegal_reward, mover
        else:
            self._position.play(move)
            winner = self._position.winner
            if winner is not None:
                rewards[AGENTS[winner]], rewards[AGENTS[1 - winner]] = 1.0, -1.0
        over = illegal is not None or self._position.is_terminal()
        observations, infos = self._observations(over), self._infos(illegal, over)
        terminations = {agent: over for agent in AGENTS}
        truncations = {agent: False for agent in AGENTS}
        if over:
            self.agents = []
        if self._human is not None:
            self.render()
        return observations, rewards, terminations, truncations, infos

    def _observations(self, over: bool = False) -> dict[str, dict[str, np.ndarray]]:
        return {agent: self._observation(player, not over and self._position.to_move == player)
                for player, agent in enumerate(AGENTS)}  # fmt: skip

    def _infos(self, illegal: Optional[str], over: bool = False) -> dict[str, dict[str, Any]]:
        to_move = None if over else AGENTS[self._position.to_move]
        return {agent: {"to_move": agent == to_move, "illegal_action": agent == illegal} for agent in AGENTS}


__all__ = ["KInARowParallel"]
