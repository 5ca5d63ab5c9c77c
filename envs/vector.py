"""The batched vector environment: N boards, and the N opponents' replies, stepped in one numba call.

``gym.make_vec("alphabeta/Connect4-v0", num_envs=256, vectorization_mode="vector_entry_point")``
builds a :class:`KInARowVectorEnv`.  With the built-in random opponent a
step is a single kernel call over all boards (agent moves, random replies,
observations, masks).  Any other opponent (alpha-beta, rules, a weight file,
an agent object, a callable) is asked board by board in Python between two
kernel calls, one call per kind of opponent (:mod:`envs.batched`): an
alpha-beta spec (depth and/or node budget) searches every pending board in
one numba call, a torch policy (:class:`envs.policy.PolicyOpponent`)
evaluates them in one forward pass; the others (rules, minimax, perfect,
time budgets, agent objects, callables) are asked board by board.  Each
board keeps its own opponent state (a transposition table, a generator), so
mind the table size: ``alphabeta:tt=4096`` keeps 256 tables small.
``opponent=`` may also be a list with one opponent per board (a league).

Sub-environment ``i`` behaves exactly like a single environment reset with
seed ``seed + i`` (``reset(seed=seed)``) or ``seeds[i]`` (a list), the
contract of Gymnasium's ``SyncVectorEnv``; the tests check trajectories,
rewards and infos against it.  All three autoreset modes are supported
(``autoreset_mode=`` ``NEXT_STEP``, the default, ``SAME_STEP``, or
``DISABLED`` with ``reset(options={"reset_mask": ...})``).  Masks on ended
boards: see :meth:`KInARowVectorEnv.action_masks`.  For Stable-Baselines3 and
sb3-contrib wrap the env in :class:`envs.sb3.SB3VecEnv`.
"""

from __future__ import annotations

from typing import Any, Optional, Sequence, Union

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from envs import _kernels as K
from envs._batch import BoardBatch, check_options
from envs._streams import BoardStreams
from envs._vector_infos import batch_infos
from envs.core import observation_space
from envs.opponents import OpponentLike
from envs.render import rgb_image, text_board
from games import C4_COLS, C4_K, C4_ROWS, GOMOKU, MNK, TIC_TAC_TOE, Connect4, KInARow
from games.checks import check_int, check_seed, is_integer, shown
from search.tt import physical_memory

Seeds = Union[int, Sequence[Optional[int]], None]


def bytes_per_board(game: KInARow) -> int:
    """The bytes one board of ``game`` takes: the batch's state arrays (:class:`envs._batch.BoardBatch`: board,
    heights, stones, history, meta, random state, observation, mask, reward, replies, search stats, groups),
    its random stream, and this env's per-board index and flag."""
    cells = game.n_cells
    state = cells + 4 * game.cols + 16 + 8 * cells + 8 * K.N_META + 8
    outputs = 2 * cells + game.n_actions + 8 + 8
    scalars = (8 + 8 + 8 + 1) + (8 + 8) + (32 + 1) + (8 + 1)
    return state + outputs + scalars


def _check_boards_fit(game: KInARow, num_envs: int) -> None:
    """Refuse ``num_envs`` boards that would not fit in this machine's memory (a ValueError naming both)."""
    each, have = bytes_per_board(game), physical_memory()
    if num_envs * each > have:
        raise ValueError(f"num_envs={num_envs} boards of {game} need {num_envs * each / 2**30:,.1f} GiB ({each} bytes "
                         f"a board), more than this machine's {have / 2**30:.1f} GiB: use at most {have // each:,} boards")  # fmt: skip


