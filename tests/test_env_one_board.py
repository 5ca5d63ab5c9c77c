"""The single env's one-buffer board (envs._one_board) and what gym.make gives without its two wrappers."""

from __future__ import annotations

import pickle
import warnings

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.error import ResetNeeded
from gymnasium.wrappers import PassiveEnvChecker
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import envs
from envs import _kernels as K
from envs._batch import BoardBatch, max_opening_plies
from envs._one_board import carve, new_arena
from games import MNK, Connect4

STATE = ("board", "heights", "stones", "history", "meta", "obs", "mask", "reward", "rng")


def same_board(one: BoardBatch, many: BoardBatch) -> None:
    """Board 0 of ``many`` (arrays of their own) equals the one-buffer batch's board, array by array."""
    for name in STATE:
        assert np.array_equal(getattr(one, name)[0], getattr(many, name)[0]), name


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 6), st.integers(2, 7), st.integers(2, 5), st.booleans(), st.booleans(),
       st.sampled_from(["first", "second", "random"]), st.sampled_from(["lose", "random"]), st.integers(0, 2**32),
       st.data())  # fmt: skip
def test_the_one_buffer_kernels_step_as_the_batch_kernels(rows: int, cols: int, k: int, gravity: bool, exact_k: bool,
                                                          side: str, illegal: str, seed: int, data: st.DataObject) -> None:  # fmt: skip
    """Random games (illegal actions included) on a batch of one (the arena) and on board 0 of a batch of two give the
    same arrays after every reset and step: _reset_one/_step_one are _reset_boards/_step_boards on one buffer."""
    assume(k <= max(rows, cols))
    game = Connect4(rows, cols, k, exact_k) if gravity else MNK(rows, cols, k, exact_k)
    opening = data.draw(st.integers(0, max_opening_plies(game)))
    one = BoardBatch(game, 1, "random", side, illegal, -2.5, (0, opening))
    many = BoardBatch(game, 2, "random", side, illegal, -2.5, (0, opening))
    assert one.arena is not None and many.arena is None
    rng = np.random.default_rng(seed)
    first = np.zeros(1, dtype=np.int64)
    for episode in range(3):
        one.reset(first, [np.random.default_rng(seed + episode)])
        many.reset(first, [np.random.default_rng(seed + episode), np.random.default_rng(0)])
        same_board(one, many)
        while not one.over(0):
            action = int(rng.integers(game.n_actions))  # uniform over the action space: some are illegal
            one.step_one(action)
            many.step(np.array([action, 0]), first)
            same_board(one, many)
        assert many.over(0)


def test_the_arrays_are_views_of_the_buffer_also_after_pickling() -> None:
    env = gym.make("alphabeta/Connect4-v0")
    env.reset(seed=1)
    clone = pickle.loads(pickle.dumps(env))
    for batch in (env.unwrapped._batch, clone.unwrapped._batch):
        assert all(np.shares_memory(getattr(batch, name), batch.arena) for name in (*STATE, "params"))
    # the clone's kernels write into its own buffer, which its observation and mask show
    obs, _, _, _, info = clone.step(3)
    assert obs[0, -1, 3] == 1 and np.array_equal(info["action_mask"], clone.unwrapped._batch.mask[0])
    assert env.unwrapped._batch.board.sum() == 0  # the original is untouched


def test_carve_lays_the_sections_out_in_order_without_overlap() -> None:
    game = MNK(5, 6, 4)
    arena = new_arena(game, illegal_reward=-0.5)
    views = carve(arena, game)
    assert arena[K.H_ILLEGAL_REWARD : K.H_ILLEGAL_REWARD + 1].view(np.float64)[0] == -0.5
    assert views["mask"].shape == (1, 30) and views["obs"].shape == (1, 2, 5, 6) and views["heights"].dtype == np.int32
    for name, view in views.items():
        view.reshape(-1)[:] = 1  # every byte of one section set: no other section may change
        others = [other for key, other in views.items() if key != name]
        assert all(not other.any() for other in others), name
        view.reshape(-1)[:] = 0
    assert arena[K.H_END] == arena.size and (np.diff(arena[K.H_BOARD : K.H_END + 1]) > 0).all()


def test_infos_are_fresh_objects_every_step() -> None:
    env = gym.make("alphabeta/Connect4-v0")
    _, first = env.reset(seed=2)
    obs, _, _, _, second = env.step(3)
    assert first is not second and first["action_mask"] is not second["action_mask"]
    second["action_mask"][:] = 0
    obs[:] = 1
    assert env.unwrapped.action_masks().any() and env.unwrapped._batch.obs.sum() == 2  # the env's own state untouched
    assert list(second) == ["action_mask", "agent_player", "agent_action", "opponent_action", "winner", "illegal_action"]
    assert type(second["agent_action"]) is int and type(second["illegal_action"]) is bool


@pytest.mark.parametrize("env_id", envs.ENV_IDS)
def test_gym_make_adds_no_wrapper_and_the_env_keeps_their_order(env_id: str) -> None:
    env = gym.make(env_id, render_mode="ansi", **({"rows": 3, "cols": 3, "k": 3} if env_id == "alphabeta/MNK-v0" else {}))
    assert env is env.unwrapped  # no OrderEnforcing, no PassiveEnvChecker
    for call in (lambda: env.step(0), env.render):
        with pytest.raises(ResetNeeded, match="reset"):  # what OrderEnforcing raised
            call()
        with pytest.raises(ValueError, match="reset"):  # what the env always raised
            call()
    env.reset(seed=0)
    assert "agent plays" in str(env.render())


def test_the_checker_is_still_there_on_request() -> None:
    env = gym.make("alphabeta/Connect4-v0", disable_env_checker=False)
    assert isinstance(env, PassiveEnvChecker)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the checker finds nothing to warn about
        _, info = env.reset(seed=0)
        env.step(int(np.flatnonzero(info["action_mask"])[0]))
