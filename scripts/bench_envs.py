"""Benchmark the environments: steps per second against PettingZoo's Connect-4, measured in the same run.

Rows, all Connect-4 6x7 with uniformly random legal agent actions:

1. the baseline, PettingZoo ``connect_four_v3`` (``env.last()`` then
   ``env.step``, both players random; one step is one move; needs the
   ``bench`` extra);
2. ``gym.make("alphabeta/Connect4-v0")`` with the built-in random opponent
   (one step is the agent's move and the opponent's reply);
3. the batched vector env, ``gym.make_vec(..., num_envs=256,
   vectorization_mode="vector_entry_point")``, random opponent: every board
   that steps counts (autoreset steps included, as for any vector env);
4. the single env against alpha-beta opponents of depth 2 and 4
   (``alphabeta:depth=d``, the default heuristic ``c4_features``);
5. the batched vector env against ``alphabeta:depth=2,tt=4096`` (one
   table of 4,096 slots per board), whose replies are searched for all
   boards in one numba call (:mod:`envs.batched`), and its ratio to row 4's
   depth-2 single env, measured in the same run (goal: >= 16x): searched on
   one thread, then the default (from 64 boards, on numba's threads where
   the batch measured them faster than one thread in its own calls).
6. optional: Pgx's ``connect_four`` and ``tic_tac_toe`` against our batched
   env on the same games and batch sizes (``--pgx-boards``), in plies per
   second (goal: >= 2x Pgx); the methodology is in :mod:`scripts._pgx_bench`.
   Skipped with a one-line note when ``import pgx`` fails (it is no
   dependency: ``pip install -e ".[pgx]"``, in a venv of its own).

Agent actions are drawn the same way for everyone from the action mask with
a seeded numpy generator.  JIT warm-up happens before the clock starts and
is reported apart.  The rows are measured in ``--rounds`` interleaved rounds
and each reports its best round (as ``timeit`` reports its best repeat).  Run ``python -m scripts.bench_envs [--seconds 3] [--markdown]``
(on an otherwise idle machine: other jobs lower every row).  ``--clock cpu``
divides by the process's CPU time instead, with numba's threads off (no
threaded or Pgx rows): on a shared machine a row then loses much less to
other jobs, and the ratios of the one-thread rows stay comparable.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from typing import Callable, Optional, Sequence

import gymnasium as gym
import numba
import numpy as np
from gymnasium.error import DependencyNotInstalled

import envs  # noqa: F401  (registers the alphabeta/ environments)
from scripts._args import int_list, non_negative_int, positive_float, positive_int
from scripts._pgx_bench import pgx_available, pgx_rows, pgx_table
from scripts._report import print_machine_and_command, print_table

Run = Callable[[float], int]
"""``run(seconds) -> steps``: play whole episodes (at least one) for about ``seconds``; return the steps taken."""

TARGETS = {"single": 12.0, "batched": 100.0}
OPPONENT_TARGET = 16.0
"""The goal: the batched env with a depth-2 alpha-beta opponent at >= 16x the single env's steps/s."""


def random_legal(rng: np.random.Generator, mask: np.ndarray) -> int:
    """A uniformly random legal action (the chooser every row uses)."""
    legal = np.flatnonzero(mask)
    return int(legal[rng.integers(len(legal))])


