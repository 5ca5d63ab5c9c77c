"""The Gymnasium environment shared by every game: the agent against a built-in opponent.

:class:`KInARowEnv` holds a batch of one board (:mod:`envs._batch`); the
per-game classes (:mod:`envs.connect4_env`, :mod:`envs.mnk_env`) only choose
the game and carry the documentation.  A step is one numba call with the
built-in random opponent, two around a Python opponent's reply otherwise.
"""

from __future__ import annotations

from typing import Any, Optional, Union

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from gymnasium.error import ResetNeeded

from envs._batch import BoardBatch, check_options
from envs.opponents import OpponentLike
from envs.render import RENDER_MODES, HumanRenderer, render_frame, text_board
from games import KInARow, Position
from games.checks import check_seed
from games.errors import AlphabetaError

Observation = Union[np.ndarray, dict[str, np.ndarray]]


def observation_space(game: KInARow, dict_obs: bool) -> spaces.Space[Any]:
    """``Box`` int8 (2, rows, cols), or with ``dict_obs`` a ``Dict`` of it and the int8 action mask."""
    board = spaces.Box(low=0, high=1, shape=(2, game.rows, game.cols), dtype=np.int8)
    if not dict_obs:
        return board
    mask = spaces.Box(low=0, high=1, shape=(game.n_actions,), dtype=np.int8)
    return spaces.Dict({"observation": board, "action_mask": mask})


def as_action(action: object, n_actions: int) -> int:
    """``action`` as an int inside ``range(n_actions)``: ints, numpy integers and 0-d/1-element integer arrays.

    Raises:
        ValueError: anything else (floats, bools, out-of-range values): outside the action space.
    """
    value: object = action
    if isinstance(value, np.ndarray):
        value = value.reshape(()).item() if value.size == 1 and value.dtype.kind in "iu" else None
    if isinstance(value, (bool, np.bool_)) or not hasattr(value, "__index__"):
        raise ValueError(f"action {action!r} is outside the action space Discrete({n_actions}): "
                         f"actions are integers 0 to {n_actions - 1}")  # fmt: skip
    index = int(value.__index__())
    if not 0 <= index < n_actions:
        raise ValueError(f"action {index} is outside the action space Discrete({n_actions}): "
                         f"actions are integers 0 to {n_actions - 1}")  # fmt: skip
    return index


class EpisodeNotStarted(ResetNeeded, AlphabetaError):
    """``step()`` with no episode going (before the first ``reset()`` or after the last one ended), or ``render()``
    before the first ``reset()``.

    Both a :class:`gymnasium.error.ResetNeeded`, what Gymnasium's ``OrderEnforcing`` wrapper raises (``gym.make``
    does not add it to these envs: they enforce the order themselves), and an :class:`games.errors.AlphabetaError`, so a
    ``ValueError``, what they always raised.
    """


