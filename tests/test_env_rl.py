"""A short sb3-contrib MaskablePPO run on the Connect-4 env: it trains and plays legal moves only."""

from __future__ import annotations

from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest

import envs  # noqa: F401

pytest.importorskip("sb3_contrib")


def test_maskable_ppo_trains_and_plays_only_legal_moves(tmp_path: Path) -> None:
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.maskable.utils import get_action_masks

    # illegal_action="raise": one illegal move during training or evaluation would fail the test.
    env = gym.make("alphabeta/Connect4-v0", agent_plays="random", illegal_action="raise")
    model = MaskablePPO("MlpPolicy", env, n_steps=512, batch_size=128, n_epochs=2, seed=0, device="cpu")
    model.learn(total_timesteps=2048)
    assert model.num_timesteps >= 2048
    # MaskablePPO found the masks through env.action_masks() (get_action_masks is what it calls).
    assert get_action_masks(model.get_env()).shape == (1, 7)
    results = []
    for seed in range(20):
        obs, info = env.reset(seed=seed)
        terminated = False
        while not terminated:
            masks = env.unwrapped.action_masks()
            action, _ = model.predict(obs, action_masks=masks, deterministic=True)
            assert info["action_mask"][int(action)] == 1
            obs, reward, terminated, _, info = env.step(int(action))
        results.append(reward)
    assert set(results) <= {-1.0, 0.0, 1.0} and not np.isnan(results).any()

    # The README's self-play recipe: a frozen snapshot plays the opponent, seeing the board from its side.
    model.save(tmp_path / "snapshot.zip")
    frozen = MaskablePPO.load(tmp_path / "snapshot.zip", device="cpu")
    calls = []

    def snapshot(obs: np.ndarray, mask: np.ndarray) -> int:
        calls.append(mask.copy())
        return int(frozen.predict(obs, action_masks=mask.astype(bool), deterministic=True)[0])

    obs, info = env.reset(seed=0, options={"opponent": snapshot, "agent_plays": "second"})
    terminated = False
    while not terminated:  # the same weights on both sides: any illegal choice would raise
        action, _ = model.predict(obs, action_masks=env.unwrapped.action_masks(), deterministic=True)
        obs, reward, terminated, _, info = env.step(int(action))
    assert len(calls) >= 4 and info["winner"] in (-1, 0, 1)
