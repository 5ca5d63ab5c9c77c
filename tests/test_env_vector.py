"""Vector environments: the batched env against N single envs, Gymnasium's and SB3's vectorisers."""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

import envs  # noqa: F401
from envs.vector import KInARowVectorEnv


def assert_same(a: Any, b: Any, where: str = "") -> None:
    """Equal nested dicts / arrays / scalars, dtypes included (object arrays compared element-wise)."""
    if isinstance(a, dict):
        assert isinstance(b, dict) and sorted(a) == sorted(b), (where, sorted(a), sorted(b))
        for key in a:
            assert_same(a[key], b[key], f"{where}/{key}")
    elif isinstance(a, (tuple, list)):
        assert type(a) is type(b) and len(a) == len(b), where
        for i, (x, y) in enumerate(zip(a, b)):
            assert_same(x, y, f"{where}[{i}]")
    elif isinstance(a, np.ndarray) and a.dtype == object:
        assert isinstance(b, np.ndarray) and a.shape == b.shape, where
        for x, y in zip(a, b):
            assert (x is None) == (y is None), where
            if x is not None:
                assert_same(x, y, f"{where}[]")
    elif isinstance(a, np.ndarray):
        assert isinstance(b, np.ndarray) and a.dtype == b.dtype and np.array_equal(a, b), (where, a, b)
    else:
        assert a == b, (where, a, b)


def masked_random_actions(rng: np.random.Generator, masks: np.ndarray, illegal_share: float = 0.0) -> np.ndarray:
    """One random legal action per board (all-zero masks: action 0), a share of them replaced by any action."""
    keys = rng.random(masks.shape) + masks
    actions = np.argmax(keys, axis=1)
    wild = rng.random(len(actions)) < illegal_share
    actions[wild] = rng.integers(0, masks.shape[1], wild.sum())
    return actions


CASES: list[tuple[str, dict[str, Any], float]] = [
    ("alphabeta/Connect4-v0", {"agent_plays": "random"}, 0.0),  # the bitboard kernel path
    ("alphabeta/Connect4-v0", {"rows": 9, "cols": 9, "k": 5, "agent_plays": "second"}, 0.0),  # array path, gravity
    ("alphabeta/MNK-v0", {"rows": 4, "cols": 4, "k": 3, "agent_plays": "random", "dict_obs": True}, 0.0),
    ("alphabeta/Connect4-v0", {"agent_plays": "random", "illegal_action": "random"}, 0.3),
    ("alphabeta/TicTacToe-v0", {"agent_plays": "random", "illegal_reward": -2.0}, 0.3),
    ("alphabeta/Connect4-v0", {"agent_plays": "random", "opponent": "alphabeta:depth=1,tt=1024,random_every=2"}, 0.0),
    ("alphabeta/TicTacToe-v0", {"agent_plays": "random", "opponent": "rules"}, 0.0),
    # batched alpha-beta opponents (envs.batched) against the single envs' agents: bitboards, array boards, m,n,k
    ("alphabeta/Connect4-v0", {"agent_plays": "random", "opponent": "alphabeta:depth=2,tt=4096"}, 0.0),
    ("alphabeta/Connect4-v0", {"rows": 9, "cols": 9, "k": 5, "agent_plays": "random", "opponent": "alphabeta:depth=2,tt=1024"}, 0.0),
    ("alphabeta/MNK-v0", {"rows": 4, "cols": 4, "k": 3, "agent_plays": "random", "opponent": "alphabeta:depth=3,tt=1024"}, 0.0),
]


@pytest.mark.parametrize("mode", [AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP])
@pytest.mark.parametrize("env_id, kwargs, illegal_share", CASES)
def test_batched_env_equals_n_single_envs_with_the_same_seeds(env_id: str, kwargs: dict[str, Any], illegal_share: float,
                                                             mode: AutoresetMode) -> None:  # fmt: skip
    """SyncVectorEnv of single envs seeded seed + i is the reference: observations, rewards, flags, infos."""
    n, steps = 5, 60
    sync = gym.make_vec(env_id, num_envs=n, vectorization_mode="sync", vector_kwargs={"autoreset_mode": mode}, **kwargs)
    batched = gym.make_vec(env_id, num_envs=n, vectorization_mode="vector_entry_point", autoreset_mode=mode, **kwargs)
    assert isinstance(batched, KInARowVectorEnv) and batched.metadata["autoreset_mode"] == mode
    assert batched.observation_space == sync.observation_space and batched.action_space == sync.action_space
    reference, ours = sync.reset(seed=7), batched.reset(seed=7)
    assert_same(reference, ours, "reset")
    rng = np.random.default_rng(1)
    episodes = 0
    for t in range(steps):
        actions = masked_random_actions(rng, ours[-1]["action_mask"], illegal_share)
        reference, ours = sync.step(actions), batched.step(actions)
        assert_same(reference, ours, f"step {t}")
        episodes += int(ours[2].sum())
    assert episodes >= n  # several autoresets happened along the way


def test_disabled_autoreset_needs_a_reset_mask() -> None:
    env = gym.make_vec("alphabeta/TicTacToe-v0", num_envs=3, vectorization_mode="vector_entry_point",
                       autoreset_mode=AutoresetMode.DISABLED, agent_plays="second")  # fmt: skip
    _, infos = env.reset(seed=0)
    rng = np.random.default_rng(0)
    while True:
        _, _, terminated, _, infos = env.step(masked_random_actions(rng, infos["action_mask"]))
        if terminated.any():
            break
    with pytest.raises(ValueError, match="episode is over: reset it with reset"):
        env.step(np.zeros(3, dtype=np.int64))
    obs, infos = env.reset(options={"reset_mask": terminated})
    with pytest.raises(ValueError, match="reset all boards"):
        env.reset(options={"reset_mask": terminated, "opponent": "rules"})
    fresh = obs[terminated]  # a reset board holds the opponent's first stone and nothing else
    assert fresh[:, 0].sum() == 0 and fresh[:, 1].sum(axis=(1, 2)).tolist() == [1] * int(terminated.sum())
    assert infos["_action_mask"].tolist() == terminated.tolist()
    env.step(masked_random_actions(rng, env.action_masks().astype(np.int8)))