def pettingzoo_run(seed: int) -> Optional[Run]:
    """Random PettingZoo ``connect_four_v3`` play, or None if it is not installed."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    try:
        from pettingzoo.classic import connect_four_v3
    except (ImportError, DependencyNotInstalled):
        return None
    env = connect_four_v3.env()
    rng = np.random.default_rng(seed)

    def run(seconds: float) -> int:
        steps, start = 0, time.perf_counter()
        while steps == 0 or time.perf_counter() - start < seconds:
            env.reset(seed=seed)
            for agent in env.agent_iter():
                obs, _reward, terminated, truncated, _info = env.last()
                env.step(None if terminated or truncated else random_legal(rng, obs["action_mask"]))
                steps += 1
        return steps

    return run


def single_run(seed: int, opponent: str) -> Run:
    """Our ``alphabeta/Connect4-v0`` through ``gym.make`` against ``opponent``."""
    env = gym.make("alphabeta/Connect4-v0", opponent=opponent)
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)

    def run(seconds: float) -> int:
        steps, start = 0, time.perf_counter()
        while steps == 0 or time.perf_counter() - start < seconds:
            _obs, info = env.reset()
            done = False
            while not done:
                _obs, _reward, done, _truncated, info = env.step(random_legal(rng, info["action_mask"]))
                steps += 1
        return steps

    return run


def batched_run(seed: int, num_envs: int, opponent: object = "random") -> Run:
    """The batched vector env with ``num_envs`` boards and ``opponent``."""
    env = gym.make_vec("alphabeta/Connect4-v0", num_envs=num_envs, vectorization_mode="vector_entry_point",
                       opponent=opponent)  # fmt: skip
    rng = np.random.default_rng(seed)
    _obs, infos = env.reset(seed=seed)
    state = {"infos": infos}

    def run(seconds: float) -> int:
        steps, start = 0, time.perf_counter()
        while steps == 0 or time.perf_counter() - start < seconds:
            masks = state["infos"]["action_mask"]
            # One uniform legal action per board: the argmax of random keys over the legal entries.
            actions = np.argmax(masks * rng.random(masks.shape), axis=1)
            _obs, _rewards, _terminated, _truncated, state["infos"] = env.step(actions)
            steps += num_envs
        return steps

    return run


def depth2(num_envs: int, parallel: bool) -> object:
    """``alphabeta:depth=2,tt=4096`` batched, on numba's threads or not (an opponent object: the spec has no such key)."""
    from envs.batched import AlphaBetaBatch
    from games import CONNECT4
    from search.agents import AlphaBetaAgent, make_agent

    agent = make_agent("alphabeta:depth=2,tt=4096", CONNECT4)
    assert isinstance(agent, AlphaBetaAgent)
    return AlphaBetaBatch(agent, num_envs, parallel=parallel)


def pgx_round(rows: list[tuple[str, Run, Run]], seconds: float, best: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """One round of the Pgx rows (ours then Pgx's, per game and batch size): each side's best plies/s so far."""
    rates = []
    for r, (_, *pair) in enumerate(rows):
        rate = []
        for run in pair:
            begin = time.perf_counter()
            rate.append(run(seconds) / (time.perf_counter() - begin))
        rates.append((max(rate[0], best[r][0]), max(rate[1], best[r][1])) if best else (rate[0], rate[1]))
    return rates


def print_pgx(pgx: Optional[tuple[list[tuple[str, Run, Run]], float]], best: list[tuple[float, float]], markdown: bool) -> None:
    """The Pgx table with its ratios and compile time, or the note saying why it was skipped."""
    if pgx is None:
        print('\nPgx baseline skipped: pgx is not installed (pip install -e ".[pgx]" in a venv of its own, see the README).')
        return
    print(f"\nBatched env vs Pgx {pgx_available()}, random legal moves on both sides, plies per second "
          f"(see scripts/_pgx_bench.py):")  # fmt: skip
    print_table(("game, batch", "ours plies/s", "Pgx plies/s", "ours / Pgx", "goal"), pgx_table(pgx[0], best), markdown)
    print(f"Pgx JIT compilation (excluded above): {pgx[1]:.2f} s")


def main(argv: Sequence[str] | None = None) -> int:
    """Run every measurement and print the table, the machine and the command line.

    Args:
        argv: command-line arguments without the program name (default: ``sys.argv[1:]``).

    Returns:
        The exit status, 0.
    """
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=positive_float, default=3.0, help="wall time per row, over all rounds (default 3.0)")
    parser.add_argument("--rounds", type=positive_int, default=3, help="interleaved rounds; each row reports its best (default 3)")
    parser.add_argument("--num-envs", type=positive_int, default=256, help="boards of the batched env (default 256)")
    parser.add_argument("--seed", type=non_negative_int, default=0, help="random seed (default 0)")
    parser.add_argument("--markdown", action="store_true", help="print the table as Markdown")
    parser.add_argument("--pgx-boards", type=int_list(1, 1 << 16), default=(1024, 4096),
                        help="batch sizes of the Pgx rows, comma-separated (default 1024,4096)")  # fmt: skip
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                        help="wall: steps per second of wall time (default); cpu: per second of this process's CPU "
                             "time, every row on one thread (numba's threads off, no threaded or Pgx rows): other "
                             "jobs on a shared machine then slow a row much less")  # fmt: skip
    args = parser.parse_args(argv)
    threads = numba.get_num_threads()
    if args.clock == "cpu":  # CPU time adds up the threads: one thread, so that a rate is per second of one core
        numba.set_num_threads(1)
    try:
        return measure(args, argv)
    finally:
        numba.set_num_threads(threads)


