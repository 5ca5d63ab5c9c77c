"""The Gymnasium environments: API checkers, the rules against tests/naive.py, observations, seeding, pickling."""

from __future__ import annotations

import pickle
import warnings
from typing import Any, Optional

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from hypothesis import given, settings
from hypothesis import strategies as st

import envs
from envs.core import KInARowEnv
from games import CONNECT4, MNK, TIC_TAC_TOE, Connect4, KInARow
from search.agents import make_agent
from tests.naive import NaiveGame

IDS_AND_SIZES: list[tuple[str, dict[str, int]]] = [
    ("alphabeta/Connect4-v0", {}),
    ("alphabeta/MNK-v0", {"rows": 4, "cols": 5, "k": 3}),
    ("alphabeta/TicTacToe-v0", {}),
    ("alphabeta/Gomoku-v0", {}),
]


def make(env_id: str = "alphabeta/Connect4-v0", **kwargs: Any) -> KInARowEnv:
    env = gym.make(env_id, **kwargs).unwrapped
    assert isinstance(env, KInARowEnv)
    return env


@pytest.mark.parametrize("env_id, sizes", IDS_AND_SIZES)
@pytest.mark.parametrize("side", ["first", "second", "random"])
def test_gymnasium_check_env_passes_without_warnings(env_id: str, sizes: dict[str, int], side: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # any checker warning fails the test
        check_env(gym.make(env_id, agent_plays=side, **sizes).unwrapped)


def test_gymnasium_check_env_with_a_search_opponent_and_dict_observations() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(make(opponent="alphabeta:depth=2", agent_plays="second", dict_obs=True))


def test_every_id_is_registered_with_a_vector_entry_point() -> None:
    for env_id in envs.ENV_IDS:
        spec = gym.spec(env_id)
        assert spec.entry_point and spec.vector_entry_point and spec.namespace == "alphabeta"


@pytest.mark.parametrize("dict_obs", [False, True])
def test_stable_baselines3_check_env(dict_obs: bool) -> None:
    from stable_baselines3.common.env_checker import check_env as sb3_check_env

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        # SB3 takes any 3-d Box for an image and gives CnnPolicy hints (uint8, 0..255, 36x36); the int8 planes
        # are not pixels (MlpPolicy flattens them), so those hints are expected; any other warning fails.
        warnings.filterwarnings("ignore", message=".*image", module="stable_baselines3.common.env_checker")
        sb3_check_env(gym.make("alphabeta/Connect4-v0", agent_plays="random", dict_obs=dict_obs), warn=True)


def test_spaces_follow_the_game() -> None:
    c4 = make(rows=5, cols=8, k=4)
    assert c4.action_space == gym.spaces.Discrete(8)
    assert c4.observation_space == gym.spaces.Box(0, 1, (2, 5, 8), np.int8)
    mnk = make("alphabeta/MNK-v0", rows=4, cols=6, k=3, dict_obs=True)
    assert mnk.action_space == gym.spaces.Discrete(24)
    assert mnk.observation_space["observation"].shape == (2, 4, 6)
    assert mnk.observation_space["action_mask"] == gym.spaces.Box(0, 1, (24,), np.int8)
    assert make("alphabeta/Gomoku-v0").action_space.n == 225
    assert make("alphabeta/TicTacToe-v0").game == TIC_TAC_TOE


class Replay:
    """A callable opponent that plays a fixed list of moves (and records what it was shown)."""

    def __init__(self, moves: list[int]) -> None:
        self.moves = list(moves)
        self.seen: list[tuple[np.ndarray, np.ndarray]] = []

    def __call__(self, observation: np.ndarray, mask: np.ndarray) -> int:
        self.seen.append((observation.copy(), mask.copy()))
        return self.moves.pop(0)


def test_observation_layout_of_the_docstring_picture() -> None:
    # Connect-4: agent x plays column 4, the opponent 4, the agent 5 (1-based): the Connect4Env docstring.
    env = make(opponent=Replay([3, 0]))
    env.reset(seed=0)
    env.step(3)
    obs, *_ = env.step(4)
    expected_agent = np.zeros((6, 7), np.int8)
    expected_agent[5, 3] = expected_agent[5, 4] = 1
    expected_opponent = np.zeros((6, 7), np.int8)
    expected_opponent[4, 3] = expected_opponent[5, 0] = 1
    assert np.array_equal(obs[0], expected_agent) and np.array_equal(obs[1], expected_opponent)
    # Tic-tac-toe: agent x takes the centre, the opponent the top-left corner (the MNKEnv picture).
    ttt = make("alphabeta/TicTacToe-v0", opponent=Replay([0]))
    ttt.reset(seed=0)
    obs, _, _, _, info = ttt.step(4)
    assert obs[0].tolist() == [[0, 0, 0], [0, 1, 0], [0, 0, 0]]
    assert obs[1].tolist() == [[1, 0, 0], [0, 0, 0], [0, 0, 0]]
    assert info["action_mask"].tolist() == [0, 1, 1, 1, 0, 1, 1, 1, 1]


def test_a_callable_opponent_sees_the_board_from_its_own_side() -> None:
    opponent = Replay([2, 2])
    env = make(opponent=opponent, agent_plays="second")
    env.reset(seed=0)  # the opponent (x) moves first on an empty board
    env.step(3)  # agent o in column 4; the opponent answers
    (obs1, mask1), (obs2, mask2) = opponent.seen
    assert not obs1.any() and mask1.tolist() == [1] * 7
    assert obs2[0, 5, 2] == 1 and obs2[1, 5, 3] == 1  # its own stone in plane 0, the agent's in plane 1
    assert obs2[0].sum() == 1 and obs2[1].sum() == 1 and mask2.tolist() == [1] * 7


SHAPES: list[KInARow] = [CONNECT4, Connect4(5, 4, 3), Connect4(9, 9, 5), MNK(4, 5, 3), TIC_TAC_TOE]


def expected_planes(naive: NaiveGame, agent_player: int) -> np.ndarray:
    grid = np.array(naive.grid)
    return np.stack([grid == agent_player + 1, grid == 2 - agent_player]).astype(np.int8)


def expected_mask(naive: NaiveGame, n_actions: int) -> np.ndarray:
    mask = np.zeros(n_actions, np.int8)
    mask[naive.legal_moves()] = 1
    return mask


@settings(max_examples=25, deadline=None)
@given(st.integers(0, len(SHAPES) - 1), st.sampled_from(["random", "callable"]), st.sampled_from(["first", "second", "random"]),
       st.integers(0, 2**32 - 1))  # fmt: skip
def test_episodes_agree_with_the_naive_rules(shape: int, opponent_kind: str, side: str, seed: int) -> None:
    """Every step's observation, mask, reward, termination and winner, replayed on tests/naive.py."""
    game = SHAPES[shape]
    rng = np.random.default_rng(seed)

    def random_reply(_obs: np.ndarray, mask: np.ndarray) -> int:
        return int(rng.choice(np.flatnonzero(mask)))

    env = KInARowEnv(game, opponent="random" if opponent_kind == "random" else random_reply, agent_plays=side)
    naive = NaiveGame.of(game)
    obs, info = env.reset(seed=seed)
    me = info["agent_player"]
    if info["opponent_action"] >= 0:
        assert me == 1
        naive = naive.played(info["opponent_action"])
    terminated = False
    while not terminated:
        assert np.array_equal(obs, expected_planes(naive, me))
        assert np.array_equal(info["action_mask"], expected_mask(naive, game.n_actions))
        action = int(rng.choice(naive.legal_moves()))
        obs, reward, terminated, truncated, info = env.step(action)
        assert type(reward) is float and type(terminated) is bool and truncated is False
        assert info["agent_action"] == action and not info["illegal_action"]
        naive = naive.played(action)
        if info["opponent_action"] >= 0:
            assert not naive.terminal()
            naive = naive.played(info["opponent_action"])
        assert terminated == naive.terminal()
        winner = naive.winner()
        assert info["winner"] == (-1 if winner is None else winner)
        assert reward == (0.0 if winner is None else (1.0 if winner == me else -1.0))
    assert np.array_equal(obs, expected_planes(naive, me))
    assert not info["action_mask"].any() and not env.action_masks().any()


def rollout(env: KInARowEnv, seed: Optional[int], actions_seed: int = 0, max_steps: int = 200) -> list[Any]:
    """Reset with ``seed`` (then unseeded resets), play masked random actions; record everything."""
    rng = np.random.default_rng(actions_seed)
    trace: list[Any] = []
    obs, info = env.reset(seed=seed)
    trace.append((obs.tolist(), sorted((k, str(v)) for k, v in info.items() if k != "opponent_search")))
    for _ in range(max_steps):
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, reward, terminated, _, info = env.step(action)
        trace.append((obs.tolist(), reward, terminated, info["opponent_action"], info["winner"]))
        if terminated:
            obs, info = env.reset()
            trace.append(("reset", obs.tolist(), info["agent_player"], info["opponent_action"]))
    return trace


@pytest.mark.parametrize("opponent", ["random", "rules", "alphabeta:depth=2,random_every=3,heuristic=square_values"])
def test_same_seed_same_episodes(opponent: str) -> None:
    first = rollout(make(opponent=opponent, agent_plays="random"), seed=11)
    again = rollout(make(opponent=opponent, agent_plays="random"), seed=11)
    other = rollout(make(opponent=opponent, agent_plays="random"), seed=12)
    assert first == again
    assert first != other


def test_a_seeded_reset_restarts_the_stream_and_who_starts_is_a_fair_coin() -> None:
    env = make(agent_plays="random")
    sides = [env.reset(seed=s)[1]["agent_player"] for s in range(400)]
    assert 160 <= sum(sides) <= 240  # a fair coin: 200 +- 4 standard deviations
    assert [env.reset(seed=s)[1]["agent_player"] for s in range(400)] == sides


def test_pickle_round_trip_continues_the_same_episode() -> None:
    env = gym.make("alphabeta/Connect4-v0", opponent="alphabeta:depth=2,random_every=2", agent_plays="random")
    rng = np.random.default_rng(3)
    _, info = env.reset(seed=5)
    for _ in range(3):
        _, _, terminated, _, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        assert not terminated
    clone = pickle.loads(pickle.dumps(env))
    moves = []
    while True:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        a = env.step(action)
        b = clone.step(action)
        assert np.array_equal(a[0], b[0]) and a[1:4] == b[1:4] and a[4]["opponent_action"] == b[4]["opponent_action"]
        moves.append(action)
        info = a[4]
        if a[2]:
            break
    assert env.unwrapped.position().moves == clone.unwrapped.position().moves
    assert rollout(env.unwrapped, None, 1, 40) != [] and len(moves) > 0


def test_dict_observations_and_the_three_masks_agree() -> None:
    env = make(dict_obs=True, agent_plays="second", opponent=Replay([0, 0, 0, 1]))
    obs, info = env.reset(seed=0)
    for action in (0, 0, 0):  # alternating stones fill column 1 without a winner
        assert set(obs) == {"observation", "action_mask"}
        assert np.array_equal(obs["action_mask"], info["action_mask"])
        assert np.array_equal(env.action_masks(), info["action_mask"].astype(bool))
        assert info["action_mask"].dtype == np.int8
        obs, _, _, _, info = env.step(action)
    assert info["action_mask"].tolist() == [0, 1, 1, 1, 1, 1, 1]  # column 1 is full
    for _ in range(50):
        assert info["action_mask"][env.action_space.sample(mask=info["action_mask"])] == 1


def test_reset_options_change_the_opponent_and_the_side() -> None:
    env = make(opponent="random", agent_plays="first")
    _, info = env.reset(seed=1)
    assert info["agent_player"] == 0 and info["opponent_action"] == -1
    _, info = env.reset(options={"agent_plays": "second", "opponent": "alphabeta:depth=3"})
    assert info["agent_player"] == 1 and "opponent_search" in info and info["opponent_search"]["depth"] >= 1
    _, info = env.reset()  # options stay in force
    assert info["agent_player"] == 1 and "opponent_search" in info
    assert env.agent_plays == "second" and env.opponent == "alphabeta:depth=3"
    with pytest.raises(ValueError, match="unknown reset option"):
        env.reset(options={"side": "first"})


def leftmost_player_results(opponent: str, seeds: range) -> list[float]:
    """Final rewards of an agent that always plays the leftmost legal column (a vertical four is its only plan)."""
    env = make(opponent=opponent, agent_plays="random")
    results = []
    for seed in seeds:
        _, info = env.reset(seed=seed)
        terminated = False
        while not terminated:
            _, reward, terminated, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        results.append(reward)
    return results


def test_a_search_opponent_blocks_what_a_random_one_misses() -> None:
    assert 1.0 in leftmost_player_results("random", range(10))
    assert 1.0 not in leftmost_player_results("alphabeta:depth=2", range(10))  # it blocks every open three


def test_search_statistics_are_reported() -> None:
    env = make(opponent="alphabeta:depth=3", agent_plays="second")
    _, info = env.reset(seed=0)
    stats = info["opponent_search"]
    assert set(stats) == {"depth", "nodes", "score"} and stats["depth"] == 3 and stats["nodes"] > 7
    _, _, _, _, info = env.step(3)
    assert info["opponent_search"]["depth"] == 3
    assert "opponent_search" not in make(opponent="rules").reset(seed=0)[1]


@pytest.mark.parametrize("as_path", [False, True])
def test_a_weight_file_is_a_tuned_opponent(as_path: bool) -> None:
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "weights" / "connect4-square_values.json"
    env = make(opponent=path if as_path else str(path), agent_plays="second")
    _, info = env.reset(seed=0)
    agent = env._batch.opponents[0].player
    assert getattr(agent, "evaluator").name == "square_values"
    assert info["opponent_action"] == 3  # square values: the centre column is worth most


def test_an_agent_object_is_used_as_given_and_reseeded_every_episode() -> None:
    agent = make_agent("alphabeta:depth=2,random_every=1", CONNECT4, seed=123)  # every move random
    env = make(opponent=agent, agent_plays="second")
    firsts = [env.reset(seed=s)[1]["opponent_action"] for s in range(12)]
    assert [env.reset(seed=s)[1]["opponent_action"] for s in range(12)] == firsts  # the env's seed decides
    assert len(set(firsts)) > 1
    assert env._batch.opponents[0].player is agent


def test_opponent_errors() -> None:
    env = make(opponent=lambda obs, mask: 7)
    env.reset(seed=0)
    with pytest.raises(ValueError, match=r"chose the illegal action 7; legal actions: \[0, 1, 2, 3, 4, 5, 6\]"):
        env.step(0)
    env = make(opponent=lambda obs, mask: "x")
    env.reset(seed=0)
    with pytest.raises(ValueError, match="not an integer action"):
        env.step(0)
    with pytest.raises(ValueError, match="plays m,n,k 3,3,3, but the environment plays Connect-4"):
        make(opponent=make_agent("alphabeta:depth=1", TIC_TAC_TOE))


@pytest.mark.parametrize(("env_id", "kwargs"), [("alphabeta/TicTacToe-v0", {}), ("alphabeta/Connect4-v0", {"rows": 4, "cols": 5})])
def test_the_perfect_opponent_is_never_beaten(env_id: str, kwargs: dict) -> None:
    env = gym.make(env_id, opponent="perfect", agent_plays="random", **kwargs)
    rng = np.random.default_rng(0)
    rewards = []
    for episode in range(12):
        _, info = env.reset(seed=episode)
        done = False
        while not done:
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            _, reward, terminated, truncated, info = env.step(action)
            done = terminated or truncated
        rewards.append(reward)
    assert max(rewards) <= 0.0 and min(rewards) == -1.0  # the solver never loses and punishes random play
