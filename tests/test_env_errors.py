"""Illegal actions in every mode, actions outside the space, and bad arguments at gym.make."""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
import pytest

import envs  # noqa: F401
from envs.core import KInARowEnv
from games import IllegalMoveError, InvalidGameError
from search.agents import AgentSpecError


def filled_first_column(seed: int = 0, **kwargs: Any) -> tuple[KInARowEnv, dict[str, Any]]:
    """A Connect-4 env whose column 1 is full (alternating stones, no winner), agent to move."""
    replies = iter([0, 0, 0, 6, 6, 5, 5])
    env = gym.make("alphabeta/Connect4-v0", opponent=lambda obs, mask: next(replies), **kwargs).unwrapped
    assert isinstance(env, KInARowEnv)
    _, info = env.reset(seed=seed)
    for _ in range(3):
        _, _, terminated, _, info = env.step(0)
        assert not terminated
    assert info["action_mask"][0] == 0
    return env, info


def test_lose_ends_the_episode_with_the_penalty_and_leaves_the_board() -> None:
    env, _ = filled_first_column(illegal_reward=-5.0)
    before = env.position().moves
    obs, reward, terminated, truncated, info = env.step(0)
    assert (reward, terminated, truncated) == (-5.0, True, False) and type(reward) is float
    assert info["illegal_action"] and info["agent_action"] == -1 and info["opponent_action"] == -1
    assert info["winner"] == 1  # a forfeit: the opponent (second player) wins
    assert not info["action_mask"].any()
    assert env.position().moves == before and obs.sum() == 6
    with pytest.raises(ValueError, match="episode is over"):
        env.step(1)


def test_raise_names_the_move_and_why_and_the_episode_goes_on() -> None:
    env, _ = filled_first_column(illegal_action="raise")
    with pytest.raises(IllegalMoveError, match=r"move '1' in Connect-4 6x7 k=4 position '111111': the column is full"):
        env.step(0)
    _, reward, terminated, _, info = env.step(1)  # nothing changed: a legal move is still welcome
    assert not terminated and not info["illegal_action"] and env.position().moves == [0] * 6 + [1, 6]


def test_raise_in_mnk_says_the_cell_is_taken() -> None:
    env = gym.make("alphabeta/TicTacToe-v0", illegal_action="raise", opponent=lambda obs, mask: 0).unwrapped
    env.reset(seed=0)
    env.step(4)
    with pytest.raises(IllegalMoveError, match="move 'a3' .* the cell is taken"):
        env.step(0)


def test_random_replaces_the_move_and_flags_it() -> None:
    env, _ = filled_first_column(illegal_action="random")
    seen = set()
    for seed in range(20):
        env2, _ = filled_first_column(seed, illegal_action="random")
        _, reward, terminated, _, info = env2.step(0)
        assert info["illegal_action"] and 1 <= info["agent_action"] <= 6 and not terminated
        assert env2.position().moves[6] == info["agent_action"]
        seen.add(info["agent_action"])
    assert len(seen) > 2  # random, from the env's seeded generator
    _, _, _, _, info = env.step(1)
    assert not info["illegal_action"] and info["agent_action"] == 1


@pytest.mark.parametrize("mode", ["lose", "raise", "random"])
@pytest.mark.parametrize("action", [7, -1, 2.0, True, "3", None, np.array([1, 2])])
def test_an_action_outside_the_space_always_raises(mode: str, action: Any) -> None:
    env = gym.make("alphabeta/Connect4-v0", illegal_action=mode).unwrapped
    env.reset(seed=0)
    with pytest.raises(ValueError, match="outside the action space Discrete\\(7\\)") as caught:
        env.step(action)
    assert not isinstance(caught.value, IllegalMoveError)


def test_numpy_actions_are_accepted() -> None:
    env = gym.make("alphabeta/Connect4-v0").unwrapped
    env.reset(seed=0)
    for action in (np.int64(3), np.int8(2), np.array(1), np.array([4], dtype=np.int32)):
        _, _, terminated, _, info = env.step(action)
        assert info["agent_action"] == int(np.asarray(action).item())
        if terminated:
            break


def test_step_before_reset() -> None:
    with pytest.raises(gym.error.ResetNeeded):
        gym.make("alphabeta/Connect4-v0").step(0)
    with pytest.raises(ValueError, match="call reset"):
        KInARowEnv(gym.make("alphabeta/Connect4-v0").unwrapped.game).step(0)


