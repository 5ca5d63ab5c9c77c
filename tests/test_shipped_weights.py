"""Shipped weight files as package data: named without a path everywhere a weight file is accepted, listed by a command."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import gymnasium as gym
import pytest

import envs  # noqa: F401 - registers the environments
from games import CONNECT4, TIC_TAC_TOE
from heuristics import WeightFileError, load_weights, resolve_weight_file, shipped_weight_files
from search.agents import AgentSpecError, AlphaBetaAgent, make_agent
from search.budget import Limit
from tuning.gauntlet import default_gauntlet

ROOT = Path(__file__).resolve().parents[1]
TUNED = "connect4-threats-tuned"


def test_every_file_of_the_weights_folder_is_shipped_and_read_from_the_data_package() -> None:
    files = shipped_weight_files()
    assert sorted(files) == sorted(p.stem for p in (ROOT / "weights").glob("*.json"))
    assert {TUNED, "connect4-c4_features-tuned", "connect4-windows", "gomoku-mics"} <= set(files)
    assert all(path.is_file() and path.suffix == ".json" for path in files.values())


def test_the_resolution_rule(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # no weights/ folder here: names must come from the package
    shipped = shipped_weight_files()[TUNED]
    for text in (TUNED, f"{TUNED}.json", f"weights/{TUNED}.json", Path(TUNED)):
        assert resolve_weight_file(text) == shipped, text
    assert load_weights(TUNED).heuristic == "threats"
    local = tmp_path / f"{TUNED}.json"  # an existing path wins over the shipped file of that name
    shutil.copy(shipped_weight_files()["connect4-windows"], local)
    assert resolve_weight_file(f"{TUNED}.json") == Path(f"{TUNED}.json")
    assert load_weights(f"{TUNED}.json").heuristic == "windows"
    assert load_weights(TUNED).heuristic == "threats"  # the bare name is no existing path: still the shipped one


@pytest.mark.parametrize("text", ["connect4-nope", "nope.json", "sub/connect4-threats-tuned.json"])
def test_an_unknown_name_lists_the_shipped_ones(text: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(WeightFileError, match="cannot read") as error:
        load_weights(text)
    message = str(error.value)
    assert message.startswith(f"{text}: ") and "python -m weights --list" in message
    assert all(name in message for name in shipped_weight_files())


def test_agent_specs_take_a_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    agent = make_agent(TUNED, CONNECT4)
    assert isinstance(agent, AlphaBetaAgent) and agent.evaluator.name == "threats"
    assert agent.evaluator.weights == load_weights(shipped_weight_files()[TUNED]).weights
    overridden = make_agent(f"alphabeta:weights={TUNED},depth=2", CONNECT4)
    assert isinstance(overridden, AlphaBetaAgent) and overridden.limit.depth == 2 and overridden.evaluator.name == "threats"
    with pytest.raises(AgentSpecError, match=r"unknown agent 'alphabta'.*python -m weights --list"):
        make_agent("alphabta", CONNECT4)
    with pytest.raises(WeightFileError, match="is for Connect-4 6x7 k=4"):
        make_agent(TUNED, TIC_TAC_TOE)


def test_env_opponent_by_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    env = gym.make("alphabeta/Connect4-v0", opponent=TUNED)
    player = env.unwrapped._batch.opponents[0].player
    assert isinstance(player, AlphaBetaAgent) and player.evaluator.name == "threats"
    env.close()


def test_the_gauntlet_plays_the_shipped_tuned_files_from_any_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    budget = Limit(depth=8, nodes=300)
    members = default_gauntlet(CONNECT4, budget)
    untuned = default_gauntlet(CONNECT4, budget, weights_dir=None)
    tuned = [name for name in shipped_weight_files() if name.startswith("connect4-") and name.endswith("-tuned")]
    assert len(tuned) >= 2 and len(members) == len(untuned) + len(tuned)


def test_the_ladders_tuned_rung_is_a_shipped_name() -> None:
    from envs.rating import LADDERS

    rung = next(r for r in LADDERS["connect4"] if r.name == "tuned")
    assert rung.spec in shipped_weight_files()
    shipped = json.loads((ROOT / "envs" / "data" / "ladder-connect4.json").read_text())
    assert next(r["spec"] for r in shipped["rungs"] if r["name"] == "tuned") == rung.spec


def test_the_listing_command(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "weights", "--list"], cwd=tmp_path, capture_output=True, text=True,
                          env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)}, timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert [line.split()[0] for line in lines] == list(shipped_weight_files())
    assert any(line.split()[0] == TUNED and "Connect-4 6x7 k=4" in line and "threats" in line for line in lines)
    # the budget the file's agent plays, not "depth -" for a file without search settings
    from search.agents.alphabeta import DEFAULT_DEPTH
    from weights.__main__ import DEFAULT_DEPTH as LISTED_DEFAULT

    texel = next(line for line in lines if line.startswith("connect4-c4_features-texel-tuned "))
    assert LISTED_DEFAULT == DEFAULT_DEPTH and texel.endswith(f"depth {DEFAULT_DEPTH} (no search settings: the agents' default)")
    assert next(line for line in lines if line.startswith(f"{TUNED} ")).endswith("depth 8, nodes 1000")


def test_a_weights_folder_of_ones_own_does_not_hide_the_shipped_files(tmp_path: Path) -> None:
    """A user's ``weights/`` folder in the working directory (no ``__init__.py``) is no namespace package to us."""
    (tmp_path / "weights").mkdir()
    code = "from heuristics import shipped_weight_files; print(sorted(shipped_weight_files()))"
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, check=True).stdout
    assert out.strip() == str(sorted(shipped_weight_files()))
