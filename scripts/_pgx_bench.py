"""The Pgx rows of ``scripts/bench_envs.py``: our batched env against Pgx on CPU, in plies per second (goal: >= 2x).

Pgx (Koyamada et al., "Pgx: Hardware-Accelerated Parallel Game Simulators
for Reinforcement Learning", NeurIPS 2023 Datasets and Benchmarks track) is
a collection of board games written in JAX, stepped many boards at a time
with ``jax.jit(jax.vmap(env.step))``.  It is an optional baseline: without
``import pgx`` these rows are skipped with a one-line note.

How the two sides are made comparable (both on the same games: Pgx's
``connect_four`` is Connect-4 6x7, its ``tic_tac_toe`` 3x3 with three in a
row, ours ``alphabeta/Connect4-v0`` and ``alphabeta/TicTacToe-v0``):

* **Unit: plies (moves made) per second.**  A Pgx step is one ply by the
  side to move.  One of our steps is the agent's move and the random
  opponent's reply (one ply when the agent's move ends the game), and with
  Gymnasium's default next-step autoreset the step after a board's game
  ended only resets it (no ply; with the agent moving first the opponent
  does not move at reset either).  So our plies are counted from what each
  step reports: ``info["agent_action"] >= 0`` and
  ``info["opponent_action"] >= 0``, summed over the boards.
* **Same batch sizes** (``--pgx-boards``, 1,024 and 4,096 by default), random
  legal moves on both sides.  Ours: the agent's action drawn per board by
  the benchmark from the action mask in numpy (:func:`random_actions`), the
  opponent's inside the step kernel.  Pgx: a
  function ``jax.jit(jax.vmap(...))`` of the states and a key that draws
  every board's action inside the jitted function (``jax.random.categorical``
  over the legal action mask, as Pgx's own examples do) and steps through
  ``pgx.experimental.auto_reset`` (a board whose game ended starts a new one
  in the same step).
* **Clock**: JIT compilation (Pgx's first call, our kernels' compile or cache
  load) is done before and reported apart; Pgx's loop calls
  ``jax.block_until_ready`` before the clock stops (JAX dispatches
  asynchronously).  The rows take part in ``bench_envs``' interleaved rounds
  and report their best round.
* **Threads**: ours steps 256 boards or more on numba's threads
  (``envs._batch.PARALLEL_STEP_BOARDS``); XLA's CPU backend may use every
  core.  Neither is pinned.
"""

from __future__ import annotations

import time
from typing import Any, Callable, Optional

import gymnasium as gym
import numpy as np

import envs  # noqa: F401  (registers the alphabeta/ environments)

Run = Callable[[float], int]
"""``run(seconds) -> plies``: step for about ``seconds`` (at least once); return the plies made."""

GAMES = (("Connect-4 6x7", "alphabeta/Connect4-v0", "connect_four"), ("tic-tac-toe", "alphabeta/TicTacToe-v0", "tic_tac_toe"))
"""(name, our env id, Pgx env id) of the games both sides have."""
PGX_TARGET = 2.0
"""The goal: our batched env at >= 2x Pgx's plies/s on both games."""


def random_actions(rng: np.random.Generator, masks: np.ndarray) -> np.ndarray:
    """One uniformly random legal action per row of ``masks`` (int8 or bool[boards, actions], a legal one in each row).

    The argmax of ``mask + key`` with uniform keys in [0, 1): legal entries score in [1, 2), illegal ones
    below 1, so the choice is always legal, and each legal entry is equally likely to win (float32 keys, a sixth
    faster than float64 at 4,096 boards, measured: a tie, won by the lower index, has probability about 2**-23).
    """
    keys = rng.random(masks.shape, dtype=np.float32)
    keys += masks
    actions: np.ndarray = np.argmax(keys, axis=1)
    return actions


def plies_made(infos: dict[str, Any]) -> int:
    """The plies one step of our vector env made, from its infos: agent moves plus opponent replies (-1: none)."""
    return int(np.count_nonzero(infos["agent_action"] >= 0)) + int(np.count_nonzero(infos["opponent_action"] >= 0))


