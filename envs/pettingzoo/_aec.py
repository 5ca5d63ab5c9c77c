"""The PettingZoo AEC environment behind ``connect4_v0`` and ``mnk_v0``: two learners, no built-in opponent."""

from __future__ import annotations

from typing import Any, Optional, Union

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from envs._batch import check_choice, check_options
from envs.core import as_action, observation_space
from envs.render import RENDER_MODES, HumanRenderer, render_frame
from games import IllegalMoveError, KInARow, Position
from games.checks import check_finite, check_seed

AGENTS = ("player_0", "player_1")
"""``player_0`` moves first (stone ``x``), ``player_1`` second (``o``)."""


class TwoLearners:
    """What the AEC and the parallel env share: settings, spaces, observations, seeding and rendering.

    A mixin placed before PettingZoo's base class; :class:`envs.pettingzoo.KInARowParallel` uses it too.
    """

    _maker = "env()"
    """The factory named in messages."""
    metadata: dict[str, Any]
    game: KInARow
    _position: Position
    _np_random: Any
    _np_random_seed: Any

    def _setup(self, game: KInARow, name: str, illegal_action: str, illegal_reward: float, render_mode: Optional[str]) -> None:
        """Check and keep the constructor's settings; build the spaces and an empty board.

        Raises:
            ValueError: an ``illegal_action``, ``illegal_reward`` or ``render_mode`` that is not allowed.
        """
        self.illegal_action = check_choice("illegal_action", illegal_action, ("lose", "raise"))
        self.illegal_reward = float(check_finite("illegal_reward", illegal_reward))
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode={render_mode!r} is not allowed: use one of {', '.join(RENDER_MODES)} or None")
        self.game = game
        self.metadata = {**self.metadata, "name": name}
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        space = observation_space(game, dict_obs=True)
        self.observation_spaces = {agent: space for agent in AGENTS}
        self.action_spaces = {agent: spaces.Discrete(game.n_actions) for agent in AGENTS}
        self._position = game.position()
        self._human = HumanRenderer(f"{game} ({name})", self.metadata["render_fps"]) if render_mode == "human" else None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The same ``Dict`` space object for both agents."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """``Discrete(n_actions)``."""
        return self.action_spaces[agent]

    def _observation(self, player: int, to_act: bool) -> dict[str, np.ndarray]:
        """``{"observation", "action_mask"}`` from ``player``'s side (fresh arrays); the mask is all zeros unless ``to_act``."""
        grid = self._position.board()
        planes = np.stack([grid == 1 + player, grid == 2 - player]).astype(np.int8)
        mask = self._position.legal_mask() if to_act else np.zeros(self.game.n_actions, dtype=np.int8)
        return {"observation": planes, "action_mask": mask}

    def _new_game(self, seed: Optional[int], options: Optional[dict[str, Any]]) -> None:
        """Check ``options`` (none are used, but a wrong type is a mistake worth reporting), seed ``np_random``, empty the board."""
        check_options(options)
        if seed is not None:
            self._np_random, self._np_random_seed = gymnasium.utils.seeding.np_random(check_seed(seed))
        self._position = self.game.position()

    def _render_text(self) -> str:
        """The ``"ansi"`` text: the position."""
        return str(self._position)

    def render(self) -> Union[str, np.ndarray, None]:
        """A text board (``"ansi"``), an RGB image (``"rgb_array"``), or show it (``"human"``)."""
        if self.render_mode is None:
            gymnasium.logger.warn(f"render() was called without a render_mode; pass render_mode= to {self._maker}")
            return None
        return render_frame(self.render_mode, self._position.board(), self.game, self._render_text, self._human)

    def close(self) -> None:
        """Close the human window, if any."""
        if self._human is not None:
            self._human.close()

    def board_position(self) -> Position:
        """A copy of the current position (for tests, agents and analysis)."""
        return self._position.copy()


