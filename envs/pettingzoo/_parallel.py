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

from typing import Any, Optional, Union

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import ParallelEnv

from envs._batch import check_choice, check_options
from envs.core import as_action, observation_space
from envs.pettingzoo._aec import AGENTS
from envs.render import RENDER_MODES, HumanRenderer, rgb_image
from games import IllegalMoveError, KInARow, Position
from games.checks import check_finite, check_seed


class KInARowParallel(ParallelEnv):  # type: ignore[misc]  # PettingZoo is untyped
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

    def __init__(self, game: KInARow, *, name: str = "kinarow_v0", illegal_action: str = "lose",
                 illegal_reward: float = -1.0, render_mode: Optional[str] = None) -> None:  # fmt: skip
        self.illegal_action = check_choice("illegal_action", illegal_action, ("lose", "raise"))
        self.illegal_reward = float(check_finite("illegal_reward", illegal_reward))
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode={render_mode!r} is not allowed: use one of {', '.join(RENDER_MODES)} or None")
        self.game = game
        self.metadata = {**self.metadata, "name": name}
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        self.agents: list[str] = []
        space = observation_space(game, dict_obs=True)
        self.observation_spaces = {agent: space for agent in AGENTS}
        self.action_spaces = {agent: spaces.Discrete(game.n_actions) for agent in AGENTS}
        self._position: Position = game.position()
        self._human = HumanRenderer(f"{game} ({name})", self.metadata["render_fps"]) if render_mode == "human" else None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The same ``Dict`` space object for both agents."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """``Discrete(n_actions)``."""
        return self.action_spaces[agent]

    def reset(self, seed: Optional[int] = None, options: Optional[dict[str, Any]] = None) -> tuple[dict[str, Any], dict[str, Any]]:
        """A new game with ``player_0`` to move; ``seed`` only seeds ``np_random`` (the game has no randomness)."""
        check_options(options)
        if seed is not None:
            self._np_random, self._np_random_seed = gymnasium.utils.seeding.np_random(check_seed(seed))
        self._position = self.game.position()
        self.agents = list(AGENTS)
        if self._human is not None:
            self.render()
        return self._observations(), self._infos(illegal=None)

    def step(self, actions: dict[str, Any]) -> tuple[dict[str, Any], dict[str, float], dict[str, bool], dict[str, bool],
                                                     dict[str, Any]]:  # fmt: skip
        """Play the action of the agent to move (the other agent's action is ignored).

        Raises:
            ValueError: no game in progress, the mover's action missing, or outside the action space.
            IllegalMoveError: an illegal action with ``illegal_action="raise"``.
        """
        if not self.agents:
            raise ValueError("the game is over (or never started): call reset() before step()")
        mover = AGENTS[self._position.to_move]
        if not isinstance(actions, dict) or mover not in actions:
            raise ValueError(f"{mover} is to move: step() needs a dict holding its action, got {actions!r}")
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

    def render(self) -> Union[str, np.ndarray, None]:
        """A text board (``"ansi"``), an RGB image (``"rgb_array"``), or show it (``"human"``)."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode; pass render_mode= to parallel_env()")
            return None
        if self.render_mode == "rgb_array":
            return rgb_image(self._position.board(), self.game)
        text = str(self._position)
        if self.render_mode == "ansi":
            return text
        assert self._human is not None
        self._human.show(rgb_image(self._position.board(), self.game), text)
        return None

    def close(self) -> None:
        """Close the human window, if any."""
        if self._human is not None:
            self._human.close()

    def board_position(self) -> Position:
        """A copy of the current position."""
        return self._position.copy()

    def _observations(self, over: bool = False) -> dict[str, dict[str, np.ndarray]]:
        grid = self._position.board()
        legal = self._position.legal_mask()
        out = {}
        for player, agent in enumerate(AGENTS):
            planes = np.stack([grid == 1 + player, grid == 2 - player]).astype(np.int8)
            mask = legal.copy() if not over and self._position.to_move == player else np.zeros_like(legal)
            out[agent] = {"observation": planes, "action_mask": mask}
        return out

    def _infos(self, illegal: Optional[str], over: bool = False) -> dict[str, dict[str, Any]]:
        to_move = None if over else AGENTS[self._position.to_move]
        return {agent: {"to_move": agent == to_move, "illegal_action": agent == illegal} for agent in AGENTS}


__all__ = ["KInARowParallel"]
