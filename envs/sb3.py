"""The batched env as a Stable-Baselines3 ``VecEnv``: hand N boards to (Maskable)PPO in one object.

SB3 and sb3-contrib take their own ``VecEnv`` API, not Gymnasium's
``VectorEnv`` (MaskablePPO refuses :class:`envs.vector.KInARowVectorEnv`
as "not a Gymnasium environment").  :class:`SB3VecEnv` speaks SB3's API over
the same :class:`envs._batch.BoardBatch`, so a step is still one numba call
for all boards with the built-in random opponent::

    from sb3_contrib import MaskablePPO
    from envs.sb3 import make_sb3_vec_env

    vec = make_sb3_vec_env("alphabeta/Connect4-v0", num_envs=64, opponent="random", agent_plays="random")
    model = MaskablePPO("MlpPolicy", vec, n_steps=64, batch_size=512).learn(20_000)

The contract is SB3's ``DummyVecEnv`` over single envs (the tests compare
trajectories step by step): ``seed(s)`` then ``reset()`` seeds board ``i``
with ``s + i``; a finished board is reset inside ``step_wait``, its last
observation is in ``infos[i]["terminal_observation"]`` and the returned
observation is the new episode's; rewards are float32, dones bool, and every
info holds the single env's keys plus ``TimeLimit.truncated`` (always False).

Masks: ``env_method("action_masks")`` (what MaskablePPO calls) gives one
bool row per board.  Because finished boards are reset before the step
returns, every row belongs to a live episode and has a legal action: a
masked sampler never sees an all-False row here (it can with Gymnasium's
next-step autoreset, see :meth:`envs.vector.KInARowVectorEnv.action_masks`).

Importing this module needs ``stable-baselines3`` (the ``rl`` extra); without
it the import fails with Gymnasium's ``DependencyNotInstalled`` naming the
extra.  ``import envs`` does not import it.
"""

from __future__ import annotations

from typing import Any, Iterable, Optional, Sequence, Union

import gymnasium as gym
import numpy as np
from gymnasium.error import DependencyNotInstalled

try:
    from stable_baselines3.common.vec_env import VecEnv
except ImportError as exc:  # pragma: no cover - the test extra installs SB3
    raise DependencyNotInstalled(
        'envs.sb3 needs stable-baselines3: pip install -e ".[rl]" (or pip install stable-baselines3)'
    ) from exc

from envs import _kernels as K
from envs._streams import BoardStreams
from envs.vector import KInARowVectorEnv
from games import Position
from games.checks import check_seed

Indices = Union[None, int, Iterable[int]]
"""SB3's ``VecEnvIndices``: None (every board), one index, or several."""

_READ_ONLY = ("opponent", "agent_plays")


class _Board:
    """Board ``i`` of the adapter seen as one environment: what ``get_attr``/``env_method`` reach per board."""

    def __init__(self, owner: SB3VecEnv, index: int) -> None:
        self._owner = owner
        self._index = index

    def action_masks(self) -> np.ndarray:
        """bool[n_actions]: this board's legal actions (never all False between steps, see the module docstring)."""
        row: np.ndarray = self._owner.batch.mask[self._index] != 0
        return row

    @property
    def opponent(self) -> Any:
        """The opponent as given (spec, path, agent or callable): the same for every board."""
        return self._owner.batch.opponent

    @property
    def agent_plays(self) -> str:
        """``"first"``, ``"second"`` or ``"random"``: the same for every board."""
        return self._owner.batch.agent_plays

    def position(self) -> Position:
        """This board's game as a :class:`games.Position`."""
        return self._owner.batch.position(self._index)

    def render(self) -> Any:
        """This board's frame in the vector env's ``render_mode`` (None without one)."""
        frames = self._owner.venv.render()
        return None if frames is None else frames[self._index]

    def __getattr__(self, name: str) -> Any:
        # Everything else is shared by all boards: the vector env's own attribute (game, opponent, render_mode, ...).
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self._owner.venv, name)