@pytest.mark.parametrize("mode", [AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP])
def test_async_vector_env_matches_sync(mode: AutoresetMode) -> None:
    kwargs = {"agent_plays": "random", "opponent": "alphabeta:depth=1,tt=1024"}
    sync = gym.make_vec("alphabeta/Connect4-v0", num_envs=2, vectorization_mode="sync", vector_kwargs={"autoreset_mode": mode}, **kwargs)
    asyn = gym.make_vec("alphabeta/Connect4-v0", num_envs=2, vectorization_mode="async",
                        vector_kwargs={"autoreset_mode": mode}, **kwargs)  # fmt: skip
    try:
        reference, theirs = sync.reset(seed=3), asyn.reset(seed=3)
        assert_same(reference, theirs)
        rng = np.random.default_rng(0)
        for _ in range(30):
            actions = masked_random_actions(rng, reference[-1]["action_mask"])
            reference, theirs = sync.step(actions), asyn.step(actions)
            assert_same(reference, theirs)
    finally:
        asyn.close()


def sb3_trajectory(vec_env: Any, steps: int) -> list[Any]:
    vec_env.seed(5)
    obs = vec_env.reset()
    rng = np.random.default_rng(2)
    trace = [obs.tolist()]
    for _ in range(steps):
        masks = np.stack(vec_env.env_method("action_masks"))
        obs, rewards, dones, infos = vec_env.step(masked_random_actions(rng, masks.astype(np.int8)))
        trace.append((obs.tolist(), rewards.tolist(), dones.tolist(), [i["opponent_action"] for i in infos]))
    return trace


def test_sb3_dummy_and_subproc_vec_envs_give_the_same_trajectories() -> None:
    from stable_baselines3.common.env_util import make_vec_env
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

    kwargs = {"agent_plays": "random", "opponent": "rules"}
    # "envs:" makes gym.make import the package (and so register the ids) inside SB3's worker processes.
    dummy = make_vec_env("envs:alphabeta/Connect4-v0", n_envs=2, vec_env_cls=DummyVecEnv, env_kwargs=kwargs)
    subproc = make_vec_env("envs:alphabeta/Connect4-v0", n_envs=2, vec_env_cls=SubprocVecEnv, env_kwargs=kwargs)
    try:
        a, b = sb3_trajectory(dummy, 40), sb3_trajectory(subproc, 40)
        assert a == b and any(any(step[2]) for step in a[1:])
    finally:
        subproc.close()


def test_bad_vector_arguments() -> None:
    make = gym.make_vec
    with pytest.raises(ValueError, match="num_envs=0 must be a positive integer"):
        make("alphabeta/Connect4-v0", num_envs=0, vectorization_mode="vector_entry_point")
    with pytest.raises(ValueError, match="autoreset_mode='sometimes' is not allowed"):
        make("alphabeta/Connect4-v0", num_envs=2, vectorization_mode="vector_entry_point", autoreset_mode="sometimes")
    env = make("alphabeta/Connect4-v0", num_envs=2, vectorization_mode="vector_entry_point")
    with pytest.raises(ValueError, match="call reset"):
        env.step(np.zeros(2, dtype=np.int64))
    env.reset(seed=0)
    with pytest.raises(ValueError, match="actions must be 2 integers"):
        env.step(np.zeros(3, dtype=np.int64))
    with pytest.raises(ValueError, match="board 1: action 7 is outside the action space"):
        env.step(np.array([0, 7]))
    with pytest.raises(ValueError, match="3 seeds for 2 boards"):
        env.reset(seed=[1, 2, 3])


@pytest.mark.parametrize("num_envs", [10**12, 2**70])
def test_too_many_boards_are_refused_by_name_before_numpy_tries(num_envs: int) -> None:
    from envs.vector import bytes_per_board
    from games import CONNECT4
    from search.tt import physical_memory

    each = bytes_per_board(CONNECT4)
    with pytest.raises(ValueError, match=f"num_envs={num_envs} boards of Connect-4 6x7 k=4 need .* GiB "
                                         f"\\({each} bytes a board\\), more than this machine's .* GiB: "
                                         f"use at most {physical_memory() // each:,} boards"):  # fmt: skip
        gym.make_vec("alphabeta/Connect4-v0", num_envs=num_envs, vectorization_mode="vector_entry_point")


def test_bytes_per_board_covers_the_arrays_a_board_takes() -> None:
    from envs.vector import bytes_per_board

    for env_id in ("alphabeta/Connect4-v0", "alphabeta/TicTacToe-v0"):
        vec = gym.make_vec(env_id, num_envs=512, vectorization_mode="vector_entry_point")
        inner = vec.unwrapped
        arrays = {id(a): a for owner in (inner, inner._batch, inner._streams) for a in vars(owner).values()
                  if isinstance(a, np.ndarray) and a.shape[:1] == (512,)}  # fmt: skip
        measured = sum(a.nbytes for a in arrays.values()) / 512
        assert measured <= bytes_per_board(inner.game) <= 1.1 * measured
