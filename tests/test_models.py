"""Saved SB3 policies load without running code from the file; ``trusted=True`` is the explicit way to run it."""

from __future__ import annotations

import base64
import json
import pickle
import subprocess
import sys
import zipfile
from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest

import envs  # noqa: F401  (registers the environments)
from envs.models import ModelError, load_policy
from games import CONNECT4
from search.agents import AgentSpecError, make_agent

sb3_contrib = pytest.importorskip("sb3_contrib")
ROOT = Path(__file__).resolve().parents[1]


class _Plant:
    """Unpickling this writes a file: the stand-in for a crafted model's payload."""

    def __init__(self, target: str) -> None:
        self.target = target

    def __reduce__(self):  # type: ignore[no-untyped-def]
        return (Path(self.target).write_text, ("code from the model file ran",))


@pytest.fixture(scope="module")
def model_zip(tmp_path_factory: pytest.TempPathFactory) -> Path:
    env = gym.make("alphabeta/Connect4-v0", opponent="random")
    model = sb3_contrib.MaskablePPO("MlpPolicy", env, n_steps=32, batch_size=32, seed=0, policy_kwargs={"net_arch": [16]})
    model.learn(32)
    path = tmp_path_factory.mktemp("model") / "policy.zip"
    model.save(path)
    return path


def _crafted(model: Path, target: Path, out: Path) -> Path:
    """``model`` with every ``:serialized:`` field of its data replaced by a payload that writes ``target``."""
    payload = base64.b64encode(pickle.dumps(_Plant(str(target)))).decode()
    with zipfile.ZipFile(model) as source, zipfile.ZipFile(out, "w") as sink:
        for name in source.namelist():
            raw = source.read(name)
            if name == "data":
                data = json.loads(raw)
                for value in data.values():
                    if isinstance(value, dict) and ":serialized:" in value:
                        value[":serialized:"] = payload
                raw = json.dumps(data).encode()
            sink.writestr(name, raw)
    return out


def _observations(count: int) -> list[tuple[np.ndarray, np.ndarray]]:
    rng = np.random.default_rng(3)
    cases = []
    for _ in range(count):
        mask = (rng.random(CONNECT4.cols) < 0.7).astype(np.int8)
        mask[3] = 1
        cases.append((rng.integers(0, 2, size=(2, CONNECT4.rows, CONNECT4.cols)).astype(np.int8), mask))
    return cases


def test_the_safe_loader_plays_as_stable_baselines3_loads(model_zip: Path) -> None:
    safe, trusted = load_policy(model_zip), load_policy(model_zip, trusted=True)
    assert all(safe(obs, mask) == trusted(obs, mask) for obs, mask in _observations(100))


def test_a_crafted_model_runs_no_code_unless_trusted(model_zip: Path, tmp_path: Path) -> None:
    target = tmp_path / "planted.txt"
    crafted = _crafted(model_zip, target, tmp_path / "crafted.zip")
    policy = load_policy(crafted)  # its weights and plain settings are intact: it loads and plays
    obs, mask = _observations(1)[0]
    assert mask[policy(obs, mask)] and not target.exists()
    with pytest.raises(ModelError):  # the payload replaced the pickled class and spaces: SB3's loader runs it
        load_policy(crafted, trusted=True)
    assert target.read_text() == "code from the model file ran"  # so the test's payload is real


def test_envs_rate_and_an_env_opponent_load_the_crafted_model_without_running_it(model_zip: Path, tmp_path: Path) -> None:
    target = tmp_path / "planted.txt"
    crafted = _crafted(model_zip, target, tmp_path / "crafted.zip")
    env = gym.make("alphabeta/Connect4-v0", opponent=str(crafted), agent_plays="second")
    env.reset(seed=0)
    env.close()
    rated = subprocess.run([sys.executable, "-m", "envs.rate", str(crafted), "--games", "2"], cwd=ROOT,
                           capture_output=True, text=True, timeout=600)  # fmt: skip
    assert rated.returncode == 0, rated.stderr[-2000:]
    assert "Elo" in rated.stdout and not target.exists()


@pytest.mark.parametrize("change, message", [
    (lambda data: data["policy_class"].update({"__init__": "<function EvilPolicy.__init__ at 0x1>"}), "'EvilPolicy'"),
    (lambda data: data["policy_kwargs"].update({"features_extractor_class": "<class 'x.Y'>"}), "features_extractor_class"),
    (lambda data: data["policy_kwargs"].update({"activation_fn": "<class 'os.system'>"}), "activation"),
    (lambda data: data.update({"observation_space": {":type:": "<class 'x.Space'>"}}), "observation_space"),
])  # fmt: skip
def test_what_cannot_be_built_safely_is_refused_with_the_way_out(model_zip: Path, tmp_path: Path, change, message) -> None:
    out = tmp_path / "changed.zip"
    with zipfile.ZipFile(model_zip) as source, zipfile.ZipFile(out, "w") as sink:
        for name in source.namelist():
            raw = source.read(name)
            if name == "data":
                data = json.loads(raw)
                change(data)
                raw = json.dumps(data).encode()
            sink.writestr(name, raw)
    with pytest.raises(ModelError, match=message) as error:
        load_policy(out)
    assert "--trust-model" in str(error.value) and "\n" not in str(error.value)


def test_files_that_are_no_model_are_refused_in_one_line(tmp_path: Path) -> None:
    (tmp_path / "text.zip").write_text("not a zip")
    with zipfile.ZipFile(tmp_path / "empty.zip", "w") as archive:
        archive.writestr("other", "x")
    for path, message in [(tmp_path / "text.zip", "not a zip"), (tmp_path / "empty.zip", "no 'data'"),
                          (tmp_path, "not a regular file"), (tmp_path / "missing.zip", "missing.zip"),
                          (Path("/dev/zero"), "not a regular file")]:  # fmt: skip
        with pytest.raises(ModelError, match=message):
            load_policy(path)


def test_an_agent_spec_naming_a_model_zip_says_where_models_go() -> None:
    with pytest.raises(AgentSpecError, match="saved RL model.*opponent=.*envs.rate"):
        make_agent("runs/ppo/connect4.zip", CONNECT4)
