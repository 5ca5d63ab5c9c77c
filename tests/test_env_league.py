"""Self-play: the PettingZoo parallel env and the snapshot league, with real PettingZoo and SB3 objects."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import envs  # noqa: F401
from envs.league import SnapshotLeague, policy_snapshot
from envs.pettingzoo import connect4_v0, mnk_v0
from games import CONNECT4, TIC_TAC_TOE, IllegalMoveError

pytest.importorskip("pettingzoo")
from pettingzoo.test import parallel_api_test  # noqa: E402
from pettingzoo.utils.conversions import aec_to_parallel  # noqa: E402


def first_legal(obs: np.ndarray, mask: np.ndarray) -> int:
    return int(np.flatnonzero(mask)[0])


def last_legal(obs: np.ndarray, mask: np.ndarray) -> int:
    return int(np.flatnonzero(mask)[-1])


@pytest.mark.parametrize("make", [connect4_v0.parallel_env, mnk_v0.parallel_env, lambda: mnk_v0.parallel_env(rows=4, cols=5, k=3)])
def test_parallel_envs_pass_pettingzoos_parallel_api_test(make) -> None:  # type: ignore[no-untyped-def]
    parallel_api_test(make(), num_cycles=200)


def test_aec_to_parallel_is_refused_for_the_turn_based_aec_env() -> None:
    # Why a native parallel env: PettingZoo's wrapper would make the turn-based game simultaneous.
    with pytest.raises(AssertionError, match="is_parallelizable"):
        aec_to_parallel(connect4_v0.env())


@pytest.mark.parametrize("seed", range(4))
def test_parallel_games_match_the_aec_env_step_by_step(seed: int) -> None:
    rng = np.random.default_rng(seed)
    aec, par = connect4_v0.env(rows=5, cols=5, k=4), connect4_v0.parallel_env(rows=5, cols=5, k=4)
    aec.reset(seed=seed)
    obs, infos = par.reset(seed=seed)
    while par.agents:
        mover = aec.agent_selection
        assert infos[mover]["to_move"] and not infos[[a for a in par.agents if a != mover][0]]["to_move"]
        for agent in par.agents:
            assert all(np.array_equal(obs[agent][key], aec.observe(agent)[key]) for key in ("observation", "action_mask"))
        move = int(rng.choice(np.flatnonzero(obs[mover]["action_mask"])))
        aec.step(move)
        obs, rewards, terminations, truncations, infos = par.step({agent: move for agent in par.agents})  # other's ignored
        assert rewards == {agent: float(aec.rewards[agent]) for agent in aec.possible_agents}
        assert terminations == {agent: bool(aec.terminations[agent]) for agent in aec.possible_agents}
        assert not any(truncations.values())
    assert par.board_position().moves == aec.unwrapped.board_position().moves


def test_parallel_env_errors_and_illegal_moves() -> None:
    env = mnk_v0.parallel_env()
    with pytest.raises(ValueError, match="call reset"):
        env.step({"player_0": 0})
    env.reset()
    with pytest.raises(ValueError, match="player_0 is to move"):
        env.step({"player_1": 0})
    env.step({"player_0": 4})
    _, rewards, terminations, _, infos = env.step({"player_1": 4, "player_0": 0})  # 4 is taken: player_1 forfeits
    assert rewards == {"player_0": 0.0, "player_1": -1.0} and all(terminations.values()) and env.agents == []
    assert infos["player_1"]["illegal_action"] and not infos["player_0"]["illegal_action"]
    strict = connect4_v0.parallel_env(illegal_action="raise")
    strict.reset()
    for _ in range(6):
        strict.step({strict.agents[0]: 0, strict.agents[1]: 0})
    with pytest.raises(IllegalMoveError):
        strict.step({"player_0": 0})


def test_parallel_env_settings_and_rendering_match_the_aec_env() -> None:
    """The two PettingZoo envs share their settings checks and renderers: same messages, same frames."""
    for make in (connect4_v0.env, connect4_v0.parallel_env):
        with pytest.raises(ValueError, match="illegal_action='random' is not allowed"):
            make(illegal_action="random")
        with pytest.raises(ValueError, match="render_mode='video' is not allowed"):
            make(render_mode="video")
        with pytest.raises(ValueError, match="illegal_reward"):
            make(illegal_reward=float("nan"))
    aec, par = connect4_v0.env(render_mode="rgb_array"), connect4_v0.parallel_env(render_mode="rgb_array")
    aec.reset(seed=0)
    par.reset(seed=0)
    for move in (3, 3, 4):
        aec.step(move)
        par.step({agent: move for agent in par.agents})
    assert np.array_equal(par.render(), aec.render()) and par.render().shape == (288, 336, 3)
    text = connect4_v0.parallel_env(render_mode="ansi")
    text.reset()
    text.step({"player_0": 3, "player_1": 0})
    assert text.render() == str(text.board_position())  # no "to move" line: both agents act every step
    silent = connect4_v0.parallel_env()
    silent.reset()
    with pytest.warns(UserWarning, match=r"pass render_mode= to parallel_env\(\)"):
        assert silent.render() is None


def test_sampling_rules() -> None:
    league = SnapshotLeague(TIC_TAC_TOE, sampling="prioritised", power=1.0, seed=0)
    with pytest.raises(ValueError, match="the league is empty"):
        league.sample()
    for name in ("a", "b", "c"):
        league.add(first_legal, name=name)
    for _ in range(8):
        league.record("a", 1.0)  # "a" beat the learner 8 times: (8 + 1) / (8 + 2)
    league.record("b", 0.0)  # (0 + 1) / (1 + 2)
    assert np.allclose(league.weights(), np.array([0.9, 1 / 3, 0.5]) / (0.9 + 1 / 3 + 0.5))
    draws = [league.sample().name for _ in range(3000)]
    assert abs(draws.count("a") / 3000 - 0.9 / (0.9 + 1 / 3 + 0.5)) < 0.04
    league.sampling = "latest"
    assert {league.sample().name for _ in range(20)} == {"c"}
    league.sampling = "uniform"
    counts = np.unique([league.sample().name for _ in range(3000)], return_counts=True)[1]
    assert np.all(np.abs(counts / 3000 - 1 / 3) < 0.04)
    capped = SnapshotLeague(TIC_TAC_TOE, capacity=2)
    for _ in range(3):
        capped.add(first_legal)
    assert capped.names == ("snapshot-1", "snapshot-2")
    with pytest.raises(ValueError, match="already in the league"):
        capped.add(first_legal, name="snapshot-2")
    with pytest.raises(ValueError, match="sampling='best' is not allowed"):
        SnapshotLeague(TIC_TAC_TOE, sampling="best")


def test_the_league_plays_in_an_env_and_learns_the_results() -> None:
    league = SnapshotLeague(TIC_TAC_TOE, sampling="uniform", seed=0)
    seen: list[tuple[np.ndarray, np.ndarray]] = []

    def spy(obs: np.ndarray, mask: np.ndarray) -> int:
        seen.append((obs.copy(), mask.copy()))
        return first_legal(obs, mask)

    league.add(spy, name="spy")
    league.add(last_legal, name="last")
    env = gym.make("alphabeta/TicTacToe-v0", opponent=league.opponent(), agent_plays="random")
    rng = np.random.default_rng(0)
    results = {"opponent": 0.0}
    for episode in range(30):
        _, info = env.reset(seed=episode)
        done = False
        while not done:
            _, reward, done, _, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        results["opponent"] += 0.5 if info["winner"] < 0 else float(info["winner"] != info["agent_player"])
    assert sum(s.games for s in league.snapshots) == 30
    assert sum(s.wins + 0.5 * s.draws for s in league.snapshots) == results["opponent"]
    for obs, mask in seen:  # the snapshot sees its own stones in plane 0 and moves when it is its turn
        assert obs[0].sum() in (obs[1].sum(), obs[1].sum() - 1) and mask.sum() == 9 - obs.sum()
    assert "| spy |" in league.table()


def test_a_batched_sb3_league_shares_one_pool_and_takes_new_snapshots() -> None:
    from sb3_contrib import MaskablePPO

    from envs.sb3 import make_sb3_vec_env

    league = SnapshotLeague(CONNECT4, sampling="prioritised", seed=0)
    league.add(first_legal, name="leftmost")
    vec = make_sb3_vec_env("alphabeta/Connect4-v0", 8, opponent=league.opponent(), agent_plays="random")
    model = MaskablePPO("MlpPolicy", vec, n_steps=32, batch_size=256, n_epochs=1, seed=0, device="cpu").learn(256)
    before = sum(s.games for s in league.snapshots)
    assert before > 0  # every board's copy reports into the one league
    frozen = policy_snapshot(model)
    league.add(frozen, name="gen1")
    obs = np.zeros((2, 6, 7), dtype=np.int8)
    mask = np.array([0, 1, 1, 1, 1, 1, 0], dtype=np.int8)
    move = frozen(obs, mask)
    assert mask[move] == 1
    model.learn(512, reset_num_timesteps=False)
    assert frozen(obs, mask) == move  # frozen: later training does not move it
    assert league.snapshots[1].games > 0 and sum(s.games for s in league.snapshots) > before


def test_league_table_says_whose_side_its_record_is() -> None:
    league = SnapshotLeague(TIC_TAC_TOE)
    league.add(lambda obs, mask: int(np.flatnonzero(mask)[0]), name="first")
    league.record("first", 1.0)  # the snapshot beat the learner
    league.record("first", 1.0)
    league.record("first", 0.0)
    header, _, row = league.table().splitlines()
    assert "snapshot's W / D / L vs the learner" in header and "snapshot's win rate" in header
    assert "| first | 3 | 2 / 0 / 1 |" in row