@pytest.mark.parametrize("env_id, kwargs, error, message", [
    ("alphabeta/Connect4-v0", {"opponent": "perfekt"}, AgentSpecError, "unknown agent 'perfekt'.*use one of alphabeta"),
    ("alphabeta/Connect4-v0", {"opponent": "alphabeta:deep=3"}, AgentSpecError, "unknown key\\(s\\) 'deep'"),
    ("alphabeta/Connect4-v0", {"opponent": "alphabeta:depth=0"}, ValueError, "depth=0 must be a positive integer"),
    ("alphabeta/Connect4-v0", {"opponent": "no/such/weights.json"}, ValueError, "no/such/weights.json"),
    ("alphabeta/Connect4-v0", {"opponent": 42}, TypeError, "opponent=42 is not an agent spec"),
    ("alphabeta/Connect4-v0", {"rows": 0}, InvalidGameError, "rows=0 is out of range"),
    ("alphabeta/Connect4-v0", {"k": 9}, InvalidGameError, "k=9 is out of range"),
    ("alphabeta/MNK-v0", {"rows": 3, "cols": 3}, TypeError, "k"),
    ("alphabeta/MNK-v0", {"rows": 3, "cols": 101, "k": 3}, InvalidGameError, "cols=101 is out of range"),
    ("alphabeta/TicTacToe-v0", {"rows": 4}, InvalidGameError, "fixed at m,n,k 3,3,3; rows cannot be set"),
    ("alphabeta/Gomoku-v0", {"k": 6}, InvalidGameError, "fixed at m,n,k 15,15,5"),
    ("alphabeta/Connect4-v0", {"agent_plays": "last"}, ValueError, "agent_plays='last' is not allowed: use one of 'first', 'second', 'random'"),
    ("alphabeta/Connect4-v0", {"illegal_action": "ignore"}, ValueError, "illegal_action='ignore' is not allowed"),
    ("alphabeta/Connect4-v0", {"illegal_reward": float("nan")}, ValueError, "illegal_reward=nan must be a finite number"),
    ("alphabeta/Connect4-v0", {"render_mode": "video"}, ValueError, "render_mode='video' is not allowed"),
    ("alphabeta/Connect4-v0", {"dict_obs": "yes"}, ValueError, "dict_obs='yes' must be True or False"),
    ("alphabeta/Connect4-v0", {"opponnent": "random"}, TypeError, "opponnent"),
])  # fmt: skip
def test_bad_arguments_fail_at_make_with_a_clear_message(env_id: str, kwargs: dict[str, Any], error: type, message: str) -> None:
    with pytest.raises(error, match=message):
        gym.make(env_id, **kwargs)


def test_bad_options_fail_at_reset() -> None:
    env = gym.make("alphabeta/Connect4-v0")
    with pytest.raises(AgentSpecError, match="unknown agent 'strong'"):
        env.reset(options={"opponent": "strong"})
    with pytest.raises(ValueError, match="agent_plays='both'"):
        env.reset(options={"agent_plays": "both"})


def test_reset_options_must_be_a_dict_and_seeds_non_negative_integers() -> None:
    env = gym.make("alphabeta/Connect4-v0", opponent="rules")
    vec = gym.make_vec("alphabeta/Connect4-v0", num_envs=2, vectorization_mode="vector_entry_point")
    for reset in (env.reset, vec.reset):
        with pytest.raises(ValueError, match="reset\\(options=...\\) must be a dict .* or None, not str 'notadict'"):
            reset(options="notadict")
        with pytest.raises(ValueError, match="not list \\['opponent'\\]"):
            reset(options=["opponent"])
        with pytest.raises(ValueError, match="seed=-1 is negative: a seed must be a non-negative integer or None"):
            reset(seed=-1)  # gymnasium's own error is not a ValueError
        with pytest.raises(ValueError, match="seed=2.5 (is not an integer|must be a non-negative integer)"):
            reset(seed=2.5)
    with pytest.raises(ValueError, match="seed\\[1\\]=-3 is negative"):
        vec.reset(seed=[1, -3])
    # NumPy integers are seeds like Python ints: the same episode
    env = gym.make("alphabeta/Connect4-v0", opponent="rules")  # a fresh one: the checker wrapper saw failed resets
    first = env.reset(seed=np.int64(7))[0], env.step(3)[0]
    again = env.reset(seed=7)[0], env.step(3)[0]
    assert all(np.array_equal(a, b) for a, b in zip(first, again))
    assert np.array_equal(vec.reset(seed=np.uint32(5))[0], vec.reset(seed=5)[0])


def test_an_opponent_spec_may_end_with_its_weight_file() -> None:
    path = "weights/connect4-windows.json"
    env = gym.make("alphabeta/Connect4-v0", opponent=f"alphabeta:depth=1,weights={path}").unwrapped
    assert isinstance(env, KInARowEnv)
    env.reset(seed=0)
    env.reset(options={"opponent": f"alphabeta:weights={path}"})
    with pytest.raises(AgentSpecError, match="key 'depth' is given twice"):
        env.reset(options={"opponent": "alphabeta:depth=1,depth=2"})


def test_numpy_numbers_configure_envs_like_python_ones() -> None:
    from envs.pettingzoo import mnk_v0
    from envs.vector import KInARowVectorEnv
    from games import TIC_TAC_TOE, make_game

    env = gym.make("alphabeta/MNK-v0", rows=np.int64(3), cols=np.int32(3), k=np.int64(3),
                   illegal_reward=np.float32(-2.0)).unwrapped  # fmt: skip
    assert isinstance(env, KInARowEnv) and env.game == TIC_TAC_TOE and type(env.game.rows) is int
    assert make_game("connect4", np.int64(5), np.int64(6), np.int64(4)) == make_game("connect4", 5, 6, 4)
    vec = KInARowVectorEnv(TIC_TAC_TOE, np.int64(2), illegal_reward=np.int64(-1))
    assert vec.num_envs == 2 and type(vec.num_envs) is int
    assert mnk_v0.raw_env(illegal_reward=np.float64(-3.0)).illegal_reward == -3.0
    with pytest.raises(ValueError, match="illegal_reward=10000000000000000000...\\(401 characters\\) must be a finite"):
        gym.make("alphabeta/TicTacToe-v0", illegal_reward=10**400)
    with pytest.raises(ValueError, match="num_envs=0 must be a positive integer"):
        KInARowVectorEnv(TIC_TAC_TOE, 0)
