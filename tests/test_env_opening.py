"""The batched env's random opening (``opening_plies``): legal, unfinished, of the asked length, repeated by seed."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import envs  # noqa: F401
from envs import _kernels as K
from envs._batch import max_opening_plies
from envs.vector import KInARowVectorEnv
from games import CONNECT4, TIC_TAC_TOE


def make(n: int, **kwargs: object) -> KInARowVectorEnv:
    venv = gym.make_vec("alphabeta/Connect4-v0", num_envs=n, vectorization_mode="vector_entry_point", **kwargs)
    assert isinstance(venv, KInARowVectorEnv)
    return venv


def opening_lengths(venv: KInARowVectorEnv) -> np.ndarray:
    """Plies of each board's opening: its plies so far minus the opponent's answer, if it made one."""
    meta = venv._batch.meta
    return meta[:, K.M_PLY] - (meta[:, K.M_OPP] >= 0)


def check_boards(venv: KInARowVectorEnv, obs: np.ndarray) -> None:
    """Every board replays as a legal game, is unfinished, the agent is to move, and obs/mask match the position."""
    batch = venv._batch
    for i in range(venv.num_envs):
        position = batch.position(i)  # replays the history: raises on an illegal move
        assert not position.is_terminal() and not batch.over(i)
        assert position.to_move == batch.agent_player(i)
        assert np.array_equal(batch.mask[i], position.legal_mask())
        assert np.array_equal(obs[i], position.planes())  # from the side to move: the agent's


@pytest.mark.parametrize("opponent", ["random", "alphabeta:depth=2,tt=1024", "rules"])
def test_opening_has_the_asked_length_and_leaves_the_agent_to_move(opponent: str) -> None:
    venv = make(64, opponent=opponent, agent_plays="random", opening_plies=3)
    obs, _ = venv.reset(seed=5)
    assert (opening_lengths(venv) == 3).all()
    sides = venv._batch.meta[:, K.M_STONE]
    assert set(sides.tolist()) == {1, 2}  # both sides drawn
    # After 3 plies the second player is to move: a first-playing agent waits for the opponent's answer.
    assert ((venv._batch.meta[:, K.M_OPP] >= 0) == (sides == 1)).all()
    check_boards(venv, obs)
    # Stepping on from the opening: games go on to legal ends, and autoreset starts new openings.
    rng = np.random.default_rng(0)
    for _ in range(12):
        masks = venv.action_masks()
        obs, _, terminated, _, _ = venv.step(np.array([rng.choice(np.flatnonzero(m)) for m in masks]))
    venv.reset(seed=6)
    assert (opening_lengths(venv) == 3).all()


def test_a_range_draws_every_length_and_a_seed_repeats_the_openings() -> None:
    venv = make(200, opponent="alphabeta:depth=1,tt=256", agent_plays="random", opening_plies=(0, 4))
    obs, _ = venv.reset(seed=11)
    lengths = opening_lengths(venv)
    assert set(lengths.tolist()) == {0, 1, 2, 3, 4}
    check_boards(venv, obs)
    histories = [venv._batch.position(i).move_string() for i in range(200)]
    assert len(set(h for h, n in zip(histories, lengths) if n == 4)) > 20  # openings vary between boards
    again = make(200, opponent="alphabeta:depth=1,tt=256", agent_plays="random", opening_plies=(0, 4))
    again.reset(seed=11)
    assert [again._batch.position(i).move_string() for i in range(200)] == histories
    again.reset(seed=12)
    assert [again._batch.position(i).move_string() for i in range(200)] != histories


def test_python_opponents_follow_the_opening_on_their_own_position() -> None:
    """Per-board agents keep a position: it must hold the opening, else their replies come from another game."""
    venv = make(16, opponent="minimax:depth=1", agent_plays="random", opening_plies=4)
    venv.reset(seed=2)
    batch, group = venv._batch, venv._batch.groups.groups[0]
    for i in range(16):
        assert group.opponents[i].position.move_string() == batch.position(i).move_string()  # type: ignore[attr-defined]


def test_sb3_adapter_passes_the_opening_on() -> None:
    pytest.importorskip("stable_baselines3")
    from envs.sb3 import make_sb3_vec_env

    vec = make_sb3_vec_env("alphabeta/Connect4-v0", num_envs=8, opponent="random", agent_plays="first", opening_plies=2)
    vec.seed(0)
    obs = vec.reset()
    assert (vec.batch.meta[:, K.M_PLY] == 2).all() and (obs.sum(axis=(1, 2, 3)) == 2).all()


def test_max_opening_plies_stops_before_a_line_is_possible() -> None:
    assert max_opening_plies(CONNECT4) == 5  # 2k - 3: after 5 plies the 6th move has 3 stones, no line of 4
    assert max_opening_plies(TIC_TAC_TOE) == 3


@pytest.mark.parametrize("value", [6, -1, (3, 2), (0, 6), True, 2.0, "3", (1, 2, 3)])
def test_bad_opening_plies_name_the_value_and_the_limit(value: object) -> None:
    with pytest.raises(ValueError, match=r"opening_plies=.* is not allowed: .*<= 5 on"):
        make(2, opening_plies=value)