class KInARowAEC(TwoLearners, AECEnv):  # type: ignore[misc]  # PettingZoo is untyped
    """A k-in-a-row game for two learners, in PettingZoo's agent-environment-cycle API.

    ## Description

    ``player_0`` and ``player_1`` alternate on one board of ``game`` (Connect-4
    of any size with ``connect4_v0``, any m,n,k game with ``mnk_v0``); the
    rules come from :mod:`games`.  For an agent against a built-in opponent
    use the Gymnasium environments (``alphabeta/Connect4-v0`` ...) instead.

    ## Observation Space

    A ``Dict`` per agent, as PettingZoo users expect:
    ``{"observation": Box(0, 1, (2, rows, cols), int8), "action_mask": Box(0, 1, (n_actions,), int8)}``.
    Plane 0 holds the observing agent's stones, plane 1 the other's, row 0 at
    the top (the layout of :class:`envs.Connect4Env`).  The mask marks the
    legal actions for the agent to move and is all zeros for the other one
    and once the game is over.

    ## Action Space

    ``Discrete(cols)`` (Connect-4: a column) or ``Discrete(rows * cols)``
    (m,n,k: the cell ``row * cols + col``, row 0 on top).

    ## Starting State

    An empty board with ``player_0`` to move.  The game has no randomness;
    ``reset(seed=...)`` only seeds ``np_random``.

    ## Rewards

    +1 to the winner and -1 to the loser when a game is won; 0 otherwise.
    An illegal action with ``illegal_action="lose"`` ends the game with
    ``illegal_reward`` for the player who made it and 0 for the other, and
    ``infos[agent]["illegal_action"]`` is True.

    ## Episode End

    Both agents terminate when a player has ``k`` or more in a row, the board
    is full, or an illegal action loses; nothing truncates.

    ## Arguments

    ```python
    from envs.pettingzoo import connect4_v0, mnk_v0

    env = connect4_v0.env(rows=6, cols=7, k=4, illegal_action="lose", illegal_reward=-1.0, render_mode="ansi")
    env = mnk_v0.env(rows=15, cols=15, k=5)   # gomoku; mnk_v0.env() is tic-tac-toe
    ```

    * ``illegal_action``: ``"lose"`` (default) or ``"raise"`` (``IllegalMoveError``).
      An action outside the action space always raises ``ValueError``.
    * ``render_mode``: ``"ansi"``, ``"rgb_array"`` (numpy image) or ``"human"``.

    ## Version History

    * v0: initial release.
    """

    agents: list[str]
    rewards: dict[str, float]
    _cumulative_rewards: dict[str, float]
    terminations: dict[str, bool]
    truncations: dict[str, bool]
    infos: dict[str, dict[str, Any]]
    agent_selection: str
    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES), "name": "kinarow_v0", "is_parallelizable": False,
                                "render_fps": 4}  # fmt: skip

    def __init__(self, game: KInARow, *, name: str = "kinarow_v0", illegal_action: str = "lose", illegal_reward: float = -1.0,
                 render_mode: Optional[str] = None) -> None:  # fmt: skip
        super().__init__()
        self._setup(game, name, illegal_action, illegal_reward, render_mode)
        self._reset_state()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """``{"observation", "action_mask"}`` from ``agent``'s side (fresh arrays)."""
        return self._observation(AGENTS.index(agent), agent == self.agent_selection and not self._over)

    def reset(self, seed: Optional[int] = None, options: Optional[dict[str, Any]] = None) -> None:
        """A new game with ``player_0`` to move (the game has no randomness; ``seed`` only seeds ``np_random``)."""
        self._new_game(seed, options)
        self._reset_state()
        if self._human is not None:
            self.render()

    def step(self, action: Any) -> None:
        """Play ``action`` for ``agent_selection``.

        Raises:
            ValueError: ``action`` is outside the action space (or not None for a finished agent).
            IllegalMoveError: an illegal action with ``illegal_action="raise"``.
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        move = as_action(action, self.game.n_actions)
        self._cumulative_rewards[agent] = 0
        self.rewards = {a: 0.0 for a in self.agents}
        other = AGENTS[1 - AGENTS.index(agent)]
        if not self._position.is_legal(move):
            if self.illegal_action == "raise":
                self._position.play(move)  # raises IllegalMoveError with the game core's reason
                raise IllegalMoveError(f"move {move} is illegal")  # unreachable
            self.rewards[agent] = self.illegal_reward
            self.infos[agent] = {"illegal_action": True}
            self._finish()
        else:
            self._position.play(move)
            winner = self._position.winner
            if winner is not None:
                self.rewards[AGENTS[winner]] = 1.0
                self.rewards[AGENTS[1 - winner]] = -1.0
                self._finish()
            elif self._position.is_terminal():
                self._finish()
        self.agent_selection = other
        self._accumulate_rewards()
        if self._human is not None:
            self.render()

    def _render_text(self) -> str:
        """The position and, while the game goes on, who is to move."""
        return f"{self._position}\n{self.agent_selection} to move" if not self._over else str(self._position)

    def _reset_state(self) -> None:
        self.agents = list(AGENTS)
        self.rewards = {agent: 0.0 for agent in AGENTS}
        self._cumulative_rewards = {agent: 0.0 for agent in AGENTS}
        self.terminations = {agent: False for agent in AGENTS}
        self.truncations = {agent: False for agent in AGENTS}
        self.infos = {agent: {} for agent in AGENTS}
        self.agent_selection = AGENTS[0]
        self._over = False

    def _finish(self) -> None:
        self._over = True
        self.terminations = {agent: True for agent in self.agents}


__all__ = ["AGENTS", "KInARowAEC", "TwoLearners"]