def plies_run(env_id: str, boards: int, seed: int) -> Run:
    """Our batched vector env on ``env_id`` with ``boards`` boards, random agent and opponent, counting plies."""
    env = gym.make_vec(env_id, num_envs=boards, vectorization_mode="vector_entry_point")
    rng = np.random.default_rng(seed)
    _obs, infos = env.reset(seed=seed)
    state = {"infos": infos}

    def run(seconds: float) -> int:
        plies, start = 0, time.perf_counter()
        while plies == 0 or time.perf_counter() - start < seconds:
            _obs, _rewards, _terminated, _truncated, infos = env.step(random_actions(rng, state["infos"]["action_mask"]))
            plies += plies_made(infos)
            state["infos"] = infos
        return plies

    return run


def pgx_available() -> Optional[str]:
    """Pgx's version, or None when ``import pgx`` (or JAX) fails."""
    try:
        import jax  # noqa: F401
        import pgx
    except ImportError:
        return None
    return str(pgx.__version__)


def legal_random_action(key: Any, mask: Any) -> Any:
    """A uniformly random action where ``mask`` (bool[actions], one True at least) is True, drawn by JAX from ``key``."""
    import jax
    import jax.numpy as jnp

    return jax.random.categorical(key, jnp.where(mask, 0.0, -jnp.inf))


def pgx_step(env_id: str, boards: int) -> tuple[Callable[[Any, Any], Any], Callable[[Any], Any]]:
    """Pgx's jitted batch step ``(states, key) -> (states, key)`` with random legal actions, and its ``init(key)``.

    Imports JAX and Pgx: call only when :func:`pgx_available` says they are there.
    """
    import jax
    import pgx
    from pgx.experimental import auto_reset

    env = pgx.make(env_id)
    step = auto_reset(env.step, env.init)

    def one(state: Any, key: Any) -> Any:
        act_key, step_key = jax.random.split(key)
        return step(state, legal_random_action(act_key, state.legal_action_mask), step_key)

    @jax.jit
    def batch_step(states: Any, key: Any) -> Any:
        key, sub = jax.random.split(key)
        return jax.vmap(one)(states, jax.random.split(sub, boards)), key

    init = jax.jit(jax.vmap(env.init))
    return batch_step, lambda key: init(jax.random.split(key, boards))


def pgx_run(env_id: str, boards: int, seed: int) -> tuple[Run, float]:
    """Pgx's ``env_id`` with ``boards`` boards, random legal moves: the run and its compile seconds (first calls)."""
    import jax

    start = time.perf_counter()
    batch_step, init = pgx_step(env_id, boards)
    key = jax.random.PRNGKey(seed)
    states = init(key)
    states, key = batch_step(states, key)
    jax.block_until_ready(states)
    compile_seconds = time.perf_counter() - start
    held = {"states": states, "key": key}

    def run(seconds: float) -> int:
        plies, start = 0, time.perf_counter()
        states, key = held["states"], held["key"]
        while plies == 0 or time.perf_counter() - start < seconds:
            states, key = batch_step(states, key)  # one ply on every board
            plies += boards
        jax.block_until_ready(states)  # the clock must cover the work dispatched, not only its dispatch
        held["states"], held["key"] = states, key
        return plies

    return run, compile_seconds


def pgx_rows(boards: tuple[int, ...], seed: int) -> Optional[tuple[list[tuple[str, Run, Run]], float]]:
    """For each game and batch size (name, our run, Pgx's run), and the seconds spent compiling; None without Pgx."""
    start = time.perf_counter()
    if pgx_available() is None:
        return None
    rows, compile_seconds = [], time.perf_counter() - start  # importing JAX counts as Pgx's set-up
    for name, ours, theirs in GAMES:
        for n in boards:
            mine = plies_run(ours, n, seed)
            mine(0.0)  # our kernels compile or load before the clock
            run, seconds = pgx_run(theirs, n, seed)
            compile_seconds += seconds
            rows.append((f"{name}, {n:,} boards", mine, run))
    return rows, compile_seconds


def pgx_table(rows: list[tuple[str, Run, Run]], rates: list[tuple[float, float]]) -> list[tuple[str, str, str, str, str]]:
    """Table rows (game and boards, our plies/s, Pgx's plies/s, ratio, the 2x goal) from each row's best rates."""
    table = []
    for (what, _, _), (ours, theirs) in zip(rows, rates):
        ratio = ours / theirs
        goal = f">= {PGX_TARGET:.0f}x: " + ("met" if ratio >= PGX_TARGET else "NOT met")
        table.append((what, f"{ours:,.0f}", f"{theirs:,.0f}", f"{ratio:,.2f}x", goal))
    return table
