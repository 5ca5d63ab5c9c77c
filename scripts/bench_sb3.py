"""Benchmark MaskablePPO training speed: the batched env's SB3 adapter against SB3's DummyVecEnv, in one run.

Rows, Connect-4 6x7 against the built-in random opponent, sides drawn at
random, ``MlpPolicy``, one torch thread:

1. ``DummyVecEnv`` over 8 single envs (``gym.make("alphabeta/Connect4-v0")``),
   the usual way to train on these envs (the baseline, 1.00x);
2. :class:`envs.sb3.SB3VecEnv` over the batched env with 8 boards (same
   number of envs: what the adapter saves per step);
3. the adapter with ``--boards`` boards (default 256: what batching buys).

Every row collects rollouts of the same size (``--rollout`` env steps:
``n_steps = rollout // envs``, default 4096) and trains on them with the
same minibatch (1024) and epochs (4), so the gradient work per env step is
equal and steps/s compares whole ``learn()`` calls.  The gradient steps cost
the same in every row and bound the ratio: with SB3's small default
minibatch (64) training dominates and no env can be 3x faster.  A first short ``learn()`` per row warms up numba
and torch before the clock starts.  Each row reports its best of
``--rounds`` interleaved rounds.  The issue's goal is row 3 >= 3x row 1.

Run ``python scripts/bench_sb3.py [--steps 16384] [--rounds 2] [--boards 256]``.
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from typing import Any, Optional, Sequence

import gymnasium as gym

import envs  # noqa: F401  (registers the alphabeta/ environments)

ENV_ID = "alphabeta/Connect4-v0"
KWARGS = {"opponent": "random", "agent_plays": "random"}


def positive_int(text: str) -> int:
    """argparse type: an integer >= 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} must be at least 1")
    return value


def parser() -> argparse.ArgumentParser:
    """The command line."""
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--steps", type=positive_int, default=16384, help="env steps per timed learn() call (default 16384)")
    p.add_argument("--rounds", type=positive_int, default=2, help="interleaved rounds; each row reports its best")
    p.add_argument("--boards", type=positive_int, default=256, help="boards of the large adapter row (default 256)")
    p.add_argument("--rollout", type=positive_int, default=4096, help="env steps per rollout, every row (default 4096)")
    p.add_argument("--batch-size", type=positive_int, default=1024, help="PPO minibatch, every row (default 1024)")
    p.add_argument("--epochs", type=positive_int, default=4, help="PPO epochs per rollout, every row (default 4)")
    p.add_argument("--seed", type=int, default=0)
    return p


def make_model(kind: str, n_envs: int, args: argparse.Namespace) -> Any:
    """A MaskablePPO model on ``n_envs`` envs of ``kind`` (``"dummy"`` or ``"adapter"``)."""
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv

    from envs.sb3 import make_sb3_vec_env

    if kind == "dummy":
        vec: Any = DummyVecEnv([lambda: gym.make(ENV_ID, **KWARGS) for _ in range(n_envs)])
    else:
        vec = make_sb3_vec_env(ENV_ID, n_envs, **KWARGS)
    n_steps = max(1, args.rollout // n_envs)
    return MaskablePPO("MlpPolicy", vec, n_steps=n_steps, batch_size=args.batch_size, n_epochs=args.epochs, seed=args.seed,
                       device="cpu")  # fmt: skip


def timed(model: Any, steps: int) -> float:
    """Env steps per second of one ``learn(steps)`` call."""
    start = time.perf_counter()
    before = model.num_timesteps
    model.learn(steps, reset_num_timesteps=False)
    return (model.num_timesteps - before) / (time.perf_counter() - start)


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Print one line per row: envs, steps/s and the ratio to DummyVecEnv."""
    args = parser().parse_args(argv)
    if args.rollout < args.boards or args.rollout < 8:
        parser().error(f"--rollout {args.rollout} must be at least --boards {args.boards} and 8")
    try:
        import torch
    except ImportError:
        parser().error('needs torch, stable-baselines3 and sb3-contrib: pip install -e ".[rl]"')
    torch.set_num_threads(1)
    rows: list[tuple[str, str, int]] = [
        ("DummyVecEnv (8 single envs)", "dummy", 8),
        ("SB3VecEnv adapter, 8 boards", "adapter", 8),
        (f"SB3VecEnv adapter, {args.boards} boards", "adapter", args.boards),
    ]
    models = [make_model(kind, n, args) for _, kind, n in rows]
    start = time.perf_counter()
    for model in models:
        model.learn(args.rollout, reset_num_timesteps=False)  # warm-up: numba compile, torch first calls
    print(f"# warm-up (numba compile, torch first calls): {time.perf_counter() - start:.1f} s")
    best = [0.0] * len(rows)
    for _ in range(args.rounds):
        for i, model in enumerate(models):
            best[i] = max(best[i], timed(model, args.steps))
    print(f"# {platform.machine()} {platform.processor() or ''}, python {platform.python_version()}, torch "
          f"{torch.__version__}, 1 thread; command: {' '.join(sys.argv)}")  # fmt: skip
    print("| row | envs | MaskablePPO steps/s | vs DummyVecEnv |")
    print("| --- | ---: | ---: | ---: |")
    for (label, _, n), rate in zip(rows, best):
        print(f"| {label} | {n} | {rate:,.0f} | {rate / best[0]:.2f}x |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
