"""scripts._pgx_bench and the Pgx rows of scripts/bench_envs.py: the note without Pgx, the ply count, legal random moves."""

from __future__ import annotations

import re
import sys

import gymnasium as gym
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

import envs  # noqa: F401  (registers the environments)
from envs import _kernels as K
from scripts import bench_envs
from scripts._pgx_bench import plies_made, random_actions


def test_bench_envs_without_pgx_prints_a_note_and_its_other_rows(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """With ``import pgx`` failing the script still prints every other row, says in one line why Pgx was skipped, and exits 0."""
    monkeypatch.setitem(sys.modules, "pgx", None)  # None in sys.modules: the import raises ImportError
    status = bench_envs.main(["--seconds", "0.01", "--rounds", "1", "--num-envs", "2", "--pgx-boards", "4"])
    out = capsys.readouterr().out
    assert status == 0
    notes = [line for line in out.splitlines() if line.startswith("Pgx baseline skipped")]
    assert len(notes) == 1 and "pgx is not installed" in notes[0]
    assert "batched vector env, 2 boards, random opponent" in out
    assert "ours / Pgx" not in out


def test_bench_envs_with_pgx_prints_both_games_and_ratios(capsys: pytest.CaptureFixture[str]) -> None:
    """With Pgx installed (its own venv, see the README) the table has each game at each batch size with a ratio and the goal."""
    pytest.importorskip("pgx")
    assert bench_envs.main(["--seconds", "0.01", "--rounds", "1", "--num-envs", "2", "--pgx-boards", "4,8"]) == 0
    out = capsys.readouterr().out
    for game in ("Connect-4 6x7", "tic-tac-toe"):
        for boards in (4, 8):
            assert re.search(rf"{game}, {boards} boards +[\d,]+ +[\d,]+ +[\d.,]+x +>= 2x: (met|NOT met)", out), out
    assert "Pgx JIT compilation (excluded above)" in out and "Pgx baseline skipped" not in out


@settings(max_examples=60, deadline=None)
@given(arrays(np.int8, st.tuples(st.integers(1, 20), st.integers(1, 9)), elements=st.integers(0, 1)), st.integers(0, 2**32))
def test_random_actions_are_legal(masks: np.ndarray, seed: int) -> None:
    """Every drawn action is a legal entry of its row (rows with no legal action get one: the benchmark never has such rows)."""
    masks[:, 0] |= masks.sum(axis=1) == 0
    actions = random_actions(np.random.default_rng(seed), masks)
    assert (masks[np.arange(len(masks)), actions] == 1).all()


def test_random_actions_are_uniform_over_the_legal_ones() -> None:
    """Over 60,000 draws from one mask each of its 4 legal actions comes up a quarter of the time (within 2%)."""
    masks = np.tile(np.array([0, 1, 1, 0, 1, 0, 0, 1, 0], dtype=np.int8), (60_000, 1))
    counts = np.bincount(random_actions(np.random.default_rng(3), masks), minlength=9)
    assert counts[[0, 3, 5, 6, 8]].sum() == 0
    assert np.allclose(counts[[1, 2, 4, 7]] / 60_000, 0.25, atol=0.02)


@pytest.mark.parametrize("env_id", ["alphabeta/Connect4-v0", "alphabeta/TicTacToe-v0"])
def test_plies_made_counts_the_stones_played(env_id: str) -> None:
    """Summed over a run, the plies read from the infos are the stones the boards' histories gained (resets counted from 0)."""
    env = gym.make_vec(env_id, num_envs=16, vectorization_mode="vector_entry_point")
    batch = env.unwrapped._batch
    rng = np.random.default_rng(5)
    _obs, infos = env.reset(seed=5)
    ended = np.zeros(16, dtype=bool)
    counted = expected = 0
    for _ in range(80):
        before = batch.meta[:, K.M_PLY].copy()
        _obs, _rewards, terminated, _truncated, infos = env.step(random_actions(rng, infos["action_mask"]))
        after = batch.meta[:, K.M_PLY]
        expected += int(np.where(ended, after, after - before).sum())  # an ended board restarts: its stones are new
        counted += plies_made(infos)
        ended = terminated
    assert counted == expected > 80 * 16


def test_pgx_draws_legal_actions_only() -> None:
    """The Pgx side's random action (drawn inside the jitted step) is legal on every mask, and every legal action comes up."""
    jax = pytest.importorskip("jax")
    pytest.importorskip("pgx")
    from scripts._pgx_bench import legal_random_action

    masks = np.random.default_rng(0).random((500, 7)) < 0.3
    masks[np.arange(500), np.random.default_rng(1).integers(7, size=500)] = True
    keys = jax.random.split(jax.random.PRNGKey(0), 500)
    actions = np.asarray(jax.jit(jax.vmap(legal_random_action))(keys, masks))
    assert masks[np.arange(500), actions].all()
    single = np.asarray(jax.vmap(legal_random_action, in_axes=(0, None))(jax.random.split(jax.random.PRNGKey(2), 400), masks[0]))
    assert set(single.tolist()) == set(np.flatnonzero(masks[0]).tolist())