class KInARowEnv(gym.Env[Observation, np.int64]):
    """The agent against a built-in opponent on any k-in-a-row game (see :class:`envs.Connect4Env` for the docs).

    Args:
        game: the game (rules, size, action space).
        opponent: an agent spec, a weight file path, an agent object or a
            callable ``(observation, action_mask) -> action`` (see :mod:`envs.opponents`).
        agent_plays: ``"first"``, ``"second"`` or ``"random"`` (a fair coin each episode).
        illegal_action: ``"lose"`` (the episode ends with ``illegal_reward``),
            ``"raise"`` (``IllegalMoveError``) or ``"random"`` (a random legal
            move is played instead, ``info["illegal_action"]`` is True).
        illegal_reward: the agent's reward when an illegal action loses.
        dict_obs: observations as ``{"observation", "action_mask"}``.
        render_mode: ``"ansi"``, ``"rgb_array"``, ``"human"`` or None.
    """

    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES), "render_fps": 4}

    def __init__(
        self,
        game: KInARow,
        *,
        opponent: OpponentLike = "random",
        agent_plays: str = "first",
        illegal_action: str = "lose",
        illegal_reward: float = -1.0,
        dict_obs: bool = False,
        render_mode: Optional[str] = None,
    ) -> None:
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode={render_mode!r} is not allowed: use one of {', '.join(RENDER_MODES)} or None")
        if not isinstance(dict_obs, bool):
            raise ValueError(f"dict_obs={dict_obs!r} must be True or False")
        self.game = game
        self._batch = BoardBatch(game, 1, opponent, agent_plays, illegal_action, illegal_reward)
        self._which = np.zeros(1, dtype=np.int64)
        self._n_actions = game.n_actions
        self._over = True  # no episode before the first reset
        self._started = False  # render() needs a reset first, as Gymnasium's OrderEnforcing has it
        self.dict_obs = dict_obs
        self.action_space = spaces.Discrete(game.n_actions)
        self.observation_space = observation_space(game, dict_obs)
        self.render_mode = render_mode
        self._human: Optional[HumanRenderer] = HumanRenderer(str(game), self.metadata["render_fps"]) if render_mode == "human" else None

    # ------------------------------------------------------------------ API
    @property
    def opponent(self) -> OpponentLike:
        """The opponent as given (spec, path, agent or callable)."""
        return self._batch.opponent

    @property
    def agent_plays(self) -> str:
        """``"first"``, ``"second"`` or ``"random"``."""
        return self._batch.agent_plays

    def reset(self, *, seed: Optional[int] = None, options: Optional[dict[str, Any]] = None) -> tuple[Observation, dict[str, Any]]:
        """Start an episode; the opponent moves first when the agent plays second.

        Args:
            seed: reseeds the environment's generator (who starts, random moves, the opponent's seed);
                a non-negative integer (Python or NumPy) or None.
            options: ``{"opponent": ..., "agent_plays": ...}``: change either
                from this episode on (they stay until changed again).

        Raises:
            ValueError: a negative or non-integer seed, ``options`` not a dict,
                an unknown option or a bad value (the message names it).
        """
        options = check_options(options)  # before anything changes: a bad call leaves the env as it was
        super().reset(seed=check_seed(seed))  # gymnasium raises its own non-ValueError for negative or numpy seeds
        self._batch.apply_options(options)
        self._batch.reset(self._which, (self.np_random,))
        self._started = True
        if self._human is not None:
            self.render()
        obs, info, self._over = self._batch.result_one()
        return self._dict_obs(obs, info) if self.dict_obs else obs, info

    def step(self, action: Any) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        """Play ``action``, then the opponent's reply (unless the agent's move ended the game).

        Raises:
            ValueError: ``action`` is outside the action space, or the episode is over.
            IllegalMoveError: an illegal action with ``illegal_action="raise"``.
        """
        if self._over:
            raise EpisodeNotStarted("the episode is over (or never started): call reset() before step()")
        batch = self._batch
        batch.step_one(action if type(action) is int and 0 <= action < self._n_actions else as_action(action, self._n_actions))
        if self._human is not None:
            self.render()
        obs, info, over = batch.result_one()
        self._over = over
        # item(0): a Python float without a numpy scalar (0.3 us)
        return self._dict_obs(obs, info) if self.dict_obs else obs, batch.reward.item(0), over, False, info

    def position(self) -> Position:
        """The current game as a :class:`games.Position` (a new object, replayed from the moves so far)."""
        return self._batch.position(0)

    def action_masks(self) -> np.ndarray:
        """The legal actions as a bool array (what sb3-contrib's MaskablePPO looks for); all False once over."""
        mask: np.ndarray = self._batch.mask[0] != 0
        return mask

    def render(self) -> Union[str, np.ndarray, None]:
        """A text board (``"ansi"``), an RGB image (``"rgb_array"``), or show the board (``"human"``)."""
        if self.render_mode is None:
            gym.logger.warn(f"{type(self).__name__}.render() was called without a render_mode; pass render_mode= to gym.make")
            return None
        if not self._started:
            raise EpisodeNotStarted("render() before reset(): call reset() first (there is no board yet)")
        return render_frame(self.render_mode, self._batch.board[0], self.game,
                            lambda: text_board(self._batch.position(0), self._batch.agent_player(0)), self._human)  # fmt: skip

    def close(self) -> None:
        """Close the human window, if any."""
        if self._human is not None:
            self._human.close()

    # ------------------------------------------------------------ internals
    @staticmethod
    def _dict_obs(obs: np.ndarray, info: dict[str, Any]) -> dict[str, np.ndarray]:
        """The dict observation around ``obs``, its action mask a copy of its own (not the info's array)."""
        mask: np.ndarray = info["action_mask"]
        return {"observation": obs, "action_mask": mask.copy()}