class SB3VecEnv(VecEnv):
    """An SB3 ``VecEnv`` over a :class:`envs.vector.KInARowVectorEnv` (see the module docstring).

    Args:
        venv: the batched env; its boards, opponent, sides and rendering are
            used as they are (its own autoreset mode does not matter: this
            adapter resets finished boards itself, as SB3 expects).

    Example:
        >>> from envs.sb3 import make_sb3_vec_env
        >>> vec = make_sb3_vec_env("alphabeta/TicTacToe-v0", num_envs=2)
        >>> _ = vec.seed(0)
        >>> vec.reset().shape, vec.action_masks().shape
        ((2, 2, 3, 3), (2, 9))
    """

    def __init__(self, venv: KInARowVectorEnv) -> None:
        if not isinstance(venv, KInARowVectorEnv):
            raise TypeError(f"SB3VecEnv wraps a KInARowVectorEnv (gym.make_vec(..., vectorization_mode="
                            f"'vector_entry_point')), not {type(venv).__name__}")  # fmt: skip
        self.venv = venv
        self.batch = venv._batch  # same package: the adapter drives the boards directly
        self._boards = [_Board(self, i) for i in range(venv.num_envs)]
        self._streams = BoardStreams(venv.num_envs)  # board i's seeding.np_random(seed) stream, drawn in numba
        self._all = np.arange(venv.num_envs, dtype=np.int64)
        self._started = False
        super().__init__(venv.num_envs, venv.single_observation_space, venv.single_action_space)
        self.metadata = {**venv.metadata, **self.metadata}

    # ------------------------------------------------------------------ API
    def reset(self) -> Any:
        """Reset every board with the seeds of :meth:`seed` and the options of ``set_options`` (used once).

        Raises:
            ValueError: options that differ between boards (opponent and side are shared by all boards).
        """
        options = self._options[0]
        if any(other != options for other in self._options[1:]):
            raise ValueError("set_options() gave boards different options: the batched env's opponent and side "
                             "are shared, give one dict for every board")  # fmt: skip
        self.batch.apply_options(options)
        self._streams.seed(self._all.tolist(), [check_seed(seed, f"seed[{i}]") for i, seed in enumerate(self._seeds)])
        self.batch.reset(self._all, self._streams)
        self.reset_infos = [self._info(i, meta) for i, meta in enumerate(self.batch.meta.tolist())]
        self._reset_seeds()
        self._reset_options()
        self._started = True
        return self._observations()

    def step_async(self, actions: np.ndarray) -> None:
        """Remember ``actions`` (one integer per board) for :meth:`step_wait`."""
        self._actions = actions

    def step_wait(self) -> tuple[Any, np.ndarray, np.ndarray, list[dict[str, Any]]]:
        """Play the remembered actions and the replies; reset finished boards (``terminal_observation`` in info).

        Raises:
            ValueError: before the first reset, or actions of the wrong shape, dtype or range.
            IllegalMoveError: an illegal action with ``illegal_action="raise"``.
        """
        if not self._started:
            raise ValueError("call reset() before step()")
        batch = self.batch
        batch.step(self._check_actions(self._actions), self._all)
        rewards = batch.reward.astype(np.float32)
        dones = batch.meta[:, K.M_OVER] != 0
        infos = [self._info(i, meta) for i, meta in enumerate(batch.meta.tolist())]
        for info in infos:
            info["TimeLimit.truncated"] = False  # DummyVecEnv's key: games end by the rules only
        if dones.any():
            ended = np.flatnonzero(dones)
            for i in ended.tolist():
                infos[i]["terminal_observation"] = self._observation(i)
            batch.reset(ended, self._streams)
            for i in ended.tolist():
                self.reset_infos[i] = self._info(i, batch.meta[i].tolist())
        return self._observations(), rewards, dones, infos

    def action_masks(self) -> np.ndarray:
        """bool[num_envs, n_actions]: every board's legal actions (each row has at least one True)."""
        masks: np.ndarray = self.batch.mask != 0
        return masks

    def close(self) -> None:
        """Close the vector env."""
        self.venv.close()

    def get_attr(self, attr_name: str, indices: Indices = None) -> list[Any]:
        """Board attributes (``action_masks``, ``position``, ``render``) per board, else the vector env's, repeated.

        Raises:
            AttributeError: neither a board nor the vector env has ``attr_name``.
        """
        return [getattr(self._boards[i], attr_name) for i in self._get_indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: Indices = None) -> None:
        """Set an attribute of the vector env (shared by all boards, so ``indices`` must name them all).

        Raises:
            ValueError: ``indices`` leaves some board out, or ``attr_name`` is
                ``opponent``/``agent_plays`` (use ``set_options({...})`` then ``reset()``).
        """
        if attr_name in _READ_ONLY:
            raise ValueError(f"set_attr({attr_name!r}) is not supported: use set_options({{{attr_name!r}: ...}}) "
                             "then reset(), as for the single env's reset(options=...)")  # fmt: skip
        chosen = sorted(set(self._get_indices(indices)))
        if chosen != list(range(self.num_envs)):
            raise ValueError(f"set_attr({attr_name!r}) on boards {chosen}: attributes are shared by all "
                             f"{self.num_envs} boards, pass indices=None")  # fmt: skip
        setattr(self.venv, attr_name, value)

    def env_method(self, method_name: str, *method_args: Any, indices: Indices = None, **method_kwargs: Any) -> list[Any]:
        """Call ``method_name`` once per board (board methods) and return the results in board order."""
        if method_name == "action_masks" and indices is None:  # MaskablePPO's hot path: one comparison for all boards
            return list(self.action_masks())
        return [getattr(self._boards[i], method_name)(*method_args, **method_kwargs) for i in self._get_indices(indices)]

    def env_is_wrapped(self, wrapper_class: type[gym.Wrapper], indices: Indices = None) -> list[bool]:
        """Always False: the boards are not Gymnasium envs, so nothing wraps them."""
        return [False for _ in self._get_indices(indices)]

    def get_images(self) -> Sequence[Optional[np.ndarray]]:
        """One RGB frame per board with ``render_mode="rgb_array"``, else Nones."""
        frames = self.venv.render() if self.render_mode == "rgb_array" else None
        return list(frames) if frames is not None else [None] * self.num_envs

    # ------------------------------------------------------------ internals
    def _get_indices(self, indices: Indices) -> list[int]:
        chosen = list(range(self.num_envs)) if indices is None else [indices] if isinstance(indices, int) else list(indices)
        bad = [i for i in chosen if not isinstance(i, (int, np.integer)) or not 0 <= i < self.num_envs]
        if bad:
            raise ValueError(f"indices {bad} are not boards: use integers 0 to {self.num_envs - 1}")
        return [int(i) for i in chosen]

    def _check_actions(self, actions: Any) -> np.ndarray:
        array = np.asarray(actions)
        if array.ndim == 2 and array.shape[1] == 1:  # SB3 hands Discrete actions over as (n,) but some wrappers add an axis
            array = array[:, 0]
        if array.shape != (self.num_envs,) or array.dtype.kind not in "iu":
            raise ValueError(f"actions must be {self.num_envs} integers (shape ({self.num_envs},)), "
                             f"got shape {array.shape} of dtype {array.dtype}")  # fmt: skip
        return array.astype(np.int64, copy=False)

    def _info(self, i: int, meta: list[int]) -> dict[str, Any]:
        """The single env's info of board ``i`` (``meta`` is its row of the batch's meta, as a list)."""
        info: dict[str, Any] = {
            "action_mask": self.batch.mask[i].copy(),
            "agent_player": meta[K.M_STONE] - 1,
            "agent_action": meta[K.M_PLAYED],
            "opponent_action": meta[K.M_OPP],
            "winner": meta[K.M_WINNER],
            "illegal_action": meta[K.M_ILLEGAL] == 1,
        }
        stats = self.batch.opponent_search(i) if self.batch.groups.groups else None
        if stats is not None:
            info["opponent_search"] = stats
        return info

    def _observation(self, i: int) -> Any:
        obs = self.batch.obs[i].copy()
        return {"observation": obs, "action_mask": self.batch.mask[i].copy()} if self.venv.dict_obs else obs

    def _observations(self) -> Any:
        obs = self.batch.obs.copy()
        return {"observation": obs, "action_mask": self.batch.mask.copy()} if self.venv.dict_obs else obs


def make_sb3_vec_env(env_id: str, num_envs: int, **kwargs: Any) -> SB3VecEnv:
    """``SB3VecEnv(gym.make_vec(env_id, num_envs, vectorization_mode="vector_entry_point", **kwargs))``.

    Args:
        env_id: one of :data:`envs.ENV_IDS` (``import envs`` registers them).
        num_envs: number of boards.
        kwargs: the env's arguments (``opponent``, ``agent_plays``, ``rows``, ...).

    Raises:
        ValueError: ``env_id`` is not one of this package's environments (its batched entry point is needed).
    """
    from envs import ENV_IDS

    if env_id not in ENV_IDS:
        raise ValueError(f"env_id={env_id!r} has no batched entry point: use one of {', '.join(ENV_IDS)}")
    venv = gym.make_vec(env_id, num_envs=num_envs, vectorization_mode="vector_entry_point", **kwargs)
    assert isinstance(venv, KInARowVectorEnv)
    return SB3VecEnv(venv)


__all__ = ["SB3VecEnv", "make_sb3_vec_env"]
