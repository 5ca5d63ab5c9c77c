"""The SB3 VecEnv adapter over the batched env: SB3's VecEnv contract, DummyVecEnv equivalence, MaskablePPO."""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

import envs  # noqa: F401
from envs.sb3 import SB3VecEnv, make_sb3_vec_env
from games import IllegalMoveError

pytest.importorskip("sb3_contrib")
from sb3_contrib import MaskablePPO  # noqa: E402
from stable_baselines3.common.vec_env import DummyVecEnv  # noqa: E402


def random_masked(rng: np.random.Generator, masks: np.ndarray, wild: float = 0.0) -> np.ndarray:
    """A random allowed action per row, a share ``wild`` of them replaced by any action."""
    actions = np.argmax(rng.random(masks.shape) + masks, axis=1)
    replace = rng.random(len(actions)) < wild
    actions[replace] = rng.integers(0, masks.shape[1], replace.sum())
    return actions


def same(a: Any, b: Any, where: str) -> None:
    """Equal nested structures, numpy dtypes included."""
    if isinstance(a, dict):
        assert sorted(a) == sorted(b), (where, sorted(a), sorted(b))
        for key in a:
            same(a[key], b[key], f"{where}/{key}")
    elif isinstance(a, (list, tuple)):
        assert len(a) == len(b), where
        for i, (x, y) in enumerate(zip(a, b)):
            same(x, y, f"{where}[{i}]")
    elif isinstance(a, np.ndarray):
        assert isinstance(b, np.ndarray) and a.dtype == b.dtype and np.array_equal(a, b), (where, a, b)
    else:
        assert type(a) is type(b) and a == b, (where, a, b)


CASES: list[tuple[str, dict[str, Any], float]] = [
    ("alphabeta/Connect4-v0", {"agent_plays": "random"}, 0.0),
    ("alphabeta/Connect4-v0", {"agent_plays": "random", "illegal_action": "random"}, 0.3),
    ("alphabeta/TicTacToe-v0", {"agent_plays": "random", "dict_obs": True}, 0.2),
    ("alphabeta/MNK-v0", {"rows": 4, "cols": 4, "k": 3, "agent_plays": "second", "opponent": "rules"}, 0.0),
    ("alphabeta/Connect4-v0", {"agent_plays": "random", "opponent": "alphabeta:depth=1,tt=1024"}, 0.0),
]


@pytest.mark.parametrize("env_id, kwargs, wild", CASES)
def test_adapter_equals_dummy_vec_env_over_single_envs(env_id: str, kwargs: dict[str, Any], wild: float) -> None:
    """DummyVecEnv of single envs seeded s + i is the reference: obs, rewards, dones, infos, reset infos, masks."""
    n = 4
    dummy = DummyVecEnv([lambda: gym.make(env_id, **kwargs) for _ in range(n)])  # no Monitor: VecMonitor adds episodes
    ours = make_sb3_vec_env(env_id, n, **kwargs)
    assert ours.observation_space == dummy.observation_space and ours.action_space == dummy.action_space
    assert dummy.seed(11) == ours.seed(11)
    same(dummy.reset(), ours.reset(), "reset")
    same(dummy.reset_infos, ours.reset_infos, "reset_infos")
    rng = np.random.default_rng(3)
    dones = 0
    for t in range(80):
        masks = np.stack(dummy.env_method("action_masks"))
        same(masks, np.stack(ours.env_method("action_masks")), f"masks {t}")
        actions = random_masked(rng, masks, wild)
        reference, result = dummy.step(actions), ours.step(actions)
        same(list(reference), list(result), f"step {t}")
        same(dummy.reset_infos, ours.reset_infos, f"reset_infos {t}")
        dones += int(result[2].sum())
    assert dones >= n