def measure(args: argparse.Namespace, argv: Sequence[str] | None) -> int:
    """Run every measurement of ``main``'s parsed ``args`` and print the table, the machine and the command line."""
    cpu = args.clock == "cpu"
    clock = time.process_time if cpu else time.perf_counter

    start = time.perf_counter()
    ours: list[tuple[str, str, Run]] = [
        ("alphabeta/Connect4-v0, random opponent", "single", single_run(args.seed, "random")),
        (f"batched vector env, {args.num_envs} boards, random opponent", "batched", batched_run(args.seed, args.num_envs)),
        ("alphabeta/Connect4-v0, alphabeta:depth=2 opponent", "", single_run(args.seed, "alphabeta:depth=2")),
        ("alphabeta/Connect4-v0, alphabeta:depth=4 opponent", "", single_run(args.seed, "alphabeta:depth=4")),
        (f"batched vector env, {args.num_envs} boards, alphabeta:depth=2 opponent, one thread", "",
         batched_run(args.seed, args.num_envs, depth2(args.num_envs, parallel=False))),  # fmt: skip
    ]
    if not cpu:
        ours.append((f"the same, the default: {numba.get_num_threads()} numba threads where they measure faster", "",
                     batched_run(args.seed, args.num_envs, "alphabeta:depth=2,tt=4096")))  # fmt: skip
    for _, _, run in ours:
        run(0.0)  # at least one episode: compiles or loads every kernel
    pgx = None if cpu else pgx_rows(args.pgx_boards, args.seed)  # None without Pgx; compiles apart, timed apart
    warmup = time.perf_counter() - start - (pgx[1] if pgx else 0.0)

    baseline = pettingzoo_run(args.seed)
    runs = ([baseline] if baseline is not None else []) + [run for _, _, run in ours]
    # Rounds interleave every row, and each row keeps its best round: on a shared machine a burst of
    # load then hits one round of one row, not the whole of one row.
    best = [0.0] * len(runs)
    pgx_best: list[tuple[float, float]] = []
    for _ in range(args.rounds):
        for r, run in enumerate(runs):
            begin = clock()
            best[r] = max(best[r], run(args.seconds / args.rounds) / (clock() - begin))
        pgx_best = pgx_round(pgx[0] if pgx else [], args.seconds / args.rounds, pgx_best)
    base_rate = best[0] if baseline is not None else None
    rows = []
    if base_rate is not None:
        rows.append(("PettingZoo connect_four_v3, random", f"{base_rate:,.0f}", "1.0x", ""))
    for (what, target, _), rate in zip(ours, best[len(runs) - len(ours):]):
        ratio = f"{rate / base_rate:,.1f}x" if base_rate else "n/a"
        goal = ""
        if target and base_rate:
            goal = f">= {TARGETS[target]:.0f}x: " + ("met" if rate / base_rate >= TARGETS[target] else "NOT met")
        rows.append((what, f"{rate:,.0f}", ratio, goal))
    print_table(("what", "steps/s", "vs PettingZoo", "target"), rows, args.markdown)
    first = len(runs) - len(ours)
    single_d2 = best[first + 2]
    for name, rate in zip(("serial", "parallel"), best[first + 4 :]):
        ratio = rate / single_d2
        print(f"\nalphabeta:depth=2 opponent, batched env ({name}) vs single env: {ratio:,.1f}x "
              f"(goal >= {OPPONENT_TARGET:.0f}x: {'met' if ratio >= OPPONENT_TARGET else 'NOT met'})", end="")  # fmt: skip
    print()
    if cpu:
        print("\nRates per second of this process's CPU time (--clock cpu), every row on one thread; no threaded or "
              "Pgx rows.")  # fmt: skip
    else:
        print_pgx(pgx, pgx_best, args.markdown)
    if baseline is None:
        print('\nPettingZoo baseline skipped: pettingzoo or pygame is not installed (pip install -e ".[bench]").')
    print(f"\nJIT warm-up (compile or cache load, excluded above): {warmup:.2f} s")
    print_machine_and_command(argv, extra=f", gymnasium {gym.__version__}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
