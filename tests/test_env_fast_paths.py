"""The batched env's fast paths (numba episode streams, bitboard win test on m,n,k boards) change no game.

Two checks: random play hashes to what the code before them produced (the
digests below were computed at commit 3dcbc01 with this file's loop), and
every episode's end agrees with the game core's rules replayed move by move.
"""

from __future__ import annotations

import hashlib
from typing import Any

import gymnasium as gym
import numba
import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import envs._batch  # registers the environments, and holds the threaded-step threshold
from envs import _kernels as K
from games import MNK, Connect4

CASES: list[tuple[str, dict[str, Any], str]] = [
    ("alphabeta/TicTacToe-v0", {}, "d0c6baf507fb952d"),
    ("alphabeta/Connect4-v0", {}, "a06f9e203dbbb365"),
    ("alphabeta/MNK-v0", {"rows": 4, "cols": 5, "k": 3}, "b8bc9302f1073523"),
    ("alphabeta/MNK-v0", {"rows": 5, "cols": 5, "k": 4, "exact_k": True}, "3b82cc5babd62978"),
    ("alphabeta/Connect4-v0", {"rows": 5, "cols": 6, "k": 3, "exact_k": True}, "8455390543efb8e9"),
    ("alphabeta/Gomoku-v0", {}, "e5b1061353d8c3d3"),
    ("alphabeta/TicTacToe-v0", {"agent_plays": "random", "opening_plies": (0, 2)}, "03258e49d99e3710"),
]


def play_digest(env_id: str, options: dict[str, Any]) -> str:
    """Hash of 60 steps of 37 boards: random legal actions, some illegal ones, every output and info array."""
    env = gym.make_vec(env_id, num_envs=37, vectorization_mode="vector_entry_point", **options)
    rng = np.random.default_rng(1)
    digest = hashlib.sha256()
    _obs, infos = env.reset(seed=11)
    for t in range(60):
        masks = infos["action_mask"]
        actions = np.argmax(masks * rng.random(masks.shape), axis=1)
        if t % 7 == 3:
            actions[::5] = rng.integers(env.single_action_space.n, size=actions[::5].shape)  # some illegal
        obs, rewards, terminated, truncated, infos = env.step(actions)
        for array in (obs, rewards, terminated, truncated):
            digest.update(array.tobytes())
        for key in sorted(infos):
            digest.update(key.encode())
            digest.update(np.asarray(infos[key]).tobytes())
    return digest.hexdigest()[:16]


@pytest.mark.parametrize(("env_id", "options", "expected"), CASES, ids=[f"{c[0]}{c[1]}" for c in CASES])
def test_random_play_is_what_it_was(env_id: str, options: dict[str, Any], expected: str) -> None:
    """Observations, rewards, flags and infos of seeded random play are bit for bit those of the code before."""
    assert play_digest(env_id, options) == expected


@pytest.mark.parametrize(("env_id", "options", "expected"), CASES[:4], ids=[f"{c[0]}{c[1]}" for c in CASES[:4]])
@pytest.mark.xdist_group("threaded_step")  # one worker: the threaded kernel is not cached (11 s of compiling per process)
def test_the_threaded_step_plays_what_the_serial_step_played(env_id: str, options: dict[str, Any], expected: str,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    """The step kernel spread over threads (big batches) gives the same digests, illegal actions included."""
    monkeypatch.setattr(envs._batch, "PARALLEL_STEP_BOARDS", 1)
    if numba.get_num_threads() < 2:
        pytest.skip("one numba thread: the env never takes the threaded step")
    assert play_digest(env_id, options) == expected


@settings(max_examples=25, deadline=None)
@given(st.integers(2, 6), st.integers(2, 7), st.integers(2, 5), st.booleans(), st.booleans(), st.integers(0, 2**32))
def test_episode_ends_agree_with_the_rules(rows: int, cols: int, k: int, gravity: bool, exact_k: bool, seed: int) -> None:
    """After every step each board's game is over exactly when the game core, replaying its moves, says so, with the same winner."""
    assume(k <= max(rows, cols))  # a longer line fits no board
    game = Connect4(rows, cols, k, exact_k) if gravity else MNK(rows, cols, k, exact_k)
    env_id = "alphabeta/Connect4-v0" if gravity else "alphabeta/MNK-v0"
    env = gym.make_vec(env_id, num_envs=8, vectorization_mode="vector_entry_point", rows=rows, cols=cols, k=k,
                       exact_k=exact_k, agent_plays="random")  # fmt: skip
    batch = env.unwrapped._batch
    rng = np.random.default_rng(seed)
    _obs, infos = env.reset(seed=seed)
    for _ in range(3 * rows * cols):
        masks = infos["action_mask"]
        actions = np.argmax(masks * rng.random(masks.shape), axis=1)
        _obs, _rewards, terminated, _truncated, infos = env.step(actions)
        for i in range(8):
            position = game.position(batch.history[i, : batch.meta[i, K.M_PLY]].tolist())
            assert bool(terminated[i]) == position.is_terminal()
            if terminated[i]:
                assert infos["winner"][i] == (-1 if position.winner is None else position.winner)