def test_the_vec_env_contract() -> None:
    """Shapes and dtypes, reset inside step with terminal_observation, and seeding that repeats."""
    n = 6
    vec = make_sb3_vec_env("alphabeta/TicTacToe-v0", n, agent_plays="random")
    assert vec.num_envs == n and isinstance(vec, SB3VecEnv)
    vec.seed(0)
    obs = vec.reset()
    assert obs.shape == (n, 2, 3, 3) and obs.dtype == np.int8 and vec.observation_space.contains(obs[0])
    rng = np.random.default_rng(0)
    trace = []
    finished = 0
    for _ in range(40):
        masks = vec.action_masks()
        assert masks.dtype == np.bool_ and masks.shape == (n, 9) and masks.any(axis=1).all()
        obs, rewards, dones, infos = vec.step(random_masked(rng, masks))
        assert obs.shape == (n, 2, 3, 3) and obs.dtype == np.int8
        assert rewards.dtype == np.float32 and dones.dtype == np.bool_ and len(infos) == n
        for i in np.flatnonzero(dones):
            final = infos[i]["terminal_observation"]
            assert final.shape == (2, 3, 3) and final.sum() > obs[i].sum()  # the new episode's board is (nearly) empty
            assert obs[i].sum() <= 1 and rewards[i] in (-1.0, 0.0, 1.0)
            finished += 1
        assert all("terminal_observation" not in infos[i] for i in np.flatnonzero(~dones))
        trace.append((obs.tolist(), rewards.tolist(), dones.tolist()))
    assert finished >= n
    vec.seed(0)
    vec.reset()
    rng = np.random.default_rng(0)
    again = [tuple(x.tolist() for x in vec.step(random_masked(rng, vec.action_masks()))[:3]) for _ in range(40)]
    assert again == trace
    vec.seed(1)
    vec.reset()
    rng = np.random.default_rng(0)
    other = [tuple(x.tolist() for x in vec.step(random_masked(rng, vec.action_masks()))[:3]) for _ in range(40)]
    assert other != trace


def test_a_negative_seed_is_named() -> None:
    vec = make_sb3_vec_env("alphabeta/TicTacToe-v0", 2)
    vec.seed(-3)
    with pytest.raises(ValueError, match=r"seed\[0\]=-3 is negative"):
        vec.reset()


def test_attributes_methods_and_options() -> None:
    vec = make_sb3_vec_env("alphabeta/Connect4-v0", 3, opponent="random")
    assert vec.get_attr("game") == [vec.venv.game] * 3 and vec.get_attr("render_mode", indices=1) == [None]
    assert vec.has_attr("action_masks") and not vec.has_attr("no_such_thing")
    assert vec.env_is_wrapped(gym.Wrapper) == [False] * 3
    vec.set_options({"opponent": "rules", "agent_plays": "second"})
    obs = vec.reset()
    assert vec.get_attr("opponent") == ["rules"] * 3 and obs[:, 1].sum() == 3  # rules moved first on every board
    assert [p.moves for p in vec.env_method("position", indices=[0, 2])] == [[3], [3]]  # rules opens in the centre
    vec.set_attr("dict_obs", False)
    with pytest.raises(ValueError, match="set_options"):
        vec.set_attr("opponent", "random")
    with pytest.raises(ValueError, match="shared by all 3 boards"):
        vec.set_attr("dict_obs", False, indices=[0])
    with pytest.raises(ValueError, match=r"indices \[5\] are not boards"):
        vec.get_attr("game", indices=5)
    with pytest.raises(ValueError, match=r"actions must be 3 integers"):
        vec.step(np.zeros(2, dtype=np.int64))
    with pytest.raises(ValueError, match="different options"):
        vec.set_options([{"opponent": "rules"}, {}, {}])
        vec.reset()


def test_bad_construction_and_order() -> None:
    with pytest.raises(ValueError, match="call reset"):
        make_sb3_vec_env("alphabeta/TicTacToe-v0", 2).step(np.zeros(2, dtype=np.int64))
    with pytest.raises(ValueError, match="env_id='CartPole-v1' has no batched entry point"):
        make_sb3_vec_env("CartPole-v1", 2)
    with pytest.raises(TypeError, match="wraps a KInARowVectorEnv"):
        SB3VecEnv(gym.make_vec("alphabeta/TicTacToe-v0", num_envs=2, vectorization_mode="sync"))  # type: ignore[arg-type]
    vec = make_sb3_vec_env("alphabeta/TicTacToe-v0", 2, illegal_action="raise")
    vec.reset()
    with pytest.raises(IllegalMoveError):
        vec.step(np.array([4, 4]))
        vec.step(np.array([4, 4]))  # the second 4 on the same board is taken


