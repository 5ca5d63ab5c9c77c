"""Benchmark the game core: random-game throughput against PettingZoo's Connect-4.

Measures complete uniformly random games per second and moves per second for:

1. Connect-4 6x7 with the numba batch kernel ``games.random_playouts``, bitboard
   (the default) and array (``bitboard=False``) kernels;
2. m,n,k 15,15,5 (``games.GOMOKU``) with ``random_playouts``;
3. the Python facade, one call per move (``Position.legal_moves`` / ``play``),
   the number comparable with PettingZoo's per-step API;
4. the baseline, PettingZoo ``connect_four_v3`` random play through ``env.step``
   (needs the ``bench`` extra: ``pip install -e ".[bench]"``; skipped if missing).

numba compile/cache-load time is measured apart as "JIT warm-up"; each
measurement runs batches until ``--seconds`` have elapsed.  Run it with
``python -m scripts.bench_games [--seconds 3.0] [--seed 0] [--markdown]``.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from typing import Callable, Optional, Sequence

import numpy as np
from gymnasium.error import DependencyNotInstalled

import games
from scripts._args import non_negative_int, positive_float
from scripts._report import print_machine_and_command, print_table

Batch = Callable[[int, int], tuple[int, int]]
"""``run(n_games, batch_index) -> (games, moves)``: play a batch of random games."""


def measure(run: Batch, seconds: float) -> tuple[float, float]:
    """Run batches of doubling size (capped by the time left) until ``seconds`` have elapsed.

    Returns:
        ``(games per second, moves per second)`` over all batches.
    """
    n, batch, n_games, n_moves, elapsed = 1, 0, 0, 0, 0.0
    start = time.perf_counter()
    while elapsed < seconds:
        g, m = run(n, batch)
        n_games, n_moves, batch = n_games + g, n_moves + m, batch + 1
        elapsed = time.perf_counter() - start
        n = max(1, min(2 * n, int(n_games / elapsed * (seconds - elapsed)) + 1))
    return n_games / elapsed, n_moves / elapsed


def kernel_batch(game: games.KInARow, seed: int, bitboard: Optional[bool] = None) -> Batch:
    """A batch of ``games.random_playouts`` from the empty board; batch ``i`` uses seed ``seed + i``."""

    def run(n: int, i: int) -> tuple[int, int]:
        stats = games.random_playouts(game, n, seed=seed + i, bitboard=bitboard)
        return stats.games, stats.moves

    return run


def facade_batch(seed: int) -> Batch:
    """Connect-4 games played move by move through ``Position``, moves drawn by a seeded ``random.Random``."""
    rng = random.Random(seed)

    def run(n: int, _: int) -> tuple[int, int]:
        moves = 0
        for _ in range(n):
            pos = games.CONNECT4.position()
            while not pos.is_terminal():
                pos.play(rng.choice(pos.legal_moves()))
                moves += 1
        return n, moves

    return run


def pettingzoo_batch(seed: int) -> Optional[Batch]:
    """Random PettingZoo ``connect_four_v3`` games through ``env.step``, or None if it is not installed."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # keep pygame's banner out of the table
    try:
        from pettingzoo.classic import connect_four_v3
    except (ImportError, DependencyNotInstalled):
        return None
    env = connect_four_v3.env()
    rng = np.random.default_rng(seed)

    def run(n: int, _: int) -> tuple[int, int]:
        moves = 0
        for _ in range(n):
            env.reset(seed=seed)  # the game itself is deterministic: the moves come from ``rng``
            for _ in env.agent_iter():
                obs, _rew, term, trunc, _info = env.last()
                action = None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"])))
                env.step(action)
                moves += action is not None
        return n, moves

    return run


def main(argv: Sequence[str] | None = None) -> int:
    """Run every measurement and print the table, the machine and the command line.

    Args:
        argv: command-line arguments without the program name (default: ``sys.argv[1:]``).

    Returns:
        The exit status, 0.
    """
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=positive_float, default=3.0, help="target wall time per measurement (default 3.0)")
    parser.add_argument("--seed", type=non_negative_int, default=0, help="random seed (default 0)")
    parser.add_argument("--markdown", action="store_true", help="print the table as Markdown")
    args = parser.parse_args(argv)

    ours: list[tuple[str, Batch]] = [
        ("Connect-4 6x7, random_playouts (bitboard)", kernel_batch(games.CONNECT4, args.seed)),
        ("Connect-4 6x7, random_playouts (array)", kernel_batch(games.CONNECT4, args.seed, bitboard=False)),
        ("m,n,k 15,15,5, random_playouts", kernel_batch(games.GOMOKU, args.seed)),
        ("Connect-4 6x7, Position.play per move", facade_batch(args.seed)),
    ]
    start = time.perf_counter()
    for _, run in ours:
        run(1, 0)
    warmup = time.perf_counter() - start

    rows = [(what, *measure(run, args.seconds)) for what, run in ours]
    baseline = pettingzoo_batch(args.seed)
    if baseline is not None:
        rows.append(("PettingZoo connect_four_v3, env.step", *measure(baseline, args.seconds)))
    base_moves = rows[-1][2] if baseline is not None else None

    header = ("what", "games/s", "moves/s", "vs PettingZoo moves/s")
    print_table(header, [
        (what, f"{g:,.0f}", f"{m:,.0f}", f"{m / base_moves:,.1f}x" if base_moves else "n/a") for what, g, m in rows
    ], args.markdown)  # fmt: skip
    if baseline is None:
        print('\nPettingZoo baseline skipped: pettingzoo or pygame is not installed (pip install -e ".[bench]").')
    print(f"\nJIT warm-up (compile or cache load, excluded above): {warmup:.2f} s")
    print_machine_and_command(argv)
    return 0


if __name__ == "__main__":
    sys.exit(main())
