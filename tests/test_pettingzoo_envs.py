"""The PettingZoo AEC environments: PettingZoo's api_test, scripted games, illegal moves."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from envs.pettingzoo import connect4_v0, mnk_v0  # noqa: E402
from games import MNK, TIC_TAC_TOE, IllegalMoveError, InvalidGameError  # noqa: E402


@pytest.mark.parametrize("module, kwargs", [(connect4_v0, {}), (connect4_v0, {"rows": 5, "cols": 4, "k": 3}),
                                            (mnk_v0, {}), (mnk_v0, {"rows": 15, "cols": 15, "k": 5})])  # fmt: skip
def test_pettingzoo_api_test(module: Any, kwargs: dict[str, int]) -> None:
    with warnings.catch_warnings():
        # api_test's generic hints for Dict observations (the classic envs get them too).
        warnings.filterwarnings("ignore", message="Observation")
        api_test(module.env(**kwargs), num_cycles=200)
    seed_test(lambda: module.env(**kwargs), num_cycles=50)


def play(env: Any, moves: list[int]) -> list[tuple[str, float, bool]]:
    """Play ``moves`` in agent order; return (agent, reward seen by last(), terminated) at every turn."""
    env.reset(seed=0)
    seen = []
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        seen.append((agent, reward, terminated))
        env.step(None if terminated or truncated else moves.pop(0))
    return seen


def test_a_scripted_connect4_game() -> None:
    env = connect4_v0.env()
    env.reset(seed=0)
    for move in (0, 1, 0, 1, 0):
        env.step(move)
    obs = env.observe("player_1")  # player_1 to move: its view, its mask
    assert obs["observation"][0, :, 1].tolist() == [0, 0, 0, 0, 1, 1]
    assert obs["observation"][1, :, 0].tolist() == [0, 0, 0, 1, 1, 1]
    assert obs["action_mask"].tolist() == [1] * 7
    assert env.observe("player_0")["action_mask"].tolist() == [0] * 7  # not its turn
    assert play(connect4_v0.env(), [0, 1, 0, 1, 0, 1, 0]) == [
        ("player_0", 0, False), ("player_1", 0, False), ("player_0", 0, False), ("player_1", 0, False),
        ("player_0", 0, False), ("player_1", 0, False), ("player_0", 0, False),
        ("player_1", -1.0, True), ("player_0", 1.0, True),
    ]  # fmt: skip


def test_a_drawn_tic_tac_toe_game_pays_nothing() -> None:
    seen = play(mnk_v0.env(), [4, 0, 8, 2, 1, 7, 6, 3, 5])
    assert seen[-2:] == [("player_1", 0.0, True), ("player_0", 0.0, True)]


def test_illegal_moves() -> None:
    env = mnk_v0.env(illegal_reward=-3.0)
    env.reset(seed=0)
    env.step(4)
    env.step(4)  # player_1 takes the taken centre: it loses with the penalty
    assert env.unwrapped.rewards == {"player_0": 0.0, "player_1": -3.0}
    assert all(env.terminations.values()) and env.infos["player_1"] == {"illegal_action": True}
    strict = connect4_v0.env(illegal_action="raise")
    strict.reset(seed=0)
    for _ in range(6):
        strict.step(2)
    with pytest.raises(IllegalMoveError, match="the column is full"):
        strict.step(2)
    with pytest.raises(ValueError, match="outside the action space Discrete\\(7\\)"):
        strict.step(7)
    with pytest.raises(ValueError, match="illegal_action='random' is not allowed"):
        connect4_v0.env(illegal_action="random")


def test_render_modes() -> None:
    env = connect4_v0.env(render_mode="ansi")
    env.reset(seed=0)
    env.step(3)
    assert env.render().splitlines()[-2:] == ["o to move", "player_1 to move"]
    image = connect4_v0.env(render_mode="rgb_array")
    image.reset(seed=0)
    frame = image.render()
    assert frame.shape == (288, 336, 3) and frame.dtype == np.uint8


def test_mnk_needs_all_three_sizes_or_none() -> None:
    assert mnk_v0.env().unwrapped.game == TIC_TAC_TOE  # none: tic-tac-toe, documented
    assert mnk_v0.env(rows=4, cols=5, k=3).unwrapped.game == MNK(4, 5, 3)
    with pytest.raises(InvalidGameError, match="an m,n,k game needs rows, cols and k; missing: k"):
        mnk_v0.env(rows=3, cols=3)  # used to be a silent 3,3,3
    with pytest.raises(InvalidGameError, match="missing: rows, cols"):
        mnk_v0.raw_env(k=4)


def test_aec_reset_checks_its_seed_and_options() -> None:
    env = mnk_v0.env()
    with pytest.raises(ValueError, match="seed=-1 is negative"):
        env.reset(seed=-1)
    with pytest.raises(ValueError, match="must be a dict .* not str 'x'"):
        env.reset(options="x")
    env.reset(seed=np.int64(3))


def test_parallel_step_refuses_an_action_for_no_agent() -> None:
    env = connect4_v0.parallel_env()
    env.reset(seed=0)
    with pytest.raises(ValueError, match="'player_9'"):
        env.step({"player_0": 3, "player_9": 2})
    env.step({"player_0": 3, "player_1": 2})  # the waiting agent's action is still allowed (and ignored)