class Spy(SB3VecEnv):
    """Records every mask MaskablePPO asks for and every action it plays."""

    masks: list[np.ndarray]
    actions: list[tuple[np.ndarray, np.ndarray]]

    def env_method(self, method_name: str, *args: Any, indices: Any = None, **kwargs: Any) -> list[Any]:
        result = super().env_method(method_name, *args, indices=indices, **kwargs)
        if method_name == "action_masks":
            self.masks.append(np.stack(result))
        return result

    def step_async(self, actions: np.ndarray) -> None:
        self.actions.append((np.array(actions), self.batch.mask.copy()))
        super().step_async(actions)


def test_maskable_ppo_learns_on_the_adapter_with_legal_actions_only() -> None:
    venv = gym.make_vec("alphabeta/Connect4-v0", num_envs=16, vectorization_mode="vector_entry_point",
                        agent_plays="random", illegal_action="raise")  # fmt: skip
    spy = Spy(venv)
    spy.masks, spy.actions = [], []
    model = MaskablePPO("MlpPolicy", spy, n_steps=32, batch_size=256, n_epochs=1, seed=0, device="cpu")
    model.learn(600)
    assert model.num_timesteps >= 600 and len(spy.actions) >= 32
    assert spy.masks and all(m.any(axis=1).all() for m in spy.masks)  # never an all-False row
    for actions, masks in spy.actions:  # every action MaskablePPO sent was legal on its board
        assert masks[np.arange(len(actions)), actions].all()


@pytest.mark.parametrize("mode", [AutoresetMode.NEXT_STEP, AutoresetMode.DISABLED])
def test_vector_env_masks_on_ended_boards_stay_samplable(mode: AutoresetMode) -> None:
    """An ended board's action_masks() row allows every action; its info keeps the true all-zero mask."""
    import torch
    from sb3_contrib.common.maskable.distributions import MaskableCategorical

    env = gym.make_vec("alphabeta/TicTacToe-v0", num_envs=4, vectorization_mode="vector_entry_point",
                       agent_plays="random", autoreset_mode=mode)  # fmt: skip
    _, infos = env.reset(seed=0)
    rng = np.random.default_rng(0)
    while True:
        _, _, terminated, _, infos = env.step(random_masked(rng, infos["action_mask"]))
        if terminated.any():
            break
    masks = env.action_masks()
    assert masks[terminated].all() and not infos["action_mask"][terminated].any()
    assert np.array_equal(masks[~terminated], infos["action_mask"][~terminated] != 0)
    dist = MaskableCategorical(logits=torch.zeros(masks.shape), masks=torch.as_tensor(masks))
    assert not torch.isnan(dist.probs).any()  # an all-False row would give NaN probabilities
    if mode == AutoresetMode.NEXT_STEP:
        _, _, terminated_now, _, infos = env.step(dist.sample().numpy())  # any action: those boards only reset
        assert not terminated_now[terminated].any() and infos["action_mask"][terminated].any(axis=1).all()


@pytest.mark.slow  # the SB3 benchmark's three rows: about 12 s
def test_bench_sb3_prints_the_three_rows_and_refuses_bad_budgets() -> None:
    import subprocess
    import sys
    from pathlib import Path

    script = Path(__file__).resolve().parent.parent / "scripts" / "bench_sb3.py"
    tiny = ["--steps", "64", "--rounds", "1", "--boards", "16", "--rollout", "64", "--batch-size", "32", "--epochs", "1"]
    done = subprocess.run([sys.executable, str(script), *tiny], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    rows = [line for line in done.stdout.splitlines() if line.startswith("| ") and "x |" in line]
    assert [row.split("|")[2].strip() for row in rows] == ["8", "8", "16"] and rows[0].endswith("| 1.00x |")
    bad = subprocess.run([sys.executable, str(script), "--rollout", "8", "--boards", "16"], capture_output=True, text=True)
    assert bad.returncode == 2 and "--rollout 8 must be at least --boards 16" in bad.stderr


def test_too_many_boards_name_num_envs() -> None:
    with pytest.raises(ValueError, match="num_envs=1000000000000 boards of m,n,k 3,3,3 need .* GiB"):
        make_sb3_vec_env("alphabeta/TicTacToe-v0", num_envs=10**12)
