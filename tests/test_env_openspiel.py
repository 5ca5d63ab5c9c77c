"""The environments' rules agree with OpenSpiel's connect_four and mnk on random games.

OpenSpiel is an independent implementation: every ply the legal actions, the
terminal ply and the winner must match.  Actions need no translation:
OpenSpiel's Connect-4 action is the column, its m,n,k action ``row * m + col``
with ``m`` columns and ``n`` rows, our cell ``row * cols + col``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from envs.core import KInARowEnv
from games import MNK, Connect4, KInARow

pyspiel = pytest.importorskip("pyspiel")

GAMES: list[tuple[KInARow, str, dict[str, int], int]] = [
    (Connect4(), "connect_four", {}, 60),
    (Connect4(5, 4, 3), "connect_four", {"rows": 5, "columns": 4, "x_in_row": 3}, 60),
    (Connect4(7, 9, 5), "connect_four", {"rows": 7, "columns": 9, "x_in_row": 5}, 30),  # the array kernel path
    (MNK(3, 3, 3), "mnk", {"m": 3, "n": 3, "k": 3}, 60),
    (MNK(4, 5, 3), "mnk", {"m": 5, "n": 4, "k": 3}, 60),
    (MNK(15, 15, 5), "mnk", {"m": 15, "n": 15, "k": 5}, 10),
]


def openspiel_game(name: str, params: dict[str, int]) -> Any:
    return pyspiel.load_game(name, params)


@pytest.mark.parametrize("game, name, params, n_games", GAMES)
def test_random_games_end_on_the_same_ply_with_the_same_winner(game: KInARow, name: str, params: dict[str, int],
                                                               n_games: int) -> None:  # fmt: skip
    spiel_game = openspiel_game(name, params)
    assert spiel_game.num_distinct_actions() == game.n_actions
    decisive = 0
    for seed in range(n_games):
        rng = np.random.default_rng(seed)
        state = spiel_game.new_initial_state()
        planned: list[int] = []  # the opponent (second player) replays OpenSpiel's moves

        def opponent(_obs: np.ndarray, mask: np.ndarray) -> int:
            return planned.pop(0)

        env = KInARowEnv(game, opponent=opponent)
        _, info = env.reset(seed=seed)
        terminated, ply = False, 0
        while not terminated:
            assert np.flatnonzero(info["action_mask"]).tolist() == state.legal_actions()
            action = int(rng.choice(state.legal_actions()))
            state.apply_action(action)
            ply += 1
            if not state.is_terminal():
                reply = int(rng.choice(state.legal_actions()))
                planned.append(reply)
                state.apply_action(reply)
                ply += 1
            _, reward, terminated, _, info = env.step(action)
            assert terminated == state.is_terminal(), (seed, ply)
        assert env.position().ply == ply
        first_player_return = state.returns()[0]
        assert reward == first_player_return  # the agent plays first
        assert info["winner"] == {1.0: 0, -1.0: 1, 0.0: -1}[first_player_return]
        decisive += first_player_return != 0
    assert decisive > 0


def test_the_pettingzoo_env_agrees_too() -> None:
    from envs.pettingzoo import connect4_v0, mnk_v0

    for module, name, params in ((connect4_v0, "connect_four", {}), (mnk_v0, "mnk", {"m": 3, "n": 3, "k": 3})):
        spiel_game = openspiel_game(name, params)
        for seed in range(30):
            rng = np.random.default_rng(seed)
            env = module.env()
            env.reset(seed=seed)
            state = spiel_game.new_initial_state()
            received = {"player_0": 0.0, "player_1": 0.0}
            for agent in env.agent_iter():
                obs, reward, terminated, truncated, _ = env.last()
                received[agent] += reward
                if terminated or truncated:
                    env.step(None)
                    continue
                assert np.flatnonzero(obs["action_mask"]).tolist() == state.legal_actions()
                action = int(rng.choice(state.legal_actions()))
                state.apply_action(action)
                env.step(action)
                assert all(env.terminations.values()) == state.is_terminal()
            assert [received["player_0"], received["player_1"]] == state.returns()