class KInARowVectorEnv(VectorEnv):
    """``num_envs`` boards of ``game`` against the opponent, stepped together (see the module docstring).

    Args:
        game: the game of every board.
        num_envs: number of boards.
        opponent: as for :class:`envs.Connect4Env` (the same for every board), or
            a list or tuple with one opponent per board (a league).
        agent_plays, illegal_action, illegal_reward, dict_obs: as for
            :class:`envs.Connect4Env`, the same for every board.
        render_mode: ``"rgb_array"`` or ``"ansi"`` (a tuple with one frame per board), or None.
        autoreset_mode: an :class:`gymnasium.vector.AutoresetMode` (or its value, e.g. ``"SameStep"``).
        opening_plies: random moves played for both sides at every reset before
            the agent's first decision (an int, or ``(low, high)`` drawn
            uniformly per episode; 0 by default).  Drawn from the board's seed,
            so episodes repeat; the agent's side is drawn as usual and the
            opponent answers the opening when it is its turn.  Sub-environments
            equal single envs only with the default 0 (the single env has no opening).
    """

    def __init__(
        self,
        game: KInARow,
        num_envs: int,
        *,
        opponent: Union[OpponentLike, Sequence[OpponentLike]] = "random",
        agent_plays: str = "first",
        illegal_action: str = "lose",
        illegal_reward: float = -1.0,
        dict_obs: bool = False,
        render_mode: Optional[str] = None,
        autoreset_mode: Union[AutoresetMode, str] = AutoresetMode.NEXT_STEP,
        opening_plies: Union[int, tuple[int, int]] = 0,
    ) -> None:
        num_envs = check_int("num_envs", num_envs, low=1)
        _check_boards_fit(game, num_envs)  # before numpy's own MemoryError ("38.2 TiB"), which names no argument
        try:
            mode = AutoresetMode(autoreset_mode)
        except ValueError:
            allowed = ", ".join(m.value for m in AutoresetMode)
            raise ValueError(f"autoreset_mode={autoreset_mode!r} is not allowed: use an AutoresetMode or one of {allowed}") from None
        if render_mode not in (None, "rgb_array", "ansi"):
            raise ValueError(f"render_mode={render_mode!r} is not allowed for the vector env: use 'rgb_array', 'ansi' or None")
        if not isinstance(dict_obs, bool):
            raise ValueError(f"dict_obs={dict_obs!r} must be True or False")
        self.game = game
        self.num_envs = num_envs
        self.dict_obs = dict_obs
        self._batch = BoardBatch(game, num_envs, opponent, agent_plays, illegal_action, illegal_reward, opening_plies)
        self.single_observation_space = observation_space(game, dict_obs)
        self.single_action_space = spaces.Discrete(game.n_actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.metadata = {"render_modes": ["rgb_array", "ansi"], "autoreset_mode": mode}
        self.autoreset_mode = mode
        self.render_mode = render_mode
        self._streams = BoardStreams(num_envs)  # board i's seeding.np_random(seed) stream, drawn in numba
        self._all = np.arange(num_envs, dtype=np.int64)
        self._ended = np.zeros(num_envs, dtype=bool)  # episodes that ended and have not been reset yet
        self._started = False

    # ------------------------------------------------------------------ API
    def reset(self, *, seed: Seeds = None, options: Optional[dict[str, Any]] = None) -> tuple[Any, dict[str, Any]]:
        """Reset every board (or those of ``options["reset_mask"]``), seeding board ``i`` with ``seed + i``.

        Args:
            seed: None (keep each board's generator, fresh entropy the first
                time), an int (board i gets ``seed + i``) or one seed per board.
            options: ``reset_mask`` (bool[num_envs]: reset only these boards),
                ``opponent``, ``agent_plays`` (from this reset on).
        """
        seeds = self._seeds(seed)
        options = check_options(options)
        mask = options.pop("reset_mask", None)
        which = self._all if mask is None else self._reset_mask(mask)
        if "opponent" in options and which.size < self.num_envs:
            raise ValueError("options['opponent'] changes every board's opponent: reset all boards (no reset_mask) with it")
        self._batch.apply_options(options)
        boards = which.tolist()
        self._streams.seed(boards, [seeds[i] for i in boards])
        self._batch.reset(which, self._streams)
        self._ended[which] = False
        self._started = True
        return self._observations(), self._infos(which)

    def step(self, actions: Any) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Step every board: play ``actions[i]`` and the opponents' replies; autoreset ended boards.

        Raises:
            ValueError: before the first reset, a wrong shape or dtype, an action
                outside the action space, or (``DISABLED``) a board that was not reset.
            IllegalMoveError: an illegal action with ``illegal_action="raise"``.
        """
        if not self._started:
            raise ValueError("call reset() before step()")
        actions = self._check_actions(actions)
        batch = self._batch
        infos: dict[str, Any] = {}
        if self.autoreset_mode == AutoresetMode.DISABLED and self._ended.any():
            i = int(np.flatnonzero(self._ended)[0])
            raise ValueError(f"board {i}'s episode is over: reset it with reset(options={{'reset_mask': ...}})")
        restart = np.flatnonzero(self._ended) if self.autoreset_mode == AutoresetMode.NEXT_STEP else self._all[:0]
        play = self._all[~self._ended] if restart.size else self._all
        batch.step(actions, play)
        if restart.size:
            batch.reset(restart, self._streams)
        rewards = batch.reward.copy()
        terminated = batch.meta[:, K.M_OVER] != 0
        if restart.size:
            terminated[restart] = False
        if self.autoreset_mode == AutoresetMode.SAME_STEP and terminated.any():
            ended = np.flatnonzero(terminated)
            for board in ended.tolist():
                final = {"final_obs": self._observation(board), "final_info": batch.info(board)}
                infos = self._add_info(infos, final, board)
            batch.reset(ended, self._streams)
        self._ended = terminated.copy() if self.autoreset_mode != AutoresetMode.SAME_STEP else np.zeros_like(terminated)
        infos.update(self._infos(self._all))
        return self._observations(), rewards, terminated, np.zeros(self.num_envs, dtype=bool), infos

    def action_masks(self) -> np.ndarray:
        """bool[num_envs, n_actions]: the legal actions of every board; an ended board's row is all True.

        With ``NEXT_STEP`` autoreset a board that ended on the last step
        ignores its next action (that step only resets it), and its true mask
        is all False, which masked samplers cannot draw from (MaskablePPO's
        categorical gets no support).  So its row here allows every action:
        any draw is harmless.  ``info["action_mask"]`` and the dict
        observation keep the board's true all-zero mask, as the single env
        and ``SyncVectorEnv`` report it.  ``SAME_STEP`` never shows an ended
        board; with ``DISABLED`` such a board must be reset before it steps.
        """
        masks: np.ndarray = self._batch.mask != 0
        if self._ended.any():
            masks[self._ended] = True
        return masks

    def render(self) -> Optional[tuple[Any, ...]]:
        """One frame per board: RGB images (``"rgb_array"``) or text boards (``"ansi"``)."""
        if self.render_mode == "rgb_array":
            return tuple(rgb_image(self._batch.board[i], self.game) for i in range(self.num_envs))
        if self.render_mode == "ansi":
            return tuple(text_board(self._batch.position(i), self._batch.agent_player(i)) for i in range(self.num_envs))
        return None

    # ------------------------------------------------------------ internals
    def _seeds(self, seed: Seeds) -> list[Optional[int]]:
        if seed is None:
            return [None] * self.num_envs
        if is_integer(seed):
            first = check_seed(seed)
            assert first is not None
            return [first + i for i in range(self.num_envs)]
        if isinstance(seed, (str, bytes)) or not hasattr(seed, "__iter__"):
            raise ValueError(f"seed={shown(seed)} must be a non-negative integer, one per board, or None")
        seeds = list(seed)  # type: ignore[arg-type]
        if len(seeds) != self.num_envs:
            raise ValueError(f"{len(seeds)} seeds for {self.num_envs} boards: give one per board, an int, or None")
        return [check_seed(value, f"seed[{i}]") for i, value in enumerate(seeds)]

    def _reset_mask(self, mask: Any) -> np.ndarray:
        if not isinstance(mask, np.ndarray) or mask.dtype != np.bool_ or mask.shape != (self.num_envs,):
            raise ValueError(f"options['reset_mask'] must be a bool numpy array of shape ({self.num_envs},), got {mask!r}")
        return np.flatnonzero(mask).astype(np.int64)

    def _check_actions(self, actions: Any) -> np.ndarray:
        array = np.asarray(actions)
        if array.shape != (self.num_envs,) or array.dtype.kind not in "iu":
            raise ValueError(f"actions must be {self.num_envs} integers (shape ({self.num_envs},)), "
                             f"got shape {array.shape} of dtype {array.dtype}")  # fmt: skip
        return array.astype(np.int64, copy=False)

    def _observation(self, i: int) -> Any:
        obs = self._batch.obs[i].copy()
        return {"observation": obs, "action_mask": self._batch.mask[i].copy()} if self.dict_obs else obs

    def _observations(self) -> Any:
        obs = self._batch.obs.copy()
        return {"observation": obs, "action_mask": self._batch.mask.copy()} if self.dict_obs else obs

    def _infos(self, which: np.ndarray) -> dict[str, Any]:
        """The infos of the boards ``which`` in Gymnasium's vector layout (``key`` arrays and ``_key`` masks)."""
        infos, dicts = batch_infos(self._batch, which)  # one numba call (envs._vector_infos)
        if dicts:  # per-board opponents' search dicts (a depth may be None): Gymnasium's own merging
            for i in which.tolist():
                stats = self._batch.opponent_search(i)
                if stats is not None:
                    infos = self._add_info(infos, {"opponent_search": stats}, i)
        return infos


def connect4_vector_env(num_envs: int, rows: int = C4_ROWS, cols: int = C4_COLS, k: int = C4_K, exact_k: bool = False,
                        **options: Any) -> KInARowVectorEnv:  # fmt: skip
    """The vector entry point of ``alphabeta/Connect4-v0``."""
    return KInARowVectorEnv(Connect4(rows, cols, k, exact_k), num_envs, **options)


def mnk_vector_env(num_envs: int, rows: int, cols: int, k: int, exact_k: bool = False, **options: Any) -> KInARowVectorEnv:
    """The vector entry point of ``alphabeta/MNK-v0``."""
    return KInARowVectorEnv(MNK(rows, cols, k, exact_k), num_envs, **options)


def tictactoe_vector_env(num_envs: int, **options: Any) -> KInARowVectorEnv:
    """The vector entry point of ``alphabeta/TicTacToe-v0``."""
    return KInARowVectorEnv(TIC_TAC_TOE, num_envs, **options)


def gomoku_vector_env(num_envs: int, exact_k: bool = False, **options: Any) -> KInARowVectorEnv:
    """The vector entry point of ``alphabeta/Gomoku-v0`` (``exact_k=True``: standard gomoku)."""
    return KInARowVectorEnv(MNK(GOMOKU.rows, GOMOKU.cols, GOMOKU.k, exact_k), num_envs, **options)
